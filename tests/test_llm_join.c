/* The LLM join (issue 17, items 5 and 6): kernels sorted into kinds on the
   four shared captures, the estimate beside them, padded_mma and
   launch_bound. Expected values come from elsewhere, never from the code:
   - kernel counts per kind from the structure of Hugging Face's modules
	 (transformers 5.17, SDPA, eager RMSNorm), derived in the comments;
   - tensor FLOPs of the padded tiles by hand (the tile shape in the kernel
	 name x the layer's sizes), and a few single values read from the CSV
	 text (named with their kernel ID);
   - totals and the warnings' figures from ../shared/fixtures/README.md
	 (23.9 G executed, 2.6 GB DRAM, 3.5 ms, 0.74 ms at 3.35 TB/s, 235 /
	 661 / 693 kernels) and useful FLOPs from ../shared/llm-reference.json
	 (decode mac_flops by op) with the S dependence derived by hand. */
#define RFL_NO_CHART
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static rfl_reduce_state st;
static rfl_reduce_result res;

static char *load(const char *name, size_t *len) { return rt_load("tests/data/llm", name, len); }

/* Reduce a capture into a classifier, in chunks of `chunk` bytes (0: one
   push); returns the reducer's result code. */
static rfl_result classify(const char *name, const rfl_machine *m, size_t chunk,
						   rfl_llm_classifier *c) {
	size_t len, off = 0;
	char *b = load(name, &len);
	rfl_reduce_desc d;
	rfl_result r;
	memset(&d, 0, sizeof d);
	d.top_n = -1;
	d.on_kernel = rfl_llm_classify_kernel;
	d.user = c;
	rfl_llm_classify_init(c, m);
	rfl_reduce_init(&st, &d, scratch, sizeof scratch);
	if (!chunk) chunk = len;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		rfl_reduce_push(&st, b + off, n);
		off += n;
	}
	r = rfl_reduce_finish(&st, &res);
	rfl_llm_classify_finish(c);
	free(b);
	return r;
}

static const char *GPT2_PRE = "gpt2-prefill-b1-s128-fp32.csv";
static const char *GPT2_DEC = "gpt2-decode-b1-s128-fp32.csv";
static const char *LLAMA_PRE = "llama-3.2-1b-prefill-b1-s512-bf16.csv";
static const char *LLAMA_DEC = "llama-3.2-1b-decode-b1-s512-bf16.csv";

static void test_roles(void) {
	/* kernel names into classes: tests/test_kclass.c */
	RT_STR(rfl_warn_code(RFL_WARN_PADDED_MMA), "padded_mma");
	RT_STR(rfl_warn_code(RFL_WARN_LAUNCH_BOUND), "launch_bound");
}

/* Sums over the kinds equal the total, and the total is the reducer's. */
static void check_conserved(const rfl_llm_classifier *c) {
	rfl_kind_meas s;
	int k;
	memset(&s, 0, sizeof s);
	for (k = 0; k < RFL_LLM_KIND_COUNT; k++) {
		s.kernels += c->kinds[k].kernels;
		s.time_ns += c->kinds[k].time_ns;
		s.flops += c->kinds[k].flops;
		s.tensor_flops += c->kinds[k].tensor_flops;
		s.dram_bytes += c->kinds[k].dram_bytes;
	}
	RT_EQ_U64(s.kernels, res.kernels);
	RT_EQ_U64(s.time_ns, res.total.time_ns);
	RT_EQ_U64(s.tensor_flops, rfl_reduce_tensor_flops(&res.total));
	RT_EQ_U64(s.dram_bytes, res.total.bytes[RFL_DRAM]);
	RT_EQ_U64(c->total.kernels, res.kernels);
}

