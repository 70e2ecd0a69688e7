# Issue 35, "numbers a student can re-derive": each check below failed on
# b962dbc. Expected values come from the fixtures' README ground truths
# (AlexNet b1 train on an H100: FP32 5,648,711,651 + FP16 20,418,068 FLOP,
# DRAM 735,022,080 B, L2 1,716,552,576 B) and the H100's datasheet roofs
# in hw_specs.h (FP32 67 TFLOP/s, DRAM 3.35 TB/s; L2 7.28 TB/s measured,
# cited there), with the arithmetic done here, never by the tool.
SO=$B/student-step
mkdir -p "$SO"
for t in build/rfl-report build/rfl-reduce build/rfl-estimate; do
  [ -x "$t" ] || step "build $t" ${MAKE:-make} -s "$t"
done


# 1. the printed formula is the one used: AlexNet's profile is L2-bound on
# the H100: (5,648,711,651 + 20,418,068) / 1,716,552,576 = 3.3026 FLOP/B at
# L2, x 7.28 TB/s = 24.04 TFLOP/s (DRAM would give 7.713 x 3.35 = 25.84).
student_l2_explain() {
  build/rfl-report --explain -o "$SO/demo" > "$SO/explain.txt" || return 1
  grep -qF 'L2-bound: min(67 TFLOP/s, 3.303 x 7.28 TB/s) = 24.04 TFLOP/s' "$SO/explain.txt" &&
  grep -qF '24.04 TFLOP/s (L2)' "$SO/explain.txt" &&
  ! grep -qF '7.713 x 3.35 TB/s' "$SO/explain.txt" &&
  json_check "$SO/demo/report.json" "[x for x in [m for m in d['models'] if m['model'] == 'alexnet'][0]['machines'] if x['measured_here']][0]['measured_bound'] == 'l2' and abs([x for x in [m for m in d['models'] if m['model'] == 'alexnet'][0]['machines'] if x['measured_here']][0]['measured_attainable_flops_per_s'] / ((5648711651 + 20418068) / 1716552576 * 7.28e12) - 1) < 1e-9"
}
step "issue 35.1: rfl-report names the binding level (L2) and prints its arithmetic" student_l2_explain
student_l2_reduce() {
  build/rfl-reduce examples/data/alexnet-b1-train-full-raw.csv --hw h100 > "$SO/reduce.txt" &&
  grep -qF '21.4% of the fp32 roof at this AI (L2-bound: min(67 TFLOP/s, 3.303 x 7.28 TB/s) = 24.04 TFLOP/s)' "$SO/reduce.txt" &&
  build/rfl-reduce examples/data/alexnet-b1-train-full-raw.csv --hw h100 --json > "$SO/reduce.json" &&
  json_check "$SO/reduce.json" "d['roof_bound'] == 'l2' and d['roof_text'].startswith('L2-bound')"
}
step "issue 35.1: rfl-reduce's % of the roof names the L2 level it is of" student_l2_reduce

# 6. unknown is null: the T4 has no TF32 tensor roof (Turing has none).
student_null_roof() {
  build/rfl-report --model resnet18 --hw t4,h100 --dtype tf32 --json -o "$SO/t4" > "$SO/t4.json" &&
  json_check "$SO/t4.json" "d['machines'][0]['id'] == 't4' and d['machines'][0]['peak_flops_per_s'] is None and d['machines'][0]['ridge_flop_per_byte'] is None and d['machines'][1]['ridge_flop_per_byte'] > 0 and [g for g in d['models'][0]['by_type'] if g['type'] == 'convolution'][0]['predicted_time_s'] is None"
}
step "issue 35.6: a missing roof is null in rfl-report --json, never 0" student_null_roof

# 8. inference prints no training lines; counts never in e-notation. A
# prefill of 100,000 tokens of Llama-3.2-1B is over 1e15 FLOPs: an exact
# integer below 2^53, so JSON writes all its digits.
student_no_training_lines() {
  build/rfl-estimate llama-3.2-1b --phase decode --hw h100 > "$SO/decode.txt" || return 1
  ! grep -qE '^backward|kept for backward|training memory' "$SO/decode.txt" || { echo "training lines in a decode"; return 1; }
  build/rfl-estimate resnet18 --mode infer > "$SO/infer.txt" &&
  ! grep -qE '^backward|kept for backward|training memory' "$SO/infer.txt" &&
  build/rfl-estimate resnet18 --mode train > "$SO/train.txt" &&
  grep -q '^backward' "$SO/train.txt" && grep -q 'training memory' "$SO/train.txt"
}
step "issue 35.8: a decode or inference step prints no training lines" student_no_training_lines
student_no_enotation() {
  build/rfl-report --model llama-3.2-1b --seq 100000 --phase prefill --hw h100 --json -o "$SO/big" > "$SO/big.json" &&
  ! grep -E '"[a-z_]*flops": *-?[0-9.]+e[+-]?[0-9]' "$SO/big.json" &&
  json_check "$SO/big.json" "d['models'][0]['estimate']['mac_flops'] > 1e15"
}
step "issue 35.8: counts over 1e15 are written in full, never in e-notation" student_no_enotation

