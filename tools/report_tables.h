/* report_tables.h - rfl-report: the tables on stdout and --explain.
   Part of tools/rfl-report.c (included once, in order: report_model.h,
   report_tables.h, report_charts.h, report_json.h); shares its state. */
#ifndef RFL_REPORT_TABLES_H
#define RFL_REPORT_TABLES_H

/* ---- tables ---------------------------------------------------------------- */
static const char *fmt_or_dash(int known, double v, const char *unit) {
    return known ? tl_si(v, unit) : "-";
}

static void row(const char *label, const char *const *cells) {
    int i;
    printf("  %-28s", label);
    for (i = 0; i < nm; i++) printf(" %23s", cells[i]);
    printf("\n");
}

/* A rotating pool for per-model cells. */
static char cellbuf[64][MAXM][64];
static int cellrow;
static const char **cells(void) {
    static const char *p[64][MAXM];
    int i, r = cellrow++ & 63;
    for (i = 0; i < MAXM; i++) { cellbuf[r][i][0] = 0; p[r][i] = cellbuf[r][i]; }
    return p[r];
}
#define CELL(c, i, ...) snprintf((char *)(c)[i], 64, __VA_ARGS__)

static double meas_flops_per_s(const model *m) {
    return m->meas.time_s > 0 ? rfl_work_flops(&m->meas) / m->meas.time_s : 0;
}

/* 1 when the profile measured FLOPs of at least one precision. */
static int flops_known(const rfl_work *w) {
    int p;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl_work_known(w, RFL_UNKNOWN_FLOPS(p))) return 1;
    return 0;
}

static const char *ai_l2_l1(const model *m) {
    static char b[64];
    if (!rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L2) | RFL_UNKNOWN_BYTES(RFL_L1))) return "-";
    snprintf(b, sizeof b, "%s / %s", tl_num(rfl_work_ai(&m->meas, RFL_L2), 3),
             tl_num(rfl_work_ai(&m->meas, RFL_L1), 3));
    return b;
}

static const char *tensor_cell(const model *m) {
    static char b[64];
    if (has_warning(m, RFL_WARN_TENSOR_UNCOUNTED)) return "NOT COUNTED";
    if (!rfl_work_known(&m->meas, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR))) return "-";
    if (m->res.flags & RFL_REDUCE_TENSOR_ESTIMATED) {
        snprintf(b, sizeof b, "~%s (estimate)", tl_si(meas_tensor(m), "FLOP"));
        return b;
    }
    return tl_si(meas_tensor(m), "FLOP");
}

