/* rfl-probe: this host's measured peaks and bandwidth per memory level
   (the library's probe, run on one thread and on every CPU with a pthread
   pool), beside the table's figures when the CPU is in it; --json / -o
   write a machine file that every tool reads with --hw-file. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread barriers, sysconf */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

static const char *usage =
	"usage: rfl-probe [--quick] [--json] [-o FILE] [--threads N] [--max-mib N]\n"
	"                 [--isa c|sse2|avx2|avx512] [--hw NAME] [--sweep]\n"
	"  Measures this host's peak FLOP/s (fp64, fp32: FMA chains, 12 accumulators,\n"
	"  the widest vector unit CPUID reports) and bandwidth per memory level (read\n"
	"  and triad a[i] = b[i] + s*c[i] over working sets from 16 KiB doubling, 24\n"
	"  bytes an element as STREAM counts; the levels are the plateaus of the\n"
	"  curve), best of several runs, on 1 thread and on every CPU. Prints them\n"
	"  beside the table's figures for this CPU when it is in the table.\n"
	"  --quick       working sets to 64 MiB, shorter runs: under 5 s\n"
	"                (default: to 512 MiB, under 30 s; progress on stderr)\n"
	"  --json        print the machine file (below) instead of the table\n"
	"  -o FILE       also write the machine file to FILE: rfl-hw's JSON for this\n"
	"                machine with the measured ceilings under \"measured\" (the\n"
	"                table's figures at the top when the CPU is known, else the\n"
	"                measured ones) and the raw sweep under \"_probe\"; every tool\n"
	"                takes it as --hw-file FILE\n"
	"  --threads N   threads of the all-CPU run (default: the online CPUs)\n"
	"  --max-mib N   largest working set in MiB (make it 4x the last cache)\n"
	"  --isa NAME    force an instruction set (default: the best available)\n"
	"  --hw NAME     compare with this table machine instead of the detected one\n"
	"  --sweep       print the sweep (size, read and triad GB/s) too\n"
	"Exit status: 0 ok, 1 a probe or write failure, 2 bad usage.\n";

