/* test_families_sparse.c - the expert and latent-attention families
   (qwen3_moe, deepseek_v2, deepseek_v3, gpt_oss's experts) against PyTorch
   and by hand.
   Expected values come from:
   - tests/data/llm/families-reference.json (dev/capture/families_ref.py:
	 FlopCounterMode on transformers 5.17's eager forward with eager experts,
	 random weights, bf16; read at run time): each family's small config
	 ("config_json", read by rfl_llm_config_parse), its params, its module
	 params per layer, and per case the mac FLOPs by op of a prefill (all
	 and last logits) and a decode, the MLP's by module, and the cache's
	 bytes after each step;
   - hand derivations written below: MLA per token in both forms
	 (transformers' and absorbed) and its cache, shared experts, the
	 dense-layer rules of each family.
   Pending helper fam-dense (attention of qwen3 and gpt_oss: q/k norms,
   sinks, sliding layers): until its reader is in, the counts those add
   (q_norm and k_norm: 2 x head_dim params per layer; sinks: heads params
   per layer; a sliding layer's decode attends to its window) are the only
   differences accepted, each derived by hand below; everything else,
   the experts first, is exact. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static rfl_json_tok toks[32768];
static rfl_layer rec[RFL_LLM_NET_LAYERS(8)];
static char rec_names[RFL_LLM_NET_NAMES(8)];
static rfl_net net;

static uint64_t num(const rfl_json_doc *d, int obj, const char *key) {
	double v = -1;
	if (!rfl_json_num(d, rfl_json_get(d, obj, key), &v)) printf("     missing %s\n", key);
	return v < 0 ? (uint64_t)-1 : (uint64_t)v;
}

static rfl_result build(const rfl_llm_config *c, rfl_llm_phase ph, uint64_t seq, int all,
						int absorbed) {
	rfl_llm_step_desc d;
	memset(&d, 0, sizeof d);
	d.phase = ph, d.seq = seq, d.logits_all = all, d.mla_absorbed = absorbed;
	rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(8), rec_names, sizeof rec_names);
	return rfl_llm_build(&net, c, &d);
}

/* The cost of record i at a batch (bf16 throughout, as the reference). */
static rfl_layer_cost cost(int i, uint64_t batch) {
	rfl_cost_desc cd;
	rfl_layer_cost lc;
	memset(&cd, 0, sizeof cd);
	cd.batch = batch, cd.dtype = RFL_DTYPE_BF16, cd.causal = 1;
	RT_EQ_INT(rfl_layer_cost_get(&net, i, &cd, &lc), RFL_OK);
	return lc;
}

/* mac FLOPs by the op FlopCounterMode sees (1 mm, 2 addmm, 3 bmm): a
   linear is mm, with a bias addmm, but the experts' are mm (the eager loop
   adds their biases apart: x @ W + b); attention's scores and context and
   rotary's product are bmm. Only records whose name starts with prefix. */
static void by_op(uint64_t batch, const char *prefix, uint64_t out[4]) {
	size_t n = strlen(prefix);
	int i;
	out[0] = out[1] = out[2] = out[3] = 0;
	for (i = 0; i < net.count; i++) {
		const rfl_layer *L = &net.layers[i];
		int a = L->op == RFL_OP_LINEAR ? ((L->flags & RFL_LF_BIAS) && L->arg[0] <= 1 ? 2 : 1)
				: (L->op == RFL_OP_ATTENTION || L->op == RFL_OP_MATMUL) ? 3 : 0;
		if (L->name && !strncmp(L->name, prefix, n)) out[a] += cost(i, batch).fwd_mac_flops;
	}
}

static uint64_t params_of(const char *prefix) {
	size_t n = strlen(prefix);
	uint64_t p = 0;
	int i;
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && !strncmp(net.layers[i].name, prefix, n)) p += net.layers[i].params;
	return p;
}

/* The families of the reference; sliding: its sliding layers' cache also
   holds an 8-byte window scalar (no token), which kv_cache_bytes leaves
   out (the manual), so its cache is checked in test_families_dense.c. */
