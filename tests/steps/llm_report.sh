# rfl-report for decoder LLMs (issue 17, items 5 and 6): the report on the
# shared captures (tests/data/llm, trimmed copies) names both warnings on
# the decodes and neither on the prefills; figures from
# ../shared/fixtures/README.md (693 kernels, 23.9 G executed, 3.5 ms, 0.74 ms
# at 3.35 TB/s) and useful FLOPs from llm-reference.json (GPT-2 decode at
# S=128: 251,819,520); usage and input errors; the charts.
LR=build/rfl-report
LO=$B/llm-report-step
LD=tests/data/llm
mkdir -p "$LO"
[ -x "$LR" ] || step "build rfl-report" ${MAKE:-make} -s "$LR"

# lr_rc WANT CMD...: exit status WANT; output in $LO/out, $LO/err
lr_rc() {
  want=$1; shift
  "$@" > "$LO/out" 2> "$LO/err"
  got=$?
  [ "$got" = "$want" ] || { echo "exit $got, want $want: $*"; tail -3 "$LO/err"; return 1; }
}
# lr_has PATTERN...: every fixed string is in $LO/out
lr_has() {
  for p in "$@"; do grep -qF -- "$p" "$LO/out" || { echo "missing: $p"; return 1; }; done
}

lr_llama_decode() {
  lr_rc 0 "$LR" --llm llama-3.2-1b --phase decode --seq 512 --batch 1 \
    --ncu $LD/llama-3.2-1b-decode-b1-s512-bf16.csv --hw h100 &&
  lr_has 'warning: padded_mma:' 'warning: launch_bound:' '23.9 GFLOP' '693 kernels' '3.51 ms' '744' \
    'NVIDIA H100 80GB HBM3' 'lm_head' 'CUDA graphs'
}
step "rfl-report --llm llama-3.2-1b decode capture: padded_mma and launch_bound" lr_llama_decode

lr_gpt2_decode_json() {
  lr_rc 0 "$LR" --llm gpt2 --phase decode --seq 128 --ncu $LD/gpt2-decode-b1-s128-fp32.csv --json &&
  lr_has '"code": "padded_mma"' '"code": "launch_bound"' '"useful_flops": 251819520,' \
    '"executed_tensor_flops": 1245708288,' '"kernels": 235,' '"hw": "h100-sxm",'
}
step "rfl-report --llm gpt2 decode --json: both codes, useful = llm-reference" lr_gpt2_decode_json

# The profile's own machine is the one it is joined on, whatever the order
# of --hw: the llama capture ran on "NVIDIA H100 80GB HBM3" (h100-sxm), so
# with --hw a100,h100 its report names the H100 SXM5 and its 3.35 TB/s;
# with --hw a100 alone the H100 joins the list, said as device_mismatch.
lr_own_machine() {
  lr_rc 0 "$LR" --llm llama-3.2-1b --phase decode --seq 512 --batch 1 \
    --ncu $LD/llama-3.2-1b-decode-b1-s512-bf16.csv --hw a100,h100 --json &&
  lr_has '"hw": "h100-sxm",' && ! grep -q '"code": "device_mismatch"' "$LO/out" &&
  lr_rc 0 "$LR" --llm llama-3.2-1b --phase decode --seq 512 --batch 1 \
    --ncu $LD/llama-3.2-1b-decode-b1-s512-bf16.csv --hw a100 --json &&
  lr_has '"hw": "h100-sxm",' '"code": "device_mismatch"' \
    "(h100-sxm), which is not among --hw: its machine was added"
}
step "rfl-report --llm: the profile on its own machine, whatever --hw's order" lr_own_machine

lr_prefills() {
  lr_rc 0 "$LR" --llm llama-3.2-1b --phase prefill --seq 512 --logits all \
    --ncu $LD/llama-3.2-1b-prefill-b1-s512-bf16.csv --json &&
  lr_has '"warnings": []' '"kernels": 661,' &&
  lr_rc 0 "$LR" --llm gpt2 --phase prefill --seq 128 --logits all \
    --ncu $LD/gpt2-prefill-b1-s128-fp32.csv --json &&
  lr_has '"warnings": []' '"useful_flops": 32228179968,'
}
step "rfl-report --llm on the prefill captures: no warning" lr_prefills