/* The estimate rows of machine h's table. */
static void print_estimate_rows(int h) {
    const rfl_machine *mc = hw[h];
    rfl_prec p0 = models[0]->est_prec;
    const char **c;
    int i;
    if (mc->peak_flops[p0] > 0)
        printf("== %s: %s %s, DRAM %s, ridge %s FLOP/B ==\n", mc->name, rfl_prec_name(p0),
               tl_si(mc->peak_flops[p0], "FLOP/s"), tl_si(mc->bw_bytes_per_s[RFL_DRAM], "B/s"),
               tl_num(rfl_ridge(mc, p0, RFL_DRAM), 4));
    else
        printf("== %s: no %s roof (the machine has no such unit), DRAM %s ==\n", mc->name,
               rfl_prec_name(p0), tl_si(mc->bw_bytes_per_s[RFL_DRAM], "B/s"));
    c = cells();
    for (i = 0; i < nm; i++) CELL(c, i, "%s", models[i]->disp);
    row("", c);
    printf("  estimate (batch %llu, %s, %s)\n", (unsigned long long)(cd.batch ? cd.batch : 1),
           cd.mode == RFL_MODE_TRAIN ? "train step" : "inference", dtype_name());
    c = cells();
    /* ">=": some layers' FLOPs are unknown (ONNX ops without a rule) */
#define GE(m) ((m)->cost.unknown_layers ? ">= " : "")
    for (i = 0; i < nm; i++) CELL(c, i, "%s%s", GE(models[i]), tl_si(rfl_work_flops(&models[i]->est), "FLOP"));
    row("FLOPs", c);
    if (cd.mode == RFL_MODE_TRAIN) {
        c = cells();
        for (i = 0; i < nm; i++) {
            double f = rfl_work_flops(&models[i]->cost.forward);
            CELL(c, i, "%s", f > 0 ? tl_num(rfl_work_flops(&models[i]->cost.backward) / f, 4) : "-");
        }
        row("backward / forward FLOPs", c);
    }
    c = cells();
    for (i = 0; i < nm; i++) CELL(c, i, "%s", tl_si(models[i]->est.bytes[RFL_DRAM], "B"));
    row("bytes (DRAM, per layer)", c);
    c = cells();
    for (i = 0; i < nm; i++) CELL(c, i, "%s%s", GE(models[i]), tl_num(rfl_work_ai(&models[i]->est, RFL_DRAM), 4));
    row("AI (FLOP/B)", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (m->pred_err[h]) CELL(c, i, "no %s roof", rfl_prec_name(m->est_prec));
        else if (m->cost.unknown_layers) CELL(c, i, "unknown");
        else CELL(c, i, "%s", m->pred[h].whole.bound.memory ? "memory" : "compute");
    }
    row("bound (whole model)", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        rfl_bound b;
        double a = rfl_work_attainable(mc, &models[i]->est, models[i]->est_prec, &b);
        CELL(c, i, "%s%s", a > 0 ? GE(models[i]) : "", a > 0 ? tl_si(a, "FLOP/s") : "-");
    }
    row("attainable", c);
    c = cells();
    for (i = 0; i < nm; i++)
        CELL(c, i, "%s%s", models[i]->pred_err[h] ? "" : GE(models[i]),
             models[i]->pred_err[h] ? "-" : tl_si(models[i]->pred[h].layers_s, "s"));
    row("predicted time (per layer)", c);
#undef GE
}

