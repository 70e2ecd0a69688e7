/* fuzz_hfconfig.c - the Hugging Face config reader and the LLM step on
   arbitrary bytes.
   Input: 4 config bytes, then the config.json bytes.
	 c[0] token array: 0 = 2048 tokens, else c[0] tokens (small arrays
		  reach the "too small" path); odd: an unknown model_type is read
		  as Llama-style (rfl_llm_config_read, not strict) with a warning
		  buffer of 1 + c[0] / 2 bytes; even: strict
	 c[1] the step: bit 0 decode, bit 1 all logits, bits 2-4 math type,
		  bits 5-7 weights type (the kv type follows c[2])
	 c[2] batch = 2^(c[2] & 63) + (c[2] >> 6) (then capped as a u64)
	 c[3] seq = 2^(c[3] & 63) - 1 + (c[3] >> 6)
   Properties:
   - no crash, no UB, no access outside the token array (an exact-size
	 heap block under ASan) or the input;
   - an error has its code, a NUL-terminated field (err.where) and a
	 position inside the input (offset <= length; line, col >= 1 unless
	 the tokens ran out, then err.need > the array);
   - only a read that is not strict assumes a model_type, and then its
	 warning is a NUL-terminated text inside its buffer;
   - a config that reads is valid (rfl_llm_config_check), and its step
	 either costs or fails with a documented error (cost desc, cache size,
	 records); when it costs, every record has its kind and the kinds add
	 up to the totals. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

/* The step's records under cd: the kinds (RFL_GROUP_KIND, at most
   RFL_LLM_KIND_COUNT) add up to the totals, the bytes by role fit in the
   bytes, and the predictions are finite. */
static void check_net(const rfl_net *net, const rfl_cost_desc *cd, uint64_t layers) {
	rfl_group_cost g[RFL_LLM_KIND_COUNT];
	rfl_net_cost t;
	uint64_t f = 0, b = 0, p = 0;
	rfl_result r = rfl_net_cost_get(net, cd, &t);
	int i, n;
	FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW);
	if (r != RFL_OK) return;
	FZ_CHECK(t.fwd_weight_bytes <= t.fwd_bytes && t.fwd_kv_read_bytes <= t.fwd_bytes &&
			 t.fwd_kv_write_bytes <= t.fwd_bytes);
	n = rfl_net_group(net, cd, RFL_GROUP_KIND, 0, g, RFL_LLM_KIND_COUNT);
	FZ_CHECK(n > 0 && n <= RFL_LLM_KIND_COUNT);
	for (i = 0; i < n; i++) {
		FZ_CHECK(g[i].fwd_flops >= g[i].fwd_mma_flops);
		f += g[i].fwd_flops, b += g[i].fwd_bytes, p += g[i].params; /* cannot wrap: the total did not */
	}
	FZ_CHECK(f == t.fwd_flops && b == t.fwd_bytes && p == t.params);
#ifndef RFL_NO_HW_TABLE
	{
		const rfl_machine *m;
		rfl_net_prediction pr;
		uint64_t cb = 0;
		if (rfl_hw_find("h100", &m) == RFL_OK && rfl_net_predict(net, cd, m, &pr) == RFL_OK) {
			FZ_CHECK(pr.layers_s >= 0 && pr.layers_s == pr.layers_s);
			r = rfl_net_compute_bound_batch(net, cd, m, (int)(layers & 1), 64, &cb);
			FZ_CHECK(cb <= 64);
		}
	}
#endif
}

/* The step as layer records (rfl_llm_build), for models of up to 64
   layers: its cost desc and cache size read or fail with a documented
   error; then it builds or fails with one. */
