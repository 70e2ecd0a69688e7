# tests/steps/regress.sh (sourced by tests/run.sh) - issue 8: every fuzz
# harness, built with gcc and fuzz/replay.c instead of libFuzzer, replays
# its committed seeds (fuzz/seeds/NAME) and every past finding
# (tests/regress/NAME): a fuzz finding stays a test of the normal suite.
# The harnesses check their properties themselves and abort on a failure.
# RFL_REPLAY_CFLAGS adds flags (test-sanitize passes the sanitizers).
for h in fuzz/fuzz_*.c; do
  [ -f "$h" ] || continue
  n=$(basename "$h" .c); n=${n#fuzz_}
  dirs=""
  [ -d "fuzz/seeds/$n" ] && dirs="fuzz/seeds/$n"
  [ -d "tests/regress/$n" ] && dirs="$dirs tests/regress/$n"
  [ "$n" = reduce ] && dirs="$dirs tests/bad"
  [ -n "$dirs" ] || continue
  if gcc -std=gnu99 -O1 -g ${RFL_REPLAY_CFLAGS:-} -I. -Ifuzz "$h" fuzz/replay.c -o "$B/replay_$n" -lm >> "$LOG" 2>&1; then
    ok
    run_bin "$B/replay_$n" $dirs
  else
    bad "build replay of $h"; tail -5 "$LOG"
  fi
done
