/* test_config.c - the OPTIONS of roofline.h, one build per combination.
   tests/run.sh builds it plain; tests/steps/portability.sh builds it again
   with ROOFLINE_STATIC, RFL_NO_STDIO, RFL_NO_CHART, RFL_NO_PNG, RFL_NO_ZOO,
   RFL_NO_REDUCE, RFL_NO_HW_TABLE, RFL_NO_ERROR_STRINGS, all of them at once, and with the
   overrides below (RFL_TEST_OVERRIDES: our own libm and memory functions,
   linked without -lm). Each check follows from the documented meaning of a
   macro; the expected numbers are derived by hand in the comments. */

#ifdef RFL_TEST_OVERRIDES
/* Route every libm call and the memory functions through our own, counted.
   Crude but adequate math: the chart only needs positions to a pixel. */
static int tc_math_calls, tc_mem_calls;
static double tc_sqrt(double x) {
	double r = x > 1 ? x : 1;
	int i;
	tc_math_calls++;
	if (!(x > 0)) return 0;
	for (i = 0; i < 200; i++) r = 0.5 * (r + x / r); /* Newton */
	return r;
}
static double tc_floor(double x) {
	double i;
	tc_math_calls++;
	if (!(x > -4e15 && x < 4e15)) return x; /* huge values are integral */
	i = (double)(long long)x;
	return i > x ? i - 1 : i;
}
static double tc_ceil(double x) { return -tc_floor(-x); }
static double tc_ln(double x) { /* x > 0: scale into [0.5, 1), then atanh series */
	double k = 0, t, t2, s = 0, p;
	int i;
	while (x >= 1) x *= 0.5, k += 1;
	while (x < 0.5) x *= 2, k -= 1;
	t = (x - 1) / (x + 1), t2 = t * t, p = t;
	for (i = 1; i < 60; i += 2) s += p / i, p *= t2;
	return 2 * s + k * 0.69314718055994531;
}
static double tc_log10(double x) {
	tc_math_calls++;
	return x > 0 ? tc_ln(x) / 2.302585092994046 : -1e308;
}
static double tc_exp(double x) {
	double r = 1, term = 1;
	int i, n = 0;
	while (x > 0.5) x *= 0.5, n++;
	while (x < -0.5) x *= 0.5, n++;
	for (i = 1; i < 30; i++) term *= x / i, r += term;
	while (n--) r *= r;
	return r;
}
static double tc_pow(double x, double y) {
	tc_math_calls++;
	if (x == 0) return 0;
	return x > 0 ? tc_exp(y * tc_ln(x)) : 0;
}
static void *tc_memset(void *p, int c, unsigned long n) {
	unsigned char *d = (unsigned char *)p;
	tc_mem_calls++;
	while (n--) *d++ = (unsigned char)c;
	return p;
}
static void *tc_memcpy(void *dst, const void *src, unsigned long n) {
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	tc_mem_calls++;
	while (n--) *d++ = *s++;
	return dst;
}
#define RFL_SQRT(x) tc_sqrt(x)
#define RFL_FLOOR(x) tc_floor(x)
#define RFL_CEIL(x) tc_ceil(x)
#define RFL_LOG10(x) tc_log10(x)
#define RFL_POW(x, y) tc_pow(x, y)
#define RFL_FABS(x) ((x) < 0 ? -(x) : (x))
#define RFL_MEMSET(p, c, n) tc_memset((p), (c), (unsigned long)(n))
#define RFL_MEMCPY(d, s, n) tc_memcpy((d), (s), (unsigned long)(n))
#endif

/* A failed assertion is counted, not fatal: the library must assert
   nothing on valid calls. */
static int tc_assert_failures;
#define RFL_ASSERT(x) ((x) ? (void)0 : (void)tc_assert_failures++)

#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"

/* What the library included, seen before the harness includes anything:
   <stdio.h> defines EOF, <math.h> HUGE_VAL. (No check for <stdlib.h>:
   GCC's <emmintrin.h>, which the reducer's SSE2 path includes, brings it;
   that no allocator is referenced is checked with nm.) */
#ifdef EOF
#define TC_HAS_STDIO 1
#else
#define TC_HAS_STDIO 0
#endif
#ifdef HUGE_VAL
#define TC_HAS_MATH 1
#else
#define TC_HAS_MATH 0
#endif

#include "rfl_test.h"

static void test_headers(void) {
#ifdef RFL_NO_STDIO
	RT_CHECK(!TC_HAS_STDIO); /* RFL_NO_STDIO: no <stdio.h> anywhere */
#endif
#if (defined(RFL_TEST_OVERRIDES) || defined(RFL_NO_CHART)) && !defined(RFL_HAS_PNG)
	RT_CHECK(!TC_HAS_MATH); /* libm only through the RFL_ macros (stb aside) */
#endif
}

