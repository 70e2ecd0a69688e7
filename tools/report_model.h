/* report_model.h - rfl-report: the state of one model: estimate, profile, comparison.
   Part of tools/rfl-report.c (included once, in order: report_model.h,
   report_tables.h, report_charts.h, report_json.h); shares its state. */
#ifndef RFL_REPORT_MODEL_H
#define RFL_REPORT_MODEL_H

/* ---- state: one entry per model --------------------------------------- */
typedef struct model {
    char name[48];        /* as given */
    char disp[48];        /* "ResNet-18" style for charts */
    rfl_layer recs[RFL_ZOO_MAX_LAYERS];
    char names[RFL_ZOO_NAMES_SIZE];
    rfl_net net;
    rfl_net_cost cost;
    rfl_work est;         /* forward (+ backward when training) */
    rfl_prec est_prec;    /* main precision of the estimate */
    double k_fwd_flops[RK_COUNT], k_bwd_flops[RK_COUNT], k_bytes[RK_COUNT];
    double k_pred_fwd_s[MAXH][RK_COUNT], k_pred_bwd_s[MAXH][RK_COUNT];
    int k_layers[RK_COUNT];
    rfl_net_prediction pred[MAXH];
    rfl_result pred_err[MAXH];
    /* profile */
    const char *ncu;
    int has_prof;
    rfl_reduce_result res;
    rfl_work meas;        /* total, unknown bits as the profile says */
    rfl_prec meas_prec;
    rk_acc kinds[RK_COUNT];
    uint64_t n_winograd, n_fft;
    char device[128];     /* the profile's device name, "" if absent */
    int meas_hw;          /* index into hw[], -1: none of them */
    int dev_added;        /* hw[meas_hw] joined --hw for this profile */
    /* comparison */
    double ratio;         /* measured / estimated FLOPs; 0 = unknown */
    char reasons[6][400];
    int n_reasons;
    int mismatch;         /* the profile looks like another batch or mode */
} model;

static model *models[MAXM];
static int nm;
static const rfl_machine *hw[MAXH];
static const rfl_machine *hw_measured[MAXH]; /* measured roofs (--hw-file), dashed beside hw[h] */
static int nh;
static rfl_cost_desc cd;
static int json_out, explain, ascii;
static const char *outdir;
static int demo;
static const char *ncu_hw; /* --ncu-hw */

/* Display names for charts: the zoo key made readable. */
static void display_name(const char *key, char *out, size_t n) {
    static const char *const known[][2] = {
        {"resnet18", "ResNet-18"}, {"resnet34", "ResNet-34"}, {"resnet50", "ResNet-50"},
        {"resnet101", "ResNet-101"}, {"resnet152", "ResNet-152"}, {"alexnet", "AlexNet"},
        {"vgg11", "VGG-11"}, {"vgg16", "VGG-16"}, {"vgg19", "VGG-19"},
        {"mobilenet_v2", "MobileNetV2"}, {"densenet121", "DenseNet-121"},
        {"efficientnet_b0", "EfficientNet-B0"}, {"vit_b_16", "ViT-B/16"}};
    size_t i;
    for (i = 0; i < sizeof known / sizeof *known; i++)
        if (rfl_parse_name_eq(key, known[i][0])) { snprintf(out, n, "%s", known[i][1]); return; }
    snprintf(out, n, "%s", key);
}

/* Short machine label for legends: "H100" from "NVIDIA H100 SXM5 80GB";
   the id where another machine of the report has the same label (an A100
   40GB and 80GB, an H100 SXM and PCIe). */
static void short_label(const rfl_machine *m, char *b, size_t n) {
    const char *s = m->name;
    if (!strncmp(s, "NVIDIA ", 7)) s += 7;
    if (!strncmp(s, "Tesla ", 6)) s += 6;
    snprintf(b, n, "%s", s);
    { char *sp = strchr(b, ' '); if (sp) *sp = 0; }
}
static const char *short_hw(const rfl_machine *m) {
    static char bufs[4][40];
    static int k;
    char *b = bufs[k++ & 3], o[40];
    int g;
    short_label(m, b, 40);
    for (g = 0; g < nh; g++) {
        if (hw[g] == m || rfl_parse_name_eq(hw[g]->id, m->id)) continue;
        short_label(hw[g], o, sizeof o);
        if (!strcmp(o, b)) { snprintf(b, 40, "%s", m->id); break; }
    }
    return b;
}

