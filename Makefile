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

.PHONY: all test demo install deps clean
all: deps $(TOOLS) $(EXAMPLES)

# stb_image_write comes from Debian; never vendored.
deps: $(STB_H)
$(STB_H):
	sh tools/apt-install.sh libstb-dev

build build/examples:
	mkdir -p $@

build/rfl-%: tools/rfl-%.c tools/tool.h $(HDRS) | build
	$(CC) $(WARN) $(CFLAGS) -I. $< -o $@ -lm

build/examples/%: examples/%.c $(HDRS) | build/examples
	$(CC) $(WARN) $(CFLAGS) -I. $< -o $@ -lm

test: all
	sh tests/run.sh

demo: all
	@sh tools/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 644 roofline.h hw_specs.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf build

-include mk/*.mk
