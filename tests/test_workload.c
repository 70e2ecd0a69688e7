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
#ifdef RFL_NO_ERROR_STRINGS /* messages compiled out */
#define MSG(s) ""
#else
#define MSG(s) s
#endif

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

/* ---- rfl_workload_load: a source as a tool's options name it, in one
   arena: counted (NULL), too small (64 bytes), then built. */
static unsigned char big[8 << 20];

/* Count, then 64 bytes (the same count), then the bytes counted: returns the last. */
static rfl_result load3(rfl_workload *wl, const rfl_workload_desc *d, uint64_t *need) {
	RT_EQ_INT(rfl_workload_load(wl, d, 0, 0), RFL_ERR_BUFFER);
	*need = wl->err.need;
	if (!RT_CHECK(*need > 1 && *need <= sizeof big)) return RFL_ERR_BUFFER;
	RT_EQ_INT(rfl_workload_load(wl, d, big, 64), RFL_ERR_BUFFER);
	RT_EQ_U64(wl->err.need, *need);
	return rfl_workload_load(wl, d, big, (size_t)*need);
}

#ifndef RFL_NO_ZOO
static void test_load_zoo(void) {
	rfl_workload wl;
	rfl_workload_desc d;
	uint64_t need;
	memset(&d, 0, sizeof d);
	d.model = "ResNet-50";
	RT_EQ_INT(load3(&wl, &d, &need), RFL_OK);
	/* at least the zoo's 720 records of 112 + 64 name bytes (x86-64) */
	RT_CHECK(need >= 720 * (sizeof(rfl_layer) + 64));
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, (size_t)need - 1), RFL_ERR_BUFFER); /* exact */
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, (size_t)need), RFL_OK);
	RT_EQ_INT(wl.source, RFL_WL_ZOO);
	RT_CHECK((unsigned char *)wl.net.layers >= big && (unsigned char *)wl.net.layers < big + need);
	RT_EQ_U64(params(&wl), 25557032); /* torchvision's ResNet50_Weights */
	/* a step's options for a CNN: exit 2's message, the list named */
	d.seq = 8, d.seq_set = 1;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_ARG);
	RT_STR(wl.err.msg, MSG("--phase, --seq and --logits are for decoder LLMs (--list)"));
	/* ... before the name is found unknown */
	d.model = "no-such-model";
	RT_EQ_INT(rfl_workload_load(&wl, &d, 0, 0), RFL_ERR_ARG);
	d.seq_set = 0;
	RT_EQ_INT(rfl_workload_load(&wl, &d, 0, 0), RFL_ERR_UNKNOWN_NAME);
	/* --dim is for ONNX files; no source at all */
	d.model = "alexnet", d.dims = "seq=4";
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_ARG);
	RT_STR(wl.err.msg, MSG("--dim is for --onnx models"));
	d.dims = 0, d.model = 0;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_ARG);
	/* a build error keeps its place: AlexNet at 8x8 (see test_zoo) */
	d.model = "alexnet", d.res = 8;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_SHAPE);
	RT_STR(wl.err.where, "layer 3 (maxpool in features)");
}
#endif

#ifndef RFL_NO_LLM
static void test_load_llm(void) {
	rfl_workload wl;
	rfl_workload_desc d;
	rfl_warning warn;
	uint64_t need;
	size_t n;
	char *text;
	memset(&d, 0, sizeof d);
	/* by name: the config in the arena, the default step */
	d.model = "llama-3-8b";
	RT_EQ_INT(load3(&wl, &d, &need), RFL_OK);
	RT_CHECK((const unsigned char *)wl.llm >= big && (const unsigned char *)wl.llm < big + need);
	RT_EQ_INT((int)wl.llm->layers, 32);
	RT_EQ_INT(wl.phase, RFL_LLM_DECODE);
	RT_EQ_U64(params(&wl), 8030261248ull); /* Meta-Llama-3-8B, published */
	/* options that do not go together (rfl-estimate's exit 2) */
	d.cost.mode = RFL_MODE_TRAIN, d.phase = RFL_WL_DECODE;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_ARG);
	RT_STR(wl.err.msg, MSG("--mode train is a prefill (decode generates without gradients)"));
	d.cost.mode = RFL_MODE_INFER, d.phase = RFL_WL_PREFILL, d.seq = 0, d.seq_set = 1;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_ARG);
	RT_STR(wl.err.msg, MSG("--seq must be at least 1 for a prefill"));
	memset(&d, 0, sizeof d);
#ifndef RFL_NO_STDIO
	/* a config.json by path, named by the caller */
	d.hf_config = "tests/data/hf/llama-3-8b.json", d.name = "mine";
	RT_EQ_INT(load3(&wl, &d, &need), RFL_OK);
	RT_STR(wl.name, "mine");
	RT_EQ_U64(params(&wl), 8030261248ull);
	d.hf_config = "tests/data/no-such.json";
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_IO);
	RT_STR(wl.err.msg, "cannot open the file");
