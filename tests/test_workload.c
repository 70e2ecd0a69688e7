/* The workload (rfl_workload): one value built by the zoo, LLM and ONNX
   builders, the library's one default step, the size query, the error a
   builder leaves, and a split over GPUs. Expected values come from
   torchvision's and Hugging Face's published numbers and configs, or are
   derived by hand beside them. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

#define RECS RFL_LLM_NET_LAYERS(32) /* llama-3-8b: 32 layers; more than the zoo's */
static rfl_layer rec[RECS];
static char names[RFL_WL_NAMES(RECS)];

static uint64_t params(const rfl_workload *wl) {
	rfl_net_cost t;
	return rfl_net_cost_get(&wl->net, &wl->cost, &t) == RFL_OK ? t.params : 0;
}

#ifndef RFL_NO_ZOO
static void test_zoo(void) {
	rfl_workload wl;
	rfl_workload_desc d;
	memset(&d, 0, sizeof d);
	/* no records: the builder asks for them */
	rfl_workload_init(&wl, 0, 0, 0, 0);
	RT_EQ_INT(rfl_workload_find(&wl, "ResNet-50", 0, &d), RFL_ERR_BUFFER);
	RT_EQ_U64(wl.err.need, RFL_ZOO_MAX_LAYERS);
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "ResNet-50", 0, &d), RFL_OK);
	RT_EQ_INT(wl.source, RFL_WL_ZOO);
	RT_STR(wl.name, "resnet50"); /* the zoo's spelling */
	RT_EQ_INT((int)wl.res, 224);
	RT_EQ_U64(wl.cost.batch, 1); /* 0 asked: 1 */
	RT_EQ_U64(params(&wl), 25557032); /* torchvision's ResNet50_Weights: 25,557,032 */
	/* too small a resolution: the net's error, with its layer */
	d.res = 8; /* AlexNet's 11x11 stride-4 conv leaves 1x1; its 3x3 pool cannot */
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_zoo(&wl, "alexnet", &d), RFL_ERR_SHAPE);
	RT_EQ_INT(wl.err.code, RFL_ERR_SHAPE);
	RT_STR(wl.err.where, "layer 3 (maxpool in features)");
	/* neither the zoo's nor the table's */
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "no-such-model", 0, 0), RFL_ERR_UNKNOWN_NAME);
	RT_EQ_INT(wl.err.code, RFL_ERR_UNKNOWN_NAME);
}
#endif

#ifndef RFL_NO_LLM
static void test_llm_default_step(void) {
	rfl_workload wl;
	rfl_workload_desc d;
	rfl_llm_config cfg;
	rfl_llm_figures f;
	memset(&d, 0, sizeof d);
	rfl_workload_init(&wl, 0, 0, 0, 0);
	RT_EQ_INT(rfl_workload_find(&wl, "llama-3.2-1b", &cfg, &d), RFL_ERR_BUFFER);
	RT_EQ_U64(wl.err.need, RFL_LLM_NET_LAYERS(16)); /* 16 layers */
	/* the one default: an inference decode after 1,024 tokens, the
	   config's type (torch_dtype bfloat16), causal attention */
	d.cost.batch = 4;
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "Llama-3.2-1B", &cfg, &d), RFL_OK);
	RT_EQ_INT(wl.source, RFL_WL_LLM);
	RT_STR(wl.name, "llama-3.2-1b");
	RT_CHECK(wl.llm == &cfg);
	RT_EQ_INT(wl.phase, RFL_LLM_DECODE);
	RT_EQ_U64(wl.seq, 1024);
	RT_EQ_INT(wl.logits_all, 0);
	RT_EQ_INT(wl.cost.mode, RFL_MODE_INFER);
	RT_EQ_INT(wl.cost.dtype, RFL_DTYPE_BF16);
	RT_EQ_INT(wl.cost.causal, 1);
	RT_EQ_U64(wl.cost.batch, 4); /* the batch lives in the cost desc alone */
	/* the cache after the step: 1,025 positions x 2 (K, V) x 8 kv heads x
	   64 x 16 layers x 4 sequences x 2 bytes = 134,348,800 */
	RT_EQ_INT(rfl_workload_figures(&wl, 0, &f), RFL_OK);
	RT_EQ_U64(f.kv_cache_bytes, 134348800);
	RT_EQ_U64(f.tokens, 4);
	/* training: a prefill of 1,024 tokens, the LM head on every position */
	d.cost.mode = RFL_MODE_TRAIN;
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "llama-3.2-1b", &cfg, &d), RFL_OK);
	RT_EQ_INT(wl.phase, RFL_LLM_PREFILL);
	RT_EQ_U64(wl.seq, 1024);
	RT_EQ_INT(wl.logits_all, 1);
	RT_EQ_INT(wl.cost.mode, RFL_MODE_TRAIN);
	RT_EQ_INT(rfl_workload_figures(&wl, 0, &f), RFL_OK);
	RT_EQ_U64(f.tokens, 4 * 1024);
}