/* ---- the profile -------------------------------------------------------- */
static void on_kernel(void *user, const rfl_kernel_stat *k) {
    model *m = (model *)user;
    int kind = rk_kernel_kind(k->name);
    rk_add(&m->kinds[kind], k);
    if (rk_contains(k->name, "winograd")) m->n_winograd += k->invocations;
    if (rk_contains(k->name, "fft")) m->n_fft += k->invocations;
}

static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];

static void load_profile(model *m) {
    static rfl_reduce_state st;
    rfl_reduce_desc d;
    size_t len, off;
    char *buf = tl_read_file(m->ncu, RFL_CAP_PROFILE, &len);
    memset(&d, 0, sizeof d);
    d.on_kernel = on_kernel;
    d.user = m;
    d.top_n = 10;
    if (rfl_reduce_init(&st, &d, scratch, sizeof scratch) != RFL_OK)
        tl_input_error(m->ncu, 0, 0, "cannot start the reducer");
    /* pushed in 64 KB chunks, as a stream would be */
    for (off = 0; off < len; off += 65536) {
        size_t n = len - off < 65536 ? len - off : 65536;
        if (rfl_reduce_push(&st, buf + off, n) != RFL_OK) break;
    }
    if (st.err.code == RFL_OK) rfl_reduce_finish(&st, &m->res);
    if (st.err.code != RFL_OK) tl_error(m->ncu, &st.err);
    if (m->res.kernels == 0 && !(m->res.total.work.time_s > 0))
        tl_input_error(m->ncu, 0, 0, "no kernels in the profile (was the region between "
                       "cudaProfilerStart/Stop empty?)");
    snprintf(m->device, sizeof m->device, "%s", m->res.device);
    free(buf);
    m->meas = m->res.total.work;
    m->meas_prec = rfl_work_main_prec(&m->meas);
    m->has_prof = 1;
}

/* Which --hw machine the profile belongs to: its device's own memory size
   and form factor (rfl_hw_match), whatever the order of --hw. A table
   machine missing from --hw joins it (m->dev_added); a device the table
   does not know stays unplaced (-1). */
static int match_device(model *m) {
    int h;
    const rfl_machine *x = 0;
    if (ncu_hw) {
        x = tl_find_hw(ncu_hw);
        for (h = 0; h < nh; h++) if (hw[h] == x) return h;
        return -1;
    }
    if (!m->device[0]) return 0; /* no device name in the file: assume the first machine */
    h = rfl_hw_match(m->device, hw, nh, &x);
    if (h >= 0 || !x || nh >= MAXH) return h;
    hw_measured[nh] = 0;
    hw[nh++] = x;
    m->dev_added = 1;
    return nh - 1;
}

/* The device_mismatch warning (RFL_HW_DEVICE_MISMATCH) of a profile whose
   device is not the machine it is compared with, or not placed at all;
   "" when they agree or the profile names no device. */
static const char *device_warning(const model *m) {
    static char t[400];
    const rfl_machine *x = 0;
    t[0] = 0;
    if (!m->has_prof || !m->device[0]) return t;
    if (m->meas_hw >= 0 && rfl_hw_match(m->device, &hw[m->meas_hw], 1, &x) == 0 && !m->dev_added) return t;
    if (m->dev_added)
        snprintf(t, sizeof t, "measured on '%s' (%s), which is not among --hw: its machine was added, "
                 "the measured point is on its panel only", m->device, hw[m->meas_hw]->id);
    else if (m->meas_hw >= 0 && x)
        snprintf(t, sizeof t, "measured on '%s' (%s), but placed on the %s (--ncu-hw): its %% of the "
                 "roof compares it with another machine's ceilings", m->device, x->id, hw[m->meas_hw]->name);
    else if (m->meas_hw >= 0)
        return t; /* a device the table does not know, placed where --ncu-hw says */
    else if (x)
        snprintf(t, sizeof t, "measured on '%s' (%s), which is not among --hw and could not be added "
                 "(at most %d machines): the measured point is left off the charts", m->device, x->id, MAXH);
    else
        snprintf(t, sizeof t, "measured on '%s', a device the table does not know: the measured point is "
                 "left off the charts (--ncu-hw NAME, or a machine file of it with --hw-file, places it)",
                 m->device);
    return t;
}

/* ---- the estimate --------------------------------------------------------- */
static const char *dtype_name(void) { return rfl_dtype_name(cd.dtype); }

