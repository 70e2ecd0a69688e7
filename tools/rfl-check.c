/* rfl-check: grade a roofline homework (an answer file) against the
   library's estimate and the reduction of the student's own profile; write
   templates and, for instructors, one variant per student. The checking is
   library code (roofline.h [16] CHECK): this file reads files and prints. */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"
#include <ctype.h>

static cli C; /* the command line and its helpers' state (cli.h has none of its own) */

static const char *usage_text =
	"usage: rfl-check ANSWERS.json [--json] [--gradescope FILE] [--tol F]\n"
	"                 [--points FILE] [--carry-credit] [--hide-expected]\n"
	"                 [--seed N --models A,B --hw X,Y --batches 1,8\n"
	"                  [--student NAME | --metadata FILE [--metadata-key name|email]]]\n"
	"       rfl-check --template --model A[,B] --hw NAME [--batch N] [--mode train|infer]\n"
	"                 [--dtype fp32|fp16|bf16|int8] [--student NAME] [--seq S]\n"
	"       rfl-check --assign ROSTER --models A,B --hw X,Y --batches 1,8 --seed N\n"
	"                 [--mode M] [--dtype D] -o DIR\n"
	"Grade a roofline homework: each value of the answer file (docs/schema.md)\n"
	"ok, wrong or missing, with the expected value, the ratio and, for a wrong\n"
	"one, the likely mistake as a stable code (mac_not_flop, binary_prefix,\n"
	"backward_twice_forward, forward_only, precision_roof, inconsistent_ai,\n"
	"above_roof, measured_partial, tensor_flops_missing, per_sample,\n"
	"wrong_machine, unit_slip, carried_error, footprint_not_traffic,\n"
	"wrong_variant, unreadable, kv_without_gqa, weights_per_token).\n"
	"Accepted conventions (a value is ok when within --tol of any):\n"
	"  FLOPs  mac (2 x multiply-adds of conv/matmul, no bias: FlopCounterMode,\n"
	"         torchvision), report (mac + linear biases), all (bias, BN, ReLU,\n"
	"         pooling, adds too); backward = 2 x forward minus the first\n"
	"         layer's input gradient\n"
	"  bytes  every layer's traffic, or conv and linear layers only (4 x (input\n"
	"         + weights + output) at fp32); train adds their backward bytes\n"
	"  time   whole model max(FLOPs / peak, bytes / bandwidth), or the\n"
	"         per-layer sum (rfl-estimate's predicted_time_s)\n"
	"  measured  the reduction of the profile the file names (rfl-reduce)\n"
	"An LLM of rfl-estimate --list (llama-3.2-1b ...): params, FLOPs and bytes\n"
	"of a prefill of --seq tokens (default 512) and of a decode step after\n"
	"it, their AI and bound, the KV cache, the decode's tokens/s bound and\n"
	"whether it fits (template default dtype bf16); FLOPs mac, all or 2 x\n"
	"params per token, bytes every layer's or weights + KV cache. Its\n"
	"mistakes: kv_without_gqa, weights_per_token, mac_not_flop.\n"
	"Values: a number in base units or a string with a unit (\"311 MB\",\n"
	"\"296.7 MiB\", \"1.8 GMAC\", \"0.55 ms\", \"19.5 TFLOP/s\", \"1555 GB/s\"), any\n"
	"case but seconds' (\"917.9 mb\" is MB; \"GFLOPS\" on a count is read as GFLOP,\n"
	"with a note); a value that still cannot be read is graded wrong\n"
	"(unreadable, with its line and column) and the rest is graded.\n"
	;
