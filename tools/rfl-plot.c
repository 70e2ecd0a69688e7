/* rfl-plot - draw a roofline chart (PNG, or text with --ascii).

   rfl-plot --hw NAME[,NAME...] [--dtype D] [--point LABEL:AI:FLOPS[@HW]]...
            [--work FILE.json]... [--kernels] [--ceilings LIST]
            [--width W] [--height H] [--title T] [--ascii] [-o OUT.png]

   --work reads the JSON of rfl-estimate (an estimate: hollow marker) or of
   rfl-reduce (a measurement: filled marker), so the tools chain:
       rfl-estimate resnet18 --json > est.json
       rfl-reduce profile.csv --json > meas.json
       rfl-plot --hw a100 --work est.json --work meas.json=resnet18 -o r.png
   An estimate and a measurement of the same model name are joined. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* posix_memalign, madvise */
#endif
#define ROOFLINE_IMPLEMENTATION
#define RFL_PNG_REQUIRED 1 /* this tool draws PNGs: without stb, stop with the fix */
#include "roofline.h"
#include "tool.h"
#include <errno.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* Pixels and the PNG arena are ~10 MB for a 1600x1000 chart; touching them
   page by page costs more than drawing. On Linux, ask for huge pages
   (2 MiB-aligned, MADV_HUGEPAGE); elsewhere, or when refused, plain malloc. */