typedef struct fam { const char *name; int sliding; } fam;
static const fam fams[4] = {{"qwen3_moe", 0}, {"deepseek_v2", 0}, {"deepseek_v3", 0}, {"gpt_oss", 1}};

static void eq(const char *what, uint64_t got, uint64_t want) {
	if (!RT_CHECK(got == want))
		printf("     %s: got %llu, expected %llu\n", what, (unsigned long long)got, (unsigned long long)want);
}

/* The step's mac by op against the reference object `ops`. */
static void check_ops(const rfl_json_doc *d, int ops, uint64_t batch) {
	static const char *const k[4] = {"", "aten.mm", "aten.addmm", "aten.bmm"};
	uint64_t got[4];
	int a;
	by_op(batch, "", got);
	RT_EQ_U64(got[0], 0);
	for (a = 1; a < 4; a++) {
		int v = rfl_json_get(d, ops, k[a]);
		double want = 0;
		if (v >= 0) rfl_json_num(d, v, &want);
		eq(k[a], got[a], (uint64_t)want);
	}
}

static uint64_t total_mac(uint64_t batch) {
	uint64_t o[4];
	by_op(batch, "", o);
	return o[0] + o[1] + o[2] + o[3];
}

/* The MLP of each layer by module (FlopCounterMode's "<Class>.model.
   layers.L.mlp") and its params (the reference's "layers"). */
static void check_mlp_modules(const rfl_json_doc *d, int fo, int bym, const char *cls,
							  uint32_t layers, uint64_t batch) {
	uint32_t l;
	int lays = rfl_json_path(d, fo, "layers.layers");
	for (l = 0; l < layers; l++) {
		char key[128], prefix[64];
		uint64_t got[4];
		snprintf(key, sizeof key, "%s.model.layers.%u.mlp", cls, (unsigned)l);
		snprintf(prefix, sizeof prefix, "model.layers.%u.mlp.", (unsigned)l);
		by_op(batch, prefix, got);
		RT_EQ_U64(got[1] + got[2] + got[3], num(d, rfl_json_get(d, bym, key), "aten.mm") +
												(rfl_json_get(d, rfl_json_get(d, bym, key), "aten.addmm") >= 0
													 ? num(d, rfl_json_get(d, bym, key), "aten.addmm") : 0));
		{
			double want = -1;
			rfl_json_num(d, rfl_json_at(d, rfl_json_get(d, rfl_json_at(d, lays, (int)l), "mlp"), 1), &want);
			RT_EQ_U64(params_of(prefix), (uint64_t)want);
		}
	}
}

/* The header's word on transformers' default (grouped) experts:
   FlopCounterMode then sees everything but the routed experts' matmuls
   (the reference's "default_experts", a prefill with every logit). */
static void check_default_experts(const rfl_json_doc *d, int fo, const rfl_llm_config *c) {
	int de = rfl_json_get(d, fo, "default_experts"), i;
	char nm[32];
	unsigned long b = 0, s = 0;
	uint64_t routed = 0;
	if (!RT_CHECK(de >= 0)) return;
	rfl_json_str(d, rfl_json_get(d, de, "case"), nm, sizeof nm);
	RT_CHECK(sscanf(nm, "b%lu_s%lu", &b, &s) == 2);
	RT_EQ_INT(build(c, RFL_LLM_PREFILL, s, 1, 0), RFL_OK);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].op == RFL_OP_LINEAR && net.layers[i].arg[0] > 1) routed += cost(i, b).fwd_mac_flops;
	RT_CHECK(routed > 0);
	RT_EQ_U64(total_mac(b) - routed, num(d, de, "prefill_flops"));
}

