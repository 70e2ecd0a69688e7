# rfl-estimate --gpus N [--link nvlink|pcie]: tensor parallelism on one
# node. The arithmetic is checked by hand in tests/test_tp.c; here the
# tool: the two commands of the forecast issue run, their text names the
# parts, the JSON's tp object carries the plan, exit codes for what cannot
# run. Sourced by tests/run.sh (step, ok, bad, $B, $LOG).
EST=build/rfl-estimate
TP=$B/tp-step
mkdir -p "$TP"
if [ ! -x "$EST" ] || [ tools/rfl-estimate.c -nt "$EST" ]; then
  step "build rfl-estimate" ${MAKE:-make} -s "$EST"
fi
tp_eq() { if [ -n "$2" ] && [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }
tp_exit() { want=$1; shift; "$@" > /dev/null 2> "$TP/err.txt"; rc=$?; tp_eq "exit of $*" "$rc" "$want"; }

# Llama-2-7B on 2 A100s: per-GPU params (hand: tests/test_tp.c), 65
# all-reduces of 8,192 bytes, one A100 holds it
t="$TP/7b.txt"
if "$EST" llama-2-7b --phase decode --batch 1 --seq 128 --hw a100-80gb --gpus 2 > "$t" 2>> "$LOG"; then
  ok
  grep -q '^params  *3,369,340,928 ' "$t" && ok || bad "7b on 2: per-GPU params"
  grep -q '= 65 per step, 8.192 kB each' "$t" && ok || bad "7b on 2: all-reduces"
  grep -q '^  all-reduce .*ring.*basis: the link.s all-reduce fit' "$t" && ok || bad "7b on 2: ring, the A100 link's fit"
  grep -q '^  smallest N     1 GPU$' "$t" && ok || bad "7b on 2: smallest N"
else bad "rfl-estimate llama-2-7b --gpus 2"; fi
# Llama-3-70B on 4 and 8 H100s: 141 GB of weights need 2 cards
for n in 4 8; do
  t="$TP/70b-$n.txt"
  if "$EST" llama-3-70b --phase decode --batch 1 --seq 128 --hw h100 --gpus $n > "$t" 2>> "$LOG"; then
    ok
    grep -q '= 161 per step, 16.38 kB each' "$t" && ok || bad "70b on $n: all-reduces"
    grep -q '^ *1 *141.1 GB *no  none$' "$t" && ok || bad "70b on $n: one card does not hold it"
    grep -q '^  smallest N     2 GPUs$' "$t" && ok || bad "70b on $n: smallest N"
  else bad "rfl-estimate llama-3-70b --gpus $n"; fi
done
grep -q 'extrapolated' "$TP/70b-8.txt" && ok || bad "70b on 8: the fit is extrapolated beyond 4 GPUs"
# --link pcie on an A100 SXM: the table's PCIe 4 row
"$EST" llama-2-7b --seq 128 --hw a100-80gb --gpus 2 --link pcie > "$TP/pcie.txt" 2>> "$LOG"
grep -q '^  link           pcie 4, 32 GB/s each way (--link' "$TP/pcie.txt" && ok || bad "--link pcie: PCIe 4 row"
# the JSON's tp object
j="$TP/7b.json"
"$EST" llama-2-7b --phase decode --batch 1 --seq 128 --hw a100-80gb --gpus 2 --json > "$j" 2>> "$LOG"
tp_eq "json tp.allreduces" "$(sed -n 's/^    "allreduces": \([0-9]*\),$/\1/p' "$j")" 65
tp_eq "json tp.allreduce_bytes" "$(sed -n 's/^    "allreduce_bytes": \([0-9]*\),$/\1/p' "$j")" 8192
tp_eq "json tp.memory.weights" "$(sed -n 's/^      "weights": \([0-9]*\),$/\1/p' "$j" | tail -1)" 6738681856
tp_eq "json tp.fit.smallest_gpus" "$(sed -n 's/^      "smallest_gpus": \([0-9]*\),$/\1/p' "$j")" 1
# what cannot run: exit 1 with the field or the node named; bad usage 2
tp_exit 1 "$EST" qwen2.5-7b --gpus 8
grep -q 'num_attention_heads: 28 heads do not split over 8 GPUs' "$TP/err.txt" && ok || bad "qwen2.5-7b on 8: message"
tp_exit 1 "$EST" llama-3-70b --hw rtx-4090 --gpus 8
grep -q 'one node' "$TP/err.txt" && ok || bad "8 GPUs on a 4-GPU node: message"
tp_exit 2 "$EST" resnet18 --gpus 2
tp_exit 2 "$EST" llama-2-7b --link pcie
tp_exit 2 "$EST" llama-2-7b --gpus 2 --link pcie
tp_exit 2 "$EST" llama-2-7b --gpus 2 --link infiniband --hw h100
tp_exit 2 "$EST" llama-2-7b --gpus 0
tp_exit 2 "$EST" llama-2-7b --gpus 2 --mode train
