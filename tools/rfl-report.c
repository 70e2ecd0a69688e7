/* rfl-report - the main job: estimate a model's work, reduce its profile,
   place both on the roofline of one or more machines, compare, explain and
   draw. With no arguments it runs the reports' exercise (the demo):
   ResNet-18 and AlexNet, batch 1, one training step, on V100, A100 and H100,
   with the H100 profiles shipped in examples/data/.

   rfl-report --model M[,M...] --hw NAME[,NAME...] [--ncu M=FILE]...
              [--ncu-hw NAME] [--batch N] [--dtype D] [--mode train|infer]
              [-o DIR] [--json] [--explain] [--ascii]

   The code below is the library in use, in order: rfl_zoo_build +
   rfl_net_cost_get (estimate), rfl_reduce_* (measurement), rfl_predict /
   rfl_work_attainable (the roofline math), rfl_chart_* + rfl_png_save
   (charts). Everything printed comes from those numbers. */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "tool.h"
#include "report_kinds.h"
#include "onnx_load.h"
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MAXM 8 /* models */
#define MAXH 8 /* machines */

static const char *usage =
    "usage: rfl-report --model M[,M...] --hw NAME[,NAME...] [--ncu M=FILE]...\n"
    "                  [--ncu-hw NAME] [--batch N] [--dtype D] [--mode train|infer]\n"
    "                  [-o DIR] [--json] [--explain] [--ascii]\n"
    "       rfl-report            (no arguments: the demo, see below)\n"
    "Estimate each model's FLOPs and bytes (rfl-estimate's formulas), reduce its\n"
    "Nsight Compute profile (rfl-reduce), and put both on the roofline of each\n"
    "machine: a table per machine, a comparison by layer type, charts and JSON.\n\n"
    "  --model M,...    zoo models (rfl-estimate --list), at most 8\n"
    "  --onnx FILE      also a model from an ONNX file, named after it (repeatable)\n"
    "  --hw NAME,...    machines, one table and one chart each (rfl-hw lists them)\n"
    "  --ncu M=FILE     the profile of model M: ncu --csv --page raw (or details,\n"
    "                   or nvprof) of the same batch and mode; --ncu FILE when\n"
    "                   there is one model\n"
    "  --ncu-hw NAME    the machine the profiles were measured on (added to --hw\n"
    "                   if missing). Default: the GPU named in the profile\n"
    "                   (device__attribute_display_name) when it is among --hw;\n"
    "                   a profile without a device name: the first --hw. A\n"
    "                   measurement is placed only on its own machine;\n"
    "                   estimates go on every machine.\n"
    "  --batch N        batch size (default 1)\n"
    "  --dtype D        fp32 (default), tf32 (fp32 data, conv and matmul on TF32\n"
    "                   tensor cores: PyTorch's default for cuDNN on Ampere and\n"
    "                   later), fp16, bf16, int8\n"
    "  --mode M         train (default: one step, forward + backward) or infer\n"
    "  -o DIR           write the charts and report.json into DIR (created)\n"
    "  --json           print report.json to stdout instead of the tables: batch,\n"
    "                   mode, dtype, machines[{id, name, prec, peak_flops_per_s,\n"
    "                   bw_bytes_per_s, ridge}], models[{model, estimate{flops,\n"
    "                   forward_flops, backward_flops, mac_flops, bytes, ai, prec},\n"
    "                   profile{file, device, machine, kernels, time_s, flops{fp64,\n"
    "                   fp32, fp16, tensor, total}, bytes{dram, l2, l1}, ai{...},\n"
    "                   flops_per_s, prec, tensor_inst, warnings[]} or null,\n"
    "                   flops_ratio, ratio_reasons[], machines[{hw, attainable_\n"
    "                   flops_per_s, bound, predicted_time_s, measured_here,\n"
    "                   roof_fraction, ...}], by_type[{type, layers, forward_flops,\n"
    "                   backward_flops, bytes, predicted_time_s, kernels,\n"
    "                   measured_flops, measured_dram_bytes, measured_time_s}]}],\n"
    "                   charts[]; unmeasured quantities are null\n"
    "  --explain        print every formula with its numbers put in\n"
    "  --ascii          also draw a roofline as text (the measured machine, else\n"
    "                   the first --hw)\n"
    "Demo (no arguments): --model resnet18,alexnet --batch 1 --mode train\n"
    "  --hw v100,a100,h100 --ncu resnet18=examples/data/resnet18-b1-train-seed-raw.csv\n"
    "  --ncu alexnet=examples/data/alexnet-b1-train-full-raw.csv -o build/demo\n"
    "Exit: 0 done, 1 bad input (unknown model, machine or file; bad profile),\n"
    "2 bad usage.\n";

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
    /* comparison */
    double ratio;         /* measured / estimated FLOPs; 0 = unknown */
    char reasons[6][400];
    int n_reasons;
    int mismatch;         /* the profile looks like another batch or mode */
} model;

