#!/bin/sh
# Builds and runs the whole suite; its last line is "N passed, N failed".
# RFL_ONLY=WORD (a developer's shortcut, never set by CI) runs only the
# unit tests and steps whose file name contains WORD, and skips the
# header-alone builds: e.g. RFL_ONLY=llm sh tests/run.sh.
# Each step below adds to the totals: a compile check counts as one test, a
# test binary counts the checks it ran. Steps from later issues live in
# tests/steps/*.sh (sourced, sharing step/run_bin).
set -u
cd "$(dirname "$0")/.."
B=build/test
mkdir -p "$B"
PASS=0
FAIL=0
LOG=$B/log.txt
: > "$LOG"
: > "$B/times.txt"

ok()   { PASS=$((PASS + 1)); }
bad()  { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# step NAME CMD...: a command that must succeed (counted as one test)
step() {
    name=$1; shift
    if "$@" >> "$LOG" 2>&1; then ok; else bad "$name"; echo "  (see $LOG)"; tail -5 "$LOG" | sed 's/^/    /'; fi
}

# run_bin BIN [ARGS]: run a test binary, add its "N passed, N failed"
run_bin() {
    out=$("$@" 2>&1); rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(printf '%s' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then bad "$* (crashed or no summary, rc=$rc)"; printf '%s\n' "$out" | tail -5; return; fi
    PASS=$((PASS + p)); FAIL=$((FAIL + f))
    if [ "$f" != 0 ] || [ $rc != 0 ]; then printf '%s\n' "$out" | grep -v '^[0-9]* passed' | head -40; echo "  in: $*"; fi
    [ "$f" = 0 ] && [ $rc != 0 ] && bad "$* exited $rc"
}

W="-Wall -Wextra -Wpedantic -Werror"
WX="$W -Wshadow -Wconversion"

# json_check FILE PYTHON-EXPR: the expression on d (the parsed JSON) is
# true; skipped (true) where python3 is absent. Shared by the steps.
json_check() {
  command -v python3 > /dev/null || return 0
  python3 - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval("(" + sys.argv[2] + ")")
if not ok:
    print("JSON check failed:", sys.argv[2])
sys.exit(0 if ok else 1)
PYEOF
}

only() { [ -z "${RFL_ONLY:-}" ] || case "$1" in *"$RFL_ONLY"*) return 0;; *) return 1;; esac; }

# 1. the header alone, in every language mode we promise
if [ -z "${RFL_ONLY:-}" ]; then
printf '#define ROOFLINE_IMPLEMENTATION\n#include "roofline.h"\n#include "roofline.h"\nint main(void){return 0;}\n' > $B/one.c
cp $B/one.c $B/one.cc
# (gcc c99 at -O2: -Wmaybe-uninitialized needs the optimiser; the unit
# tests below build at -O0, where compiling the header is 3x faster)
for cc in gcc clang; do
  for std in c99 c11; do
    opt=; [ $cc$std = gccc99 ] && opt=-O2
    step "header alone: $cc -std=$std $opt" $cc -std=$std $opt $WX -I. -c $B/one.c -o $B/one_${cc}_$std.o
  done
done
step "header alone: g++ -std=c++11" g++ -std=c++11 $WX -I. -c $B/one.cc -o $B/one_cxx.o
# 2. no heap: the compiled library references no allocator
heap_free() { ! nm -u "$1" | grep -wE 'malloc|calloc|realloc|free|strdup|aligned_alloc|posix_memalign'; }
step "no heap function referenced (gcc c99)" heap_free $B/one_gcc_c99.o
step "no heap function referenced (g++)" heap_free $B/one_cxx.o
fi

# 3. the unit tests: built two at a time (most link one shared build of
# the implementation, see tests/build_test.sh), then run in order
JOBS=${RFL_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
rm -f "$B"/impl*.o
sh tests/build_test.sh --impl "$B" gcc -std=c99 $W -O0 -g
ls tests/test_*.c | while read -r t; do only "$t" && echo "$t"; done | xargs -P "$JOBS" -I{} sh tests/build_test.sh "$B" {} gcc -std=c99 $W -O0 -g
for t in tests/test_*.c; do
  only "$t" || continue
  n=$(basename "$t" .c)
  cat "$B/$n.build" >> "$LOG"
  if [ "$(cat "$B/$n.rc")" = 0 ]; then ok; run_bin "$B/$n"
  else bad "build $t"; tail -20 "$B/$n.build"; fi
done

# 4. steps of later issues (tools, option matrix, cross builds, ...)
# (each step's seconds go to $B/times.txt: where the CI time goes)
for s in tests/steps/*.sh; do
  only "$s" || continue
  rfl_step_t0=$(date +%s)
  [ -f "$s" ] && . "./$s"
  echo "$(($(date +%s) - rfl_step_t0)) s  $s" >> "$B/times.txt"
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
