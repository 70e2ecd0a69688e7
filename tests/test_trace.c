/* PyTorch profiler traces through the reducer, and the inflater.
   tests/data/trace/small.json is written by hand; every expected number
   below is derived by hand from its text (the derivations are beside the
   checks). The .gz / .deflate / .zlib copies come from Debian's gzip and
   Python's zlib (independent encoders). */
#define RFL_NO_CHART
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static rfl_reduce_state st;
static rfl_reduce_result res;
static uint64_t rng = 88172645463325252ull;
static size_t next_rand(size_t m) {
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (size_t)(rng % m);
}
static char *load(const char *name, size_t *len) { return rt_load("tests/data/trace", name, len); }

/* mode 0: whole; 1: every byte alone; 2: random splits */
static rfl_result reduce_mode(const void *b, size_t n, const rfl_reduce_desc *d, int mode) {
	const unsigned char *p = (const unsigned char *)b;
	size_t i = 0, k;
	rfl_result e = rfl_reduce_init(&st, d, scratch, sizeof scratch);
	if (e) return e;
	while (i < n) {
		k = mode == 0 ? n - i : mode == 1 ? 1 : 1 + next_rand(97);
		if (k > n - i) k = n - i;
		if ((e = rfl_reduce_push(&st, p + i, k)) != RFL_OK) return e;
		i += k;
	}
	return rfl_reduce_finish(&st, &res);
}

static void check_whole(const char *what) {
	const rfl_reduce_trace *t = &res.trace;
	printf("  %s\n", what);
	RT_EQ_INT(res.format, RFL_CSV_PYTORCH_TRACE);
	RT_STR(rfl_reduce_format_name(res.format), "pytorch_trace");
	RT_STR(res.device, "NVIDIA H200");
	/* five "cat": "kernel" events; dur 2.304 + 3 + 1.001 + 10.125 + 0.0005 us
	   = 2304 + 3000 + 1001 + 10125 + 1 ns (0.5 ns rounds half up) */
	RT_EQ_U64(res.kernels, 5);
	RT_EQ_U64(res.total.time_ns, 16431);
	RT_CHECK(res.total.work.unknown & RFL_UNKNOWN_FLOPS(RFL_FP32));
	RT_CHECK(res.total.work.unknown & RFL_UNKNOWN_BYTES(RFL_DRAM));
	RT_CHECK(!(res.total.work.unknown & RFL_UNKNOWN_TIME));
	RT_EQ_U64(t->events, 13); /* 13 objects in traceEvents */
	RT_EQ_U64(t->steps_seen, 2); /* the CPU annotations; not the gpu_user_annotation */
	RT_EQ_U64(t->memcpy_count, 1);
	RT_EQ_U64(t->memcpy_ns, 1500);
	RT_EQ_U64(t->memset_count, 1);
	RT_EQ_U64(t->memset_ns, 750);
	/* starts/ends in ns: [1010500,1012804] [1012000,1015000] [1013000,1014001]
	   [1110250,1120375] [1200000,1200001]: union 4500 + 10125 + 1 */
	RT_EQ_U64(t->busy_ns, 14626);
	RT_EQ_U64(t->first_ns, 1010500);
	RT_EQ_U64(t->span_ns, 1200001 - 1010500);
	RT_EQ_INT(t->busy_upper_bound, 0);
	/* streams by first kernel: 7 (sgemm, add, ampere, foo), 8 (bn) */
	RT_EQ_INT(t->stream_count, 2);
	RT_EQ_INT(t->streams[0].stream, 7);
	RT_EQ_U64(t->streams[0].kernels, 4);
	RT_EQ_U64(t->streams[0].time_ns, 2304 + 1001 + 10125 + 1);
	RT_EQ_INT(t->streams[1].stream, 8);
	RT_EQ_U64(t->streams[1].time_ns, 3000);
	/* classes: two sgemm (gemm), bn_ (norm), vectorized add (elementwise), foo (other) */
	RT_EQ_U64(t->class_kernels[RFL_KC_GEMM], 2);
	RT_EQ_U64(t->class_ns[RFL_KC_GEMM], 2304 + 10125);
	RT_EQ_U64(t->class_ns[RFL_KC_NORM], 3000);
	RT_EQ_U64(t->class_ns[RFL_KC_ELEMENTWISE], 1001);
	RT_EQ_U64(t->class_ns[RFL_KC_OTHER], 1);
	/* top: 10125, 3000, 2304, 1001, 1; id = args "correlation" */
	RT_EQ_INT(res.top_count, 5);
	RT_STR(res.top[0].name, "ampere_sgemm_64x64_tn");
	RT_EQ_U64(res.top[0].id, 21);
	RT_EQ_U64(res.top[1].time_ns, 3000);
	RT_STR(res.top[4].name, "void foo<\"x\">\xc3\xa9\n"); /* escapes decoded */
	/* busy 14626 of 189501 ns: host-bound */
	RT_EQ_INT(res.warning_count, 1);
	RT_STR(rfl_warn_code(res.warnings[0].code), "host_bound");
}

