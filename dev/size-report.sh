#!/bin/sh
# size-report.sh [--check]: what roofline.h costs on a Cortex-M4, and the
# three budgets of issue 16 (make size; tests/steps/portability.sh runs
# --check).
#
# Every configuration is the header compiled alone (ROOFLINE_IMPLEMENTATION)
# with arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding; its size
# is the object's code + read-only data + initialised data (what goes to
# flash). The core is what a quick estimation tool on a small device needs:
# numbers, roofline math, layer formulas and predictions with the caller's
# own machine; CORE below is the macro set that builds it. A part's size is
# that of the core with the part's macros changed, minus the core (a part
# measured over another part says so in its OVER column).
#
# Budgets (exit 1 when one is broken):
#   core  <= 24 KiB
#   whole <= 128 KiB: the core with every part marked "yes" in PARTS
#   every stack frame <= 1 KiB, none dynamic (-fstack-usage of every
#   configuration compiled)
# "everything" (no RFL_NO_* at all) is printed beside them with its budget
# of 192 KiB (issue 34), not enforced while it is over (its gap is shown).
# --check compiles only the core and the whole header (the budgets).
set -u
cd "$(dirname "$0")/.."
CHECK=0
[ "${1:-}" = --check ] && CHECK=1
ACC=${ARM_CC:-arm-none-eabi-gcc}
ASIZE=${ARM_SIZE:-arm-none-eabi-size}
O=build/size
mkdir -p "$O"
rm -f "$O"/*.su "$O"/*.o
FL="-mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion -ffunction-sections -fdata-sections -fstack-usage -I. -I$O/inc"
CORE_BUDGET=24576
WHOLE_BUDGET=131072
EVERY_BUDGET=196608
FRAME_BUDGET=1024

# The core configuration. The optional parts of later issues (LLM, ONNX,
# machine files, probe, the checker, the JSON writer) are off in it from
# the start.
CORE="RFL_NO_STDIO RFL_NO_HW_TABLE RFL_NO_ZOO RFL_NO_REDUCE RFL_NO_CHART RFL_NO_PNG
      RFL_NO_LLM RFL_NO_ONNX RFL_NO_MACHINE_FILE RFL_NO_PROBE RFL_NO_CHECK RFL_NO_JSON_WRITER
      RFL_HW_NO_DEVICE_NAMES RFL_HW_NO_LINKS RFL_NO_COLLECTIVES RFL_NO_FORECAST RFL_NO_TRACE RFL_NO_ASCII RFL_NO_JOIN"

# PARTS, one line each:
#   NAME | BUILD: -M drops macro M from CORE, +M adds it | WHOLE: yes when
#   it counts in the whole header | OVER: the part it is measured over
#   ("-": the core) | what it is
# To add a part, add a line (WHOLE "yes" also makes "whole" build it).
# RFL_NO_STDIO is not a part of its own: the core has no FILE helper, and
# those of the other parts (a few hundred bytes) show in "everything".
PARTS="
table     | -RFL_NO_HW_TABLE                                           | yes | -     | hardware table, $(grep -c '^X(' hw_specs.h) machines with sources and aliases
devnames  | -RFL_NO_HW_TABLE -RFL_HW_NO_DEVICE_NAMES                    | -   | table | the vendors' device names rfl_hw_find resolves (RFL_HW_NO_DEVICE_NAMES)
links     | -RFL_NO_HW_TABLE -RFL_HW_NO_LINKS                          | -   | table | the table's GPU-to-GPU links with their sources and all-reduce fits (RFL_HW_NO_LINKS)
collect   | -RFL_NO_COLLECTIVES                                        | -   | -     | the all-reduce time model, rfl_allreduce_time (RFL_NO_COLLECTIVES)
table-ns  | -RFL_NO_HW_TABLE +RFL_HW_NO_STRINGS                        | -   | -     | the table, RFL_HW_NO_STRINGS (no sources, no aliases)
table-1   | -RFL_NO_HW_TABLE +RFL_HW_ONLY +RFL_HW_KEEP_H100_SXM          | -   | -     | one machine: RFL_HW_ONLY RFL_HW_KEEP_H100_SXM
table-1ns | -RFL_NO_HW_TABLE +RFL_HW_ONLY +RFL_HW_KEEP_H100_SXM +RFL_HW_NO_STRINGS | - | - | one machine, RFL_HW_NO_STRINGS
zoo       | -RFL_NO_ZOO                                                | yes | -     | built-in torchvision models (RFL_NO_ZOO)
reducer   | -RFL_NO_REDUCE                                             | yes | -     | ncu / nvprof CSV reducer (RFL_NO_REDUCE)
trace     | -RFL_NO_REDUCE -RFL_NO_TRACE                               | -   | reducer | PyTorch profiler traces, gzip inflation and the per-rank summary, in the reducer (RFL_NO_TRACE)
chart     | -RFL_NO_CHART                                              | yes | -     | canvas, font, charts, no PNG (RFL_NO_CHART)
ascii     | -RFL_NO_CHART -RFL_NO_ASCII                                | -   | chart | the roofline as text, rfl_chart_roofline_ascii (RFL_NO_ASCII)
png       | -RFL_NO_CHART -RFL_NO_PNG                                  | yes | chart | PNG through stb_image_write (RFL_NO_PNG)
llm       | -RFL_NO_LLM                                                | -   | -     | decoder LLMs: configs, steps, HF config reader (RFL_NO_LLM)
forecast  | -RFL_NO_LLM -RFL_NO_FORECAST                               | -   | llm   | the forecast: rfl_llm_forecast, the terms per machine family (RFL_NO_FORECAST)
join      | -RFL_NO_REDUCE -RFL_NO_JOIN                                | -   | reducer | kernel classes, the join of an estimate to a profile, reports (RFL_NO_JOIN)
llm-join  | -RFL_NO_LLM -RFL_NO_REDUCE -RFL_NO_JOIN                    | -   | join  | the LLMs with their join to a profile
onnx      | -RFL_NO_ONNX                                               | -   | -     | ONNX reader and shapes (RFL_NO_ONNX)
mfile     | -RFL_NO_MACHINE_FILE                                       | -   | -     | machine-file reader (RFL_NO_MACHINE_FILE)
probe     | -RFL_NO_PROBE                                              | -   | -     | probe: FMA chains, read and triad sweeps (RFL_NO_PROBE)
tzr       | -RFL_NO_HW_TABLE -RFL_NO_ZOO -RFL_NO_REDUCE                | -   | -     | the table, zoo and reducer together (what the checker needs)
check     | -RFL_NO_HW_TABLE -RFL_NO_ZOO -RFL_NO_REDUCE -RFL_NO_CHECK  | -   | tzr   | homework checker: answer files, diagnoses, JSON (RFL_NO_CHECK)
jsonw     | -RFL_NO_JSON_WRITER                                        | -   | -     | JSON writer: machine files, rfl-reduce --json (RFL_NO_JSON_WRITER)
"
FAILED=0

if ! command -v "$ACC" > /dev/null 2>&1; then
  echo "size-report: $ACC not found (make deps installs gcc-arm-none-eabi)" >&2
  exit 1
fi
# PNG needs Debian's stb_image_write.h (libstb-dev); the cross compiler does
# not search /usr/include, so the one header is linked into our own tree.
mkdir -p "$O/inc/stb"
STB=/usr/include/stb/stb_image_write.h
# stb includes <stdlib.h> and <string.h>: newlib's (libnewlib-arm-none-eabi).
HAVE_PNG=0
if [ -f "$STB" ] && echo '#include <stdlib.h>' | $ACC -E -x c - > /dev/null 2>&1; then
  ln -sf "$STB" "$O/inc/stb/stb_image_write.h"
  HAVE_PNG=1
else
  rm -f "$O/inc/stb/stb_image_write.h"
fi

trim() { echo "$1" | sed 's/^ *//; s/ *$//'; }
# defines BUILD: CORE with BUILD's -M removed and +M added
defines() {
  out=" $(echo $CORE) "
  for w in $1; do
    case $w in
      -*) out=$(echo "$out" | sed "s/ ${w#-} / /") ;;
      +*) out="$out${w#+} " ;;
    esac
  done
  echo $out
}
# unit NAME "DEFINES": compile the header alone with DEFINES; prints its
# flash bytes (text + data) or "?" (and says why on stderr).
unit() {
  : > "$O/$1.c"
  for d in $2; do printf '#define %s\n' "$d" >> "$O/$1.c"; done
  printf '#define ROOFLINE_IMPLEMENTATION\n#include "roofline.h"\n' >> "$O/$1.c"
  rm -f "$O/$1.su"
  if ! $ACC $FL -c "$O/$1.c" -o "$O/$1.o" 2> "$O/$1.err"; then
    echo "size-report: $1 ($2) does not compile:" >&2
    head -20 "$O/$1.err" >&2
    echo "?"
    return 1
  fi
  $ASIZE "$O/$1.o" | awk 'NR == 2 { print $1 + $2 }'
}
sub() { if [ "$1" = "?" ] || [ "$2" = "?" ]; then echo "?"; else echo $(($1 - $2)); fi; }
over() { [ "$1" = "?" ] || [ "$1" -gt "$2" ]; }
verdict() {
  if [ "$1" = "?" ]; then echo "FAILED"
  elif [ "$1" -le "$2" ]; then echo "ok"
  else echo "OVER by $(($1 - $2))"; fi
}

