# Build hygiene (issue 15): what happens without stb_image_write.h, which
# make targets wait for it, and error messages that say each thing once.
# "stb absent" is simulated without uninstalling it: the compiler's system
# include folders are replaced (-nostdinc) by copies made of symbolic links
# to every entry except stb/. Sourced by tests/run.sh (step, $W, $B).
HY=$B/hygiene
rm -rf "$HY"
mkdir -p "$HY"

# hy_nostb_flags: flags that give gcc its usual <...> folders minus stb/
hy_nostb_flags() {
  flags=-nostdinc; k=0
  for d in $(gcc -xc -E -v - < /dev/null 2>&1 | sed -n '/#include <...>/,/End of search/p' | sed '1d;$d'); do
    if [ -d "$d/stb" ]; then
      k=$((k + 1)); mkdir -p "$HY/inc$k"
      for e in "$d"/*; do [ "$e" = "$d/stb" ] || ln -s "$e" "$HY/inc$k/"; done
      d=$HY/inc$k
    fi
    flags="$flags -isystem $d"
  done
  echo "$flags"
}
HY_NOSTB=$(hy_nostb_flags)
# hy_cc OUT FLAGS...: compile as C99 with our warnings, messages to OUT.err
hy_cc() { o=$1; shift; gcc -std=c99 $W -I. "$@" -o "$HY/$o.o" -c > "$HY/$o.err" 2>&1; }

hy_hidden() { ! hy_cc hidden $HY_NOSTB -include stb/stb_image_write.h -x c /dev/null; }
step "hygiene: the stb-absent simulation hides stb_image_write.h" hy_hidden

# a tool that needs PNG: one #error naming the package, no implicit declaration
hy_tool_error() {
  ! hy_cc plot $HY_NOSTB tools/rfl-plot.c || return 1
  grep -q '#error.*stb_image_write.h.*apt-get install libstb-dev' "$HY/plot.err" &&
  ! grep -q 'implicit' "$HY/plot.err"
}
step "hygiene: no stb + RFL_PNG_REQUIRED (rfl-plot): #error naming libstb-dev" hy_tool_error

# the library without stb: builds without PNG (the examples say so)
step "hygiene: no stb: the header and homework.c build without PNG" \
  hy_cc homework $HY_NOSTB -fsyntax-only examples/homework.c
printf '#define ROOFLINE_IMPLEMENTATION\n#include "roofline.h"\n%s\n' \
  'int f(const rfl_canvas *c, char *a, size_t n) { return (int)rfl_png_save(c, "x.png", a, n); }' \
  > "$HY/call_png.c"
# a call of rfl_png_* then stops the build with the reason, never an
# implicit declaration
hy_call_error() { # NAME WANT FLAGS...
  n=$1; want=$2; shift 2
  ! hy_cc "$n" "$@" "$HY/call_png.c" || return 1
  grep -q "$want" "$HY/$n.err" && ! grep -q 'implicit' "$HY/$n.err"
}
step "hygiene: no stb: rfl_png_save is an error that says install libstb-dev" \
  hy_call_error call_nostb 'rfl_png_off__stb_image_write_h_not_found__install_libstb_dev' $HY_NOSTB
step "hygiene: RFL_NO_PNG: rfl_png_save is an error naming RFL_NO_PNG" \
  hy_call_error call_nopng 'rfl_png_off__RFL_NO_PNG_or_RFL_NO_CHART_is_defined' -DRFL_NO_PNG
step "hygiene: RFL_NO_PNG + RFL_PNG_REQUIRED: #error" \
  hy_call_error call_req '#error.*RFL_PNG_REQUIRED' -DRFL_NO_PNG -DRFL_PNG_REQUIRED

# make: every target that draws PNGs waits for stb (order-only: made even
# when the target is up to date); without it and without root, make stops
# with one line saying what to install.
HY_MAKE="${MAKE:-make} --no-print-directory -n RFL_UID=1000 STB_H=$HY/none/stb/stb_image_write.h"
hy_make_stops() { # TARGET
  $HY_MAKE "$1" > "$HY/make.out" 2> "$HY/make.err" && { echo "make $1 did not stop"; return 1; }
  [ "$(wc -l < "$HY/make.err")" = 1 ] && grep -q 'run: sudo apt-get install libstb-dev' "$HY/make.err" &&
  ! grep -q "rfl-plot.c\|rfl-report.c\|homework.c\|own_hardware.c" "$HY/make.out" ||
  { cat "$HY/make.err"; return 1; }
}
for t in build/rfl-plot build/rfl-report build/examples/homework build/examples/own_hardware all; do
  step "hygiene: make $t without stb (not root): stops with one line" hy_make_stops $t
done
# `make all` needs no test toolchain: with their files "missing", it plans
# no apt-install (while `make deps` does: the check can fail)
hy_all_no_toolchain() {
  set -- FUZZ_RT=$HY/none/rt.a "PORT_BINS=$HY/none/gcc"
  ${MAKE:-make} --no-print-directory -n all "$@" 2>&1 | grep apt-install && return 1
  ${MAKE:-make} --no-print-directory -n deps "$@" 2>&1 | grep -q apt-install
}
step "hygiene: make all installs no test toolchain" hy_all_no_toolchain

# error messages say each thing once: no "X (X)"
hy_once() {
  : > "$HY/empty.csv"
  build/rfl-reduce "$HY/empty.csv" 2> "$HY/once.err"
  [ $? = 1 ] && [ "$(cat "$HY/once.err")" = "rfl-reduce: $HY/empty.csv:1:1: empty input" ] ||
  { cat "$HY/once.err"; return 1; }
}
step "hygiene: rfl-reduce on an empty file: 'empty input', once" hy_once
hy_report_once() {
  : > "$HY/empty.csv"
  build/rfl-report --model resnet18 --hw h100 --ncu "$HY/empty.csv" > /dev/null 2> "$HY/once.err"
  [ $? = 1 ] && grep -q 'empty.csv:1:1: empty input$' "$HY/once.err" || { cat "$HY/once.err"; return 1; }
}
step "hygiene: rfl-report --ncu of an empty file: 'empty input', once" hy_report_once

# the manual at the top of roofline.h names every public function (the
# rfl_draw_* / rfl_fill_* families by pattern) and every macro the header
# tests (#if, #ifdef, defined()), except include guards and rfl__ privates
hy_manual() {
  sed '/^\*\//q' roofline.h > "$HY/manual.txt"
  grep -o 'RFL_API [^;{=]*(' roofline.h | sed 's/ *($//; s/.*[ *]//' | grep '^rfl_' | sort -u > "$HY/api.txt"
  sed -e ':a' -e '/\\$/N; s/\\\n//; ta' roofline.h hw_specs.h | grep '^ *# *\(if\|elif\)' |
    grep -o '\bR[OF][OL][A-Z0-9_]*' | grep -v '^RFL__' | sort -u > "$HY/macros.txt"
  missing=
  for f in $(cat "$HY/api.txt"); do
    case $f in rfl_draw_*|rfl_fill_*) continue ;; esac
    grep -q "\\b$f\\b" "$HY/manual.txt" || missing="$missing $f"
  done
  for m in $(cat "$HY/macros.txt"); do
    case $m in ROOFLINE_H|ROOFLINE_IMPLEMENTATION_DONE|RFL_HW_SPECS_H|RFL_REDUCE_API_H) continue ;; esac
    grep -q "\\b$m\\b" "$HY/manual.txt" || missing="$missing $m"
  done
  [ -z "$missing" ] || { echo "not in the manual at the top of roofline.h:$missing"; return 1; }
  [ "$(wc -l < "$HY/api.txt")" -gt 100 ] && grep -qx RFL_NO_PNG "$HY/macros.txt"
}
step "hygiene: the manual names every public function and every option macro" hy_manual
