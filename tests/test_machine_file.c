/* The machine-file reader (rfl_machine_file_parse): hand-written files with
   the figures typed here, a "measured" object, every kind of bad file (the
   field and line it must name are typed here too), caller buffers too
   small, and every table machine through the library's writer and back
   (rfl_machine_file_print: what rfl-hw NAME --json prints).
   Expected values are the files' own numbers, never the reader's. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

static rfl_json_tok toks[512];
static char strs[4096];
static rfl_machine_file mf;
static rfl_error err;

static rfl_result parse(const char *json) {
	return rfl_machine_file_parse(json, strlen(json), toks, 512, strs, sizeof strs, &mf, &err);
}

static void test_minimal(void) {
	/* the least a hand-written file needs: name, kind, one peak, one bandwidth */
	const char *f = "{\"name\": \"Board X\", \"kind\": \"cpu\",\n"
					" \"peak_flops\": {\"fp32\": 1e9}, \"mem_bw\": {\"dram\": 2.5e9}}";
	RT_EQ_INT(parse(f), RFL_OK);
	RT_STR(mf.machine.name, "Board X");
	RT_STR(mf.machine.id, "Board X"); /* id defaults to the name */
	RT_STR(mf.machine.aliases, "");
	RT_STR(mf.machine.source, "");
	RT_EQ_INT(mf.machine.kind, RFL_KIND_CPU);
	RT_NEAR(mf.machine.peak_flops[RFL_FP32], 1e9, 0);
	RT_NEAR(mf.machine.peak_flops[RFL_FP64], 0, 0);
	RT_NEAR(mf.machine.bw_bytes_per_s[RFL_DRAM], 2.5e9, 0);
	RT_NEAR(rfl_ridge(&mf.machine, RFL_FP32, RFL_DRAM), 0.4, 1e-15); /* 1e9 / 2.5e9 */
	RT_EQ_INT(mf.has_measured, 0);
	RT_EQ_INT(err.code, RFL_OK);
	RT_STR(err.msg, "");
}

static void test_full_and_measured(void) {
	/* every field; ridge deliberately wrong (it is derived, never read);
	   '_' keys ignored at every level; escapes decoded */
	const char *f =
		"{\n"
		"  \"_comment\": \"hand-written\",\n"
		"  \"name\": \"My \\\"GPU\\\" \\u0041\",\n"
		"  \"id\": \"my-gpu\",\n"
		"  \"aliases\": [\"mine\", \"gpu0\"],\n"
		"  \"kind\": \"gpu\",\n"
		"  \"peak_flops\": {\"fp64\": null, \"fp32\": 20e12, \"fp16_tensor\": 300e12, \"_x\": 1},\n"
		"  \"mem_bw\": {\"dram\": 2000000000000, \"l2\": 5e12, \"l1\": null},\n"
		"  \"mem_bytes\": 85899345920, \"l2_bytes\": null, \"units\": 100,\n"
		"  \"boost_mhz\": 1500.5, \"tdp_w\": 350,\n"
		"  \"ridge\": {\"fp32_dram\": 999},\n"
		"  \"source\": \"typed in\",\n"
		"  \"measured\": {\"peak_flops\": {\"fp32\": 18e12}, \"mem_bw\": {\"dram\": 1.6e12},\n"
		"                \"threads\": 8, \"source\": \"probe\", \"_raw\": [1, 2, 3]}\n"
		"}\n";
	RT_EQ_INT(parse(f), RFL_OK);
	RT_STR(mf.machine.name, "My \"GPU\" A");
	RT_STR(mf.machine.id, "my-gpu");
	RT_STR(mf.machine.aliases, "mine,gpu0");
	RT_STR(mf.machine.source, "typed in");
	RT_EQ_INT(mf.machine.kind, RFL_KIND_GPU);
	RT_NEAR(mf.machine.peak_flops[RFL_FP32], 20e12, 0);
	RT_NEAR(mf.machine.peak_flops[RFL_FP16_TENSOR], 300e12, 0);
	RT_NEAR(mf.machine.peak_flops[RFL_FP64], 0, 0);
	RT_NEAR(mf.machine.bw_bytes_per_s[RFL_DRAM], 2e12, 0);
	RT_NEAR(mf.machine.bw_bytes_per_s[RFL_L2], 5e12, 0);
	RT_NEAR(mf.machine.mem_bytes, 80.0 * 1073741824.0, 0);
	RT_NEAR(mf.machine.l2_bytes, 0, 0);
	RT_EQ_INT(mf.machine.units, 100);
	RT_NEAR(mf.machine.boost_mhz, 1500.5, 0);
	RT_NEAR(mf.machine.tdp_w, 350, 0);
	RT_NEAR(rfl_ridge(&mf.machine, RFL_FP32, RFL_DRAM), 10, 1e-15); /* 20e12 / 2e12, not 999 */
	RT_EQ_INT(mf.has_measured, 1);
	RT_EQ_INT(mf.measured_threads, 8);
	RT_STR(mf.measured.id, "my-gpu");
	RT_STR(mf.measured.source, "probe");
	RT_NEAR(mf.measured.peak_flops[RFL_FP32], 18e12, 0);
	RT_NEAR(mf.measured.peak_flops[RFL_FP16_TENSOR], 0, 0); /* not measured */
	RT_NEAR(mf.measured.bw_bytes_per_s[RFL_DRAM], 1.6e12, 0);
	RT_NEAR(mf.measured.bw_bytes_per_s[RFL_L2], 0, 0);
	RT_NEAR(mf.measured.mem_bytes, 80.0 * 1073741824.0, 0); /* the rest is the machine's */
}

