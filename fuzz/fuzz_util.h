/* fuzz_util.h - shared by the harnesses: a reader that turns the fuzzer's
   bytes into parameters (running out of bytes gives zeros, never a read
   past the input), and FZ_CHECK, which reports a broken property and
   aborts so that libFuzzer records the input as a finding. Test code
   only: libc is fine here. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_in {
	const uint8_t *p;
	size_t n, i;
} fz_in;

static void fz_init(fz_in *in, const uint8_t *p, size_t n) {
	in->p = p;
	in->n = n;
	in->i = 0;
}
static size_t fz_left(const fz_in *in) { return in->n - in->i; }
static uint8_t fz_u8(fz_in *in) { return in->i < in->n ? in->p[in->i++] : 0; }
static uint32_t fz_u32(fz_in *in) {
	uint32_t v = 0;
	int k;
	for (k = 0; k < 4; k++) v = (v << 8) | fz_u8(in);
	return v;
}
static uint64_t fz_u64(fz_in *in) {
	uint64_t v = (uint64_t)fz_u32(in) << 32;
	return v | fz_u32(in);
}
static double fz_bits(fz_in *in) {
	uint64_t u = fz_u64(in);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}
/* A value in [0, lim] with small numbers, powers of two and the edges
   (0, 1, lim) much more likely than uniform bytes would make them. */
static uint64_t fz_range(fz_in *in, uint64_t lim) {
	uint8_t k = fz_u8(in);
	uint64_t v;
	switch (k & 7) {
	case 0: return 0;
	case 1: return lim < 1 ? lim : 1;
	case 2: return lim;
	case 3: v = (uint64_t)1 << (fz_u8(in) % 64); return v > lim ? lim : v;
	case 4: v = fz_u8(in); return v > lim ? lim : v;
	case 5: v = ((uint64_t)1 << (fz_u8(in) % 64)) - 1; return v > lim ? lim : v;
	default: v = fz_u64(in); return lim == UINT64_MAX ? v : v % (lim + 1);
	}
}
/* A double that is often special: NaN, +-inf, 0, -0, negative, tiny, huge. */
static double fz_double(fz_in *in) {
	uint8_t k = fz_u8(in);
	switch (k % 12) {
	case 0: return 0.0;
	case 1: return -0.0;
	case 2: return 1.0 / 0.0;
	case 3: return -1.0 / 0.0;
	case 4: return 0.0 / 0.0;
	case 5: return 1e-300;
	case 6: return 1e300;
	case 7: return -(double)fz_u8(in);
	case 8: return 4.9e-324;
	case 9: return (double)fz_u32(in);
	default: return fz_bits(in);
	}
}

#define FZ_CHECK(c)                                                           \
	do {                                                                      \
		if (!(c)) {                                                           \
			fprintf(stderr, "fuzz check failed %s:%d: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                          \
		}                                                                     \
	} while (0)
#endif
