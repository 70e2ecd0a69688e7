/* ---- reducer implementation -------------------------------------------------
   One byte-driven CSV state machine. Unused columns are skipped with a
   word-at-a-time scan for the next quote (no per-byte work, no copy); used
   columns are copied into the carry (numbers, units, header names) or the
   kernel-name buffer and handled when the field ends. Everything is
   position-tracked so that errors can name line and column. */

enum { /* roles: what a used column means (index into the per-kernel values) */
    RFL__R_NONE = 0,
    RFL__R_TIME, RFL__R_DRAM_READ, RFL__R_DRAM_WRITE, RFL__R_DRAM, RFL__R_DRAM_RATE,
    RFL__R_L2, RFL__R_L1,
    RFL__R_FADD, RFL__R_FMUL, RFL__R_FFMA, RFL__R_DADD, RFL__R_DMUL, RFL__R_DFMA,
    RFL__R_HADD, RFL__R_HMUL, RFL__R_HFMA,
    RFL__R_FADD_R, RFL__R_FMUL_R, RFL__R_FFMA_R, RFL__R_DADD_R, RFL__R_DMUL_R,
    RFL__R_DFMA_R, RFL__R_HADD_R, RFL__R_HMUL_R, RFL__R_HFMA_R,
    RFL__R_T_FP64, RFL__R_T_TF32, RFL__R_T_FP16, RFL__R_T_BF16, RFL__R_T_FP8,
    RFL__R_T_INT8,
    RFL__R_TINST, RFL__R_TINST_OP, RFL__R_TPIPE,
    RFL__R_SM_CYC, RFL__R_SM_HZ, RFL__R_SMSP_CYC, RFL__R_SMSP_HZ, RFL__R_DRAM_HZ,
    RFL__R_LTS_HZ, RFL__R_L1_HZ,
    RFL__R_FFMA_PEAK, RFL__R_DFMA_PEAK, RFL__R_HFMA_PEAK, RFL__R_DRAM_PEAK,
    RFL__R_LTS_PEAK, RFL__R_L1_PEAK,
    RFL__R_NV_SP, RFL__R_NV_DP, RFL__R_NV_HP,
    /* Tensor-path counters come in two families, mma.sync (hmma, imma,
       dmma: RFL__R_T_*) and warpgroup (hgmma, igmma: RFL__R_TW_*), each a
       base counter with breakdowns: X_sparsity_off + X_sparsity_on = X
       (RFL__R_TS_*, RFL__R_TWS_*), hmma_src_fp16_dst_fp16 + _dst_fp32 =
       hmma_src_fp16 (RFL__R_TD_FP16). All in RFL__R_T_* order; a breakdown
       counts only where its family's base is absent. */
    RFL__R_TW_FP64, RFL__R_TW_TF32, RFL__R_TW_FP16, RFL__R_TW_BF16, RFL__R_TW_FP8,
    RFL__R_TW_INT8,
    RFL__R_TS_FP64, RFL__R_TS_TF32, RFL__R_TS_FP16, RFL__R_TS_BF16, RFL__R_TS_FP8,
    RFL__R_TS_INT8,
    RFL__R_TWS_FP64, RFL__R_TWS_TF32, RFL__R_TWS_FP16, RFL__R_TWS_BF16, RFL__R_TWS_FP8,
    RFL__R_TWS_INT8,
    RFL__R_TD_FP16,
    RFL__R_TINST_HFMA2, /* HFMA2 on the tensor pipe: no matrix work */
    RFL__R_TINST_GMMA,  /* warpgroup MMA instructions of the pipe */
    RFL__R_COUNT
};
/* every role indexes the state's per-role tables */
typedef char rfl__roles_fit[RFL__R_COUNT <= RFL__ROLES ? 1 : -1];
/* key columns: codes above every role in the column map */
enum { RFL__K_ID = 200, RFL__K_NAME, RFL__K_CC, RFL__K_MNAME, RFL__K_MUNIT,
       RFL__K_MVALUE, RFL__K_INVOC, RFL__K_AVG, RFL__K_TYPE, RFL__K_TIME };
/* unit classes a role accepts */
enum { RFL__U_TIME = 1, RFL__U_BYTES, RFL__U_COUNT, RFL__U_HZ, RFL__U_PERCYC,
       RFL__U_BPS, RFL__U_PCT };
enum { RFL__M_PRE = 0, RFL__M_SKIP, RFL__M_CSV };
enum { RFL__ROW_HEADER = 0, RFL__ROW_UNITS, RFL__ROW_DATA };
enum { RFL__F_START = 0, RFL__F_UNQ, RFL__F_Q, RFL__F_QQ, RFL__F_QCR, RFL__F_CR0 };
enum { RFL__NEED_SKIP = 0, RFL__NEED_CARRY, RFL__NEED_NAME };

typedef struct rfl__metric { const char *name; unsigned char role, ucls; } rfl__metric;

/* Exact metric names (ncu), then nvprof names. Prefixed families
   (sm__ops_path_tensor_op_*) are matched in rfl__classify. */
static const rfl__metric rfl__metrics[] = {
    {"gpu__time_duration.sum", RFL__R_TIME, RFL__U_TIME},
    {"dram__bytes_read.sum", RFL__R_DRAM_READ, RFL__U_BYTES},
    {"dram__bytes_write.sum", RFL__R_DRAM_WRITE, RFL__U_BYTES},
    {"dram__bytes.sum", RFL__R_DRAM, RFL__U_BYTES},
    {"dram__bytes.sum.per_second", RFL__R_DRAM_RATE, RFL__U_BPS},
    {"lts__t_bytes.sum", RFL__R_L2, RFL__U_BYTES},
    {"l1tex__t_bytes.sum", RFL__R_L1, RFL__U_BYTES},
    {"sm__cycles_elapsed.avg", RFL__R_SM_CYC, RFL__U_COUNT},
    {"sm__cycles_elapsed.avg.per_second", RFL__R_SM_HZ, RFL__U_HZ},
    {"smsp__cycles_elapsed.avg", RFL__R_SMSP_CYC, RFL__U_COUNT},
    {"smsp__cycles_elapsed.avg.per_second", RFL__R_SMSP_HZ, RFL__U_HZ},
    {"dram__cycles_elapsed.avg.per_second", RFL__R_DRAM_HZ, RFL__U_HZ},
    {"lts__cycles_elapsed.avg.per_second", RFL__R_LTS_HZ, RFL__U_HZ},
    {"l1tex__cycles_elapsed.avg.per_second", RFL__R_L1_HZ, RFL__U_HZ},
    {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", RFL__R_FFMA_PEAK, RFL__U_PERCYC},
    {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", RFL__R_DFMA_PEAK, RFL__U_PERCYC},
    {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained", RFL__R_HFMA_PEAK, RFL__U_PERCYC},
    {"dram__bytes.sum.peak_sustained", RFL__R_DRAM_PEAK, RFL__U_PERCYC},
    {"lts__t_bytes.sum.peak_sustained", RFL__R_LTS_PEAK, RFL__U_PERCYC},
    {"l1tex__t_bytes.sum.peak_sustained", RFL__R_L1_PEAK, RFL__U_PERCYC},
    {"sm__inst_executed_pipe_tensor.sum", RFL__R_TINST, RFL__U_COUNT},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", RFL__R_TPIPE, RFL__U_PCT},
    /* nvprof --metrics */
    {"flop_count_sp", RFL__R_NV_SP, RFL__U_COUNT},
    {"flop_count_dp", RFL__R_NV_DP, RFL__U_COUNT},
    {"flop_count_hp", RFL__R_NV_HP, RFL__U_COUNT},
    {"dram_read_bytes", RFL__R_DRAM_READ, RFL__U_BYTES},
    {"dram_write_bytes", RFL__R_DRAM_WRITE, RFL__U_BYTES},
    {"dram_read_transactions", RFL__R_DRAM_READ, RFL__U_COUNT},  /* x 32 B */
    {"dram_write_transactions", RFL__R_DRAM_WRITE, RFL__U_COUNT}, /* x 32 B */
    {"l2_read_transactions", RFL__R_L2, RFL__U_COUNT},           /* x 32 B */
    {"l2_write_transactions", RFL__R_L2, RFL__U_COUNT}           /* x 32 B */
};

static int rfl__eqn(const char *a, size_t an, const char *b) {
    size_t i;
    for (i = 0; i < an; i++)
        if (!b[i] || a[i] != b[i]) return 0;
    return b[an] == 0;
}
static int rfl__starts(const char *a, size_t an, const char *pre) {
    size_t i;
    for (i = 0; pre[i]; i++)
        if (i >= an || a[i] != pre[i]) return 0;
    return 1;
}
/* Where sub first stands in a[0..an), or -1. */
static long rfl__index(const char *a, size_t an, const char *sub) {
    /* anchored on the first character of sub that is not a common letter
       of kernel names, so most positions cost one compare */
    static const char common[] = "etaoinsrlcdu_:<>, ";
    size_t i, j, n = rfl__strlen(sub), k = 0;
    if (n == 0) return 0;
    for (j = 0; j < n; j++) {
        const char *c = common;
        while (*c && *c != sub[j]) c++;
        if (!*c) { k = j; break; }
    }
    for (i = k; i + n - k <= an; i++) {
        if (a[i] != sub[k]) continue;
        for (j = 0; j < n && a[i - k + j] == sub[j]; j++) {}
        if (j == n) return (long)(i - k);
    }
    return -1;
}
static int rfl__contains(const char *a, size_t an, const char *sub) {
    return rfl__index(a, an, sub) >= 0;
}
static int rfl__ends(const char *a, size_t an, const char *suf) {
    size_t n = rfl__strlen(suf);
    return an >= n && rfl__eqn(a + an - n, n, suf);
}

/* Metric name -> role (0 = unused); *ucls gets the unit class; *mult the
   factor nvprof transaction counts need (32 bytes each). */
static int rfl__classify(const char *s, size_t n, int *ucls, uint64_t *mult) {
    static const char *const ops[9] = {"fadd", "fmul", "ffma", "dadd", "dmul",
                                       "dfma", "hadd", "hmul", "hfma"};
    size_t i;
    *mult = 1;
    for (i = 0; i < sizeof rfl__metrics / sizeof rfl__metrics[0]; i++)
        if (rfl__eqn(s, n, rfl__metrics[i].name)) {
            *ucls = rfl__metrics[i].ucls;
            if (rfl__ends(s, n, "_transactions")) *mult = 32;
            return rfl__metrics[i].role;
        }
    /* SASS FP counters, sm__ or smsp__ prefix, as counts or per-cycle rates */
    {
        const char *p = s;
        size_t m = n;
        if (rfl__starts(p, m, "smsp__")) p += 6, m -= 6;
        else if (rfl__starts(p, m, "sm__")) p += 4, m -= 4;
        else m = 0;
        if (m && rfl__starts(p, m, "sass_thread_inst_executed_op_")) {
            p += 29, m -= 29;
            for (i = 0; i < 9; i++)
                if (rfl__starts(p, m, ops[i]) && rfl__starts(p + 4, m - 4, "_pred_on.sum")) {
                    const char *t = p + 16;
                    size_t tn = m - 16;
                    if (tn == 0) { *ucls = RFL__U_COUNT; return RFL__R_FADD + (int)i; }
                    if (rfl__eqn(t, tn, ".per_cycle_elapsed")) {
                        *ucls = RFL__U_PERCYC;
                        return RFL__R_FADD_R + (int)i;
                    }
                }
        }
    }
    /* tensor-path FLOP counters: one role per input precision */
    if (rfl__starts(s, n, "sm__ops_path_tensor_op_") && rfl__ends(s, n, ".sum")) {
        /* X_sparsity_off + X_sparsity_on = X, and on H100 hmma_src_fp16 =
           its _dst_fp16 + _dst_fp32 (the captures): counting a breakdown
           with its base doubles. A breakdown of a breakdown is never used. */
        int wg = rfl__contains(s, n, "gmma_") != 0;
        int sp = rfl__contains(s, n, "_sparsity_") != 0;
        *ucls = RFL__U_COUNT;
        if (rfl__contains(s, n, "src_fp16_dst_")) return sp || wg ? 0 : RFL__R_TD_FP16;
        sp = (wg ? (sp ? RFL__R_TWS_FP64 : RFL__R_TW_FP64) : (sp ? RFL__R_TS_FP64 : RFL__R_T_FP64)) -
             RFL__R_T_FP64; /* the group's offset from RFL__R_T_* */
        if (rfl__contains(s, n, "src_tf32")) return RFL__R_T_TF32 + sp;
        if (rfl__contains(s, n, "src_bf16")) return RFL__R_T_BF16 + sp;
        if (rfl__contains(s, n, "src_fp16")) return RFL__R_T_FP16 + sp;
        if (rfl__contains(s, n, "src_fp8") || rfl__contains(s, n, "e4m3") ||
            rfl__contains(s, n, "e5m2"))
            return RFL__R_T_FP8 + sp;
        if (rfl__contains(s, n, "src_int") || rfl__contains(s, n, "imma")) return RFL__R_T_INT8 + sp;
        if (rfl__contains(s, n, "fp64") || rfl__contains(s, n, "dmma")) return RFL__R_T_FP64 + sp;
        return RFL__R_T_FP16 + sp;
    }
    /* per-type instruction counters: on H100, _op_hmma is the whole pipe
       (gmma and hfma2 included, every kernel of the captures) */
    if (rfl__eqn(s, n, "sm__inst_executed_pipe_tensor_op_hmma.sum")) {
        *ucls = RFL__U_COUNT;
        return RFL__R_TINST_OP;
    }
    if (rfl__eqn(s, n, "sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum")) {
        *ucls = RFL__U_COUNT;
        return RFL__R_TINST_HFMA2;
    }
    if (rfl__eqn(s, n, "sm__inst_executed_pipe_tensor_op_gmma.sum")) {
        *ucls = RFL__U_COUNT;
        return RFL__R_TINST_GMMA;
    }
    if (rfl__starts(s, n, "sm__pipe_tensor_op_") &&
        rfl__ends(s, n, "cycles_active.avg.pct_of_peak_sustained_elapsed")) {
        *ucls = RFL__U_PCT;
        return RFL__R_TPIPE;
    }
    return 0;
}

/* ---- units ------------------------------------------------------------------
   A unit is num[/den]; it scales a value into the role's base unit
   (ns, bytes, counts, Hz, per cycle, bytes/s) as num_mult x 10^exp10. */

static int rfl__ieq(const char *a, size_t an, const char *b) {
    size_t i;
    for (i = 0; i < an; i++)
        if (!b[i] || rfl__lower((unsigned char)a[i]) != rfl__lower((unsigned char)b[i])) return 0;
    return b[an] == 0;
}
/* class of a numerator word: bytes / time / count / hz */
static int rfl__unit_word(const char *s, size_t n, rfl__unit *u) {
    static const struct { const char *w; int cls; uint64_t mult; int e; } t[] = {
        {"byte", RFL__U_BYTES, 1, 0}, {"bytes", RFL__U_BYTES, 1, 0}, {"b", RFL__U_BYTES, 1, 0},
        {"kbyte", RFL__U_BYTES, 1, 3}, {"kb", RFL__U_BYTES, 1, 3},
        {"mbyte", RFL__U_BYTES, 1, 6}, {"mb", RFL__U_BYTES, 1, 6},
        {"gbyte", RFL__U_BYTES, 1, 9}, {"gb", RFL__U_BYTES, 1, 9},
        {"tbyte", RFL__U_BYTES, 1, 12}, {"tb", RFL__U_BYTES, 1, 12},
        {"kib", RFL__U_BYTES, 1024, 0}, {"kibyte", RFL__U_BYTES, 1024, 0},
        {"mib", RFL__U_BYTES, 1048576, 0}, {"mibyte", RFL__U_BYTES, 1048576, 0},
        {"gib", RFL__U_BYTES, 1073741824ull, 0}, {"gibyte", RFL__U_BYTES, 1073741824ull, 0},
        {"tib", RFL__U_BYTES, 1099511627776ull, 0},
        {"ns", RFL__U_TIME, 1, 0}, {"nsecond", RFL__U_TIME, 1, 0}, {"nsec", RFL__U_TIME, 1, 0},
        {"us", RFL__U_TIME, 1, 3}, {"usecond", RFL__U_TIME, 1, 3}, {"usec", RFL__U_TIME, 1, 3},
        {"ms", RFL__U_TIME, 1, 6}, {"msecond", RFL__U_TIME, 1, 6}, {"msec", RFL__U_TIME, 1, 6},
        {"s", RFL__U_TIME, 1, 9}, {"second", RFL__U_TIME, 1, 9}, {"sec", RFL__U_TIME, 1, 9},
        {"hz", RFL__U_HZ, 1, 0}, {"khz", RFL__U_HZ, 1, 3}, {"mhz", RFL__U_HZ, 1, 6},
        {"ghz", RFL__U_HZ, 1, 9},
        {"", RFL__U_COUNT, 1, 0}, {"inst", RFL__U_COUNT, 1, 0}, {"cycle", RFL__U_COUNT, 1, 0},
        {"cycles", RFL__U_COUNT, 1, 0}, {"warp", RFL__U_COUNT, 1, 0},
        {"thread", RFL__U_COUNT, 1, 0}, {"sector", RFL__U_COUNT, 1, 0},
        {"request", RFL__U_COUNT, 1, 0}, {"wavefront", RFL__U_COUNT, 1, 0},
        {"block", RFL__U_COUNT, 1, 0}, {"count", RFL__U_COUNT, 1, 0},
        {"flop", RFL__U_COUNT, 1, 0}, {"op", RFL__U_COUNT, 1, 0}, {"ops", RFL__U_COUNT, 1, 0},
        {"%", RFL__U_PCT, 1, 0}};
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (rfl__ieq(s, n, t[i].w)) {
            u->cls = t[i].cls, u->mult = t[i].mult, u->exp10 = t[i].e;
            return 1;
        }
    return 0;
}
/* Parse a unit into the scale for a role of class `want`; 0 = unknown or
   not fitting (the caller reports RFL_ERR_UNIT). */
static int rfl__unit_for(const char *s, size_t n, int want, rfl__unit *out) {
    size_t slash = n, i;
    rfl__unit a, b;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    while (n && s[0] == ' ') s++, n--;
    for (i = 0; i < n; i++)
        if (s[i] == '/') { slash = i; break; }
    if (slash > n) slash = n;
    if (!rfl__unit_word(s, slash, &a)) return 0;
    if (slash == n) { /* no denominator */
        if (want == RFL__U_PERCYC && (a.cls == RFL__U_COUNT)) { *out = a; out->cls = want; return 1; }
        if (a.cls != want) return 0;
        *out = a;
        return 1;
    }
    if (!rfl__unit_word(s + slash + 1, n - slash - 1, &b)) return 0;
    if (b.cls == RFL__U_COUNT && !(b.mult == 1 && b.exp10 == 0)) return 0;
    if (want == RFL__U_PERCYC && (a.cls == RFL__U_COUNT || a.cls == RFL__U_BYTES) &&
        b.cls == RFL__U_COUNT && a.mult == 1 && a.exp10 == 0) {
        out->cls = want, out->mult = 1, out->exp10 = 0;
        return 1;
    }
    /* x per time: the time unit's scale is to ns, so per-second = 9 - e */
    if (b.cls == RFL__U_TIME && b.mult == 1) {
        if (want == RFL__U_HZ && a.cls == RFL__U_COUNT) {
            out->cls = want, out->mult = 1, out->exp10 = 9 - b.exp10;
            return 1;
        }
        if (want == RFL__U_BPS && a.cls == RFL__U_BYTES) {
            out->cls = want, out->mult = a.mult, out->exp10 = a.exp10 + 9 - b.exp10;
            return 1;
        }
    }
    return 0;
}

/* ---- numbers ------------------------------------------------------------- */
/* One value read under one convention. */
typedef struct rfl__val { double d; uint64_t u; int exact, e10; unsigned sat; uint64_t mant; } rfl__val;

static uint64_t rfl__sat_add(uint64_t a, uint64_t b, unsigned *flags) {
    if (a > UINT64_MAX - b) { *flags |= RFL_REDUCE_SATURATED; return UINT64_MAX; }
    return a + b;
}
static uint64_t rfl__sat_mul(uint64_t a, uint64_t b, unsigned *flags) {
    if (a && b > UINT64_MAX / a) { *flags |= RFL_REDUCE_SATURATED; return UINT64_MAX; }
    return a * b;
}
static uint64_t rfl__round_u64(double d, unsigned *flags) {
    if (!(d > 0)) return 0;
    if (d >= 18446744073709551615.0) { *flags |= RFL_REDUCE_SATURATED; return UINT64_MAX; }
    return (uint64_t)(d + 0.5);
}

/* Validates digits grouped by `grp` with decimal mark `dec`, and reads it.
   Returns 0 when the text does not fit this convention. */
/* m * 10 + d still fits in 64 bits */
#define RFL__FITS10(m, d) ((m) < 1844674407370955161ull || ((m) == 1844674407370955161ull && (d) <= 5))
static int rfl__read_conv(const char *s, size_t n, char grp, char dec, const rfl__unit *u,
                          rfl__val *v) {
    size_t i = 0;
    int neg = 0, digits = 0, lead = 0, groups = 0, gl = 0, frac = 0, exp10 = 0, ok;
    uint64_t m = 0, p;
    int big = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            /* every digit that fits in 64 bits is kept (a 20-digit count is
               exact); a dropped 0 only scales, checked below */
            if (RFL__FITS10(m, (unsigned)(c - '0'))) m = m * 10 + (uint64_t)(c - '0');
            else big |= c != '0', exp10++;
            digits++;
            if (groups) gl++;
            else lead++;
        } else if (c == grp) {
            if (!digits || (groups && gl != 3) || (!groups && lead > 3)) return 0;
            groups++, gl = 0;
        } else break;
    }
    if (!digits || (groups && gl != 3)) return 0;
    if (groups && lead > 3) return 0;
    if (i < n && s[i] == dec) {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, frac++) {
            if (RFL__FITS10(m, (unsigned)(s[i] - '0'))) { m = m * 10 + (uint64_t)(s[i] - '0'); exp10--; }
            else big |= s[i] != '0'; /* a trailing 0 adds nothing */
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, ev = 0, ed = 0;
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, ed++)
            if (ev < 10000) ev = ev * 10 + (s[i] - '0');
        if (!ed) return 0;
        exp10 += eneg ? -ev : ev;
        big = 1; /* exponent notation: keep the double, rounding to integer */
    }
    if (i != n) return 0;
    (void)frac;
    v->e10 = exp10;
    exp10 += u->exp10;
    v->mant = m;
    v->d = exp10 == 0 ? (double)m * (double)u->mult : rfl__scale10((double)m * (double)u->mult, exp10);
    if (neg) v->d = -v->d;
    /* exact integer in the base unit? */
    ok = !big && !neg;
    p = m;
    if (ok) {
        unsigned fl = 0;
        uint64_t um = u->mult;
        /* divide first, so that no step overflows what the result fits:
           each 10 of the divisor (10 = 2 x 5) against the digits' and the
           unit's factors ("5,555,555,555,555,555.5 KiB" = m x 512 / 5) */
        while (ok && exp10 < 0) {
            if (p % 10 == 0) p /= 10;
            else if (um % 10 == 0) um /= 10;
            else if (p % 5 == 0 && um % 2 == 0) p /= 5, um /= 2;
            else if (p % 2 == 0 && um % 5 == 0) p /= 2, um /= 5;
            else ok = 0;
            exp10++;
        }
        if (ok) p = rfl__sat_mul(p, um, &fl);
        if (fl) ok = 0;
        while (ok && exp10 > 0) {
            p = rfl__sat_mul(p, 10, &fl);
            if (fl) ok = 0;
            exp10--;
        }
    }
    v->exact = ok;
    v->sat = 0;
    if (ok) v->u = p;
    else v->u = rfl__round_u64(v->d, &v->sat);
    return 1;
}

