/* Core: work record, roofline math, machine lookup, CPU formula, numbers.
   Expected values are hand derivations and datasheet figures, written here. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

static void test_version_and_errors(void) {
	RT_STR(rfl_version(), RFL_VERSION_STRING);
#ifndef RFL_NO_ERROR_STRINGS /* then every string is "" (tests/test_config.c) */
	RT_STR(rfl_result_str(RFL_OK), "ok");
	RT_CHECK(strlen(rfl_result_str(RFL_ERR_BUFFER)) > 0);
	/* the texts are a table in rfl_result's order: a code added without
	   its text, or in another place, moves these */
	RT_STR(rfl_result_str(RFL_ERR_SYNTAX), "malformed input (syntax)");
	RT_STR(rfl_result_str(RFL_ERR_GRAPH), "invalid graph");
	RT_STR(rfl_result_str(RFL_ERR_COUNT_), "unknown error");
#endif
	RT_CHECK(rfl_result_str((rfl_result)999) != 0);
}

static void test_lookup(void) {
	const rfl_machine *m = 0;
	char sug[128];
	RT_EQ_INT(rfl_hw_find("a100", &m), RFL_OK);
	RT_STR(m->id, "a100-sxm4-40gb");
	RT_EQ_INT(rfl_hw_find("A100_SXM4 40GB", &m), RFL_OK);
	RT_STR(m->id, "a100-sxm4-40gb");
	RT_EQ_INT(rfl_hw_find("V-100", &m), RFL_OK);
	RT_STR(m->id, "v100-sxm2");
	RT_EQ_INT(rfl_hw_find("h100", &m), RFL_OK);
	RT_STR(m->id, "h100-sxm");
	RT_EQ_INT(rfl_hw_find("no-such-gpu", &m), RFL_ERR_UNKNOWN_NAME);
	RT_CHECK(m == 0);
	RT_EQ_INT(rfl_hw_find(0, &m), RFL_ERR_ARG);
	RT_CHECK(rfl_hw_suggest("a10O", 2, sug, sizeof sug) == 2);
	RT_CHECK(strstr(sug, "a100-sxm4-40gb") != 0);
	/* a tiny buffer never overflows */
	RT_CHECK(rfl_hw_suggest("a100", 3, sug, 4) == 0 && sug[0] == 0);
	RT_CHECK(rfl_hw_get(-1) == 0 && rfl_hw_get(rfl_hw_count()) == 0);
}

static void test_ridge_and_attainable(void) {
	const rfl_machine *a100, *v100;
	rfl_hw_find("a100", &a100);
	rfl_hw_find("v100", &v100);
	/* datasheets: 19.5e12 / 1555e9 = 12.540 ; 15.7e12 / 900e9 = 17.444 */
	RT_NEAR(rfl_ridge(a100, RFL_FP32, RFL_DRAM), 12.540192926, 1e-9);
	RT_NEAR(rfl_ridge(v100, RFL_FP32, RFL_DRAM), 17.444444444, 1e-9);
	RT_EQ_INT(rfl_ridge(v100, RFL_TF32_TENSOR, RFL_DRAM) == 0, 1); /* no TF32 on Volta */
	/* below the ridge: AI x BW; above: the peak */
	RT_NEAR(rfl_attainable(a100, RFL_FP32, RFL_DRAM, 3.17), 3.17 * 1555e9, 1e-12);
	RT_NEAR(rfl_attainable(a100, RFL_FP32, RFL_DRAM, 34.56), 19.5e12, 1e-12);
	RT_EQ_INT(rfl_attainable(v100, RFL_BF16_TENSOR, RFL_DRAM, 100) == 0, 1);
	RT_EQ_INT(rfl_attainable(a100, RFL_FP32, RFL_DRAM, 0.0 / 0.0) == 0, 1);
}