static void *big_alloc(size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *p = 0;
    size_t huge = (size_t)2 << 20, r = (n + huge - 1) / huge * huge;
    if (posix_memalign(&p, huge, r) == 0) {
        madvise(p, r, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(n);
}

#define MAXPTS 512
#define MAXLABEL 96

static rfl_point pts[MAXPTS];
static char labels[MAXPTS][MAXLABEL];
static int npts;
static const rfl_machine *machines[8];
static const rfl_machine *measured[8]; /* dashed beside machines[k] (--hw-file) */
static int nmach;

static void help(void) {
    printf("usage: rfl-plot --hw NAME[,NAME...] | --hw-file FILE[,...] [options] -o OUT.png\n"
           "Draw a roofline: one panel per machine, the roof min(peak, AI x BW) of\n"
           "the work's precision, its ridge, and your points.\n\n"
           "  --hw NAMES          machines, comma-separated (rfl-hw lists them)\n"
           "  --hw-file FILES     machine files, comma-separated (rfl-hw NAME --json,\n"
           "                      rfl-probe -o FILE): a panel each; a file's\n"
           "                      \"measured\" roof is drawn dashed beside its datasheet\n"
           "                      roof, and a file of a --hw machine (same id) joins\n"
           "                      that panel as its measured roof\n"
           "  --dtype D           precision of the work and its roof (default fp32;\n"
           "                      tf32, fp16, bf16, fp64, fp16_tensor, ...)\n"
           "  --point L:AI:FLOPS[@HW]  a point: label, FLOP/byte, achieved FLOP/s\n"
           "                      (on every panel, or only HW's); \"X measured\"\n"
           "                      and \"X estimate\" are joined\n"
           "  --work FILE.json[=NAME]  output of rfl-estimate --json (an estimate)\n"
           "                      or rfl-reduce --json (a measurement); NAME labels\n"
           "                      it (default: its \"model\" field or the file name)\n"
           "  --kernels           with rfl-reduce JSON: also its top kernels, sized\n"
           "                      by their share of time; with rfl-estimate JSON\n"
           "                      (a zoo model, an LLM's rows or --layers records):\n"
           "                      its layers, sized by their share of the FLOPs\n"
           "  --ceilings LIST     extra lighter ceilings: fp64,fp16,tensor,l2,l1,all\n"
           "  --width W --height H  image size in pixels (default 1200 x 800)\n"
           "  --title T           chart title\n"
           "  --ascii             print an 80x24 text chart per machine to stdout\n"
           "  -o OUT.png          the PNG to write (not needed with --ascii)\n");
}

/* "ResNet18 estimate" -> prefix length and kind: 1 estimate, 2 measured. */
static size_t label_kind(const char *full, int *kind) {
    static const char *const est[] = {"estimate", "estimated", "predicted", "prediction", "est"};
    static const char *const mea[] = {"measured", "measurement", "ncu", "profile", "profiled", "meas"};
    char l[MAXLABEL];
    size_t n, i;
    const char *sp;
    *kind = 0;
    snprintf(l, sizeof l, "%s", full);
    n = strlen(l);
    if (n && l[n - 1] == ')') { /* "X estimate (train)": look before the note */
        char *o = strstr(l, " (");
        if (o) { *o = 0; n = (size_t)(o - l); }
    }
    sp = strrchr(l, ' '); /* the last word says what it is */
    if (!sp) return n;
    for (i = 0; i < sizeof est / sizeof *est; i++)
        if (rfl_name_eq(sp + 1, est[i])) { *kind = 1; return (size_t)(sp - l); }
    for (i = 0; i < sizeof mea / sizeof *mea; i++)
        if (rfl_name_eq(sp + 1, mea[i])) { *kind = 2; return (size_t)(sp - l); }
    return n;
}

/* Join estimates and measurements of the same model (same name before
   "estimate"/"measured"): one link id, hence one colour, for all of them. */
static void link_points(void) {
    int i, j, next = 1;
    for (i = 0; i < npts; i++) {
        int ki, kj, found = 0;
        size_t ni = label_kind(pts[i].label, &ki);
        if (!ki || pts[i].link) continue;
        for (j = i + 1; j < npts; j++) {
            size_t nj = label_kind(pts[j].label, &kj);
            char a[MAXLABEL], b[MAXLABEL];
            if (!kj || pts[j].link || pts[j].weight > 0) continue;
            memcpy(a, pts[i].label, ni); a[ni] = 0;
            memcpy(b, pts[j].label, nj); b[nj] = 0;
            if (rfl_name_eq(a, b)) {
                pts[j].link = next;
                if (kj != ki) found = 1;
            }
        }
        if (found) pts[i].link = next++;
        else
            for (j = i + 1; j < npts; j++)
                if (pts[j].link == next) pts[j].link = 0;
    }
}

static rfl_point *new_point(const char *label) {
    rfl_point *p;
    if (npts >= MAXPTS) tl_usage_error("too many points (max %d)", MAXPTS);
    p = &pts[npts];
    memset(p, 0, sizeof *p);
    snprintf(labels[npts], MAXLABEL, "%s", label);
    p->label = labels[npts];
    npts++;
    return p;
}

static void add_point_arg(const char *full, rfl_prec prec) {
    const char *c2, *c1, *at;
    double ai, fl;
    char lab[MAXLABEL], arg[512];
    rfl_point *p;
    int kind, machine = RFL_ALL_MACHINES;
    snprintf(arg, sizeof arg, "%s", full);
    c2 = strrchr(arg, ':');
    at = c2 ? strchr(c2, '@') : 0;
    if (at) { /* LABEL:AI:FLOPS@MACHINE: only on that machine's panel */
        const rfl_machine *m;
        int k;
        for (k = 0; k < nmach; k++) /* a --hw-file machine by its id or name */
            if (rfl_name_eq(machines[k]->id, at + 1) || rfl_name_eq(machines[k]->name, at + 1)) machine = k;
        m = machine == RFL_ALL_MACHINES ? tl_find_hw(at + 1) : machines[machine];
        for (k = 0; k < nmach; k++)
            if (machines[k] == m) machine = k;
        if (machine == RFL_ALL_MACHINES)
            tl_usage_error("--point '%s': %s is not one of the --hw machines", full, at + 1);
        arg[at - arg] = 0;
    }
    if (!c2 || c2 == arg) tl_usage_error("--point wants LABEL:AI:FLOPS, got '%s'", arg);
    for (c1 = c2 - 1; c1 > arg && *c1 != ':'; c1--) {}
    if (*c1 != ':') tl_usage_error("--point wants LABEL:AI:FLOPS, got '%s'", arg);
    if (rfl_parse_num(c1 + 1, (size_t)(c2 - c1 - 1), &ai) != RFL_OK || !(ai > 0))
        tl_usage_error("--point '%s': AI must be a positive number (FLOP/byte)", arg);
    if (rfl_parse_num(c2 + 1, strlen(c2 + 1), &fl) != RFL_OK || !(fl > 0))
        tl_usage_error("--point '%s': FLOPS must be a positive number (FLOP/s, e.g. 3.35e11)", arg);
    snprintf(lab, sizeof lab, "%.*s", (int)(c1 - arg), arg);
    p = new_point(lab);
    p->ai = ai;
    p->flops_per_s = fl;
    p->prec = prec;
    p->machine = machine;
    label_kind(lab, &kind);
    p->estimate = kind == 1;
}

static double num_or(const rfl_json_doc *d, int obj, const char *path, double dflt) {
    double v;
    return rfl_json_num(d, rfl_json_path(d, obj, path), &v) ? v : dflt;
}

/* file stem: "runs/resnet18-b1.json" -> "resnet18-b1" */
static void stem(const char *path, char *out, size_t n) {
    const char *b = strrchr(path, '/'), *e;
    b = b ? b + 1 : path;
    e = strrchr(b, '.');
    if (!e || e == b) e = b + strlen(b);
    snprintf(out, n, "%.*s", (int)(e - b), b);
}

/* --kernels with an estimate: each distinct layer of its "layers" (records
   or LLM rows) at the roof of the estimate's precision, sized by its share
   of the FLOPs; repeated blocks give one point. */
static void add_layer_points(const rfl_json_doc *d, int root, const char *name, rfl_prec prec,
                             int train, double total) {
    int arr = rfl_json_get(d, root, "layers"), i, k, first = npts, j;
    char lab[MAXLABEL];
    if (arr < 0 || d->t[arr].type != RFL_JSON_ARR) return;
    snprintf(lab, sizeof lab, "%s layers", name);
    for (i = arr + 1; i < d->t[arr].after; i = d->t[i].after) {
        double f = num_or(d, i, "forward_flops", -1), b = num_or(d, i, "forward_bytes", -1);
        if (train) f += num_or(d, i, "backward_flops", 0), b += num_or(d, i, "backward_bytes", 0);
        if (!(f > 0) || !(b > 0)) continue;
        for (j = first; j < npts && !(pts[j].ai == f / b && pts[j].weight == f / total); j++) {}
        if (j < npts) continue;
        for (k = 0; k < nmach; k++) {
            rfl_point *p = new_point(lab);
            p->ai = f / b, p->prec = prec, p->machine = k, p->estimate = 1;
            p->weight = f / total;
            p->flops_per_s = rfl_attainable(machines[k], prec, RFL_DRAM, p->ai);
            if (!(p->flops_per_s > 0)) npts--;
        }
    }
}

static void add_work(const char *arg, rfl_prec prec, int prec_given, int kernels) {
    static rfl_json_tok toks[200000];
    rfl_json_doc d;
    size_t len;
    char path[1024], name[64], lab[MAXLABEL], dt[32], *src;
    const char *given = 0, *eq = strrchr(arg, '=');
    int root;
    /* FILE.json=LABEL names the model (unless a file has that whole name) */
    snprintf(path, sizeof path, "%s", arg);
    if (eq && !tl_file_exists(arg)) { path[eq - arg] = 0; given = eq + 1; }
    src = tl_read_file(path, RFL_CAP_WORK, &len);
    if (rfl_json_parse(&d, src, len, toks, (int)(sizeof toks / sizeof *toks)) == RFL_ERR_BUFFER)
        tl_input_error(path, 0, 0, "document too large for the token table");
    if (d.err.code) tl_error(path, &d.err);
    root = 0;
    if (d.t[root].type != RFL_JSON_OBJ) tl_input_error(path, 1, 1, "expected a JSON object");
    if (rfl_json_get(&d, root, "forward") >= 0) {
        /* rfl-estimate: an estimate, forward (or forward + backward when
           the mode is train) */
        double fl = num_or(&d, root, "forward.flops", -1), by = num_or(&d, root, "forward.bytes", -1);
        double t = num_or(&d, root, "predicted_time_s", -1);
        char mode[16] = "", hw[64] = "";
        int k, train;
        rfl_json_str(&d, rfl_json_get(&d, root, "mode"), mode, sizeof mode);
        rfl_json_str(&d, rfl_json_get(&d, root, "hw"), hw, sizeof hw);
        train = rfl_name_eq(mode, "train");
        if (train) {
            double bf = num_or(&d, root, "backward.flops", -1), bb = num_or(&d, root, "backward.bytes", -1);
            if (bf < 0 || bb < 0)
                tl_input_error(path, rfl_json_line(&d, rfl_json_get(&d, root, "backward")), 0,
                               "mode is train but backward.flops/bytes are missing");
            fl += bf;
            by += bb;
        }
        if (!(fl > 0) || !(by > 0))
            tl_input_error(path, rfl_json_line(&d, rfl_json_get(&d, root, "forward")), 0,
                           "forward.flops and forward.bytes must be positive numbers");
        if (given) snprintf(name, sizeof name, "%s", given);
        else if (!rfl_json_str(&d, rfl_json_get(&d, root, "model"), name, sizeof name)) stem(path, name, sizeof name);
        /* an LLM estimate names the roof of its matrix FLOPs ("prec") */
        if (!prec_given && rfl_json_str(&d, rfl_json_get(&d, root, "prec"), dt, sizeof dt) &&
            rfl_prec_parse(dt, &prec) == RFL_OK)
            prec_given = 1;
        if (!prec_given && rfl_json_str(&d, rfl_json_get(&d, root, "dtype"), dt, sizeof dt) &&
            rfl_prec_parse(dt, &prec) != RFL_OK)
            prec = RFL_FP32;
        snprintf(lab, sizeof lab, "%s estimate%s", name, train ? " (train)" : "");
        for (k = 0; k < nmach; k++) {
            rfl_point *p;
            const rfl_machine *hm;
            int here = 0;
            if (t > 0 && hw[0] && rfl_hw_find(hw, &hm) == RFL_OK) here = hm == machines[k];
            p = new_point(lab);
            p->ai = fl / by;
            p->prec = prec;
            p->machine = k;
            p->estimate = 1;
            /* the predicted time is for its own machine; elsewhere the roof */
            p->flops_per_s = here ? fl / t : rfl_attainable(machines[k], prec, RFL_DRAM, p->ai);
            if (!(p->flops_per_s > 0)) npts--; /* no roof of that precision: nothing to place */
        }
        if (kernels) add_layer_points(&d, root, name, prec, train, fl);
    } else if (rfl_json_get(&d, root, "kernels") >= 0 || rfl_json_get(&d, root, "format") >= 0) {
        /* rfl-reduce: a measurement */
        double total = num_or(&d, root, "flops.total", -1), dram = num_or(&d, root, "bytes.dram", -1);
        double time_s = num_or(&d, root, "time_s", -1), ai = num_or(&d, root, "ai.dram", -1);
        double fps = num_or(&d, root, "flops_per_s", -1);
        double f64 = num_or(&d, root, "flops.fp64", 0), f32 = num_or(&d, root, "flops.fp32", 0);
        double f16 = num_or(&d, root, "flops.fp16", 0), ften = num_or(&d, root, "flops.tensor", 0);
        rfl_point *p;
        if (!(ai > 0) && total > 0 && dram > 0) ai = total / dram;
        if (!(fps > 0) && total > 0 && time_s > 0) fps = total / time_s;
        if (!(ai > 0) || !(fps > 0))
            tl_input_error(path, 1, 0,
                           "needs ai.dram (or flops.total and bytes.dram) and flops_per_s (or "
                           "flops.total and time_s); a null means the profile lacked those metrics");
        if (given) snprintf(name, sizeof name, "%s", given);
        else if (!rfl_json_str(&d, rfl_json_get(&d, root, "model"), name, sizeof name) &&
                 !rfl_json_str(&d, rfl_json_get(&d, root, "label"), name, sizeof name))
            stem(path, name, sizeof name);
        if (!prec_given) {
            if (rfl_json_str(&d, rfl_json_get(&d, root, "dtype"), dt, sizeof dt) && rfl_prec_parse(dt, &prec) == RFL_OK) {
            } else if (ften > f32 && ften > f64 && ften > f16) {
                prec = RFL_TF32_TENSOR;
                fprintf(stderr, "rfl-plot: %s: mostly tensor-core FLOPs: drawn under the TF32 tensor roof "
                                "(use --dtype fp16_tensor or bf16_tensor if the run used those)\n", path);
            } else if (f64 > f32 && f64 > f16) prec = RFL_FP64;
            else if (f16 > f32) prec = RFL_FP16;
            else prec = RFL_FP32;
        }
        snprintf(lab, sizeof lab, "%s measured", name);
        p = new_point(lab);
        p->ai = ai;
        p->flops_per_s = fps;
        p->prec = prec;
        p->machine = RFL_ALL_MACHINES;
        {   /* measured on a named machine: only that panel */
            char hw[64];
            const rfl_machine *hm;
            int k;
            if (rfl_json_str(&d, rfl_json_get(&d, root, "hw"), hw, sizeof hw) && rfl_hw_find(hw, &hm) == RFL_OK)
                for (k = 0; k < nmach; k++)
                    if (machines[k] == hm) p->machine = k;
        }
        if (kernels) {
            int top = rfl_json_get(&d, root, "top"), i;
            if (top >= 0 && d.t[top].type == RFL_JSON_ARR) {
                char klab[MAXLABEL];
                snprintf(klab, sizeof klab, "%s kernels", name);
                for (i = top + 1; i < d.t[top].after; i = d.t[i].after) {
                    double kt = num_or(&d, i, "time_s", -1), kf = num_or(&d, i, "flops_per_s", -1);
                    double kai = num_or(&d, i, "ai", -1), kfl, kby;
                    if (!(kai > 0)) kai = num_or(&d, i, "ai_dram", -1);
                    if (!(kai > 0)) kai = num_or(&d, i, "ai.dram", -1);
                    kfl = num_or(&d, i, "flops", -1);
                    if (!(kfl > 0)) kfl = num_or(&d, i, "flops.total", -1);
                    kby = num_or(&d, i, "bytes_dram", -1);
                    if (!(kby > 0)) kby = num_or(&d, i, "bytes", -1);
                    if (!(kby > 0)) kby = num_or(&d, i, "bytes.dram", -1);
                    if (!(kai > 0) && kfl > 0 && kby > 0) kai = kfl / kby;
                    if (!(kf > 0) && kfl > 0 && kt > 0) kf = kfl / kt;
                    if (!(kai > 0) || !(kf > 0)) continue;
                    p = new_point(klab);
                    p->ai = kai;
                    p->flops_per_s = kf;
                    p->prec = prec;
                    p->machine = RFL_ALL_MACHINES;
                    p->weight = time_s > 0 && kt > 0 ? kt / time_s : 0.05;
                }
            }
        }
    } else {
        tl_input_error(path, 1, 1, "not rfl-estimate or rfl-reduce JSON (no \"forward\" or \"kernels\")");
    }
    free(src);
}

static int write_file_cb(void *user, const void *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *hw = 0, *out = 0, *title = 0, *ceil = 0, *dtype = 0;
    const char *works[64];
    const char *points[MAXPTS];
    int nworks = 0, npoints = 0, i, w = 1200, h = 800, ascii = 0, kernels = 0;
    rfl_prec prec = RFL_FP32;
    rfl_roofline_desc d;
    rfl_result r;
    tl_prog = "rfl-plot";
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (tl_is(a, "--help") || tl_is(a, "-h")) { help(); return 0; }
        else if (tl_is(a, "--ascii")) ascii = 1;
        else if (tl_is(a, "--kernels")) kernels = 1;
        else if (!more && (tl_is(a, "--hw") || tl_is(a, "--dtype") || tl_is(a, "--point") ||
                           tl_is(a, "--work") || tl_is(a, "--width") || tl_is(a, "--height") ||
                           tl_is(a, "--title") || tl_is(a, "-o") || tl_is(a, "--ceilings")))
            tl_usage_error("%s needs a value", a);
        else if (tl_is(a, "--hw")) hw = argv[++i];
        else if (tl_hw_file_option(a, more ? argv[i + 1] : 0)) i++;
        else if (tl_is(a, "--dtype")) dtype = argv[++i];
        else if (tl_is(a, "--point")) { if (npoints < MAXPTS) points[npoints++] = argv[++i]; else i++; }
        else if (tl_is(a, "--work")) { if (nworks < 64) works[nworks++] = argv[++i]; else i++; }
        else if (tl_is(a, "--width")) w = atoi(argv[++i]);
        else if (tl_is(a, "--height")) h = atoi(argv[++i]);
        else if (tl_is(a, "--title")) title = argv[++i];
        else if (tl_is(a, "--ceilings")) ceil = argv[++i];
        else if (tl_is(a, "-o")) out = argv[++i];
        else tl_usage_error("unknown argument '%s'", a);
    }
    if (!hw && !tl_hw_files) tl_usage_error("--hw NAME or --hw-file FILE is required (rfl-hw lists the machines)");
    if (!out && !ascii) tl_usage_error("-o OUT.png is required (or --ascii)");
    if (w < 64 || h < 64 || w > 8192 || h > 8192) tl_usage_error("--width/--height must be 64..8192");
    if (dtype && rfl_prec_parse(dtype, &prec) != RFL_OK)
        tl_usage_error("unknown --dtype '%s' (fp32, tf32, fp16, bf16, fp64, ...)", dtype);
    nmach = tl_machines(hw, machines, measured, 8); /* --hw and --hw-file */
    if (!nmach) tl_usage_error("--hw needs at least one machine");
    for (i = 0; i < npoints; i++) add_point_arg(points[i], prec);
    for (i = 0; i < nworks; i++) add_work(works[i], prec, dtype != 0, kernels);
    link_points();
    for (i = 0; i < nmach; i++) {
        if (!(machines[i]->peak_flops[prec] > 0) && npts == 0)
            tl_input_error(0, 0, 0, "%s has no %s roof; choose another --dtype", machines[i]->id,
                           rfl_prec_name(prec));
    }

    {   /* default title names the precision whose roof is drawn */
        static char deftitle[64];
        snprintf(deftitle, sizeof deftitle, "Roofline (%s)", rfl_prec_name(prec));
        tl_roofline_desc(&d, title ? title : deftitle, machines, measured, nmach, pts, npts, prec);
    }
    if (ceil) {
        size_t bad = 0;
        if (rfl_ceilings_parse(ceil, prec, &d.extra_precs, &d.extra_levels, &bad) != RFL_OK)
            tl_usage_error("--ceilings: unknown ceiling '%.*s' (fp64, fp16, tensor, l2, l1, all)",
                           (int)strcspn(ceil + bad, ","), ceil + bad);
        tl_warn_missing_levels(&d);
    }

    if (ascii) { /* one 80x24 chart per machine, with that machine's points */
        static char text[RFL_ASCII_BYTES(80, 24)];
        static rfl_point mine[MAXPTS];
        int k;
        for (k = 0; k < nmach; k++) {
            rfl_roofline_desc one = d;
            int n = 0;
            for (i = 0; i < npts; i++)
                if (pts[i].machine == k || pts[i].machine == RFL_ALL_MACHINES) {
                    mine[n] = pts[i];
                    mine[n++].machine = 0;
                }
            one.machines = &machines[k];
            one.measured = &measured[k];
            one.n_machines = 1;
            one.points = mine;
            one.n_points = n;
            r = rfl_chart_roofline_ascii(text, sizeof text, 80, 24, &one);
            if (r != RFL_OK && r != RFL_ERR_NO_ROOF)
                tl_input_error(0, 0, 0, "text chart: %s", rfl_result_str(r));
            if (k) fputc('\n', stdout);
            fputs(text, stdout);
        }
    }
    if (out) {
        size_t px = RFL_CANVAS_BYTES(w, h, 3), an = rfl_png_arena_size(w, h, 3);
        unsigned char *pixels = (unsigned char *)big_alloc(px), *arena = (unsigned char *)big_alloc(an);
        rfl_canvas c;
        FILE *f;
        if (!pixels || !arena) tl_input_error(0, 0, 0, "out of memory for a %dx%d image", w, h);
        rfl_canvas_init(&c, pixels, px, w, h, 3, 0);
        r = rfl_chart_roofline(&c, &d);
        if (r == RFL_ERR_NO_ROOF)
            fprintf(stderr, "rfl-plot: warning: a machine has no roof for a point's precision; "
                            "those points are drawn without one\n");
        else if (r != RFL_OK) tl_input_error(0, 0, 0, "chart: %s", rfl_result_str(r));
        f = strcmp(out, "-") ? fopen(out, "wb") : stdout;
        if (!f) tl_input_error(out, 0, 0, "cannot write: %s", strerror(errno));
        r = rfl_png_write(&c, arena, an, write_file_cb, f);
        if (f != stdout && fclose(f) != 0 && r == RFL_OK) r = RFL_ERR_IO;
        if (r != RFL_OK) tl_input_error(out, 0, 0, "PNG: %s", rfl_result_str(r));
        free(pixels);
        free(arena);
    }
    return 0;
}