static const char *usage_text2 =
	"  --json          {score, max_score, items[{field, verdict, expected, got,\n"
	"                  ratio, diagnosis, message, points, max_points}]}\n"
	"  --gradescope F  also write Gradescope's results.json to F\n"
	"  --tol F         relative tolerance (default 0.02)\n"
	"  --points FILE   points per field: a JSON object {\"forward_flops\": 2,\n"
	"                  \"measured.flops\": 1, \"machine.peak_flops_per_s\": 1, ...};\n"
	"                  default 1 each; 0 or negative: reported, not graded\n"
	"  --carry-credit  full points for a value that follows from the\n"
	"                  student's own wrong inputs (carried_error)\n"
	"  --hide-expected no expected value or ratio in any message or document\n"
	"                  (the diagnosis stays)\n"
	"  --seed N ...    check that the answers are the variant of --student, or\n"
	"                  of the submitter in Gradescope's --metadata FILE\n"
	"                  (/autograder/submission_metadata.json: users[0]'s\n"
	"                  --metadata-key, name (default) or email); else of the\n"
	"                  file's assignment.student, which a copied file keeps.\n"
	"                  Another variant scores 0\n"
	"  --template      print an empty answer file (null values, a units hint)\n"
	"  --assign ROSTER one student per line, as written (\"Bob Smith\", an email;\n"
	"                  '#' comments): DIR/FILE.json, the template of the student's\n"
	"                  variant (FILE: the name with every character but letters,\n"
	"                  digits, '.', '_', '@', '-' as '_'), and DIR/variants.csv\n"
	"                  (student,model,hw,batch,file). The whole roster is checked\n"
	"                  first (duplicates, an empty roster: errors; nothing written);\n"
	"                  variant = FNV-1a(name in lower case) ^ seed through splitmix64\n";

#define MAX_RECORDS RFL_LLM_NET_LAYERS(128) /* an LLM of up to 128 layers */
static rfl_layer layers[MAX_RECORDS > RFL_ZOO_MAX_LAYERS ? MAX_RECORDS : RFL_ZOO_MAX_LAYERS];
static rfl_json_tok toks[RFL_CHECK_TOKS];
static rfl_check_answers ans;
static rfl_check_item items[RFL_CHECK_MAX_ITEMS];
static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];

/* ---- options ----------------------------------------------------------------- */
static const char *answers_path, *gradescope_path, *points_path, *student, *out_dir;
static const char *metadata_path, *metadata_key = "name";
static int hide_expected;
static const char *models_opt, *hw_opt, *batches_opt, *roster, *batch_opt = "1";
static const char *mode_opt, *dtype_opt, *seq_opt = "512";
static int json_out, template_mode, have_seed, carry_credit;
static double tol;
static unsigned long long seed;

/* a comma list into at most max pointers (the string is changed) */
static int split(char *s, char **out, int max) {
	int n = 0;
	while (s && *s && n < max) {
		out[n++] = s;
		s = strchr(s, ',');
		if (s) *s++ = 0;
	}
	return n;
}

static double num_arg(const char *o, const char *v) {
	double x;
	if (!v || rfl_parse_num(v, strlen(v), &x) != RFL_OK || x < 0)
		cli_usage_error(&C, "%s needs a number, not '%s'", o, v ? v : "");
	return x;
}

enum { OPT_JSON = 1, OPT_TEMPLATE, OPT_CARRY, OPT_GRADESCOPE, OPT_POINTS, OPT_TOL, OPT_SEED,
	   OPT_STUDENT, OPT_MODELS, OPT_HW, OPT_BATCH, OPT_BATCHES, OPT_MODE, OPT_DTYPE, OPT_ASSIGN,
	   OPT_OUT, OPT_METADATA, OPT_METADATA_KEY, OPT_HIDE, OPT_SEQ };
static const cli_opt opts[] = {
	{"--json", 0, OPT_JSON}, {"--template", 0, OPT_TEMPLATE}, {"--carry-credit", 0, OPT_CARRY},
	{"--gradescope", "FILE", OPT_GRADESCOPE}, {"--points", "FILE", OPT_POINTS}, {"--tol", "F", OPT_TOL},
	{"--seed", "N", OPT_SEED}, {"--student", "NAME", OPT_STUDENT}, {"--model", "A,B", OPT_MODELS},
	{"--models", "A,B", OPT_MODELS}, {"--hw", "NAME", OPT_HW}, {"--batch", "N", OPT_BATCH},
	{"--batches", "N,M", OPT_BATCHES}, {"--mode", "M", OPT_MODE}, {"--dtype", "D", OPT_DTYPE},
	{"--assign", "ROSTER", OPT_ASSIGN}, {"-o", "DIR", OPT_OUT}, {"--metadata", "FILE", OPT_METADATA},
	{"--metadata-key", "KEY", OPT_METADATA_KEY}, {"--hide-expected", 0, OPT_HIDE},
	{"--seq", "S", OPT_SEQ}, {0, 0, 0}};
static const cli_opt *const tables[] = {opts, 0};