static void test_version_and_errors(void) {
	int r, i, distinct = 1;
	RT_STR(rfl_version(), RFL_VERSION_STRING);
#ifdef RFL_NO_ERROR_STRINGS
	for (r = 0; r <= RFL_ERR_COUNT_; r++) /* "" for every code, never NULL */
		RT_STR(rfl_result_str((rfl_result)r), "");
	(void)i, (void)distinct;
#else
	RT_STR(rfl_result_str(RFL_OK), "ok"); /* the header's own examples */
	RT_STR(rfl_result_str(RFL_ERR_BUFFER), "buffer too small");
	for (r = 0; r < RFL_ERR_COUNT_; r++) {
		const char *s = rfl_result_str((rfl_result)r);
		RT_CHECK(s && s[0]);
		for (i = 0; i < r; i++)
			if (s && strcmp(s, rfl_result_str((rfl_result)i)) == 0) distinct = 0;
	}
	RT_CHECK(distinct);
	RT_CHECK(rfl_result_str(RFL_ERR_COUNT_) != NULL);
#endif
}

/* A machine described by its parts works in every configuration (the way
   to bring your own machine under RFL_NO_HW_TABLE). By hand: 8 cores x
   2 GHz x (256/32 = 8 lanes x 2 FMA pipes x 2) = 512 GFLOP/s FP32; 2
   channels x 3200 MT/s x 8 bytes = 51.2 GB/s; ridge 10 FLOP/byte. */
static rfl_machine cpu;
static void test_machines(void) {
	rfl_cpu_desc d;
	const rfl_machine *m = NULL;
	memset(&d, 0, sizeof d);
	d.cores = 8, d.ghz = 2, d.simd_bits = 256, d.fma_pipes = 2;
	d.mem_channels = 2, d.mts = 3200;
	RT_EQ_INT(rfl_machine_from_cpu(&d, &cpu), RFL_OK);
	RT_NEAR(cpu.peak_flops[RFL_FP32], 512e9, 1e-12);
	RT_NEAR(cpu.bw_bytes_per_s[RFL_DRAM], 51.2e9, 1e-12);
	RT_NEAR(rfl_ridge(&cpu, RFL_FP32, RFL_DRAM), 10, 1e-12);
#ifdef RFL_NO_HW_TABLE
	RT_EQ_INT(rfl_hw_count(), 0); /* the lookups find nothing */
	RT_CHECK(rfl_hw_get(0) == NULL);
	RT_EQ_INT(rfl_hw_find("a100", &m), RFL_ERR_UNKNOWN_NAME);
#else
	RT_EQ_INT(rfl_hw_count(), RFL_HW_COUNT);
	RT_EQ_INT(rfl_hw_find("a100", &m), RFL_OK);
	RT_STR(m ? m->id : NULL, "a100-sxm4-40gb");
	/* A100 datasheet: 19.5 TFLOPS FP32, 1,555 GB/s (40 GB HBM2) */
	if (m) RT_NEAR(m->peak_flops[RFL_FP32], 19.5e12, 1e-9);
	if (m) RT_NEAR(m->bw_bytes_per_s[RFL_DRAM], 1555e9, 1e-9);
#endif
}

/* The CNN of examples/embedded.c. By hand (2 FLOPs per multiply-add, no
   bias): conv1 2 x 16x32x32 x 3x3x3 = 884,736; conv2 2 x 32x16x16 x
   16x3x3 = 2,359,296; linear 2 x 32 x 10 = 640. */
static void test_layers(void) {
	static rfl_layer rec[16];
	rfl_net net;
	rfl_tensor x;
	rfl_cost_desc d;
	rfl_net_cost c;
	RT_EQ_INT(rfl_net_init(&net, rec, 16, NULL, 0), RFL_OK);
#ifdef RFL_TEST_OVERRIDES
	RT_CHECK(tc_mem_calls > 0); /* RFL_MEMSET is the library's memset */
#endif
	x = rfl_input(&net, 3, 32, 32);
	x = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 16, 3, 1, 1)), RFL_ACT_RELU);
	x = rfl_maxpool(&net, x, 2, 2, 0, 0);
	x = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 32, 3, 1, 1)), RFL_ACT_RELU);
	x = rfl_maxpool(&net, x, 2, 2, 0, 0);
	x = rfl_flatten(&net, rfl_adaptive_avgpool(&net, x, 1, 1));
	rfl_linear(&net, x, 10, 1);
	RT_EQ_INT(net.err.code, RFL_OK);
	memset(&d, 0, sizeof d);
	d.batch = 2;
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.fwd_mac_flops, 2u * (884736u + 2359296u + 640u));
}

