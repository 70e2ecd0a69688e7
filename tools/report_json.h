/* report_json.h - rfl-report: report.json.
   Part of tools/rfl-report.c (included once, in order: report_model.h,
   report_tables.h, report_charts.h, report_json.h); shares its state. */
#ifndef RFL_REPORT_JSON_H
#define RFL_REPORT_JSON_H

/* ---- report.json ----------------------------------------------------------------- */
static void json_work_flops(tl_json *j, const char *key, const rfl_work *w, double tensor) {
    tl_jobj(j, key);
    tl_jnum_if(j, "fp64", rfl_work_known(w, RFL_UNKNOWN_FLOPS(RFL_FP64)), w->flops[RFL_FP64]);
    tl_jnum_if(j, "fp32", rfl_work_known(w, RFL_UNKNOWN_FLOPS(RFL_FP32)), w->flops[RFL_FP32]);
    tl_jnum_if(j, "fp16", rfl_work_known(w, RFL_UNKNOWN_FLOPS(RFL_FP16)), w->flops[RFL_FP16]);
    tl_jnum_if(j, "tensor", rfl_work_known(w, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR)), tensor);
    tl_jnum_if(j, "total", flops_known(w), rfl_work_flops(w));
    tl_jclose(j);
}

static void json_machines(tl_json *j) {
    int h;
    rfl_prec p = models[0]->est_prec;
    tl_jarr(j, "machines");
    for (h = 0; h < nh; h++) {
        tl_jobj(j, 0);
        tl_jstr(j, "id", hw[h]->id);
        tl_jstr(j, "name", hw[h]->name);
        tl_jstr(j, "prec", rfl_prec_name(p));
        tl_jnum(j, "peak_flops_per_s", hw[h]->peak_flops[p]);
        tl_jnum(j, "bw_bytes_per_s", hw[h]->bw_bytes_per_s[RFL_DRAM]);
        tl_jnum(j, "ridge", rfl_ridge(hw[h], p, RFL_DRAM));
        tl_jclose(j);
    }
    tl_jclose_arr(j);
}

static void json_estimate(tl_json *j, const model *m) {
    int train = cd.mode == RFL_MODE_TRAIN;
    int known = !m->cost.unknown_layers; /* else the FLOPs are a lower bound: null */
    tl_jobj(j, "estimate");
    tl_jnum_if(j, "flops", known, rfl_work_flops(&m->est));
    tl_jnum_if(j, "forward_flops", known, rfl_work_flops(&m->cost.forward));
    tl_jnum_if(j, "backward_flops", known, train ? rfl_work_flops(&m->cost.backward) : 0);
    tl_jnum_if(j, "mac_flops", known, (double)m->cost.fwd_mac_flops + (train ? (double)m->cost.bwd_mac_flops : 0));
    if (!known) {
        tl_jnum(j, "flops_known", rfl_work_flops(&m->est));
        tl_jnum(j, "mac_flops_known", (double)m->cost.fwd_mac_flops + (train ? (double)m->cost.bwd_mac_flops : 0));
        tl_jnum(j, "unknown_layers", m->cost.unknown_layers);
    }
    tl_jnum(j, "bytes", m->est.bytes[RFL_DRAM]);
    tl_jnum_if(j, "ai", known, rfl_work_ai(&m->est, RFL_DRAM));
    tl_jstr(j, "prec", rfl_prec_name(m->est_prec));
    tl_jclose(j);
}

/* bytes or AI per level; null where the profile did not measure it */
static void json_levels(tl_json *j, const char *key, const rfl_work *w, int ai) {
    static const char *const names[] = {"dram", "l2", "l1"};
    static const rfl_level levels[] = {RFL_DRAM, RFL_L2, RFL_L1};
    int k;
    tl_jobj(j, key);
    for (k = 0; k < 3; k++)
        tl_jnum_if(j, names[k], rfl_work_known(w, RFL_UNKNOWN_BYTES(levels[k])),
                   ai ? rfl_work_ai(w, levels[k]) : w->bytes[levels[k]]);
    tl_jclose(j);
}

static void json_profile(tl_json *j, const model *m) {
    int k;
    if (!m->has_prof) { tl_jnull(j, "profile"); return; }
    tl_jobj(j, "profile");
    tl_jstr(j, "file", m->ncu);
    tl_jstr(j, "device", m->device[0] ? m->device : 0);
    tl_jstr(j, "machine", m->meas_hw >= 0 ? hw[m->meas_hw]->id : 0);
    tl_jstr(j, "device_warning", device_warning(m)[0] ? RFL_HW_DEVICE_MISMATCH : 0);
    tl_jstr(j, "device_warning_text", device_warning(m)[0] ? device_warning(m) : 0);
    tl_jnum(j, "kernels", (double)m->res.kernels);
    tl_jnum_if(j, "time_s", m->meas.time_s > 0, m->meas.time_s);
    json_work_flops(j, "flops", &m->meas, meas_tensor(m));
    json_levels(j, "bytes", &m->meas, 0);
    json_levels(j, "ai", &m->meas, 1);
    tl_jnum_if(j, "flops_per_s", meas_flops_per_s(m) > 0, meas_flops_per_s(m));
    tl_jstr(j, "prec", rfl_prec_name(m->meas_prec));
    tl_jnum(j, "tensor_inst", (double)m->res.total.tensor_inst);
    tl_jarr(j, "warnings");
    for (k = 0; k < m->res.warning_count; k++) tl_jstr(j, 0, m->res.warnings[k].text);
    tl_jclose_arr(j);
    tl_jclose(j);
}

