/* test_llm.c - decoder LLMs (issue 17): counts against PyTorch, hand
   derivations, the config reader and its errors.
   Expected values come from:
   - tests/data/llm/llm-reference.json (a copy of the shared reference:
	 FlopCounterMode on transformers 5.17 / PyTorch 2.11, read at run time):
	 gpt2, gpt2-medium, llama-3.2-1b params, prefill (all and last logits),
	 decode, each by op; the models are built from the configs in the file.
   - published parameter counts (Meta-Llama-3-8B 8,030,261,248;
	 Mixtral-8x7B 46,702,792,704; Qwen2.5-0.5B 494,032,768; Qwen2.5-1.5B
	 1,543,714,304; Llama-2-7B 6,738,415,616), each derived by hand below
	 as well;
   - the configs in tests/data/hf/, written from the published config.json files.
   Every count is of the step as layer records (rfl_llm_build, costed under
   rfl_llm_cost_desc): params and mac_flops by op against the reference at
   every case, bytes by role, kinds, GQA, windows, MoE, a tiny model and a
   training step by hand. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static rfl_json_tok toks[8192];

static uint64_t jget(const rfl_json_doc *d, int obj, const char *path) {
	double v = -1;
	int t = rfl_json_path(d, obj, path);
	if (!rfl_json_num(d, t, &v)) printf("     missing %s\n", path);
	return v < 0 ? (uint64_t)-1 : (uint64_t)v;
}

/* ---- the step as layer records (rfl_llm_build) ----------------------------------- */
static rfl_layer rec[RFL_LLM_NET_LAYERS(80)];
static char rec_names[RFL_LLM_NET_NAMES(80)];
static rfl_net net;

static rfl_result rec_build(const rfl_llm_config *c, rfl_llm_phase ph, uint64_t seq, int all) {
	rfl_llm_step_desc d;
	memset(&d, 0, sizeof d);
	d.phase = ph, d.seq = seq, d.logits_all = all;
	rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(80), rec_names, sizeof rec_names);
	return rfl_llm_build(&net, c, &d);
}

static rfl_net_cost rec_cost_at(uint64_t batch, rfl_mode mode) {
	rfl_cost_desc cd;
	rfl_net_cost t;
	memset(&cd, 0, sizeof cd);
	cd.batch = batch, cd.mode = mode;
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	return t;
}

/* mac_flops of the records at a batch, by the op FlopCounterMode sees:
   nn.Linear without bias is aten.mm, GPT-2's Conv1D (a bias) torch.addmm,
   eager attention's scores and context and rotary's inv_freq x positions
   are aten.bmm (index 1 mm, 2 addmm, 3 bmm). */
static void rec_by_op(uint64_t batch, uint64_t out[4]) {
	rfl_cost_desc cd;
	int i;
	memset(&cd, 0, sizeof cd);
	cd.batch = batch;
	out[0] = out[1] = out[2] = out[3] = 0;
	for (i = 0; i < net.count; i++) {
		rfl_layer_cost lc;
		const rfl_layer *L = &net.layers[i];
		int a = L->op == RFL_OP_LINEAR ? ((L->flags & RFL_LF_BIAS) ? 2 : 1)
				: (L->op == RFL_OP_ATTENTION || L->op == RFL_OP_MATMUL) ? 3 : 0;
		rfl_layer_cost_get(&net, i, &cd, &lc);
		out[a] += lc.fwd_mac_flops;
	}
}

static uint64_t rec_jnum(const rfl_json_doc *d, int obj, const char *key) {
	double v = -1;
	if (!rfl_json_num(d, rfl_json_path(d, obj, key), &v)) printf("     missing %s\n", key);
	return v < 0 ? (uint64_t)-1 : (uint64_t)v;
}

static void rec_check_ops(const rfl_json_doc *d, int obj, uint64_t batch) {
	static const char *const k[4] = {"", "aten.mm", "aten.addmm", "aten.bmm"};
	uint64_t got[4];
	int a;
	rec_by_op(batch, got);
	RT_EQ_U64(got[0], 0); /* every mac belongs to one of the three */
	for (a = 1; a < 4; a++) {
		int v = rfl_json_get(d, obj, k[a]);
		double want = 0;
		if (v >= 0) rfl_json_num(d, v, &want);
		RT_EQ_U64(got[a], (uint64_t)want);
	}
}

/* ---- llm-reference.json: PyTorch's counts ------------------------------- */
static const char *const ref_names[3] = {"gpt2", "gpt2-medium", "llama-3.2-1b"};

/* The reference parsed into d (over toks); its text (free it), or NULL. */
static char *ref_open(rfl_json_doc *d) {
	size_t len;
	char *json = rt_slurp("tests/data/llm/llm-reference.json", &len);
	if (!RT_CHECK(json != 0)) return 0;
	if (!RT_CHECK(rfl_json_parse(d, json, len, toks, 8192) == RFL_OK)) free(json), json = 0;
	return json;
}

/* Model `name` of the reference: its object, its cases, and its config
   read by rfl_llm_config_parse. 0 when one is missing. */
static int ref_model(const rfl_json_doc *d, const char *json, const char *name, int *mo,
					 int *cs, rfl_llm_config *c) {
	static rfl_json_tok sub[1024];
	rfl_error e;
	int co;
	*mo = rfl_json_get(d, 0, name), co = rfl_json_get(d, *mo, "config");
	*cs = rfl_json_get(d, *mo, "cases");
	if (!RT_CHECK(co >= 0 && *cs >= 0)) return 0;
	return RT_CHECK(rfl_llm_config_parse(json + toks[co].start, toks[co].end - toks[co].start,
										sub, 1024, c, &e) == RFL_OK);
}

/* Batch and sequence of case k from its name ("b4_s512"). */
static void ref_case(const rfl_json_doc *d, int k, unsigned long *b, unsigned long *s) {
	char name[32];
	*b = *s = 0;
	rfl_json_str(d, k, name, sizeof name);
	RT_CHECK(sscanf(name, "b%lu_s%lu", b, s) == 2);
}

/* The records of step d (rec_build) and their cost desc (rfl_llm_cost_desc). */
static rfl_result rec_step(const rfl_llm_config *c, const rfl_llm_step_desc *d, rfl_cost_desc *cd) {
	rfl_result r;
	rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(80), rec_names, sizeof rec_names);
	if ((r = rfl_llm_build(&net, c, d)) != RFL_OK) return r;
	return rfl_llm_cost_desc(c, d, cd);
}

/* The cost of the record named `name` under cd (zeroed when absent). */
static int rec_named(const char *name, const rfl_cost_desc *cd, rfl_layer_cost *out) {
	int i;
	memset(out, 0, sizeof *out);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && !strcmp(net.layers[i].name, name))
			return rfl_layer_cost_get(&net, i, cd, out) == RFL_OK;
	return 0;
}

/* The group of the records (by module, or by kind) named `name`. */
static int rec_group(rfl_group_by by, const char *name, const rfl_cost_desc *cd,
					 const rfl_machine *m, rfl_group_cost *out) {
	static rfl_group_cost g[64];
	int i, n = rfl_net_group(&net, cd, by, m, g, 64);
	memset(out, 0, sizeof *out);
	for (i = 0; i < n && i < 64; i++)
		if (!strcmp(g[i].name, name)) { *out = g[i]; return 1; }
	return 0;
}

