/* bench-probe: rfl-probe's figures against measurements written here,
   independently of the library's kernels: a STREAM-style triad (three
   static arrays of 2^25 doubles, 768 MiB, far beyond any cache; 24 bytes
   an element as STREAM counts; best of 10) and hand-unrolled FMA loops
   (10 accumulators, AVX-512 or AVX2 intrinsics as the CPU has, else
   plain C; best of 15), on the same thread counts as the probe. Prints both
   side by side and whether they agree within 10%.
   Rounds: each runs the probe command, then the independent measurement
   right after it. On a shared machine DRAM bandwidth moves by 20% from one
   minute to the next (neighbours), so one probe against one measurement
   taken later can differ by the neighbours alone; the medians of the
   rounds are compared, and every round's DRAM pair is printed. A last
   pair of lines times the library's triad kernel and the independent one
   pass by pass in turn on the same arrays: the same moments, no drift.
   Usage: bench-probe [--rounds N] PROBE_COMMAND...   (rfl-probe --json) */
#define _POSIX_C_SOURCE 200809L
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define BENCH_X86 1
#endif

#define N (1u << 25)
/* not static: a compiler may drop stores to an array nobody can read */
double A[N], B[N], C[N];

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- threads: each runs job(t) between two barriers, main times ------- */
typedef struct task { int t, threads, kind, prec; double out; } task;
static pthread_barrier_t bar;
static int quit;
static task tasks[256];

static void triad_part(int t, int threads) {
	size_t lo = (size_t)N / (size_t)threads * (size_t)t;
	size_t hi = t == threads - 1 ? N : (size_t)N / (size_t)threads * (size_t)(t + 1), j;
	const double s = 3.0;
	for (j = lo; j < hi; j++) A[j] = B[j] + s * C[j];
}

#define REPS 2000000L
#ifdef BENCH_X86
#define FMA10(T, SET, MADD, ST, L)                                                     \
	T m = SET(0.99999), c = SET(1e-6), x0 = SET(1), x1 = SET(2), x2 = SET(3),      \
	  x3 = SET(4), x4 = SET(5), x5 = SET(6), x6 = SET(7), x7 = SET(8), x8 = SET(9), \
	  x9 = SET(10);                                                                \
	long r;                                                                        \
	float tf[16];                                                                  \
	double td[8], s = 0;                                                           \
	int i;                                                                         \
	(void)tf, (void)td;                                                            \
	for (r = 0; r < REPS; r++) {                                                   \
		x0 = MADD(x0, m, c); x1 = MADD(x1, m, c); x2 = MADD(x2, m, c);             \
		x3 = MADD(x3, m, c); x4 = MADD(x4, m, c); x5 = MADD(x5, m, c);             \
		x6 = MADD(x6, m, c); x7 = MADD(x7, m, c); x8 = MADD(x8, m, c);             \
		x9 = MADD(x9, m, c);                                                       \
	}                                                                              \
	x0 = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9;                          \
	ST(L, x0);                                                                     \
	for (i = 0; i < (int)(sizeof x0 / sizeof L[0]); i++) s += (double)L[i];        \
	return s;
__attribute__((target("avx512f"))) static double fma512d(void) {
	FMA10(__m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_storeu_pd, td)
}
__attribute__((target("avx512f"))) static double fma512s(void) {
	FMA10(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_storeu_ps, tf)
}
__attribute__((target("avx2,fma"))) static double fma256d(void) {
	FMA10(__m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_storeu_pd, td)
}
__attribute__((target("avx2,fma"))) static double fma256s(void) {
	FMA10(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_storeu_ps, tf)
}
#endif
static int width; /* bytes a vector: 64, 32 or 8 (plain C) */
static double fma_plain(int prec32) {
	double x[10], s = 0;
	long r;
	int i;
	(void)prec32;
	for (i = 0; i < 10; i++) x[i] = i + 1;
	for (r = 0; r < REPS; r++) {
		x[0] = x[0] * 0.99999 + 1e-6; x[1] = x[1] * 0.99999 + 1e-6;
		x[2] = x[2] * 0.99999 + 1e-6; x[3] = x[3] * 0.99999 + 1e-6;
		x[4] = x[4] * 0.99999 + 1e-6; x[5] = x[5] * 0.99999 + 1e-6;
		x[6] = x[6] * 0.99999 + 1e-6; x[7] = x[7] * 0.99999 + 1e-6;
		x[8] = x[8] * 0.99999 + 1e-6; x[9] = x[9] * 0.99999 + 1e-6;
	}
	for (i = 0; i < 10; i++) s += x[i];
	return s;
}
static double fma_run(int prec32) {
#ifdef BENCH_X86
	if (width == 64) return prec32 ? fma512s() : fma512d();
	if (width == 32) return prec32 ? fma256s() : fma256d();
#endif
	return fma_plain(prec32);
}
/* FLOPs of one fma_run on one thread: 10 chains x lanes x 2 x REPS */
static double fma_flops(int prec32) {
	double lanes = width == 8 ? 1 : (double)width / (prec32 ? 4 : 8);
	return 10.0 * lanes * 2.0 * (double)REPS;
}

