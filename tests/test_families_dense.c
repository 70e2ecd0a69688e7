/* test_families_dense.c - the dense decoder families (qwen3, gemma2,
   gemma3_text, phi3, olmo2, gpt_neox, llama with rope_scaling) and the
   attention of gpt_oss, against PyTorch.
   Expected values come from:
   - tests/data/llm/families-reference.json (dev/capture/families_ref.py:
	 transformers 5.17 / PyTorch 2.11, random weights, eager attention,
	 FlopCounterMode; read at run time): per family a small config
	 (config_json, read here by rfl_llm_config_parse), its params, the
	 params of each module of each layer, and per case (b1_s48, b1_s128,
	 b2_s200) the FLOPs by op of a prefill with every logit, a prefill with
	 the last logit and a decode, by module for b1_s128's prefill, and the
	 tensors each cache layer holds;
   - hand derivations written below: a sliding layer's attention FLOPs and
	 cache, attention sinks' params, and the warning of an unknown
	 model_type;
   - tests/data/hf/<name>.json, the published config.json of each built-in
	 name (tests/data/hf/README.md has the URLs), against rfl_llm_find's
	 config. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static rfl_json_tok toks[65536];
static rfl_layer rec[RFL_LLM_NET_LAYERS(40)];
static char rec_names[RFL_LLM_NET_NAMES(40)];
static rfl_net net;

/* The small configs of families_ref.py that are dense (gpt_oss: its
   attention only; its experts are another test's). */
static const char *const dense[] = {"qwen3", "qwen3-tied-bias", "gemma2", "gemma3_text",
									"phi3", "olmo2", "gpt_neox", "gpt_neox-serial",
									"llama-3.1-rope"};
#define NDENSE ((int)(sizeof dense / sizeof dense[0]))

static uint64_t jnum(const rfl_json_doc *d, int obj, const char *key) {
	double v = -1;
	if (!rfl_json_num(d, rfl_json_get(d, obj, key), &v)) printf("     missing %s\n", key);
	return v < 0 ? (uint64_t)-1 : (uint64_t)v;
}

static rfl_result build(const rfl_llm_config *c, rfl_llm_phase ph, uint64_t seq, int all) {
	rfl_llm_step_desc d;
	memset(&d, 0, sizeof d);
	d.phase = ph, d.seq = seq, d.logits_all = all;
	rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(40), rec_names, sizeof rec_names);
	return rfl_llm_build(&net, c, &d);
}

/* Record i's bucket as FlopCounterMode names it: nn.Linear without bias is
   aten.mm, with one aten.addmm; attention's scores and context and
   rotary's inv_freq x positions are aten.bmm (1 mm, 2 addmm, 3 bmm). */
static int op_of(const rfl_layer *L) {
	if (L->op == RFL_OP_LINEAR) return (L->flags & RFL_LF_BIAS) ? 2 : 1;
	return L->op == RFL_OP_ATTENTION || L->op == RFL_OP_MATMUL ? 3 : 0;
}

/* mac_flops at the batch by bucket, of the records whose name is `prefix`
   or starts with it and a dot ("" : all). */
static void by_op(uint64_t batch, const char *prefix, uint64_t out[4]) {
	rfl_cost_desc cd;
	size_t n = strlen(prefix);
	int i;
	memset(&cd, 0, sizeof cd);
	cd.batch = batch;
	out[0] = out[1] = out[2] = out[3] = 0;
	for (i = 0; i < net.count; i++) {
		rfl_layer_cost lc;
		const char *nm = net.layers[i].name ? net.layers[i].name : "";
		if (n && (strncmp(nm, prefix, n) || (nm[n] && nm[n] != '.'))) continue;
		rfl_layer_cost_get(&net, i, &cd, &lc);
		out[op_of(&net.layers[i])] += lc.fwd_mac_flops;
	}
}

/* Params of the records under prefix. */
static uint64_t params_under(const char *prefix) {
	size_t n = strlen(prefix);
	uint64_t p = 0;
	int i;
	for (i = 0; i < net.count; i++) {
		const char *nm = net.layers[i].name ? net.layers[i].name : "";
		if (!n || (!strncmp(nm, prefix, n) && (!nm[n] || nm[n] == '.'))) p += net.layers[i].params;
	}
	return p;
}

