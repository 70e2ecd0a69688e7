/* estimate_llm.h - rfl-estimate for decoder LLMs (issue 17): a built-in
   model (rfl_llm_find) or --hf-config FILE, one prefill or decode step,
   its records by module, totals, and with --hw the predicted time, tokens/s and the
   batch at which decode turns compute-bound. Included by rfl-estimate.c
   after tool.h; rfl-estimate hands over when llm_wanted() says so. */
#ifndef RFL_ESTIMATE_LLM_H
#define RFL_ESTIMATE_LLM_H

#ifndef RFL_NO_LLM
static const char *llm_usage =
    "usage: rfl-estimate LLM|--hf-config FILE [--phase prefill|decode] [--seq S]\n"
    "                    [--batch N] [--logits last|all] [--dtype T] [--weights T]\n"
    "                    [--kv T] [--hw NAME | --hw-file FILE] [--json]\n"
    "  LLM          a built-in decoder (--list), from its published config.json\n"
    "  --hf-config  a Hugging Face config.json (model_type gpt2, llama, qwen2,\n"
    "               mistral, mixtral)\n"
    "  --phase      decode (default): one new token per sequence after a cache of\n"
    "               S tokens (attends to S + 1); prefill: S tokens per sequence\n"
    "  --seq S      default 1024\n"
    "  --logits     last (default): the LM head on the last prefill position, as\n"
    "               generation does; all: on every position, as a plain forward\n"
    "  --dtype T    the type the math runs in, which picks the roof (default: the\n"
    "               config's torch_dtype, else fp32): fp32 fp16 bf16 fp8 int8\n"
    "  --weights T  storage of the weight matrices (default: --dtype): also int4\n"
    "  --kv T       storage of the KV cache (default: --dtype)\n"
    "  --hw NAME    predicted step time (sum over records of max(compute, memory)),\n"
    "               tokens/s, ttft (prefill), decode_compute_bound_batch\n"
    "  --hw-file F  a machine file instead (rfl-hw NAME --json, rfl-probe -o F)\n"
    "mac_flops: PyTorch FlopCounterMode on the eager forward (attention over the\n"
    "full T x (S + T) scores); flops: what runs, with causal (FlashAttention)\n"
    "attention, used for time. Bytes follow the storage types.\n"
    "--layers (or --mode train, --summary): the step as the zoo's layer records\n"
    "one by one instead of by module: per-layer table, training, eager attention\n"
    "(rfl-estimate --help).\n";

#define LLM_BATCH_CAP 65536 /* decode_compute_bound_batch: null above this */

typedef struct llm_args {
    const char *model, *hf, *hwname;
    int json;
    rfl_llm_step_desc d;
    int dtype_given;
} llm_args;

/* 1 when argv asks for an LLM estimate: --hf-config, --phase, or a model
   name that is a built-in LLM. */
static int llm_wanted(int argc, char **argv) {
    rfl_llm_config c;
    int a;
    for (a = 1; a < argc; a++) {
        if (tl_is(argv[a], "--hf-config") || tl_is(argv[a], "--phase")) return 1;
        if (argv[a][0] != '-' && rfl_llm_find(argv[a], &c) == RFL_OK) return 1;
    }
    return 0;
}

static void llm_list(FILE *f) {
    int i;
    for (i = 0; i < rfl_llm_count(); i++) fprintf(f, "%s\n", rfl_llm_name(i));
}

static rfl_dtype llm_type_arg(const char *opt, const char *v, int allow_int4) {
    rfl_dtype t;
    if (!v) tl_usage_error("%s needs a value", opt);
    if (rfl_dtype_parse(v, &t) != RFL_OK || (t == RFL_DTYPE_INT4 && !allow_int4))
        tl_input_error(0, 0, 0, "%s: unknown type '%s' (fp32, fp16, bf16, fp8, int8%s)", opt, v,
                       allow_int4 ? ", int4" : "");
    return t;
}

static unsigned long long llm_count_arg(const char *opt, const char *v, int zero_ok) {
    char *end;
    unsigned long long n;
    if (!v) tl_usage_error("%s needs a value", opt);
    errno = 0;
    n = strtoull(v, &end, 10);
    if (*v == '-' || end == v || *end || errno || (!zero_ok && n == 0) || n > (1ull << 40))
        tl_input_error(0, 0, 0, "%s: '%s' is not a whole number from %d to 2^40", opt, v,
                       zero_ok ? 0 : 1);
    return n;
}