/* ---- state helpers ------------------------------------------------------- */
#define RFL__ST_KEYS 10
/* An error at (line, col), byte offset `off`. The offset is passed in, not
   derived from the current line: a field can open lines before the error is
   seen (a quote left open until the end of input). */
static rfl_result rfl__fail_at(rfl_reduce_state *st, rfl_result r, uint64_t line, uint64_t col,
                               uint64_t off, const char *m1, const char *m2, size_t m2n,
                               const char *m3) {
    size_t k = 0, i;
    if (st->err) return st->err;
    st->err = r, st->err_line = line, st->err_col = col, st->err_offset = off;
    for (i = 0; m1 && m1[i] && k + 1 < sizeof st->err_msg; i++) st->err_msg[k++] = m1[i];
    for (i = 0; m2 && i < m2n && k + 1 < sizeof st->err_msg; i++) st->err_msg[k++] = m2[i];
    for (i = 0; m3 && m3[i] && k + 1 < sizeof st->err_msg; i++) st->err_msg[k++] = m3[i];
    st->err_msg[k] = 0;
    return r;
}
/* error at column `col` of the current line */
static rfl_result rfl__fail(rfl_reduce_state *st, rfl_result r, uint64_t line, uint64_t col,
                            const char *m1, const char *m2, size_t m2n, const char *m3) {
    return rfl__fail_at(st, r, line, col, st->line_start + (col ? col - 1 : 0), m1, m2, m2n, m3);
}
/* error at the start of the current field */
static rfl_result rfl__fail_field(rfl_reduce_state *st, rfl_result r, const char *m1,
                                  const char *m2, size_t m2n, const char *m3) {
    return rfl__fail_at(st, r, st->field_line, st->field_col, st->field_off, m1, m2, m2n, m3);
}

/* Store one value (both conventions while the file's is undecided). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define RFL__ALWAYS_INLINE static inline __attribute__((always_inline))
#else /* -Os: one copy, the compiler decides */
#define RFL__ALWAYS_INLINE static
#endif

RFL__ALWAYS_INLINE void rfl__put_digits(rfl_reduce_state *st, int role, uint64_t m, int frac);
/* The convention's group separator and decimal mark for rfl__put_num; both
   0 while the locale is unknown (then only plain digits read the same both
   ways). */
#define RFL__GDM(st, g, dm)                                                                 \
    ((g) = (st)->locale == RFL_LOCALE_AUTO ? 0 : (st)->locale == RFL_LOCALE_EU ? '.' : ',', \
     (dm) = (st)->locale == RFL_LOCALE_AUTO ? 0 : (st)->locale == RFL_LOCALE_EU ? ',' : '.')

/* The common value, in one pass: digits in the base unit, grouped by the
   file's known convention ("1,970,899,334.25"), or plain digits while it
   is still unknown (rfl__num_scan reads, rfl__put_num stores). Returns 1
   when stored, 0 when rfl__put_value's general reader must look (spaces,
   n/a, signs, exponents, ambiguity, more than 19 digits). The row walker
   calls it with g and dm from RFL__GDM and the unit checked once per
   section (role_plain), inlined: it runs for nearly every used field. */
RFL__ALWAYS_INLINE int rfl__num_scan(const char *s, size_t n, char g, char dm, uint64_t *mo,
                                      int *fo) {
    uint64_t m = 0;
    int nd, frac = 0, ng = 0, lastg = -1;
    size_t i;
    if (n > 40) return 0;
    for (i = 0; i < n; i++) {
        unsigned dg = (unsigned)(unsigned char)s[i] - '0';
        if (dg <= 9) {
            m = m * 10 + dg;
            continue;
        }
        if (s[i] != g || !g) break;
        /* a group separator: after 1 to 3 digits, then every 3 */
        if (lastg < 0 ? (i == 0 || i > 3) : ((int)i - lastg != 4)) return 0;
        lastg = (int)i, ng++;
    }
    nd = (int)i - ng;
    if (lastg >= 0 && (int)i - lastg != 4) return 0; /* the last group: 3 digits */
    if (i < n && s[i] == dm && dm) {
        size_t f0 = ++i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) m = m * 10 + (uint64_t)(s[i] - '0');
        frac = (int)(i - f0), nd += frac;
    }
    if (i != n || nd == 0 || nd > 19) return 0;
    *mo = m, *fo = frac;
    return 1;
}
RFL__ALWAYS_INLINE int rfl__put_num(rfl_reduce_state *st, int role, const char *s, size_t n,
                                    char g, char dm) {
    uint64_t m;
    int frac;
    if (!rfl__num_scan(s, n, g, dm, &m, &frac)) return 0;
    rfl__put_digits(st, role, m, frac);
    return 1;
}
/* Stores the digits m with frac of them decimals (nd <= 19) as role's value. */
RFL__ALWAYS_INLINE void rfl__put_digits(rfl_reduce_state *st, int role, uint64_t m, int frac) {
    uint64_t x, rem = 0, p10 = 0;
    double d;
    int k;
    /* m / 10^frac: the same division rfl__scale10 does, inline for the
       usual 1 or 2 decimals */
    d = frac == 2 ? (double)m / 100.0 : frac == 1 ? (double)m / 10.0
        : frac ? rfl__scale10((double)m, -frac) : (double)m;
    /* in integers: "6074...000.00" stays exact above 2^53; the usual 1 or
       2 decimals divide by a constant */
    x = m;
    if (frac == 2) x = m / 100, rem = m % 100, p10 = 100;
    else if (frac == 1) x = m / 10, rem = m % 10, p10 = 10;
    else if (frac) {
        for (p10 = 1, k = 0; k < frac; k++) p10 *= 10; /* frac <= 19: fits */
        x = m / p10, rem = m % p10;
    }
    if (frac && rem >= p10 - rem) x++; /* half up, as rfl__round_u64 */
    if (st->kset[role]) {
        st->kv_d[role][0] += d, st->kv_d[role][1] += d;
        st->kv_u[role][0] = rfl__sat_add(st->kv_u[role][0], x, &st->kflags);
        st->kv_u[role][1] = st->kv_u[role][0];
    } else {
        st->kv_d[role][0] = st->kv_d[role][1] = d;
        st->kv_u[role][0] = st->kv_u[role][1] = x;
    }
    st->kset[role] = 1;
}

static rfl_result rfl__put_value(rfl_reduce_state *st, int role, const char *s, size_t n,
                                 const rfl__unit *u, uint64_t mult) {
    rfl__val us, eu;
    int okus, okeu, k;
    size_t i;
    char g, dm;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    while (n && s[0] == ' ') s++, n--;
    if (n == 0 || ((s[0] == 'n' || s[0] == 'N') && rfl__ieq(s, n, "n/a")) ||
        (n == 1 && s[0] == '-'))
        return RFL_OK; /* no value */
    /* in the base unit, the one-pass reader first (scaled units come here:
       the digits they lose are tracked below) */
    RFL__GDM(st, g, dm);
    if (u->mult == 1 && u->exp10 == 0 && mult == 1 && rfl__put_num(st, role, s, n, g, dm))
        return RFL_OK;
    okus = st->locale != RFL_LOCALE_EU && rfl__read_conv(s, n, ',', '.', u, &us);
    okeu = st->locale != RFL_LOCALE_US && rfl__read_conv(s, n, '.', ',', u, &eu);
    if (st->locale == RFL_LOCALE_EU && !okeu) okus = rfl__read_conv(s, n, ',', '.', u, &us);
    if (st->locale == RFL_LOCALE_US && !okus) okeu = rfl__read_conv(s, n, '.', ',', u, &eu);
    if (!okus && !okeu)
        return rfl__fail_field(st, RFL_ERR_NUMBER, "not a number: '", s, n, "'");
    if (st->locale == RFL_LOCALE_US && !okus)
        return rfl__fail_field(st, RFL_ERR_LOCALE, "'", s, n,
                               "' does not read as a US-convention number (1,234.5)");
    if (st->locale == RFL_LOCALE_EU && !okeu)
        return rfl__fail_field(st, RFL_ERR_LOCALE, "'", s, n,
                               "' does not read as a European-convention number (1.234,5)");
    if (st->locale == RFL_LOCALE_AUTO) {
        if (okus && !okeu) st->locale = RFL_LOCALE_US;
        else if (okeu && !okus) st->locale = RFL_LOCALE_EU;
        else if (us.d != eu.d && !st->amb_pending) {
            st->amb_pending = 1;
            st->amb_line = st->field_line, st->amb_col = st->field_col, st->amb_off = st->field_off;
            for (i = 0; i < n && i + 1 < sizeof st->amb_text; i++) st->amb_text[i] = s[i];
            st->amb_text[i] = 0;
        }
    }
    if (!okus) us = eu;
    if (!okeu) eu = us;
    if (u->mult != 1 || u->exp10 != 0) {
        /* a scaled unit: only the printed digits survive */
        /* digits were lost when the last printed digit is worth more than
           one base unit (134.23 Mbyte: 10 kB; 0.069000 ms: 1 ns, none) */
        if ((u->cls == RFL__U_BYTES || u->cls == RFL__U_TIME) && us.mant &&
            ((double)u->mult * rfl__scale10(1.0, us.e10 + u->exp10)) > 1.0) {
            double e = 0.5 / (double)us.mant;
            if (e > st->res.auto_units_rel_err) {
                st->res.auto_units_rel_err = e;
                for (i = 0; i < n && i + 1 < sizeof st->auto_example; i++) st->auto_example[i] = s[i];
                st->auto_example[i] = 0;
                for (k = 0; st->unit[k] && i + 2 < sizeof st->auto_example; k++) {
                    if (k == 0) st->auto_example[i++] = ' ';
                    st->auto_example[i++] = st->unit[k];
                }
                st->auto_example[i] = 0;
            }
        }
    }
    for (k = 0; k < 2; k++) {
        rfl__val *v = k ? &eu : &us;
        uint64_t x = rfl__sat_mul(v->u, mult, &st->kflags);
        st->kflags |= v->sat;
        if (st->kset[role]) {
            st->kv_d[role][k] += v->d * (double)mult;
            st->kv_u[role][k] = rfl__sat_add(st->kv_u[role][k], x, &st->kflags);
        } else {
            st->kv_d[role][k] = v->d * (double)mult;
            st->kv_u[role][k] = x;
        }
    }
    st->kset[role] = 1;
    return RFL_OK;
}