/* Our buckets against the reference's {"aten.mm": .., ...} object. */
static int check_ops(const rfl_json_doc *d, int obj, const uint64_t got[4], const char *what) {
	static const char *const k[4] = {"", "aten.mm", "aten.addmm", "aten.bmm"};
	int a, ok = obj >= 0 && got[0] == 0; /* every mac is in one of the three */
	if (got[0]) printf("     %s: %llu mac FLOPs of no bucket\n", what, (unsigned long long)got[0]);
	for (a = 1; a < 4 && obj >= 0; a++) {
		int v = rfl_json_get(d, obj, k[a]);
		double want = 0;
		if (v >= 0) rfl_json_num(d, v, &want);
		if (got[a] != (uint64_t)want) {
			printf("     %s %s: got %llu, expected %llu\n", what, k[a], (unsigned long long)got[a],
				   (unsigned long long)want);
			ok = 0;
		}
	}
	return RT_CHECK(ok);
}

/* The bytes of a cache's keys and values (the reference's total also has
   a sliding layer's 8-byte int64 window scalar, which holds no token). */
static uint64_t cache_kv_bytes(const rfl_json_doc *d, int cache) {
	int layers = rfl_json_get(d, cache, "layers"), l, t, k;
	uint64_t sum = 0;
	for (l = layers + 1; layers >= 0 && l < toks[layers].after; l = toks[l].after) {
		int ts = rfl_json_get(d, l, "tensors");
		for (t = ts + 1; ts >= 0 && t < toks[ts].after; t = toks[t + 1].after) {
			int shape = rfl_json_at(d, t + 1, 0);
			uint64_t n = 2; /* bf16 */
			if (!rfl_json_str_eq(d, t, "keys") && !rfl_json_str_eq(d, t, "values")) continue;
			for (k = shape + 1; k < toks[shape].after; k = toks[k].after) {
				double v = 0;
				rfl_json_num(d, k, &v);
				n *= (uint64_t)v;
			}
			sum += n;
		}
	}
	return sum;
}

static uint64_t kv_bytes(const rfl_llm_config *c, rfl_llm_phase ph, uint64_t b, uint64_t s) {
	rfl_llm_step_desc d;
	uint64_t n = 0;
	memset(&d, 0, sizeof d);
	d.phase = ph, d.batch = b, d.seq = s, d.math = RFL_DTYPE_BF16;
	RT_EQ_INT(rfl_llm_kv_cache_bytes(c, &d, &n), RFL_OK);
	return n;
}

static uint64_t total_mac(uint64_t batch) {
	uint64_t o[4];
	by_op(batch, "", o);
	return o[0] + o[1] + o[2] + o[3];
}

/* One case of one family: params, totals and buckets of the three steps,
   the cache after prefill and decode. */
static void check_case(const rfl_llm_config *c, const rfl_json_doc *d, int cs, uint64_t params,
					   uint64_t b, uint64_t s, const char *fam) {
	uint64_t o[4];
	char what[96];
	snprintf(what, sizeof what, "%s b%llu s%llu", fam, (unsigned long long)b, (unsigned long long)s);
	RT_EQ_INT(build(c, RFL_LLM_PREFILL, s, 1), RFL_OK);
	RT_EQ_U64(params_under(""), params);
	RT_EQ_U64(total_mac(b), jnum(d, cs, "prefill_flops"));
	by_op(b, "", o);
	check_ops(d, rfl_json_get(d, cs, "prefill_by_op"), o, what);
	RT_EQ_INT(build(c, RFL_LLM_PREFILL, s, 0), RFL_OK);
	RT_EQ_U64(total_mac(b), jnum(d, cs, "prefill_flops_last_logits"));
	by_op(b, "", o);
	check_ops(d, rfl_json_get(d, cs, "prefill_last_by_op"), o, what);
	RT_EQ_INT(build(c, RFL_LLM_DECODE, s, 0), RFL_OK);
	RT_EQ_U64(params_under(""), params);
	RT_EQ_U64(total_mac(b), jnum(d, cs, "decode_flops"));
	by_op(b, "", o);
	check_ops(d, rfl_json_get(d, cs, "decode_by_op"), o, what);
	RT_EQ_U64(kv_bytes(c, RFL_LLM_PREFILL, b, s), cache_kv_bytes(d, rfl_json_get(d, cs, "cache_after_prefill")));
	RT_EQ_U64(kv_bytes(c, RFL_LLM_DECODE, b, s), cache_kv_bytes(d, rfl_json_get(d, cs, "cache_after_decode")));
}