static void test_small(void) {
	size_t n, gn;
	char *b = load("small.json", &n), *g = load("small.json.gz", &gn);
	int mode;
	RT_CHECK(b && g);
	if (!b || !g) return;
	for (mode = 0; mode < 3; mode++) {
		RT_EQ_INT(reduce_mode(b, n, 0, mode), RFL_OK);
		check_whole(mode == 0 ? "small.json whole" : mode == 1 ? "small.json byte by byte" : "small.json random splits");
		RT_EQ_INT(reduce_mode(g, gn, 0, mode), RFL_OK);
		check_whole(mode == 0 ? "small.json.gz whole" : mode == 1 ? "small.json.gz byte by byte" : "small.json.gz random");
	}
}

static void test_steps(void) {
	size_t n;
	char *b = load("small.json", &n);
	rfl_reduce_desc d;
	if (!b) return;
	memset(&d, 0, sizeof d);
	d.use_step = 1, d.step = 1;
	/* step 1: [1000000, 1100000): sgemm, bn, add; the memcpy at 1005000 */
	RT_EQ_INT(reduce_mode(b, n, &d, 1), RFL_OK);
	RT_EQ_U64(res.kernels, 3);
	RT_EQ_U64(res.kernels_seen, 5);
	RT_EQ_U64(res.total.time_ns, 2304 + 3000 + 1001);
	RT_EQ_U64(res.trace.busy_ns, 4500);
	RT_EQ_U64(res.trace.span_ns, 4500);
	RT_EQ_U64(res.trace.memcpy_count, 1);
	RT_EQ_U64(res.trace.memset_count, 0);
	RT_EQ_INT(res.trace.step_selected, 1);
	RT_EQ_INT(res.warning_count, 0); /* busy the whole span */
	/* step 2: from 1100000 on (no step 3): ampere, foo; the memset */
	d.step = 2;
	RT_EQ_INT(reduce_mode(b, n, &d, 2), RFL_OK);
	RT_EQ_U64(res.kernels, 2);
	RT_EQ_U64(res.total.time_ns, 10126);
	RT_EQ_U64(res.trace.span_ns, 1200001 - 1110250);
	RT_EQ_U64(res.trace.memset_ns, 750);
	d.step = 3;
	RT_EQ_INT(reduce_mode(b, n, &d, 0), RFL_ERR_NO_DATA);
	RT_CHECK(strstr(st.err.msg, "ProfilerStep#3") != 0);
}

/* The same bytes from three other encoders' streams, through rfl_inflate. */
static unsigned char outb[8192];
static size_t outn;
static rfl_result collect(void *u, const unsigned char *p, size_t n) {
	(void)u;
	if (outn + n > sizeof outb) return RFL_ERR_BUFFER;
	memcpy(outb + outn, p, n);
	outn += n;
	return RFL_OK;
}
static unsigned char zmem[RFL_INFLATE_MEM_SIZE];
static rfl_inflate z;
static rfl_result inflate_mode(const void *b, size_t n, rfl_inflate_kind kind, int mode) {
	const unsigned char *p = (const unsigned char *)b;
	size_t i = 0, k;
	rfl_result e;
	outn = 0;
	if ((e = rfl_inflate_init(&z, kind, zmem, sizeof zmem, collect, 0)) != RFL_OK) return e;
	while (i < n) {
		k = mode == 0 ? n - i : mode == 1 ? 1 : 1 + next_rand(13);
		if (k > n - i) k = n - i;
		if ((e = rfl_inflate_push(&z, p + i, k)) != RFL_OK) return e;
		i += k;
	}
	return rfl_inflate_finish(&z);
}