static void rfl__reset_kernel(rfl_reduce_state *st) {
    RFL_MEMSET(st->kset, 0, sizeof st->kset);
    st->kflags = 0;
    st->amb_pending = 0;
    st->have_kernel = 0;
}

/* ---- text building (warnings) ---------------------------------------------- */
typedef struct rfl__sb { char *b; size_t n, cap; } rfl__sb;
static void rfl__sb_s(rfl__sb *s, const char *t) {
    while (t && *t && s->n + 1 < s->cap) s->b[s->n++] = *t++;
    s->b[s->n] = 0;
}
static void rfl__sb_num(rfl__sb *s, double v, int sig) {
    char t[40];
    rfl_fmt_num(t, sizeof t, v, sig);
    rfl__sb_s(s, t);
}
static void rfl__sb_u64(rfl__sb *s, uint64_t v) {
    char t[32];
    rfl_fmt_u64(t, sizeof t, v);
    rfl__sb_s(s, t);
}
static void rfl__sb_si(rfl__sb *s, double v, const char *unit) {
    char t[40];
    rfl_fmt_si(t, sizeof t, v, 4);
    rfl__sb_s(s, t);
    rfl__sb_s(s, unit);
}
static rfl__sb rfl__warn(rfl_reduce_state *st, rfl_reduce_warn code, int has_kernel,
                         uint64_t id) {
    rfl__sb s;
    rfl_reduce_result *r = &st->res;
    if (r->warning_count >= RFL_REDUCE_WARN_MAX) {
        r->warnings_dropped++;
        s.b = st->scratch_text, s.n = 0, s.cap = sizeof st->scratch_text;
        return s;
    }
    r->warnings[r->warning_count].code = code;
    r->warnings[r->warning_count].has_kernel = has_kernel;
    r->warnings[r->warning_count].kernel_id = id;
    s.b = r->warnings[r->warning_count].text, s.n = 0, s.cap = RFL_REDUCE_WARN_TEXT;
    s.b[0] = 0;
    r->warning_count++;
    return s;
}

/* ---- kernels --------------------------------------------------------------- */
RFL_API uint64_t rfl_kernel_tensor_flops(const rfl_kernel_stat *k) {
    uint64_t s = 0;
    unsigned fl = 0;
    int p;
    if (!k) return 0;
    for (p = RFL_FP64_TENSOR; p < RFL_PREC_COUNT; p++)
        if (!(k->work.unknown & RFL_UNKNOWN_FLOPS(p))) s = rfl__sat_add(s, k->flops[p], &fl);
    return s;
}

static void rfl__stat_work(rfl_kernel_stat *k) {
    int i;
    for (i = 0; i < RFL_PREC_COUNT; i++) k->work.flops[i] = (double)k->flops[i];
    for (i = 0; i < RFL_LEVEL_COUNT; i++) k->work.bytes[i] = (double)k->bytes[i];
    k->work.time_s = (k->work.unknown & RFL_UNKNOWN_TIME) ? 0 : (double)k->time_ns * 1e-9;
}

static void rfl__stat_add(rfl_kernel_stat *a, const rfl_kernel_stat *k) {
    int i;
    unsigned fl = 0;
    for (i = 0; i < RFL_PREC_COUNT; i++) a->flops[i] = rfl__sat_add(a->flops[i], k->flops[i], &fl);
    for (i = 0; i < RFL_LEVEL_COUNT; i++) a->bytes[i] = rfl__sat_add(a->bytes[i], k->bytes[i], &fl);
    a->time_ns = rfl__sat_add(a->time_ns, k->time_ns, &fl);
    a->tensor_inst = rfl__sat_add(a->tensor_inst, k->tensor_inst, &fl);
    a->invocations = rfl__sat_add(a->invocations, k->invocations, &fl);
    a->flags |= k->flags | fl;
    a->work.unknown |= k->work.unknown;
    rfl__stat_work(a);
}

static int rfl__name_same(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

/* ---- tensor-core kernels by name --------------------------------------------
   The tensor pipe also issues instructions in kernels that do no matrix math
   (this project's H100 captures show them in elementwise, pooling, reduction,
   batch-norm and NCHW-to-NHWC kernels; in the FP16 captures every one is an
   HFMA2, sm__inst_executed_pipe_tensor_op_hmma_type_hfma2), so a pipe count
   alone proves no tensor work.
   The libraries' kernel names do: cuDNN, cuBLAS and CUTLASS name the type
   ("tf32", "f16f16"), the instruction ("hmma", "gmma", "tensorop") or the
   mma shape ("1688", "16816"); cuBLASLt's Hopper kernels are "nvjet_*" with
   a type code ("tst" BF16, "hsh" FP16 in the micro-tc capture). A kernel
   named so is a tensor-core kernel; its precision and FLOPs per tensor-pipe
   warp instruction (for estimates) follow from the same name. */
static int rfl__pre(const unsigned char *p, const char *t) {
    while (*t && *p == (unsigned char)*t) p++, t++;
    return !*t;
}
/* Does the name carry a tensor-core mark (tf32, tfloat32, [hidg]mma,
   tensorop, tensor16x8x, 1688, 16816, 16832, 884gemm, f16f16, bf16bf16,
   e4m3, e5m2, nvjet)? One pass: this runs for most kernels of a profile. */
static int rfl__tc_marked(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        switch (*p) {
        case 'm':
            if (p[1] == 'm' && p[2] == 'a' && p > (const unsigned char *)s &&
                (p[-1] == 'h' || p[-1] == 'i' || p[-1] == 'd' || p[-1] == 'g'))
                return 1;
            break;
        case 't':
            if ((p[1] == 'f' && (rfl__pre(p, "tf32") || rfl__pre(p, "tfloat32"))) ||
                (p[1] == 'e' && rfl__pre(p, "tensor") &&
                 (rfl__pre(p + 6, "op") || rfl__pre(p + 6, "16x8x"))))
                return 1;
            break;
        case '1':
            if (p[1] == '6' && (rfl__pre(p, "1688") || rfl__pre(p, "16816") || rfl__pre(p, "16832")))
                return 1;
            break;
        case '8': if (p[1] == '8' && rfl__pre(p, "884gemm")) return 1; break;
        case 'e':
            if ((p[1] == '4' && p[2] == 'm' && p[3] == '3') || (p[1] == '5' && p[2] == 'm' && p[3] == '2'))
                return 1;
            break;
        case 'n': if (p[1] == 'v' && rfl__pre(p, "nvjet")) return 1; break;
        case 'f': if (p[1] == '1' && rfl__pre(p, "f16f16")) return 1; break;
        case 'b': if (p[1] == 'f' && rfl__pre(p, "bf16bf16")) return 1; break;
        default: break;
        }
    }
    return 0;
}
/* Is s[0..] a tensor-core kernel by name? Then its precision, the FLOPs of
   one mma.sync warp instruction (*sync) and of one warpgroup MMA (*wg), and
   whether the name says warpgroup MMA (return 2) or not (1). */
static int rfl__tc_kernel(const char *s, int cc_major, rfl_prec *prec, double *sync,
                          double *wg) {
    long nv, ts;
    char code = 0;
    double n_tile = 0;
    size_t n;
    if (!rfl__tc_marked(s)) return 0;
    n = rfl__strlen(s);
    nv = rfl__index(s, n, "nvjet_"), ts = rfl__index(s, n, "tilesize");
    if (nv >= 0) { /* nvjet_[smNN_]<A type><compute><C type>_... */
        const char *c = s + nv + 6;
        if (c[0] == 's' && c[1] == 'm' && c[2] >= '0' && c[2] <= '9')
            while (*c && *c++ != '_') {}
        code = *c;
    }
    if (rfl__index(s, n, "tf32") >= 0 || rfl__index(s, n, "tfloat32") >= 0) *prec = RFL_TF32_TENSOR;
    else if (rfl__index(s, n, "bf16") >= 0 || code == 't') *prec = RFL_BF16_TENSOR;
    else if (rfl__index(s, n, "e4m3") >= 0 || rfl__index(s, n, "e5m2") >= 0) *prec = RFL_FP8_TENSOR;
    else if (rfl__index(s, n, "imma") >= 0 || rfl__index(s, n, "int8") >= 0 || rfl__index(s, n, "16832") >= 0)
        *prec = RFL_INT8_TENSOR;
    else if (rfl__index(s, n, "dmma") >= 0) *prec = RFL_FP64_TENSOR;
    else if (rfl__index(s, n, "s1688") >= 0 && (cc_major >= 8 || rfl__index(s, n, "80") >= 0))
        *prec = RFL_TF32_TENSOR; /* Ampere's FP32-in, FP32-out tensor op is TF32 */
    else *prec = RFL_FP16_TENSOR;
    /* mma.sync: 2 x M x N x K of the shape (m16n8k8 2048: every TF32 and
       the FP16 first-layer kernel of the captures; m16n8k16 4096: every
       FP16/BF16 16816 kernel; m16n8k32 8192); Volta's HMMA.884 512, the
       NERSC scripts' figure. */
    if (rfl__index(s, n, "884") >= 0 || (cc_major == 7 && rfl__index(s, n, "1688") < 0 &&
                                      rfl__index(s, n, "16816") < 0))
        *sync = 512;
    else if (rfl__index(s, n, "16832") >= 0 || rfl__index(s, n, "16x8x32") >= 0 ||
             *prec == RFL_INT8_TENSOR)
        *sync = 8192;
    else if (rfl__index(s, n, "16816") >= 0 || rfl__index(s, n, "16x8x16") >= 0) *sync = 4096;
    else if (rfl__index(s, n, "1688") >= 0 || rfl__index(s, n, "16x8x8") >= 0 || *prec == RFL_TF32_TENSOR)
        *sync = 2048;
    else if (*prec == RFL_FP64_TENSOR) *sync = 512;
    else *sync = 4096;
    /* warpgroup MMA m64nNkK, per warp: 2 x 64 x N x K / 4 = 512 N for
       FP16/BF16 (K 16), 256 N for TF32, 1024 N for 8-bit (the captures:
       4096 to 81920 by tile; micro-tc's TF32 64x128 tile 32768). N from an
       xmma name's tilesize MxNxK, else 64. */
    if (ts >= 0) {
        const char *c = s + ts + 8;
        while (*c >= '0' && *c <= '9') c++;
        if (*c == 'x')
            for (c++; *c >= '0' && *c <= '9' && n_tile < 1e4; c++) n_tile = n_tile * 10 + (*c - '0');
    }
    if (!(n_tile >= 8)) n_tile = 64;
    *wg = n_tile * (*prec == RFL_TF32_TENSOR ? 256 : *prec == RFL_FP8_TENSOR ||
                                                       *prec == RFL_INT8_TENSOR ? 1024 : 512);
    return rfl__index(s, n, "gmma") >= 0 || rfl__index(s, n, "warpgroup") >= 0 || nv >= 0 ? 2 : 1;
}

/* What a kernel's name says, by memo: kernel names repeat (a training step
   runs the same few dozen kernels over and over) and a name is ~100-300
   bytes, so the answers are kept per name, keyed by a 64-bit hash of all
   its bytes, its length and the CC (a different name with the same key:
   odds of about n^2 / 2^65 for n distinct names). RFL__TC_MEMO slots,
   two places for each name. */
static const rfl__tc_memo *rfl__name_memo(rfl_reduce_state *st, const char *s, size_t len) {
    const unsigned char *u = (const unsigned char *)s;
    const uint64_t K = 0x9E3779B97F4A7C15ull;
    uint64_t h0 = 0x243F6A8885A308D3ull ^ (uint64_t)len, h1 = 0x13198A2E03707344ull,
             h2 = 0xA4093822299F31D0ull, h3 = 0x082EFA98EC4E6C89ull, h;
    size_t i = 0;
    rfl__tc_memo *m, *m2;
    /* four independent lanes: the multiplies overlap */
    for (; i + 32 <= len; i += 32) {
        uint64_t w[4];
        RFL_MEMCPY(w, u + i, 32); /* native byte order: keys are only compared in this run */
        h0 = (h0 ^ w[0]) * K, h1 = (h1 ^ w[1]) * K, h2 = (h2 ^ w[2]) * K, h3 = (h3 ^ w[3]) * K;
        h0 ^= h0 >> 32, h1 ^= h1 >> 32, h2 ^= h2 >> 32, h3 ^= h3 >> 32;
    }
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        RFL_MEMCPY(&w, u + i, 8);
        h0 = (h0 ^ w) * K;
        h0 ^= h0 >> 32;
    }
    for (; i < len; i++) h1 = (h1 ^ u[i]) * 0x100000001B3ull;
    h = h0 ^ (h1 * 0xBF58476D1CE4E5B9ull) ^ (h2 * 0x94D049BB133111EBull) ^ (h3 * K);
    h ^= h >> 29, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 32;
    /* two candidate slots; a miss replaces the one used less recently */
    m = &st->tc_memo[h % RFL__TC_MEMO], m2 = &st->tc_memo[(h >> 32) % RFL__TC_MEMO];
    st->tc_clock++;
    if (m2->used && m2->h == h && m2->len == len && m2->cc == st->cc_major) m = m2;
    else if (!(m->used && m->h == h && m->len == len && m->cc == st->cc_major)) {
        if (m2->stamp < m->stamp) m = m2;
        m->used = 1, m->h = h, m->len = len, m->cc = st->cc_major;
        m->prec = RFL_FP16_TENSOR, m->sync = 0, m->wg = 0;
        m->fam = rfl__tc_kernel(s, st->cc_major, &m->prec, &m->sync, &m->wg);
        m->elementwise = rfl__contains(s, rfl__strlen(s), "elementwise");
    }
    m->stamp = st->tc_clock;
    return m;
}

#define RFL__HAS(r) (st->kset[r])
#define RFL__U(r) (st->kv_u[r][L])
#define RFL__D(r) (st->kv_d[r][L])