/* Numbers: our own formatting and parsing, in every configuration. */
static void test_numbers(void) {
	char buf[32];
	double v = 0;
	RT_CHECK(rfl_fmt_num(buf, sizeof buf, 1234.5, 6) > 0);
	RT_STR(buf, "1234.5");
	RT_EQ_INT(rfl_parse_num("-12.5e3", 7, &v), RFL_OK);
	RT_NEAR(v, -12500, 0);
}

static void test_zoo(void) {
#ifndef RFL_NO_ZOO
	static rfl_layer rec[RFL_ZOO_MAX_LAYERS];
	static char names[RFL_ZOO_NAMES_SIZE];
	rfl_net net;
	rfl_cost_desc d;
	rfl_net_cost c;
	RT_CHECK(rfl_zoo_count() >= 12);
	rfl_net_init(&net, rec, RFL_ZOO_MAX_LAYERS, names, sizeof names);
	RT_EQ_INT(rfl_zoo_build(&net, "resnet18", 224), RFL_OK);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_net_cost_get(&net, &d, &c), RFL_OK);
	RT_EQ_U64(c.params, 11689512u); /* torchvision's published count */
#else
#ifdef RFL_ZOO_MAX_LAYERS
	RT_CHECK(!"RFL_NO_ZOO left the zoo's macros declared");
#endif
#endif
}

/* RFL_NO_REDUCE (issue 16): the reducer's API is gone with its macros. By
   the manual: the default scratch is a 256-byte carry + 3 bytes for each of
   8,192 columns = 24,832, plus the inflater's 48 KiB (49,152) and 16 bytes
   to align it (gzip input, issue 36) = 74,000; an empty input is
   RFL_ERR_EMPTY. */
static void test_reduce(void) {
#ifndef RFL_NO_REDUCE
	static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
	static rfl_reduce_state st;
	static rfl_reduce_result res;
	rfl_reduce_desc d;
	RT_EQ_U64(sizeof scratch, 256u + 3u * 8192u + 49152u + 16u);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_reduce_init(&st, &d, scratch, sizeof scratch), RFL_OK);
	RT_EQ_INT(rfl_reduce_finish(&st, &res), RFL_ERR_EMPTY);
#else
#ifdef RFL_REDUCE_SCRATCH_DEFAULT
	RT_CHECK(!"RFL_NO_REDUCE left the reducer's macros declared");
#endif
#endif
}

static void test_chart(void) {
#ifndef RFL_NO_CHART
	enum { W = 96, H = 64 };
	static unsigned char px[W * H * 3];
	static char text[RFL_ASCII_BYTES(40, 12)];
	rfl_canvas cv;
	rfl_roofline_desc d;
	const rfl_machine *ms[1];
	int i, drawn = 0;
	ms[0] = &cpu;
	memset(&d, 0, sizeof d);
	d.machines = ms, d.n_machines = 1;
	RT_EQ_INT(rfl_canvas_init(&cv, px, sizeof px, W, H, 3, 0), RFL_OK);
	RT_EQ_INT(rfl_chart_roofline(&cv, &d), RFL_OK);
	for (i = 0; i < W * H * 3; i++) drawn += px[i] != 255;
	RT_CHECK(drawn > 0); /* something but white */
	RT_EQ_INT(rfl_chart_roofline_ascii(text, sizeof text, 40, 12, &d), RFL_OK);
	RT_CHECK(strchr(text, '/') != NULL); /* the sloped roof */
#ifdef RFL_TEST_OVERRIDES
	RT_CHECK(tc_math_calls > 0); /* the chart's libm goes through RFL_ */
#endif
#ifdef RFL_HAS_PNG
	{
		static unsigned char arena[RFL_PNG_ARENA_BYTES(W, H, 3)], png[65536];
		size_t len = 0;
		RT_EQ_INT(rfl_png_encode(&cv, arena, sizeof arena, png, sizeof png, &len), RFL_OK);
		RT_CHECK(len > 8 && png[0] == 0x89 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
	}
#endif
#endif
#if defined(RFL_NO_PNG) || defined(RFL_NO_CHART)
#ifdef RFL_HAS_PNG
	RT_CHECK(!"RFL_NO_PNG / RFL_NO_CHART left PNG output in");
#endif
#endif
}

int main(void) {
	test_headers();
	test_version_and_errors();
	test_machines();
	test_layers();
	test_numbers();
	test_zoo();
	test_reduce();
	test_chart();
	RT_EQ_INT(tc_assert_failures, 0);
	return rt_done();
}
