/* rfl-report - the main job: estimate a model's work, reduce its profile,
   place both on the roofline of one or more machines, compare, explain and
   draw. With no arguments it runs the reports' exercise (the demo).
   The story: each model's records (cli_model_load: zoo CNN, LLM step,
   ONNX graph); its profile streamed into the join (rfl_join_kernel),
   placed on its machine at the first kernel (rfl_report_place); estimates
   on every machine (rfl_report_estimate), compared (rfl_report_compare),
   printed, drawn (rfl_chart_*) and written (rfl_report_json). */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"

#define MAXM 8                   /* models */
#define MAXH RFL_REPORT_MACHINES /* machines */

/* Two literals: C99 allows 4095 characters in one. */
static const char *const usage[] = {
	"usage: rfl-report --model M[,M...] --hw NAME[,NAME...] [--ncu|--trace M=FILE]...\n"
	"                  [--ncu-hw NAME] [--batch N] [--dtype D] [--mode train|infer]\n"
	"                  [-o DIR] [--json] [--explain] [--ascii] [--ceilings LIST]\n"
	"       rfl-report            (no arguments: the demo, see below)\n"
	"Estimate each model's FLOPs and bytes (rfl-estimate's formulas), reduce its\n"
	"Nsight Compute profile (rfl-reduce), and put both on the roofline of each\n"
	"machine: a table per machine, a comparison by layer type (an LLM: by kind,\n"
	"with the warnings padded_mma and launch_bound), charts and JSON.\n\n"
	"  --model M,...    models, at most 8: the zoo's and the decoder LLMs'\n"
	"                   (--list shows them); -m M, --llm M alike. An LLM is one\n"
	"                   step as records: --phase prefill|decode, --seq S (default:\n"
	"                   the library's, an inference decode after 1024 tokens;\n"
	"                   --phase prefill alone: a training prefill), --logits\n"
	"                   last|all (default: all when training), --weights T, --kv T\n"
	"  --hf-config F    also a decoder LLM from a Hugging Face config.json (an\n"
	"                   unknown model_type: Llama-style, with a warning;\n"
	"                   --strict refuses it)\n"
	"  --onnx FILE      also a model from an ONNX file, named after it (repeatable)\n"
	"  --dim NAME=V     value of the symbolic dim NAME of the --onnx inputs\n"
	"                   (repeatable; --batch sets the batch axis)\n"
	"  --hw NAME,...    machines, one table and one chart each (rfl-hw lists them;\n"
	"                   default: the machines the profiles ran on, else h100)\n"
	"  --hw-file F,...  machine files (rfl-hw NAME --json, rfl-probe -o F): a machine\n"
	"                   each; measured ceilings are drawn dashed beside the\n"
	"                   datasheet roof (a file of a --hw machine joins its chart)\n"
	"  --ncu M=FILE     the profile of model M: ncu --csv --page raw (or details,\n"
	"                   or nvprof) of the same batch and mode; --ncu FILE when\n"
	"                   there is one model\n"
	"  --trace M=FILE   a PyTorch profiler trace of model M instead (JSON, .gz):\n"
	"                   kernel times only, so its point is time-based: the\n"
	"                   estimate's FLOPs and bytes over the trace's kernel time\n"
	"                   (--step N: only ProfilerStep#N; default the whole trace)\n"
	"  --ncu-hw NAME    the machine the profiles ran on (joins --hw). Default:\n"
	"                   the profile's GPU (device__attribute_display_name), of\n"
	"                   its memory size and form factor, joining --hw with a\n"
	"                   device_mismatch warning (one the table lacks: unplaced);\n"
	"                   no device name: the first --hw. Measurements go only on\n"
	"                   their own machine, estimates on every machine.\n",
	"  --batch N        batch size (default 1); --res H input resolution (zoo)\n"
	"  --dtype D        fp32 (default; an LLM: its config's type), tf32 (fp32\n"
	"                   data, conv and matmul on TF32 tensor cores: PyTorch's\n"
	"                   default for cuDNN on Ampere and later), fp16, bf16, fp8, int8\n"
	"  --mode M         train or infer; default: a CNN's one training step, forward\n"
	"                   + backward (the homework's); an LLM's decode: infer\n"
	"  --conv torch|report, --pen-and-paper   the FLOP convention (rfl-estimate's)\n"
	"  -o DIR, --out DIR  write the charts and report.json into DIR (created)\n"
	"  --json           print report.json to stdout instead of the tables\n"
	"                   (docs/schema.md, rfl-report); unmeasured quantities are null\n"
	"  --explain        print every formula with its numbers put in\n"
	"  --ascii          also draw a roofline as text (the measured machine, else\n"
	"                   the first --hw)\n"
	"  --ceilings LIST  extra lighter ceilings on the rooflines: fp64, fp16,\n"
	"                   tensor, l2, l1, all (a machine without a level says so)\n"
	"  --list           the built-in models, one a line\n"
	"Warnings of an LLM step: padded_mma (tensor FLOPs executed >= 2x the useful\n"
	"matrix FLOPs), launch_bound (kernel time >= 2x the roof, half of it in\n"
	"kernels needing < 1 us).\n"
	"Demo (no arguments): --model resnet18,alexnet --batch 1 --mode train\n"
	"  --hw v100,a100,h100 --ncu resnet18=examples/data/resnet18-b1-train-seed-raw.csv\n"
	"  --ncu alexnet=examples/data/alexnet-b1-train-full-raw.csv -o build/demo\n"
	"Exit: 0 done, 1 bad input (unknown model, machine or file; bad profile),\n"
	"2 bad usage.\n"};

enum { OPT_MODEL = 1, OPT_NCU, OPT_NCU_HW, OPT_OUT, OPT_JSON, OPT_EXPLAIN, OPT_ASCII, OPT_CEILINGS, OPT_STEP };
static const cli_opt report_opts[] = {
	{"--model", "M[,M...]", OPT_MODEL}, {"-m", "M[,M...]", OPT_MODEL}, {"--llm", "NAME", OPT_MODEL},
	{"--ncu", "M=FILE", OPT_NCU},       {"--ncu-hw", "NAME", OPT_NCU_HW},
	{"--trace", "M=FILE", OPT_NCU},     {"--step", "N", OPT_STEP},
	{"-o", "DIR", OPT_OUT},             {"--out", "DIR", OPT_OUT},
	{"--json", 0, OPT_JSON},            {"--explain", 0, OPT_EXPLAIN},
	{"--ascii", 0, OPT_ASCII},          {"--ceilings", "LIST", OPT_CEILINGS},
	{0, 0, 0}};

/* One model: its options and records, its report, its profile. */
typedef struct model {
	cli_model src;
	const char *ncu;
	char key[64];         /* a --hf-config model's name */
	rfl_report_model *rm;
	const rfl_work *meas; /* rm->res.total.work */
	rfl_prec meas_prec;
	rfl_report_forecast *fc; /* on each machine (report.fc) */
} model;

/* The report: options, models, machines, what was written. */
typedef struct report {
	cli c;
	cli_model opt;        /* the model options every model takes */
	model *m[MAXM];
	int nm, nh, json, explain, ascii, demo, nwritten;
	const rfl_machine *hw[MAXH], *hw_measured[MAXH], *ncu_hw;
	const char *ncu[2 * MAXM], *outdir, *ceilings; /* --ncu: key (NULL: the only model), file */
	int n_ncu, use_step;
	unsigned long long step; /* --step N: a trace's ProfilerStep#N */
	char ncu_keys[MAXM][64], written[32][512];
	rfl_report_forecast *fc; /* [model * nh + machine] */
} report;

/* ---- models ------------------------------------------------------------------ */
/* An LLM's display name says its step. */
static void display_name(model *m) {
	if (m->src.w.source == RFL_WL_LLM)
		snprintf(m->rm->disp, sizeof m->rm->disp, "%.30s (%s %llu)", m->src.w.name,
				 m->src.w.phase == RFL_LLM_DECODE ? "decode" : "prefill", (unsigned long long)m->src.w.seq);
}

/* A model of the report: the shared options, then its own source. */
static model *add_model(report *r, const char *name, const char *hf, const char *onnx) {
	model *m;
	if (r->nm >= MAXM) cli_usage_error(&r->c, "at most %d models", MAXM);
	m = (model *)cli_xmalloc(&r->c, sizeof *m);
	memset(m, 0, sizeof *m);
	m->src = r->opt;
	m->src.name = name, m->src.hf = hf, m->src.onnx = onnx;
	m->rm = (rfl_report_model *)cli_xmalloc(&r->c, sizeof *m->rm);
	r->m[r->nm++] = m;
	return m;
}

static void add_models(report *r, const char *list) {
	char *s = (char *)cli_xmalloc(&r->c, strlen(list) + 1), *t;
	strcpy(s, list);
	for (t = strtok(s, ","); t; t = strtok(0, ",")) add_model(r, t, 0, 0);
}

/* A machine's label in legends and headers ("H100"; the id where two would read alike). */
static const char *short_hw(report *r, const rfl_machine *m) {
	return rfl_report_machine_label(r->hw, r->nh, m, cli_numbuf(&r->c), 48);
}

/* ---- the profile: streamed into the join, placed at its first kernel ------- */
typedef struct feed {
	report *r;
	model *m;
	rfl_reduce_state st;
	int placed;
} feed;