static void test_reference(void) {
	rfl_json_doc d;
	size_t len;
	char *json = rt_slurp("tests/data/llm/families-reference.json", &len);
	int f, cases = 0;
	if (!RT_CHECK(json != 0)) return;
	if (!RT_CHECK(rfl_json_parse(&d, json, len, toks, 32768) == RFL_OK)) return;
	for (f = 0; f < 4; f++) {
		static rfl_json_tok sub[1024];
		rfl_llm_config c;
		rfl_error e;
		char cls[64];
		int fo = rfl_json_path(&d, 0, "families"), co, cs, k;
		uint64_t params;
		fo = rfl_json_get(&d, fo, fams[f].name);
		co = rfl_json_get(&d, fo, "config_json"), cs = rfl_json_get(&d, fo, "cases");
		if (!RT_CHECK(co >= 0 && cs >= 0)) continue;
		if (!RT_CHECK(rfl_llm_config_parse(json + toks[co].start, toks[co].end - toks[co].start, sub,
										   1024, &c, &e) == RFL_OK)) {
			printf("     %s: %s at %s\n", fams[f].name, rfl_result_str(e.code), e.where);
			continue;
		}
		rfl_json_str(&d, rfl_json_get(&d, fo, "model_class"), cls, sizeof cls);
		params = num(&d, fo, "params");
		for (k = cs + 1; k < toks[cs].after; k = toks[k + 1].after) {
			char nm[32];
			unsigned long b = 0, s = 0;
			int cv = k + 1;
			rfl_llm_step_desc sd;
			uint64_t kv;
			rfl_json_str(&d, k, nm, sizeof nm);
			RT_CHECK(sscanf(nm, "b%lu_s%lu", &b, &s) == 2);
			/* prefill, every position's logits */
			RT_EQ_INT(build(&c, RFL_LLM_PREFILL, s, 1, 0), RFL_OK);
			eq("params", params_of(""), params);
			RT_EQ_U64(total_mac(b), num(&d, cv, "prefill_flops"));
			check_ops(&d, rfl_json_get(&d, cv, "prefill_by_op"), b);
			if (rfl_json_get(&d, cv, "prefill_by_module") >= 0)
				check_mlp_modules(&d, fo, rfl_json_get(&d, cv, "prefill_by_module"), cls, c.layers, b);
			/* prefill, the last position's */
			RT_EQ_INT(build(&c, RFL_LLM_PREFILL, s, 0, 0), RFL_OK);
			RT_EQ_U64(total_mac(b), num(&d, cv, "prefill_flops_last_logits"));
			check_ops(&d, rfl_json_get(&d, cv, "prefill_last_by_op"), b);
			/* decode after S */
			RT_EQ_INT(build(&c, RFL_LLM_DECODE, s, 0, 0), RFL_OK);
			eq("decode_flops", total_mac(b), num(&d, cv, "decode_flops"));
			check_ops(&d, rfl_json_get(&d, cv, "decode_by_op"), b);
			if (rfl_json_get(&d, cv, "decode_by_module") >= 0)
				check_mlp_modules(&d, fo, rfl_json_get(&d, cv, "decode_by_module"), cls, c.layers, b);
			/* the cache after each step */
			memset(&sd, 0, sizeof sd);
			sd.batch = b, sd.seq = s, sd.math = RFL_DTYPE_BF16;
			RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &sd, &kv), RFL_OK);
			if (!fams[f].sliding) RT_EQ_U64(kv, num(&d, rfl_json_get(&d, cv, "cache_after_prefill"), "total_bytes"));
			sd.phase = RFL_LLM_DECODE;
			RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &sd, &kv), RFL_OK);
			if (!fams[f].sliding) RT_EQ_U64(kv, num(&d, rfl_json_get(&d, cv, "cache_after_decode"), "total_bytes"));
			cases++;
		}
		check_default_experts(&d, fo, &c);
	}
	RT_EQ_INT(cases, 4 * 3);
}

/* ---- hand derivations ------------------------------------------------------- */
/* The deepseek_v2 test config: hidden 256, 4 layers (layer 0 dense), 4
   heads, no q_lora, kv_lora 64, nope 32, rope 16, v 48; 8 routed experts
   of 96, 2 per token, 2 shared. */