/* The measured rows of machine h's table (the profiles taken on it). */
static void print_measured_rows(int h) {
    const rfl_machine *mc = hw[h];
    const char **c;
    int i;
#define MROW(label, expr)                                                  \
    do {                                                                   \
        c = cells();                                                       \
        for (i = 0; i < nm; i++) {                                         \
            model *m = models[i];                                          \
            if (!m->has_prof || m->meas_hw != h) continue;                 \
            CELL(c, i, "%s", expr);                                        \
        }                                                                  \
        row(label, c);                                                     \
    } while (0)
    MROW("kernels", tl_commas((double)m->res.kernels));
    MROW("FLOPs fp32 (fadd+fmul+2ffma)",
         fmt_or_dash(rfl_work_known(&m->meas, RFL_UNKNOWN_FLOPS(RFL_FP32)), m->meas.flops[RFL_FP32], "FLOP"));
    MROW("FLOPs fp16 (SIMT)",
         fmt_or_dash(rfl_work_known(&m->meas, RFL_UNKNOWN_FLOPS(RFL_FP16)), m->meas.flops[RFL_FP16], "FLOP"));
    MROW("FLOPs fp64",
         fmt_or_dash(rfl_work_known(&m->meas, RFL_UNKNOWN_FLOPS(RFL_FP64)), m->meas.flops[RFL_FP64], "FLOP"));
    MROW("FLOPs tensor cores", tensor_cell(m));
    MROW("FLOPs total", flops_known(&m->meas) ? tl_si(rfl_work_flops(&m->meas), "FLOP") : "-");
    MROW("bytes DRAM", fmt_or_dash(rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_DRAM)), m->meas.bytes[RFL_DRAM], "B"));
    MROW("bytes L2", fmt_or_dash(rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L2)), m->meas.bytes[RFL_L2], "B"));
    MROW("bytes L1", fmt_or_dash(rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L1)), m->meas.bytes[RFL_L1], "B"));
    MROW("time (sum of kernels)", m->meas.time_s > 0 ? tl_si(m->meas.time_s, "s") : "-");
    MROW("AI DRAM (FLOP/B)", flops_known(&m->meas) && rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_DRAM))
                                 ? tl_num(rfl_work_ai(&m->meas, RFL_DRAM), 4) : "-");
    MROW("AI L2 / L1", ai_l2_l1(m));
    MROW("achieved", meas_flops_per_s(m) > 0 ? tl_si(meas_flops_per_s(m), "FLOP/s") : "-");
    MROW("roof used", rfl_prec_name(m->meas_prec));
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        rfl_bound b;
        double a;
        if (!m->has_prof || m->meas_hw != h) continue;
        a = rfl_work_attainable(mc, &m->meas, m->meas_prec, &b);
        if (a > 0) CELL(c, i, "%s (%s)", tl_si(a, "FLOP/s"), b.memory ? "memory" : "compute");
        else CELL(c, i, "no %s roof", rfl_prec_name(m->meas_prec));
    }
    row("attainable at measured AI", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        double a, f;
        if (!m->has_prof || m->meas_hw != h) continue;
        a = rfl_work_attainable(mc, &m->meas, m->meas_prec, 0);
        f = meas_flops_per_s(m);
        if (a > 0 && f > 0) CELL(c, i, "%s%%%s", tl_num(100 * f / a, 3), f > a ? " ABOVE ROOF" : "");
        else CELL(c, i, "-");
    }
    row("% of the roof reached", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (!m->has_prof || m->meas_hw != h) continue;
        CELL(c, i, "%s", m->ratio > 0 ? tl_num(m->ratio, 3) : "-");
    }
    row("measured / estimated FLOPs", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (!m->has_prof || m->meas_hw != h || m->pred_err[h] || !(m->meas.time_s > 0)) continue;
        CELL(c, i, "%s", tl_num(m->meas.time_s / m->pred[h].layers_s, 3));
    }
    row("measured / predicted time", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (!m->has_prof || m->meas_hw != h) continue;
        if (m->res.ceil_flops[RFL_FP32] > 0 && m->res.ceil_bw[RFL_DRAM] > 0)
            CELL(c, i, "%s, %s", tl_si(m->res.ceil_flops[RFL_FP32], "F/s"),
                 tl_si(m->res.ceil_bw[RFL_DRAM], "B/s"));
        else CELL(c, i, "-");
    }
    row("profile's own fp32, DRAM roof", c);
#undef MROW
}


static int any_profile(int on_hw) {
    int i, any = 0;
    for (i = 0; i < nm; i++) any |= models[i]->has_prof && (on_hw < 0 || models[i]->meas_hw == on_hw);
    return any;
}

static void print_measured_on(int h) {
    const char **c = cells();
    int i;
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (!m->has_prof) CELL(c, i, "no profile");
        else if (m->meas_hw == h) CELL(c, i, "this machine");
        else if (m->meas_hw >= 0) CELL(c, i, "on %s only", short_hw(hw[m->meas_hw]));
        else CELL(c, i, "not on --hw");
    }
    row("measured on", c);
}

/* One machine's table: the estimate, then what was measured on it. */
static void print_machine(int h) {
    print_estimate_rows(h);
    if (any_profile(-1)) {
        printf("  measured (Nsight Compute)\n");
        print_measured_on(h);
        if (any_profile(h)) print_measured_rows(h);
    }
    printf("\n");
}