static void place(feed *f) {
	f->placed = 1;
	rfl_report_place(f->m->rm, rfl_reduce_device(&f->st), f->r->hw, &f->r->nh, MAXH, f->r->ncu_hw);
	if (f->m->rm->dev_added) f->r->hw_measured[f->r->nh - 1] = 0;
}

static void on_kernel(void *user, const rfl_kernel_stat *k) {
	feed *f = (feed *)user;
	if (!f->placed) place(f);
	rfl_join_kernel(&f->m->rm->join, k);
}

static void load_profile(report *r, model *m) {
	static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
	static feed f;
	static char buf[65536];
	rfl_reduce_desc d;
	size_t len;
	FILE *fp = cli_is(m->ncu, "-") ? stdin : fopen(m->ncu, "rb");
	if (!fp) cli_input_error(&r->c, m->ncu, 0, 0, "cannot open: %s", strerror(errno));
	memset(&d, 0, sizeof d);
	memset(&f, 0, sizeof f);
	f.r = r, f.m = m;
	d.on_kernel = on_kernel;
	d.user = &f;
	d.top_n = 10;
	d.use_step = r->use_step, d.step = r->step;
	if (rfl_reduce_init(&f.st, &d, scratch, sizeof scratch) != RFL_OK)
		cli_input_error(&r->c, m->ncu, 0, 0, "cannot start the reducer");
	/* streamed in 64 KB chunks: a CSV, or a trace of any size (plain or gzip) */
	while ((len = fread(buf, 1, sizeof buf, fp)) > 0)
		if (rfl_reduce_push(&f.st, buf, len) != RFL_OK) break;
	if (ferror(fp)) cli_input_error(&r->c, m->ncu, 0, 0, "%s", errno == EISDIR ? "is a directory" : strerror(errno));
	if (fp != stdin) fclose(fp);
	if (f.st.err.code == RFL_OK) rfl_reduce_finish(&f.st, &m->rm->res);
	if (f.st.err.code != RFL_OK) cli_error(&r->c, m->ncu, &f.st.err);
	if (m->rm->res.kernels == 0 && !(m->rm->res.total.work.time_s > 0))
		cli_input_error(&r->c, m->ncu, 0, 0, "no kernels in the profile (was the region between "
						"cudaProfilerStart/Stop empty?)");
	if (!f.placed) place(&f);
	m->rm->file = m->ncu;
}

/* Each --ncu FILE to its model. */
static void assign_profiles(report *r) {
	int i, k, found;
	for (i = 0; i < r->n_ncu; i += 2) {
		const char *key = r->ncu[i], *file = r->ncu[i + 1];
		found = -1;
		if (!key) {
			if (r->nm != 1) cli_usage_error(&r->c, "--ncu %s: with several models write --ncu MODEL=FILE", file);
			found = 0;
		} else
			for (k = 0; k < r->nm; k++) if (rfl_parse_name_eq(key, r->m[k]->src.w.name)) found = k;
		if (found < 0) cli_usage_error(&r->c, "--ncu %s=...: '%s' is not one of --model", key, key);
		if (r->m[found]->ncu) cli_usage_error(&r->c, "two profiles for %s", r->m[found]->src.w.name);
		r->m[found]->ncu = file;
	}
}

/* The work: models loaded, profiles reduced (a profile's own machine may
   join --hw), then estimates on every machine, then the comparisons. */
static void gather(report *r) {
	int i;
	for (i = 0; i < r->nm; i++) {
		model *m = r->m[i];
		cli_model_load(&r->c, &m->src);
		if (m->src.hf) { /* named after its file, as an ONNX model: "llama-3-8b" */
			const char *b = strrchr(m->src.hf, '/') ? strrchr(m->src.hf, '/') + 1 : m->src.hf;
			snprintf(m->key, sizeof m->key, "%.*s", (int)(strstr(b, ".json") ? strstr(b, ".json") - b : 60), b);
			m->src.w.name = m->key;
		}
		rfl_report_init(m->rm, m->src.w.name, m->src.w.source == RFL_WL_LLM ? RFL_GROUP_KIND : RFL_GROUP_LTYPE);
		display_name(m);
	}
	assign_profiles(r);
	for (i = 0; i < r->nm; i++) if (r->m[i]->ncu) load_profile(r, r->m[i]);
	if (!r->nh) r->hw[r->nh++] = cli_find_hw(&r->c, "h100"); /* no --hw, no profile's machine */
	for (i = 0; i < r->nm; i++) {
		model *m = r->m[i];
		rfl_result e = rfl_report_estimate(m->rm, &m->src.w, r->hw, r->nh);
		if (e != RFL_OK) cli_input_error(&r->c, 0, 0, 0, "model '%s': %s", m->src.w.name, rfl_result_str(e));
		rfl_report_compare(m->rm, &m->src.w, r->hw); /* no roof: times left out */
		m->meas = &m->rm->res.total.work;
		m->meas_prec = rfl_work_main_prec(m->meas);
	}
	/* the step forecast (eager PyTorch) by type on every machine */
	r->fc = (rfl_report_forecast *)cli_xmalloc(&r->c, sizeof *r->fc * (size_t)(r->nm * r->nh));
	for (i = 0; i < r->nm; i++) {
		model *m = r->m[i];
		int h, n = m->src.w.net.count;
		rfl_layer *scratch = (rfl_layer *)cli_xmalloc(&r->c, sizeof *scratch * (size_t)n);
		rfl_forecast_desc fd;
		memset(&fd, 0, sizeof fd);
		fd.runtime = RFL_RUNTIME_EAGER;
		m->fc = r->fc + i * r->nh;
		for (h = 0; h < r->nh; h++) rfl_report_forecast_get(&m->fc[h], m->rm, &m->src.w, r->hw, h, &fd, scratch, n);
		free(scratch);
	}
}

/* ---- tables ------------------------------------------------------------------ */
typedef char cells[MAXM][64];
#define CELL(c, i, ...) snprintf((c)[i], 64, __VA_ARGS__)
#define SI(v, unit) cli_si(&r->c, v, unit)
#define NUM(v, sig) cli_num(&r->c, v, sig)
#define COMMAS(v) cli_commas(&r->c, v)
#define OR_DASH(known, v, unit) ((known) ? SI(v, unit) : "-")

static void row(const report *r, const char *label, cells c) {
	int i;
	printf("  %-28s", label);
	for (i = 0; i < r->nm; i++) printf(" %23s", c[i]);
	printf("\n");
	memset(c, 0, sizeof(cells));
}

static int here(const model *m, int h) { return m->rm->file && m->rm->meas_hw == h; }

/* 1 when the profile measured FLOPs of at least one precision. */
static int flops_known(const rfl_work *w) {
	int p, k = 0;
	for (p = 0; p < RFL_PREC_COUNT; p++) k |= rfl_work_known(w, RFL_UNKNOWN_FLOPS(p));
	return k;
}

static const char *tensor_cell(report *r, const model *m) {
	static char b[64];
	int i;
	for (i = 0; i < m->rm->res.warning_count; i++)
		if (m->rm->res.warnings[i].code == RFL_WARN_TENSOR_UNCOUNTED) return "NOT COUNTED";
	if (!rfl_work_known(m->meas, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR))) return "-";
	snprintf(b, sizeof b, m->rm->res.flags & RFL_REDUCE_TENSOR_ESTIMATED ? "~%s (estimate)" : "%s",
			 SI(rfl_report_tensor_flops(m->rm), "FLOP"));
	return b;
}

/* The step forecast of model m on machine h (eager PyTorch): 1 when
   there is one (a GPU with the table's terms). */
static int forecast(const model *m, int h, const rfl_forecast **f) {
	*f = &m->fc[h].step;
	return m->fc[h].err == RFL_OK;
}