/* The model on each machine: roof, bound, predicted and measured time. */
static void json_model_machines(tl_json *j, const model *m) {
    int h;
    tl_jarr(j, "machines");
    for (h = 0; h < nh; h++) {
        rfl_bound b;
        double a = rfl_work_attainable(hw[h], &m->est, m->est_prec, &b);
        int here = m->has_prof && m->meas_hw == h;
        tl_jobj(j, 0);
        tl_jstr(j, "hw", hw[h]->id);
        tl_jnum_if(j, "attainable_flops_per_s", a > 0 && !m->cost.unknown_layers, a);
        if (m->cost.unknown_layers) { /* some FLOPs unknown: the known part's figures */
            tl_jnull(j, "bound");
            tl_jnull(j, "predicted_time_s");
            tl_jnull(j, "predicted_whole_time_s");
            tl_jnum_if(j, "predicted_time_known_s", !m->pred_err[h], m->pred[h].layers_s);
        } else {
            tl_jstr(j, "bound", a > 0 ? (b.memory ? "memory" : "compute") : 0);
            tl_jnum_if(j, "predicted_time_s", !m->pred_err[h], m->pred[h].layers_s);
            tl_jnum_if(j, "predicted_whole_time_s", !m->pred_err[h], m->pred[h].whole.time_s);
        }
        tl_jbool(j, "measured_here", here);
        if (here) {
            double am = rfl_work_attainable(hw[h], &m->meas, m->meas_prec, 0), fl = meas_flops_per_s(m);
            tl_jnum_if(j, "measured_time_s", m->meas.time_s > 0, m->meas.time_s);
            tl_jnum_if(j, "measured_attainable_flops_per_s", am > 0, am);
            tl_jnum_if(j, "roof_fraction", am > 0 && fl > 0, fl / am);
        }
        tl_jclose(j);
    }
    tl_jclose_arr(j);
}

/* Estimate and measurement by layer type (on the measured machine). */
static void json_by_type(tl_json *j, const model *m) {
    int k, here = m->has_prof, h = m->has_prof && m->meas_hw >= 0 ? m->meas_hw : 0;
    tl_jarr(j, "by_type");
    for (k = 0; k < RK_COUNT; k++) {
        if (!m->k_layers[k] && !m->kinds[k].kernels) continue;
        tl_jobj(j, 0);
        tl_jstr(j, "type", rk_kind_name[k]);
        tl_jnum(j, "layers", m->k_layers[k]);
        tl_jnum(j, "forward_flops", m->k_fwd_flops[k]);
        tl_jnum(j, "backward_flops", m->k_bwd_flops[k]);
        tl_jnum(j, "bytes", m->k_bytes[k]);
        tl_jstr(j, "predicted_on", hw[h]->id);
        tl_jnum(j, "predicted_time_s", m->k_pred_fwd_s[h][k] + m->k_pred_bwd_s[h][k]);
        tl_jnum_if(j, "kernels", here, (double)m->kinds[k].kernels);
        tl_jnum_if(j, "measured_flops", here, rfl_work_flops(&m->kinds[k].w));
        tl_jnum_if(j, "measured_dram_bytes", here, m->kinds[k].w.bytes[RFL_DRAM]);
        tl_jnum_if(j, "measured_time_s", here, m->kinds[k].w.time_s);
        tl_jclose(j);
    }
    tl_jclose_arr(j);
}

static void json_model(tl_json *j, const model *m) {
    int k;
    tl_jobj(j, 0);
    tl_jstr(j, "model", m->name);
    json_estimate(j, m);
    json_profile(j, m);
    tl_jnum_if(j, "flops_ratio", m->ratio > 0, m->ratio);
    tl_jarr(j, "ratio_reasons");
    for (k = 0; k < m->n_reasons; k++) tl_jstr(j, 0, m->reasons[k]);
    tl_jclose_arr(j);
    json_model_machines(j, m);
    json_by_type(j, m);
    tl_jclose(j);
}

static void write_json(FILE *f) {
    tl_json j;
    int i;
    memset(&j, 0, sizeof j);
    j.f = f;
    tl_jobj(&j, 0);
    tl_jnum(&j, "batch", (double)(cd.batch ? cd.batch : 1));
    tl_jstr(&j, "mode", cd.mode == RFL_MODE_TRAIN ? "train" : "infer");
    tl_jstr(&j, "dtype", dtype_name());
    json_machines(&j);
    tl_jarr(&j, "models");
    for (i = 0; i < nm; i++) json_model(&j, models[i]);
    tl_jclose_arr(&j);
#ifdef RFL_HAS_PNG
    tl_jarr(&j, "charts");
    for (i = 0; i < nwritten; i++) tl_jstr(&j, 0, written[i]);
    tl_jclose_arr(&j);
#endif
    tl_jclose(&j);
}


#endif
