# rfl-reduce: every fixture through the tool against the ground truths of
# ../shared/fixtures/README.md (typed here), stdin, options, and the error
# contract (exit 1, "rfl-reduce: FILE:LINE:COL: message"; usage exit 2).
RED=build/rfl-reduce
RO=$B/reduce-step
mkdir -p "$RO"
if [ ! -x "$RED" ]; then
  step "build rfl-reduce" ${MAKE:-make} -s "$RED"
fi

# red_has FILE ARGS -- PATTERN...: rfl-reduce --json FILE ARGS prints every
# PATTERN as a whole line (fixed strings)
red_has() {
  f=$1; shift
  args=""
  while [ "$1" != "--" ]; do args="$args $1"; shift; done
  shift
  "$RED" "$f" --json $args > "$RO/out.json" 2> "$RO/out.err" || { cat "$RO/out.err"; return 1; }
  for p in "$@"; do
    grep -qxF "$p" "$RO/out.json" || { echo "missing line: $p"; return 1; }
  done
}
D=tests/data
step "reduce micro-seed-raw = README (FP32, DRAM, time, nulls)" red_has $D/micro-seed-raw.csv -- \
  '  "format": "ncu-raw",' '  "kernels": 4,' '  "time_ns": 250176,' '    "fp32": 2233466880,' \
  '    "dram": 558875392,' '    "l2": null,' '    "fp64": null,' '    "tensor": null,'
step "reduce micro-seed-details = README" red_has $D/micro-seed-details.csv -- \
  '  "format": "ncu-details",' '  "time_ns": 248544,' '    "fp32": 2233466880,' '    "dram": 558892544,'
step "reduce resnet18 seed = README" red_has $D/resnet18-b1-train-seed-raw.csv -- \
  '  "kernels": 237,' '  "time_ns": 2641696,' '    "fp32": 10278929315,' '    "dram": 279844608,'
step "reduce alexnet full = README" red_has $D/alexnet-b1-train-full-raw.csv -- \
  '  "kernels": 79,' '  "time_ns": 1100672,' '    "fp32": 5648711651,' '    "fp16": 20418068,' \
  '    "dram": 735022080,' '    "l2": 1716552576,' '    "l1": 1770352640' '  "tensor_inst": 327906,'
# ...and its 327,906 tensor-pipe instructions, all in non-matrix kernels with
# every tensor counter 0, are no missing FLOPs: no tensor warning at all
red_no_tensor_warning() {
  "$RED" "$1" --json > "$RO/out.json" || return 1
  ! grep -q '"code": "tensor_' "$RO/out.json"
}
step "reduce alexnet full: tensor-pipe work in non-matrix kernels is no missing FLOPs" \
  red_no_tensor_warning $D/alexnet-b1-train-full-raw.csv
step "reduce resnet18 seed: says the seed metrics cannot see tensor cores" red_has \
  $D/resnet18-b1-train-seed-raw.csv -- '      "code": "no_tensor_counters",'
step "reduce h200 resnet18 = README" red_has $D/h200-resnet18-b1-train-full-raw.csv -- \
  '  "kernels": 237,' '  "time_ns": 2568672,' '    "fp32": 10278929315,' '    "dram": 280009216,'
step "reduce h200 alexnet = README" red_has $D/h200-alexnet-b1-train-full-raw.csv -- \
  '  "kernels": 79,' '  "time_ns": 1020864,' '    "fp32": 5648711651,' '    "dram": 725523712,'
step "reduce micro-tc: tensor FLOPs 6,442,450,944" red_has $D/micro-tc-full-raw.csv -- \
  '    "tensor": 6442450944,' '    "fp32": 2244608,' '  "tensor_inst": 196608,'
