# rfl-estimate on the published config.json of each dense family's
# built-in name (tests/data/hf/, URLs in its README.md): params equal to
# PyTorch's count of that config (tests/data/llm/families-reference.json,
# "published"), by file and by name; an unknown model_type is estimated
# with the warning assumed_llama_like, and refused with --strict. The
# families' counts are checked in depth by tests/test_families_dense.c.
EST=build/rfl-estimate
FD=$B/families-step
mkdir -p "$FD"
if [ ! -x "$EST" ] || [ tools/rfl-estimate.c -nt "$EST" ]; then
  step "build rfl-estimate" ${MAKE:-make} -s "$EST"
fi
fam_params() { sed -n 's/^  "params": \([0-9]*\),*$/\1/p' "$1" | head -1; }
# name and PyTorch's params (families-reference.json "published")
while read -r name want; do
  "$EST" --hf-config "tests/data/hf/$name.json" --phase prefill --seq 16 --json > "$FD/$name-h.json" 2>> "$LOG"
  "$EST" "$name" --phase prefill --seq 16 --json > "$FD/$name-n.json" 2>> "$LOG"
  got=$(fam_params "$FD/$name-h.json")
  if [ "$got" = "$want" ]; then ok; else bad "$name --hf-config params: got '$got', want $want"; fi
  got=$(fam_params "$FD/$name-n.json")
  if [ "$got" = "$want" ]; then ok; else bad "$name params: got '$got', want $want"; fi
done <<'LIST'
qwen3-0.6b 596049920
qwen3-1.7b 1720574976
qwen3-4b 4022468096
qwen3-8b 8190735360
gemma-2-2b 2614341888
gemma-3-1b 999885952
phi-3-mini 3821079552
olmo-2-7b 7298617344
pythia-1.4b 1414647808
llama-3.1-8b 8030261248
LIST

# an unknown model_type: a Llama-style estimate with a loud warning; exit 1
# with --strict
u="$FD/unknown.json"
printf '{"model_type": "mymodel", "vocab_size": 1000, "hidden_size": 256, "intermediate_size": 512,\n "num_hidden_layers": 2, "num_attention_heads": 4, "n_fancy_experts": 4}\n' > "$u"
if "$EST" --hf-config "$u" --json > "$FD/unknown-out.json" 2> "$FD/unknown-err.txt" &&
   grep -q 'warning: assumed_llama_like: model_type .mymodel. is unknown' "$FD/unknown-err.txt" &&
   grep -q 'ignored (they may change the counts): n_fancy_experts' "$FD/unknown-err.txt"; then ok
else bad "unknown model_type: no estimate or no warning"; fi
"$EST" --hf-config "$u" --strict > /dev/null 2> "$FD/strict-err.txt"; rc=$?
if [ $rc = 1 ] && grep -q 'unknown model_type' "$FD/strict-err.txt"; then ok; else bad "--strict: exit $rc, want 1"; fi
