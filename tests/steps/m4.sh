# Issue 16, sourced by tests/run.sh (uses its step, bad, $B):
# examples/embedded.c (DS-CNN-S estimated for an STM32F407) built for the
# mps2-an386 board (Cortex-M4, mk/m4.mk) and run under qemu-system-arm with
# semihosting prints the same lines as the host build, and both exit 0 (the
# example exits 5 when its MAC or parameter count differs from the hand
# derivation in its comment, 6 when its report buffer is too small), and
# the board's stack stays under 4 KiB.
M4D=$B/m4
mkdir -p "$M4D"
m4_same_as_host() {
  make -s build/m4/embedded.elf build/examples/embedded || return 1
  build/examples/embedded > "$M4D/host.out" || { echo "host build exited $?"; return 1; }
  timeout 60 qemu-system-arm -M mps2-an386 -nographic \
    -semihosting-config enable=on,target=native -kernel build/m4/embedded.elf \
    > "$M4D/board.out" 2> "$M4D/board.err" || { echo "board exited $?"; cat "$M4D/board.err"; return 1; }
  grep -q '^params 23756, multiply-adds 2656768 (by hand 2656768)$' "$M4D/host.out" || return 1
  [ "$(wc -l < "$M4D/host.out")" -ge 30 ] || { echo "host printed too few lines"; return 1; }
  diff "$M4D/host.out" "$M4D/board.out" || return 1
  # the start-up's stack high-water mark (standard error): under 4 KiB
  cat "$M4D/board.err"
  used=$(sed -n 's/^board: stack used \([0-9]*\) bytes$/\1/p' "$M4D/board.err")
  [ -n "$used" ] && [ "$used" -le 4096 ]
}
if command -v qemu-system-arm > /dev/null && command -v arm-none-eabi-gcc > /dev/null; then
  step "m4: examples/embedded.c on qemu mps2-an386 prints what the host build prints" m4_same_as_host
else
  bad "qemu-system-arm or arm-none-eabi-gcc missing (make deps installs them)"
fi