static model *models[MAXM];
static int nm;
static const rfl_machine *hw[MAXH];
static int nh;
static rfl_cost_desc cd;
static int json_out, explain, ascii;
static const char *outdir;
static int demo;
static int tf32; /* --dtype tf32: fp32 data, conv and matmul on TF32 tensor cores */
static const char *ncu_hw; /* --ncu-hw */

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) tl_input_error(0, 0, 0, "out of memory (%lu bytes)", (unsigned long)n);
    return p;
}

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
        if (rfl_name_eq(key, known[i][0])) { snprintf(out, n, "%s", known[i][1]); return; }
    snprintf(out, n, "%s", key);
}

/* Short machine label for legends: "H100" from "NVIDIA H100 SXM5 80GB". */
static const char *short_hw(const rfl_machine *m) {
    static char bufs[4][40];
    static int k;
    char *b = bufs[k++ & 3];
    const char *s = m->name;
    if (!strncmp(s, "NVIDIA ", 7)) s += 7;
    if (!strncmp(s, "Tesla ", 6)) s += 6;
    snprintf(b, 40, "%s", s);
    { char *sp = strchr(b, ' '); if (sp) *sp = 0; }
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

static char *read_all(const char *path, size_t *len) {
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    char *buf = 0;
    size_t cap = 0, n = 0, r;
    if (!f) tl_input_error(path, 0, 0, "cannot open the profile: %s", strerror(errno));
    for (;;) {
        if (n + 65536 > cap) {
            cap = cap ? cap * 2 : 1u << 20;
            buf = (char *)realloc(buf, cap);
            if (!buf) tl_input_error(path, 0, 0, "out of memory");
        }
        r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    if (f != stdin) fclose(f);
    *len = n;
    return buf;
}

static void load_profile(model *m) {
    static rfl_reduce_state st;
    rfl_reduce_desc d;
    size_t len, off;
    char *buf = read_all(m->ncu, &len);
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
    if (st.err == RFL_OK) rfl_reduce_finish(&st, &m->res);
    if (st.err != RFL_OK) {
        const char *what = rfl_result_str(st.err);
        if (!st.err_msg[0] || !strcmp(st.err_msg, what))
            tl_input_error(m->ncu, (long)st.err_line, (long)st.err_col, "%s", what);
        tl_input_error(m->ncu, (long)st.err_line, (long)st.err_col, "%s (%s)", st.err_msg, what);
    }
    if (m->res.kernels == 0 && !(m->res.total.work.time_s > 0))
        tl_input_error(m->ncu, 0, 0, "no kernels in the profile (was the region between "
                       "cudaProfilerStart/Stop empty?)");
    rk_device_name(buf, len, m->device, sizeof m->device);
    free(buf);
    m->meas = m->res.total.work;
    m->meas_prec = rfl_work_main_prec(&m->meas);
    m->has_prof = 1;
}

/* Which --hw machine the profile belongs to. */
static int match_device(const model *m) {
    int h;
    if (ncu_hw) {
        const rfl_machine *x = tl_find_hw(ncu_hw);
        for (h = 0; h < nh; h++) if (hw[h] == x) return h;
        return -1;
    }
    if (m->device[0]) {
        char tok[32];
        if (rk_device_token(m->device, tok, sizeof tok))
            for (h = 0; h < nh; h++)
                if (rk_icontains(hw[h]->name, tok) || rk_icontains(hw[h]->id, tok)) return h;
        return -1;
    }
    return 0; /* no device name in the file: assume the first machine */
}

/* ---- the estimate --------------------------------------------------------- */
static const char *dtype_name(void) { return tf32 ? "tf32" : rfl_dtype_name(cd.dtype); }

/* Forward and backward work of layer i. With --dtype tf32 (PyTorch's default
   for cuDNN convolutions on Ampere and later) the multiply-adds of
   convolutions and matrix products move to the TF32 tensor roof; the rest
   (bias, norms, activations) stays FP32, bytes stay 4 per element. */
static rfl_result layer_works(const model *m, int i, rfl_work *f, rfl_work *b) {
    rfl_layer_cost lc;
    rfl_result r = rfl_layer_work(&m->net, i, &cd, f, b);
    if (r != RFL_OK || !tf32) return r;
    r = rfl_layer_cost_get(&m->net, i, &cd, &lc);
    if (r != RFL_OK) return r;
    f->flops[RFL_FP32] -= (double)lc.fwd_mac_flops;
    f->flops[RFL_TF32_TENSOR] += (double)lc.fwd_mac_flops;
    b->flops[RFL_FP32] -= (double)lc.bwd_mac_flops;
    b->flops[RFL_TF32_TENSOR] += (double)lc.bwd_mac_flops;
    return RFL_OK;
}

static void estimate(model *m) {
    rfl_result r;
    int i, h;
    if (rfl_net_init(&m->net, m->recs, RFL_ZOO_MAX_LAYERS, m->names, sizeof m->names) != RFL_OK)
        tl_input_error(0, 0, 0, "internal: net init");
    r = tl_onnx_report_net(m->name, &cd, &m->net) ? RFL_OK : rfl_zoo_build(&m->net, m->name, 0);
    if (r == RFL_ERR_UNKNOWN_NAME) {
        char list[2048] = "";
        size_t n = 0;
        for (i = 0; i < rfl_zoo_count() && n + 40 < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? " " : "", rfl_zoo_name(i));
        tl_input_error(0, 0, 0, "unknown model '%s'; the zoo has: %s", m->name, list);
    }
    if (r != RFL_OK) tl_input_error(0, 0, 0, "model '%s': %s", m->name, rfl_result_str(r));
    r = rfl_net_cost_get(&m->net, &cd, &m->cost);
    if (r != RFL_OK) tl_input_error(0, 0, 0, "model '%s': %s", m->name, rfl_result_str(r));
    m->est = m->cost.forward;
    if (cd.mode == RFL_MODE_TRAIN) rfl_work_add(&m->est, &m->cost.backward);
    if (tf32) { /* the same totals, the mac part under the TF32 roof */
        double mac = (double)m->cost.fwd_mac_flops +
                     (cd.mode == RFL_MODE_TRAIN ? (double)m->cost.bwd_mac_flops : 0);
        m->est.flops[RFL_FP32] -= mac;
        m->est.flops[RFL_TF32_TENSOR] += mac;
        for (h = 0; h < nh; h++) {
            memset(&m->pred[h], 0, sizeof m->pred[h]);
            m->pred_err[h] = rfl_predict(hw[h], &m->est, &m->pred[h].whole);
        }
    }
    m->est_prec = rfl_work_main_prec(&m->est);
    for (i = 0; i < m->net.count; i++) {
        rfl_work f, b;
        int k;
        if (layer_works(m, i, &f, &b) != RFL_OK) continue;
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
            if (tf32) { /* rfl_net_predict's per-layer sum, over the TF32 works */
                rfl_work fb = f;
                if (cd.mode == RFL_MODE_TRAIN) rfl_work_add(&fb, &b);
                if (!(rfl_work_flops(&fb) > 0) && !(fb.bytes[RFL_DRAM] > 0)) continue;
                if (rfl_predict(hw[h], &fb, &p) != RFL_OK) { m->pred_err[h] = RFL_ERR_NO_ROOF; continue; }
                m->pred[h].layers_s += p.time_s;
                m->pred[h].compute_s += p.compute_s;
                m->pred[h].memory_s += p.memory_s;
                if (p.bound.memory) m->pred[h].memory_layers++;
                else m->pred[h].compute_layers++;
            }
        }
    }
    if (!tf32)
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
    return (double)rfl_kernel_tensor_flops(&m->res.total);
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

static void print_machine(int h) {
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
    for (i = 0; i < nm; i++) CELL(c, i, "%s", tl_si(rfl_work_flops(&models[i]->est), "FLOP"));
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
    for (i = 0; i < nm; i++) CELL(c, i, "%s", tl_num(rfl_work_ai(&models[i]->est, RFL_DRAM), 4));
    row("AI (FLOP/B)", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (m->pred_err[h]) CELL(c, i, "no %s roof", rfl_prec_name(m->est_prec));
        else CELL(c, i, "%s", m->pred[h].whole.bound.memory ? "memory" : "compute");
    }
    row("bound (whole model)", c);
    c = cells();
    for (i = 0; i < nm; i++) {
        rfl_bound b;
        double a = rfl_work_attainable(mc, &models[i]->est, models[i]->est_prec, &b);
        CELL(c, i, "%s", a > 0 ? tl_si(a, "FLOP/s") : "-");
    }
    row("attainable", c);
    c = cells();
    for (i = 0; i < nm; i++)
        CELL(c, i, "%s", models[i]->pred_err[h] ? "-" : tl_si(models[i]->pred[h].layers_s, "s"));
    row("predicted time (per layer)", c);

    {
        int any = 0;
        for (i = 0; i < nm; i++) any |= models[i]->has_prof;
        if (!any) { printf("\n"); return; }
    }
    printf("  measured (Nsight Compute)\n");
    c = cells();
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (!m->has_prof) CELL(c, i, "no profile");
        else if (m->meas_hw == h) CELL(c, i, "this machine");
        else if (m->meas_hw >= 0) CELL(c, i, "on %s only", short_hw(hw[m->meas_hw]));
        else CELL(c, i, "not on --hw");
    }
    row("measured on", c);
    {
        int any = 0;
        for (i = 0; i < nm; i++) any |= models[i]->has_prof && models[i]->meas_hw == h;
        if (!any) { printf("\n"); return; }
    }
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
    if (m->meas_hw < 0) {
        char tok[32] = "";
        const rfl_machine *x;
        if (!rk_device_token(m->device, tok, sizeof tok) || rfl_hw_find(tok, &x) != RFL_OK) tok[0] = 0;
        printf("  NOTE: measured on '%s', which is not among --hw: the measured point is left off "
               "the charts (add %s%s to --hw, or name the machine with --ncu-hw).\n",
               m->device[0] ? m->device : "?", tok[0] ? "" : "that machine", tok);
    } else if (!m->device[0] && !ncu_hw) {
        printf("  NOTE: the profile names no device (details page or nvprof): assumed measured on "
               "the %s, the first --hw (--ncu-hw NAME says otherwise).\n", hw[m->meas_hw]->name);
    } else if (m->device[0]) {
        char tok[32];
        if (rk_device_token(m->device, tok, sizeof tok) && !rk_icontains(hw[m->meas_hw]->name, tok) &&
            !rk_icontains(hw[m->meas_hw]->id, tok))
            printf("  WARNING: the profile says it was measured on '%s', but it is placed on the %s "
                   "(--ncu-hw): its %% of the roof compares it with the wrong machine's ceilings.\n",
                   m->device, hw[m->meas_hw]->name);
    }
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

/* ---- charts ------------------------------------------------------------------- */
#ifdef RFL_HAS_PNG
static char written[32][512];
static int nwritten;

static void save(rfl_canvas *cv, const char *file) {
    static unsigned char *arena;
    static size_t arena_n;
    char path[512];
    size_t need = rfl_png_arena_size(cv->width, cv->height, 3);
    rfl_result r;
    if (need > arena_n) {
        free(arena);
        arena = (unsigned char *)xmalloc(need);
        arena_n = need;
    }
    snprintf(path, sizeof path, "%s/%s", outdir, file);
    r = rfl_png_save(cv, path, arena, arena_n);
    if (r != RFL_OK) tl_input_error(path, 0, 0, "cannot write the PNG: %s", rfl_result_str(r));
    if (nwritten < 32) snprintf(written[nwritten++], sizeof written[0], "%s", path);
}

static void canvas(rfl_canvas *cv, int w, int h) {
    static unsigned char *px;
    static size_t pxn;
    size_t need = RFL_CANVAS_BYTES(w, h, 3);
    if (need > pxn) {
        free(px);
        px = (unsigned char *)xmalloc(need);
        pxn = need;
    }
    rfl_canvas_init(cv, px, need, w, h, 3, 0);
    rfl_canvas_clear(cv, RFL_RGB(255, 255, 255));
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
        memset(&d, 0, sizeof d);
        snprintf(title, sizeof title, "%s, batch %llu, %s, %s",
                 short_hw(hw[h]), (unsigned long long)(cd.batch ? cd.batch : 1),
                 cd.mode == RFL_MODE_TRAIN ? "training step" : "inference", dtype_name());
        d.title = title;
        d.machines = &hw[h];
        d.n_machines = 1;
        d.points = pts;
        d.n_points = n;
        d.prec = models[0]->est_prec;
        d.areas = areas;
        canvas(&cv, 1200, 800);
        rfl_chart_roofline(&cv, &d);
        no_roof_notes(&cv, areas, &hw[h], 1, d.prec);
        elsewhere_notes(&cv, areas, &h, 1, 2);
        snprintf(file, sizeof file, "roofline-%s.png", hw[h]->id);
        save(&cv, file);
    }
    if (nh > 1) { /* the overview: one panel per machine, side by side */
        n = 0;
        for (h = 0; h < nh; h++) n = model_points(pts, n, h, h);
        memset(&d, 0, sizeof d);
        snprintf(title, sizeof title, "Roofline, batch %llu %s, %s: hollow = estimate, filled = measured",
                 (unsigned long long)(cd.batch ? cd.batch : 1),
                 cd.mode == RFL_MODE_TRAIN ? "training" : "inference", dtype_name());
        d.title = title;
        d.machines = hw;
        d.n_machines = nh;
        d.points = pts;
        d.n_points = n;
        d.prec = models[0]->est_prec;
        canvas(&cv, 700 * (nh < 4 ? nh : 3), nh <= 3 ? 750 : 1400);
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
        if (layer_works(m, i, &f, &b) != RFL_OK) continue;
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
        }
    }
    memset(&d, 0, sizeof d);
    snprintf(title, sizeof title,
             m->has_prof && m->meas_hw == h ? "%s b%llu %s: layers hollow, kernels filled, size = time"
                                            : "%s b%llu %s: every layer, marker size = time",
             m->disp, (unsigned long long)(cd.batch ? cd.batch : 1),
             cd.mode == RFL_MODE_TRAIN ? "fwd+bwd" : "forward");
    d.title = title;
    d.machines = &hw[h];
    d.n_machines = 1;
    d.points = pts;
    d.n_points = n;
    d.prec = m->est_prec;
    d.legend = RFL_LEGEND_TOP_LEFT; /* above the memory slope: always empty */
    canvas(&cv, 1200, 800);
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
    canvas(&full, W, H);
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

static void write_json(FILE *f) {
    tl_json j;
    int i, h, k;
    memset(&j, 0, sizeof j);
    j.f = f;
    tl_jobj(&j, 0);
    tl_jnum(&j, "batch", (double)(cd.batch ? cd.batch : 1));
    tl_jstr(&j, "mode", cd.mode == RFL_MODE_TRAIN ? "train" : "infer");
    tl_jstr(&j, "dtype", dtype_name());
    tl_jarr(&j, "machines");
    for (h = 0; h < nh; h++) {
        rfl_prec p = models[0]->est_prec;
        tl_jobj(&j, 0);
        tl_jstr(&j, "id", hw[h]->id);
        tl_jstr(&j, "name", hw[h]->name);
        tl_jstr(&j, "prec", rfl_prec_name(p));
        tl_jnum(&j, "peak_flops_per_s", hw[h]->peak_flops[p]);
        tl_jnum(&j, "bw_bytes_per_s", hw[h]->bw_bytes_per_s[RFL_DRAM]);
        tl_jnum(&j, "ridge", rfl_ridge(hw[h], p, RFL_DRAM));
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    tl_jarr(&j, "models");
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        tl_jobj(&j, 0);
        tl_jstr(&j, "model", m->name);
        tl_jobj(&j, "estimate");
        tl_jnum(&j, "flops", rfl_work_flops(&m->est));
        tl_jnum(&j, "forward_flops", rfl_work_flops(&m->cost.forward));
        tl_jnum(&j, "backward_flops", cd.mode == RFL_MODE_TRAIN ? rfl_work_flops(&m->cost.backward) : 0);
        tl_jnum(&j, "mac_flops", (double)m->cost.fwd_mac_flops + (cd.mode == RFL_MODE_TRAIN ? (double)m->cost.bwd_mac_flops : 0));
        tl_jnum(&j, "bytes", m->est.bytes[RFL_DRAM]);
        tl_jnum(&j, "ai", rfl_work_ai(&m->est, RFL_DRAM));
        tl_jstr(&j, "prec", rfl_prec_name(m->est_prec));
        tl_jclose(&j);
        if (!m->has_prof) tl_jnull(&j, "profile");
        else {
            tl_jobj(&j, "profile");
            tl_jstr(&j, "file", m->ncu);
            tl_jstr(&j, "device", m->device[0] ? m->device : 0);
            tl_jstr(&j, "machine", m->meas_hw >= 0 ? hw[m->meas_hw]->id : 0);
            tl_jnum(&j, "kernels", (double)m->res.kernels);
            tl_jnum_if(&j, "time_s", m->meas.time_s > 0, m->meas.time_s);
            json_work_flops(&j, "flops", &m->meas, meas_tensor(m));
            tl_jobj(&j, "bytes");
            tl_jnum_if(&j, "dram", rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_DRAM)), m->meas.bytes[RFL_DRAM]);
            tl_jnum_if(&j, "l2", rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L2)), m->meas.bytes[RFL_L2]);
            tl_jnum_if(&j, "l1", rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L1)), m->meas.bytes[RFL_L1]);
            tl_jclose(&j);
            tl_jobj(&j, "ai");
            tl_jnum_if(&j, "dram", rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_DRAM)), rfl_work_ai(&m->meas, RFL_DRAM));
            tl_jnum_if(&j, "l2", rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L2)), rfl_work_ai(&m->meas, RFL_L2));
            tl_jnum_if(&j, "l1", rfl_work_known(&m->meas, RFL_UNKNOWN_BYTES(RFL_L1)), rfl_work_ai(&m->meas, RFL_L1));
            tl_jclose(&j);
            tl_jnum_if(&j, "flops_per_s", meas_flops_per_s(m) > 0, meas_flops_per_s(m));
            tl_jstr(&j, "prec", rfl_prec_name(m->meas_prec));
            tl_jnum(&j, "tensor_inst", (double)m->res.total.tensor_inst);
            tl_jarr(&j, "warnings");
            for (k = 0; k < m->res.warning_count; k++) tl_jstr(&j, 0, m->res.warnings[k].text);
            tl_jclose_arr(&j);
            tl_jclose(&j);
        }
        tl_jnum_if(&j, "flops_ratio", m->ratio > 0, m->ratio);
        tl_jarr(&j, "ratio_reasons");
        for (k = 0; k < m->n_reasons; k++) tl_jstr(&j, 0, m->reasons[k]);
        tl_jclose_arr(&j);
        tl_jarr(&j, "machines");
        for (h = 0; h < nh; h++) {
            rfl_bound b;
            double a = rfl_work_attainable(hw[h], &m->est, m->est_prec, &b);
            int here = m->has_prof && m->meas_hw == h;
            tl_jobj(&j, 0);
            tl_jstr(&j, "hw", hw[h]->id);
            tl_jnum_if(&j, "attainable_flops_per_s", a > 0, a);
            tl_jstr(&j, "bound", a > 0 ? (b.memory ? "memory" : "compute") : 0);
            tl_jnum_if(&j, "predicted_time_s", !m->pred_err[h], m->pred[h].layers_s);
            tl_jnum_if(&j, "predicted_whole_time_s", !m->pred_err[h], m->pred[h].whole.time_s);
            tl_jbool(&j, "measured_here", here);
            if (here) {
                double am = rfl_work_attainable(hw[h], &m->meas, m->meas_prec, 0), fl = meas_flops_per_s(m);
                tl_jnum_if(&j, "measured_time_s", m->meas.time_s > 0, m->meas.time_s);
                tl_jnum_if(&j, "measured_attainable_flops_per_s", am > 0, am);
                tl_jnum_if(&j, "roof_fraction", am > 0 && fl > 0, fl / am);
            }
            tl_jclose(&j);
        }
        tl_jclose_arr(&j);
        tl_jarr(&j, "by_type");
        h = m->has_prof && m->meas_hw >= 0 ? m->meas_hw : 0;
        for (k = 0; k < RK_COUNT; k++) {
            int here = m->has_prof;
            if (!m->k_layers[k] && !m->kinds[k].kernels) continue;
            tl_jobj(&j, 0);
            tl_jstr(&j, "type", rk_kind_name[k]);
            tl_jnum(&j, "layers", m->k_layers[k]);
            tl_jnum(&j, "forward_flops", m->k_fwd_flops[k]);
            tl_jnum(&j, "backward_flops", m->k_bwd_flops[k]);
            tl_jnum(&j, "bytes", m->k_bytes[k]);
            tl_jstr(&j, "predicted_on", hw[h]->id);
            tl_jnum(&j, "predicted_time_s", m->k_pred_fwd_s[h][k] + m->k_pred_bwd_s[h][k]);
            tl_jnum_if(&j, "kernels", here, (double)m->kinds[k].kernels);
            tl_jnum_if(&j, "measured_flops", here, rfl_work_flops(&m->kinds[k].w));
            tl_jnum_if(&j, "measured_dram_bytes", here, m->kinds[k].w.bytes[RFL_DRAM]);
            tl_jnum_if(&j, "measured_time_s", here, m->kinds[k].w.time_s);
            tl_jclose(&j);
        }
        tl_jclose_arr(&j);
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
#ifdef RFL_HAS_PNG
    tl_jarr(&j, "charts");
    for (i = 0; i < nwritten; i++) tl_jstr(&j, 0, written[i]);
    tl_jclose_arr(&j);
