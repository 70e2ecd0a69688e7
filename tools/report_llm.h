/* report_llm.h - rfl-report for decoder LLMs (issue 17, items 5 and 6):
   one step's estimate (its records by kind) beside its Nsight Compute
   profile, by kind (rfl_llm_classify_*, rfl_llm_join_compute), with the
   padded_mma and launch_bound warnings; with -o DIR two charts: decode
   step time and tokens/s against batch on several machines, and the
   roofline with prefill and decode points. Included by rfl-report.c after
   tool.h and report_kinds.h; rfl-report hands over when rl_wanted() says
   so. */
#ifndef RFL_REPORT_LLM_H
#define RFL_REPORT_LLM_H
#if !defined(RFL_NO_LLM) && !defined(RFL_NO_REDUCE)
#include <errno.h>

static const char *rl_usage =
    "usage: rfl-report --llm NAME|--hf-config FILE [--phase decode|prefill] [--seq S]\n"
    "                  [--batch N] [--logits last|all] [--dtype T] [--weights T] [--kv T]\n"
    "                  [--ncu FILE] [--hw NAME[,NAME...]] [-o DIR] [--json]\n"
    "One step of a decoder LLM: the estimate (rfl-estimate's) beside the measured\n"
    "profile, by kind (embedding, attention, mlp, lm_head, norm, elementwise),\n"
    "and the warnings that explain the gap.\n\n"
    "  --llm NAME      a built-in decoder (rfl-estimate --list)\n"
    "  --hf-config F   a Hugging Face config.json instead\n"
    "  --phase P       decode (default: one token after a cache of S) or prefill\n"
    "  --seq S         cached tokens (decode) or prompt tokens (prefill); default 512\n"
    "  --batch N       sequences (default 1)\n"
    "  --logits L      prefill: LM head on the last position (default) or all (a\n"
    "                  plain HF forward, as the shared captures ran)\n"
    "  --dtype T       the math type (default: the config's torch_dtype, else fp32);\n"
    "                  --weights T, --kv T: storage types (default: --dtype)\n"
    "  --ncu FILE      the step's ncu --csv --page raw export (one step, in launch\n"
    "                  order); without it, the estimate alone\n"
    "  --hw NAME,...   machines: the first is the one the profile ran on (default:\n"
    "                  the profile's GPU, else h100); all go on the batch chart\n"
    "                  (default a100-80gb, h100, h200, mi300x beside the first)\n"
    "  --hw-file F,... machine files (rfl-hw NAME --json, rfl-probe -o F), after --hw\n"
    "  -o DIR          write llm-batch.png, llm-roofline.png and report.json\n"
    "  --json          print report.json instead of the table: model, phase, seq,\n"
    "                  batch, dtype, hw, profile{file, device, kernels, time_s} or\n"
    "                  null, kinds[{kind, estimate{flops, mac_flops, bytes, time_s},\n"
    "                  measured{kernels, time_s, flops, tensor_flops, dram_bytes}}],\n"
    "                  total{...}, useful_flops, executed_tensor_flops,\n"
    "                  useful_per_executed, kernel_time_s, roof_time_s, bytes_time_s,\n"
    "                  gap, tiny_share, warnings[{code, text}], batches[{hw, batch,\n"
    "                  step_time_s, tokens_per_s}], charts[]; unmeasured: null\n"
    "Warnings: padded_mma (tensor FLOPs executed >= 2x the useful matrix FLOPs),\n"
    "launch_bound (kernel time >= 2x the roof, half of it in kernels needing < 1 us).\n"
    "Exit: 0 done, 1 bad input, 2 bad usage.\n";

#define RL_MAXH 6
#define RL_NB 9 /* batches 1, 2, 4, ..., 256 */

typedef struct rl_state {
    const char *model, *hf, *ncu, *outdir, *hwarg;
    int json;
    rfl_llm_step_desc d;
    int dtype_given;
    rfl_llm_config cfg;
    char name[64], device[128], device_warning[256];
    const rfl_machine *hw[RL_MAXH];
    int nh;
    rfl_llm_classifier cl;
    rfl_llm_join j;
    int has_prof;
    rfl_reduce_result res;
    double b_time[RL_MAXH][RL_NB], b_tps[RL_MAXH][RL_NB];
    uint64_t bound_batch[RL_MAXH];
    char charts[2][512];
    int ncharts;
} rl_state;

