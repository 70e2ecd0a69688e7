# Fuzzing (issue 8): libFuzzer harnesses fuzz/fuzz_*.c, built with clang's
# -fsanitize=fuzzer,address,undefined.
#   make fuzz                    each harness FUZZ_SECONDS (default 10) seconds
#   make fuzz FUZZ_SECONDS=600   the long run
#   make fuzz-build              only build build/fuzz/fuzz_*
# FUZZ_JOBS (default 2) harnesses run at a time. Any finding fails the
# target; the input is left in build/fuzz/ (see fuzz/run.sh); copy it to
# tests/regress/NAME/ and the normal suite replays it (tests/steps/regress.sh).
FUZZ_SECONDS ?= 10
FUZZ_JOBS ?= 2
FUZZ_CC ?= clang
FUZZ_NAMES := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_NAMES:%=build/fuzz/fuzz_%)
# FUZZ_DEFS=-DFZ_RELAX_KNOWN skips the checks of findings already reported
# (see the harnesses), so a long run explores past them
FUZZ_DEFS ?=
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer -I. -Ifuzz $(FUZZ_DEFS)
# the layer builder must never wrap a count: unsigned wrap-around is a
# finding there too (except in the idioms listed in the ignore file)
FUZZ_EXTRA_layers = -fsanitize=unsigned-integer-overflow -fsanitize-ignorelist=fuzz/unsigned.ignore
# libFuzzer's runtime: clang plus Debian's libclang-rt-dev, installed when missing
FUZZ_RT := $(or $(shell $(FUZZ_CC) -print-runtime-dir 2>/dev/null),/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux)/libclang_rt.fuzzer-x86_64.a

.PHONY: fuzz fuzz-build fuzz-deps
deps: fuzz-deps
fuzz-deps: $(FUZZ_RT)
$(FUZZ_RT):
	$(call APT_INSTALL,clang libclang-rt-dev)

build/fuzz:
	mkdir -p $@

# rebuild when the flags change (FUZZ_DEFS): they are kept in a file
ifneq ($(filter fuzz fuzz-build build/fuzz/%,$(MAKECMDGOALS)),)
$(shell mkdir -p build/fuzz; echo '$(FUZZ_FLAGS)' | cmp -s - build/fuzz/flags.txt || echo '$(FUZZ_FLAGS)' > build/fuzz/flags.txt)
endif
build/fuzz/flags.txt: | build/fuzz
	echo '$(FUZZ_FLAGS)' > $@

build/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_util.h build/fuzz/flags.txt $(HDRS) | build/fuzz $(FUZZ_RT)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_EXTRA_$*) $< -o $@ -lm

fuzz-build: $(FUZZ_BINS)

fuzz:: $(FUZZ_BINS)
	sh fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_JOBS) $(FUZZ_NAMES)
