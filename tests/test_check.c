/* The checker ([16] CHECK): values with units, one answer file whose every
   value is derived here by hand (AlexNet's layers, the A100 datasheet, a
   three-kernel profile typed in tests/data/check/), one file per diagnosis
   code (each a mistake of ../shared/context/what-users-do.md, cited in the
   file's "_mistake"), the JSON writers, templates, variants and bad files.
   No expected value comes from the library's own estimate. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

static rfl_layer layers[RFL_LLM_NET_LAYERS(80)]; /* llama-3-70b's 80 blocks */
static rfl_json_tok toks[RFL_CHECK_TOKS];
static rfl_check_answers ans;
static rfl_error err;
static rfl_check_item items[RFL_CHECK_MAX_ITEMS];
static rfl_check_report rep;
static rfl_reduce_state rst;
static rfl_reduce_result prof;
static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static char out[65536];

#define D "tests/data/check/"

/* ---- values with units ---------------------------------------------------- */
static double val(const char *s, rfl_check_dim dim, rfl_result want) {
	double v = -1;
	size_t at;
	RT_EQ_INT(rfl_check_parse_value(s, strlen(s), dim, &v, &at), want);
	return v;
}
static void test_units(void) {
	size_t at = 0;
	double v;
	RT_NEAR(val("311 MB", RFL_DIM_BYTE, RFL_OK), 311e6, 1e-12);
	RT_NEAR(val("296.7 MiB", RFL_DIM_BYTE, RFL_OK), 296.7 * 1048576, 1e-12);
	RT_NEAR(val("2 KiB", RFL_DIM_BYTE, RFL_OK), 2048, 1e-12);
	RT_NEAR(val("1 GiB", RFL_DIM_BYTE, RFL_OK), 1073741824.0, 1e-12);
	RT_NEAR(val("1.5 TiB", RFL_DIM_BYTE, RFL_OK), 1.5 * 1099511627776.0, 1e-12);
	RT_NEAR(val("4 kB", RFL_DIM_BYTE, RFL_OK), 4000, 1e-12);
	RT_NEAR(val("4 KB", RFL_DIM_BYTE, RFL_OK), 4000, 1e-12);
	RT_NEAR(val("3.64 GFLOP", RFL_DIM_FLOP, RFL_OK), 3.64e9, 1e-12);
	RT_NEAR(val("3.64GFLOPs", RFL_DIM_FLOP, RFL_OK), 3.64e9, 1e-12);
	RT_NEAR(val("1.8 GMAC", RFL_DIM_FLOP, RFL_OK), 3.6e9, 1e-12); /* a MAC is 2 FLOPs */
	RT_NEAR(val("0.55 ms", RFL_DIM_TIME, RFL_OK), 0.55e-3, 1e-12);
	RT_NEAR(val("420 us", RFL_DIM_TIME, RFL_OK), 420e-6, 1e-12);
	RT_NEAR(val("420 \xC2\xB5s", RFL_DIM_TIME, RFL_OK), 420e-6, 1e-12);
	RT_NEAR(val("12 ns", RFL_DIM_TIME, RFL_OK), 12e-9, 1e-12);
	RT_NEAR(val("19.5 TFLOP/s", RFL_DIM_FLOP_PER_S, RFL_OK), 19.5e12, 1e-12);
	RT_NEAR(val("19.5 TFLOPS", RFL_DIM_FLOP_PER_S, RFL_OK), 19.5e12, 1e-12);
	RT_NEAR(val("1555 GB/s", RFL_DIM_BYTE_PER_S, RFL_OK), 1555e9, 1e-12);
	RT_NEAR(val("12.5 FLOP/B", RFL_DIM_FLOP_PER_BYTE, RFL_OK), 12.5, 1e-12);
	RT_NEAR(val(" 3e9 ", RFL_DIM_FLOP, RFL_OK), 3e9, 1e-12); /* no unit: base units */
	RT_NEAR(val("1 PFLOP", RFL_DIM_FLOP, RFL_OK), 1e15, 1e-12);
	/* the reports' tables group digits by three */
	RT_NEAR(val("8,297,434,213", RFL_DIM_FLOP, RFL_OK), 8297434213.0, 1e-15);
	RT_NEAR(val("484,320,736 B", RFL_DIM_BYTE, RFL_OK), 484320736.0, 1e-15);
	RT_NEAR(val("1,214.5 MFLOP", RFL_DIM_FLOP, RFL_OK), 1214.5e6, 1e-15);
	val("1,28", RFL_DIM_FLOP, RFL_ERR_NUMBER);
	val("1234,567", RFL_DIM_FLOP, RFL_ERR_NUMBER);
	val(",123", RFL_DIM_FLOP, RFL_ERR_NUMBER);
	val("1,2345", RFL_DIM_FLOP, RFL_ERR_NUMBER);
	/* wrong dimension, unknown unit, milli-bytes, bad number: errors */
	RT_EQ_INT(rfl_check_parse_value("311 MB", 6, RFL_DIM_FLOP, &v, &at), RFL_ERR_UNIT);
	RT_EQ_INT(at, 4); /* the unit's first byte */
	val("0.55 ms", RFL_DIM_FLOP, RFL_ERR_UNIT);
	val("1 us", RFL_DIM_BYTE, RFL_ERR_UNIT); /* micro-bytes */
	val("1 Ms", RFL_DIM_TIME, RFL_ERR_UNIT); /* seconds keep their case: ms, not Ms */
	/* as students write them (issue 35 item 9): any case for the rest */
	RT_NEAR(val("917.9 mb", RFL_DIM_BYTE, RFL_OK), 917.9e6, 1e-12);
	RT_NEAR(val("1.5 gb", RFL_DIM_BYTE, RFL_OK), 1.5e9, 1e-12);
	RT_NEAR(val("2 mib", RFL_DIM_BYTE, RFL_OK), 2.0 * 1048576, 1e-12);
	RT_NEAR(val("1555 gb/s", RFL_DIM_BYTE_PER_S, RFL_OK), 1555e9, 1e-12);
	RT_NEAR(val("11.43 GFLOPS", RFL_DIM_FLOP, RFL_OK), 11.43e9, 1e-12); /* a rate's unit on a count */
	RT_NEAR(val("19.5 TFLOPs", RFL_DIM_FLOP_PER_S, RFL_OK), 19.5e12, 1e-12);
	RT_NEAR(val("19.5 tflops", RFL_DIM_FLOP_PER_S, RFL_OK), 19.5e12, 1e-12);
	RT_NEAR(val("5.6 flops/byte", RFL_DIM_FLOP_PER_BYTE, RFL_OK), 5.6, 1e-12);
	RT_NEAR(val("0.42 msec", RFL_DIM_TIME, RFL_OK), 0.42e-3, 1e-12);
	RT_NEAR(val("2 seconds", RFL_DIM_TIME, RFL_OK), 2, 1e-12);
	val("7 Xs", RFL_DIM_TIME, RFL_ERR_UNIT);
	val("19.5 TFLOP/s", RFL_DIM_FLOP, RFL_ERR_UNIT);
	RT_EQ_INT(rfl_check_parse_value("abc", 3, RFL_DIM_FLOP, &v, &at), RFL_ERR_NUMBER);
	RT_EQ_INT(at, 0);
	val("", RFL_DIM_FLOP, RFL_ERR_NUMBER);
}

