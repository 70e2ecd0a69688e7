# Portability (issue 7), sourced by tests/run.sh (uses its step, run_bin,
# ok, bad, $B, $LOG, $W, $WX):
#   1. the OPTIONS: each macro compiled in and nm/strings show what must be
#      absent; the core (RFL_NO_STDIO RFL_NO_CHART) references nothing of
#      libc but what GCC needs from any freestanding target (mem*);
#   2. Cortex-M4 (arm-none-eabi-gcc, -ffreestanding): the whole header with
#      RFL_NO_STDIO, and examples/embedded.c linked bare-metal (tests/arm/)
#      with no allocator, printf or strtod;
#   3. size (dev/size-report.sh --check): no stack frame over 1 KiB;
#      flash budgets (issue 16) core <= 24 KiB, whole <= 128 KiB;
#   4. 32-bit ARM Linux: the unit tests built with arm-linux-gnueabihf-gcc
#      run under qemu-arm, and the tools' JSON for the fixtures is
#      byte-identical to the native tools';
#   5. compilers: the header alone with gcc, clang, g++, clang++ in C99, C11,
#      C++11, C++17 and tcc, once per option combination; the unit tests
#      built and run with clang, g++, clang++ (as C++) and tcc, and with gcc
#      once per option combination (tests/test_config.c checks each macro).
#      A test that uses a compiled-out part without testing its macro is
#      not built in that combination (listed in the log as skipped).
# Jobs run two at a time (xargs -P 2); results are counted in a fixed order.
P=$B/port
rm -rf "$P"
mkdir -p "$P/jobs" "$P/obj" "$P/bin" "$P/arm" "$P/json"
PJ=0
PORT_ORDER=""

# pjob KIND NAME 'BUILD' ['RUN']: a job script. KIND check: BUILD must
# succeed (one test). KIND test: BUILD, then RUN prints "N passed, N failed".
pjob() {
  PJ=$((PJ + 1))
  f=$(printf '%s/jobs/%03d.sh' "$P" "$PJ")
  {
    echo "cd '$PWD' || exit 1"
    echo "o='$P/$PJ'; t0=\$(date +%s)"
    echo "trap 'echo \$((\$(date +%s) - t0)) > \$o.sec' EXIT"
    if [ "$1" = test ]; then
      echo "if { $3 ; } > \"\$o.build\" 2>&1; then { $4 ; } > \"\$o.out\" 2>&1; echo \$? > \"\$o.rc\"; else echo build > \"\$o.rc\"; fi"
    else
      echo "{ $3 ; } > \"\$o.out\" 2>&1; echo \$? > \"\$o.rc\""
    fi
  } > "$f"
  printf '%s\t%s\t%s\n' "$PJ" "$1" "$2" >> "$P/order.txt"
}

have() { command -v "$1" > /dev/null 2>&1; }
ALL_OPTS="ROOFLINE_STATIC RFL_NO_STDIO RFL_NO_CHART RFL_NO_PNG RFL_NO_ZOO RFL_NO_REDUCE RFL_NO_HW_TABLE RFL_NO_ERROR_STRINGS RFL_NO_SIMD RFL_NO_LLM RFL_NO_ONNX RFL_NO_MACHINE_FILE RFL_NO_PROBE RFL_NO_JOIN"
# option combinations: "name|-D flags"
# (-DNAME= defines NAME empty, as a test's own #define NAME does: no
# redefinition warning)
COMBOS="default|
static|-DROOFLINE_STATIC=
no-stdio|-DRFL_NO_STDIO=
no-chart|-DRFL_NO_CHART=
no-png|-DRFL_NO_PNG=
no-zoo|-DRFL_NO_ZOO=
no-reduce|-DRFL_NO_REDUCE=
no-hw-table|-DRFL_NO_HW_TABLE=
no-error-strings|-DRFL_NO_ERROR_STRINGS=
no-simd|-DRFL_NO_SIMD=
all-off|$(for o in $ALL_OPTS; do printf -- '-D%s= ' "$o"; done)"
: > "$P/order.txt"
echo "$COMBOS" > "$P/all-combos.txt"
printf '#define ROOFLINE_IMPLEMENTATION\n#include "roofline.h"\n' > "$P/one.c"
cp "$P/one.c" "$P/one.cc"

