/* report_llm_charts.h - rfl-report's LLM charts (issue 17, item 5), drawn
   with roofline.h's chart API and written as PNG:
     llm-batch.png     decode step time and tokens/s against batch (1..256,
                       log axes), one line per machine, and where decode
                       turns compute-bound
     llm-roofline.png  the roofline of the profile's machine with prefill and
                       decode points (estimated; measured when --ncu is given:
                       executed FLOPs and useful FLOPs over the same bytes)
   Included by report_llm.h. */
#ifndef RFL_REPORT_LLM_CHARTS_H
#define RFL_REPORT_LLM_CHARTS_H
#include <math.h>

#ifdef RFL_HAS_PNG
#define RL_W 1600
#define RL_H 790
#define RL_PANEL_H 720 /* the batch panels; a footnote below */
#define RL_BATCH_DRAWN 256 /* the batch lines end here: a diamond beyond is not drawn */

static void rl_save(rl_state *s, rfl_canvas *cv, const char *file) {
    char *path = s->charts[s->ncharts];
    snprintf(path, sizeof s->charts[0], "%s/%s", s->outdir, file);
    tl_png_save(cv, path);
    s->ncharts++;
}

static const char *rl_title_model(const rl_state *s) {
    static char t[160];
    snprintf(t, sizeof t, "%s decode, cache %s, %s", s->model ? s->model : s->cfg.model_type,
             tl_num((double)s->d.seq, 10), rfl_dtype_name(s->d.math));
    return t;
}

/* One of the two batch panels: which 0 = step time (ms), 1 = tokens/s. */
static void rl_batch_panel(rl_state *s, rfl_canvas *cv, int which) {
    static rfl_xy pts[RL_MAXH * (RL_NB + 1)];
    static char labels[RL_MAXH][96], bound_label[64];
    static char title[200];
    rfl_scatter_desc d;
    int h, i, n = 0;
    for (h = 0; h < s->nh; h++) {
        snprintf(labels[h], sizeof labels[h], "%s", s->hw[h]->id);
        for (i = 0; i < RL_NB; i++) {
            rfl_xy *p = &pts[n++];
            memset(p, 0, sizeof *p);
            p->label = labels[h];
            p->x = (double)(1u << i);
            p->y = which ? s->b_tps[h][i] : s->b_time[h][i] * 1e3;
            p->link = h + 1;
        }
    }
    /* where each machine turns compute-bound (when within the range) */
    snprintf(bound_label, sizeof bound_label, "weight GEMMs turn compute-bound");
    for (h = 0; h < s->nh; h++) {
        rfl_llm_step_desc d1 = s->d;
        uint64_t b = s->bound_batch[h];
        double t1;
        if (!b || b > RL_BATCH_DRAWN) continue;
        d1.phase = RFL_LLM_DECODE;
        d1.batch = b;
        if (!((t1 = rl_step_time(s, &d1, s->hw[h], 0)) > 0)) continue;
        memset(&pts[n], 0, sizeof pts[n]);
        pts[n].label = bound_label;
        pts[n].x = (double)b;
        pts[n].y = which ? (double)b / t1 : t1 * 1e3;
        pts[n].marker = RFL_MARKER_DIAMOND;
        pts[n].color = RFL_RGB(0, 0, 0);
        pts[n].hollow = 1;
        pts[n].weight = 0.3;
        n++;
    }
    snprintf(title, sizeof title, "%s: %s", rl_title_model(s),
             which ? "tokens/s" : "step time");
    memset(&d, 0, sizeof d);
    d.title = title;
    d.x_title = "Batch (sequences decoding together)";
    d.y_title = which ? "Tokens per second (tokens/s)" : "Decode step time (ms)";
    d.points = pts;
    d.n_points = n;
    d.x_scale = d.y_scale = RFL_SCALE_LOG;
    d.x_ticks = RFL_TICKS_PLAIN;
    d.y_ticks = which ? RFL_TICKS_SI : RFL_TICKS_PLAIN;
    d.x_min = 0.7;
    d.x_max = 370;
    d.legend = which ? RFL_LEGEND_BOTTOM_RIGHT : RFL_LEGEND_TOP_LEFT;
    rfl_chart_scatter(cv, &d);
}

