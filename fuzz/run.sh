#!/bin/sh
# fuzz/run.sh SECONDS JOBS NAME... - runs each libFuzzer harness
# build/fuzz/fuzz_NAME for SECONDS, at most JOBS at a time, and fails when
# any of them finds something (crash, sanitizer report, failed property,
# timeout, out of memory). Called by `make fuzz` (mk/fuzz.mk).
#   corpus (grows, kept between runs): build/fuzz/corpus/NAME
#   seeds: fuzz/seeds/NAME (committed), tests/regress/NAME (past findings),
#          and for the reducer tests/data/*.csv and tests/bad/* with the 4
#          config bytes prepended (build/fuzz/seeds/reduce)
#   findings: build/fuzz/NAME-crash-* / -timeout-* / -oom-*; log build/fuzz/NAME.log
# A finding becomes a regression test: copy the file into tests/regress/NAME/
# (the normal suite replays that folder, tests/steps/regress.sh).
set -u
cd "$(dirname "$0")/.."
secs=$1; jobs=$2; shift 2
B=build/fuzz
mkdir -p "$B/seeds/reduce"

# reducer seeds from the fixtures (capped: long files make slow executions)
for f in tests/data/*.csv tests/bad/*; do
  [ -f "$f" ] || continue
  case "$f" in *EXPECTED*|*.md) continue ;; esac
  o="$B/seeds/reduce/$(basename "$f")"
  [ -f "$o" ] && [ "$o" -nt "$f" ] && continue
  { printf '\003\001\000\000'; head -c 120000 "$f"; } > "$o"
done

run_one() {
  n=$1
  mkdir -p "$B/corpus/$n"
  extra=""
  case $n in
    reduce) extra="-dict=fuzz/ncu.dict -max_len=131072 $B/seeds/reduce" ;;
    chart) extra="-max_len=8192" ;;
    trace) extra="-dict=fuzz/trace.dict -max_len=65536" ;;
    inflate) extra="-max_len=65536" ;;
    hfconfig) extra="-dict=fuzz/hfconfig.dict -max_len=4096" ;;
    *) extra="-max_len=4096" ;;
  esac
  dirs="$B/corpus/$n"
  [ -d "fuzz/seeds/$n" ] && dirs="$dirs fuzz/seeds/$n"
  [ -d "tests/regress/$n" ] && dirs="$dirs tests/regress/$n"
  # -timeout: one input running 20 s is a hang; -rss_limit_mb: a leak or
  # a runaway buffer; print_final_stats: the execution count we report
  "$B/fuzz_$n" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$B/$n-" $extra $dirs \
      > "$B/$n.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$n.log" | tail -1)
  if [ $rc = 0 ]; then
    echo "fuzz $n: ${runs:-?} executions in ${secs} s, no finding"
  else
    echo "fuzz $n: FINDING (exit $rc) after ${runs:-?} executions; see $B/$n.log"
    grep -E 'ERROR|runtime error|fuzz check failed|Test unit written' "$B/$n.log" | head -5 | sed 's/^/  /'
  fi
  return $rc
}

fail=0
# batches of JOBS harnesses (they all run the same time, so no one waits long)
set -- "$@"
while [ $# -gt 0 ]; do
  batch=""
  k=0
  while [ $# -gt 0 ] && [ $k -lt "$jobs" ]; do
    run_one "$1" > "$B/$1.status" 2>&1 &
    batch="$batch $!:$1"
    shift
    k=$((k + 1))
  done
  for p in $batch; do
    wait "${p%%:*}" || fail=1
    cat "$B/${p#*:}.status"
  done
done
[ $fail = 0 ] || { echo "fuzz: findings above (inputs in $B/)"; exit 1; }
echo "fuzz: no finding"
