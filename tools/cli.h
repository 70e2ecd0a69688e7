/* cli.h - what the rfl-* tools share: the option table and its parser,
   exit codes, error lines, files, numbers for tables, JSON output, the
   machines of --hw and --hw-file. Tools only (a tool may allocate; the
   library never does) and without globals: all state lives in the tool's
   `cli` value. Include after roofline.h (with the implementation).

	   cli c;
	   cli_init(&c, "rfl-x", argc, argv, tables);   tables: NULL-terminated
	   while ((id = cli_next(&c)) != CLI_DONE)
		   switch (id) { case CLI_HELP: ...; case OPT_TOP: use c.val; ... }

   Exit codes, the same in every tool: 0 ok, 1 bad input (cli_error, cli_input_error:
   "prog: FILE:LINE:COL: message"), 2 bad usage (cli_usage_error). --help
   lists every option of the tool's tables (tests/steps/cli.sh checks it:
   RFL_CLI_TABLE=1 makes --help print the table's names instead). */
#ifndef RFL_CLI_H
#define RFL_CLI_H
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> /* mkdir */

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wunused-function" /* each tool uses a subset */
#endif

enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_BAD_USAGE = 2 };

/* One option: its name, its value (NULL: a flag; a name, or a hint with a
   space in it that a missing value's error shows) and the id cli_next
   returns for it. A table ends with {0, 0, 0}. */
typedef struct cli_opt {
	const char *name;
	const char *value;
	int id;
} cli_opt;

/* What cli_next returns besides an option's id. */
enum { CLI_DONE = -1, CLI_ARG = -2, CLI_HELP = -3 };

/* The options every tool that takes a machine takes. */
enum { CLI_HW = 1000, CLI_HW_FILE };
#define CLI_HW_FILE_HINT "a machine file: rfl-hw NAME --json > FILE"
static const cli_opt cli_machine_opts[] = {
	{"--hw", "NAME", CLI_HW}, {"--hw-file", CLI_HW_FILE_HINT, CLI_HW_FILE}, {0, 0, 0}};

enum { CLI_MAX_FILES = 16, CLI_NUMS = 16 };
typedef struct cli {
	const char *prog;
	int argc, i;
	char **argv;
	const cli_opt *const *tables; /* NULL-terminated */
	const char *opt, *val;        /* the option cli_next returned, its value */
	/* machines: --hw NAME[,NAME...] and --hw-file FILE[,FILE...] */
	const char *hw, *hw_files;
	rfl_machine_file *loaded[CLI_MAX_FILES];
	int nloaded;
	/* numbers for tables: rotating buffers, so one printf takes several */
	char num[CLI_NUMS][48];
	int nk;
	/* charts: pixels and the PNG encoder's arena, kept for the next chart */
	unsigned char *px, *arena;
	size_t pxn, arenan;
} cli;

static void cli_init(cli *c, const char *prog, int argc, char **argv, const cli_opt *const *tables) {
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->argc = argc;
	c->argv = argv;
	c->tables = tables;
	c->i = 1;
}

/* Bad usage: one line, a hint, exit 2. */
static void cli_usage_error(const cli *c, const char *fmt, ...) {
	va_list ap;
	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", c->prog);
	exit(CLI_BAD_USAGE);
}

/* A parser's error (its rfl_error) on bad input: "prog: " and the line
   rfl_error_format writes ("FILE:LINE:COL: where: message"), exit 1. */
static void cli_error(const cli *c, const char *file, const rfl_error *e) {
	size_t n = rfl_error_format(e, file, 0, 0) + 1; /* a long path: never cut */
	char *line = (char *)malloc(n);
	if (line) rfl_error_format(e, file, line, n);
	fprintf(stderr, "%s: %s\n", c->prog, line ? line : rfl_result_str(e->code));
	exit(CLI_BAD_INPUT);
}