/* b1_s128's prefill by module ("Gemma2ForCausalLM.model.layers.0.mlp"):
   each module's records (the class dropped) by op. Returns modules seen. */
static int check_modules(const rfl_json_doc *d, int bym, const char *fam) {
	int k, seen = 0;
	for (k = bym + 1; bym >= 0 && k < toks[bym].after; k = toks[k + 1].after) {
		char key[160], what[200];
		const char *dot;
		uint64_t o[4];
		rfl_json_str(d, k, key, sizeof key);
		if (!(dot = strchr(key, '.'))) continue; /* the whole model: the totals */
		by_op(1, dot + 1, o);
		snprintf(what, sizeof what, "%s %s", fam, dot + 1);
		check_ops(d, k + 1, o, what);
		seen++;
	}
	return seen;
}

/* Every module of every layer: its params ("layers": {path, layers: [{
   module: [class, params]}]}). */
static void check_layer_params(const rfl_json_doc *d, int fo, int only_attn) {
	int ly = rfl_json_get(d, fo, "layers"), arr = rfl_json_get(d, ly, "layers"), l, m, i = 0;
	char path[64];
	if (!RT_CHECK(arr >= 0)) return;
	rfl_json_str(d, rfl_json_get(d, ly, "path"), path, sizeof path);
	for (l = arr + 1; l < toks[arr].after; l = toks[l].after, i++) {
		for (m = l + 1; m < toks[l].after; m = toks[m + 1].after) {
			char mod[64], name[160];
			double want = -1;
			rfl_json_str(d, m, mod, sizeof mod);
			if (only_attn && strcmp(mod, "self_attn")) continue;
			snprintf(name, sizeof name, "%s.%d.%s", path, i, mod);
			rfl_json_num(d, rfl_json_at(d, m + 1, 1), &want);
			if (params_under(name) != (uint64_t)want) printf("     %s:\n", name);
			RT_EQ_U64(params_under(name), (uint64_t)want);
		}
	}
}

static char *ref_open(rfl_json_doc *d) {
	size_t len;
	char *json = rt_slurp("tests/data/llm/families-reference.json", &len);
	if (!RT_CHECK(json != 0)) return 0;
	if (!RT_CHECK(rfl_json_parse(d, json, len, toks, 65536) == RFL_OK)) free(json), json = 0;
	return json;
}

/* Family `name`'s small config, read from its config_json text. */
static int ref_config(const rfl_json_doc *d, const char *json, int fo, rfl_llm_config *c) {
	static rfl_json_tok sub[1024];
	rfl_error e;
	int co = rfl_json_get(d, fo, "config_json");
	rfl_result r;
	if (!RT_CHECK(co >= 0)) return 0;
	r = rfl_llm_config_parse(json + toks[co].start, toks[co].end - toks[co].start, sub, 1024, c, &e);
	if (r) printf("     %s at %s: %s\n", rfl_result_str(r), e.where, e.msg);
	return RT_CHECK(r == RFL_OK);
}

