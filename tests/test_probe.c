/* test_probe.c - the probe's accounting, kernels and sweep logic with a
   fake clock: a runner that advances the clock by the time a job would
   take on a machine whose figures this test sets (so every expected
   bandwidth and peak is the test's own, and the byte and FLOP counts are
   derived here by hand). No timing of the real host: tests/steps/probe.sh
   runs rfl-probe --quick once. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

/* ---- a fake machine ---------------------------------------------------------
   A small one, so the sweep fits a 1 MiB buffer: L1 200 GB/s for working
   sets up to 2 KiB, L2 80 up to 16 KiB, L3 40 up to 128 KiB, DRAM 10
   above; fp64 50 GFLOP/s and fp32 100 GFLOP/s a thread. */
typedef struct fake {
	double clock;   /* seconds */
	int calls, inits;
	double flop_rate[2];
	int stuck;      /* 1: the clock never moves */
} fake;

static double fake_bw(double ws) {
	return ws <= 2048 ? 200e9 : ws <= 16384 ? 80e9 : ws <= 131072 ? 40e9 : 10e9;
}

static double fake_now(void *ctx) { return ((fake *)ctx)->clock; }

/* Hand counts: plain C FMA job = 12 chains x 1 lane x 2 FLOPs a rep;
   read = 8 bytes an element a pass; triad (STREAM) = b and c read, a
   written: 3 x 8 bytes. Working sets: read 8 n, triad 3 x 8 n. */
static void fake_run(void *ctx, const rfl_probe_job *j) {
	fake *f = (fake *)ctx;
	double n = (double)j->n, reps = (double)j->reps;
	f->calls++;
	if (f->stuck) return;
	switch (j->kernel) {
	case RFL_PROBE_FMA: /* every thread runs the whole job at once */
		f->clock += 24.0 * reps / f->flop_rate[j->prec == RFL_FP32];
		break;
	case RFL_PROBE_READ: f->clock += 8.0 * n * reps / fake_bw(8.0 * n); break;
	case RFL_PROBE_TRIAD: f->clock += 24.0 * n * reps / fake_bw(24.0 * n); break;
	case RFL_PROBE_INIT: f->inits++; break;
	}
}

static int progress_last, progress_total;
static void count_progress(void *ctx, const char *what, int done, int total) {
	(void)ctx, (void)what;
	progress_last = done, progress_total = total;
}

static double buf[RFL_PROBE_BUFFER_DOUBLES(1u << 20)];

static void fake_desc(rfl_probe_desc *d, fake *f, int threads) {
	memset(f, 0, sizeof *f);
	memset(d, 0, sizeof *d);
	f->flop_rate[0] = 50e9, f->flop_rate[1] = 100e9;
	d->now = fake_now, d->now_ctx = f;
	d->run_all = fake_run, d->run_ctx = f, d->threads = threads;
	d->buf = buf, d->size = sizeof buf;
	d->min_bytes = 1024, d->max_bytes = 1u << 20;
	d->isa = RFL_ISA_C;
	d->progress = count_progress;
}