static void parse_args(int argc, char **argv) {
	int id;
	cli_init(&C, "rfl-check", argc, argv, tables);
	while ((id = cli_next(&C)) != CLI_DONE) {
		const char *v = C.val;
		switch (id) {
		case CLI_HELP: fputs(usage_text, stdout), fputs(usage_text2, stdout); exit(CLI_OK);
		case OPT_JSON: json_out = 1; break;
		case OPT_TEMPLATE: template_mode = 1; break;
		case OPT_CARRY: carry_credit = 1; break;
		case OPT_GRADESCOPE: gradescope_path = v; break;
		case OPT_POINTS: points_path = v; break;
		case OPT_TOL: tol = num_arg(C.opt, v); break;
		case OPT_SEED: seed = (unsigned long long)num_arg(C.opt, v), have_seed = 1; break;
		case OPT_STUDENT: student = v; break;
		case OPT_MODELS: models_opt = v; break;
		case OPT_HW: hw_opt = v; break;
		case OPT_BATCH: batch_opt = v; break;
		case OPT_BATCHES: batches_opt = v; break;
		case OPT_MODE: mode_opt = v; break;
		case OPT_DTYPE: dtype_opt = v; break;
		case OPT_ASSIGN: roster = v; break;
		case OPT_OUT: out_dir = v; break;
		case OPT_METADATA: metadata_path = v; break;
		case OPT_METADATA_KEY:
			if (!cli_is(v, "name") && !cli_is(v, "email")) cli_usage_error(&C, "--metadata-key is name or email");
			metadata_key = v;
			break;
		case OPT_HIDE: hide_expected = 1; break;
		case OPT_SEQ: seq_opt = v; break;
		default:
			if (answers_path) cli_usage_error(&C, "one answer file at a time ('%s')", v);
			answers_path = v;
		}
	}
}

static rfl_mode parse_mode(void) {
	if (!mode_opt || cli_is(mode_opt, "train")) return RFL_MODE_TRAIN;
	if (cli_is(mode_opt, "infer")) return RFL_MODE_INFER;
	cli_usage_error(&C, "--mode is train or infer, not '%s'", mode_opt);
	return RFL_MODE_INFER;
}
/* --dtype; without it fp32, and bf16 for an LLM (as they are published) */
static rfl_dtype parse_dtype_for(int llm) {
	rfl_dtype d;
	const char *s = dtype_opt ? dtype_opt : llm ? "bf16" : "fp32";
	if (rfl_dtype_parse(s, &d) != RFL_OK) cli_usage_error(&C, "unknown --dtype '%s'", s);
	return d;
}
static rfl_dtype parse_dtype(void) { return parse_dtype_for(0); }
static uint64_t parse_batch(const char *s) {
	double b = num_arg("--batch", s);
	if (b < 1 || b != (double)(uint64_t)b) cli_usage_error(&C, "a batch is a whole number >= 1");
	return (uint64_t)b;
}
/* 0 a zoo model, 1 a built-in LLM; else a usage error */
static int check_model(const char *m) {
	int i;
	for (i = 0; i < rfl_zoo_count(); i++)
		if (rfl_parse_name_eq(rfl_zoo_name(i), m)) return 0;
	for (i = 0; i < rfl_llm_count(); i++)
		if (rfl_parse_name_eq(rfl_llm_name(i), m)) return 1;
	cli_usage_error(&C, "unknown model '%s' (rfl-estimate --list: the zoo and the LLMs)", m);
	return 0;
}

/* ---- writing ------------------------------------------------------------------ */
/* Text from a library writer (returns the length it needs) in a malloc'd buffer. */
typedef size_t (*writer_fn)(const void *ctx, char *buf, size_t size);
static char *write_text(writer_fn fn, const void *ctx) {
	size_t n = fn(ctx, 0, 0);
	char *b = (char *)cli_xmalloc(&C, n + 1);
	fn(ctx, b, n + 1);
	return b;
}
static size_t w_template(const void *ctx, char *buf, size_t size) {
	return rfl_check_template((const rfl_check_template_desc *)ctx, buf, size);
}
static rfl_check_report rep;
static int n_items;
static size_t w_json(const void *ctx, char *buf, size_t size) {
	(void)ctx;
	return rfl_check_json(&rep, items, n_items, buf, size);
}
static size_t w_gradescope(const void *ctx, char *buf, size_t size) {
	(void)ctx;
	return rfl_check_gradescope(&rep, items, n_items, buf, size);
}

