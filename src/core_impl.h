/* ---- core implementation: results, work, machines, roofline math, numbers */

#ifndef RFL_ASSERT
#define RFL_ASSERT(x) ((void)0)
#endif
/* GCC and clang: their builtins (inline for small sizes, else memcpy and
   memset, which freestanding GCC code needs from the target anyway);
   other compilers: the loops below. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__)
#ifndef RFL_MEMSET
#define RFL_MEMSET(p, c, n) __builtin_memset((p), (c), (n))
#endif
#ifndef RFL_MEMCPY
#define RFL_MEMCPY(d, s, n) __builtin_memcpy((d), (s), (n))
#endif
#endif
#ifndef RFL_MEMSET
#define RFL_MEMSET(p, c, n) rfl__memset((p), (c), (n))
#endif
#ifndef RFL_MEMCPY
#define RFL_MEMCPY(d, s, n) rfl__memcpy((d), (s), (n))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RFL__UNUSED __attribute__((unused))
#else
#define RFL__UNUSED
#endif

/* Own byte loops so that the freestanding core links with no libc at all. */
static RFL__UNUSED void *rfl__memset(void *p, int c, size_t n) {
    unsigned char *d = (unsigned char *)p;
    while (n--) *d++ = (unsigned char)c;
    return p;
}
static RFL__UNUSED void *rfl__memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n--) *d++ = *s++;
    return dst;
}
static RFL__UNUSED size_t rfl__strlen(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    return n;
}
static RFL__UNUSED int rfl__isfinite(double x) {
    return x == x && x - x == 0.0; /* NaN fails the first, inf the second */
}
static RFL__UNUSED int rfl__lower(int c) {
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

RFL_API const char *rfl_result_str(rfl_result r) {
#ifdef RFL_NO_ERROR_STRINGS
    (void)r;
    return "";
#else
    switch (r) {
    case RFL_OK: return "ok";
    case RFL_ERR_ARG: return "invalid argument";
    case RFL_ERR_BUFFER: return "buffer too small";
    case RFL_ERR_UNKNOWN_NAME: return "unknown name";
    case RFL_ERR_NO_ROOF: return "no ceiling for that precision on this machine";
    case RFL_ERR_NO_DATA: return "quantity unknown or zero";
    case RFL_ERR_SHAPE: return "invalid shape";
    case RFL_ERR_OVERFLOW: return "size or count overflows";
    case RFL_ERR_NUMBER: return "not a number";
    case RFL_ERR_UNIT: return "unknown unit";
    case RFL_ERR_SYNTAX: return "malformed CSV";
    case RFL_ERR_TRUNCATED: return "input ends inside a field";
    case RFL_ERR_NO_HEADER: return "no header row found";
    case RFL_ERR_EMPTY: return "empty input";
    case RFL_ERR_LOCALE: return "ambiguous number format (declare the locale)";
    case RFL_ERR_FIELD_TOO_LONG: return "numeric field longer than the scratch buffer";
    case RFL_ERR_NOT_FINITE: return "NaN or infinity";
    case RFL_ERR_STATE: return "call out of order";
    case RFL_ERR_IO: return "I/O error";
    case RFL_ERR_COUNT_: break;
    }
    return "unknown error";
#endif
}

RFL_API const char *rfl_version(void) { return RFL_VERSION_STRING; }

static const char *const rfl__prec_names[RFL_PREC_COUNT] = {
    "fp32", "fp64", "fp16", "fp64_tensor", "tf32_tensor",
    "fp16_tensor", "bf16_tensor", "fp8_tensor", "int8_tensor"};
static const char *const rfl__level_names[RFL_LEVEL_COUNT] = {"dram", "l2", "l1"};

RFL_API const char *rfl_prec_name(rfl_prec p) {
    return ((unsigned)p < RFL_PREC_COUNT) ? rfl__prec_names[p] : "?";
}
RFL_API const char *rfl_level_name(rfl_level l) {
    return ((unsigned)l < RFL_LEVEL_COUNT) ? rfl__level_names[l] : "?";
}

RFL_API int rfl_name_eq(const char *a, const char *b) {
    if (!a || !b) return 0;
    for (;;) {
        while (*a == '-' || *a == '_' || *a == ' ' || *a == '.') a++;
        while (*b == '-' || *b == '_' || *b == ' ' || *b == '.') b++;
        if (rfl__lower((unsigned char)*a) != rfl__lower((unsigned char)*b)) return 0;
        if (!*a) return 1;
        a++, b++;
    }
}

RFL_API rfl_result rfl_prec_parse(const char *name, rfl_prec *out) {
    static const struct { const char *n; rfl_prec p; } extra[] = {
        {"float32", RFL_FP32}, {"float", RFL_FP32}, {"float64", RFL_FP64},
        {"double", RFL_FP64}, {"float16", RFL_FP16}, {"half", RFL_FP16},
        {"bf16", RFL_FP16}, {"bfloat16", RFL_FP16}, {"tf32", RFL_TF32_TENSOR},
        {"fp8", RFL_FP8_TENSOR}, {"int8", RFL_INT8_TENSOR}};
    int i;
    if (!name || !out) return RFL_ERR_ARG;
    for (i = 0; i < RFL_PREC_COUNT; i++)
        if (rfl_name_eq(name, rfl__prec_names[i])) { *out = (rfl_prec)i; return RFL_OK; }
    for (i = 0; i < (int)(sizeof extra / sizeof extra[0]); i++)
        if (rfl_name_eq(name, extra[i].n)) { *out = extra[i].p; return RFL_OK; }
    return RFL_ERR_UNKNOWN_NAME;
}

/* ---- work ---------------------------------------------------------------- */
RFL_API int rfl_work_known(const rfl_work *w, unsigned bits) {
    return w && (w->unknown & bits) == 0;
}

RFL_API double rfl_work_flops(const rfl_work *w) {
    double s = 0;
    int p;
    if (!w) return 0;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (!(w->unknown & RFL_UNKNOWN_FLOPS(p))) s += w->flops[p];
    return s;
}

RFL_API rfl_prec rfl_work_main_prec(const rfl_work *w) {
    int p, best = RFL_FP32;
    if (!w) return RFL_FP32;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (!(w->unknown & RFL_UNKNOWN_FLOPS(p)) && w->flops[p] > w->flops[best]) best = p;
    return (rfl_prec)best;
}

RFL_API double rfl_work_ai(const rfl_work *w, rfl_level level) {
    double b;
    if (!w || (unsigned)level >= RFL_LEVEL_COUNT) return 0;
    if (w->unknown & RFL_UNKNOWN_BYTES(level)) return 0;
    b = w->bytes[level];
    return b > 0 ? rfl_work_flops(w) / b : 0;
}

RFL_API void rfl_work_add(rfl_work *acc, const rfl_work *w) {
    int i;
    if (!acc || !w) return;
    for (i = 0; i < RFL_PREC_COUNT; i++) acc->flops[i] += w->flops[i];
    for (i = 0; i < RFL_LEVEL_COUNT; i++) acc->bytes[i] += w->bytes[i];
    acc->time_s += w->time_s;
    acc->unknown |= w->unknown;
}

RFL_API void rfl_work_scale(rfl_work *w, double k) {
    int i;
    if (!w) return;
    for (i = 0; i < RFL_PREC_COUNT; i++) w->flops[i] *= k;
    for (i = 0; i < RFL_LEVEL_COUNT; i++) w->bytes[i] *= k;
    w->time_s *= k;
}

/* ---- machines ------------------------------------------------------------ */
RFL_API const char *rfl_kind_name(rfl_kind k) {
    switch (k) {
    case RFL_KIND_GPU: return "gpu";
    case RFL_KIND_CPU: return "cpu";
    case RFL_KIND_TPU: return "tpu";
    case RFL_KIND_ACCEL: return "accelerator";
    case RFL_KIND_SOC: return "soc";
    }
    return "?";
}

#ifndef RFL_NO_HW_TABLE
#define RFL__T 1e12
#define RFL__G 1e9
#define RFL__HW_ROW(E, id, name, al, kind, f64, f64t, f32, tf32, f16, f16t, bf16t, \
                    f8t, i8t, dram, l2, l1, mem, l2m, units, mhz, tdp, src)        \
    {id, name, al, RFL_KIND_##kind,                                                \
     {(f32) * RFL__T, (f64) * RFL__T, (f16) * RFL__T, (f64t) * RFL__T,             \
      (tf32) * RFL__T, (f16t) * RFL__T, (bf16t) * RFL__T, (f8t) * RFL__T,          \
      (i8t) * RFL__T},                                                             \
     {(dram) * RFL__G, (l2) * RFL__G, (l1) * RFL__G},                              \
     (mem) * 1073741824.0, (l2m) * 1048576.0, units, mhz, tdp, src},
