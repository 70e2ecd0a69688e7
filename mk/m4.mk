# The estimator on an emulated Cortex-M4 board (issue 16): examples/embedded.c
# built bare-metal for qemu's mps2-an386 (tests/arm/: start-up with
# semihosting, linker script for the board's memory map) and run there; its
# output is the host build's, line for line (tests/steps/m4.sh checks).
# The toolchain and qemu come from Debian when missing (arm-none-eabi-gcc's
# rule is in mk/portability.mk).
M4_CC    = arm-none-eabi-gcc
# An STM32F4-class part: Cortex-M4 with its single-precision FPU (doubles
# are computed in software by libgcc's __aeabi_d* helpers).
M4_CPU   = -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
M4_FLAGS = $(M4_CPU) -Os -ffreestanding -std=c99 -Wall -Wextra -Wpedantic -Werror \
           -Wshadow -Wconversion -ffunction-sections -fdata-sections \
           -fno-tree-loop-distribute-patterns -fstack-usage
M4_LINK  = -nostdlib -Wl,--gc-sections -T tests/arm/link.ld
M4_QEMU  = qemu-system-arm -M mps2-an386 -nographic \
           -semihosting-config enable=on,target=native -kernel

deps: /usr/bin/qemu-system-arm
/usr/bin/qemu-system-arm:
	sh mk/apt-install.sh qemu-system-arm

build/m4:
	mkdir -p $@

build/m4/embedded.elf: examples/embedded.c tests/arm/startup.c tests/arm/link.ld $(HDRS) \
                       | build/m4 /usr/bin/arm-none-eabi-gcc
	$(M4_CC) $(M4_FLAGS) -I. $(M4_LINK) tests/arm/startup.c examples/embedded.c -lgcc -o $@

.PHONY: m4
# Build, show the image's size, run it on the board; exit status = main's.
m4: build/m4/embedded.elf | /usr/bin/qemu-system-arm
	@arm-none-eabi-size $<
	timeout 60 $(M4_QEMU) $<

.PHONY: m4-profile
# Instructions of the board run by symbol: what double costs on the M4.
m4-profile: build/m4/embedded.elf | /usr/bin/qemu-system-arm
	@sh dev/m4-profile.sh $<