/* 1 when argv asks for the LLM report. */
static int rl_wanted(int argc, char **argv) {
    int a;
    for (a = 1; a < argc; a++)
        if (tl_is(argv[a], "--llm") || tl_is(argv[a], "--hf-config") || tl_is(argv[a], "--phase"))
            return 1;
    return 0;
}

static rfl_dtype rl_type(const char *opt, const char *v, int int4) {
    rfl_dtype t;
    if (rfl_dtype_parse(v, &t) != RFL_OK || (t == RFL_DTYPE_INT4 && !int4))
        tl_usage_error("%s: unknown type '%s' (fp32, fp16, bf16, fp8, int8%s)", opt, v,
                       int4 ? ", int4" : "");
    return t;
}

static uint64_t rl_count(const char *opt, const char *v, int zero_ok) {
    char *end;
    unsigned long long n;
    errno = 0;
    n = strtoull(v, &end, 10);
    if (*v == '-' || end == v || *end || errno || (!zero_ok && n == 0) || n > (1ull << 40))
        tl_usage_error("%s: '%s' is not a whole number from %d to 2^40", opt, v, zero_ok ? 0 : 1);
    return n;
}

static void rl_args(int argc, char **argv, rl_state *s) {
    int a;
    s->d.phase = RFL_LLM_DECODE;
    s->d.seq = 512;
    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : 0;
        if (tl_is(o, "-h") || tl_is(o, "--help")) { fputs(rl_usage, stdout); exit(0); }
        if (tl_is(o, "--json")) { s->json = 1; continue; }
        if (!v) tl_usage_error("%s needs a value (or is unknown)", o);
        a++;
        if (tl_is(o, "--llm")) s->model = v;
        else if (tl_is(o, "--hf-config")) s->hf = v;
        else if (tl_is(o, "--ncu")) s->ncu = v;
        else if (tl_is(o, "--hw")) s->hwarg = v;
        else if (tl_hw_file_option(o, v)) {}
        else if (tl_is(o, "-o") || tl_is(o, "--out")) s->outdir = v;
        else if (tl_is(o, "--batch")) s->d.batch = rl_count(o, v, 0);
        else if (tl_is(o, "--seq")) s->d.seq = rl_count(o, v, 1);
        else if (tl_is(o, "--dtype")) { s->d.math = rl_type(o, v, 0); s->dtype_given = 1; }
        else if (tl_is(o, "--weights")) s->d.weights = rl_type(o, v, 1);
        else if (tl_is(o, "--kv")) s->d.kv = rl_type(o, v, 1);
        else if (tl_is(o, "--phase")) {
            if (tl_is(v, "decode")) s->d.phase = RFL_LLM_DECODE;
            else if (tl_is(v, "prefill")) s->d.phase = RFL_LLM_PREFILL;
            else tl_usage_error("--phase is decode or prefill, not '%s'", v);
        } else if (tl_is(o, "--logits")) {
            if (tl_is(v, "all")) s->d.logits_all = 1;
            else if (tl_is(v, "last")) s->d.logits_all = 0;
            else tl_usage_error("--logits is last or all, not '%s'", v);
        } else tl_usage_error("unknown option '%s' for an LLM report", o);
    }
    if (!s->model == !s->hf) tl_usage_error("give one of --llm NAME or --hf-config FILE");
    if (!s->d.batch) s->d.batch = 1;
}