/* A kernel (raw row, details group, nvprof metrics group) is complete. */
static rfl_result rfl__kernel_done(rfl_reduce_state *st) {
    rfl_kernel_stat *k = &st->kst;
    rfl_reduce_result *r = &st->res;
    int L, i, p, any;
    double cyc = -1, time_s = -1, hz, w, sync = 0, wg = 0, mma = 0, est = 0;
    int fam;
    const rfl__tc_memo *memo = 0;
    rfl_prec tcp = RFL_FP16_TENSOR;
    int tcase = 0; /* 1 tensor FLOPs estimated, 2 tensor kernel uncounted, 3 pipe only */
    unsigned fl = 0;
    if (!st->have_kernel) return RFL_OK;
    if (st->amb_pending && st->locale == RFL_LOCALE_AUTO)
        return rfl__fail_at(st, RFL_ERR_LOCALE, st->amb_line, st->amb_col, st->amb_off,"'", st->amb_text,
                         rfl__strlen(st->amb_text),
                         "' reads both as US (1,234.5) and European (1.234,5) and nothing "
                         "before it decides; declare the locale (--locale us|eu)");
    L = st->locale == RFL_LOCALE_EU ? 1 : 0;
    /* all but the name, which is copied by its length (hot: every row) */
    RFL_MEMSET(k, 0, offsetof(rfl_kernel_stat, name));
    k->id = st->cur_id;
    k->invocations = st->fmt == RFL_CSV_NVPROF_METRICS ? st->cur_invoc : 1;
    RFL_MEMCPY(k->name, st->name, st->name_len + 1); /* name_len < NAME_MAX */
    if (st->name_trunc) k->flags |= RFL_REDUCE_NAME_TRUNCATED;
    k->flags |= st->kflags;
    /* time */
    if (RFL__HAS(RFL__R_TIME)) {
        k->time_ns = RFL__U(RFL__R_TIME);
        time_s = RFL__D(RFL__R_TIME) * 1e-9;
    } else if (RFL__HAS(RFL__R_SM_CYC) && RFL__HAS(RFL__R_SM_HZ) && RFL__D(RFL__R_SM_HZ) > 0) {
        time_s = RFL__D(RFL__R_SM_CYC) / RFL__D(RFL__R_SM_HZ);
        k->time_ns = rfl__round_u64(time_s * 1e9, &fl);
        k->flags |= RFL_REDUCE_TIME_FROM_CYCLES;
    } else
        k->work.unknown |= RFL_UNKNOWN_TIME;
    /* elapsed cycles for per-cycle rates */
    if (RFL__HAS(RFL__R_SMSP_CYC)) cyc = RFL__D(RFL__R_SMSP_CYC);
    else if (RFL__HAS(RFL__R_SM_CYC)) cyc = RFL__D(RFL__R_SM_CYC);
    else if (RFL__HAS(RFL__R_SMSP_HZ) && time_s >= 0) cyc = RFL__D(RFL__R_SMSP_HZ) * time_s;
    else if (RFL__HAS(RFL__R_SM_HZ) && time_s >= 0) cyc = RFL__D(RFL__R_SM_HZ) * time_s;
    /* SIMT FLOPs: add + mul + 2 x fma per precision */
    for (p = 0; p < 3; p++) {
        int r0 = RFL__R_FADD + 3 * p, rr = RFL__R_FADD_R + 3 * p;
        rfl_prec prec = p == 0 ? RFL_FP32 : p == 1 ? RFL_FP64 : RFL_FP16;
        int nv = p == 0 ? RFL__R_NV_SP : p == 1 ? RFL__R_NV_DP : RFL__R_NV_HP;
        uint64_t f = 0;
        if (RFL__HAS(r0) || RFL__HAS(r0 + 1) || RFL__HAS(r0 + 2)) {
            if (!(RFL__HAS(r0) && RFL__HAS(r0 + 1) && RFL__HAS(r0 + 2))) st->w_partial |= 1u << p;
            f = rfl__sat_add(RFL__HAS(r0) ? RFL__U(r0) : 0, RFL__HAS(r0 + 1) ? RFL__U(r0 + 1) : 0, &fl);
            if (RFL__HAS(r0 + 2)) f = rfl__sat_add(f, rfl__sat_mul(RFL__U(r0 + 2), 2, &fl), &fl);
        } else if ((RFL__HAS(rr) || RFL__HAS(rr + 1) || RFL__HAS(rr + 2)) && cyc >= 0) {
            double d = 0;
            if (RFL__HAS(rr)) d += (double)rfl__round_u64(RFL__D(rr) * cyc, &fl);
            if (RFL__HAS(rr + 1)) d += (double)rfl__round_u64(RFL__D(rr + 1) * cyc, &fl);
            if (RFL__HAS(rr + 2)) d += 2.0 * (double)rfl__round_u64(RFL__D(rr + 2) * cyc, &fl);
            f = rfl__round_u64(d, &fl);
            k->flags |= RFL_REDUCE_RATE_DERIVED;
        } else if (RFL__HAS(nv)) {
            f = RFL__U(nv);
        } else {
            k->work.unknown |= RFL_UNKNOWN_FLOPS(prec);
        }
        k->flops[prec] = f;
    }
    /* tensor */
    {
        static const int tr[6] = {RFL__R_T_FP64, RFL__R_T_TF32, RFL__R_T_FP16,
                                  RFL__R_T_BF16, RFL__R_T_FP8, RFL__R_T_INT8};
        static const rfl_prec tp[6] = {RFL_FP64_TENSOR, RFL_TF32_TENSOR, RFL_FP16_TENSOR,
                                       RFL_BF16_TENSOR, RFL_FP8_TENSOR, RFL_INT8_TENSOR};
        any = 0;
        for (i = 0; i < 6; i++) {
            /* per family: the base counter, else one breakdown's parts */
            int b = tr[i], sp = b + (RFL__R_TS_FP64 - RFL__R_T_FP64);
            int wb = b + (RFL__R_TW_FP64 - RFL__R_T_FP64), ws = b + (RFL__R_TWS_FP64 - RFL__R_T_FP64);
            int dst = b == RFL__R_T_FP16 ? RFL__R_TD_FP16 : b;
            if (st->roles_seen[b] || st->roles_seen[sp] || st->roles_seen[dst] ||
                st->roles_seen[wb] || st->roles_seen[ws]) {
                uint64_t fs = RFL__HAS(b) ? RFL__U(b) : RFL__HAS(sp) ? RFL__U(sp)
                              : RFL__HAS(dst) ? RFL__U(dst) : 0;
                uint64_t fw = RFL__HAS(wb) ? RFL__U(wb) : RFL__HAS(ws) ? RFL__U(ws) : 0;
                any = 1;
                k->flops[tp[i]] = rfl__sat_add(fs, fw, &fl);
            } else
                k->work.unknown |= RFL_UNKNOWN_FLOPS(tp[i]);
        }
        if (RFL__HAS(RFL__R_TINST)) k->tensor_inst = RFL__U(RFL__R_TINST);
        else if (RFL__HAS(RFL__R_TINST_OP)) k->tensor_inst = RFL__U(RFL__R_TINST_OP);
        if (!any && (RFL__HAS(RFL__R_TINST) || RFL__HAS(RFL__R_TINST_OP)))
            for (i = 0; i < 6; i++) /* estimates follow: 0 unless named below */
                k->work.unknown &= ~RFL_UNKNOWN_FLOPS(tp[i]);
        /* the name matters only while this kernel's matrix work is neither
           counted nor known to be none */
        int have_inst = RFL__HAS(RFL__R_TINST) || RFL__HAS(RFL__R_TINST_OP);
        uint64_t hf0 = RFL__HAS(RFL__R_TINST_HFMA2) ? RFL__U(RFL__R_TINST_HFMA2) : 0;
        fam = (any && rfl_kernel_tensor_flops(k) > 0) || (have_inst && k->tensor_inst <= hf0)
                  ? 0
                  : (memo = rfl__name_memo(st, k->name, st->name_len))->fam;
        if (fam) tcp = memo->prec, sync = memo->sync, wg = memo->wg;
        if (fam) {
            if (!any && k->tensor_inst > 0) {
                /* no tensor FLOP counter: estimated from the matrix
                   instructions (the pipe's HFMA2s left out when counted),
                   split into warpgroup and mma.sync ones by the gmma counter
                   when collected, else by the name */
                uint64_t hf = RFL__HAS(RFL__R_TINST_HFMA2) ? RFL__U(RFL__R_TINST_HFMA2) : 0;
                double g;
                mma = (double)(k->tensor_inst > hf ? k->tensor_inst - hf : 0);
                g = RFL__HAS(RFL__R_TINST_GMMA) ? RFL__D(RFL__R_TINST_GMMA) : fam == 2 ? mma : 0;
                if (g > mma) g = mma;
                est = st->desc.tensor_flops_per_inst > 0 ? mma * st->desc.tensor_flops_per_inst
                                                         : g * wg + (mma - g) * sync;
                k->flops[tcp] = rfl__round_u64(est, &fl);
                k->work.unknown &= ~RFL_UNKNOWN_FLOPS(tcp);
                k->flags |= RFL_REDUCE_TENSOR_ESTIMATED;
                tcase = 1;
            } else if (rfl_kernel_tensor_flops(k) == 0)
                tcase = 2; /* a tensor-core kernel whose FLOPs nothing counted */
        } else if (!any && k->tensor_inst > 0)
            tcase = 3; /* not a matrix kernel by name: not estimated */
    }
    /* bytes */
    if (RFL__HAS(RFL__R_DRAM_READ) || RFL__HAS(RFL__R_DRAM_WRITE))
        k->bytes[RFL_DRAM] = rfl__sat_add(RFL__HAS(RFL__R_DRAM_READ) ? RFL__U(RFL__R_DRAM_READ) : 0,
                                          RFL__HAS(RFL__R_DRAM_WRITE) ? RFL__U(RFL__R_DRAM_WRITE) : 0, &fl);
    else if (RFL__HAS(RFL__R_DRAM))
        k->bytes[RFL_DRAM] = RFL__U(RFL__R_DRAM);
    else if (RFL__HAS(RFL__R_DRAM_RATE) && time_s >= 0) {
        k->bytes[RFL_DRAM] = rfl__round_u64(RFL__D(RFL__R_DRAM_RATE) * time_s, &fl);
        k->flags |= RFL_REDUCE_RATE_DERIVED;
    } else
        k->work.unknown |= RFL_UNKNOWN_BYTES(RFL_DRAM);
    if (RFL__HAS(RFL__R_L2)) k->bytes[RFL_L2] = RFL__U(RFL__R_L2);
    else k->work.unknown |= RFL_UNKNOWN_BYTES(RFL_L2);
    if (RFL__HAS(RFL__R_L1)) k->bytes[RFL_L1] = RFL__U(RFL__R_L1);
    else k->work.unknown |= RFL_UNKNOWN_BYTES(RFL_L1);
    k->flags |= fl;
    rfl__stat_work(k);

    /* the device's own ceilings (every kernel, filtered or not) */
    w = time_s > 0 ? time_s : 1e-9;
    hz = RFL__HAS(RFL__R_SM_HZ) ? RFL__D(RFL__R_SM_HZ) : RFL__HAS(RFL__R_SMSP_HZ) ? RFL__D(RFL__R_SMSP_HZ) : 0;
    if (hz > 0) st->clk_sum += hz * w, st->clk_w += w;
    {
        double c[(int)RFL_PREC_COUNT + RFL_LEVEL_COUNT];
        RFL_MEMSET(c, 0, sizeof c);
        if (hz > 0 && RFL__HAS(RFL__R_FFMA_PEAK)) c[RFL_FP32] = 2.0 * RFL__D(RFL__R_FFMA_PEAK) * hz;
        if (hz > 0 && RFL__HAS(RFL__R_DFMA_PEAK)) c[RFL_FP64] = 2.0 * RFL__D(RFL__R_DFMA_PEAK) * hz;
        if (hz > 0 && RFL__HAS(RFL__R_HFMA_PEAK)) c[RFL_FP16] = 2.0 * RFL__D(RFL__R_HFMA_PEAK) * hz;
        if (RFL__HAS(RFL__R_DRAM_PEAK) && RFL__HAS(RFL__R_DRAM_HZ))
            c[(int)RFL_PREC_COUNT + RFL_DRAM] = RFL__D(RFL__R_DRAM_PEAK) * RFL__D(RFL__R_DRAM_HZ);
        if (RFL__HAS(RFL__R_LTS_PEAK) && RFL__HAS(RFL__R_LTS_HZ))
            c[(int)RFL_PREC_COUNT + RFL_L2] = RFL__D(RFL__R_LTS_PEAK) * RFL__D(RFL__R_LTS_HZ);
        if (RFL__HAS(RFL__R_L1_PEAK) && RFL__HAS(RFL__R_L1_HZ))
            c[(int)RFL_PREC_COUNT + RFL_L1] = RFL__D(RFL__R_L1_PEAK) * RFL__D(RFL__R_L1_HZ);
        for (i = 0; i < (int)RFL_PREC_COUNT + RFL_LEVEL_COUNT; i++)
            if (c[i] > 0) st->ceil_sum[i] += c[i] * w, st->ceil_w[i] += w;
    }
    r->kernels_seen++;
    /* filters */
    if (st->desc.use_ids && (k->id < st->desc.id_first || k->id > st->desc.id_last)) goto done;
    if (st->desc.filter && st->desc.filter[0] &&
        !rfl__contains(k->name, rfl__strlen(k->name), st->desc.filter))
        goto done;
    r->kernels++;
    /* what the tensor warnings need, for kept kernels only */
    if (time_s > 0) st->w_time_s += time_s;
    if (tcase == 1) {
        st->w_est_kernels++;
        st->w_est_flops += est;
        st->w_est_inst += mma;
        r->tensor_flops_per_inst = st->w_est_flops / st->w_est_inst;
    } else if (tcase == 2) {
        if (!st->w_tc_kernels) {
            for (i = 0; k->name[i] && i + 1 < (int)sizeof st->w_tc_example; i++)
                st->w_tc_example[i] = k->name[i];
            st->w_tc_example[i] = 0;
        }
        st->w_tc_kernels++;
        if (time_s > 0) st->w_tc_s += time_s;
    } else if (tcase == 3) {
        st->w_pipe_kernels++;
        st->w_pipe_inst = rfl__sat_add(st->w_pipe_inst, k->tensor_inst, &fl);
    }
    if (k->flags & RFL_REDUCE_NAME_TRUNCATED) st->w_trunc++;
    /* elementwise output below its size: L2 residency (see the manual) */
    if (RFL__HAS(RFL__R_DRAM_WRITE)) {
        uint64_t n32 = 0, n16 = 0, n64 = 0, need;
        for (i = 0; i < 3; i++) {
            if (RFL__HAS(RFL__R_FADD + i)) n32 += RFL__U(RFL__R_FADD + i);
            if (RFL__HAS(RFL__R_DADD + i)) n64 += RFL__U(RFL__R_DADD + i);
            if (RFL__HAS(RFL__R_HADD + i)) n16 += RFL__U(RFL__R_HADD + i);
        }
        need = 4 * n32 + 8 * n64 + 2 * n16;
        if (need && (double)RFL__U(RFL__R_DRAM_WRITE) < 0.95 * (double)need &&
            (memo ? memo : (memo = rfl__name_memo(st, k->name, st->name_len)))->elementwise) {
            if (!st->w_below++) {
                st->w_below_id = k->id;
                st->w_below_got = RFL__U(RFL__R_DRAM_WRITE);
                st->w_below_need = need;
            }
        }
    }
    /* above the machine's roof */
    if (st->desc.machine && !(k->work.unknown & RFL_UNKNOWN_TIME) && k->time_ns) {
        const rfl_machine *m = st->desc.machine;
        double t = (double)k->time_ns * 1e-9, worst = 0;
        for (p = 0; p < RFL_PREC_COUNT; p++)
            if (!(k->work.unknown & RFL_UNKNOWN_FLOPS(p)) && m->peak_flops[p] > 0 && k->flops[p]) {
                double x = (double)k->flops[p] / t / m->peak_flops[p];
                if (x > worst) worst = x;
            }
        for (p = 0; p < RFL_LEVEL_COUNT; p++)
            if (!(k->work.unknown & RFL_UNKNOWN_BYTES(p)) && m->bw_bytes_per_s[p] > 0 && p == RFL_DRAM) {
                double x = (double)k->bytes[p] / t / m->bw_bytes_per_s[p];
                if (x > worst) worst = x;
            }
        if (worst > 1.0) {
            if (!st->w_above++ || worst > st->w_above_x) st->w_above_x = worst, st->w_above_id = k->id;
        }
    }
    rfl__stat_add(&r->total, k);
    /* top N by time (ties: the earlier kernel stays first) */
    {
        int n = st->top_n, pos = r->top_count;
        while (pos > 0 && r->top[pos - 1].time_ns < k->time_ns) pos--;
        if (pos < n) {
            int last = r->top_count < n ? r->top_count : n - 1;
            for (i = last; i > pos; i--) r->top[i] = r->top[i - 1];
            r->top[pos] = *k;
            if (r->top_count < n) r->top_count++;
        }
    }
    /* group by name */
    if (st->desc.groups && st->desc.group_cap > 0) {
        for (i = 0; i < r->group_count; i++)
            if (rfl__name_same(st->desc.groups[i].name, k->name)) break;
        if (i < r->group_count) rfl__stat_add(&st->desc.groups[i], k);
        else if (r->group_count < st->desc.group_cap) {
            st->desc.groups[r->group_count++] = *k;
        } else {
            if (!r->other.invocations) r->other.id = k->id;
            rfl__stat_add(&r->other, k);
            st->w_other++;
        }
    }
    if (st->desc.on_kernel) st->desc.on_kernel(st->desc.user, k);
done:
    rfl__reset_kernel(st);
    return RFL_OK;
}

/* Data rows follow: which roles read in their base unit (rfl__put_num). */
static void rfl__data_rows(rfl_reduce_state *st) {
    int i;
    st->row_kind = RFL__ROW_DATA;
    for (i = 0; i < RFL__R_COUNT; i++)
        st->role_plain[i] = st->role_unit[i].mult == 1 && st->role_unit[i].exp10 == 0 &&
                            st->role_mult[i] == 1;
}

/* ---- header rows ----------------------------------------------------------- */
static rfl_result rfl__header_field(rfl_reduce_state *st, const char *s, size_t n, int overflow) {
    int code = 0, ucls = 0;
    uint64_t mult = 1;
    if (st->col >= st->col_cap)
        return rfl__fail_field(st, RFL_ERR_BUFFER,
                               "the header has more columns than the scratch's column map; "
                               "pass RFL_REDUCE_SCRATCH_SIZE(columns) bytes", 0, 0, 0);
    if (!overflow) {
        switch (st->fmt) {
        case RFL_CSV_NCU_RAW:
        case RFL_CSV_NCU_DETAILS:
            if (rfl__eqn(s, n, "ID")) code = RFL__K_ID;
            else if (rfl__eqn(s, n, "Kernel Name")) code = RFL__K_NAME;
            else if (rfl__eqn(s, n, "CC")) code = RFL__K_CC;
            else if (rfl__eqn(s, n, "Metric Name")) code = RFL__K_MNAME;
            else if (rfl__eqn(s, n, "Metric Unit")) code = RFL__K_MUNIT;
            else if (rfl__eqn(s, n, "Metric Value")) code = RFL__K_MVALUE, st->fmt = RFL_CSV_NCU_DETAILS;
            else code = rfl__classify(s, n, &ucls, &mult);
            break;
        case RFL_CSV_NVPROF_METRICS:
            if (rfl__eqn(s, n, "Kernel")) code = RFL__K_NAME;
            else if (rfl__eqn(s, n, "Invocations")) code = RFL__K_INVOC;
            else if (rfl__eqn(s, n, "Metric Name")) code = RFL__K_MNAME;
            else if (rfl__eqn(s, n, "Avg")) code = RFL__K_AVG;
            break;
        case RFL_CSV_NVPROF_SUMMARY:
            if (rfl__eqn(s, n, "Type")) code = RFL__K_TYPE;
            else if (rfl__eqn(s, n, "Time")) code = RFL__K_TIME;
            else if (rfl__eqn(s, n, "Name")) code = RFL__K_NAME;
            break;
        case RFL_CSV_NVPROF_TRACE:
            if (rfl__eqn(s, n, "Duration")) code = RFL__K_TIME;
            else if (rfl__eqn(s, n, "Name")) code = RFL__K_NAME;
            break;
        default: break;
        }
    }
    if (code >= RFL__K_ID) st->key_col[code - RFL__K_ID] = (int)st->col;
    else if (code) {
        st->roles_seen[code] = 1;
        st->role_ucls[code] = (unsigned char)ucls;
        st->role_mult[code] = mult;
    }
    st->colmap[st->col] = (unsigned char)code;
    return RFL_OK;
}

