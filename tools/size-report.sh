#!/bin/sh
# size-report.sh [--check]: what roofline.h costs on a Cortex-M4.
#
# Compiles the library with arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os
# -ffreestanding -DRFL_NO_STDIO and prints, in bytes of code + read-only
# data (what goes to flash):
#   - each part: while the parts live in src/, each *_impl.h is compiled in
#     a unit of its own beside core_impl.h and the core's size subtracted;
#     the hw table and the zoo by their compile-out macros;
#   - the two configurations with ceilings: the core (RFL_NO_CHART
#     RFL_NO_ZOO RFL_NO_LLM: no charts, no models) <= 72 KiB and the whole
#     header <= 140 KiB (the LLM part is 11.5 KB), beside issue
#     7's targets of 24 and 64 KiB, which are not met (see below);
#   - the largest stack frames (-fstack-usage) of both configurations,
#     budget 1 KiB for every function; a dynamic frame (VLA, alloca) fails;
#   - the bare-metal image of examples/embedded.c.
# With --check it leaves out the per-part table and exits 1 when a ceiling
# or the frame budget is exceeded (tests/steps/portability.sh).
set -u
cd "$(dirname "$0")/.."
CHECK=0
[ "${1:-}" = --check ] && CHECK=1
ACC=${ARM_CC:-arm-none-eabi-gcc}
ASIZE=${ARM_SIZE:-arm-none-eabi-size}
O=build/size
mkdir -p "$O"
FL="-mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99 -Wall -Wextra -Werror -ffunction-sections -fdata-sections -fstack-usage -I."
# Issue 7's flash targets (24 KiB core, 64 KiB whole) are printed but not
# met: with the reducer (~30 KB), the hardware table with its sources
# (~17.5 KB) and the layer formulas (~11.5 KB) the core alone is ~65 KB.
# They cannot be met with that content: the table's strings alone (ids,
# names, aliases, sources of 47 machines) are 9.2 KB and its 17 figures
# per machine at least 3.2 KB as floats; the reducer's metric names,
# messages and tables are 7.7 KB; that leaves 4.4 KB of the core's
# 24 KiB for the code of the math, the layer formulas and the reducer,
# today 40 KB. --check enforces the stack budget, which holds, and
# ceilings a little above today's sizes so that growth is seen.
CORE_TARGET=24576
WHOLE_TARGET=65536
CORE_BUDGET=73728
WHOLE_BUDGET=143360
FRAME_BUDGET=1024
FAILED=0

if ! command -v "$ACC" > /dev/null 2>&1; then
  echo "size-report: $ACC not found (make deps installs gcc-arm-none-eabi)" >&2
  exit 1
fi

# unit NAME "DEFINES" LINES...: compile a unit made of #defines and lines;
# prints its flash bytes (text + data of the object) or fails.
unit() {
  n=$1 defs=$2
  shift 2
  : > "$O/$n.c"
  for d in $defs; do printf '#define %s\n' "$d" >> "$O/$n.c"; done
  for l in "$@"; do printf '%s\n' "$l" >> "$O/$n.c"; done
  if ! $ACC $FL -DRFL_NO_STDIO -c "$O/$n.c" -o "$O/$n.o" 2> "$O/$n.err"; then
    echo "size-report: $n does not compile:" >&2
    head -20 "$O/$n.err" >&2
    echo "?"
    return 1
  fi
  $ASIZE "$O/$n.o" | awk 'NR == 2 { print $1 + $2 }'
}
IMPL='#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"'
whole=$(unit whole "" "$IMPL") || FAILED=1
core=$(unit core "RFL_NO_CHART RFL_NO_ZOO RFL_NO_LLM" "$IMPL") || FAILED=1
if [ "$CHECK" = 0 ]; then
  nohw=$(unit nohw "RFL_NO_CHART RFL_NO_ZOO RFL_NO_LLM RFL_NO_HW_TABLE" "$IMPL") || FAILED=1
  nochart=$(unit nochart "RFL_NO_CHART" "$IMPL") || FAILED=1
fi

sub() { if [ "$1" = "?" ] || [ "$2" = "?" ]; then echo "?"; else echo $(($1 - $2)); fi; }
row() { printf '  %-48s %8s\n' "$1" "$2"; }

echo "roofline.h on Cortex-M4 ($($ACC -dumpversion), -mthumb -Os, RFL_NO_STDIO): flash bytes (code + read-only data)"
if [ "$CHECK" = 1 ]; then
  : # the test needs only the budgets: no per-part units