/* The estimate rows of machine h's table. */
static void print_estimate_rows(report *r, int h) {
	const rfl_machine *mc = r->hw[h];
	const rfl_cost_desc *d = &r->m[0]->src.w.cost;
	rfl_prec p0 = r->m[0]->rm->est_prec;
	cells c;
	int i;
	memset(c, 0, sizeof c);
	if (mc->peak_flops[p0] > 0)
		printf("== %s: %s %s, DRAM %s, ridge %s FLOP/B ==\n", mc->name, rfl_prec_name(p0),
			   SI(mc->peak_flops[p0], "FLOP/s"), SI(mc->bw_bytes_per_s[RFL_DRAM], "B/s"),
			   NUM(rfl_ridge(mc, p0, RFL_DRAM), 4));
	else
		printf("== %s: no %s roof (the machine has no such unit), DRAM %s ==\n", mc->name,
			   rfl_prec_name(p0), SI(mc->bw_bytes_per_s[RFL_DRAM], "B/s"));
	for (i = 0; i < r->nm; i++) CELL(c, i, "%s", r->m[i]->rm->disp);
	row(r, "", c);
	printf("  estimate (batch %llu, %s, %s)\n", (unsigned long long)(d->batch ? d->batch : 1),
		   d->mode == RFL_MODE_TRAIN ? "train step" : "inference", rfl_dtype_name(d->dtype));
	/* ">=": some layers' FLOPs are unknown (ONNX ops without a rule) */
#define GE(i) (r->m[i]->rm->cost.unknown_layers ? ">= " : "")
#define RM(i) (r->m[i]->rm)
	for (i = 0; i < r->nm; i++) CELL(c, i, "%s%s", GE(i), SI(rfl_work_flops(&RM(i)->est), "FLOP"));
	row(r, "FLOPs", c);
	if (d->mode == RFL_MODE_TRAIN) {
		for (i = 0; i < r->nm; i++) {
			double f = rfl_work_flops(&RM(i)->cost.forward);
			CELL(c, i, "%s", f > 0 ? NUM(rfl_work_flops(&RM(i)->cost.backward) / f, 4) : "-");
		}
		row(r, "backward / forward FLOPs", c);
	}
	for (i = 0; i < r->nm; i++) CELL(c, i, "%s", SI(RM(i)->est.bytes[RFL_DRAM], "B"));
	row(r, "bytes (DRAM, per layer)", c);
	for (i = 0; i < r->nm; i++) CELL(c, i, "%s%s", GE(i), NUM(rfl_work_ai(&RM(i)->est, RFL_DRAM), 4));
	row(r, "AI (FLOP/B)", c);
	for (i = 0; i < r->nm; i++) {
		if (RM(i)->pred_err[h]) CELL(c, i, "no %s roof", rfl_prec_name(RM(i)->est_prec));
		else if (RM(i)->cost.unknown_layers) CELL(c, i, "unknown");
		else CELL(c, i, "%s", RM(i)->pred[h].whole.bound.memory ? "memory" : "compute");
	}
	row(r, "bound (whole model)", c);
	for (i = 0; i < r->nm; i++) {
		rfl_bound b;
		double a = rfl_work_attainable(mc, &RM(i)->est, RM(i)->est_prec, &b);
		CELL(c, i, "%s%s", a > 0 ? GE(i) : "", a > 0 ? SI(a, "FLOP/s") : "-");
	}
	row(r, "attainable", c);
	for (i = 0; i < r->nm; i++)
		CELL(c, i, "%s%s", RM(i)->pred_err[h] ? "" : GE(i),
			 RM(i)->pred_err[h] ? "-" : SI(RM(i)->pred[h].layers_s, "s"));
	row(r, "predicted time (per layer)", c);
#define FC(i) (&r->m[i]->fc[h].step)
#define FC_ROW(label, ...) do { for (i = 0; i < r->nm; i++) { if (r->m[i]->fc[h].err) CELL(c, i, "-"); \
		else CELL(c, i, __VA_ARGS__); } row(r, label, c); } while (0)
	FC_ROW("forecast GPU time (eager)", "%s (%.0f kernels)", SI(FC(i)->gpu_time_s, "s"), FC(i)->kernels);
	FC_ROW("forecast step (eager)", "%s (%s binds)", SI(FC(i)->step_time_s, "s"), FC(i)->binds);
#undef GE
}

/* The measured rows of machine h's table (the profiles taken on it). */
/* A trace has no counters: its point's FLOPs and bytes are the estimate's,
   said so in the cell; the counter rows stay unknown. */
static const char *tb_est(const model *m, const char *s) {
	static char b[64];
	if (!m->rm->time_based || !strcmp(s, "-")) return s;
	snprintf(b, sizeof b, "%s (estimate)", s);
	return b;
}
#define NO_COUNTERS(m) ((m)->rm->time_based)

static void print_measured_rows(report *r, int h) {
	const rfl_machine *mc = r->hw[h];
	cells c;
	int i;
	memset(c, 0, sizeof c);
#define MROW(label, expr)                                                                \
	do {                                                                                 \
		for (i = 0; i < r->nm; i++) {                                                    \
			const model *m = r->m[i];                                                    \
			const rfl_work *w = m->meas;                                                 \
			if (here(m, h)) CELL(c, i, "%s", expr), (void)w;                             \
		}                                                                                \
		row(r, label, c);                                                                \
	} while (0)
#define KNOWN(bits) rfl_work_known(w, bits)
	MROW("kernels", COMMAS((double)m->rm->res.kernels));
	MROW("FLOPs fp32 (fadd+fmul+2ffma)", NO_COUNTERS(m) ? "-" : OR_DASH(KNOWN(RFL_UNKNOWN_FLOPS(RFL_FP32)), w->flops[RFL_FP32], "FLOP"));
	MROW("FLOPs fp16 (SIMT)", NO_COUNTERS(m) ? "-" : OR_DASH(KNOWN(RFL_UNKNOWN_FLOPS(RFL_FP16)), w->flops[RFL_FP16], "FLOP"));
	MROW("FLOPs fp64", NO_COUNTERS(m) ? "-" : OR_DASH(KNOWN(RFL_UNKNOWN_FLOPS(RFL_FP64)), w->flops[RFL_FP64], "FLOP"));
	MROW("FLOPs tensor cores", NO_COUNTERS(m) ? "-" : tensor_cell(r, m));
	MROW("FLOPs total", tb_est(m, flops_known(w) ? SI(rfl_work_flops(w), "FLOP") : "-"));
	MROW("bytes DRAM", tb_est(m, OR_DASH(KNOWN(RFL_UNKNOWN_BYTES(RFL_DRAM)), w->bytes[RFL_DRAM], "B")));
	MROW("bytes L2", OR_DASH(KNOWN(RFL_UNKNOWN_BYTES(RFL_L2)), w->bytes[RFL_L2], "B"));
	MROW("bytes L1", OR_DASH(KNOWN(RFL_UNKNOWN_BYTES(RFL_L1)), w->bytes[RFL_L1], "B"));
	MROW("time (sum of kernels)", w->time_s > 0 ? SI(w->time_s, "s") : "-");
	MROW("AI DRAM (FLOP/B)", tb_est(m, flops_known(w) && KNOWN(RFL_UNKNOWN_BYTES(RFL_DRAM)) ? NUM(rfl_work_ai(w, RFL_DRAM), 4) : "-"));
	for (i = 0; i < r->nm; i++) {
		const rfl_work *w = r->m[i]->meas;
		if (!here(r->m[i], h)) continue;
		if (KNOWN(RFL_UNKNOWN_BYTES(RFL_L2) | RFL_UNKNOWN_BYTES(RFL_L1)))
			CELL(c, i, "%s / %s", NUM(rfl_work_ai(w, RFL_L2), 3), NUM(rfl_work_ai(w, RFL_L1), 3));
		else CELL(c, i, "-");
	}
	row(r, "AI L2 / L1", c);
	MROW("achieved", rfl_report_flops_per_s(m->rm) > 0 ? SI(rfl_report_flops_per_s(m->rm), "FLOP/s") : "-");
	MROW("roof used", rfl_prec_name(m->meas_prec));
#undef KNOWN
	for (i = 0; i < r->nm; i++) {
		const model *m = r->m[i];
		rfl_bound b;
		double a;
		if (!here(m, h)) continue;
		a = rfl_work_attainable(mc, m->meas, m->meas_prec, &b);
		if (a > 0) CELL(c, i, "%s (%s)", SI(a, "FLOP/s"), b.memory ? rfl_level_label(b.level) : "compute");
		else CELL(c, i, "no %s roof", rfl_prec_name(m->meas_prec));
	}
	row(r, "attainable at measured AI", c);
	for (i = 0; i < r->nm; i++) {
		const model *m = r->m[i];
		double a, f;
		if (!here(m, h)) continue;
		a = rfl_work_attainable(mc, m->meas, m->meas_prec, 0);
		f = rfl_report_flops_per_s(m->rm);
		if (a > 0 && f > 0) CELL(c, i, "%s%%%s", NUM(100 * f / a, 3), f > a ? " ABOVE ROOF" : "");
		else CELL(c, i, "-");
	}
	row(r, "% of the roof reached", c);
	MROW("measured / estimated FLOPs", m->rm->ratio > 0 ? NUM(m->rm->ratio, 3) : "-");
	MROW("measured / predicted time",
		 !m->rm->pred_err[h] && w->time_s > 0 ? NUM(w->time_s / m->rm->pred[h].layers_s, 3) : "");
	for (i = 0; i < r->nm; i++) {
		const rfl_forecast *f;
		if (here(r->m[i], h) && r->m[i]->meas->time_s > 0 && forecast(r->m[i], h, &f))
			CELL(c, i, "%s", NUM(r->m[i]->meas->time_s / f->gpu_time_s, 3));
	}
	row(r, "measured / forecast GPU time", c);
#undef MROW
	for (i = 0; i < r->nm; i++) {
		const rfl_reduce_result *res = &RM(i)->res;
		if (!here(r->m[i], h)) continue;
		if (res->ceil_flops[RFL_FP32] > 0 && res->ceil_bw[RFL_DRAM] > 0)
			CELL(c, i, "%s, %s", SI(res->ceil_flops[RFL_FP32], "F/s"), SI(res->ceil_bw[RFL_DRAM], "B/s"));
		else CELL(c, i, "-");
	}
	row(r, "profile's own fp32, DRAM roof", c);
}

/* One machine's table: the estimate, then what was measured on it. */
static void print_machine(report *r, int h) {
	cells c;
	int i, any = 0, any_here = 0;
	memset(c, 0, sizeof c);
	print_estimate_rows(r, h);
	for (i = 0; i < r->nm; i++) any |= RM(i)->file != 0, any_here |= here(r->m[i], h);
	if (any) {
		int tb = 0;
		for (i = 0; i < r->nm; i++) tb |= RM(i)->time_based;
		printf(tb ? "  measured (a PyTorch profiler trace: time-based, the estimate's FLOPs and bytes over its kernel time)\n"
				  : "  measured (Nsight Compute)\n");
		for (i = 0; i < r->nm; i++) {
			const rfl_report_model *rm = RM(i);
			if (!rm->file) CELL(c, i, "no profile");
			else if (rm->meas_hw == h) CELL(c, i, "this machine");
			else if (rm->meas_hw >= 0) CELL(c, i, "on %s only", short_hw(r, r->hw[rm->meas_hw]));
			else CELL(c, i, "not on --hw");
		}
		row(r, "measured on", c);
		if (any_here) print_measured_rows(r, h);
	}
	printf("\n");
}