echo "roofline.h on Cortex-M4 ($($ACC -dumpversion), -mthumb -Os): flash bytes (code + read-only data)"
core=$(unit core "$(defines "")") || FAILED=1
# whole: every part marked yes
WHOLE_BUILD=$(echo "$PARTS" | awk -F'|' 'NF >= 4 && $3 ~ /yes/ { print $2 }' | tr '\n' ' ')
whole=$(unit whole "$(defines "$WHOLE_BUILD")") || FAILED=1
WHOLE_NAMES=$(echo "$PARTS" | awk -F'|' 'NF >= 4 && $3 ~ /yes/ { gsub(/ /, "", $1); printf "%s%s", s, $1; s = " + " }')

if [ "$CHECK" = 0 ]; then
  printf '  %-10s %8s  %s\n' part bytes "what (macros)"
  printf '  %-10s %8s  %s\n' core "$core" "$(echo $CORE)"
  echo "$PARTS" | while IFS='|' read -r name build inwhole base what; do
    name=$(trim "$name")
    [ -n "$name" ] || continue
    size=$(unit "p_$name" "$(defines "$build")") || echo "?" > "$O/p_$name.failed"
    base=$(trim "$base")
    ref=$core
    [ "$base" != "-" ] && ref=$(cat "$O/p_$base.size" 2> /dev/null || echo "?")
    echo "$size" > "$O/p_$name.size"
    note=""
    [ "$base" != "-" ] && note=" (over $base)"
    [ "$name" = png ] && [ "$HAVE_PNG" = 0 ] && note=" (not built: needs $STB and newlib's headers)"
    printf '  %-10s %8s  %s%s\n' "$name" "$(sub "$size" "$ref")" "$(trim "$what")" "$note"
  done
  ls "$O"/p_*.failed > /dev/null 2>&1 && FAILED=1
  rm -f "$O"/p_*.failed
  every=$(unit everything "") || FAILED=1