/* kind 2: the library's own triad kernel (the one rfl-probe times, at
   the instruction set it chose) on this thread's slice of the same arrays */
static rfl_probe_isa lib_isa;
static void lib_triad_part(task *k) {
	rfl_probe_job job, mine;
	memset(&job, 0, sizeof job);
	job.kernel = RFL_PROBE_TRIAD, job.isa = lib_isa;
	job.a = A, job.b = B, job.c = C, job.n = N, job.reps = 1;
	rfl_probe_job_slice(&job, k->t, k->threads, &mine);
	k->out += rfl_probe_kernel_run(&mine);
}

static void do_task(task *k) {
	if (k->kind == 0) triad_part(k->t, k->threads);
	else if (k->kind == 2) lib_triad_part(k);
	else k->out += fma_run(k->prec);
}
static void *worker(void *v) {
	task *k = (task *)v;
	for (;;) {
		pthread_barrier_wait(&bar);
		if (quit) return 0;
		do_task(k);
		pthread_barrier_wait(&bar);
	}
}

/* best seconds of `runs` runs of job kind on all threads */
static double best_of(int threads, int kind, int prec, int runs) {
	double best = 1e30;
	int i, t;
	for (i = 0; i < runs; i++) {
		double t0;
		for (t = 0; t < threads; t++) tasks[t].kind = kind, tasks[t].prec = prec;
		t0 = now();
		pthread_barrier_wait(&bar);
		do_task(&tasks[0]);
		pthread_barrier_wait(&bar);
		t0 = now() - t0;
		if (t0 < best) best = t0;
	}
	return best;
}

/* dram: rfl-probe's figure or the independent triad's; lib_dram and
   same_dram: the library's triad kernel and the independent one timed
   pass by pass in turn (the same moments of a shared machine) */
typedef struct figures { double fp64, fp32, dram, lib_dram, same_dram; } figures;

static figures independent(int threads) {
	pthread_t tid[256];
	figures f;
	int t;
	size_t j;
	quit = 0;
	pthread_barrier_init(&bar, 0, (unsigned)threads);
	for (t = 0; t < threads; t++) tasks[t].t = t, tasks[t].threads = threads, tasks[t].out = 0;
	for (t = 1; t < threads; t++) pthread_create(&tid[t], 0, worker, &tasks[t]);
	for (j = 0; j < N; j++) A[j] = 1, B[j] = 2, C[j] = 0.5;
	f.dram = 24.0 * N / best_of(threads, 0, 0, 10);
	f.lib_dram = f.same_dram = 0;
	for (t = 0; t < 10; t++) { /* alternating passes, best of each */
		double lib = 24.0 * N / best_of(threads, 2, 0, 1), mine = 24.0 * N / best_of(threads, 0, 0, 1);
		if (lib > f.lib_dram) f.lib_dram = lib;
		if (mine > f.same_dram) f.same_dram = mine;
	}
	f.fp64 = fma_flops(0) * threads / best_of(threads, 1, 0, 15);
	f.fp32 = fma_flops(1) * threads / best_of(threads, 1, 1, 15);
	quit = 1;
	pthread_barrier_wait(&bar);
	for (t = 1; t < threads; t++) pthread_join(tid[t], 0);
	pthread_barrier_destroy(&bar);
	return f;
}

/* ---- the probe's figures from its JSON ------------------------------------ */
static char text[1 << 20];
static size_t text_len;

/* Run the probe command; its stdout (rfl-probe --json) goes to text. */
static int run_probe(const char *cmd) {
	FILE *p = popen(cmd, "r");
	if (!p) return -1;
	text_len = fread(text, 1, sizeof text, p);
	return pclose(p) == 0 && text_len > 0 ? 0 : -1;
}

/* Figures of the probe's run `run` (0: 1 thread, 1: every CPU).
   Returns 1 when there is no such run, -1 when text is not probe JSON. */
static int probe_figures(int run, int *threads, figures *f, char *isa) {
	static rfl_json_tok tok[8192];
	rfl_json_doc d;
	int r;
	double v;
	if (rfl_json_parse(&d, text, text_len, tok, 8192)) return -1;
	rfl_json_str(&d, rfl_json_path(&d, 0, "_probe.isa"), isa, 16);
	r = rfl_json_at(&d, rfl_json_path(&d, 0, "_probe.runs"), run);
	if (r < 0) return 1;
	if (!rfl_json_num(&d, rfl_json_get(&d, r, "threads"), &v)) return -1;
	*threads = (int)v;
	f->fp64 = f->fp32 = f->dram = 0;
	rfl_json_num(&d, rfl_json_path(&d, r, "peak_flops.fp64"), &f->fp64);
	rfl_json_num(&d, rfl_json_path(&d, r, "peak_flops.fp32"), &f->fp32);
	rfl_json_num(&d, rfl_json_path(&d, r, "triad_bw.dram"), &f->dram);
	return 0;
}

