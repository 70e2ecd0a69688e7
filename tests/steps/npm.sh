# The npm package (issue 37): node --test in web/npm against the tools'
# --json; `npm pack` makes the package. Skipped, saying so, without node.
if ! command -v node > /dev/null 2>&1; then
  echo "npm: node not found: the npm package's tests skipped"
else
  for t in web/npm/roofline.wasm build/rfl-estimate build/rfl-hw build/rfl-reduce build/rfl-check; do
    [ -e "$t" ] || step "build $t" ${MAKE:-make} -s "$t"
  done
  step "npm: node --test web/npm/test/" sh -c 'cd web/npm && node --test test/'
  if command -v npm > /dev/null 2>&1; then
    npm_pack() { (cd web/npm && npm pack --dry-run 2>&1 | grep -q 'roofline.wasm'); }
    step "npm: npm pack holds the wasm" npm_pack
  fi
fi