TESTS=$(ls tests/test_*.c)
# ---- 4. 32-bit ARM Linux under qemu-arm (first: the longest jobs) -----------
if have arm-linux-gnueabihf-gcc && have qemu-arm; then
  AC="arm-linux-gnueabihf-gcc -std=c99 $W -O0 -static -I."
  # (-O0: the cross compile of the header takes 2 s instead of 10 to 16 s,
  # and the emulated tests still run in under 5 s each)
  # the tests of the core and of each reader run there (32-bit size_t,
  # unsigned char, soft alignment); the rest (charts, the zoo against
  # PyTorch, ONNX exports, probe) add nothing ARM-specific and cost minutes
  # of emulation: RFL_QEMU_TESTS="all" runs every test, a list runs those
  QEMU_TESTS=${RFL_QEMU_TESTS:-test_core test_layers test_reduce test_bad test_hw test_config test_llm test_onnx test_machine_file}
  for t in $TESTS; do
    n=$(basename "$t" .c)
    case " $QEMU_TESTS " in *" $n "*|" all ") ;; *) continue ;; esac
    pjob test "qemu-arm: $n" "$AC -Itests $t -o $P/arm/$n -lm" "timeout ${RFL_QEMU_TIMEOUT:-240} qemu-arm $P/arm/$n"
  done
  for tn in rfl-hw rfl-estimate rfl-reduce; do # the tools compared below
    [ -x "build/$tn" ] && [ -f "tools/$tn.c" ] || continue
    pjob check "arm build: $tn" "$AC tools/$tn.c -o $P/arm/$tn -lm"
  done
else
  bad "arm-linux-gnueabihf-gcc or qemu-arm missing (make deps)"
fi

# ---- 1. what each option removes (host gcc objects) ----------------------
NM_HEAP='malloc|calloc|realloc|free|strdup|aligned_alloc|posix_memalign'
NM_STDIO='fopen|fclose|fread|fwrite|fprintf|printf|sprintf|snprintf|vsnprintf|fputs|puts|fputc|putchar|fflush|stdout|stderr|stdin|getc|fgets'
NM_LIBC="$NM_HEAP|$NM_STDIO|strtod|strtol|strtoul|atof|atoi|strlen|strcmp|strncmp|strchr|setlocale|localeconv|abort|exit"
cat > "$P/nm.sh" <<'EOF'
# nm.sh OBJ WHAT ARG: exit 1 (and say why) when OBJ breaks the rule WHAT
obj=$1 what=$2 arg=${3:-}
case $what in
  undef-none) bad=$(nm -u "$obj" | awk '{print $2}' | grep -vwE 'memcpy|memset|memmove|memcmp') ;;
  undef-not) bad=$(nm -u "$obj" | awk '{print $2}' | grep -wE "$arg") ;;
  def-not) bad=$(nm --defined-only "$obj" | awk '{print $3}' | grep -E "$arg") ;;
  global-not) bad=$(nm -g --defined-only "$obj" | awk '{print $3}' | grep -E "$arg") ;;
  string-not) bad=$(grep -c -F "$arg" "$obj" | grep -v '^0$') ;;
esac
[ -z "$bad" ] && exit 0
echo "$obj: $what $arg:"; echo "$bad" | head -20; exit 1
EOF
HOSTC="gcc -std=c99 $WX -O0 -I. -c"
o=$P/obj
pjob check "RFL_NO_STDIO: no stdio function referenced" \
  "$HOSTC -DRFL_NO_STDIO $P/one.c -o $o/nostdio.o && sh $P/nm.sh $o/nostdio.o undef-not '$NM_STDIO|$NM_HEAP'"
pjob check "core (RFL_NO_STDIO RFL_NO_CHART) references no libc (mem* aside)" \
  "$HOSTC -DRFL_NO_STDIO -DRFL_NO_CHART $P/one.c -o $o/core.o && sh $P/nm.sh $o/core.o undef-none"
pjob check "RFL_NO_CHART: no chart or PNG symbol, no libm" \
  "$HOSTC -DRFL_NO_CHART $P/one.c -o $o/nochart.o && sh $P/nm.sh $o/nochart.o def-not 'rfl_canvas|rfl_chart|rfl_draw|rfl_fill|rfl_text|rfl_png|stbi' && sh $P/nm.sh $o/nochart.o undef-not 'sqrt|floor|ceil|log10|pow|fabs|exp|log'"
pjob check "RFL_NO_PNG: no PNG symbol, no stb" \
  "$HOSTC -DRFL_NO_PNG $P/one.c -o $o/nopng.o && sh $P/nm.sh $o/nopng.o def-not 'rfl_png|stbi'"