/* One case "bB_sS": prefill all, prefill last, decode; params each time. */
static void rec_check_case(const rfl_llm_config *c, const rfl_json_doc *d, int cs, uint64_t params,
					   uint64_t b, uint64_t s) {
	rfl_net_cost t;
	RT_EQ_INT(rec_build(c, RFL_LLM_PREFILL, s, 1), RFL_OK);
	t = rec_cost_at(b, RFL_MODE_INFER);
	RT_EQ_U64(t.params, params);
	RT_EQ_U64(t.fwd_mac_flops, rec_jnum(d, cs, "prefill_flops"));
	rec_check_ops(d, rfl_json_get(d, cs, "prefill_by_op"), b);
	RT_EQ_INT(rec_build(c, RFL_LLM_PREFILL, s, 0), RFL_OK);
	t = rec_cost_at(b, RFL_MODE_INFER);
	RT_EQ_U64(t.params, params);
	RT_EQ_U64(t.fwd_mac_flops, rec_jnum(d, cs, "prefill_flops_last_logits"));
	RT_EQ_INT(rec_build(c, RFL_LLM_DECODE, s, 0), RFL_OK);
	t = rec_cost_at(b, RFL_MODE_INFER);
	RT_EQ_U64(t.params, params);
	RT_EQ_U64(t.fwd_mac_flops, rec_jnum(d, cs, "decode_flops"));
	rec_check_ops(d, rfl_json_get(d, cs, "decode_by_op"), b);
}

/* Every model and case of the reference, built from its own config (read
   by rfl_llm_config_parse) and from the built-in config of that name. */
static void test_reference(void) {
	rfl_json_doc d;
	char *json = ref_open(&d);
	int m, cases = 0;
	if (!json) return;
	for (m = 0; m < 3; m++) {
		int mo, cs, k, pass;
		rfl_llm_config hf, bi;
		if (!ref_model(&d, json, ref_names[m], &mo, &cs, &hf)) continue;
		RT_EQ_INT(rfl_llm_find(ref_names[m], &bi), RFL_OK);
		for (pass = 0; pass < 2; pass++) {
			const rfl_llm_config *c = pass ? &bi : &hf;
			for (k = cs + 1; k < toks[cs].after; k = toks[k + 1].after) {
				unsigned long b, s;
				ref_case(&d, k, &b, &s);
				rec_check_case(c, &d, k + 1, jget(&d, mo, "params"), b, s);
				cases++;
			}
		}
	}
	RT_EQ_INT(cases, 2 * 7); /* gpt2 2, gpt2-medium 2, llama 3; two configs each */
	free(json);
}

/* Published counts, by hand:
   Llama-3-8B: embed and untied head 2 x 128256 x 4096 = 1,050,673,152;
   per layer q, o 4096^2 each, k, v 4096 x 1024 each (GQA: 8 KV heads x
   128) = 41,943,040; MLP 3 x 4096 x 14336 = 176,160,768; 2 norms 8,192:
   218,112,000 x 32 = 6,979,584,000; final norm 4,096: 8,030,261,248.
   Mixtral-8x7B: embed + head 2 x 32000 x 4096 = 262,144,000; per layer
   attention 41,943,040 + 8 experts x 176,160,768 + router 4096 x 8 +
   norms 8,192 = 1,451,270,144 x 32 = 46,440,644,608; + 4,096:
   46,702,792,704.
   Qwen2.5-0.5B (tied, q/k/v bias): embed 151936 x 896 = 136,134,656; q
   896^2 + 896 = 803,712, k and v 896 x 128 + 128 = 114,816 each, o 896^2 =
   802,816, MLP 3 x 896 x 4864 = 13,074,432, norms 1,792: 14,912,384 x 24 =
   357,897,216; + 896: 494,032,768.
   Qwen2.5-1.5B (tied): embed 151936 x 1536 = 233,373,696; q 1536^2 + 1536
   = 2,360,832, k and v 1536 x 256 + 256 = 393,472 each, o 2,359,296, MLP
   3 x 1536 x 8960 = 41,287,680, norms 3,072: 46,797,824 x 28 =
   1,310,339,072; + 1,536: 1,543,714,304.
   Llama-2-7B (MHA, untied): 2 x 32000 x 4096 = 262,144,000; per layer 4 x
   4096^2 + 3 x 4096 x 11008 + 8,192 = 202,383,360 x 32 = 6,476,267,520;
   + 4,096: 6,738,415,616. */
static void test_published_params(void) {
	static const struct { const char *name; uint64_t params; } p[] = {
		{"llama-3-8b", 8030261248ull}, {"mixtral-8x7b", 46702792704ull},
		{"qwen2.5-0.5b", 494032768ull}, {"qwen2.5-1.5b", 1543714304ull},
		{"llama-2-7b", 6738415616ull},
		/* the other built-ins: the parameter counts their Hugging Face
		   model pages give (safetensors), not derived here */
		{"gpt2-large", 774030080ull}, {"gpt2-xl", 1557611200ull},
		{"llama-3.2-3b", 3212749824ull}, {"llama-3-70b", 70553706496ull},
		{"qwen2.5-7b", 7615616512ull}, {"mistral-7b", 7241732096ull}};
	int i;
	for (i = 0; i < (int)(sizeof p / sizeof p[0]); i++) {
		rfl_llm_config c;
		rfl_net_cost t;
		RT_EQ_INT(rfl_llm_find(p[i].name, &c), RFL_OK);
		RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 0, 0), RFL_OK);
		t = rec_cost_at(1, RFL_MODE_INFER);
		RT_EQ_U64(t.params, p[i].params);
	}
}

/* The cost desc of a step: the math type is the step's, else the
   config's torch_dtype (Llama-3: bfloat16), else fp32 (GPT-2's config
   names none); storage types as given; causal; the batch (0 = 1). */
static void test_cost_desc(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_llm_find("llama-3-8b", &c), RFL_OK);
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(cd.dtype, RFL_DTYPE_BF16);
	RT_EQ_U64(cd.batch, 1);
	RT_EQ_INT(cd.causal, 1);
	RT_EQ_INT(cd.weights, RFL_DTYPE_DEFAULT);
	RT_EQ_INT(cd.kv, RFL_DTYPE_DEFAULT);
	RT_EQ_INT(cd.mode, RFL_MODE_INFER);
	d.math = RFL_DTYPE_FP8, d.weights = RFL_DTYPE_INT4, d.kv = RFL_DTYPE_FP8, d.batch = 7;
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(cd.dtype, RFL_DTYPE_FP8);
	RT_EQ_INT(cd.weights, RFL_DTYPE_INT4);
	RT_EQ_INT(cd.kv, RFL_DTYPE_FP8);
	RT_EQ_U64(cd.batch, 7);
	RT_EQ_INT(rfl_llm_find("gpt2", &c), RFL_OK);
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(cd.dtype, RFL_DTYPE_FP32);
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, 0), RFL_ERR_ARG);
	RT_EQ_INT(rfl_llm_cost_desc(0, &d, &cd), RFL_ERR_ARG);
	RT_EQ_INT(rfl_llm_cost_desc(&c, 0, &cd), RFL_ERR_ARG);
}