/* The join: the estimate by group beside the profile's kernels. */
static void print_groups(report *r, const model *m) {
	const rfl_report_model *rm = m->rm;
	const rfl_join *j = &rm->join;
	int k, h = rm->file && rm->meas_hw >= 0 ? rm->meas_hw : 0, kind = j->by == RFL_GROUP_KIND;
	printf("== %s by %s: estimate (%s, %s) beside the profile's kernels%s%s ==\n", m->rm->disp,
		   kind ? "kind" : "layer type", m->src.w.cost.mode == RFL_MODE_TRAIN ? "forward + backward" : "forward",
		   short_hw(r, r->hw[h]), rm->file ? " on " : "",
		   rm->file ? (rm->meas_hw >= 0 ? short_hw(r, r->hw[rm->meas_hw]) : rm->res.device) : "");
	printf("  %-15s %6s %10s %10s %10s %10s | %7s %10s %10s %10s %7s\n", "type", "layers", "FLOPs",
		   "bytes", "pred time", "forecast", "kernels", "FLOPs", "DRAM B", "time", "meas/est");
	for (k = 0; k < j->count + !kind; k++) { /* layer types: then conv + matmul */
		rfl_join_row x = j->rows[k < j->count ? k : RFL_LT_CONV];
		const rfl_join_row *b = &j->rows[RFL_LT_MATMUL];
		const rfl_report_forecast *f = &m->fc[h];
		double ef, mf, fc = k < j->count ? f->forecast_s[k] : f->forecast_s[RFL_LT_CONV] + f->forecast_s[RFL_LT_MATMUL];
		if (k == j->count) { /* libraries run 1x1 convolutions as GEMMs: compare both */
			x.layers += b->layers, x.fwd_flops += b->fwd_flops, x.bwd_flops += b->bwd_flops, x.bytes += b->bytes;
			x.fwd_time_s += b->fwd_time_s, x.bwd_time_s += b->bwd_time_s, x.meas.kernels += b->meas.kernels;
			rfl_work_add(&x.meas.work, &b->meas.work);
		}
		if (!x.layers && !x.meas.kernels) continue;
		ef = x.fwd_flops + x.bwd_flops;
		mf = rfl_work_flops(&x.meas.work);
		if (k == j->count) /* the two rows' FLOPs, summed as such */
			mf = rfl_work_flops(&j->rows[RFL_LT_CONV].meas.work) + rfl_work_flops(&j->rows[RFL_LT_MATMUL].meas.work);
		printf("  %-15s %6d %10s %10s %10s ", k == j->count ? "conv + matmul" : rfl_report_group_name(j, k),
			   x.layers, SI(ef, ""), SI(x.bytes, ""), /* work without a time: no roof for it (unknown) */
			   x.fwd_time_s + x.bwd_time_s > 0 || !(ef > 0 || x.bytes > 0) ? SI(x.fwd_time_s + x.bwd_time_s, "s") : "-");
		printf("%10s | ", f->by_type && fc >= 0 ? SI(fc, "s") : "-");
		if (rm->file && rm->time_based) /* a trace: times only */
			printf("%7s %10s %10s %10s %7s\n", COMMAS((double)x.meas.kernels), "-", "-",
				   SI(x.meas.work.time_s, "s"), "-");
		else if (rm->file)
			printf("%7s %10s %10s %10s %7s\n", COMMAS((double)x.meas.kernels), SI(mf, ""),
				   SI(x.meas.work.bytes[RFL_DRAM], ""), SI(x.meas.work.time_s, "s"),
				   ef > 0 && mf > 0 ? NUM(mf / ef, 3) : "-");
		else
			printf("%7s\n", "-");
	}
	printf("  (pred time: the roofline bound; forecast: the GPU time of its kernels in an eager step,\n"
		   "   the loss's and optimizer's where the kernels are classed; rfl-report -o DIR draws both.)\n");
	if (kind)
		printf("  (FLOPs in FLOP, bytes in B, SI prefixes: G = 1e9. Kernels into kinds by their\n"
			   "   names and launch order (roofline.h, the LLM join).)\n");
	else
		printf("  (FLOPs in FLOP, bytes in B, SI prefixes: G = 1e9. Kernels are typed by name:\n"
			   "   conv/winograd/implicit_gemm -> convolution, gemm/cutlass -> matrix product, ...;\n"
			   "   libraries run some convolutions as GEMMs, hence the conv + matmul row.)\n");
	for (k = 0; rm->file && k < rm->res.warning_count; k++)
		printf("  %s\n", cli_warning(0, &rm->res.warnings[k]));
	for (k = 0; k < j->warning_count; k++)
		printf("  %s\n", cli_warning(0, &j->warnings[k]));
	printf("\n");
}

static void print_reasons(report *r, const model *m) {
	const rfl_report_model *rm = m->rm;
	int i, h = rm->meas_hw, launch_bound = 0; /* said by the join's warning */
	if (!rm->file) return;
	for (i = 0; i < rm->join.warning_count; i++) launch_bound |= rm->join.warnings[i].code == RFL_WARN_LAUNCH_BOUND;
	printf("%s: measured / estimated FLOPs = %s", m->rm->disp, rm->ratio > 0 ? NUM(rm->ratio, 3) : "unknown");
	if (rm->ratio > 0 && rm->ratio >= 0.8 && rm->ratio <= 1.25 && !rm->n_reasons)
		printf(" (close to 1: the estimate and the counters agree)\n");
	else printf("\n");
	for (i = 0; i < rm->n_reasons; i++) printf("  - %s\n", rm->reasons[i]);
	if (h >= 0 && !rm->pred_err[h] && m->meas->time_s > 0) {
		double q = m->meas->time_s / rm->pred[h].layers_s;
		double avg = m->meas->time_s / (double)(rm->res.kernels ? rm->res.kernels : 1);
		if (rm->mismatch)
			printf("  - time: %sx the prediction, but the profile is of another batch or mode "
				   "(above): compare like with like first.\n", NUM(q, 3));
		else if (q > 2 && !launch_bound)
			printf("  - time: the kernels took %sx the roofline prediction. %s kernels averaging %s "
				   "each are too small to fill the GPU (the roofline assumes every layer runs at "
				   "the whole machine's peak or bandwidth); a larger batch narrows the gap.\n",
				   NUM(q, 3), COMMAS((double)rm->res.kernels), SI(avg, "s"));
		else if (q < 0.9)
			printf("  - time: the kernels beat the per-layer prediction (%sx): fused or cached work "
				   "(L2 hits) moved fewer DRAM bytes than the per-layer estimate assumes.\n", NUM(q, 3));
		if (rm->time_based)
			printf("  - the trace's time is the sum of kernel durations (%s of GPU busy time in a span of "
				   "%s from the first kernel's start to the last one's end).\n",
				   SI((double)rm->res.trace.busy_ns * 1e-9, "s"), SI((double)rm->res.trace.span_ns * 1e-9, "s"));
		else
			printf("  - the profile's time is the sum of kernel durations (serialised by ncu, no launch "
				   "gaps); time a step with CUDA events over warm runs for its latency.\n");
	}
	printf("  profile: %s%s%s\n", rm->file, rm->res.device[0] ? ", device " : "", rm->res.device);
	if (rm->device_warning.code) printf("  %s\n", cli_warning(0, &rm->device_warning));
	else if (!rm->res.device[0] && !r->ncu_hw)
		printf("  NOTE: the profile names no device (details page or nvprof): assumed measured on "
			   "the %s, the first --hw (--ncu-hw NAME says otherwise).\n", r->hw[h]->name);
	else if (h < 0)
		printf("  NOTE: the profile was measured on '%s', which is not among --hw: the measured point is "
			   "left off the charts.\n", rm->res.device[0] ? rm->res.device : "?");
}

