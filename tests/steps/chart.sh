# Chart part (issue 5): rfl-plot end to end, the PNG decoded by an independent
# decoder (python3 zlib) and compared with the raw pixels, the text chart,
# exit codes, and the option builds (RFL_NO_PNG, RFL_NO_CHART, RFL_NO_STDIO).
# Expected numbers are hand-derived: A100 ridge 19.5e12 / 1555e9 = 12.54;
# tests/data/chart-reduce-resnet18-a100.json: 1214372889 FLOP / 383364864 B
# = 3.17 FLOP/B and / 0.003621 s = 335.4 GFLOP/s; chart-estimate: 3.628e9 /
# 105e6 = 34.6 FLOP/B, above the ridge, so attainable = the 19.5 T peak.
PLOT=build/rfl-plot
CO=$B/chart
mkdir -p "$CO"
if [ ! -x "$PLOT" ]; then
  step "build rfl-plot" ${MAKE:-make} -s "$PLOT"
fi

# ch_rc WANT CMD...: exit status WANT; output in $CO/last.{out,err}
ch_rc() {
  want=$1; shift
  "$@" > "$CO/last.out" 2> "$CO/last.err"
  got=$?
  [ "$got" = "$want" ] && return 0
  echo "exit $got, want $want: $*"; cat "$CO/last.err"; return 1
}

# png_check FILE W H [RAW.ppm]: signature, chunk CRCs, IHDR size, zlib
# stream inflates to h rows of 1 + w*channels bytes; with a PPM, the
# unfiltered pixels equal it exactly.
png_check() {
  python3 - "$@" <<'EOF'
import sys, zlib, struct
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = open(path, 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
pos, idat, ihdr = 8, b'', None
while pos < len(d):
    n, = struct.unpack('>I', d[pos:pos+4]); t = d[pos+4:pos+8]; body = d[pos+8:pos+8+n]
    crc, = struct.unpack('>I', d[pos+8+n:pos+12+n])
    assert zlib.crc32(t + body) & 0xffffffff == crc, 'crc of ' + repr(t)
    if t == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
    if t == b'IDAT': idat += body
    pos += 12 + n
assert ihdr[0] == w and ihdr[1] == h, 'size %r' % (ihdr,)
ch = {2: 3, 6: 4}[ihdr[3]]
raw = zlib.decompress(idat)
stride = w * ch
assert len(raw) == h * (stride + 1), 'inflated size'
rows, prev = [], bytearray(stride)
for y in range(h):
    f = raw[y * (stride + 1)]; line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - ch] if i >= ch else 0; b = prev[i]; c = prev[i - ch] if i >= ch else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        else: assert f == 0, 'filter %d' % f
    rows.append(bytes(line)); prev = line
if len(sys.argv) > 4:
    ppm = open(sys.argv[4], 'rb').read()
    hdr = b'P6\n%d %d\n255\n' % (w, h)
    assert ppm.startswith(hdr), 'ppm header'
    assert ch == 3 and b''.join(rows) == ppm[len(hdr):], 'decoded pixels differ from the canvas'
EOF
}

if command -v python3 > /dev/null 2>&1; then
  # the test binary writes its charts and their raw pixels
  chart_dump() { RFL_CHART_DUMP="$CO" "$B/test_chart" > /dev/null; [ -f "$CO/geometry.ppm" ]; }
  step "chart: test charts dumped" chart_dump
  step "chart: PNG decodes to the canvas pixels (geometry 640x420)" png_check "$CO/geometry.png" 640 420 "$CO/geometry.ppm"
  step "chart: PNG decodes to the canvas pixels (small 320x200)" png_check "$CO/small.png" 320 200 "$CO/small.ppm"
else
  echo "chart: python3 not found: PNG decode checks skipped"
fi

# the done-when command
done_when() {
  "$PLOT" --hw a100 --point "ResNet18 measured:3.17:3.35e11" \
          --point "ResNet18 estimate:34.56:1.95e13" -o "$CO/r.png" || return 1
  if command -v python3 > /dev/null 2>&1; then png_check "$CO/r.png" 1200 800; else [ -s "$CO/r.png" ]; fi
}
step "rfl-plot: a100 with two points writes a 1200x800 PNG" done_when
plot_deterministic() {
  "$PLOT" --hw a100 --point "ResNet18 measured:3.17:3.35e11" \
          --point "ResNet18 estimate:34.56:1.95e13" -o "$CO/r2.png" && cmp -s "$CO/r.png" "$CO/r2.png"
}
step "rfl-plot: same inputs, same bytes" plot_deterministic

