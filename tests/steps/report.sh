# rfl-report, make demo and the examples. Expected numbers come from
# elsewhere, never from the tool: the fixtures' README ground truths
# (ResNet-18 b1 train: FP32 FLOPs 10,278,929,315, DRAM 279,844,608 B,
# 2,641,696 ns; AlexNet: FP32 5,648,711,651, DRAM 735,022,080, L2
# 1,716,552,576), PyTorch's FlopCounterMode (ResNet-18 forward mac
# 3,628,146,688, backward 7,020,265,472), and sums over the CSV columns done
# here in Python (tensor FLOPs of the ResNet-50 TF32 capture: hgmma tf32
# 33,420,214,272 + hmma tf32 40,256,929,792 = 73,677,144,064; the
# *_sparsity_off columns repeat those numbers and must not be added).
RP=build/rfl-report
RO=$B/report-step
mkdir -p "$RO"
for t in "$RP" build/examples/minimal build/examples/homework build/examples/stream_reduce \
         build/examples/custom_model build/examples/own_hardware; do
  [ -x "$t" ] || step "build $t" ${MAKE:-make} -s "$t"
done

# rp_rc WANT CMD...: exit status WANT; output in $RO/last.out, $RO/last.err
rp_rc() {
  want=$1; shift
  "$@" > "$RO/last.out" 2> "$RO/last.err"
  got=$?
  [ "$got" = "$want" ] && return 0
  echo "exit $got, want $want: $*"; tail -3 "$RO/last.err"
  return 1
}

# is_png FILE: exists, PNG signature, more than a blank image's bytes
is_png() {
  [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] &&
  [ "$(wc -c < "$1")" -gt 10000 ] || { echo "not a chart: $1"; return 1; }
}


report_demo() {
  rm -rf "$RO/demo"
  rp_rc 0 "$RP" -o "$RO/demo" || return 1
  o=$RO/last.out
  grep -q 'NVIDIA Tesla V100' "$o" && grep -q 'NVIDIA A100 SXM4 40GB' "$o" &&
  grep -q 'NVIDIA H100 SXM5 80GB' "$o" && grep -q 'ResNet-18' "$o" && grep -q 'AlexNet' "$o" &&
  grep -q 'on H100 only' "$o" && grep -q 'measured / estimated FLOPs' "$o" || return 1
  for f in roofline.png roofline-v100-sxm2.png roofline-a100-sxm4-40gb.png roofline-h100-sxm.png \
           layers-resnet18.png layers-alexnet.png types-resnet18.png types-alexnet.png; do
    is_png "$RO/demo/$f" || return 1
  done
  [ -s "$RO/demo/report.json" ]
}
step "rfl-report (no arguments): the demo's tables, 8 charts, report.json" report_demo

report_demo_numbers() {
  j=$RO/demo/report.json
  json_check "$j" '
[m["model"] for m in d["models"]] == ["resnet18", "alexnet"] and
d["models"][0]["profile"]["flops"]["fp32"] == 10278929315 and
d["models"][0]["profile"]["bytes"]["dram"] == 279844608 and
abs(d["models"][0]["profile"]["time_s"] - 2641696e-9) < 1e-12 and
d["models"][0]["profile"]["kernels"] == 237 and
d["models"][0]["profile"]["bytes"]["l2"] is None and
d["models"][0]["estimate"]["mac_flops"] == 3628146688 + 7020265472 and
d["models"][1]["profile"]["flops"]["fp32"] == 5648711651 and
d["models"][1]["profile"]["bytes"]["dram"] == 735022080 and
d["models"][1]["profile"]["bytes"]["l2"] == 1716552576 and
d["models"][1]["profile"]["kernels"] == 79 and
d["models"][0]["profile"]["machine"] == "h100-sxm" and
[x["measured_here"] for x in d["models"][0]["machines"]] == [False, False, True] and
abs(d["models"][0]["profile"]["ai"]["dram"] - 10278929315 / 279844608) < 1e-9 and
abs(d["models"][0]["flops_ratio"] - 10278929315 / d["models"][0]["estimate"]["flops"]) < 1e-9'
}
step "rfl-report demo: measured totals = the fixtures' ground truth, mac = FlopCounterMode" report_demo_numbers