static void put_file(const char *path, const char *text) {
	FILE *f = fopen(path, "wb");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		cli_input_error(&C, path, 0, 0, "cannot write: %s", strerror(errno));
}

static int run_template(void) {
	char *list[RFL_CHECK_MAX_MODELS], *text;
	rfl_check_template_desc t;
	int i, llm = 0;
	if (!models_opt || !hw_opt) cli_usage_error(&C, "--template needs --model and --hw");
	memset(&t, 0, sizeof t);
	t.n_models = split(models_opt ? strcpy((char *)cli_xmalloc(&C, strlen(models_opt) + 1), models_opt) : 0,
					   list, RFL_CHECK_MAX_MODELS);
	for (i = 0; i < t.n_models; i++) llm |= check_model(list[i]);
	cli_find_hw(&C, hw_opt);
	t.models = (const char *const *)list;
	t.hw = hw_opt, t.batch = parse_batch(batch_opt), t.mode = parse_mode();
	t.dtype = parse_dtype_for(llm), t.student = student, t.seq = parse_batch(seq_opt);
	if (llm && !mode_opt) t.mode = RFL_MODE_INFER; /* an LLM's steps are inference */
	text = write_text(w_template, &t);
	fputs(text, stdout);
	return 0;
}

/* ---- instructors: one variant per student ------------------------------------- */
typedef struct lists {
	char *m[32], *h[32], *b[32];
	int nm, nh, nb;
} lists;
static void get_lists(lists *L) {
	int i;
	if (!models_opt || !hw_opt || !batches_opt)
		cli_usage_error(&C, "variants need --models, --hw and --batches");
	L->nm = split(strcpy((char *)cli_xmalloc(&C, strlen(models_opt) + 1), models_opt), L->m, 32);
	L->nh = split(strcpy((char *)cli_xmalloc(&C, strlen(hw_opt) + 1), hw_opt), L->h, 32);
	L->nb = split(strcpy((char *)cli_xmalloc(&C, strlen(batches_opt) + 1), batches_opt), L->b, 32);
	if (!L->nm || !L->nh || !L->nb) cli_usage_error(&C, "empty --models, --hw or --batches");
	for (i = 0; i < L->nm; i++) check_model(L->m[i]);
	for (i = 0; i < L->nh; i++) cli_find_hw(&C, L->h[i]);
	for (i = 0; i < L->nb; i++) parse_batch(L->b[i]);
}

/* A roster's name as a file name: letters, digits, '.', '_', '@', '-' and
   UTF-8 kept, anything else (spaces, '/') as '_'; no leading '.'. */
static void safe_name(const char *name, char *out, size_t size) {
	size_t i;
	for (i = 0; name[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)name[i];
		out[i] = (char)(isalnum(c) || c >= 0x80 || (c && strchr("._@-", c)) ? c : '_');
	}
	out[i] = 0;
	if (out[0] == '.') out[0] = '_';
}
/* a CSV field, quoted when it holds a comma or a quote */
static void csv_field(FILE *f, const char *s, const char *after) {
	if (!strpbrk(s, ",\"")) { fprintf(f, "%s%s", s, after); return; }
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"') fputc('"', f);
		fputc(*s, f);
	}
	fprintf(f, "\"%s", after);
}

/* One student: the same name in any ASCII case, spaces collapsed (the
   variant's rule, rfl_check_variant). */