static rfl_result rfl__header_end(rfl_reduce_state *st) {
    int *kc = st->key_col;
    uint32_t c, run = 0;
    st->ncols = st->col + 1;
    /* runs[c]: unused columns starting at c (the hot path skips them) */
    for (c = st->ncols; c-- > 0;) {
        run = st->colmap[c] ? 0 : run < 65535 ? run + 1 : run;
        st->runs[2 * c] = (unsigned char)(run & 255);
        st->runs[2 * c + 1] = (unsigned char)(run >> 8);
    }
    switch (st->fmt) {
    case RFL_CSV_NCU_RAW:
        st->row_kind = RFL__ROW_UNITS;
        break;
    case RFL_CSV_NCU_DETAILS:
        if (kc[RFL__K_MNAME - RFL__K_ID] < 0 || kc[RFL__K_MUNIT - RFL__K_ID] < 0 ||
            kc[RFL__K_MVALUE - RFL__K_ID] < kc[RFL__K_MNAME - RFL__K_ID] ||
            kc[RFL__K_MVALUE - RFL__K_ID] < kc[RFL__K_MUNIT - RFL__K_ID])
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                             "details header needs Metric Name, Metric Unit, then Metric Value", 0, 0, 0);
        rfl__data_rows(st);
        break;
    case RFL_CSV_NVPROF_METRICS:
        if (kc[RFL__K_NAME - RFL__K_ID] < 0 || kc[RFL__K_MNAME - RFL__K_ID] < 0 ||
            kc[RFL__K_AVG - RFL__K_ID] < kc[RFL__K_MNAME - RFL__K_ID] ||
            kc[RFL__K_AVG - RFL__K_ID] < kc[RFL__K_INVOC - RFL__K_ID] ||
            kc[RFL__K_MNAME - RFL__K_ID] < kc[RFL__K_NAME - RFL__K_ID])
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                             "nvprof metrics header needs Kernel, Invocations, Metric Name, Avg", 0, 0, 0);
        rfl__data_rows(st);
        break;
    default: /* nvprof summary / trace: a units row follows */
        if (kc[RFL__K_TIME - RFL__K_ID] < 0 || kc[RFL__K_NAME - RFL__K_ID] < 0)
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                             "nvprof header needs a time column and Name", 0, 0, 0);
        st->row_kind = RFL__ROW_UNITS;
        break;
    }
    if (st->res.format == RFL_CSV_UNKNOWN) st->res.format = st->fmt;
    return RFL_OK;
}

static rfl_result rfl__unit_field(rfl_reduce_state *st, const char *s, size_t n) {
    int code = st->colmap[st->col];
    rfl__unit u;
    if (code == RFL__K_TIME) {
        if (!rfl__unit_for(s, n, RFL__U_TIME, &u))
            return rfl__fail_field(st, RFL_ERR_UNIT, "unknown time unit '", s, n, "'");
        st->nv_time_unit = u;
        return RFL_OK;
    }
    if (!code || code >= RFL__K_ID) return RFL_OK;
    if (!rfl__unit_for(s, n, st->role_ucls[code], &u))
        return rfl__fail_field(st, RFL_ERR_UNIT, "unknown unit '", s, n, "' for a metric that is used");
    if (st->role_unit_set[code] &&
        (st->role_unit[code].mult != u.mult || st->role_unit[code].exp10 != u.exp10))
        return rfl__fail_field(st, RFL_ERR_UNIT, "columns of one quantity have different units ('",
                               s, n, "')");
    st->role_unit[code] = u;
    st->role_unit_set[code] = 1;
    return RFL_OK;
}

/* digits of an ID or count, ignoring separators of either convention */
static rfl_result rfl__read_int(rfl_reduce_state *st, const char *s, size_t n, uint64_t *out) {
    uint64_t v = 0;
    size_t i;
    int d = 0;
    unsigned fl = 0;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    for (i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') v = rfl__sat_add(rfl__sat_mul(v, 10, &fl), (uint64_t)(s[i] - '0'), &fl), d++;
        else if (s[i] != ',' && s[i] != '.' && s[i] != ' ') d = -1000;
    }
    if (d <= 0 || fl) return rfl__fail_field(st, RFL_ERR_NUMBER, "not an integer: '", s, n, "'");
    *out = v;
    return RFL_OK;
}

static void rfl__set_name(rfl_reduce_state *st) {
    RFL_MEMCPY(st->name, st->tmp_name, st->tmp_len);
    st->name[st->tmp_len] = 0;
    st->name_len = st->tmp_len;
    st->name_trunc = st->tmp_trunc;
}

static rfl_result rfl__data_field(rfl_reduce_state *st, const char *s, size_t n) {
    int code = st->colmap[st->col];
    rfl_result e;
    rfl__unit u;
    switch (code) {
    case RFL__K_ID: {
        uint64_t id;
        if ((e = rfl__read_int(st, s, n, &id)) != RFL_OK) return e;
        if (st->fmt == RFL_CSV_NCU_DETAILS) {
            if (st->have_kernel && id == st->cur_id) return RFL_OK;
            if ((e = rfl__kernel_done(st)) != RFL_OK) return e;
            st->name_pending = 1;
        }
        st->cur_id = id;
        st->have_kernel = 1;
        return RFL_OK;
    }
    case RFL__K_NAME:
        if (st->fmt == RFL_CSV_NCU_RAW) rfl__set_name(st);
        else if (st->fmt == RFL_CSV_NCU_DETAILS) {
            if (st->name_pending) rfl__set_name(st), st->name_pending = 0;
        } else if (st->fmt == RFL_CSV_NVPROF_METRICS) {
            st->tmp_name[st->tmp_len] = 0;
            if (!st->have_kernel || !rfl__name_same(st->name, st->tmp_name)) {
                if ((e = rfl__kernel_done(st)) != RFL_OK) return e;
                rfl__set_name(st);
                st->cur_id = st->nv_index++;
                st->have_kernel = 1;
            }
        } else {
            st->row_skip |= st->tmp_len >= 5 && rfl__starts(st->tmp_name, st->tmp_len, "[CUDA");
        }
        return RFL_OK;
    case RFL__K_CC: {
        size_t i = 0;
        int v = 0;
        /* capped: a long digit string must not overflow the int */
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (v < 100000) v = v * 10 + (s[i] - '0');
        if (v < 1000) st->cc_major = v;
        return RFL_OK;
    }
    case RFL__K_MNAME: {
        int ucls = 0;
        uint64_t mult = 1;
        st->row_role = rfl__classify(s, n, &ucls, &mult);
        st->row_ucls = ucls, st->row_mult = mult;
        if (st->row_role) st->roles_seen[st->row_role] = 1;
        st->key_len = n < sizeof st->key - 1 ? n : sizeof st->key - 1;
        RFL_MEMCPY(st->key, s, st->key_len);
        st->key[st->key_len] = 0;
        return RFL_OK;
    }
    case RFL__K_MUNIT:
        st->unit_len = n < sizeof st->unit - 1 ? n : sizeof st->unit - 1;
        st->unit_over = n >= sizeof st->unit;
        RFL_MEMCPY(st->unit, s, st->unit_len);
        st->unit[st->unit_len] = 0;
        return RFL_OK;
    case RFL__K_MVALUE:
        if (!st->row_role) return RFL_OK;
        if (st->unit_over || !rfl__unit_for(st->unit, st->unit_len, st->row_ucls, &u))
            return rfl__fail_at(st, RFL_ERR_UNIT, st->unit_line, st->unit_col, st->unit_off,
                                "unknown unit '", st->unit,
                             st->unit_len, "' for a metric that is used");
        return rfl__put_value(st, st->row_role, s, n, &u, st->row_mult);
    case RFL__K_INVOC:
        return rfl__read_int(st, s, n, &st->cur_invoc);
    case RFL__K_AVG: {
        /* nvprof: Avg per invocation; a unit may be glued on ("1.5GB") */
        size_t m = n;
        if (!st->row_role) return RFL_OK;
        while (m && (s[m - 1] == ' ' || s[m - 1] == '\r')) m--;
        n = m;
        while (m && !((s[m - 1] >= '0' && s[m - 1] <= '9') || s[m - 1] == '.' || s[m - 1] == ','))
            m--;
        u.cls = st->row_ucls, u.mult = 1, u.exp10 = 0;
        if (m == 0 && n > 0 && !rfl__ieq(s, n, "n/a"))
            return rfl__fail_field(st, RFL_ERR_NUMBER, "not a number: '", s, n, "'");
        if (m < n && !rfl__unit_for(s + m, n - m, st->row_ucls, &u))
            return rfl__fail_field(st, RFL_ERR_UNIT, "unknown unit in '", s, n, "'");
        st->unit[0] = 0;
        return rfl__put_value(st, st->row_role, s, m, &u, rfl__sat_mul(st->row_mult, st->cur_invoc ? st->cur_invoc : 1, &st->kflags));
    }
    case RFL__K_TYPE:
        st->row_skip |= !rfl__eqn(s, n, "GPU activities");
        return RFL_OK;
    case RFL__K_TIME:
        st->unit[0] = 0;
        st->kset[0] = 0;
        if ((e = rfl__put_value(st, 0, s, n, &st->nv_time_unit, 1)) != RFL_OK) return e;
        return RFL_OK;
    default:
        if (code > 0 && code < RFL__R_COUNT) {
            st->unit[0] = 0;
            return rfl__put_value(st, code, s, n, &st->role_unit[code], st->role_mult[code]);
        }
        return RFL_OK;
    }
}

static rfl_result rfl__row_end(rfl_reduce_state *st) {
    rfl_result e = RFL_OK;
    if (st->row_kind == RFL__ROW_HEADER) return rfl__header_end(st);
    if (st->col + 1 != st->ncols) {
        char t[24];
        size_t k = rfl_fmt_u64(t, sizeof t, (uint64_t)st->col + 1);
        return rfl__fail(st, RFL_ERR_SYNTAX, st->line, st->offset_now - st->line_start + 1,
                         "row has ", t, k, " fields, fewer than the header");
    }
    if (st->row_kind == RFL__ROW_UNITS) {
        rfl__data_rows(st);
        return RFL_OK;
    }
    st->rows++;
    if (st->fmt == RFL_CSV_NCU_RAW) {
        st->have_kernel = 1;
        e = rfl__kernel_done(st);
    } else if (st->fmt == RFL_CSV_NVPROF_SUMMARY || st->fmt == RFL_CSV_NVPROF_TRACE) {
        if (!st->row_skip && st->kset[0]) {
            int L;
            if (st->amb_pending && st->locale == RFL_LOCALE_AUTO)
                return rfl__fail_at(st, RFL_ERR_LOCALE, st->amb_line, st->amb_col, st->amb_off,"'", st->amb_text,
                                 rfl__strlen(st->amb_text), "' is ambiguous; declare the locale");
            L = st->locale == RFL_LOCALE_EU ? 1 : 0;
            if (st->fmt == RFL_CSV_NVPROF_TRACE)
                st->nv_trace_ns = rfl__sat_add(st->nv_trace_ns, st->kv_u[0][L], &st->res.flags),
                st->nv_trace_known = 1;
            else
                st->nv_sum_ns = rfl__sat_add(st->nv_sum_ns, st->kv_u[0][L], &st->res.flags),
                st->nv_sum_known = 1;
        }
        st->kset[0] = 0;
        st->amb_pending = 0;
        st->row_skip = 0;
    }
    return e;
}

/* The end of a section: a blank line, a "==" line, or the end of input. */
static rfl_result rfl__section_end(rfl_reduce_state *st) {
    rfl_result e = RFL_OK;
    if (st->fmt == RFL_CSV_NCU_DETAILS || st->fmt == RFL_CSV_NVPROF_METRICS) e = rfl__kernel_done(st);
    rfl__reset_kernel(st);
    st->mode = RFL__M_PRE;
    st->pre_len = 0;
    return e;
}

/* ---- the byte machine ------------------------------------------------------ */
/* First position in [p, e) holding a or b (e when none): 8 bytes a step. */
static const unsigned char *rfl__scan2(const unsigned char *p, const unsigned char *e,
                                       unsigned char a, unsigned char b) {
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    const uint64_t ma = ones * a, mb = ones * b;
    while (e - p >= 8) {
        uint64_t w = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
                     (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
                     (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
        uint64_t xa = w ^ ma, xb = w ^ mb;
        uint64_t t = ((xa - ones) & ~xa & high) | ((xb - ones) & ~xb & high);
        if (t) {
#if defined(__GNUC__) || defined(__clang__)
            return p + (__builtin_ctzll(t) >> 3);
#else
            while (*p != a && *p != b) p++;
            return p;
#endif
        }
        p += 8;
    }
    while (p < e && *p != a && *p != b) p++;
    return p;
}

/* ---- skipping runs of unused columns, 64 bytes a step ----------------------
   Masks of quotes, commas and newlines per 64-byte block; the bytes inside
   quotes are the prefix XOR of the quote mask (a doubled quote toggles
   twice, so RFC 4180 quoting needs no special case); separators are commas
   outside quotes. SSE2 where the compiler has it (a compiler header, no
   libc), portable SWAR otherwise. */
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(RFL_NO_SIMD)
#include <emmintrin.h>
#define RFL__SSE2 1
#endif

static uint64_t rfl__popcount(uint64_t x) {
    /* SWAR: __builtin_popcountll becomes a libgcc call without -mpopcnt */
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (x * 0x0101010101010101ull) >> 56;
}
static int rfl__ctz(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) x >>= 1, n++;
    return n;
#endif
}

static int rfl__hibit(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(x);
#else
    int n = 63;
    while (!((x >> n) & 1)) n--;
    return n;
#endif
}

static void rfl__masks64(const unsigned char *p, uint64_t *mq, uint64_t *mc, uint64_t *mn,
                         uint64_t *mr) {
#ifdef RFL__SSE2
    const __m128i vq = _mm_set1_epi8('"'), vc = _mm_set1_epi8(','), vn = _mm_set1_epi8('\n'),
                  vr = _mm_set1_epi8('\r');
    uint64_t q = 0, c = 0, n = 0, r = 0;
    int i;
    for (i = 0; i < 4; i++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        q |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vq)) << (16 * i);
        c |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vc)) << (16 * i);
        n |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vn)) << (16 * i);
        r |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vr)) << (16 * i);
    }
    *mq = q, *mc = c, *mn = n, *mr = r;
#else
    const uint64_t ones = 0x0101010101010101ull, lo7 = 0x7F7F7F7F7F7F7F7Full,
                   high = 0x8080808080808080ull, magic = 0x0102040810204080ull;
    uint64_t q = 0, c = 0, n = 0, r = 0;
    int i;
    for (i = 0; i < 8; i++) {
        const unsigned char *b = p + 8 * i;
        uint64_t w = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
                     (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 |
                     (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
        uint64_t x, t;
        x = w ^ (ones * '"'), t = ~(((x & lo7) + lo7) | x) & high;
        q |= (((t >> 7) * magic) >> 56) << (8 * i);
        x = w ^ (ones * ','), t = ~(((x & lo7) + lo7) | x) & high;
        c |= (((t >> 7) * magic) >> 56) << (8 * i);
        x = w ^ (ones * '\n'), t = ~(((x & lo7) + lo7) | x) & high;
        n |= (((t >> 7) * magic) >> 56) << (8 * i);
        x = w ^ (ones * '\r'), t = ~(((x & lo7) + lo7) | x) & high;
        r |= (((t >> 7) * magic) >> 56) << (8 * i);
    }
    *mq = q, *mc = c, *mn = n, *mr = r;
#endif
}

static int rfl__header_prefix(const char *s, size_t n, rfl_csv_format *fmt) {
    static const struct { const char *w; rfl_csv_format f; } t[] = {
        {"ID", RFL_CSV_NCU_RAW}, {"Device", RFL_CSV_NVPROF_METRICS},
        {"Type", RFL_CSV_NVPROF_SUMMARY}, {"Time(%)", RFL_CSV_NVPROF_SUMMARY},
        {"Start", RFL_CSV_NVPROF_TRACE}};
    size_t i, k;
    if (n && s[0] == '"') s++, n--;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        k = rfl__strlen(t[i].w);
        if (n > k && rfl__starts(s, n, t[i].w) && (s[k] == '"' || s[k] == ',')) {
            *fmt = t[i].f;
            return 1;
        }
    }
    return 0;
}

static void rfl__csv_start(rfl_reduce_state *st, rfl_csv_format fmt) {
    int i;
    st->mode = RFL__M_CSV;
    st->fmt = fmt;
    st->row_kind = RFL__ROW_HEADER;
    st->col = 0;
    st->fstate = RFL__F_START;
    st->ncols = 0;
    for (i = 0; i < RFL__ST_KEYS; i++) st->key_col[i] = -1;
    RFL_MEMSET(st->roles_seen, 0, sizeof st->roles_seen);
    RFL_MEMSET(st->role_unit_set, 0, sizeof st->role_unit_set);
    for (i = 0; i < RFL__R_COUNT; i++) {
        st->role_unit[i].cls = RFL__U_COUNT, st->role_unit[i].mult = 1, st->role_unit[i].exp10 = 0;
    }
    rfl__reset_kernel(st);
    st->name_pending = 0;
    st->row_skip = 0;
}