static const char ds2[] =
	"{\"model_type\": \"deepseek_v2\", \"vocab_size\": 1000, \"hidden_size\": 256,"
	" \"intermediate_size\": 512, \"moe_intermediate_size\": 96, \"num_hidden_layers\": 4,"
	" \"num_attention_heads\": 4, \"num_key_value_heads\": 4, \"q_lora_rank\": null,"
	" \"kv_lora_rank\": 64, \"qk_nope_head_dim\": 32, \"qk_rope_head_dim\": 16, \"v_head_dim\": 48,"
	" \"n_routed_experts\": 8, \"n_shared_experts\": 2, \"num_experts_per_tok\": 2,"
	" \"first_k_dense_replace\": 1, \"moe_layer_freq\": 1}";

static rfl_result parse(const char *js, rfl_llm_config *c, rfl_error *e) {
	static rfl_json_tok t[256];
	return rfl_llm_config_parse(js, strlen(js), t, 256, c, e);
}

/* Sum over the records of layer 1's self_attn: mac, kv read bytes. */
static void attn_sums(uint64_t *mac, uint64_t *kvr, uint64_t *params) {
	uint64_t m = 0, k = 0;
	int i;
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && !strncmp(net.layers[i].name, "model.layers.1.self_attn.", 25)) {
			rfl_layer_cost lc = cost(i, 1);
			m += lc.fwd_mac_flops, k += lc.fwd_kv_read_bytes;
		}
	*mac = m, *kvr = k, *params = params_of("model.layers.1.self_attn.");
}

static void test_mla_by_hand(void) {
	rfl_llm_config c;
	rfl_error e;
	rfl_llm_step_desc sd;
	uint64_t D = 256, H = 4, C = 64, R = 16, N = 32, V = 48, S = 1000, Lk = S + 1, mac, kvr, p, p2, kv;
	RT_EQ_INT(parse(ds2, &c, &e), RFL_OK);
	RT_EQ_U64(c.kv_lora_rank, 64);
	RT_EQ_U64(c.head_dim, 16); /* transformers: head_dim = qk_rope_head_dim */
	/* decode after S = 1000, as transformers runs it: q_proj D -> H (N + R);
	   kv_a D -> C + R; kv_b over all S + 1 cached latents C -> H (N + V);
	   scores H x Lk x (N + R); context H x Lk x V; o_proj H V -> D */
	RT_EQ_INT(build(&c, RFL_LLM_DECODE, S, 0, 0), RFL_OK);
	attn_sums(&mac, &kvr, &p);
	RT_EQ_U64(mac, 2 * (D * H * (N + R) + D * (C + R) + Lk * C * H * (N + V) + H * Lk * (N + R) +
						H * Lk * V + H * V * D));
	RT_EQ_U64(kvr, Lk * (C + R) * 2); /* the cache read: latent and rotated key, bf16 */
	RT_EQ_U64(p, D * H * (N + R) + D * (C + R) + C + C * H * (N + V) + H * V * D);
	/* absorbed: q_nope x W_UK (N -> C per head); scores over the latent
	   and rotated key H x Lk x (C + R); context over the latent H x Lk x C;
	   x W_UV (C -> V per head); the same weights, the same cache read */
	RT_EQ_INT(build(&c, RFL_LLM_DECODE, S, 0, 1), RFL_OK);
	attn_sums(&mac, &kvr, &p2);
	RT_EQ_U64(mac, 2 * (D * H * (N + R) + D * (C + R) + H * N * C + H * Lk * (C + R) + H * Lk * C +
						H * C * V + H * V * D));
	RT_EQ_U64(kvr, Lk * (C + R) * 2);
	RT_EQ_U64(p2, p);
	/* prefill of 128: transformers' kv_b over the 128 new latents; scores
	   and context 128 x 128 */
	RT_EQ_INT(build(&c, RFL_LLM_PREFILL, 128, 0, 0), RFL_OK);
	attn_sums(&mac, &kvr, &p);
	RT_EQ_U64(mac, 2 * 128 * (D * H * (N + R) + D * (C + R) + C * H * (N + V) + H * 128 * (N + R) +
							  H * 128 * V + H * V * D));
	RT_EQ_U64(kvr, 0);
	/* the cache after a decode of batch 3 after 1000: (S + 1) x (C + R) x
	   4 layers x 3 x 2 bytes, the same in both forms */
	memset(&sd, 0, sizeof sd);
	sd.phase = RFL_LLM_DECODE, sd.seq = S, sd.batch = 3, sd.math = RFL_DTYPE_BF16;
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &sd, &kv), RFL_OK);
	RT_EQ_U64(kv, Lk * (C + R) * 4 * 3 * 2);
	/* q_lora_rank 80: q_a_proj D -> 80, q_a_layernorm, q_b_proj 80 -> H (N + R) */
	{
		static char js[sizeof ds2 + 8];
		memcpy(js, ds2, sizeof ds2);
		memcpy(strstr(js, "null"), "80  ", 4);
		RT_EQ_INT(parse(js, &c, &e), RFL_OK);
		RT_EQ_U64(c.q_lora_rank, 80);
		RT_EQ_INT(build(&c, RFL_LLM_DECODE, S, 0, 0), RFL_OK);
		attn_sums(&mac, &kvr, &p);
		RT_EQ_U64(p, D * 80 + 80 + 80 * H * (N + R) + D * (C + R) + C + C * H * (N + V) + H * V * D);
	}
}