pjob check "RFL_NO_ZOO: no zoo symbol or model name" \
  "$HOSTC -DRFL_NO_ZOO $P/one.c -o $o/nozoo.o && sh $P/nm.sh $o/nozoo.o def-not 'rfl_zoo' && sh $P/nm.sh $o/nozoo.o string-not mobilenet_v2"
pjob check "RFL_NO_REDUCE: no reducer symbol" \
  "$HOSTC -DRFL_NO_REDUCE $P/one.c -o $o/noreduce.o && sh $P/nm.sh $o/noreduce.o def-not 'rfl_reduce|rfl_kernel_tensor|rfl_csv_format'"
pjob check "RFL_NO_HW_TABLE: no machine in the object" \
  "$HOSTC -DRFL_NO_HW_TABLE -DRFL_NO_CHART $P/one.c -o $o/nohw.o && sh $P/nm.sh $o/nohw.o string-not a100-sxm4-40gb"
pjob check "RFL_NO_ERROR_STRINGS: no error text in the object" \
  "$HOSTC -DRFL_NO_ERROR_STRINGS -DRFL_NO_CHART $P/one.c -o $o/noerr.o && sh $P/nm.sh $o/noerr.o string-not 'buffer too small'"
# the optional model and machine sources (issues 17-19) each compile out;
# their own steps build with them removed, here: no symbol is left
pjob check "RFL_NO_LLM RFL_NO_ONNX RFL_NO_MACHINE_FILE RFL_NO_PROBE: none of their symbols" \
  "$HOSTC -DRFL_NO_LLM -DRFL_NO_ONNX -DRFL_NO_MACHINE_FILE -DRFL_NO_PROBE $P/one.c -o $o/nomodels.o && sh $P/nm.sh $o/nomodels.o def-not 'rfl_llm|rfl_hf_config|rfl_onnx|rfl_machine_file|rfl_probe'"
pjob check "ROOFLINE_STATIC: no global rfl symbol" \
  "$HOSTC -DROOFLINE_STATIC $P/one.c -o $o/static.o && sh $P/nm.sh $o/static.o global-not 'rfl|stbi'"

# ---- 2, 3. Cortex-M4 ---------------------------------------------------------
if have arm-none-eabi-gcc; then
  M4="arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99 -Wall -Wextra -Werror"
  pjob check "cortex-m4: whole header, RFL_NO_STDIO, -Wpedantic -Wshadow -Wconversion" \
    "$M4 -Wpedantic -Wshadow -Wconversion -DRFL_NO_STDIO -I. -c $P/one.c -o $P/arm/whole.o && sh $P/nm.sh $P/arm/whole.o undef-not '$NM_LIBC'"
  pjob check "cortex-m4: core, RFL_NO_STDIO RFL_NO_CHART RFL_NO_ZOO, needs only libgcc and mem*" \
    "$M4 -Wpedantic -Wshadow -Wconversion -DRFL_NO_STDIO -DRFL_NO_CHART -DRFL_NO_ZOO -I. -c $P/one.c -o $P/arm/core.o && ! arm-none-eabi-nm -u $P/arm/core.o | grep -vE ' U (__[a-z0-9_]+|memcpy|memset|memmove|memcmp)\$'"
  pjob check "cortex-m4: examples/embedded.c links bare-metal, no heap/stdio/strtod" \
    "$M4 -ffunction-sections -fdata-sections -Wl,--gc-sections -nostdlib -fno-tree-loop-distribute-patterns -I. -T tests/arm/link.ld tests/arm/startup.c examples/embedded.c -lgcc -o $P/arm/embedded.elf && sh $P/nm.sh $P/arm/embedded.elf def-not '^($NM_LIBC)\$'"
  pjob check "size: every frame <= 1 KiB; flash budgets core <= 24 KiB, whole <= 128 KiB (make size)" \
    "sh dev/size-report.sh --check"
else
  bad "arm-none-eabi-gcc missing (make deps installs gcc-arm-none-eabi)"
fi

# ---- 5a. the header alone: every compiler, standard and option ----------------
# (every option with gcc, g++ and tcc (below); the other compilers and
# standards with none and with all of them)
grep -E '^(default|all-off)\|' "$P/all-combos.txt" > "$P/two-combos.txt"
for cc in "gcc -std=c99|all" "g++ -std=c++11|all" \
          "clang -std=c11|two" "clang++ -std=c++17|two" \
          "gcc -std=c11|two" "clang -std=c99|two" "g++ -std=c++17|two" "clang++ -std=c++11|two"; do
  which=${cc#*|} cc=${cc%|*}
  set -- $cc
  have "$1" || { bad "$1 missing (make deps)"; continue; }
  src=$P/one.c
  case $1 in *++) src=$P/one.cc ;; esac
  while IFS='|' read -r name defs; do
    pjob check "header alone: $cc $name" "$cc $WX $defs -I. -fsyntax-only $src"
  done < "$P/$which-combos.txt"