#endif
    tl_jclose(&j);
}

/* ---- arguments -------------------------------------------------------------------- */
static int split(char *s, char **out, int max, const char *what) {
    int n = 0;
    char *t = strtok(s, ",");
    while (t) {
        if (n >= max) tl_usage_error("at most %d %s", max, what);
        out[n++] = t;
        t = strtok(0, ",");
    }
    if (!n) tl_usage_error("--%s needs at least one name", what);
    return n;
}

static int file_exists(const char *p) {
    FILE *f = fopen(p, "rb");
    if (f) fclose(f);
    return f != 0;
}

/* The demo's data: examples/data/ from the current directory, else beside
   the executable (build/rfl-report -> ../examples/data). */
static const char *demo_file(const char *argv0, const char *name) {
    static char bufs[2][1024];
    static int k;
    char *b = bufs[k++ & 1];
    const char *slash;
    snprintf(b, 1024, "examples/data/%s", name);
    if (file_exists(b)) return b;
    slash = strrchr(argv0, '/');
    if (slash) {
        snprintf(b, 1024, "%.*s/../examples/data/%s", (int)(slash - argv0), argv0, name);
        if (file_exists(b)) return b;
    }
    tl_input_error(0, 0, 0, "demo data examples/data/%s not found: run rfl-report from the "
                   "project directory (make demo does)", name);
    return 0;
}

