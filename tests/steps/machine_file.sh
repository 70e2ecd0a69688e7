# Machine files (issue 19): every table machine through `rfl-hw NAME --json`
# and back through `--hw-file` (byte for byte), rfl-estimate and rfl-reduce
# the same with --hw NAME and --hw-file, bad files (exit 1, one line naming
# file, line, column and field), usage errors (exit 2), and the charts with
# a measured roof. The reader's unit test is tests/test_machine_file.c.
MFO=$B/machine-file
mkdir -p "$MFO"
for t in rfl-hw rfl-estimate rfl-reduce rfl-plot rfl-report; do
  [ -x build/$t ] || step "build $t" ${MAKE:-make} -s build/$t
done
MFD=tests/data/machine_file

# mf_rc WANT CMD...: exit status WANT, output in $MFO/last.{out,err}
mf_rc() {
  want=$1; shift
  "$@" > "$MFO/last.out" 2> "$MFO/last.err"
  got=$?
  [ "$got" = "$want" ] && return 0
  echo "exit $got, want $want: $*"; cat "$MFO/last.err"
  return 1
}

mf_ids() { build/rfl-hw --json | sed -n 's/^      "id": "\(.*\)",$/\1/p'; }

# every machine: NAME --json > f; --hw-file f --json is the same bytes
mf_round_trip_all() {
  n=0
  for id in $(mf_ids); do
    build/rfl-hw "$id" --json > "$MFO/$id.json" &&
    build/rfl-hw --hw-file "$MFO/$id.json" --json > "$MFO/$id.back" &&
    cmp "$MFO/$id.json" "$MFO/$id.back" || { echo "round trip differs: $id"; return 1; }
    n=$((n + 1))
  done
  [ "$n" -ge 40 ] || { echo "only $n machines"; return 1; }
}
step "machine file: every table machine round-trips through rfl-hw --json" mf_round_trip_all

# the human view and a file with "measured" (its object comes back too)
mf_human_same() {
  build/rfl-hw a100 > "$MFO/a100.txt" &&
  build/rfl-hw --hw-file "$MFO/a100-sxm4-40gb.json" > "$MFO/a100-file.txt" &&
  cmp "$MFO/a100.txt" "$MFO/a100-file.txt"
}
step "machine file: rfl-hw --hw-file prints what rfl-hw NAME prints" mf_human_same
mf_measured_back() {
  build/rfl-hw --hw-file $MFD/xeon-measured.json --json > "$MFO/xm.json" &&
  build/rfl-hw --hw-file "$MFO/xm.json" --json | cmp - "$MFO/xm.json" &&
  grep -q '^  "measured": {$' "$MFO/xm.json" && grep -q '^    "threads": 56,$' "$MFO/xm.json" &&
  build/rfl-hw --hw-file $MFD/xeon-measured.json > "$MFO/xm.txt" &&
  grep -q '^  measured (56 threads):$' "$MFO/xm.txt" &&
  grep -Eq '^  fp32 +5\.8 TFLOP/s$' "$MFO/xm.txt" && grep -Eq '^  dram +221 GB/s$' "$MFO/xm.txt"
}
step "machine file: a measured object round-trips and prints (5.8 TFLOP/s, 221 GB/s)" mf_measured_back

# the numbers of the other tools do not change with the file
mf_estimate_same() {
  for id in a100-sxm4-40gb h100-sxm mi300x xeon-8480plus raspberry-pi-5 apple-m2; do
    build/rfl-estimate resnet18 --batch 8 --hw "$id" --json > "$MFO/e1.json" &&
    build/rfl-estimate resnet18 --batch 8 --hw-file "$MFO/$id.json" --json > "$MFO/e2.json" &&
    cmp "$MFO/e1.json" "$MFO/e2.json" || { echo "estimate differs: $id"; return 1; }
  done
  grep -q '"predicted_time_s"' "$MFO/e2.json"
}
step "machine file: rfl-estimate --hw NAME = --hw-file (6 machines)" mf_estimate_same
mf_reduce_same() {
  for id in h100-sxm a100-sxm4-40gb; do
    build/rfl-reduce tests/data/micro-seed-raw.csv --hw "$id" --json > "$MFO/r1.json" &&
    build/rfl-reduce tests/data/micro-seed-raw.csv --hw-file "$MFO/$id.json" --json > "$MFO/r2.json" &&
    cmp "$MFO/r1.json" "$MFO/r2.json" || { echo "reduce differs: $id"; return 1; }
  done
}
step "machine file: rfl-reduce --hw NAME = --hw-file" mf_reduce_same

