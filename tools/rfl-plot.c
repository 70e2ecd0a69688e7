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
#include "cli.h"
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

enum { OPT_DTYPE = 1, OPT_POINT, OPT_WORK, OPT_KERNELS, OPT_CEILINGS, OPT_WIDTH, OPT_HEIGHT,
	   OPT_TITLE, OPT_ASCII, OPT_OUT };
static const cli_opt opts[] = {
	{"--dtype", "D", OPT_DTYPE}, {"--point", "L:AI:FLOPS[@HW]", OPT_POINT},
	{"--work", "FILE.json[=NAME]", OPT_WORK}, {"--kernels", 0, OPT_KERNELS},
	{"--ceilings", "LIST", OPT_CEILINGS}, {"--width", "W", OPT_WIDTH}, {"--height", "H", OPT_HEIGHT},
	{"--title", "T", OPT_TITLE}, {"--ascii", 0, OPT_ASCII}, {"-o", "OUT.png", OPT_OUT}, {0, 0, 0}};
static const cli_opt *const tables[] = {opts, cli_machine_opts, 0};

/* The chart being built: its machines and points. */
typedef struct plot {
	cli *c;
	rfl_point pts[MAXPTS];
	char labels[MAXPTS][MAXLABEL];
	int npts;
	const rfl_machine *machines[8];
	const rfl_machine *measured[8]; /* dashed beside machines[k] (--hw-file) */
	int nmach;
} plot;

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
		if (rfl_parse_name_eq(sp + 1, est[i])) { *kind = 1; return (size_t)(sp - l); }
	for (i = 0; i < sizeof mea / sizeof *mea; i++)
		if (rfl_parse_name_eq(sp + 1, mea[i])) { *kind = 2; return (size_t)(sp - l); }
	return n;
}

/* Join estimates and measurements of the same model (same name before
   "estimate"/"measured"): one link id, hence one colour, for all of them. */
static void link_points(plot *P) {
	rfl_point *pts = P->pts;
	int i, j, next = 1;
	for (i = 0; i < P->npts; i++) {
		int ki, kj, found = 0;
		size_t ni = label_kind(pts[i].label, &ki);
		if (!ki || pts[i].link) continue;
		for (j = i + 1; j < P->npts; j++) {
			size_t nj = label_kind(pts[j].label, &kj);
			char a[MAXLABEL], b[MAXLABEL];
			if (!kj || pts[j].link || pts[j].weight > 0) continue;
			memcpy(a, pts[i].label, ni); a[ni] = 0;
			memcpy(b, pts[j].label, nj); b[nj] = 0;
			if (rfl_parse_name_eq(a, b)) {
				pts[j].link = next;
				if (kj != ki) found = 1;
			}
		}
		if (found) pts[i].link = next++;
		else
			for (j = i + 1; j < P->npts; j++)
				if (pts[j].link == next) pts[j].link = 0;
	}
}

static rfl_point *new_point(plot *P, const char *label) {
	rfl_point *p;
	if (P->npts >= MAXPTS) cli_usage_error(P->c, "too many points (max %d)", MAXPTS);
	p = &P->pts[P->npts];
	memset(p, 0, sizeof *p);
	snprintf(P->labels[P->npts], MAXLABEL, "%s", label);
	p->label = P->labels[P->npts];
	P->npts++;
	return p;
}

/* The panel of "@MACHINE": a --hw-file machine by its id or name, else a
   table machine that is one of the panels (exit 2 when none is). */
static int panel_of(plot *P, const char *name, const char *full) {
	const rfl_machine *m;
	int k, machine = RFL_ALL_MACHINES;
	for (k = 0; k < P->nmach; k++)
		if (rfl_parse_name_eq(P->machines[k]->id, name) || rfl_parse_name_eq(P->machines[k]->name, name)) machine = k;
	m = machine == RFL_ALL_MACHINES ? cli_find_hw(P->c, name) : P->machines[machine];
	for (k = 0; k < P->nmach; k++)
		if (P->machines[k] == m) machine = k;
	if (machine == RFL_ALL_MACHINES)
		cli_usage_error(P->c, "--point '%s': %s is not one of the --hw machines", full, name);
	return machine;
}