static void make_dir(const char *dir) {
    char p[512];
    size_t i, n = strlen(dir);
    if (n >= sizeof p) tl_usage_error("-o: path too long");
    memcpy(p, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (p[i] == '/' || p[i] == 0) {
            char c = p[i];
            p[i] = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                tl_input_error(p, 0, 0, "cannot create the output directory: %s", strerror(errno));
            p[i] = c;
        }
    }
}

int main(int argc, char **argv) {
    static char model_arg[512], hw_arg[512];
    char *mnames[MAXM], *hnames[MAXH];
    const char *ncu_arg[MAXM * 2];
    int n_ncu = 0, a, i, h, setting = 0;
    unsigned long long batch = 1;
    tl_prog = "rfl-report";
    memset(&cd, 0, sizeof cd);
    cd.mode = RFL_MODE_TRAIN;
    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : 0;
#define NEED() do { if (!v) tl_usage_error("%s needs a value", o); a++; } while (0)
        if (tl_is(o, "-h") || tl_is(o, "--help")) { fputs(usage, stdout); return 0; }
        else if (tl_is(o, "--model") || tl_is(o, "-m")) { NEED(); snprintf(model_arg, sizeof model_arg, "%s", v); }
        else if (tl_is(o, "--onnx")) { NEED(); tl_onnx_report_add(v); setting = 1; }
        else if (tl_is(o, "--hw")) { NEED(); snprintf(hw_arg, sizeof hw_arg, "%s", v); }
        else if (tl_is(o, "--ncu")) {
            const char *eq;
            NEED();
            if (n_ncu >= MAXM * 2) tl_usage_error("at most %d --ncu", MAXM);
            eq = strchr(v, '=');
            if (eq && !file_exists(v)) {
                static char keys[MAXM][64];
                snprintf(keys[n_ncu / 2], 64, "%.*s", (int)(eq - v), v);
                ncu_arg[n_ncu] = keys[n_ncu / 2];
                ncu_arg[n_ncu + 1] = eq + 1;
                n_ncu += 2;
            } else {
                ncu_arg[n_ncu++] = 0;
                ncu_arg[n_ncu++] = v;
            }
        } else if (tl_is(o, "--ncu-hw")) { NEED(); ncu_hw = v; }
        else if (tl_is(o, "--batch")) {
            setting = 1;
            char *end;
            NEED();
            errno = 0;
            batch = strtoull(v, &end, 10);
            if (*v == '-' || end == v || *end || errno || batch == 0 || batch > 1000000)
                tl_usage_error("--batch: '%s' is not a whole number from 1 to 1000000", v);
        } else if (tl_is(o, "--dtype")) {
            setting = 1;
            NEED();
            if (rfl_name_eq(v, "tf32")) {
                tf32 = 1;
                cd.dtype = RFL_DTYPE_FP32;
            } else if (rfl_dtype_parse(v, &cd.dtype) != RFL_OK)
                tl_usage_error("--dtype: unknown '%s' (fp32, tf32, fp16, bf16, int8)", v);
        } else if (tl_is(o, "--mode")) {
            setting = 1;
            NEED();
            if (tl_is(v, "train")) cd.mode = RFL_MODE_TRAIN;
            else if (tl_is(v, "infer") || tl_is(v, "inference")) cd.mode = RFL_MODE_INFER;
            else tl_usage_error("--mode: 'train' or 'infer', not '%s'", v);
        } else if (tl_is(o, "-o") || tl_is(o, "--out")) { NEED(); outdir = v; }
        else if (tl_is(o, "--json")) json_out = 1;
        else if (tl_is(o, "--explain")) explain = 1;
        else if (tl_is(o, "--ascii")) ascii = 1;
        else tl_usage_error("unknown option '%s'", o);
#undef NEED
    }
    if (!model_arg[0] && !hw_arg[0] && !n_ncu && !setting) {
        demo = 1;
        snprintf(model_arg, sizeof model_arg, "resnet18,alexnet");
        snprintf(hw_arg, sizeof hw_arg, "v100,a100,h100");
        ncu_arg[n_ncu++] = "resnet18";
        ncu_arg[n_ncu++] = demo_file(argv[0], "resnet18-b1-train-seed-raw.csv");
        ncu_arg[n_ncu++] = "alexnet";
        ncu_arg[n_ncu++] = demo_file(argv[0], "alexnet-b1-train-full-raw.csv");
        if (!outdir) outdir = file_exists("build/.") || file_exists("build/rfl-report") ? "build/demo" : "rfl-demo";
        if (!json_out)
            printf("rfl-report demo: the reports' exercise. ResNet-18 and AlexNet, batch 1, one training\n"
                   "step, FP32, on V100, A100 and H100; the measured points are real H100 profiles\n"
                   "(examples/data/). Same as:\n"
                   "  rfl-report --model resnet18,alexnet --hw v100,a100,h100 --batch 1 --mode train \\\n"
                   "    --ncu resnet18=%s --ncu alexnet=%s -o %s\n\n",
                   ncu_arg[1], ncu_arg[3], outdir);
    }
    tl_onnx_report_names(model_arg, sizeof model_arg);
    if (!model_arg[0]) tl_usage_error("--model is required (e.g. --model resnet18; rfl-estimate --list)");
    if (!hw_arg[0]) tl_usage_error("--hw is required (e.g. --hw a100,h100; rfl-hw lists machines)");
    cd.batch = batch;
    nm = split(model_arg, mnames, MAXM, "model");
    nh = split(hw_arg, hnames, MAXH, "hw");
    for (h = 0; h < nh; h++) {
        int g;
        hw[h] = tl_find_hw(hnames[h]);
        for (g = 0; g < h; g++)
            if (hw[g] == hw[h]) tl_usage_error("--hw names %s twice", hw[h]->id);
    }
    if (ncu_hw) { /* the measured machine gets a panel even when --hw forgot it */
        const rfl_machine *x = tl_find_hw(ncu_hw);
        for (h = 0; h < nh && hw[h] != x; h++) {}
        if (h == nh) {
            if (nh >= MAXH) tl_usage_error("at most %d machines with --ncu-hw", MAXH);
            hw[nh++] = x;
        }
    }
    for (i = 0; i < nm; i++) {
        models[i] = (model *)xmalloc(sizeof(model));
        memset(models[i], 0, sizeof(model));
        snprintf(models[i]->name, sizeof models[i]->name, "%s", mnames[i]);
        display_name(mnames[i], models[i]->disp, sizeof models[i]->disp);
        models[i]->meas_hw = -1;
    }
    for (i = 0; i < n_ncu; i += 2) {
        int k, found = -1;
        if (!ncu_arg[i]) {
            if (nm != 1) tl_usage_error("--ncu %s: with several models write --ncu MODEL=FILE", ncu_arg[i + 1]);
            found = 0;
        } else
            for (k = 0; k < nm; k++) if (rfl_name_eq(ncu_arg[i], models[k]->name)) found = k;
        if (found < 0) tl_usage_error("--ncu %s=...: '%s' is not one of --model", ncu_arg[i], ncu_arg[i]);
        if (models[found]->ncu) tl_usage_error("two profiles for %s", models[found]->name);
        models[found]->ncu = ncu_arg[i + 1];
    }
    for (i = 0; i < nm; i++) estimate(models[i]);
    for (i = 0; i < nm; i++) {
        model *m = models[i];
        if (!m->ncu) continue;
        load_profile(m);
        m->meas_hw = match_device(m);
        compare(m);
    }
    if (outdir) make_dir(outdir);