/* The "link" object: every field typed here, pointed at by both machines;
   null kind is unknown, no "link" is a NULL link. */
static void test_link(void) {
	const char *f =
		"{\"name\": \"Node\", \"kind\": \"gpu\", \"peak_flops\": {\"fp32\": 1e12},\n"
		" \"mem_bw\": {\"dram\": 1e11},\n"
		" \"link\": {\"kind\": \"nvlink\", \"gen\": 4, \"lanes\": 18, \"bw_per_direction\": 450e9,\n"
		"   \"latency_s\": 4.7e-7, \"gpus_per_node\": 8, \"source\": \"datasheet\", \"_note\": 1,\n"
		"   \"allreduce\": {\"base_s\": 8.5e-6, \"step_s\": 9e-7, \"busbw\": 2.75e11,\n"
		"                 \"eager_s\": 5e-5, \"gpus\": 4, \"source\": \"fit\"}},\n"
		" \"measured\": {\"mem_bw\": {\"dram\": 9e10}}}";
	const char *unknown = "{\"name\": \"U\", \"kind\": \"gpu\", \"peak_flops\": {\"fp32\": 1e12},\n"
						  " \"mem_bw\": {\"dram\": 1e11}, \"link\": {\"kind\": null}}";
	RT_EQ_INT(parse(f), RFL_OK);
	RT_CHECK(mf.machine.link == &mf.link);
	RT_CHECK(mf.measured.link == &mf.link);
	RT_EQ_INT(mf.link.kind, RFL_LINK_NVLINK);
	RT_EQ_INT(mf.link.gen, 4);
	RT_EQ_INT(mf.link.lanes, 18);
	RT_EQ_INT(mf.link.gpus_per_node, 8);
	RT_NEAR(mf.link.bw_bytes_per_s, 450e9, 0);
	RT_NEAR(mf.link.latency_s, 4.7e-7, 0);
	RT_STR(mf.link.source, "datasheet");
	RT_NEAR(mf.link.ar_base_s, 8.5e-6, 0);
	RT_NEAR(mf.link.ar_step_s, 9e-7, 0);
	RT_NEAR(mf.link.ar_busbw, 2.75e11, 0);
	RT_NEAR(mf.link.ar_eager_s, 5e-5, 0);
	RT_EQ_INT(mf.link.ar_gpus, 4);
	RT_STR(mf.link.ar_source, "fit");
	RT_EQ_INT(parse(unknown), RFL_OK);
	RT_CHECK(mf.machine.link == &mf.link);
	RT_EQ_INT(mf.link.kind, RFL_LINK_UNKNOWN);
	RT_NEAR(mf.link.bw_bytes_per_s, 0, 0);
	RT_STR(mf.link.source, "");
	RT_EQ_INT(parse("{\"name\": \"N\", \"kind\": \"cpu\", \"peak_flops\": {\"fp32\": 1},"
					" \"mem_bw\": {\"dram\": 1}, \"link\": {\"kind\": \"none\"}}"), RFL_OK);
	RT_EQ_INT(mf.link.kind, RFL_LINK_NONE);
	RT_EQ_INT(parse("{\"name\": \"N\", \"kind\": \"cpu\", \"peak_flops\": {\"fp32\": 1},"
					" \"mem_bw\": {\"dram\": 1}}"), RFL_OK);
	RT_CHECK(mf.machine.link == 0);
}