static void llm_parse_args(int argc, char **argv, llm_args *g) {
    int a;
    memset(g, 0, sizeof *g);
    g->d.phase = RFL_LLM_DECODE;
    g->d.seq = 1024;
    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : 0;
        if (tl_is(o, "--help") || tl_is(o, "-h")) { fputs(llm_usage, stdout); exit(0); }
        else if (tl_is(o, "--json")) g->json = 1;
        else if (tl_is(o, "--hf-config")) { if (!v) tl_usage_error("--hf-config needs a file"); g->hf = v; a++; }
        else if (tl_is(o, "--hw")) { if (!v) tl_usage_error("--hw needs a value"); g->hwname = v; a++; }
        else if (tl_hw_file_option(o, v)) a++;
        else if (tl_is(o, "--batch")) { g->d.batch = llm_count_arg(o, v, 0); a++; }
        else if (tl_is(o, "--seq")) { g->d.seq = llm_count_arg(o, v, 1); a++; }
        else if (tl_is(o, "--phase")) {
            if (v && tl_is(v, "prefill")) g->d.phase = RFL_LLM_PREFILL;
            else if (v && tl_is(v, "decode")) g->d.phase = RFL_LLM_DECODE;
            else tl_usage_error("--phase is prefill or decode");
            a++;
        } else if (tl_is(o, "--logits")) {
            if (v && tl_is(v, "all")) g->d.logits_all = 1;
            else if (v && tl_is(v, "last")) g->d.logits_all = 0;
            else tl_usage_error("--logits is last or all");
            a++;
        } else if (tl_is(o, "--mode")) { /* the zoo's option: only inference here */
            if (!v) tl_usage_error("--mode needs a value");
            if (!tl_is(v, "infer") && !tl_is(v, "inference"))
                tl_input_error(0, 0, 0, "--mode %s: an LLM estimate is one inference step", v);
            a++;
        } else if (tl_is(o, "--dtype")) { g->d.math = llm_type_arg(o, v, 0); g->dtype_given = 1; a++; }
        else if (tl_is(o, "--weights")) { g->d.weights = llm_type_arg(o, v, 1); a++; }
        else if (tl_is(o, "--kv")) { g->d.kv = llm_type_arg(o, v, 1); a++; }
        else if (o[0] == '-' && o[1]) tl_usage_error("unknown option '%s' for an LLM", o);
        else if (!g->model) g->model = o;
        else tl_usage_error("one model at a time ('%s' and '%s')", g->model, o);
    }
    if (g->model && g->hf) tl_usage_error("a model name or --hf-config, not both");
    if (!g->model && !g->hf) tl_usage_error("no model given (rfl-estimate --list)");
    if (g->d.phase == RFL_LLM_PREFILL && g->d.seq == 0)
        tl_input_error(0, 0, 0, "--seq must be at least 1 for prefill");
}

/* Read and parse --hf-config into *c; exit 1 naming the file, line and
   field on any error. */
static void llm_read_hf(const char *path, rfl_llm_config *c) {
    static rfl_json_tok toks[8192];
    rfl_error e;
    rfl_result r;
    size_t n;
    char *text = tl_read_file(path, RFL_CAP_CONFIG, &n);
    r = rfl_llm_config_parse(text, n, toks, 8192, c, &e);
    free(text);
    if (r == RFL_ERR_BUFFER)
        tl_input_error(path, 0, 0, "needs %llu JSON tokens, more than 8192", (unsigned long long)e.need);
    if (r != RFL_OK) tl_error(path, &e);
}

/* The step as records (rfl_llm_build) in a buffer kept for the run. */
static rfl_result llm_records(const rfl_llm_config *c, const rfl_llm_step_desc *d, rfl_net *net) {
    static rfl_layer *recs;
    static char *nm;
    size_t n = RFL_LLM_NET_LAYERS((size_t)c->layers), nn = RFL_LLM_NET_NAMES((size_t)c->layers);
    if (!recs) {
        recs = (rfl_layer *)tl_xmalloc(sizeof(rfl_layer) * n);
        nm = (char *)tl_xmalloc(nn);
    }
    rfl_net_init(net, recs, (int)n, nm, nn);
    return rfl_llm_build(net, c, d);
}

