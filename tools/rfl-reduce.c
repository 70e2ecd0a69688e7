/* rfl-reduce: totals, top kernels and warnings from an Nsight Compute or
   nvprof CSV export or a PyTorch profiler trace (JSON, plain or gzip),
   streamed through the library's push parser (constant memory whatever the
   file size); several files: one per rank, reduced one at a time. */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"
#include <errno.h>
#include <unistd.h>

#define CHUNK (256 * 1024) /* read() in L2-sized pieces: fewer calls, still cache-resident */
#define GROUPS 512
#define FILES 4096 /* ranks on one command line */

static const char *usage_text =
	"usage: rfl-reduce [FILE...|-] [--top N] [--by-name] [--filter TEXT] [--ids A-B]\n"
	"                  [--step N] [--hw NAME | --hw-file FILE] [--locale us|eu] [--json]\n"
	"Reduce an ncu (--csv, --page raw or details) or nvprof (--csv) export, or a\n"
	"PyTorch profiler trace (export_chrome_trace JSON, plain or .gz), to totals:\n"
	"FLOPs per precision, bytes per memory level, time, AI, FLOP/s, the device's\n"
	"own ceilings when the profile has them, the top kernels by time and\n"
	"warnings; a trace gives time only (FLOPs and bytes come from an estimate:\n"
	"rfl-report --trace). Unknown quantities print as null (JSON) or '-'.\n"
	"Several files (a trace per rank): each reduced in turn, then the slowest.\n"
	"  --top N        top kernels to list (default 10, at most 32)\n"
	"  --by-name      also totals per kernel name\n"
	"  --filter TEXT  only kernels whose name contains TEXT\n"
	"  --ids A-B      only kernels with ID in A..B\n"
	"  --step N       trace: only the kernels of ProfilerStep#N\n"
	"  --hw NAME      compare against a machine (rfl-hw lists them)\n"
	"  --hw-file F    a machine file instead (rfl-hw NAME --json, rfl-probe -o F)\n"
	"  --locale us|eu number convention (default: detect)\n"
	"  --json         machine-readable output\n";

enum { OPT_JSON = 1, OPT_BY_NAME, OPT_TOP, OPT_FILTER, OPT_IDS, OPT_LOCALE, OPT_STEP };
static const cli_opt opts[] = {
	{"--json", 0, OPT_JSON}, {"--by-name", 0, OPT_BY_NAME}, {"--top", "N", OPT_TOP},
	{"--filter", "TEXT", OPT_FILTER}, {"--ids", "A-B", OPT_IDS}, {"--locale", "us|eu", OPT_LOCALE},
	{"--step", "N", OPT_STEP},
	{0, 0, 0}};
static const cli_opt *const tables[] = {opts, cli_machine_opts, 0};

static rfl_reduce_state st;
static rfl_reduce_result res;
static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static unsigned char buf[CHUNK];
static rfl_kernel_stat groups[GROUPS];
static const char *files[FILES];
typedef struct rank_row { uint64_t kernels, time_ns, span_ns, busy_ns; int trace; } rank_row;
static rank_row rows[FILES];
static rfl_rank_summary ranks;

static int known(const rfl_kernel_stat *k, unsigned bits) { return (k->work.unknown & bits) == 0; }
static unsigned all_flops_bits(void) {
	unsigned b = 0;
	int p;
	for (p = 0; p < RFL_PREC_COUNT; p++) b |= RFL_UNKNOWN_FLOPS(p);
	return b;
}
/* some precision known? */
static int flops_known(const rfl_kernel_stat *k) { return (k->work.unknown & all_flops_bits()) != all_flops_bits(); }
static double total_flops(const rfl_kernel_stat *k) { return rfl_work_flops(&k->work); }
static int ai_known(const rfl_kernel_stat *k, rfl_level l) {
	return flops_known(k) && known(k, RFL_UNKNOWN_BYTES(l)) && k->bytes[l] > 0;
}
static int fps_known(const rfl_kernel_stat *k) {
	return flops_known(k) && known(k, RFL_UNKNOWN_TIME) && k->time_ns > 0;
}