static const rfl_machine rfl__hw_table[] = {RFL_HW_TABLE(RFL__HW_ROW)};
#undef RFL__HW_ROW

RFL_API int rfl_hw_count(void) {
    return (int)(sizeof rfl__hw_table / sizeof rfl__hw_table[0]);
}
RFL_API const rfl_machine *rfl_hw_get(int i) {
    return (i >= 0 && i < rfl_hw_count()) ? &rfl__hw_table[i] : (const rfl_machine *)0;
}

/* Does the comma-separated list contain name (normalised compare)? */
static int rfl__alias_match(const char *list, const char *name) {
    char one[64];
    size_t n;
    while (list && *list) {
        n = 0;
        while (*list && *list != ',') {
            if (n + 1 < sizeof one) one[n++] = *list;
            list++;
        }
        one[n] = 0;
        if (rfl_name_eq(one, name)) return 1;
        if (*list == ',') list++;
    }
    return 0;
}

RFL_API rfl_result rfl_hw_find(const char *name, const rfl_machine **out) {
    int i, n = rfl_hw_count();
    if (!name || !out) return RFL_ERR_ARG;
    *out = 0;
    /* ids and names first, so an alias never shadows a full id */
    for (i = 0; i < n; i++)
        if (rfl_name_eq(rfl__hw_table[i].id, name) || rfl_name_eq(rfl__hw_table[i].name, name)) {
            *out = &rfl__hw_table[i];
            return RFL_OK;
        }
    for (i = 0; i < n; i++)
        if (rfl__alias_match(rfl__hw_table[i].aliases, name)) {
            *out = &rfl__hw_table[i];
            return RFL_OK;
        }
    return RFL_ERR_UNKNOWN_NAME;
}

