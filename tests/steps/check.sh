# rfl-check: the tool over the library's checker. The answer files in
# tests/data/check/ (correct.json: AlexNet on an A100, values derived by hand
# in tests/test_check.c; one file per diagnosis code, each a mistake of
# ../shared/context/what-users-do.md, cited in its "_mistake") graded
# through the tool: the human table, --json, --gradescope, --points,
# templates, the instructor's variants, and the error contract (exit 1 with
# FILE:LINE:COL, exit 2 for bad usage).
CK=build/rfl-check
CO=$B/check-step
CD=tests/data/check
mkdir -p "$CO"
if [ ! -x "$CK" ]; then
  step "build rfl-check" ${MAKE:-make} -s "$CK"
fi

# ck_diag FILE FIELD CODE: rfl-check --json FILE gives FIELD the diagnosis CODE
ck_diag() {
  "$CK" "$CD/$1" --json > "$CO/out.json" || return 1
  tr -d '\n' < "$CO/out.json" | sed 's/},/}\n/g' | grep -F "\"field\": \"$2\"" |
    grep -qF "\"diagnosis\": \"$3\"" || { echo "$1: $2 is not $3"; grep -A8 -F "\"$2\"" "$CO/out.json"; return 1; }
}

ck_correct() {
  "$CK" $CD/correct.json > "$CO/correct.txt" || return 1
  grep -qx 'score 16 / 16 (16 ok, 0 wrong, 0 missing, 0 unchecked)' "$CO/correct.txt" &&
  ! grep -q '^wrong' "$CO/correct.txt" &&
  "$CK" $CD/correct.json --json > "$CO/correct.json" &&
  grep -qx '  "score": 16,' "$CO/correct.json" && grep -qx '  "max_score": 16,' "$CO/correct.json"
}
step "rfl-check correct.json (hand-derived AlexNet, A100): 16 / 16" ck_correct

step "rfl-check mac_not_flop (thop's MACs as FLOPs)" ck_diag mac_not_flop.json models.alexnet.forward_flops mac_not_flop
step "rfl-check binary_prefix (MiB written as MB)" ck_diag binary_prefix.json models.alexnet.bytes binary_prefix
step "rfl-check backward_twice_forward" ck_diag backward_twice_forward.json models.alexnet.backward_flops backward_twice_forward
step "rfl-check forward_only (a step's FLOPs = forward)" ck_diag forward_only.json models.alexnet.flops forward_only
step "rfl-check precision_roof (312 TFLOP/s FP16 tensor for FP32)" ck_diag precision_roof.json machine.peak_flops_per_s precision_roof
step "rfl-check inconsistent_ai" ck_diag inconsistent_ai.json models.alexnet.ai inconsistent_ai
step "rfl-check above_roof (2x above peak)" ck_diag above_roof.json models.alexnet.measured.achieved_flops_per_s above_roof
step "rfl-check measured_partial (only the Kbyte lines summed)" ck_diag measured_partial.json models.alexnet.measured.bytes measured_partial
step "rfl-check tensor_flops_missing (TF32 convolutions)" ck_diag tensor_flops_missing.json models.alexnet.measured.flops tensor_flops_missing
step "rfl-check tensor_flops_missing (TF32 kernels, no tensor counter: the A100 reports)" ck_diag tensor_flops_uncounted.json models.alexnet.measured.flops tensor_flops_missing
step "rfl-check per_sample (batch-1 values, batch 8)" ck_diag per_sample.json models.alexnet.flops per_sample
step "rfl-check wrong_machine (V100 figures for an A100)" ck_diag wrong_machine.json machine.bandwidth_bytes_per_s wrong_machine
step "rfl-check unit_slip (ms in a seconds field)" ck_diag unit_slip.json models.alexnet.measured.time_s unit_slip
step "rfl-check carried_error (an AI from MAC FLOPs)" ck_diag carried_error.json models.alexnet.ai carried_error
step "rfl-check footprint_not_traffic (torchsummary's 242.03 MB as bytes)" ck_diag footprint_not_traffic.json models.alexnet.bytes footprint_not_traffic