/* GPT-2 learns 1,024 positions (n_positions): the default decode is after
   1,023; asked beyond, the builder's own message says why. */
static void test_llm_positions(void) {
	rfl_workload wl;
	rfl_workload_desc d;
	rfl_llm_config cfg;
	memset(&d, 0, sizeof d);
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "gpt2", &cfg, &d), RFL_OK);
	RT_EQ_INT(wl.phase, RFL_LLM_DECODE);
	RT_EQ_U64(wl.seq, 1023);
	RT_EQ_U64(params(&wl), 124439808); /* GPT-2 small: 124,439,808 (HF, tied) */
	d.seq = 1024, d.seq_set = 1;
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "gpt2", &cfg, &d), RFL_ERR_SHAPE);
#ifndef RFL_NO_ERROR_STRINGS /* the message text is compiled in */
	RT_STR(wl.err.msg, "seq 1024 + 1 is beyond its 1024 learned positions");
#endif
	d.phase = RFL_WL_PREFILL; /* a prefill of 1,024 fits */
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "gpt2", &cfg, &d), RFL_OK);
	RT_EQ_INT(wl.logits_all, 0);
}

/* Split over GPUs: the plan is kept, the records become one GPU's, and a
   fit leaves them so. Llama-3-8B: 32 heads, 8 kv heads, MLP 14,336. */
static void test_llm_split(void) {
	rfl_workload wl;
	rfl_llm_config cfg;
	rfl_llm_tp tp;
	rfl_llm_tp_fit fit;
	const rfl_machine *h100;
	uint64_t whole, part;
	int count;
	RT_EQ_INT(rfl_hw_find("h100", &h100), RFL_OK);
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_find(&wl, "llama-3-8b", &cfg, 0), RFL_OK);
	whole = params(&wl);
	RT_EQ_INT(rfl_workload_split(&wl, &tp, 2), RFL_OK);
	RT_CHECK(wl.tp == &tp);
	RT_EQ_INT((int)tp.shard.heads, 16);
	RT_EQ_INT((int)tp.shard.kv_heads, 4);
	RT_EQ_INT((int)tp.shard.intermediate, 7168);
	part = params(&wl);
	RT_CHECK(part < whole && part > whole / 2); /* norms replicated */
	count = wl.net.count;
	RT_EQ_INT(rfl_workload_fit(&wl, h100, 0, &fit), RFL_OK);
	RT_EQ_INT(wl.net.count, count);
	RT_EQ_U64(params(&wl), part);
	RT_EQ_INT(rfl_workload_split(&wl, &tp, 3), RFL_ERR_SHAPE); /* 32 heads over 3 */
	RT_EQ_INT(wl.err.code, RFL_ERR_SHAPE);
}
#endif

#if !defined(RFL_NO_ONNX) && !defined(RFL_NO_STDIO)
/* tests/onnx/zoo/resnet18.onnx (its MANIFEST: dynamic batch, torch_params
   11,689,512; batch norm folded into the convs leaves 11,684,712 float
   initializer elements), named after its file. */
static void test_onnx(void) {
	static char arena[1 << 20];
	static rfl_onnx_graph g;
	static rfl_onnx_state st;
	rfl_onnx_info info;
	rfl_workload wl;
	rfl_workload_desc d;
	memset(&d, 0, sizeof d);
	if (!RT_CHECK(rfl_onnx_read_file(&st, "tests/onnx/zoo/resnet18.onnx", arena, sizeof arena, &g) == RFL_OK))
		return;
	d.onnx_file = "tests/onnx/zoo/resnet18.onnx", d.cost.batch = 8;
	rfl_workload_init(&wl, 0, 0, 0, 0);
	RT_EQ_INT(rfl_workload_onnx(&wl, &g, &info, &d), RFL_ERR_BUFFER);
	RT_CHECK(wl.err.need >= 49); /* 49 nodes */
	rfl_workload_init(&wl, rec, RECS, names, sizeof names);
	RT_EQ_INT(rfl_workload_onnx(&wl, &g, &info, &d), RFL_OK);
	RT_EQ_INT(wl.source, RFL_WL_ONNX);
	RT_STR(wl.name, "resnet18");
	RT_EQ_U64(wl.cost.batch, 8);
	RT_EQ_U64(params(&wl), 11684712);
}
#endif

int main(void) {
#ifndef RFL_NO_ZOO
	test_zoo();
#endif
#ifndef RFL_NO_LLM
	test_llm_default_step();
	test_llm_positions();
	test_llm_split();
#endif
#if !defined(RFL_NO_ONNX) && !defined(RFL_NO_STDIO)
	test_onnx();
#endif
	return rt_done();
}