/* ---- checking a file ----------------------------------------------------------- */
static const rfl_reduce_result *reduce_file(const char *path) {
	size_t n;
	char *csv = rt_slurp(path, &n);
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	d.top_n = -1;
	if (!RT_CHECK(csv != 0)) return 0;
	RT_EQ_INT(rfl_reduce_buffer(csv, n, &d, scratch, sizeof scratch, &rst, &prof), RFL_OK);
	free(csv);
	return &prof;
}

static rfl_result run_text(const char *json, rfl_check_desc *d) {
	const rfl_reduce_result *p[RFL_CHECK_MAX_MODELS];
	char path[512];
	rfl_result r = rfl_check_read(json, strlen(json), toks, RFL_CHECK_TOKS, &ans, &err);
	int i;
	if (r != RFL_OK) {
		printf("     read: %s: %s (%ld:%ld)\n", err.where, err.msg, (long)err.line, (long)err.col);
		return r;
	}
	for (i = 0; i < ans.n_models; i++) {
		p[i] = 0;
		if (ans.models[i].profile[0]) {
			snprintf(path, sizeof path, D "%s", ans.models[i].profile);
			p[i] = reduce_file(path);
		}
	}
	d->layers = layers, d->layer_cap = (int)(sizeof layers / sizeof layers[0]), d->profiles = p;
	return rfl_check_run(&ans, d, items, RFL_CHECK_MAX_ITEMS, &rep);
}
static rfl_result run_file(const char *name, rfl_check_desc *d) {
	char path[256];
	char *t;
	rfl_result r;
	snprintf(path, sizeof path, D "%s", name);
	t = rt_slurp(path, 0);
	if (!RT_CHECK(t != 0)) return RFL_ERR_IO;
	r = run_text(t, d); /* the answers keep copies: the text may go */
	free(t);
	return r;
}
static const rfl_check_item *item(const char *field) {
	int i;
	for (i = 0; i < rep.n_items; i++)
		if (!strcmp(items[i].field, field)) return &items[i];
	printf("     no item %s\n", field);
	return 0;
}

/* AlexNet (torchvision), 224 x 224, batch 1, FP32 training on an A100
   SXM4 40GB, by hand. Per layer: Cin, K, Cout, Hout (square), and the
   element counts in / weights (bias included) / out. */
#define A_FWD_MAC                                                          \
	(2.0 * 3 * 11 * 11 * 64 * 55 * 55      /* conv1 140,553,600 */         \
	 + 2.0 * 64 * 5 * 5 * 192 * 27 * 27    /* conv2 447,897,600 */         \
	 + 2.0 * 192 * 3 * 3 * 384 * 13 * 13   /* conv3 224,280,576 */         \
	 + 2.0 * 384 * 3 * 3 * 256 * 13 * 13   /* conv4 299,040,768 */         \
	 + 2.0 * 256 * 3 * 3 * 256 * 13 * 13   /* conv5 199,360,512 */         \
	 + 2.0 * 9216 * 4096 + 2.0 * 4096 * 4096 + 2.0 * 4096 * 1000)
/* backward: weight + input gradient = 2 x forward, less conv1's input gradient */
#define A_BWD_MAC (2 * A_FWD_MAC - 2.0 * 3 * 11 * 11 * 64 * 55 * 55)
/* "conv and linear layers only" bytes, FP32: 4 x (in + weights + out) forward;
   backward reads grad out, saved input and weights and writes grad weights
   and grad input (conv1: grad out, input, grad weights only) */
static double alexnet_bytes(void) {
	static const double in[8] = {3 * 224 * 224, 64 * 27 * 27, 192 * 13 * 13, 384 * 13 * 13,
								 256 * 13 * 13, 9216, 4096, 4096};
	static const double w[8] = {64 * 3 * 121 + 64, 192 * 64 * 25 + 192, 384 * 192 * 9 + 384,
								256 * 384 * 9 + 256, 256 * 256 * 9 + 256, 9216.0 * 4096 + 4096,
								4096.0 * 4096 + 4096, 4096.0 * 1000 + 1000};
	static const double o[8] = {64 * 55 * 55, 192 * 27 * 27, 384 * 13 * 13, 256 * 13 * 13,
								256 * 13 * 13, 4096, 4096, 1000};
	double fwd = 0, bwd = 0;
	int i;
	for (i = 0; i < 8; i++) {
		fwd += in[i] + w[i] + o[i];
		bwd += o[i] + in[i] + w[i] + (i ? w[i] + in[i] : 0);
	}
	RT_NEAR(4 * fwd, 247800896.0, 1e-15); /* the sums written out: 61,950,224 x 4 */
	RT_NEAR(4 * bwd, 492929760.0, 1e-15); /* 123,232,440 x 4 */
	return 4 * (fwd + bwd);
}