static void rl_config(rl_state *s) {
    if (s->model) {
        if (rfl_llm_find(s->model, &s->cfg) != RFL_OK)
            tl_input_error(0, 0, 0, "unknown LLM '%s' (rfl-estimate --list)", s->model);
        snprintf(s->name, sizeof s->name, "%s", s->model);
    } else {
        static rfl_json_tok toks[8192];
        rfl_error e;
        size_t n;
        char *text = tl_read_file(s->hf, RFL_CAP_CONFIG, &n);
        rfl_result r = rfl_llm_config_parse(text, n, toks, 8192, &s->cfg, &e);
        if (r == RFL_ERR_BUFFER)
            tl_input_error(s->hf, 0, 0, "needs %llu JSON tokens, more than 8192", (unsigned long long)e.need);
        if (r != RFL_OK) tl_error(s->hf, &e);
        free(text);
        snprintf(s->name, sizeof s->name, "%s (%s)", s->cfg.model_type, s->hf);
    }
    if (!s->dtype_given) s->d.math = s->cfg.dtype ? (rfl_dtype)s->cfg.dtype : RFL_DTYPE_FP32;
}

/* Step d of the model as records (rfl_llm_build) into a buffer kept for
   the run, and their cost desc. */
static rfl_result rl_records(const rl_state *s, const rfl_llm_step_desc *d, rfl_net *net,
                             rfl_cost_desc *cd) {
    static rfl_layer *recs;
    static char *names;
    size_t n = RFL_LLM_NET_LAYERS((size_t)s->cfg.layers);
    rfl_result r;
    if (!recs) {
        recs = (rfl_layer *)tl_xmalloc(sizeof(rfl_layer) * n);
        names = (char *)tl_xmalloc((size_t)RFL_LLM_NET_NAMES((size_t)s->cfg.layers));
    }
    rfl_net_init(net, recs, (int)n, names, (size_t)RFL_LLM_NET_NAMES((size_t)s->cfg.layers));
    if ((r = rfl_llm_build(net, &s->cfg, d)) != RFL_OK) return r;
    return rfl_llm_cost_desc(&s->cfg, d, cd);
}

/* Step d's predicted time on m (rfl_net_predict over its records), and
   its totals when c is given; 0 when it cannot be predicted. */
static double rl_step_time(const rl_state *s, const rfl_llm_step_desc *d, const rfl_machine *m,
                           rfl_net_cost *c) {
    rfl_net net;
    rfl_cost_desc cd;
    rfl_net_prediction p;
    if (rl_records(s, d, &net, &cd) != RFL_OK || rfl_net_predict(&net, &cd, m, &p) != RFL_OK ||
        (c && rfl_net_cost_get(&net, &cd, c) != RFL_OK))
        return 0;
    return p.layers_s;
}

static void rl_add_hw(rl_state *s, const rfl_machine *m) {
    int h;
    for (h = 0; h < s->nh; h++) if (s->hw[h] == m) return;
    if (s->nh < RL_MAXH) s->hw[s->nh++] = m;
}

/* The machines: --hw as given, else the profile's GPU (else h100) and the
   usual neighbours for the batch chart. */
static void rl_machines(rl_state *s) {
    static const char *const usual[] = {"a100-80gb", "h100", "h200", "mi300x"};
    const rfl_machine *m;
    size_t i;
    if (s->hwarg || tl_hw_files) { /* --hw NAME,... and --hw-file FILE,... */
        const rfl_machine *ms[RL_MAXH], *meas[RL_MAXH];
        int k, n = tl_machines(s->hwarg, ms, meas, RL_MAXH);
        for (k = 0; k < n; k++) rl_add_hw(s, ms[k]);
        if (!s->nh) tl_usage_error("--hw needs at least one machine");
        return;
    }
    m = 0;
    if (s->device[0] && rfl_hw_find(s->device, &m) != RFL_OK) m = 0;
    if (!m) m = tl_find_hw("h100");
    rl_add_hw(s, m);
    for (i = 0; i < sizeof usual / sizeof *usual; i++)
        if (rfl_hw_find(usual[i], &m) == RFL_OK) rl_add_hw(s, m);
}

/* The profile is joined on hw[0]: put its own machine there, whatever the
   order of --hw (rfl_hw_match: never another memory size or form factor).
   Not among them: the table's machine joins the list with a
   device_mismatch warning; a device the table lacks keeps hw[0] and says
   so. */
