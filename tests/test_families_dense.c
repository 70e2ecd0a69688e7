/* test_families_dense.c - the dense decoder families (qwen3, gemma2,
   gemma3_text, phi3, olmo2, gpt_neox, llama with rope_scaling) and the
   attention of gpt_oss, against PyTorch.
   Expected values come from:
   - tests/data/llm/families-reference.json (tools/capture/families_ref.py:
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
static rfl_layer rec[RFL_LLM_NET_LAYERS(8)];
static char rec_names[RFL_LLM_NET_NAMES(8)];
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
    rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(8), rec_names, sizeof rec_names);
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

int main(void) {
    test_reference();
    test_gpt_oss_attention();
    return rt_done();
}