/* Qwen2's q/k/v biases: addmm, and bias parameters; o_proj has none. */
static void test_qwen2_bias(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_layer_cost r;
	int i;
	memset(&d, 0, sizeof d);
	d.seq = 10;
	rfl_llm_find("qwen2.5-0.5b", &c);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_CHECK(rec_named("model.layers.0.self_attn.k_proj", &cd, &r));
	RT_EQ_U64(r.params, 896 * 128 + 128);
	RT_EQ_U64(r.fwd_mac_flops, 2ull * 10 * 896 * 128);     /* no bias in mac */
	RT_EQ_U64(r.fwd_flops, 2ull * 10 * 896 * 128 + 10 * 128); /* + one add each */
	RT_CHECK(rec_named("model.layers.0.self_attn.o_proj", &cd, &r));
	RT_EQ_U64(r.params, 896 * 896);
	for (i = 0; i < net.count; i++) { /* aten.addmm: a bias; aten.mm: none */
		if (!net.layers[i].name) continue;
		if (!strcmp(net.layers[i].name, "model.layers.0.self_attn.k_proj"))
			RT_CHECK(net.layers[i].flags & RFL_LF_BIAS);
		if (!strcmp(net.layers[i].name, "model.layers.0.self_attn.o_proj"))
			RT_CHECK(!(net.layers[i].flags & RFL_LF_BIAS));
	}
}

/* GQA and the KV cache, Llama-3-8B decode at S = 2048 in bf16: 8 KV heads
   x 128 x 2 (K and V) x 2 bytes = 4,096 bytes per token and layer; the
   cache after the step holds 2049 tokens x 32 layers: 268,566,528 bytes;
   decode reads all 2049 and writes 1 per layer: 131,072 bytes. Eager
   attention mac: 4 x 32 heads x 128 x 2049 x 32 layers = 1,074,266,112
   (GQA repeats K and V for all 32 query heads). The weights read: every
   parameter but the embedding table, of which one row: (8,030,261,248 -
   128,256 x 4,096 + 4,096) x 2 bytes = 15,009,857,536. */
static void test_gqa_kv(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_net_cost t;
	rfl_group_cost g;
	rfl_layer_cost r;
	uint64_t kvc = 0;
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE, d.seq = 2048, d.math = RFL_DTYPE_BF16;
	rfl_llm_find("llama-3-8b", &c);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_OK);
	RT_EQ_U64(kvc, 268566528ull);
	RT_EQ_U64(t.fwd_kv_read_bytes, 268566528ull);
	RT_EQ_U64(t.fwd_kv_write_bytes, 131072ull);
	RT_EQ_U64(t.fwd_weight_bytes, 15009857536ull);
	RT_CHECK(rec_group(RFL_GROUP_MODULE, "model.layers.*.self_attn.attention", &cd, 0, &g));
	RT_EQ_INT(g.count, 32);
	RT_EQ_U64(g.fwd_mac_flops, 1074266112ull);
	RT_EQ_U64(g.fwd_mma_flops, g.fwd_mac_flops); /* decode: causal = eager */
	RT_EQ_U64(g.fwd_kv_read_bytes, 268566528ull);
	/* fp8 KV halves the cache; int4 weights: q_proj 4096^2 / 2 bytes */
	d.kv = RFL_DTYPE_FP8, d.weights = RFL_DTYPE_INT4;
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_OK);
	RT_EQ_U64(kvc, 268566528ull / 2);
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	RT_CHECK(rec_named("model.layers.0.self_attn.q_proj", &cd, &r));
	RT_EQ_U64(r.fwd_weight_bytes, 4096ull * 4096 / 2);
	/* batch 4: the cache x 4, the weights once */
	d.kv = d.weights = RFL_DTYPE_DEFAULT, d.batch = 4;
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_OK);
	RT_EQ_U64(kvc, 4 * 268566528ull);
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	RT_EQ_U64(t.fwd_kv_read_bytes, 4 * 268566528ull);
	RT_EQ_U64(t.fwd_weight_bytes, 15009857536ull + 3 * 4096 * 2); /* 3 more rows gathered */
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, 0), RFL_ERR_ARG);
}

/* Causal count (what FlashAttention runs) against eager, Llama-3.2-1B
   prefill S = 128: eager 4 x 32 heads x 64 x 128 x 128 per layer;
   causal query i sees i keys: 128 x 129 / 2 = 8256 pairs per head. */
static void test_causal(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_layer_cost r;
	rfl_group_cost g;
	int i;
	memset(&d, 0, sizeof d);
	d.seq = 128;
	rfl_llm_find("llama-3.2-1b", &c);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_CHECK(rec_named("model.layers.0.self_attn.attention", &cd, &r));
	RT_EQ_U64(r.fwd_mac_flops, 4ull * 32 * 64 * 128 * 128);
	RT_EQ_U64(r.fwd_mma_flops, 4ull * 32 * 64 * 8256);
	RT_EQ_U64(r.fwd_flops, 4ull * 32 * 64 * 8256 + 6ull * 32 * 8256); /* + scale, softmax */
	for (i = 0; i < net.count; i++)
		if (net.layers[i].op == RFL_OP_ATTENTION) RT_EQ_INT(net.layers[i].kind, RFL_LLM_ATTENTION + 1);
	RT_CHECK(rec_group(RFL_GROUP_KIND, "attention", &cd, 0, &g));
	RT_CHECK(g.fwd_mma_flops >= 16 * r.fwd_mma_flops);
}

/* Sliding window, Mistral-7B-v0.1 (sliding_window 4096; 32 layers, 32
   heads, 8 kv heads, head_dim 128), bf16. Decode after 8191 cached: the
   cache keeps the last window - 1 = 4095 positions (transformers 5.17's
   DynamicSlidingWindowLayer: families-reference.json's phi3 keeps 63 of a
   64 window), so the query attends 4096 (eager too: mac over 4096), the
   cache read is 32 layers x 4096 x 2 x 8 x 128 x 2 bytes = 536,870,912
   (twice that without the window) and the cache after the step is
   32 x 4095 x 2 x 8 x 128 x 2 = 536,739,840 bytes.
   Prefill of 6000: the first 4096 queries see 1..4096 keys (4096 x 4097
   / 2 = 8,390,656 pairs), the other 1904 see 4096 (7,798,784): 16,189,440
   pairs per head, 4 x 128 FLOPs each; eager stays 6000 x 6000. */
static void test_sliding_window(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_net_cost t;
	rfl_layer_cost r;
	uint64_t kvc = 0;
	memset(&d, 0, sizeof d);
	RT_EQ_INT(rfl_llm_find("mistral-7b", &c), RFL_OK);
	RT_EQ_U64(c.sliding_window, 4096);
	d.phase = RFL_LLM_DECODE, d.seq = 8191, d.math = RFL_DTYPE_BF16;
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	RT_EQ_U64(t.fwd_kv_read_bytes, 536870912ull);
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_OK);
	RT_EQ_U64(kvc, 32ull * 4095 * 2 * 8 * 128 * 2);
	RT_CHECK(rec_named("model.layers.0.self_attn.attention", &cd, &r));
	RT_EQ_U64(r.fwd_mma_flops, 32ull * 4 * 128 * 4096);
	RT_EQ_U64(r.fwd_mac_flops, 32ull * 4 * 128 * 4096);
	c.sliding_window = 0; /* no window: every position */
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	RT_EQ_U64(t.fwd_kv_read_bytes, 2 * 536870912ull);
	c.sliding_window = 4096;
	d.seq = 100; /* inside the window: unchanged */
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	RT_EQ_U64(t.fwd_kv_read_bytes, 32ull * 101 * 2 * 8 * 128 * 2);
	memset(&d, 0, sizeof d);
	d.seq = 6000, d.math = RFL_DTYPE_BF16;
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_CHECK(rec_named("model.layers.0.self_attn.attention", &cd, &r));
	RT_EQ_U64(r.fwd_mma_flops, 32ull * 4 * 128 * 16189440);
	RT_EQ_U64(r.fwd_mac_flops, 32ull * 4 * 128 * 6000 * 6000);
	d.seq = 4096; /* exactly the window: the plain causal count */
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_CHECK(rec_named("model.layers.0.self_attn.attention", &cd, &r));
	RT_EQ_U64(r.fwd_mma_flops, 32ull * 4 * 128 * (4096ull * 4097 / 2));
}