/* The records a step needs stay within RFL_LLM_NET_LAYERS and its names
   within RFL_LLM_NET_NAMES: the largest layer is MLA with q_lora and
   experts with shared ones, decode, in either form. */
static void test_record_bounds(void) {
	static const char js[] =
		"{\"model_type\":\"deepseek_v3\",\"hidden_size\":64,\"num_hidden_layers\":8,"
		"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
		"\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
		"\"n_shared_experts\":1,\"first_k_dense_replace\":1,\"q_lora_rank\":16,"
		"\"kv_lora_rank\":16,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,\"v_head_dim\":8}";
	rfl_llm_config c;
	rfl_error e;
	int absorbed;
	RT_EQ_INT(parse(js, &c, &e), RFL_OK);
	for (absorbed = 0; absorbed < 2; absorbed++) {
		RT_EQ_INT(build(&c, RFL_LLM_DECODE, 100, 0, absorbed), RFL_OK);
		RT_CHECK(net.count <= RFL_LLM_NET_LAYERS((int)c.layers));
		RT_CHECK(net.names_used <= (size_t)RFL_LLM_NET_NAMES((int)c.layers));
	}
}

static void test_shared_by_hand(void) {
	rfl_llm_config c;
	rfl_error e;
	uint64_t D = 256, E = 8, I = 96, K = 2, T = 100, got[4];
	RT_EQ_INT(parse(ds2, &c, &e), RFL_OK);
	RT_EQ_U64(c.shared_experts, 2);
	RT_EQ_INT(build(&c, RFL_LLM_PREFILL, T, 0, 0), RFL_OK);
	/* layer 0 dense (first_k_dense_replace 1): gate, up, down of 512 */
	RT_EQ_U64(params_of("model.layers.0.mlp."), 3 * D * 512);
	/* layer 1: gate D x E; experts E x (gate_up 2 I x D + down D x I);
	   shared 2 x I wide: gate, up, down */
	RT_EQ_U64(params_of("model.layers.1.mlp."), D * E + E * 3 * I * D + 3 * D * 2 * I);
	RT_EQ_U64(params_of("model.layers.1.mlp.shared_experts."), 3 * D * 2 * I);
	/* mac: router T D E; T K slots through one expert each; the shared
	   experts on every token */
	by_op(1, "model.layers.1.mlp.", got);
	RT_EQ_U64(got[1], 2 * T * D * E + 2 * T * K * 3 * I * D + 2 * T * 3 * D * 2 * I);
	by_op(1, "model.layers.1.mlp.shared_experts.", got);
	RT_EQ_U64(got[1], 2 * T * 3 * D * 2 * I);
	/* n_shared_experts null: none */
	{
		static char js[sizeof ds2 + 8];
		memcpy(js, ds2, sizeof ds2);
		memcpy(strstr(js, "\"n_shared_experts\": 2"), "\"n_shared_experts\": 0", 21);
		RT_EQ_INT(parse(js, &c, &e), RFL_OK);
		RT_EQ_U64(c.shared_experts, 0);
		RT_EQ_INT(build(&c, RFL_LLM_PREFILL, T, 0, 0), RFL_OK);
		RT_EQ_U64(params_of("model.layers.1.mlp."), D * E + E * 3 * I * D);
	}
}

