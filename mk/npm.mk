# The npm package (issue 37): web/npm/, an ES module around the page's
# own wasm32 build (build/web/page.wasm, mk/web.mk), copied in as
# web/npm/roofline.wasm. `make npm` then `cd web/npm && npm pack` makes
# the package; tests/steps/npm.sh runs `npm test` (node --test) where node
# is present.
.PHONY: npm
npm: web/npm/roofline.wasm

web/npm/roofline.wasm: build/web/page.wasm
	cp $< $@

test: web/npm/roofline.wasm