plot_ascii() {
  "$PLOT" --hw a100 --point "ResNet18 measured:3.17:3.35e11" \
          --point "ResNet18 estimate:34.56:1.95e13" --ascii > "$CO/a.txt" || return 1
  [ "$(wc -l < "$CO/a.txt")" -eq 24 ] &&
  [ "$(awk 'length($0) != 80' "$CO/a.txt" | wc -l)" -eq 0 ] &&
  grep -q 'FP32 19.5 TFLOP/s, ridge (+) 12.54 FLOP/B, DRAM 1.555 TB/s' "$CO/a.txt" &&
  grep -q 'A ResNet18 measured: 3.17 FLOP/B, 335 GFLOP/s' "$CO/a.txt" &&
  grep -q 'B ResNet18 estimate: 34.6 FLOP/B, 19.5 TFLOP/s' "$CO/a.txt"
}
step "rfl-plot --ascii: 80x24, ridge 12.54, both points in the key" plot_ascii

plot_work() {
  "$PLOT" --hw a100 --work tests/data/chart-estimate-resnet18.json \
          --work tests/data/chart-reduce-resnet18-a100.json=ResNet18 --kernels --ascii \
          -o "$CO/work.png" > "$CO/work.txt" || return 1
  grep -q 'ResNet18 estimate (at the roof): 34.6 FLOP/B, 19.5 TFLOP/s' "$CO/work.txt" &&
  grep -q 'ResNet18 measured: 3.17 FLOP/B, 335.4 GFLOP/s' "$CO/work.txt" &&
  grep -q 'ResNet18 kernels' "$CO/work.txt" && [ -s "$CO/work.png" ]
}
step "rfl-plot --work: rfl-estimate and rfl-reduce JSON chain" plot_work

step "rfl-plot: unknown machine is exit 1" ch_rc 1 "$PLOT" --hw nosuchgpu --point "a:1:1e12" -o "$CO/x.png"
step "rfl-plot: bad --point is exit 2" ch_rc 2 "$PLOT" --hw a100 --point "a:x:1e12" -o "$CO/x.png"
step "rfl-plot: negative AI is exit 2" ch_rc 2 "$PLOT" --hw a100 --point "a:-1:1e12" -o "$CO/x.png"
step "rfl-plot: no output is exit 2" ch_rc 2 "$PLOT" --hw a100
step "rfl-plot: unknown option is exit 2" ch_rc 2 "$PLOT" --hw a100 --frobnicate -o "$CO/x.png"
step "rfl-plot: --help is exit 0" ch_rc 0 "$PLOT" --help
# the T4 has no TF32 roof (null in hw_specs.h): the point is drawn alone,
# said as every warning is (a code from rfl_warn)
no_roof() {
  ch_rc 0 "$PLOT" --hw t4 --dtype tf32 --point "a:10:1e12" -o "$CO/noroof.png" &&
  grep -q "^rfl-plot: warning: no_roof: a machine has no roof for a point's precision" "$CO/last.err"
}
step "rfl-plot: a point without its roof is a no_roof warning" no_roof
bad_json() {
  ch_rc 1 "$PLOT" --hw a100 --work tests/data/chart-bad.json -o "$CO/x.png" &&
  grep -q 'chart-bad.json:3:39: expected a key string' "$CO/last.err"
}
step "rfl-plot: malformed JSON names file:line:col" bad_json
step "rfl-plot: missing JSON file is exit 1" ch_rc 1 "$PLOT" --hw a100 --work "$CO/none.json" -o "$CO/x.png"

