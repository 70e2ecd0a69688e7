# rfl-hw: one machine (datasheet units), the table, --json, errors and exit
# codes. Expected figures are the datasheets' (A100 40GB SXM: 19.5 TFLOP/s
# FP32, 1555 GB/s, ridge 19.5e12 / 1555e9 = 12.54; V100 SXM2: 15.7, 900,
# 17.44), typed here, not taken from the tool.
HW=build/rfl-hw
HO=$B/hw-step
mkdir -p "$HO"
if [ ! -x "$HW" ]; then
  step "build rfl-hw" ${MAKE:-make} -s "$HW"
fi

# expect_rc WANT CMD...: exit status WANT, output kept in $HO/last.{out,err}
expect_rc() {
  want=$1; shift
  "$@" > "$HO/last.out" 2> "$HO/last.err"
  got=$?
  if [ "$got" = "$want" ]; then return 0; fi
  echo "exit $got, want $want: $*"
  cat "$HO/last.err"
  return 1
}

hw_one_a100() {
  "$HW" a100 > "$HO/a100.txt" || return 1
  grep -Eq '^  fp32 +19\.5 TFLOP/s +12\.54( |$)' "$HO/a100.txt" &&
  grep -q 'DRAM 1555 GB/s' "$HO/a100.txt" &&
  grep -q '40 GiB' "$HO/a100.txt" &&
  grep -q 'source: NVIDIA A100 datasheet' "$HO/a100.txt" &&
  ! grep -q 'TB/s' "$HO/a100.txt"
}
step "rfl-hw a100: 19.5 TFLOP/s FP32, 1555 GB/s, ridge 12.54, 40 GiB" hw_one_a100

hw_one_v100() {
  "$HW" V100 > "$HO/v100.txt" &&
  grep -Eq '^  fp32 +15\.7 TFLOP/s +17\.44( |$)' "$HO/v100.txt" &&
  grep -q 'DRAM 900 GB/s' "$HO/v100.txt"
}
step "rfl-hw V100: 15.7 TFLOP/s, 900 GB/s, ridge 17.44" hw_one_v100

# The link: H200 SXM NVLink 4, 900 GB/s both ways = 450 each way (datasheet),
# its all-reduce fitted; an A100's fitted on published timings; an L40S
# not fitted; MI250X unknown, said so; a CPU
# none. --json carries it and reads back.
hw_links() {
  "$HW" h200 > "$HO/h200.txt" &&
  grep -q '^  link:    NVLink 4, 18 links, 450 GB/s each way per GPU, 0.47 us a ring step, 8 GPUs a node$' "$HO/h200.txt" &&
  grep -q '^  all-reduce (ring, fitted on 2 to 4 GPUs): ' "$HO/h200.txt" &&
  grep -q '^  all-reduce source: fitted by dev/capture/fit_links.py' "$HO/h200.txt" &&
  "$HW" a100 | grep -q '^  all-reduce (ring, fitted on 2 to 8 GPUs): ' &&
  "$HW" l40s | grep -q '^  all-reduce (ring): not measured, the datasheet' &&
  "$HW" mi250x | grep -q '^  link:    unknown (not in this table yet' &&
  "$HW" epyc-7763 | grep -q '^  link:    none' &&
  "$HW" h200 --json > "$HO/h200.json" &&
  grep -q '"bw_per_direction": 450000000000,' "$HO/h200.json" &&
  grep -q '"busbw": ' "$HO/h200.json" &&
  "$HW" --hw-file "$HO/h200.json" --json | cmp -s - "$HO/h200.json"
}
step "rfl-hw: the link (h200 and a100 fitted, l40s datasheet, mi250x unknown, epyc none), --json and back" hw_links

hw_one_cpu() {
  "$HW" 2x-e5-2699v4 > "$HO/cpu.txt" &&
  grep -Eq '^  fp32 +3\.098 TFLOP/s' "$HO/cpu.txt" &&
  grep -q 'DRAM 153.6 GB/s' "$HO/cpu.txt"
}
step "rfl-hw 2x-e5-2699v4: 3.098 TFLOP/s, 153.6 GB/s" hw_one_cpu

hw_table() {
  "$HW" > "$HO/table.txt" || return 1
  n=$(sed -n 's/^\([0-9][0-9]*\) machines\..*/\1/p' "$HO/table.txt")
  rows=$(grep -c '^  [a-z0-9-][a-z0-9-]*  ' "$HO/table.txt")
  [ -n "$n" ] && [ "$n" -ge 40 ] && [ "$rows" = "$n" ] &&
  grep -Eq '^  a100-sxm4-40gb +9\.7 +19\.5 +312 fp16 +1555 +40 +12\.54$' "$HO/table.txt" &&
  grep -Eq '^  h100-sxm +34 +67 +1978\.9 fp8 +3350 +80 +20$' "$HO/table.txt" &&
  grep -q '^GPUs$' "$HO/table.txt" && grep -q '^CPUs$' "$HO/table.txt"
}
step "rfl-hw table: >= 40 rows, grouped by kind, datasheet columns" hw_table