static void rl_chart_batch(rl_state *s) {
    rfl_canvas full, half;
    char note[400];
    size_t k;
    int h;
    tl_canvas(&full, RL_W, RL_H);
    rfl_canvas_init(&half, full.pixels, RFL_CANVAS_BYTES(RL_W, RL_H, 3), RL_W / 2, RL_PANEL_H, 3,
                    RL_W * 3);
    rl_batch_panel(s, &half, 0);
    rfl_canvas_init(&half, full.pixels + (RL_W / 2) * 3, RFL_CANVAS_BYTES(RL_W, RL_H, 3) - (RL_W / 2) * 3,
                    RL_W / 2, RL_PANEL_H, 3, RL_W * 3);
    rl_batch_panel(s, &half, 1);
    /* the footnote: where each machine's weight GEMMs turn compute-bound */
    rfl_draw_text(&full, RL_W / 2, RL_PANEL_H + 20, "Diamonds: the batch at which the weight "
                  "GEMMs turn compute-bound (estimates at the roof):", 2,
                  RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL_RGB(40, 40, 40));
    k = 0;
    note[0] = 0;
    for (h = 0; h < s->nh && k < sizeof note; h++) { /* only a drawn diamond is named bare */
        uint64_t b = s->bound_batch[h];
        k += (size_t)snprintf(note + k, sizeof note - k, "%s%s %s%s", h ? ",  " : "", s->hw[h]->id,
                              b ? tl_num((double)b, 10) : "none up to 65536",
                              b > RL_BATCH_DRAWN ? " (past 256, not drawn)"
                              : b ? "" : " (not drawn)");
    }
    rfl_draw_text(&full, RL_W / 2, RL_PANEL_H + 50, note, 2, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE,
                  RFL_RGB(40, 40, 40));
    rl_save(s, &full, "llm-batch.png");
}

/* The estimate of one step as a point: AI = FLOPs / bytes, FLOP/s = FLOPs /
   predicted time. */
static int rl_est_point(const rl_state *s, rfl_llm_phase ph, uint64_t batch, rfl_point *p) {
    rfl_llm_step_desc d = s->d;
    rfl_net_cost c;
    double t;
    d.phase = ph;
    d.batch = batch;
    if (!((t = rl_step_time(s, &d, s->hw[0], &c)) > 0) || !c.fwd_bytes) return 0;
    p->ai = (double)c.fwd_flops / (double)c.fwd_bytes;
    p->flops_per_s = (double)c.fwd_flops / t;
    p->estimate = 1;
    return 1;
}

static rfl_prec rl_prec(const rl_state *s) {
    rfl_prec mm = RFL_FP32;
    rfl_dtype_roofs(s->d.math, &mm, 0);
    return mm;
}

/* Name the decode batches beside their markers: below right, else right,
   below left, above right or above left, wherever the label overlaps no
   earlier label or marker; left out when none fits. On a white box, so
   that a roof line under it does not hide it. */
static void rl_batch_labels(rfl_canvas *cv, const rfl_chart_area *a, const rfl_point *pts,
                            const int *which, int n, const uint64_t *batches) {
    /* below right, right, below left, above right, above left */
    static const double dx[5] = {14, 16, -14, 14, -14}, dy[5] = {14, 0, 14, -14, -14};
    static const int ax[5] = {0, 0, 1, 0, 1}, ay[5] = {0, 1, 0, 2, 2}; /* 1: right / middle, 2: bottom */
    double box[16][4], px[16], py[16]; /* x0 y0 x1 y1 of the labels drawn */
    int nb = 0, i, k, j;
    if (!(a->x_max > a->x_min) || !(a->y_max > a->y_min)) return;
    for (i = 0; i < n && i < 16; i++) {
        px[i] = a->x0 + (log10(pts[i].ai) - log10(a->x_min)) / (log10(a->x_max) - log10(a->x_min)) *
                            (a->x1 - a->x0);
        py[i] = a->y1 - (log10(pts[i].flops_per_s) - log10(a->y_min)) /
                            (log10(a->y_max) - log10(a->y_min)) * (a->y1 - a->y0);
    }
    for (i = 0; i < n && i < 16; i++) {
        char t[32];
        double w, h = 2 * RFL_FONT_H;
        if (pts[i].link != 2) continue;
        snprintf(t, sizeof t, "batch %s", tl_num((double)batches[which[i]], 10));
        w = rfl_text_width(t, -1, 2);
        for (k = 0; k < 5; k++) {
            double x0 = px[i] + dx[k] - (ax[k] ? w : 0), y0 = py[i] + dy[k] - h * 0.5 * ay[k];
            int clash = x0 < a->x0 || x0 + w > a->x1 || y0 < a->y0 || y0 + h > a->y1;
            for (j = 0; j < nb && !clash; j++)
                clash = x0 < box[j][2] && box[j][0] < x0 + w && y0 < box[j][3] && box[j][1] < y0 + h;
            for (j = 0; j < n && j < 16 && !clash; j++) /* markers, 12 px around */
                clash = px[j] > x0 - 12 && px[j] < x0 + w + 12 && py[j] > y0 - 12 && py[j] < y0 + h + 12;
            if (clash) continue;
            rfl_fill_rect(cv, x0 - 2, y0, w + 4, h, RFL_RGBA(255, 255, 255, 210));
            rfl_draw_text(cv, x0, y0, t, 2, RFL_TEXT_LEFT | RFL_TEXT_TOP, RFL_RGB(60, 60, 60));
            box[nb][0] = x0, box[nb][1] = y0, box[nb][2] = x0 + w, box[nb][3] = y0 + h;
            nb++;
            break;
        }
    }
}

