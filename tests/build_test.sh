#!/bin/sh
# tests/build_test.sh - how tests/run.sh and tests/sanitize.sh build the
# unit tests.
#   build_test.sh --impl DIR CC [FLAGS...]   the shared builds of the library
#   build_test.sh DIR TEST.c CC [FLAGS...]   one test: DIR/NAME, its exit
#                                            status in DIR/NAME.rc, the
#                                            compiler's output in NAME.build
# Compiling the header's implementation is most of a test's build (3.5 s
# of CPU at -O0, 9 s with ASan and UBSan, against under a second for the
# test's own code). A test that allows it (#ifndef RFL_TEST_SHARED_IMPL
# around its ROOFLINE_IMPLEMENTATION) links one shared build instead: the
# default options, or RFL_NO_CHART when the test defines it. Tests with
# options or internals of their own build the implementation themselves;
# tests/steps/portability.sh builds every test whole, with every compiler.
if [ "$1" = --impl ]; then
  d=$2; shift 2
  printf '#define ROOFLINE_IMPLEMENTATION\n#include "roofline.h"\n' > "$d/impl.c"
  "$@" -I. -c "$d/impl.c" -o "$d/impl.o" > "$d/impl.build" 2>&1 &
  "$@" -DRFL_NO_CHART -I. -c "$d/impl.c" -o "$d/impl_nochart.o" > "$d/impl_nochart.build" 2>&1
  wait
  exit 0 # a failed shared build fails the tests that link it, with its errors
fi
d=$1 t=$2; shift 2
n=$(basename "$t" .c)
if grep -q RFL_TEST_SHARED_IMPL "$t"; then
  impl=impl
  grep -q '^#define RFL_NO_CHART' "$t" && impl=impl_nochart
  if [ -f "$d/$impl.o" ]; then
    "$@" -DRFL_TEST_SHARED_IMPL -I. -Itests "$t" "$d/$impl.o" -o "$d/$n" -lm
  else
    cat "$d/$impl.build"; false
  fi
else
  "$@" -I. -Itests "$t" -o "$d/$n" -lm
fi > "$d/$n.build" 2>&1
echo $? > "$d/$n.rc"
