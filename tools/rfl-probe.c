/* rfl-probe: this host's measured peaks and bandwidth per memory level
   (the library's probe, run on one thread and on every CPU with a pthread
   pool), beside the table's figures when the CPU is in it; --json / -o
   write a machine file that every tool reads with --hw-file. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread barriers, sysconf */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "tool.h"
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

#include "probe_report.h"

int main(int argc, char **argv) {
    probe_opts o;
    probe_run runs[2];
    int n = 0, i;
    tl_prog = "rfl-probe";
    probe_parse_args(argc, argv, &o);
    for (i = 0; i < 2; i++) {
        int threads = i == 0 ? 1 : o.threads;
        if (i == 1 && threads == 1) break;
        if (probe_one(&o, threads, &runs[n])) return TL_BAD_INPUT;
        n++;
    }
    free(o.buf);
    return probe_output(&o, runs, n);
}