static void rl_chart_roofline(rl_state *s) {
    static rfl_point pts[16];
    static char lab[6][96], title[200];
    static const uint64_t batches[4] = {1, 16, 64, 256};
    const rfl_machine *ms[1];
    rfl_roofline_desc d;
    rfl_chart_area area;
    rfl_canvas cv;
    int n = 0, i, which[16];
    memset(pts, 0, sizeof pts);
    snprintf(lab[0], 96, "prefill estimate (%s tokens, batch %s)", tl_num((double)s->d.seq, 10),
             tl_num((double)s->d.batch, 10));
    if (rl_est_point(s, RFL_LLM_PREFILL, s->d.batch, &pts[n])) { pts[n].label = lab[0]; pts[n].link = 1; n++; }
    snprintf(lab[1], 96, "decode estimate, batch 1, 16, 64, 256");
    for (i = 0; i < 4; i++)
        if (rl_est_point(s, RFL_LLM_DECODE, batches[i], &pts[n])) {
            pts[n].label = lab[1];
            pts[n].link = 2;
            which[n] = i;
            pts[n].weight = 0.15 * (i + 1);
            n++;
        }
    if (s->has_prof && s->j.kernel_time_s > 0 && s->j.total.meas.dram_bytes) {
        double t = s->j.kernel_time_s, b = (double)s->j.total.meas.dram_bytes;
        const char *ph = s->d.phase == RFL_LLM_DECODE ? "decode" : "prefill";
        snprintf(lab[2], 96, "%s measured, executed FLOPs", ph);
        snprintf(lab[3], 96, "%s measured, useful FLOPs", ph);
        pts[n].label = lab[2];
        pts[n].ai = (double)s->j.total.meas.flops / b;
        pts[n].flops_per_s = (double)s->j.total.meas.flops / t;
        pts[n].link = 3;
        n++;
        pts[n].label = lab[3];
        pts[n].ai = s->j.useful_flops / b;
        pts[n].flops_per_s = s->j.useful_flops / t;
        pts[n].link = 3;
        n++;
    }
    for (i = 0; i < n; i++) pts[i].prec = rl_prec(s);
    ms[0] = s->hw[0];
    snprintf(title, sizeof title, "%s on %s: prefill and decode (%s)",
             s->model ? s->model : s->cfg.model_type, s->hw[0]->id, rfl_dtype_name(s->d.math));
    tl_roofline_desc(&d, title, ms, 0, 1, pts, n, rl_prec(s));
    d.legend = RFL_LEGEND_BOTTOM_RIGHT;
    tl_canvas(&cv, RL_W, RL_H);
    d.areas = &area;
    rfl_chart_roofline(&cv, &d);
    rl_batch_labels(&cv, &area, pts, which, n, batches);
    rl_save(s, &cv, "llm-roofline.png");
}

static void rl_charts(rl_state *s) {
    rl_chart_batch(s);
    rl_chart_roofline(s);
}
#else
static void rl_charts(rl_state *s) { (void)s; }
#endif /* RFL_HAS_PNG */
#endif /* RFL_REPORT_LLM_CHARTS_H */