static void test_correct_by_hand(void) {
	static char json[4096];
	rfl_check_desc d;
	const double peak = 19.5e12, bw = 1555e9; /* A100 SXM4 datasheet: FP32, HBM2 */
	double fl = A_FWD_MAC + A_BWD_MAC, by = alexnet_bytes(), ai = fl / by;
	double att = ai * bw < peak ? ai * bw : peak;
	double t = fl / peak > by / bw ? fl / peak : by / bw;
	/* the profile alexnet-a100-details.csv, its three kernels summed */
	double mfl = 1e6 + 2e6 + 2 * 500e6 + 2 * 131072.0 + 100e3;
	double mby = 120.5e6 + 10.25e6 + 512e3 + 256e3 + 800e3 + 200e3;
	double mt = 400e-6 + 12000e-9 + 8e-6;
	int i;
	RT_NEAR(A_FWD_MAC, 1428376960.0, 1e-15);
	RT_NEAR(A_BWD_MAC, 2716200320.0, 1e-15);
	snprintf(json, sizeof json,
			 "{\"assignment\": {\"hw\": \"a100\", \"batch\": 1, \"mode\": \"train\", \"dtype\": \"fp32\"},\n"
			 " \"machine\": {\"peak_flops_per_s\": %.17g, \"bandwidth_bytes_per_s\": %.17g,\n"
			 "   \"ridge_flop_per_byte\": %.17g},\n"
			 " \"models\": {\"alexnet\": {\"forward_flops\": %.17g, \"backward_flops\": %.17g,\n"
			 "   \"flops\": %.17g, \"bytes\": %.17g, \"ai\": %.17g, \"attainable_flops_per_s\": %.17g,\n"
			 "   \"bound\": \"%s\", \"predicted_time_s\": %.17g,\n"
			 "   \"measured\": {\"profile\": \"alexnet-a100-details.csv\", \"flops\": %.17g,\n"
			 "     \"bytes\": %.17g, \"time_s\": %.17g, \"ai\": %.17g, \"achieved_flops_per_s\": %.17g}}}}\n",
			 peak, bw, peak / bw, A_FWD_MAC, A_BWD_MAC, fl, by, ai, att,
			 ai * bw < peak ? "memory" : "compute", t, mfl, mby, mt, mfl / mby, mfl / mt);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(run_text(json, &d), RFL_OK);
	RT_EQ_INT(rep.n_items, 16); /* 3 machine + 8 estimate + 5 measured */
	for (i = 0; i < rep.n_items; i++)
		if (!RT_CHECK(items[i].verdict == RFL_VERDICT_OK))
			printf("     %s: %s\n", items[i].field, items[i].message);
	RT_NEAR(rep.score, 16, 0);
	RT_NEAR(rep.max_score, 16, 0);
	/* exact hand values: ratio 1 to 12 digits */
	RT_NEAR(item("models.alexnet.bytes")->ratio, 1, 1e-12);
	RT_NEAR(item("models.alexnet.measured.flops")->ratio, 1, 1e-12);
	RT_NEAR(item("models.alexnet.predicted_time_s")->ratio, 1, 1e-12);
	/* the shipped correct.json: the same values rounded to 4 digits */
	memset(&d, 0, sizeof d);
	RT_EQ_INT(run_file("correct.json", &d), RFL_OK);
	RT_EQ_INT(rep.n_ok, 16);
	RT_NEAR(rep.score, 16, 0);
	RT_STR(ans.student, "alice");
}

/* ---- one file per diagnosis: the field and the code it must give ---------------- */
static void test_diagnoses(void) {
	static const struct { const char *file, *field; rfl_check_diag code; } t[] = {
		{"mac_not_flop.json", "models.alexnet.forward_flops", RFL_DIAG_MAC_NOT_FLOP},
		{"binary_prefix.json", "models.alexnet.bytes", RFL_DIAG_BINARY_PREFIX},
		{"backward_twice_forward.json", "models.alexnet.backward_flops", RFL_DIAG_BACKWARD_TWICE_FORWARD},
		{"backward_twice_forward.json", "models.alexnet.flops", RFL_DIAG_BACKWARD_TWICE_FORWARD},
		{"forward_only.json", "models.alexnet.flops", RFL_DIAG_FORWARD_ONLY},
		{"forward_only.json", "models.alexnet.bytes", RFL_DIAG_FORWARD_ONLY},
		{"forward_only.json", "models.alexnet.predicted_time_s", RFL_DIAG_CARRIED_ERROR},
		{"precision_roof.json", "machine.peak_flops_per_s", RFL_DIAG_PRECISION_ROOF},
		{"precision_roof.json", "machine.ridge_flop_per_byte", RFL_DIAG_CARRIED_ERROR},
		{"inconsistent_ai.json", "models.alexnet.ai", RFL_DIAG_INCONSISTENT_AI},
		{"above_roof.json", "models.alexnet.measured.achieved_flops_per_s", RFL_DIAG_ABOVE_ROOF},
		{"measured_partial.json", "models.alexnet.measured.bytes", RFL_DIAG_MEASURED_PARTIAL},
		{"tensor_flops_missing.json", "models.alexnet.measured.flops", RFL_DIAG_TENSOR_FLOPS_MISSING},
		{"tensor_flops_uncounted.json", "models.alexnet.measured.flops", RFL_DIAG_TENSOR_FLOPS_MISSING},
		{"per_sample.json", "models.alexnet.forward_flops", RFL_DIAG_PER_SAMPLE},
		{"per_sample.json", "models.alexnet.bytes", RFL_DIAG_PER_SAMPLE},
		{"wrong_machine.json", "machine.peak_flops_per_s", RFL_DIAG_WRONG_MACHINE},
		{"wrong_machine.json", "machine.bandwidth_bytes_per_s", RFL_DIAG_WRONG_MACHINE},
		{"unit_slip.json", "models.alexnet.measured.time_s", RFL_DIAG_UNIT_SLIP},
		{"carried_error.json", "models.alexnet.ai", RFL_DIAG_CARRIED_ERROR},
		{"footprint_not_traffic.json", "models.alexnet.bytes", RFL_DIAG_FOOTPRINT_NOT_TRAFFIC},
		{"unreadable.json", "models.alexnet.bytes", RFL_DIAG_UNREADABLE},
		{"above_roof_time.json", "models.alexnet.measured.achieved_flops_per_s", RFL_DIAG_ABOVE_ROOF},
		{"kv_without_gqa.json", "models.llama-3.2-1b.kv_cache_bytes", RFL_DIAG_KV_WITHOUT_GQA},
		{"weights_per_token.json", "models.llama-3.2-1b.decode_bytes", RFL_DIAG_WEIGHTS_PER_TOKEN},
		{"llm_mac_not_flop.json", "models.llama-3.2-1b.decode_flops", RFL_DIAG_MAC_NOT_FLOP},
	};
	size_t i;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		rfl_check_desc d;
		const rfl_check_item *it;
		memset(&d, 0, sizeof d);
		if (!RT_CHECK(run_file(t[i].file, &d) == RFL_OK)) continue;
		it = item(t[i].field);
		if (!RT_CHECK(it != 0)) continue;
		RT_EQ_INT(it->verdict, RFL_VERDICT_WRONG);
		if (it->diagnosis != t[i].code) printf("     %s: %s\n", t[i].file, it->message);
		RT_STR(rfl_check_diag_name(it->diagnosis), rfl_check_diag_name(t[i].code));
	}
	/* the ratios the manual promises */
	{
		rfl_check_desc d;
		memset(&d, 0, sizeof d);
		run_file("mac_not_flop.json", &d);
		RT_NEAR(item("models.alexnet.forward_flops")->ratio, 0.5, 1e-12);
		RT_NEAR(item("models.alexnet.forward_flops")->expected, 1428376960.0, 1e-15);
		run_file("binary_prefix.json", &d); /* 706.4 MB against 740,730,656 B = 706.42 MiB */
		RT_NEAR(item("models.alexnet.bytes")->ratio, 706.4e6 / 740730656.0, 1e-12);
		run_file("wrong_machine.json", &d);
		RT_CHECK(strstr(item("machine.peak_flops_per_s")->message, "V100") != 0);
		run_file("tensor_flops_missing.json", &d); /* + 2e9 TF32 tensor FLOPs */
		RT_NEAR(item("models.alexnet.measured.flops")->expected, 1003362144.0 + 2e9, 1e-15);
		/* no tensor counter, a TF32 kernel by name: the FP sum is a lower bound,
		   and what depends on the FLOPs cannot be checked */
		run_file("tensor_flops_uncounted.json", &d);
		RT_NEAR(item("models.alexnet.measured.flops")->expected, 1003362144.0, 1e-15);
		RT_EQ_INT(item("models.alexnet.measured.ai")->verdict, RFL_VERDICT_UNCHECKED);
		RT_EQ_INT(item("models.alexnet.measured.bytes")->verdict, RFL_VERDICT_OK);
	}
}