/* A bad file: its result code, the field and line the error must name. */
typedef struct bad_case {
	const char *what, *json;
	rfl_result code;
	const char *field;
	long line;
} bad_case;

#define HEAD "{\"name\": \"x\", \"kind\": \"gpu\",\n"
#define PEAK " \"peak_flops\": {\"fp32\": 1e12},\n"
#define BW " \"mem_bw\": {\"dram\": 1e11}"
static const bad_case bad[] = {
	{"missing name", "{\"kind\": \"gpu\",\n" PEAK BW "}", RFL_ERR_MISSING, "name", 1},
	{"missing kind", "{\"name\": \"x\",\n" PEAK BW "}", RFL_ERR_MISSING, "kind", 1},
	{"missing peak_flops", HEAD BW "}", RFL_ERR_MISSING, "peak_flops", 1},
	{"missing mem_bw", HEAD PEAK " \"units\": 2}", RFL_ERR_MISSING, "mem_bw", 1},
	{"no peak > 0", HEAD " \"peak_flops\": {\"fp32\": null, \"fp64\": 0},\n" BW "}",
	 RFL_ERR_MISSING, "peak_flops", 1},
	{"a peak as a string", HEAD " \"peak_flops\": {\"fp32\": \"19.5\"},\n" BW "}",
	 RFL_ERR_FORMAT, "peak_flops.fp32", 2},
	{"peak_flops not an object", HEAD " \"peak_flops\": [1],\n" BW "}", RFL_ERR_FORMAT,
	 "peak_flops", 2},
	{"name not a string", "{\"name\": 3, \"kind\": \"gpu\",\n" PEAK BW "}", RFL_ERR_FORMAT,
	 "name", 1},
	{"unknown kind", "{\"name\": \"x\",\n \"kind\": \"gpu2\",\n" PEAK BW "}", RFL_ERR_FORMAT,
	 "kind", 2},
	{"unknown precision", HEAD PEAK BW ",\n \"x\": 1}", RFL_ERR_FORMAT, "x", 4},
	{"unknown precision name", HEAD " \"peak_flops\": {\"fp32\": 1e12, \"fp4\": 1e15},\n" BW "}",
	 RFL_ERR_FORMAT, "peak_flops.fp4", 2},
	{"unknown level", HEAD PEAK " \"mem_bw\": {\"dram\": 1e11,\n \"l3\": 5e11}}", RFL_ERR_FORMAT,
	 "mem_bw.l3", 4},
	{"misspelt key", HEAD " \"peek_flops\": {\"fp32\": 1e12},\n" BW "}", RFL_ERR_FORMAT,
	 "peek_flops", 2},
	{"duplicate key", HEAD PEAK BW ",\n \"name\": \"y\"}", RFL_ERR_FORMAT, "name", 4},
	{"duplicate precision", HEAD " \"peak_flops\": {\"fp32\": 1e12, \"fp32\": 2e12},\n" BW "}",
	 RFL_ERR_FORMAT, "peak_flops.fp32", 2},
	{"negative bandwidth", HEAD PEAK " \"mem_bw\": {\"dram\": -1e11}}", RFL_ERR_NUMBER,
	 "mem_bw.dram", 3},
	{"negative memory", HEAD PEAK BW ",\n \"mem_bytes\": -4}", RFL_ERR_NUMBER, "mem_bytes", 4},
	{"units not whole", HEAD PEAK BW ",\n \"units\": 1.5}", RFL_ERR_NUMBER, "units", 4},
	{"units too large", HEAD PEAK BW ",\n \"units\": 3e9}", RFL_ERR_NUMBER, "units", 4},
	{"inf (1e999)", HEAD " \"peak_flops\": {\"fp32\": 1e999},\n" BW "}", RFL_ERR_SYNTAX, "peak_flops.fp32", 2},
	{"NaN", HEAD " \"peak_flops\": {\"fp32\": nan},\n" BW "}", RFL_ERR_SYNTAX, "peak_flops.fp32", 2},
	{"cut after a value", HEAD " \"peak_flops\": {\"fp32\": 1e12,\n \"fp64\": 5e11", RFL_ERR_SYNTAX,
	 "peak_flops.fp64", 3},
	{"no colon", HEAD PEAK BW ",\n \"measured\": {\"mem_bw\": {\"dram\" 5}}}", RFL_ERR_SYNTAX,
	 "measured.mem_bw.dram", 4},
	{"array without a comma", HEAD PEAK BW ",\n \"aliases\": [\"a\" \"b\"]}", RFL_ERR_SYNTAX,
	 "aliases", 4},
	{"alias with a comma", HEAD PEAK BW ",\n \"aliases\": [\"a,b\"]}", RFL_ERR_FORMAT, "aliases", 4},
	{"alias not a string", HEAD PEAK BW ",\n \"aliases\": [\"a\", 2]}", RFL_ERR_FORMAT, "aliases", 4},
	{"measured: unknown key", HEAD PEAK BW ",\n \"measured\": {\"peak\": {}}}", RFL_ERR_FORMAT,
	 "measured.peak", 4},
	{"measured: empty", HEAD PEAK BW ",\n \"measured\": {}}", RFL_ERR_MISSING, "measured", 4},
	{"measured: nothing > 0", HEAD PEAK BW ",\n \"measured\": {\"mem_bw\": {\"dram\": null}}}",
	 RFL_ERR_MISSING, "measured.mem_bw", 4},
	{"measured: negative", HEAD PEAK BW ",\n \"measured\": {\n  \"mem_bw\": {\"dram\": -5}}}",
	 RFL_ERR_NUMBER, "measured.mem_bw.dram", 5},
	{"measured: bad level", HEAD PEAK BW ",\n \"measured\": {\"mem_bw\": {\"hbm\": 5}}}",
	 RFL_ERR_FORMAT, "measured.mem_bw.hbm", 4},
	{"measured: threads not whole", HEAD PEAK BW ",\n \"measured\": {\"mem_bw\": {\"dram\": 5},\n"
	 " \"threads\": 2.5}}", RFL_ERR_NUMBER, "measured.threads", 5},
	{"link: not an object", HEAD PEAK BW ",\n \"link\": \"nvlink\"}", RFL_ERR_FORMAT, "link", 4},
	{"link: no kind", HEAD PEAK BW ",\n \"link\": {\"gen\": 4}}", RFL_ERR_MISSING, "link.kind", 4},
	{"link: unknown kind", HEAD PEAK BW ",\n \"link\": {\"kind\": \"usb\"}}", RFL_ERR_FORMAT,
	 "link.kind", 4},
	{"link: kind a number", HEAD PEAK BW ",\n \"link\": {\"kind\": 4}}", RFL_ERR_FORMAT, "link.kind", 4},
	{"link: unknown key", HEAD PEAK BW ",\n \"link\": {\"kind\": \"pcie\",\n \"speed\": 1}}",
	 RFL_ERR_FORMAT, "link.speed", 5},
	{"link: duplicate key", HEAD PEAK BW ",\n \"link\": {\"kind\": \"pcie\", \"kind\": null}}",
	 RFL_ERR_FORMAT, "link.kind", 4},
	{"link: negative bandwidth", HEAD PEAK BW ",\n \"link\": {\"kind\": \"pcie\",\n"
	 " \"bw_per_direction\": -32e9}}", RFL_ERR_NUMBER, "link.bw_per_direction", 5},
	{"link: gen not whole", HEAD PEAK BW ",\n \"link\": {\"kind\": \"pcie\", \"gen\": 4.5}}",
	 RFL_ERR_NUMBER, "link.gen", 4},
	{"link: source a number", HEAD PEAK BW ",\n \"link\": {\"kind\": \"pcie\", \"source\": 1}}",
	 RFL_ERR_FORMAT, "link.source", 4},
	{"link: allreduce without busbw", HEAD PEAK BW ",\n \"link\": {\"kind\": \"nvlink\",\n"
	 " \"allreduce\": {\"base_s\": 1e-5}}}", RFL_ERR_MISSING, "link.allreduce.busbw", 5},
	{"link: allreduce busbw 0", HEAD PEAK BW ",\n \"link\": {\"kind\": \"nvlink\",\n"
	 " \"allreduce\": {\"busbw\": 0}}}", RFL_ERR_MISSING, "link.allreduce.busbw", 5},
	{"link: allreduce gpus not whole", HEAD PEAK BW ",\n \"link\": {\"kind\": \"nvlink\",\n"
	 " \"allreduce\": {\"busbw\": 1e11,\n \"gpus\": 2.5}}}", RFL_ERR_NUMBER, "link.allreduce.gpus", 6},
	{"link: allreduce unknown key", HEAD PEAK BW ",\n \"link\": {\"kind\": \"nvlink\",\n"
	 " \"allreduce\": {\"busbw\": 1e11, \"alpha\": 1}}}", RFL_ERR_FORMAT, "link.allreduce.alpha", 5},
	{"link: allreduce not an object", HEAD PEAK BW ",\n \"link\": {\"kind\": \"nvlink\",\n"
	 " \"allreduce\": []}}", RFL_ERR_FORMAT, "link.allreduce", 5},
	{"a whole table", "{\"count\": 1, \"machines\": []}", RFL_ERR_FORMAT, "machines", 1},
	{"an array", "[{\"name\": \"x\"}]", RFL_ERR_FORMAT, "", 1},
	{"empty", "", RFL_ERR_SYNTAX, "", 1},
	{"trailing garbage", HEAD PEAK BW "}\n}", RFL_ERR_SYNTAX, "", 4},
};