/* --json: the library writes the document (docs/schema.md). */
typedef struct json_args { const rfl_machine *hw; int by_name; } json_args;
static void write_json(rfl_json_writer *w, const void *v) {
	const json_args *a = (const json_args *)v;
	rfl_reduce_json(w, &res, a->by_name ? groups : 0, a->hw);
}

static const char *q(cli *c, int k, double v, const char *unit) { return k ? cli_si(c, v, unit) : "-"; }

static void short_name(char *out, size_t n, const char *name) {
	size_t len = strlen(name);
	if (len < n) { memcpy(out, name, len + 1); return; }
	memcpy(out, name, n - 4);
	memcpy(out + n - 4, "...", 4);
}

/* What only a trace says: device, step, busy time, streams, classes. */
static void print_trace(cli *c) {
	const rfl_reduce_trace *t = &res.trace;
	int i;
	printf("\n  trace       %s%s, %llu events, %llu ProfilerStep annotations", res.device[0] ? res.device : "device unknown",
		   "", (unsigned long long)t->events, (unsigned long long)t->steps_seen);
	if (t->step_selected) printf(", step %llu selected", (unsigned long long)t->step);
	printf("\n  GPU busy    %s of a span of %s (%s%%%s; first kernel start to last end)\n",
		   cli_si(c, (double)t->busy_ns * 1e-9, "s"), cli_si(c, (double)t->span_ns * 1e-9, "s"),
		   cli_num(c, t->span_ns ? 100.0 * (double)t->busy_ns / (double)t->span_ns : 0, 3),
		   t->busy_upper_bound ? ", at most" : "");
	printf("  memcpy      %llu, %s    memset %llu, %s (not kernels)\n", (unsigned long long)t->memcpy_count,
		   cli_si(c, (double)t->memcpy_ns * 1e-9, "s"), (unsigned long long)t->memset_count,
		   cli_si(c, (double)t->memset_ns * 1e-9, "s"));
	printf("  by stream  ");
	for (i = 0; i < t->stream_count; i++) {
		if (t->streams[i].stream >= 0) printf("%s stream %lld:", i ? "," : "", (long long)t->streams[i].stream);
		else printf("%s other streams:", i ? "," : "");
		printf(" %llu kernels %s", (unsigned long long)t->streams[i].kernels, cli_si(c, (double)t->streams[i].time_ns * 1e-9, "s"));
	}
	printf("\n  by class\n");
	for (i = 0; i < RFL_TRACE_CLASS_MAX; i++)
		if (t->class_kernels[i])
			printf("    %-12s %6llu kernels %10s  %s%%\n", rfl_kclass_name((rfl_kclass)i), (unsigned long long)t->class_kernels[i],
				   cli_si(c, (double)t->class_ns[i] * 1e-9, "s"),
				   cli_num(c, res.total.time_ns ? 100.0 * (double)t->class_ns[i] / (double)res.total.time_ns : 0, 3));
}