/* ---- --explain -------------------------------------------------------------- */
static void explain_measured(report *r, const model *m, int h, double F) {
	const rfl_report_model *rm = m->rm;
	const rfl_machine *mc = r->hw[h];
	const rfl_work *w = m->meas;
	double mf = rfl_work_flops(w), mb = w->bytes[RFL_DRAM], t = w->time_s;
	double fl = t > 0 ? mf / t : 0, a = rfl_work_attainable(mc, w, m->meas_prec, 0), mai = mb > 0 ? mf / mb : 0;
	printf("    measured here (%s):\n", rm->file);
	if (rm->time_based) { /* no counters: the estimate's work over the trace's time */
		printf("      time = sum of the trace's kernel durations = %s s (no FLOP or byte counters: the\n"
			   "        point is time-based, the estimate's %s and %s over this time)\n",
			   NUM(t, 6), SI(mf, "FLOP"), SI(mb, "B"));
		printf("      achieved = %s / %s = %s; %s%% of the roof (%s)\n", SI(mf, "FLOP"), SI(t, "s"),
			   SI(fl, "FLOP/s"), a > 0 ? NUM(100 * fl / a, 3) : "-", SI(a, "FLOP/s"));
	} else {
	printf("      FLOPs = fadd + fmul + 2 x ffma (fp32) + hadd + hmul + 2 x hfma (fp16)\n"
		   "              + 2 x (dfma) + dadd + dmul (fp64) + tensor-path ops\n"
		   "            = %s + %s + %s + %s = %s FLOP\n",
		   COMMAS(w->flops[RFL_FP32]), COMMAS(w->flops[RFL_FP16]), COMMAS(w->flops[RFL_FP64]),
		   COMMAS(rfl_report_tensor_flops(rm)), COMMAS(mf));
	printf("      bytes = dram__bytes_read.sum + dram__bytes_write.sum = %s B\n", COMMAS(mb));
	printf("      time = sum of gpu__time_duration.sum = %s s\n", NUM(t, 6));
	printf("      AI = %s / %s = %s FLOP/B\n", SI(mf, "FLOP"), SI(mb, "B"), NUM(mai, 4));
	printf("      achieved = FLOPs / time = %s / %s = %s\n", SI(mf, "FLOP"), SI(t, "s"), SI(fl, "FLOP/s"));
	if (a > 0) {
		char at[160];
		rfl_attainable_text(at, sizeof at, mc, w, m->meas_prec, 0);
		printf("      attainable = min(peak %s, AI x BW) at the level that binds: %s\n",
			   rfl_prec_name(m->meas_prec), at);
		printf("      %% of roof = achieved / attainable = %s / %s = %s%%\n", SI(fl, "FLOP/s"),
			   SI(a, "FLOP/s"), NUM(100 * fl / a, 3));
	}
	printf("      measured / estimated FLOPs = %s / %s = %s\n", SI(mf, "FLOP"), SI(F, "FLOP"),
		   NUM(F > 0 ? mf / F : 0, 4));
	}
	if (!rm->pred_err[h] && t > 0)
		printf("      measured / predicted time = %s / %s = %s\n", SI(t, "s"), SI(rm->pred[h].layers_s, "s"),
			   NUM(t / rm->pred[h].layers_s, 4));
}

/* Why the step takes longer than its bound, term by term. */
static void explain_forecast(report *r, const model *m, int h) {
	const rfl_forecast *f;
	int i;
	if (!forecast(m, h, &f)) return;
	printf("    forecast (eager PyTorch; %s):\n", f->basis);
	printf("      GPU: %.0f kernels (forward, backward, loss, optimizer, casts), each timed from its\n"
		   "        shape (GEMM tiles and waves over %d SMs, achieved DRAM bandwidth) + a fixed cost = %s\n",
		   f->kernels, r->hw[h]->units, SI(f->gpu_time_s, "s"));
	printf("      host: %.0f ops dispatched = %s; step = max(GPU, host) + what does not overlap = %s (%s binds)\n",
		   f->host_ops, SI(f->host_time_s, "s"), SI(f->step_time_s, "s"), f->binds);
	printf("      step = bound + the terms below = %s + %s = %s (%sx the bound):\n", SI(f->bound_s, "s"),
		   SI(f->step_time_s - f->bound_s, "s"), SI(f->step_time_s, "s"),
		   NUM(f->bound_s > 0 ? f->step_time_s / f->bound_s : 0, 3));
	for (i = 0; i < f->n_terms; i++) {
		const rfl_forecast_term *t = &f->terms[i];
		const char *what = !strcmp(t->name, "kernels") ? "kernels x fixed cost"
						 : !strcmp(t->name, "tiles") ? "tile and wave efficiency of the GEMMs"
						 : !strcmp(t->name, "dram_bandwidth") ? "memory-bound kernels below the DRAM roof"
						 : !strcmp(t->name, "added_work") ? "work the bound leaves out (loss, optimizer, casts)"
						 : !strcmp(t->name, "tf32_convolutions") ? "fp32: convolutions on TF32, not FP32"
						 : !strcmp(t->name, "static_cache") ? "KV heads repeated over the static cache"
						 : !strcmp(t->name, "host") ? "host dispatch beyond the GPU" : t->name;
		printf("        %-46s %s%10s", what, t->seconds < 0 ? "-" : "+", SI(t->seconds < 0 ? -t->seconds : t->seconds, "s"));
		if (!strcmp(t->name, "tiles")) printf("  (%s%% of peak at these shapes)", NUM(100 * t->value, 3));
		if (!strcmp(t->name, "kernels")) printf("  (%.0f x %s)", t->value, SI(t->value > 0 ? t->seconds / t->value : 0, "s"));
		printf("\n");
	}
	if (here(m, h) && m->meas->time_s > 0)
		printf("      measured kernel time / forecast GPU time = %s / %s = %s\n", SI(m->meas->time_s, "s"),
			   SI(f->gpu_time_s, "s"), NUM(m->meas->time_s / f->gpu_time_s, 3));
}

static void explain_model(report *r, const model *m) {
	const rfl_report_model *rm = m->rm;
	const rfl_cost_desc *d = &m->src.w.cost;
	double ef = rfl_work_flops(&rm->cost.forward), bf = rfl_work_flops(&rm->cost.backward);
	double F = rfl_work_flops(&rm->est), B = rm->est.bytes[RFL_DRAM], ai = B > 0 ? F / B : 0;
	int h;
	printf("-- %s, explained --\n", m->rm->disp);
	printf("  estimate: every layer's formula (rfl-estimate %s --batch %llu --mode %s lists them);\n"
		   "    a multiply-add = 2 FLOPs; conv = 2 x Cin/groups x Kh x Kw x Cout x Hout x Wout x batch\n",
		   m->src.w.name, (unsigned long long)(d->batch ? d->batch : 1), d->mode == RFL_MODE_TRAIN ? "train" : "infer");
	if (d->mode == RFL_MODE_TRAIN) {
		printf("  FLOPs = forward + backward = %s + %s = %s FLOP\n", COMMAS(ef), COMMAS(bf), COMMAS(F));
		printf("    (backward / forward = %s: weight + input gradients = 2 x forward, minus the\n"
			   "     first layer's input gradient; mac part %s / %s)\n",
			   NUM(ef > 0 ? bf / ef : 0, 4), COMMAS((double)rm->cost.bwd_mac_flops),
			   COMMAS((double)rm->cost.fwd_mac_flops));
		printf("  bytes = forward + backward = %s + %s = %s B (each layer reads its inputs and\n"
			   "    weights and writes its output, at %d bytes per element)\n",
			   COMMAS((double)rm->cost.fwd_bytes), COMMAS((double)rm->cost.bwd_bytes), COMMAS(B),
			   rfl_dtype_bytes(d->dtype));
	} else {
		printf("  FLOPs = forward = %s FLOP (mac part %s)\n", COMMAS(F), COMMAS((double)rm->cost.fwd_mac_flops));
		printf("  bytes = %s B (inputs + weights + output of every layer, %d bytes per element)\n",
			   COMMAS(B), rfl_dtype_bytes(d->dtype));
	}
	printf("  AI = FLOPs / bytes = %s / %s = %s FLOP/B\n", SI(F, "FLOP"), SI(B, "B"), NUM(ai, 4));
	for (h = 0; h < r->nh; h++) {
		const rfl_machine *mc = r->hw[h];
		rfl_prec p = rm->est_prec;
		double pk = mc->peak_flops[p], bw = mc->bw_bytes_per_s[RFL_DRAM];
		printf("  on %s (%s roof):\n", mc->name, rfl_prec_name(p));
		if (!(pk > 0)) { printf("    no %s roof on this machine\n", rfl_prec_name(p)); continue; }
		printf("    ridge = peak / BW = %s / %s = %s FLOP/B\n", SI(pk, "FLOP/s"), SI(bw, "B/s"), NUM(pk / bw, 4));
		{ /* the estimate's bytes are DRAM bytes: the library's text names the level */
			char at[160];
			rfl_attainable_text(at, sizeof at, mc, &rm->est, p, 0);
			printf("    attainable = min(peak, AI x BW): %s\n", at);
		}
		if (!rm->pred_err[h]) {
			const rfl_net_prediction *q = &rm->pred[h];
			printf("    predicted time, whole = max(FLOPs / peak, bytes / BW) = max(%s, %s) = %s\n",
				   SI(q->whole.compute_s, "s"), SI(q->whole.memory_s, "s"), SI(q->whole.time_s, "s"));
			printf("    predicted time, per layer = sum of max(FLOPs_i / peak, bytes_i / BW) = %s\n"
				   "      (%d layers compute-bound, %d memory-bound; used in the tables and charts)\n",
				   SI(q->layers_s, "s"), q->compute_layers, q->memory_layers);
		}
		explain_forecast(r, m, h);
		if (here(m, h)) explain_measured(r, m, h, F);
	}
	printf("\n");
}

/* ---- charts ------------------------------------------------------------------- */
/* --ceilings LIST: extra ceilings on the roofline charts (rfl-plot's). */
static void ceilings(const report *r, rfl_roofline_desc *d) {
	if (r->ceilings) rfl_ceilings_parse(r->ceilings, d->prec, &d->extra_precs, &d->extra_levels, 0);
}

/* Points of the model-level roofline: panel index `panel`, machine h. */
static int model_points(report *r, rfl_point *pts, int n, int panel, int h) {
	rfl_report_model *ms[MAXM];
	int i;
	for (i = 0; i < r->nm; i++) ms[i] = r->m[i]->rm;
	return n + rfl_report_points(ms, r->nm, r->hw, r->nh, h, panel, pts + n, 4 * MAXM);
}