static void print_kinds(const model *m) {
    int k, h = m->has_prof && m->meas_hw >= 0 ? m->meas_hw : 0;
    int merged;
    printf("== %s by layer type: estimate (%s, %s) beside the profile's kernels%s%s ==\n",
           m->disp, cd.mode == RFL_MODE_TRAIN ? "forward + backward" : "forward",
           short_hw(hw[h]), m->has_prof ? " on " : "", m->has_prof ? (m->meas_hw >= 0 ? short_hw(hw[m->meas_hw]) : m->device) : "");
    printf("  %-15s %6s %10s %10s %10s | %7s %10s %10s %10s %7s\n", "type", "layers", "FLOPs",
           "bytes", "pred time", "kernels", "FLOPs", "DRAM B", "time", "meas/est");
    for (k = 0; k <= RK_COUNT; k++) {
        double ef, eb, et, mf = 0, mb = 0, mt = 0;
        uint64_t mk = 0;
        int nl;
        const char *name;
        merged = k == RK_COUNT;
        if (merged) { /* libraries run 1x1 convolutions as GEMMs: compare both */
            ef = m->k_fwd_flops[RK_CONV] + m->k_bwd_flops[RK_CONV] + m->k_fwd_flops[RK_MATMUL] + m->k_bwd_flops[RK_MATMUL];
            eb = m->k_bytes[RK_CONV] + m->k_bytes[RK_MATMUL];
            et = m->k_pred_fwd_s[h][RK_CONV] + m->k_pred_bwd_s[h][RK_CONV] + m->k_pred_fwd_s[h][RK_MATMUL] + m->k_pred_bwd_s[h][RK_MATMUL];
            nl = m->k_layers[RK_CONV] + m->k_layers[RK_MATMUL];
            mf = rfl_work_flops(&m->kinds[RK_CONV].w) + rfl_work_flops(&m->kinds[RK_MATMUL].w);
            mb = m->kinds[RK_CONV].w.bytes[RFL_DRAM] + m->kinds[RK_MATMUL].w.bytes[RFL_DRAM];
            mt = m->kinds[RK_CONV].w.time_s + m->kinds[RK_MATMUL].w.time_s;
            mk = m->kinds[RK_CONV].kernels + m->kinds[RK_MATMUL].kernels;
            name = "conv + matmul";
        } else {
            ef = m->k_fwd_flops[k] + m->k_bwd_flops[k];
            eb = m->k_bytes[k];
            et = m->k_pred_fwd_s[h][k] + m->k_pred_bwd_s[h][k];
            nl = m->k_layers[k];
            mf = rfl_work_flops(&m->kinds[k].w);
            mb = m->kinds[k].w.bytes[RFL_DRAM];
            mt = m->kinds[k].w.time_s;
            mk = m->kinds[k].kernels;
            name = rk_kind_name[k];
        }
        if (!nl && !mk) continue;
        printf("  %-15s %6d %10s %10s %10s | ", name, nl, tl_si(ef, ""), tl_si(eb, ""), tl_si(et, "s"));
        if (m->has_prof)
            printf("%7s %10s %10s %10s %7s\n", tl_commas((double)mk), tl_si(mf, ""), tl_si(mb, ""),
                   tl_si(mt, "s"), ef > 0 && mf > 0 ? tl_num(mf / ef, 3) : "-");
        else
            printf("%7s\n", "-");
    }
    printf("  (FLOPs in FLOP, bytes in B, SI prefixes: G = 1e9. Kernels are typed by name:\n"
           "   conv/winograd/implicit_gemm -> convolution, gemm/cutlass -> matrix product, ...;\n"
           "   libraries run some convolutions as GEMMs, hence the conv + matmul row.)\n");
    if (m->has_prof) {
        int i;
        for (i = 0; i < m->res.warning_count; i++)
            printf("  profile warning: %s\n", m->res.warnings[i].text);
    }
    printf("\n");
}