done
if have tcc; then
  while IFS='|' read -r name defs; do
    pjob check "header alone: tcc $name" "tcc $defs -I. -c $P/one.c -o $o/tcc-$name.o"
  done < "$P/all-combos.txt"
fi

# ---- 5b. the unit tests under other compilers and options --------------------
# The whole suite is built and run with tcc,
# qemu-arm (above) and gcc in the embedded combination (static, no stdio,
# no error strings); clang -std=c11 and clang++ -std=c++17 compile every
# test (-fsyntax-only),
# and so does gcc with all options off; test_config.c, which checks each
# macro, runs with each option alone. Tests
# built as C++ leave out -Wconversion: they pass out-of-range enum values on
# purpose, which C++ warns about.
# skip_reason FILE DEFS: why FILE is not built with DEFS ("" = build it)
skip_reason() {
  for d in $2; do
    case $d in
      -DRFL_NO_CHART=) pat='rfl_canvas|rfl_chart|rfl_draw|rfl_png' ;;
      -DRFL_NO_PNG=) pat='rfl_png' ;;
      -DRFL_NO_ZOO=) pat='rfl_zoo' ;;
      -DRFL_NO_REDUCE=) pat='rfl_reduce|rfl_kernel_|rfl_csv_' ;;
      -DRFL_NO_HW_TABLE=) pat='rfl_hw_find|rfl_hw_get|rfl_hw_count|RFL_HW_' ;;
      -DRFL_NO_LLM=) pat='rfl_llm_|rfl_hf_config|rfl_report_batch|rfl_report_llm' ;;
      -DRFL_NO_JOIN=) pat='rfl_kclass|rfl_join_|rfl_report_' ;;
      -DRFL_NO_ONNX=) pat='rfl_onnx' ;;
      -DRFL_NO_MACHINE_FILE=) pat='rfl_machine_file' ;;
      -DRFL_NO_PROBE=) pat='rfl_probe' ;;
      *) continue ;;
    esac
    m=${d#-D}
    m=${m%=}
    [ "$m" = RFL_NO_PNG ] && m='RFL_NO_PNG|RFL_HAS_PNG'
    if grep -qE "$pat" "$1" && ! grep -qE "$m" "$1"; then echo "uses what $m removes"; return; fi
  done
}
CXXW="$W -Wshadow"
# (the other standards of each compiler -- gcc c11, clang c99, g++ c++11
# and c++17, clang++ c++11 -- compile the header alone in 5a: a test adds
# only calls)
for cc in "clang -std=c11|$WX|syntax" "tcc||run" "clang++ -x c++ -std=c++17|$CXXW|syntax"; do
  c=${cc%%|*} rest=${cc#*|}
  fl=${rest%|*} how=${rest#*|}
  set -- $c
  have "$1" || continue
  for t in $TESTS; do
    n=$(basename "$t" .c)
    exe=$P/bin/$n-$(echo "$c" | tr ' ' _)
    case $how in
      run) pjob test "$c: $n" "$c $fl -O0 -I. -Itests $t -o $exe -lm" "$exe" ;;
      syntax) pjob check "$c (syntax): $n" "$c $fl -I. -Itests -fsyntax-only $t" ;;
    esac
  done
done
grep -v '^default|' "$P/all-combos.txt" > "$P/combos.txt"
printf 'embedded|-DROOFLINE_STATIC= -DRFL_NO_STDIO= -DRFL_NO_ERROR_STRINGS=\n' >> "$P/combos.txt"
printf 'overrides|-DRFL_TEST_OVERRIDES\noverrides-no-png|-DRFL_TEST_OVERRIDES -DRFL_NO_PNG=\n' >> "$P/combos.txt"
while IFS='|' read -r name defs; do
  for t in $TESTS; do
    n=$(basename "$t" .c)
    lm=-lm
    # every test with everything off and in the embedded combination; one
    # option at a time, test_config (which checks each macro) alone: the
    # header itself meets every option in 5a
    case $name in
      overrides*) [ "$n" = test_config ] || continue; lm= ;;
      all-off|embedded) ;;
      *) [ "$n" = test_config ] || continue ;;
    esac
    why=$(skip_reason "$t" "$defs")
    if [ -n "$why" ]; then echo "skip: $n with $name: it $why without testing the macro" >> "$LOG"; continue; fi
    exe=$P/bin/$n-$name
    if [ "$name" = embedded ]; then
      pjob test "gcc $name: $n" "gcc -std=c99 $WX $defs -O0 -I. -Itests $t -o $exe $lm" "$exe"
    elif [ "$n" = test_config ]; then
      pjob test "gcc $name: $n" "gcc -std=c99 $WX $defs -O0 -I. -Itests $t -o $exe $lm" "$exe"
    else
      pjob check "gcc $name (syntax): $n" "gcc -std=c99 $WX $defs -I. -Itests -fsyntax-only $t"
    fi
  done