#ifdef RFL_HAS_PNG
/* The canvas as DIR/FILE, FILE the format fmt with a and b. */
static void save(report *r, rfl_canvas *cv, const char *fmt, const char *a, const char *b) {
	char path[512], file[128];
	snprintf(file, sizeof file, fmt, a, b);
	snprintf(path, sizeof path, "%s/%s", r->outdir, file);
	cli_png_save(&r->c, cv, path);
	if (r->nwritten < 32) snprintf(r->written[r->nwritten++], sizeof r->written[0], "%s", path);
}

/* A panel whose machine has no roof of the work's precision stays empty in
   the chart; say why in it. On a machine where nothing was measured, say
   where the measurements are: an absent point must not read as a missing one. */
static void notes(report *r, rfl_canvas *cv, const rfl_chart_area *areas, const int *hs, int n,
				  int scale, rfl_prec p) {
	int k, i;
	for (k = 0; k < n; k++) {
		char t[96] = "";
		if (!(r->hw[hs[k]]->peak_flops[p] > 0)) {
			snprintf(t, sizeof t, "no %s unit on this machine", rfl_prec_name(p));
			rfl_draw_text(cv, (areas[k].x0 + areas[k].x1) / 2, (areas[k].y0 + areas[k].y1) / 2, t, 2,
						  RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL_RGB(150, 0, 0));
			t[0] = 0;
		}
		for (i = 0; i < r->nm; i++) {
			const rfl_report_model *rm = RM(i);
			if (rm->file && rm->meas_hw == hs[k]) { t[0] = 0; break; }
			if (rm->file && rm->meas_hw >= 0 && !t[0])
				snprintf(t, sizeof t, n == 1 ? "measured on %s: see roofline-%s.png" : "measured on %s: see its panel",
						 short_hw(r, r->hw[rm->meas_hw]), r->hw[rm->meas_hw]->id);
		}
		if (t[0])
			rfl_draw_text(cv, areas[k].x1 - 8, areas[k].y1 - 8, t, scale, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM,
						  RFL_RGB(90, 90, 90));
	}
}

static void chart_rooflines(report *r) {
	static int idx[MAXH];
	static rfl_chart_area areas[MAXH];
	static rfl_point pts[4 * MAXM * MAXH];
	const rfl_cost_desc *d = &r->m[0]->src.w.cost;
	unsigned long long batch = (unsigned long long)(d->batch ? d->batch : 1);
	const char *dt = rfl_dtype_name(d->dtype);
	rfl_roofline_desc rd;
	rfl_canvas cv;
	int h, n;
	char title[160];
	for (h = 0; h < r->nh; h++) {
		n = model_points(r, pts, 0, 0, h);
		snprintf(title, sizeof title, "%s, batch %llu, %s, %s", short_hw(r, r->hw[h]), batch,
				 d->mode == RFL_MODE_TRAIN ? "training step" : "inference", dt);
		cli_roofline_desc(&rd, title, &r->hw[h], &r->hw_measured[h], 1, pts, n, r->m[0]->rm->est_prec);
		ceilings(r, &rd);
		rd.areas = areas;
		cli_canvas(&r->c, &cv, 1200, 800);
		rfl_chart_roofline(&cv, &rd);
		notes(r, &cv, areas, &h, 1, 2, rd.prec);
		save(r, &cv, "roofline-%s.png", r->hw[h]->id, 0);
	}
	if (r->nh < 2) return;
	n = 0; /* the overview: one panel per machine, side by side */
	for (h = 0; h < r->nh; h++) n = model_points(r, pts, n, h, h), idx[h] = h;
	snprintf(title, sizeof title, "Roofline, batch %llu %s, %s: hollow = estimate, filled = measured", batch,
			 d->mode == RFL_MODE_TRAIN ? "training" : "inference", dt);
	cli_roofline_desc(&rd, title, r->hw, r->hw_measured, r->nh, pts, n, r->m[0]->rm->est_prec);
	ceilings(r, &rd);
	cli_canvas(&r->c, &cv, 700 * (r->nh < 4 ? r->nh : 3), r->nh <= 3 ? 750 : 1400);
	rd.columns = r->nh <= 3 ? r->nh : 3;
	rd.font_scale = 2; /* readable when the picture is shown scaled down */
	rd.areas = areas;
	rfl_chart_roofline(&cv, &rd); /* RFL_ERR_NO_ROOF: the other panels are drawn; noted */
	notes(r, &cv, areas, idx, r->nh, rd.font_scale, rd.prec);
	save(r, &cv, "roofline.png", 0, 0);
}

static void chart_layers(report *r, const model *m) {
	static rfl_point pts[RFL_ZOO_MAX_LAYERS + RFL_JOIN_ROWS];
	const rfl_report_model *rm = m->rm;
	const rfl_cost_desc *d = &m->src.w.cost;
	rfl_roofline_desc rd;
	rfl_canvas cv;
	int h = rm->file && rm->meas_hw >= 0 ? rm->meas_hw : 0;
	int n = rfl_report_layer_points(rm, &m->src.w, r->hw, h, pts, sizeof pts / sizeof *pts);
	char title[200];
	snprintf(title, sizeof title,
			 here(m, h) ? "%s b%llu %s: layers hollow, kernels filled, size = time"
						: "%s b%llu %s: every layer, marker size = time",
			 m->rm->disp, (unsigned long long)(d->batch ? d->batch : 1), d->mode == RFL_MODE_TRAIN ? "fwd+bwd" : "forward");
	cli_roofline_desc(&rd, title, &r->hw[h], &r->hw_measured[h], 1, pts, n, rm->est_prec);
	rd.legend = RFL_LEGEND_TOP_LEFT; /* above the memory slope: always empty */
	cli_canvas(&r->c, &cv, 1200, 800);
	rfl_chart_roofline(&cv, &rd);
	save(r, &cv, "layers-%s.png", m->src.w.name, 0);
}

/* An LLM: its step on the roofline and, a decode, against the batch. */
static void chart_llm(report *r, const model *m) {
	static rfl_point pts[6 + 2 * RFL_JOIN_ROWS];
	static rfl_xy batch_pts[RFL_REPORT_BATCH_POINTS];
	const char *fmt = r->nm > 1 ? "llm-%s-%s.png" : "llm-%s.png%.0s"; /* several models: named */
	int h = m->rm->file && m->rm->meas_hw >= 0 ? m->rm->meas_hw : 0, dec = m->src.w.phase == RFL_LLM_DECODE;
	int n = rfl_report_llm_points(m->rm, &m->src.w, r->hw, h, pts, sizeof pts / sizeof *pts);
	char title[200];
	rfl_roofline_desc rd;
	rfl_canvas cv;
	snprintf(title, sizeof title, "%s on %s: the step and its kinds", m->rm->disp, short_hw(r, r->hw[h]));
	cli_roofline_desc(&rd, title, &r->hw[h], &r->hw_measured[h], 1, pts, n, m->rm->est_prec);
	rd.legend = RFL_LEGEND_BOTTOM_RIGHT;
	cli_canvas(&r->c, &cv, 1600, 790);
	rfl_chart_roofline(&cv, &rd);
	save(r, &cv, fmt, "roofline", m->src.w.name);
	if (dec && rfl_report_batch_chart(&cv, m->rm->disp, &m->src.w, r->hw, r->nh, batch_pts) == RFL_OK)
		save(r, &cv, fmt, "batch", m->src.w.name);
}

/* FLOPs and time by group: forward, backward (training), measured. */
static void chart_bars(report *r, const model *m) {
	static double vf[RFL_JOIN_ROWS * 3], vt[RFL_JOIN_ROWS * 3];
	static const char *cats[RFL_JOIN_ROWS], *ser[3];
	static rfl_color col[3];
	enum { W = 1600, H = 760, HC = 690 };
	const rfl_report_model *rm = m->rm;
	const rfl_join *j = &rm->join;
	unsigned long long batch = (unsigned long long)(m->src.w.cost.batch ? m->src.w.cost.batch : 1);
	rfl_bar_desc b;
	rfl_canvas full, half;
	int k, n = 0, h = rm->file && rm->meas_hw >= 0 ? rm->meas_hw : 0;
	int meas = here(m, h), train = m->src.w.cost.mode == RFL_MODE_TRAIN, ns = 1 + train + meas;
	char title_f[160], title_t[160];
	for (k = 0; k < j->count; k++) {
		const rfl_join_row *x = &j->rows[k];
		if (!(x->fwd_flops > 0) && !(x->fwd_time_s > 0) && !(meas && x->meas.work.time_s > 0)) continue;
		cats[n] = rfl_report_group_name(j, k);
		vf[n * ns] = x->fwd_flops, vt[n * ns] = x->fwd_time_s;
		if (train) vf[n * ns + 1] = x->bwd_flops, vt[n * ns + 1] = x->bwd_time_s;
		if (meas) vf[n * ns + ns - 1] = rfl_work_flops(&x->meas.work), vt[n * ns + ns - 1] = x->meas.work.time_s;
		n++;
	}
	ser[0] = "forward (estimate)", col[0] = RFL_RGB(0, 114, 178);
	ser[1] = "backward (estimate)", col[1] = RFL_RGB(230, 159, 0);
	if (meas) {
		static char lab[96];
		snprintf(lab, sizeof lab, "measured kernels (%s)", short_hw(r, r->hw[h]));
		ser[ns - 1] = lab, col[ns - 1] = RFL_RGB(0, 158, 115);
	}
	cli_canvas(&r->c, &full, W, H);
	/* two charts side by side on one image, each on a sub-canvas over the
	   same pixels; one legend in a strip underneath, clear of the bars */
	memset(&b, 0, sizeof b);
	snprintf(title_f, sizeof title_f, "%s FLOPs by %s, batch %llu", m->rm->disp,
			 j->by == RFL_GROUP_KIND ? "kind" : "layer type", batch);
	b.title = title_f;
	b.value_title = "FLOPs (FLOP, log scale)";
	b.categories = cats, b.n_categories = n;
	b.series = ser, b.n_series = ns;
	b.values = vf;
	b.orient = RFL_ORIENT_HORIZONTAL;
	b.scale = RFL_SCALE_LOG;
	b.colors = col;
	b.legend = RFL_LEGEND_NONE;
	b.font_scale = 2;
	rfl_canvas_init(&half, full.pixels, (size_t)W * 3 * (HC - 1) + (W / 2) * 3, W / 2, HC, 3, W * 3);
	rfl_chart_bars(&half, &b);
	snprintf(title_t, sizeof title_t, "%s time by %s on %s", m->rm->disp,
			 j->by == RFL_GROUP_KIND ? "kind" : "layer type", short_hw(r, r->hw[h]));
	b.title = title_t;
	b.value_title = "time (s, log scale; estimate = roofline prediction)";
	b.values = vt;
	rfl_canvas_init(&half, full.pixels + (W / 2) * 3, (size_t)W * 3 * (HC - 1) + (W / 2) * 3, W / 2, HC, 3, W * 3);
	rfl_chart_bars(&half, &b);
	rfl_report_legend(&full, W / 2.0, HC + 35, ser, col, ns, 2);
	save(r, &full, "types-%s.png", m->src.w.name, 0);
}