static void test_bad_files(void) {
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		rfl_result r = parse(bad[i].json);
		int ok = r == bad[i].code && err.code == r && strcmp(err.where, bad[i].field) == 0 &&
				 (long)err.line == bad[i].line && err.msg[0] && err.col > 0 && mf.machine.name == 0;
		if (!RT_CHECK(ok))
			printf("     %s: got %s, field '%s', line %ld:%ld (%s); want %s, '%s', line %ld\n",
				   bad[i].what, rfl_result_str(r), err.where, (long)err.line, (long)err.col, err.msg,
				   rfl_result_str(bad[i].code), bad[i].field, bad[i].line);
	}
}

/* A machine file cut short at every byte: always an error, never a
   crash, and a syntax error points at the last line of what is left. */
static void test_truncated(void) {
	const char *f = HEAD PEAK BW ",\n \"source\": \"s\"}";
	size_t n = strlen(f), cut;
	int all_failed = 1, lines_ok = 1;
	for (cut = 0; cut < n; cut++) {
		long lines = 1;
		size_t i;
		rfl_result r = rfl_machine_file_parse(f, cut, toks, 512, strs, sizeof strs, &mf, &err);
		if (r == RFL_OK) all_failed = 0;
		for (i = 0; i < cut; i++) lines += f[i] == '\n';
		if (r == RFL_ERR_SYNTAX && (long)err.line != lines) lines_ok = 0;
	}
	RT_CHECK(all_failed);
	RT_CHECK(lines_ok);
	RT_EQ_INT(rfl_machine_file_parse(f, n, toks, 512, strs, sizeof strs, &mf, &err), RFL_OK);
}