static void test_fake_sweep(int threads) {
	fake f;
	rfl_probe_desc d;
	static rfl_probe_result r;
	int i;
	fake_desc(&d, &f, threads);
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_OK);
	RT_EQ_INT(f.inits, 1);
	/* 1 KiB .. 1 MiB doubling: 11 points; 2 FMA + 2 x 11 measurements */
	RT_EQ_INT(r.n_points, 11);
	RT_NEAR(r.sweep[0].bytes, 1024, 0);
	RT_NEAR(r.sweep[10].bytes, 1048576, 0);
	RT_EQ_INT(progress_total, 24);
	RT_EQ_INT(progress_last, 24);
	/* peaks: threads x the rate of one */
	RT_NEAR(r.peak_flops[RFL_FP64], 50e9 * threads, 1e-12);
	RT_NEAR(r.peak_flops[RFL_FP32], 100e9 * threads, 1e-12);
	RT_NEAR(r.peak_flops[RFL_FP16], 0, 0);
	/* every point at the fake machine's bandwidth for its working set
	   (a probe counting 32 bytes a triad element would be 4/3 high) */
	for (i = 0; i < r.n_points; i++) {
		RT_NEAR(r.sweep[i].read_bps, fake_bw(r.sweep[i].bytes), 1e-12);
		RT_NEAR(r.sweep[i].triad_bps, fake_bw(r.sweep[i].bytes), 1e-12);
	}
	RT_NEAR(r.triad_bps[RFL_PROBE_L1], 200e9, 1e-12);
	RT_NEAR(r.triad_bps[RFL_PROBE_L2], 80e9, 1e-12);
	RT_NEAR(r.triad_bps[RFL_PROBE_L3], 40e9, 1e-12);
	RT_NEAR(r.triad_bps[RFL_PROBE_DRAM], 10e9, 1e-12);
	RT_NEAR(r.read_bps[RFL_PROBE_L2], 80e9, 1e-12);
	/* the machine: triad L1, L2, DRAM (no L3 in rfl_machine) */
	RT_NEAR(r.machine.bw_bytes_per_s[RFL_DRAM], 10e9, 1e-12);
	RT_NEAR(r.machine.bw_bytes_per_s[RFL_L2], 80e9, 1e-12);
	RT_NEAR(r.machine.bw_bytes_per_s[RFL_L1], 200e9, 1e-12);
	RT_NEAR(r.machine.peak_flops[RFL_FP32], 100e9 * threads, 1e-12);
	RT_EQ_INT(r.machine.kind, RFL_KIND_CPU);
	RT_EQ_INT(r.threads, threads);
	RT_EQ_INT(r.isa, RFL_ISA_C);
	/* each measurement's best run took at least min_s (0.01 s) */
	RT_CHECK(r.seconds >= 24 * 0.01);
}

/* step 4, a read-only sweep, no FMA */
static void test_fake_options(void) {
	fake f;
	rfl_probe_desc d;
	static rfl_probe_result r;
	fake_desc(&d, &f, 1);
	d.step = 4, d.skip = 1u | 4u;
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_OK);
	RT_EQ_INT(r.n_points, 6); /* 1, 4, 16, 64, 256, 1024 KiB */
	RT_NEAR(r.sweep[5].bytes, 1048576, 0);
	RT_NEAR(r.sweep[3].read_bps, 40e9, 1e-12);
	RT_NEAR(r.sweep[3].triad_bps, 0, 0);
	RT_NEAR(r.peak_flops[RFL_FP64], 0, 0);
	RT_EQ_INT(progress_total, 6);
	/* FMA only: no buffer needed */
	fake_desc(&d, &f, 1);
	d.skip = 2u | 4u, d.buf = 0, d.size = 0;
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_OK);
	RT_NEAR(r.peak_flops[RFL_FP64], 50e9, 1e-12);
	RT_EQ_INT(r.n_points, 0);
}

static void test_errors(void) {
	fake f;
	rfl_probe_desc d;
	static rfl_probe_result r;
	fake_desc(&d, &f, 1);
	d.now = 0;
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_ERR_ARG);
	fake_desc(&d, &f, 1);
	d.buf = 0;
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_ERR_ARG);
	fake_desc(&d, &f, 1);
	d.min_bytes = 2u << 20; /* above the buffer */
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_ERR_ARG);
	fake_desc(&d, &f, 1);
	d.isa = RFL_ISA_COUNT;
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_ERR_ARG);
	fake_desc(&d, &f, 1);
	f.stuck = 1; /* a clock that never advances: an error, not a hang */
	RT_EQ_INT(rfl_probe_run(&d, &r), RFL_ERR_NO_DATA);
	RT_CHECK(f.calls < 40); /* 3 empty runs, 11 calibrations (x16 to 2^40), 8 more */
	RT_EQ_INT(rfl_probe_run(0, &r), RFL_ERR_ARG);
}

