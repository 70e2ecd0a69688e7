/* fuzz_inflate.c - rfl_inflate (gzip, zlib, raw deflate) on arbitrary
   bytes. Input: 1 config byte (bits 0-1: the container; bits 2-7: the
   seed of the chunk sizes), then the compressed bytes.
   Properties: no crash, no UB, no access outside mem or the input; pushed
   in random chunks (byte by byte when small) the output (length and a
   hash) and the error (code, offset, message) are the one-shot's; an error
   offset lies inside the input; output never exceeds 1032 bytes per input
   byte (deflate's largest expansion) plus a block. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

typedef struct sink { uint64_t n, h; } sink;
static rfl_result out(void *user, const unsigned char *p, size_t n) {
	sink *s = (sink *)user;
	size_t i;
	for (i = 0; i < n; i++) s->h = (s->h ^ p[i]) * 0x100000001B3ull;
	s->n += n;
	return RFL_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	static unsigned char mem_a[RFL_INFLATE_MEM_SIZE], mem_b[RFL_INFLATE_MEM_SIZE];
	static rfl_inflate a, b;
	sink sa = {0, 14695981039346656037ull}, sb = {0, 14695981039346656037ull};
	uint8_t c0 = size ? data[0] : 0;
	rfl_inflate_kind kind = (rfl_inflate_kind)((c0 & 3) % 3);
	const uint8_t *p = data + (size ? 1 : 0);
	size_t len = size ? size - 1 : 0, pos;
	uint32_t seed = 0x9E3779B9u ^ c0 ^ (uint32_t)len;
	rfl_result e1, e2;
	FZ_CHECK(rfl_inflate_init(&a, kind, mem_a, sizeof mem_a, out, &sa) == RFL_OK);
	e1 = rfl_inflate_push(&a, p, len);
	if (e1 == RFL_OK) e1 = rfl_inflate_finish(&a);
	if (e1 != RFL_OK) {
		FZ_CHECK(a.err.code == e1 && a.err.offset <= len);
		FZ_CHECK(memchr(a.err.msg, 0, sizeof a.err.msg) != NULL);
	}
	FZ_CHECK(sa.n <= 1032 * (uint64_t)len + 32768);
	FZ_CHECK(rfl_inflate_init(&b, kind, mem_b, sizeof mem_b, out, &sb) == RFL_OK);
	e2 = RFL_OK;
	for (pos = 0; pos < len && e2 == RFL_OK;) {
		size_t n;
		seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
		n = len <= 1024 && (c0 & 4) ? 1 : 1 + (seed >> 8) % 300;
		if (n > len - pos) n = len - pos;
		{
			unsigned char *chunk = (unsigned char *)malloc(n);
			memcpy(chunk, p + pos, n);
			e2 = rfl_inflate_push(&b, chunk, n);
			free(chunk);
		}
		pos += n;
	}
	if (e2 == RFL_OK) e2 = rfl_inflate_finish(&b);
	FZ_CHECK(e1 == e2);
	if (e1 != RFL_OK) FZ_CHECK(a.err.offset == b.err.offset && strcmp(a.err.msg, b.err.msg) == 0);
	else FZ_CHECK(sa.n == sb.n && sa.h == sb.h);
	return 0;
}
