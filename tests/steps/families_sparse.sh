# rfl-estimate --hf-config on the published config.json of the expert and
# latent-attention families (tests/data/hf/, written from
# tests/data/llm/families-published.json) prints params equal to PyTorch's
# count of the same config (tests/data/llm/families-reference.json
# "published": transformers 5.17 on the meta device).
EST=build/rfl-estimate
FS=$B/families-sparse
mkdir -p "$FS"
if [ ! -x "$EST" ] || [ tools/rfl-estimate.c -nt "$EST" ] || [ roofline.h -nt "$EST" ]; then
  step "build rfl-estimate" ${MAKE:-make} -s "$EST"
fi
fs_params() { # NAME WANT
  got=$("$EST" --hf-config "tests/data/hf/$1.json" --json 2>> "$LOG" | sed -n 's/^  "params": \([0-9]*\),$/\1/p')
  if [ -n "$got" ] && [ "$got" = "$2" ]; then ok
  else bad "$1 --hf-config params: got '$got', want $2 (PyTorch)"; fi
}
fs_params qwen3-30b-a3b 30532122624
fs_params deepseek-v2-lite 15706484224
fs_params gpt-oss-20b 20914757184
# an MLA model's text output gives the absorbed form beside transformers'
if "$EST" --hf-config tests/data/hf/deepseek-v2-lite.json --phase decode --seq 4096 --hw h100 > "$FS/dsv2.txt" 2>> "$LOG" &&
   grep -q '^MLA absorbed ' "$FS/dsv2.txt" && grep -q '^  absorbed step ' "$FS/dsv2.txt"; then ok
else bad "deepseek-v2-lite: no absorbed MLA line"; fi
# deepseek-v2-lite's cache by hand: (4096 + 1) x (512 + 64) x 27 layers x 2 bytes
kv=$("$EST" --hf-config tests/data/hf/deepseek-v2-lite.json --phase decode --seq 4096 --json 2>> "$LOG" | sed -n 's/^  "kv_cache_bytes": \([0-9]*\),$/\1/p')
if [ "$kv" = "$((4097 * 576 * 27 * 2))" ]; then ok; else bad "deepseek-v2-lite kv_cache_bytes: got '$kv', want $((4097 * 576 * 27 * 2))"; fi