# Kernels typed by name; counts from the kernel names of the capture:
# 20 cudnn::bn_fw_tr + 20 cudnn::bn_bw kernels; max_pool forward + backward.
report_kinds() {
  json_check "$RO/demo/report.json" '
{t["type"]: t["kernels"] for t in d["models"][0]["by_type"]}["normalisation"] == 40 and
{t["type"]: t["kernels"] for t in d["models"][0]["by_type"]}["pooling"] == 2 and
sum(t["kernels"] for t in d["models"][0]["by_type"]) == 237 and
abs(sum(t["measured_time_s"] for t in d["models"][1]["by_type"]) - 1100672e-9) < 1e-12'
}
step "rfl-report: kernels typed by name (40 batch-norm kernels; types sum to the total)" report_kinds

# The issue's check: ResNet-50 inference, batch 8, TF32 allowed (H100).
report_r50_tf32() {
  rm -rf "$RO/r50"
  rp_rc 0 "$RP" --model resnet50 --batch 8 --mode infer --hw h100 \
      --ncu tests/data/resnet50-b8-infer-tf32-full-raw.csv -o "$RO/r50" || return 1
  o=$RO/last.out
  grep -q 'AI DRAM (FLOP/B)' "$o" && grep -q 'TENSOR CORES' "$o" && grep -q 'tf32_tensor' "$o" &&
  is_png "$RO/r50/roofline-h100-sxm.png" && is_png "$RO/r50/layers-resnet50.png" &&
  is_png "$RO/r50/types-resnet50.png" || return 1
  command -v python3 > /dev/null || return 0
  python3 - tests/data/resnet50-b8-infer-tf32-full-raw.csv "$RO/r50/report.json" <<'EOF' || return 1
import csv, json, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if not l.startswith("==")))
h, data = rows[0], rows[2:]
def col(name):
    i = h.index(name)
    return sum(float(r[i].replace(",", "") or 0) for r in data)
tensor = col("sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32.sum") + \
         col("sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32.sum")
assert tensor == 73677144064, tensor
d = json.load(open(sys.argv[2]))
p = d["models"][0]["profile"]
ok = p["flops"]["tensor"] == tensor and p["prec"] == "tf32_tensor" and p["kernels"] == 233
if not ok:
    print("tensor FLOPs", p["flops"]["tensor"], "want", tensor, "(sum of the base counters)")
sys.exit(0 if ok else 1)
EOF
}
step "rfl-report resnet50 b8 infer TF32: says TENSOR CORES, TF32 roof, tensor FLOPs = CSV sum" report_r50_tf32

# TF32 off: FP32 counters only; est. vs measured close to 1 (the same
# direct-convolution count the formula gives, +-15%).
report_r50_fp32() {
  rp_rc 0 "$RP" --model resnet50 --batch 8 --mode infer --hw h100 --json \
      --ncu tests/data/resnet50-b8-infer-full-raw.csv || return 1
  json_check "$RO/last.out" '
0.85 < d["models"][0]["flops_ratio"] < 1.15 and d["models"][0]["profile"]["prec"] == "fp32"'
}
step "rfl-report resnet50 b8 infer FP32: measured/estimated FLOPs within 15% of 1" report_r50_fp32

# A training profile reported as inference: the tool names the mismatch.
report_mode_hint() {
  rp_rc 0 "$RP" --model resnet18 --mode infer --hw h100 \
      --ncu examples/data/resnet18-b1-train-seed-raw.csv &&
  grep -q 'looks like a training step' "$RO/last.out"
}
step "rfl-report: a train profile under --mode infer is named as such" report_mode_hint

# The reports' A100 case: TF32 on, only the SASS counters collected (the
# ResNet-18 TF32 capture with its tensor columns renamed out of reach). The
# measured/estimated ratio is low because tensor-core kernels are not
# counted; the tool must say that, and not guess "a forward pass only".
report_a100_case() {
  sed '/^"ID"/ s/"sm__ops_path_tensor_op_/"xm__ops_path_tensor_op_/g; /^"ID"/ s/"sm__inst_executed_pipe_tensor/"xm__inst_executed_pipe_tensor/g' \
      tests/data/resnet18-b1-train-tf32-full-raw.csv > "$RO/r18-tf32-sass-only.csv" &&
  rp_rc 0 "$RP" --model resnet18 --hw a100,h100 --ncu "$RO/r18-tf32-sass-only.csv" -o "$RO/a100case" &&
  grep -q 'TENSOR CORES NOT IN THE COUNTERS' "$RO/last.out" &&
  grep -q 'FLOPs tensor cores  *NOT COUNTED' "$RO/last.out" &&
  ! grep -q 'forward pass only' "$RO/last.out"
}
step "rfl-report: TF32 profile without tensor counters blames the tensor cores, not the mode" report_a100_case

