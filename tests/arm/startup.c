/* Minimal Cortex-M4 start-up for the bare-metal build of examples/embedded.c
   (make m4 runs it on qemu's mps2-an386 board; tests/steps/portability.sh
   and make size link it too): a vector table, a reset handler that turns
   the FPU on (when built for it), sets up .data and .bss, calls main,
   reports the stack it used and hands main's return value to the host as
   the exit status; the board's
   write function (ARM semihosting); and the four memory functions GCC may
   call even in -ffreestanding code (it requires memcpy, memmove, memset and
   memcmp from every environment). No libc is linked: whatever else the
   library referenced would fail the link, which is the point.
   Compile this file with -fno-tree-loop-distribute-patterns so that the
   loops below are not turned back into calls to themselves.

   Semihosting (ARM's "Semihosting for AArch32 and AArch64", v2): the
   program stops at BKPT 0xAB with the operation in r0 and a pointer to its
   arguments in r1; the debugger, or qemu with -semihosting-config
   enable=on,target=native, does the operation on the host. On a board with
   no debugger attached BKPT faults, so a real device replaces
   rfl_board_write with its UART and rfl_board_exit with a halt. */
#include <stddef.h>
#include <stdint.h>

extern uint32_t _stack_top, _data_load, _data_start, _data_end, _bss_start, _bss_end;
int main(void);
void rfl_reset(void);
void rfl_board_write(const char *s, size_t n);
void rfl_board_exit(int status);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *p, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* main's return value, for a debugger: 0 means the example succeeded. */
volatile int rfl_exit_code = -1;

enum {
	SEMI_SYS_OPEN = 0x01,          /* {name, mode, strlen(name)} -> handle */
	SEMI_SYS_WRITE = 0x05,         /* {handle, buf, len} -> bytes NOT written */
	SEMI_SYS_EXIT_EXTENDED = 0x20, /* {reason, status}: exit with a status */
	SEMI_OPEN_W = 4,               /* fopen mode "w" */
	SEMI_OPEN_A = 8,               /* fopen mode "a" */
	SEMI_APPLICATION_EXIT = 0x20026 /* ADP_Stopped_ApplicationExit */
};

static int semihost(int op, void *args) {
	register int r0 __asm__("r0") = op;
	register void *r1 __asm__("r1") = args;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static void rfl_halt(void) {
	for (;;) {
	}
}

/* ":tt" opened with mode "w" is the host's standard output, with "a" its
   standard error. */
static void semihost_write(int *handle, int mode, const char *s, size_t n) {
	uint32_t args[3];
	if (*handle < 0) {
		args[0] = (uint32_t)(uintptr_t)":tt";
		args[1] = (uint32_t)mode;
		args[2] = 3;
		*handle = semihost(SEMI_SYS_OPEN, args);
		if (*handle < 0) return;
	}
	args[0] = (uint32_t)*handle;
	args[1] = (uint32_t)(uintptr_t)s;
	args[2] = (uint32_t)n;
	semihost(SEMI_SYS_WRITE, args);
}
void rfl_board_write(const char *s, size_t n) {
	static int out = -1;
	semihost_write(&out, SEMI_OPEN_W, s, n);
}

/* Stack high-water mark: the top STACK_WATCH bytes of RAM are painted
   before main and scanned after it; the depth main reached goes to the
   host's standard error ("board: stack used N bytes"), beside the
   example's own output on standard output. */
#define STACK_WATCH 16384u
#define STACK_PAINT 0xA5A5A5A5u
static uint32_t *stack_watch_start(void) {
	/* an address computed as a number: not an offset into _stack_top */
	return (uint32_t *)((uintptr_t)&_stack_top - STACK_WATCH);
}
static __attribute__((noinline)) void stack_paint(void) {
	uint32_t *p = stack_watch_start(), *sp;
	__asm__ volatile("mov %0, sp" : "=r"(sp));
	while (p < sp - 16) *p++ = STACK_PAINT; /* stop 64 bytes below us */
}
static void stack_report(void) {
	static int err = -1;
	char msg[48] = "board: stack used ", digits[12];
	uint32_t *p = stack_watch_start(), used;
	size_t n = 18, k = 0;
	while (p < &_stack_top && *p == STACK_PAINT) p++;
	used = (uint32_t)((uintptr_t)&_stack_top - (uintptr_t)p);
	do digits[k++] = (char)('0' + used % 10u), used /= 10u; while (used);
	if (p == stack_watch_start()) msg[n++] = '>', msg[n++] = '=';
	while (k) msg[n++] = digits[--k];
	memcpy(msg + n, " bytes\n", 7);
	semihost_write(&err, SEMI_OPEN_A, msg, n + 7);
}

void rfl_board_exit(int status) {
	uint32_t args[2];
	args[0] = SEMI_APPLICATION_EXIT;
	args[1] = (uint32_t)status;
	semihost(SEMI_SYS_EXIT_EXTENDED, args);
	rfl_halt(); /* no debugger answered */
}

void rfl_reset(void) {
	uint32_t *s = &_data_load, *d = &_data_start;
#if defined(__ARM_FP)
	/* CPACR: full access to coprocessors 10 and 11 (the FPU), which are
	   off after reset; built with -mfpu the first float instruction would
	   fault otherwise. */
	*(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
	__asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
	while (d < &_data_end) *d++ = *s++;
	for (d = &_bss_start; d < &_bss_end; d++) *d = 0;
	stack_paint();
	rfl_exit_code = main();
	stack_report();
	rfl_board_exit(rfl_exit_code);
}

/* Initial stack pointer, reset, then NMI, HardFault, MemManage, BusFault,
   UsageFault: every fault just halts. Interrupts are not used. */
typedef void (*rfl_vector)(void);
__attribute__((section(".vectors"), used)) static const rfl_vector rfl_vectors[8] = {
	(rfl_vector)(uintptr_t)&_stack_top, rfl_reset, rfl_halt, rfl_halt,
	rfl_halt, rfl_halt, rfl_halt, 0};

void *memcpy(void *dst, const void *src, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	while (n--) *d++ = *s++;
	return dst;
}
void *memmove(void *dst, const void *src, size_t n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	if (d < s) {
		while (n--) *d++ = *s++;
	} else {
		d += n, s += n;
		while (n--) *--d = *--s;
	}
	return dst;
}
/* Word stores where aligned: the library clears its records (rfl_work,
   costs) often, and a byte loop was 30% of the example's instructions. */
void *memset(void *p, int c, size_t n) {
	unsigned char *d = (unsigned char *)p;
	uint32_t w = (unsigned char)c * 0x01010101u;
	while (n && ((uintptr_t)d & 3u)) *d++ = (unsigned char)c, n--;
	for (; n >= 4; n -= 4, d += 4) *(uint32_t *)(void *)d = w;
	while (n--) *d++ = (unsigned char)c;
	return p;
}
int memcmp(const void *a, const void *b, size_t n) {
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	for (; n; n--, x++, y++)
		if (*x != *y) return *x < *y ? -1 : 1;
	return 0;
}