static void rl_profile_machine(rl_state *s) {
    const rfl_machine *own = 0, *t;
    int h;
    if (!s->device[0]) return;
    h = rfl_hw_match(s->device, s->hw, s->nh, &own);
    if (h < 0 && own && s->nh < RL_MAXH) {
        h = s->nh++;
        s->hw[h] = own;
        snprintf(s->device_warning, sizeof s->device_warning,
                 "the profile ran on %s, not among --hw: its machine was added", own->id);
    } else if (h < 0) {
        snprintf(s->device_warning, sizeof s->device_warning,
                 "the table has no machine '%s': the profile is compared with %s's roof; "
                 "pass its machine file with --hw-file", s->device, s->hw[0]->id);
        return;
    }
    t = s->hw[0]; s->hw[0] = s->hw[h]; s->hw[h] = t;
}

static unsigned char rl_scratch[RFL_REDUCE_SCRATCH_DEFAULT];

static void rl_profile(rl_state *s) {
    static rfl_reduce_state st;
    rfl_reduce_desc d;
    size_t len, off;
    char *buf = tl_read_file(s->ncu, RFL_CAP_PROFILE, &len);
    rk_device_name(buf, len, s->device, sizeof s->device);
    rl_machines(s);
    rl_profile_machine(s);
    if (s->device_warning[0])
        fprintf(stderr, "rfl-report: WARNING [%s]: %s\n", RFL_HW_DEVICE_MISMATCH, s->device_warning);
    memset(&d, 0, sizeof d);
    d.top_n = -1;
    d.machine = s->hw[0];
    d.on_kernel = rfl_llm_classify_kernel;
    d.user = &s->cl;
    rfl_llm_classify_init(&s->cl, s->hw[0]);
    rfl_reduce_init(&st, &d, rl_scratch, sizeof rl_scratch);
    for (off = 0; off < len && st.err.code == RFL_OK; off += 65536)
        rfl_reduce_push(&st, buf + off, len - off < 65536 ? len - off : 65536);
    if (st.err.code == RFL_OK) rfl_reduce_finish(&st, &s->res);
    free(buf);
    if (st.err.code != RFL_OK) tl_error(s->ncu, &st.err);
    if (!s->res.kernels) tl_input_error(s->ncu, 0, 0, "no kernels in the profile");
    rfl_llm_classify_finish(&s->cl);
    s->has_prof = 1;
}

/* Decode step time and tokens/s at batch 1..256 on every machine. */
static void rl_batches(rl_state *s) {
    int h, i;
    for (h = 0; h < s->nh; h++) {
        rfl_llm_step_desc d = s->d;
        rfl_net net;
        rfl_cost_desc cd;
        d.phase = RFL_LLM_DECODE;
        for (i = 0; i < RL_NB; i++) {
            d.batch = 1ull << i;
            s->b_time[h][i] = rl_step_time(s, &d, s->hw[h], 0);
            s->b_tps[h][i] = s->b_time[h][i] > 0 ? (double)d.batch / s->b_time[h][i] : 0;
        }
        if (rl_records(s, &d, &net, &cd) != RFL_OK ||
            rfl_net_compute_bound_batch(&net, &cd, s->hw[h], 1, 65536, &s->bound_batch[h]) != RFL_OK)
            s->bound_batch[h] = 0;
    }
}

/* ---- the table -------------------------------------------------------------------- */
static const char *rl_meas(int known, double v, const char *unit) {
    return known ? tl_si(v, unit) : "-";
}

static void rl_row(const rl_state *s, const char *label, const rfl_llm_join_row *r) {
    unsigned u = s->j.unknown;
    int t_ok = s->has_prof && !(u & RFL_UNKNOWN_TIME);
    int b_ok = s->has_prof && !(u & RFL_UNKNOWN_BYTES(RFL_DRAM));
    printf("%-12s %11s %11s %11s %10s %10s %10s %10s %7s\n", label, tl_si((double)r->est.flops, ""),
           s->has_prof ? tl_si((double)r->meas.flops, "") : "-",
           s->has_prof ? tl_si((double)r->meas.tensor_flops, "") : "-", tl_si((double)r->est.bytes, "B"),
           rl_meas(b_ok, (double)r->meas.dram_bytes, "B"), tl_si(r->est_time_s, "s"),
           rl_meas(t_ok, (double)r->meas.time_ns * 1e-9, "s"),
           s->has_prof ? tl_num((double)r->meas.kernels, 10) : "-");
}