/* The experts' records of layer 0 (w1, w3, w2) summed under cd. */
static rfl_layer_cost rec_experts(const rfl_cost_desc *cd) {
	static const char *const w[3] = {"model.layers.0.block_sparse_moe.experts.w1",
									 "model.layers.0.block_sparse_moe.experts.w3",
									 "model.layers.0.block_sparse_moe.experts.w2"};
	rfl_layer_cost sum, r;
	int i;
	memset(&sum, 0, sizeof sum);
	for (i = 0; i < 3; i++) {
		RT_CHECK(rec_named(w[i], cd, &r));
		sum.params += r.params, sum.fwd_mac_flops += r.fwd_mac_flops;
		sum.fwd_weight_bytes += r.fwd_weight_bytes;
	}
	return sum;
}

/* MoE, Mixtral-8x7B decode batch 1 (bf16): 2 of 8 experts per token, so
   the experts read 2 x 3 x 4096 x 14336 x 2 bytes per layer and multiply
   2 x 2 x 3 x 4096 x 14336; at batch 64 (128 routed pairs) every expert
   is read. */
static void test_moe(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_layer_cost r;
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE, d.seq = 100, d.math = RFL_DTYPE_BF16;
	rfl_llm_find("mixtral-8x7b", &c);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	r = rec_experts(&cd);
	RT_EQ_U64(r.fwd_weight_bytes, 2ull * 3 * 4096 * 14336 * 2);
	RT_EQ_U64(r.fwd_mac_flops, 2ull * 2 * 3 * 4096 * 14336);
	RT_EQ_U64(r.params, 8ull * 3 * 4096 * 14336);
	d.batch = 64;
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	r = rec_experts(&cd);
	RT_EQ_U64(r.fwd_weight_bytes, 8ull * 3 * 4096 * 14336 * 2);
	RT_CHECK(rec_named("model.layers.0.block_sparse_moe.gate", &cd, &r));
	RT_EQ_U64(r.params, 4096 * 8);
}

/* The kinds add up to the step; the predictions follow the bytes. */
static void test_kinds_and_time(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd, zero;
	rfl_net_cost t;
	rfl_group_cost k[8];
	rfl_net_prediction p;
	const rfl_machine *h100 = 0;
	uint64_t f = 0, m = 0, b = 0, cb = 0, gb = 0;
	int i, n, head = 0;
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE, d.seq = 2048, d.math = RFL_DTYPE_BF16;
	rfl_llm_find("llama-3-8b", &c);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
	n = rfl_net_group(&net, &cd, RFL_GROUP_KIND, 0, k, 8);
	RT_EQ_INT(n, RFL_LLM_KIND_COUNT);
	for (i = 0; i < n && i < 8; i++) {
		f += k[i].fwd_flops, m += k[i].fwd_mac_flops, b += k[i].fwd_bytes;
		/* the untied LM head: 128256 x 4096 x 2 bytes, 2 x 4096 x 128256 mac */
		if (!strcmp(k[i].name, "lm_head")) {
			RT_EQ_U64(k[i].fwd_mac_flops, 2ull * 4096 * 128256);
			RT_EQ_U64(k[i].fwd_weight_bytes, 2ull * 4096 * 128256);
			head++;
		}
	}
	RT_EQ_INT(head, 1);
	RT_EQ_U64(f, t.fwd_flops);
	RT_EQ_U64(m, t.fwd_mac_flops);
	RT_EQ_U64(b, t.fwd_bytes);
#ifndef RFL_NO_HW_TABLE
	RT_EQ_INT(rfl_hw_find("h100", &h100), RFL_OK);
	RT_EQ_INT(rfl_net_predict(&net, &cd, h100, &p), RFL_OK);
	/* batch-1 decode is memory-bound: time = bytes / bandwidth */
	RT_CHECK(p.memory_s > p.compute_s);
	RT_NEAR(p.layers_s, (double)t.fwd_bytes / h100->bw_bytes_per_s[RFL_DRAM], 1e-3);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &cd, h100, 1, 65536, &gb), RFL_OK);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &cd, h100, 0, 65536, &cb), RFL_OK);
	/* the GEMMs turn compute-bound near the ridge / 2 FLOP per weight
	   byte... (989 TFLOP/s / 3.35 TB/s = 295 FLOP/B; bf16 weights: 1 FLOP
	   per byte per sequence, so about 300); the whole step never does at
	   S = 2048: attention reads 4 KB of cache per token and layer for 4 x
	   32 x 128 FLOPs, 4 FLOP/B < the ridge */
	RT_CHECK(gb > 250 && gb < 400);
	RT_EQ_U64(cb, 0);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &cd, h100, 1, gb - 1, &cb), RFL_OK);
	RT_EQ_U64(cb, 0); /* not below gb */
	/* at 128 cached tokens the whole step does turn compute-bound: the
	   batch found is the first one (memory-bound just below it) */
	d.seq = 128;
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &cd, h100, 0, 65536, &cb), RFL_OK);
	RT_CHECK(cb > gb);
	cd.batch = cb;
	RT_EQ_INT(rfl_net_predict(&net, &cd, h100, &p), RFL_OK);
	RT_CHECK(!(p.memory_s > p.compute_s));
	cd.batch = cb - 1;
	RT_EQ_INT(rfl_net_predict(&net, &cd, h100, &p), RFL_OK);
	RT_CHECK(p.memory_s > p.compute_s);
	/* errors: no net, machine or cap; fp32 math from a zero desc */
	RT_EQ_INT(rfl_net_compute_bound_batch(0, &cd, h100, 0, 64, &cb), RFL_ERR_ARG);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &cd, 0, 0, 64, &cb), RFL_ERR_ARG);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &cd, h100, 0, 0, &cb), RFL_ERR_ARG);
	memset(&zero, 0, sizeof zero);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, &zero, h100, 0, 65536, &gb), RFL_OK);
	RT_EQ_INT(rfl_net_compute_bound_batch(&net, 0, h100, 0, 65536, &cb), RFL_OK);
	RT_EQ_U64(cb, gb);
#else
	(void)p, (void)h100, (void)cb, (void)gb, (void)zero;
#endif
}

/* Each test config equals the built-in of its name. */
static void test_hf_files(void) {
	static const char *const names[5] = {"llama-3-8b", "qwen2.5-0.5b", "mixtral-8x7b",
										 "mistral-7b", "gpt2"};
	int i;
	for (i = 0; i < 5; i++) {
		char path[96];
		size_t len;
		char *json;
		rfl_llm_config a, b;
		rfl_error e;
		snprintf(path, sizeof path, "tests/data/hf/%s.json", names[i]);
		json = rt_slurp(path, &len);
		RT_CHECK(json != 0);
		if (!json) continue;
		RT_EQ_INT(rfl_llm_config_parse(json, len, toks, 8192, &a, &e), RFL_OK);
		RT_EQ_INT(rfl_llm_find(names[i], &b), RFL_OK);
		if (!RT_CHECK(memcmp(&a, &b, sizeof a) == 0)) printf("     %s\n", names[i]);
		free(json);
	}
}