# The batch-8 capture (CAPTURES.md) reported as batch 1: the tool says batch 8.
report_batch_hint() {
  rp_rc 0 "$RP" --model resnet50 --batch 1 --mode infer --hw h100 \
      --ncu tests/data/resnet50-b8-infer-full-raw.csv &&
  grep -q 'a profile of batch 8 instead of 1' "$RO/last.out" &&
  ! grep -q 'libraries do more arithmetic' "$RO/last.out"
}
step "rfl-report: a batch-8 profile under --batch 1 is named as such" report_batch_hint

# --explain: the formulas with the datasheet numbers put in.
report_explain() {
  rp_rc 0 "$RP" --model alexnet --hw a100 --explain &&
  grep -q 'attainable = min(peak, AI x BW): DRAM-bound: min(19.5 TFLOP/s' "$RO/last.out" &&
  grep -q 'ridge = peak / BW = 19.5 TFLOP/s / 1.555 TB/s = 12.54 FLOP/B' "$RO/last.out"
}
step "rfl-report --explain: attainable = min(19.5 TFLOP/s, AI x 1.555 TB/s), ridge 12.54" report_explain

report_errors() {
  rp_rc 1 "$RP" --model resnet19 --hw h100 && grep -q "unknown model 'resnet19'" "$RO/last.err" &&
  rp_rc 1 "$RP" --model resnet18 --hw h101 && grep -q "unknown machine 'h101'" "$RO/last.err" &&
  rp_rc 1 "$RP" --model resnet18 --hw h100 --ncu "$RO/no-such.csv" && grep -q 'no-such.csv' "$RO/last.err" &&
  rp_rc 1 "$RP" --model resnet18 --hw h100 --ncu tests/data/torch-zoo.json &&
  rp_rc 2 "$RP" --model resnet18,alexnet --hw h100 --ncu examples/data/alexnet-b1-train-full-raw.csv &&
  rp_rc 2 "$RP" --model resnet18 --hw h100 --ncu vgg16=examples/data/alexnet-b1-train-full-raw.csv &&
  rp_rc 2 "$RP" --model resnet18 --bogus && rp_rc 2 "$RP" --hw h100 --batch 0 &&
  rp_rc 0 "$RP" --help && grep -q -- '--ncu M=FILE' "$RO/last.out"
}
step "rfl-report: unknown model/machine/file and bad profiles exit 1, bad usage 2" report_errors

# The examples: each runs with no arguments (files from examples/data/).
# block.conv1 at batch 64: 2 x 32 x 3 x 3 x 32 x 32 x 32 x 64 = 1,207,959,552;
# 2x E5-2697 v2: 2 x 12 x 2.7 GHz x 8 x 2 = 1036.8 GFLOP/s, 2 x 4 x 1866 x 8 = 119.4 GB/s.
examples_run() {
  rp_rc 0 build/examples/minimal && grep -q 'ResNet-18 forward: 3.643 GFLOP' "$RO/last.out" &&
  grep -q 'compute-bound on the NVIDIA A100' "$RO/last.out" || return 1
  rp_rc 0 build/examples/homework "$RO/homework.png" && is_png "$RO/homework.png" &&
  grep -q '^resnet18 .*1.028e+10' "$RO/last.out" && grep -q '^alexnet .*5.669e+09' "$RO/last.out" || return 1
  rp_rc 0 sh -c "build/examples/stream_reduce < examples/data/alexnet-b1-train-full-raw.csv" &&
  grep -q 'fp32 *5648711651 FLOP' "$RO/last.out" && grep -q 'l2 *1716552576 B' "$RO/last.out" || return 1
  rp_rc 1 sh -c "printf 'ID,Kernel Name\n\"1,x\n' | build/examples/stream_reduce" || return 1
  rp_rc 0 build/examples/custom_model && grep -Eq '^block.conv1 +conv2d +9216 +1207959552 ' "$RO/last.out" &&
  grep -q 'backward' "$RO/last.out" || return 1
  rp_rc 0 build/examples/own_hardware "$RO/own.png" && is_png "$RO/own.png" &&
  grep -q '2x Xeon E5-2697 v2 *1036.8 GFLOP/s FP32,  119.4 GB/s' "$RO/last.out" || return 1
  # embedded: exit 0 means its MAC and parameter counts matched the ones
  # derived by hand in its source (tests/steps/m4.sh compares its lines
  # with the board's)
  rp_rc 0 build/examples/embedded
}
step "examples: minimal, homework, stream_reduce, custom_model, own_hardware, embedded run" examples_run