/* FLOPs and bytes of a job, by hand */
static void test_accounting(void) {
	rfl_probe_job j;
	memset(&j, 0, sizeof j);
	j.kernel = RFL_PROBE_TRIAD, j.n = 1000, j.reps = 3;
	RT_NEAR(rfl_probe_job_bytes(&j), 72000, 0); /* 3 arrays x 8 B x 1000 x 3 */
	RT_NEAR(rfl_probe_job_flops(&j), 0, 0);
	j.kernel = RFL_PROBE_READ;
	RT_NEAR(rfl_probe_job_bytes(&j), 24000, 0); /* 8 B x 1000 x 3 */
	j.kernel = RFL_PROBE_FMA, j.reps = 10, j.prec = RFL_FP64, j.isa = RFL_ISA_AVX2;
	RT_NEAR(rfl_probe_job_flops(&j), 960, 0);   /* 12 chains x 4 lanes x 2 x 10 */
	RT_NEAR(rfl_probe_job_bytes(&j), 0, 0);
	j.prec = RFL_FP32, j.isa = RFL_ISA_AVX512, j.reps = 1;
	RT_NEAR(rfl_probe_job_flops(&j), 384, 0);   /* 12 x 16 x 2 */
	j.isa = RFL_ISA_SSE2;
	RT_NEAR(rfl_probe_job_flops(&j), 96, 0);    /* 12 x 4 x 2 (mul + add) */
	j.isa = RFL_ISA_C, j.prec = RFL_FP64;
	RT_NEAR(rfl_probe_job_flops(&j), 24, 0);    /* 12 x 1 x 2 */
}

/* thread slices: 64-byte pieces, the last takes the rest, FMA whole */
static void test_slice(void) {
	rfl_probe_job j, s;
	static double a[1000], b[1000], c[1000];
	memset(&j, 0, sizeof j);
	j.kernel = RFL_PROBE_TRIAD, j.n = 1000, j.a = a, j.b = b, j.c = c;
	rfl_probe_job_slice(&j, 0, 3, &s);
	RT_EQ_INT(s.n, 328); /* 1000 / 3 = 333, down to a multiple of 8 */
	RT_CHECK(s.a == a && s.c == c);
	rfl_probe_job_slice(&j, 1, 3, &s);
	RT_EQ_INT(s.n, 328);
	RT_CHECK(s.a == a + 328 && s.b == b + 328 && s.c == c + 328);
	rfl_probe_job_slice(&j, 2, 3, &s);
	RT_EQ_INT(s.n, 344);
	RT_CHECK(s.a == a + 656);
	j.kernel = RFL_PROBE_FMA, j.reps = 7;
	rfl_probe_job_slice(&j, 2, 3, &s);
	RT_EQ_INT(s.reps, 7);
	RT_EQ_INT(s.n, 1000);
}

/* The real kernels on every instruction set this CPU has: results by
   hand (sums of known arrays, the triad's values, the FMA chains' closed
   form x_r = L + m^r (x_0 - L), L = c / (1 - m)). */
static void test_kernels(void) {
	static double a[203], b[203], c[203];
	rfl_probe_job j;
	int isa, i, k;
	for (isa = RFL_ISA_C; isa <= (int)rfl_probe_isa_best(); isa++) {
		memset(&j, 0, sizeof j);
		j.isa = (rfl_probe_isa)isa;
		for (i = 0; i < 203; i++) a[i] = i, b[i] = 1, c[i] = 0.5 * i;
		j.kernel = RFL_PROBE_READ, j.a = a, j.n = 203, j.reps = 2;
		RT_NEAR(rfl_probe_kernel_run(&j), 2 * 203 * 202 / 2, 0); /* 2 x sum 0..202 */
		j.kernel = RFL_PROBE_TRIAD, j.b = b, j.c = c, j.n = 203, j.reps = 1;
		rfl_probe_kernel_run(&j);
		for (k = 0, i = 0; i < 203; i++) k += a[i] == 1 + 1.5 * i;
		RT_EQ_INT(k, 203); /* a = b + 3 c = 1 + 1.5 i, every element, tail too */
		j.kernel = RFL_PROBE_INIT, j.n = 100;
		rfl_probe_kernel_run(&j);
		RT_CHECK(a[0] == 1 && a[99] == 1 && a[100] == 1 + 150);
		j.kernel = RFL_PROBE_FMA, j.reps = 5000, j.prec = RFL_FP64;
		{
			double m = 0.9999999, cc = 1e-7, L = cc / (1 - m), want = 0;
			int lanes = (int)(rfl_probe_job_flops(&j) / 24 / 5000);
			for (i = 0; i < 12; i++) want += L + pow(m, 5000) * (0.5 + 0.01 * i - L);
			RT_NEAR(rfl_probe_kernel_run(&j), want * lanes, 1e-9);
			j.prec = RFL_FP32; /* float rounding of m, c and 5000 steps */
			lanes = (int)(rfl_probe_job_flops(&j) / 24 / 5000);
			RT_NEAR(rfl_probe_kernel_run(&j) / lanes, want, 2e-3);
		}
	}
	RT_STR(rfl_probe_isa_name(RFL_ISA_AVX2), "avx2");
	RT_STR(rfl_probe_isa_name(RFL_ISA_COUNT), "?");
}