static void test_buffers(void) {
	/* strings: "ab" 3 + "c" 2 + "x,yz" 5 + "s" 2 = 12 bytes */
	const char *f = "{\"name\": \"ab\", \"id\": \"c\", \"aliases\": [\"x\", \"yz\"], \"source\": \"s\","
					" \"kind\": \"soc\", \"peak_flops\": {\"fp16\": 1}, \"mem_bw\": {\"l1\": 1}}";
	rfl_json_doc count;
	RT_EQ_INT(rfl_machine_file_parse(f, strlen(f), toks, 512, strs, 11, &mf, &err), RFL_ERR_BUFFER);
	RT_EQ_INT((long long)err.need, 12);
	RT_STR(err.where, "strbuf");
	RT_CHECK(mf.machine.name == 0);
	RT_EQ_INT(rfl_machine_file_parse(f, strlen(f), toks, 512, strs, 12, &mf, &err), RFL_OK);
	RT_STR(mf.machine.aliases, "x,yz");
	RT_STR(mf.machine.source, "s");
	RT_EQ_INT(mf.machine.kind, RFL_KIND_SOC);
	rfl_json_parse(&count, f, strlen(f), 0, 0);
	RT_EQ_INT(rfl_machine_file_parse(f, strlen(f), toks, 4, strs, 12, &mf, &err), RFL_ERR_BUFFER);
	RT_EQ_INT(err.need, count.n);
	RT_STR(err.where, "toks");
	RT_EQ_INT(rfl_machine_file_parse(f, strlen(f), toks, count.n, strs, 12, &mf, &err), RFL_OK);
	RT_EQ_INT(rfl_machine_file_parse(0, 5, toks, 512, strs, 12, &mf, &err), RFL_ERR_ARG);
	RT_EQ_INT(rfl_machine_file_parse(f, strlen(f), toks, 512, strs, 12, 0, &err), RFL_ERR_ARG);
	RT_EQ_INT(rfl_machine_file_parse(f, strlen(f), toks, 512, strs, 12, &mf, 0), RFL_OK);
}

