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
#include "report_llm.h" /* decoder LLMs: --llm / --hf-config (issue 17) */
#include <errno.h>
#include <math.h>

#define MAXM 8 /* models */
#define MAXH 8 /* machines */

static const char *usage =
    "usage: rfl-report --model M[,M...] --hw NAME[,NAME...] [--ncu M=FILE]...\n"
    "                  [--ncu-hw NAME] [--batch N] [--dtype D] [--mode train|infer]\n"
    "                  [-o DIR] [--json] [--explain] [--ascii] [--ceilings LIST]\n"
    "       rfl-report            (no arguments: the demo, see below)\n"
    "Estimate each model's FLOPs and bytes (rfl-estimate's formulas), reduce its\n"
    "Nsight Compute profile (rfl-reduce), and put both on the roofline of each\n"
    "machine: a table per machine, a comparison by layer type, charts and JSON.\n\n"
    "  --model M,...    zoo models (rfl-estimate --list), at most 8; a decoder LLM\n"
    "                   name is one prefill of 512 tokens per sequence as layer\n"
    "                   records (logits on the last position; --mode train: on\n"
    "                   every one), eager attention (--phase/--seq: the --llm\n"
    "                   report, causal attention and storage types)\n"
    "  --onnx FILE      also a model from an ONNX file, named after it (repeatable)\n"
    "  --dim NAME=V     value of the symbolic dim NAME of the --onnx inputs\n"
    "                   (repeatable; --batch sets the batch axis)\n"
    "  --hw NAME,...    machines, one table and one chart each (rfl-hw lists them)\n"
    "  --hw-file F,...  machine files (rfl-hw NAME --json, rfl-probe -o F): a machine\n"
    "                   each; measured ceilings are drawn dashed beside the\n"
    "                   datasheet roof (a file of a --hw machine joins its chart)\n"
    "  --ncu M=FILE     the profile of model M: ncu --csv --page raw (or details,\n"
    "                   or nvprof) of the same batch and mode; --ncu FILE when\n"
    "                   there is one model\n"
    "  --ncu-hw NAME    the machine the profiles ran on (joins --hw). Default:\n"
    "                   the profile's GPU (device__attribute_display_name), of\n"
    "                   its memory size and form factor, joining --hw with a\n"
    "                   device_mismatch warning (one the table lacks: unplaced);\n"
    "                   no device name: the first --hw. Measurements go only on\n"
    "                   their own machine, estimates on every machine.\n"
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
    "                   profile{file, device, machine, device_warning, device_\n"
    "                   warning_text, kernels, time_s, flops{fp64, fp32, fp16,\n"
    "                   tensor, total}, bytes{dram, l2, l1}, ai{...},\n"
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
    "  --ceilings LIST  extra lighter ceilings on the rooflines: fp64, fp16,\n"
    "                   tensor, l2, l1, all (a machine without a level says so)\n"
    "Demo (no arguments): --model resnet18,alexnet --batch 1 --mode train\n"
    "  --hw v100,a100,h100 --ncu resnet18=examples/data/resnet18-b1-train-seed-raw.csv\n"
    "  --ncu alexnet=examples/data/alexnet-b1-train-full-raw.csv -o build/demo\n"
    "Exit: 0 done, 1 bad input (unknown model, machine or file; bad profile),\n"
    "2 bad usage.\n";

/* --ceilings LIST: extra ceilings on the roofline charts (rfl-plot's). */
static const char *ceilings_arg;
static void report_ceilings(rfl_roofline_desc *d) {
    if (ceilings_arg) rfl_ceilings_parse(ceilings_arg, d->prec, &d->extra_precs, &d->extra_levels, 0);
}

#include "report_model.h"  /* state, estimate, profile, comparison */
#include "report_tables.h" /* tables on stdout, --explain */
#include "report_charts.h" /* PNG charts */
#include "report_json.h"   /* report.json */

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

/* The demo's data: examples/data/ from the current directory, else beside
   the executable (build/rfl-report -> ../examples/data). */