fi

printf '  %-44s %8s  budget %6s  %s\n' "core" "$core" $CORE_BUDGET "$(verdict "$core" $CORE_BUDGET)"
printf '  %-44s %8s  budget %6s  %s\n' "whole ($WHOLE_NAMES)" "$whole" $WHOLE_BUDGET "$(verdict "$whole" $WHOLE_BUDGET)"
[ "$HAVE_PNG" = 0 ] && echo "  (PNG not built: no $STB or no newlib headers; whole is without it)"
over "$core" $CORE_BUDGET && FAILED=1
over "$whole" $WHOLE_BUDGET && FAILED=1
[ "$CHECK" = 0 ] && printf '  %-44s %8s  budget %6s  %s (not enforced)\n' "everything (no RFL_NO_* at all)" \
  "$every" $EVERY_BUDGET "$(verdict "$every" $EVERY_BUDGET)"

# Stack frames of every function in every configuration compiled
# (.su: file:line:col:function<TAB>bytes<TAB>kind)
cat "$O"/*.su 2> /dev/null | sed 's|^.*/roofline.h|roofline.h|' | sort -u > "$O/frames.txt"
big=$(sort -t "$(printf '\t')" -k2 -n "$O/frames.txt" | tail -n 1)
if [ -n "$big" ]; then
  over "$(echo "$big" | cut -f2)" $FRAME_BUDGET && FAILED=1
  printf '  largest stack frame: %s bytes in %s  budget %s  %s\n' "$(echo "$big" | cut -f2)" \
    "$(echo "$big" | cut -f1)" $FRAME_BUDGET "$(verdict "$(echo "$big" | cut -f2)" $FRAME_BUDGET)"
else
  echo "  no stack usage data"; FAILED=1
fi
bad=$(awk -F '\t' -v b=$FRAME_BUDGET '$2 > b || $3 ~ /dynamic/' "$O/frames.txt")
if [ -n "$bad" ]; then
  FAILED=1
  echo "  frames over $FRAME_BUDGET bytes or dynamic (function, bytes, kind):"
  echo "$bad" | sort -t "$(printf '\t')" -k2 -rn | sed 's/^/    /'
fi

if [ "$CHECK" = 0 ]; then
  echo "  largest symbols of the whole header (bytes):"
  arm-none-eabi-nm -S --size-sort -t d "$O/whole.o" | tail -n 6 | awk '{ printf "    %-40s %8d\n", $4, $2 }'
  # The board image of examples/embedded.c (make m4), linked with
  # --gc-sections: a program pays only for what it calls.
  if make -s build/m4/embedded.elf > "$O/embedded.err" 2>&1; then
    $ASIZE build/m4/embedded.elf | awk 'NR == 2 { printf "  examples/embedded.c board image (make m4): %d flash (text %d + data %d), %d RAM (data + bss) + stack\n", $1 + $2, $1, $2, $2 + $3 }'
  else
    echo "  examples/embedded.c does not build:"; head -20 "$O/embedded.err" | sed 's/^/    /'; FAILED=1
  fi
fi
[ "$FAILED" != 0 ] && { echo "size-report: a budget is broken or a configuration failed" >&2; exit 1; }
exit 0