/* GPU time by layer type on machine h: the bound, the forecast, the
   measured kernels; 1x1 convolutions run as GEMMs: conv + matmul too. */
static void chart_forecast(report *r, const model *m, int h) {
	static double v[(RFL_JOIN_ROWS + 1) * 3];
	static const char *cats[RFL_JOIN_ROWS + 1], *ser[3];
	static char lab[2][160], title[200];
	const rfl_report_forecast *f = &m->fc[h];
	const rfl_join *j = &m->rm->join;
	int k, s, n = 0, ns = here(m, h) ? 3 : 2;
	static const rfl_color col[3] = {RFL_RGB(0, 114, 178), RFL_RGB(230, 159, 0), RFL_RGB(0, 158, 115)};
	rfl_bar_desc b;
	rfl_canvas cv, top;
	if (f->err != RFL_OK || !f->by_type) return;
	for (k = 0; k <= j->count; k++) {
		const double *x[3] = {f->bound_s, f->forecast_s, f->measured_s};
		int c = k == j->count, any = 0;
		if (c && (j->by == RFL_GROUP_KIND || n < 2)) break;
		for (s = 0; s < ns; s++) {
			v[n * ns + s] = c ? (x[s][0] < 0 || x[s][1] < 0 ? -1 : x[s][0] + x[s][1]) : x[s][k];
			any |= v[n * ns + s] > 0;
		}
		if (any) cats[n++] = c ? "conv + matmul" : rfl_report_group_name(j, k);
		/* the forecast puts the optimizer's launches here (the classifier's
		   class of its kernels): say so, a profile may hold no optimizer step */
		if (any && !c && m->src.w.cost.mode == RFL_MODE_TRAIN && !strcmp(cats[n - 1], "elementwise"))
			cats[n - 1] = "elementwise + optimizer";
	}
	snprintf(lab[0], sizeof lab[0], "forecast (%s PyTorch)", f->step.runtime);
	snprintf(lab[1], sizeof lab[1], "measured kernels (%s)", short_hw(r, r->hw[h]));
	ser[0] = "roofline bound", ser[1] = lab[0], ser[2] = lab[1];
	snprintf(title, sizeof title, "%s b%llu %s on %s: GPU time by %s", m->rm->disp,
			 (unsigned long long)(m->src.w.cost.batch ? m->src.w.cost.batch : 1),
			 m->src.w.cost.mode == RFL_MODE_TRAIN ? "training step" : "inference", short_hw(r, r->hw[h]),
			 j->by == RFL_GROUP_KIND ? "kind" : "layer type");
	memset(&b, 0, sizeof b);
	b.title = title, b.value_title = "GPU time (s, log scale)";
	b.categories = cats, b.n_categories = n, b.series = ser, b.n_series = ns, b.values = v;
	b.orient = RFL_ORIENT_HORIZONTAL, b.scale = RFL_SCALE_LOG, b.value_labels = 1, b.colors = col;
	b.legend = RFL_LEGEND_NONE; /* a strip underneath, with the basis */
	cli_canvas(&r->c, &cv, 1600, 900);
	rfl_canvas_init(&top, cv.pixels, (size_t)1600 * 3 * 790, 1600, 790, 3, 1600 * 3);
	rfl_chart_bars(&top, &b);
	rfl_report_legend(&cv, 800, 815, ser, col, ns, 2);
	{ /* the basis, in two lines when long: its first part, then the rest */
		const char *semi = strlen(f->step.basis) > 60 ? strchr(f->step.basis, ';') : 0;
		int n1 = semi ? (int)(semi - f->step.basis) : (int)strlen(f->step.basis);
		snprintf(title, sizeof title, "forecast %.*s; its %s step %s (%s binds); bars: kernel time%s%s", n1,
				 f->step.basis, f->step.runtime, SI(f->step.step_time_s, "s"), f->step.binds,
				 ns < 3 && m->rm->file && m->rm->meas_hw >= 0 ? "; measured on " : "",
				 ns < 3 && m->rm->file && m->rm->meas_hw >= 0 ? short_hw(r, r->hw[m->rm->meas_hw]) : "");
		rfl_draw_text(&cv, 800, 850, title, 2, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL_RGB(40, 40, 40));
		if (semi) rfl_draw_text(&cv, 800, 880, semi + 2, 2, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL_RGB(40, 40, 40));
	}
	save(r, &cv, "forecast-%s-%s.png", m->src.w.name, r->hw[h]->id);
}
#endif /* RFL_HAS_PNG */

/* ---- report.json ------------------------------------------------------------ */
static void json_doc(rfl_json_writer *w, const void *ctx) {
	const report *r = (const report *)ctx;
	const rfl_report_model *ms[MAXM];
	const char *charts[32];
	rfl_report rep;
	int i;
	for (i = 0; i < r->nm; i++) ms[i] = r->m[i]->rm;
	for (i = 0; i < r->nwritten; i++) charts[i] = r->written[i];
	memset(&rep, 0, sizeof rep);
	rep.d = &r->m[0]->src.w.cost;
	rep.machines = r->hw, rep.n_machines = r->nh;
	rep.models = ms, rep.n_models = r->nm;
	rep.charts = charts;
	rep.forecasts = r->fc;
#ifdef RFL_HAS_PNG
	rep.n_charts = r->nwritten;
#else
	rep.n_charts = -1;
#endif
	rfl_report_json(w, &rep);
}

/* ---- arguments ------------------------------------------------------------- */
static void add_ncu(report *r, const char *v) {
	const char *eq = strchr(v, '=');
	if (r->n_ncu >= 2 * MAXM) cli_usage_error(&r->c, "at most %d --ncu", MAXM);
	if (eq && !cli_file_exists(v)) { /* MODEL=FILE, unless a file has that whole name */
		char *key = r->ncu_keys[r->n_ncu / 2];
		snprintf(key, 64, "%.*s", (int)(eq - v), v);
		r->ncu[r->n_ncu++] = key;
		r->ncu[r->n_ncu++] = eq + 1;
	} else {
		r->ncu[r->n_ncu++] = 0;
		r->ncu[r->n_ncu++] = v;
	}
}

/* The options; returns 1 when one that names the work was given (a model,
   a machine, a profile, a model option): else the demo runs. */