# Captures made with the README's own ncu command (ResNet-50 b8 inference,
# TF32 allowed, H100, base tensor counters only; one by an earlier session,
# one by this one): the tensor FLOPs are the CSV's hgmma + hmma tf32 sums
# (73,677,144,064, summed here), the DRAM AI is all FLOPs over DRAM bytes as
# summed here, the ratio to the formula's 65.9 GFLOP is near 1 (padding and
# tiles: +-25%), and the charts are written.
report_readme_capture() {
  rm -rf "$RO/own"
  rp_rc 0 "$RP" --model resnet50 --batch 8 --mode infer --hw h100 --json \
      --ncu "$1" -o "$RO/own" || return 1
  is_png "$RO/own/roofline-h100-sxm.png" && is_png "$RO/own/layers-resnet50.png" &&
  is_png "$RO/own/types-resnet50.png" || return 1
  command -v python3 > /dev/null || return 0
  python3 - "$1" "$RO/last.out" <<'PY'
import csv, json, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if not l.startswith("==")))
h, data = rows[0], rows[2:]
def col(name):
    i = h.index(name)
    return sum(float(r[i].replace(",", "") or 0) for r in data)
def sass(p):
    op = "smsp__sass_thread_inst_executed_op_%s%s_pred_on.sum"
    return col(op % (p, "add")) + col(op % (p, "mul")) + 2 * col(op % (p, "fma"))
tensor = col("sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32.sum") + \
         col("sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32.sum")
dram = col("dram__bytes_read.sum") + col("dram__bytes_write.sum")
total = tensor + sass("f") + sass("h") + sass("d")
m = json.load(open(sys.argv[2]))["models"][0]
p = m["profile"]
ok = (tensor == 73677144064 and p["flops"]["tensor"] == tensor and p["bytes"]["dram"] == dram
      and abs(p["ai"]["dram"] - total / dram) < 1e-9 * total / dram
      and p["prec"] == "tf32_tensor" and p["device"] == "NVIDIA H100 80GB HBM3"
      and 0.8 < m["flops_ratio"] < 1.25 and any("TENSOR CORES" in r for r in m["ratio_reasons"]))
if not ok:
    print("profile", p["flops"], p["bytes"], p["ai"], m["flops_ratio"], "want tensor", tensor,
          "dram", dram, "ai", total / dram)
sys.exit(0 if ok else 1)
PY
}
step "rfl-report on a README-command capture (earlier session): tensor FLOPs, DRAM, AI, charts" \
  report_readme_capture tests/data/resnet50-b8-infer-tf32-readme-raw.csv
step "rfl-report on a README-command capture (this session's, 19:14 UTC): the same" \
  report_readme_capture tests/data/resnet50-b8-infer-readme-raw.csv

# The measured point belongs to the machine of the profile's device name
# ("NVIDIA H100 80GB HBM3" in the capture): absent from --hw, its machine
# joins the report with a device_mismatch warning; put elsewhere with
# --ncu-hw, the same warning; --ncu-hw adds its machine when --hw lacks it.
report_device() {
  f=examples/data/resnet18-b1-train-seed-raw.csv
  rp_rc 0 "$RP" --model resnet18 --hw a100 --ncu $f &&
  grep -q "warning: device_mismatch: measured on 'NVIDIA H100 80GB HBM3' (h100-sxm), which is not among --hw" "$RO/last.out" &&
  grep -q '^== NVIDIA H100 SXM5 80GB' "$RO/last.out" &&
  rp_rc 0 "$RP" --model resnet18 --hw a100,v100 --ncu-hw v100 --ncu $f &&
  grep -q "warning: device_mismatch: measured on 'NVIDIA H100 80GB HBM3' (h100-sxm), but placed on the NVIDIA Tesla V100" "$RO/last.out" &&
  rp_rc 0 "$RP" --model resnet18 --hw a100 --ncu-hw h100 --ncu $f &&
  grep -q '^== NVIDIA H100 SXM5 80GB' "$RO/last.out" && grep -q 'this machine' "$RO/last.out" &&
  ! grep -q 'device_mismatch' "$RO/last.out"
}
step "rfl-report: measured point only on the profile's own machine (device name, --ncu-hw)" report_device