static void print_reasons(const model *m) {
    int i;
    if (!m->has_prof) return;
    printf("%s: measured / estimated FLOPs = %s", m->disp, m->ratio > 0 ? tl_num(m->ratio, 3) : "unknown");
    if (m->ratio > 0 && m->ratio >= 0.8 && m->ratio <= 1.25 && !m->n_reasons)
        printf(" (close to 1: the estimate and the counters agree)\n");
    else printf("\n");
    for (i = 0; i < m->n_reasons; i++) printf("  - %s\n", m->reasons[i]);
    if (m->meas_hw >= 0 && !m->pred_err[m->meas_hw] && m->meas.time_s > 0) {
        double q = m->meas.time_s / m->pred[m->meas_hw].layers_s;
        double avg = m->meas.time_s / (double)(m->res.kernels ? m->res.kernels : 1);
        if (m->mismatch)
            printf("  - time: %sx the prediction, but the profile is of another batch or mode "
                   "(above): compare like with like first.\n", tl_num(q, 3));
        else if (q > 2)
            printf("  - time: the kernels took %sx the roofline prediction. %s kernels averaging %s "
                   "each are too small to fill the GPU (the roofline assumes every layer runs at "
                   "the whole machine's peak or bandwidth); a larger batch narrows the gap.\n",
                   tl_num(q, 3), tl_commas((double)m->res.kernels), tl_si(avg, "s"));
        else if (q < 0.9)
            printf("  - time: the kernels beat the per-layer prediction (%sx): fused or cached work "
                   "(L2 hits) moved fewer DRAM bytes than the per-layer estimate assumes.\n", tl_num(q, 3));
        printf("  - the profile's time is the sum of kernel durations (serialised by ncu, no launch "
               "gaps); time a step with CUDA events over warm runs for its latency.\n");
    }
    printf("  profile: %s%s%s\n", m->ncu, m->device[0] ? ", device " : "", m->device);
    if (device_warning(m)[0])
        printf("  WARNING [%s]: %s.\n", RFL_HW_DEVICE_MISMATCH, device_warning(m));
    else if (!m->device[0] && !ncu_hw)
        printf("  NOTE: the profile names no device (details page or nvprof): assumed measured on "
               "the %s, the first --hw (--ncu-hw NAME says otherwise).\n", hw[m->meas_hw]->name);
    else if (m->meas_hw < 0)
        printf("  NOTE: the profile was measured on '%s', which is not among --hw: the measured point is "
               "left off the charts.\n", m->device[0] ? m->device : "?");
}