# 16. make demo builds what the demo runs (rfl-report) and nothing else,
# with make's jobs from nproc (on b962dbc it built all 14 programs).
student_demo_builds() {
  ${MAKE:-make} -n -B demo > "$SO/demo-n.txt" 2>&1 || return 1
  grep -q 'tools/rfl-report.c -o build/rfl-report' "$SO/demo-n.txt" &&
  [ "$(grep -c ' -o build/' "$SO/demo-n.txt")" = 1 ] && grep -q -- '-j[0-9]' "$SO/demo-n.txt" &&
  grep -q 'mk/demo.sh' "$SO/demo-n.txt"
}
step "issue 35.16: make demo builds rfl-report alone, in parallel" student_demo_builds

# 5. communication is never free: the MI300X's xGMI latency is unpublished.
# A ring all-reduce over 4 GPUs has 2 x (4 - 1) = 6 steps; at the stated
# assumption (NCCL tuning.cc's PCI hwLat, 1.0 us a step) that is 6 us.
student_comm_assumed() {
  build/rfl-estimate llama-2-7b --phase decode --hw mi300x --gpus 4 --forecast --json > "$SO/mi300x.json" &&
  json_check "$SO/mi300x.json" "d['tp']['allreduce']['latency_assumed'] is True and abs(d['tp']['allreduce']['latency_s'] - 6e-6) < 1e-12 and 'ASSUMED' in d['forecast']['basis']" &&
  build/rfl-estimate llama-2-7b --phase decode --hw mi300x --gpus 4 > "$SO/mi300x.txt" &&
  grep -q 'latency 6 us, ASSUMED' "$SO/mi300x.txt" &&
  build/rfl-estimate llama-2-7b --phase decode --hw h100 --gpus 4 --json > "$SO/h100tp.json" &&
  json_check "$SO/h100tp.json" "d['tp']['allreduce']['latency_assumed'] is False"
}
step "issue 35.5: an unpublished link latency is a stated, flagged assumption, not 0" student_comm_assumed

# 4. does it fit? Llama-3-70B: 70.55 G parameters x 2 bytes (bf16) = 141.1 GB
# of weights; an H100 has 80 GiB = 85.9 GB, of which 90% (vLLM's
# gpu_memory_utilization) is 77.3 GB: one GPU does not hold it, two do
# (70.6 GB each). Llama-3.2-1B's config.json: max_position_embeddings
# 131072, so a cache of 100,000,000 tokens is beyond its context.
student_fit() {
  build/rfl-estimate llama-3-70b --hw h100 --json > "$SO/70b.json" &&
  json_check "$SO/70b.json" "[x['code'] for x in d['warnings']] == ['does_not_fit'] and 'at least 2 GPUs' in d['warnings'][0]['text']" &&
  build/rfl-estimate llama-3-70b --hw h100 > "$SO/70b.txt" &&
  grep -q '^warning: does_not_fit: .*at least 2 GPUs' "$SO/70b.txt" &&
  build/rfl-estimate llama-3.2-1b --seq 100000000 --json > "$SO/ctx.json" &&
  json_check "$SO/ctx.json" "[x['code'] for x in d['warnings']] == ['beyond_context'] and '131,072' in d['warnings'][0]['text']" &&
  build/rfl-estimate llama-3.2-1b --hw h100 --json > "$SO/1b.json" &&
  json_check "$SO/1b.json" "d['warnings'] == []" &&
  ! grep -q 'at most unknown' web/page.js
}
step "issue 35.4: does_not_fit (with the smallest GPU count) and beyond_context warnings" student_fit

# 2. one height for one estimate: rfl-report's chart and rfl-plot (from
# rfl-estimate's JSON) place ResNet-18's training step on the H100 at its
# FLOPs over the sum of its layers' max(FLOPs / 67 TFLOP/s, bytes / 3.35
# TB/s), computed here from the JSON's layers: 53.79 TFLOP/s, not the roof.
student_one_height() {
  build/rfl-report --model resnet18 --hw h100 --batch 1 --mode train --ascii -o "$SO/h" > "$SO/h.txt" &&
  build/rfl-estimate resnet18 --mode train --json > "$SO/h-est.json" &&
  build/rfl-plot --hw h100 --work "$SO/h-est.json=ResNet-18" --ascii -o "$SO/h.png" > "$SO/h-plot.txt" || return 1
  command -v python3 > /dev/null || return 0
  python3 - "$SO" <<'PYEOF'
import json, sys
d = sys.argv[1]
est = json.load(open(d + '/h-est.json'))
t = sum(max((L['forward_flops'] + L['backward_flops']) / 67e12, (L['forward_bytes'] + L['backward_bytes']) / 3.35e12) for L in est['layers'])
y = '%.4g TFLOP/s' % ((est['forward']['flops'] + est['backward']['flops']) / t / 1e12)
for f in ('h.txt', 'h-plot.txt'):
    key = [l for l in open(d + '/' + f) if 'ResNet-18 estimate (' in l and 'FLOP/B' in l]
    assert key and y in key[0] and 'FLOPs / layer' in key[0], (f, y, key)
PYEOF
}
step "issue 35.2: rfl-report and rfl-plot place an estimate at one height, said in the legend" student_one_height