/* ---- scoring: points, carried credit, the tolerance -------------------------------- */
static void test_points(void) {
	rfl_check_desc d;
	memset(&d, 0, sizeof d);
	d.points[RFL_CHECK_FWD_FLOPS] = 3;
	d.points[RFL_CHECK_BOUND] = -1; /* reported, not graded */
	run_file("mac_not_flop.json", &d);
	RT_NEAR(rep.max_score, 16 + 2 - 1, 0);
	RT_NEAR(rep.score, 16 + 2 - 1 - 3, 0);
	memset(&d, 0, sizeof d);
	run_file("carried_error.json", &d); /* forward, flops (mac) and ai (carried) wrong */
	RT_NEAR(rep.score, 13, 0);
	d.carry_credit = 1;
	run_file("carried_error.json", &d);
	RT_NEAR(rep.score, 14, 0);
	/* a MiB-for-MB slip (4.9%) passes a 5% tolerance, not the default 2% */
	memset(&d, 0, sizeof d);
	d.tol = 0.05;
	run_file("binary_prefix.json", &d);
	RT_EQ_INT(item("models.alexnet.bytes")->verdict, RFL_VERDICT_OK);
}

/* FP16 work: its roof is the FP16 tensor peak (A100 datasheet: 312 TFLOP/s
   dense), and the FP32 19.5 TFLOP/s is then the wrong precision's roof */
static void test_fp16(void) {
	rfl_check_desc d;
	memset(&d, 0, sizeof d);
	RT_EQ_INT(run_text("{\"assignment\": {\"hw\": \"a100\", \"mode\": \"infer\", \"dtype\": \"fp16\"},\n"
					   " \"machine\": {\"peak_flops_per_s\": \"312 TFLOP/s\", \"bandwidth_bytes_per_s\": 1555e9,\n"
					   "   \"ridge_flop_per_byte\": 200.6}}", &d), RFL_OK);
	RT_EQ_INT(rep.n_ok, 3);
	RT_NEAR(item("machine.ridge_flop_per_byte")->expected, 312e12 / 1555e9, 1e-12);
	RT_EQ_INT(run_text("{\"assignment\": {\"hw\": \"a100\", \"dtype\": \"fp16\"},\n"
					   " \"machine\": {\"peak_flops_per_s\": \"19.5 TFLOP/s\"}}", &d), RFL_OK);
	RT_STR(rfl_check_diag_name(item("machine.peak_flops_per_s")->diagnosis), "precision_roof");
	/* int8 on a machine without an int8 roof: no guess */
	RT_EQ_INT(run_text("{\"assignment\": {\"hw\": \"v100\", \"dtype\": \"int8\"}}", &d),
			  RFL_ERR_NO_ROOF);
}

/* ---- JSON out, Gradescope, templates ------------------------------------------------ */
static void test_writers(void) {
	rfl_check_desc d;
	rfl_json_doc doc;
	size_t n, n2;
	int arr;
	double v;
	static char tpl[8192];
	const char *models[2] = {"resnet18", "alexnet"};
	rfl_check_template_desc td;
	memset(&d, 0, sizeof d);
	run_file("mac_not_flop.json", &d);
	n = rfl_check_json(&rep, items, rep.n_items, 0, 0); /* the size needed */
	RT_CHECK(n > 100 && n < sizeof out);
	n2 = rfl_check_json(&rep, items, rep.n_items, out, sizeof out);
	RT_EQ_U64(n, n2);
	RT_EQ_INT(rfl_check_json(&rep, items, rep.n_items, out, 10), n); /* too small: length */
	RT_STR(out, "");
	rfl_check_json(&rep, items, rep.n_items, out, sizeof out);
	RT_EQ_INT(rfl_json_parse(&doc, out, strlen(out), toks, RFL_CHECK_TOKS), RFL_OK);
	RT_CHECK(rfl_json_num(&doc, rfl_json_get(&doc, 0, "score"), &v) && v == 15);
	arr = rfl_json_get(&doc, 0, "items");
	RT_CHECK(rfl_json_str_eq(&doc, rfl_json_path(&doc, rfl_json_at(&doc, arr, 3), "field"),
							 "models.alexnet.forward_flops"));
	RT_CHECK(rfl_json_str_eq(&doc, rfl_json_path(&doc, rfl_json_at(&doc, arr, 3), "diagnosis"),
							 "mac_not_flop"));
	RT_EQ_INT(doc.t[rfl_json_path(&doc, rfl_json_at(&doc, arr, 0), "diagnosis")].type, RFL_JSON_NULL);
	RT_CHECK(rfl_json_str_eq(&doc, rfl_json_path(&doc, rfl_json_at(&doc, arr, 9), "got"), "memory"));
	RT_CHECK(rfl_json_at(&doc, arr, 16) < 0 && rfl_json_at(&doc, arr, 15) > 0);
	/* Gradescope: score, tests[name, score, max_score, output] */
	rfl_check_gradescope(&rep, items, rep.n_items, out, sizeof out);
	RT_EQ_INT(rfl_json_parse(&doc, out, strlen(out), toks, RFL_CHECK_TOKS), RFL_OK);
	arr = rfl_json_get(&doc, 0, "tests");
	RT_CHECK(rfl_json_num(&doc, rfl_json_path(&doc, rfl_json_at(&doc, arr, 3), "score"), &v) && v == 0);
	RT_CHECK(rfl_json_num(&doc, rfl_json_path(&doc, rfl_json_at(&doc, arr, 3), "max_score"), &v) && v == 1);
	RT_CHECK(rfl_json_str_eq(&doc, rfl_json_path(&doc, rfl_json_at(&doc, arr, 3), "name"),
							 "models.alexnet.forward_flops"));
	/* a template reads back with every value missing */
	memset(&td, 0, sizeof td);
	td.hw = "h100", td.batch = 64, td.mode = RFL_MODE_TRAIN, td.models = models, td.n_models = 2;
	RT_CHECK(rfl_check_template(&td, tpl, sizeof tpl) < sizeof tpl);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(run_text(tpl, &d), RFL_OK);
	RT_EQ_INT(ans.batch, 64);
	RT_EQ_INT(rep.n_items, 3 + 2 * 13);
	RT_EQ_INT(rep.n_missing, 3 + 2 * 13);
	RT_NEAR(rep.score, 0, 0);
	td.mode = RFL_MODE_INFER; /* no backward_flops in inference */
	rfl_check_template(&td, tpl, sizeof tpl);
	RT_CHECK(strstr(tpl, "backward_flops") == 0);
	run_text(tpl, &d);
	RT_EQ_INT(rep.n_items, 3 + 2 * 12);
}