# Gradescope's results.json, and points from an instructor's file
ck_gradescope() {
  "$CK" $CD/mac_not_flop.json --gradescope "$CO/results.json" > /dev/null || return 1
  grep -qx '  "score": 15,' "$CO/results.json" &&
  grep -qx '  "tests": \[' "$CO/results.json" &&
  grep -qx '      "name": "models.alexnet.forward_flops",' "$CO/results.json" &&
  [ "$(grep -c '"max_score": 1,' "$CO/results.json")" = 16 ] &&
  printf '{"forward_flops": 4, "bound": 0}\n' > "$CO/points.json" &&
  "$CK" $CD/mac_not_flop.json --points "$CO/points.json" --json > "$CO/p.json" &&
  grep -qx '  "score": 14,' "$CO/p.json" && grep -qx '  "max_score": 18,' "$CO/p.json"
}
step "rfl-check --gradescope results.json, --points" ck_gradescope

# a file that cannot be read still gives Gradescope a results.json (score 0)
ck_gradescope_bad() {
  printf '{"assignment": {"hw": "a100"},\n "models": {"alexnet": {"foward_flops": 3}}}\n' > "$CO/bad.json"
  "$CK" "$CO/bad.json" --gradescope "$CO/bad-results.json" > /dev/null 2> "$CO/bad.err"
  [ $? = 1 ] || return 1
  grep -q "bad.json:2:25: models.alexnet.foward_flops: unknown key" "$CO/bad.err" &&
  grep -qx '  "score": 0,' "$CO/bad-results.json" &&
  grep -q '"output": "[^"]*bad.json:2:25: models.alexnet.foward_flops: unknown key' "$CO/bad-results.json"
}
step "rfl-check: an unknown key is exit 1 with FILE:LINE:COL (and a score-0 results.json)" ck_gradescope_bad

# one value that cannot be read sinks only itself (issue 35 item 9)
ck_unreadable() {
  "$CK" $CD/unreadable.json --gradescope "$CO/u-results.json" > "$CO/u.txt" || return 1
  grep -qx 'score 15 / 16 (15 ok, 1 wrong, 0 missing, 0 unchecked)' "$CO/u.txt" &&
  grep -q 'unreadable (line 20, column 23: a unit of another dimension' "$CO/u.txt" &&
  grep -q 'note: GFLOPS is a rate' "$CO/u.txt" && grep -qx '  "score": 15,' "$CO/u-results.json"
}
step "rfl-check: an unreadable value is graded wrong with its place, the other 15 graded" ck_unreadable
step "rfl-check unreadable (a note inside a value)" ck_diag unreadable.json models.alexnet.bytes unreadable
ck_above_time() {
  ck_diag above_roof_time.json models.alexnet.measured.achieved_flops_per_s above_roof &&
  grep -q 'your time is a power of 1000 too small' "$CO/out.json"
}
step "rfl-check above_roof from a time 1000x too small (issue 35 item 10)" ck_above_time

# a profile that cannot be read: exit 1 naming it, and a score-0 results.json
ck_profile_missing() {
  sed 's/alexnet-a100-details.csv/no-such.csv/' $CD/correct.json > "$CO/noprof.json"
  "$CK" "$CO/noprof.json" --gradescope "$CO/np-results.json" > /dev/null 2> "$CO/np.err"
  [ $? = 1 ] && grep -q 'measured.profile: cannot open .*no-such.csv' "$CO/np.err" &&
  grep -q 'no-such.csv' "$CO/np-results.json"
}
step "rfl-check: a profile that cannot be opened is exit 1 (and a score-0 results.json)" ck_profile_missing

ck_template() {
  "$CK" --template --model resnet18,alexnet --hw a100 --batch 1 --mode train --dtype fp32 > "$CO/t.json" || return 1
  grep -qx '      "forward_flops": null,' "$CO/t.json" && grep -q '"units": {' "$CO/t.json" &&
  "$CK" "$CO/t.json" > "$CO/t.txt" &&
  grep -qx 'score 0 / 29 (0 ok, 0 wrong, 29 missing, 0 unchecked)' "$CO/t.txt"
}
step "rfl-check --template: null values, a units hint, reads back all missing" ck_template