done < "$P/combos.txt"

# ---- run the jobs, two at a time, then count them in order ------------------
port_run() { # DIR: run DIR/*.sh two at a time, count the results in order
  ls "$1"/*.sh 2> /dev/null | xargs -P 2 -n 1 sh
  while IFS="$(printf '\t')" read -r id kind name; do
    rc=$(cat "$P/$id.rc" 2> /dev/null || echo lost)
    if [ "$kind" = check ]; then
      if [ "$rc" = 0 ]; then ok; else
        bad "$name"
        { echo "== $name"; cat "$P/$id.out"; } >> "$LOG"
        tail -5 "$P/$id.out" | sed 's/^/    /'
      fi
    elif [ "$rc" = build ] || [ "$rc" = lost ]; then
      bad "build: $name"
      { echo "== $name"; cat "$P/$id.build" 2> /dev/null; } >> "$LOG"
      grep -m 5 -E 'error|undefined' "$P/$id.build" 2> /dev/null | sed 's/^/    /'
    else
      [ "$rc" = 124 ] && echo "  $name: timed out"
      run_bin sh -c 'cat "$1"; exit "$2"' sh "$P/$id.out" "$rc"
    fi
  done < "$P/order.txt"
  cat "$P/order.txt" >> "$P/order.all"
  : > "$P/order.txt"
}
port_run "$P/jobs"
echo "portability: slowest jobs (seconds):" >> "$LOG"
for f in "$P"/*.sec; do printf '%s %s\n' "$(cat "$f")" "$(basename "$f" .sec)"; done | sort -rn | head -8 |
  while read -r sec id; do echo "  $sec $(sed -n "s/^$id\t[a-z]*\t//p" "$P/order.all")"; done >> "$LOG"

# ---- 4b. the tools' JSON: native and qemu-arm, byte for byte -----------------
# json TOOL ARGS...: the native tool and its ARM build print the same bytes
# (stdout and stderr) and exit the same way.
mkdir -p "$P/jobs2"
json() {
  tn=$1
  shift
  [ -x "build/$tn" ] && [ -x "$P/arm/$tn" ] || return 0
  PJ=$((PJ + 1))
  x=$P/json/$PJ
  printf '%s\n' "cd '$PWD' || exit 1" \
    "build/$tn $* > $x.x86 2>&1; r1=\$?" \
    "qemu-arm $P/arm/$tn $* > $x.arm 2>&1; r2=\$?" \
    "{ [ \$r1 = \$r2 ] || echo \"exit \$r1 on x86-64, \$r2 on arm\"; diff $x.x86 $x.arm | head -8; } > $P/$PJ.out" \
    "[ \$r1 = \$r2 ] && cmp -s $x.x86 $x.arm; echo \$? > $P/$PJ.rc" > "$P/jobs2/$(printf %04d $PJ).sh"
  printf '%s\tcheck\t%s\n' "$PJ" "qemu-arm: $tn $* (same bytes as x86-64)" >> "$P/order.txt"
}
if have qemu-arm; then
  json rfl-hw --json
  for id in $(sed -n 's/^X([A-Z0-9_]*, "\([^"]*\)".*/\1/p' hw_specs.h); do json rfl-hw "$id" --json; done
  if [ -x build/rfl-estimate ]; then
    for m in $(build/rfl-estimate --list 2> /dev/null); do
      json rfl-estimate "$m" --json
      json rfl-estimate "$m" --batch 256 --dtype fp16 --mode train --hw h100 --json
    done
  fi
  for f in tests/data/*.csv; do
    [ -f "$f" ] || continue
    json rfl-reduce "$f" --json
    json rfl-reduce "$f" --hw a100 --json
  done
  port_run "$P/jobs2"
fi