typedef struct llm_result {
    rfl_net net;            /* the step's records */
    rfl_cost_desc cd;       /* ... under rfl_llm_cost_desc */
    rfl_net_cost t;         /* their totals */
    uint64_t tokens, mma_flops, act_bytes, kv_cache_bytes;
    uint64_t by_op[4];      /* mac_flops by FlopCounterMode's op: -, mm, addmm, bmm */
    rfl_group_cost kinds[RFL_LLM_KIND_COUNT];
    int nkinds;
    rfl_group_cost *mods;   /* by module (with --hw: their times) */
    int nmods;
    rfl_net_prediction p;
    double tokens_per_s;
    uint64_t cb_batch, gemm_batch; /* 0: none up to LLM_BATCH_CAP */
    uint64_t mem_batch;            /* sequences whose cache fits beside the
                                      weights in the machine's memory; 0:
                                      none, or the memory is unknown */
} llm_result;

static const char *const llm_aten[4] = {"", "aten.mm", "aten.addmm", "aten.bmm"};

/* mac_flops by the op FlopCounterMode sees: nn.Linear without bias
   aten.mm, with one (GPT-2's Conv1D) aten.addmm; attention's scores and
   context and rotary's inv_freq x positions aten.bmm. */
static void llm_by_op(llm_result *r) {
    int i;
    memset(r->by_op, 0, sizeof r->by_op);
    for (i = 0; i < r->net.count; i++) {
        const rfl_layer *L = &r->net.layers[i];
        rfl_layer_cost lc;
        int a = L->op == RFL_OP_LINEAR ? ((L->flags & RFL_LF_BIAS) ? 2 : 1)
                : (L->op == RFL_OP_ATTENTION || L->op == RFL_OP_MATMUL) ? 3 : 0;
        if (rfl_layer_cost_get(&r->net, i, &r->cd, &lc) == RFL_OK) r->by_op[a] += lc.fwd_mac_flops;
    }
}

/* The groups by module, with times on hw (may be NULL). */
static void llm_modules(llm_result *r, const rfl_machine *hw) {
    int n = rfl_net_group(&r->net, &r->cd, RFL_GROUP_MODULE, hw, 0, 0);
    r->mods = (rfl_group_cost *)tl_xmalloc(sizeof(rfl_group_cost) * (size_t)(n > 0 ? n : 1));
    r->nmods = n > 0 ? rfl_net_group(&r->net, &r->cd, RFL_GROUP_MODULE, hw, r->mods, n) : 0;
}

static const char *llm_kind_str(const rfl_group_cost *g) {
    return g->kind ? rfl_llm_kind_name((rfl_llm_kind)(g->kind - 1)) : rfl_ltype_name((rfl_ltype)g->ltype);
}

/* The records by module (per run, x count) and the totals, as the table. */
static void llm_print_rows(const llm_result *r, const rfl_machine *hw) {
    int i;
    printf("%-44s %-11s %5s %14s %10s %10s %10s %10s", "module (x count)", "kind", "count",
           "params", "mac FLOP", "FLOP", "weights", "bytes");
    if (hw) printf(" %10s  %s", "time", "bound");
    putchar('\n');
    for (i = 0; i < r->nmods; i++) {
        const rfl_group_cost *g = &r->mods[i];
        uint64_t n = (uint64_t)g->count;
        printf("%-44s %-11s %5d %14s %10s %10s %10s %10s", g->name, llm_kind_str(g), g->count,
               tl_commas((double)(g->params / n)), tl_si((double)(g->fwd_mac_flops / n), ""),
               tl_si((double)(g->fwd_flops / n), ""), tl_si((double)(g->fwd_weight_bytes / n), "B"),
               tl_si((double)(g->fwd_bytes / n), "B"));
        if (hw && g->time_s > 0)
            printf(" %10s  %s", tl_si(g->time_s, "s"), g->memory_s > g->compute_s ? "memory" : "compute");
        putchar('\n');
    }
}

static const char *llm_phase_name(const rfl_llm_step_desc *d) {
    return d->phase == RFL_LLM_DECODE ? "decode" : "prefill";
}

/* The precision name of the math type's matrix roof. */
static const char *llm_matrix_prec(const rfl_llm_step_desc *d) {
    rfl_prec mm = RFL_FP32;
    return rfl_dtype_roofs(d->math, &mm, 0) == RFL_OK ? rfl_prec_name(mm) : "fp32";
}