/* A warning as every tool prints it: rfl_warning_format's line ("FILE:
   warning: CODE: TEXT"), in a buffer of the tool's that the next call
   reuses. */
static const char *cli_warning(const char *file, const rfl_warning *w) {
	static char line[RFL_WARN_TEXT + 512];
	rfl_warning_format(w, file, line, sizeof line);
	return line;
}

/* The tool's own message on bad input: "prog: FILE:LINE:COL: message",
   exit 1 (line/col 0 = none). The place comes from rfl_error_format too. */
static void cli_input_error(const cli *c, const char *file, long line, long col, const char *fmt, ...) {
	rfl_error at;
	char *place;
	size_t n;
	va_list ap;
	memset(&at, 0, sizeof at); /* code RFL_OK, no message: the place alone */
	at.line = line > 0 ? (uint64_t)line : 0;
	at.col = col > 0 ? (uint64_t)col : 0;
	n = rfl_error_format(&at, file, 0, 0) + 1;
	if ((place = (char *)malloc(n)) != 0) rfl_error_format(&at, file, place, n);
	fprintf(stderr, "%s: %s", c->prog, place ? place : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(CLI_BAD_INPUT);
}

static int cli_is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* ---- the parser ------------------------------------------------------------ */
static const cli_opt *cli_find(const cli *c, const char *name) {
	const cli_opt *const *t;
	const cli_opt *o;
	for (t = c->tables; t && *t; t++)
		for (o = *t; o->name; o++)
			if (cli_is(o->name, name)) return o;
	return 0;
}

/* RFL_CLI_TABLE set: the options the parser takes, one a line (the help
   test holds them against --help). */
static void cli_print_table(const cli *c) {
	const cli_opt *const *t;
	const cli_opt *o;
	for (t = c->tables; t && *t; t++)
		for (o = *t; o->name; o++) printf("%s\n", o->name);
}

/* The next argument: an option's id (c->val its value, NULL for a flag),
   CLI_ARG (c->val the argument; "-" is one), CLI_HELP for --help or -h,
   CLI_DONE at the end. An unknown option or a missing value exits 2.
   --hw and --hw-file are kept in c->hw / c->hw_files as well. */
static int cli_next(cli *c) {
	const cli_opt *o;
	const char *a;
	if (c->i >= c->argc) return CLI_DONE;
	a = c->argv[c->i++];
	c->opt = a, c->val = 0;
	if (cli_is(a, "--help") || cli_is(a, "-h")) {
		if (getenv("RFL_CLI_TABLE")) { cli_print_table(c); exit(CLI_OK); }
		return CLI_HELP;
	}
	if (a[0] != '-' || !a[1]) { c->val = a; return CLI_ARG; }
	if (!(o = cli_find(c, a))) cli_usage_error(c, "unknown option '%s'", a);
	if (o->value) {
		if (c->i >= c->argc && strchr(o->value, ' '))
			cli_usage_error(c, "%s needs a value (%s)", a, o->value);
		if (c->i >= c->argc) cli_usage_error(c, "%s needs a value", a);
		c->val = c->argv[c->i++];
	}
	if (o->id == CLI_HW) c->hw = c->val;
	if (o->id == CLI_HW_FILE) c->hw_files = c->val;
	return o->id;
}

/* The option's value: a whole number lo..hi, else exit 2 naming the option. */
static uint64_t cli_u64(const cli *c, uint64_t lo, uint64_t hi) {
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(c->val, &end, 10);
	if (!c->val[0] || c->val[0] == '-' || *end || errno || v < lo || v > hi)
		cli_usage_error(c, "%s wants a whole number %llu..%llu, not '%s'", c->opt,
						(unsigned long long)lo, (unsigned long long)hi, c->val);
	return v;
}

static long cli_long(const cli *c, long lo, long hi) { return (long)cli_u64(c, (uint64_t)lo, (uint64_t)hi); }

/* ---- memory and files ------------------------------------------------------ */
static void *cli_xmalloc(const cli *c, size_t n) {
	void *p = malloc(n ? n : 1);
	if (!p) cli_input_error(c, 0, 0, 0, "out of memory (%lu bytes)", (unsigned long)n);
	return p;
}

static int cli_file_exists(const char *path) {
	FILE *f = fopen(path, "rb");
	if (f) fclose(f);
	return f != 0;
}

/* The whole of a text file ("-": standard input) in one malloc'd buffer,
   with a NUL after its *len bytes, read by rfl_file_read with the cap
   given (RFL_CAP_*): a regular file gets a buffer of its size, a stream
   one of the cap (at most 64 MiB). Exits 1 naming the file and what is
   wrong: a directory, binary, larger than the cap. */
static char *cli_read_file(const cli *c, const char *path, size_t cap, size_t *len) {
	struct stat sb;
	size_t size = cap < ((size_t)64 << 20) ? cap : ((size_t)64 << 20);
	const char *why = "";
	char *buf;
	rfl_result r;
	if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		size = (unsigned long long)sb.st_size + 2 < (unsigned long long)cap
				   ? (size_t)sb.st_size + 2 /* one byte more shows a file that grew */
				   : cap;
	buf = (char *)cli_xmalloc(c, size + 1);
	r = rfl_file_read(path, buf, size + 1, 1, len, &why);
	if (r == RFL_ERR_IO && cli_is(why, "cannot be opened"))
		cli_input_error(c, path, 0, 0, "cannot open: %s", strerror(errno));
	if (r == RFL_ERR_BUFFER && size < cap)
		cli_input_error(c, path, 0, 0, "more than %lu MiB from a stream: give it as a file",
						(unsigned long)(size >> 20));
	if (r == RFL_ERR_BUFFER)
		cli_input_error(c, path, 0, 0, "larger than %lu KiB, the cap for this input: not the file "
						"meant here?", (unsigned long)(cap >> 10));
	if (r == RFL_ERR_FORMAT)
		cli_input_error(c, path, 0, 0, "byte %lu: binary (a NUL byte), not a text file", (unsigned long)*len);
	if (r != RFL_OK) cli_input_error(c, path, 0, 0, "%s", why);
	return buf;
}

/* mkdir -p: dir and every folder above it (exit 1 when one cannot be made). */
static void cli_make_dir(const cli *c, const char *dir) {
	char p[512];
	size_t i, n = strlen(dir);
	if (n >= sizeof p) cli_usage_error(c, "-o: path too long");
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] == '/' || p[i] == 0) {
			char ch = p[i];
			p[i] = 0;
			if (mkdir(p, 0777) != 0 && errno != EEXIST)
				cli_input_error(c, p, 0, 0, "cannot create the output directory: %s", strerror(errno));
			p[i] = ch;
		}
	}
}