# Variants of one chip: the fixtures tests/data/variant-*-raw.csv are
# micro-seed-raw.csv with only the device name changed (CAPTURES.md). The
# point lands on the machine of that exact memory size and form factor,
# whatever the order of --hw; a missing one joins the report, named by a
# device_mismatch warning; a variant the table lacks is placed nowhere.
# Roofs by hand from the datasheets: A100 80GB SXM 2039 GB/s, A100 40GB
# 1555 GB/s, FP32 19.5 TFLOP/s.
report_variants() {
  v=tests/data/variant
  rp_rc 0 "$RP" --model alexnet --hw a100 --json --ncu $v-a100-sxm4-80gb-raw.csv &&
  json_check "$RO/last.out" '
[m["id"] for m in d["machines"]] == ["a100-sxm4-40gb", "a100-sxm4-80gb"] and
d["models"][0]["profile"]["machine"] == "a100-sxm4-80gb" and
d["models"][0]["profile"]["warnings"][0]["code"] == "device_mismatch" and
[x["measured_here"] for x in d["models"][0]["machines"]] == [False, True] and
abs(d["models"][0]["machines"][1]["measured_attainable_flops_per_s"] -
    min(19.5e12, d["models"][0]["profile"]["ai"]["dram"] * 2039e9)) < 1e3' || return 1
  rp_rc 0 "$RP" --model alexnet --hw a100 --ncu $v-a100-sxm4-80gb-raw.csv -o "$RO/variant" &&
  grep -q 'warning: device_mismatch' "$RO/last.out" && is_png "$RO/variant/roofline-a100-sxm4-80gb.png" &&
  json_check "$RO/variant/report.json" 'd["models"][0]["profile"]["warnings"][0]["code"] == "device_mismatch"' || return 1
  for hw in a100,a100-80gb a100-80gb,a100; do
    rp_rc 0 "$RP" --model alexnet --hw $hw --json --ncu $v-a100-sxm4-80gb-raw.csv &&
    json_check "$RO/last.out" '
d["models"][0]["profile"]["machine"] == "a100-sxm4-80gb" and
"device_mismatch" not in [x["code"] for x in d["models"][0]["profile"]["warnings"]] and
[x["hw"] for x in d["models"][0]["machines"] if x["measured_here"]] == ["a100-sxm4-80gb"]' || return 1
  done
  rp_rc 0 "$RP" --model alexnet --hw h100 --json --ncu $v-h100-pcie-raw.csv &&
  json_check "$RO/last.out" '
[m["id"] for m in d["machines"]] == ["h100-sxm", "h100-pcie"] and
d["models"][0]["profile"]["machine"] == "h100-pcie" and
[x["measured_here"] for x in d["models"][0]["machines"]] == [False, True]' || return 1
  rp_rc 0 "$RP" --model alexnet --hw a100 --json --ncu $v-a100-pcie-40gb-raw.csv &&
  json_check "$RO/last.out" '
[m["id"] for m in d["machines"]] == ["a100-sxm4-40gb"] and
d["models"][0]["profile"]["machine"] is None and
d["models"][0]["profile"]["warnings"][0]["code"] == "device_mismatch" and
not any(x["measured_here"] for x in d["models"][0]["machines"])' || return 1
  rp_rc 0 "$RP" --model alexnet --hw a100 --ncu $v-a100-pcie-40gb-raw.csv &&
  grep -q "warning: device_mismatch: measured on 'NVIDIA A100-PCIE-40GB', a device the table does not know" "$RO/last.out" &&
  ! grep -q '% of the roof' "$RO/last.out" &&
  rp_rc 0 "$RP" --model alexnet --hw a100 --ncu-hw a100 --json --ncu $v-a100-sxm4-80gb-raw.csv &&
  json_check "$RO/last.out" '
d["models"][0]["profile"]["machine"] == "a100-sxm4-40gb" and
d["models"][0]["profile"]["warnings"][0]["code"] == "device_mismatch"'
}
step "rfl-report: a variant's profile lands on its own machine (A100 80GB vs 40GB, H100 PCIe vs SXM)" report_variants

