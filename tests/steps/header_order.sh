# The header in one order: its declarations come in API sections named
# after the implementation's [N] sections, in the same order, with no
# declaration before the first; the manual presents every part that has
# prose of its own (as LAYERS, REDUCER, CHART, PNG) and quotes no issue
# numbers. dev/header-order.py puts a header in this order. Sourced by
# tests/run.sh (step).

# ho_api_order [FILE]: every "API  TITLE" banner names one [N] section, or
# consecutive ones ("CHART AND PNG"), and the numbers only go up
ho_api_order() {
  expand -t 4 "${1:-roofline.h}" | awk '
  /^   \[[0-9]+\] +[A-Z]/ {
      n = $1; gsub(/[][]/, "", n); t = $0; sub(/^   \[[0-9]+\] +/, "", t)
      sub(/ +$/, "", t); num[t] = n + 0; next
  }
  prev ~ /^\/\* =+/ && /^   API  / {
      t = $0; sub(/^   API  /, "", t); sub(/ *\(.*\)$/, "", t); sub(/ +$/, "", t)
      api[++k] = t; line[k] = NR
  }
  { prev = $0 }
  END {
      if (k == 0) { print "no API banners"; exit 1 }
      last = 0
      for (i = 1; i <= k; i++) {
          m = split(api[i], w, / AND (THE )?/)
          for (j = 1; j <= m; j++) {
              if (!(w[j] in num)) { printf "line %d: API  %s: no [N] section named %s\n", line[i], api[i], w[j]; bad = 1; continue }
              if (j > 1 && num[w[j]] != num[w[j-1]] + 1) { printf "line %d: API  %s: parts not consecutive\n", line[i], api[i]; bad = 1 }
              if (j == 1 && num[w[j]] <= last) { printf "line %d: API  %s ([%d]) after [%d]\n", line[i], api[i], num[w[j]], last; bad = 1 }
          }
          if (w[m] in num) last = num[w[m]]
      }
      exit bad
  }'
}
step "header order: API sections in the order of the [N] sections" ho_api_order

# ho_core_bannered: no public declaration before the first API banner
ho_core_bannered() {
  awk '/^extern "C" \{/ { on = 1 } /^   API  / { exit bad }
       on && /^RFL_API / { print "line " NR ": declared before any API banner: " $0; bad = 1 }
       END { exit bad }' "${1:-roofline.h}"
}
step "header order: every declaration under an API banner" ho_core_bannered

# ho_manual: the manual (the first comment) has a section "NAME ([N]..."
# for each part with prose of its own, and no issue number
ho_manual() {
  expand -t 4 "${1:-roofline.h}" | awk 'NR == 1, /\*\/$/' > "$B/manual.txt"
  for p in "MACHINE FILES" LAYERS TRANSFORMERS ONNX REDUCER JOIN CHART PNG PROBE CHECK; do
    grep -q "^   $p (\[[0-9]" "$B/manual.txt" || { echo "manual: no $p section"; return 1; }
  done
  ! grep -n -i 'issue [0-9]' "$B/manual.txt"
}
step "header order: the manual presents every part, no issue numbers" ho_manual

# ho_examples: the manual's EXAMPLES names every program in examples/
ho_examples() {
  expand -t 4 roofline.h | awk 'NR == 1, /\*\/$/' | sed -n '/^   EXAMPLES/,/^   [A-Z]/p' > "$B/examples.txt"
  for f in examples/*.c; do
    grep -q "^       $(basename "$f") " "$B/examples.txt" || { echo "manual: EXAMPLES lacks $f"; return 1; }
  done
}
step "header order: the manual's EXAMPLES lists every example" ho_examples

# the script: idempotent on the header (nothing left to move)
step "header order: dev/header-order.py --check finds nothing to do" \
  python3 dev/header-order.py roofline.h --check