static int line(const char *what, int threads, double probe, double mine, double unit) {
	double diff = mine > 0 ? (probe - mine) / mine : 0;
	int ok = probe > 0 && mine > 0 && diff < 0.10 && diff > -0.10;
	printf("  %-11s %2d thr  %12.2f %12.2f %+7.1f%%  %s\n", what, threads, probe / unit,
		   mine / unit, 100 * diff, ok ? "ok" : "DISAGREE");
	return ok;
}

#define MAX_ROUNDS 9
#define MAX_RUNS 2
typedef struct pair { figures probe, mine; int threads; } pair;
static pair rounds[MAX_ROUNDS][MAX_RUNS];

static double median(int n, int run, int mine, size_t field) {
	double v[MAX_ROUNDS], t;
	int i, j;
	for (i = 0; i < n; i++) {
		const figures *f = mine ? &rounds[i][run].mine : &rounds[i][run].probe;
		v[i] = *(const double *)((const char *)f + field);
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j] < v[j - 1]; j--) t = v[j], v[j] = v[j - 1], v[j - 1] = t;
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One round: the probe, then the independent figures on each of its runs'
   thread counts. Returns the number of runs, -1 on a probe failure. */
static int one_round(const char *cmd, pair *out, char *isa) {
	int run, threads;
	if (run_probe(cmd)) return -1;
	for (run = 0; run < MAX_RUNS; run++) {
		int st = probe_figures(run, &threads, &out[run].probe, isa);
		if (st < 0) return -1;
		if (st > 0) break;
		if (!width) {
			width = strcmp(isa, "avx512") == 0 ? 64 : strcmp(isa, "avx2") == 0 ? 32 : 8;
			for (lib_isa = RFL_ISA_C; lib_isa < RFL_ISA_COUNT; lib_isa = (rfl_probe_isa)(lib_isa + 1))
				if (strcmp(isa, rfl_probe_isa_name(lib_isa)) == 0) break;
			if (lib_isa == RFL_ISA_COUNT) lib_isa = RFL_ISA_C;
		}
		out[run].threads = threads;
		out[run].mine = independent(threads);
	}
	return run;
}

int main(int argc, char **argv) {
	char isa[16] = "", cmd[4096] = "";
	int nrounds = 5, a = 1, r, run, runs = 0, bad = 0;
	if (argc > 2 && strcmp(argv[1], "--rounds") == 0) nrounds = atoi(argv[2]), a = 3;
	if (a >= argc || nrounds < 1 || nrounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench-probe [--rounds 1..%d] PROBE_COMMAND...\n", MAX_ROUNDS);
		return 2;
	}
	for (; a < argc; a++) strncat(strncat(cmd, argv[a], 1000), " ", 2);
	for (r = 0; r < nrounds; r++) {
		fprintf(stderr, "bench-probe: round %d of %d\n", r + 1, nrounds);
		if ((runs = one_round(cmd, rounds[r], isa)) <= 0) {
			fprintf(stderr, "bench-probe: '%s' gave no rfl-probe --json output\n", cmd);
			return 1;
		}
	}
	printf("rfl-probe against an independent triad (768 MiB, STREAM bytes) and FMA loop (%s),\n"
		   "median of %d rounds\n", width == 8 ? "plain C" : isa, nrounds);
	printf("  %-11s %6s  %12s %12s %8s\n", "", "", "rfl-probe", "independent", "diff");
	for (run = 0; run < runs; run++) {
		int t = rounds[0][run].threads;
		bad += !line("fp64 GFLOP/s", t, median(nrounds, run, 0, offsetof(figures, fp64)),
					 median(nrounds, run, 1, offsetof(figures, fp64)), 1e9);
		bad += !line("fp32 GFLOP/s", t, median(nrounds, run, 0, offsetof(figures, fp32)),
					 median(nrounds, run, 1, offsetof(figures, fp32)), 1e9);
		bad += !line("DRAM GB/s", t, median(nrounds, run, 0, offsetof(figures, dram)),
					 median(nrounds, run, 1, offsetof(figures, dram)), 1e9);
	}
	printf("  the library's triad kernel and the independent one, pass by pass in turn:\n");
	for (run = 0; run < runs; run++)
		bad += !line("DRAM GB/s", rounds[0][run].threads,
					 median(nrounds, run, 1, offsetof(figures, lib_dram)),
					 median(nrounds, run, 1, offsetof(figures, same_dram)), 1e9);
	for (run = 0; run < runs; run++) {
		printf("  DRAM GB/s by round, %d thr (probe / independent):", rounds[0][run].threads);
		for (r = 0; r < nrounds; r++)
			printf("  %.1f / %.1f", rounds[r][run].probe.dram / 1e9, rounds[r][run].mine.dram / 1e9);
		printf("\n");
	}
	printf(bad ? "%d figures differ by 10%% or more (a busy machine? run again idle)\n"
			   : "all figures agree within 10%%\n", bad);
	return 0;
}
