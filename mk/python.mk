# The Python module (issue 37): python/roofline/ over build/libroofline.so,
# the shared build of roofline.h (python/libroofline.c: the implementation
# and the module's argument plumbing; every symbol visible). Standard
# library only (ctypes); the tests are pytest's (Debian's python3-pytest,
# which `make deps` installs for /usr/bin/python3). tests/steps/python.sh
# runs them in make test.
.PHONY: python python-deps install-python
python: build/libroofline.so

# the tests need it (tests/steps/python.sh)
test: build/libroofline.so

# it draws PNGs (chart): stb_image_write first, as for the tools
build/libroofline.so: python/libroofline.c $(HDRS) | build $(STB_H)
	$(CC) $(WARN) $(CFLAGS) -DRFL_PNG_REQUIRED=1 -fPIC -shared -I. $< -o $@ -lm

python-deps: /usr/lib/python3/dist-packages/pytest
deps: python-deps
/usr/lib/python3/dist-packages/pytest:
	$(call APT_INSTALL,python3-pytest)

# make install: the module and its shared build where this python3 looks
# (its site path), or, where that cannot be written, where to point
# PYTHONPATH.
PY_SITE = $(shell python3 -c 'import sysconfig; print(sysconfig.get_path("purelib"))' 2>/dev/null)
install: install-python
install-python: build/libroofline.so
	@if [ -n "$(PY_SITE)" ] && mkdir -p $(DESTDIR)$(PY_SITE)/roofline 2>/dev/null && \
	    [ -w $(DESTDIR)$(PY_SITE)/roofline ]; then \
	  install -m 644 python/roofline/__init__.py $(DESTDIR)$(PY_SITE)/roofline/ && \
	  install -m 755 build/libroofline.so $(DESTDIR)$(PY_SITE)/roofline/ && \
	  echo "python: roofline installed in $(DESTDIR)$(PY_SITE)/roofline"; \
	else \
	  install -d $(DESTDIR)$(PREFIX)/lib/roofline/python/roofline && \
	  install -m 644 python/roofline/__init__.py $(DESTDIR)$(PREFIX)/lib/roofline/python/roofline/ && \
	  install -m 755 build/libroofline.so $(DESTDIR)$(PREFIX)/lib/roofline/python/roofline/ && \
	  echo "python: roofline installed in $(DESTDIR)$(PREFIX)/lib/roofline/python;" \
	       "point PYTHONPATH there (export PYTHONPATH=$(PREFIX)/lib/roofline/python)"; \
	fi
uninstall: uninstall-python
.PHONY: uninstall-python
uninstall-python:
	rm -rf $(if $(PY_SITE),$(DESTDIR)$(PY_SITE)/roofline) $(DESTDIR)$(PREFIX)/lib/roofline/python
	rmdir $(DESTDIR)$(PREFIX)/lib/roofline 2> /dev/null || true