/* ---- numbers for humans ------------------------------------------------------ */
static char *cli_numbuf(cli *c) { return c->num[c->nk++ % CLI_NUMS]; }
/* SI-prefixed number with unit: "19.5 TFLOP/s". */
static const char *cli_si(cli *c, double v, const char *unit) {
	char *b = cli_numbuf(c);
	size_t n = rfl_fmt_si(b, 32, v, 4);
	snprintf(b + n, 48 - n, "%s", unit);
	return b;
}
static const char *cli_num(cli *c, double v, int sig) {
	char *b = cli_numbuf(c);
	rfl_fmt_num(b, 40, v, sig);
	return b;
}
/* 1234567 -> "1,234,567" */
static const char *cli_commas(cli *c, double v) {
	char *b = cli_numbuf(c), t[32];
	size_t n = rfl_fmt_num(t, sizeof t, v, 17), i, j = 0, start = (t[0] == '-');
	size_t intlen = n;
	for (i = 0; i < n; i++) if (t[i] == '.' || t[i] == 'e') { intlen = i; break; }
	for (i = 0; i < n && j + 2 < 48; i++) {
		if (i > start && i < intlen && (intlen - i) % 3 == 0) b[j++] = ',';
		b[j++] = t[i];
	}
	b[j] = 0;
	return b;
}