static void print_human(cli *c, const char *file, const rfl_machine *hw, int by_name) {
	const rfl_kernel_stat *t = &res.total;
	int i, p;
	char nm[61];
	printf("%s: %s, %llu kernels", file, rfl_reduce_format_name(res.format), (unsigned long long)res.kernels);
	if (res.kernels != res.kernels_seen) printf(" (of %llu)", (unsigned long long)res.kernels_seen);
	printf("\n  time        %s\n", known(t, RFL_UNKNOWN_TIME) ? cli_si(c, t->work.time_s, "s") : "-");
	printf("  FLOPs       %s", flops_known(t) ? cli_commas(c, total_flops(t)) : "-");
	for (p = 0; p < RFL_PREC_COUNT; p++)
		if (known(t, RFL_UNKNOWN_FLOPS(p)) && t->flops[p])
			printf("  %s %s", rfl_prec_name((rfl_prec)p), cli_commas(c, (double)t->flops[p]));
	printf("%s\n", (res.flags & RFL_REDUCE_TENSOR_ESTIMATED) ? "  (tensor estimated)" : "");
	printf("  bytes       DRAM %s  L2 %s  L1 %s\n",
		   known(t, RFL_UNKNOWN_BYTES(RFL_DRAM)) ? cli_commas(c, t->work.bytes[RFL_DRAM]) : "-",
		   known(t, RFL_UNKNOWN_BYTES(RFL_L2)) ? cli_commas(c, t->work.bytes[RFL_L2]) : "-",
		   known(t, RFL_UNKNOWN_BYTES(RFL_L1)) ? cli_commas(c, t->work.bytes[RFL_L1]) : "-");
	printf("  AI          DRAM %s  L2 %s  L1 %s FLOP/byte\n",
		   ai_known(t, RFL_DRAM) ? cli_num(c, rfl_work_ai(&t->work, RFL_DRAM), 4) : "-",
		   ai_known(t, RFL_L2) ? cli_num(c, rfl_work_ai(&t->work, RFL_L2), 4) : "-",
		   ai_known(t, RFL_L1) ? cli_num(c, rfl_work_ai(&t->work, RFL_L1), 4) : "-");
	printf("  FLOP/s      %s\n", q(c, fps_known(t), fps_known(t) ? total_flops(t) / t->work.time_s : 0, "FLOP/s"));
	if (res.ceil_flops[RFL_FP32] > 0 || res.ceil_bw[RFL_DRAM] > 0)
		printf("  profile's own ceilings: FP32 %s, DRAM %s, SM clock %s\n",
			   q(c, res.ceil_flops[RFL_FP32] > 0, res.ceil_flops[RFL_FP32], "FLOP/s"),
			   q(c, res.ceil_bw[RFL_DRAM] > 0, res.ceil_bw[RFL_DRAM], "B/s"),
			   q(c, res.sm_clock_hz > 0, res.sm_clock_hz, "Hz"));
	if (hw) {
		rfl_prec mp = rfl_work_main_prec(&t->work);
		double frac = 0;
		char at[160];
		if (fps_known(t) && rfl_roof_fraction(hw, &t->work, mp, &frac) == RFL_OK &&
			rfl_attainable_text(at, sizeof at, hw, &t->work, mp, 0)) /* names the level that binds */
			printf("  on %s: %s%% of the %s roof at this AI (%s)\n", hw->id, cli_num(c, frac * 100, 3),
				   rfl_prec_name(mp), at);
		else
			printf("  on %s: roof fraction unknown (needs FLOPs, bytes and time)\n", hw->id);
	}
	if (res.top_count) {
		printf("\n  top kernels by time:\n  %6s %10s %12s %8s %12s  %s\n", "id", "time", "FLOPs", "AI", "FLOP/s", "name");
		for (i = 0; i < res.top_count; i++) {
			const rfl_kernel_stat *k = &res.top[i];
			short_name(nm, sizeof nm, k->name);
			printf("  %6llu %10s %12s %8s %12s  %s\n", (unsigned long long)k->id,
				   q(c, known(k, RFL_UNKNOWN_TIME), k->work.time_s, "s"),
				   q(c, flops_known(k), total_flops(k), ""),
				   ai_known(k, RFL_DRAM) ? cli_num(c, rfl_work_ai(&k->work, RFL_DRAM), 3) : "-",
				   q(c, fps_known(k), fps_known(k) ? total_flops(k) / k->work.time_s : 0, ""), nm);
		}
	}
	if (by_name) {
		printf("\n  by name (%d names%s):\n  %6s %10s %12s %8s  %s\n", res.group_count,
			   res.other.invocations ? ", plus other" : "", "count", "time", "FLOPs", "AI", "name");
		for (i = 0; i < res.group_count; i++) {
			const rfl_kernel_stat *k = &groups[i];
			short_name(nm, sizeof nm, k->name);
			printf("  %6llu %10s %12s %8s  %s\n", (unsigned long long)k->invocations,
				   q(c, known(k, RFL_UNKNOWN_TIME), k->work.time_s, "s"), q(c, flops_known(k), total_flops(k), ""),
				   ai_known(k, RFL_DRAM) ? cli_num(c, rfl_work_ai(&k->work, RFL_DRAM), 3) : "-", nm);
		}
		if (res.other.invocations)
			printf("  %6llu %10s %12s %8s  (other)\n", (unsigned long long)res.other.invocations,
				   q(c, known(&res.other, RFL_UNKNOWN_TIME), res.other.work.time_s, "s"),
				   q(c, flops_known(&res.other), total_flops(&res.other), ""), "");
	}
	if (res.format == RFL_CSV_PYTORCH_TRACE) print_trace(c);
	if (res.warning_count) {
		printf("\n  warnings:\n");
		for (i = 0; i < res.warning_count; i++)
			printf("  %s\n", cli_warning(0, &res.warnings[i]));
		if (res.warnings_dropped) printf("  (%d more)\n", res.warnings_dropped);
	}
}