static void test_reference(void) {
	rfl_json_doc d;
	char *json = ref_open(&d);
	int fams = rfl_json_get(&d, 0, "families"), f, cases = 0, modules = 0;
	if (!json) return;
	for (f = 0; f < NDENSE; f++) {
		int fo = rfl_json_get(&d, fams, dense[f]), cs = rfl_json_get(&d, fo, "cases"), k;
		rfl_llm_config c;
		if (!RT_CHECK(fo >= 0 && cs >= 0) || !ref_config(&d, json, fo, &c)) continue;
		for (k = cs + 1; k < toks[cs].after; k = toks[k + 1].after) {
			char name[32];
			unsigned long b = 0, s = 0;
			rfl_json_str(&d, k, name, sizeof name);
			RT_CHECK(sscanf(name, "b%lu_s%lu", &b, &s) == 2);
			check_case(&c, &d, k + 1, jnum(&d, fo, "params"), b, s, dense[f]);
			cases++;
		}
		RT_EQ_INT(build(&c, RFL_LLM_PREFILL, 128, 1), RFL_OK);
		modules += check_modules(&d, rfl_json_path(&d, cs, "b1_s128.prefill_by_module"), dense[f]);
		check_layer_params(&d, fo, 0);
	}
	RT_EQ_INT(cases, 3 * NDENSE);
	RT_CHECK(modules > 10 * NDENSE);
	free(json);
}

/* gpt_oss: its attention (biases, sinks, alternating windows) by module
   and in the cache; the experts are not this test's. */
static void test_gpt_oss_attention(void) {
	rfl_json_doc d;
	char *json = ref_open(&d);
	int fo, cs, k, l;
	rfl_llm_config c;
	if (!json) return;
	fo = rfl_json_path(&d, 0, "families.gpt_oss"), cs = rfl_json_get(&d, fo, "cases");
	if (!ref_config(&d, json, fo, &c)) return;
	RT_EQ_INT(build(&c, RFL_LLM_PREFILL, 128, 1), RFL_OK);
	check_layer_params(&d, fo, 1);
	for (l = 0; l < 4; l++) {
		char key[96], mod[64];
		uint64_t o[4];
		snprintf(key, sizeof key, "GptOssForCausalLM.model.layers.%d.self_attn", l);
		snprintf(mod, sizeof mod, "model.layers.%d.self_attn", l);
		by_op(1, mod, o);
		check_ops(&d, rfl_json_get(&d, rfl_json_path(&d, cs, "b1_s128.prefill_by_module"), key), o, mod);
	}
	for (k = cs + 1; k < toks[cs].after; k = toks[k + 1].after) {
		char name[32];
		unsigned long b = 0, s = 0;
		rfl_json_str(&d, k, name, sizeof name);
		sscanf(name, "b%lu_s%lu", &b, &s);
		RT_EQ_U64(kv_bytes(&c, RFL_LLM_PREFILL, b, s), cache_kv_bytes(&d, rfl_json_get(&d, k + 1, "cache_after_prefill")));
		RT_EQ_U64(kv_bytes(&c, RFL_LLM_DECODE, b, s), cache_kv_bytes(&d, rfl_json_get(&d, k + 1, "cache_after_decode")));
	}
	free(json);
}


/* The records' params of cfg at a prefill of 1 (the count does not depend
   on the step). */
static uint64_t params_of(const rfl_llm_config *c) {
	RT_EQ_INT(build(c, RFL_LLM_PREFILL, 1, 0), RFL_OK);
	return params_under("");
}

/* Each dense built-in name against its published config.json
   (tests/data/hf/NAME.json): the same config, and params equal to
   PyTorch's count of that config (families-reference.json "published").
   qwen3-30b-a3b, deepseek-v2-lite and gpt-oss-20b (experts, latent
   attention) are test_families_sparse.c's. */
static void test_published(void) {
	static const char *const names[] = {"qwen3-0.6b", "qwen3-1.7b", "qwen3-4b", "qwen3-8b",
										"gemma-2-2b", "gemma-3-1b", "phi-3-mini", "olmo-2-7b",
										"pythia-1.4b", "llama-3.1-8b"};
	static rfl_json_tok sub[1024];
	rfl_json_doc d;
	char *json = ref_open(&d);
	int i;
	if (!json) return;
	for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
		char file[64];
		size_t len;
		char *text;
		rfl_llm_config hf, bi;
		rfl_error e;
		uint64_t want = jnum(&d, rfl_json_get(&d, rfl_json_get(&d, 0, "published"), names[i]), "params");
		snprintf(file, sizeof file, "%s.json", names[i]);
		text = rt_load("tests/data/hf", file, &len);
		RT_EQ_INT(rfl_llm_config_parse(text, len, sub, 1024, &hf, &e), RFL_OK);
		RT_EQ_INT(rfl_llm_find(names[i], &bi), RFL_OK);
		if (!strstr(text, "torch_dtype")) hf.dtype = bi.dtype; /* gemma-2-2b's is unconfirmed */
		if (memcmp(&hf, &bi, sizeof hf)) printf("     %s: built-in != published config\n", names[i]);
		RT_CHECK(memcmp(&hf, &bi, sizeof hf) == 0);
		RT_EQ_U64(params_of(&hf), want);
		free(text);
	}
	free(json);
}