/* A config with one change: `from` replaced by `to` in the Llama file. */
static rfl_result parse_edit(const char *from, const char *to, rfl_error *e) {
	static char buf[4096];
	size_t len;
	rfl_llm_config c;
	rfl_result r;
	char *json = rt_slurp("tests/data/hf/llama-3-8b.json", &len), *at;
	if (!json) return RFL_ERR_IO;
	at = strstr(json, from);
	if (!at) { free(json); return RFL_ERR_IO; }
	snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - json), json, to, at + strlen(from));
	r = rfl_llm_config_parse(buf, strlen(buf), toks, 8192, &c, e);
	free(json);
	return r;
}

static void test_config_errors(void) {
	rfl_error e;
	rfl_llm_config c;
	rfl_json_tok few[4];
	RT_EQ_INT(parse_edit("\"num_attention_heads\": 32,", "", &e), RFL_ERR_MISSING);
	RT_STR(e.where, "num_attention_heads");
	RT_EQ_INT(parse_edit("\"llama\"", "\"bert\"", &e), RFL_ERR_UNSUPPORTED);
	RT_STR(e.where, "model_type");
	RT_EQ_INT(e.line, 14); /* model_type is on line 14 of the file */
	RT_EQ_INT(parse_edit("\"model_type\": \"llama\",", "", &e), RFL_ERR_MISSING);
	RT_STR(e.where, "model_type");
	RT_EQ_INT(parse_edit("\"hidden_size\": 4096", "\"hidden_size\": -4096", &e), RFL_ERR_NUMBER);
	RT_STR(e.where, "hidden_size");
	RT_EQ_INT(e.line, 10);
	RT_EQ_INT(e.col, 18); /* the value, after 2 spaces and "hidden_size": */
	RT_EQ_INT(parse_edit("\"vocab_size\": 128256", "\"vocab_size\": 1e30", &e), RFL_ERR_OVERFLOW);
	RT_STR(e.where, "vocab_size");
	RT_EQ_INT(parse_edit("\"num_hidden_layers\": 32", "\"num_hidden_layers\": 2.5", &e), RFL_ERR_NUMBER);
	RT_STR(e.where, "num_hidden_layers");
	RT_EQ_INT(parse_edit("\"num_hidden_layers\": 32", "\"num_hidden_layers\": \"32\"", &e), RFL_ERR_NUMBER);
	RT_EQ_INT(parse_edit("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 5", &e), RFL_ERR_SHAPE);
	RT_STR(e.where, "num_key_value_heads");
	RT_EQ_INT(parse_edit("\"hidden_act\": \"silu\"", "\"hidden_act\": \"relu2\"", &e), RFL_ERR_UNSUPPORTED);
	RT_STR(e.where, "hidden_act");
	/* each size fits 32 bits, the model does not fit 64-bit counts */
	RT_EQ_INT(parse_edit("\"hidden_size\": 4096", "\"hidden_size\": 4294967264", &e), RFL_ERR_OVERFLOW);
	RT_EQ_INT(parse_edit("\"vocab_size\": 128256", "\"vocab_size\": 128256,", &e), RFL_ERR_SYNTAX);
	RT_EQ_INT(e.line, 27); /* the '}' after the trailing comma */
	RT_EQ_INT(parse_edit("\"tie_word_embeddings\": false", "\"tie_word_embeddings\": 0", &e), RFL_ERR_FORMAT);
	RT_STR(e.where, "tie_word_embeddings");
	/* too few tokens: the count needed */
	RT_EQ_INT(rfl_llm_config_parse("{\"model_type\": \"gpt2\", \"a\": 1}", 30, few, 4, &c, &e), RFL_ERR_BUFFER);
	RT_EQ_INT(e.need, 5);
	RT_EQ_INT(rfl_llm_config_parse("[1]", 3, few, 4, &c, &e), RFL_ERR_FORMAT);
	/* mixtral without its experts; more experts per token than experts */
	RT_EQ_INT(parse_edit("\"llama\"", "\"mixtral\"", &e), RFL_ERR_MISSING);
	RT_STR(e.where, "num_local_experts");
	RT_EQ_INT(parse_edit("\"vocab_size\": 128256", "\"vocab_size\": 128256, \"num_local_experts\": 2, "
						 "\"num_experts_per_tok\": 3, \"model_type\": \"mixtral\"", &e),
			  RFL_OK); /* the first model_type wins: still llama */
	RT_EQ_INT(rfl_llm_find("llama-9", &c), RFL_ERR_UNKNOWN_NAME);
}

/* Steps that cannot be counted are errors, never wrapped numbers. */
static void test_step_errors(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_net_cost t;
	uint64_t kvc;
	memset(&d, 0, sizeof d);
	rfl_llm_find("gpt2", &c);
	d.seq = 1025; /* beyond GPT-2's 1024 learned positions */
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_ERR_SHAPE);
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_ERR_SHAPE);
	rfl_llm_find("llama-3-70b", &c);
	d.seq = 1ull << 40, d.batch = 1ull << 40;
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_ERR_OVERFLOW);
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_ERR_OVERFLOW);
	/* a countable step at a batch whose counts overflow */
	d.phase = RFL_LLM_DECODE, d.seq = 1ull << 31, d.batch = 1;
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	cd.batch = 1ull << 40;
	RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_ERR_OVERFLOW);
	d.phase = RFL_LLM_PREFILL;
	d.seq = 8, d.batch = 1, d.math = RFL_DTYPE_INT4; /* no int4 math */
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_ERR_ARG);
	c.heads = 0;
	d.math = RFL_DTYPE_DEFAULT;
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_ERR_SHAPE);
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kvc), RFL_ERR_SHAPE);
}

/* A tiny GQA model by hand: hidden 8, 4 heads of 2, 2 kv heads (kv width
   4), MLP 12 (SwiGLU), vocab 10, 1 layer, RMSNorm, rotary, untied, no
   biases; prefill of T = 3 tokens, last logits, batch 2, fp32.
   Elements read + written per sequence, record by record (weights once
   per batch, listed apart):
	 embed_tokens 3 ids + 24 rows + 24 out = 51     input_layernorm 24 + 24
	 q_proj 24 + 24   k_proj 24 + 12   v_proj 24 + 12  (w 64, 32, 32)
	 rotary_q 24 + 24   rotary_k 12 + 12   k_cache_write, v_cache_write 12 + 12
	 attention q 24 + k 12 + v 12 + out 24 = 72   o_proj 24 + 24 (w 64)
	 add_attn 48 + 24   post_attention_layernorm 24 + 24
	 gate_proj, up_proj 24 + 36 each (w 96)   act_fn 36 + 36   mul 72 + 36
	 down_proj 36 + 24 (w 96)   add_mlp 72   norm 24 + 24
	 last_position: a view, 0   lm_head 8 + 10 (w 80)
   = 1,077 per sequence; weights 3 norms x 8 + 64 + 32 + 32 + 64 + 3 x 96
   + 80 = 584; rotary_emb once: inv_freq 1 + positions 3 + cos, sin 12 = 16.
   Batch 2 at 4 bytes, the ids int64 (8 bytes: 4 more for each of the 3):
   (2 x 1,077 + 584 + 16) x 4 + 2 x 3 x 4 = 11,040 bytes.
   mac_flops: q 2x3x64 = 384, k, v 192 each, attention 2 x 3 x 3 x 8 x 2 =
   288 (kv heads repeated), o 384, MLP 3 x 576, lm_head 2 x 80 = 160:
   3,328 per sequence; x 2 + rotary 2 x 1 x 3 = 6, once: 6,662.
   Params 80 + 3 x 8 + 64 + 32 + 32 + 64 + 288 + 80 = 664. */