# the instructor's variants: reproducible, and checked
ck_assign() {
  printf '# roster\nalice\nbob\n\ncarol.b@uni\n' > "$CO/roster.txt"
  rm -rf "$CO/a1" "$CO/a2"
  set -- --models resnet18,alexnet,vgg16 --hw a100,v100,t4 --batches 1,8,32 --seed 2026
  "$CK" --assign "$CO/roster.txt" "$@" -o "$CO/a1" &&
  "$CK" --assign "$CO/roster.txt" "$@" -o "$CO/a2" &&
  cmp "$CO/a1/variants.csv" "$CO/a2/variants.csv" && cmp "$CO/a1/bob.json" "$CO/a2/bob.json" &&
  [ "$(wc -l < "$CO/a1/variants.csv")" = 4 ] && [ -f "$CO/a1/carol.b@uni.json" ] &&
  grep -qx '    "student": "alice"' "$CO/a1/alice.json" || return 1
  # alice's own template checks as her variant; bob's file does not
  "$CK" "$CO/a1/alice.json" "$@" --json > "$CO/v.json" &&
  tr -d '\n' < "$CO/v.json" | grep -Eq '"field": "assignment", +"verdict": "ok"' &&
  "$CK" "$CO/a1/bob.json" "$@" --student alice --json > "$CO/v2.json" || return 1
  if cmp -s "$CO/a1/alice.json" "$CO/a1/bob.json"; then return 0; fi # same variant by chance
  awk -F, '$1=="alice"{a=$2$3$4} $1=="bob"{b=$2$3$4} END{exit a==b}' "$CO/a1/variants.csv" || return 0
  grep -q '"diagnosis": "wrong_variant"' "$CO/v2.json" && grep -qx '  "score": 0,' "$CO/v2.json"
}
step "rfl-check --assign: reproducible variants; another student's variant is wrong_variant" ck_assign

# rosters as teachers write them (issue 35 item 11): names with spaces and
# commas, safe file names stated in variants.csv; a duplicate (any case) or
# an empty roster is an error and writes nothing
ck_roster() {
  set -- --models resnet18,alexnet,vgg16 --hw a100,v100,t4 --batches 1,8,32 --seed 2026
  rm -rf "$CO/r1" "$CO/r2" "$CO/r3" "$CO/r4"
  printf 'alice\nBob Smith\nSmith, Jo\n' > "$CO/roster1.txt"
  "$CK" --assign "$CO/roster1.txt" "$@" -o "$CO/r1" || return 1
  [ -f "$CO/r1/Bob_Smith.json" ] && [ -f "$CO/r1/Smith__Jo.json" ] &&
  grep -q '^Bob Smith,.*,Bob_Smith.json$' "$CO/r1/variants.csv" &&
  grep -q '^"Smith, Jo",.*,Smith__Jo.json$' "$CO/r1/variants.csv" &&
  grep -qx '    "student": "Bob Smith"' "$CO/r1/Bob_Smith.json" || return 1
  printf 'alice\nbob\nBOB\n' > "$CO/roster2.txt"
  "$CK" --assign "$CO/roster2.txt" "$@" -o "$CO/r2" 2> "$CO/r2.err"; [ $? = 1 ] || return 1
  grep -q "roster2.txt:3:1: 'BOB' is already on line 2" "$CO/r2.err" && [ ! -e "$CO/r2" ] || return 1
  printf '# nobody yet\n\n' > "$CO/roster3.txt"
  "$CK" --assign "$CO/roster3.txt" "$@" -o "$CO/r3" 2> /dev/null; [ $? = 1 ] && [ ! -e "$CO/r3" ] || return 1
  printf 'Bob Smith\nBob_Smith\n' > "$CO/roster4.txt"
  "$CK" --assign "$CO/roster4.txt" "$@" -o "$CO/r4" 2> /dev/null; [ $? = 1 ] && [ ! -e "$CO/r4" ]
}
step "rfl-check --assign: names with spaces, duplicates and an empty roster are errors that write nothing" ck_roster