/* --top N, --ids A-B, --locale us|eu into the reduction's options. */
static void option(cli *c, int id, rfl_reduce_desc *d) {
	if (id == OPT_TOP) {
		char *end;
		long t = strtol(c->val, &end, 10);
		if (*end || t < 0 || t > RFL_REDUCE_TOP_MAX)
			cli_usage_error(c, "--top takes 0..%d, not '%s'", RFL_REDUCE_TOP_MAX, c->val);
		d->top_n = t == 0 ? -1 : (int)t;
	} else if (id == OPT_FILTER) d->filter = c->val;
	else if (id == OPT_LOCALE) {
		if (cli_is(c->val, "us")) d->locale = RFL_LOCALE_US;
		else if (cli_is(c->val, "eu")) d->locale = RFL_LOCALE_EU;
		else cli_usage_error(c, "--locale takes us or eu, not '%s'", c->val);
	} else if (id == OPT_STEP) {
		char *end;
		unsigned long long n = strtoull(c->val, &end, 10);
		if (*end || !*c->val || c->val[0] == '-') cli_usage_error(c, "--step takes a step number N (ProfilerStep#N), not '%s'", c->val);
		d->use_step = 1, d->step = n;
	} else if (id == OPT_IDS) {
		unsigned long long x, y;
		char ch;
		if (sscanf(c->val, "%llu-%llu%c", &x, &y, &ch) != 2 || x > y)
			cli_usage_error(c, "--ids takes A-B with A <= B, not '%s'", c->val);
		d->use_ids = 1, d->id_first = x, d->id_last = y;
	}
}

/* The file through the push parser; progress on a terminal past 64 MB. */
static rfl_result reduce(cli *c, const char *file, const rfl_reduce_desc *d) {
	FILE *f;
	size_t n;
	unsigned long long total = 0, next_report = 64ull << 20;
	int progress = isatty(2);
	if (cli_is(file, "-")) f = stdin;
	else if (!(f = fopen(file, "rb"))) cli_input_error(c, file, 0, 0, "cannot open: %s", strerror(errno));
	if (rfl_reduce_init(&st, d, scratch, sizeof scratch) != RFL_OK) cli_input_error(c, file, 0, 0, "init failed");
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		total += n;
		if (rfl_reduce_push(&st, buf, n) != RFL_OK) break;
		if (progress && total >= next_report) {
			fprintf(stderr, "\rrfl-reduce: %llu MB read, %llu kernels", total >> 20,
					(unsigned long long)st.res.kernels_seen);
			next_report += 64ull << 20;
		}
	}
	if (progress && total >= (64ull << 20)) fputc('\n', stderr);
	if (ferror(f)) /* fopen opens a directory; its first read fails */
		cli_input_error(c, file, 0, 0, "%s", errno == EISDIR ? "is a directory" : strerror(errno));
	if (f != stdin) fclose(f);
	return st.err.code ? st.err.code : rfl_reduce_finish(&st, &res);
}

/* Several files, one per rank: each reduced in turn (one in memory at a
   time), a line each, then the slowest (rfl_rank_summary). */