/* The plateau fit on curves written here (GB/s) */
static void test_levels(void) {
	static const double flat[] = {5, 5.1, 4.9, 5, 5.05, 4.95};
	static const double two[] = {100, 100, 100, 70, 30, 30, 30};
	static const double four[] = {100, 96, 103, 99, 50, 52, 49, 20, 21, 19, 5, 5.2, 4.9};
	static const double small_step[] = {100, 100, 100, 91, 91, 91};
	static const double spike[] = {100, 100, 100, 140, 100, 100, 30, 30, 30};
	static const double quick[] = {150, 60, 58, 30, 31, 8}; /* ends of 1 point */
	double v[16], out[RFL_PROBE_LEVELS];
	int i;
#define LV(arr) (memcpy(v, arr, sizeof arr), rfl_probe_levels(v, (int)(sizeof arr / sizeof arr[0]), 1, out))
	for (i = 0; i < 16; i++) v[i] = 0;
	RT_EQ_INT(LV(flat), 1);
	RT_NEAR(out[RFL_PROBE_DRAM], 5, 0.011); /* median 5 or 5.025 */
	RT_NEAR(out[RFL_PROBE_L1], 0, 0);
	RT_EQ_INT(LV(two), 2);
	RT_NEAR(out[RFL_PROBE_L1], 100, 1e-12);
	RT_NEAR(out[RFL_PROBE_DRAM], 30, 1e-12);
	RT_NEAR(out[RFL_PROBE_L2], 0, 0);
	RT_EQ_INT(LV(four), 4);
	RT_NEAR(out[RFL_PROBE_L1], 99.5, 1e-12); /* median of 100 96 103 99 */
	RT_NEAR(out[RFL_PROBE_L2], 50, 1e-12);
	RT_NEAR(out[RFL_PROBE_L3], 20, 1e-12);
	RT_NEAR(out[RFL_PROBE_DRAM], 5, 1e-12);
	RT_EQ_INT(LV(small_step), 1); /* 9%: not a level */
	RT_EQ_INT(LV(spike), 2);      /* one point is not a level */
	RT_NEAR(out[RFL_PROBE_L1], 100, 1e-12);
	RT_NEAR(out[RFL_PROBE_DRAM], 30, 1e-12);
	RT_EQ_INT(LV(quick), 4);
	RT_NEAR(out[RFL_PROBE_L1], 150, 1e-12);
	RT_NEAR(out[RFL_PROBE_L2], 59, 1e-12);
	RT_NEAR(out[RFL_PROBE_DRAM], 8, 1e-12);
	/* zeros (not measured) are skipped; nothing: 0 pieces */
	v[0] = 0, v[1] = 7, v[2] = 0, v[3] = 7;
	RT_EQ_INT(rfl_probe_levels(v, 4, 1, out), 1);
	RT_NEAR(out[RFL_PROBE_DRAM], 7, 0);
	v[0] = 0;
	RT_EQ_INT(rfl_probe_levels(v, 1, 1, out), 0);
	RT_NEAR(out[RFL_PROBE_DRAM], 0, 0);
#undef LV
}

int main(void) {
	test_accounting();
	test_slice();
	test_kernels();
	test_levels();
	test_fake_sweep(1);
	test_fake_sweep(4);
	test_fake_options();
	test_errors();
	return rt_done();
}