elif [ -f src/core_impl.h ]; then
  H='#include "roofline.h"'
  c0=$(unit p_core "RFL_NO_HW_TABLE" "$H" '#include "src/core_impl.h"') || FAILED=1
  ly=$(unit p_layers "RFL_NO_HW_TABLE RFL_NO_ZOO" "$H" '#include "src/core_impl.h"' '#include "src/layers_impl.h"') || FAILED=1
  rd=$(unit p_reduce "RFL_NO_HW_TABLE" "$H" '#include "src/core_impl.h"' '#include "src/reduce_impl.h"') || FAILED=1
  ch=$(unit p_chart "RFL_NO_HW_TABLE" "$H" '#include "src/core_impl.h"' '#include "src/chart_impl.h"') || FAILED=1
  row "core (numbers, roofline math, lookups)" "$c0"
  row "hw table (hw_specs.h, $(grep -c '^X(' hw_specs.h) machines, with strings)" "$(sub "$core" "$nohw")"
  row "layers (builder, costs, predictions)" "$(sub "$ly" "$c0")"
  row "reducer (CSV push parser, warnings)" "$(sub "$rd" "$c0")"
  row "zoo and LLMs (built-in models)" "$(sub "$nochart" "$core")"
  row "chart (canvas, font, charts; no PNG here)" "$(sub "$ch" "$c0")"
else
  row "hw table" "$(sub "$core" "$nohw")"
  row "zoo and LLMs" "$(sub "$nochart" "$core")"
  row "chart" "$(sub "$whole" "$nochart")"
fi
# verdict VALUE BUDGET: prints ok / OVER; called in $(...), so the caller
# checks over VALUE BUDGET itself to set FAILED.
verdict() {
  if [ "$1" = "?" ]; then echo "FAILED"
  elif [ "$1" -le "$2" ]; then echo "ok"
  else echo "OVER by $(($1 - $2))"; fi
}
over() { [ "$1" = "?" ] || [ "$1" -gt "$2" ]; }
over "$core" $CORE_BUDGET && FAILED=1
over "$whole" $WHOLE_BUDGET && FAILED=1
tgt() { if [ "$1" != "?" ] && [ "$1" -le "$2" ]; then echo "met"; else echo "NOT MET"; fi; }
printf '  %-48s %8s  ceiling %6s  %s (issue 7 target %s: %s)\n' "core config (RFL_NO_CHART RFL_NO_ZOO RFL_NO_LLM)" "$core" $CORE_BUDGET "$(verdict "$core" $CORE_BUDGET)" $CORE_TARGET "$(tgt "$core" $CORE_TARGET)"
printf '  %-48s %8s  ceiling %6s  %s (issue 7 target %s: %s)\n' "whole header" "$whole" $WHOLE_BUDGET "$(verdict "$whole" $WHOLE_BUDGET)" $WHOLE_TARGET "$(tgt "$whole" $WHOLE_TARGET)"

# Stack frames of every function, both configurations (.su: file:line:col:function<TAB>bytes<TAB>kind)
cat "$O/whole.su" "$O/core.su" 2> /dev/null | sed 's|^.*/\(src/\)|\1|; s|^\./||' | sort -u > "$O/frames.txt"
big=$(sort -t "$(printf '\t')" -k2 -n "$O/frames.txt" | tail -n 1)
if [ -n "$big" ]; then
  over "$(echo "$big" | cut -f2)" $FRAME_BUDGET && FAILED=1
  printf '  largest stack frame: %s bytes in %s  budget %s  %s\n' "$(echo "$big" | cut -f2)" "$(echo "$big" | cut -f1)" $FRAME_BUDGET "$(verdict "$(echo "$big" | cut -f2)" $FRAME_BUDGET)"
else
  echo "  no stack usage data"; FAILED=1
fi
over=$(awk -F '\t' -v b=$FRAME_BUDGET '$2 > b || $3 ~ /dynamic/' "$O/frames.txt")
if [ -n "$over" ]; then
  echo "  frames over $FRAME_BUDGET bytes or dynamic (function, bytes, kind):"
  echo "$over" | sort -t "$(printf '\t')" -k2 -rn | sed 's/^/    /'
fi
echo "  largest symbols of the whole header (bytes):"
arm-none-eabi-nm -S --size-sort -t d "$O/whole.o" | tail -n 6 | awk '{ printf "    %-40s %8d\n", $4, $2 }'

# The image of examples/embedded.c: start-up and linker script in tests/arm/
if [ -f examples/embedded.c ]; then
  if $ACC $FL -Wl,--gc-sections -nostdlib -fno-tree-loop-distribute-patterns -T tests/arm/link.ld \
      tests/arm/startup.c examples/embedded.c -lgcc -o "$O/embedded.elf" 2> "$O/embedded.err"; then
    $ASIZE "$O/embedded.elf" | awk 'NR == 2 { printf "  examples/embedded.c image: %d flash (text %d + data %d), %d RAM (data + bss)\n", $1 + $2, $1, $2, $2 + $3 }'
  else
    echo "  examples/embedded.c does not link:"; head -20 "$O/embedded.err" | sed 's/^/    /'; FAILED=1
  fi
fi
[ "$CHECK" = 1 ] && [ "$FAILED" != 0 ] && exit 1
exit 0
