# make test-sanitize (issue 8): the unit tests and the fuzz replays built
# with ASan + UBSan, and the tools under valgrind (tests/sanitize.sh).
# .ci/run calls it after `make test`. SAN_CC=clang to build with clang.
.PHONY: test-sanitize
test-sanitize: all /usr/bin/valgrind
	sh tests/sanitize.sh

/usr/bin/valgrind:
	$(call APT_INSTALL,valgrind)