/* Both links absent, or the same figures to 15 digits and the same words. */
static int same_link(const rfl_link *a, const rfl_link *b) {
	const double x[6] = {a ? a->bw_bytes_per_s : 0, a ? a->latency_s : 0, a ? a->ar_base_s : 0,
						 a ? a->ar_step_s : 0, a ? a->ar_busbw : 0, a ? a->ar_eager_s : 0};
	const double y[6] = {b ? b->bw_bytes_per_s : 0, b ? b->latency_s : 0, b ? b->ar_base_s : 0,
						 b ? b->ar_step_s : 0, b ? b->ar_busbw : 0, b ? b->ar_eager_s : 0};
	int i, ok;
	if (!a || !b) return a == b;
	ok = a->kind == b->kind && a->gen == b->gen && a->lanes == b->lanes &&
		 a->gpus_per_node == b->gpus_per_node && a->ar_gpus == b->ar_gpus && strcmp(a->source, b->source) == 0 &&
		 (a->ar_busbw > 0 ? strcmp(a->ar_source, b->ar_source) == 0 : 1);
	for (i = 0; i < 6; i++) ok &= fabs(x[i] - y[i]) <= 1e-14 * x[i];
	return ok;
}

/* Every table machine through the tools' writer (what rfl-hw NAME --json
   prints) and back: the same machine, link included, figures to 15 digits. */