static void write_ranks(rfl_json_writer *w, const void *v) {
	int i, n = *(const int *)v;
	rfl_json_w_obj(w, 0);
	rfl_json_w_arr(w, "ranks");
	for (i = 0; i < n; i++) {
		rfl_json_w_obj(w, 0);
		rfl_json_w_num(w, "rank", i);
		rfl_json_w_str(w, "file", files[i]);
		rfl_json_w_u64(w, "kernels", rows[i].kernels);
		rfl_json_w_u64(w, "time_ns", rows[i].time_ns);
		if (rows[i].trace) rfl_json_w_u64(w, "span_ns", rows[i].span_ns), rfl_json_w_u64(w, "busy_ns", rows[i].busy_ns);
		else rfl_json_w_null(w, "span_ns"), rfl_json_w_null(w, "busy_ns");
		rfl_json_w_end(w);
	}
	rfl_json_w_end(w);
	rfl_json_w_obj(w, "slowest");
	rfl_json_w_num(w, "rank", ranks.slowest);
	rfl_json_w_u64(w, "time_ns", ranks.slowest_ns);
	rfl_json_w_end(w);
	rfl_json_w_obj(w, "fastest");
	rfl_json_w_num(w, "rank", ranks.fastest);
	rfl_json_w_u64(w, "time_ns", ranks.fastest_ns);
	rfl_json_w_end(w);
	rfl_json_w_num(w, "mean_ns", ranks.mean_ns);
	rfl_json_w_num(w, "imbalance", ranks.imbalance);
	rfl_json_w_str(w, "time", rows[0].trace ? "span_ns" : "time_ns");
	rfl_json_w_end(w);
}

static int reduce_ranks(cli *c, int n, const rfl_reduce_desc *d, int json) {
	int i;
	for (i = 0; i < n; i++) {
		const char *shown = cli_is(files[i], "-") ? "<stdin>" : files[i];
		rfl_result r = reduce(c, files[i], d);
		if (r != RFL_OK) {
			rfl_error e = st.err;
			if (!e.code) e.code = r;
			cli_error(c, shown, &e);
		}
		rows[i].kernels = res.kernels, rows[i].time_ns = res.total.time_ns;
		rows[i].trace = res.format == RFL_CSV_PYTORCH_TRACE;
		rows[i].span_ns = res.trace.span_ns, rows[i].busy_ns = res.trace.busy_ns;
		rfl_rank_summary_add(&ranks, &res);
		if (!json)
			printf("rank %d  %s: %llu kernels, kernel time %s%s%s%s\n", i, shown, (unsigned long long)res.kernels,
				   cli_si(c, (double)res.total.time_ns * 1e-9, "s"), rows[i].trace ? ", span " : "",
				   rows[i].trace ? cli_si(c, (double)res.trace.span_ns * 1e-9, "s") : "", rows[i].trace ? " (GPU)" : "");
	}
	if (json) cli_json_out(c, stdout, write_ranks, &n);
	else
		printf("slowest: rank %d (%s) %s, %s%% above the mean of %d ranks; fastest rank %d %s\n", ranks.slowest,
			   files[ranks.slowest], cli_si(c, (double)ranks.slowest_ns * 1e-9, "s"), cli_num(c, ranks.imbalance * 100, 3),
			   ranks.ranks, ranks.fastest, cli_si(c, (double)ranks.fastest_ns * 1e-9, "s"));
	return CLI_OK;
}

int main(int argc, char **argv) {
	cli c;
	const char *file = 0, *shown;
	rfl_reduce_desc d;
	json_args ja = {0, 0};
	int json = 0, id, nfiles = 0;
	rfl_result r;
	memset(&d, 0, sizeof d);
	cli_init(&c, "rfl-reduce", argc, argv, tables);
	while ((id = cli_next(&c)) != CLI_DONE) {
		if (id == CLI_HELP) { fputs(usage_text, stdout); return CLI_OK; }
		else if (id == OPT_JSON) json = 1;
		else if (id == OPT_BY_NAME) ja.by_name = 1;
		else if (id == CLI_ARG && nfiles == FILES) cli_usage_error(&c, "at most %d files", FILES);
		else if (id == CLI_ARG) files[nfiles++] = c.val;
		else option(&c, id, &d);
	}
	d.machine = ja.hw = cli_machine(&c); /* --hw NAME or --hw-file FILE */
	if (ja.by_name) d.groups = groups, d.group_cap = GROUPS;
	if (nfiles > 1) return reduce_ranks(&c, nfiles, &d, json);
	file = nfiles ? files[0] : "-";
	shown = cli_is(file, "-") ? "<stdin>" : file;
	r = reduce(&c, file, &d);
	if (r != RFL_OK) { /* st.err says it all */
		rfl_error e = st.err;
		if (!e.code) e.code = r;
		cli_error(&c, shown, &e);
	}
	if (json) cli_json_out(&c, stdout, write_json, &ja);
	else print_human(&c, shown, ja.hw, ja.by_name);
	return CLI_OK;
}
