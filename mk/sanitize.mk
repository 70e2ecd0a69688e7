# make test-sanitize (issue 8): the unit tests and the fuzz replays built
# with ASan + UBSan (tests/sanitize.sh); make test-valgrind adds the
# tools under valgrind.
# .ci/run calls it after `make test`. SAN_CC=clang to build with clang.
.PHONY: test-sanitize test-valgrind
test-sanitize: all
	sh tests/sanitize.sh

# the same, and valgrind over the tools (about a minute more)
test-valgrind: all /usr/bin/valgrind
	RFL_VALGRIND=1 sh tests/sanitize.sh

/usr/bin/valgrind:
	$(call APT_INSTALL,valgrind)