# bad files: exit 1, one line "prog: FILE:LINE:COL: field: what"
mf_bad() { # mf_bad TOOL FILE PATTERN [ARGS]
  tool=$1 f=$2 pat=$3; shift 3
  mf_rc 1 build/$tool "$@" --hw-file "$f" || return 1
  [ "$(wc -l < "$MFO/last.err")" -eq 1 ] && grep -Eq "$pat" "$MFO/last.err" ||
    { echo "stderr:"; cat "$MFO/last.err"; return 1; }
}
printf '{"name": "x", "kind": "gpu",\n "peak_flops": {"fp32": 1e12},\n "mem_bw": {"dram": -3}}\n' > "$MFO/neg.json"
printf '{"name": "x", "kind": "gpu",\n "peak_flops": {"fp32": 1e12}}\n' > "$MFO/nobw.json"
printf '{"name": "x", "kind": "gpu",\n "peak_flops": {"fp33": 1e12},\n "mem_bw": {"dram": 1}}\n' > "$MFO/prec.json"
head -c 300 "$MFO/a100-sxm4-40gb.json" > "$MFO/cut.json"
cut_line=$(($(head -c 300 "$MFO/a100-sxm4-40gb.json" | wc -l) + 1))
step "machine file: negative -> rfl-hw: F:3:21: mem_bw.dram: negative" \
  mf_bad rfl-hw "$MFO/neg.json" "^rfl-hw: $MFO/neg.json:3:21: mem_bw\.dram: negative$"
step "machine file: missing mem_bw named (rfl-estimate)" \
  mf_bad rfl-estimate "$MFO/nobw.json" "^rfl-estimate: $MFO/nobw.json:1:1: mem_bw: required field missing$" resnet18
step "machine file: unknown precision named (rfl-reduce)" \
  mf_bad rfl-reduce "$MFO/prec.json" "^rfl-reduce: $MFO/prec.json:2:17: peak_flops\.fp33: unknown precision" tests/data/micro-seed-raw.csv
step "machine file: truncated a100 file -> its last line (rfl-plot)" \
  mf_bad rfl-plot "$MFO/cut.json" "^rfl-plot: $MFO/cut.json:$cut_line:[0-9]+: " -o "$MFO/x.png"
build/rfl-hw --json > "$MFO/all.json"
step "machine file: a table is not a machine (rfl-report)" \
  mf_bad rfl-report "$MFO/all.json" "all\.json:2:3: machines: a whole table" --model resnet18
step "machine file: no such file -> exit 1" mf_bad rfl-hw "$MFO/nosuch.json" "nosuch\.json: cannot open"
step "machine file: --hw and --hw-file in rfl-estimate: exit 2" \
  mf_rc 2 build/rfl-estimate resnet18 --hw a100 --hw-file "$MFO/a100-sxm4-40gb.json"
step "machine file: --hw-file without a value: exit 2" mf_rc 2 build/rfl-hw --hw-file

# charts: the measured roof changes the picture; a file of a --hw machine
# joins its panel (the same picture as the file alone: same datasheet)
mf_plot() {
  build/rfl-plot --hw xeon-8480plus -o "$MFO/plain.png" &&
  build/rfl-plot --hw-file $MFD/xeon-measured.json -o "$MFO/file.png" &&
  build/rfl-plot --hw xeon-8480plus --hw-file $MFD/xeon-measured.json -o "$MFO/both.png" &&
  cmp "$MFO/file.png" "$MFO/both.png" && ! cmp -s "$MFO/plain.png" "$MFO/file.png"
}
step "machine file: rfl-plot draws the measured roof; --hw + --hw-file share a panel" mf_plot
mf_report() {
  build/rfl-report --model resnet18 --hw a100 --hw-file $MFD/xeon-measured.json --mode infer \
    -o "$MFO/report" > "$MFO/report.txt" &&
  [ -s "$MFO/report/roofline-xeon-8480plus.png" ] && [ -s "$MFO/report/roofline-a100-sxm4-40gb.png" ]
}
step "machine file: rfl-report --hw a100 --hw-file xeon: a chart each" mf_report
printf '{"name": "Board Z", "id": "board-z", "kind": "soc",\n "peak_flops": {"fp32": 2e11}, "mem_bw": {"dram": 5e10}}\n' > "$MFO/z.json"
step "machine file: rfl-plot --point ...@ID finds a --hw-file machine" \
  build/rfl-plot --hw a100 --hw-file "$MFO/z.json" --point "k:2:5e10@board-z" -o "$MFO/z.png"
step "machine file: rfl-plot --point ...@NAME not among the machines: exit 2" \
  mf_rc 2 build/rfl-plot --hw-file "$MFO/z.json" --point "k:2:5e10@a100" -o "$MFO/z.png"
step "machine file: header builds with RFL_NO_MACHINE_FILE" gcc -std=c99 $WX -DRFL_NO_MACHINE_FILE -I. -c $B/one.c -o "$MFO/nomf.o"
