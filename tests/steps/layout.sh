# No option changes the layout of a public struct (issue 34): every public
# struct of the API part (found in roofline.h with the #if guards it sits
# under, so a new one is covered) has the same size with each option on
# as without any, wherever the option keeps it.
LY=$B/layout
mkdir -p "$LY"
if command -v python3 > /dev/null; then
python3 - roofline.h > "$LY/layout.c" <<'PYEOF'
import re, sys
stack, out = [], []
for l in open(sys.argv[1]).read().split('\n')[:6000]:
    m = re.match(r'#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)', l)
    if m:
        k, rest = m.group(1), m.group(2).split('/*')[0].strip()
        if k in ('if', 'ifdef', 'ifndef'):
            stack.append({'ifdef': 'defined(%s)', 'ifndef': '!defined(%s)'}.get(k, '%s') % rest)
        elif k in ('else', 'elif'): stack[-1] = '!(%s)' % stack[-1] if k == 'else' else rest
        else: stack.pop()
        continue
    m = re.match(r'typedef struct (rfl_[a-z0-9_]+)', l)
    if m and not m.group(1).startswith('rfl__'):
        g = [s for s in stack if 'ROOFLINE_H' not in s and 'cplusplus' not in s]
        out.append('#if %s\n    S(%s)\n#endif' % (' && '.join(g), m.group(1)) if g else '    S(%s)' % m.group(1))
print('#include "roofline.h"\n#include <stdio.h>\n#define S(t) printf("%s %lu\\n", #t, (unsigned long)sizeof(t));')
print('int main(void) {\n%s\n    return 0;\n}' % '\n'.join(out))
PYEOF
  if gcc -std=c99 $W -I. "$LY/layout.c" -o "$LY/default" >> "$LOG" 2>&1 && "$LY/default" > "$LY/default.txt" &&
     [ "$(wc -l < "$LY/default.txt")" -gt 60 ]; then ok; else bad "layout: the default build"; fi
  for o in RFL_NO_STDIO RFL_NO_HW_TABLE RFL_NO_ZOO RFL_NO_REDUCE RFL_NO_TRACE RFL_NO_JOIN RFL_NO_CHART \
           RFL_NO_PNG RFL_NO_ASCII RFL_NO_LLM RFL_NO_FORECAST RFL_NO_ONNX RFL_NO_MACHINE_FILE \
           RFL_NO_JSON_WRITER RFL_NO_PROBE RFL_NO_CHECK RFL_NO_COLLECTIVES RFL_NO_ERROR_STRINGS \
           RFL_NO_SIMD RFL_HW_NO_STRINGS RFL_HW_NO_DEVICE_NAMES RFL_HW_NO_LINKS; do
    if gcc -std=c99 $W -D$o -I. "$LY/layout.c" -o "$LY/$o" >> "$LOG" 2>&1 && "$LY/$o" > "$LY/$o.txt"; then
      d=$(grep -vxFf "$LY/default.txt" "$LY/$o.txt")
      if [ -z "$d" ]; then ok; else bad "layout: $o changes $(echo $d)"; fi
    else bad "layout: $o does not build"; fi
  done
fi
