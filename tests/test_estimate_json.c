/* The estimate's JSON (rfl_workload_json, rfl_workload_figures): a small
   net of the caller's own and an LLM step (rfl_workload_find), every
   expected value derived by hand beside it, read back through the
   library's JSON reader. */
#ifndef RFL_NO_CHART
#define RFL_NO_CHART
#endif
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

static char doc[1 << 20];
static rfl_json_tok toks[1 << 16];
static rfl_json_doc jd;

/* The estimate as one object into doc: its length (0 when it failed). */
static size_t write_doc(const rfl_workload *wl, const rfl_machine *m) {
	rfl_json_writer w;
	size_t need;
	rfl_json_w_init(&w, 0, 0); /* count mode first: the size it needs */
	rfl_json_w_obj(&w, 0);
	if (rfl_workload_json(&w, wl, m, 0) != RFL_OK) return 0;
	rfl_json_w_end(&w);
	need = w.len;
	rfl_json_w_init(&w, doc, sizeof doc);
	rfl_json_w_obj(&w, 0);
	rfl_workload_json(&w, wl, m, 0);
	rfl_json_w_end(&w);
	if (rfl_json_w_finish(&w) != RFL_OK || w.len != need) return 0;
	return rfl_json_parse(&jd, doc, w.len, toks, (int)(sizeof toks / sizeof toks[0])) == RFL_OK ? w.len : 0;
}

static double num_at(const char *path) {
	double v = -1;
	RT_CHECK(rfl_json_num(&jd, rfl_json_path(&jd, 0, path), &v));
	return v;
}
static int is_null(const char *path) {
	int t = rfl_json_path(&jd, 0, path);
	return t >= 0 && jd.t[t].type == RFL_JSON_NULL;
}

static void test_linear(void) {
	static rfl_layer rec[8];
	rfl_workload wl; /* a caller's own net: a workload of no source */
	rfl_net *net = &wl.net;
	const rfl_machine *a100;
	char s[32];
	int x;
	rfl_workload_init(&wl, rec, 8, 0, 0);
	x = rfl_flatten(net, rfl_input(net, 4, 1, 1));
	rfl_linear(net, x, 3, 1);
	RT_EQ_INT(net->err.code, RFL_OK);
	wl.cost.batch = 2, wl.name = "tiny";
	RT_CHECK(write_doc(&wl, 0) > 0);
	RT_CHECK(rfl_json_str(&jd, rfl_json_path(&jd, 0, "model"), s, sizeof s) && !strcmp(s, "tiny"));
	RT_EQ_INT((int)num_at("batch"), 2);
	/* params: 4 x 3 weights + 3 biases = 15; fp32: 60 bytes */
	RT_EQ_INT((int)num_at("params"), 15);
	RT_EQ_INT((int)num_at("param_bytes"), 60);
	/* batch 2: mac = 2 x (4 x 3) x 2 = 48; flops = 48 + 2 x 3 bias adds = 54 */
	RT_EQ_INT((int)num_at("forward.mac_flops"), 48);
	RT_EQ_INT((int)num_at("forward.flops"), 54);
	/* no machine: no time keys */
	RT_EQ_INT(rfl_json_path(&jd, 0, "predicted_time_s"), -1);
	/* the records: input, flatten, linear */
	x = rfl_json_path(&jd, 0, "layers");
	RT_CHECK(rfl_json_at(&jd, x, 2) >= 0 && rfl_json_at(&jd, x, 3) < 0);
	/* with a machine: the time and the bound appear */
	RT_EQ_INT(rfl_hw_find("a100", &a100), RFL_OK);
	RT_CHECK(write_doc(&wl, a100) > 0);
	RT_CHECK(num_at("predicted_time_s") > 0);
	RT_CHECK(rfl_json_str(&jd, rfl_json_path(&jd, 0, "hw"), s, sizeof s) && !strcmp(s, a100->id));
}

#ifndef RFL_NO_LLM
static void test_llm_step(void) {
	static rfl_layer rec[RFL_LLM_NET_LAYERS(16)];
	static char names[RFL_WL_NAMES(RFL_LLM_NET_LAYERS(16))];
	rfl_llm_config cfg;
	rfl_workload wl;
	rfl_workload_desc d;
	rfl_llm_figures f;
	const rfl_machine *h100;
	char s[32];
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_hw_find("h100", &h100), RFL_OK);
	/* a decode of one token after 15 cached, batch 3, bf16 (the config's) */
	d.phase = RFL_WL_DECODE, d.seq = 15, d.seq_set = 1, d.cost.batch = 3;
	rfl_workload_init(&wl, rec, RFL_LLM_NET_LAYERS(16), names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "llama-3.2-1b", &cfg, &d), RFL_OK);
	RT_EQ_INT(rfl_workload_figures(&wl, h100, &f), RFL_OK);
	/* Llama-3.2-1B: 16 layers, 8 KV heads of 64. The cache after the step:
	   16 positions x 2 (K, V) x 8 x 64 x 16 layers x 3 sequences x 2 bytes
	   = 1,572,864; new tokens: 3 (one per sequence) */
	RT_EQ_U64(f.kv_cache_bytes, 1572864);
	RT_EQ_U64(f.tokens, 3);
	RT_CHECK(f.ttft_s == 0 && f.tokens_per_s > 0);
	RT_CHECK(write_doc(&wl, h100) > 0);
	RT_CHECK(rfl_json_str(&jd, rfl_json_path(&jd, 0, "model"), s, sizeof s) && !strcmp(s, "llama-3.2-1b"));
	RT_EQ_INT((int)num_at("kv_cache_bytes"), 1572864);
	RT_EQ_INT((int)num_at("tokens"), 3);
	RT_EQ_INT((int)num_at("seq"), 15);
	RT_CHECK(is_null("ttft_s")); /* a decode has no time to first token */
	RT_CHECK(rfl_json_str(&jd, rfl_json_path(&jd, 0, "phase"), s, sizeof s) && !strcmp(s, "decode"));
	RT_CHECK(rfl_json_str(&jd, rfl_json_path(&jd, 0, "prec"), s, sizeof s) && !strcmp(s, "bf16_tensor"));
	/* attention reads the whole cache after the step (its 16 positions);
	   the step writes its one new position: 1,572,864 / 16 = 98,304 */
	RT_EQ_INT((int)num_at("bytes.kv_read"), 1572864);
	RT_EQ_INT((int)num_at("bytes.kv_write"), 98304);
	/* the roles add up to the forward bytes */
	RT_NEAR(num_at("bytes.weights") + num_at("bytes.kv_read") + num_at("bytes.kv_write") +
				num_at("bytes.activations"),
			num_at("forward.bytes"), 1e-12);
}
#endif

int main(void) {
	test_linear();
#ifndef RFL_NO_LLM
	test_llm_step();
#endif
	return rt_done();
}