/* Llama-3.2-1B (16 layers), HF LlamaForCausalLM with SDPA, BF16:
   before layer 0: embed_tokens (1 gather); position ids (arange, add) and
   rotary's table (cast, inv_freq @ positions = 1 sgemm, cat, cos, * scale,
   sin, * scale, 2 casts): 10 elementwise + 1 GEMM (attention: rotary).
   Per layer: input_layernorm (eager RMSNorm: to fp32, pow, mean, + eps,
   rsqrt, *, to bf16, * weight = 8); q, k, v (3 GEMMs); rotary on q and k
   (q*cos, neg, cat, *sin, + : 5 each = 10); the cache's torch.cat of K and
   V (2); SDPA (decode: the cuDNN flash kernel + its reduction = 2;
   prefill: 1); o_proj (1); residual add (1); post_attention_layernorm (8);
   gate, silu, up, *, down (3 GEMMs + 2 elementwise; decode: down runs
   split-K, + 1 splitKreduce); residual add (1). Final norm (8), LM head.
   Decode attention: 1 + 16 x (3 + 10 + 2 + 2 + 1) = 289; norm: 33 x 8 =
   264; MLP: 16 x 4 = 64; elementwise: 10 + 16 x 4 = 74; 693 in all. */
static void test_llama_kinds(const rfl_machine *h100) {
	static rfl_llm_classifier c, c2;
	int k;
	RT_EQ_INT(classify(LLAMA_DEC, h100, 0, &c), RFL_OK);
	RT_EQ_U64(res.kernels, 693); /* fixtures README */
	RT_EQ_U64(c.kinds[RFL_LLM_EMBEDDING].kernels, 1);
	RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].kernels, 289);
	RT_EQ_U64(c.kinds[RFL_LLM_MLP].kernels, 64);
	RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].kernels, 1);
	RT_EQ_U64(c.kinds[RFL_LLM_NORM].kernels, 264);
	RT_EQ_U64(c.kinds[RFL_LLM_ELEMENTWISE].kernels, 74);
	/* One token on nvjet's 64x8 tiles: N padded from 1 to 8, so every
	   GEMV executes 8 x its 2 x K x N FLOPs. MLP: 16 x 3 x 8 x 2 x 2048
	   x 8192; LM head: 8 x 2 x 2048 x 128256 (tied to the embedding). */
	RT_EQ_U64(c.kinds[RFL_LLM_MLP].tensor_flops, 16ull * 3 * 8 * 2 * 2048 * 8192);
	RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].tensor_flops, 8ull * 2 * 2048 * 128256);
	/* Attention: q and o on 64x8 tiles (8 x 2 x 2048 x 2048 each), k and v
	   (2048 -> 512) on 8x64 tiles (64 x 2 x 2048 x 512 each), and the SDPA
	   kernel's 20,971,520 (kernel ID 35 of the CSV), per layer. */
	RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].tensor_flops,
			  16ull * (2 * 8ull * 2 * 2048 * 2048 + 2 * 64ull * 2 * 2048 * 512 + 20971520ull));
	RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].dram_bytes, 528011008ull); /* kernel ID 692 */
	check_conserved(&c);
	/* any chunking gives the same kinds */
	RT_EQ_INT(classify(LLAMA_DEC, h100, 977, &c2), RFL_OK);
	for (k = 0; k < RFL_LLM_KIND_COUNT; k++) {
		RT_EQ_U64(c2.kinds[k].kernels, c.kinds[k].kernels);
		RT_EQ_U64(c2.kinds[k].time_ns, c.kinds[k].time_ns);
	}
	/* Prefill: one SDPA kernel per layer, no split-K: attention 1 + 16 x
	   17 = 273, MLP 16 x 3 = 48; the rest as in decode; 661 in all. */
	RT_EQ_INT(classify(LLAMA_PRE, h100, 0, &c), RFL_OK);
	RT_EQ_U64(res.kernels, 661);
	RT_EQ_U64(c.kinds[RFL_LLM_EMBEDDING].kernels, 1);
	RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].kernels, 273);
	RT_EQ_U64(c.kinds[RFL_LLM_MLP].kernels, 48);
	RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].kernels, 1);
	RT_EQ_U64(c.kinds[RFL_LLM_NORM].kernels, 264);
	RT_EQ_U64(c.kinds[RFL_LLM_ELEMENTWISE].kernels, 74);
	/* 512 tokens fill the tiles: the MLP executes exactly 16 x 3 x 2 x 512
	   x 2048 x 8192; the LM head (every position) runs 320x128 tiles, the
	   vocabulary padded to 401 x 320 = 128,320: 2 x 512 x 2048 x 128320 */
	RT_EQ_U64(c.kinds[RFL_LLM_MLP].tensor_flops, 16ull * 3 * 2 * 512 * 2048 * 8192);
	RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].tensor_flops, 2ull * 512 * 2048 * 128320);
	check_conserved(&c);
}