/* ---- JSON out: the library writes, the tool prints ----------------------- */
typedef void (*cli_json_fn)(rfl_json_writer *w, const void *ctx);
/* fn(ctx) counted, then written into a buffer of that size, then to f. */
static void cli_json_out(const cli *c, FILE *f, cli_json_fn fn, const void *ctx) {
	rfl_json_writer w;
	char *buf;
	rfl_json_w_init(&w, 0, 0);
	fn(&w, ctx);
	buf = (char *)cli_xmalloc(c, w.len + 1);
	rfl_json_w_init(&w, buf, w.len + 1);
	fn(&w, ctx);
	if (rfl_json_w_finish(&w) != RFL_OK) cli_input_error(c, 0, 0, 0, "JSON writer: badly nested");
	fwrite(buf, 1, w.len, f);
	free(buf);
}

/* ---- machines: --hw NAME and --hw-file FILE ----------------------------------- */
/* Unknown machine: the error names the closest ones. */
static const rfl_machine *cli_find_hw(const cli *c, const char *name) {
	const rfl_machine *m;
	char sug[256];
	if (rfl_hw_find(name, &m) == RFL_OK) return m;
	rfl_hw_suggest(name, 4, sug, sizeof sug);
	cli_input_error(c, 0, 0, 0, "unknown machine '%s'; closest: %s (rfl-hw lists all)", name, sug);
	return 0;
}

/* ---- the model: zoo, LLM or ONNX, and the step ------------------------------
   One table for every tool that builds a model: the source (a zoo or LLM
   name as the tool's argument, --hf-config FILE, --onnx FILE with --dim
   N=V), batch, types and an LLM's step. In the tool's loop: CLI_ARG ->
   cli_model_name, other ids -> cli_model_option; then cli_model_load
   builds m.w (rfl_workload_load). */
enum {
	CLI_LIST = 1100, CLI_HF_CONFIG, CLI_ONNX, CLI_DIM, CLI_BATCH, CLI_RES, CLI_DTYPE, CLI_MODE,
	CLI_CONV, CLI_PEN, CLI_PHASE, CLI_SEQ, CLI_LOGITS, CLI_WEIGHTS, CLI_KV, CLI_STRICT
};
static const cli_opt cli_model_opts[] = {
	{"--list", 0, CLI_LIST}, {"--hf-config", "FILE", CLI_HF_CONFIG}, {"--onnx", "FILE", CLI_ONNX},
	{"--dim", "NAME=V", CLI_DIM}, {"--batch", "N", CLI_BATCH}, {"--res", "H", CLI_RES},
	{"--dtype", "D", CLI_DTYPE}, {"--mode", "train|infer", CLI_MODE},
	{"--conv", "torch|report", CLI_CONV}, {"--pen-and-paper", 0, CLI_PEN},
	{"--phase", "prefill|decode", CLI_PHASE}, {"--seq", "S", CLI_SEQ},
	{"--logits", "last|all", CLI_LOGITS}, {"--weights", "T", CLI_WEIGHTS}, {"--kv", "T", CLI_KV},
	{"--strict", 0, CLI_STRICT}, {0, 0, 0}};

typedef struct cli_model {
	const char *name;        /* the argument */
	const char *hf, *onnx;   /* --hf-config FILE, --onnx FILE ("-": stdin) */
	int strict;              /* --strict: an unknown model_type is an error */
	char dims[512];          /* --dim NAME=V, comma-joined (rfl_onnx_desc) */
	rfl_workload_desc d;     /* what the options ask: batch, types, mode,
								convention, resolution, an LLM's step */
	rfl_workload w;          /* loaded: its config or graph in the arena */
	rfl_warning warn;        /* the config reader's */
} cli_model;