red_sections() {
  red_has $D/micro-roofline-sections-raw.csv -- '      "code": "rate_derived",' || return 1
  # ~67 TFLOP/s FP32 and ~3.35 TB/s (README): leading digits
  grep -q '^    "fp32_flops_per_s": 6[67][0-9.]*e\?[0-9]*,$\|^    "fp32_flops_per_s": 6[67][0-9]\{12\}' "$RO/out.json" &&
  grep -q '^    "dram_bytes_per_s": 33[45][0-9]\{10\}' "$RO/out.json"
}
step "reduce roofline sections: rates, own ceilings" red_sections
red_stdin() {
  cat $D/nvprof-summary.csv $D/nvprof-metrics.csv | "$RED" - --json > "$RO/nv.json" &&
  grep -qxF '  "time_ns": 1464567,' "$RO/nv.json" && grep -qxF '    "fp32": 2151677952,' "$RO/nv.json" &&
  grep -qxF '  "format": "nvprof-summary",' "$RO/nv.json"
}
step "reduce nvprof summary+metrics from stdin" red_stdin
step "reduce --ids 0-1" red_has $D/micro-seed-raw.csv --ids 0-1 -- '  "kernels": 2,' '    "fp32": 50331648,'
step "reduce --filter gemm" red_has $D/micro-seed-raw.csv --filter gemm -- '  "kernels": 1,' '    "fp32": 2149580800,'
step "reduce --hw h100" red_has $D/alexnet-b1-train-full-raw.csv --hw h100 -- '  "hw": "h100-sxm",'
red_byname() {
  "$RED" $D/resnet18-b1-train-seed-raw.csv --by-name --top 3 > "$RO/h.txt" &&
  grep -q 'top kernels by time' "$RO/h.txt" && grep -q 'by name' "$RO/h.txt" &&
  grep -q '10,278,929,315' "$RO/h.txt"
}
step "reduce human summary --by-name" red_byname

# errors: exit 1 and FILE:LINE:COL
HDR='"ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum"'
printf '%s\n"","","ns","byte"\n"0","k,1\n' "$HDR" > "$RO/unterminated.csv"
printf '%s\n"","","ns","byte"\n"0","k","1","2","3"\n' "$HDR" > "$RO/toomany.csv"
printf '%s\n"","","ns","byte"\n"0","k","1","x2"\n' "$HDR" > "$RO/nan.csv"
printf '%s\n"","","ns","furlong"\n"0","k","1","2"\n' "$HDR" > "$RO/unit.csv"
printf '%s\n"","","ns","byte"\n"0","k","1,280","2,048"\n' "$HDR" > "$RO/ambiguous.csv"
printf 'hello\n==PROF== nothing\n' > "$RO/noheader.csv"
: > "$RO/empty.csv"
red_err() { # FILE WANT_PREFIX
  "$RED" "$1" > /dev/null 2> "$RO/err.txt"
  rc=$?
  [ $rc = 1 ] || { echo "exit $rc"; return 1; }
  grep -q "^rfl-reduce: $2" "$RO/err.txt" || { cat "$RO/err.txt"; return 1; }
}
step "reduce error: unterminated quote 3:5" red_err "$RO/unterminated.csv" "$RO/unterminated.csv:3:5: unterminated quote"
step "reduce error: field count 3:17" red_err "$RO/toomany.csv" "$RO/toomany.csv:3:17: row has more fields"
step "reduce error: non-number 3:13" red_err "$RO/nan.csv" "$RO/nan.csv:3:13: not a number"
step "reduce error: unknown unit 2:12" red_err "$RO/unit.csv" "$RO/unit.csv:2:12: unknown unit"
step "reduce error: ambiguous locale 3:9" red_err "$RO/ambiguous.csv" "$RO/ambiguous.csv:3:9: '1,280' reads both"
step "reduce --locale us resolves it" red_has "$RO/ambiguous.csv" --locale us -- '    "dram": 2048,'
step "reduce error: no header" red_err "$RO/noheader.csv" "$RO/noheader.csv:3:1: no ncu or nvprof CSV header"
step "reduce error: empty" red_err "$RO/empty.csv" "$RO/empty.csv:1:1: empty input"
step "reduce error: missing file" red_err "$RO/nope.csv" "$RO/nope.csv: cannot open"
red_usage() { "$RED" "$@" > /dev/null 2>&1; [ $? = 2 ]; }
step "reduce usage: --top x -> 2" red_usage $D/micro-seed-raw.csv --top x
step "reduce usage: unknown option -> 2" red_usage --frobnicate
step "reduce usage: --ids 5-1 -> 2" red_usage $D/micro-seed-raw.csv --ids 5-1
red_hw_unknown() { "$RED" $D/micro-seed-raw.csv --hw h1000x > /dev/null 2> "$RO/hw.err"; [ $? = 1 ] && grep -q 'closest' "$RO/hw.err"; }
step "reduce --hw unknown: suggestions, exit 1" red_hw_unknown

# the portable SWAR scanner (no SSE2) must give the same results
if gcc -std=c99 $W -O0 -g -DRFL_NO_SIMD -I. -Itests tests/test_reduce.c -o "$B/test_reduce_swar" -lm >> "$LOG" 2>&1; then
  ok; run_bin "$B/test_reduce_swar"
else bad "build test_reduce -DRFL_NO_SIMD"; fi