/* GPT-2 (12 layers), HF GPT2LMHeadModel with SDPA, FP32. Before layer 0:
   wte and wpe gathers (2 embedding); arange, + offset, wte + wpe (3
   elementwise). Per layer: ln_1 (1 fused kernel); c_attn (1 GEMM); the
   cache's cat of K and V (2); SDPA (1 fmha); c_proj (1 GEMM); residual
   add (1); ln_2 (1); c_fc (1 GEMM); gelu_new (x*0.5, pow 3, *0.044715,
   +, *sqrt(2/pi), tanh, +1, * = 8 elementwise); c_proj (1 GEMM); residual
   add (1). ln_f (1), LM head (1). Attention 12 x 5 = 60, MLP 12 x 2 = 24,
   norm 25, elementwise 3 + 12 x 10 = 123: 235 in all, prefill and decode. */
static void test_gpt2_kinds(const rfl_machine *h100) {
	static rfl_llm_classifier c;
	int i;
	const char *files[2];
	files[0] = GPT2_PRE;
	files[1] = GPT2_DEC;
	for (i = 0; i < 2; i++) {
		RT_EQ_INT(classify(files[i], h100, 0, &c), RFL_OK);
		RT_EQ_U64(res.kernels, 235);
		RT_EQ_U64(c.kinds[RFL_LLM_EMBEDDING].kernels, 2);
		RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].kernels, 60);
		RT_EQ_U64(c.kinds[RFL_LLM_MLP].kernels, 24);
		RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].kernels, 1);
		RT_EQ_U64(c.kinds[RFL_LLM_NORM].kernels, 25);
		RT_EQ_U64(c.kinds[RFL_LLM_ELEMENTWISE].kernels, 123);
		/* FP32 linears run on the FP32 pipe: tensor work only in attention */
		RT_EQ_U64(c.kinds[RFL_LLM_MLP].tensor_flops, 0);
		check_conserved(&c);
	}
	/* decode: the fmha kernel executes 103,809,024 tensor FLOPs per layer
	   (kernel ID 9 of the CSV; "~106 MFLOP per layer", fixtures README) */
	RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].tensor_flops, 12ull * 103809024ull);
}

/* The step's records: llama-3.2-1b has 16 layers, gpt2 12. */
static rfl_layer recs[RFL_LLM_NET_LAYERS(16)];
static char rec_names[RFL_LLM_NET_NAMES(16)];
static rfl_net net;
static rfl_cost_desc cd;

static void records(const rfl_llm_config *cfg, const rfl_llm_step_desc *d) {
	RT_EQ_INT(rfl_net_init(&net, recs, RFL_LLM_NET_LAYERS(16), rec_names, sizeof rec_names), RFL_OK);
	RT_EQ_INT(rfl_llm_build(&net, cfg, d), RFL_OK);
	RT_EQ_INT(rfl_llm_cost_desc(cfg, d, &cd), RFL_OK);
}

/* The capture's kernels into a join of kinds (the reducer as classify's). */
static void join_kernels(const char *name, rfl_join *j) {
	size_t len;
	char *b = load(name, &len);
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	d.top_n = -1;
	d.on_kernel = rfl_join_kernel;
	d.user = j;
	rfl_reduce_init(&st, &d, scratch, sizeof scratch);
	rfl_reduce_push(&st, b, len);
	RT_EQ_INT(rfl_reduce_finish(&st, &res), RFL_OK);
	free(b);
}