static void add_point_arg(plot *P, const char *full, rfl_prec prec) {
	const char *c2, *c1, *at;
	double ai, fl;
	char lab[MAXLABEL], arg[512];
	rfl_point *p;
	int kind, machine = RFL_ALL_MACHINES;
	snprintf(arg, sizeof arg, "%s", full);
	c2 = strrchr(arg, ':');
	at = c2 ? strchr(c2, '@') : 0;
	if (at) { /* LABEL:AI:FLOPS@MACHINE: only on that machine's panel */
		machine = panel_of(P, at + 1, full);
		arg[at - arg] = 0;
	}
	if (!c2 || c2 == arg) cli_usage_error(P->c, "--point wants LABEL:AI:FLOPS, got '%s'", arg);
	for (c1 = c2 - 1; c1 > arg && *c1 != ':'; c1--) {}
	if (*c1 != ':') cli_usage_error(P->c, "--point wants LABEL:AI:FLOPS, got '%s'", arg);
	if (rfl_parse_num(c1 + 1, (size_t)(c2 - c1 - 1), &ai) != RFL_OK || !(ai > 0))
		cli_usage_error(P->c, "--point '%s': AI must be a positive number (FLOP/byte)", arg);
	if (rfl_parse_num(c2 + 1, strlen(c2 + 1), &fl) != RFL_OK || !(fl > 0))
		cli_usage_error(P->c, "--point '%s': FLOPS must be a positive number (FLOP/s, e.g. 3.35e11)", arg);
	snprintf(lab, sizeof lab, "%.*s", (int)(c1 - arg), arg);
	p = new_point(P, lab);
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

/* A point at the roof of prec on every panel (none where a machine has no
   such roof): how an estimate is placed, a bound. */
static void add_at_roofs(plot *P, const char *lab, double ai, double weight, rfl_prec prec) {
	int k;
	for (k = 0; k < P->nmach; k++) {
		rfl_point *p = new_point(P, lab);
		p->ai = ai, p->prec = prec, p->machine = k, p->estimate = 1, p->weight = weight;
		p->flops_per_s = rfl_attainable(P->machines[k], prec, RFL_DRAM, ai);
		if (!(p->flops_per_s > 0)) P->npts--; /* no roof of that precision: nothing to place */
	}
}

/* --kernels with an estimate: each distinct layer of its "layers" (records
   or LLM rows) at the roof of the estimate's precision, sized by its share
   of the FLOPs; repeated blocks give one point. */
static void add_layer_points(plot *P, const rfl_json_doc *d, int root, const char *name, rfl_prec prec,
							 int train, double total) {
	int arr = rfl_json_get(d, root, "layers"), i, first = P->npts, j;
	char lab[MAXLABEL];
	if (arr < 0 || d->t[arr].type != RFL_JSON_ARR) return;
	snprintf(lab, sizeof lab, "%s layers", name);
	for (i = arr + 1; i < d->t[arr].after; i = d->t[i].after) {
		double f = num_or(d, i, "forward_flops", -1), b = num_or(d, i, "forward_bytes", -1);
		if (train) f += num_or(d, i, "backward_flops", 0), b += num_or(d, i, "backward_bytes", 0);
		if (!(f > 0) || !(b > 0)) continue;
		for (j = first; j < P->npts && !(P->pts[j].ai == f / b && P->pts[j].weight == f / total); j++) {}
		if (j < P->npts) continue;
		add_at_roofs(P, lab, f / b, f / total, prec);
	}
}

/* An estimate by the library's one rule (rfl_estimate_flops_per_s): at its
   FLOPs over its predicted time summed layer by layer on each panel's
   machine, the layers from the JSON's "layers"; without them, at the roof
   (its label says so). */
static void add_estimate_points(plot *P, const rfl_json_doc *d, const char *lab, double fl, double by,
								rfl_prec prec, int train) {
	int arr = rfl_json_get(d, 0, "layers"), k, i;
	char l2[MAXLABEL + 32]; /* new_point keeps MAXLABEL of it */
	if (arr < 0 || d->t[arr].type != RFL_JSON_ARR || d->t[arr].after == arr + 1) {
		snprintf(l2, sizeof l2, "%sat the roof)", lab); /* no layers to sum */
		add_at_roofs(P, l2, fl / by, 0, prec);
		return;
	}
	snprintf(l2, sizeof l2, "%s%s)", lab, RFL_ESTIMATE_NOTE);
	for (k = 0; k < P->nmach; k++) {
		double t = 0, y;
		rfl_point *p;
		for (i = arr + 1; i < d->t[arr].after; i = d->t[i].after) {
			rfl_work w;
			rfl_prediction pr;
			memset(&w, 0, sizeof w);
			w.unknown = RFL_UNKNOWN_BYTES(RFL_L2) | RFL_UNKNOWN_BYTES(RFL_L1) | RFL_UNKNOWN_TIME;
			w.flops[prec] = num_or(d, i, "forward_flops", 0) + (train ? num_or(d, i, "backward_flops", 0) : 0);
			w.bytes[RFL_DRAM] = num_or(d, i, "forward_bytes", 0) + (train ? num_or(d, i, "backward_bytes", 0) : 0);
			if (rfl_predict(P->machines[k], &w, &pr) != RFL_OK) { t = 0; break; } /* no such roof */
			t += pr.time_s;
		}
		if (!((y = rfl_estimate_flops_per_s(fl, t)) > 0)) continue;
		p = new_point(P, l2);
		p->ai = fl / by, p->flops_per_s = y, p->prec = prec, p->machine = k, p->estimate = 1;
	}
}

/* rfl-estimate's JSON: forward (or forward + backward when the mode is
   train) on every panel, by the library's rule for an estimate. */
static void add_estimate(plot *P, const char *path, const rfl_json_doc *d, const char *given,
						 rfl_prec prec, int prec_given, int kernels) {
	double fl = num_or(d, 0, "forward.flops", -1), by = num_or(d, 0, "forward.bytes", -1);
	char mode[16] = "", name[64], lab[MAXLABEL], dt[32];
	int train;
	rfl_json_str(d, rfl_json_get(d, 0, "mode"), mode, sizeof mode);
	train = rfl_parse_name_eq(mode, "train");
	if (train) {
		double bf = num_or(d, 0, "backward.flops", -1), bb = num_or(d, 0, "backward.bytes", -1);
		if (bf < 0 || bb < 0)
			cli_input_error(P->c, path, rfl_json_line(d, rfl_json_get(d, 0, "backward")), 0,
							"mode is train but backward.flops/bytes are missing");
		fl += bf;
		by += bb;
	}
	if (!(fl > 0) || !(by > 0))
		cli_input_error(P->c, path, rfl_json_line(d, rfl_json_get(d, 0, "forward")), 0,
						"forward.flops and forward.bytes must be positive numbers");
	if (given) snprintf(name, sizeof name, "%s", given);
	else if (!rfl_json_str(d, rfl_json_get(d, 0, "model"), name, sizeof name)) stem(path, name, sizeof name);
	/* an LLM estimate names the roof of its matrix FLOPs ("prec") */
	if (!prec_given && rfl_json_str(d, rfl_json_get(d, 0, "prec"), dt, sizeof dt) &&
		rfl_prec_parse(dt, &prec) == RFL_OK)
		prec_given = 1;
	if (!prec_given && rfl_json_str(d, rfl_json_get(d, 0, "dtype"), dt, sizeof dt) &&
		rfl_prec_parse(dt, &prec) != RFL_OK)
		prec = RFL_FP32;
	snprintf(lab, sizeof lab, "%s estimate (%s", name, train ? "train, " : "");
	add_estimate_points(P, d, lab, fl, by, prec, train);
	if (kernels) add_layer_points(P, d, 0, name, prec, train, fl);
}

/* The roof a profile's FLOPs belong under: its "dtype", else the
   precision that did most of them. */
static rfl_prec measured_prec(plot *P, const char *path, const rfl_json_doc *d) {
	double f64 = num_or(d, 0, "flops.fp64", 0), f32 = num_or(d, 0, "flops.fp32", 0);
	double f16 = num_or(d, 0, "flops.fp16", 0), ften = num_or(d, 0, "flops.tensor", 0);
	char dt[32];
	rfl_prec prec;
	(void)P;
	if (rfl_json_str(d, rfl_json_get(d, 0, "dtype"), dt, sizeof dt) && rfl_prec_parse(dt, &prec) == RFL_OK)
		return prec;
	if (ften > f32 && ften > f64 && ften > f16) {
		fprintf(stderr, "rfl-plot: %s: mostly tensor-core FLOPs: drawn under the TF32 tensor roof "
						"(use --dtype fp16_tensor or bf16_tensor if the run used those)\n", path);
		return RFL_TF32_TENSOR;
	}
	if (f64 > f32 && f64 > f16) return RFL_FP64;
	return f16 > f32 ? RFL_FP16 : RFL_FP32;
}

/* rfl-reduce's JSON: the totals (on their machine's panel when "hw" names
   one), and with --kernels its top kernels sized by their share of time. */
static void add_measured(plot *P, const char *path, const rfl_json_doc *d, const char *given,
						 rfl_prec prec, int prec_given, int kernels) {
	double ai, fps, time_s = num_or(d, 0, "time_s", -1);
	char name[64], lab[MAXLABEL], hw[64];
	const rfl_machine *hm;
	rfl_point *p;
	int k, top, i;
	if (!rfl_reduce_json_point(d, 0, &ai, &fps))
		cli_input_error(P->c, path, 1, 0,
						"needs ai.dram (or flops.total and bytes.dram) and flops_per_s (or "
						"flops.total and time_s); a null means the profile lacked those metrics");
	if (given) snprintf(name, sizeof name, "%s", given);
	else if (!rfl_json_str(d, rfl_json_get(d, 0, "model"), name, sizeof name) &&
			 !rfl_json_str(d, rfl_json_get(d, 0, "label"), name, sizeof name))
		stem(path, name, sizeof name);
	if (!prec_given) prec = measured_prec(P, path, d);
	snprintf(lab, sizeof lab, "%s measured", name);
	p = new_point(P, lab);
	p->ai = ai, p->flops_per_s = fps, p->prec = prec, p->machine = RFL_ALL_MACHINES;
	if (rfl_json_str(d, rfl_json_get(d, 0, "hw"), hw, sizeof hw) && rfl_hw_find(hw, &hm) == RFL_OK)
		for (k = 0; k < P->nmach; k++) /* measured on a named machine: only that panel */
			if (P->machines[k] == hm) p->machine = k;
	top = rfl_json_get(d, 0, "top");
	if (!kernels || top < 0 || d->t[top].type != RFL_JSON_ARR) return;
	snprintf(lab, sizeof lab, "%s kernels", name);
	for (i = top + 1; i < d->t[top].after; i = d->t[i].after) {
		double kt = num_or(d, i, "time_s", -1);
		if (!rfl_reduce_json_point(d, i, &ai, &fps)) continue;
		p = new_point(P, lab);
		p->ai = ai, p->flops_per_s = fps, p->prec = prec, p->machine = RFL_ALL_MACHINES;
		p->weight = time_s > 0 && kt > 0 ? kt / time_s : 0.05;
	}
}

static void add_work(plot *P, const char *arg, rfl_prec prec, int prec_given, int kernels) {
	static rfl_json_tok toks[200000];
	rfl_json_doc d;
	size_t len;
	char path[1024], *src;
	const char *given = 0, *eq = strrchr(arg, '=');
	/* FILE.json=LABEL names the model (unless a file has that whole name) */
	snprintf(path, sizeof path, "%s", arg);
	if (eq && !cli_file_exists(arg)) { path[eq - arg] = 0; given = eq + 1; }
	src = cli_read_file(P->c, path, RFL_CAP_WORK, &len);
	if (rfl_json_parse(&d, src, len, toks, (int)(sizeof toks / sizeof *toks)) == RFL_ERR_BUFFER)
		cli_input_error(P->c, path, 0, 0, "document too large for the token table");
	if (d.err.code) cli_error(P->c, path, &d.err);
	if (d.t[0].type != RFL_JSON_OBJ) cli_input_error(P->c, path, 1, 1, "expected a JSON object");
	if (rfl_json_get(&d, 0, "forward") >= 0) add_estimate(P, path, &d, given, prec, prec_given, kernels);
	else if (rfl_json_get(&d, 0, "kernels") >= 0 || rfl_json_get(&d, 0, "format") >= 0)
		add_measured(P, path, &d, given, prec, prec_given, kernels);
	else
		cli_input_error(P->c, path, 1, 1, "not rfl-estimate or rfl-reduce JSON (no \"forward\" or \"kernels\")");
	free(src);
}

static int write_file_cb(void *user, const void *data, size_t len) {
	return fwrite(data, 1, len, (FILE *)user) == len ? 0 : 1;
}

/* One 80x24 text chart per machine, with that machine's points. */
static void print_ascii(plot *P, const rfl_roofline_desc *d) {
	static char text[RFL_ASCII_BYTES(80, 24)];
	static rfl_point mine[MAXPTS];
	int k, i;
	for (k = 0; k < P->nmach; k++) {
		rfl_roofline_desc one = *d;
		rfl_result r;
		int n = 0;
		for (i = 0; i < P->npts; i++)
			if (P->pts[i].machine == k || P->pts[i].machine == RFL_ALL_MACHINES) {
				mine[n] = P->pts[i];
				mine[n++].machine = 0;
			}
		one.machines = &P->machines[k];
		one.measured = &P->measured[k];
		one.n_machines = 1;
		one.points = mine;
		one.n_points = n;
		r = rfl_chart_roofline_ascii(text, sizeof text, 80, 24, &one);
		if (r != RFL_OK && r != RFL_ERR_NO_ROOF) cli_input_error(P->c, 0, 0, 0, "text chart: %s", rfl_result_str(r));
		if (k) fputc('\n', stdout);
		fputs(text, stdout);
	}
}

static void write_png(cli *c, const rfl_roofline_desc *d, int w, int h, const char *out) {
	size_t px = RFL_CANVAS_BYTES(w, h, 3), an = rfl_png_arena_size(w, h, 3);
	unsigned char *pixels = (unsigned char *)big_alloc(px), *arena = (unsigned char *)big_alloc(an);
	rfl_canvas cv;
	rfl_result r;
	FILE *f;
	if (!pixels || !arena) cli_input_error(c, 0, 0, 0, "out of memory for a %dx%d image", w, h);
	rfl_canvas_init(&cv, pixels, px, w, h, 3, 0);
	r = rfl_chart_roofline(&cv, d);
	if (r == RFL_ERR_NO_ROOF) {
		rfl_warning wn = {RFL_WARN_NO_ROOF, 0, 0, "a machine has no roof for a point's precision; "
												  "those points are drawn without one"};
		fprintf(stderr, "rfl-plot: %s\n", cli_warning(0, &wn));
	} else if (r != RFL_OK) cli_input_error(c, 0, 0, 0, "chart: %s", rfl_result_str(r));
	f = strcmp(out, "-") ? fopen(out, "wb") : stdout;
	if (!f) cli_input_error(c, out, 0, 0, "cannot write: %s", strerror(errno));
	r = rfl_png_write(&cv, arena, an, write_file_cb, f);
	if (f != stdout && fclose(f) != 0 && r == RFL_OK) r = RFL_ERR_IO;
	if (r != RFL_OK) cli_input_error(c, out, 0, 0, "PNG: %s", rfl_result_str(r));
	free(pixels);
	free(arena);
}

int main(int argc, char **argv) {
	static plot P;
	cli c;
	const char *out = 0, *title = 0, *ceil = 0, *dtype = 0;
	const char *works[64], *points[MAXPTS];
	char deftitle[64];
	int nworks = 0, npoints = 0, i, w = 1200, h = 800, ascii = 0, kernels = 0, id;
	rfl_prec prec = RFL_FP32, title_prec;
	rfl_roofline_desc d;
	cli_init(&c, "rfl-plot", argc, argv, tables);
	P.c = &c;
	while ((id = cli_next(&c)) != CLI_DONE) {
		switch (id) {
		case CLI_HELP: help(); return CLI_OK;
		case OPT_ASCII: ascii = 1; break;
		case OPT_KERNELS: kernels = 1; break;
		case OPT_DTYPE: dtype = c.val; break;
		case OPT_POINT: if (npoints < MAXPTS) points[npoints++] = c.val; break;
		case OPT_WORK: if (nworks < 64) works[nworks++] = c.val; break;
		case OPT_WIDTH: w = atoi(c.val); break;
		case OPT_HEIGHT: h = atoi(c.val); break;
		case OPT_TITLE: title = c.val; break;
		case OPT_CEILINGS: ceil = c.val; break;
		case OPT_OUT: out = c.val; break;
		case CLI_ARG: cli_usage_error(&c, "unknown argument '%s'", c.val); break;
		default: break; /* --hw, --hw-file: kept in c */
		}
	}
	if (!c.hw && !c.hw_files) cli_usage_error(&c, "--hw NAME or --hw-file FILE is required (rfl-hw lists the machines)");
	if (!out && !ascii) cli_usage_error(&c, "-o OUT.png is required (or --ascii)");
	if (w < 64 || h < 64 || w > 8192 || h > 8192) cli_usage_error(&c, "--width/--height must be 64..8192");
	if (dtype && rfl_prec_parse(dtype, &prec) != RFL_OK)
		cli_usage_error(&c, "unknown --dtype '%s' (fp32, tf32, fp16, bf16, fp64, ...)", dtype);
	P.nmach = cli_machines(&c, P.machines, P.measured, 8); /* --hw and --hw-file */
	if (!P.nmach) cli_usage_error(&c, "--hw needs at least one machine");
	for (i = 0; i < npoints; i++) add_point_arg(&P, points[i], prec);
	for (i = 0; i < nworks; i++) add_work(&P, works[i], prec, dtype != 0, kernels);
	link_points(&P);
	for (i = 0; i < P.nmach; i++)
		if (!(P.machines[i]->peak_flops[prec] > 0) && P.npts == 0)
			cli_input_error(&c, 0, 0, 0, "%s has no %s roof; choose another --dtype", P.machines[i]->id,
							rfl_prec_name(prec));
	/* the default title names the precision whose roof is drawn: the points'
	   own when they share one (an estimate at bf16 is drawn under its roof) */
	title_prec = prec;
	for (i = 0; !dtype && i < P.npts; i++)
		if (i == 0 || P.pts[i].prec == title_prec) title_prec = P.pts[i].prec;
		else { title_prec = RFL_PREC_COUNT; break; }
	if (title_prec == RFL_PREC_COUNT) snprintf(deftitle, sizeof deftitle, "Roofline");
	else snprintf(deftitle, sizeof deftitle, "Roofline (%s)", rfl_prec_name(title_prec));
	cli_roofline_desc(&d, title ? title : deftitle, P.machines, P.measured, P.nmach, P.pts, P.npts, prec);
	if (ceil) {
		size_t bad = 0;
		if (rfl_ceilings_parse(ceil, prec, &d.extra_precs, &d.extra_levels, &bad) != RFL_OK)
			cli_usage_error(&c, "--ceilings: unknown ceiling '%.*s' (fp64, fp16, tensor, l2, l1, all)",
							(int)strcspn(ceil + bad, ","), ceil + bad);
		cli_warn_missing_levels(&c, &d);
	}
	if (ascii) print_ascii(&P, &d);
	if (out) write_png(&c, &d, w, h, out);
	return CLI_OK;
}