static rfl_result rfl__feed(rfl_reduce_state *st, const unsigned char *p, size_t len);

/* Field complete: dispatch by row kind. */
static rfl_result rfl__field_end_s(rfl_reduce_state *st, const char *s, size_t n) {
    if (st->need == RFL__NEED_SKIP) return RFL_OK;
    if (st->need == RFL__NEED_NAME) {
        while (st->tmp_len && st->tmp_name[st->tmp_len - 1] == '\r' && !st->quoted) st->tmp_len--;
        st->tmp_name[st->tmp_len] = 0;
        if (st->row_kind == RFL__ROW_DATA) return rfl__data_field(st, s, 0);
        return RFL_OK;
    }
    if (!st->quoted) while (n && s[n - 1] == '\r') n--;
    if (st->row_kind == RFL__ROW_HEADER) return rfl__header_field(st, s, n, st->field_over);
    if (st->field_over) {
        if (st->row_kind == RFL__ROW_UNITS)
            return rfl__fail_field(st, RFL_ERR_UNIT, "unit longer than the carry", 0, 0, 0);
        return rfl__fail_field(st, RFL_ERR_FIELD_TOO_LONG,
                               "field longer than the carry (RFL_REDUCE_CARRY bytes)", 0, 0, 0);
    }
    if (st->row_kind == RFL__ROW_UNITS) return rfl__unit_field(st, s, n);
    if (st->colmap[st->col] == RFL__K_MUNIT)
        st->unit_line = st->field_line, st->unit_col = st->field_col, st->unit_off = st->field_off;
    return rfl__data_field(st, s, n);
}
static rfl_result rfl__field_end(rfl_reduce_state *st) {
    return rfl__field_end_s(st, (const char *)st->carry, st->carry_len);
}

static void rfl__field_begin(rfl_reduce_state *st, uint64_t pos) {
    int code;
    st->field_line = st->line;
    st->field_col = pos - st->line_start + 1;
    st->field_off = pos;
    st->carry_len = 0;
    st->field_over = 0;
    st->quoted = 0;
    if (st->row_kind == RFL__ROW_HEADER) { st->need = RFL__NEED_CARRY; return; }
    code = st->col < st->ncols ? st->colmap[st->col] : 0;
    if (st->row_kind == RFL__ROW_UNITS)
        st->need = (code && code < RFL__R_COUNT) || code == RFL__K_TIME ? RFL__NEED_CARRY : RFL__NEED_SKIP;
    else if (code == RFL__K_NAME) {
        st->need = RFL__NEED_NAME;
        st->tmp_len = 0;
        st->tmp_trunc = 0;
    } else
        st->need = code ? RFL__NEED_CARRY : RFL__NEED_SKIP;
}

static void rfl__append(rfl_reduce_state *st, const unsigned char *a, size_t n) {
    if (st->need == RFL__NEED_CARRY) {
        size_t room = st->carry_cap - st->carry_len;
        if (n > room) st->field_over = 1, n = room;
        RFL_MEMCPY(st->carry + st->carry_len, a, n);
        st->carry_len += (uint32_t)n;
    } else if (st->need == RFL__NEED_NAME) {
        size_t room = RFL_REDUCE_NAME_MAX - 1 - st->tmp_len;
        if (n > room) st->tmp_trunc = 1, n = room;
        RFL_MEMCPY(st->tmp_name + st->tmp_len, a, n);
        st->tmp_len += n;
    }
}

/* The row walker: data rows, 64 bytes a step. One set of masks per block
   serves every field in it: runs of unused columns are skipped by counting
   separators (popcount), used fields are cut out in place and handed to the
   same field handler as the general path. Anything unusual (a doubled
   quote, a newline inside quotes, malformed quoting, a row with too few
   fields, fewer than 64 bytes left in the chunk) returns to the general
   path at the last field start, which then handles or reports it exactly
   as if the walker had not run. */
/* Block masks are made RFL__NB blocks at a time (one call, the state of
   the quote chain in registers) into the state's rfl__blks (caller memory,
   not the stack), then read by the walker. */

/* One block's masks from its quotes q, commas c, newlines n, CRs r and
   in-quotes prefix XOR ins (before the carry). */
RFL__ALWAYS_INLINE void rfl__blk_logic(rfl__blks *k, int i, uint64_t q, uint64_t c, uint64_t n,
                                  uint64_t r, uint64_t ins, uint64_t *cy) {
    /* cy: inside_carry, prev_cq, prev_ok, in the caller's registers */
    uint64_t cq, bad, sep;
    ins ^= cy[0];
    cq = q & ~ins;
    /* hard stops: junk after a closing quote, an opening quote not after
       , \n or ", and doubled quotes (unescaped by the general path) */
    bad = (((cq << 1) | cy[1]) & ~(c | n | r)) | (q & ins & ~(((c | n | q) << 1) | cy[2]));
    cy[1] = cq >> 63;
    cy[2] = ((c | n | q) >> 63) & 1;
    cy[0] = (uint64_t)0 - (ins >> 63);
    sep = c & ~ins;
    k->sep[i] = sep;
    k->ends[i] = sep | (n & ~ins);
    /* also hard: a CR outside quotes not followed by LF (an error the
       exact path reports; a CR in the last byte is checked there too) */
    k->hard[i] = bad | (n & ins) | (r & ~ins & ~(n >> 1));
}

static void rfl__blk_fill(rfl__blks *k, const unsigned char *b, int nb) {
    int i;
    uint64_t cy[3];
    cy[0] = k->inside_carry, cy[1] = k->prev_cq, cy[2] = k->prev_ok;
    for (i = 0; i < nb; i++, b += 64) {
        uint64_t q, c, n, r, ins;
        rfl__masks64(b, &q, &c, &n, &r);
        ins = q;
        ins ^= ins << 1, ins ^= ins << 2, ins ^= ins << 4;
        ins ^= ins << 8, ins ^= ins << 16, ins ^= ins << 32;
        rfl__blk_logic(k, i, q, c, n, r, ins, cy);
    }
    k->inside_carry = cy[0], k->prev_cq = cy[1], k->prev_ok = cy[2];
}

/* AVX2 and PCLMUL where the CPU has them (checked once per reduction): two
   loads a block instead of four, and the in-quotes prefix XOR in one
   carry-less multiply by all-ones. GCC and clang on x86-64 (a function
   target attribute: no -mavx2 needed, the rest stays baseline). */
#if defined(RFL__SSE2) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__TINYC__) && !defined(RFL_NO_AVX2)
#include <cpuid.h>
#include <immintrin.h>
#define RFL__AVX2 1
/* The prefix XOR of the quote mask (bits inside quotes) as one carry-less
   multiply by all-ones: shared by both wide fills. */
__attribute__((target("pclmul,sse2"))) static inline uint64_t rfl__inside_clmul(uint64_t q) {
    return (uint64_t)_mm_cvtsi128_si64(
        _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)q), _mm_set1_epi8(-1), 0));
}
__attribute__((target("avx2,pclmul"))) static void rfl__blk_fill_avx2(rfl__blks *k,
                                                                      const unsigned char *b,
                                                                      int nb) {
    const __m256i vq = _mm256_set1_epi8('"'), vc = _mm256_set1_epi8(','),
                  vn = _mm256_set1_epi8('\n'), vr = _mm256_set1_epi8('\r');
    int i;
    uint64_t cy[3];
    cy[0] = k->inside_carry, cy[1] = k->prev_cq, cy[2] = k->prev_ok;
    for (i = 0; i < nb; i++, b += 64) {
        const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)b),
                      hi = _mm256_loadu_si256((const __m256i *)(const void *)(b + 32));
#define RFL__MM(v) ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)) | \
                    (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v)) << 32)
        uint64_t q = RFL__MM(vq), c = RFL__MM(vc), n = RFL__MM(vn), r = RFL__MM(vr);
#undef RFL__MM
        rfl__blk_logic(k, i, q, c, n, r, rfl__inside_clmul(q), cy);
    }
    k->inside_carry = cy[0], k->prev_cq = cy[1], k->prev_ok = cy[2];
}
/* AVX-512BW: one load and four compares straight into 64-bit masks. */
__attribute__((target("avx512f,avx512bw,pclmul,bmi"))) static void
rfl__blk_fill_avx512(rfl__blks *k, const unsigned char *b, int nb) {
    const __m512i vq = _mm512_set1_epi8('"'), vc = _mm512_set1_epi8(','),
                  vn = _mm512_set1_epi8('\n'), vr = _mm512_set1_epi8('\r');
    int i;
    uint64_t cy[3];
    cy[0] = k->inside_carry, cy[1] = k->prev_cq, cy[2] = k->prev_ok;
    for (i = 0; i < nb; i++, b += 64) {
        const __m512i v = _mm512_loadu_si512((const void *)b);
        uint64_t q = _mm512_cmpeq_epi8_mask(v, vq), c = _mm512_cmpeq_epi8_mask(v, vc),
                 n = _mm512_cmpeq_epi8_mask(v, vn), r = _mm512_cmpeq_epi8_mask(v, vr);
        rfl__blk_logic(k, i, q, c, n, r, rfl__inside_clmul(q), cy);
    }
    k->inside_carry = cy[0], k->prev_cq = cy[1], k->prev_ok = cy[2];
}
/* The (j+1)-th set bit of x by one PDEP (walker level 2 only: every
   AVX-512 CPU has a fast one; Zen 1 and 2, AVX2 only, take ~250 cycles). */
__attribute__((target("bmi,bmi2"))) static inline uint64_t rfl__sel_pdep(uint64_t x, uint32_t j) {
    return _pdep_u64((uint64_t)1 << j, x);
}
/* A metric value of n <= 16 bytes (16 readable at s) in one SSE pass, no
   branch per digit: "1,970,899,334.25" as ncu writes it, grouped by the
   settled convention (g, dm; g 0 while unknown). Only the layout the
   one-pass reader accepts most often: a lead group of 1 to 3 digits, whole
   groups of 3, then up to 7 decimals. Returns 0 for anything else, and
   rfl__num_scan decides, so both always agree (test_num16 compares them,
   and test_reduce the walker levels: level 0 has only rfl__num_scan).
   The digits are gathered right-aligned by one PSHUFB. Digit t from the
   right (t = 0 the last) is byte r(t) from the field's end, RFL__NR below:
   row 0 without a decimal mark, row f + 1 with f decimals (a group
   separator every 3 integer digits, the mark after the decimals). */
#define RFL__NR(fi, t)                                                                         \
    ((unsigned char)((fi) == 0 ? (t) + (t) / 3                                                 \
                     : (t) < (fi) - 1 ? (t) : (fi) + ((t) - (fi) + 1) + ((t) - (fi) + 1) / 3))
#define RFL__NROW(fi)                                                                          \
    { RFL__NR(fi, 15), RFL__NR(fi, 14), RFL__NR(fi, 13), RFL__NR(fi, 12), RFL__NR(fi, 11),   \
      RFL__NR(fi, 10), RFL__NR(fi, 9),  RFL__NR(fi, 8),  RFL__NR(fi, 7),  RFL__NR(fi, 6),    \
      RFL__NR(fi, 5),  RFL__NR(fi, 4),  RFL__NR(fi, 3),  RFL__NR(fi, 2),  RFL__NR(fi, 1),    \
      RFL__NR(fi, 0) }
static const unsigned char rfl__num16_r[9][16] = {RFL__NROW(0), RFL__NROW(1), RFL__NROW(2),
                                                  RFL__NROW(3), RFL__NROW(4), RFL__NROW(5),
                                                  RFL__NROW(6), RFL__NROW(7), RFL__NROW(8)};
#undef RFL__NROW
#undef RFL__NR
__attribute__((target("sse4.1,ssse3,bmi"))) static inline int
rfl__num16(const char *s, unsigned n, char g, char dm, uint64_t *mo, int *fo) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s),
                  d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const unsigned dig =
        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
    const unsigned gm = g ? (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(g))) : 0;
    /* L: the integer part (digits and separators); separators expected
       at L-4, L-8, L-12 and nowhere else, the lead group not empty */
    const unsigned L = (unsigned)__builtin_ctz(~(dig | gm) | 1u << n);
    unsigned f = 0, fi = 0;
    __m128i x;
    uint64_t w;
    if ((L & 3) == 0 || (gm & ((1u << L) - 1)) != 0x1111u >> (16 - L)) return 0;
    if (L < n) { /* the decimal mark, then only digits */
        f = n - L - 1;
        if (s[L] != dm || !dm || f > 7 || ((dig >> (L + 1)) & ((1u << f) - 1)) != (1u << f) - 1)
            return 0;
        fi = f + 1;
    }
    x = _mm_sub_epi8(_mm_set1_epi8((char)(n - 1)),
                     _mm_loadu_si128((const __m128i *)(const void *)rfl__num16_r[fi]));
    x = _mm_shuffle_epi8(d, x); /* a negative index (beyond the field) gives 0 */
    x = _mm_maddubs_epi16(x, _mm_set_epi8(1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10));
    x = _mm_madd_epi16(x, _mm_set_epi16(1, 100, 1, 100, 1, 100, 1, 100));
    x = _mm_packus_epi32(x, x);
    x = _mm_madd_epi16(x, _mm_set_epi16(1, 10000, 1, 10000, 1, 10000, 1, 10000));
    w = (uint64_t)_mm_cvtsi128_si64(x);
    *mo = (w & 0xFFFFFFFFu) * 100000000u + (w >> 32);
    *fo = (int)f;
    return 1;
}
/* 0: baseline, 1: AVX2 (with BMI1/2, POPCNT, PCLMUL), 2: also AVX-512BW.
   CPUID and XGETBV directly (cpuid.h is a compiler header): no libgcc
   CPU-model symbols, and the OS must save the vector registers. */