static void join(const char *file, const char *model, rfl_llm_phase ph, uint64_t seq,
				 rfl_dtype math, const rfl_machine *m, rfl_join *j) {
	rfl_llm_config cfg;
	rfl_llm_step_desc d;
	memset(&d, 0, sizeof d);
	d.phase = ph;
	d.seq = seq;
	d.batch = 1;
	d.logits_all = 1; /* the captures run HF's plain forward */
	d.math = math;
	RT_EQ_INT(rfl_llm_find(model, &cfg), RFL_OK);
	rfl_join_init(j, RFL_GROUP_KIND, m);
	join_kernels(file, j);
	records(&cfg, &d);
	RT_EQ_INT(rfl_join_compute(j, wl_of(&net, &cd), m), RFL_OK);
}

static int has_warning(const rfl_join *j, rfl_warn w, const char *text) {
	int i;
	for (i = 0; i < j->warning_count; i++)
		if (j->warnings[i].code == w && (!text || strstr(j->warnings[i].text, text))) return 1;
	return 0;
}

static void test_join(const rfl_machine *h100) {
	static rfl_join j;
	/* Llama-3.2-1B decode after 512 tokens. Useful FLOPs: the projections,
	   MLP and LM head do not depend on S at batch 1: aten.mm 2,471,493,632
	   (llm-reference.json, b1_s128 and b1_s2048 alike); aten.bmm = 16 layers
	   x 32 heads x 2 products x 2 x 64 x (S + 1) + rotary's 64 (b1_s128:
	   16 x 32 x 2 x 2 x 64 x 129 + 64 = 16,908,352, as the reference). */
	double useful = 2471493632.0 + 16.0 * 32 * 2 * 2 * 64 * 513 + 64;
	join(LLAMA_DEC, "llama-3.2-1b", RFL_LLM_DECODE, 512, RFL_DTYPE_BF16, h100, &j);
	RT_NEAR(j.useful_flops, useful, 1e-12);
	RT_NEAR(j.executed_tensor_flops, 23.9e9, 0.005);         /* README: 23.9 G */
	RT_NEAR(j.useful_per_executed, useful / 23.9e9, 0.005);
	RT_NEAR((double)j.total.meas.dram_bytes, 2.6e9, 0.01);   /* README: 2.6 GB */
	RT_NEAR(j.kernel_time_s, 3.5e-3, 0.01);                  /* README: 3.5 ms */
	RT_NEAR(j.bytes_time_s, 0.74e-3, 0.01);                  /* README: 0.74 ms */
	RT_NEAR(j.gap, 4.7, 0.01);                               /* README: 4.7x */
	RT_CHECK(has_warning(&j, RFL_WARN_PADDED_MMA, "23.9 GFLOP"));
	RT_CHECK(has_warning(&j, RFL_WARN_PADDED_MMA, "2.54 GFLOP"));
	RT_CHECK(has_warning(&j, RFL_WARN_PADDED_MMA, "overstates"));
	RT_CHECK(has_warning(&j, RFL_WARN_LAUNCH_BOUND, "693 kernels"));
	RT_CHECK(has_warning(&j, RFL_WARN_LAUNCH_BOUND, "CUDA graphs"));
	RT_CHECK(j.tiny_share > 0.6 && j.tiny_share < 0.7); /* 612 of 693 kernels, 66% */
	RT_EQ_INT(j.warning_count, 2);

	/* GPT-2 decode after 128 tokens: useful 251,819,520 (fixtures README's
	   check); fmha executes 12 x 103,809,024 on the tensor pipe. */
	join(GPT2_DEC, "gpt2", RFL_LLM_DECODE, 128, RFL_DTYPE_FP32, h100, &j);
	RT_NEAR(j.useful_flops, 251819520.0, 1e-12);
	RT_NEAR(j.executed_tensor_flops, 12.0 * 103809024.0, 1e-12);
	RT_CHECK(has_warning(&j, RFL_WARN_PADDED_MMA, "attention"));
	RT_CHECK(has_warning(&j, RFL_WARN_LAUNCH_BOUND, "235 kernels"));
	RT_EQ_INT(j.warning_count, 2);

	/* The prefills show neither: their tensor work is what the step needs
	   (Llama: 1,291 G executed for 1,300 G useful) and 29% of their time
	   is in tiny kernels. */
	join(LLAMA_PRE, "llama-3.2-1b", RFL_LLM_PREFILL, 512, RFL_DTYPE_BF16, h100, &j);
	RT_NEAR(j.executed_tensor_flops, 1291e9, 0.001);          /* README: 1,291 G */
	RT_NEAR(j.kernel_time_s, 5.5e-3, 0.01);                   /* README: 5.5 ms */
	RT_EQ_INT(j.warning_count, 0);
	RT_CHECK(j.tiny_share < 0.4);
	join(GPT2_PRE, "gpt2", RFL_LLM_PREFILL, 128, RFL_DTYPE_FP32, h100, &j);
	RT_NEAR(j.useful_flops, 32228179968.0, 1e-12); /* llm-reference prefill_flops */
	RT_EQ_INT(j.warning_count, 0);
}

