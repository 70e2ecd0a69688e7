# The classroom page (issue 27): build/web/roofline.html, one file, opened
# from file:// in headless Chromium and driven through its DevTools
# protocol (web/browser_test.py, Python's standard library only). Every
# number the page shows from the library is compared with rfl-estimate
# --json (a CNN training step, a CNN inference, an LLM decode) and
# rfl-reduce --json (dropped CSVs) and rfl-check --json (an answer file);
# a kernel name that is HTML must show as text. Chromium comes from
# `make deps`; where it cannot be installed the browser part is skipped,
# saying so.
WEB_PAGE=build/web/roofline.html
for t in build/rfl-estimate build/rfl-reduce build/rfl-check "$WEB_PAGE"; do
  [ -e "$t" ] || step "build $t" ${MAKE:-make} -s "$t"
done

# one file: no script, style, image or frame comes from elsewhere
web_self_contained() {
  [ -s "$WEB_PAGE" ] || return 1
  if grep -Eio '<(script|link|img|iframe)[^>]*(src|href)=' "$WEB_PAGE"; then return 1; fi
  if grep -Eo '(fetch|XMLHttpRequest|importScripts)\(' "$WEB_PAGE"; then return 1; fi
  grep -q "default-src 'none'" "$WEB_PAGE"
}
step "web: the page is one self-contained file" web_self_contained

web_chromium=${RFL_CHROMIUM:-chromium}
if ! command -v "$web_chromium" > /dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  sh mk/apt-install.sh chromium >> "$LOG" 2>&1
fi
if ! command -v python3 > /dev/null 2>&1; then
  echo "web: python3 not found: browser tests skipped"
elif ! command -v "$web_chromium" > /dev/null 2>&1; then
  echo "web: chromium not found and not installable here (apt-get install chromium): browser tests skipped"
else
  run_bin python3 web/browser_test.py "$WEB_PAGE"
fi