/* gemma2's small config (4 layers, layer_types sliding, full, sliding,
   full; window 64; 4 heads of 96, 2 kv heads), by hand:
   - decode after 128: a sliding layer's cache holds window - 1 = 63
	 positions, the query attends to 64: scores and context 2 x 2 x 4 x 96
	 x 64 = 98,304 mac FLOPs (a full layer: x 129 = 198,144); the cache
	 read 64 x 2 x 192 x 2 bytes = 49,152;
   - the cache after a prefill of 128: 2 sliding layers x 63 + 2 full x
	 128 positions, x 2 (K, V) x 2 x 96 x 2 bytes = 96,768 + 196,608 =
	 293,376 (transformers adds an 8-byte window scalar per sliding layer);
   - a prefill of 128, causal: queries 1..64 see 1..64 keys (2,080 pairs),
	 the other 64 see 64 (4,096): 6,176 pairs x 2 x (384 + 384) =
	 9,486,336 matrix FLOPs; eager mac_flops stay 128 x 128:
	 2 x 2 x 128 x 128 x 384 = 25,165,824. */
static void test_sliding_by_hand(void) {
	static const char cfg[] =
		"{\"model_type\": \"gemma2\", \"vocab_size\": 1000, \"hidden_size\": 256, "
		"\"intermediate_size\": 512, \"num_hidden_layers\": 4, \"num_attention_heads\": 4, "
		"\"num_key_value_heads\": 2, \"head_dim\": 96, \"sliding_window\": 64, \"layer_types\": "
		"[\"sliding_attention\", \"full_attention\", \"sliding_attention\", \"full_attention\"]}";
	static rfl_json_tok sub[256];
	rfl_llm_config c;
	rfl_llm_step_desc d;
	rfl_cost_desc cd;
	rfl_layer_cost lc;
	uint64_t kv = 0;
	int i, seen = 0;
	RT_EQ_INT(rfl_llm_config_parse(cfg, sizeof cfg - 1, sub, 256, &c, 0), RFL_OK);
	memset(&d, 0, sizeof d);
	d.phase = RFL_LLM_DECODE, d.seq = 128, d.math = RFL_DTYPE_BF16;
	RT_EQ_INT(build(&c, d.phase, d.seq, 0), RFL_OK);
	RT_EQ_INT(rfl_llm_cost_desc(&c, &d, &cd), RFL_OK);
	for (i = 0; i < net.count; i++) {
		if (net.layers[i].op != RFL_OP_ATTENTION) continue;
		RT_EQ_INT(rfl_layer_cost_get(&net, i, &cd, &lc), RFL_OK);
		RT_EQ_U64(lc.fwd_mac_flops, seen % 2 ? 198144 : 98304);
		if (seen % 2 == 0) RT_EQ_U64(lc.fwd_kv_read_bytes, 49152);
		seen++;
	}
	RT_EQ_INT(seen, 4);
	d.phase = RFL_LLM_PREFILL;
	RT_EQ_INT(rfl_llm_kv_cache_bytes(&c, &d, &kv), RFL_OK);
	RT_EQ_U64(kv, 293376);
	RT_EQ_INT(build(&c, d.phase, d.seq, 0), RFL_OK);
	for (i = 0; i < net.count && net.layers[i].op != RFL_OP_ATTENTION; i++) {}
	RT_EQ_INT(rfl_layer_cost_get(&net, i, &cd, &lc), RFL_OK);
	RT_EQ_U64(lc.fwd_mma_flops, 9486336);
	RT_EQ_U64(lc.fwd_mac_flops, 25165824);
}