static int parse_args(report *r) {
	const char *models = 0;
	int id, any = 0, mode = 0;
	size_t bad = 0;
	unsigned pr, lv;
	while ((id = cli_next(&r->c)) != CLI_DONE) {
		any |= id != OPT_OUT && id != OPT_JSON && id != OPT_EXPLAIN && id != OPT_ASCII &&
			   id != OPT_CEILINGS && id != OPT_NCU_HW;
		mode |= id == CLI_MODE;
		switch (id) {
		case CLI_HELP: fputs(usage[0], stdout), fputs(usage[1], stdout), exit(CLI_OK);
		case CLI_ARG: cli_usage_error(&r->c, "unexpected argument '%s' (models go after --model)", r->c.val); break;
		case CLI_HW: case CLI_HW_FILE: break; /* kept in c.hw, c.hw_files */
		case OPT_MODEL: models = r->c.val; break;
		case CLI_HF_CONFIG: add_model(r, 0, r->c.val, 0); break;
		case CLI_ONNX: add_model(r, 0, 0, r->c.val); break;
		case OPT_NCU: add_ncu(r, r->c.val); break;
		case OPT_NCU_HW: r->ncu_hw = cli_find_hw(&r->c, r->c.val); break;
		case OPT_STEP: {
			char *end;
			r->step = strtoull(r->c.val, &end, 10);
			if (*end || !*r->c.val || r->c.val[0] == '-') cli_usage_error(&r->c, "--step takes a number N (ProfilerStep#N), not '%s'", r->c.val);
			r->use_step = 1;
			break;
		}
		case OPT_OUT: r->outdir = r->c.val; break;
		case OPT_JSON: r->json = 1; break;
		case OPT_EXPLAIN: r->explain = 1; break;
		case OPT_ASCII: r->ascii = 1; break;
		case OPT_CEILINGS:
			if (rfl_ceilings_parse(r->c.val, RFL_FP32, &pr, &lv, &bad) != RFL_OK)
				cli_usage_error(&r->c, "--ceilings: unknown ceiling '%.*s' (fp64, fp16, tensor, l2, l1, all)",
								(int)strcspn(r->c.val + bad, ","), r->c.val + bad);
			r->ceilings = r->c.val;
			break;
		default:
			if (!cli_model_option(&r->c, &r->opt, id)) cli_usage_error(&r->c, "unknown option '%s'", r->c.opt);
		}
	}
	if (models) { /* the named models first, then --hf-config and --onnx ones */
		int n = r->nm, i;
		model *tail[MAXM];
		memcpy(tail, r->m, sizeof(model *) * (size_t)n);
		r->nm = 0;
		add_models(r, models);
		for (i = 0; i < n; i++) {
			if (r->nm >= MAXM) cli_usage_error(&r->c, "at most %d models", MAXM);
			r->m[r->nm++] = tail[i];
		}
	}
	for (id = 0; id < r->nm; id++) { /* every option applies to every model */
		model *m = r->m[id];
		cli_model src = r->opt;
		rfl_llm_config cfg;
		src.name = m->src.name, src.hf = m->src.hf, src.onnx = m->src.onnx;
		/* an LLM's default step, a decode, generates: inference unless --mode */
		if (!mode && src.d.phase != RFL_WL_PREFILL && (src.hf || rfl_llm_find(src.name, &cfg) == RFL_OK))
			src.d.cost.mode = RFL_MODE_INFER;
		m->src = src;
	}
	return any;
}

/* The demo's data: examples/data/ from the current directory, else beside
   the executable (build/rfl-report -> ../examples/data). */
static const char *demo_file(report *r, const char *name) {
	static char bufs[2][1024];
	static int k;
	char *b = bufs[k++ & 1];
	const char *argv0 = r->c.argv[0], *slash = strrchr(argv0, '/');
	snprintf(b, 1024, "examples/data/%s", name);
	if (cli_file_exists(b)) return b;
	if (slash) {
		snprintf(b, 1024, "%.*s/../examples/data/%s", (int)(slash - argv0), argv0, name);
		if (cli_file_exists(b)) return b;
	}
	cli_input_error(&r->c, 0, 0, 0, "demo data examples/data/%s not found: run rfl-report from the "
					"project directory (make demo does)", name);
	return 0;
}

/* No arguments: the reports' exercise on the shipped profiles. */
static void demo_args(report *r) {
	r->demo = 1;
	add_models(r, "resnet18,alexnet");
	r->c.hw = "v100,a100,h100";
	r->ncu[r->n_ncu++] = "resnet18";
	r->ncu[r->n_ncu++] = demo_file(r, "resnet18-b1-train-seed-raw.csv");
	r->ncu[r->n_ncu++] = "alexnet";
	r->ncu[r->n_ncu++] = demo_file(r, "alexnet-b1-train-full-raw.csv");
	if (!r->outdir)
		r->outdir = cli_file_exists("build/.") || cli_file_exists("build/rfl-report") ? "build/demo" : "rfl-demo";
	if (!r->json) printf("rfl-report demo: the reports' exercise. ResNet-18 and AlexNet, batch 1, one training\n"
		   "step, FP32, on V100, A100 and H100; the measured points are real H100 profiles\n"
		   "(examples/data/). Same as:\n"
		   "  rfl-report --model resnet18,alexnet --hw v100,a100,h100 --batch 1 --mode train \\\n"
		   "    --ncu resnet18=%s --ncu alexnet=%s -o %s\n\n",
		   r->ncu[1], r->ncu[3], r->outdir);
}

/* --hw names and --hw-file files (each machine once), plus --ncu-hw when
   --hw forgot it; a level --ceilings asks for and a machine lacks: said once.
   None: the machines the profiles ran on, else the H100. */
static void pick_machines(report *r) {
	int h, g;
	r->nh = cli_machines(&r->c, r->hw, r->hw_measured, MAXH);
	if (!r->nh && (r->c.hw || r->c.hw_files)) cli_usage_error(&r->c, "--hw needs at least one name");
	for (h = 0; h < r->nh; h++)
		for (g = 0; g < h; g++)
			if (r->hw[g] == r->hw[h]) cli_usage_error(&r->c, "--hw names %s twice", r->hw[h]->id);
	if (r->ncu_hw) {
		for (h = 0; h < r->nh && r->hw[h] != r->ncu_hw; h++) {}
		if (h == r->nh) {
			if (r->nh >= MAXH) cli_usage_error(&r->c, "at most %d machines with --ncu-hw", MAXH);
			r->hw_measured[r->nh] = 0;
			r->hw[r->nh++] = r->ncu_hw;
		}
	}
	if (r->ceilings) {
		rfl_roofline_desc d;
		cli_roofline_desc(&d, 0, r->hw, r->hw_measured, r->nh, 0, 0, RFL_FP32);
		ceilings(r, &d);
		cli_warn_missing_levels(&r->c, &d);
	}
}

/* ---- output ---------------------------------------------------------------- */
/* Charts and report.json into -o DIR. */
static void write_outputs(report *r) {
	char path[512];
	FILE *f;
	cli_make_dir(&r->c, r->outdir);
#ifdef RFL_HAS_PNG
	{
		int i;
		chart_rooflines(r);
		for (i = 0; i < r->nm; i++) chart_layers(r, r->m[i]);
		for (i = 0; i < r->nm; i++) chart_bars(r, r->m[i]);
		for (i = 0; i < r->nm * r->nh; i++) chart_forecast(r, r->m[i / r->nh], i % r->nh);
		for (i = 0; i < r->nm; i++) if (r->m[i]->src.w.source == RFL_WL_LLM) chart_llm(r, r->m[i]);
	}
#endif
	snprintf(path, sizeof path, "%s/report.json", r->outdir);
	if (!(f = fopen(path, "w"))) cli_input_error(&r->c, path, 0, 0, "cannot write: %s", strerror(errno));
	cli_json_out(&r->c, f, json_doc, r);
	fclose(f);
}

/* --ascii: the measured machine's roofline (else the first --hw) as text. */
static void print_ascii(report *r) {
	static rfl_point pts[4 * MAXM];
	static char text[RFL_ASCII_BYTES(80, 24)];
	rfl_roofline_desc d;
	int i, h = 0, n;
	for (i = 0; i < r->nm; i++)
		if (RM(i)->file && RM(i)->meas_hw >= 0) { h = RM(i)->meas_hw; break; }
	n = model_points(r, pts, 0, 0, h);
	cli_roofline_desc(&d, 0, &r->hw[h], &r->hw_measured[h], 1, pts, n, RM(0)->est_prec);
	ceilings(r, &d);
	if (rfl_chart_roofline_ascii(text, sizeof text, 80, 24, &d) == RFL_OK)
		printf("Roofline of %s (text):\n%s\n", r->hw[h]->name, text);
}

static void print_report(report *r) {
	int i, h;
	for (h = 0; h < r->nh; h++) print_machine(r, h);
	for (i = 0; i < r->nm; i++) print_groups(r, r->m[i]);
	for (i = 0; i < r->nm; i++) print_reasons(r, r->m[i]);
	printf("\n");
	for (i = 0; r->explain && i < r->nm; i++) explain_model(r, r->m[i]);
	if (r->ascii) print_ascii(r);
	printf("Conventions: a multiply-add = 2 FLOPs; G = 1e9, GB = 1e9 bytes; dense datasheet peaks;\n"
		   "each work under the roof of its own precision. Estimates: per-layer formulas\n"
		   "(rfl-estimate); measured: Nsight Compute counters summed over kernels (rfl-reduce);\n"
		   "time-based (a PyTorch profiler trace): the estimate's FLOPs and bytes over the\n"
		   "trace's kernel time.\n");
#ifdef RFL_HAS_PNG
	if (r->outdir) {
		printf("\nCharts and report.json in %s/:\n", r->outdir);
		for (i = 0; i < r->nwritten; i++) printf("  %s\n", r->written[i]);
		printf("  %s/report.json\n", r->outdir);
	}
#else
	if (r->outdir) printf("\n(no PNG support: stb_image_write.h was not found; wrote %s/report.json)\n", r->outdir);
#endif
	if (!r->outdir) printf("\n(no -o DIR: charts not written)\n");
}

int main(int argc, char **argv) {
	static const cli_opt *const tables[] = {report_opts, cli_machine_opts, cli_model_opts, 0};
	static report r;
	cli_init(&r.c, "rfl-report", argc, argv, tables);
	cli_model_init(&r.opt);
	r.opt.d.cost.mode = RFL_MODE_TRAIN; /* a CNN: one training step unless --mode infer */
	if (!parse_args(&r)) demo_args(&r);
	if (!r.nm) cli_usage_error(&r.c, "--model is required (e.g. --model resnet18; rfl-report --list)");
	pick_machines(&r);
	gather(&r);
	if (r.outdir) write_outputs(&r);
	if (r.json) { cli_json_out(&r.c, stdout, json_doc, &r); return CLI_OK; }
	print_report(&r);
	return CLI_OK;
}
