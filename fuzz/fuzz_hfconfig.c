/* fuzz_hfconfig.c - the Hugging Face config reader and the LLM step on
   arbitrary bytes.
   Input: 4 config bytes, then the config.json bytes.
     c[0] token array: 0 = 2048 tokens, else c[0] tokens (small arrays
          reach the "too small" path)
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
   - a config that reads is valid (rfl_llm_config_check), has at most
     RFL_LLM_MAX_ROWS rows, and its step either costs or fails with a
     documented error; when it costs, the kinds add up to the totals and
     the rows x count add up to the totals. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

/* The same step as layer records (rfl_llm_build), for models of up to 64
   layers: it builds or fails with a documented error; built, its params
   and mac_flops at the batch are the rows' (or the records' eager FLOPs
   overflow where the rows' causal ones did not). */
static void check_records(const rfl_llm_config *c, const rfl_llm_step_desc *d,
                          const rfl_llm_cost *t) {
    rfl_layer *recs;
    char *names;
    rfl_net net;
    rfl_net_cost nc;
    rfl_cost_desc cd;
    rfl_result r;
    int cap;
    if (c->layers > 64) return;
    cap = RFL_LLM_NET_LAYERS((int)c->layers);
    recs = (rfl_layer *)malloc(sizeof(rfl_layer) * (size_t)cap);
    names = (char *)malloc((size_t)RFL_LLM_NET_NAMES((int)c->layers));
    if (!recs || !names) { free(recs); free(names); return; }
    rfl_net_init(&net, recs, cap, names, (size_t)RFL_LLM_NET_NAMES((int)c->layers));
    r = rfl_llm_build(&net, c, d);
    FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW || r == RFL_ERR_SHAPE);
    if (r == RFL_OK) {
        memset(&cd, 0, sizeof cd);
        cd.batch = d->batch;
        FZ_CHECK(net.count <= cap);
        r = rfl_net_cost_get(&net, &cd, &nc);
        FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW);
        if (r == RFL_OK) FZ_CHECK(nc.params == t->params && nc.fwd_mac_flops == t->mac_flops);
    }
    free(recs);
    free(names);
}

static void check_step(const rfl_llm_config *c, const rfl_llm_step_desc *d) {
    rfl_llm_cost t;
    rfl_llm_kind_cost k[RFL_LLM_KIND_COUNT];
    rfl_llm_row row;
    rfl_result r = rfl_llm_step_cost(c, d, &t);
    uint64_t f = 0, b = 0, rf = 0;
    int i;
    FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW || r == RFL_ERR_SHAPE || r == RFL_ERR_ARG);
    if (r != RFL_OK) return;
    FZ_CHECK(t.rows > 0 && t.rows <= RFL_LLM_MAX_ROWS && t.rows == rfl_llm_row_count(c));
    FZ_CHECK(t.bytes >= t.weight_bytes && t.flops >= t.mma_flops);
    FZ_CHECK(rfl_llm_step_kinds(c, d, k) == RFL_OK);
    for (i = 0; i < RFL_LLM_KIND_COUNT; i++) f += k[i].flops, b += k[i].bytes;
    FZ_CHECK(f == t.flops && b == t.bytes);
    for (i = 0; i < t.rows; i++) {
        FZ_CHECK(rfl_llm_row_get(c, d, i, &row) == RFL_OK);
        FZ_CHECK(row.name && row.op && row.flops >= row.mma_flops);
        rf += row.flops * row.count; /* cannot wrap: the total did not */
    }
    FZ_CHECK(rf == t.flops);
    check_records(c, d, &t);
#ifndef RFL_NO_HW_TABLE
    {
        const rfl_machine *m;
        rfl_llm_prediction p;
        uint64_t cb;
        if (rfl_hw_find("h100", &m) == RFL_OK && rfl_llm_predict(c, d, m, &p) == RFL_OK) {
            FZ_CHECK(p.time_s >= 0 && p.time_s == p.time_s);
            r = rfl_llm_compute_bound_batch(c, d, m, (int)(d->seq & 1), 64, &cb);
            FZ_CHECK(cb <= 64);
        }
    }
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in in;
    uint8_t c0, c1, c2, c3;
    int cap;
    rfl_json_tok *toks;
    rfl_llm_config cfg;
    rfl_error e;
    rfl_llm_step_desc d;
    rfl_result r;
    const char *json;
    size_t len;
    fz_init(&in, data, size);
    c0 = fz_u8(&in), c1 = fz_u8(&in), c2 = fz_u8(&in), c3 = fz_u8(&in);
    json = (const char *)data + (size < 4 ? size : 4);
    len = size < 4 ? 0 : size - 4;
    cap = c0 ? c0 : 2048;
    toks = (rfl_json_tok *)malloc(sizeof(rfl_json_tok) * (size_t)cap);
    if (!toks) return 0;
    r = rfl_llm_config_parse(json, len, toks, cap, &cfg, &e);
    FZ_CHECK(e.code == r);
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
        check_step(&cfg, &d);
    }
    free(toks);
    return 0;
}
