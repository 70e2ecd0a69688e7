# roofline.h - build, test, demo, install, bench, fuzz, size.
# Parts from later issues add targets in mk/*.mk.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c99 -Wall -Wextra -Wpedantic -Werror
PREFIX  ?= /usr/local
HDRS     = roofline.h hw_specs.h
TOOLS    = $(patsubst tools/%.c,build/%,$(wildcard tools/rfl-*.c))
EXAMPLES = $(patsubst examples/%.c,build/examples/%,$(wildcard examples/*.c))
STB_H    = /usr/include/stb/stb_image_write.h
# What draws PNGs: these wait for stb_image_write.h (order-only, so a
# parallel make on a fresh machine never compiles them before it is
# there) and are built with RFL_PNG_REQUIRED, which makes a missing stb an
# #error rather than a build without charts.
PNG_USERS = build/rfl-plot build/rfl-report build/examples/homework build/examples/own_hardware \
            build/examples/forecast_charts

.PHONY: all test demo install uninstall deps clean
# `all` needs a C compiler and stb only; `deps` also installs the test
# toolchains (clang, cross compilers, qemu...) that mk/*.mk add to it.
all: $(TOOLS) $(EXAMPLES)

# Debian packages the build needs: as root, make installs them (recipe
# $(call APT_INSTALL,PKG...), serialised by mk/apt-install.sh);
# otherwise make stops with one line saying what to install.
RFL_UID ?= $(shell id -u)
APT_INSTALL = $(if $(filter 0,$(RFL_UID)),sh mk/apt-install.sh $(1),$(error roofline.h: $@ is missing; run: sudo apt-get install $(1)))
# stb_image_write comes from Debian; never vendored.
deps: $(STB_H)
$(STB_H):
	$(call APT_INSTALL,libstb-dev)

build build/examples:
	mkdir -p $@

$(PNG_USERS): | $(STB_H)
$(PNG_USERS): PNG_DEF = -DRFL_PNG_REQUIRED=1

build/rfl-%: tools/rfl-%.c tools/cli.h $(HDRS) | build
	$(CC) $(WARN) $(CFLAGS) $(PNG_DEF) -I. $< -o $@ -lm

build/examples/%: examples/%.c $(HDRS) | build/examples
	$(CC) $(WARN) $(CFLAGS) $(PNG_DEF) -I. $< -o $@ -lm

# the tools and examples each compile the whole header: one job per CPU
NPROC := $(shell nproc 2>/dev/null || echo 2)
test: deps
	$(MAKE) -j$(NPROC) all
	sh tests/run.sh

# the demo needs rfl-report alone (not the 14 programs of all; stb comes
# with it, the test toolchains of deps do not)
demo:
	@$(MAKE) -s -j$(NPROC) build/rfl-report
	@sh mk/demo.sh

# make install [PREFIX=/usr/local] [DESTDIR=]: the two headers in
# $(PREFIX)/include/roofline/ (hw_specs.h is too common a name for the
# include root), the tools in $(PREFIX)/bin, and roofline.pc in
# $(PREFIX)/share/pkgconfig, the place for architecture-independent
# packages (a header-only library has no lib/). `cc $$(pkg-config --cflags
# roofline) app.c $$(pkg-config --libs roofline)` then builds, with
# #include "roofline.h" as in the drop-in copy.
INCDIR = $(PREFIX)/include/roofline
PCDIR  = $(PREFIX)/share/pkgconfig
RFL_VERSION = $(shell sed -n 's/^\#define RFL_VERSION_STRING "\(.*\)"/\1/p' roofline.h)
install: all
	install -d $(DESTDIR)$(INCDIR) $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PCDIR)
	install -m 644 $(HDRS) $(DESTDIR)$(INCDIR)/
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include/roofline' '' \
	  'Name: roofline' 'Description: roofline.h, single-header roofline performance modeling' \
	  'Version: $(RFL_VERSION)' \
	  'Cflags: -I$${includedir}' 'Libs: -lm' > $(DESTDIR)$(PCDIR)/roofline.pc
	chmod 644 $(DESTDIR)$(PCDIR)/roofline.pc

uninstall:
	rm -f $(addprefix $(DESTDIR)$(INCDIR)/,$(HDRS)) $(DESTDIR)$(PCDIR)/roofline.pc \
	  $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(TOOLS)))
	rmdir $(DESTDIR)$(INCDIR) 2> /dev/null || true

clean:
	rm -rf build

-include mk/*.mk