/* "  code: text" wrapped at 80 columns, continuation lines indented. */
static void rl_wrap(const char *code, const char *text) {
    int col = printf("  %s:", code);
    while (*text) {
        int n = 0;
        while (*text == ' ') text++;
        while (text[n] && text[n] != ' ') n++;
        if (!n) break;
        if (text[n - 1] >= '0' && text[n - 1] <= '9' && text[n] == ' ') {
            int u = n + 1; /* keep "744 us" together: a number and its unit */
            while (text[u] && text[u] != ' ' && u - n < 12) u++;
            if (u > n + 1 && ((text[n + 1] >= 'a' && text[n + 1] <= 'z') ||
                              (text[n + 1] >= 'A' && text[n + 1] <= 'Z')) && (!text[u] || text[u] == ' '))
                n = u;
        }
        if (col + 1 + n > 80) col = printf("\n    ") - 1;
        col += printf(" %.*s", n, text);
        text += n;
    }
    printf("\n");
}

static void rl_print(const rl_state *s) {
    int k;
    printf("%s, %s %s tokens, batch %s, %s, on %s\n", s->name,
           s->d.phase == RFL_LLM_DECODE ? "decode after" : "prefill of", tl_num((double)s->d.seq, 10),
           tl_num((double)s->d.batch, 10), rfl_dtype_name(s->d.math), s->hw[0]->name);
    if (s->has_prof)
        printf("profile: %s: %s kernels%s%s\n", s->ncu, tl_num((double)s->res.kernels, 10),
               s->device[0] ? ", " : "", s->device);
    printf("\n%-12s %11s %11s %11s %10s %10s %10s %10s %7s\n", "kind", "est FLOP", "meas FLOP",
           "(tensor)", "est bytes", "meas DRAM", "est time", "meas time", "kernels");
    for (k = 0; k < RFL_LLM_KIND_COUNT; k++)
        rl_row(s, rfl_llm_kind_name((rfl_llm_kind)k), &s->j.kinds[k]);
    rl_row(s, "total", &s->j.total);
    printf("\nest FLOP: what runs (causal attention); useful matrix FLOPs (FlopCounterMode,\n"
           "eager attention): %s. est time: records at the roof, summed.\n",
           tl_si(s->j.useful_flops, "FLOP"));
    if (s->has_prof) {
        double all = (double)s->j.total.meas.flops;
        printf("measured: kernel time %s, %sx the estimate at the roof (%s;\n"
               "its bytes alone, %s at %s: %s); useful / executed FLOPs %s;\n"
               "%s%% of the kernel time in kernels that each need under 1 us at the roof.\n",
               tl_si(s->j.kernel_time_s, "s"), tl_num(s->j.gap, 3), tl_si(s->j.roof_time_s, "s"),
               tl_si((double)s->j.total.est.bytes, "B"), tl_si(s->hw[0]->bw_bytes_per_s[RFL_DRAM], "B/s"),
               tl_si(s->j.bytes_time_s, "s"), all > 0 ? tl_num(s->j.useful_flops / all, 3) : "-",
               tl_num(100.0 * s->j.tiny_share, 3));
        printf("Kinds from the kernel names and their order (roofline.h, LLM JOIN).\n");
    }
    if (!s->has_prof)
        printf("(no profile: --ncu FILE adds the measured columns and the warnings)\n");
    else printf("\nWarnings:%s\n", s->j.warning_count ? "" : " none");
    for (k = 0; k < s->j.warning_count; k++)
        rl_wrap(rfl_llm_warn_code(s->j.warnings[k].code), s->j.warnings[k].text);
}

