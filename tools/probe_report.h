/* probe_report.h - rfl-probe's options, runs, CPU detection and outputs
   (the human table and the machine file). Included by tools/rfl-probe.c
   after its clock and thread pool. */
#ifndef RFL_PROBE_REPORT_H
#define RFL_PROBE_REPORT_H

typedef struct probe_opts {
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

static rfl_probe_isa parse_isa(const char *s) {
    int i;
    for (i = RFL_ISA_C; i < RFL_ISA_COUNT; i++)
        if (tl_is(s, rfl_probe_isa_name((rfl_probe_isa)i))) return (rfl_probe_isa)i;
    tl_usage_error("unknown --isa '%s' (c, sse2, avx2, avx512)", s);
    return RFL_ISA_AUTO;
}

static long parse_pos(const char *opt, const char *s, long hi) {
    char *e;
    long v = strtol(s, &e, 10);
    if (!*s || *e || v < 1 || v > hi) tl_usage_error("%s wants a whole number 1..%ld, not '%s'", opt, hi, s);
    return v;
}

static double phys_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0;
}

static void probe_parse_args(int argc, char **argv, probe_opts *o) {
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    double phys = phys_bytes();
    int i;
    memset(o, 0, sizeof *o);
    o->threads = ncpu > 0 ? (int)(ncpu < 256 ? ncpu : 256) : 1;
    o->ncpu = o->threads;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (tl_is(a, "--help") || tl_is(a, "-h")) { fputs(usage, stdout); exit(0); }
        else if (tl_is(a, "--quick")) o->quick = 1;
        else if (tl_is(a, "--json")) o->json = 1;
        else if (tl_is(a, "--sweep")) o->sweep = 1;
        else if (tl_is(a, "-o") && more) o->out = argv[++i];
        else if (tl_is(a, "--hw") && more) o->hw = argv[++i];
        else if (tl_is(a, "--isa") && more) o->isa = parse_isa(argv[++i]);
        else if (tl_is(a, "--threads") && more) o->threads = (int)parse_pos(a, argv[++i], 256);
        else if (tl_is(a, "--max-mib") && more)
            o->max_bytes = (size_t)parse_pos(a, argv[++i], 65536) << 20;
        else if (a[0] == '-') tl_usage_error("unknown option or missing value '%s'", a);
        else tl_usage_error("no arguments expected (got '%s')", a);
    }
    if (o->hw) tl_find_hw(o->hw); /* an unknown name: exit 1 with suggestions */
    if (o->out && !(o->out_f = fopen(o->out, "w")))
        tl_input_error(o->out, 0, 0, "cannot write: %s", strerror(errno));
    if (!o->max_bytes) o->max_bytes = (size_t)(o->quick ? 64 : 512) << 20;
    while (phys > 0 && (double)o->max_bytes > phys / 4 && o->max_bytes > (1u << 20))
        o->max_bytes /= 2; /* a quarter of the memory at most */
    o->buf_size = RFL_PROBE_BUFFER_DOUBLES(o->max_bytes) * sizeof(double);
    o->buf = (double *)malloc(o->buf_size);
    if (!o->buf) tl_input_error(0, 0, 0, "cannot allocate %zu bytes for the working sets", o->buf_size);
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
        if (pool_start(&p, threads)) tl_input_error(0, 0, 0, "cannot start %d threads", threads);
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
static const char *gflops(double v) {
    static char b[8][32];
    static int k;
    char *s = b[k++ & 7];
    if (v > 0) snprintf(s, 32, "%s GFLOP/s", tl_num(v / 1e9, 4));
    else snprintf(s, 32, "-");
    return s;
}
static const char *gbs(double v) {
    static char b[8][32];
    static int k;
    char *s = b[k++ & 7];
    if (v > 0) snprintf(s, 32, "%s GB/s", tl_num(v / 1e9, 4));
    else snprintf(s, 32, "-");
    return s;
}

static void print_row(const char *what, const probe_run *runs, int n, int prec, int level,
                      int triad, const rfl_machine *t) {
    int i;
    printf("  %-16s", what);
    for (i = 0; i < n; i++) {
        const rfl_probe_result *r = &runs[i].r;
        printf(" %16s", prec >= 0 ? gflops(r->peak_flops[prec])
                                  : gbs(triad ? r->triad_bps[level] : r->read_bps[level]));
    }
    if (t) {
        static const int lv[RFL_PROBE_LEVELS] = {RFL_L1, RFL_L2, -1, RFL_DRAM};
        double v = prec >= 0 ? t->peak_flops[prec]
                 : lv[level] >= 0 && triad ? t->bw_bytes_per_s[lv[level]] : 0;
        printf(" %16s", prec >= 0 ? gflops(v) : gbs(v));
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
           rfl_probe_isa_name(runs[0].r.isa), tl_num((double)o->max_bytes / 1048576.0, 6),
           o->quick ? " (quick)" : "");
    printf("  %-16s", "");
    for (i = 0; i < n; i++) {
        snprintf(head[i], sizeof head[i], "%d thread%s", runs[i].r.threads, runs[i].r.threads > 1 ? "s" : "");
        printf(" %16s", head[i]);
    }
    if (t) printf(" %16s", t->id);
    printf("\n");
    print_row("peak fp64", runs, n, RFL_FP64, 0, 0, t);
    print_row("peak fp32", runs, n, RFL_FP32, 0, 0, t);
    for (k = 1; k >= 0; k--)
        for (l = 0; l < RFL_PROBE_LEVELS; l++) {
            char w[32];
            snprintf(w, sizeof w, "%s %s", lname[l], k ? "triad" : "read");
            print_row(w, runs, n, -1, l, k, t);
        }
    printf("  %-16s", "probe time");
    for (i = 0; i < n; i++) {
        char ts[32];
        snprintf(ts, sizeof ts, "%s s", tl_num(runs[i].wall_s, 3));
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
                       tl_num(r->sweep[k].bytes / 1024, 8), tl_num(r->sweep[k].read_bps / 1e9, 4),
                       tl_num(r->sweep[k].triad_bps / 1e9, 4));
        }
}
#include "probe_json.h"
#endif