static void estimate(model *m) {
    rfl_result r;
    int i, h;
    if (rfl_net_init(&m->net, m->recs, RFL_ZOO_MAX_LAYERS, m->names, sizeof m->names) != RFL_OK)
        tl_input_error(0, 0, 0, "internal: net init");
    r = tl_onnx_report_net(m->name, &cd, &m->net) ? RFL_OK : rfl_zoo_build(&m->net, m->name, 0);
#if !defined(RFL_NO_LLM) && !defined(RFL_NO_REDUCE)
    if (r == RFL_ERR_UNKNOWN_NAME) /* a decoder LLM: its step as records */
        r = rl_model_records(m->name, &m->net, cd.mode == RFL_MODE_TRAIN, m->disp, sizeof m->disp);
#endif
    if (r == RFL_ERR_UNKNOWN_NAME) {
        char list[2048] = "";
        size_t n = 0;
        for (i = 0; i < rfl_zoo_count() && n + 40 < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? " " : "", rfl_zoo_name(i));
        tl_input_error(0, 0, 0, "unknown model '%s'; the zoo has: %s (and the LLMs of "
                       "rfl-estimate --list)", m->name, list);
    }
    if (r != RFL_OK) tl_input_error(0, 0, 0, "model '%s': %s", m->name, rfl_result_str(r));
    r = rfl_net_cost_get(&m->net, &cd, &m->cost);
    if (r != RFL_OK) tl_input_error(0, 0, 0, "model '%s': %s", m->name, rfl_result_str(r));
    m->est = m->cost.forward;
    if (cd.mode == RFL_MODE_TRAIN) rfl_work_add(&m->est, &m->cost.backward);
    m->est_prec = rfl_work_main_prec(&m->est);
    for (i = 0; i < m->net.count; i++) {
        rfl_work f, b;
        int k;
        if (rfl_layer_work(&m->net, i, &cd, &f, &b) != RFL_OK) continue;
        k = rk_ltype_kind(rfl_op_ltype((rfl_op)m->net.layers[i].op));
        if (m->net.layers[i].op == RFL_OP_INPUT || m->net.layers[i].op == RFL_OP_MARK) continue;
        m->k_layers[k]++;
        m->k_fwd_flops[k] += rfl_work_flops(&f);
        m->k_bytes[k] += f.bytes[RFL_DRAM];
        if (cd.mode == RFL_MODE_TRAIN) {
            m->k_bwd_flops[k] += rfl_work_flops(&b);
            m->k_bytes[k] += b.bytes[RFL_DRAM];
        }
        for (h = 0; h < nh; h++) {
            rfl_prediction p;
            if (rfl_work_flops(&f) > 0 || f.bytes[RFL_DRAM] > 0)
                if (rfl_predict(hw[h], &f, &p) == RFL_OK) m->k_pred_fwd_s[h][k] += p.time_s;
            if (cd.mode == RFL_MODE_TRAIN && (rfl_work_flops(&b) > 0 || b.bytes[RFL_DRAM] > 0))
                if (rfl_predict(hw[h], &b, &p) == RFL_OK) m->k_pred_bwd_s[h][k] += p.time_s;
        }
    }
    for (h = 0; h < nh; h++) m->pred_err[h] = rfl_net_predict(&m->net, &cd, hw[h], &m->pred[h]);
}

/* ---- the comparison: measured over estimated FLOPs, and why --------------- */
static void add_reason(model *m, const char *fmt, ...) {
    va_list ap;
    if (m->n_reasons >= 6) return;
    va_start(ap, fmt);
    vsnprintf(m->reasons[m->n_reasons++], sizeof m->reasons[0], fmt, ap);
    va_end(ap);
}

static int has_warning(const model *m, rfl_reduce_warn code) {
    int i;
    for (i = 0; i < m->res.warning_count; i++) if (m->res.warnings[i].code == code) return 1;
    return 0;
}

static double meas_tensor(const model *m) {
    return (double)rfl_reduce_tensor_flops(&m->res.total);
}