# Profiles that carry less: nvprof's summary has times only (FLOPs and AI
# unknown: null and '-', never 0); a details page names no device (assumed
# on the first --hw, said out loud). Kernel time of the summary, by hand:
# sgemm_kernel 1.234567 ms + saxpy 0.230000 ms = 1.464567 ms (the HtoD
# memcpy row is a copy, not a kernel).
report_partial() {
  rp_rc 0 "$RP" --model resnet18 --hw v100 --ncu tests/data/nvprof-summary.csv &&
  grep -Eq '^  FLOPs total +-$' "$RO/last.out" && grep -Eq '^  AI DRAM \(FLOP/B\) +-$' "$RO/last.out" &&
  grep -q 'time (sum of kernels) *1.465 ms' "$RO/last.out" &&
  rp_rc 0 "$RP" --model resnet18 --hw v100 --json --ncu tests/data/nvprof-summary.csv &&
  json_check "$RO/last.out" 'd["models"][0]["profile"]["flops"]["total"] is None and d["models"][0]["profile"]["ai"]["dram"] is None' &&
  rp_rc 0 "$RP" --model resnet18 --hw a100,h100 --ncu tests/data/micro-seed-details.csv &&
  grep -q 'names no device.*assumed measured on the NVIDIA A100' "$RO/last.out"
}
step "rfl-report: unknown quantities stay unknown; a profile without a device name is assumed, aloud" report_partial

# --dtype tf32: the same FLOPs as fp32 (mac part = 8 x FlopCounterMode's
# ResNet-50 forward 8,178,368,512 = 65,426,948,096), now mostly under the
# TF32 tensor roof; the TF32 capture then needs no "TENSOR CORES" warning,
# and the TF32 prediction is faster.
report_tf32_dtype() {
  rp_rc 0 "$RP" --model resnet50 --batch 8 --mode infer --hw h100 --json --dtype tf32 \
      --ncu tests/data/resnet50-b8-infer-tf32-readme-raw.csv || return 1
  cp "$RO/last.out" "$RO/tf32.json"
  rp_rc 0 "$RP" --model resnet50 --batch 8 --mode infer --hw h100 --json || return 1
  command -v python3 > /dev/null || return 0
  python3 - "$RO/tf32.json" "$RO/last.out" <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); f = json.load(open(sys.argv[2]))
mt, mf = t["models"][0], f["models"][0]
ok = (t["dtype"] == "tf32" and mt["estimate"]["prec"] == "tf32_tensor" and mf["estimate"]["prec"] == "fp32"
      and mt["estimate"]["flops"] == mf["estimate"]["flops"]
      and mt["estimate"]["mac_flops"] == 8 * 8178368512
      and mt["machines"][0]["predicted_time_s"] < mf["machines"][0]["predicted_time_s"]
      and not any("TENSOR CORES" in r for r in mt["ratio_reasons"]))
sys.exit(0 if ok else 1)
PY
}
step "rfl-report --dtype tf32: conv/matmul under the TF32 roof, same FLOPs, no tensor warning" report_tf32_dtype

# --ceilings l2,l1 on the charts: a machine without a level says so on
# stderr (once, naming rfl-probe and a machine file); an unknown name is
# exit 2
report_ceilings() {
  rp_rc 0 "$RP" --model resnet18 --hw t4,h100 --ceilings l2,l1 -o "$RO/ceil" &&
  [ "$(grep -c 'has no' "$RO/last.err")" -eq 1 ] &&
  grep -q 't4 has no L2 or L1 bandwidth' "$RO/last.err" && grep -q 'rfl-probe' "$RO/last.err" &&
  is_png "$RO/ceil/roofline-h100-sxm.png" &&
  rp_rc 2 "$RP" --model resnet18 --hw t4 --ceilings l2,dram2
}
step "rfl-report --ceilings l2,l1: a machine without a level says so on stderr" report_ceilings