# --hf-config: the same step through a config.json (the reference's own
# Llama-3.2-1B config, written here with its published values)
lr_hf() {
  cat > "$LO/config.json" <<'JSON'
{"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192,
 "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8,
 "head_dim": 64, "vocab_size": 128256, "max_position_embeddings": 131072,
 "hidden_act": "silu", "rms_norm_eps": 1e-05, "tie_word_embeddings": true,
 "torch_dtype": "bfloat16", "attention_bias": false, "mlp_bias": false}
JSON
  lr_rc 0 "$LR" --hf-config "$LO/config.json" --phase decode --seq 512 \
    --ncu $LD/llama-3.2-1b-decode-b1-s512-bf16.csv &&
  lr_has 'warning: padded_mma:' 'warning: launch_bound:' '23.9 GFLOP'
}
step "rfl-report --hf-config config.json --ncu: same warnings" lr_hf

lr_charts() {
  rm -rf "$LO/charts"
  lr_rc 0 "$LR" --llm llama-3.2-1b --phase decode --seq 512 \
    --ncu $LD/llama-3.2-1b-decode-b1-s512-bf16.csv -o "$LO/charts" || return 1
  [ -s "$LO/charts/report.json" ] || return 1
  # ai an object per level, as every ai of the schema: DRAM the estimate's
  # FLOPs over its bytes; the formulas count no L2 or L1 bytes
  python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["models"][0]["estimate"]; a=e["ai"]
sys.exit(not (set(a) == {"dram", "l2", "l1"} and a["l2"] is None and a["l1"] is None and
              abs(a["dram"] - e["flops"] / e["bytes"]) < 1e-12 * a["dram"]))' "$LO/charts/report.json" ||
    { echo "estimate.ai is not {dram: flops / bytes, l2: null, l1: null}"; return 1; }
  grep -qF roofline-h100-sxm.png "$LO/out" || return 0 # the charts: only with PNG support
  for f in roofline-h100-sxm.png layers-llama-3.2-1b.png types-llama-3.2-1b.png llm-roofline.png \
           llm-batch.png; do
    grep -qF "$f" "$LO/out" || { echo "not written: $f"; return 1; }
    [ "$(head -c 4 "$LO/charts/$f" | od -An -c | tr -d ' \n')" = '211PNG' ] &&
    [ "$(wc -c < "$LO/charts/$f")" -gt 10000 ] || { echo "not a chart: $f"; return 1; }
  done
  # both LLM charts decode (python3 zlib, independent of stb): chunk CRCs,
  # 1600 x 790 RGB, the stream inflating to its rows (a filter byte each)
  python3 - "$LO/charts/llm-roofline.png" "$LO/charts/llm-batch.png" <<'PY' || return 1
import sys, zlib, struct
for path in sys.argv[1:]:
    d, pos, idat, ihdr = open(path, 'rb').read(), 8, b'', None
    assert d[:8] == b'\x89PNG\r\n\x1a\n', path
    while pos < len(d):
        n, = struct.unpack('>I', d[pos:pos + 4]); t = d[pos + 4:pos + 8]; body = d[pos + 8:pos + 8 + n]
        assert zlib.crc32(t + body) & 0xffffffff == struct.unpack('>I', d[pos + 8 + n:pos + 12 + n])[0], path
        if t == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
        if t == b'IDAT': idat += body
        pos += 12 + n
    assert ihdr[:4] == (1600, 790, 8, 2), (path, ihdr)
    assert len(zlib.decompress(idat)) == 790 * (1 + 1600 * 3), path
PY
  # a prefill has no batch chart (the batch axis is a decode's); its roofline stays
  lr_rc 0 "$LR" --llm gpt2 --phase prefill --seq 128 -o "$LO/charts-prefill" &&
  lr_has llm-roofline.png && ! grep -qF llm-batch.png "$LO/out"
}
step "rfl-report --llm -o DIR: report.json (ai per level), the step's PNG charts and both LLM charts" lr_charts

lr_errors() {
  lr_rc 2 "$LR" --llm llama-3.2-1b --seq -1 &&
  lr_rc 2 "$LR" --llm llama-3.2-1b --phase sideways &&
  lr_rc 2 "$LR" --llm llama-3.2-1b --batch 0 &&
  lr_rc 1 "$LR" --llm no-such-model &&
  lr_rc 1 "$LR" --llm gpt2 --ncu "$LO/missing.csv" && grep -q 'missing.csv' "$LO/err" &&
  printf '"ID","Kernel Name"\n"0","x' > "$LO/bad.csv" &&
  lr_rc 1 "$LR" --llm gpt2 --ncu "$LO/bad.csv" && grep -q 'bad.csv:' "$LO/err" &&
  lr_rc 0 "$LR" --llm gpt2 --help && grep -q 'padded_mma' "$LO/out"
}
step "rfl-report --llm: usage errors exit 2, bad input exits 1 naming the file" lr_errors