static const char *demo_file(const char *argv0, const char *name) {
    static char bufs[2][1024];
    static int k;
    char *b = bufs[k++ & 1];
    const char *slash;
    snprintf(b, 1024, "examples/data/%s", name);
    if (tl_file_exists(b)) return b;
    slash = strrchr(argv0, '/');
    if (slash) {
        snprintf(b, 1024, "%.*s/../examples/data/%s", (int)(slash - argv0), argv0, name);
        if (tl_file_exists(b)) return b;
    }
    tl_input_error(0, 0, 0, "demo data examples/data/%s not found: run rfl-report from the "
                   "project directory (make demo does)", name);
    return 0;
}

/* The command line, as given. */
typedef struct args {
    char model[512], hw[512];
    const char *ncu[MAXM * 2]; /* pairs: model key (0 = the only model), file */
    int n_ncu;
    int setting;               /* --batch, --dtype or --mode given */
    unsigned long long batch;
} args;

static void add_ncu(args *A, const char *v) {
    static char keys[MAXM][64];
    const char *eq = strchr(v, '=');
    if (A->n_ncu >= MAXM * 2) tl_usage_error("at most %d --ncu", MAXM);
    if (eq && !tl_file_exists(v)) { /* MODEL=FILE, unless a file has that whole name */
        char *key = keys[A->n_ncu / 2];
        snprintf(key, 64, "%.*s", (int)(eq - v), v);
        A->ncu[A->n_ncu++] = key;
        A->ncu[A->n_ncu++] = eq + 1;
    } else {
        A->ncu[A->n_ncu++] = 0;
        A->ncu[A->n_ncu++] = v;
    }
}

static unsigned long long parse_batch(const char *v) {
    char *end;
    unsigned long long b;
    errno = 0;
    b = strtoull(v, &end, 10);
    if (*v == '-' || end == v || *end || errno || b == 0 || b > 1000000)
        tl_usage_error("--batch: '%s' is not a whole number from 1 to 1000000", v);
    return b;
}

static void parse_dtype(const char *v) {
    if (rfl_dtype_parse(v, &cd.dtype) != RFL_OK || cd.dtype == RFL_DTYPE_INT4)
        tl_usage_error("--dtype: unknown '%s' (fp32, tf32, fp16, bf16, fp8, int8)", v);
}

static void parse_mode(const char *v) {
    if (tl_is(v, "train")) cd.mode = RFL_MODE_TRAIN;
    else if (tl_is(v, "infer") || tl_is(v, "inference")) cd.mode = RFL_MODE_INFER;
    else tl_usage_error("--mode: 'train' or 'infer', not '%s'", v);
}

static void parse_args(int argc, char **argv, args *A) {
    int a;
    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : 0;
#define NEED() do { if (!v) tl_usage_error("%s needs a value", o); a++; } while (0)
        if (tl_is(o, "-h") || tl_is(o, "--help")) { fputs(usage, stdout); exit(0); }
        else if (tl_is(o, "--model") || tl_is(o, "-m")) { NEED(); snprintf(A->model, sizeof A->model, "%s", v); }
        else if (tl_is(o, "--onnx")) { NEED(); tl_onnx_report_add(v); A->setting = 1; }
        else if (tl_is(o, "--dim")) { NEED(); tl_onnx_add_dim(&tl_onnx_report_dims, v); }
        else if (tl_is(o, "--hw")) { NEED(); snprintf(A->hw, sizeof A->hw, "%s", v); }
        else if (tl_hw_file_option(o, v)) a++;
        else if (tl_is(o, "--ncu")) { NEED(); add_ncu(A, v); }
        else if (tl_is(o, "--ncu-hw")) { NEED(); ncu_hw = v; }
        else if (tl_is(o, "--batch")) { NEED(); A->batch = parse_batch(v); A->setting = 1; }
        else if (tl_is(o, "--dtype")) { NEED(); parse_dtype(v); A->setting = 1; }
        else if (tl_is(o, "--mode")) { NEED(); parse_mode(v); A->setting = 1; }
        else if (tl_is(o, "-o") || tl_is(o, "--out")) { NEED(); outdir = v; }
        else if (tl_is(o, "--json")) json_out = 1;
        else if (tl_is(o, "--explain")) explain = 1;
        else if (tl_is(o, "--ascii")) ascii = 1;
        else if (tl_is(o, "--ceilings")) {
            unsigned pr, lv;
            size_t bad = 0;
            NEED();
            if (rfl_ceilings_parse(v, RFL_FP32, &pr, &lv, &bad) != RFL_OK)
                tl_usage_error("--ceilings: unknown ceiling '%.*s' (fp64, fp16, tensor, l2, l1, all)",
                               (int)strcspn(v + bad, ","), v + bad);
            ceilings_arg = v;
        }
        else tl_usage_error("unknown option '%s'", o);
#undef NEED
    }
}