hw_json_all() {
  "$HW" --json > "$HO/all.json" || return 1
  if ! command -v python3 > /dev/null; then # a weaker check without python
    n=$(sed -n 's/^  "count": \([0-9]*\),$/\1/p' "$HO/all.json")
    [ -n "$n" ] && [ "$n" -ge 40 ] &&
    [ "$(grep -c '^      "source": ".\{20,\}"$' "$HO/all.json")" = "$n" ]
    return
  fi
  python3 - "$HO/all.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ms = d["machines"]
assert d["count"] == len(ms) >= 40, len(ms)
precs = ["fp64", "fp64_tensor", "fp32", "tf32_tensor", "fp16", "fp16_tensor",
         "bf16_tensor", "fp8_tensor", "int8_tensor"]
ids = set()
for m in ms:
    for k in ("name", "aliases", "kind", "peak_flops", "mem_bw", "mem_bytes", "ridge", "source"):
        assert k in m, (m.get("id"), k)
    assert m["id"] not in ids
    ids.add(m["id"])
    assert isinstance(m["source"], str) and len(m["source"]) >= 20, m["id"]
    assert list(m["peak_flops"]) == precs, m["id"]
    assert list(m["mem_bw"]) == ["dram", "l2", "l1"], m["id"]
    assert m["mem_bw"]["dram"] > 0, m["id"]
    assert m["kind"] in ("gpu", "cpu", "tpu", "accelerator", "soc"), m["id"]
    for p, v in m["peak_flops"].items():
        assert v is None or v > 0, (m["id"], p)   # absent is null, never 0
    if m["peak_flops"]["fp32"]:
        r = m["ridge"]["fp32_dram"]
        assert abs(r - m["peak_flops"]["fp32"] / m["mem_bw"]["dram"]) < 1e-9 * r
a = [m for m in ms if m["id"] == "a100-sxm4-40gb"][0]
assert a["peak_flops"]["fp32"] == 19.5e12 and a["mem_bw"]["dram"] == 1555e9
assert abs(a["ridge"]["fp32_dram"] - 12.540) < 1e-3
assert a["peak_flops"]["fp8_tensor"] is None and "a100" in a["aliases"]
h = [m for m in ms if m["id"] == "h100-sxm"][0]
assert abs(h["peak_flops"]["fp16_tensor"] - 989.4e12) < 1e10   # dense, not 1979
t = [m for m in ms if m["id"] == "tpu-v4"][0]
assert t["peak_flops"]["bf16_tensor"] == 275e12 and t["mem_bw"]["dram"] == 1200e9
EOF
}
step "rfl-hw --json: >= 40 machines, each with source and the issue's fields" hw_json_all

hw_json_one() {
  "$HW" --json t4 > "$HO/t4.json" || return 1
  command -v python3 > /dev/null || { grep -q '"fp32": 8100000000000,' "$HO/t4.json"; return; }
  python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["id"] == "t4" and m["peak_flops"]["fp32"] == 8.1e12
assert m["peak_flops"]["fp16_tensor"] == 65e12 and m["mem_bw"]["dram"] == 320e9
assert m["mem_bw"]["l2"] is None
' "$HO/t4.json"
}
step "rfl-hw t4 --json: one machine object" hw_json_one

hw_unknown() {
  expect_rc 1 "$HW" mi300 || return 1
  grep -q "unknown machine 'mi300'; closest: mi300x" "$HO/last.err" &&
  [ ! -s "$HO/last.out" ]
}
step "rfl-hw mi300: exit 1, suggests mi300x" hw_unknown
hw_nosuch() { expect_rc 1 "$HW" nosuch && grep -q "unknown machine 'nosuch'; closest: [a-z]" "$HO/last.err"; }
step "rfl-hw nosuch: exit 1 with suggestions" hw_nosuch
step "rfl-hw --bogus: exit 2" expect_rc 2 "$HW" --bogus
step "rfl-hw two names: exit 2" expect_rc 2 "$HW" a100 v100
step "rfl-hw --help: exit 0" expect_rc 0 "$HW" --help

# The names vendor tools print (sources in hw_specs.h) pick one row; a board
# the table lacks is unknown and its family comes first among suggestions
# (once "NVIDIA H200" suggested a10, a30, l40s, t4).
hw_device_names() {
  expect_rc 0 "$HW" "NVIDIA H200" && grep -q '(h200-sxm, gpu)' "$HO/last.out" &&
  expect_rc 0 "$HW" "Tesla V100-SXM2-16GB" && grep -q '(v100-sxm2, gpu)' "$HO/last.out" &&
  expect_rc 0 "$HW" "NVIDIA A100 80GB PCIe" && grep -q '(a100-pcie-80gb, gpu)' "$HO/last.out" &&
  expect_rc 1 "$HW" "NVIDIA H200 NVL" && grep -q "closest: h200-sxm," "$HO/last.err"
}
step "rfl-hw 'NVIDIA H200', 'Tesla V100-SXM2-16GB': their rows; 'NVIDIA H200 NVL': unknown, h200-sxm first" hw_device_names
