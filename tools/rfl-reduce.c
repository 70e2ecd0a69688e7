/* rfl-reduce: totals, top kernels and warnings from an Nsight Compute or
   nvprof CSV export, streamed through the library's push parser in 64 KB
   chunks (constant memory whatever the file size). */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "tool.h"
#include <errno.h>
#include <unistd.h>

#define CHUNK (256 * 1024) /* read() in L2-sized pieces: fewer calls, still cache-resident */
#define GROUPS 512

static const char *usage_text =
    "usage: rfl-reduce [FILE|-] [--top N] [--by-name] [--filter TEXT] [--ids A-B]\n"
    "                  [--hw NAME | --hw-file FILE] [--locale us|eu] [--json]\n"
    "Reduce an ncu (--csv, --page raw or details) or nvprof (--csv) export to\n"
    "totals: FLOPs per precision, bytes per memory level, time, AI, FLOP/s,\n"
    "the device's own ceilings when the profile has them, the top kernels by\n"
    "time and warnings. Unknown quantities print as null (JSON) or '-'.\n"
    "  --top N        top kernels to list (default 10, at most 32)\n"
    "  --by-name      also totals per kernel name\n"
    "  --filter TEXT  only kernels whose name contains TEXT\n"
    "  --ids A-B      only kernels with ID in A..B\n"
    "  --hw NAME      compare against a machine (rfl-hw lists them)\n"
    "  --hw-file F    a machine file instead (rfl-hw NAME --json, rfl-probe -o F)\n"
    "  --locale us|eu number convention (default: detect)\n"
    "  --json         machine-readable output\n";

static rfl_reduce_state st;
static rfl_reduce_result res;
static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static unsigned char buf[CHUNK];
static rfl_kernel_stat groups[GROUPS];

static const char *warn_name(rfl_reduce_warn w) {
    switch (w) {
    case RFL_WARN_TENSOR_UNCOUNTED: return "tensor_uncounted";
    case RFL_WARN_TENSOR_ESTIMATED: return "tensor_estimated";
    case RFL_WARN_NO_FP_COUNTERS: return "no_fp_counters";
    case RFL_WARN_ABOVE_ROOF: return "above_roof";
    case RFL_WARN_BELOW_COMPULSORY: return "below_compulsory";
    case RFL_WARN_HIERARCHY: return "hierarchy_inversion";
    case RFL_WARN_LOW_CLOCK: return "low_clock";
    case RFL_WARN_AUTO_UNITS: return "auto_units";
    case RFL_WARN_RATE_DERIVED: return "rate_derived";
    case RFL_WARN_NAME_TRUNCATED: return "name_truncated";
    case RFL_WARN_SATURATED: return "saturated";
    case RFL_WARN_GROUPS_FULL: return "groups_full";
    case RFL_WARN_NO_TIME: return "no_time";
    case RFL_WARN_PARTIAL_COUNTERS: return "partial_counters";
    case RFL_WARN_NO_TENSOR_COUNTERS: return "no_tensor_counters";
    default: return "warning";
    }
}

static int known(const rfl_kernel_stat *k, unsigned bits) { return (k->work.unknown & bits) == 0; }
static unsigned all_flops_bits(void) {
    unsigned b = 0;
    int p;
    for (p = 0; p < RFL_PREC_COUNT; p++) b |= RFL_UNKNOWN_FLOPS(p);
    return b;
}
static unsigned tensor_bits(void) {
    unsigned b = 0;
    int p;
    for (p = RFL_FP64_TENSOR; p < RFL_PREC_COUNT; p++) b |= RFL_UNKNOWN_FLOPS(p);
    return b;
}
/* some precision known? */
static int flops_known(const rfl_kernel_stat *k) { return (k->work.unknown & all_flops_bits()) != all_flops_bits(); }
static int tensor_known(const rfl_kernel_stat *k) { return (k->work.unknown & tensor_bits()) != tensor_bits(); }
static double total_flops(const rfl_kernel_stat *k) { return rfl_work_flops(&k->work); }
static int ai_known(const rfl_kernel_stat *k, rfl_level l) {
    return flops_known(k) && known(k, RFL_UNKNOWN_BYTES(l)) && k->bytes[l] > 0;
}
static int fps_known(const rfl_kernel_stat *k) {
    return flops_known(k) && known(k, RFL_UNKNOWN_TIME) && k->time_ns > 0;
}