static void test_work(void) {
	const rfl_machine *a100;
	rfl_work w;
	rfl_bound b;
	rfl_prediction pr;
	double f;
	rfl_hw_find("a100", &a100);
	memset(&w, 0, sizeof w);
	/* the reports' A100 ResNet-18 measurement */
	w.flops[RFL_FP32] = 1214372889;
	w.bytes[RFL_DRAM] = 383364864;
	w.time_s = 0.003621;
	RT_NEAR(rfl_work_ai(&w, RFL_DRAM), 1214372889.0 / 383364864.0, 1e-15);
	RT_NEAR(rfl_work_ai(&w, RFL_DRAM), 3.1677, 1e-4);
	f = rfl_work_attainable(a100, &w, RFL_FP32, &b);
	RT_NEAR(f, 1214372889.0 / 383364864.0 * 1555e9, 1e-12);
	RT_EQ_INT(b.memory, 1);
	RT_EQ_INT(b.level, RFL_DRAM);
	/* predicted: memory 383364864 / 1555e9 = 246.5 us > compute 62.3 us */
	RT_EQ_INT(rfl_predict(a100, &w, &pr), RFL_OK);
	RT_NEAR(pr.memory_s, 383364864.0 / 1555e9, 1e-12);
	RT_NEAR(pr.compute_s, 1214372889.0 / 19.5e12, 1e-12);
	RT_NEAR(pr.time_s, pr.memory_s, 0);
	RT_EQ_INT(pr.bound.memory, 1);
	/* fraction: 335.4 GFLOP/s achieved of 4.926 TFLOP/s attainable */
	RT_EQ_INT(rfl_roof_fraction(a100, &w, RFL_FP32, &f), RFL_OK);
	RT_NEAR(f, (1214372889.0 / 0.003621) / (1214372889.0 / 383364864.0 * 1555e9), 1e-12);
	/* a precision the machine lacks is an error, never another roof */
	w.flops[RFL_FP8_TENSOR] = 1e9;
	{
		const rfl_machine *v100;
		rfl_hw_find("v100", &v100);
		RT_EQ_INT(rfl_predict(v100, &w, &pr), RFL_ERR_NO_ROOF);
		RT_EQ_INT(rfl_roof_fraction(v100, &w, RFL_TF32_TENSOR, &f), RFL_ERR_NO_ROOF);
	}
	w.flops[RFL_FP8_TENSOR] = 0;
	/* unknown quantities are not zeros */
	w.unknown = RFL_UNKNOWN_BYTES(RFL_DRAM);
	RT_EQ_INT(rfl_work_ai(&w, RFL_DRAM) == 0, 1);
	RT_EQ_INT(rfl_work_known(&w, RFL_UNKNOWN_BYTES(RFL_DRAM)), 0);
	w.unknown = RFL_UNKNOWN_TIME;
	RT_EQ_INT(rfl_roof_fraction(a100, &w, RFL_FP32, &f), RFL_ERR_NO_DATA);
	/* compute-bound work */
	memset(&w, 0, sizeof w);
	w.flops[RFL_FP32] = 19.5e12;
	w.bytes[RFL_DRAM] = 1e9;
	RT_EQ_INT(rfl_predict(a100, &w, &pr), RFL_OK);
	RT_NEAR(pr.time_s, 1.0, 1e-15);
	RT_EQ_INT(pr.bound.memory, 0);
	RT_EQ_INT(pr.bound.prec, RFL_FP32);
	{
		rfl_work a, c;
		memset(&a, 0, sizeof a);
		memset(&c, 0, sizeof c);
		a.flops[RFL_FP32] = 2; a.bytes[RFL_L2] = 3; c.flops[RFL_FP32] = 5;
		c.unknown = RFL_UNKNOWN_BYTES(RFL_L1);
		rfl_work_add(&a, &c);
		RT_NEAR(a.flops[RFL_FP32], 7, 0);
		RT_EQ_INT(a.unknown, RFL_UNKNOWN_BYTES(RFL_L1));
		rfl_work_scale(&a, 2);
		RT_NEAR(a.bytes[RFL_L2], 6, 0);
	}
}

static void test_cpu_formula(void) {
	rfl_machine m;
	rfl_cpu_desc d;
	memset(&d, 0, sizeof d);
	/* 2x Xeon E5-2697 v2: 12 cores, 2.7 GHz, AVX 256-bit with separate add and
	   mul ports (16 FLOP/cycle), 4 channels DDR3-1866 per socket */
	d.sockets = 2; d.cores = 12; d.ghz = 2.7; d.simd_bits = 256; d.fma_pipes = 1;
	d.fma = 1; d.mem_channels = 4; d.mts = 1866;
	RT_EQ_INT(rfl_machine_from_cpu(&d, &m), RFL_OK);
	RT_NEAR(m.peak_flops[RFL_FP32], 1036.8e9, 1e-12);
	RT_NEAR(m.bw_bytes_per_s[RFL_DRAM], 119.424e9, 1e-12);
	/* 2x E5-2699 v4: 22 cores, 2.2 GHz, AVX2 with two FMA pipes, DDR4-2400 */
	d.cores = 22; d.ghz = 2.2; d.fma_pipes = 2; d.fma = 0; d.mts = 2400;
	RT_EQ_INT(rfl_machine_from_cpu(&d, &m), RFL_OK);
	RT_NEAR(m.peak_flops[RFL_FP32], 3097.6e9, 1e-12);
	RT_NEAR(m.peak_flops[RFL_FP64], 1548.8e9, 1e-12);
	RT_NEAR(m.bw_bytes_per_s[RFL_DRAM], 153.6e9, 1e-12);
	d.cores = 0;
	RT_EQ_INT(rfl_machine_from_cpu(&d, &m), RFL_ERR_ARG);
	d.cores = 4; d.ghz = 0.0 / 0.0;
	RT_EQ_INT(rfl_machine_from_cpu(&d, &m), RFL_ERR_ARG);
}