/* No arguments: the reports' exercise on the shipped profiles. */
static void demo_args(const char *argv0, args *A) {
    demo = 1;
    snprintf(A->model, sizeof A->model, "resnet18,alexnet");
    snprintf(A->hw, sizeof A->hw, "v100,a100,h100");
    A->ncu[A->n_ncu++] = "resnet18";
    A->ncu[A->n_ncu++] = demo_file(argv0, "resnet18-b1-train-seed-raw.csv");
    A->ncu[A->n_ncu++] = "alexnet";
    A->ncu[A->n_ncu++] = demo_file(argv0, "alexnet-b1-train-full-raw.csv");
    if (!outdir)
        outdir = tl_file_exists("build/.") || tl_file_exists("build/rfl-report") ? "build/demo" : "rfl-demo";
    if (!json_out)
        printf("rfl-report demo: the reports' exercise. ResNet-18 and AlexNet, batch 1, one training\n"
               "step, FP32, on V100, A100 and H100; the measured points are real H100 profiles\n"
               "(examples/data/). Same as:\n"
               "  rfl-report --model resnet18,alexnet --hw v100,a100,h100 --batch 1 --mode train \\\n"
               "    --ncu resnet18=%s --ncu alexnet=%s -o %s\n\n",
               A->ncu[1], A->ncu[3], outdir);
}

/* --hw names and --hw-file files (each machine once), plus the measured
   machine when --hw forgot it. */
static void pick_machines(char *hw_arg) {
    int h, g;
    nh = tl_machines(hw_arg, hw, hw_measured, MAXH); /* --hw NAME,... and --hw-file FILE,... */
    if (!nh) tl_usage_error("--hw needs at least one name");
    for (h = 0; h < nh; h++) {
        for (g = 0; g < h; g++)
            if (hw[g] == hw[h]) tl_usage_error("--hw names %s twice", hw[h]->id);
    }
    if (ncu_hw) {
        const rfl_machine *x = tl_find_hw(ncu_hw);
        for (h = 0; h < nh && hw[h] != x; h++) {}
        if (h == nh) {
            if (nh >= MAXH) tl_usage_error("at most %d machines with --ncu-hw", MAXH);
            hw[nh++] = x;
        }
    }
}

static void make_models(char *model_arg) {
    char *mnames[MAXM];
    int i;
    nm = split(model_arg, mnames, MAXM, "model");
    for (i = 0; i < nm; i++) {
        models[i] = (model *)tl_xmalloc(sizeof(model));
        memset(models[i], 0, sizeof(model));
        snprintf(models[i]->name, sizeof models[i]->name, "%s", mnames[i]);
        display_name(mnames[i], models[i]->disp, sizeof models[i]->disp);
        models[i]->meas_hw = -1;
    }
}

/* Each --ncu FILE to its model. */
static void assign_profiles(const args *A) {
    int i, k, found;
    for (i = 0; i < A->n_ncu; i += 2) {
        const char *key = A->ncu[i], *file = A->ncu[i + 1];
        found = -1;
        if (!key) {
            if (nm != 1) tl_usage_error("--ncu %s: with several models write --ncu MODEL=FILE", file);
            found = 0;
        } else
            for (k = 0; k < nm; k++) if (rfl_parse_name_eq(key, models[k]->name)) found = k;
        if (found < 0) tl_usage_error("--ncu %s=...: '%s' is not one of --model", key, key);
        if (models[found]->ncu) tl_usage_error("two profiles for %s", models[found]->name);
        models[found]->ncu = file;
    }
}

/* The work: profiles first (a profile's own machine may join --hw), then
   estimates on every machine, then each profile against its estimate. */
static void gather(void) {
    int i;
    for (i = 0; i < nm; i++) {
        if (!models[i]->ncu) continue;
        load_profile(models[i]);
        models[i]->meas_hw = match_device(models[i]);
    }
    for (i = 0; i < nm; i++) estimate(models[i]);
    for (i = 0; i < nm; i++) compare(models[i]);
}

