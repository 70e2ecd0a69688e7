/* report_charts.h - rfl-report: the PNG charts.
   Part of tools/rfl-report.c (included once, in order: report_model.h,
   report_tables.h, report_charts.h, report_json.h); shares its state. */
#ifndef RFL_REPORT_CHARTS_H
#define RFL_REPORT_CHARTS_H

/* ---- charts ------------------------------------------------------------------- */
#ifdef RFL_HAS_PNG
static char written[32][512];
static int nwritten;

static void save(rfl_canvas *cv, const char *file) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", outdir, file);
    tl_png_save(cv, path);
    if (nwritten < 32) snprintf(written[nwritten++], sizeof written[0], "%s", path);
}

static char plabels[256][96];
static int nplab;
static const char *plabel(const char *fmt, ...) {
    va_list ap;
    char *b = plabels[nplab++ & 255];
    va_start(ap, fmt);
    vsnprintf(b, 96, fmt, ap);
    va_end(ap);
    return b;
}

/* Points of the model-level roofline: panel index `panel`, machine h. */
static int model_points(rfl_point *pts, int n, int panel, int h) {
    int i;
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        rfl_point *p;
        double F = rfl_work_flops(&m->est);
        if (!m->pred_err[h] && m->pred[h].layers_s > 0) {
            p = &pts[n++];
            memset(p, 0, sizeof *p);
            p->label = plabel("%s estimate", m->disp);
            p->ai = rfl_work_ai(&m->est, RFL_DRAM);
            p->flops_per_s = F / m->pred[h].layers_s;
            p->prec = m->est_prec;
            p->machine = panel;
            p->estimate = 1;
            p->link = i + 1;
            p->color = rfl_series_color(i); /* model i looks alike in every chart: */
            p->marker = rfl_series_marker(i); /* its shape, hollow or filled */
        }
        if (m->has_prof && m->meas_hw == h && meas_flops_per_s(m) > 0 &&
            rfl_work_ai(&m->meas, RFL_DRAM) > 0 && hw[h]->peak_flops[m->meas_prec] > 0) {
            p = &pts[n++];
            memset(p, 0, sizeof *p);
            if (m->meas_prec != m->est_prec)
                p->label = plabel("%s measured (%s, %s roof)", m->disp, short_hw(hw[h]),
                                  rfl_prec_name(m->meas_prec));
            else
                p->label = plabel("%s measured (%s)", m->disp, short_hw(hw[h]));
            p->ai = rfl_work_ai(&m->meas, RFL_DRAM);
            p->flops_per_s = meas_flops_per_s(m);
            p->prec = m->meas_prec;
            p->machine = panel;
            p->link = i + 1;
            p->color = rfl_series_color(i);
            p->marker = rfl_series_marker(i);
        }
    }
    return n;
}

/* A panel whose machine has no roof of the work's precision stays empty in
   the chart; say why in it. */
static void no_roof_notes(rfl_canvas *cv, const rfl_chart_area *areas, const rfl_machine *const *ms,
                          int n, rfl_prec p) {
    int k;
    for (k = 0; k < n; k++) {
        char t[96];
        if (ms[k]->peak_flops[p] > 0) continue;
        snprintf(t, sizeof t, "no %s unit on this machine", rfl_prec_name(p));
        rfl_draw_text(cv, (areas[k].x0 + areas[k].x1) / 2, (areas[k].y0 + areas[k].y1) / 2, t, 2,
                      RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL_RGB(150, 0, 0));
    }
}

/* On a machine where nothing was measured, say where the measurements are:
   an absent point must not read as a missing one. */