/* ---- variants ---------------------------------------------------------------------- */
/* The documented recipe, written again here: FNV-1a 64 of the name, XOR
   the seed, three splitmix64 steps (constants from Steele et al. 2014). */
static uint64_t sm64(uint64_t *s) {
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
static void test_variants(void) {
	const char *names[3] = {"alice", "bob", "s1234567"};
	int i, v[3], seen[5] = {0};
	rfl_check_desc d;
	for (i = 0; i < 3; i++) {
		uint64_t h = 14695981039346656037ull, s;
		const char *p;
		for (p = names[i]; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
		s = h ^ 42;
		rfl_check_variant(names[i], 42, 5, 3, 4, v);
		RT_EQ_INT(v[0], (int)(sm64(&s) % 5));
		RT_EQ_INT(v[1], (int)(sm64(&s) % 3));
		RT_EQ_INT(v[2], (int)(sm64(&s) % 4));
	}
	{ /* "Bob  Smith " is hashed as "bob smith" (lower case, one space) */
		uint64_t h = 14695981039346656037ull, s;
		const char *p;
		for (p = "bob smith"; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
		s = h ^ 42;
		rfl_check_variant("Bob  Smith ", 42, 5, 3, 4, v);
		RT_EQ_INT(v[0], (int)(sm64(&s) % 5));
		RT_EQ_INT(v[1], (int)(sm64(&s) % 3));
		RT_EQ_INT(v[2], (int)(sm64(&s) % 4));
	}
	for (i = 0; i < 40; i++) { /* spread: every model comes up among 40 students */
		char n[16];
		snprintf(n, sizeof n, "student%d", i);
		rfl_check_variant(n, 7, 5, 1, 1, v);
		seen[v[0]] = 1;
	}
	RT_CHECK(seen[0] && seen[1] && seen[2] && seen[3] && seen[4]);
	/* the checker against a variant */
	memset(&d, 0, sizeof d);
	d.variant_model = "alexnet", d.variant_hw = "a100-sxm4-40gb", d.variant_batch = 1;
	run_file("correct.json", &d);
	RT_EQ_INT(rep.n_items, 17);
	RT_EQ_INT(item("assignment")->verdict, RFL_VERDICT_OK);
	RT_NEAR(rep.score, 17, 0);
	d.variant_batch = 8; /* answers to another variant: score 0 */
	run_file("correct.json", &d);
	RT_STR(rfl_check_diag_name(item("assignment")->diagnosis), "wrong_variant");
	RT_NEAR(rep.score, 0, 0);
	d.variant_batch = 1, d.variant_hw = "v100";
	run_file("correct.json", &d);
	RT_EQ_INT(rep.variant_wrong, 1);
}

/* ---- bad files: the error names the field, line and column ---------------------------- */
static rfl_result bad(const char *json) {
	return rfl_check_read(json, strlen(json), toks, RFL_CHECK_TOKS, &ans, &err);
}
static void test_bad(void) {
	static char big[RFL_CHECK_FILE_MAX + 2];
	rfl_json_tok few[4];
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a100\"},\n \"models\": {\"alexnet\": {\n"
				  "  \"foward_flops\": 1}}}"), RFL_ERR_FORMAT); /* a typo: not "missing" */
	RT_STR(err.where, "models.alexnet.foward_flops");
	RT_EQ_INT(err.line, 3);
	RT_EQ_INT(err.col, 3);
	/* a value that cannot be read is not an error of the file: it is marked
	   (graded wrong, with why and where) and the rest is read */
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a100\"},\n \"models\": {\"alexnet\": {\n"
				  "  \"bytes\": \"311 GFLOP\", \"ai\": \"x\", \"flops\": -1, \"bound\": \"roof\",\n"
				  "  \"predicted_time_s\": [1], \"forward_flops\": 3}}}"), RFL_OK);
	RT_STR(ans.models[0].v[RFL_CHECK_BYTES].unread, "a unit of another dimension, or unknown");
	RT_EQ_INT(ans.models[0].v[RFL_CHECK_BYTES].line, 3);
	RT_EQ_INT(ans.models[0].v[RFL_CHECK_BYTES].col, 17); /* the G of GFLOP */
	RT_EQ_INT(ans.models[0].v[RFL_CHECK_BYTES].given, 0);
	RT_STR(ans.models[0].v[RFL_CHECK_AI].unread, "not a number");
	RT_EQ_INT(ans.models[0].v[RFL_CHECK_AI].col, 31); /* the string: its quote */
	RT_STR(ans.models[0].v[RFL_CHECK_FLOPS].unread, "a value is finite and >= 0");
	RT_CHECK(ans.models[0].v[RFL_CHECK_BOUND].unread != 0);
	RT_CHECK(ans.models[0].v[RFL_CHECK_TIME].unread != 0);
	RT_EQ_INT(ans.models[0].v[RFL_CHECK_FWD_FLOPS].given, 1);
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a100\"}, \"models\": {\"alexnett\": {}}}"),
			  RFL_ERR_UNKNOWN_NAME);
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a1000\"}}"), RFL_ERR_UNKNOWN_NAME);
	RT_STR(err.where, "assignment.hw");
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a100\", \"batch\": 0}}"), RFL_ERR_NUMBER);
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a100\", \"mode\": \"eval\"}}"), RFL_ERR_UNKNOWN_NAME);
	RT_EQ_INT(bad("{\"models\": {}}"), RFL_ERR_MISSING);
	RT_EQ_INT(bad("{\"schema\": 2, \"assignment\": {\"hw\": \"a100\"}}"), RFL_ERR_FORMAT);
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"a100\"}, \"_note\": [1], \"units\": {}}"), RFL_OK);
	RT_EQ_INT(bad("[1]"), RFL_ERR_FORMAT);
	RT_EQ_INT(bad("{\"assignment\": "), RFL_ERR_SYNTAX);
	RT_EQ_INT(err.line, 1);
	/* the size cap, and too few tokens: how many are needed */
	memset(big, ' ', sizeof big - 1);
	big[0] = '{', big[sizeof big - 2] = '}';
	RT_EQ_INT(rfl_check_read(big, sizeof big - 1, toks, RFL_CHECK_TOKS, &ans, &err), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_check_read("{\"assignment\": {\"hw\": \"a100\"}}", 30, few, 4, &ans, &err),
			  RFL_ERR_BUFFER);
	RT_EQ_INT(err.need, 5);
}