/* gpt_oss's small config: a sink logit per head (4) on each attention;
   with its biases self_attn holds q 384 x 256 + 384, k and v 192 x 256 +
   192 each, o 256 x 384 + 256 and the sinks: 98,688 + 2 x 49,344 +
   98,560 + 4 = 295,940. */
static void test_sinks_by_hand(void) {
	static const char cfg[] =
		"{\"model_type\": \"gpt_oss\", \"vocab_size\": 1000, \"hidden_size\": 256, "
		"\"intermediate_size\": 192, \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
		"\"num_key_value_heads\": 2, \"head_dim\": 96, \"num_local_experts\": 8, "
		"\"num_experts_per_tok\": 2, \"sliding_window\": 64, \"attention_bias\": true}";
	static rfl_json_tok sub[256];
	rfl_llm_config c;
	int i, sinks = 0;
	RT_EQ_INT(rfl_llm_config_parse(cfg, sizeof cfg - 1, sub, 256, &c, 0), RFL_OK);
	RT_EQ_INT(build(&c, RFL_LLM_PREFILL, 8, 0), RFL_OK);
	RT_EQ_U64(params_under("model.layers.0.self_attn"), 295940);
	RT_EQ_U64(params_under("model.layers.1.self_attn"), 295940);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].op == RFL_OP_ATTENTION) {
			RT_EQ_U64(net.layers[i].params, 4);
			sinks++;
		}
	RT_EQ_INT(sinks, 2);
	/* layer 0 slides, layer 1 does not (gpt_oss's default layer_types) */
	RT_CHECK(!(c.layer_full[0] & 1) && (c.layer_full[0] & 2));
}

/* An unknown model_type: refused by rfl_llm_config_parse and a strict
   read; otherwise read as Llama with a warning naming what it read and
   what it ignored, and counted as the same config named llama is. */
static void test_assumed_llama_like(void) {
	static const char cfg[] =
		"{\"model_type\": \"mymodel\", \"vocab_size\": 1000, \"hidden_size\": 256, "
		"\"intermediate_size\": 512, \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
		"\"rope_theta\": 10000.0, \"n_fancy_experts\": 4}";
	static const char llama[] =
		"{\"model_type\": \"llama\", \"vocab_size\": 1000, \"hidden_size\": 256, "
		"\"intermediate_size\": 512, \"num_hidden_layers\": 2, \"num_attention_heads\": 4}";
	static rfl_json_tok sub[256];
	rfl_llm_config c, l;
	rfl_llm_read_desc rd;
	rfl_error e;
	rfl_warning warn;
	memset(&rd, 0, sizeof rd);
	RT_EQ_INT(rfl_llm_config_parse(cfg, sizeof cfg - 1, sub, 256, &c, &e), RFL_ERR_UNSUPPORTED);
	RT_STR(e.where, "model_type");
	rd.strict = 1;
	RT_EQ_INT(rfl_llm_config_read(cfg, sizeof cfg - 1, sub, 256, &rd, &c, &e), RFL_ERR_UNSUPPORTED);
	rd.strict = 0, rd.warning = &warn;
	RT_EQ_INT(rfl_llm_config_read(cfg, sizeof cfg - 1, sub, 256, &rd, &c, &e), RFL_OK);
	RT_EQ_INT(c.assumed, 1);
	RT_STR(c.model_type, "mymodel");
	RT_CHECK(strstr(warn.text, "'mymodel'") && strstr(warn.text, "read: vocab_size, hidden_size"));
	RT_CHECK(strstr(warn.text, "ignored (they may change the counts): n_fancy_experts"));
	RT_CHECK(!strstr(warn.text, "rope_theta")); /* no count changes with it */
	RT_STR(rfl_warn_code(warn.code), "assumed_llama_like");
	RT_EQ_INT(rfl_llm_config_check(&c, &e), RFL_OK);
	RT_EQ_INT(rfl_llm_config_parse(llama, sizeof llama - 1, sub, 256, &l, &e), RFL_OK);
	RT_EQ_U64(params_of(&c), params_of(&l));
	/* a known model_type: no warning */
	RT_EQ_INT(rfl_llm_config_read(llama, sizeof llama - 1, sub, 256, &rd, &l, &e), RFL_OK);
	RT_EQ_INT(l.assumed, 0);
	RT_EQ_INT(warn.code, RFL_WARN_NONE);
	RT_STR(warn.text, "");
}