# the submitter from Gradescope's metadata (item 12): a classmate's file,
# with its student field, is not the submitter's variant; --hide-expected
ck_metadata() {
  set -- --models resnet18,alexnet,vgg16 --hw a100,v100,t4 --batches 1,8,32 --seed 2026
  printf '{"id": 1, "users": [{"email": "bob@uni.edu", "id": 7, "name": "Bob Smith"}]}\n' > "$CO/meta.json"
  "$CK" "$CO/r1/Bob_Smith.json" "$@" --metadata "$CO/meta.json" --json > "$CO/m1.json" || return 1
  tr -d '\n' < "$CO/m1.json" | grep -Eq '"field": "assignment", +"verdict": "ok"' || return 1
  awk -F, '$1=="alice"{a=$2$3$4} $1=="Bob Smith"{b=$2$3$4} END{exit a==b}' "$CO/r1/variants.csv" || return 0
  "$CK" "$CO/r1/alice.json" "$@" --metadata "$CO/meta.json" --json > "$CO/m2.json" &&
  grep -q '"diagnosis": "wrong_variant"' "$CO/m2.json" || return 1
  "$CK" $CD/mac_not_flop.json --hide-expected --gradescope "$CO/h.json" > /dev/null &&
  ! grep -q 'expected' "$CO/h.json" && grep -q 'mac_not_flop' "$CO/h.json" &&
  "$CK" $CD/mac_not_flop.json --gradescope "$CO/h2.json" > /dev/null && grep -q 'expected 1.428 GFLOP' "$CO/h2.json"
}
step "rfl-check --metadata: the submitter's variant, not the file's student; --hide-expected" ck_metadata

# LLM homework (issue 35 item 13): the template of a model rfl-estimate
# --list shows, an answer file of Llama 3.2 1B graded (values from PyTorch's
# counts and by hand in tests/test_check.c), and its classic mistakes
ck_llm() {
  "$CK" --template --model llama-3.2-1b --hw h100 --batch 4 --seq 512 > "$CO/llm-t.json" || return 1
  grep -qx '      "kv_cache_bytes": null,' "$CO/llm-t.json" && grep -qx '    "dtype": "bf16"' "$CO/llm-t.json" &&
  grep -qx '    "mode": "infer",' "$CO/llm-t.json" &&
  "$CK" "$CO/llm-t.json" | grep -qx 'score 0 / 15 (0 ok, 0 wrong, 15 missing, 0 unchecked)' &&
  "$CK" $CD/llm-correct.json | grep -qx 'score 15 / 15 (15 ok, 0 wrong, 0 missing, 0 unchecked)'
}
step "rfl-check an LLM: --template --model llama-3.2-1b, and llm-correct.json 15 / 15" ck_llm
step "rfl-check kv_without_gqa (the cache for every query head)" ck_diag kv_without_gqa.json models.llama-3.2-1b.kv_cache_bytes kv_without_gqa
step "rfl-check weights_per_token (decode bytes x batch)" ck_diag weights_per_token.json models.llama-3.2-1b.decode_bytes weights_per_token
step "rfl-check mac_not_flop on an LLM's decode" ck_diag llm_mac_not_flop.json models.llama-3.2-1b.decode_flops mac_not_flop

ck_usage() {
  "$CK" --nope > /dev/null 2>&1; [ $? = 2 ] || return 1
  "$CK" > /dev/null 2>&1; [ $? = 2 ] || return 1
  "$CK" --template --model resnet18 > /dev/null 2>&1; [ $? = 2 ] || return 1
  "$CK" $CD/no-such.json > /dev/null 2>&1; [ $? = 1 ] || return 1
  "$CK" --help | grep -q 'conv and linear layers only'
}
step "rfl-check: usage errors exit 2, a missing file exit 1, --help states the conventions" ck_usage