/* Synthetic streams: the ordering rules, held kernels, limits. */
static rfl_kernel_stat last; /* the last kernel pushed */
static void push(rfl_llm_classifier *c, uint64_t id, const char *name, uint64_t ns,
				 uint64_t tensor, unsigned unknown) {
	rfl_kernel_stat k;
	memset(&k, 0, sizeof k);
	k.id = id;
	k.time_ns = ns;
	k.flops[RFL_BF16_TENSOR] = tensor;
	k.work.unknown = unknown;
	snprintf(k.name, sizeof k.name, "%s", name);
	rfl_llm_classify_kernel(c, &k);
	last = k;
}

static void test_synthetic(const rfl_machine *h100) {
	static rfl_llm_classifier c;
	static rfl_join j;
	rfl_llm_config cfg;
	rfl_llm_step_desc d;
	/* gelu_new's pow followed by a mul stays elementwise; a mean after
	   pow + cast starts a norm that takes both */
	rfl_llm_classify_init(&c, h100);
	push(&c, 0, "layer_norm", 10, 0, 0);
	push(&c, 1, "gemm_a", 10, 0, 0);
	push(&c, 2, "fmha_x", 10, 0, 0);
	push(&c, 3, "gemm_o", 10, 0, 0);
	push(&c, 4, "add", 10, 0, 0);
	push(&c, 5, "direct_copy_kernel", 10, 0, 0);
	push(&c, 6, "pow_tensor_scalar", 10, 0, 0);
	push(&c, 7, "MeanOps", 10, 0, 0);
	push(&c, 8, "rsqrt", 10, 0, 0);
	push(&c, 9, "gemm_fc", 10, 0, 0);
	push(&c, 10, "pow_tensor_scalar", 10, 0, 0);
	push(&c, 11, "mul", 10, 0, 0);
	push(&c, 12, "gemm_proj", 10, 0, 0);
	push(&c, 13, "rms_norm", 10, 0, 0);
	push(&c, 14, "gemv_head", 10, 0, 0);
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE;
	d.seq = 512;
	d.math = RFL_DTYPE_BF16;
	RT_EQ_INT(rfl_llm_find("llama-3.2-1b", &cfg), RFL_OK);
	records(&cfg, &d);
	rfl_llm_classify_finish(&c);
	rfl_llm_classify_finish(&c); /* twice: harmless */
	push(&c, 15, "gemm_late", 10, 0, 0); /* after finish: ignored */
	RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].kernels, 3);   /* 1, 2, 3 */
	RT_EQ_U64(c.kinds[RFL_LLM_NORM].kernels, 6);        /* 0, 5-8, 13 */
	RT_EQ_U64(c.kinds[RFL_LLM_MLP].kernels, 2);         /* 9, 12 */
	RT_EQ_U64(c.kinds[RFL_LLM_ELEMENTWISE].kernels, 3); /* 4, 10, 11 */
	RT_EQ_U64(c.kinds[RFL_LLM_LM_HEAD].kernels, 1);     /* 14 */
	RT_EQ_U64(c.total.kernels, 15);
	/* saturation, and a profile without time cannot be launch-bound */
	rfl_llm_classify_init(&c, h100);
	push(&c, 0, "gemm", UINT64_MAX, UINT64_MAX, RFL_UNKNOWN_TIME);
	push(&c, 1, "gemm", UINT64_MAX, UINT64_MAX, RFL_UNKNOWN_TIME);
	rfl_llm_classify_finish(&c);
	RT_EQ_U64(c.total.time_ns, UINT64_MAX);
	RT_EQ_U64(c.kinds[RFL_LLM_ATTENTION].tensor_flops, UINT64_MAX); /* before any norm */
	RT_EQ_U64(c.total.tiny_kernels, 0);
	/* the same two kernels through a join of kinds */
	rfl_join_init(&j, RFL_GROUP_KIND, h100);
	rfl_join_kernel(&j, &last);
	rfl_join_kernel(&j, &last);
	RT_EQ_INT(rfl_join_compute(&j, wl_of(&net, &cd), h100), RFL_OK);
	RT_EQ_U64(j.rows[RFL_LLM_ATTENTION].meas.tensor_flops, UINT64_MAX);
	RT_CHECK(!has_warning(&j, RFL_WARN_LAUNCH_BOUND, NULL));
	RT_CHECK(has_warning(&j, RFL_WARN_PADDED_MMA, NULL));
	rfl_join_kernel(&j, &last); /* after compute: ignored */
	RT_EQ_U64(j.rows[RFL_LLM_ATTENTION].meas.kernels, 2);
	RT_EQ_INT(rfl_join_compute(NULL, wl_of(&net, &cd), h100), RFL_ERR_ARG);
	RT_EQ_INT(rfl_join_compute(&j, wl_of(NULL, &cd), h100), RFL_ERR_ARG);
	/* no machine: no times, no warnings */
	RT_EQ_INT(rfl_join_compute(&j, wl_of(&net, &cd), NULL), RFL_OK);
	RT_EQ_INT(j.warning_count, 0);
	RT_CHECK(j.total.fwd_time_s == 0);
	/* an empty step: no kernels, no warnings */
	rfl_join_init(&j, RFL_GROUP_KIND, NULL);
	RT_EQ_INT(rfl_join_compute(&j, wl_of(&net, &cd), h100), RFL_OK);
	RT_EQ_INT(j.warning_count, 0);
	/* records of no LLM (a CNN's, grouped by layer type): no join */
	{
		static rfl_layer cnn[8];
		rfl_net n2;
		rfl_tensor x;
		rfl_net_init(&n2, cnn, 8, NULL, 0);
		x = rfl_input(&n2, 3, 8, 8);
		rfl_conv(&n2, x, 4, 3, 1, 1);
		rfl_join_init(&j, RFL_GROUP_KIND, h100);
		RT_EQ_INT(rfl_join_compute(&j, wl_of(&n2, &cd), h100), RFL_ERR_ARG);
	}
	rfl_llm_classify_kernel(NULL, NULL); /* no crash */
}

int main(void) {
	const rfl_machine *h100 = NULL;
	if (rfl_hw_find("h100", &h100) != RFL_OK) { printf("no h100\n"); return 1; }
	RT_NEAR(h100->bw_bytes_per_s[RFL_DRAM], 3.35e12, 1e-9); /* the README's 3.35 TB/s */
	test_roles();
	test_llama_kinds(h100);
	test_gpt2_kinds(h100);
	test_join(h100);
	test_synthetic(h100);
	return rt_done();
}