/* ---- as students write them (issue 35 items 9, 10, 14) ------------------------------- */
/* correct.json with one line replaced */
static rfl_result run_edit_in(const char *file, const char *from, const char *to, rfl_check_desc *d) {
	static char t2[8192];
	char path[256], *t, *at;
	snprintf(path, sizeof path, D "%s", file);
	t = rt_slurp(path, 0);
	if (!RT_CHECK(t != 0)) return RFL_ERR_IO;
	at = strstr(t, from);
	if (!RT_CHECK(at != 0)) { free(t); return RFL_ERR_ARG; }
	snprintf(t2, sizeof t2, "%.*s%s%s", (int)(at - t), t, to, at + strlen(from));
	free(t);
	return run_text(t2, d);
}
static rfl_result run_edit(const char *from, const char *to, rfl_check_desc *d) {
	return run_edit_in("correct.json", from, to, d);
}
static void test_as_written(void) {
	static const char *const bounds[] = {"Memory", "MEMORY BOUND", "memory-bound", "Memory_Bound",
										 "memory bound", "bandwidth-bound"};
	rfl_check_desc d;
	const rfl_check_item *it;
	int i;
	memset(&d, 0, sizeof d);
	/* the spellings of a bound: each graded ok (AlexNet is memory-bound) */
	for (i = 0; i < 6; i++) {
		char b[64];
		snprintf(b, sizeof b, "\"bound\": \"%s\"", bounds[i]);
		RT_EQ_INT(run_edit("\"bound\": \"memory\"", b, &d), RFL_OK);
		RT_EQ_INT(item("models.alexnet.bound")->verdict, RFL_VERDICT_OK);
	}
	RT_EQ_INT(run_edit("\"bound\": \"memory\"", "\"bound\": \"COMPUTE BOUND\"", &d), RFL_OK);
	it = item("models.alexnet.bound");
	RT_EQ_INT(it->verdict, RFL_VERDICT_WRONG);
	RT_NEAR(it->got, 0, 0); /* read as compute */
	/* "917.9 mb": MB; AlexNet's bytes are 740.7 MB (hand sum above) */
	RT_EQ_INT(run_edit("\"740.7 MB\"", "\"740.7 mb\"", &d), RFL_OK);
	RT_EQ_INT(item("models.alexnet.bytes")->verdict, RFL_VERDICT_OK);
	/* "GFLOPS" for a count: read as a count, ok, with a note */
	RT_EQ_INT(run_edit("\"1.428 GFLOP\"", "\"1.428 GFLOPS\"", &d), RFL_OK);
	it = item("models.alexnet.forward_flops");
	RT_EQ_INT(it->verdict, RFL_VERDICT_OK);
	RT_CHECK(strstr(it->message, "GFLOPS is a rate") != 0);
	/* a value still unreadable: that one wrong (with line and column), the other 15 graded */
	RT_EQ_INT(run_edit("\"740.7 MB\"", "\"740.7 parsecs\"", &d), RFL_OK);
	it = item("models.alexnet.bytes");
	RT_EQ_INT(it->verdict, RFL_VERDICT_WRONG);
	RT_STR(rfl_check_diag_name(it->diagnosis), "unreadable");
	RT_EQ_INT(it->has_got, 0);
	RT_CHECK(strstr(it->message, "line 20, column 23") != 0);
	RT_EQ_INT(rep.n_ok, 15);
	RT_NEAR(rep.score, 15, 0);
	/* the AI, from the unreadable bytes, is not called inconsistent: it is ok */
	RT_EQ_INT(item("models.alexnet.ai")->verdict, RFL_VERDICT_OK);
}
static void test_above_roof(void) {
	rfl_check_desc d;
	const rfl_check_item *it;
	memset(&d, 0, sizeof d);
	/* the time in ms written as s-thousandths: 0.42 us, and the rate it gives,
	   1,003,362,144 FLOP / 0.42e-6 s = 2389 TFLOP/s: above the roof (its own
	   FLOPs / time, so once carried_error), named above_roof from the time */
	RT_EQ_INT(run_edit("\"time_s\": \"0.42 ms\",\n        \"ai\": 7.571,\n        \"achieved_flops_per_s\": \"2.389 TFLOP/s\"",
					   "\"time_s\": \"0.42 us\",\n        \"ai\": 7.571,\n        \"achieved_flops_per_s\": \"2389 TFLOP/s\"",
					   &d), RFL_OK);
	RT_STR(rfl_check_diag_name(item("models.alexnet.measured.time_s")->diagnosis), "unit_slip");
	it = item("models.alexnet.measured.achieved_flops_per_s");
	RT_STR(rfl_check_diag_name(it->diagnosis), "above_roof");
	RT_CHECK(strstr(it->message, "your time is a power of 1000 too small") != 0);
	RT_CHECK(strstr(it->message, "check your time") != 0);
	/* the roof at the measured AI: min(19.5 T, 7.571 x 1555 G) = 11.77 TFLOP/s */
	RT_NEAR(it->expected, 7.571 * 1555e9, 1e-9);
}
static void test_messages(void) {
	rfl_check_desc d;
	int i;
	memset(&d, 0, sizeof d);
	/* each reason names its own field (item 14) */
	run_file("correct.json", &d);
	RT_CHECK(strstr(item("machine.ridge_flop_per_byte")->message, "peak / the DRAM bandwidth") != 0);
	RT_CHECK(strstr(item("machine.peak_flops_per_s")->message, "peak") != 0);
	/* an expected value carries its unit */
	run_file("unit_slip.json", &d);
	RT_CHECK(strstr(item("models.alexnet.measured.time_s")->message, "expected 420 us") != 0);
	run_file("mac_not_flop.json", &d);
	RT_CHECK(strstr(item("models.alexnet.forward_flops")->message, "expected 1.428 GFLOP,") != 0);
	/* a diagnosis's expected value is the right one, never the mistake's
	   (torchsummary's 242 MB was once "expected 242 MB, ratio 1") */
	run_file("footprint_not_traffic.json", &d);
	RT_CHECK(item("models.alexnet.bytes")->expected > 700e6);
	RT_CHECK(item("models.alexnet.bytes")->ratio < 0.5);
	/* hidden expected values (item 12): no number of the truth in any item */
	d.hide_expected = 1;
	run_file("mac_not_flop.json", &d);
	for (i = 0; i < rep.n_items; i++) {
		RT_EQ_INT(items[i].has_expected, 0);
		RT_CHECK(strstr(items[i].message, "expected") == 0);
	}
	RT_STR(rfl_check_diag_name(item("models.alexnet.forward_flops")->diagnosis), "mac_not_flop");
	RT_NEAR(rep.score, 15, 0);
	/* Gradescope's document for a file that cannot be graded */
	RT_EQ_U64(rfl_check_gradescope_error("a.json:2:3: \"x\"", out, sizeof out), strlen(out));
	RT_STR(out, "{\n  \"score\": 0,\n  \"output\": \"a.json:2:3: \\\"x\\\"\"\n}\n");
}