static void compare(model *m) {
    double est = rfl_work_flops(&m->est), meas, ten, r;
    int far;
    if (!m->has_prof) return;
    if (!rfl_work_known(&m->meas, RFL_UNKNOWN_FLOPS(RFL_FP32)) &&
        !rfl_work_known(&m->meas, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR))) {
        add_reason(m, "the profile has no FLOP counters: collect smsp__sass_thread_inst_executed_"
                      "op_{fadd,fmul,ffma}_pred_on.sum and the sm__ops_path_tensor_op_* counters");
        return;
    }
    meas = rfl_work_flops(&m->meas);
    ten = meas_tensor(m);
    m->ratio = est > 0 ? meas / est : 0;
    r = m->ratio;
    far = r < 0.8 || r > 1.25;
    if (ten > 0 && m->est_prec == RFL_FP32) {
        double fp = m->meas.flops[RFL_FP32];
        add_reason(m, "TENSOR CORES: %s of the %s measured FLOPs ran on tensor cores (%s), "
                      "%s. PyTorch allows TF32 for cuDNN "
                      "convolutions by default; the FP32 counters (fadd, fmul, ffma) alone "
                      "see only %s (%s of the estimate). Such work is placed under the %s roof, "
                      "not the FP32 one.",
                   tl_si(ten, "FLOP"), tl_si(meas, "FLOP"), rfl_prec_name(m->meas_prec),
                   (m->res.flags & RFL_REDUCE_TENSOR_ESTIMATED)
                       ? "estimated from tensor-pipe instructions"
                       : "counted from sm__ops_path_tensor_op_*",
                   tl_si(fp, "FLOP"), tl_num(est > 0 ? fp / est : 0, 3),
                   rfl_prec_name(m->meas_prec));
    }
    if (has_warning(m, RFL_WARN_TENSOR_UNCOUNTED)) {
        /* the count is incomplete: a ratio of it says nothing about batch,
           mode or algorithms, so this is the one reason given */
        add_reason(m, "TENSOR CORES NOT IN THE COUNTERS (see the profile warning): kernels "
                      "that ran on tensor cores (TF32 is PyTorch's cuDNN default on Ampere and "
                      "later) have no FLOP count, so this ratio compares an incomplete count "
                      "and says nothing about batch or mode. Collect the tensor counters "
                      "(README, 'Capture a profile') or set torch.backends.cudnn.allow_tf32 = "
                      "False to compare in FP32.");
        return;
    }
    if (m->res.flags & RFL_REDUCE_TENSOR_ESTIMATED)
        add_reason(m, "tensor FLOPs are estimated from tensor-pipe instructions (%s FLOPs each "
                      "on average, by each kernel's mma shape): the ratio is as good as that "
                      "estimate (within 1%% on the ResNet-18 TF32 capture, 30%% high on "
                      "ResNet-50's Hopper kernels). Collect sm__ops_path_tensor_op_* for counts.",
                   tl_num(m->res.tensor_flops_per_inst, 4));
    if (!far) return;
    /* a profile of another mode or batch: said first, and then the
       algorithm reasons would only distract */
    if (ten == 0 || ten < 0.5 * meas) {
        double fwd = rfl_work_flops(&m->cost.forward);
        double other = cd.mode == RFL_MODE_TRAIN ? fwd : fwd + rfl_work_flops(&m->cost.backward);
        double ro = other > 0 ? meas / other : 0;
        double k = r >= 1 ? r : 1 / r, kr = floor(k + 0.5);
        if (ro > 0.8 && ro < 1.25) {
            add_reason(m, "the profile looks like %s (measured / that estimate = %s): was it "
                          "captured with --mode %s?",
                       cd.mode == RFL_MODE_TRAIN ? "a forward pass only" : "a training step",
                       tl_num(ro, 3), cd.mode == RFL_MODE_TRAIN ? "infer" : "train");
            m->mismatch = 1;
        } else if (kr >= 2 && fabs(k - kr) / kr < 0.15) {
            unsigned long long b = (unsigned long long)(cd.batch ? cd.batch : 1);
            if (r >= 1)
                add_reason(m, "measured is about %gx the estimate: a profile of batch %llu "
                              "instead of %llu?", kr, b * (unsigned long long)kr, b);
            else
                add_reason(m, "measured is about 1/%g of the estimate: a profile of a "
                              "smaller batch (or a part of the step)?", kr);
            m->mismatch = 1;
        }
    }
    if (m->mismatch) return;
    if (r < 0.8 && (m->n_winograd || m->n_fft))
        add_reason(m, "%s Winograd/FFT kernel launches: these algorithms do fewer "
                      "multiplications than a direct convolution, so counters see fewer FLOPs "
                      "than the formula", tl_commas((double)(m->n_winograd + m->n_fft)));
    if (r > 1.25) {
        char wf[96] = "";
        if (m->n_winograd + m->n_fft)
            snprintf(wf, sizeof wf, ", Winograd/FFT transforms (%s launches here)",
                     tl_commas((double)(m->n_winograd + m->n_fft)));
        add_reason(m, "the libraries do more arithmetic than the formula: implicit-GEMM tiles "
                      "padded to the tile size%s, layout conversions%s",
                   wf, cd.mode == RFL_MODE_TRAIN ? ", and work the estimate leaves out (loss, "
                                                   "optimizer step)" : "");
    }
}


#endif