static void rec_tiny(rfl_llm_config *c) {
	memset(c, 0, sizeof *c);
	memcpy(c->model_type, "llama", 6);
	c->hidden = 8, c->layers = 1, c->heads = 4, c->kv_heads = 2, c->head_dim = 2;
	c->intermediate = 12, c->vocab = 10, c->max_positions = 64;
	c->norm = RFL_LLM_RMSNORM, c->pos = RFL_LLM_POS_ROTARY, c->act = RFL_ACT_SILU, c->gated = 1;
}

static void test_records_bytes(void) {
	rfl_llm_config c;
	rfl_net_cost t;
	rec_tiny(&c);
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 3, 0), RFL_OK);
	t = rec_cost_at(2, RFL_MODE_INFER);
	RT_EQ_U64(t.fwd_bytes, 11040);
	RT_EQ_U64(t.fwd_mac_flops, 6662);
	RT_EQ_U64(t.params, 664);
	/* by role: the weights are the 584 parameters and each sequence's 24
	   gathered rows, (584 + 2 x 24) x 4 = 2,528; the cache writes are
	   k_cache_write's and v_cache_write's outputs, 2 x 12 per sequence:
	   2 x 2 x 12 x 4 = 192; a prefill reads no cache */
	RT_EQ_U64(t.fwd_weight_bytes, 2528);
	RT_EQ_U64(t.fwd_kv_write_bytes, 192);
	RT_EQ_U64(t.fwd_kv_read_bytes, 0);
	/* decode after 5 cached tokens: the cache is two inputs of 6 x 4 per
	   layer; input bytes = (1 id + 2 x 24) x 4 bytes x batch 2 = 392;
	   attention reads q 8 + k 24 + v 24 and writes 8: 64 elements, 512
	   bytes at batch 2; its mac: 2 x 1 x 6 x 8 x 2 = 192 per sequence */
	RT_EQ_INT(rec_build(&c, RFL_LLM_DECODE, 5, 0), RFL_OK);
	t = rec_cost_at(2, RFL_MODE_INFER);
	RT_EQ_U64(t.input_bytes, 392); /* the input record holds the ids at the dtype */
	{
		rfl_cost_desc cd;
		rfl_layer_cost lc;
		int i, found = 0;
		memset(&cd, 0, sizeof cd);
		cd.batch = 2;
		for (i = 0; i < net.count; i++)
			if (net.layers[i].op == RFL_OP_ATTENTION) {
				RT_STR(net.layers[i].name, "model.layers.0.self_attn.attention");
				rfl_layer_cost_get(&net, i, &cd, &lc);
				RT_EQ_U64(lc.fwd_bytes, 512);
				RT_EQ_U64(lc.fwd_mac_flops, 2 * 192);
				RT_EQ_U64(net.layers[i].arg[1], 2); /* kv heads */
				found++;
			}
		RT_EQ_INT(found, 1);
	}
	/* the cache read by attention: 2 x 6 x 4 per sequence, 384 bytes at
	   batch 2; written: the new token's K and V, 2 x 4 per sequence: 64 */
	RT_EQ_U64(t.fwd_kv_read_bytes, 384);
	RT_EQ_U64(t.fwd_kv_write_bytes, 64);
}

/* The attention record of the net under cd. */
static rfl_layer_cost rec_attention(const rfl_cost_desc *cd) {
	rfl_layer_cost lc;
	int i;
	memset(&lc, 0, sizeof lc);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].op == RFL_OP_ATTENTION) RT_EQ_INT(rfl_layer_cost_get(&net, i, cd, &lc), RFL_OK);
	return lc;
}

/* The cost desc's causal count and storage roles, on the tiny model (4
   heads of 2, kv width 4, q width 8). Prefill T = 3: causal pairs per
   sequence 1 + 2 + 3 = 6 (eager 9); matrix FLOPs 6 x 2 x (8 + 8) = 192
   (eager 288); all 192 + 6 x 4 heads x 6 = 336. A window of 2: query 3
   sees 2, so 1 + 2 + 2 = 5 pairs: 160 and 280. Decode after 5 cached:
   one query sees all 6 keys (causal = eager, 192); its K and V inputs are
   the cache: 2 x 6 x 4 = 48 elements at the kv type (fp8: 48 bytes), q 8
   and out 8 at the math type (bf16: 32 bytes). int4 weights: q_proj's
   8 x 8 = 64 weights in 32 bytes. */
static void test_records_roles(void) {
	rfl_llm_config c;
	rfl_cost_desc cd;
	rfl_layer_cost lc;
	int i;
	rec_tiny(&c);
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 3, 0), RFL_OK);
	memset(&cd, 0, sizeof cd);
	lc = rec_attention(&cd);
	RT_EQ_U64(lc.fwd_mac_flops, 288);
	RT_EQ_U64(lc.fwd_mma_flops, 288);
	cd.causal = 1;
	lc = rec_attention(&cd);
	RT_EQ_U64(lc.fwd_mac_flops, 288); /* FlopCounterMode's count stays */
	RT_EQ_U64(lc.fwd_mma_flops, 192);
	RT_EQ_U64(lc.fwd_flops, 336);
	c.sliding_window = 2;
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 3, 0), RFL_OK);
	lc = rec_attention(&cd);
	RT_EQ_U64(lc.fwd_mma_flops, 160);
	RT_EQ_U64(lc.fwd_flops, 280);
	c.sliding_window = 0;
	RT_EQ_INT(rec_build(&c, RFL_LLM_DECODE, 5, 0), RFL_OK);
	cd.dtype = RFL_DTYPE_BF16, cd.kv = RFL_DTYPE_FP8, cd.weights = RFL_DTYPE_INT4;
	lc = rec_attention(&cd);
	RT_EQ_U64(lc.fwd_mma_flops, 192);
	RT_EQ_U64(lc.fwd_bytes, 48 + 32);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && !strcmp(net.layers[i].name, "model.layers.0.self_attn.q_proj")) {
			RT_EQ_INT(rfl_layer_cost_get(&net, i, &cd, &lc), RFL_OK);
			RT_EQ_U64(lc.fwd_bytes, 32 + (8 + 8) * 2); /* weights, x and out at bf16 */
		}
}

/* By kind (RFL_GROUP_KIND), Llama-3.2-1B decode: per block, attention
   is q, k, v, rotary_q, rotary_k, the two cache writes, attention and
   o_proj (9; the cache inputs are inputs, left out), norm 2, the MLP's
   gate, up and down 3, elementwise act_fn, mul and the two adds 4; before
   the blocks embed_tokens (embedding) and rotary_emb (attention), after
   them the final norm and lm_head. 16 blocks: attention 145, norm 33,
   mlp 48, elementwise 64, embedding 1, lm_head 1, in the order of their
   first record. MLP mac: 16 x 3 x 2 x 2048 x 8192 per token. A GPT-2
   prefill with the last logits: last_position (a view) and lm_head. */