static void test_prec_names(void) {
	rfl_prec p;
	RT_STR(rfl_prec_name(RFL_TF32_TENSOR), "tf32_tensor");
	RT_STR(rfl_level_name(RFL_L2), "l2");
	RT_EQ_INT(rfl_prec_parse("FP16", &p), RFL_OK);
	RT_EQ_INT(p, RFL_FP16);
	RT_EQ_INT(rfl_prec_parse("tf32", &p), RFL_OK);
	RT_EQ_INT(p, RFL_TF32_TENSOR);
	RT_EQ_INT(rfl_prec_parse("fp17", &p), RFL_ERR_UNKNOWN_NAME);
}

static void fmt_is(double v, int sig, const char *want, int line) {
	char b[64];
	rfl_fmt_num(b, sizeof b, v, sig);
	if (!rt_report_(strcmp(b, want) == 0, "rfl_fmt_num", __FILE__, line))
		printf("     got \"%s\", expected \"%s\"\n", b, want);
}

static void test_numbers(void) {
	char b[64];
	double v;
	fmt_is(0, 6, "0", __LINE__);
	fmt_is(12.540192926, 4, "12.54", __LINE__);
	fmt_is(-0.5, 6, "-0.5", __LINE__);
	fmt_is(3628146688.0, 17, "3628146688", __LINE__);
	fmt_is(9007199254740991.0, 17, "9007199254740991", __LINE__);
	fmt_is(1234567, 3, "1230000", __LINE__);
	fmt_is(0.000125, 3, "0.000125", __LINE__);
	fmt_is(1.25e-7, 3, "1.25e-07", __LINE__);
	fmt_is(6.02e23, 3, "6.02e+23", __LINE__);
	fmt_is(9.9999, 3, "10", __LINE__);
	fmt_is(0.1, 15, "0.1", __LINE__);
	fmt_is(1.0 / 0.0, 6, "inf", __LINE__);
	fmt_is(0.0 / 0.0, 6, "nan", __LINE__);
	rfl_fmt_si(b, sizeof b, 1.95e13, 3);
	RT_STR(b, "19.5 T");
	rfl_fmt_si(b, sizeof b, 999.96e9, 4);
	RT_STR(b, "1 T");
	rfl_fmt_si(b, sizeof b, 0.00123, 3);
	RT_STR(b, "1.23 m");
	rfl_fmt_si(b, sizeof b, 150, 3);
	RT_STR(b, "150 ");
	RT_EQ_INT(rfl_fmt_num(b, 3, 12345, 6), 0); /* too small: empty, 0 */
	RT_STR(b, "");
	rfl_fmt_u64(b, sizeof b, 18446744073709551615ull);
	RT_STR(b, "18446744073709551615");
	RT_EQ_INT(rfl_parse_num("3355641.60", 10, &v), RFL_OK);
	RT_CHECK(v == 3355641.60);
	RT_EQ_INT(rfl_parse_num("-1.5e3", 6, &v), RFL_OK);
	RT_CHECK(v == -1500);
	RT_EQ_INT(rfl_parse_num("16777216", 8, &v), RFL_OK);
	RT_CHECK(v == 16777216.0);
	RT_EQ_INT(rfl_parse_num("1e", 2, &v), RFL_ERR_NUMBER);
	RT_EQ_INT(rfl_parse_num("", 0, &v), RFL_ERR_NUMBER);
	RT_EQ_INT(rfl_parse_num("1,5", 3, &v), RFL_ERR_NUMBER);
	RT_EQ_INT(rfl_parse_num("1e999", 5, &v), RFL_ERR_OVERFLOW);
}

int main(void) {
	test_version_and_errors();
	test_lookup();
	test_ridge_and_attainable();
	test_work();
	test_cpu_formula();
	test_prec_names();
	test_numbers();
	return rt_done();
}
