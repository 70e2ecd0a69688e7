# rfl-reduce on PyTorch profiler traces (issue 36): the hand-made trace of
# tests/data/trace/small.json (numbers derived by hand in tests/test_trace.c),
# plain, gzip and stdin, --step, several ranks, and the errors.
RED=build/rfl-reduce
TO=$B/trace-step
mkdir -p "$TO"
if [ ! -x "$RED" ]; then
  step "build rfl-reduce" ${MAKE:-make} -s "$RED"
fi
TD=tests/data/trace
# tr_has ARGS -- PATTERN...: rfl-reduce ARGS --json prints every PATTERN as a whole line
tr_has() {
  args=""
  while [ "$1" != "--" ]; do args="$args $1"; shift; done
  shift
  "$RED" $args --json > "$TO/out.json" 2> "$TO/out.err" || { cat "$TO/out.err"; return 1; }
  for p in "$@"; do
    grep -qxF "$p" "$TO/out.json" || { echo "missing line: $p"; return 1; }
  done
}
step "trace small.json: kernels, time_ns, nulls" tr_has $TD/small.json -- \
  '  "format": "pytorch_trace",' '  "kernels": 5,' '  "time_ns": 16431,' '    "total": null,' \
  '    "dram": null,' '  "device": "NVIDIA H200",' '    "busy_ns": 14626,' '      "code": "host_bound",'
step "trace small.json.gz = small.json" tr_has $TD/small.json.gz -- '  "kernels": 5,' '  "time_ns": 16431,'
step "trace --step 1" tr_has $TD/small.json --step 1 -- '  "kernels": 3,' '  "time_ns": 6305,' '    "step": 1,'
trace_stdin() { "$RED" - --json < $TD/small.json.gz | grep -qxF '  "time_ns": 16431,'; }
step "trace .gz on stdin" trace_stdin
# the trace reader's fast lane without SSE2 (8-byte words, no 64-byte blocks)
if gcc -std=c99 $W -O0 -g -DRFL_NO_SIMD -I. -Itests tests/test_trace.c -o "$B/test_trace_swar" -lm >> "$LOG" 2>&1; then
  ok; run_bin "$B/test_trace_swar"
else bad "build test_trace -DRFL_NO_SIMD"; fi
step "trace two ranks" tr_has $TD/small.json $TD/small.json.gz --step 2 -- '      "time_ns": 10126,' \
  '      "span_ns": 89751,' '  "time": "span_ns"'
trace_cpu_only() {
  "$RED" $TD/cpu_only.json > /dev/null 2> "$TO/err"; rc=$?
  [ $rc = 1 ] && grep -q 'CPU-only profile' "$TO/err"
}
step "trace CPU-only: an error that says so" trace_cpu_only
trace_cut() {
  head -c 500 $TD/small.json.gz > "$TO/cut.gz"
  "$RED" "$TO/cut.gz" > /dev/null 2> "$TO/err"; rc=$?
  [ $rc = 1 ] && grep -q 'byte 500 of the compressed input' "$TO/err"
}
step "trace truncated gzip: byte offset" trace_cut
# real traces (H200, tests/data/trace/*.truth.json: json.load of each trace)
step "trace resnet18 b1 train .gz = its truth" tr_has $TD/resnet18-b1-train-fp32.json.gz -- \
  '  "kernels": 885,' '  "time_ns": 4309485,'
step "trace llama decode --step 3 = its truth" tr_has $TD/llama-3.2-1b-decode-b1-s512-bf16.json.gz --step 3 -- \
  '  "kernels": 694,' '  "time_ns": 1983045,'
# rfl-report --trace: report.json has the trace's kernel time and a time-based point
REP=build/rfl-report
if [ ! -x "$REP" ]; then
  step "build rfl-report" ${MAKE:-make} -s "$REP"
fi
trace_report() {
  rm -rf "$TO/rep"
  "$REP" --model resnet18 --batch 1 --mode train --hw h200 --trace resnet18=$TD/resnet18-b1-train-fp32.json.gz \
    --step 2 -o "$TO/rep" > "$TO/rep.txt" 2>&1 || { cat "$TO/rep.txt"; return 1; }
  for p in '        "kernel_time_ns": 1436207,' '        "time_based": true,' '        "kernels": 295,'; do
    grep -qxF "$p" "$TO/rep/report.json" || { echo "missing line: $p"; return 1; }
  done
  grep -q 'time-based' "$TO/rep.txt" && [ -s "$TO/rep/roofline-h200-sxm.png" ]
}
step "rfl-report --trace: kernel time, time-based point" trace_report
# the forecast by layer type beside the bound and the trace's kernels (issue
# 38 item 4): the rows split the forecast's GPU time and the trace's kernel
# time (1436207 ns, its truth above); a trace counts no FLOPs: null
trace_report_forecast() {
  J=$TO/rep/report.json
  [ -s "$TO/rep/forecast-resnet18-h200-sxm.png" ] &&
  json_check "$J" 'abs(sum(t["forecast_s"] for t in d["models"][0]["machines"][0]["forecast_by_type"]) - d["models"][0]["machines"][0]["forecast"]["gpu_time_s"]) < 1e-9' &&
  json_check "$J" 'abs(sum(t["measured_s"] for t in d["models"][0]["machines"][0]["forecast_by_type"]) - 1436207e-9) < 1e-12' &&
  json_check "$J" 'd["models"][0]["machines"][0]["forecast"]["runtime"] == "eager" and d["models"][0]["profile"]["flops"]["fp64"] is None and d["models"][0]["profile"]["bytes"]["dram"] is None and d["models"][0]["profile"]["tensor_inst"] is None' &&
  grep -q '^  convolution .* | ' "$TO/rep.txt"
}
step "rfl-report --trace: the forecast by type sums to its GPU time and the trace's; no counters: null" trace_report_forecast