static void elsewhere_notes(rfl_canvas *cv, const rfl_chart_area *areas, const int *hs, int n,
                            int scale) {
    int k, i;
    for (k = 0; k < n; k++) {
        char t[96] = "";
        for (i = 0; i < nm; i++) {
            const model *m = models[i];
            if (m->has_prof && m->meas_hw == hs[k]) { t[0] = 0; break; }
            if (m->has_prof && m->meas_hw >= 0 && !t[0])
                snprintf(t, sizeof t, n == 1 ? "measured on %s: see roofline-%s.png" : "measured on %s: see its panel",
                         short_hw(hw[m->meas_hw]), hw[m->meas_hw]->id);
        }
        if (t[0])
            rfl_draw_text(cv, areas[k].x1 - 8, areas[k].y1 - 8, t, scale, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM,
                          RFL_RGB(90, 90, 90));
    }
}

static void chart_rooflines(void) {
    static int idx[MAXH];
    static rfl_chart_area areas[MAXH];
    static rfl_point pts[4 * MAXM * MAXH];
    rfl_roofline_desc d;
    rfl_canvas cv;
    int h, n = 0, r;
    char file[128], title[160];
    for (h = 0; h < nh; h++) {
        n = model_points(pts, 0, 0, h);
        snprintf(title, sizeof title, "%s, batch %llu, %s, %s",
                 short_hw(hw[h]), (unsigned long long)(cd.batch ? cd.batch : 1),
                 cd.mode == RFL_MODE_TRAIN ? "training step" : "inference", dtype_name());
        tl_roofline_desc(&d, title, &hw[h], &hw_measured[h], 1, pts, n, models[0]->est_prec);
        report_ceilings(&d);
        d.areas = areas;
        tl_canvas(&cv, 1200, 800);
        rfl_chart_roofline(&cv, &d);
        no_roof_notes(&cv, areas, &hw[h], 1, d.prec);
        elsewhere_notes(&cv, areas, &h, 1, 2);
        snprintf(file, sizeof file, "roofline-%s.png", hw[h]->id);
        save(&cv, file);
    }
    if (nh > 1) { /* the overview: one panel per machine, side by side */
        n = 0;
        for (h = 0; h < nh; h++) n = model_points(pts, n, h, h);
        snprintf(title, sizeof title, "Roofline, batch %llu %s, %s: hollow = estimate, filled = measured",
                 (unsigned long long)(cd.batch ? cd.batch : 1),
                 cd.mode == RFL_MODE_TRAIN ? "training" : "inference", dtype_name());
        tl_roofline_desc(&d, title, hw, hw_measured, nh, pts, n, models[0]->est_prec);
        report_ceilings(&d);
        tl_canvas(&cv, 700 * (nh < 4 ? nh : 3), nh <= 3 ? 750 : 1400);
        d.columns = nh <= 3 ? nh : 3;
        d.font_scale = 2; /* readable when the picture is shown scaled down */
        d.areas = areas;
        r = rfl_chart_roofline(&cv, &d);
        (void)r; /* RFL_ERR_NO_ROOF: the other panels are drawn; noted below */
        no_roof_notes(&cv, areas, hw, nh, d.prec);
        for (h = 0; h < nh; h++) idx[h] = h;
        elsewhere_notes(&cv, areas, idx, nh, d.font_scale);
        save(&cv, "roofline.png");
    }
}

static const rfl_color kind_color[RK_COUNT] = {
    RFL_RGB(0, 114, 178), RFL_RGB(213, 94, 0), RFL_RGB(0, 158, 115), RFL_RGB(204, 121, 167),
    RFL_RGB(230, 159, 0), RFL_RGB(86, 180, 233), RFL_RGB(120, 120, 120), RFL_RGB(60, 60, 60)};

