/* Minimal Cortex-M4 start-up for the bare-metal build of examples/embedded.c
   (tests/steps/portability.sh, make size): a vector table, a reset handler
   that sets up .data and .bss and calls main, and the four memory functions
   GCC may call even in -ffreestanding code (it requires memcpy, memmove,
   memset and memcmp from every environment). No libc is linked: whatever
   else the library referenced would fail the link, which is the point.
   Compile this file with -fno-tree-loop-distribute-patterns so that the
   loops below are not turned back into calls to themselves. */
#include <stddef.h>
#include <stdint.h>

extern uint32_t _stack_top, _data_load, _data_start, _data_end, _bss_start, _bss_end;
int main(void);
void rfl_reset(void);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *p, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* main's return value, for a debugger: 0 means the example succeeded. */
volatile int rfl_exit_code = -1;

static void rfl_halt(void) {
    for (;;) {
    }
}

void rfl_reset(void) {
    uint32_t *s = &_data_load, *d = &_data_start;
    while (d < &_data_end) *d++ = *s++;
    for (d = &_bss_start; d < &_bss_end; d++) *d = 0;
    rfl_exit_code = main();
    rfl_halt();
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
void *memset(void *p, int c, size_t n) {
    unsigned char *d = (unsigned char *)p;
    while (n--) *d++ = (unsigned char)c;
    return p;
}
int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (; n; n--, x++, y++)
        if (*x != *y) return *x < *y ? -1 : 1;
    return 0;
}