/* Which layers are dense, per family's rule. */
static int dense(const rfl_llm_config *c, uint32_t l) {
	return (c->layer_dense[l / 8] >> (l % 8)) & 1;
}
static void test_dense_layers(void) {
	rfl_llm_config c;
	rfl_error e;
	/* qwen3_moe: (l + 1) % 3 == 0 has experts, unless in mlp_only_layers */
	RT_EQ_INT(parse("{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":7,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
					"\"decoder_sparse_step\":3,\"mlp_only_layers\":[5, 40]}", &c, &e), RFL_OK);
	RT_CHECK(dense(&c, 0) && dense(&c, 1) && !dense(&c, 2) && dense(&c, 3) && dense(&c, 4) &&
			 dense(&c, 5) && dense(&c, 6));
	/* num_experts 0: a dense model */
	RT_EQ_INT(parse("{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":2,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"num_experts\":0}", &c, &e), RFL_OK);
	RT_EQ_U64(c.experts, 0);
	/* deepseek: from first_k_dense_replace on, every moe_layer_freq-th */
	RT_EQ_INT(parse("{\"model_type\":\"deepseek_v3\",\"hidden_size\":64,\"num_hidden_layers\":6,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
					"\"n_shared_experts\":1,\"first_k_dense_replace\":1,\"moe_layer_freq\":2,"
					"\"q_lora_rank\":16,\"kv_lora_rank\":16,\"qk_nope_head_dim\":8,"
					"\"qk_rope_head_dim\":8,\"v_head_dim\":8}", &c, &e), RFL_OK);
	RT_CHECK(dense(&c, 0) && dense(&c, 1) && !dense(&c, 2) && dense(&c, 3) && !dense(&c, 4) &&
			 dense(&c, 5));
	/* n_routed_experts null: a dense model */
	RT_EQ_INT(parse("{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"num_hidden_layers\":2,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"n_routed_experts\":null,\"n_shared_experts\":null,\"first_k_dense_replace\":0,"
					"\"q_lora_rank\":null,\"kv_lora_rank\":16,\"qk_nope_head_dim\":8,"
					"\"qk_rope_head_dim\":8,\"v_head_dim\":8}", &c, &e), RFL_OK);
	RT_EQ_U64(c.experts, 0);
}

/* Errors name the field and its place. */
static void test_errors(void) {
	rfl_llm_config c;
	rfl_error e;
	RT_EQ_INT(parse("{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"num_hidden_layers\":2,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
					"\"n_shared_experts\":1,\"first_k_dense_replace\":1,\"q_lora_rank\":null,"
					"\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,\"v_head_dim\":8}", &c, &e),
			  RFL_ERR_MISSING);
	RT_STR(e.where, "kv_lora_rank");
	RT_EQ_INT(parse("{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":7,\n"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\n"
					"\"decoder_sparse_step\":0}", &c, &e), RFL_ERR_SHAPE);
	RT_STR(e.where, "decoder_sparse_step");
	RT_EQ_INT(e.line, 3);
	RT_EQ_INT(parse("{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"num_hidden_layers\":7,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
					"\"mlp_only_layers\":[1, -2]}", &c, &e), RFL_ERR_NUMBER);
	RT_STR(e.where, "mlp_only_layers");
	RT_EQ_INT(parse("{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"num_hidden_layers\":2,"
					"\"num_attention_heads\":4,\"intermediate_size\":128,\"vocab_size\":100,"
					"\"num_local_experts\":4,\"num_experts_per_tok\":5}", &c, &e), RFL_ERR_SHAPE);
	RT_STR(e.where, "num_experts_per_tok");
}

int main(void) {
	test_reference();
	test_mla_by_hand();
	test_shared_by_hand();
	test_record_bounds();
	test_dense_layers();
	test_errors();
	return rt_done();
}