/* ---- the submitter, and one name written two ways (issue 35 items 11, 12) -------------- */
static void test_submitter(void) {
	/* Gradescope's /autograder/submission_metadata.json, its documented form */
	static const char meta[] =
		"{\"id\": 123456, \"submission_method\": \"upload\",\n"
		" \"users\": [{\"email\": \"bob@uni.edu\", \"id\": 1234, \"name\": \"Bob Smith\"}],\n"
		" \"previous_submissions\": []}";
	char who[64];
	rfl_json_tok few[4];
	int a[3], b[3];
	RT_EQ_INT(rfl_check_submitter(meta, strlen(meta), toks, RFL_CHECK_TOKS, "name", who, sizeof who, &err), RFL_OK);
	RT_STR(who, "Bob Smith");
	RT_EQ_INT(rfl_check_submitter(meta, strlen(meta), toks, RFL_CHECK_TOKS, "email", who, sizeof who, &err), RFL_OK);
	RT_STR(who, "bob@uni.edu");
	RT_EQ_INT(rfl_check_submitter(meta, strlen(meta), few, 4, "name", who, sizeof who, &err), RFL_ERR_BUFFER);
	RT_CHECK(err.need > 4);
	RT_EQ_INT(rfl_check_submitter("{\"users\": []}", 13, toks, RFL_CHECK_TOKS, "name", who, sizeof who, &err),
			  RFL_ERR_MISSING);
	RT_EQ_INT(rfl_check_submitter("{\"users\": [{\"name\": 3}]}", 24, toks, RFL_CHECK_TOKS, "name", who,
								  sizeof who, &err), RFL_ERR_MISSING);
	RT_EQ_INT(rfl_check_submitter("{\"users\": [", 11, toks, RFL_CHECK_TOKS, "name", who, sizeof who, &err),
			  RFL_ERR_SYNTAX);
	RT_EQ_INT(rfl_check_submitter(meta, strlen(meta), toks, RFL_CHECK_TOKS, "name", who, 4, &err), RFL_ERR_BUFFER);
	/* a roster's "Bob Smith" and Gradescope's " bob  smith": one student, one
	   variant (the recipe hashes "bob smith"; test_variants checks the hash) */
	rfl_check_variant("Bob Smith", 9, 1000003, 1000033, 1000037, a);
	rfl_check_variant(" bob \t smith ", 9, 1000003, 1000033, 1000037, b);
	RT_CHECK(a[0] == b[0] && a[1] == b[1] && a[2] == b[2]);
	rfl_check_variant("Bob Smyth", 9, 1000003, 1000033, 1000037, b);
	RT_CHECK(a[0] != b[0] || a[1] != b[1] || a[2] != b[2]);
}

/* ---- LLM homework (issue 35 item 13) ------------------------------------------------
   Llama 3.2 1B (config: hidden 2048, 16 layers, 32 heads, 8 KV heads,
   head_dim 64, intermediate 8192, vocab 128256, tied) in bf16 on an H100
   SXM (989.4 TFLOP/s dense bf16, 3.35 TB/s, 80 GB), batch 4, a prompt of
   512 tokens. PyTorch's counts from tests/data/llm/llm-reference.json
   (b4_s512); the rest by hand below. */