# the header alone with RFL_NO_PNG, RFL_NO_CHART and RFL_NO_STDIO (warning-
# clean, no heap, no PNG or chart symbol left) is portability.sh's part 1
chart_nopng_test() {
  gcc -std=c99 $W -O0 -DRFL_NO_PNG -I. -Itests tests/test_chart.c -o "$CO/test_chart_nopng" -lm &&
  "$CO/test_chart_nopng" > "$CO/nopng.txt"
}
step "chart: unit tests pass without PNG" chart_nopng_test
step "rfl-plot: --point @HW outside --hw is exit 2" ch_rc 2 "$PLOT" --hw a100 --point "a:1:1e12@h100" -o "$CO/x.png"
plot_ascii_two() {
  "$PLOT" --hw v100,a100 --point "R18 measured:17.13:1.6496e12@v100" --point "R18 measured:3.168:3.3537e11@a100" \
          --ascii > "$CO/a2.txt" || return 1
  # one 80x24 chart per machine, a blank line between; each point only on its machine
  [ "$(wc -l < "$CO/a2.txt")" -eq 49 ] &&
  grep -q 'ridge (+) 17.44 FLOP/B' "$CO/a2.txt" && grep -q 'ridge (+) 12.54 FLOP/B' "$CO/a2.txt" &&
  [ "$(grep -c 'A R18 measured' "$CO/a2.txt")" -eq 2 ] &&
  grep -q 'A R18 measured: 17.1 FLOP/B, 1.65 TFLOP/s' "$CO/a2.txt" &&
  grep -q 'A R18 measured: 3.17 FLOP/B, 335.4 GFLOP/s' "$CO/a2.txt"
}
step "rfl-plot --ascii: one chart per machine, points on their own machine" plot_ascii_two

# the real chain: rfl-estimate and rfl-reduce JSON into rfl-plot; the key
# must show the AI and FLOP/s that those tools report (3 and 4 digits)
plot_chain() {
  build/rfl-estimate resnet18 --json > "$CO/est.json" &&
  build/rfl-reduce examples/data/resnet18-b1-train-seed-raw.csv --json --top 5 > "$CO/meas.json" &&
  "$PLOT" --hw h100 --work "$CO/est.json=ResNet-18" --work "$CO/meas.json=ResNet-18" --kernels \
          --ascii -o "$CO/chain.png" > "$CO/chain.txt" || return 1
  python3 - "$CO" <<'PYEOF'
import json, sys
d = sys.argv[1]
est, meas, txt = json.load(open(d + '/est.json')), json.load(open(d + '/meas.json')), open(d + '/chain.txt').read()
def g(v, n): return ('%.*g' % (n, v))
ai_e = est['forward']['flops'] / est['forward']['bytes']
ai_m = meas['ai']['dram']
# issue 35.2: the estimate at its FLOPs over the sum of its layers' times
# (max(FLOPs / 67 TFLOP/s, bytes / 3.35 TB/s) each, the H100's datasheet)
t = sum(max(L['forward_flops'] / 67e12, L['forward_bytes'] / 3.35e12) for L in est['layers'])
assert 'ResNet-18 estimate (FLOPs / layer times): %s FLOP/B, %s TFLOP/s' % (g(ai_e, 3), g(est['forward']['flops'] / t / 1e12, 4)) in txt, (g(ai_e, 3), txt)
assert 'ResNet-18 measured: %s FLOP/B' % g(ai_m, 3) in txt, (g(ai_m, 3), txt)
assert 'ResNet-18 kernels' in txt
PYEOF
}
if [ -x build/rfl-estimate ] && [ -x build/rfl-reduce ] && command -v python3 > /dev/null 2>&1; then
  step "rfl-plot: chained from rfl-estimate and rfl-reduce JSON" plot_chain
fi

# --ceilings l2,l1: a machine without a level says so on stderr (naming
# rfl-probe and a machine file), one that has it says nothing; a machine
# file's measured levels count (docs/machines/h200.json: the file's own
# figures have no L2/L1, its "measured" object has both)
plot_levels() {
  ch_rc 0 "$PLOT" --hw t4,h100 --ceilings l2,l1 -o "$CO/lv.png" &&
  grep -q 't4 has no L2 or L1 bandwidth' "$CO/last.err" && grep -q 'rfl-probe' "$CO/last.err" &&
  grep -q -- '--hw-file FILE' "$CO/last.err" && ! grep -q 'h100' "$CO/last.err" &&
  ch_rc 0 "$PLOT" --hw mi100 --ceilings l2,l1 -o "$CO/lv.png" &&
  grep -q 'mi100 has no L1 bandwidth' "$CO/last.err" &&
  ch_rc 0 "$PLOT" --hw-file docs/machines/h200.json --ceilings all -o "$CO/lv.png" &&
  [ ! -s "$CO/last.err" ] &&
  ch_rc 0 "$PLOT" --hw t4 --ceilings fp64 -o "$CO/lv.png" && [ ! -s "$CO/last.err" ] &&
  ch_rc 2 "$PLOT" --hw t4 --ceilings l2,l3 -o "$CO/lv.png" && grep -q "unknown ceiling 'l3'" "$CO/last.err"
}
step "rfl-plot --ceilings l2,l1: a machine without a level says so on stderr" plot_levels