static int same_student(const char *a, const char *b) {
	for (;;) {
		int sa = 0, sb = 0;
		while (*a == ' ' || *a == '\t') a++, sa = 1;
		while (*b == ' ' || *b == '\t') b++, sb = 1;
		if (!*a || !*b) return !*a && !*b;
		if (sa != sb || tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
		a++, b++;
	}
}

#define MAX_ROSTER 10000
static int run_assign(void) {
	static char *names[MAX_ROSTER], files[MAX_ROSTER][64];
	static long lines[MAX_ROSTER];
	lists L;
	size_t len, i;
	char *text = cli_read_file(&C, roster, RFL_CAP_ANSWERS, &len), *line, *next, path[1024], *tpl;
	FILE *csv;
	long ln = 0;
	int n = 0, j;
	if (!out_dir) cli_usage_error(&C, "--assign needs -o DIR");
	if (!have_seed) cli_usage_error(&C, "--assign needs --seed N (the same seed gives the same variants)");
	get_lists(&L);
	/* the whole roster first: nothing is written for a roster with an error */
	for (line = text; line && *line; line = next) {
		char *e;
		ln++;
		next = strchr(line, '\n');
		if (next) *next++ = 0;
		while (*line == ' ' || *line == '\t') line++;
		e = line + strlen(line);
		while (e > line && (e[-1] == ' ' || e[-1] == '\r' || e[-1] == '\t')) *--e = 0;
		if (!*line || *line == '#') continue;
		for (i = 0; line[i]; i++)
			if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
				cli_input_error(&C, roster, ln, (long)i + 1, "a control character in a student's name");
		if (strlen(line) > 63) cli_input_error(&C, roster, ln, 64, "a student's name is at most 63 bytes");
		if (n == MAX_ROSTER) cli_input_error(&C, roster, ln, 1, "more than %d students", MAX_ROSTER);
		safe_name(line, files[n], sizeof files[n]);
		for (j = 0; j < n; j++) {
			if (same_student(names[j], line))
				cli_input_error(&C, roster, ln, 1, "'%s' is already on line %ld", line, lines[j]);
			if (!strcmp(files[j], files[n]))
				cli_input_error(&C, roster, ln, 1, "'%s' and '%s' (line %ld) would both be %s.json", line,
							   names[j], lines[j], files[n]);
		}
		names[n] = line, lines[n++] = ln;
	}
	if (!n) cli_input_error(&C, roster, 0, 0, "no student in the roster (one name a line, '#' comments)");
	cli_make_dir(&C, out_dir);
	snprintf(path, sizeof path, "%s/variants.csv", out_dir);
	csv = fopen(path, "wb");
	if (!csv) cli_input_error(&C, path, 0, 0, "cannot write: %s", strerror(errno));
	fprintf(csv, "student,model,hw,batch,file\n");
	for (j = 0; j < n; j++) {
		rfl_check_template_desc t;
		const char *models[1];
		int v[3];
		rfl_check_variant(names[j], seed, L.nm, L.nh, L.nb, v);
		memset(&t, 0, sizeof t);
		models[0] = L.m[v[0]];
		t.models = models, t.n_models = 1, t.hw = L.h[v[1]], t.batch = parse_batch(L.b[v[2]]);
		t.mode = parse_mode(), t.student = names[j], t.seq = parse_batch(seq_opt);
		if (check_model(models[0])) { /* an LLM: bf16 and inference unless told */
			t.dtype = parse_dtype_for(1);
			if (!mode_opt) t.mode = RFL_MODE_INFER;
		} else {
			t.dtype = parse_dtype();
		}
		tpl = write_text(w_template, &t);
		snprintf(path, sizeof path, "%s/%.63s.json", out_dir, files[j]); /* a safe name: 63 bytes at most */
		put_file(path, tpl);
		free(tpl);
		csv_field(csv, names[j], ",");
		fprintf(csv, "%s,%s,%s,%s.json\n", L.m[v[0]], L.h[v[1]], L.b[v[2]], files[j]);
	}
	if (fclose(csv) != 0) cli_input_error(&C, out_dir, 0, 0, "cannot write variants.csv");
	return 0;
}

/* ---- points ---------------------------------------------------------------------- */
static void read_points(rfl_check_desc *d) {
	size_t len;
	char *text = cli_read_file(&C, points_path, RFL_CAP_ANSWERS, &len);
	static rfl_json_tok pt[256];
	rfl_json_doc doc;
	int k, f;
	if (rfl_json_parse(&doc, text, len, pt, 256) == RFL_ERR_BUFFER)
		cli_input_error(&C, points_path, 0, 0, "not JSON (or too long)");
	if (doc.err.code) cli_error(&C, points_path, &doc.err);
	if (pt[0].type != RFL_JSON_OBJ) cli_input_error(&C, points_path, 1, 1, "points: a JSON object");
	for (k = 1; k < pt[0].after; k = pt[k + 1].after) {
		double v;
		for (f = 0; f < RFL_CHECK_FIELD_COUNT; f++)
			if (rfl_json_str_eq(&doc, k, rfl_check_field_name((rfl_check_field)f))) break;
		if (f == RFL_CHECK_FIELD_COUNT)
			cli_input_error(&C, points_path, rfl_json_line(&doc, k), 0,
						   "unknown field (forward_flops, measured.flops, machine.peak_flops_per_s, ...)");
		if (!rfl_json_num(&doc, k + 1, &v))
			cli_input_error(&C, points_path, rfl_json_line(&doc, k), 0, "points are numbers");
		d->points[f] = v == 0 ? -1 : v; /* 0 points: not graded (0 would be the default 1) */
	}
}

/* ---- checking ---------------------------------------------------------------------- */
static void gradescope_error(const char *msg);
/* The profile path relative to the answer file's folder. */
static void profile_path(const char *rel, char *out, size_t size) {
	const char *slash = strrchr(answers_path, '/');
	if (rel[0] == '/' || !slash) snprintf(out, size, "%s", rel);
	else snprintf(out, size, "%.*s/%s", (int)(slash - answers_path), answers_path, rel);
}

static const rfl_reduce_result *reduce_profile(const rfl_check_model *m) {
	char path[1024];
	size_t len;
	char *text;
	rfl_reduce_result *res = (rfl_reduce_result *)cli_xmalloc(&C, sizeof *res);
	static rfl_reduce_state st;
	rfl_reduce_desc d;
	profile_path(m->profile, path, sizeof path);
	if (!cli_file_exists(path)) {
		char msg[1400];
		snprintf(msg, sizeof msg, "%s:%ld: models.%s.measured.profile: cannot open %s", answers_path,
				 m->profile_line, m->name, path);
		gradescope_error(msg);
		cli_input_error(&C, answers_path, m->profile_line, 0, "models.%s.measured.profile: cannot open %s",
					   m->name, path);
	}
	text = cli_read_file(&C, path, RFL_CAP_PROFILE, &len);
	memset(&d, 0, sizeof d);
	d.top_n = -1;
	d.machine = ans.machine;
	if (rfl_reduce_buffer(text, len, &d, scratch, sizeof scratch, &st, res) != RFL_OK) {
		char msg[1400];
		rfl_error_format(&st.err, path, msg, sizeof msg);
		gradescope_error(msg);
		cli_error(&C, path, &st.err);
	}
	free(text);
	return res;
}

/* a value with its unit, SI-prefixed */
static const char *show(const rfl_check_item *it, double v) {
	static const char *const unit[] = {"FLOP", "B", "s", "FLOP/s", "B/s", " FLOP/B", "", "", " tokens/s"};
	rfl_check_dim d = rfl_check_field_dim(it->kind);
	if (it->kind == RFL_CHECK_FITS) return v ? "yes" : "no";
	if (d == RFL_DIM_TEXT) return v ? "memory" : "compute";
	if (d == RFL_DIM_COUNT) return cli_commas(&C, v);
	if (d == RFL_DIM_FLOP_PER_BYTE || d == RFL_DIM_TOKEN_PER_S) {
		char *s = (char *)cli_num(&C, v, 4); /* a 48-byte buffer */
		strncat(s, unit[d], 47 - strlen(s));
		return s;
	}
	return cli_si(&C, v, unit[d]);
}

static void print_items(void) {
	int i;
	printf("%s: %s, batch %llu, %s, %s\n", answers_path, ans.machine->name,
		   (unsigned long long)ans.batch, ans.mode == RFL_MODE_TRAIN ? "train" : "infer",
		   rfl_dtype_name(ans.dtype));
	for (i = 0; i < n_items; i++) {
		const rfl_check_item *it = &items[i];
		printf("%-9s %-46s", rfl_check_verdict_name(it->verdict), it->field);
		printf(" got %-13s expected %-13s", it->has_got ? show(it, it->got) : "-",
			   it->has_expected ? show(it, it->expected) : "-");
		if (it->ratio > 0) printf(" ratio %s", cli_num(&C, it->ratio, 4));
		printf("\n          %s\n", it->message);
	}
	printf("score %s / %s (%d ok, %d wrong, %d missing, %d unchecked)%s\n", cli_num(&C, rep.score, 6),
		   cli_num(&C, rep.max_score, 6), rep.n_ok, rep.n_wrong, rep.n_missing, rep.n_unchecked,
		   rep.variant_wrong ? "; not the student's variant: score 0" : "");
}

/* Gradescope must get a results.json even for a file that cannot be read. */
static size_t w_gradescope_error(const void *ctx, char *buf, size_t size) {
	return rfl_check_gradescope_error((const char *)ctx, buf, size);
}
static void gradescope_error(const char *msg) {
	FILE *f;
	char *text;
	if (!gradescope_path) return;
	f = fopen(gradescope_path, "wb");
	if (!f) return;
	text = write_text(w_gradescope_error, msg);
	fputs(text, f);
	free(text);
	fclose(f);
}

/* The submitter in Gradescope's submission metadata (the library reads it). */
static const char *submitter(void) {
	static char who[256];
	size_t len;
	char *text = cli_read_file(&C, metadata_path, RFL_CAP_ANSWERS, &len), msg[512];
	rfl_error err;
	rfl_result r = rfl_check_submitter(text, len, toks, RFL_CHECK_TOKS, metadata_key, who, sizeof who, &err);
	if (r == RFL_ERR_BUFFER && err.need > 0) {
		rfl_json_tok *more = (rfl_json_tok *)cli_xmalloc(&C, (size_t)err.need * sizeof *more);
		r = rfl_check_submitter(text, len, more, (int)err.need, metadata_key, who, sizeof who, &err);
		free(more);
	}
	if (r != RFL_OK) {
		rfl_error_format(&err, metadata_path, msg, sizeof msg);
		gradescope_error(msg);
		cli_error(&C, metadata_path, &err);
	}
	free(text);
	return who;
}

static int run_check(void) {
	size_t len;
	char *text, msg[512];
	rfl_error err;
	rfl_check_desc d;
	const rfl_reduce_result *profs[RFL_CHECK_MAX_MODELS];
	lists L;
	int i, v[3];
	rfl_result r;
	text = cli_read_file(&C, answers_path, RFL_CAP_ANSWERS, &len);
	r = rfl_check_read(text, len, toks, RFL_CHECK_TOKS, &ans, &err);
	if (r == RFL_ERR_BUFFER && err.need > 0) { /* many '_' extras: more tokens */
		rfl_json_tok *more = (rfl_json_tok *)cli_xmalloc(&C, (size_t)err.need * sizeof *more);
		r = rfl_check_read(text, len, more, (int)err.need, &ans, &err);
	}
	if (r != RFL_OK) {
		rfl_error_format(&err, answers_path, msg, sizeof msg);
		gradescope_error(msg);
		cli_error(&C, answers_path, &err);
	}
	memset(&d, 0, sizeof d);
	d.tol = tol, d.carry_credit = carry_credit;
	d.layers = layers, d.layer_cap = (int)(sizeof layers / sizeof layers[0]);
	if (points_path) read_points(&d);
	for (i = 0; i < ans.n_models; i++) profs[i] = ans.models[i].profile[0] ? reduce_profile(&ans.models[i]) : 0;
	d.profiles = profs;
	d.hide_expected = hide_expected;
	if (metadata_path && !have_seed) cli_usage_error(&C, "--metadata names whose variant to check: it needs --seed ...");
	if (have_seed) {
		const char *who = student ? student : metadata_path ? submitter() : ans.student;
		get_lists(&L);
		if (who == ans.student && who[0])
			fprintf(stderr, "rfl-check: note: the variant of the file's own assignment.student ('%s'), which a "
							"copied file keeps; --metadata or --student names the submitter\n", who);
		if (!who[0]) cli_input_error(&C, answers_path, 0, 0, "no --student and no assignment.student: whose variant?");
		rfl_check_variant(who, seed, L.nm, L.nh, L.nb, v);
		d.variant_model = L.m[v[0]], d.variant_hw = L.h[v[1]];
		d.variant_batch = parse_batch(L.b[v[2]]);
	}
	r = rfl_check_run(&ans, &d, items, RFL_CHECK_MAX_ITEMS, &rep);
	if (r != RFL_OK) cli_input_error(&C, answers_path, 0, 0, "cannot check: %s", rfl_result_str(r));
	n_items = rep.n_items;
	if (json_out) {
		char *j = write_text(w_json, 0);
		fputs(j, stdout);
		free(j);
	} else {
		print_items();
	}
	if (gradescope_path) {
		char *g = write_text(w_gradescope, 0);
		put_file(gradescope_path, g);
		free(g);
	}
	return 0;
}

int main(int argc, char **argv) {
	parse_args(argc, argv);
	if (template_mode) return run_template();
	if (roster) return run_assign();
	if (!answers_path) cli_usage_error(&C, "no answer file (rfl-check --template writes one)");
	return run_check();
}