static void check_step(const rfl_llm_config *c, const rfl_llm_step_desc *d) {
	rfl_layer *recs;
	char *names;
	rfl_net net;
	rfl_cost_desc cd;
	uint64_t kvc = 0;
	rfl_result r = rfl_llm_cost_desc(c, d, &cd);
	int cap;
	FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW || r == RFL_ERR_SHAPE || r == RFL_ERR_ARG);
	if (r != RFL_OK) return;
	FZ_CHECK(cd.causal == 1 && cd.batch >= 1 && cd.dtype != RFL_DTYPE_INT4);
	r = rfl_llm_kv_cache_bytes(c, d, &kvc);
	FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW);
	if (c->layers > 64) return;
	cap = RFL_LLM_NET_LAYERS((int)c->layers);
	recs = (rfl_layer *)malloc(sizeof(rfl_layer) * (size_t)cap);
	names = (char *)malloc((size_t)RFL_LLM_NET_NAMES((int)c->layers));
	if (!recs || !names) { free(recs); free(names); return; }
	rfl_net_init(&net, recs, cap, names, (size_t)RFL_LLM_NET_NAMES((int)c->layers));
	r = rfl_llm_build(&net, c, d);
	FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW || r == RFL_ERR_SHAPE);
	if (r == RFL_OK) {
		int i;
		FZ_CHECK(net.count <= cap);
		for (i = 0; i < net.count; i++) /* every record has its kind */
			FZ_CHECK(net.layers[i].kind >= 1 && net.layers[i].kind <= RFL_LLM_KIND_COUNT);
		check_net(&net, &cd, c->layers);
	}
	free(recs);
	free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	fz_in in;
	uint8_t c0, c1, c2, c3;
	int cap;
	rfl_json_tok *toks;
	rfl_llm_config cfg;
	rfl_error e;
	rfl_llm_step_desc d;
	rfl_llm_read_desc rd;
	rfl_result r;
	const char *json;
	rfl_warning warn;
	size_t len;
	fz_init(&in, data, size);
	c0 = fz_u8(&in), c1 = fz_u8(&in), c2 = fz_u8(&in), c3 = fz_u8(&in);
	json = (const char *)data + (size < 4 ? size : 4);
	len = size < 4 ? 0 : size - 4;
	cap = c0 ? c0 : 2048;
	toks = (rfl_json_tok *)malloc(sizeof(rfl_json_tok) * (size_t)cap);
	if (!toks) return 0;
	memset(&rd, 0, sizeof rd);
	memset(&warn, 'x', sizeof warn);
	rd.strict = !(c0 & 1), rd.warning = &warn;
	if (rd.strict && (c0 & 2)) {
		r = rfl_llm_config_parse(json, len, toks, cap, &cfg, &e);
		warn.code = RFL_WARN_NONE, warn.text[0] = 0; /* no warning asked for */
	} else {
		r = rfl_llm_config_read(json, len, toks, cap, &rd, &cfg, &e);
	}
	FZ_CHECK(e.code == r);
	FZ_CHECK(memchr(warn.text, 0, sizeof warn.text) != 0);
	FZ_CHECK(r != RFL_OK || !cfg.assumed || (!rd.strict && warn.text[0] && warn.code == RFL_WARN_ASSUMED_LLAMA_LIKE));
	FZ_CHECK(memchr(e.where, 0, sizeof e.where) && memchr(e.msg, 0, sizeof e.msg));
	if (r == RFL_ERR_BUFFER) {
		FZ_CHECK(e.need > (uint64_t)cap);
	} else if (r != RFL_OK) {
		FZ_CHECK(r == RFL_ERR_SYNTAX || r == RFL_ERR_MISSING || r == RFL_ERR_UNSUPPORTED ||
				 r == RFL_ERR_NUMBER || r == RFL_ERR_OVERFLOW || r == RFL_ERR_SHAPE ||
				 r == RFL_ERR_FORMAT);
		FZ_CHECK(e.offset <= len && e.line >= 1 && e.col >= 1);
	} else {
		FZ_CHECK(rfl_llm_config_check(&cfg, 0) == RFL_OK);
		memset(&d, 0, sizeof d);
		d.phase = (c1 & 1) ? RFL_LLM_DECODE : RFL_LLM_PREFILL;
		d.logits_all = (c1 >> 1) & 1;
		d.math = (rfl_dtype)((c1 >> 2) & 7);   /* 6: int4, no math */
		d.weights = (rfl_dtype)((c1 >> 5) & 7);
		d.kv = (rfl_dtype)((c2 >> 5) + 1);     /* 8: out of range */
		d.batch = ((uint64_t)1 << (c2 & 63)) + (c2 >> 6);
		d.seq = ((uint64_t)1 << (c3 & 63)) - 1 + (c3 >> 6);
		d.mla_absorbed = c0 & 1; /* an odd token array: latent attention absorbed */
		check_step(&cfg, &d);
	}
	free(toks);
	return 0;
}
