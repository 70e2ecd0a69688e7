# The classroom page (issue 27): `make web` writes build/web/roofline.html,
# one self-contained file: web/page.c with roofline.h compiled to
# WebAssembly (clang --target=wasm32, linked by Debian's lld, freestanding:
# no libc), inlined in base64 with web/page.js and web/page.css. Nothing
# is fetched: it works from file:// and from any static host.
# tests/steps/web.sh opens it in headless Chromium (installed by make deps).
WEB_CC    = clang
WEB_FLAGS = --target=wasm32 -Os -std=c99 -Wall -Wextra -Wpedantic -Werror \
            -ffreestanding -nostdlib -Wl,--no-entry -Wl,--strip-all \
            -Wl,-z,stack-size=1048576
WEB_PAGE  = build/web/roofline.html

.PHONY: web web-deps
web: $(WEB_PAGE)

# clang (its rule is in mk/portability.mk), wasm-ld (lld), the browser of
# the tests (chromium)
web-deps: /usr/bin/wasm-ld /usr/bin/chromium
deps: web-deps
/usr/bin/wasm-ld:
	$(call APT_INSTALL,lld)
/usr/bin/chromium:
	$(call APT_INSTALL,chromium)

build/web:
	mkdir -p $@

build/web/page.wasm: web/page.c $(HDRS) | build/web /usr/bin/clang /usr/bin/wasm-ld
	$(WEB_CC) $(WEB_FLAGS) -I. $< -o $@

$(WEB_PAGE): web/page.html web/page.js web/page.css web/inline.sh build/web/page.wasm
	sh web/inline.sh web/page.html web/page.css web/page.js build/web/page.wasm > $@.tmp
	mv $@.tmp $@

# the browser tests need the page
test: $(WEB_PAGE)

# make bench-web: the page in headless Chromium reducing the ~200 MB ncu
# export of make bench (build/bench/, never committed): total time, the
# reducer's share, and the page's longest pause while it reads.
.PHONY: bench-web
bench-web: $(WEB_PAGE) $(BENCH_CSV) build/rfl-estimate build/rfl-reduce
	python3 web/browser_test.py $(WEB_PAGE) --bench $(BENCH_CSV)