static int same_machine(const rfl_machine *a, const rfl_machine *b) {
	int i, ok = strcmp(a->id, b->id) == 0 && strcmp(a->name, b->name) == 0 &&
				strcmp(a->aliases, b->aliases) == 0 && strcmp(a->source, b->source) == 0 &&
				a->kind == b->kind && a->units == b->units;
	const double *x[4] = {&a->mem_bytes, &a->l2_bytes, &a->boost_mhz, &a->tdp_w};
	const double *y[4] = {&b->mem_bytes, &b->l2_bytes, &b->boost_mhz, &b->tdp_w};
	for (i = 0; i < RFL_PREC_COUNT; i++)
		ok &= fabs(a->peak_flops[i] - b->peak_flops[i]) <= 1e-14 * a->peak_flops[i];
	for (i = 0; i < RFL_LEVEL_COUNT; i++)
		ok &= fabs(a->bw_bytes_per_s[i] - b->bw_bytes_per_s[i]) <= 1e-14 * a->bw_bytes_per_s[i];
	for (i = 0; i < 4; i++) ok &= fabs(*x[i] - *y[i]) <= 1e-14 * *x[i];
	return ok && same_link(a->link, b->link);
}

static void test_table_round_trip(void) {
	static char text[16384];
	int i, n = rfl_hw_count(), bad_ones = 0;
	for (i = 0; i < n; i++) {
		const rfl_machine *m = rfl_hw_get(i);
		rfl_machine_file w;
		size_t len;
		memset(&w, 0, sizeof w);
		w.machine = *m;
		w.measured = *m, w.has_measured = i % 2, w.measured_threads = i; /* odd ones: "measured" */
		len = rfl_machine_file_print(text, sizeof text, &w) - 1;
		if (len >= sizeof text - 1 ||
			rfl_machine_file_parse(text, len, toks, 512, strs, sizeof strs, &mf, &err) != RFL_OK ||
			!same_machine(m, &mf.machine) || mf.has_measured != i % 2 ||
			(i % 2 && (mf.measured_threads != i || !same_machine(m, &mf.measured)))) {
			printf("     round trip of %s: %s (%s: %s)\n", m->id, rfl_result_str(err.code), err.where,
				   err.msg);
			bad_ones++;
		}
	}
	RT_CHECK(n >= 40);
	RT_EQ_INT(bad_ones, 0);
}

/* The writer's buffer rule, and its bytes for a machine typed here: what
   rfl-hw --json printed for this file before the library wrote it. */
static void test_writer(void) {
	static char text[4096], again[4096];
	const char *f = "{\"name\": \"Board \\\"Q\\\"\", \"id\": \"bq\", \"aliases\": [\"q1\", \"q-2\"], \"kind\": \"cpu\",\n"
					" \"peak_flops\": {\"fp32\": 2e9}, \"mem_bw\": {\"dram\": 4e9, \"l1\": 8e9},\n"
					" \"units\": 4, \"measured\": {\"mem_bw\": {\"dram\": 3e9}, \"threads\": 4,\n"
					" \"source\": \"by hand\"}}";
	const char *want =
		"{\n  \"name\": \"Board \\\"Q\\\"\",\n  \"id\": \"bq\",\n  \"aliases\": [\n    \"q1\",\n    \"q-2\"\n  ],\n"
		"  \"kind\": \"cpu\",\n  \"peak_flops\": {\n    \"fp64\": null,\n    \"fp64_tensor\": null,\n"
		"    \"fp32\": 2000000000,\n    \"tf32_tensor\": null,\n    \"fp16\": null,\n    \"fp16_tensor\": null,\n"
		"    \"bf16_tensor\": null,\n    \"fp8_tensor\": null,\n    \"int8_tensor\": null\n  },\n"
		"  \"mem_bw\": {\n    \"dram\": 4000000000,\n    \"l2\": null,\n    \"l1\": 8000000000\n  },\n"
		"  \"mem_bytes\": null,\n  \"l2_bytes\": null,\n  \"units\": 4,\n  \"boost_mhz\": null,\n"
		"  \"tdp_w\": null,\n  \"ridge\": {\n    \"fp32_dram\": 0.5,\n    \"fp32_l1\": 0.25\n  },\n"
		"  \"source\": \"\",\n  \"measured\": {\n    \"mem_bw\": {\n      \"dram\": 3000000000,\n"
		"      \"l2\": null,\n      \"l1\": null\n    },\n    \"threads\": 4,\n    \"source\": \"by hand\"\n  }\n}\n";
	size_t need;
	RT_EQ_INT(parse(f), RFL_OK);
	need = rfl_machine_file_print(0, 0, &mf); /* count mode */
	RT_EQ_INT((long)need, (long)strlen(want) + 1);
	RT_EQ_INT((long)rfl_machine_file_print(text, 10, &mf), (long)need); /* short: the size again */
	RT_EQ_INT((long)strlen(text), 9);
	RT_EQ_INT((long)rfl_machine_file_print(text, sizeof text, &mf), (long)need);
	RT_STR(text, want);
	/* read back and written again: the same bytes */
	RT_EQ_INT(rfl_machine_file_parse(text, need - 1, toks, 512, strs, sizeof strs, &mf, &err), RFL_OK);
	rfl_machine_file_print(again, sizeof again, &mf);
	RT_STR(again, want);
}