static void test_inflate(void) {
	size_t n, fn, sn, gn;
	char *b = load("small.json", &n), *f = load("small.fixed.deflate", &fn), *s = load("small.stored.zlib", &sn),
		 *g = load("small.json.gz", &gn);
	/* by hand: gzip header (no flags), one final stored block of "hello"
	   (01, LEN 5, NLEN ~5), CRC-32("hello") = 0x3610a686, ISIZE 5 */
	static const unsigned char hello[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 5, 0, 0xfa, 0xff,
										  'h', 'e', 'l', 'l', 'o', 0x86, 0xa6, 0x10, 0x36, 5, 0, 0, 0};
	/* by hand: raw deflate, one final fixed block: 'a' (0x61 -> code 0x30 + 0x61
	   = 10010001, 8 bits), then end-of-block (0000000, 7 bits); bits LSB first:
	   1 (final), 10 (type 1 as 01 read LSB first: 1 then 0), the literal's code
	   MSB first, then 7 zeros: bytes 0x4b 0x04 0x00 */
	static const unsigned char fixed_a[] = {0x4b, 0x04, 0x00};
	unsigned char bad[sizeof hello];
	int mode;
	if (!b || !f || !s || !g) { RT_CHECK(0); return; }
	for (mode = 0; mode < 3; mode++) {
		RT_EQ_INT(inflate_mode(f, fn, RFL_INFLATE_RAW, mode), RFL_OK);
		RT_CHECK(outn == n && memcmp(outb, b, n) == 0);
		RT_EQ_INT(inflate_mode(s, sn, RFL_INFLATE_ZLIB, mode), RFL_OK);
		RT_CHECK(outn == n && memcmp(outb, b, n) == 0);
		RT_EQ_INT(inflate_mode(g, gn, RFL_INFLATE_GZIP, mode), RFL_OK);
		RT_CHECK(outn == n && memcmp(outb, b, n) == 0);
		RT_EQ_INT(inflate_mode(hello, sizeof hello, RFL_INFLATE_GZIP, mode), RFL_OK);
		RT_CHECK(outn == 5 && memcmp(outb, "hello", 5) == 0);
	}
	RT_EQ_INT(inflate_mode(fixed_a, sizeof fixed_a, RFL_INFLATE_RAW, 0), RFL_OK);
	RT_CHECK(outn == 1 && outb[0] == 'a');
	/* a wrong CRC: the check fails at the trailer (byte 20) */
	memcpy(bad, hello, sizeof bad);
	bad[20] ^= 1;
	RT_EQ_INT(inflate_mode(bad, sizeof bad, RFL_INFLATE_GZIP, 0), RFL_ERR_FORMAT);
	RT_CHECK(strstr(z.err.msg, "CRC-32") != 0);
	/* NLEN not ~LEN */
	memcpy(bad, hello, sizeof bad);
	bad[13] = 0;
	RT_EQ_INT(inflate_mode(bad, sizeof bad, RFL_INFLATE_GZIP, 1), RFL_ERR_FORMAT);
	/* truncated anywhere: RFL_ERR_TRUNCATED, never a crash */
	for (n = 0; n < sizeof hello; n++) {
		rfl_result e = inflate_mode(hello, n, RFL_INFLATE_GZIP, 0);
		if (!RT_CHECK(e == RFL_ERR_TRUNCATED)) printf("     cut at %u: %d\n", (unsigned)n, (int)e);
	}
	RT_EQ_INT(inflate_mode(g, gn - 3, RFL_INFLATE_GZIP, 2), RFL_ERR_TRUNCATED);
	RT_CHECK(strstr(z.err.msg, "byte ") != 0);
	/* two members in a row: both */
	{
		unsigned char two[2 * sizeof hello];
		memcpy(two, hello, sizeof hello), memcpy(two + sizeof hello, hello, sizeof hello);
		RT_EQ_INT(inflate_mode(two, sizeof two, RFL_INFLATE_GZIP, 1), RFL_OK);
		RT_CHECK(outn == 10 && memcmp(outb, "hellohello", 10) == 0);
	}
}