static int rfl__cpu_simd(void) {
    unsigned a, b, c, d, xlo, xhi;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    /* OSXSAVE 27, AVX 28, PCLMUL 1, POPCNT 23 */
    if ((c & (1u << 27 | 1u << 28 | 1u << 1 | 1u << 23)) != (1u << 27 | 1u << 28 | 1u << 1 | 1u << 23))
        return 0;
    __asm__("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    (void)xhi;
    if ((xlo & 6u) != 6u) return 0; /* XMM and YMM state */
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    /* AVX2 5, BMI1 3, BMI2 8 */
    if ((b & (1u << 5 | 1u << 3 | 1u << 8)) != (1u << 5 | 1u << 3 | 1u << 8)) return 0;
    /* AVX512F 16, AVX512BW 30, and the opmask and ZMM state */
    return (b & (1u << 16 | 1u << 30)) == (1u << 16 | 1u << 30) && (xlo & 0xE0u) == 0xE0u ? 2 : 1;
}
#endif

/* The walker's body is compiled once per instruction set (simd: 0
   baseline, 1 AVX2, 2 AVX-512BW, a constant in each copy), so that the x86
   copies use the popcnt and BMI instructions throughout. */
#ifdef RFL__AVX2
#define RFL__POPCNT(x) (simd ? (uint64_t)__builtin_popcountll(x) : rfl__popcount(x))
#else
#define RFL__POPCNT(x) rfl__popcount(x)
#endif
/* a metric value by rfl__num16 where 16 bytes from cs can be read */
#ifdef RFL__AVX2
#define RFL__NUM16(cs, ce, m, f)                                                              \
    (simd && (ce) - (cs) <= 16 && e - (cs) >= 16 &&                                           \
     rfl__num16((const char *)(cs), (unsigned)((ce) - (cs)), g, dm, &(m), &(f)))
#else
#define RFL__NUM16(cs, ce, m, f) ((void)(m), (void)(f), 0)
#endif
/* s2 becomes its want-th lowest set bit alone (want >= 1, popcount >= want) */
#ifdef RFL__AVX2
#define RFL__SELECT(s2, want)                                                                 \
    do {                                                                                      \
        if (simd == 2) s2 = rfl__sel_pdep(s2, (want) - 1);                                    \
        else {                                                                                \
            uint32_t j_ = (want);                                                             \
            while (--j_) s2 &= s2 - 1;                                                        \
            s2 &= 0 - s2;                                                                     \
        }                                                                                     \
    } while (0)
#else
#define RFL__SELECT(s2, want)                                                                 \
    do {                                                                                      \
        uint32_t j_ = (want);                                                                 \
        while (--j_) s2 &= s2 - 1;                                                            \
        s2 &= 0 - s2;                                                                         \
    } while (0)
#endif
RFL__ALWAYS_INLINE rfl_result rfl__walk_body(rfl_reduce_state *st, const unsigned char **pp,
                                             const unsigned char *e, const unsigned char *p0,
                                             uint64_t base, const int simd) {
    const unsigned char *p = *pp, *cur = p, *kb;
    const unsigned char *map = st->colmap, *rl = st->runs;
    const uint32_t ncols = st->ncols;
    rfl__blks *k = &st->blks;
    int bi = 0, bn;
    uint64_t ksep = 0, kends, khard;
    uint32_t col = st->col; /* in a register; st->col is set before calls */
    char g, dm;
    rfl_result err = RFL_OK;
    RFL__GDM(st, g, dm);
    if (e - p < 64) return RFL_OK;
    k->inside_carry = 0, k->prev_cq = 0, k->prev_ok = 1; /* p: a field start */
#define RFL__FILL(at) do { \
        bn = (e - (at)) / 64 < RFL__NB ? (int)((e - (at)) / 64) : RFL__NB; \
        RFL__FILL_CALL(at); \
        bi = 0; \
    } while (0)
#ifdef RFL__AVX2
#define RFL__FILL_CALL(at)                                                                \
    (simd == 2   ? rfl__blk_fill_avx512(k, at, bn)                                        \
     : simd == 1 ? rfl__blk_fill_avx2(k, at, bn)                                          \
                 : rfl__blk_fill(k, at, bn))
#else
#define RFL__FILL_CALL(at) ((void)simd, rfl__blk_fill(k, at, bn))
#endif
    RFL__FILL(p);
    kb = p, kends = k->ends[0], khard = k->hard[0], ksep = k->sep[0];
    while (st->row_kind == RFL__ROW_DATA) {
        uint64_t above, lim, avail;
        unsigned pos;
        if (col >= ncols) break;
        if (cur - kb >= 64) {
            if (++bi == bn) {
                if (e - (kb + 64) < 64) break;
                RFL__FILL(kb + 64);
            }
            kb += 64, kends = k->ends[bi], khard = k->hard[bi], ksep = k->sep[bi];
        }
        pos = (unsigned)(cur - kb);
        above = ~(uint64_t)0 << pos;
        lim = khard & above;
        lim = lim ? (lim & (0 - lim)) - 1 : ~(uint64_t)0;
        avail = kends & above & lim;
        if (!map[col] && col + 1 < ncols) { /* a run of unused columns */
            uint32_t want = (uint32_t)rl[2 * col] | (uint32_t)rl[2 * col + 1] << 8;
            uint64_t s2 = avail, rowend = avail & ~ksep, cnt;
            if (want > ncols - 1 - col) want = ncols - 1 - col;
            if (rowend) s2 &= (rowend & (0 - rowend)) - 1;
            cnt = RFL__POPCNT(s2);
            if (cnt >= want) {
                RFL__SELECT(s2, want);
                p = cur = kb + rfl__ctz(s2) + 1;
                col += want;
                /* the used field after the run, when it ends in this block */
                if ((avail &= ~(s2 | (s2 - 1))) != 0) goto field;
                continue;
            }
            if (cnt) {
                p = kb + rfl__hibit(s2) + 1;
                col += (uint32_t)cnt;
            }
            if (rowend || lim != ~(uint64_t)0) break;
            /* the run goes on: whole blocks, a popcount each, while no row
               end or hard stop is in them (those go round the main loop) */
            want -= (uint32_t)cnt;
            cur = kb + 64;
            for (;;) {
                if (++bi == bn) {
                    if (e - (kb + 64) < 64) { bi--; break; }
                    RFL__FILL(kb + 64);
                }
                kb += 64, kends = k->ends[bi], khard = k->hard[bi], ksep = k->sep[bi];
                cur = kb;
                if (khard | (kends & ~ksep)) break;
                cnt = RFL__POPCNT(ksep);
                if (cnt >= want) {
                    s2 = ksep;
                    RFL__SELECT(s2, want);
                    p = cur = kb + rfl__ctz(s2) + 1;
                    col += want;
                    /* as above: no hard stop or row end in this block */
                    if ((avail = ksep & ~(s2 | (s2 - 1))) != 0) goto field;
                    break;
                }
                if (cnt) p = kb + rfl__hibit(ksep) + 1, col += (uint32_t)cnt, want -= (uint32_t)cnt;
                cur = kb + 64;
            }
            continue;
        }
        if (!avail) { /* the field goes on in the next block */
            if (lim != ~(uint64_t)0) break;
            cur = kb + 64;
            continue;
        }
    field: /* p: the field's start; avail: its end is the lowest bit */
        {
            const unsigned char *end = kb + rfl__ctz(avail), *cs = p, *ce = end;
            if (*end == '\n' && ce > cs && ce[-1] == '\r') ce--;
            if (*p == '"') {
                if (ce - p < 2 || ce[-1] != '"') break;
                cs = p + 1, ce--;
            } else
                ce = end; /* unquoted: the number reader trims the CR */
            if (map[col] && map[col] < RFL__R_COUNT && (size_t)(ce - cs) <= st->carry_cap) {
                /* a metric value (the most common used field): straight to
                   the number reader, as rfl__data_field would; its position
                   is stored only for the general reader, which can fail */
                int role = map[col];
                uint64_t m;
                int fr;
                if (st->role_plain[role] &&
                    (RFL__NUM16(cs, ce, m, fr) ||
                     rfl__num_scan((const char *)cs, (size_t)(ce - cs), g, dm, &m, &fr)))
                    rfl__put_digits(st, role, m, fr);
                else {
                    uint64_t at = base + (uint64_t)(p - p0);
                    st->field_line = st->line, st->field_col = at - st->line_start + 1;
                    st->field_off = at;
                    st->unit[0] = 0;
                    err = rfl__put_value(st, role, (const char *)cs, (size_t)(ce - cs),
                                         &st->role_unit[role], st->role_mult[role]);
                    RFL__GDM(st, g, dm); /* the general reader may have settled the locale */
                }
            } else {
                st->offset_now = base + (uint64_t)(end - p0);
                st->col = col;
                rfl__field_begin(st, base + (uint64_t)(p - p0));
                st->quoted = *p == '"';
                if (st->need == RFL__NEED_NAME) rfl__append(st, cs, (size_t)(ce - cs));
                else if ((size_t)(ce - cs) > st->carry_cap) st->field_over = 1;
                err = rfl__field_end_s(st, (const char *)cs, (size_t)(ce - cs));
                RFL__GDM(st, g, dm);
            }
            if (err != RFL_OK) goto out;
            p = cur = end + 1;
            if (*end == ',') col++;
            else {
                st->col = col;
                st->offset_now = base + (uint64_t)(end - p0);
                if ((err = rfl__row_end(st)) != RFL_OK) goto out;
                st->line++, st->line_start = base + (uint64_t)(end - p0) + 1;
                col = 0;
                if (cur < e && *cur == '"') continue; /* next row: quoted ID */
                break;
            }
        }
    }
out:
    st->col = col;
    *pp = p;
    return err;
#undef RFL__FILL
#undef RFL__FILL_CALL
}
#undef RFL__POPCNT
#undef RFL__SELECT
#undef RFL__NUM16

static rfl_result rfl__walk0(rfl_reduce_state *st, const unsigned char **pp,
                             const unsigned char *e, const unsigned char *p0, uint64_t base) {
    return rfl__walk_body(st, pp, e, p0, base, 0);
}
#ifdef RFL__AVX2
__attribute__((target("avx2,bmi,bmi2,popcnt,pclmul"))) static rfl_result
rfl__walk1(rfl_reduce_state *st, const unsigned char **pp, const unsigned char *e,
           const unsigned char *p0, uint64_t base) {
    return rfl__walk_body(st, pp, e, p0, base, 1);
}
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt,pclmul"))) static rfl_result
rfl__walk2(rfl_reduce_state *st, const unsigned char **pp, const unsigned char *e,
           const unsigned char *p0, uint64_t base) {
    return rfl__walk_body(st, pp, e, p0, base, 2);
}
#endif
static rfl_result rfl__walk(rfl_reduce_state *st, const unsigned char **pp,
                            const unsigned char *e, const unsigned char *p0, uint64_t base) {
#ifdef RFL__AVX2
    if (st->simd == 2) return rfl__walk2(st, pp, e, p0, base);
    if (st->simd == 1) return rfl__walk1(st, pp, e, p0, base);
#endif
    return rfl__walk0(st, pp, e, p0, base);
}

#define RFL__POS(q) (base + (uint64_t)((q) - p0))
#define RFL__NEWLINE(q) (st->line++, st->line_start = RFL__POS(q) + 1)
#define RFL__TRY(x) do { rfl_result e_ = (x); if (e_ != RFL_OK) return e_; } while (0)

static rfl_result rfl__feed(rfl_reduce_state *st, const unsigned char *p0, size_t len) {
    const unsigned char *p = p0, *e = p0 + len, *q;
    uint64_t base = st->offset;
    while (p < e) {
        unsigned char c = *p;
        if (st->mode == RFL__M_PRE) {
            if (st->bom_state < 3) { /* UTF-8 BOM at the very start */
                static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
                if (RFL__POS(p) == (uint64_t)st->bom_state && c == bom[st->bom_state]) {
                    st->bom_state++;
                    p++;
                    if (st->bom_state == 3) st->line_start = RFL__POS(p);
                    continue;
                }
                st->bom_state = 3;
            }
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') st->saw_bytes = 1;
            if (c == '\n' || st->pre_len == sizeof st->pre) {
                rfl_csv_format f;
                if (rfl__header_prefix(st->pre, st->pre_len, &f)) {
                    /* replay the prefix through the CSV machine */
                    size_t n = st->pre_len;
                    rfl__csv_start(st, f);
                    st->offset = st->line_start;
                    RFL__TRY(rfl__feed(st, (const unsigned char *)st->pre, n));
                    continue; /* this byte goes to the CSV machine */
                }
                st->pre_len = 0;
                if (c == '\n') { RFL__NEWLINE(p); p++; continue; }
                st->mode = RFL__M_SKIP;
                continue;
            }
            st->pre[st->pre_len++] = (char)c;
            p++;
            continue;
        }
        if (st->mode == RFL__M_SKIP) {
            q = rfl__scan2(p, e, '\n', '\n');
            if (q == e) { p = e; break; }
            RFL__NEWLINE(q);
            st->mode = RFL__M_PRE;
            st->pre_len = 0;
            p = q + 1;
            continue;
        }
        /* CSV */
        switch (st->fstate) {
        case RFL__F_START:
            if (st->row_kind == RFL__ROW_DATA && (st->col > 0 || c == '"')) {
                /* hot path: the row walker (64-byte blocks) */
                const unsigned char *w = p;
                RFL__TRY(rfl__walk(st, &w, e, p0, base));
                if (w != p) { p = w; continue; }
            }
            if (st->col == 0) { /* row start: blank or "==" line ends a section */
                if (c == '\n') {
                    RFL__TRY(rfl__section_end(st));
                    RFL__NEWLINE(p);
                    p++;
                    continue;
                }
                if (c == '\r') { st->fstate = RFL__F_CR0; p++; continue; }
                if (c == '=') {
                    RFL__TRY(rfl__section_end(st));
                    st->mode = RFL__M_SKIP;
                    continue;
                }
            }
            if (st->row_kind != RFL__ROW_HEADER && st->col >= st->ncols) {
                char t[24];
                size_t k = rfl_fmt_u64(t, sizeof t, (uint64_t)st->ncols);
                return rfl__fail(st, RFL_ERR_SYNTAX, st->line, RFL__POS(p) - st->line_start + 1,
                                 "row has more fields than the header's ", t, k, "");
            }
            rfl__field_begin(st, RFL__POS(p));
            if (c == '"' && st->row_kind == RFL__ROW_DATA) {
                /* a whole quoted field inside this chunk: handle it in place */
                q = rfl__scan2(p + 1, e, '"', '\n');
                if (q + 1 < e && *q == '"' && (q[1] == ',' || q[1] == '\n')) {
                    size_t n = (size_t)(q - p - 1);
                    st->quoted = 1;
                    if (st->need == RFL__NEED_NAME) rfl__append(st, p + 1, n);
                    else if (n > st->carry_cap) st->field_over = 1;
                    st->offset_now = RFL__POS(q + 1);
                    RFL__TRY(rfl__field_end_s(st, (const char *)p + 1, n));
                    if (q[1] == ',') st->col++;
                    else {
                        RFL__TRY(rfl__row_end(st));
                        RFL__NEWLINE(q + 1);
                        st->col = 0;
                    }
                    p = q + 2;
                    continue;
                }
            }
            if (c == '"') { st->quoted = 1; st->fstate = RFL__F_Q; p++; }
            else st->fstate = RFL__F_UNQ;
            continue;
        case RFL__F_CR0:
            if (c == '\n') {
                st->fstate = RFL__F_START;
                RFL__TRY(rfl__section_end(st));
                RFL__NEWLINE(p);
                p++;
                continue;
            }
            /* a lone CR starts a field: treat as unquoted data */
            rfl__field_begin(st, RFL__POS(p) - 1);
            rfl__append(st, (const unsigned char *)"\r", 1);
            st->fstate = RFL__F_UNQ;
            continue;
        case RFL__F_UNQ:
            q = rfl__scan2(p, e, ',', '\n');
            rfl__append(st, p, (size_t)(q - p));
            if (q == e) { p = e; break; }
            st->fstate = RFL__F_START;
            st->offset_now = RFL__POS(q);
            RFL__TRY(rfl__field_end(st));
            if (*q == ',') st->col++;
            else {
                RFL__TRY(rfl__row_end(st));
                RFL__NEWLINE(q);
                st->col = 0;
            }
            p = q + 1;
            continue;
        case RFL__F_Q:
            q = rfl__scan2(p, e, '"', '\n');
            rfl__append(st, p, (size_t)(q - p));
            if (q == e) { p = e; break; }
            if (*q == '\n') {
                rfl__append(st, q, 1);
                RFL__NEWLINE(q);
                p = q + 1;
                continue;
            }
            st->fstate = RFL__F_QQ;
            p = q + 1;
            continue;
        case RFL__F_QQ:
            if (c == '"') { rfl__append(st, p, 1); st->fstate = RFL__F_Q; p++; continue; }
            if (c == ',' || c == '\n') {
                st->fstate = RFL__F_START;
                st->offset_now = RFL__POS(p);
                RFL__TRY(rfl__field_end(st));
                if (c == ',') st->col++;
                else {
                    RFL__TRY(rfl__row_end(st));
                    RFL__NEWLINE(p);
                    st->col = 0;
                }
                p++;
                continue;
            }
            if (c == '\r') { st->fstate = RFL__F_QCR; p++; continue; }
            return rfl__fail(st, RFL_ERR_SYNTAX, st->line, RFL__POS(p) - st->line_start + 1,
                             "unexpected character after a closing quote", 0, 0, 0);
        case RFL__F_QCR:
            if (c != '\n')
                return rfl__fail(st, RFL_ERR_SYNTAX, st->line, RFL__POS(p) - st->line_start + 1,
                                 "carriage return not followed by a line feed", 0, 0, 0);
            st->fstate = RFL__F_START;
            st->offset_now = RFL__POS(p);
            RFL__TRY(rfl__field_end(st));
            RFL__TRY(rfl__row_end(st));
            RFL__NEWLINE(p);
            st->col = 0;
            p++;
            continue;
        default:
            return RFL_ERR_STATE;
        }
    }
    st->offset = base + len;
    return RFL_OK;
}

/* ---- public ------------------------------------------------------------------ */
RFL_API const char *rfl_csv_format_name(rfl_csv_format f) {
    switch (f) {
    case RFL_CSV_NCU_RAW: return "ncu-raw";
    case RFL_CSV_NCU_DETAILS: return "ncu-details";
    case RFL_CSV_NVPROF_METRICS: return "nvprof-metrics";
    case RFL_CSV_NVPROF_SUMMARY: return "nvprof-summary";
    case RFL_CSV_NVPROF_TRACE: return "nvprof-trace";
    default: return "unknown";
    }
}

RFL_API rfl_result rfl_reduce_init(rfl_reduce_state *st, const rfl_reduce_desc *desc,
                                   void *scratch, size_t size) {
    if (!st || !scratch) return RFL_ERR_ARG;
    RFL_MEMSET(st, 0, sizeof *st);
    if (size < RFL_REDUCE_SCRATCH_SIZE(1)) return RFL_ERR_BUFFER;
    if (desc) st->desc = *desc;
    st->carry = (unsigned char *)scratch;
    st->carry_cap = RFL_REDUCE_CARRY;
    st->colmap = st->carry + RFL_REDUCE_CARRY;
    st->col_cap = (size - RFL_REDUCE_CARRY) / 3;
    st->runs = st->colmap + st->col_cap;
    st->line = 1;
#ifdef RFL__AVX2
    st->simd = rfl__cpu_simd();
#endif
    st->locale = st->desc.locale;
    st->top_n = st->desc.top_n < 0 ? 0 : st->desc.top_n == 0 ? 10 : st->desc.top_n > RFL_REDUCE_TOP_MAX ? RFL_REDUCE_TOP_MAX
                                                                              : st->desc.top_n;
    st->res.total.work.unknown = 0;
    st->res.total.name[0] = 't', st->res.total.name[1] = 'o', st->res.total.name[2] = 't';
    st->res.total.name[3] = 'a', st->res.total.name[4] = 'l';
    st->res.other.name[0] = 'o', st->res.other.name[1] = 't', st->res.other.name[2] = 'h';
    st->res.other.name[3] = 'e', st->res.other.name[4] = 'r';
    return RFL_OK;
}

