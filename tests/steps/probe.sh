# rfl-probe (issue 19): one real quick run on this host, which must take
# under 5 s, print a machine file that the library's reader accepts (through
# rfl-hw --hw-file) with positive peaks and bandwidths, and feed
# rfl-estimate; usage errors. The probe's logic is checked with a fake
# clock in tests/test_probe.c.
PRB=build/rfl-probe
PO=$B/probe-step
mkdir -p "$PO"
for t in "$PRB" build/rfl-hw build/rfl-estimate; do
  [ -x "$t" ] || step "build $t" ${MAKE:-make} -s "$t"
done

probe_quick() {
  t0=$(date +%s%N)
  "$PRB" --quick --json -o "$PO/host.json" > "$PO/stdout.json" 2> "$PO/err.txt" || { cat "$PO/err.txt"; return 1; }
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "rfl-probe --quick: $ms ms"
  [ "$ms" -lt 5000 ] || { echo "too slow: $ms ms"; return 1; }
  cmp -s "$PO/stdout.json" "$PO/host.json" || { echo "-o and --json differ"; return 1; }
}
# every measured figure of the machine file is a positive number
probe_positive() {
  "$HW_TOOL" --hw-file "$PO/host.json" > "$PO/hw.txt" || return 1
  for k in fp64 fp32 dram; do
    v=$(sed -n '/"measured"/,$p' "$PO/host.json" | grep -m1 "\"$k\":" | sed 's/.*: *\([^,]*\),*/\1/')
    case "$v" in
      ''|null|0|-*) echo "measured $k is '$v'"; return 1 ;;
    esac
  done
  grep -q '"threads": [1-9]' "$PO/host.json" && grep -q '"_probe"' "$PO/host.json" &&
  grep -q '"triad_bw"' "$PO/host.json"
}
probe_estimate() {
  build/rfl-estimate resnet18 --hw-file "$PO/host.json" > "$PO/est.txt" 2>&1 || { cat "$PO/est.txt"; return 1; }
}
probe_usage() {
  "$PRB" --help | grep -q -- '--quick' || return 1
  "$PRB" --bogus 2> /dev/null; [ $? = 2 ] || return 1
  "$PRB" --threads 0 2> /dev/null; [ $? = 2 ] || return 1
  "$PRB" --isa mmx 2> /dev/null; [ $? = 2 ] || return 1
  "$PRB" --hw no-such-cpu 2> /dev/null; [ $? = 1 ] || return 1
  "$PRB" --quick -o /nonexistent/dir/x.json > /dev/null 2>&1; [ $? = 1 ]
}
HW_TOOL=build/rfl-hw
step "probe --quick --json under 5 s, -o the same" probe_quick
step "probe machine file: read back, measured figures positive" probe_positive
step "probe machine file into rfl-estimate --hw-file" probe_estimate
step "probe usage and exit codes" probe_usage