static void test_errors(void) {
	size_t n, gn, i;
	char *b = load("small.json", &n), *c = load("cpu_only.json", &i), *g = load("small.json.gz", &gn);
	static char deep[200], big[300000];
	rfl_result e;
	if (!b || !c || !g) { RT_CHECK(0); return; }
	RT_EQ_INT(reduce_mode(c, i, 0, 0), RFL_ERR_NO_DATA);
	RT_CHECK(strstr(st.err.msg, "CPU-only") != 0);
	/* truncated anywhere after the '{': an error, never a crash or success */
	for (i = 1; i < n - 1; i += 7) {
		e = reduce_mode(b, i, 0, 0);
		if (!RT_CHECK(e != RFL_OK)) printf("     cut at %u\n", (unsigned)i);
	}
	e = reduce_mode(b, n - 3, 0, 0);
	RT_EQ_INT(e, RFL_ERR_TRUNCATED);
	RT_EQ_U64(st.err.offset, n - 3);
	/* a gzip cut short */
	RT_EQ_INT(reduce_mode(g, gn / 2, 0, 1), RFL_ERR_TRUNCATED);
	RT_CHECK(strstr(st.err.msg, "compressed") != 0);
	/* deep nesting: 100 '[' inside an event's args */
	strcpy(deep, "{\"traceEvents\": [{\"args\": ");
	for (i = strlen(deep); i < 130; i++) deep[i] = '[';
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_FORMAT);
	RT_EQ_U64(st.err.offset, 26 + 61); /* the 65th container opens at byte 87 */
	/* wrong types */
	strcpy(deep, "{\"traceEvents\": {}}");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_FORMAT);
	RT_EQ_U64(st.err.offset, 16);
	strcpy(deep, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": \"1\", \"dur\": 2}]}");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_NUMBER);
	RT_EQ_U64(st.err.offset, 52);
	strcpy(deep, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 1, \"dur\": -2}]}");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_NUMBER);
	strcpy(deep, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 1}]}");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_MISSING);
	RT_EQ_U64(st.err.offset, 17);
	strcpy(deep, "{\"traceEvents\": [1]}");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_FORMAT);
	strcpy(deep, "{\"traceEvents\": [] } x");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_SYNTAX);
	RT_EQ_U64(st.err.offset, 21);
	strcpy(deep, "{\"other\": []}");
	RT_EQ_INT(reduce_mode(deep, strlen(deep), 0, 0), RFL_ERR_MISSING);
	/* a 299,000-byte kernel name: kept cut to 255 bytes, flagged */
	i = (size_t)sprintf(big, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 5, \"dur\": 1.5, \"name\": \"");
	memset(big + i, 'k', 299000 - i);
	strcpy(big + 299000, "\"}]}");
	RT_EQ_INT(reduce_mode(big, strlen(big), 0, 2), RFL_OK);
	RT_EQ_U64(res.total.time_ns, 1500);
	RT_EQ_U64(strlen(res.top[0].name), RFL_REDUCE_NAME_MAX - 1);
	RT_CHECK(res.top[0].flags & RFL_REDUCE_NAME_TRUNCATED);
}

/* Real traces from an H200 (helper "capture", torch 2.11, tests/data/trace/
   *.truth.json: json.load of each trace, kernel ns = sum of round(dur*1000);
   the step's kernels start inside its CPU ProfilerStep window). Values
   typed from those files. */
typedef struct truth_step { uint64_t kernels, ns, memsets, memset_ns; } truth_step;
typedef struct truth {
	const char *file;
	uint64_t kernels, ns, memsets, memset_ns;
	truth_step step[3]; /* ProfilerStep#2, #3, #4 */
} truth;
static const truth truths[] = {
	{"resnet18-b1-train-fp32.json.gz", 885, 4309485, 54, 48895,
	 {{295, 1436207, 18, 16383}, {295, 1438827, 18, 16318}, {295, 1434451, 18, 16194}}},
	{"resnet50-b32-train-bf16.json.gz", 2820, 43089428, 63, 88254,
	 {{940, 14359748, 21, 29724}, {940, 14358311, 21, 29376}, {940, 14371369, 21, 29154}}},
	{"llama-3.2-1b-decode-b1-s512-bf16.json.gz", 2082, 5957317, 3, 2623,
	 {{694, 1988980, 1, 896}, {694, 1983045, 1, 863}, {694, 1985292, 1, 864}}},
};
static void test_real(void) {
	size_t n, i, s;
	rfl_reduce_desc d;
	for (i = 0; i < sizeof truths / sizeof truths[0]; i++) {
		const truth *t = &truths[i];
		char *b = load(t->file, &n);
		printf("  %s\n", t->file);
		if (!RT_CHECK(b != 0)) continue;
		RT_EQ_INT(reduce_mode(b, n, 0, i == 0 ? 2 : 0), RFL_OK);
		RT_EQ_U64(res.kernels, t->kernels);
		RT_EQ_U64(res.total.time_ns, t->ns);
		RT_EQ_U64(res.trace.memcpy_count, 0);
		RT_EQ_U64(res.trace.memset_count, t->memsets);
		RT_EQ_U64(res.trace.memset_ns, t->memset_ns);
		RT_EQ_U64(res.trace.steps_seen, 3);
		RT_STR(res.device, "NVIDIA H200");
		memset(&d, 0, sizeof d);
		d.use_step = 1;
		for (s = 0; s < 3; s++) {
			d.step = 2 + s;
			RT_EQ_INT(reduce_mode(b, n, &d, 0), RFL_OK);
			RT_EQ_U64(res.kernels, t->step[s].kernels);
			RT_EQ_U64(res.total.time_ns, t->step[s].ns);
			RT_EQ_U64(res.trace.memset_count, t->step[s].memsets);
			RT_EQ_U64(res.trace.memset_ns, t->step[s].memset_ns);
		}
		free(b);
	}
}

int main(void) {
	test_real();
	test_small();
	test_steps();
	test_inflate();
	test_errors();
	return rt_done();
}