static void llm_json_batch(tl_json *j, const char *key, uint64_t b) {
    if (b) jint(j, key, b);
    else tl_jnull(j, key);
}

static void llm_print_json(const char *model, const rfl_llm_config *c, const rfl_llm_step_desc *d,
                           const rfl_machine *hw, const llm_result *r) {
    tl_json j;
    int i, k;
    memset(&j, 0, sizeof j);
    j.f = stdout;
    tl_jobj(&j, 0);
    tl_jstr(&j, "model", model);
    tl_jstr(&j, "model_type", c->model_type);
    tl_jstr(&j, "phase", llm_phase_name(d));
    jint(&j, "batch", d->batch);
    jint(&j, "seq", d->seq);
    tl_jstr(&j, "logits", d->logits_all ? "all" : "last");
    tl_jstr(&j, "dtype", rfl_dtype_name(d->math));
    tl_jstr(&j, "prec", llm_matrix_prec(d)); /* the roof of its matrix FLOPs */
    tl_jstr(&j, "weights", rfl_dtype_name(rfl_dtype_storage(d->weights, d->math)));
    tl_jstr(&j, "kv", rfl_dtype_name(rfl_dtype_storage(d->kv, d->math)));
    jint(&j, "params", r->t.params);
    jint(&j, "param_bytes", r->t.param_bytes);
    jint(&j, "tokens", r->tokens);
    tl_jobj(&j, "forward");
    jint(&j, "flops", r->t.fwd_flops);
    jint(&j, "mac_flops", r->t.fwd_mac_flops);
    jint(&j, "mma_flops", r->mma_flops);
    jint(&j, "bytes", r->t.fwd_bytes);
    tl_jobj(&j, "mac_flops_by_op");
    for (k = 1; k < 4; k++)
        if (r->by_op[k]) jint(&j, llm_aten[k], r->by_op[k]);
    tl_jclose(&j);
    tl_jclose(&j);
    tl_jobj(&j, "bytes");
    jint(&j, "weights", r->t.fwd_weight_bytes);
    jint(&j, "kv_read", r->t.fwd_kv_read_bytes);
    jint(&j, "kv_write", r->t.fwd_kv_write_bytes);
    jint(&j, "activations", r->act_bytes);
    tl_jclose(&j);
    jint(&j, "kv_cache_bytes", r->kv_cache_bytes);
    if (hw) {
        tl_jstr(&j, "hw", hw->id);
        tl_jnum(&j, "predicted_time_s", r->p.layers_s);
        tl_jnum(&j, "compute_s", r->p.compute_s);
        tl_jnum(&j, "memory_s", r->p.memory_s);
        tl_jstr(&j, "bound", r->p.memory_s > r->p.compute_s ? "memory" : "compute");
        tl_jnum(&j, "tokens_per_s", r->tokens_per_s);
        if (d->phase == RFL_LLM_PREFILL) tl_jnum(&j, "ttft_s", r->p.layers_s);
        else tl_jnull(&j, "ttft_s");
        llm_json_batch(&j, "decode_compute_bound_batch", r->cb_batch);
        llm_json_batch(&j, "gemm_compute_bound_batch", r->gemm_batch);
        llm_json_batch(&j, "max_batch_in_memory", r->mem_batch);
    }
    tl_jarr(&j, "by_kind");
    for (k = 0; k < RFL_LLM_KIND_COUNT; k++) { /* every kind, in rfl_llm_kind's order */
        const char *name = rfl_llm_kind_name((rfl_llm_kind)k);
        rfl_group_cost none;
        const rfl_group_cost *g = &none;
        memset(&none, 0, sizeof none);
        for (i = 0; i < r->nkinds; i++)
            if (!strcmp(r->kinds[i].name, name)) g = &r->kinds[i];
        tl_jobj(&j, 0);
        tl_jstr(&j, "kind", name);
        jint(&j, "flops", g->fwd_flops);
        jint(&j, "mac_flops", g->fwd_mac_flops);
        jint(&j, "bytes", g->fwd_bytes);
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    tl_jarr(&j, "layers");
    for (i = 0; i < r->nmods; i++) { /* per run, but the time: x count */
        const rfl_group_cost *g = &r->mods[i];
        uint64_t n = (uint64_t)g->count, act = g->fwd_bytes - g->fwd_weight_bytes -
                                              g->fwd_kv_read_bytes - g->fwd_kv_write_bytes;
        tl_jobj(&j, 0);
        tl_jstr(&j, "name", g->name);
        tl_jstr(&j, "type", llm_kind_str(g));
        tl_jstr(&j, "op", rfl_ltype_name((rfl_ltype)g->ltype));
        tl_jnum(&j, "count", g->count);
        jint(&j, "params", g->params / n);
        jint(&j, "forward_flops", g->fwd_flops / n);
        jint(&j, "forward_mac_flops", g->fwd_mac_flops / n);
        jint(&j, "forward_bytes", g->fwd_bytes / n);
        jint(&j, "weight_bytes", g->fwd_weight_bytes / n);
        jint(&j, "kv_read_bytes", g->fwd_kv_read_bytes / n);
        jint(&j, "kv_write_bytes", g->fwd_kv_write_bytes / n);
        jint(&j, "activation_bytes", act / n);
        if (hw) {
            tl_jnum(&j, "predicted_time_s", g->time_s);
            if (g->time_s > 0) tl_jstr(&j, "bound", g->memory_s > g->compute_s ? "memory" : "compute");
            else tl_jnull(&j, "bound");
        }
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    tl_jclose(&j);
}

static void llm_print_table(const char *model, const rfl_llm_config *c,
                            const rfl_llm_step_desc *d, const rfl_machine *hw,
                            const llm_result *r) {
    const char *wt = rfl_dtype_name(rfl_dtype_storage(d->weights, d->math));
    int memb = r->p.memory_s > r->p.compute_s;
    printf("%s (%s): %s, batch %llu, seq %llu%s, math %s, weights %s, KV %s\n", model,
           c->model_type, llm_phase_name(d), (unsigned long long)d->batch,
           (unsigned long long)d->seq,
           d->phase == RFL_LLM_DECODE ? " cached (attends to seq + 1)"
                                      : d->logits_all ? ", logits on all positions"
                                                      : ", logits on the last position",
           rfl_dtype_name(d->math), wt, rfl_dtype_name(rfl_dtype_storage(d->kv, d->math)));
    llm_print_rows(r, hw);
    printf("\nparams           %s (%s at %s)\n", tl_commas((double)r->t.params),
           tl_si((double)r->t.param_bytes, "B"), wt);
    printf("forward          %s FLOP causal (on matrix units %s), mac %s FLOP = %s eager "
           "(FlopCounterMode)\n",
           tl_si((double)r->t.fwd_flops, ""), tl_si((double)r->mma_flops, ""),
           tl_si((double)r->t.fwd_mac_flops, ""), tl_commas((double)r->t.fwd_mac_flops));
    printf("bytes            %s: weights %s, KV read %s, KV written %s, activations %s\n",
           tl_si((double)r->t.fwd_bytes, "B"), tl_si((double)r->t.fwd_weight_bytes, "B"),
           tl_si((double)r->t.fwd_kv_read_bytes, "B"), tl_si((double)r->t.fwd_kv_write_bytes, "B"),
           tl_si((double)r->act_bytes, "B"));
    printf("KV cache         %s after the step\n", tl_si((double)r->kv_cache_bytes, "B"));
    if (!hw) return;
    printf("on %s:\n", hw->name);
    printf("  step time      %s (compute %s, memory %s): %s-bound\n", tl_si(r->p.layers_s, "s"),
           tl_si(r->p.compute_s, "s"), tl_si(r->p.memory_s, "s"), memb ? "memory" : "compute");
    printf("  tokens/s       %s%s\n", tl_num(r->tokens_per_s, 4),
           d->phase == RFL_LLM_PREFILL ? " (batch x seq / step time)" : " (batch / step time)");
    if (d->phase == RFL_LLM_PREFILL) printf("  ttft           %s\n", tl_si(r->p.layers_s, "s"));
    if (r->cb_batch)
        printf("  decode turns compute-bound at batch %llu (seq %llu)\n",
               (unsigned long long)r->cb_batch, (unsigned long long)d->seq);
    else if (d->phase == RFL_LLM_DECODE) /* a search that found none, not a proof */
        printf("  decode stays memory-bound at seq %llu for every batch tried, up to %d (the "
               "search's limit; the KV cache grows with the batch)\n",
               (unsigned long long)d->seq, LLM_BATCH_CAP);
    if (r->gemm_batch)
        printf("  its weight GEMMs turn compute-bound at batch %llu\n",
               (unsigned long long)r->gemm_batch);
    if (r->mem_batch)
        printf("  memory holds the weights and the KV cache of at most %llu sequences of "
               "%llu tokens\n",
               (unsigned long long)r->mem_batch,
               (unsigned long long)(d->seq + (d->phase == RFL_LLM_DECODE)));
}

static void llm_fail(const char *model, const rfl_llm_config *c, const rfl_llm_step_desc *d,
                     const rfl_machine *hw, rfl_result r, const char *what) {
    if (r == RFL_ERR_NO_ROOF)
        tl_input_error(0, 0, 0, "%s has no roof for %s math (matrix or vector units); try "
                       "another --dtype", hw ? hw->id : "?", rfl_dtype_name(d->math));
    if (r == RFL_ERR_SHAPE && c->pos == RFL_LLM_POS_LEARNED)
        tl_input_error(0, 0, 0, "%s: --seq %llu%s is beyond its %u learned positions", model,
                       (unsigned long long)d->seq, d->phase == RFL_LLM_DECODE ? " + 1" : "",
                       c->max_positions);
    tl_input_error(0, 0, 0, "%s: %s: %s", model, what, rfl_result_str(r));
}

/* How many sequences of the step's length fit in m's memory: weights at
   their storage type plus each sequence's KV cache (activations and
   workspace left out: an upper bound). */
static uint64_t llm_mem_batch(const rfl_llm_config *c, const rfl_llm_step_desc *d,
                              const rfl_machine *m, const llm_result *r) {
    rfl_llm_step_desc one = *d;
    uint64_t kv = 0;
    one.batch = 1;
    if (!(m->mem_bytes > 0) || rfl_llm_kv_cache_bytes(c, &one, &kv) != RFL_OK || !kv) return 0;
    if ((double)r->t.param_bytes >= m->mem_bytes) return 0;
    return (uint64_t)((m->mem_bytes - (double)r->t.param_bytes) / (double)kv);
}

/* The batches at which the decode step at d->seq turns compute-bound:
   the whole step, and its weight GEMMs. */
static rfl_result llm_bound_batches(const rfl_llm_config *c, const rfl_llm_step_desc *d,
                                    const rfl_machine *hw, llm_result *res) {
    rfl_llm_step_desc dd = *d;
    rfl_cost_desc cd;
    rfl_result r;
    dd.phase = RFL_LLM_DECODE;
    if ((r = rfl_llm_cost_desc(c, &dd, &cd)) || (r = llm_records(c, &dd, &res->net)))
        return r;
    if ((r = rfl_net_compute_bound_batch(&res->net, &cd, hw, 0, LLM_BATCH_CAP, &res->cb_batch)))
        return r;
    return rfl_net_compute_bound_batch(&res->net, &cd, hw, 1, LLM_BATCH_CAP, &res->gemm_batch);
}

/* The whole LLM estimate; returns the exit code. */
static int llm_main(int argc, char **argv) {
    llm_args g;
    rfl_llm_config c;
    static llm_result res;
    const rfl_machine *hw = 0;
    const char *model;
    rfl_result r;
    int i;
    llm_parse_args(argc, argv, &g);
    if (g.hf) {
        llm_read_hf(g.hf, &c);
        model = g.hf;
    } else {
        if (rfl_llm_find(g.model, &c) != RFL_OK)
            tl_input_error(0, 0, 0, "unknown model '%s' (rfl-estimate --list)", g.model);
        model = g.model;
        for (i = 0; i < rfl_llm_count(); i++) /* the canonical spelling */
            if (rfl_parse_name_eq(model, rfl_llm_name(i))) model = rfl_llm_name(i);
    }
    if (!g.dtype_given) g.d.math = c.dtype ? (rfl_dtype)c.dtype : RFL_DTYPE_FP32;
    if (!g.d.batch) g.d.batch = 1;
    hw = tl_machine(g.hwname); /* --hw NAME or --hw-file FILE */
    if ((r = rfl_llm_cost_desc(&c, &g.d, &res.cd)) != RFL_OK) llm_fail(model, &c, &g.d, hw, r, "step");
    if (hw && (r = llm_bound_batches(&c, &g.d, hw, &res)) != RFL_OK)
        llm_fail(model, &c, &g.d, hw, r, "compute-bound batch");
    if ((r = llm_records(&c, &g.d, &res.net)) != RFL_OK ||
        (r = rfl_net_cost_get(&res.net, &res.cd, &res.t)) != RFL_OK ||
        (r = rfl_llm_kv_cache_bytes(&c, &g.d, &res.kv_cache_bytes)) != RFL_OK)
        llm_fail(model, &c, &g.d, hw, r, "step");
    res.nkinds = rfl_net_group(&res.net, &res.cd, RFL_GROUP_KIND, 0, res.kinds, RFL_LLM_KIND_COUNT);
    for (i = 0; i < res.nkinds; i++) res.mma_flops += res.kinds[i].fwd_mma_flops;
    res.tokens = g.d.batch * (g.d.phase == RFL_LLM_DECODE ? 1 : g.d.seq);
    res.act_bytes = res.t.fwd_bytes - res.t.fwd_weight_bytes - res.t.fwd_kv_read_bytes -
                    res.t.fwd_kv_write_bytes;
    llm_by_op(&res);
    if (hw) {
        if ((r = rfl_net_predict(&res.net, &res.cd, hw, &res.p)) != RFL_OK)
            llm_fail(model, &c, &g.d, hw, r, "predict");
        res.tokens_per_s = res.p.layers_s > 0 ? (double)res.tokens / res.p.layers_s : 0;
        res.mem_batch = llm_mem_batch(&c, &g.d, hw, &res);
    }
    llm_modules(&res, hw);
    if (g.json) llm_print_json(model, &c, &g.d, hw, &res);
    else llm_print_table(model, &c, &g.d, hw, &res);
    return 0;
}
/* ---- an LLM as layer records: the zoo's path (--layers) -------------------
   rfl_llm_build writes the step as rfl_layer records, so the zoo's table,
   --json, --summary and --mode train work on a decoder; --weights and --kv
   set the storage types of their roles. Records count eager attention. */
typedef struct llm_rec {
    int on;                 /* --layers, or --mode train / --summary with an LLM */
    const char *hf;         /* --hf-config FILE */
    rfl_llm_step_desc d;    /* phase, seq, logits_all */
    int phase_given, logits_given, dtype_given, seq_given;
    rfl_dtype weights, kv;  /* --weights, --kv (0: the dtype) */
} llm_rec;
static llm_rec lrec;

/* 1 when argv asks for the records one by one (the zoo's path) rather than
   by module. */
static int llm_records_wanted(int argc, char **argv) {
    int a;
    for (a = 1; a < argc; a++)
        if (tl_is(argv[a], "--layers") || tl_is(argv[a], "--summary") ||
            (tl_is(argv[a], "--mode") && a + 1 < argc && tl_is(argv[a + 1], "train")))
            return 1;
    return 0;
}

/* The LLM options of the zoo's path: the number of arguments used, 0 when
   o is not one of them. */
static int llm_rec_option(const char *o, const char *v) {
    if (tl_is(o, "--layers")) { lrec.on = 1; return 1; }
    if (tl_is(o, "--weights") || tl_is(o, "--kv")) { /* storage types of the records' roles */
        if (!v) tl_usage_error("%s needs a value", o);
        if (tl_is(o, "--kv")) lrec.kv = llm_type_arg(o, v, 0);
        else lrec.weights = llm_type_arg(o, v, 1);
        return 2;
    }
    if (!tl_is(o, "--phase") && !tl_is(o, "--seq") && !tl_is(o, "--logits") && !tl_is(o, "--hf-config"))
        return 0;
    if (!v) tl_usage_error("%s needs a value", o);
    if (tl_is(o, "--hf-config")) lrec.hf = v;
    else if (tl_is(o, "--seq")) lrec.d.seq = llm_count_arg(o, v, 1), lrec.seq_given = 1;
    else if (tl_is(o, "--phase")) {
        if (tl_is(v, "prefill")) lrec.d.phase = RFL_LLM_PREFILL;
        else if (tl_is(v, "decode")) lrec.d.phase = RFL_LLM_DECODE;
        else tl_usage_error("--phase is prefill or decode");
        lrec.phase_given = 1;
    } else {
        if (tl_is(v, "all")) lrec.d.logits_all = 1;
        else if (tl_is(v, "last")) lrec.d.logits_all = 0;
        else tl_usage_error("--logits is last or all");
        lrec.logits_given = 1;
    }
    return 2;
}

/* Build the model as records when it is an LLM (a built-in name or
   --hf-config); returns 0 when it is not one. Defaults: decode after 1024
   tokens, as by module; training is a prefill (every position's logits,
   for the loss); the dtype is the config's unless --dtype says. */
static int llm_rec_build(rfl_net *net, const char **model, rfl_cost_desc *cd) {
    static rfl_llm_config c;
    rfl_layer *lrecs;
    char *nm;
    rfl_result r;
    int i, train = cd->mode == RFL_MODE_TRAIN;
    if (lrec.hf) {
        if (*model && *model != lrec.hf) tl_usage_error("a model name or --hf-config, not both");
        llm_read_hf(lrec.hf, &c);
        *model = lrec.hf;
    } else if (!*model || rfl_llm_find(*model, &c) != RFL_OK) {
        if (lrec.on || lrec.phase_given || lrec.logits_given || lrec.seq_given)
            tl_usage_error("--layers, --phase, --seq and --logits are for decoder LLMs "
                           "(rfl-estimate --list)");
        return 0;
    } else {
        for (i = 0; i < rfl_llm_count(); i++) /* the canonical spelling */
            if (rfl_parse_name_eq(*model, rfl_llm_name(i))) *model = rfl_llm_name(i);
    }
    lrec.on = 1;
    if (!lrec.phase_given) lrec.d.phase = train ? RFL_LLM_PREFILL : RFL_LLM_DECODE;
    if (train && lrec.d.phase == RFL_LLM_DECODE)
        tl_input_error(0, 0, 0, "--mode train is a prefill (decode generates without gradients)");
    if (!lrec.logits_given) lrec.d.logits_all = train;
    if (!lrec.seq_given) lrec.d.seq = 1024;
    if (lrec.d.phase == RFL_LLM_PREFILL && lrec.d.seq == 0)
        tl_input_error(0, 0, 0, "--seq must be at least 1 for prefill");
    if (!lrec.dtype_given && c.dtype && c.dtype != RFL_DTYPE_INT4) cd->dtype = (rfl_dtype)c.dtype;
    cd->weights = lrec.weights, cd->kv = lrec.kv;
    lrecs = (rfl_layer *)tl_xmalloc(sizeof(rfl_layer) * (size_t)RFL_LLM_NET_LAYERS((size_t)c.layers));
    nm = (char *)tl_xmalloc((size_t)RFL_LLM_NET_NAMES((size_t)c.layers));
    rfl_net_init(net, lrecs, (int)RFL_LLM_NET_LAYERS((size_t)c.layers), nm,
                 (size_t)RFL_LLM_NET_NAMES((size_t)c.layers));
    r = rfl_llm_build(net, &c, &lrec.d);
    if (r != RFL_OK) llm_fail(*model, &c, &lrec.d, 0, r, "records");
    return 1;
}

/* "prefill of 512 tokens, logits on the last position" */
static const char *llm_rec_step_str(void) {
    static char b[160];
    if (lrec.d.phase == RFL_LLM_DECODE)
        snprintf(b, sizeof b, "decode of 1 token after %llu cached (attends to %llu)",
                 (unsigned long long)lrec.d.seq, (unsigned long long)lrec.d.seq + 1);
    else
        snprintf(b, sizeof b, "prefill of %llu tokens, logits on %s", (unsigned long long)lrec.d.seq,
                 lrec.d.logits_all ? "every position" : "the last position");
    return b;
}

static void llm_rec_json(tl_json *j, rfl_dtype dt) {
    /* the roof of the matrix FLOPs, which rfl-plot --work places it under */
    rfl_prec mm = RFL_FP32;
    rfl_dtype_roofs(dt, &mm, 0);
    tl_jstr(j, "prec", rfl_prec_name(mm));
    tl_jstr(j, "phase", llm_phase_name(&lrec.d));
    tl_jnum(j, "seq", (double)lrec.d.seq);
    tl_jstr(j, "logits", lrec.d.logits_all ? "all" : "last");
    tl_jstr(j, "attention", "eager");
}
#endif /* RFL_NO_LLM */
#endif /* RFL_ESTIMATE_LLM_H */