/* gemma3 rotates its sliding layers with a table of their own: two
   inv_freq x positions products, 2 x 2 x (256 / 2) x T each (gemma-3-1b,
   head_dim 256), once per forward. */
static void test_gemma3_rotary(void) {
	rfl_llm_config c;
	int i;
	RT_EQ_INT(rfl_llm_find("gemma-3-1b", &c), RFL_OK);
	RT_EQ_INT(build(&c, RFL_LLM_PREFILL, 100, 0), RFL_OK);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && !strcmp(net.layers[i].name, "model.rotary_emb"))
			RT_EQ_U64(net.layers[i].mac_flops, 2ull * 2 * 128 * 100);
	c.rope_local = 0;
	RT_EQ_INT(build(&c, RFL_LLM_PREFILL, 100, 0), RFL_OK);
	for (i = 0; i < net.count; i++)
		if (net.layers[i].name && !strcmp(net.layers[i].name, "model.rotary_emb"))
			RT_EQ_U64(net.layers[i].mac_flops, 2ull * 128 * 100);
}

/* Which layers slide, against the layer_types PyTorch derived for each
   published config (families-reference.json "published": gemma-2-2b and
   gpt-oss-20b every other layer, gemma-3-1b five of six), and Qwen2's
   rule by hand: with use_sliding_window, layers from max_window_layers on
   slide (4 layers, max_window_layers 2: layers 2 and 3; a prefill of 128
   with window 64 keeps 2 x 128 + 2 x 63 positions x 2 x 2 kv heads x 64 x
   2 bytes = 195,584). */
static void test_layer_types(void) {
	static const char *const names[] = {"gemma-2-2b", "gemma-3-1b", "gpt-oss-20b", "phi-3-mini"};
	static const char qwen2[] =
		"{\"model_type\": \"qwen2\", \"vocab_size\": 1000, \"hidden_size\": 256, "
		"\"intermediate_size\": 512, \"num_hidden_layers\": 4, \"num_attention_heads\": 4, "
		"\"num_key_value_heads\": 2, \"sliding_window\": 64, \"use_sliding_window\": true, "
		"\"max_window_layers\": 2}";
	static rfl_json_tok sub[256];
	rfl_json_doc d;
	char *json = ref_open(&d);
	rfl_llm_config c;
	int i, k;
	uint32_t l;
	if (!json) return;
	for (i = 0; i < 4; i++) {
		int lt = rfl_json_get(&d, rfl_json_get(&d, rfl_json_get(&d, 0, "published"), names[i]), "layer_types");
		RT_EQ_INT(rfl_llm_find(names[i], &c), RFL_OK);
		if (toks[lt].type == RFL_JSON_NULL) { /* none: every layer slides */
			for (l = 0; l < c.layers; l++) RT_CHECK(!(c.layer_full[l / 8] >> (l % 8) & 1));
			continue;
		}
		for (k = lt + 1, l = 0; k < toks[lt].after; k = toks[k].after, l++)
			RT_EQ_INT(c.layer_full[l / 8] >> (l % 8) & 1, rfl_json_str_eq(&d, k, "full_attention"));
		RT_EQ_U64(l, c.layers);
	}
	free(json);
	RT_EQ_INT(rfl_llm_config_parse(qwen2, sizeof qwen2 - 1, sub, 256, &c, 0), RFL_OK);
	RT_EQ_INT(c.layer_full[0], 3);
	RT_EQ_U64(kv_bytes(&c, RFL_LLM_PREFILL, 1, 128), 195584);
}

int main(void) {
	test_reference();
	test_gpt_oss_attention();
	test_published();
	test_sliding_by_hand();
	test_sinks_by_hand();
	test_assumed_llama_like();
	test_gemma3_rotary();
	test_layer_types();
	return rt_done();
}