static void test_records_kinds(void) {
	static const char *const order[6] = {"embedding", "attention", "norm", "elementwise",
										 "mlp", "lm_head"};
	static const int count[6] = {1, 145, 33, 64, 48, 1};
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_group_cost g[8];
	rfl_net_cost t;
	int i, n;
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE, d.seq = 100;
	RT_EQ_INT(rfl_llm_find("llama-3.2-1b", &c), RFL_OK);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	n = rfl_net_group(&net, &cd, RFL_GROUP_KIND, 0, g, 8);
	RT_EQ_INT(n, 6);
	for (i = 0; i < n && i < 6; i++) {
		RT_STR(g[i].name, order[i]);
		RT_EQ_INT(g[i].count, count[i]);
	}
	RT_EQ_U64(g[4].fwd_mac_flops, 16ull * 3 * 2 * 2048 * 8192);
	RT_EQ_U64(g[4].params, 16ull * 3 * 2048 * 8192);
	RT_EQ_U64(g[4].fwd_weight_bytes, 16ull * 3 * 2048 * 8192 * 2); /* bf16 */
	d.phase = RFL_LLM_PREFILL, d.seq = 16;
	RT_EQ_INT(rfl_llm_find("gpt2", &c), RFL_OK);
	RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
	n = rfl_net_group(&net, &cd, RFL_GROUP_KIND, 0, g, 8);
	RT_EQ_INT(n, 6);
	for (i = 0; i < n && i < 8; i++)
		if (!strcmp(g[i].name, "lm_head")) RT_EQ_INT(g[i].count, 2);
	/* every built-in, both phases: the kinds sum to the step */
	for (i = 0; i < rfl_llm_count(); i++) {
		int ph, k;
		RT_EQ_INT(rfl_llm_find(rfl_llm_name(i), &c), RFL_OK);
		for (ph = 0; ph < 2; ph++) {
			uint64_t f = 0, b = 0, w = 0, p = 0;
			memset(&d, 0, sizeof d);
			d.phase = (rfl_llm_phase)ph, d.seq = 200, d.batch = 3, d.weights = RFL_DTYPE_INT4;
			RT_EQ_INT(rec_step(&c, &d, &cd), RFL_OK);
			RT_EQ_INT(rfl_net_cost_get(&net, &cd, &t), RFL_OK);
			n = rfl_net_group(&net, &cd, RFL_GROUP_KIND, 0, g, 8);
			RT_EQ_INT(n, 6);
			for (k = 0; k < n && k < 8; k++)
				f += g[k].fwd_flops, b += g[k].fwd_bytes, w += g[k].fwd_weight_bytes, p += g[k].params;
			RT_EQ_U64(f, t.fwd_flops);
			RT_EQ_U64(b, t.fwd_bytes);
			RT_EQ_U64(w, t.fwd_weight_bytes);
			RT_EQ_U64(p, t.params);
			RT_CHECK(t.fwd_weight_bytes + t.fwd_kv_read_bytes + t.fwd_kv_write_bytes < t.fwd_bytes);
		}
	}
	/* records of no LLM: by their layer type, as RFL_GROUP_LTYPE */
	{
		rfl_group_cost h[8];
		rfl_tensor x;
		rfl_net_init(&net, rec, 16, 0, 0);
		x = rfl_input(&net, 3, 8, 8);
		x = rfl_act(&net, rfl_conv(&net, x, 4, 3, 1, 1), RFL_ACT_RELU);
		memset(&cd, 0, sizeof cd);
		n = rfl_net_group(&net, &cd, RFL_GROUP_KIND, 0, g, 8);
		RT_EQ_INT(n, 2);
		RT_EQ_INT(rfl_net_group(&net, &cd, RFL_GROUP_LTYPE, 0, h, 8), n);
		for (i = 0; i < n && i < 2; i++) {
			RT_STR(g[i].name, h[i].name);
			RT_EQ_U64(g[i].fwd_bytes, h[i].fwd_bytes);
		}
		RT_STR(g[0].name, "conv");
	}
}

/* The grouped view: Llama-3.2-1B's decode records by module. 16 layers of
   down_proj, each 8,192 x 2,048 = 16,777,216 weights (268,435,456 in
   all, mac 2 x that per token); by layer type the matmul group holds q,
   k, v, o, gate, up, down (7 x 16), attention (16), lm_head and
   rotary_emb (the inv_freq x positions product): 130. */
static void test_records_group(void) {
	rfl_llm_config c;
	rfl_cost_desc cd;
	rfl_group_cost g[64];
	int i, n, found = 0;
	uint64_t mac = 0;
	rfl_net_cost t;
	const rfl_machine *h100 = 0;
	RT_EQ_INT(rfl_hw_find("h100", &h100), RFL_OK);
	RT_EQ_INT(rfl_llm_find("llama-3.2-1b", &c), RFL_OK);
	RT_EQ_INT(rec_build(&c, RFL_LLM_DECODE, 100, 0), RFL_OK);
	memset(&cd, 0, sizeof cd);
	n = rfl_net_group(&net, &cd, RFL_GROUP_MODULE, 0, 0, 0);
	RT_EQ_INT(rfl_net_group(&net, &cd, RFL_GROUP_MODULE, 0, g, 64), n);
	RT_EQ_INT(rfl_net_group(&net, &cd, RFL_GROUP_MODULE, 0, g, 3), n); /* counted past cap */
	RT_EQ_INT(rfl_net_group(&net, &cd, RFL_GROUP_MODULE, 0, g, 64), n);
	RT_CHECK(n > 20 && n <= 64);
	for (i = 0; i < n; i++) {
		mac += g[i].fwd_mac_flops;
		if (!strcmp(g[i].name, "model.layers.*.mlp.down_proj")) {
			RT_EQ_INT(g[i].count, 16);
			RT_EQ_U64(g[i].params, 268435456ull);
			RT_EQ_U64(g[i].fwd_mac_flops, 2 * 268435456ull);
			found++;
		}
	}
	RT_EQ_INT(found, 1);
	t = rec_cost_at(1, RFL_MODE_INFER);
	RT_EQ_U64(mac, t.fwd_mac_flops);
	n = rfl_net_group(&net, &cd, RFL_GROUP_LTYPE, h100, g, 64);
	for (i = 0, found = 0; i < n; i++)
		if (!strcmp(g[i].name, "matmul")) {
			RT_EQ_INT(g[i].count, 130);
			RT_CHECK(g[i].time_s > 0);
			found++;
		}
	RT_EQ_INT(found, 1);
}

/* Training: every linear's backward is a weight gradient and an input
   gradient, each the forward's mac; attention's is 2 x its forward; the
   embedding's scatter-add and the KV cache copies have no mac (the cache
   takes no gradient). So a dense model's train step is 3 x the forward
   mac, less once-per-batch products without gradient (rotary). GPT-2 has
   none: b1 s128, all logits, 3 x 32,228,179,968 (the reference's
   forward) = 96,684,539,904. The tiny model: 6,662 + 2 x (6,662 - 6). */