#define L_PARAMS 1235814400.0          /* llm-reference.json "params" */
#define L_PRE_FLOPS 4125269983232.0    /* "prefill_flops_last_logits" */
#define L_DEC_FLOPS 10154934336.0      /* "decode_flops" */
#define L_W (2.0 * L_PARAMS)           /* bf16 weights, the tied table once */
#define L_KV(pos) (2.0 * 8 * 64 * 16 * 2 * 4 * (pos)) /* K and V, 8 KV heads, 16 layers, 2 B, batch 4 */
static void test_llm(void) {
	rfl_check_desc d;
	const rfl_check_item *it;
	const char *models[2] = {"llama-3.2-1b", "alexnet"};
	rfl_check_template_desc td;
	static char tpl[8192];
	double v;
	memset(&d, 0, sizeof d);
	/* the hand figures the fixture holds */
	RT_NEAR(L_KV(513), 67239936.0, 1e-15);
	RT_NEAR(L_W + L_KV(512), 2538737664.0, 1e-15);
	RT_NEAR(L_DEC_FLOPS / (L_W + L_KV(512)), 4.0, 0.001);
	RT_NEAR(4 / ((L_W + L_KV(512)) / 3.35e12), 5278.2, 0.0001);
	RT_EQ_INT(run_file("llm-correct.json", &d), RFL_OK);
	RT_EQ_INT(rep.n_items, 3 + 12);
	RT_EQ_INT(rep.n_ok, 15);
	RT_NEAR(item("models.llama-3.2-1b.params")->expected, L_PARAMS, 1e-12);
	RT_NEAR(item("models.llama-3.2-1b.prefill_flops")->expected, L_PRE_FLOPS, 1e-9);
	RT_NEAR(item("models.llama-3.2-1b.decode_flops")->expected, L_DEC_FLOPS, 1e-9);
	RT_NEAR(item("models.llama-3.2-1b.kv_cache_bytes")->expected, L_KV(513), 1e-12);
	RT_NEAR(item("models.llama-3.2-1b.decode_bound")->expected, 1, 0);  /* memory */
	RT_NEAR(item("models.llama-3.2-1b.prefill_bound")->expected, 0, 0); /* compute */
	RT_NEAR(item("models.llama-3.2-1b.fits")->expected, 1, 0);
	/* the LM head on every position (PyTorch's own forward), and 2 x params per token */
	RT_EQ_INT(run_edit_in("llm-correct.json", "\"prefill_flops\": 4125269983232", "\"prefill_flops\": 5199057944576", &d), RFL_OK);
	RT_EQ_INT(item("models.llama-3.2-1b.prefill_flops")->verdict, RFL_VERDICT_OK);
	v = 2 * L_PARAMS * 4 * 512;
	{
		char b[64];
		snprintf(b, sizeof b, "\"prefill_flops\": %.0f", v);
		RT_EQ_INT(run_edit_in("llm-correct.json", "\"prefill_flops\": 4125269983232", b, &d), RFL_OK);
		RT_EQ_INT(item("models.llama-3.2-1b.prefill_flops")->verdict, RFL_VERDICT_OK);
	}
	/* the classic mistakes */
	run_file("kv_without_gqa.json", &d);
	it = item("models.llama-3.2-1b.kv_cache_bytes");
	RT_STR(rfl_check_diag_name(it->diagnosis), "kv_without_gqa");
	RT_NEAR(it->ratio, 4, 0.001); /* 32 heads / 8 KV heads */
	run_file("weights_per_token.json", &d);
	RT_STR(rfl_check_diag_name(item("models.llama-3.2-1b.decode_bytes")->diagnosis), "weights_per_token");
	RT_STR(rfl_check_diag_name(item("models.llama-3.2-1b.decode_ai")->diagnosis), "carried_error");
	RT_STR(rfl_check_diag_name(item("models.llama-3.2-1b.decode_tokens_per_s")->diagnosis), "carried_error");
	run_file("llm_mac_not_flop.json", &d);
	RT_STR(rfl_check_diag_name(item("models.llama-3.2-1b.decode_flops")->diagnosis), "mac_not_flop");
	/* the bytes of the weights counted per prompt token in a prefill: 2048 x W */
	{
		char b[64];
		snprintf(b, sizeof b, "\"prefill_bytes\": %.0f", 2048 * L_W + L_KV(512));
		RT_EQ_INT(run_edit_in("llm-correct.json", "\"prefill_bytes\": \"2538.7 MB\"", b, &d), RFL_OK);
		RT_STR(rfl_check_diag_name(item("models.llama-3.2-1b.prefill_bytes")->diagnosis), "weights_per_token");
	}
	/* does it fit: Llama 3 70B's bf16 weights (141 GB) on an 80 GB H100: no */
	RT_EQ_INT(run_text("{\"assignment\": {\"hw\": \"h100\", \"dtype\": \"bf16\", \"seq\": 128},\n"
					   " \"models\": {\"llama-3-70b\": {\"fits\": false, \"params\": \"70.55 B params\"}}}", &d),
			  RFL_OK);
	RT_EQ_INT(item("models.llama-3-70b.fits")->verdict, RFL_VERDICT_OK);
	RT_NEAR(item("models.llama-3-70b.fits")->expected, 0, 0);
	RT_EQ_INT(item("models.llama-3-70b.params")->verdict, RFL_VERDICT_OK); /* 70,553,706,496 */
	/* counts and rates as written */
	RT_NEAR(val("1.24 B", RFL_DIM_COUNT, RFL_OK), 1.24e9, 1e-12);
	RT_NEAR(val("1236 M params", RFL_DIM_COUNT, RFL_OK), 1236e6, 1e-12);
	RT_NEAR(val("1.2B", RFL_DIM_COUNT, RFL_OK), 1.2e9, 1e-12);
	RT_NEAR(val("5278 tokens/s", RFL_DIM_TOKEN_PER_S, RFL_OK), 5278, 1e-12);
	RT_NEAR(val("5.3 ktok/s", RFL_DIM_TOKEN_PER_S, RFL_OK), 5300, 1e-12);
	val("1.2 GB", RFL_DIM_COUNT, RFL_ERR_UNIT);
	/* a template of an LLM beside a CNN: the LLM's keys, the seq; reads back all missing */
	memset(&td, 0, sizeof td);
	td.hw = "h100", td.batch = 4, td.seq = 512, td.dtype = RFL_DTYPE_BF16, td.models = models, td.n_models = 2;
	RT_CHECK(rfl_check_template(&td, tpl, sizeof tpl) < sizeof tpl);
	RT_CHECK(strstr(tpl, "\"decode_tokens_per_s\": null") && strstr(tpl, "\"seq\": 512"));
	RT_EQ_INT(run_text(tpl, &d), RFL_OK);
	RT_EQ_INT(rep.n_items, 3 + 12 + 12);
	RT_EQ_INT(rep.n_missing, 3 + 12 + 12);
	/* an LLM takes no CNN key */
	RT_EQ_INT(bad("{\"assignment\": {\"hw\": \"h100\"}, \"models\": {\"gpt2\": {\"forward_flops\": 1}}}"),
			  RFL_ERR_FORMAT);
}

int main(void) {
	test_units();
	test_correct_by_hand();
	test_diagnoses();
	test_points();
	test_fp16();
	test_writers();
	test_variants();
	test_bad();
	test_as_written();
	test_above_roof();
	test_messages();
	test_submitter();
	test_llm();
	return rt_done();
}