/* Charts and report.json into -o DIR. */
static void write_outputs(void) {
    char path[512];
    FILE *f;
    tl_make_dir(outdir);
#ifdef RFL_HAS_PNG
    {
        int i;
        chart_rooflines();
        for (i = 0; i < nm; i++) chart_layers(models[i]);
        for (i = 0; i < nm; i++) chart_bars(models[i]);
    }
#endif
    snprintf(path, sizeof path, "%s/report.json", outdir);
    f = fopen(path, "w");
    if (!f) tl_input_error(path, 0, 0, "cannot write: %s", strerror(errno));
    write_json(f);
    fclose(f);
}

/* --ascii: the measured machine's roofline (else the first --hw) as text. */
static void print_ascii(void) {
    static rfl_point pts[4 * MAXM];
    static char text[RFL_ASCII_BYTES(80, 24)];
    rfl_roofline_desc d;
    int i, h = 0, n;
    for (i = 0; i < nm; i++)
        if (models[i]->has_prof && models[i]->meas_hw >= 0) { h = models[i]->meas_hw; break; }
    n = model_points(pts, 0, 0, h);
    tl_roofline_desc(&d, 0, &hw[h], &hw_measured[h], 1, pts, n, models[0]->est_prec);
    report_ceilings(&d);
    if (rfl_chart_roofline_ascii(text, sizeof text, 80, 24, &d) == RFL_OK)
        printf("Roofline of %s (text):\n%s\n", hw[h]->name, text);
}

static void print_written(void) {
#ifdef RFL_HAS_PNG
    int i;
    if (!outdir) return;
    printf("\nCharts and report.json in %s/:\n", outdir);
    for (i = 0; i < nwritten; i++) printf("  %s\n", written[i]);
    printf("  %s/report.json\n", outdir);
#else
    if (outdir) printf("\n(no PNG support: stb_image_write.h was not found; wrote %s/report.json)\n", outdir);
#endif
}

static void print_report(void) {
    int i, h;
    for (h = 0; h < nh; h++) print_machine(h);
    for (i = 0; i < nm; i++) print_kinds(models[i]);
    for (i = 0; i < nm; i++) print_reasons(models[i]);
    printf("\n");
    if (explain) for (i = 0; i < nm; i++) explain_model(models[i]);
    if (ascii) print_ascii();
    printf("Conventions: a multiply-add = 2 FLOPs; G = 1e9, GB = 1e9 bytes; dense datasheet peaks;\n"
           "each work under the roof of its own precision. Estimates: per-layer formulas\n"
           "(rfl-estimate); measured: Nsight Compute counters summed over kernels (rfl-reduce).\n");
    print_written();
    if (!outdir) printf("\n(no -o DIR: charts not written)\n");
}

int main(int argc, char **argv) {
    static args A;
    tl_prog = "rfl-report";
    if (rl_wanted(argc, argv)) return rl_main(argc, argv); /* decoder LLMs */
    memset(&cd, 0, sizeof cd);
    cd.dtype = RFL_DTYPE_FP32;
    cd.mode = RFL_MODE_TRAIN;
    A.batch = 1;
    parse_args(argc, argv, &A);
    if (!A.model[0] && !A.hw[0] && !tl_hw_files && !A.n_ncu && !A.setting) demo_args(argv[0], &A);
    tl_onnx_report_names(A.model, sizeof A.model);
    if (!A.model[0]) tl_usage_error("--model is required (e.g. --model resnet18; rfl-estimate --list)");
    if (!A.hw[0] && !tl_hw_files) tl_usage_error("--hw is required (e.g. --hw a100,h100; rfl-hw lists machines)");
    cd.batch = A.batch;
    make_models(A.model);
    pick_machines(A.hw);
    if (ceilings_arg) { /* a level asked for and not known: said once per machine */
        rfl_roofline_desc d;
        tl_roofline_desc(&d, 0, hw, hw_measured, nh, 0, 0, RFL_FP32);
        report_ceilings(&d);
        tl_warn_missing_levels(&d);
    }
    assign_profiles(&A);
    gather();
    if (outdir) write_outputs();
    if (json_out) { write_json(stdout); return 0; }
    print_report();
    return 0;
}