static void cli_model_init(cli_model *m) { memset(m, 0, sizeof *m); }

static void cli_model_name(const cli *c, cli_model *m, const char *name) {
	if (m->name) cli_usage_error(c, "one model at a time ('%s' and '%s')", m->name, name);
	m->name = name;
}

/* A math type (every rfl_dtype but int4) or a storage type, else exit 2. */
static rfl_dtype cli_dtype(const cli *c, int storage) {
	rfl_dtype t;
	if (rfl_dtype_parse(c->val, &t) != RFL_OK || (t == RFL_DTYPE_INT4 && !storage))
		cli_usage_error(c, "%s: unknown type '%s' (fp32, tf32, fp16, bf16, fp8, int8%s)", c->opt,
						c->val, storage ? ", int4" : "");
	return t;
}

/* 0 for word a (or alias), 1 for b, else exit 2. */
static int cli_pick(const cli *c, const char *a, const char *b, const char *alias) {
	if (cli_is(c->val, a) || (alias && cli_is(c->val, alias))) return 0;
	if (!cli_is(c->val, b)) cli_usage_error(c, "%s is %s or %s, not '%s'", c->opt, a, b, c->val);
	return 1;
}

/* An id of cli_model_opts, its value in c->val: 1 when taken, else 0. Bad
   values exit 2; --list prints the zoo and the LLMs and exits 0. */
static int cli_model_option(const cli *c, cli_model *m, int id) {
	size_t n = strlen(m->dims);
	const char *eq = id == CLI_DIM ? strchr(c->val, '=') : 0;
	rfl_workload_desc *d = &m->d;
	int i;
	switch (id) {
	case CLI_LIST:
		for (i = 0; i < rfl_zoo_count(); i++) printf("%s\n", rfl_zoo_name(i));
		for (i = 0; i < rfl_llm_count(); i++) printf("%s\n", rfl_llm_name(i));
		exit(CLI_OK);
	case CLI_HF_CONFIG: m->hf = c->val; break;
	case CLI_ONNX: m->onnx = c->val; break;
	case CLI_DIM: /* NAME=V, V a whole number >= 1 */
		if (!eq || eq == c->val || !eq[1] || eq[1] == '-' || !strtoull(eq + 1, 0, 10) ||
			strspn(eq + 1, "0123456789") != strlen(eq + 1) || n + strlen(c->val) + 2 > sizeof m->dims)
			cli_usage_error(c, "--dim wants NAME=V, V a whole number >= 1, not '%s'", c->val);
		snprintf(m->dims + n, sizeof m->dims - n, "%s%s", n ? "," : "", c->val);
		break;
	case CLI_BATCH: d->cost.batch = cli_u64(c, 1, (uint64_t)1 << 40); break;
	case CLI_RES: d->res = (uint32_t)cli_u64(c, 1, 65536); break;
	case CLI_DTYPE: d->cost.dtype = cli_dtype(c, 0); break;
	case CLI_MODE: d->cost.mode = cli_pick(c, "infer", "train", "inference") ? RFL_MODE_TRAIN : RFL_MODE_INFER; break;
	case CLI_CONV: d->cost.convention = cli_pick(c, "torch", "report", 0) ? RFL_CONV_REPORT : RFL_CONV_TORCH; break;
	case CLI_PEN: d->cost.convention = RFL_CONV_REPORT; break;
	case CLI_PHASE: d->phase = cli_pick(c, "prefill", "decode", 0) ? RFL_WL_DECODE : RFL_WL_PREFILL; break;
	case CLI_SEQ: d->seq = cli_u64(c, 0, (uint64_t)1 << 40), d->seq_set = 1; break;
	case CLI_LOGITS: d->logits = cli_pick(c, "last", "all", 0) ? RFL_WL_LOGITS_ALL : RFL_WL_LOGITS_LAST; break;
	case CLI_WEIGHTS: d->cost.weights = cli_dtype(c, 1); break;
	case CLI_KV: d->cost.kv = cli_dtype(c, 1); break;
	case CLI_STRICT: m->strict = 1; break;
	default: return 0;
	}
	return 1;
}

