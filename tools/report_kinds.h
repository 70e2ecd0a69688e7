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

/* The layer type of a kernel, from its name. The order matters: the first
   rule that matches wins ("implicit_convolve_sgemm" is a convolution,
   "splitKreduce" belongs to a GEMM, "bn_fw" to a batch norm). */
static int rk_kernel_kind(const char *name) {
    static const struct { const char *key; int kind; } rules[] = {
        {"splitkreduce", RK_MATMUL},  {"splitk_reduce", RK_MATMUL},
        {"batch_norm", RK_NORM},      {"batchnorm", RK_NORM},
        {"bn_fw", RK_NORM},           {"bn_bw", RK_NORM},
        {"bn_", RK_NORM},             {"layer_norm", RK_NORM},
        {"layernorm", RK_NORM},       {"group_norm", RK_NORM},
        {"convolution", RK_CONV},     {"convolve", RK_CONV},
        {"conv2d", RK_CONV},          {"conv_", RK_CONV},
        {"_conv", RK_CONV},           {"implicit_gemm", RK_CONV},
        {"winograd", RK_CONV},        {"fft", RK_CONV},
        {"dgrad", RK_CONV},           {"wgrad", RK_CONV},
        {"fprop", RK_CONV},           {"cudnn", RK_CONV},
        {"gemm", RK_MATMUL},          {"gemv", RK_MATMUL},
        {"cutlass", RK_MATMUL},       {"matmul", RK_MATMUL},
        {"xmma", RK_MATMUL},          {"cublas", RK_MATMUL},
        {"internal::kernel<", RK_MATMUL}, /* cuBLAS's small-matrix kernels */
        {"pool", RK_POOL},
        {"softmax", RK_RED},          {"reduce", RK_RED},
        {"nll_loss", RK_RED},         {"cross_entropy", RK_RED},
        {"sum_kernel", RK_RED},       {"norm_kernel", RK_RED},
        {"copy", RK_COPY},            {"memcpy", RK_COPY},
        {"memset", RK_COPY},          {"cat_", RK_COPY},
        {"catarray", RK_COPY},        {"nchwtonhwc", RK_COPY},
        {"nhwctonchw", RK_COPY},      {"transpose", RK_COPY},
        {"elementwise", RK_ELEM},     {"relu", RK_ELEM},
        {"clamp", RK_ELEM},           {"add", RK_ELEM},
        {"mul", RK_ELEM},             {"dropout", RK_ELEM},
        {"fill", RK_ELEM},            {"scale", RK_ELEM},
        {"multi_tensor_apply", RK_ELEM}, /* the optimizer step */
        {"sgd", RK_ELEM},             {"adam", RK_ELEM}};
    size_t i;
    for (i = 0; i < sizeof rules / sizeof *rules; i++)
        if (rk_icontains(name, rules[i].key)) return rules[i].kind;
    return RK_OTHER;
}

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
