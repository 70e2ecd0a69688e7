# Portability (issue 7): the toolchains of the cross builds and the
# compiler matrix (tests/steps/portability.sh), and `make size`.
# Each tool is installed from Debian when missing; one apt-get run installs
# them all (grouped target).
PORT_BINS = /usr/bin/arm-none-eabi-gcc /usr/bin/arm-linux-gnueabihf-gcc \
            /usr/bin/qemu-arm /usr/bin/tcc /usr/bin/clang
PORT_PKGS = gcc-arm-none-eabi gcc-arm-linux-gnueabihf libc6-dev-armhf-cross \
            qemu-user tcc clang

deps: $(PORT_BINS)
$(PORT_BINS) &:
	$(call APT_INSTALL,$(PORT_PKGS))

.PHONY: size
# Flash bytes per part on a Cortex-M4, the budgets, the largest stack frame.
size: deps
	@sh dev/size-report.sh