/* ---- JSON ----------------------------------------------------------------------- */
static void rl_json_row(tl_json *j, const rl_state *s, const rfl_llm_join_row *r) {
    unsigned u = s->j.unknown;
    tl_jobj(j, "estimate");
    tl_jnum(j, "flops", (double)r->est.flops);
    tl_jnum(j, "mac_flops", (double)r->est.mac_flops);
    tl_jnum(j, "bytes", (double)r->est.bytes);
    tl_jnum(j, "time_s", r->est_time_s);
    tl_jclose(j);
    if (!s->has_prof) { tl_jnull(j, "measured"); return; }
    tl_jobj(j, "measured");
    tl_jnum(j, "kernels", (double)r->meas.kernels);
    tl_jnum_if(j, "time_s", !(u & RFL_UNKNOWN_TIME), (double)r->meas.time_ns * 1e-9);
    tl_jnum(j, "flops", (double)r->meas.flops);
    tl_jnum(j, "tensor_flops", (double)r->meas.tensor_flops);
    tl_jnum_if(j, "dram_bytes", !(u & RFL_UNKNOWN_BYTES(RFL_DRAM)), (double)r->meas.dram_bytes);
    tl_jclose(j);
}

static void rl_json(FILE *f, const rl_state *s) {
    tl_json j;
    int k, h, i;
    memset(&j, 0, sizeof j);
    j.f = f;
    tl_jobj(&j, 0);
    tl_jstr(&j, "model", s->name);
    tl_jstr(&j, "phase", s->d.phase == RFL_LLM_DECODE ? "decode" : "prefill");
    tl_jnum(&j, "seq", (double)s->d.seq);
    tl_jnum(&j, "batch", (double)s->d.batch);
    tl_jstr(&j, "dtype", rfl_dtype_name(s->d.math));
    tl_jstr(&j, "hw", s->hw[0]->id);
    if (s->has_prof) {
        tl_jobj(&j, "profile");
        tl_jstr(&j, "file", s->ncu);
        tl_jstr(&j, "device", s->device[0] ? s->device : 0);
        tl_jstr(&j, "device_warning", s->device_warning[0] ? RFL_HW_DEVICE_MISMATCH : 0);
        tl_jnum(&j, "kernels", (double)s->res.kernels);
        tl_jnum_if(&j, "time_s", !(s->j.unknown & RFL_UNKNOWN_TIME), s->j.kernel_time_s);
        tl_jclose(&j);
    } else tl_jnull(&j, "profile");
    tl_jarr(&j, "kinds");
    for (k = 0; k < RFL_LLM_KIND_COUNT; k++) {
        tl_jobj(&j, 0);
        tl_jstr(&j, "kind", rfl_llm_kind_name((rfl_llm_kind)k));
        rl_json_row(&j, s, &s->j.kinds[k]);
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    tl_jobj(&j, "total");
    rl_json_row(&j, s, &s->j.total);
    tl_jclose(&j);
    tl_jnum(&j, "useful_flops", s->j.useful_flops);
    tl_jnum_if(&j, "executed_tensor_flops", s->has_prof, s->j.executed_tensor_flops);
    tl_jnum_if(&j, "useful_per_executed", s->j.useful_per_executed > 0, s->j.useful_per_executed);
    tl_jnum_if(&j, "kernel_time_s", s->j.kernel_time_s > 0, s->j.kernel_time_s);
    tl_jnum(&j, "roof_time_s", s->j.roof_time_s);
    tl_jnum(&j, "bytes_time_s", s->j.bytes_time_s);
    tl_jnum_if(&j, "gap", s->j.gap > 0, s->j.gap);
    tl_jnum_if(&j, "tiny_share", s->has_prof && s->j.kernel_time_s > 0, s->j.tiny_share);
    tl_jarr(&j, "warnings");
    for (k = 0; k < s->j.warning_count; k++) {
        tl_jobj(&j, 0);
        tl_jstr(&j, "code", rfl_llm_warn_code(s->j.warnings[k].code));
        tl_jstr(&j, "text", s->j.warnings[k].text);
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    tl_jarr(&j, "batches");
    for (h = 0; h < s->nh; h++)
        for (i = 0; i < RL_NB; i++) {
            tl_jobj(&j, 0);
            tl_jstr(&j, "hw", s->hw[h]->id);
            tl_jnum(&j, "batch", (double)(1u << i));
            tl_jnum_if(&j, "step_time_s", s->b_time[h][i] > 0, s->b_time[h][i]);
            tl_jnum_if(&j, "tokens_per_s", s->b_tps[h][i] > 0, s->b_tps[h][i]);
            tl_jclose(&j);
        }
    tl_jclose_arr(&j);
    tl_jarr(&j, "charts");
    for (k = 0; k < s->ncharts; k++) tl_jstr(&j, 0, s->charts[k]);
    tl_jclose_arr(&j);
    tl_jclose(&j);
}

#include "report_llm_charts.h"

/* The whole LLM report; returns the exit code. */
static int rl_main(int argc, char **argv) {
    static rl_state s;
    rfl_net net;
    rfl_cost_desc cd;
    rfl_result r;
    rl_args(argc, argv, &s);
    rl_config(&s);
    if (s.ncu) rl_profile(&s);
    else {
        rl_machines(&s);
        rfl_llm_classify_init(&s.cl, s.hw[0]);
        rfl_llm_classify_finish(&s.cl);
    }
    r = rl_records(&s, &s.d, &net, &cd);
    if (r == RFL_OK) r = rfl_llm_join_compute(&net, &cd, s.hw[0], &s.cl, &s.j);
    if (r != RFL_OK)
        tl_input_error(0, 0, 0, "%s on %s: %s", s.name, s.hw[0]->id, rfl_result_str(r));
    rl_batches(&s);
    if (s.outdir) {
        char path[600];
        FILE *f;
        tl_make_dir(s.outdir);
        rl_charts(&s);
        snprintf(path, sizeof path, "%s/report.json", s.outdir);
        if (!(f = fopen(path, "w"))) tl_input_error(path, 0, 0, "cannot write: %s", strerror(errno));
        rl_json(f, &s);
        fclose(f);
    }
    if (s.json) { rl_json(stdout, &s); return 0; }
    rl_print(&s);
    if (s.outdir) {
        int k;
        printf("\nWritten:\n");
        for (k = 0; k < s.ncharts; k++) printf("  %s\n", s.charts[k]);
        printf("  %s/report.json\n", s.outdir);
    }
    return 0;
}

/* --model NAME of a decoder LLM: the step as layer records (rfl_llm_build)
   beside the zoo's models: a prefill of RL_MODEL_SEQ tokens per sequence,
   logits on the last position (training: on every position, for the loss).
   Returns RFL_ERR_UNKNOWN_NAME when name is no built-in LLM. */
#define RL_MODEL_SEQ 512
static rfl_result rl_model_records(const char *name, rfl_net *net, int train, char *disp,
                                   size_t n) {
    rfl_llm_config c;
    rfl_llm_step_desc d;
    size_t cap;
    if (rfl_llm_find(name, &c) != RFL_OK) return RFL_ERR_UNKNOWN_NAME;
    memset(&d, 0, sizeof d);
    d.phase = RFL_LLM_PREFILL, d.seq = RL_MODEL_SEQ, d.logits_all = train;
    cap = (size_t)RFL_LLM_NET_LAYERS((size_t)c.layers);
    rfl_net_init(net, (rfl_layer *)tl_xmalloc(cap * sizeof(rfl_layer)), (int)cap,
                 (char *)tl_xmalloc((size_t)RFL_LLM_NET_NAMES((size_t)c.layers)),
                 (size_t)RFL_LLM_NET_NAMES((size_t)c.layers));
    snprintf(disp, n, "%.30s (prefill %d)", name, RL_MODEL_SEQ);
    return rfl_llm_build(net, &c, &d);
}

#else
static int rl_wanted(int argc, char **argv) { (void)argc; (void)argv; return 0; }
static int rl_main(int argc, char **argv) { (void)argc; (void)argv; return 2; }
#endif /* !RFL_NO_LLM && !RFL_NO_REDUCE */
#endif /* RFL_REPORT_LLM_H */