RFL_API rfl_result rfl_reduce_push(rfl_reduce_state *st, const void *bytes, size_t len) {
    rfl_result e;
    if (!st) return RFL_ERR_ARG;
    if (st->err) return st->err;
    if (st->finished) return RFL_ERR_STATE;
    if (!bytes && len) return RFL_ERR_ARG;
    if (!len) return RFL_OK;
    e = rfl__feed(st, (const unsigned char *)bytes, len);
    if (e != RFL_OK && !st->err) st->err = e;
    return e;
}

static void rfl__warnings(rfl_reduce_state *st) {
    rfl_reduce_result *r = &st->res;
    rfl_kernel_stat *t = &r->total;
    rfl__sb s;
    int p;
    unsigned fp_bits = 0;
    for (p = 0; p < RFL_PREC_COUNT; p++) fp_bits |= RFL_UNKNOWN_FLOPS(p);
    if (st->w_tc_kernels) {
        int i;
        s = rfl__warn(st, RFL_WARN_TENSOR_UNCOUNTED, 0, 0);
        rfl__sb_u64(&s, st->w_tc_kernels);
        rfl__sb_s(&s, " tensor-core kernel(s) by name (");
        rfl__sb_num(&s, st->w_time_s > 0 ? 100 * st->w_tc_s / st->w_time_s : 0, 3);
        rfl__sb_s(&s, "% of the time; e.g. ");
        for (i = 0; st->w_tc_example[i] && i < 40 && s.n + 1 < s.cap; i++)
            s.b[s.n++] = st->w_tc_example[i];
        s.b[s.n] = 0;
        rfl__sb_s(&s, st->w_tc_example[i] ? "...) " : ") ");
        rfl__sb_s(&s, "have no tensor FLOP count: their FLOPs are missing from the totals (cuDNN "
                      "runs FP32 convolutions as TF32 on Ampere and later by default). Collect "
                      "sm__ops_path_tensor_op_* for every type");
    }
    if (st->w_est_kernels) {
        s = rfl__warn(st, RFL_WARN_TENSOR_ESTIMATED, 0, 0);
        rfl__sb_s(&s, "tensor FLOPs of ");
        rfl__sb_u64(&s, st->w_est_kernels);
        rfl__sb_s(&s, " kernel(s) are estimates: ");
        rfl__sb_num(&s, st->w_est_inst, 15);
        rfl__sb_s(&s, " tensor-pipe instructions x ");
        rfl__sb_num(&s, r->tensor_flops_per_inst, 4);
        rfl__sb_s(&s, st->desc.tensor_flops_per_inst > 0
                          ? " FLOPs (the caller's factor). "
                          : " FLOPs (mean; per kernel by the mma shape of its name: m16n8k8 "
                            "2048, m16n8k16 4096, wgmma 512 x tile N). ");
        if (st->w_pipe_kernels) {
            rfl__sb_u64(&s, st->w_pipe_kernels);
            rfl__sb_s(&s, " non-matrix kernel(s) by name also used the pipe: not counted. ");
        }
        rfl__sb_s(&s, "Collect sm__ops_path_tensor_op_* for counts");
    }
    if (r->kernels && (t->work.unknown & fp_bits) != fp_bits && !st->w_tc_kernels) {
        int i, seen = st->roles_seen[RFL__R_TINST] | st->roles_seen[RFL__R_TINST_OP] |
                      st->roles_seen[RFL__R_TPIPE] | st->roles_seen[RFL__R_TD_FP16];
        for (i = 0; i < 6; i++)
            seen |= st->roles_seen[RFL__R_T_FP64 + i] | st->roles_seen[RFL__R_TW_FP64 + i] |
                    st->roles_seen[RFL__R_TS_FP64 + i] | st->roles_seen[RFL__R_TWS_FP64 + i];
        if (!seen) {
            s = rfl__warn(st, RFL_WARN_NO_TENSOR_COUNTERS, 0, 0);
            rfl__sb_s(&s, "no tensor-core counter in this profile, and no kernel name marks a "
                          "tensor-core kernel (tf32, hmma, gmma, tensorop): the FP counts are "
                          "likely complete. Had tensor cores run (TF32 is cuDNN's default on "
                          "Ampere and later), their FLOPs would be missing: add "
                          "sm__ops_path_tensor_op_* to be sure");
        }
    }
    if (r->kernels && (t->work.unknown & fp_bits) == fp_bits) {
        s = rfl__warn(st, RFL_WARN_NO_FP_COUNTERS, 0, 0);
        rfl__sb_s(&s, "no FLOP counters in this profile: FLOPs and AI are unknown. Collect "
                      "smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum (and the "
                      "d/h variants and sm__ops_path_tensor_op_*)");
    }
    if (st->w_partial) {
        s = rfl__warn(st, RFL_WARN_PARTIAL_COUNTERS, 0, 0);
        rfl__sb_s(&s, "not every add/mul/fma counter was collected for ");
        rfl__sb_s(&s, (st->w_partial & 1) ? "FP32 " : "");
        rfl__sb_s(&s, (st->w_partial & 2) ? "FP64 " : "");
        rfl__sb_s(&s, (st->w_partial & 4) ? "FP16 " : "");
        rfl__sb_s(&s, "(a missing one counts 0): those FLOPs are a lower bound. Collect "
                      "smsp__sass_thread_inst_executed_op_{add,mul,fma}_pred_on.sum together");
    }
    if (t->flags & RFL_REDUCE_RATE_DERIVED) {
        s = rfl__warn(st, RFL_WARN_RATE_DERIVED, 0, 0);
        rfl__sb_s(&s, "some counts were derived from per-cycle or per-second rates x elapsed "
                      "cycles or time, as Nsight Compute's roofline does; the rates are printed "
                      "with 2 decimals, so the counts are approximate. Collect the .sum counters "
                      "for exact counts");
    }
    if (r->kernels && (t->work.unknown & RFL_UNKNOWN_TIME)) {
        s = rfl__warn(st, RFL_WARN_NO_TIME, 0, 0);
        rfl__sb_s(&s, "no time metric (gpu__time_duration.sum) for some kernels: time and FLOP/s "
                      "unknown");
    }
    if (st->w_below) {
        s = rfl__warn(st, RFL_WARN_BELOW_COMPULSORY, 1, st->w_below_id);
        rfl__sb_s(&s, "DRAM writes of ");
        rfl__sb_u64(&s, st->w_below);
        rfl__sb_s(&s, " elementwise kernel(s) are below their output size (kernel ");
        rfl__sb_u64(&s, st->w_below_id);
        rfl__sb_s(&s, ": ");
        rfl__sb_u64(&s, st->w_below_got);
        rfl__sb_s(&s, " bytes written, output at least ");
        rfl__sb_u64(&s, st->w_below_need);
        rfl__sb_s(&s, "): part of the output was still in L2 when the kernel ended, so its DRAM "
                      "AI is overstated");
    }
    {
        int k1 = !(t->work.unknown & RFL_UNKNOWN_BYTES(RFL_L1)),
            k2 = !(t->work.unknown & RFL_UNKNOWN_BYTES(RFL_L2)),
            kd = !(t->work.unknown & RFL_UNKNOWN_BYTES(RFL_DRAM));
        if (r->kernels && ((k1 && k2 && t->bytes[RFL_L1] < t->bytes[RFL_L2]) ||
                           (k2 && kd && t->bytes[RFL_L2] < t->bytes[RFL_DRAM]))) {
            s = rfl__warn(st, RFL_WARN_HIERARCHY, 0, 0);
            rfl__sb_s(&s, "hierarchy inversion: ");
            if (k1 && k2 && t->bytes[RFL_L1] < t->bytes[RFL_L2])
                rfl__sb_s(&s, "L1 bytes below L2 bytes (AI at L1 above AI at L2; TMA and other "
                              "copies that bypass L1 are not in l1tex__t_bytes) ");
            if (k2 && kd && t->bytes[RFL_L2] < t->bytes[RFL_DRAM])
                rfl__sb_s(&s, "L2 bytes below DRAM bytes (AI at L2 above AI at DRAM: check units "
                              "and that both metrics cover the same kernels)");
        }
    }
    if (st->desc.machine) {
        const rfl_machine *m = st->desc.machine;
        if (st->w_above) {
            s = rfl__warn(st, RFL_WARN_ABOVE_ROOF, 1, st->w_above_id);
            rfl__sb_u64(&s, st->w_above);
            rfl__sb_s(&s, " kernel(s) ran above the roof of ");
            rfl__sb_s(&s, m->id);
            rfl__sb_s(&s, " (worst: kernel ");
            rfl__sb_u64(&s, st->w_above_id);
            rfl__sb_s(&s, " at ");
            rfl__sb_num(&s, st->w_above_x * 100, 3);
            rfl__sb_s(&s, "% of a ceiling): a measurement or unit bug, or the wrong machine");
        }
        if (!(t->work.unknown & RFL_UNKNOWN_TIME) && t->time_ns) {
            double ts = (double)t->time_ns * 1e-9, worst = 0;
            for (p = 0; p < RFL_PREC_COUNT; p++)
                if (!(t->work.unknown & RFL_UNKNOWN_FLOPS(p)) && m->peak_flops[p] > 0) {
                    double x = (double)t->flops[p] / ts / m->peak_flops[p];
                    if (x > worst) worst = x;
                }
            if (!(t->work.unknown & RFL_UNKNOWN_BYTES(RFL_DRAM)) && m->bw_bytes_per_s[RFL_DRAM] > 0) {
                double x = (double)t->bytes[RFL_DRAM] / ts / m->bw_bytes_per_s[RFL_DRAM];
                if (x > worst) worst = x;
            }
            if (worst > 1.0) {
                s = rfl__warn(st, RFL_WARN_ABOVE_ROOF, 0, 0);
                rfl__sb_s(&s, "the total runs at ");
                rfl__sb_num(&s, worst * 100, 3);
                rfl__sb_s(&s, "% of a ceiling of ");
                rfl__sb_s(&s, m->id);
                rfl__sb_s(&s, ": above the roof means a measurement or unit bug");
            }
        }
        if (m->boost_mhz > 0 && r->sm_clock_hz > 0 && r->sm_clock_hz < 0.9 * m->boost_mhz * 1e6) {
            s = rfl__warn(st, RFL_WARN_LOW_CLOCK, 0, 0);
            rfl__sb_s(&s, "the profile ran at ");
            rfl__sb_num(&s, r->sm_clock_hz / 1e6, 4);
            rfl__sb_s(&s, " MHz, ");
            rfl__sb_num(&s, 100.0 * (1.0 - r->sm_clock_hz / (m->boost_mhz * 1e6)), 3);
            rfl__sb_s(&s, "% below the boost clock of ");
            rfl__sb_s(&s, m->id);
            rfl__sb_s(&s, " (");
            rfl__sb_num(&s, m->boost_mhz, 5);
            rfl__sb_s(&s, " MHz): datasheet peaks are too high for it (ncu locks the base clock "
                          "unless --clock-control none); compare with the profile's own ceilings");
        }
    }
    if (r->auto_units_rel_err > 0) {
        s = rfl__warn(st, RFL_WARN_AUTO_UNITS, 0, 0);
        rfl__sb_s(&s, "values were printed with auto-scaled units (e.g. '");
        rfl__sb_s(&s, st->auto_example);
        rfl__sb_s(&s, "'): each keeps only its printed digits, up to ");
        rfl__sb_num(&s, r->auto_units_rel_err * 100, 2);
        rfl__sb_s(&s, "% off per value. Export with --print-units base for exact counts");
    }
    if (st->w_trunc) {
        s = rfl__warn(st, RFL_WARN_NAME_TRUNCATED, 0, 0);
        rfl__sb_u64(&s, st->w_trunc);
        rfl__sb_s(&s, " kernel name(s) longer than 255 bytes were truncated (grouping by name "
                      "compares the kept part)");
    }
    if (t->flags & RFL_REDUCE_SATURATED) {
        s = rfl__warn(st, RFL_WARN_SATURATED, 0, 0);
        rfl__sb_s(&s, "a count overflowed 64 bits and was saturated at 18446744073709551615");
    }
    if (st->w_other) {
        s = rfl__warn(st, RFL_WARN_GROUPS_FULL, 0, 0);
        rfl__sb_u64(&s, st->w_other);
        rfl__sb_s(&s, " kernel(s) found no free entry in the by-name table of ");
        rfl__sb_u64(&s, (uint64_t)st->desc.group_cap);
        rfl__sb_s(&s, ": counted under \"other\" (the totals include them)");
    }
    (void)rfl__sb_si;
}

RFL_API rfl_result rfl_reduce_finish(rfl_reduce_state *st, rfl_reduce_result *out) {
    rfl_reduce_result *r;
    int i;
    if (!st || !out) return RFL_ERR_ARG;
    if (st->err) return st->err;
    if (st->finished) return RFL_ERR_STATE;
    st->finished = 1;
    r = &st->res;
    if (st->mode == RFL__M_CSV) {
        if (st->fstate == RFL__F_Q)
            return rfl__fail_field(st, RFL_ERR_TRUNCATED,
                                   "unterminated quote: the input ends inside this field", 0, 0, 0);
        if (st->fstate != RFL__F_START || st->col > 0) { /* last row without a newline */
            st->offset_now = st->offset;
            if (st->fstate != RFL__F_START && st->fstate != RFL__F_CR0) {
                if ((st->err = rfl__field_end(st)) != RFL_OK) return st->err;
                if ((st->err = rfl__row_end(st)) != RFL_OK) return st->err;
            }
        }
        if ((st->err = rfl__section_end(st)) != RFL_OK) return st->err;
    } else if (st->mode == RFL__M_PRE && st->pre_len && !st->res.format) {
        rfl_csv_format f;
        if (rfl__header_prefix(st->pre, st->pre_len, &f))
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1, "header row without data", 0, 0, 0);
    }
    if (!st->saw_bytes) return rfl__fail(st, RFL_ERR_EMPTY, st->line, 1, "empty input", 0, 0, 0);
    if (r->format == RFL_CSV_UNKNOWN)
        return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                         "no ncu or nvprof CSV header row found (a line starting with \"ID\", "
                         "\"Device\", \"Type\" or \"Start\")", 0, 0, 0);
    if (!st->rows)
        return rfl__fail(st, RFL_ERR_NO_DATA, st->line, 1,
                         "a header but no data rows: nothing was profiled", 0, 0, 0);
    r->locale = st->locale;
    /* nvprof: time from the summary or trace section */
    if (st->nv_trace_known || st->nv_sum_known) {
        r->total.time_ns = st->nv_trace_known ? st->nv_trace_ns : st->nv_sum_ns;
        if (!r->kernels) r->total.work.unknown = RFL_UNKNOWN_ALL;
        r->total.work.unknown &= ~RFL_UNKNOWN_TIME;
    } else if (!r->kernels)
        r->total.work.unknown = RFL_UNKNOWN_ALL;
    rfl__stat_work(&r->total);
    for (i = 0; i < RFL_PREC_COUNT; i++)
        r->ceil_flops[i] = st->ceil_w[i] > 0 ? st->ceil_sum[i] / st->ceil_w[i] : 0;
    for (i = 0; i < RFL_LEVEL_COUNT; i++)
        r->ceil_bw[i] = st->ceil_w[RFL_PREC_COUNT + i] > 0
                            ? st->ceil_sum[RFL_PREC_COUNT + i] / st->ceil_w[RFL_PREC_COUNT + i] : 0;
    r->sm_clock_hz = st->clk_w > 0 ? st->clk_sum / st->clk_w : 0;
    if (!(r->total.work.unknown & RFL_UNKNOWN_TIME) && r->total.time_ns &&
        (r->total.work.unknown & (RFL_UNKNOWN_FLOPS(0) | 0x1FFu)) != 0x1FFu)
        r->flops_per_s = rfl_work_flops(&r->total.work) / r->total.work.time_s;
    r->flags |= r->total.flags;
    r->total.flags = r->flags;
    rfl__warnings(st);
    *out = *r;
    return RFL_OK;
}

RFL_API rfl_result rfl_reduce_buffer(const void *bytes, size_t len, const rfl_reduce_desc *desc,
                                     void *scratch, size_t size, rfl_reduce_state *st,
                                     rfl_reduce_result *result) {
    rfl_result e = rfl_reduce_init(st, desc, scratch, size);
    if (e != RFL_OK) return e;
    if ((e = rfl_reduce_push(st, bytes, len)) != RFL_OK) return e;
    return rfl_reduce_finish(st, result);
}

RFL_API void rfl_reduce_ceilings_machine(const rfl_reduce_result *r, rfl_machine *out) {
    int i;
    if (!out) return;
    RFL_MEMSET(out, 0, sizeof *out);
    out->id = "profile";
    out->name = "the profile's own ceilings";
    out->aliases = "";
    out->source = "Nsight Compute *.peak_sustained x cycles_elapsed.avg.per_second";
    if (!r) return;
    for (i = 0; i < RFL_PREC_COUNT; i++) out->peak_flops[i] = r->ceil_flops[i];
    for (i = 0; i < RFL_LEVEL_COUNT; i++) out->bw_bytes_per_s[i] = r->ceil_bw[i];
    out->boost_mhz = r->sm_clock_hz / 1e6;
}

#undef RFL__HAS
#undef RFL__U
#undef RFL__D
#undef RFL__POS
#undef RFL__NEWLINE
#undef RFL__TRY