/* Build the model the options name into m->w: rfl_workload_load, asked
   the bytes it needs, then given them (the batch 1 unless --batch; ONNX:
   the batch it was built at; an LLM: the library's default step unless
   told). Exit 2 for options that do not go together, 1 for a bad file or
   name; a config read as Llama-style warns on stderr. */
static void cli_model_load(const cli *c, cli_model *m) {
	rfl_workload *w = &m->w;
	const char *l, *file = m->onnx ? m->onnx : m->hf;
	void *arena = 0;
	size_t n = 0;
	rfl_result r;
	char what[160];
	int i;
	if ((m->name != 0) + (m->hf != 0) + (m->onnx != 0) > 1)
		cli_usage_error(c, "one model: a name, --hf-config FILE or --onnx FILE");
	if (!m->name && !m->hf && !m->onnx) cli_usage_error(c, "no model given (%s --list)", c->prog);
	m->d.model = m->name, m->d.hf_config = m->hf, m->d.onnx_file = m->onnx, m->d.dims = m->dims;
	m->d.strict = m->strict, m->d.warning = &m->warn, m->d.name = m->hf;
	for (r = rfl_workload_load(w, &m->d, 0, 0); r == RFL_ERR_BUFFER && w->err.need > n;
		 r = rfl_workload_load(w, &m->d, arena, n))
		free(arena), arena = cli_xmalloc(c, n = (size_t)w->err.need);
	if (m->warn.code) fprintf(stderr, "%s: %s (--strict refuses it)\n", c->prog, cli_warning(m->hf, &m->warn));
	if (r == RFL_ERR_ARG && (l = strstr(w->err.msg, " (--list)")) != 0)
		cli_usage_error(c, "%.*s (%s --list)", (int)(l - w->err.msg), w->err.msg, c->prog);
	if (r == RFL_ERR_ARG) cli_usage_error(c, "%s", w->err.msg);
	if (r == RFL_ERR_UNKNOWN_NAME) {
		fprintf(stderr, "%s: unknown model '%s'; the zoo: ", c->prog, m->name);
		for (i = 0; i < rfl_zoo_count(); i++) fprintf(stderr, "%s%s", i ? ", " : "", rfl_zoo_name(i));
		fputc('\n', stderr);
		exit(CLI_BAD_INPUT);
	}
	if (r == RFL_ERR_IO && cli_is(w->err.msg, "cannot open the file"))
		cli_input_error(c, file, 0, 0, "cannot open: %s", strerror(errno));
	if (r == RFL_ERR_MISSING && m->onnx) /* the tool's hint after the library's message */
		strncat(w->err.msg, " (give it with --dim NAME=V)", sizeof w->err.msg - strlen(w->err.msg) - 1);
	if (r != RFL_OK && w->source == RFL_WL_ZOO)
		snprintf(what, sizeof what, "%s at %lux%lu", m->name, (unsigned long)m->d.res, (unsigned long)m->d.res);
	if (r != RFL_OK) cli_error(c, file ? file : w->source == RFL_WL_ZOO ? what : w->name, &w->err);
}

#ifndef RFL_NO_CHART
/* A white RGB canvas of w x h over the cli's pixels (grown when a larger
   one is asked for). */
static void cli_canvas(cli *c, rfl_canvas *cv, int w, int h) {
	size_t need = RFL_CANVAS_BYTES(w, h, 3);
	if (need > c->pxn) {
		free(c->px);
		c->px = (unsigned char *)cli_xmalloc(c, need);
		c->pxn = need;
	}
	rfl_canvas_init(cv, c->px, need, w, h, 3, 0);
	rfl_canvas_clear(cv, RFL_RGB(255, 255, 255));
}