#endif
	/* by bytes: GPT-2 small, 124,439,808 parameters (tied head) */
	text = rt_slurp("tests/data/hf/gpt2.json", &n);
	if (!RT_CHECK(text != 0)) return;
	d.hf_config = "gpt2.json", d.bytes = text, d.bytes_len = n;
	RT_EQ_INT(load3(&wl, &d, &need), RFL_OK);
	RT_EQ_U64(params(&wl), 124439808);
	free(text);
	/* an unknown model_type: read as Llama-style with a warning, or refused */
	text = (char *)"{\"model_type\": \"mine\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
				   "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 256}";
	d.bytes = text, d.bytes_len = strlen(text), d.warning = &warn;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_OK);
	RT_EQ_INT(warn.code, RFL_WARN_ASSUMED_LLAMA_LIKE);
	d.strict = 1;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_UNSUPPORTED);
	RT_STR(wl.err.where, "model_type");
	/* 200 layers: more than a count before the read covers, so the first
	   build asks again, with the bytes it needs. Hand count: embedding and
	   untied head 2 x 256 x 64; per layer q, k, v, o 4 x 64 x 64 + gated
	   MLP 3 x 64 x 128 + 2 norms x 64 = 41,088; final norm 64:
	   32,768 + 200 x 41,088 + 64 = 8,250,432. */
	text = (char *)"{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 200, "
				   "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 256}";
	d.bytes = text, d.bytes_len = strlen(text), d.strict = 0, d.warning = 0;
	RT_EQ_INT(rfl_workload_load(&wl, &d, 0, 0), RFL_ERR_BUFFER);
	need = wl.err.need;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, (size_t)need), RFL_ERR_BUFFER);
	RT_CHECK(wl.err.need > need && wl.err.need <= sizeof big);
	need = wl.err.need;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, (size_t)need), RFL_OK);
	RT_EQ_U64(params(&wl), 8250432);
}
#endif

#if !defined(RFL_NO_ONNX) && !defined(RFL_NO_STDIO)
static void test_load_onnx(void) {
	static const char *path = "tests/onnx/zoo/resnet18.onnx";
	rfl_workload wl;
	rfl_workload_desc d;
	uint64_t need;
	size_t n;
	char *bytes;
	FILE *f;
	memset(&d, 0, sizeof d);
	d.onnx_file = path, d.cost.batch = 8; /* its MANIFEST (see test_onnx) */
	RT_EQ_INT(load3(&wl, &d, &need), RFL_OK);
	RT_STR(wl.name, "resnet18");
	RT_EQ_U64(params(&wl), 11684712);
	RT_CHECK((const unsigned char *)wl.onnx >= big && (const unsigned char *)wl.onnx < big + need);
	/* by bytes: the same */
	bytes = rt_slurp(path, &n);
	if (!RT_CHECK(bytes != 0)) return;
	d.bytes = bytes, d.bytes_len = n;
	RT_EQ_INT(load3(&wl, &d, &need), RFL_OK);
	RT_EQ_U64(params(&wl), 11684712);
	free(bytes);
	/* a stream is read once: counted as RFL_WL_STREAM_ARENA; too small
	   an arena cannot be made good (need 0) */
	d.bytes = 0, d.bytes_len = 0;
	if (!RT_CHECK((f = fopen(path, "rb")) != 0)) return;
	d.stream = f;
	RT_EQ_INT(rfl_workload_load(&wl, &d, 0, 0), RFL_ERR_BUFFER);
	RT_EQ_U64(wl.err.need, RFL_WL_STREAM_ARENA);
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, 4096), RFL_ERR_BUFFER);
	RT_EQ_U64(wl.err.need, 0);
	rewind(f);
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_OK);
	RT_EQ_U64(params(&wl), 11684712);
	fclose(f);
	/* a symbolic dim without a value: the builder's error; a step's options */
	memset(&d, 0, sizeof d);
	d.onnx_file = "tests/onnx/ops/gru-dyn.onnx";
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_MISSING);
	d.dims = "seq=7";
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_OK);
	d.phase = RFL_WL_PREFILL;
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_ARG);
	d.phase = 0, d.onnx_file = "tests/data";
	RT_EQ_INT(rfl_workload_load(&wl, &d, big, sizeof big), RFL_ERR_IO);
	RT_STR(wl.err.msg, "is a directory");
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
	test_load_onnx();
#endif
#ifndef RFL_NO_ZOO
	test_load_zoo();
#endif
#ifndef RFL_NO_LLM
	test_load_llm();
#endif
	return rt_done();
}