static void json_stat(tl_json *j, const rfl_kernel_stat *k, int with_name) {
    if (with_name) {
        tl_jnum(j, "id", (double)k->id);
        tl_jstr(j, "name", k->name);
        tl_jbool(j, "name_truncated", (k->flags & RFL_REDUCE_NAME_TRUNCATED) != 0);
        tl_jnum(j, "invocations", (double)k->invocations);
    }
    tl_jnum_if(j, "time_s", known(k, RFL_UNKNOWN_TIME), k->work.time_s);
    tl_jnum_if(j, "flops", flops_known(k), total_flops(k));
    tl_jnum_if(j, "bytes_dram", known(k, RFL_UNKNOWN_BYTES(RFL_DRAM)), k->work.bytes[RFL_DRAM]);
    tl_jnum_if(j, "ai_dram", ai_known(k, RFL_DRAM), rfl_work_ai(&k->work, RFL_DRAM));
    tl_jnum_if(j, "flops_per_s", fps_known(k), total_flops(k) / k->work.time_s);
}

static void print_json(const rfl_machine *hw, int by_name) {
    tl_json j = {0};
    const rfl_kernel_stat *t = &res.total;
    int i, p;
    j.f = stdout;
    tl_jobj(&j, 0);
    tl_jstr(&j, "format", rfl_csv_format_name(res.format));
    tl_jnum(&j, "kernels", (double)res.kernels);
    tl_jnum(&j, "kernels_seen", (double)res.kernels_seen);
    tl_jstr(&j, "locale", res.locale == RFL_LOCALE_EU ? "eu" : res.locale == RFL_LOCALE_US ? "us" : "auto");
    tl_jnum_if(&j, "time_s", known(t, RFL_UNKNOWN_TIME), t->work.time_s);
    tl_jnum_if(&j, "time_ns", known(t, RFL_UNKNOWN_TIME), (double)t->time_ns);
    tl_jobj(&j, "flops");
    tl_jnum_if(&j, "fp64", known(t, RFL_UNKNOWN_FLOPS(RFL_FP64)), (double)t->flops[RFL_FP64]);
    tl_jnum_if(&j, "fp32", known(t, RFL_UNKNOWN_FLOPS(RFL_FP32)), (double)t->flops[RFL_FP32]);
    tl_jnum_if(&j, "fp16", known(t, RFL_UNKNOWN_FLOPS(RFL_FP16)), (double)t->flops[RFL_FP16]);
    tl_jnum_if(&j, "tensor", tensor_known(t), (double)rfl_kernel_tensor_flops(t));
    tl_jnum_if(&j, "total", flops_known(t), total_flops(t));
    tl_jbool(&j, "tensor_estimated", (res.flags & RFL_REDUCE_TENSOR_ESTIMATED) != 0);
    if (res.tensor_flops_per_inst > 0) tl_jnum(&j, "tensor_flops_per_inst", res.tensor_flops_per_inst);
    tl_jobj(&j, "by_precision");
    for (p = 0; p < RFL_PREC_COUNT; p++)
        tl_jnum_if(&j, rfl_prec_name((rfl_prec)p), known(t, RFL_UNKNOWN_FLOPS(p)), (double)t->flops[p]);
    tl_jclose(&j);
    tl_jclose(&j);
    tl_jobj(&j, "bytes");
    for (p = 0; p < RFL_LEVEL_COUNT; p++)
        tl_jnum_if(&j, rfl_level_name((rfl_level)p), known(t, RFL_UNKNOWN_BYTES(p)), (double)t->bytes[p]);
    tl_jclose(&j);
    tl_jobj(&j, "ai");
    for (p = 0; p < RFL_LEVEL_COUNT; p++)
        tl_jnum_if(&j, rfl_level_name((rfl_level)p), ai_known(t, (rfl_level)p), rfl_work_ai(&t->work, (rfl_level)p));
    tl_jclose(&j);
    tl_jnum_if(&j, "flops_per_s", fps_known(t), total_flops(t) / t->work.time_s);
    tl_jnum(&j, "tensor_inst", (double)t->tensor_inst);
    tl_jobj(&j, "ceilings");
    tl_jnum_if(&j, "fp32_flops_per_s", res.ceil_flops[RFL_FP32] > 0, res.ceil_flops[RFL_FP32]);
    tl_jnum_if(&j, "fp64_flops_per_s", res.ceil_flops[RFL_FP64] > 0, res.ceil_flops[RFL_FP64]);
    tl_jnum_if(&j, "fp16_flops_per_s", res.ceil_flops[RFL_FP16] > 0, res.ceil_flops[RFL_FP16]);
    tl_jnum_if(&j, "dram_bytes_per_s", res.ceil_bw[RFL_DRAM] > 0, res.ceil_bw[RFL_DRAM]);
    tl_jnum_if(&j, "l2_bytes_per_s", res.ceil_bw[RFL_L2] > 0, res.ceil_bw[RFL_L2]);
    tl_jnum_if(&j, "l1_bytes_per_s", res.ceil_bw[RFL_L1] > 0, res.ceil_bw[RFL_L1]);
    tl_jnum_if(&j, "sm_clock_hz", res.sm_clock_hz > 0, res.sm_clock_hz);
    tl_jclose(&j);
    if (hw) {
        rfl_prec mp = rfl_work_main_prec(&t->work);
        double frac = 0;
        /* before the call below: argument order is unspecified (x86-64 read
           frac first and printed 0; ARM printed the fraction) */
        int frac_ok = rfl_roof_fraction(hw, &t->work, mp, &frac) == RFL_OK && fps_known(t);
        tl_jstr(&j, "hw", hw->id);
        tl_jstr(&j, "hw_prec", rfl_prec_name(mp));
        tl_jnum_if(&j, "roof_fraction", frac_ok, frac);
    }
    tl_jarr(&j, "warnings");
    for (i = 0; i < res.warning_count; i++) {
        tl_jobj(&j, 0);
        tl_jstr(&j, "code", warn_name(res.warnings[i].code));
        if (res.warnings[i].has_kernel) tl_jnum(&j, "kernel", (double)res.warnings[i].kernel_id);
        tl_jstr(&j, "text", res.warnings[i].text);
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    tl_jarr(&j, "top");
    for (i = 0; i < res.top_count; i++) {
        tl_jobj(&j, 0);
        json_stat(&j, &res.top[i], 1);
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    if (by_name) {
        tl_jarr(&j, "by_name");
        for (i = 0; i < res.group_count; i++) {
            tl_jobj(&j, 0);
            json_stat(&j, &groups[i], 1);
            tl_jclose(&j);
        }
        tl_jclose_arr(&j);
        tl_jobj(&j, "other");
        tl_jnum(&j, "invocations", (double)res.other.invocations);
        json_stat(&j, &res.other, 0);
        tl_jclose(&j);
    }
    tl_jclose(&j);
}

static const char *q(int k, double v, const char *unit) { return k ? tl_si(v, unit) : "-"; }

static void short_name(char *out, size_t n, const char *name) {
    size_t len = strlen(name);
    if (len < n) { memcpy(out, name, len + 1); return; }
    memcpy(out, name, n - 4);
    memcpy(out + n - 4, "...", 4);
}

static void print_human(const char *file, const rfl_machine *hw, int by_name) {
    const rfl_kernel_stat *t = &res.total;
    int i, p;
    char nm[61];
    printf("%s: %s, %llu kernels", file, rfl_csv_format_name(res.format), (unsigned long long)res.kernels);
    if (res.kernels != res.kernels_seen) printf(" (of %llu)", (unsigned long long)res.kernels_seen);
    printf("\n  time        %s\n", known(t, RFL_UNKNOWN_TIME) ? tl_si(t->work.time_s, "s") : "-");
    printf("  FLOPs       %s", flops_known(t) ? tl_commas(total_flops(t)) : "-");
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (known(t, RFL_UNKNOWN_FLOPS(p)) && t->flops[p])
            printf("  %s %s", rfl_prec_name((rfl_prec)p), tl_commas((double)t->flops[p]));
    printf("%s\n", (res.flags & RFL_REDUCE_TENSOR_ESTIMATED) ? "  (tensor estimated)" : "");
    printf("  bytes       DRAM %s  L2 %s  L1 %s\n",
           known(t, RFL_UNKNOWN_BYTES(RFL_DRAM)) ? tl_commas(t->work.bytes[RFL_DRAM]) : "-",
           known(t, RFL_UNKNOWN_BYTES(RFL_L2)) ? tl_commas(t->work.bytes[RFL_L2]) : "-",
           known(t, RFL_UNKNOWN_BYTES(RFL_L1)) ? tl_commas(t->work.bytes[RFL_L1]) : "-");
    printf("  AI          DRAM %s  L2 %s  L1 %s FLOP/byte\n",
           ai_known(t, RFL_DRAM) ? tl_num(rfl_work_ai(&t->work, RFL_DRAM), 4) : "-",
           ai_known(t, RFL_L2) ? tl_num(rfl_work_ai(&t->work, RFL_L2), 4) : "-",
           ai_known(t, RFL_L1) ? tl_num(rfl_work_ai(&t->work, RFL_L1), 4) : "-");
    printf("  FLOP/s      %s\n", q(fps_known(t), fps_known(t) ? total_flops(t) / t->work.time_s : 0, "FLOP/s"));
    if (res.ceil_flops[RFL_FP32] > 0 || res.ceil_bw[RFL_DRAM] > 0)
        printf("  profile's own ceilings: FP32 %s, DRAM %s, SM clock %s\n",
               q(res.ceil_flops[RFL_FP32] > 0, res.ceil_flops[RFL_FP32], "FLOP/s"),
               q(res.ceil_bw[RFL_DRAM] > 0, res.ceil_bw[RFL_DRAM], "B/s"),
               q(res.sm_clock_hz > 0, res.sm_clock_hz, "Hz"));
    if (hw) {
        rfl_prec mp = rfl_work_main_prec(&t->work);
        double frac = 0;
        if (fps_known(t) && rfl_roof_fraction(hw, &t->work, mp, &frac) == RFL_OK)
            printf("  on %s: %s%% of the %s roof at this AI\n", hw->id, tl_num(frac * 100, 3), rfl_prec_name(mp));
        else
            printf("  on %s: roof fraction unknown (needs FLOPs, bytes and time)\n", hw->id);
    }
    if (res.top_count) {
        printf("\n  top kernels by time:\n  %6s %10s %12s %8s %12s  %s\n", "id", "time", "FLOPs", "AI", "FLOP/s", "name");
        for (i = 0; i < res.top_count; i++) {
            const rfl_kernel_stat *k = &res.top[i];
            short_name(nm, sizeof nm, k->name);
            printf("  %6llu %10s %12s %8s %12s  %s\n", (unsigned long long)k->id,
                   q(known(k, RFL_UNKNOWN_TIME), k->work.time_s, "s"),
                   q(flops_known(k), total_flops(k), ""),
                   ai_known(k, RFL_DRAM) ? tl_num(rfl_work_ai(&k->work, RFL_DRAM), 3) : "-",
                   q(fps_known(k), fps_known(k) ? total_flops(k) / k->work.time_s : 0, ""), nm);
        }
    }
    if (by_name) {
        printf("\n  by name (%d names%s):\n  %6s %10s %12s %8s  %s\n", res.group_count,
               res.other.invocations ? ", plus other" : "", "count", "time", "FLOPs", "AI", "name");
        for (i = 0; i < res.group_count; i++) {
            const rfl_kernel_stat *k = &groups[i];
            short_name(nm, sizeof nm, k->name);
            printf("  %6llu %10s %12s %8s  %s\n", (unsigned long long)k->invocations,
                   q(known(k, RFL_UNKNOWN_TIME), k->work.time_s, "s"), q(flops_known(k), total_flops(k), ""),
                   ai_known(k, RFL_DRAM) ? tl_num(rfl_work_ai(&k->work, RFL_DRAM), 3) : "-", nm);
        }
        if (res.other.invocations)
            printf("  %6llu %10s %12s %8s  (other)\n", (unsigned long long)res.other.invocations,
                   q(known(&res.other, RFL_UNKNOWN_TIME), res.other.work.time_s, "s"),
                   q(flops_known(&res.other), total_flops(&res.other), ""), "");
    }
    if (res.warning_count) {
        printf("\n  warnings:\n");
        for (i = 0; i < res.warning_count; i++)
            printf("  - [%s] %s\n", warn_name(res.warnings[i].code), res.warnings[i].text);
        if (res.warnings_dropped) printf("  (%d more)\n", res.warnings_dropped);
    }
}

int main(int argc, char **argv) {
    const char *file = 0, *hwname = 0;
    rfl_reduce_desc d;
    const rfl_machine *hw = 0;
    int json = 0, by_name = 0, i, progress;
    FILE *f;
    size_t n;
    unsigned long long total = 0, next_report = 64ull << 20;
    rfl_result r;
    tl_prog = "rfl-reduce";
    memset(&d, 0, sizeof d);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (tl_is(a, "--help") || tl_is(a, "-h")) { fputs(usage_text, stdout); return 0; }
        else if (tl_is(a, "--json")) json = 1;
        else if (tl_is(a, "--by-name")) by_name = 1;
        else if (tl_hw_file_option(a, i + 1 < argc ? argv[i + 1] : 0)) i++;
        else if (tl_is(a, "--top") || tl_is(a, "--filter") || tl_is(a, "--ids") ||
                 tl_is(a, "--hw") || tl_is(a, "--locale")) {
            const char *v;
            char *end;
            if (i + 1 >= argc) tl_usage_error("%s needs a value", a);
            v = argv[++i];
            if (tl_is(a, "--top")) {
                long t = strtol(v, &end, 10);
                if (*end || t < 0 || t > RFL_REDUCE_TOP_MAX) tl_usage_error("--top takes 0..%d, not '%s'", RFL_REDUCE_TOP_MAX, v);
                d.top_n = (int)t;
                if (t == 0) d.top_n = -1;
            } else if (tl_is(a, "--filter")) d.filter = v;
            else if (tl_is(a, "--hw")) hwname = v;
            else if (tl_is(a, "--locale")) {
                if (tl_is(v, "us")) d.locale = RFL_LOCALE_US;
                else if (tl_is(v, "eu")) d.locale = RFL_LOCALE_EU;
                else tl_usage_error("--locale takes us or eu, not '%s'", v);
            } else {
                unsigned long long x, y;
                char c;
                if (sscanf(v, "%llu-%llu%c", &x, &y, &c) != 2 || x > y)
                    tl_usage_error("--ids takes A-B with A <= B, not '%s'", v);
                d.use_ids = 1, d.id_first = x, d.id_last = y;
            }
        } else if (a[0] == '-' && a[1]) tl_usage_error("unknown option '%s'", a);
        else if (file) tl_usage_error("one input file only ('%s' and '%s')", file, a);
        else file = a;
    }
    if (!file) file = "-";
    hw = tl_machine(hwname); /* --hw NAME or --hw-file FILE */
    d.machine = hw;
    if (by_name) d.groups = groups, d.group_cap = GROUPS;
    if (tl_is(file, "-")) f = stdin;
    else if (!(f = fopen(file, "rb"))) tl_input_error(file, 0, 0, "cannot open: %s", strerror(errno));
    progress = isatty(2);
    if (rfl_reduce_init(&st, &d, scratch, sizeof scratch) != RFL_OK) tl_input_error(file, 0, 0, "init failed");
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
        tl_input_error(file, 0, 0, "%s", errno == EISDIR ? "is a directory" : strerror(errno));
    if (f != stdin) fclose(f);
    r = st.err.code ? st.err.code : rfl_reduce_finish(&st, &res);
    if (r != RFL_OK) tl_error(tl_is(file, "-") ? "<stdin>" : file, &st.err);
    if (json) print_json(hw, by_name);
    else print_human(tl_is(file, "-") ? "<stdin>" : file, hw, by_name);
    return 0;
}