/* A roofline of n machines (measured: their measured ceilings, or NULL)
   with npts points under the roofs of prec; every other option 0, the
   default. */
static void cli_roofline_desc(rfl_roofline_desc *d, const char *title,
							  const rfl_machine *const *machines,
							  const rfl_machine *const *measured, int n,
							  const rfl_point *pts, int npts, rfl_prec prec) {
	memset(d, 0, sizeof *d);
	d->title = title;
	d->machines = machines;
	d->measured = measured;
	d->n_machines = n;
	d->points = pts;
	d->n_points = npts;
	d->prec = prec;
}

#if defined(RFL_HAS_PNG) && !defined(RFL_NO_STDIO) /* rfl_png_save writes a file */
/* The canvas as a PNG file (exit 1 when it cannot be written). */
static void cli_png_save(cli *c, const rfl_canvas *cv, const char *path) {
	size_t need = rfl_png_arena_size(cv->width, cv->height, 3);
	rfl_result r;
	if (need > c->arenan) {
		free(c->arena);
		c->arena = (unsigned char *)cli_xmalloc(c, need);
		c->arenan = need;
	}
	r = rfl_png_save(cv, path, c->arena, c->arenan);
	if (r != RFL_OK) cli_input_error(c, path, 0, 0, "cannot write the PNG: %s", rfl_result_str(r));
}
#endif
#endif /* RFL_NO_CHART */

#ifndef RFL_NO_MACHINE_FILE
/* Reads a machine file; a bad one exits 1 with "FILE:LINE:COL: field: what".
   The file lives until the tool exits. */
static const rfl_machine_file *cli_load_hw_file(cli *c, const char *path) {
	size_t len;
	char *text = cli_read_file(c, path, RFL_CAP_MACHINE, &len);
	rfl_machine_file *mf = (rfl_machine_file *)cli_xmalloc(c, sizeof *mf);
	char *strs = (char *)cli_xmalloc(c, len + 1); /* decoded strings never outgrow the text */
	int ntoks = RFL_MACHINE_FILE_TOKS;
	rfl_json_tok *toks = (rfl_json_tok *)cli_xmalloc(c, sizeof *toks * (size_t)ntoks);
	rfl_error e;
	rfl_result r = rfl_machine_file_parse(text, len, toks, ntoks, strs, len + 1, mf, &e);
	if (r == RFL_ERR_BUFFER && !strcmp(e.where, "toks")) { /* a file with many '_' extras */
		ntoks = (int)e.need;
		free(toks);
		toks = (rfl_json_tok *)cli_xmalloc(c, sizeof *toks * (size_t)ntoks);
		r = rfl_machine_file_parse(text, len, toks, ntoks, strs, len + 1, mf, &e);
	}
	if (r != RFL_OK) cli_error(c, path, &e);
	free(toks);
	free(text); /* the machine's strings live in strs */
	if (c->nloaded < CLI_MAX_FILES) c->loaded[c->nloaded++] = mf;
	return mf;
}

/* The file machine m was loaded from (a --hw-file machine), or NULL. */
static const rfl_machine_file *cli_file_of(const cli *c, const rfl_machine *m) {
	int i;
	for (i = 0; i < c->nloaded; i++)
		if (&c->loaded[i]->machine == m) return c->loaded[i];
	return 0;
}

/* A measured roof worth drawing: one that differs from the machine's own
   (a probe of a host the table lacks writes the same figures twice). */
static int cli_measured_differs(const rfl_machine_file *mf) {
	return mf->has_measured &&
		   (memcmp(mf->measured.peak_flops, mf->machine.peak_flops, sizeof mf->machine.peak_flops) ||
			memcmp(mf->measured.bw_bytes_per_s, mf->machine.bw_bytes_per_s,
				   sizeof mf->machine.bw_bytes_per_s));
}