static void chart_layers(const model *m) {
    static rfl_point pts[RFL_ZOO_MAX_LAYERS + RK_COUNT];
    rfl_roofline_desc d;
    rfl_canvas cv;
    int i, n = 0, h = m->has_prof && m->meas_hw >= 0 ? m->meas_hw : 0, k;
    double total = m->pred_err[h] ? 0 : m->pred[h].layers_s;
    char file[128], title[200];
    for (i = 0; i < m->net.count; i++) {
        rfl_work f, b;
        rfl_prediction p;
        rfl_point *q;
        double F, B;
        if (rfl_layer_work(&m->net, i, &cd, &f, &b) != RFL_OK) continue;
        if (cd.mode == RFL_MODE_TRAIN) rfl_work_add(&f, &b);
        F = rfl_work_flops(&f);
        B = f.bytes[RFL_DRAM];
        if (!(F > 0) || !(B > 0) || rfl_predict(hw[h], &f, &p) != RFL_OK || !(p.time_s > 0)) continue;
        k = rk_ltype_kind(rfl_op_ltype((rfl_op)m->net.layers[i].op));
        q = &pts[n++];
        memset(q, 0, sizeof *q);
        q->label = rk_kind_name[k]; /* one legend entry per type: layers hollow, kernels filled */
        q->ai = F / B;
        q->flops_per_s = F / p.time_s;
        q->prec = rfl_work_main_prec(&f);
        q->estimate = 1;
        q->weight = total > 0 ? p.time_s / total : 0;
        q->color = kind_color[k];
        q->marker = rfl_series_marker(k); /* a type looks alike in every model's chart */
    }
    if (m->has_prof && m->meas_hw == h) {
        double tt = m->meas.time_s;
        for (k = 0; k < RK_COUNT; k++) {
            const rfl_work *w = &m->kinds[k].w;
            double F = rfl_work_flops(w), B = w->bytes[RFL_DRAM];
            rfl_point *q;
            if (!(F > 0) || !(B > 0) || !(w->time_s > 0)) continue;
            if (!(hw[h]->peak_flops[rfl_work_main_prec(w)] > 0)) continue;
            q = &pts[n++];
            memset(q, 0, sizeof *q);
            q->label = rk_kind_name[k];
            q->ai = F / B;
            q->flops_per_s = F / w->time_s;
            q->prec = rfl_work_main_prec(w);
            /* half-precision SASS in an FP32 run is index arithmetic (HFMA2
               tricks of the compiler), not the model's math: FP32 roof */
            if (q->prec == RFL_FP16 && m->est_prec == RFL_FP32) q->prec = RFL_FP32;
            q->weight = tt > 0 ? w->time_s / tt : 0;
            q->color = kind_color[k];
            q->marker = rfl_series_marker(k);
        }
    }
    snprintf(title, sizeof title,
             m->has_prof && m->meas_hw == h ? "%s b%llu %s: layers hollow, kernels filled, size = time"
                                            : "%s b%llu %s: every layer, marker size = time",
             m->disp, (unsigned long long)(cd.batch ? cd.batch : 1),
             cd.mode == RFL_MODE_TRAIN ? "fwd+bwd" : "forward");
    tl_roofline_desc(&d, title, &hw[h], &hw_measured[h], 1, pts, n, m->est_prec);
    d.legend = RFL_LEGEND_TOP_LEFT; /* above the memory slope: always empty */
    tl_canvas(&cv, 1200, 800);
    rfl_chart_roofline(&cv, &d);
    snprintf(file, sizeof file, "layers-%s.png", m->name);
    save(&cv, file);
}

/* A legend line under a chart: coloured boxes and names, centred. */
static void legend_line(rfl_canvas *cv, double cx, double y, const char *const *names,
                        const rfl_color *colors, int n, int scale) {
    int i, w = 0;
    double x;
    for (i = 0; i < n; i++) w += 3 * RFL_FONT_W * scale + rfl_text_width(names[i], -1, scale) + 4 * RFL_FONT_W * scale;
    x = cx - w / 2.0;
    for (i = 0; i < n; i++) {
        rfl_fill_rect(cv, x, y - RFL_FONT_W * scale, 2 * RFL_FONT_W * scale, 2 * RFL_FONT_W * scale, colors[i]);
        x += 3 * RFL_FONT_W * scale;
        x += rfl_draw_text(cv, x, y, names[i], scale, RFL_TEXT_LEFT | RFL_TEXT_MIDDLE, RFL_RGB(0, 0, 0));
        x += 4 * RFL_FONT_W * scale;
    }
}