/* The JSON writer alone: nesting, escapes, null for NaN and unknown,
   exact integers, the buffer rule and a badly nested document. */
static void test_json_writer(void) {
	static const char want[] =
		"{\n  \"a\": [\n    1.5,\n    null,\n    18446744073709551615,\n    {}\n  ],\n"
		"  \"s\": \"q\\\"\\\\\\n\\t\\u0001\",\n  \"n\": null,\n  \"b\": false,\n  \"e\": []\n}\n";
	char buf[256];
	rfl_json_writer w;
	volatile double zero = 0;
	int pass;
	for (pass = 0; pass < 2; pass++) { /* count mode, then the buffer */
		rfl_json_w_init(&w, pass ? buf : 0, pass ? sizeof buf : 0);
		rfl_json_w_obj(&w, 0);
		rfl_json_w_arr(&w, "a");
		rfl_json_w_num(&w, 0, 1.5);
		rfl_json_w_num(&w, 0, zero / zero);
		rfl_json_w_u64(&w, 0, 18446744073709551615ull);
		rfl_json_w_obj(&w, 0);
		rfl_json_w_end(&w);
		rfl_json_w_end(&w);
		rfl_json_w_str(&w, "s", "q\"\\\n\t\001");
		rfl_json_w_num_if(&w, "n", 0, 7);
		rfl_json_w_bool(&w, "b", 0);
		rfl_json_w_arr(&w, "e");
		rfl_json_w_end(&w);
		rfl_json_w_end(&w);
		RT_EQ_INT(rfl_json_w_finish(&w), pass ? RFL_OK : RFL_ERR_BUFFER);
		RT_EQ_INT((long)w.len, (long)sizeof want - 1);
	}
	RT_STR(buf, want);
	rfl_json_w_init(&w, buf, 8); /* short: the prefix, NUL-terminated */
	rfl_json_w_str(&w, 0, "abcdefghij");
	RT_EQ_INT(rfl_json_w_finish(&w), RFL_ERR_BUFFER);
	RT_STR(buf, "\"abcdef");
	RT_EQ_INT((long)w.len, 12);
	rfl_json_w_init(&w, buf, sizeof buf); /* an end too many, an object left open */
	rfl_json_w_end(&w);
	RT_EQ_INT(rfl_json_w_finish(&w), RFL_ERR_FORMAT);
	rfl_json_w_init(&w, buf, sizeof buf);
	rfl_json_w_obj(&w, 0);
	RT_EQ_INT(rfl_json_w_finish(&w), RFL_ERR_FORMAT);
}

int main(void) {
	test_json_writer();
	test_minimal();
	test_full_and_measured();
	test_link();
	test_bad_files();
	test_truncated();
	test_buffers();
	test_table_round_trip();
	test_writer();
	return rt_done();
}