static void test_records_train(void) {
	rfl_llm_config c;
	rfl_net_cost t;
	RT_EQ_INT(rfl_llm_find("gpt2", &c), RFL_OK);
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 128, 1), RFL_OK);
	t = rec_cost_at(1, RFL_MODE_TRAIN);
	RT_EQ_U64(t.fwd_mac_flops, 32228179968ull);
	RT_EQ_U64(t.fwd_mac_flops + t.bwd_mac_flops, 96684539904ull);
	/* 6 x params x tokens, the usual rule, within attention's share:
	   6 x 124,439,808 x 128 = 95.57 G (the wte gather does no mac, the
	   tied head does); the step is 1.2% above it */
	RT_NEAR((double)(t.fwd_mac_flops + t.bwd_mac_flops), 6.0 * 124439808.0 * 128, 0.012);
	rec_tiny(&c);
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 3, 0), RFL_OK);
	t = rec_cost_at(2, RFL_MODE_TRAIN);
	RT_EQ_U64(t.bwd_mac_flops, 2 * (6662 - 6));
}

/* MoE: Mixtral-8x7B's published params; the experts as one record set of
   all 8 experts' weights on T x 2 routed slots: mac per layer 2 x (T x 2)
   x 3 x 4096 x 14336; router 2 x T x 4096 x 8. */
static void test_records_moe(void) {
	rfl_llm_config c;
	rfl_net_cost t;
	uint64_t T = 16, per_layer;
	int i, experts = 0;
	RT_EQ_INT(rfl_llm_find("mixtral-8x7b", &c), RFL_OK);
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, T, 0), RFL_OK);
	t = rec_cost_at(1, RFL_MODE_INFER);
	RT_EQ_U64(t.params, 46702792704ull);
	per_layer = 2 * T * 2 * 3 * 4096 * 14336 + 2 * T * 4096 * 8 /* router */ +
				2 * T * (4096 + 1024 + 1024 + 4096) * 4096 /* q k v o */ +
				2 * 2 * T * T * 4096 /* attention, 32 heads of 128 */;
	RT_EQ_U64(t.fwd_mac_flops, 32 * per_layer + 2 * 64 * T /* rotary */ + 2 * 4096 * 32000 /* head */);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && strstr(net.layers[i].name, "experts.w")) {
			RT_EQ_U64(net.layers[i].params, 8ull * 4096 * 14336);
			RT_EQ_INT(net.layers[i].shape[0], 2 * T);
			experts++;
		}
	RT_EQ_INT(experts, 3 * 32);
}

/* Names, classes, the array sizes, errors. */
static void test_records_misc(void) {
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_layer small[8];
	int i, ph;
	RT_EQ_INT(rfl_llm_find("llama-3.2-1b", &c), RFL_OK);
	RT_EQ_INT(rec_build(&c, RFL_LLM_DECODE, 512, 0), RFL_OK);
	RT_STR(net.layers[1].name, "model.embed_tokens");
	RT_EQ_U64(net.layers[1].params, 0); /* tied: on lm_head */
	RT_STR(net.layers[net.count - 1].name, "lm_head");
	RT_EQ_U64(net.layers[net.count - 1].params, 128256ull * 2048);
	RT_STR(rfl_layer_class(&net, 3), "RMSNorm");
	RT_EQ_U64(net.layers[3].params, 2048);
	RT_STR(net.layers[4].name, "model.layers.0.self_attn.q_proj");
	RT_EQ_INT(rfl_llm_find("gpt2", &c), RFL_OK);
	RT_EQ_INT(rec_build(&c, RFL_LLM_PREFILL, 8, 0), RFL_OK);
	RT_STR(net.layers[5].name, "transformer.h.0.attn.c_attn");
	RT_STR(rfl_layer_class(&net, 5), "Conv1D");
	/* every built-in model fits the macros, in both phases */
	for (i = 0; i < rfl_llm_count(); i++)
		for (ph = 0; ph < 2; ph++) {
			RT_EQ_INT(rfl_llm_find(rfl_llm_name(i), &c), RFL_OK);
			RT_EQ_INT(rec_build(&c, (rfl_llm_phase)ph, 64, 0), RFL_OK);
			RT_CHECK(net.count <= RFL_LLM_NET_LAYERS((int)c.layers));
			RT_CHECK(net.names_used <= (size_t)RFL_LLM_NET_NAMES((int)c.layers));
		}
	/* too small an array: the builder's error, no overflow */
	memset(&d, 0, sizeof d);
	rfl_net_init(&net, small, 8, 0, 0);
	RT_EQ_INT(rfl_llm_build(&net, &c, &d), RFL_ERR_BUFFER);
	RT_EQ_INT(rfl_llm_build(&net, &c, &d), RFL_ERR_ARG); /* not empty */
	rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(80), rec_names, sizeof rec_names);
	RT_EQ_INT(rfl_llm_find("gpt2", &c), RFL_OK);
	d.seq = 1025; /* beyond GPT-2's learned positions */
	RT_EQ_INT(rfl_llm_build(&net, &c, &d), RFL_ERR_SHAPE);
	d.seq = 1ull << 33; /* a dim beyond 32 bits */
	RT_EQ_INT(rfl_llm_find("llama-3-8b", &c), RFL_OK);
	RT_EQ_INT(rfl_llm_build(&net, &c, &d), RFL_ERR_OVERFLOW);
	RT_EQ_INT(rfl_llm_build(&net, &c, 0), RFL_ERR_ARG);
	c.heads = 0;
	d.seq = 8;
	RT_EQ_INT(rfl_llm_build(&net, &c, &d), RFL_ERR_SHAPE);
	RT_EQ_INT(net.count, 0); /* nothing written on a refused step */
	/* grouped attention: k and v narrower than q by a factor dividing the
	   heads; anything else is a shape error, never a division by zero */
	{
		rfl_tensor x, q, k;
		rfl_net_init(&net, rec, 16, 0, 0);
		x = rfl_input(&net, 4, 8, 0);
		q = rfl_linear(&net, x, 8, 0);
		k = rfl_linear(&net, x, 2, 0); /* 4 heads, 1 kv head (MQA) */
		RT_CHECK(rfl_attention(&net, q, k, k, 4) >= 0);
		RT_EQ_U64(net.layers[net.count - 1].mac_flops, 2ull * 2 * 4 * 4 * 8); /* repeated */
		RT_EQ_INT(net.layers[net.count - 1].shape[1], 8);
		RT_EQ_INT(net.layers[net.count - 1].arg[1], 1);
		RT_EQ_INT(rfl_attention(&net, k, q, q, 4), RFL_NO_TENSOR); /* k wider than q */
		RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
		rfl_net_init(&net, rec, 16, 0, 0);
		x = rfl_input(&net, 4, 8, 0);
		q = rfl_linear(&net, x, 8, 0);
		k = rfl_linear(&net, x, 3, 0);
		RT_EQ_INT(rfl_attention(&net, q, k, k, 4), RFL_NO_TENSOR); /* 3 does not divide 8 */
		rfl_net_init(&net, rec, 16, 0, 0);
		x = rfl_input(&net, 4, 8, 0);
		q = rfl_linear(&net, x, 8, 0);
		k = rfl_linear(&net, x, 1, 0); /* g = 8 does not divide 4 heads */
		RT_EQ_INT(rfl_attention(&net, q, k, k, 4), RFL_NO_TENSOR);
		RT_EQ_INT(net.err.code, RFL_ERR_SHAPE);
	}
}

int main(void) {
	test_reference();
	test_published_params();
	test_cost_desc();
	test_qwen2_bias();
	test_gqa_kv();
	test_causal();
	test_sliding_window();
	test_moe();
	test_kinds_and_time();
	test_hf_files();
	test_config_errors();
	test_step_errors();
	test_records_bytes();
	test_records_roles();
	test_records_kinds();
	test_records_group();
	test_records_train();
	test_records_moe();
	test_records_misc();
	return rt_done();
}