static void chart_bars(const model *m) {
    static double vf[RK_COUNT * 3], vt[RK_COUNT * 3];
    static const char *cats[RK_COUNT];
    static const char *ser[3];
    static rfl_color col[3];
    enum { W = 1600, H = 760, HC = 690 };
    rfl_bar_desc b;
    rfl_canvas full, half;
    int k, n = 0, h = m->has_prof && m->meas_hw >= 0 ? m->meas_hw : 0;
    int meas = m->has_prof && m->meas_hw == h, train = cd.mode == RFL_MODE_TRAIN;
    int ns = 1 + train + meas; /* forward, backward (training), measured */
    char file[128], title_f[160], title_t[160];
    for (k = 0; k < RK_COUNT; k++) {
        if (!(m->k_fwd_flops[k] > 0) && !(m->k_pred_fwd_s[h][k] > 0) && !(meas && m->kinds[k].w.time_s > 0))
            continue;
        cats[n] = rk_kind_name[k];
        vf[n * ns] = m->k_fwd_flops[k];
        vt[n * ns] = m->k_pred_fwd_s[h][k];
        if (train) {
            vf[n * ns + 1] = m->k_bwd_flops[k];
            vt[n * ns + 1] = m->k_pred_bwd_s[h][k];
        }
        if (meas) {
            vf[n * ns + ns - 1] = rfl_work_flops(&m->kinds[k].w);
            vt[n * ns + ns - 1] = m->kinds[k].w.time_s;
        }
        n++;
    }
    ser[0] = "forward (estimate)";
    col[0] = RFL_RGB(0, 114, 178);
    ser[1] = "backward (estimate)";
    col[1] = RFL_RGB(230, 159, 0);
    if (meas) {
        ser[ns - 1] = plabel("measured kernels (%s)", short_hw(hw[h]));
        col[ns - 1] = RFL_RGB(0, 158, 115);
    }
    tl_canvas(&full, W, H);
    /* two charts side by side on one image, each on a sub-canvas over the
       same pixels; one legend in a strip underneath, clear of the bars */
    memset(&b, 0, sizeof b);
    snprintf(title_f, sizeof title_f, "%s FLOPs by layer type, batch %llu", m->disp,
             (unsigned long long)(cd.batch ? cd.batch : 1));
    b.title = title_f;
    b.value_title = "FLOPs (FLOP, log scale)";
    b.categories = cats;
    b.n_categories = n;
    b.series = ser;
    b.n_series = ns;
    b.values = vf;
    b.orient = RFL_ORIENT_HORIZONTAL;
    b.scale = RFL_SCALE_LOG;
    b.colors = col;
    b.legend = RFL_LEGEND_NONE;
    b.font_scale = 2;
    rfl_canvas_init(&half, full.pixels, (size_t)W * 3 * (HC - 1) + (W / 2) * 3, W / 2, HC, 3, W * 3);
    rfl_chart_bars(&half, &b);
    snprintf(title_t, sizeof title_t, "%s time by layer type on %s", m->disp, short_hw(hw[h]));
    b.title = title_t;
    b.value_title = "time (s, log scale; estimate = roofline prediction)";
    b.values = vt;
    rfl_canvas_init(&half, full.pixels + (W / 2) * 3, (size_t)W * 3 * (HC - 1) + (W / 2) * 3, W / 2, HC, 3, W * 3);
    rfl_chart_bars(&half, &b);
    legend_line(&full, W / 2.0, HC + 35, ser, col, ns, 2);
    snprintf(file, sizeof file, "types-%s.png", m->name);
    save(&full, file);
}
#endif /* RFL_HAS_PNG */


#endif