/* The one machine of a tool that takes a single machine: --hw NAME or
   --hw-file FILE, not both. NULL when neither. */
static const rfl_machine *cli_machine(cli *c) {
	if (c->hw && c->hw_files) cli_usage_error(c, "give --hw NAME or --hw-file FILE, not both");
	if (c->hw_files) {
		if (strchr(c->hw_files, ',')) cli_usage_error(c, "one --hw-file here ('%s')", c->hw_files);
		return &cli_load_hw_file(c, c->hw_files)->machine;
	}
	return c->hw ? cli_find_hw(c, c->hw) : 0;
}

/* Is file machine f the table machine m (by id or name)? */
static int cli_same_machine(const rfl_machine *f, const rfl_machine *m) {
	const rfl_machine *t;
	return rfl_parse_name_eq(f->id, m->id) || rfl_parse_name_eq(f->name, m->name) ||
		   (rfl_hw_find(f->id, &t) == RFL_OK && t == m);
}

/* Chart panels from --hw NAME[,NAME...] and --hw-file FILE[,FILE...]:
   out[] the machines (table ones first, then files), measured[] the roof
   drawn dashed beside each (NULL: none). A file with a "measured" object
   draws it beside its own figures. A file that is one of the --hw
   machines (same id or name) joins that panel instead: its measured
   object, or else its figures, are drawn dashed beside the table's roof.
   Returns the number of panels (exits 2 past cap). */
static int cli_machines(cli *c, const rfl_machine **out, const rfl_machine **measured, int cap) {
	char buf[1024], *s, *tok;
	int n = 0, ntable, k;
	snprintf(buf, sizeof buf, "%s", c->hw ? c->hw : "");
	for (s = buf; (tok = strtok(s, ",")) != 0; s = 0) {
		if (n >= cap) cli_usage_error(c, "at most %d machines", cap);
		measured[n] = 0;
		out[n++] = cli_find_hw(c, tok);
	}
	ntable = n;
	snprintf(buf, sizeof buf, "%s", c->hw_files ? c->hw_files : "");
	for (s = buf; (tok = strtok(s, ",")) != 0; s = 0) {
		const rfl_machine_file *mf = cli_load_hw_file(c, tok);
		for (k = 0; k < ntable && !cli_same_machine(&mf->machine, out[k]); k++) {}
		if (k < ntable) {
			measured[k] = mf->has_measured ? &mf->measured : &mf->machine;
			continue;
		}
		if (n >= cap) cli_usage_error(c, "at most %d machines", cap);
		measured[n] = cli_measured_differs(mf) ? &mf->measured : 0;
		out[n++] = &mf->machine;
	}
	return n;
}

#ifndef RFL_NO_CHART
/* --ceilings l2,l1 on a panel whose machine has no such bandwidth: one
   line on stderr per machine, saying what is missing and how to get it
   (a measured machine file), never a silent gap. */
static void cli_warn_missing_levels(const cli *c, const rfl_roofline_desc *d) {
	int k;
	for (k = 0; k < d->n_machines; k++) {
		unsigned miss = rfl_roofline_missing_levels(d, k);
		const rfl_machine *m = d->machines[k];
		const char *what = miss == ((1u << RFL_L2) | (1u << RFL_L1)) ? "L2 or L1"
						   : miss == (1u << RFL_L2)                ? "L2"
																   : "L1";
		if (!miss) continue;
		fprintf(stderr,
				"%s: %s has no %s bandwidth (none published or measured): %s not drawn. "
				"Measure %s and pass the machine file with --hw-file FILE (a CPU: rfl-probe -o "
				"FILE; an NVIDIA GPU: make gpu-bench, tools/gpu)\n",
				c->prog, m->id, what, miss & (miss - 1) ? "those roofs are" : "that roof is",
				miss & (miss - 1) ? "them" : "it");
	}
}
#endif
#endif /* RFL_NO_MACHINE_FILE */
#endif