/* ---- --explain -------------------------------------------------------------- */
static void explain_model(const model *m) {
    int h;
    double ef = rfl_work_flops(&m->cost.forward), bf = rfl_work_flops(&m->cost.backward);
    double F = rfl_work_flops(&m->est), B = m->est.bytes[RFL_DRAM];
    printf("-- %s, explained --\n", m->disp);
    printf("  estimate: every layer's formula (rfl-estimate %s --batch %llu --mode %s lists them);\n"
           "    a multiply-add = 2 FLOPs; conv = 2 x Cin/groups x Kh x Kw x Cout x Hout x Wout x batch\n",
           m->name, (unsigned long long)(cd.batch ? cd.batch : 1),
           cd.mode == RFL_MODE_TRAIN ? "train" : "infer");
    if (cd.mode == RFL_MODE_TRAIN) {
        printf("  FLOPs = forward + backward = %s + %s = %s FLOP\n", tl_commas(ef), tl_commas(bf), tl_commas(F));
        printf("    (backward / forward = %s: weight + input gradients = 2 x forward, minus the\n"
               "     first layer's input gradient; mac part %s / %s)\n",
               tl_num(ef > 0 ? bf / ef : 0, 4), tl_commas((double)m->cost.bwd_mac_flops),
               tl_commas((double)m->cost.fwd_mac_flops));
        printf("  bytes = forward + backward = %s + %s = %s B (each layer reads its inputs and\n"
               "    weights and writes its output, at %d bytes per element)\n",
               tl_commas((double)m->cost.fwd_bytes), tl_commas((double)m->cost.bwd_bytes), tl_commas(B),
               rfl_dtype_bytes(cd.dtype));
    } else {
        printf("  FLOPs = forward = %s FLOP (mac part %s)\n", tl_commas(F), tl_commas((double)m->cost.fwd_mac_flops));
        printf("  bytes = %s B (inputs + weights + output of every layer, %d bytes per element)\n",
               tl_commas(B), rfl_dtype_bytes(cd.dtype));
    }
    printf("  AI = FLOPs / bytes = %s / %s = %s FLOP/B\n", tl_si(F, "FLOP"), tl_si(B, "B"),
           tl_num(B > 0 ? F / B : 0, 4));
    for (h = 0; h < nh; h++) {
        const rfl_machine *mc = hw[h];
        rfl_prec p = m->est_prec;
        double pk = mc->peak_flops[p], bw = mc->bw_bytes_per_s[RFL_DRAM], ai = B > 0 ? F / B : 0;
        printf("  on %s (%s roof):\n", mc->name, rfl_prec_name(p));
        if (!(pk > 0)) { printf("    no %s roof on this machine\n", rfl_prec_name(p)); continue; }
        printf("    ridge = peak / BW = %s / %s = %s FLOP/B\n", tl_si(pk, "FLOP/s"), tl_si(bw, "B/s"),
               tl_num(pk / bw, 4));
        printf("    attainable = min(peak, AI x BW) = min(%s, %s x %s) = %s -> %s-bound\n",
               tl_si(pk, "FLOP/s"), tl_num(ai, 4), tl_si(bw, "B/s"),
               tl_si(ai * bw < pk ? ai * bw : pk, "FLOP/s"), ai * bw < pk ? "memory" : "compute");
        if (!m->pred_err[h]) {
            printf("    predicted time, whole = max(FLOPs / peak, bytes / BW) = max(%s, %s) = %s\n",
                   tl_si(m->pred[h].whole.compute_s, "s"), tl_si(m->pred[h].whole.memory_s, "s"),
                   tl_si(m->pred[h].whole.time_s, "s"));
            printf("    predicted time, per layer = sum of max(FLOPs_i / peak, bytes_i / BW) = %s\n"
                   "      (%d layers compute-bound, %d memory-bound; used in the tables and charts)\n",
                   tl_si(m->pred[h].layers_s, "s"), m->pred[h].compute_layers, m->pred[h].memory_layers);
        }
        if (m->has_prof && m->meas_hw == h) {
            double mf = rfl_work_flops(&m->meas), mb = m->meas.bytes[RFL_DRAM], t = m->meas.time_s;
            double fl = t > 0 ? mf / t : 0, a = rfl_work_attainable(mc, &m->meas, m->meas_prec, 0);
            double mai = mb > 0 ? mf / mb : 0;
            printf("    measured here (%s):\n", m->ncu);
            printf("      FLOPs = fadd + fmul + 2 x ffma (fp32) + hadd + hmul + 2 x hfma (fp16)\n"
                   "              + 2 x (dfma) + dadd + dmul (fp64) + tensor-path ops\n"
                   "            = %s + %s + %s + %s = %s FLOP\n",
                   tl_commas(m->meas.flops[RFL_FP32]), tl_commas(m->meas.flops[RFL_FP16]),
                   tl_commas(m->meas.flops[RFL_FP64]), tl_commas(meas_tensor(m)), tl_commas(mf));
            printf("      bytes = dram__bytes_read.sum + dram__bytes_write.sum = %s B\n", tl_commas(mb));
            printf("      time = sum of gpu__time_duration.sum = %s s\n", tl_num(t, 6));
            printf("      AI = %s / %s = %s FLOP/B\n", tl_si(mf, "FLOP"), tl_si(mb, "B"), tl_num(mai, 4));
            printf("      achieved = FLOPs / time = %s / %s = %s\n", tl_si(mf, "FLOP"), tl_si(t, "s"),
                   tl_si(fl, "FLOP/s"));
            if (a > 0) {
                double pm = mc->peak_flops[m->meas_prec];
                printf("      attainable = min(peak %s, AI x BW) = min(%s, %s x %s) = %s\n",
                       rfl_prec_name(m->meas_prec), tl_si(pm, "FLOP/s"), tl_num(mai, 4),
                       tl_si(bw, "B/s"), tl_si(a, "FLOP/s"));
                printf("      %% of roof = achieved / attainable = %s / %s = %s%%\n", tl_si(fl, "FLOP/s"),
                       tl_si(a, "FLOP/s"), tl_num(100 * fl / a, 3));
            }
            printf("      measured / estimated FLOPs = %s / %s = %s\n", tl_si(mf, "FLOP"), tl_si(F, "FLOP"),
                   tl_num(F > 0 ? mf / F : 0, 4));
            if (!m->pred_err[h] && t > 0)
                printf("      measured / predicted time = %s / %s = %s\n", tl_si(t, "s"),
                       tl_si(m->pred[h].layers_s, "s"), tl_num(t / m->pred[h].layers_s, 4));
        }
    }
    printf("\n");
}


#endif