/* Normalise (lower case, no separators) into a fixed buffer; returns length. */
static int rfl__norm(const char *s, size_t len, char *out, int cap) {
    int n = 0;
    size_t i;
    for (i = 0; i < len && s[i] && n < cap; i++) {
        char c = s[i];
        if (c == '-' || c == '_' || c == ' ' || c == '.') continue;
        out[n++] = (char)rfl__lower((unsigned char)c);
    }
    return n;
}

/* Edit distance with a substring bonus, on normalised strings of <= 48. */
static int rfl__name_dist(const char *q, int qn, const char *c, int cn) {
    int row[49], i, j, prev, tmp, best;
    for (j = 0; j <= cn; j++) row[j] = j;
    for (i = 1; i <= qn; i++) {
        prev = row[0];
        row[0] = i;
        for (j = 1; j <= cn; j++) {
            tmp = row[j];
            best = prev + (q[i - 1] != c[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            prev = tmp;
        }
    }
    best = row[cn] * 2;
    /* "mi300" inside "mi300x": a prefix/substring is a strong hint */
    for (i = 0; qn > 1 && i + qn <= cn; i++) {
        for (j = 0; j < qn && c[i + j] == q[j]; j++) {}
        if (j == qn) { best = 1; break; }
    }
    return best;
}

RFL_API int rfl_hw_suggest(const char *name, int n, char *buf, size_t size) {
    enum { MAXN = 8 };
    int bestd[MAXN], besti[MAXN], k = 0, i, j, nm = rfl_hw_count();
    char q[48], c[48];
    int qn, written = 0;
    size_t pos = 0;
    if (buf && size) buf[0] = 0;
    if (!name || n <= 0 || !buf || !size) return 0;
    if (n > MAXN) n = MAXN;
    qn = rfl__norm(name, (size_t)-1, q, 48);
    for (i = 0; i < nm; i++) {
        const rfl_machine *m = &rfl__hw_table[i];
        int d = rfl__name_dist(q, qn, c, rfl__norm(m->id, (size_t)-1, c, 48));
        const char *a = m->aliases;
        while (a && *a) { /* each alias */
            size_t l = 0;
            int e;
            while (a[l] && a[l] != ',') l++;
            e = rfl__name_dist(q, qn, c, rfl__norm(a, l, c, 48));
            if (e < d) d = e;
            a += l + (a[l] == ',');
        }
        /* insert into the sorted top-n */
        for (j = k; j > 0 && bestd[j - 1] > d; j--)
            if (j < n) { bestd[j] = bestd[j - 1]; besti[j] = besti[j - 1]; }
        if (j < n) {
            bestd[j] = d;
            besti[j] = i;
            if (k < n) k++;
        }
    }
    for (i = 0; i < k; i++) {
        const char *id = rfl__hw_table[besti[i]].id;
        size_t l = rfl__strlen(id) + (i ? 2 : 0);
        if (pos + l + 1 > size) break;
        if (i) { buf[pos++] = ','; buf[pos++] = ' '; }
        RFL_MEMCPY(buf + pos, id, rfl__strlen(id));
        pos += rfl__strlen(id);
        buf[pos] = 0;
        written++;
    }
    return written;
}
#else
RFL_API int rfl_hw_count(void) { return 0; }
RFL_API const rfl_machine *rfl_hw_get(int i) { (void)i; return (const rfl_machine *)0; }
RFL_API rfl_result rfl_hw_find(const char *name, const rfl_machine **out) {
    (void)name;
    if (out) *out = 0;
    return RFL_ERR_UNKNOWN_NAME;
}
RFL_API int rfl_hw_suggest(const char *name, int n, char *buf, size_t size) {
    (void)name, (void)n;
    if (buf && size) buf[0] = 0;
    return 0;
}
#endif /* RFL_NO_HW_TABLE */

RFL_API rfl_result rfl_machine_from_cpu(const rfl_cpu_desc *d, rfl_machine *out) {
    double sockets, lanes32, per_cycle, bpt;
    if (!d || !out) return RFL_ERR_ARG;
    if (d->cores <= 0 || d->simd_bits < 32 || d->simd_bits % 32 || d->fma_pipes <= 0 ||
        d->mem_channels <= 0 || d->sockets < 0 || d->bytes_per_transfer < 0 ||
        !rfl__isfinite(d->ghz) || d->ghz <= 0 || !rfl__isfinite(d->mts) || d->mts <= 0)
        return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    sockets = d->sockets ? d->sockets : 1;
    bpt = d->bytes_per_transfer ? d->bytes_per_transfer : 8;
    lanes32 = d->simd_bits / 32;
    /* FMA and separate add+mul pipes both retire 2 FLOPs per lane per cycle */
    per_cycle = lanes32 * d->fma_pipes * 2.0;
    out->id = d->id ? d->id : "custom-cpu";
    out->name = d->name ? d->name : out->id;
    out->aliases = "";
    out->kind = RFL_KIND_CPU;
    out->peak_flops[RFL_FP32] = sockets * d->cores * d->ghz * 1e9 * per_cycle;
    out->peak_flops[RFL_FP64] = out->peak_flops[RFL_FP32] / 2;
    if (d->fp16) out->peak_flops[RFL_FP16] = out->peak_flops[RFL_FP32] * 2;
    out->bw_bytes_per_s[RFL_DRAM] = sockets * d->mem_channels * d->mts * 1e6 * bpt;
    out->units = (int)sockets * d->cores;
    out->boost_mhz = d->ghz * 1000;
    out->source = "rfl_machine_from_cpu: sockets x cores x GHz x SIMD lanes x FMA pipes x 2; "
                  "sockets x channels x MT/s x bytes per transfer";
    return RFL_OK;
}

/* ---- roofline math ------------------------------------------------------- */
RFL_API double rfl_ridge(const rfl_machine *m, rfl_prec prec, rfl_level level) {
    double pk, bw;
    if (!m || (unsigned)prec >= RFL_PREC_COUNT || (unsigned)level >= RFL_LEVEL_COUNT) return 0;
    pk = m->peak_flops[prec];
    bw = m->bw_bytes_per_s[level];
    return (pk > 0 && bw > 0) ? pk / bw : 0;
}

RFL_API double rfl_attainable(const rfl_machine *m, rfl_prec prec, rfl_level level,
                              double ai) {
    double pk, mem;
    if (!m || (unsigned)prec >= RFL_PREC_COUNT || (unsigned)level >= RFL_LEVEL_COUNT) return 0;
    pk = m->peak_flops[prec];
    if (!(pk > 0) || !rfl__isfinite(ai) || ai < 0) return 0;
    if (!(m->bw_bytes_per_s[level] > 0)) return pk; /* no such ceiling: compute only */
    mem = ai * m->bw_bytes_per_s[level];
    return mem < pk ? mem : pk;
}

RFL_API double rfl_work_attainable(const rfl_machine *m, const rfl_work *w, rfl_prec prec,
                                   rfl_bound *bound) {
    double att;
    int l;
    rfl_bound b;
    b.memory = 0;
    b.prec = prec;
    b.level = RFL_DRAM;
    if (bound) *bound = b;
    if (!m || !w || (unsigned)prec >= RFL_PREC_COUNT || !(m->peak_flops[prec] > 0)) return 0;
    att = m->peak_flops[prec];
    for (l = 0; l < RFL_LEVEL_COUNT; l++) {
        double ai, bw = m->bw_bytes_per_s[l];
        if ((w->unknown & RFL_UNKNOWN_BYTES(l)) || !(w->bytes[l] > 0) || !(bw > 0)) continue;
        ai = rfl_work_ai(w, (rfl_level)l);
        if (ai * bw < att) {
            att = ai * bw;
            b.memory = 1;
            b.level = (rfl_level)l;
        }
    }
    if (bound) *bound = b;
    return att;
}

RFL_API rfl_result rfl_predict(const rfl_machine *m, const rfl_work *w, rfl_prediction *out) {
    int p, l;
    double worst = -1;
    if (!m || !w || !out) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    out->bound.prec = RFL_FP32;
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        double f = w->flops[p], t;
        if ((w->unknown & RFL_UNKNOWN_FLOPS(p)) || f == 0) continue;
        if (!rfl__isfinite(f) || f < 0) return RFL_ERR_NOT_FINITE;
        if (!(m->peak_flops[p] > 0)) return RFL_ERR_NO_ROOF;
        t = f / m->peak_flops[p];
        out->compute_s += t;
        if (t > worst) { worst = t; out->bound.prec = (rfl_prec)p; }
    }
    for (l = 0; l < RFL_LEVEL_COUNT; l++) {
        double b = w->bytes[l];
        if ((w->unknown & RFL_UNKNOWN_BYTES(l)) || b == 0) continue;
        if (!rfl__isfinite(b) || b < 0) return RFL_ERR_NOT_FINITE;
        if (!(m->bw_bytes_per_s[l] > 0)) {
            if (l == RFL_DRAM) return RFL_ERR_NO_ROOF; /* caches may be unpublished */
            continue;
        }
        out->level_s[l] = b / m->bw_bytes_per_s[l];
        if (out->level_s[l] > out->memory_s) {
            out->memory_s = out->level_s[l];
            out->bound.level = (rfl_level)l;
        }
    }
    out->bound.memory = out->memory_s > out->compute_s;
    out->time_s = out->bound.memory ? out->memory_s : out->compute_s;
    return RFL_OK;
}

RFL_API rfl_result rfl_roof_fraction(const rfl_machine *m, const rfl_work *w, rfl_prec prec,
                                     double *fraction) {
    double att;
    if (!m || !w || !fraction || (unsigned)prec >= RFL_PREC_COUNT) return RFL_ERR_ARG;
    *fraction = 0;
    if (!(m->peak_flops[prec] > 0)) return RFL_ERR_NO_ROOF;
    if ((w->unknown & RFL_UNKNOWN_TIME) || !(w->time_s > 0)) return RFL_ERR_NO_DATA;
    att = rfl_work_attainable(m, w, prec, (rfl_bound *)0);
    if (!(att > 0)) return RFL_ERR_NO_DATA;
    *fraction = rfl_work_flops(w) / w->time_s / att;
    return RFL_OK;
}

/* ---- numbers ---------------------------------------------------------------
   Our own formatting: deterministic on every IEEE-754 target (no printf,
   no libm), so the tools print bit-identical output on x86 and ARM. */
static double rfl__pow10(int k) {
    static const double t[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double r = 1;
    if (k < 0) return 1 / rfl__pow10(-k);
    while (k > 22) { r *= 1e22; k -= 22; }
    return r * t[k];
}

/* v * 10^k with a single rounding where the power is exact (|k| <= 22). */
static double rfl__scale10(double v, int k) {
    while (k > 22) { v *= 1e22; k -= 22; }
    while (k < -22) { v /= 1e22; k += 22; }
    return k >= 0 ? v * rfl__pow10(k) : v / rfl__pow10(-k);
}

/* v > 0 finite -> digits m (exactly sig digits, < 10^sig) and exponent e of
   the first digit: v ~= m * 10^(e - sig + 1). */
static void rfl__decompose(double v, int sig, uint64_t *m, int *e) {
    int ex = 0;
    double s;
    uint64_t lim = 1, mm;
    int i;
    for (i = 0; i < sig; i++) lim *= 10;
    /* estimate the exponent by binary steps (no log10) */
    while (v >= rfl__pow10(ex + 1) && ex < 400) ex++;
    while (v < rfl__pow10(ex) && ex > -400) ex--;
    s = rfl__scale10(v, sig - 1 - ex);
    mm = (uint64_t)(s + 0.5);
    if (mm >= lim) { mm = (mm + 5) / 10; ex++; }
    if (mm < lim / 10) { mm = lim / 10; } /* guards a round-down at the boundary */
    *m = mm;
    *e = ex;
}

static size_t rfl__put(char *buf, size_t size, size_t pos, char c) {
    if (pos + 1 < size) buf[pos] = c;
    return pos + 1;
}

RFL_API size_t rfl_fmt_u64(char *buf, size_t size, uint64_t v) {
    char tmp[24];
    size_t n = 0, i;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    if (!buf || n + 1 > size) { if (buf && size) buf[0] = 0; return 0; }
    for (i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return n;
}

/* Shared by rfl_fmt_num and rfl_fmt_si: digits m (sig of them, trailing zeros
   dropped) with the decimal point after `point` digits (may be <= 0). */
static size_t rfl__fmt_digits(char *buf, size_t size, size_t pos, uint64_t m, int sig,
                              int point) {
    char d[20];
    int n = 0, i;
    while (sig-- > 0) { d[sig] = (char)('0' + m % 10); m /= 10; n++; }
    while (n > 1 && d[n - 1] == '0' && n > point) n--;
    if (point <= 0) {
        pos = rfl__put(buf, size, pos, '0');
        pos = rfl__put(buf, size, pos, '.');
        for (i = point; i < 0; i++) pos = rfl__put(buf, size, pos, '0');
        for (i = 0; i < n; i++) pos = rfl__put(buf, size, pos, d[i]);
        return pos;
    }
    for (i = 0; i < n || i < point; i++) {
        if (i == point) pos = rfl__put(buf, size, pos, '.');
        pos = rfl__put(buf, size, pos, i < n ? d[i] : '0');
    }
    return pos;
}

static size_t rfl__finish(char *buf, size_t size, size_t pos) {
    if (!buf || pos + 1 > size) {
        if (buf && size) buf[0] = 0;
        return 0;
    }
    buf[pos] = 0;
    return pos;
}

static size_t rfl__fmt_special(char *buf, size_t size, double v, size_t *pos) {
    const char *s = 0;
    if (v != v) s = "nan";
    else if (v - v != 0.0) s = v > 0 ? "inf" : "-inf";
    if (!s) return 0;
    while (*s) *pos = rfl__put(buf, size, *pos, *s++);
    return 1;
}

RFL_API size_t rfl_fmt_num(char *buf, size_t size, double v, int sig) {
    size_t pos = 0;
    uint64_t m;
    int e;
    if (!buf) return 0;
    if (sig < 1) sig = 1;
    if (sig > 17) sig = 17;
    if (rfl__fmt_special(buf, size, v, &pos)) return rfl__finish(buf, size, pos);
    if (v < 0) { pos = rfl__put(buf, size, pos, '-'); v = -v; }
    if (v == 0) return rfl__finish(buf, size, rfl__put(buf, size, pos, '0'));
    /* exact integers print in full when they fit the requested digits */
    if (v < 9007199254740992.0 && v == (double)(uint64_t)v) {
        char t[24];
        size_t n = rfl_fmt_u64(t, sizeof t, (uint64_t)v), i;
        if ((int)n <= sig || sig >= 16) {
            for (i = 0; i < n; i++) pos = rfl__put(buf, size, pos, t[i]);
            return rfl__finish(buf, size, pos);
        }
    }
    rfl__decompose(v, sig, &m, &e);
    if (e < -5 || e >= 15) {
        char t[8];
        size_t n, i;
        int ae = e < 0 ? -e : e;
        pos = rfl__fmt_digits(buf, size, pos, m, sig, 1);
        pos = rfl__put(buf, size, pos, 'e');
        pos = rfl__put(buf, size, pos, e < 0 ? '-' : '+');
        n = rfl_fmt_u64(t, sizeof t, (uint64_t)ae);
        if (n < 2) pos = rfl__put(buf, size, pos, '0');
        for (i = 0; i < n; i++) pos = rfl__put(buf, size, pos, t[i]);
    } else {
        pos = rfl__fmt_digits(buf, size, pos, m, sig, e + 1);
    }
    return rfl__finish(buf, size, pos);
}

RFL_API size_t rfl_fmt_si(char *buf, size_t size, double v, int sig) {
    static const char pre[] = "yzafpnum kMGTPEZY"; /* index 8 = none */
    size_t pos = 0;
    uint64_t m;
    int e, e3, idx;
    if (!buf) return 0;
    if (sig < 1) sig = 1;
    if (sig > 17) sig = 17;
    if (rfl__fmt_special(buf, size, v, &pos)) return rfl__finish(buf, size, pos);
    if (v < 0) { pos = rfl__put(buf, size, pos, '-'); v = -v; }
    if (v == 0) {
        pos = rfl__put(buf, size, pos, '0');
        return rfl__finish(buf, size, rfl__put(buf, size, pos, ' '));
    }
    rfl__decompose(v, sig, &m, &e);
    e3 = (e >= 0 ? e / 3 : -((-e + 2) / 3)) * 3;
    idx = 8 + e3 / 3;
    /* beyond yotta: plain form; pos is 1 when a minus was written (v was negated) */
    if (idx < 0 || idx > 16) return rfl_fmt_num(buf, size, pos ? -v : v, sig);
    pos = rfl__fmt_digits(buf, size, pos, m, sig, e - e3 + 1);
    pos = rfl__put(buf, size, pos, ' ');
    if (idx != 8) pos = rfl__put(buf, size, pos, pre[idx]);
    return rfl__finish(buf, size, pos);
}

RFL_API rfl_result rfl_parse_num(const char *s, size_t len, double *out) {
    size_t i = 0;
    int neg = 0, digits = 0, exp10 = 0, eneg = 0, ev = 0, edig = 0;
    uint64_t m = 0;
    double v;
    if (!s || !out) return RFL_ERR_ARG;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        if (m < 1000000000000000000ull) m = m * 10 + (uint64_t)(s[i] - '0');
        else exp10++; /* digits beyond 19 only scale */
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
            if (m < 1000000000000000000ull) { m = m * 10 + (uint64_t)(s[i] - '0'); exp10--; }
    }
    if (!digits) return RFL_ERR_NUMBER;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, edig++)
            if (ev < 10000) ev = ev * 10 + (s[i] - '0');
        if (!edig) return RFL_ERR_NUMBER;
        exp10 += eneg ? -ev : ev;
    }
    if (i != len) return RFL_ERR_NUMBER;
    /* exact when m < 2^53 and |exp10| <= 22: one correctly rounded op */
    v = rfl__scale10((double)m, exp10);
    if (!rfl__isfinite(v)) return RFL_ERR_OVERFLOW;
    *out = neg ? -v : v;
    return RFL_OK;
}