/* ---- the clock and the thread pool --------------------------------------- */
static double now_s(void *ctx) {
	struct timespec ts;
	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Workers wait on a barrier, run their slice of the posted job, meet
   again: no thread is created per measurement. */
typedef struct pool {
	int threads, quit;
	pthread_barrier_t go, done;
	const rfl_probe_job *job;
	pthread_t tid[256];
	double sink[256 * 8]; /* one checksum a thread, a cache line apart */
} pool;
typedef struct worker_arg { pool *p; int t; } worker_arg;
static worker_arg args[256];

static void run_slice(pool *p, int t) {
	rfl_probe_job mine;
	rfl_probe_job_slice(p->job, t, p->threads, &mine);
	p->sink[t * 8] += rfl_probe_kernel_run(&mine);
}
static void *worker(void *v) {
	worker_arg *a = (worker_arg *)v;
	for (;;) {
		pthread_barrier_wait(&a->p->go);
		if (a->p->quit) return 0;
		run_slice(a->p, a->t);
		pthread_barrier_wait(&a->p->done);
	}
}
static void run_all(void *ctx, const rfl_probe_job *job) {
	pool *p = (pool *)ctx;
	p->job = job;
	pthread_barrier_wait(&p->go);
	run_slice(p, 0);
	pthread_barrier_wait(&p->done);
}
static int pool_start(pool *p, int threads) {
	int t;
	memset(p, 0, sizeof *p);
	p->threads = threads;
	if (pthread_barrier_init(&p->go, 0, (unsigned)threads) ||
		pthread_barrier_init(&p->done, 0, (unsigned)threads))
		return -1;
	for (t = 1; t < threads; t++) {
		args[t].p = p, args[t].t = t;
		if (pthread_create(&p->tid[t], 0, worker, &args[t])) return -1;
	}
	return 0;
}
static void pool_stop(pool *p) {
	int t;
	p->quit = 1;
	pthread_barrier_wait(&p->go);
	for (t = 1; t < p->threads; t++) pthread_join(p->tid[t], 0);
	pthread_barrier_destroy(&p->go);
	pthread_barrier_destroy(&p->done);
}

static void progress(void *ctx, const char *what, int done, int total) {
	fprintf(stderr, "\rrfl-probe: %s: %-9s %3d/%d", (const char *)ctx, what, done, total);
	if (done == total) fputc('\n', stderr);
	fflush(stderr);
}

enum { OPT_QUICK = 1, OPT_JSON, OPT_SWEEP, OPT_OUT, OPT_ISA, OPT_THREADS, OPT_MAX_MIB };
static const cli_opt opts[] = {
	{"--quick", 0, OPT_QUICK}, {"--json", 0, OPT_JSON}, {"--sweep", 0, OPT_SWEEP},
	{"-o", "FILE", OPT_OUT}, {"--hw", "NAME", CLI_HW}, {"--isa", "NAME", OPT_ISA},
	{"--threads", "N", OPT_THREADS}, {"--max-mib", "N", OPT_MAX_MIB}, {0, 0, 0}};
static const cli_opt *const tables[] = {opts, 0};

typedef struct probe_opts {
	cli *c;
	int quick, json, sweep, threads, ncpu;
	const char *out, *hw;
	size_t max_bytes;
	rfl_probe_isa isa;
	double *buf;
	size_t buf_size;
	FILE *out_f; /* -o, opened before the probe: a bad path fails at once */
} probe_opts;

typedef struct probe_run {
	rfl_probe_result r;
	double wall_s;
} probe_run;

static rfl_probe_isa parse_isa(cli *c, const char *s) {
	int i;
	for (i = RFL_ISA_C; i < RFL_ISA_COUNT; i++)
		if (cli_is(s, rfl_probe_isa_name((rfl_probe_isa)i))) return (rfl_probe_isa)i;
	cli_usage_error(c, "unknown --isa '%s' (c, sse2, avx2, avx512)", s);
	return RFL_ISA_AUTO;
}

static double phys_bytes(void) {
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (double)pages * (double)size : 0;
}

static void probe_parse_args(cli *c, probe_opts *o) {
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double phys = phys_bytes();
	int id;
	memset(o, 0, sizeof *o);
	o->c = c;
	o->threads = ncpu > 0 ? (int)(ncpu < 256 ? ncpu : 256) : 1;
	o->ncpu = o->threads;
	while ((id = cli_next(c)) != CLI_DONE) {
		switch (id) {
		case CLI_HELP: fputs(usage, stdout); exit(CLI_OK);
		case OPT_QUICK: o->quick = 1; break;
		case OPT_JSON: o->json = 1; break;
		case OPT_SWEEP: o->sweep = 1; break;
		case OPT_OUT: o->out = c->val; break;
		case CLI_HW: o->hw = c->val; break;
		case OPT_ISA: o->isa = parse_isa(c, c->val); break;
		case OPT_THREADS: o->threads = (int)cli_long(c, 1, 256); break;
		case OPT_MAX_MIB: o->max_bytes = (size_t)cli_long(c, 1, 65536) << 20; break;
		default: cli_usage_error(c, "no arguments expected (got '%s')", c->val);
		}
	}
	if (o->hw) cli_find_hw(o->c, o->hw); /* an unknown name: exit 1 with suggestions */
	if (o->out && !(o->out_f = fopen(o->out, "w")))
		cli_input_error(o->c, o->out, 0, 0, "cannot write: %s", strerror(errno));
	if (!o->max_bytes) o->max_bytes = (size_t)(o->quick ? 64 : 512) << 20;
	while (phys > 0 && (double)o->max_bytes > phys / 4 && o->max_bytes > (1u << 20))
		o->max_bytes /= 2; /* a quarter of the memory at most */
	o->buf_size = RFL_PROBE_BUFFER_DOUBLES(o->max_bytes) * sizeof(double);
	o->buf = (double *)malloc(o->buf_size);
	if (!o->buf) cli_input_error(o->c, 0, 0, 0, "cannot allocate %zu bytes for the working sets", o->buf_size);
}

/* One probe on `threads` threads (1: this thread, no pool). */
static int probe_one(const probe_opts *o, int threads, probe_run *run) {
	static pool p;
	rfl_probe_desc d;
	rfl_result e;
	char label[32];
	double t0 = now_s(0);
	memset(&d, 0, sizeof d);
	d.now = now_s, d.ticks_per_s = 1;
	d.buf = o->buf, d.size = o->buf_size, d.max_bytes = o->max_bytes;
	d.isa = o->isa, d.threads = threads;
	d.min_s = o->quick ? 0.001 : 0.003; /* short runs: a busy SMT sibling spoils fewer */
	d.runs = o->quick ? 5 : 10;
	snprintf(label, sizeof label, "%d thread%s", threads, threads > 1 ? "s" : "");
	if (isatty(2)) d.progress = progress, d.progress_ctx = label;
	if (threads > 1) {
		if (pool_start(&p, threads)) cli_input_error(o->c, 0, 0, 0, "cannot start %d threads", threads);
		d.run_all = run_all, d.run_ctx = &p;
	}
	e = rfl_probe_run(&d, &run->r);
	if (threads > 1) pool_stop(&p);
	run->wall_s = now_s(0) - t0;
	if (e) {
		fprintf(stderr, "rfl-probe: %s: %s\n", label, rfl_result_str(e));
		return -1;
	}
	return 0;
}

/* ---- this CPU and the table ------------------------------------------------ */
/* /proc/cpuinfo's first "model name" (x86, most ARM), unless a board's
   "Model" line ("Raspberry Pi 4 Model B Rev 1.4") names the machine. */
static void cpu_model(char *buf, size_t size) {
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	int have = 0;
	snprintf(buf, size, "unknown CPU");
	if (!f) return;
	while (fgets(line, sizeof line, f)) {
		char *c = strchr(line, ':');
		int board = strncmp(line, "Model", 5) == 0;
		if (!c || (!board && (have || strncmp(line, "model name", 10)))) continue;
		c++;
		while (*c == ' ' || *c == '\t') c++;
		c[strcspn(c, "\n")] = 0;
		if (*c) snprintf(buf, size, "%s", c), have = 1;
		if (*c && board) break;
	}
	fclose(f);
}

/* The table CPU whose id or alias is a run of 1 to 4 words of the model
   name ("AMD EPYC 7763 64-Core Processor" -> "epyc-7763"). */
static const rfl_machine *table_match(const char *model) {
	char w[16][48], key[800];
	int n = 0, i, k, j;
	const char *s = model;
	while (*s && n < 16) {
		size_t len = strcspn(s, " \t@");
		if (len && len < 48 && strncmp(s, "(R)", 3) && strncmp(s, "(TM)", 4)) {
			snprintf(w[n], 48, "%.*s", (int)len, s);
			{ char *r; /* Xeon(R) -> Xeon */
			  if ((r = strstr(w[n], "(R)")) || (r = strstr(w[n], "(TM)"))) *r = 0; }
			n++;
		}
		s += len;
		while (*s == ' ' || *s == '\t' || *s == '@') s++;
	}
	for (k = 4; k >= 1; k--)
		for (i = 0; i + k <= n; i++) {
			const rfl_machine *m;
			key[0] = 0;
			for (j = 0; j < k; j++)
				snprintf(key + strlen(key), sizeof key - strlen(key), "%s%s", j ? "-" : "", w[i + j]);
			if (rfl_hw_find(key, &m) == RFL_OK && m->kind == RFL_KIND_CPU) return m;
		}
	return 0;
}

/* ---- the human table ------------------------------------------------------- */
/* "12.5 GFLOP/s", "-" when not measured */
static const char *per_s(cli *c, double v, const char *unit) {
	char *s = cli_numbuf(c), n[40];
	rfl_fmt_num(n, sizeof n, v / 1e9, 4);
	if (v > 0) snprintf(s, 48, "%s %s", n, unit);
	else snprintf(s, 48, "-");
	return s;
}

static void print_row(const probe_opts *o, const char *what, const probe_run *runs, int n, int prec, int level,
					  int triad, const rfl_machine *t) {
	int i;
	printf("  %-16s", what);
	for (i = 0; i < n; i++) {
		const rfl_probe_result *r = &runs[i].r;
		printf(" %16s", prec >= 0 ? per_s(o->c, r->peak_flops[prec], "GFLOP/s")
								  : per_s(o->c, triad ? r->triad_bps[level] : r->read_bps[level], "GB/s"));
	}
	if (t) {
		static const int lv[RFL_PROBE_LEVELS] = {RFL_L1, RFL_L2, -1, RFL_DRAM};
		double v = prec >= 0 ? t->peak_flops[prec]
				 : lv[level] >= 0 && triad ? t->bw_bytes_per_s[lv[level]] : 0;
		printf(" %16s", per_s(o->c, v, prec >= 0 ? "GFLOP/s" : "GB/s"));
	}
	printf("\n");
}

static void print_table(const probe_opts *o, const probe_run *runs, int n, const char *model,
						const rfl_machine *t) {
	static const char *lname[RFL_PROBE_LEVELS] = {"L1", "L2", "L3", "DRAM"};
	char head[3][40];
	int i, l, k;
	printf("%s: %d CPU%s online, %s kernels, working sets to %s MiB%s\n", model, o->ncpu,
		   o->ncpu > 1 ? "s" : "",
		   rfl_probe_isa_name(runs[0].r.isa), cli_num(o->c, (double)o->max_bytes / 1048576.0, 6),
		   o->quick ? " (quick)" : "");
	printf("  %-16s", "");
	for (i = 0; i < n; i++) {
		snprintf(head[i], sizeof head[i], "%d thread%s", runs[i].r.threads, runs[i].r.threads > 1 ? "s" : "");
		printf(" %16s", head[i]);
	}
	if (t) printf(" %16s", t->id);
	printf("\n");
	print_row(o, "peak fp64", runs, n, RFL_FP64, 0, 0, t);
	print_row(o, "peak fp32", runs, n, RFL_FP32, 0, 0, t);
	for (k = 1; k >= 0; k--)
		for (l = 0; l < RFL_PROBE_LEVELS; l++) {
			char w[32];
			snprintf(w, sizeof w, "%s %s", lname[l], k ? "triad" : "read");
			print_row(o, w, runs, n, -1, l, k, t);
		}
	printf("  %-16s", "probe time");
	for (i = 0; i < n; i++) {
		char ts[32];
		snprintf(ts, sizeof ts, "%s s", cli_num(o->c, runs[i].wall_s, 3));
		printf(" %16s", ts);
	}
	printf("\n");
	if (!t) printf("This CPU is not in the table (rfl-hw lists it; --hw NAME compares with one).\n");
	else {
		printf("The last column is the datasheet's (rfl-hw %s)", t->id);
		if (t->units > o->threads) printf(": the whole chip, %d cores", t->units);
		printf(".\n");
	}
	printf("Triad bytes: 24 an element (STREAM: no write-allocate); levels are the plateaus\n"
		   "of the sweep (--sweep shows it). -o FILE writes a machine file for --hw-file.\n");
	if (o->sweep)
		for (i = 0; i < n; i++) {
			const rfl_probe_result *r = &runs[i].r;
			printf("\nsweep, %s: %12s %12s %12s\n", head[i], "KiB", "read GB/s", "triad GB/s");
			for (k = 0; k < r->n_points; k++)
				printf("%*s%12s %12s %12s\n", 8 + (int)strlen(head[i]), "",
					   cli_num(o->c, r->sweep[k].bytes / 1024, 8), cli_num(o->c, r->sweep[k].read_bps / 1e9, 4),
					   cli_num(o->c, r->sweep[k].triad_bps / 1e9, 4));
		}
}
/* ---- the machine file ------------------------------------------------------- */
static void j_levels(rfl_json_writer *w, const char *key, const double *v) {
	static const char *names[RFL_PROBE_LEVELS] = {"l1", "l2", "l3", "dram"};
	int l;
	rfl_json_w_obj(w, key);
	for (l = 0; l < RFL_PROBE_LEVELS; l++) rfl_json_w_num_if(w, names[l], v[l] > 0, v[l]);
	rfl_json_w_end(w);
}

static void j_run(rfl_json_writer *w, const probe_run *run) {
	const rfl_probe_result *r = &run->r;
	int k;
	rfl_json_w_obj(w, 0);
	rfl_json_w_num(w, "threads", r->threads);
	rfl_json_w_num(w, "seconds", run->wall_s);
	rfl_json_w_obj(w, "peak_flops");
	rfl_json_w_num_if(w, "fp64", r->peak_flops[RFL_FP64] > 0, r->peak_flops[RFL_FP64]);
	rfl_json_w_num_if(w, "fp32", r->peak_flops[RFL_FP32] > 0, r->peak_flops[RFL_FP32]);
	rfl_json_w_end(w);
	j_levels(w, "read_bw", r->read_bps);
	j_levels(w, "triad_bw", r->triad_bps);
	rfl_json_w_arr(w, "sweep");
	for (k = 0; k < r->n_points; k++) {
		rfl_json_w_obj(w, 0);
		rfl_json_w_num(w, "bytes", r->sweep[k].bytes);
		rfl_json_w_num(w, "read_bw", r->sweep[k].read_bps);
		rfl_json_w_num(w, "triad_bw", r->sweep[k].triad_bps);
		rfl_json_w_end(w);
	}
	rfl_json_w_end(w);
	rfl_json_w_end(w);
}

typedef struct probe_file {
	const probe_opts *o;
	const probe_run *runs;
	int n;
	const char *model;
	const rfl_machine *t;   /* the table's machine, or NULL */
	rfl_machine_file mf;
} probe_file;

/* What rfl-hw NAME --json prints for this machine (the library's writer),
   with the measured ceilings under "measured" and the raw runs under
   "_probe" (readers ignore '_' keys). */
static void write_machine_file(rfl_json_writer *w, const void *v) {
	const probe_file *pf = (const probe_file *)v;
	int i;
	rfl_json_w_obj(w, 0);
	rfl_machine_file_write(w, &pf->mf);
	rfl_json_w_obj(w, "_probe");
	rfl_json_w_str(w, "cpu", pf->model);
	rfl_json_w_str(w, "isa", rfl_probe_isa_name(pf->runs[pf->n - 1].r.isa));
	rfl_json_w_bool(w, "quick", pf->o->quick);
	rfl_json_w_str(w, "table", pf->t ? pf->t->id : 0);
	rfl_json_w_arr(w, "runs");
	for (i = 0; i < pf->n; i++) j_run(w, &pf->runs[i]);
	rfl_json_w_end(w);
	rfl_json_w_end(w);
	rfl_json_w_end(w);
}

/* The machine file's machines: the table's (when the CPU is known) or
   this host's measured figures at the top, the measured ones beside. */
static void machine_of(probe_file *pf, char *src, size_t ns, char *hsrc, size_t nh) {
	const probe_opts *o = pf->o;
	const probe_run *best = &pf->runs[pf->n - 1]; /* every CPU: the machine's roof */
	rfl_machine host = best->r.machine;
	snprintf(src, ns, "rfl-probe %s: %d thread%s, %s FMA chains, triad bandwidth "
			 "(24 bytes an element, STREAM), best of %d%s", rfl_version(), best->r.threads,
			 best->r.threads > 1 ? "s" : "", rfl_probe_isa_name(best->r.isa), o->quick ? 5 : 10,
			 o->quick ? " (quick)" : "");
	snprintf(hsrc, nh, "measured on this host, no datasheet: %s", src);
	host.id = "host", host.name = pf->model, host.aliases = "", host.source = hsrc;
	host.mem_bytes = phys_bytes();
	memset(&pf->mf, 0, sizeof pf->mf);
	pf->mf.machine = pf->t ? *pf->t : host;
	pf->mf.measured = best->r.machine;
	pf->mf.measured.source = src;
	pf->mf.has_measured = 1;
	pf->mf.measured_threads = best->r.threads;
}

static int probe_output(const probe_opts *o, const probe_run *runs, int n) {
	char model[256], src[200], hsrc[260];
	const rfl_machine *t = 0;
	probe_file pf;
	cpu_model(model, sizeof model);
	if (o->hw) t = cli_find_hw(o->c, o->hw);
	else t = table_match(model);
	pf.o = o, pf.runs = runs, pf.n = n, pf.model = model, pf.t = t;
	machine_of(&pf, src, sizeof src, hsrc, sizeof hsrc);
	if (o->json) cli_json_out(o->c, stdout, write_machine_file, &pf);
	else print_table(o, runs, n, model, t);
	if (o->out) {
		cli_json_out(o->c, o->out_f, write_machine_file, &pf);
		if (fclose(o->out_f)) cli_input_error(o->c, o->out, 0, 0, "write failed: %s", strerror(errno));
		if (!o->json) printf("wrote %s (use it with --hw-file)\n", o->out);
	}
	return 0;
}

int main(int argc, char **argv) {
	cli c;
	probe_opts o;
	probe_run runs[2];
	int n = 0, i;
	cli_init(&c, "rfl-probe", argc, argv, tables);
	probe_parse_args(&c, &o);
	for (i = 0; i < 2; i++) {
		int threads = i == 0 ? 1 : o.threads;
		if (i == 1 && threads == 1) break;
		if (probe_one(&o, threads, &runs[n])) return CLI_BAD_INPUT;
		n++;
	}
	free(o.buf);
	return probe_output(&o, runs, n);
}
