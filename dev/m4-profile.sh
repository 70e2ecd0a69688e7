#!/bin/sh
# m4-profile.sh [ELF]: where the instructions of examples/embedded.c go on
# the emulated Cortex-M4 (make m4-profile; issue 16's double-vs-float
# question). qemu runs the board image one instruction per translation
# block and logs each executed block with its symbol (-singlestep -d
# exec,nochain), so the count per symbol is the number of instructions
# executed there (semihosting output, done by the host, is not counted).
# Prints the total, the share in libgcc's soft-double helpers (the M4's FPU
# is single precision: every double add, multiply, divide, compare and
# conversion is a call), the number of those calls, and the 64-bit integer
# division and memory helpers beside them. About 10 s; writes a ~100 MB
# log under build/m4/ and deletes it.
set -u
cd "$(dirname "$0")/.."
ELF=${1:-build/m4/embedded.elf}
LOG=build/m4/trace.log
[ -f "$ELF" ] || { echo "m4-profile: $ELF missing (make build/m4/embedded.elf)" >&2; exit 2; }
timeout 300 qemu-system-arm -M mps2-an386 -nographic -semihosting-config enable=on,target=native \
  -singlestep -d exec,nochain -D "$LOG" -kernel "$ELF" > /dev/null 2>&1 || {
  echo "m4-profile: the board run failed" >&2; rm -f "$LOG"; exit 1; }
# soft double: __aeabi_d*, __aeabi_cd*, __aeabi_*2d, __*df2/3, __fix*df*, __float*df
# The start-up's own work (copying .data, painting and scanning the stack
# for its high-water mark) is left out: only what main runs counts.
awk '/^Trace/ {
  s = $NF
  if (s ~ /^(rfl_reset|stack_paint|stack_report|semihost|semihost_write|rfl_board_exit)$/) { boot++; next }
  n[s]++; total++
  dbl = (s ~ /^__aeabi_(d|cd|cdr)/ || s ~ /^__aeabi_[a-z0-9]*2d$/ || s ~ /df[23]$/ || s ~ /^__(fix|float)[a-z]*df/)
  if (dbl) { d++; if (!prev_dbl) calls++ }
  else if (s ~ /^__(udivmoddi4|aeabi_uldivmod|aeabi_ldivmod|divmoddi4)$/) div++
  else if (s ~ /^mem(set|cpy|move|cmp)$/) mem++
  prev_dbl = dbl
}
END {
  printf "instructions executed by main: %d (%.1f ms at 168 MHz, one per cycle; start-up: %d more)\n", total, total / 168e3, boot
  printf "  soft double (libgcc __aeabi_d*): %d (%.1f%%) in %d calls, %.0f per call\n", d, 100 * d / total, calls, d / calls
  printf "  64-bit integer division:        %d (%.1f%%)\n", div, 100 * div / total
  printf "  memset/memcpy (tests/arm/startup.c): %d (%.1f%%)\n", mem, 100 * mem / total
  printf "  everything else:                %d (%.1f%%)\n", total - d - div - mem, 100 * (total - d - div - mem) / total
}' "$LOG"
# flash: the union of the helpers' address ranges (aliases and entry
# points inside one another, __aeabi_dadd in __aeabi_dsub, overlap)
echo "  soft-double helpers in flash: $(arm-none-eabi-nm -S -t d -n "$ELF" |
  awk '$3 == "T" && ($4 ~ /^__aeabi_(d|cd|cdr)/ || $4 ~ /^__aeabi_[a-z0-9]*2d$/) {
    a = $1 + 0; e = a + $2; if (a > end) { s += e - a; end = e } else if (e > end) { s += e - end; end = e } }
    END { print s + 0 }') bytes"
rm -f "$LOG"
