# tests/steps/regress.sh (sourced by tests/run.sh) - issue 8: every fuzz
# harness, built with gcc and fuzz/replay.c instead of libFuzzer, replays
# its committed seeds (fuzz/seeds/NAME) and every past finding
# (tests/regress/NAME): a fuzz finding stays a test of the normal suite.
# The harnesses check their properties themselves and abort on a failure.
# RFL_REPLAY_CFLAGS adds flags (test-sanitize passes the sanitizers).
# the replay binaries are built two at a time (each compiles the whole
# header), then run in order
ls fuzz/fuzz_*.c | xargs -P "${RFL_TEST_JOBS:-2}" -I{} sh -c \
  'n=$(basename "$1" .c); n=${n#fuzz_}; gcc -std=gnu99 -O0 -g $2 -I. -Ifuzz "$1" fuzz/replay.c -o "$3/replay_$n" -lm > "$3/replay_$n.build" 2>&1; echo $? > "$3/replay_$n.rc"' \
  sh {} "${RFL_REPLAY_CFLAGS:-}" "$B"
for h in fuzz/fuzz_*.c; do
  [ -f "$h" ] || continue
  n=$(basename "$h" .c); n=${n#fuzz_}
  dirs=""
  [ -d "fuzz/seeds/$n" ] && dirs="fuzz/seeds/$n"
  [ -d "tests/regress/$n" ] && dirs="$dirs tests/regress/$n"
  [ "$n" = reduce ] && dirs="$dirs tests/bad"
  [ -n "$dirs" ] || continue
  cat "$B/replay_$n.build" >> "$LOG"
  if [ "$(cat "$B/replay_$n.rc")" = 0 ]; then
    ok
    run_bin "$B/replay_$n" $dirs
  else
    bad "build replay of $h"; tail -5 "$B/replay_$n.build"
  fi
done