#ifdef RFL_HAS_PNG
    if (outdir) {
        chart_rooflines();
        for (i = 0; i < nm; i++) chart_layers(models[i]);
        for (i = 0; i < nm; i++) chart_bars(models[i]);
    }
#endif
    if (outdir) {
        char path[512];
        FILE *f;
        snprintf(path, sizeof path, "%s/report.json", outdir);
        f = fopen(path, "w");
        if (!f) tl_input_error(path, 0, 0, "cannot write: %s", strerror(errno));
        write_json(f);
        fclose(f);
    }
    if (json_out) { write_json(stdout); return 0; }

    for (h = 0; h < nh; h++) print_machine(h);
    for (i = 0; i < nm; i++) print_kinds(models[i]);
    for (i = 0; i < nm; i++) print_reasons(models[i]);
    printf("\n");
    if (explain) for (i = 0; i < nm; i++) explain_model(models[i]);
    if (ascii) {
        static rfl_point pts[4 * MAXM];
        static char text[RFL_ASCII_BYTES(80, 24)];
        rfl_roofline_desc d;
        int n = 0;
        h = 0;
        for (i = 0; i < nm; i++) if (models[i]->has_prof && models[i]->meas_hw >= 0) { h = models[i]->meas_hw; break; }
        n = model_points(pts, 0, 0, h);
        memset(&d, 0, sizeof d);
        d.machines = &hw[h];
        d.n_machines = 1;
        d.points = pts;
        d.n_points = n;
        d.prec = models[0]->est_prec;
        if (rfl_chart_roofline_ascii(text, sizeof text, 80, 24, &d) == RFL_OK)
            printf("Roofline of %s (text):\n%s\n", hw[h]->name, text);
    }
    printf("Conventions: a multiply-add = 2 FLOPs; G = 1e9, GB = 1e9 bytes; dense datasheet peaks;\n"
           "each work under the roof of its own precision. Estimates: per-layer formulas\n"
           "(rfl-estimate); measured: Nsight Compute counters summed over kernels (rfl-reduce).\n");
#ifdef RFL_HAS_PNG
    if (outdir) {
        printf("\nCharts and report.json in %s/:\n", outdir);
        for (i = 0; i < nwritten; i++) printf("  %s\n", written[i]);
        printf("  %s/report.json\n", outdir);
    }
#else
    if (outdir) printf("\n(no PNG support: stb_image_write.h was not found; wrote %s/report.json)\n", outdir);
#endif
    if (!outdir) printf("\n(no -o DIR: charts not written)\n");
    return 0;
}
