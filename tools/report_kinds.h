/* report_kinds.h - rfl-report's helpers: layer types shared by estimates
   and profiles (kernels are typed by name), and the profile's device name.
   Include after roofline.h and tool.h. */
#ifndef RFL_REPORT_KINDS_H
#define RFL_REPORT_KINDS_H

enum {
    RK_CONV = 0,
    RK_MATMUL,
    RK_NORM,
    RK_ELEM,
    RK_POOL,
    RK_RED,
    RK_COPY,
    RK_OTHER,
    RK_COUNT
};
static const char *const rk_kind_name[RK_COUNT] = {
    "convolution", "matrix product", "normalisation", "elementwise",
    "pooling",     "reduction",      "copy",          "other"};

/* Case-insensitive substring test. */
static int rk_icontains(const char *s, const char *sub) {
    size_t n = strlen(sub), i;
    if (!n) return 1;
    for (; *s; s++) {
        for (i = 0; i < n; i++) {
            char a = s[i], b = sub[i];
            if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
            if (!a || a != b) break;
        }
        if (i == n) return 1;
    }
    return 0;
}
static int rk_contains(const char *s, const char *sub) { return rk_icontains(s, sub); }

/* The estimate's layer groups in the same types. */
static int rk_ltype_kind(rfl_ltype t) {
    switch (t) {
    case RFL_LT_CONV: return RK_CONV;
    case RFL_LT_MATMUL: return RK_MATMUL;
    case RFL_LT_NORM: return RK_NORM;
    case RFL_LT_ELEMENTWISE: return RK_ELEM;
    case RFL_LT_POOL: return RK_POOL;
    case RFL_LT_REDUCTION: return RK_RED;
    case RFL_LT_DATA: return RK_COPY;
    default: return RK_OTHER;
    }
}

/* The layer type of a kernel, from its name: the library's class. */
static int rk_kernel_kind(const char *name) {
    return rk_ltype_kind(rfl_kclass_ltype(rfl_kclass_of(name)));
}

/* Measured work of one layer type: the sum of its kernels. */
typedef struct rk_acc {
    rfl_work w;
    uint64_t kernels;
} rk_acc;
static void rk_add(rk_acc *a, const rfl_kernel_stat *k) {
    if (!a->kernels) a->w = k->work;
    else rfl_work_add(&a->w, &k->work);
    a->kernels += k->invocations ? k->invocations : 1;
}

/* One CSV field of a line starting at p (quoted or not), copied into out.
   Returns the position after the field's delimiter, or NULL at the end of
   the line. */
static const char *rk_field(const char *p, const char *end, char *out, size_t n) {
    size_t k = 0;
    if (p >= end || *p == '\n' || *p == '\r') { if (n) out[0] = 0; return 0; }
    if (*p == '"') {
        p++;
        while (p < end) {
            if (*p == '"') {
                if (p + 1 < end && p[1] == '"') { if (k + 1 < n) out[k++] = '"'; p += 2; continue; }
                p++;
                break;
            }
            if (k + 1 < n) out[k++] = *p;
            p++;
        }
    } else {
        while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
            if (k + 1 < n) out[k++] = *p;
            p++;
        }
    }
    if (n) out[k] = 0;
    if (p < end && *p == ',') return p + 1;
    return 0;
}

static const char *rk_next_line(const char *p, const char *end) {
    int q = 0;
    for (; p < end; p++) {
        if (*p == '"') q = !q;
        else if (*p == '\n' && !q) return p + 1;
    }
    return end;
}

/* The profile's device name: the "device__attribute_display_name" column of
   the first kernel row of an ncu raw page ("NVIDIA H100 80GB HBM3"). The
   reducer does not keep text columns, so rfl-report reads it here. "" when
   the file has no such column (details page, nvprof). */
static void rk_device_name(const char *buf, size_t len, char *out, size_t n) {
    const char *p = buf, *end = buf + len, *q;
    char f[256];
    int col = -1, i;
    out[0] = 0;
    while (p < end && strncmp(p, "\"ID\",", 5) != 0) p = rk_next_line(p, end);
    if (p >= end) return;
    for (q = p, i = 0; q; i++) {
        q = rk_field(q, end, f, sizeof f);
        if (!strcmp(f, "device__attribute_display_name")) { col = i; break; }
    }
    if (col < 0) return;
    p = rk_next_line(p, end);
    while (p < end) { /* skip the units row (first field empty) */
        q = p;
        rk_field(q, end, f, sizeof f);
        if (f[0]) break;
        p = rk_next_line(p, end);
    }
    if (p >= end) return;
    for (q = p, i = 0; q && i < col; i++) q = rk_field(q, end, f, sizeof f);
    if (q) rk_field(q, end, out, n);
}
#endif
