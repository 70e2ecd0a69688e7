/* ---- layers part: implementation -------------------------------------------
   Per-sample counts are computed when a layer is added (64-bit, overflow
   checked); costs at a batch multiply them. Freestanding: no libc. */

/* ---- checked 64-bit arithmetic ------------------------------------------------ */
static RFL__UNUSED int rfl__ly_mul64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a && b > (uint64_t)-1 / a) return 0;
    *out = a * b;
    return 1;
}
static RFL__UNUSED int rfl__ly_add64(uint64_t a, uint64_t b, uint64_t *out) {
    if (b > (uint64_t)-1 - a) return 0;
    *out = a + b;
    return 1;
}
/* a * b * c * d, 0 on overflow (callers treat a 0 result with non-zero
   factors as overflow through the flag). */
static int rfl__ly_mul4(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t *out) {
    uint64_t t;
    return rfl__ly_mul64(a, b, &t) && rfl__ly_mul64(t, c, &t) && rfl__ly_mul64(t, d, out);
}

/* ---- names of things ----------------------------------------------------------- */
RFL_API const char *rfl_dtype_name(rfl_dtype d) {
    static const char *const n[RFL_DTYPE_COUNT] = {"fp32", "fp16", "bf16", "int8"};
    return ((unsigned)d < RFL_DTYPE_COUNT) ? n[d] : "?";
}
RFL_API int rfl_dtype_bytes(rfl_dtype d) {
    static const int b[RFL_DTYPE_COUNT] = {4, 2, 2, 1};
    return ((unsigned)d < RFL_DTYPE_COUNT) ? b[d] : 0;
}
RFL_API rfl_result rfl_dtype_parse(const char *name, rfl_dtype *out) {
    static const struct { const char *n; rfl_dtype d; } t[] = {
        {"fp32", RFL_DTYPE_FP32}, {"float32", RFL_DTYPE_FP32}, {"float", RFL_DTYPE_FP32},
        {"fp16", RFL_DTYPE_FP16}, {"float16", RFL_DTYPE_FP16}, {"half", RFL_DTYPE_FP16},
        {"bf16", RFL_DTYPE_BF16}, {"bfloat16", RFL_DTYPE_BF16}, {"int8", RFL_DTYPE_INT8}};
    int i;
    if (!name || !out) return RFL_ERR_ARG;
    for (i = 0; i < (int)(sizeof t / sizeof t[0]); i++)
        if (rfl_name_eq(name, t[i].n)) { *out = t[i].d; return RFL_OK; }
    return RFL_ERR_UNKNOWN_NAME;
}

static const char *const rfl__ly_op_names[RFL_OP_COUNT] = {
    "input", "param", "conv2d", "linear", "matmul", "attention", "batchnorm",
    "layernorm", "act", "softmax", "maxpool", "avgpool", "adaptive_avgpool", "add",
    "mul", "concat", "shuffle", "flatten", "reshape", "transpose", "slice", "dropout",
    "embedding", "mark"};
static const rfl_ltype rfl__ly_op_lt[RFL_OP_COUNT] = {
    RFL_LT_OTHER, RFL_LT_OTHER, RFL_LT_CONV, RFL_LT_MATMUL, RFL_LT_MATMUL, RFL_LT_MATMUL,
    RFL_LT_NORM, RFL_LT_NORM, RFL_LT_ELEMENTWISE, RFL_LT_REDUCTION, RFL_LT_POOL,
    RFL_LT_POOL, RFL_LT_POOL, RFL_LT_ELEMENTWISE, RFL_LT_ELEMENTWISE, RFL_LT_DATA,
    RFL_LT_DATA, RFL_LT_DATA, RFL_LT_DATA, RFL_LT_DATA, RFL_LT_DATA, RFL_LT_DATA,
    RFL_LT_EMBEDDING, RFL_LT_OTHER};
/* Torch class names (torchsummary rows) and per-element forward FLOPs of
   the activations; see the LAYERS section of the manual. */
static const char *const rfl__ly_act_names[RFL_ACT_COUNT] = {
    "relu", "relu6", "gelu", "silu", "hardswish", "hardsigmoid", "sigmoid", "tanh"};
static const char *const rfl__ly_act_cls[RFL_ACT_COUNT] = {
    "ReLU", "ReLU6", "GELU", "SiLU", "Hardswish", "Hardsigmoid", "Sigmoid", "Tanh"};
static const unsigned rfl__ly_act_flops[RFL_ACT_COUNT] = {1, 2, 5, 5, 5, 4, 4, 1};
static const char *const rfl__ly_lt_names[RFL_LT_COUNT] = {
    "conv", "matmul", "norm", "elementwise", "pool", "reduction", "embedding", "data",
    "other"};

RFL_API const char *rfl_op_name(rfl_op op) {
    return ((unsigned)op < RFL_OP_COUNT) ? rfl__ly_op_names[op] : "?";
}
RFL_API const char *rfl_act_name(rfl_act_kind a) {
    return ((unsigned)a < RFL_ACT_COUNT) ? rfl__ly_act_names[a] : "?";
}
RFL_API const char *rfl_ltype_name(rfl_ltype t) {
    return ((unsigned)t < RFL_LT_COUNT) ? rfl__ly_lt_names[t] : "?";
}
RFL_API rfl_ltype rfl_op_ltype(rfl_op op) {
    return ((unsigned)op < RFL_OP_COUNT) ? rfl__ly_op_lt[op] : RFL_LT_OTHER;
}

/* ---- the net ----------------------------------------------------------------------- */
RFL_API rfl_result rfl_net_init(rfl_net *net, rfl_layer *layers, int cap, char *names,
                                size_t names_size) {
    if (!net) return RFL_ERR_ARG;
    RFL_MEMSET(net, 0, sizeof *net);
    net->err_layer = -1;
    net->err_what = "";
    if (!layers || cap < 1) {
        net->err = RFL_ERR_ARG;
        return RFL_ERR_ARG;
    }
    net->layers = layers;
    net->cap = cap;
    net->names = names_size ? names : (char *)0;
    net->names_size = names ? names_size : 0;
    return RFL_OK;
}

/* Record the first error; always returns RFL_NO_TENSOR. */
static rfl_tensor rfl__ly_fail(rfl_net *net, rfl_result r, const char *what) {
    if (net && net->err == RFL_OK) {
        net->err = r;
        net->err_layer = net->count;
        net->err_what = what;
    }
    return RFL_NO_TENSOR;
}

RFL_API void rfl_scope_push(rfl_net *net, const char *part) {
    size_t n, need;
    if (!net || !part || net->err) return;
    n = rfl__strlen(part);
    need = net->scope_len + (net->scope_len ? 1 : 0) + n;
    if (need + 1 > sizeof net->scope) {
        rfl__ly_fail(net, RFL_ERR_BUFFER, "scope");
        return;
    }
    if (net->scope_len) net->scope[net->scope_len++] = '.';
    RFL_MEMCPY(net->scope + net->scope_len, part, n);
    net->scope_len += n;
    net->scope[net->scope_len] = 0;
}

RFL_API void rfl_scope_pushi(rfl_net *net, int index) {
    char b[24];
    if (index < 0) index = 0;
    rfl_fmt_u64(b, sizeof b, (uint64_t)index);
    rfl_scope_push(net, b);
}

RFL_API void rfl_scope_pop(rfl_net *net) {
    if (!net || net->err) return; /* after an error the scope says where */
    while (net->scope_len && net->scope[net->scope_len - 1] != '.') net->scope_len--;
    if (net->scope_len) net->scope_len--;
    net->scope[net->scope_len] = 0;
}

RFL_API rfl_tensor rfl_name(rfl_net *net, rfl_tensor t, const char *name) {
    size_t n, need, sep;
    char *dst;
    if (!net || net->err || t < 0 || t >= net->count || !name) return t;
    if (!net->names) { net->layers[t].name = name; return t; }
    n = rfl__strlen(name);
    sep = (net->scope_len && n) ? 1 : 0; /* "" names the layer by the scope */
    need = net->scope_len + sep + n + 1;
    if (need > net->names_size - net->names_used) return rfl__ly_fail(net, RFL_ERR_BUFFER, "names");
    dst = net->names + net->names_used;
    RFL_MEMCPY(dst, net->scope, net->scope_len);
    if (sep) dst[net->scope_len] = '.';
    RFL_MEMCPY(dst + net->scope_len + sep, name, n);
    dst[need - 1] = 0;
    net->names_used += need;
    net->layers[t].name = dst;
    return t;
}

/* Start a layer: checks the sticky error, room, and the input handles. */
static rfl_layer *rfl__ly_begin(rfl_net *net, rfl_op op, rfl_tensor a, rfl_tensor b, int ninputs) {
    rfl_layer *L;
    const char *what = rfl__ly_op_names[op];
    if (!net || net->err) return (rfl_layer *)0;
    if (!net->layers) { rfl__ly_fail(net, RFL_ERR_ARG, what); return (rfl_layer *)0; }
    if (op != RFL_OP_INPUT && net->count == 0) {
        rfl__ly_fail(net, RFL_ERR_ARG, what); /* the input comes first */
        return (rfl_layer *)0;
    }
    if ((ninputs > 0 && (a < 0 || a >= net->count)) ||
        (ninputs > 1 && (b < 0 || b >= net->count))) {
        rfl__ly_fail(net, RFL_ERR_ARG, what);
        return (rfl_layer *)0;
    }
    if (net->count >= net->cap) {
        rfl__ly_fail(net, RFL_ERR_BUFFER, what);
        return (rfl_layer *)0;
    }
    L = &net->layers[net->count];
    RFL_MEMSET(L, 0, sizeof *L);
    L->op = (uint8_t)op;
    L->in[0] = ninputs > 0 ? a : RFL_NO_TENSOR;
    L->in[1] = ninputs > 1 ? b : RFL_NO_TENSOR;
    if (ninputs > 0) L->needs_grad = net->layers[a].needs_grad;
    if (ninputs > 1 && net->layers[b].needs_grad) L->needs_grad = 1;
    return L;
}

/* Finish a layer: its output numel from the shape, grads, the index. */
static rfl_tensor rfl__ly_commit(rfl_net *net, rfl_layer *L) {
    uint64_t n = 1;
    int i;
    const char *what = rfl__ly_op_names[L->op];
    if (L->rank < 1 || L->rank > RFL_MAX_RANK) return rfl__ly_fail(net, RFL_ERR_SHAPE, what);
    for (i = 0; i < L->rank; i++) {
        if (L->shape[i] == 0) return rfl__ly_fail(net, RFL_ERR_SHAPE, what);
        if (!rfl__ly_mul64(n, L->shape[i], &n)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, what);
    }
    L->out_numel = n;
    if (L->params) {
        if (!L->needs_grad) L->flags |= RFL_LF_NOGRAD; /* weights only */
        L->needs_grad = 1;
    }
    return net->count++;
}

static const rfl_layer *rfl__ly_in(const rfl_net *net, rfl_tensor t) { return &net->layers[t]; }

/* Copy the shape of t into L. */
static void rfl__ly_same_shape(rfl_layer *L, const rfl_layer *x) {
    int i;
    L->rank = x->rank;
    for (i = 0; i < RFL_MAX_RANK; i++) L->shape[i] = x->shape[i];
}

/* u64 -> u32 dim, 0 when it does not fit (then commit reports a shape error
   unless the caller reports overflow first). */
static int rfl__ly_dim(uint64_t v, uint32_t *out) {
    if (v > 0xFFFFFFFFu) return 0;
    *out = (uint32_t)v;
    return 1;
}

static rfl_tensor rfl__ly_shape3(rfl_net *net, rfl_op op, uint32_t d0, uint32_t d1, uint32_t d2,
                              int shared) {
    rfl_layer *L = rfl__ly_begin(net, op, 0, 0, 0);
    if (!L) return RFL_NO_TENSOR;
    if (op == RFL_OP_INPUT && net->count != 0) return rfl__ly_fail(net, RFL_ERR_ARG, "input");
    if (!d0 || (!d1 && d2)) return rfl__ly_fail(net, RFL_ERR_SHAPE, rfl__ly_op_names[op]);
    L->shape[0] = d0, L->shape[1] = d1, L->shape[2] = d2;
    L->rank = (uint8_t)(d2 ? 3 : d1 ? 2 : 1);
    if (shared) {
        uint64_t n;
        if (!rfl__ly_mul4(d0, d1 ? d1 : 1, d2 ? d2 : 1, 1, &n))
            return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "param");
        L->params = n;
        L->flags = RFL_LF_SHARED;
    }
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_input(rfl_net *net, uint32_t d0, uint32_t d1, uint32_t d2) {
    return rfl__ly_shape3(net, RFL_OP_INPUT, d0, d1, d2, 0);
}
RFL_API rfl_tensor rfl_param(rfl_net *net, uint32_t d0, uint32_t d1, uint32_t d2) {
    return rfl__ly_shape3(net, RFL_OP_PARAM, d0, d1, d2, 1);
}

RFL_API rfl_tensor rfl_conv_ex(rfl_net *net, rfl_tensor x, const rfl_conv_desc *d) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_CONV2D, x, 0, 1);
    const rfl_layer *X;
    uint64_t C, H, W, kh, kw, sh, sw, ph, pw, dh, dw, g, co, eh, ew, oh, ow, cin_g, t;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    if (!d || X->rank != 3) return rfl__ly_fail(net, RFL_ERR_SHAPE, "conv2d");
    C = X->shape[0], H = X->shape[1], W = X->shape[2];
    kh = d->kernel_h;
    kw = d->kernel_w ? d->kernel_w : kh;
    sh = d->stride_h ? d->stride_h : 1;
    sw = d->stride_w ? d->stride_w : sh;
    dh = d->dilation_h ? d->dilation_h : 1;
    dw = d->dilation_w ? d->dilation_w : dh;
    ph = d->pad_h;
    pw = d->kernel_w ? d->pad_w : ph;
    if (!d->kernel_w) sw = sh, dw = dh;
    g = d->groups ? d->groups : 1;
    co = d->out_channels;
    if (!co || !kh || !kw || C % g || co % g) return rfl__ly_fail(net, RFL_ERR_SHAPE, "conv2d");
    /* effective extent of a dilated kernel; all terms < 2^34, no overflow */
    eh = dh * (kh - 1) + 1;
    ew = dw * (kw - 1) + 1;
    if (H + 2 * ph < eh || W + 2 * pw < ew) return rfl__ly_fail(net, RFL_ERR_SHAPE, "conv2d");
    oh = (H + 2 * ph - eh) / sh + 1;
    ow = (W + 2 * pw - ew) / sw + 1;
    L->rank = 3;
    L->shape[0] = (uint32_t)co;
    if (!rfl__ly_dim(oh, &L->shape[1]) || !rfl__ly_dim(ow, &L->shape[2]))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "conv2d");
    cin_g = C / g;
    /* params = co x cin/g x kh x kw (+ co); mac = 2 x that x oh x ow */
    if (!rfl__ly_mul4(co, cin_g, kh, kw, &t)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "conv2d");
    L->params = t;
    if (!rfl__ly_mul4(t, oh, ow, 2, &L->mac_flops)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "conv2d");
    L->flops = L->mac_flops;
    if (d->bias) {
        uint64_t b;
        L->flags |= RFL_LF_BIAS;
        if (!rfl__ly_add64(L->params, co, &L->params) || !rfl__ly_mul4(co, oh, ow, 1, &b) ||
            !rfl__ly_add64(L->flops, b, &L->flops))
            return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "conv2d");
    }
    L->in_numel = X->out_numel;
    L->flags |= RFL_LF_MODULE;
    L->arg[0] = (uint32_t)kh, L->arg[1] = (uint32_t)kw, L->arg[2] = (uint32_t)sh;
    L->arg[3] = (uint32_t)g;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_conv(rfl_net *net, rfl_tensor x, uint32_t out_channels, uint32_t kernel,
                            uint32_t stride, uint32_t pad) {
    rfl_conv_desc d;
    RFL_MEMSET(&d, 0, sizeof d);
    d.out_channels = out_channels;
    d.kernel_h = kernel;
    d.stride_h = stride;
    d.pad_h = pad;
    return rfl_conv_ex(net, x, &d);
}

RFL_API rfl_tensor rfl_linear(rfl_net *net, rfl_tensor x, uint32_t out_features, int bias) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_LINEAR, x, 0, 1);
    const rfl_layer *X;
    uint64_t in, tokens, t;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    if (!out_features) return rfl__ly_fail(net, RFL_ERR_SHAPE, "linear");
    in = X->shape[X->rank - 1];
    tokens = X->out_numel / in;
    rfl__ly_same_shape(L, X);
    L->shape[L->rank - 1] = out_features;
    if (!rfl__ly_mul64(in, out_features, &t)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "linear");
    L->params = t;
    if (!rfl__ly_mul4(t, tokens, 2, 1, &L->mac_flops)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "linear");
    L->flops = L->mac_flops;
    if (bias) {
        L->flags |= RFL_LF_BIAS;
        if (!rfl__ly_add64(L->params, out_features, &L->params) ||
            !rfl__ly_mul64(tokens, out_features, &L->bias_flops) ||
            !rfl__ly_add64(L->flops, L->bias_flops, &L->flops))
            return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "linear");
    }
    L->in_numel = X->out_numel;
    L->flags |= RFL_LF_MODULE;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_matmul(rfl_net *net, rfl_tensor a, rfl_tensor b) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_MATMUL, a, b, 2);
    const rfl_layer *A, *B;
    uint64_t M, K, N, lead;
    int i, r;
    if (!L) return RFL_NO_TENSOR;
    A = rfl__ly_in(net, a), B = rfl__ly_in(net, b);
    r = A->rank;
    if (r < 2 || B->rank != r || A->shape[r - 1] != B->shape[r - 2])
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "matmul");
    for (i = 0; i < r - 2; i++)
        if (A->shape[i] != B->shape[i]) return rfl__ly_fail(net, RFL_ERR_SHAPE, "matmul");
    M = A->shape[r - 2], K = A->shape[r - 1], N = B->shape[r - 1];
    rfl__ly_same_shape(L, A);
    L->shape[r - 1] = (uint32_t)N;
    lead = A->out_numel / (M * K);
    if (!rfl__ly_mul4(lead, M, N, K, &L->mac_flops) || !rfl__ly_mul64(L->mac_flops, 2, &L->mac_flops) ||
        !rfl__ly_add64(A->out_numel, B->out_numel, &L->in_numel))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "matmul");
    L->flops = L->mac_flops;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_attention(rfl_net *net, rfl_tensor q, rfl_tensor k, rfl_tensor v,
                                 uint32_t heads) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_ATTENTION, q, k, 2);
    const rfl_layer *Q, *K, *V;
    uint64_t lq, lk, d, dv, s, m1, m2, sc;
    if (!L) return RFL_NO_TENSOR;
    if (v < 0 || v >= net->count) return rfl__ly_fail(net, RFL_ERR_ARG, "attention");
    Q = rfl__ly_in(net, q), K = rfl__ly_in(net, k), V = rfl__ly_in(net, v);
    if (V->needs_grad) L->needs_grad = 1;
    if (Q->rank != 2 || K->rank != 2 || V->rank != 2 || !heads)
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "attention");
    lq = Q->shape[0], d = Q->shape[1], lk = K->shape[0], dv = V->shape[1];
    if (K->shape[1] != d || V->shape[0] != lk || d % heads || dv % heads)
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "attention");
    L->rank = 2;
    L->shape[0] = (uint32_t)lq, L->shape[1] = (uint32_t)dv;
    /* q k^T: 2 lq lk d; probabilities x v: 2 lq lk dv; the scores get a
       scale (1) and a softmax (5) per element, per head */
    if (!rfl__ly_mul4(lq, lk, d, 2, &m1) || !rfl__ly_mul4(lq, lk, dv, 2, &m2) ||
        !rfl__ly_add64(m1, m2, &L->mac_flops) || !rfl__ly_mul4(lq, lk, heads, 6, &sc) ||
        !rfl__ly_add64(L->mac_flops, sc, &L->flops) ||
        !rfl__ly_add64(Q->out_numel, K->out_numel, &s) || !rfl__ly_add64(s, V->out_numel, &L->in_numel))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "attention");
    L->arg[0] = heads;
    return rfl__ly_commit(net, L);
}

/* Elementwise one-input layers: per-element FLOPs, params per channel. */
static rfl_tensor rfl__ly_unary(rfl_net *net, rfl_op op, rfl_tensor x, unsigned per_elem,
                             uint64_t params, unsigned flags, uint32_t arg0) {
    rfl_layer *L = rfl__ly_begin(net, op, x, 0, 1);
    const rfl_layer *X;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    rfl__ly_same_shape(L, X);
    if (!rfl__ly_mul64(X->out_numel, per_elem, &L->flops))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, rfl__ly_op_names[op]);
    L->params = params;
    L->in_numel = (flags & RFL_LF_VIEW) ? 0 : X->out_numel;
    L->flags = (uint8_t)flags;
    L->arg[0] = arg0;
    return rfl__ly_commit(net, L);
}

/* 1 when x names an existing layer of a net without error. */
static int rfl__ly_valid(const rfl_net *net, rfl_tensor x) {
    return net && !net->err && net->layers && x >= 0 && x < net->count;
}
RFL_API rfl_tensor rfl_batchnorm(rfl_net *net, rfl_tensor x) {
    uint64_t c = rfl__ly_valid(net, x) ? net->layers[x].shape[0] : 0;
    return rfl__ly_unary(net, RFL_OP_BATCHNORM, x, 4, 2 * c, RFL_LF_MODULE, 0);
}
RFL_API rfl_tensor rfl_layernorm(rfl_net *net, rfl_tensor x) {
    uint64_t c = rfl__ly_valid(net, x) ? net->layers[x].shape[net->layers[x].rank - 1] : 0;
    return rfl__ly_unary(net, RFL_OP_LAYERNORM, x, 8, 2 * c, RFL_LF_MODULE, 0);
}
RFL_API rfl_tensor rfl_act(rfl_net *net, rfl_tensor x, rfl_act_kind kind) {
    if ((unsigned)kind >= RFL_ACT_COUNT) return rfl__ly_fail(net, RFL_ERR_ARG, "act");
    return rfl__ly_unary(net, RFL_OP_ACT, x, rfl__ly_act_flops[kind], 0, RFL_LF_MODULE,
                      (uint32_t)kind);
}
RFL_API rfl_tensor rfl_softmax(rfl_net *net, rfl_tensor x) {
    return rfl__ly_unary(net, RFL_OP_SOFTMAX, x, 5, 0, RFL_LF_MODULE, 0);
}
RFL_API rfl_tensor rfl_dropout(rfl_net *net, rfl_tensor x) {
    return rfl__ly_unary(net, RFL_OP_DROPOUT, x, 0, 0, RFL_LF_MODULE, 0);
}
RFL_API rfl_tensor rfl_flatten(rfl_net *net, rfl_tensor x) {
    rfl_tensor t = rfl__ly_unary(net, RFL_OP_FLATTEN, x, 0, 0, RFL_LF_VIEW, 0);
    rfl_layer *L;
    if (t < 0) return t;
    L = &net->layers[t];
    if (L->out_numel > 0xFFFFFFFFu) {
        net->count--;
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "flatten");
    }
    L->rank = 1;
    L->shape[0] = (uint32_t)L->out_numel;
    L->shape[1] = L->shape[2] = L->shape[3] = 0;
    return t;
}
RFL_API rfl_tensor rfl_mark(rfl_net *net, rfl_tensor x, const char *cls) {
    rfl_tensor t = rfl__ly_unary(net, RFL_OP_MARK, x, 0, 0, RFL_LF_VIEW | RFL_LF_MODULE, 0);
    if (t >= 0) net->layers[t].cls = cls ? cls : "Module";
    return t;
}
RFL_API rfl_tensor rfl_shuffle(rfl_net *net, rfl_tensor x, uint32_t groups) {
    if (rfl__ly_valid(net, x) &&
        (net->layers[x].rank != 3 || !groups || net->layers[x].shape[0] % groups))
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "shuffle");
    return rfl__ly_unary(net, RFL_OP_SHUFFLE, x, 0, 0, 0, groups);
}

/* Output size of a pooling window along one dim, torch's rule. */
static int rfl__ly_pool_out(uint64_t n, uint64_t k, uint64_t s, uint64_t p, int ceil_mode,
                         uint64_t *out) {
    uint64_t span, o;
    if (!k || !s || 2 * p > k || n + 2 * p < k) return 0;
    span = n + 2 * p - k;
    o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    /* ceil mode: the last window must start inside the input or left pad */
    if (ceil_mode && (o - 1) * s >= n + p) o--;
    *out = o;
    return 1;
}

static rfl_tensor rfl__ly_pool(rfl_net *net, rfl_op op, rfl_tensor x, uint32_t kernel,
                            uint32_t stride, uint32_t pad, int ceil_mode) {
    rfl_layer *L = rfl__ly_begin(net, op, x, 0, 1);
    const rfl_layer *X;
    uint64_t oh, ow, s = stride ? stride : kernel;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    if (X->rank != 3 || !rfl__ly_pool_out(X->shape[1], kernel, s, pad, ceil_mode, &oh) ||
        !rfl__ly_pool_out(X->shape[2], kernel, s, pad, ceil_mode, &ow))
        return rfl__ly_fail(net, RFL_ERR_SHAPE, rfl__ly_op_names[op]);
    L->rank = 3;
    L->shape[0] = X->shape[0];
    if (!rfl__ly_dim(oh, &L->shape[1]) || !rfl__ly_dim(ow, &L->shape[2]))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, rfl__ly_op_names[op]);
    /* one FLOP per window element (compare, or add; the divide replaces the
       first add) */
    if (!rfl__ly_mul4(X->shape[0], oh, ow, (uint64_t)kernel * kernel, &L->flops))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, rfl__ly_op_names[op]);
    L->in_numel = X->out_numel;
    L->flags = (uint8_t)(RFL_LF_MODULE | (ceil_mode ? RFL_LF_CEIL : 0));
    L->arg[0] = kernel, L->arg[1] = kernel, L->arg[2] = (uint32_t)s, L->arg[3] = pad;
    return rfl__ly_commit(net, L);
}
RFL_API rfl_tensor rfl_maxpool(rfl_net *net, rfl_tensor x, uint32_t kernel, uint32_t stride,
                               uint32_t pad, int ceil_mode) {
    return rfl__ly_pool(net, RFL_OP_MAXPOOL, x, kernel, stride, pad, ceil_mode);
}
RFL_API rfl_tensor rfl_avgpool(rfl_net *net, rfl_tensor x, uint32_t kernel, uint32_t stride,
                               uint32_t pad, int ceil_mode) {
    return rfl__ly_pool(net, RFL_OP_AVGPOOL, x, kernel, stride, pad, ceil_mode);
}

/* Sum of torch's adaptive window sizes along one dim: window i covers
   [floor(i n / o), ceil((i + 1) n / o)). */
static uint64_t rfl__ly_adaptive_sum(uint64_t n, uint64_t o) {
    uint64_t i, s = 0;
    for (i = 0; i < o; i++) s += ((i + 1) * n + o - 1) / o - (i * n) / o;
    return s;
}

RFL_API rfl_tensor rfl_adaptive_avgpool(rfl_net *net, rfl_tensor x, uint32_t out_h,
                                        uint32_t out_w) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_ADAPTIVE_AVGPOOL, x, 0, 1);
    const rfl_layer *X;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    /* the window loop is bounded: outputs up to 2^16 per side */
    if (X->rank != 3 || !out_h || !out_w || out_h > 65536u || out_w > 65536u)
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "adaptive_avgpool");
    L->rank = 3;
    L->shape[0] = X->shape[0], L->shape[1] = out_h, L->shape[2] = out_w;
    if (!rfl__ly_mul4(X->shape[0], rfl__ly_adaptive_sum(X->shape[1], out_h),
                   rfl__ly_adaptive_sum(X->shape[2], out_w), 1, &L->flops))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "adaptive_avgpool");
    L->in_numel = X->out_numel;
    L->flags = RFL_LF_MODULE;
    L->arg[0] = out_h, L->arg[1] = out_w;
    return rfl__ly_commit(net, L);
}

static rfl_tensor rfl__ly_binary(rfl_net *net, rfl_op op, rfl_tensor a, rfl_tensor b) {
    rfl_layer *L = rfl__ly_begin(net, op, a, b, 2);
    const rfl_layer *A, *B;
    int i;
    if (!L) return RFL_NO_TENSOR;
    A = rfl__ly_in(net, a), B = rfl__ly_in(net, b);
    if (A->rank != B->rank) return rfl__ly_fail(net, RFL_ERR_SHAPE, rfl__ly_op_names[op]);
    for (i = 0; i < A->rank; i++)
        if (B->shape[i] != A->shape[i] && B->shape[i] != 1)
            return rfl__ly_fail(net, RFL_ERR_SHAPE, rfl__ly_op_names[op]);
    rfl__ly_same_shape(L, A);
    L->flops = A->out_numel;
    if (!rfl__ly_add64(A->out_numel, B->out_numel, &L->in_numel))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, rfl__ly_op_names[op]);
    return rfl__ly_commit(net, L);
}
RFL_API rfl_tensor rfl_add(rfl_net *net, rfl_tensor a, rfl_tensor b) {
    return rfl__ly_binary(net, RFL_OP_ADD, a, b);
}
RFL_API rfl_tensor rfl_mul(rfl_net *net, rfl_tensor a, rfl_tensor b) {
    return rfl__ly_binary(net, RFL_OP_MUL, a, b);
}

RFL_API rfl_tensor rfl_concat(rfl_net *net, const rfl_tensor *xs, int n, int dim) {
    rfl_layer *L;
    const rfl_layer *X0;
    uint64_t along = 0, in = 0;
    int i, j;
    if (!net || net->err) return RFL_NO_TENSOR;
    if (!xs || n < 1) return rfl__ly_fail(net, RFL_ERR_ARG, "concat");
    for (i = 0; i < n; i++)
        if (xs[i] < 0 || xs[i] >= net->count) return rfl__ly_fail(net, RFL_ERR_ARG, "concat");
    L = rfl__ly_begin(net, RFL_OP_CONCAT, xs[0], n > 1 ? xs[1] : 0, n > 1 ? 2 : 1);
    if (!L) return RFL_NO_TENSOR;
    X0 = rfl__ly_in(net, xs[0]);
    if (dim < 0 || dim >= X0->rank) return rfl__ly_fail(net, RFL_ERR_SHAPE, "concat");
    for (i = 0; i < n; i++) {
        const rfl_layer *X = rfl__ly_in(net, xs[i]);
        if (X->rank != X0->rank) return rfl__ly_fail(net, RFL_ERR_SHAPE, "concat");
        for (j = 0; j < X->rank; j++)
            if (j != dim && X->shape[j] != X0->shape[j]) return rfl__ly_fail(net, RFL_ERR_SHAPE, "concat");
        along += X->shape[dim]; /* n x 2^32 cannot overflow with n < 2^31 */
        if (!rfl__ly_add64(in, X->out_numel, &in)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "concat");
        if (X->needs_grad) L->needs_grad = 1;
    }
    rfl__ly_same_shape(L, X0);
    if (!rfl__ly_dim(along, &L->shape[dim])) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "concat");
    L->in_numel = in;
    L->arg[0] = (uint32_t)n, L->arg[1] = (uint32_t)dim;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_reshape(rfl_net *net, rfl_tensor x, uint32_t d0, uint32_t d1,
                               uint32_t d2, uint32_t d3) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_RESHAPE, x, 0, 1);
    uint32_t d[4];
    int r = 0, i;
    uint64_t n = 1;
    if (!L) return RFL_NO_TENSOR;
    d[0] = d0, d[1] = d1, d[2] = d2, d[3] = d3;
    while (r < 4 && d[r]) r++;
    for (i = r; i < 4; i++)
        if (d[i]) return rfl__ly_fail(net, RFL_ERR_SHAPE, "reshape");
    for (i = 0; i < r; i++)
        if (!rfl__ly_mul64(n, d[i], &n)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "reshape");
    if (!r || n != rfl__ly_in(net, x)->out_numel) return rfl__ly_fail(net, RFL_ERR_SHAPE, "reshape");
    L->rank = (uint8_t)r;
    for (i = 0; i < 4; i++) L->shape[i] = d[i];
    L->flags = RFL_LF_VIEW;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_transpose(rfl_net *net, rfl_tensor x, int dim_a, int dim_b) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_TRANSPOSE, x, 0, 1);
    const rfl_layer *X;
    uint32_t t;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    if (dim_a < 0 || dim_b < 0 || dim_a >= X->rank || dim_b >= X->rank)
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "transpose");
    rfl__ly_same_shape(L, X);
    t = L->shape[dim_a], L->shape[dim_a] = L->shape[dim_b], L->shape[dim_b] = t;
    L->in_numel = X->out_numel;
    L->arg[0] = (uint32_t)dim_a, L->arg[1] = (uint32_t)dim_b;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_slice(rfl_net *net, rfl_tensor x, int dim, uint32_t start, uint32_t len) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_SLICE, x, 0, 1);
    const rfl_layer *X;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, x);
    if (dim < 0 || dim >= X->rank || !len || (uint64_t)start + len > X->shape[dim])
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "slice");
    rfl__ly_same_shape(L, X);
    L->shape[dim] = len;
    L->flags = RFL_LF_VIEW;
    L->arg[0] = (uint32_t)dim, L->arg[1] = start;
    return rfl__ly_commit(net, L);
}

RFL_API rfl_tensor rfl_embedding(rfl_net *net, rfl_tensor ids, uint32_t vocab, uint32_t dim) {
    rfl_layer *L = rfl__ly_begin(net, RFL_OP_EMBEDDING, ids, 0, 1);
    const rfl_layer *X;
    if (!L) return RFL_NO_TENSOR;
    X = rfl__ly_in(net, ids);
    if (X->rank != 1 || !vocab || !dim) return rfl__ly_fail(net, RFL_ERR_SHAPE, "embedding");
    L->rank = 2;
    L->shape[0] = X->shape[0], L->shape[1] = dim;
    L->params = (uint64_t)vocab * dim;
    L->in_numel = X->out_numel;
    L->flags = RFL_LF_MODULE;
    L->needs_grad = 0; /* ids carry no gradient; the table does (commit) */
    return rfl__ly_commit(net, L);
}

/* ---- names for tables ------------------------------------------------------------- */
RFL_API const char *rfl_layer_class(const rfl_net *net, int i) {
    const rfl_layer *L;
    if (!net || i < 0 || i >= net->count) return "?";
    L = &net->layers[i];
    if (L->cls) return L->cls; /* a mark's class, or one a model set */
    if (!(L->flags & RFL_LF_MODULE)) { /* functional calls: torch.nn.functional names */
        if (L->op == RFL_OP_ACT) return rfl_act_name((rfl_act_kind)L->arg[0]);
        if (L->op == RFL_OP_ADAPTIVE_AVGPOOL) return "adaptive_avg_pool2d";
        if (L->op == RFL_OP_LINEAR) return "linear";
    }
    switch ((rfl_op)L->op) {
    case RFL_OP_INPUT: return "Input";
    case RFL_OP_PARAM: return "Parameter";
    case RFL_OP_CONV2D: return "Conv2d";
    case RFL_OP_LINEAR: return "Linear";
    case RFL_OP_MATMUL: return "matmul";
    case RFL_OP_ATTENTION: return "attention";
    case RFL_OP_BATCHNORM: return L->rank == 3 ? "BatchNorm2d" : "BatchNorm1d";
    case RFL_OP_LAYERNORM: return "LayerNorm";
    case RFL_OP_ACT: return L->arg[0] < RFL_ACT_COUNT ? rfl__ly_act_cls[L->arg[0]] : "?";
    case RFL_OP_SOFTMAX: return "Softmax";
    case RFL_OP_MAXPOOL: return "MaxPool2d";
    case RFL_OP_AVGPOOL: return "AvgPool2d";
    case RFL_OP_ADAPTIVE_AVGPOOL: return "AdaptiveAvgPool2d";
    case RFL_OP_ADD: return "add";
    case RFL_OP_MUL: return "mul";
    case RFL_OP_CONCAT: return "cat";
    case RFL_OP_SHUFFLE: return "channel_shuffle";
    case RFL_OP_FLATTEN: return (L->flags & RFL_LF_MODULE) ? "Flatten" : "flatten";
    case RFL_OP_RESHAPE: return "reshape";
    case RFL_OP_TRANSPOSE: return "transpose";
    case RFL_OP_SLICE: return "slice";
    case RFL_OP_DROPOUT: return "Dropout";
    case RFL_OP_EMBEDDING: return "Embedding";
    case RFL_OP_MARK: return L->cls ? L->cls : "Module";
    case RFL_OP_COUNT: break;
    }
    return "?";
}

static size_t rfl__ly_cat(char *buf, size_t size, size_t pos, const char *s) {
    while (*s) {
        if (pos + 1 < size) buf[pos] = *s;
        pos++, s++;
    }
    return pos;
}

RFL_API size_t rfl_layer_label(const rfl_net *net, int i, char *buf, size_t size) {
    char num[24];
    size_t pos = 0;
    int j, ord = 0;
    if (!buf || !size) return 0;
    buf[0] = 0;
    if (!net || i < 0 || i >= net->count) return 0;
    /* modules: their ordinal among the rows (torchsummary's numbering);
       functional layers: their layer index */
    if (net->layers[i].flags & RFL_LF_MODULE) {
        for (j = 0; j <= i; j++) ord += (net->layers[j].flags & RFL_LF_MODULE) != 0;
    } else {
        ord = i;
    }
    pos = rfl__ly_cat(buf, size, 0, rfl_layer_class(net, i));
    rfl_fmt_u64(num, sizeof num, (uint64_t)ord);
    pos = rfl__ly_cat(buf, size, pos, "-");
    pos = rfl__ly_cat(buf, size, pos, num);
    if (pos + 1 > size) { buf[0] = 0; return 0; }
    buf[pos] = 0;
    return pos;
}

RFL_API size_t rfl_layer_shape_str(const rfl_net *net, int i, uint64_t batch, char *buf,
                                   size_t size) {
    char num[24];
    size_t pos = 0;
    int j;
    const rfl_layer *L;
    if (!buf || !size) return 0;
    buf[0] = 0;
    if (!net || i < 0 || i >= net->count) return 0;
    L = &net->layers[i];
    pos = rfl__ly_cat(buf, size, pos, "[");
    if (batch) rfl_fmt_u64(num, sizeof num, batch);
    pos = rfl__ly_cat(buf, size, pos, batch ? num : "-1");
    for (j = 0; j < L->rank; j++) {
        rfl_fmt_u64(num, sizeof num, L->shape[j]);
        pos = rfl__ly_cat(buf, size, pos, ", ");
        pos = rfl__ly_cat(buf, size, pos, num);
    }
    pos = rfl__ly_cat(buf, size, pos, "]");
    if (pos + 1 > size) { buf[0] = 0; return 0; }
    buf[pos] = 0;
    return pos;
}

/* ---- costs ------------------------------------------------------------------------
   The formulas; the manual's LAYERS section says the same in words. */
RFL_API rfl_result rfl_layer_cost_get(const rfl_net *net, int i, const rfl_cost_desc *d,
                                      rfl_layer_cost *out) {
    const rfl_layer *L;
    uint64_t B, s, pb, in = 0, o = 0, w, fm = 0, ff = 0, ext = 0, t = 0, ig, rd = 0, wr = 0;
    int ok = 1, train;
    rfl_op op;
    if (!net || !out || i < 0 || i >= net->count || !net->layers) return RFL_ERR_ARG;
    if (d && (unsigned)d->dtype >= RFL_DTYPE_COUNT) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    L = &net->layers[i];
    op = (rfl_op)L->op;
    B = (d && d->batch) ? d->batch : 1;
    s = (uint64_t)rfl_dtype_bytes(d ? d->dtype : RFL_DTYPE_FP32);
    train = d && d->mode == RFL_MODE_TRAIN;
    pb = (L->flags & RFL_LF_SHARED) ? 1 : B;
    out->params = L->params;
    if (op == RFL_OP_MARK || op == RFL_OP_PARAM) return RFL_OK;
    /* per batch: input elements, output elements, forward mac and flops */
    ok = rfl__ly_mul64(L->in_numel, B, &in) && rfl__ly_mul64(L->out_numel, pb, &o) &&
         rfl__ly_mul64(L->mac_flops, B, &fm) && rfl__ly_mul64(L->flops, B, &ff);
    ext = 0;
    if (ok && d && d->convention == RFL_CONV_REPORT) ok = rfl__ly_mul64(L->bias_flops, B, &ext);
    if (!ok) return RFL_ERR_OVERFLOW;
    w = L->params;
    if (op == RFL_OP_EMBEDDING) w = 0; /* only the gathered rows are read */
    out->fwd_mac_flops = fm + ext;
    out->fwd_flops = ff;
    /* forward bytes: read inputs and weights, write the output; views move
       nothing; eval-mode dropout returns its input */
    if ((L->flags & RFL_LF_VIEW) || op == RFL_OP_INPUT || (op == RFL_OP_DROPOUT && !train)) {
        rd = wr = 0;
    } else {
        ok = rfl__ly_add64(in, w, &rd) && (op != RFL_OP_EMBEDDING || rfl__ly_add64(rd, o, &rd));
        wr = o;
    }
    ok = ok && rfl__ly_add64(rd, wr, &t) && rfl__ly_mul64(t, s, &out->fwd_bytes);
    /* activation memory: every materialised output is kept (the input too) */
    if (!(L->flags & RFL_LF_VIEW)) ok = ok && rfl__ly_mul64(o, s, &out->act_bytes);
    if (!ok) return RFL_ERR_OVERFLOW;
    if (!L->needs_grad || op == RFL_OP_INPUT) return RFL_OK; /* no gradient flows here */
    /* backward */
    ig = !(L->flags & RFL_LF_NOGRAD); /* an input gradient is computed */
    switch (op) {
    case RFL_OP_CONV2D:
    case RFL_OP_LINEAR:
        /* weight gradient = forward mac; input gradient = forward mac;
           bias gradient = one add per output element */
        /* checked: 2 x a forward count near 2^64 must be an overflow error,
           not a wrapped number */
        ok = rfl__ly_mul64(fm, ig ? 2 : 1, &t) && rfl__ly_add64(t, ext, &out->bwd_mac_flops) &&
             rfl__ly_add64(t, ff - fm, &out->bwd_flops);
        /* read grad out, saved input, (weights); write grad weights, (grad in) */
        ok = ok && rfl__ly_add64(o, in, &t) && rfl__ly_add64(t, w, &t) &&
             (!ig || (rfl__ly_add64(t, w, &t) && rfl__ly_add64(t, in, &t)));
        break;
    case RFL_OP_MATMUL:
    case RFL_OP_ATTENTION:
        /* a gradient for each operand: 2 x forward (no recomputation) */
        ok = fm <= (uint64_t)-1 / 2 && ff <= (uint64_t)-1 / 2 && rfl__ly_add64(o, in, &t) &&
             rfl__ly_add64(t, in, &t);
        out->bwd_mac_flops = ok ? 2 * fm : 0; /* no wrapped value, even with the error */
        out->bwd_flops = ok ? 2 * ff : 0;
        break;
    case RFL_OP_EMBEDDING:
        /* scatter-add of the output gradient into the table rows */
        out->bwd_flops = o;
        ok = rfl__ly_add64(o, o, &t) && rfl__ly_add64(t, in, &t);
        break;
    case RFL_OP_ADD:
        /* the gradient passes through; a broadcast operand sums it */
        if (L->in[1] >= 0 && net->layers[L->in[1]].out_numel != L->out_numel) out->bwd_flops = o;
        ok = rfl__ly_add64(o, in, &t);
        break;
    case RFL_OP_CONCAT: case RFL_OP_SHUFFLE: case RFL_OP_TRANSPOSE: case RFL_OP_DROPOUT:
        ok = rfl__ly_add64(o, in, &t); /* route the gradient: read, write */
        if (op == RFL_OP_DROPOUT && !train) t = 0;
        break;
    case RFL_OP_FLATTEN: case RFL_OP_RESHAPE: case RFL_OP_SLICE:
        t = 0;
        break;
    default:
        /* norms, activations, softmax, pools, mul: 2 x forward FLOPs; read
           grad out and the saved input, write grad in (and grad weights) */
        ok = ff <= (uint64_t)-1 / 2 && rfl__ly_add64(o, in, &t) && rfl__ly_add64(t, in, &t) &&
             rfl__ly_add64(t, w, &t);
        out->bwd_flops = ok ? 2 * ff : 0;
        break;
    }
    ok = ok && rfl__ly_mul64(t, s, &out->bwd_bytes);
    return ok ? RFL_OK : RFL_ERR_OVERFLOW;
}

/* The precisions of a dtype: conv/matmul work and the rest. */
static void rfl__ly_dtype_precs(rfl_dtype dt, rfl_prec *mm, rfl_prec *ew) {
    switch (dt) {
    case RFL_DTYPE_FP16: *mm = RFL_FP16_TENSOR, *ew = RFL_FP16; break;
    case RFL_DTYPE_BF16: *mm = RFL_BF16_TENSOR, *ew = RFL_FP16; break;
    case RFL_DTYPE_INT8: *mm = RFL_INT8_TENSOR, *ew = RFL_FP32; break;
    default: *mm = RFL_FP32, *ew = RFL_FP32; break;
    }
}

static void rfl__ly_mkwork(rfl_work *w, rfl_prec mm, rfl_prec ew, uint64_t mac, uint64_t all,
                        uint64_t bytes) {
    RFL_MEMSET(w, 0, sizeof *w);
    w->flops[mm] += (double)mac;
    w->flops[ew] += (double)(all - mac);
    w->bytes[RFL_DRAM] = (double)bytes;
    w->unknown = RFL_UNKNOWN_BYTES(RFL_L2) | RFL_UNKNOWN_BYTES(RFL_L1) | RFL_UNKNOWN_TIME;
}

RFL_API rfl_result rfl_layer_work(const rfl_net *net, int i, const rfl_cost_desc *d,
                                  rfl_work *fwd, rfl_work *bwd) {
    rfl_layer_cost c;
    rfl_prec mm, ew;
    rfl_cost_desc dd;
    rfl_result r;
    uint64_t fm, bm;
    if (d) dd = *d;
    else RFL_MEMSET(&dd, 0, sizeof dd);
    dd.convention = RFL_CONV_TORCH; /* works count what the machine runs */
    r = rfl_layer_cost_get(net, i, &dd, &c);
    if (r) return r;
    rfl__ly_dtype_precs(dd.dtype, &mm, &ew);
    /* the mac part of conv/matmul goes to the matrix precision */
    fm = c.fwd_mac_flops, bm = c.bwd_mac_flops;
    if (fwd) rfl__ly_mkwork(fwd, mm, ew, fm, c.fwd_flops, c.fwd_bytes);
    if (bwd) rfl__ly_mkwork(bwd, mm, ew, bm, c.bwd_flops, c.bwd_bytes);
    return RFL_OK;
}

RFL_API rfl_result rfl_net_cost_get(const rfl_net *net, const rfl_cost_desc *d,
                                    rfl_net_cost *out) {
    rfl_layer_cost c;
    rfl_work fw, bw;
    rfl_result r;
    uint64_t s, pb = 0, st = 0;
    int i, ok = 1;
    if (!net || !out || !net->layers) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    out->forward.unknown = out->backward.unknown =
        RFL_UNKNOWN_BYTES(RFL_L2) | RFL_UNKNOWN_BYTES(RFL_L1) | RFL_UNKNOWN_TIME;
    if (net->err) return RFL_ERR_STATE;
    if (net->count < 1) return RFL_ERR_NO_DATA;
    for (i = 0; i < net->count; i++) {
        r = rfl_layer_cost_get(net, i, d, &c);
        if (r) return r;
        r = rfl_layer_work(net, i, d, &fw, &bw);
        if (r) return r;
        ok = ok && rfl__ly_add64(out->params, c.params, &out->params) &&
             rfl__ly_add64(out->fwd_mac_flops, c.fwd_mac_flops, &out->fwd_mac_flops) &&
             rfl__ly_add64(out->fwd_flops, c.fwd_flops, &out->fwd_flops) &&
             rfl__ly_add64(out->fwd_bytes, c.fwd_bytes, &out->fwd_bytes) &&
             rfl__ly_add64(out->bwd_mac_flops, c.bwd_mac_flops, &out->bwd_mac_flops) &&
             rfl__ly_add64(out->bwd_flops, c.bwd_flops, &out->bwd_flops) &&
             rfl__ly_add64(out->bwd_bytes, c.bwd_bytes, &out->bwd_bytes) &&
             rfl__ly_add64(out->activation_bytes, c.act_bytes, &out->activation_bytes);
        if (net->layers[i].op == RFL_OP_INPUT) out->input_bytes = c.act_bytes;
        if (net->layers[i].op != RFL_OP_MARK) out->layers++;
        rfl_work_add(&out->forward, &fw);
        rfl_work_add(&out->backward, &bw);
    }
    s = (uint64_t)rfl_dtype_bytes(d ? d->dtype : RFL_DTYPE_FP32);
    ok = ok && rfl__ly_mul64(out->params, s, &pb);
    out->param_bytes = pb;
    /* weights + gradients + optimizer state (1 momentum / 2 Adam moments),
       all at the dtype's size, + activations */
    ok = ok && rfl__ly_mul64(pb, 3, &st) && rfl__ly_add64(st, out->activation_bytes, &out->train_sgd_bytes);
    ok = ok && rfl__ly_mul64(pb, 4, &st) && rfl__ly_add64(st, out->activation_bytes, &out->train_adam_bytes);
    return ok ? RFL_OK : RFL_ERR_OVERFLOW;
}

/* ---- predicted time --------------------------------------------------------------- */
RFL_API rfl_result rfl_layer_predict(const rfl_net *net, int i, const rfl_cost_desc *d,
                                     const rfl_machine *m, rfl_prediction *out) {
    rfl_work fw, bw;
    rfl_result r;
    if (!m || !out) return RFL_ERR_ARG;
    r = rfl_layer_work(net, i, d, &fw, &bw);
    if (r) return r;
    if (d && d->mode == RFL_MODE_TRAIN) rfl_work_add(&fw, &bw);
    return rfl_predict(m, &fw, out);
}

RFL_API rfl_result rfl_net_predict(const rfl_net *net, const rfl_cost_desc *d,
                                   const rfl_machine *m, rfl_net_prediction *out) {
    rfl_net_cost c;
    rfl_prediction p;
    rfl_result r;
    int i;
    if (!net || !m || !out) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    r = rfl_net_cost_get(net, d, &c);
    if (r) return r;
    for (i = 0; i < net->count; i++) {
        r = rfl_layer_predict(net, i, d, m, &p);
        if (r) return r;
        if (p.time_s <= 0) continue; /* views, marks: no work */
        out->layers_s += p.time_s;
        out->compute_s += p.compute_s;
        out->memory_s += p.memory_s;
        if (p.bound.memory) out->memory_layers++;
        else out->compute_layers++;
    }
    if (d && d->mode == RFL_MODE_TRAIN) rfl_work_add(&c.forward, &c.backward);
    return rfl_predict(m, &c.forward, &out->whole);
}

/* ---- torchsummary ------------------------------------------------------------------ */
RFL_API rfl_result rfl_net_summary(const rfl_net *net, rfl_summary *out) {
    double outs = 0, in = 0;
    int i;
    if (!net || !out || !net->layers) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    if (net->err) return RFL_ERR_STATE;
    if (net->count < 1) return RFL_ERR_NO_DATA;
    for (i = 0; i < net->count; i++) {
        const rfl_layer *L = &net->layers[i];
        if (L->op == RFL_OP_INPUT) in += (double)L->out_numel;
        if (!(L->flags & RFL_LF_MODULE)) continue;
        out->rows++;
        out->params += L->params;
        outs += (double)L->out_numel;
    }
    /* exactly torchsummary's arithmetic, in doubles, MB = 2^20 */
    out->input_mb = in * 4.0 / 1048576.0;
    out->fwd_bwd_mb = 2.0 * outs * 4.0 / 1048576.0;
    out->params_mb = (double)out->params * 4.0 / 1048576.0;
    out->total_mb = out->params_mb + out->fwd_bwd_mb + out->input_mb;
    return RFL_OK;
}

/* ---- the zoo -----------------------------------------------------------------------
   torchvision 0.26's model definitions, layer by layer, with its module
   names; rfl_mark rows stand for the non-container modules torchsummary
   hooks (BasicBlock, InvertedResidual, SqueezeExcitation, ...). */
#ifndef RFL_NO_ZOO

/* conv named `name` in the current scope */
static rfl_tensor rfl__zconv(rfl_net *n, rfl_tensor x, const char *name, uint32_t co,
                             uint32_t k, uint32_t s, uint32_t p, uint32_t g, int bias) {
    rfl_conv_desc d;
    RFL_MEMSET(&d, 0, sizeof d);
    d.out_channels = co, d.kernel_h = k, d.stride_h = s, d.pad_h = p, d.groups = g;
    d.bias = bias;
    return rfl_name(n, rfl_conv_ex(n, x, &d), name);
}
static rfl_tensor rfl__zbn(rfl_net *n, rfl_tensor x, const char *name) {
    return rfl_name(n, rfl_batchnorm(n, x), name);
}
static rfl_tensor rfl__zact(rfl_net *n, rfl_tensor x, rfl_act_kind a, const char *name) {
    return rfl_name(n, rfl_act(n, x, a), name);
}
/* Clear the module flag of t: a functional call, no torchsummary row. */
static rfl_tensor rfl__zfn(rfl_net *n, rfl_tensor t) {
    if (t >= 0 && n && t < n->count) n->layers[t].flags &= (uint8_t)~RFL_LF_MODULE;
    return t;
}
static uint32_t rfl__zch(const rfl_net *n, rfl_tensor t) {
    return (t >= 0 && n && t < n->count) ? n->layers[t].shape[0] : 0;
}

/* A module row named by the current scope ("layer1.0"). */
static rfl_tensor rfl__zmark(rfl_net *n, rfl_tensor x, const char *cls) {
    return rfl_name(n, rfl_mark(n, x, cls), "");
}

/* torchvision's Conv2dNormActivation (a Sequential) as child `idx` of the
   scope: conv (padding (k-1)/2, no bias) "idx.0", BN "idx.1", act "idx.2".
   act < 0: none. */
static rfl_tensor rfl__zcna(rfl_net *n, rfl_tensor x, int idx, uint32_t co, uint32_t k,
                            uint32_t s, uint32_t g, int act) {
    if (idx >= 0) rfl_scope_pushi(n, idx);
    x = rfl__zconv(n, x, "0", co, k, s, (k - 1) / 2, g, 0);
    x = rfl__zbn(n, x, "1");
    if (act >= 0) x = rfl__zact(n, x, (rfl_act_kind)act, "2");
    if (idx >= 0) rfl_scope_pop(n);
    return x;
}

/* torchvision's _make_divisible(v, 8) */
static uint32_t rfl__zdiv8(uint32_t v) {
    uint32_t r = (v + 4) / 8 * 8;
    if (r < 8) r = 8;
    if ((uint64_t)r * 10 < (uint64_t)v * 9) r += 8;
    return r;
}

/* ---- ResNet ---- */
/* bottleneck: 0 = BasicBlock; else Bottleneck with `groups` groups of
   `wpg` channels per 64 planes (ResNeXt, Wide ResNet; ResNet: 1, 64) */
static rfl_tensor rfl__zresnet_block(rfl_net *n, rfl_tensor x, uint32_t planes, uint32_t stride,
                                     int bottleneck, uint32_t groups, uint32_t wpg) {
    uint32_t inp = rfl__zch(n, x), outc = bottleneck ? planes * 4 : planes;
    uint32_t width = planes * wpg / 64 * groups;
    rfl_tensor y, id = x;
    if (bottleneck) {
        y = rfl__zconv(n, x, "conv1", width, 1, 1, 0, 1, 0);
        y = rfl__zact(n, rfl__zbn(n, y, "bn1"), RFL_ACT_RELU, "relu");
        y = rfl__zconv(n, y, "conv2", width, 3, stride, 1, groups, 0);
        y = rfl__zact(n, rfl__zbn(n, y, "bn2"), RFL_ACT_RELU, "relu");
        y = rfl__zconv(n, y, "conv3", outc, 1, 1, 0, 1, 0);
        y = rfl__zbn(n, y, "bn3");
    } else {
        y = rfl__zconv(n, x, "conv1", planes, 3, stride, 1, 1, 0);
        y = rfl__zact(n, rfl__zbn(n, y, "bn1"), RFL_ACT_RELU, "relu");
        y = rfl__zconv(n, y, "conv2", planes, 3, 1, 1, 1, 0);
        y = rfl__zbn(n, y, "bn2");
    }
    if (stride != 1 || inp != outc) {
        rfl_scope_push(n, "downsample");
        id = rfl__zconv(n, x, "0", outc, 1, stride, 0, 1, 0);
        id = rfl__zbn(n, id, "1");
        rfl_scope_pop(n);
    }
    y = rfl_add(n, y, id);
    y = rfl__zact(n, y, RFL_ACT_RELU, "relu"); /* the same module, called again */
    return rfl__zmark(n, y, bottleneck ? "Bottleneck" : "BasicBlock");
}

static rfl_tensor rfl__zresnet(rfl_net *n, rfl_tensor x, const uint8_t *blocks, int bottleneck,
                               uint32_t groups, uint32_t wpg) {
    static const char *const stage[4] = {"layer1", "layer2", "layer3", "layer4"};
    int i, j;
    x = rfl__zconv(n, x, "conv1", 64, 7, 2, 3, 1, 0);
    x = rfl__zact(n, rfl__zbn(n, x, "bn1"), RFL_ACT_RELU, "relu");
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 1, 0), "maxpool");
    for (i = 0; i < 4; i++) {
        rfl_scope_push(n, stage[i]);
        for (j = 0; j < blocks[i]; j++) {
            rfl_scope_pushi(n, j);
            x = rfl__zresnet_block(n, x, 64u << i, (i > 0 && j == 0) ? 2 : 1, bottleneck, groups,
                                   wpg);
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
    }
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "fc");
}

/* ---- AlexNet and VGG-16: features.i, avgpool, classifier.i ---- */
static rfl_tensor rfl__zclassifier(rfl_net *n, rfl_tensor x, uint32_t hidden, int dropout_first) {
    int i = 0;
    rfl_scope_push(n, "classifier");
    if (dropout_first) { rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_dropout(n, x), ""); rfl_scope_pop(n); }
    rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_linear(n, x, hidden, 1), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_act(n, x, RFL_ACT_RELU), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_dropout(n, x), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_linear(n, x, hidden, 1), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_act(n, x, RFL_ACT_RELU), ""); rfl_scope_pop(n);
    if (!dropout_first) { rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_dropout(n, x), ""); rfl_scope_pop(n); }
    rfl_scope_pushi(n, i++); x = rfl_name(n, rfl_linear(n, x, 1000, 1), ""); rfl_scope_pop(n);
    rfl_scope_pop(n);
    return x;
}

/* One child of a Sequential: name it by its index. */
static rfl_tensor rfl__zidx(rfl_net *n, rfl_tensor x, int *idx) {
    char b[24];
    rfl_fmt_u64(b, sizeof b, (uint64_t)(*idx)++);
    return rfl_name(n, x, b);
}

static rfl_tensor rfl__zalexnet(rfl_net *n, rfl_tensor x) {
    int i = 0;
    rfl_scope_push(n, "features");
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 64, 11, 4, 2, 1, 1), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl_maxpool(n, x, 3, 2, 0, 0), &i);
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 192, 5, 1, 2, 1, 1), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl_maxpool(n, x, 3, 2, 0, 0), &i);
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 384, 3, 1, 1, 1, 1), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 256, 3, 1, 1, 1, 1), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 256, 3, 1, 1, 1, 1), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl_maxpool(n, x, 3, 2, 0, 0), &i);
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 6, 6), "avgpool");
    x = rfl_flatten(n, x);
    return rfl__zclassifier(n, x, 4096, 1);
}

/* VGG: convs per stage (64, 128, 256, 512, 512 channels), each stage
   ending in a 2x2 max pool */
static rfl_tensor rfl__zvgg(rfl_net *n, rfl_tensor x, const uint8_t *per_stage) {
    uint16_t cfg[32];
    int i = 0, st, k;
    unsigned j, nc = 0;
    for (st = 0; st < 5; st++) {
        for (k = 0; k < per_stage[st]; k++) cfg[nc++] = (uint16_t)(st < 4 ? 64 << st : 512);
        cfg[nc++] = 0;
    }
    rfl_scope_push(n, "features");
    for (j = 0; j < nc; j++) {
        if (!cfg[j]) {
            x = rfl__zidx(n, rfl_maxpool(n, x, 2, 2, 0, 0), &i);
            continue;
        }
        x = rfl__zidx(n, rfl__zconv(n, x, 0, cfg[j], 3, 1, 1, 1, 1), &i);
        x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    }
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 7, 7), "avgpool");
    x = rfl_flatten(n, x);
    return rfl__zclassifier(n, x, 4096, 0);
}

/* ---- MobileNetV2 ---- */
static rfl_tensor rfl__zmobilenet_v2(rfl_net *n, rfl_tensor x) {
    static const uint16_t set[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                       {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int f = 0, i, j, c;
    rfl_scope_push(n, "features");
    x = rfl__zcna(n, x, f++, 32, 3, 2, 1, RFL_ACT_RELU6);
    for (i = 0; i < 7; i++)
        for (j = 0; j < set[i][2]; j++) {
            uint32_t inp = rfl__zch(n, x), hid = inp * set[i][0], oup = set[i][1];
            uint32_t s = j == 0 ? set[i][3] : 1;
            rfl_tensor y = x;
            c = 0;
            rfl_scope_pushi(n, f++);
            rfl_scope_push(n, "conv");
            if (set[i][0] != 1) y = rfl__zcna(n, y, c++, hid, 1, 1, 1, RFL_ACT_RELU6);
            y = rfl__zcna(n, y, c++, hid, 3, s, hid, RFL_ACT_RELU6);
            y = rfl__zidx(n, rfl__zconv(n, y, 0, oup, 1, 1, 0, 1, 0), &c);
            y = rfl__zidx(n, rfl_batchnorm(n, y), &c);
            rfl_scope_pop(n);
            if (s == 1 && inp == oup) y = rfl_add(n, x, y);
            x = rfl__zmark(n, y, "InvertedResidual");
            rfl_scope_pop(n);
        }
    x = rfl__zcna(n, x, f++, 1280, 1, 1, 1, RFL_ACT_RELU6);
    rfl_scope_pop(n);
    x = rfl__zfn(n, rfl_adaptive_avgpool(n, x, 1, 1)); /* functional in forward() */
    x = rfl_flatten(n, x);
    rfl_scope_push(n, "classifier");
    x = rfl_name(n, rfl_dropout(n, x), "0");
    x = rfl_name(n, rfl_linear(n, x, 1000, 1), "1");
    rfl_scope_pop(n);
    return x;
}

/* torchvision's SqueezeExcitation as child `name` of the scope. */
static rfl_tensor rfl__zse(rfl_net *n, rfl_tensor x, const char *name, uint32_t squeeze,
                           rfl_act_kind act, rfl_act_kind scale_act) {
    rfl_tensor s;
    uint32_t c = rfl__zch(n, x);
    if (name) rfl_scope_push(n, name);
    s = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    s = rfl__zconv(n, s, "fc1", squeeze, 1, 1, 0, 1, 1);
    s = rfl__zact(n, s, act, "activation");
    s = rfl__zconv(n, s, "fc2", c, 1, 1, 0, 1, 1);
    s = rfl__zact(n, s, scale_act, "scale_activation");
    x = rfl_mul(n, x, s);
    x = rfl__zmark(n, x, "SqueezeExcitation");
    if (name) rfl_scope_pop(n);
    return x;
}

/* ---- MobileNetV3 ---- */
/* in, kernel, expanded, out, se, hardswish, stride */
static const uint16_t rfl__zmbv3_large[15][7] = {
        {16, 3, 16, 16, 0, 0, 1},    {16, 3, 64, 24, 0, 0, 2},    {24, 3, 72, 24, 0, 0, 1},
        {24, 5, 72, 40, 1, 0, 2},    {40, 5, 120, 40, 1, 0, 1},   {40, 5, 120, 40, 1, 0, 1},
        {40, 3, 240, 80, 0, 1, 2},   {80, 3, 200, 80, 0, 1, 1},   {80, 3, 184, 80, 0, 1, 1},
        {80, 3, 184, 80, 0, 1, 1},   {80, 3, 480, 112, 1, 1, 1},  {112, 3, 672, 112, 1, 1, 1},
        {112, 5, 672, 160, 1, 1, 2}, {160, 5, 960, 160, 1, 1, 1}, {160, 5, 960, 160, 1, 1, 1}};
static const uint16_t rfl__zmbv3_small[11][7] = {
        {16, 3, 16, 16, 1, 0, 2},    {16, 3, 72, 24, 0, 0, 2},    {24, 3, 88, 24, 0, 0, 1},
        {24, 5, 96, 40, 1, 1, 2},    {40, 5, 240, 40, 1, 1, 1},   {40, 5, 240, 40, 1, 1, 1},
        {40, 5, 120, 48, 1, 1, 1},   {48, 5, 144, 48, 1, 1, 1},   {48, 5, 288, 96, 1, 1, 2},
        {96, 5, 576, 96, 1, 1, 1},   {96, 5, 576, 96, 1, 1, 1}};
static rfl_tensor rfl__zmobilenet_v3(rfl_net *n, rfl_tensor x, const uint16_t (*cf)[7], int nb,
                                     uint32_t last) {
    int f = 0, i, c;
    rfl_scope_push(n, "features");
    x = rfl__zcna(n, x, f++, 16, 3, 2, 1, RFL_ACT_HARDSWISH);
    for (i = 0; i < nb; i++) {
        int act = cf[i][5] ? RFL_ACT_HARDSWISH : RFL_ACT_RELU;
        uint32_t e = cf[i][2];
        rfl_tensor y = x;
        c = 0;
        rfl_scope_pushi(n, f++);
        rfl_scope_push(n, "block");
        if (e != cf[i][0]) y = rfl__zcna(n, y, c++, e, 1, 1, 1, act);
        y = rfl__zcna(n, y, c++, e, cf[i][1], cf[i][6], e, act);
        if (cf[i][4]) {
            rfl_scope_pushi(n, c++);
            y = rfl__zse(n, y, 0, rfl__zdiv8(e / 4), RFL_ACT_RELU, RFL_ACT_HARDSIGMOID);
            rfl_scope_pop(n);
        }
        y = rfl__zcna(n, y, c++, cf[i][3], 1, 1, 1, -1);
        rfl_scope_pop(n);
        if (cf[i][6] == 1 && cf[i][0] == cf[i][3]) y = rfl_add(n, y, x);
        x = rfl__zmark(n, y, "InvertedResidual");
        rfl_scope_pop(n);
    }
    x = rfl__zcna(n, x, f++, 6u * cf[nb - 1][3], 1, 1, 1, RFL_ACT_HARDSWISH);
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    rfl_scope_push(n, "classifier");
    x = rfl_name(n, rfl_linear(n, x, last, 1), "0");
    x = rfl_name(n, rfl_act(n, x, RFL_ACT_HARDSWISH), "1");
    x = rfl_name(n, rfl_dropout(n, x), "2");
    x = rfl_name(n, rfl_linear(n, x, 1000, 1), "3");
    rfl_scope_pop(n);
    return x;
}

/* ---- SqueezeNet 1.1 ---- */
static rfl_tensor rfl__zfire(rfl_net *n, rfl_tensor x, int idx, uint32_t sq, uint32_t e1,
                             uint32_t e3) {
    rfl_tensor a[2];
    rfl_scope_pushi(n, idx);
    x = rfl__zconv(n, x, "squeeze", sq, 1, 1, 0, 1, 1);
    x = rfl__zact(n, x, RFL_ACT_RELU, "squeeze_activation");
    a[0] = rfl__zconv(n, x, "expand1x1", e1, 1, 1, 0, 1, 1);
    a[0] = rfl__zact(n, a[0], RFL_ACT_RELU, "expand1x1_activation");
    a[1] = rfl__zconv(n, x, "expand3x3", e3, 3, 1, 1, 1, 1);
    a[1] = rfl__zact(n, a[1], RFL_ACT_RELU, "expand3x3_activation");
    x = rfl_concat(n, a, 2, 0);
    x = rfl__zmark(n, x, "Fire");
    rfl_scope_pop(n);
    return x;
}

/* v1_0: 96 7x7 stem, pools after fires 3 and 7; 1.1: 64 3x3, after 2, 4 */
static rfl_tensor rfl__zsqueezenet(rfl_net *n, rfl_tensor x, int v1_0) {
    static const uint16_t sq[8] = {16, 16, 32, 32, 48, 48, 64, 64};
    int i = 0, f;
    rfl_scope_push(n, "features");
    x = rfl__zidx(n, rfl__zconv(n, x, 0, v1_0 ? 96 : 64, v1_0 ? 7 : 3, 2, 0, 1, 1), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl_maxpool(n, x, 3, 2, 0, 1), &i);
    for (f = 0; f < 8; f++) {
        x = rfl__zfire(n, x, i++, sq[f], 4u * sq[f], 4u * sq[f]);
        if (f == (v1_0 ? 2 : 1) || f == (v1_0 ? 6 : 3))
            x = rfl__zidx(n, rfl_maxpool(n, x, 3, 2, 0, 1), &i);
    }
    rfl_scope_pop(n);
    rfl_scope_push(n, "classifier");
    x = rfl_name(n, rfl_dropout(n, x), "0");
    x = rfl__zconv(n, x, "1", 1000, 1, 1, 0, 1, 1);
    x = rfl_name(n, rfl_act(n, x, RFL_ACT_RELU), "2");
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "3");
    rfl_scope_pop(n);
    return rfl_flatten(n, x);
}

/* ---- ShuffleNetV2 x1.0 ---- */
static rfl_tensor rfl__zshuffle_unit(rfl_net *n, rfl_tensor x, uint32_t oup, uint32_t stride) {
    uint32_t inp = rfl__zch(n, x), bf = oup / 2;
    rfl_tensor a[2], b = x;
    if (stride > 1) {
        rfl_scope_push(n, "branch1");
        a[0] = rfl__zconv(n, x, "0", inp, 3, stride, 1, inp, 0);
        a[0] = rfl__zbn(n, a[0], "1");
        a[0] = rfl__zconv(n, a[0], "2", bf, 1, 1, 0, 1, 0);
        a[0] = rfl__zbn(n, a[0], "3");
        a[0] = rfl__zact(n, a[0], RFL_ACT_RELU, "4");
        rfl_scope_pop(n);
    } else {
        a[0] = rfl_slice(n, x, 0, 0, inp / 2); /* x.chunk(2, dim=1) */
        b = rfl_slice(n, x, 0, inp / 2, inp - inp / 2);
    }
    rfl_scope_push(n, "branch2");
    b = rfl__zconv(n, b, "0", bf, 1, 1, 0, 1, 0);
    b = rfl__zbn(n, b, "1");
    b = rfl__zact(n, b, RFL_ACT_RELU, "2");
    b = rfl__zconv(n, b, "3", bf, 3, stride, 1, bf, 0);
    b = rfl__zbn(n, b, "4");
    b = rfl__zconv(n, b, "5", bf, 1, 1, 0, 1, 0);
    b = rfl__zbn(n, b, "6");
    b = rfl__zact(n, b, RFL_ACT_RELU, "7");
    rfl_scope_pop(n);
    a[1] = b;
    x = rfl_concat(n, a, 2, 0);
    x = rfl_shuffle(n, x, 2);
    return rfl__zmark(n, x, "InvertedResidual");
}

static rfl_tensor rfl__zshufflenet_v2(rfl_net *n, rfl_tensor x, const uint16_t *ch) {
    static const char *const st[3] = {"stage2", "stage3", "stage4"};
    static const uint16_t rep[3] = {4, 8, 4};
    int i, j;
    rfl_scope_push(n, "conv1");
    x = rfl__zconv(n, x, "0", 24, 3, 2, 1, 1, 0);
    x = rfl__zact(n, rfl__zbn(n, x, "1"), RFL_ACT_RELU, "2");
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 1, 0), "maxpool");
    for (i = 0; i < 3; i++) {
        rfl_scope_push(n, st[i]);
        for (j = 0; j < rep[i]; j++) {
            rfl_scope_pushi(n, j);
            x = rfl__zshuffle_unit(n, x, ch[i], j == 0 ? 2 : 1);
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
    }
    rfl_scope_push(n, "conv5");
    x = rfl__zconv(n, x, "0", 1024, 1, 1, 0, 1, 0);
    x = rfl__zact(n, rfl__zbn(n, x, "1"), RFL_ACT_RELU, "2");
    rfl_scope_pop(n);
    x = rfl__zfn(n, rfl_adaptive_avgpool(n, x, 1, 1)); /* x.mean([2, 3]) */
    x = rfl_flatten(n, x);
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "fc");
}

/* ---- EfficientNet-B0 ---- */
/* B0 and deeper variants: `layers` blocks per stage (B1: ceil(1.1 n)) */
static rfl_tensor rfl__zefficientnet(rfl_net *n, rfl_tensor x, const uint8_t *layers) {
    /* expand, kernel, stride, in, out, layers */
    static const uint16_t cf[7][6] = {{1, 3, 1, 32, 16, 1},   {6, 3, 2, 16, 24, 2},
                                      {6, 5, 2, 24, 40, 2},   {6, 3, 2, 40, 80, 3},
                                      {6, 5, 1, 80, 112, 3},  {6, 5, 2, 112, 192, 4},
                                      {6, 3, 1, 192, 320, 1}};
    int i, j, c;
    rfl_scope_push(n, "features");
    x = rfl__zcna(n, x, 0, 32, 3, 2, 1, RFL_ACT_SILU);
    for (i = 0; i < 7; i++) {
        rfl_scope_pushi(n, i + 1);
        for (j = 0; j < layers[i]; j++) {
            uint32_t inp = j ? cf[i][4] : cf[i][3], s = j ? 1 : cf[i][2];
            uint32_t e = rfl__zdiv8(inp * cf[i][0]);
            rfl_tensor y = x;
            c = 0;
            rfl_scope_pushi(n, j);
            rfl_scope_push(n, "block");
            if (e != inp) y = rfl__zcna(n, y, c++, e, 1, 1, 1, RFL_ACT_SILU);
            y = rfl__zcna(n, y, c++, e, cf[i][1], s, e, RFL_ACT_SILU);
            rfl_scope_pushi(n, c++);
            y = rfl__zse(n, y, 0, inp / 4 ? inp / 4 : 1, RFL_ACT_SILU, RFL_ACT_SIGMOID);
            rfl_scope_pop(n);
            y = rfl__zcna(n, y, c++, cf[i][4], 1, 1, 1, -1);
            rfl_scope_pop(n);
            if (s == 1 && inp == cf[i][4]) {
                /* StochasticDepth: identity in eval, a module row */
                y = rfl_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
                y = rfl_add(n, y, x);
            }
            x = rfl__zmark(n, y, "MBConv");
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
    }
    x = rfl__zcna(n, x, 8, 1280, 1, 1, 1, RFL_ACT_SILU);
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    rfl_scope_push(n, "classifier");
    x = rfl_name(n, rfl_dropout(n, x), "0");
    x = rfl_name(n, rfl_linear(n, x, 1000, 1), "1");
    rfl_scope_pop(n);
    return x;
}

/* ---- DenseNet-121 ---- */
static rfl_tensor rfl__zdensenet(rfl_net *n, rfl_tensor x, const uint8_t *blocks) {
    rfl_tensor feats[64];
    char nm[24];
    int i, j;
    rfl_scope_push(n, "features");
    x = rfl__zconv(n, x, "conv0", 64, 7, 2, 3, 1, 0);
    x = rfl__zact(n, rfl__zbn(n, x, "norm0"), RFL_ACT_RELU, "relu0");
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 1, 0), "pool0");
    for (i = 0; i < 4; i++) {
        int nf = 0;
        rfl_fmt_u64(nm, sizeof nm, (uint64_t)i + 1);
        {
            char b[24] = "denseblock";
            RFL_MEMCPY(b + 10, nm, rfl__strlen(nm) + 1);
            rfl_scope_push(n, b);
        }
        feats[nf++] = x;
        for (j = 0; j < blocks[i]; j++) {
            char b[24] = "denselayer";
            rfl_tensor y;
            rfl_fmt_u64(b + 10, sizeof b - 10, (uint64_t)j + 1);
            rfl_scope_push(n, b);
            y = rfl_concat(n, feats, nf, 0); /* torch.cat(inputs, 1) */
            y = rfl__zact(n, rfl__zbn(n, y, "norm1"), RFL_ACT_RELU, "relu1");
            y = rfl__zconv(n, y, "conv1", 128, 1, 1, 0, 1, 0);
            y = rfl__zact(n, rfl__zbn(n, y, "norm2"), RFL_ACT_RELU, "relu2");
            y = rfl__zconv(n, y, "conv2", 32, 3, 1, 1, 1, 0);
            feats[nf++] = rfl__zmark(n, y, "_DenseLayer");
            rfl_scope_pop(n);
        }
        x = rfl_concat(n, feats, nf, 0);
        x = rfl__zmark(n, x, "_DenseBlock");
        rfl_scope_pop(n);
        if (i < 3) {
            char b[24] = "transition";
            RFL_MEMCPY(b + 10, nm, rfl__strlen(nm) + 1);
            rfl_scope_push(n, b);
            x = rfl__zact(n, rfl__zbn(n, x, "norm"), RFL_ACT_RELU, "relu");
            x = rfl__zconv(n, x, "conv", rfl__zch(n, x) / 2, 1, 1, 0, 1, 0);
            x = rfl_name(n, rfl_avgpool(n, x, 2, 2, 0, 0), "pool");
            rfl_scope_pop(n);
        }
    }
    x = rfl__zbn(n, x, "norm5");
    rfl_scope_pop(n);
    x = rfl__zfn(n, rfl_act(n, x, RFL_ACT_RELU)); /* F.relu */
    x = rfl__zfn(n, rfl_adaptive_avgpool(n, x, 1, 1));
    x = rfl_flatten(n, x);
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "classifier");
}

/* ---- ViT-B/16 (image_size = res) ---- */
static rfl_tensor rfl__zvit_b(rfl_net *n, rfl_tensor x, uint32_t res, uint32_t P) {
    const uint32_t D = 768, heads = 12, mlp = 3072;
    uint32_t L;
    rfl_tensor t[2], in, q, k, v;
    int i;
    if (res % P) return rfl__ly_fail(n, RFL_ERR_SHAPE, "vit: res must be a multiple of the patch");
    /* (res / P)^2 tokens must fit 32 bits (res 2^20, P 16 would wrap to 0) */
    if (res / P > 65535u) return rfl__ly_fail(n, RFL_ERR_OVERFLOW, "vit: res too large");
    L = (res / P) * (res / P);
    x = rfl__zconv(n, x, "conv_proj", D, P, P, 0, 1, 1);
    x = rfl_reshape(n, x, D, L, 0, 0);
    x = rfl_transpose(n, x, 0, 1); /* (L, D) */
    t[0] = rfl_name(n, rfl_param(n, 1, D, 0), "class_token");
    t[1] = x;
    x = rfl_concat(n, t, 2, 0);
    rfl_scope_push(n, "encoder");
    x = rfl_add(n, x, rfl_name(n, rfl_param(n, L + 1, D, 0), "pos_embedding"));
    x = rfl_name(n, rfl_dropout(n, x), "dropout");
    rfl_scope_push(n, "layers");
    for (i = 0; i < 12; i++) {
        char b[24] = "encoder_layer_";
        rfl_fmt_u64(b + 14, sizeof b - 14, (uint64_t)i);
        rfl_scope_push(n, b);
        in = x;
        x = rfl_name(n, rfl_layernorm(n, x), "ln_1");
        rfl_scope_push(n, "self_attention");
        x = rfl__zfn(n, rfl_name(n, rfl_linear(n, x, 3 * D, 1), "in_proj"));
        q = rfl_slice(n, x, 1, 0, D);
        k = rfl_slice(n, x, 1, D, D);
        v = rfl_slice(n, x, 1, 2 * D, D);
        x = rfl_attention(n, q, k, v, heads);
        /* MHA calls F.linear with out_proj's weight: no hook fires */
        x = rfl__zfn(n, rfl_name(n, rfl_linear(n, x, D, 1), "out_proj"));
        x = rfl__zmark(n, x, "MultiheadAttention");
        rfl_scope_pop(n);
        x = rfl_name(n, rfl_dropout(n, x), "dropout");
        x = rfl_add(n, x, in);
        in = x;
        x = rfl_name(n, rfl_layernorm(n, x), "ln_2");
        rfl_scope_push(n, "mlp");
        x = rfl_name(n, rfl_linear(n, x, mlp, 1), "0");
        x = rfl_name(n, rfl_act(n, x, RFL_ACT_GELU), "1");
        x = rfl_name(n, rfl_dropout(n, x), "2");
        x = rfl_name(n, rfl_linear(n, x, D, 1), "3");
        x = rfl_name(n, rfl_dropout(n, x), "4");
        rfl_scope_pop(n);
        x = rfl_add(n, x, in);
        x = rfl__zmark(n, x, "EncoderBlock");
        rfl_scope_pop(n);
    }
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_layernorm(n, x), "ln");
    x = rfl__zmark(n, x, "Encoder");
    rfl_scope_pop(n);
    x = rfl_slice(n, x, 0, 0, 1); /* x[:, 0] */
    x = rfl_reshape(n, x, D, 0, 0, 0);
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "heads.head");
}

/* ---- MNASNet 1.0 ---- */
static rfl_tensor rfl__zmnasnet(rfl_net *n, rfl_tensor x) {
    /* out, kernel, stride, expansion, repeats */
    static const uint16_t st[6][5] = {{24, 3, 2, 3, 3},  {40, 5, 2, 3, 3},  {80, 5, 2, 6, 3},
                                      {96, 3, 1, 6, 2},  {192, 5, 2, 6, 4}, {320, 3, 1, 6, 1}};
    int i = 0, k, j;
    rfl_scope_push(n, "layers");
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 32, 3, 2, 1, 1, 0), &i);
    x = rfl__zidx(n, rfl_batchnorm(n, x), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 32, 3, 1, 1, 32, 0), &i);
    x = rfl__zidx(n, rfl_batchnorm(n, x), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 16, 1, 1, 0, 1, 0), &i);
    x = rfl__zidx(n, rfl_batchnorm(n, x), &i);
    for (k = 0; k < 6; k++) {
        rfl_scope_pushi(n, i++);
        for (j = 0; j < st[k][4]; j++) {
            uint32_t inp = rfl__zch(n, x), mid = inp * st[k][3], s = j ? 1 : st[k][2];
            rfl_tensor y;
            rfl_scope_pushi(n, j);
            rfl_scope_push(n, "layers");
            y = rfl__zconv(n, x, "0", mid, 1, 1, 0, 1, 0);
            y = rfl__zact(n, rfl__zbn(n, y, "1"), RFL_ACT_RELU, "2");
            y = rfl__zconv(n, y, "3", mid, st[k][1], s, st[k][1] / 2u, mid, 0);
            y = rfl__zact(n, rfl__zbn(n, y, "4"), RFL_ACT_RELU, "5");
            y = rfl__zconv(n, y, "6", st[k][0], 1, 1, 0, 1, 0);
            y = rfl__zbn(n, y, "7");
            rfl_scope_pop(n);
            if (inp == st[k][0] && s == 1) y = rfl_add(n, y, x);
            x = rfl__zmark(n, y, "_InvertedResidual");
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
    }
    x = rfl__zidx(n, rfl__zconv(n, x, 0, 1280, 1, 1, 0, 1, 0), &i);
    x = rfl__zidx(n, rfl_batchnorm(n, x), &i);
    x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
    rfl_scope_pop(n);
    x = rfl__zfn(n, rfl_adaptive_avgpool(n, x, 1, 1)); /* x.mean([2, 3]) */
    x = rfl_flatten(n, x);
    rfl_scope_push(n, "classifier");
    x = rfl_name(n, rfl_dropout(n, x), "0");
    x = rfl_name(n, rfl_linear(n, x, 1000, 1), "1");
    rfl_scope_pop(n);
    return x;
}

/* ---- GoogLeNet and Inception v3: BasicConv2d = conv (no bias), BN, F.relu ---- */
static rfl_tensor rfl__zbasic(rfl_net *n, rfl_tensor x, const char *name, uint32_t co,
                              uint32_t kh, uint32_t kw, uint32_t s, uint32_t ph, uint32_t pw) {
    rfl_conv_desc d;
    RFL_MEMSET(&d, 0, sizeof d);
    d.out_channels = co, d.kernel_h = kh, d.kernel_w = kw, d.stride_h = s, d.stride_w = s;
    d.pad_h = ph, d.pad_w = pw;
    rfl_scope_push(n, name);
    x = rfl_name(n, rfl_conv_ex(n, x, &d), "conv");
    x = rfl__zbn(n, x, "bn");
    x = rfl__zfn(n, rfl_act(n, x, RFL_ACT_RELU));
    x = rfl__zmark(n, x, "BasicConv2d");
    rfl_scope_pop(n);
    return x;
}
#define RFL__ZB(x, name, co, k, s, p) rfl__zbasic(n, x, name, co, k, k, s, p, p)

static rfl_tensor rfl__zgoogle_inception(rfl_net *n, rfl_tensor x, const char *name,
                                         const uint16_t *c) {
    rfl_tensor b[4];
    rfl_scope_push(n, name);
    b[0] = RFL__ZB(x, "branch1", c[0], 1, 1, 0);
    rfl_scope_push(n, "branch2");
    b[1] = RFL__ZB(RFL__ZB(x, "0", c[1], 1, 1, 0), "1", c[2], 3, 1, 1);
    rfl_scope_pop(n);
    rfl_scope_push(n, "branch3"); /* torchvision's "5x5" branch is a 3x3 */
    b[2] = RFL__ZB(RFL__ZB(x, "0", c[3], 1, 1, 0), "1", c[4], 3, 1, 1);
    rfl_scope_pop(n);
    rfl_scope_push(n, "branch4");
    b[3] = rfl_name(n, rfl_maxpool(n, x, 3, 1, 1, 1), "0");
    b[3] = RFL__ZB(b[3], "1", c[5], 1, 1, 0);
    rfl_scope_pop(n);
    x = rfl__zmark(n, rfl_concat(n, b, 4, 0), "Inception");
    rfl_scope_pop(n);
    return x;
}

static rfl_tensor rfl__zgooglenet(rfl_net *n, rfl_tensor x) {
    static const char *const nm[9] = {"inception3a", "inception3b", "inception4a", "inception4b",
                                      "inception4c", "inception4d", "inception4e", "inception5a",
                                      "inception5b"};
    static const uint16_t c[9][6] = {
        {64, 96, 128, 16, 32, 32},    {128, 128, 192, 32, 96, 64},  {192, 96, 208, 16, 48, 64},
        {160, 112, 224, 24, 64, 64},  {128, 128, 256, 24, 64, 64},  {112, 144, 288, 32, 64, 64},
        {256, 160, 320, 32, 128, 128}, {256, 160, 320, 32, 128, 128}, {384, 192, 384, 48, 128, 128}};
    int i;
    x = RFL__ZB(x, "conv1", 64, 7, 2, 3);
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 0, 1), "maxpool1");
    x = RFL__ZB(x, "conv2", 64, 1, 1, 0);
    x = RFL__ZB(x, "conv3", 192, 3, 1, 1);
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 0, 1), "maxpool2");
    for (i = 0; i < 9; i++) {
        x = rfl__zgoogle_inception(n, x, nm[i], c[i]);
        if (i == 1) x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 0, 1), "maxpool3");
        if (i == 6) x = rfl_name(n, rfl_maxpool(n, x, 2, 2, 0, 1), "maxpool4");
    }
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    x = rfl_name(n, rfl_dropout(n, x), "dropout");
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "fc");
}

/* Inception v3 blocks; F.avg_pool2d / F.max_pool2d are functional */
static rfl_tensor rfl__zinc_a(rfl_net *n, rfl_tensor x, uint32_t pool_features) {
    rfl_tensor b[4];
    b[0] = RFL__ZB(x, "branch1x1", 64, 1, 1, 0);
    b[1] = RFL__ZB(RFL__ZB(x, "branch5x5_1", 48, 1, 1, 0), "branch5x5_2", 64, 5, 1, 2);
    b[2] = RFL__ZB(x, "branch3x3dbl_1", 64, 1, 1, 0);
    b[2] = RFL__ZB(b[2], "branch3x3dbl_2", 96, 3, 1, 1);
    b[2] = RFL__ZB(b[2], "branch3x3dbl_3", 96, 3, 1, 1);
    b[3] = rfl__zfn(n, rfl_avgpool(n, x, 3, 1, 1, 0));
    b[3] = RFL__ZB(b[3], "branch_pool", pool_features, 1, 1, 0);
    return rfl__zmark(n, rfl_concat(n, b, 4, 0), "InceptionA");
}
static rfl_tensor rfl__zinc_b(rfl_net *n, rfl_tensor x) {
    rfl_tensor b[3];
    b[0] = RFL__ZB(x, "branch3x3", 384, 3, 2, 0);
    b[1] = RFL__ZB(x, "branch3x3dbl_1", 64, 1, 1, 0);
    b[1] = RFL__ZB(b[1], "branch3x3dbl_2", 96, 3, 1, 1);
    b[1] = RFL__ZB(b[1], "branch3x3dbl_3", 96, 3, 2, 0);
    b[2] = rfl__zfn(n, rfl_maxpool(n, x, 3, 2, 0, 0));
    return rfl__zmark(n, rfl_concat(n, b, 3, 0), "InceptionB");
}
static rfl_tensor rfl__zinc_c(rfl_net *n, rfl_tensor x, uint32_t c7) {
    rfl_tensor b[4];
    b[0] = RFL__ZB(x, "branch1x1", 192, 1, 1, 0);
    b[1] = RFL__ZB(x, "branch7x7_1", c7, 1, 1, 0);
    b[1] = rfl__zbasic(n, b[1], "branch7x7_2", c7, 1, 7, 1, 0, 3);
    b[1] = rfl__zbasic(n, b[1], "branch7x7_3", 192, 7, 1, 1, 3, 0);
    b[2] = RFL__ZB(x, "branch7x7dbl_1", c7, 1, 1, 0);
    b[2] = rfl__zbasic(n, b[2], "branch7x7dbl_2", c7, 7, 1, 1, 3, 0);
    b[2] = rfl__zbasic(n, b[2], "branch7x7dbl_3", c7, 1, 7, 1, 0, 3);
    b[2] = rfl__zbasic(n, b[2], "branch7x7dbl_4", c7, 7, 1, 1, 3, 0);
    b[2] = rfl__zbasic(n, b[2], "branch7x7dbl_5", 192, 1, 7, 1, 0, 3);
    b[3] = rfl__zfn(n, rfl_avgpool(n, x, 3, 1, 1, 0));
    b[3] = RFL__ZB(b[3], "branch_pool", 192, 1, 1, 0);
    return rfl__zmark(n, rfl_concat(n, b, 4, 0), "InceptionC");
}
static rfl_tensor rfl__zinc_d(rfl_net *n, rfl_tensor x) {
    rfl_tensor b[3];
    b[0] = RFL__ZB(RFL__ZB(x, "branch3x3_1", 192, 1, 1, 0), "branch3x3_2", 320, 3, 2, 0);
    b[1] = RFL__ZB(x, "branch7x7x3_1", 192, 1, 1, 0);
    b[1] = rfl__zbasic(n, b[1], "branch7x7x3_2", 192, 1, 7, 1, 0, 3);
    b[1] = rfl__zbasic(n, b[1], "branch7x7x3_3", 192, 7, 1, 1, 3, 0);
    b[1] = RFL__ZB(b[1], "branch7x7x3_4", 192, 3, 2, 0);
    b[2] = rfl__zfn(n, rfl_maxpool(n, x, 3, 2, 0, 0));
    return rfl__zmark(n, rfl_concat(n, b, 3, 0), "InceptionD");
}
static rfl_tensor rfl__zinc_e(rfl_net *n, rfl_tensor x) {
    rfl_tensor b[4], t[2], y;
    b[0] = RFL__ZB(x, "branch1x1", 320, 1, 1, 0);
    y = RFL__ZB(x, "branch3x3_1", 384, 1, 1, 0);
    t[0] = rfl__zbasic(n, y, "branch3x3_2a", 384, 1, 3, 1, 0, 1);
    t[1] = rfl__zbasic(n, y, "branch3x3_2b", 384, 3, 1, 1, 1, 0);
    b[1] = rfl_concat(n, t, 2, 0);
    y = RFL__ZB(x, "branch3x3dbl_1", 448, 1, 1, 0);
    y = RFL__ZB(y, "branch3x3dbl_2", 384, 3, 1, 1);
    t[0] = rfl__zbasic(n, y, "branch3x3dbl_3a", 384, 1, 3, 1, 0, 1);
    t[1] = rfl__zbasic(n, y, "branch3x3dbl_3b", 384, 3, 1, 1, 1, 0);
    b[2] = rfl_concat(n, t, 2, 0);
    b[3] = rfl__zfn(n, rfl_avgpool(n, x, 3, 1, 1, 0));
    b[3] = RFL__ZB(b[3], "branch_pool", 192, 1, 1, 0);
    return rfl__zmark(n, rfl_concat(n, b, 4, 0), "InceptionE");
}

static rfl_tensor rfl__zinception_v3(rfl_net *n, rfl_tensor x) {
    static const char *const c_names[4] = {"Mixed_6b", "Mixed_6c", "Mixed_6d", "Mixed_6e"};
    static const uint16_t c7[4] = {128, 160, 160, 192};
    static const char *const a_names[3] = {"Mixed_5b", "Mixed_5c", "Mixed_5d"};
    static const uint16_t pf[3] = {32, 64, 64};
    int i;
    x = RFL__ZB(x, "Conv2d_1a_3x3", 32, 3, 2, 0);
    x = RFL__ZB(x, "Conv2d_2a_3x3", 32, 3, 1, 0);
    x = RFL__ZB(x, "Conv2d_2b_3x3", 64, 3, 1, 1);
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 0, 0), "maxpool1");
    x = RFL__ZB(x, "Conv2d_3b_1x1", 80, 1, 1, 0);
    x = RFL__ZB(x, "Conv2d_4a_3x3", 192, 3, 1, 0);
    x = rfl_name(n, rfl_maxpool(n, x, 3, 2, 0, 0), "maxpool2");
    for (i = 0; i < 3; i++) {
        rfl_scope_push(n, a_names[i]);
        x = rfl__zinc_a(n, x, pf[i]);
        rfl_scope_pop(n);
    }
    rfl_scope_push(n, "Mixed_6a");
    x = rfl__zinc_b(n, x);
    rfl_scope_pop(n);
    for (i = 0; i < 4; i++) {
        rfl_scope_push(n, c_names[i]);
        x = rfl__zinc_c(n, x, c7[i]);
        rfl_scope_pop(n);
    }
    rfl_scope_push(n, "Mixed_7a");
    x = rfl__zinc_d(n, x);
    rfl_scope_pop(n);
    rfl_scope_push(n, "Mixed_7b");
    x = rfl__zinc_e(n, x);
    rfl_scope_pop(n);
    rfl_scope_push(n, "Mixed_7c");
    x = rfl__zinc_e(n, x);
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_name(n, rfl_dropout(n, x), "dropout");
    x = rfl_flatten(n, x);
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "fc");
}
#undef RFL__ZB

/* ---- RegNetY-400MF: stage widths 48, 104, 208, 440, depths 1, 3, 6, 6,
   group width 8, SE ratio 0.25 (BlockParams.from_init_params(depth=16,
   w_0=48, w_a=27.89, w_m=2.09)) ---- */
static rfl_tensor rfl__zregnet_y_400mf(rfl_net *n, rfl_tensor x) {
    static const uint16_t w[4] = {48, 104, 208, 440}, dep[4] = {1, 3, 6, 6};
    char b[24];
    int i, j;
    rfl_scope_push(n, "stem");
    x = rfl__zcna(n, x, -1, 32, 3, 2, 1, RFL_ACT_RELU);
    rfl_scope_pop(n);
    rfl_scope_push(n, "trunk_output");
    for (i = 0; i < 4; i++) {
        char s5[8] = "block";
        s5[5] = (char)('1' + i), s5[6] = 0;
        rfl_scope_push(n, s5);
        for (j = 0; j < dep[i]; j++) {
            uint32_t win = rfl__zch(n, x), wo = w[i], st = j ? 1 : 2;
            rfl_tensor p = x, y;
            RFL_MEMCPY(b, s5, 6);
            b[6] = '-';
            rfl_fmt_u64(b + 7, sizeof b - 7, (uint64_t)j);
            rfl_scope_push(n, b);
            if (win != wo || st != 1) {
                rfl_scope_push(n, "proj");
                p = rfl__zcna(n, x, -1, wo, 1, st, 1, -1);
                rfl_scope_pop(n);
            }
            rfl_scope_push(n, "f");
            rfl_scope_push(n, "a");
            y = rfl__zcna(n, x, -1, wo, 1, 1, 1, RFL_ACT_RELU);
            rfl_scope_pop(n);
            rfl_scope_push(n, "b");
            y = rfl__zcna(n, y, -1, wo, 3, st, wo / 8, RFL_ACT_RELU);
            rfl_scope_pop(n);
            /* squeeze = round(0.25 x width_in) */
            y = rfl__zse(n, y, "se", (win + 2) / 4, RFL_ACT_RELU, RFL_ACT_SIGMOID);
            rfl_scope_push(n, "c");
            y = rfl__zcna(n, y, -1, wo, 1, 1, 1, -1);
            rfl_scope_pop(n);
            rfl_scope_pop(n);
            x = rfl_add(n, p, y);
            x = rfl__zact(n, x, RFL_ACT_RELU, "activation");
            x = rfl__zmark(n, x, "ResBottleneckBlock");
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n); /* AnyStage is a Sequential: no row */
    }
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "fc");
}

/* ---- ConvNeXt-Tiny ---- */
/* LayerNorm2d: a layer norm over the channels of (C, H, W) */
static rfl_tensor rfl__zln2d(rfl_net *n, rfl_tensor x, const char *name) {
    rfl_tensor t = rfl_name(n, rfl_layernorm(n, x), name);
    if (t >= 0) {
        n->layers[t].params = 2ull * n->layers[t].shape[0];
        n->layers[t].cls = "LayerNorm2d";
    }
    return t;
}
/* torchvision's Permute module: (C, H, W) <-> (H, W, C), one copy */
static rfl_tensor rfl__zpermute(rfl_net *n, rfl_tensor x, const char *name, int to_last) {
    uint32_t a, b, c;
    rfl_tensor t;
    if (x < 0 || x >= n->count) return RFL_NO_TENSOR;
    a = n->layers[x].shape[0], b = n->layers[x].shape[1], c = n->layers[x].shape[2];
    /* the merged dims must fit 32 bits (a huge resolution would wrap) */
    if ((uint64_t)a * b > 0xFFFFFFFFu || (uint64_t)b * c > 0xFFFFFFFFu)
        return rfl__ly_fail(n, RFL_ERR_OVERFLOW, "permute");
    t = rfl_reshape(n, x, to_last ? a : a * b, to_last ? b * c : c, 0, 0);
    t = rfl_name(n, rfl_transpose(n, t, 0, 1), name);
    if (t >= 0) {
        n->layers[t].flags |= RFL_LF_MODULE;
        n->layers[t].cls = "Permute";
    }
    return to_last ? rfl_reshape(n, t, b, c, a, 0) : rfl_reshape(n, t, c, a, b, 0);
}

static rfl_tensor rfl__zconvnext_tiny(rfl_net *n, rfl_tensor x) {
    static const uint16_t dim[4] = {96, 192, 384, 768}, dep[4] = {3, 3, 9, 3};
    int i, j, f = 0;
    rfl_scope_push(n, "features");
    rfl_scope_pushi(n, f++);
    x = rfl__zconv(n, x, "0", 96, 4, 4, 0, 1, 1);
    x = rfl__zln2d(n, x, "1");
    rfl_scope_pop(n);
    for (i = 0; i < 4; i++) {
        rfl_scope_pushi(n, f++);
        for (j = 0; j < dep[i]; j++) {
            rfl_tensor y, ls;
            uint32_t d = dim[i];
            rfl_scope_pushi(n, j);
            rfl_scope_push(n, "block");
            y = rfl__zconv(n, x, "0", d, 7, 1, 3, d, 1);
            y = rfl__zpermute(n, y, "1", 1);
            y = rfl_name(n, rfl_layernorm(n, y), "2");
            y = rfl_name(n, rfl_linear(n, y, 4 * d, 1), "3");
            y = rfl_name(n, rfl_act(n, y, RFL_ACT_GELU), "4");
            y = rfl_name(n, rfl_linear(n, y, d, 1), "5");
            y = rfl__zpermute(n, y, "6", 0);
            rfl_scope_pop(n);
            ls = rfl_name(n, rfl_param(n, d, 1, 1), "layer_scale");
            y = rfl_mul(n, y, ls);
            y = rfl_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
            y = rfl_add(n, y, x);
            x = rfl__zmark(n, y, "CNBlock");
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
        if (i < 3) {
            rfl_scope_pushi(n, f++);
            x = rfl__zln2d(n, x, "0");
            x = rfl__zconv(n, x, "1", dim[i + 1], 2, 2, 0, 1, 1);
            rfl_scope_pop(n);
        }
    }
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    rfl_scope_push(n, "classifier");
    x = rfl__zln2d(n, x, "0");
    x = rfl_name(n, rfl_flatten(n, x), "1");
    if (x >= 0) n->layers[x].flags |= RFL_LF_MODULE; /* nn.Flatten */
    x = rfl_name(n, rfl_linear(n, x, 1000, 1), "2");
    rfl_scope_pop(n);
    return x;
}

/* ---- Swin-T: 7x7 windows; the res must keep every stage a multiple of 7
   (res a multiple of 224): window padding is not modelled ---- */
static rfl_tensor rfl__zswin_attention(rfl_net *n, rfl_tensor x, uint32_t heads) {
    uint32_t H, W, C, nw, N = 49, hd;
    rfl_tensor qkv, q, k, v, a, bias;
    if (x < 0 || x >= n->count) return RFL_NO_TENSOR;
    H = n->layers[x].shape[0], W = n->layers[x].shape[1], C = n->layers[x].shape[2];
    nw = (H / 7) * (W / 7), hd = C / heads;
    rfl_scope_push(n, "attn");
    x = rfl_reshape(n, x, nw, N, C, 0); /* window partition */
    /* F.linear with the qkv and proj weights: the Linear modules never run */
    qkv = rfl__zfn(n, rfl_name(n, rfl_linear(n, x, 3 * C, 1), "qkv"));
    q = rfl_reshape(n, rfl_slice(n, qkv, 2, 0, C), nw, heads, N, hd);
    k = rfl_reshape(n, rfl_slice(n, qkv, 2, C, C), nw, heads, hd, N);
    v = rfl_reshape(n, rfl_slice(n, qkv, 2, 2 * C, C), nw, heads, N, hd);
    a = rfl_matmul(n, q, k);
    /* relative position bias: a (2 x 7 - 1)^2 x heads table, gathered */
    bias = rfl_name(n, rfl_param(n, heads, N, N), "relative_position_bias_table");
    if (bias >= 0) n->layers[bias].params = 169ull * heads;
    a = rfl_add(n, a, rfl_reshape(n, bias, 1, heads, N, N));
    a = rfl__zfn(n, rfl_softmax(n, a));
    a = rfl_matmul(n, a, v);
    a = rfl_reshape(n, a, nw, N, C, 0);
    a = rfl__zfn(n, rfl_name(n, rfl_linear(n, a, C, 1), "proj"));
    a = rfl_reshape(n, a, H, W, C, 0); /* window reverse */
    a = rfl__zmark(n, a, "ShiftedWindowAttention");
    rfl_scope_pop(n);
    return a;
}

static rfl_tensor rfl__zswin_t(rfl_net *n, rfl_tensor x, uint32_t res) {
    static const uint16_t dep[4] = {2, 2, 6, 2}, heads[4] = {3, 6, 12, 24};
    int i, j, f = 0;
    if (res % 224) return rfl__ly_fail(n, RFL_ERR_SHAPE, "swin_t: res must be a multiple of 224");
    rfl_scope_push(n, "features");
    rfl_scope_pushi(n, f++);
    x = rfl__zconv(n, x, "0", 96, 4, 4, 0, 1, 1);
    x = rfl__zpermute(n, x, "1", 1);
    x = rfl_name(n, rfl_layernorm(n, x), "2");
    rfl_scope_pop(n);
    for (i = 0; i < 4; i++) {
        rfl_scope_pushi(n, f++);
        for (j = 0; j < dep[i]; j++) {
            rfl_tensor y;
            uint32_t c = rfl__zch(n, x) ? n->layers[x].shape[2] : 0;
            rfl_scope_pushi(n, j);
            y = rfl_name(n, rfl_layernorm(n, x), "norm1");
            y = rfl__zswin_attention(n, y, heads[i]);
            y = rfl_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
            x = rfl_add(n, x, y);
            y = rfl_name(n, rfl_layernorm(n, x), "norm2");
            rfl_scope_push(n, "mlp");
            y = rfl_name(n, rfl_linear(n, y, 4 * c, 1), "0");
            y = rfl_name(n, rfl_act(n, y, RFL_ACT_GELU), "1");
            y = rfl_name(n, rfl_dropout(n, y), "2");
            y = rfl_name(n, rfl_linear(n, y, c, 1), "3");
            y = rfl_name(n, rfl_dropout(n, y), "4");
            rfl_scope_pop(n);
            y = rfl_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
            x = rfl_add(n, x, y);
            x = rfl__zmark(n, x, "SwinTransformerBlock");
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
        if (i < 3) { /* PatchMerging: 2x2 neighbours to channels */
            uint32_t h = x >= 0 ? n->layers[x].shape[0] : 0, w = x >= 0 ? n->layers[x].shape[1] : 0;
            uint32_t c = x >= 0 ? n->layers[x].shape[2] : 0;
            rfl_scope_pushi(n, f++);
            x = rfl_reshape(n, x, h / 2, w / 2, 4 * c, 0);
            x = rfl_name(n, rfl_layernorm(n, x), "norm");
            x = rfl_name(n, rfl_linear(n, x, 2 * c, 0), "reduction");
            x = rfl__zmark(n, x, "PatchMerging");
            rfl_scope_pop(n);
        }
    }
    rfl_scope_pop(n);
    x = rfl_name(n, rfl_layernorm(n, x), "norm");
    x = rfl__zpermute(n, x, "permute", 0);
    x = rfl_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_name(n, rfl_flatten(n, x), "flatten");
    if (x >= 0) n->layers[x].flags |= RFL_LF_MODULE; /* nn.Flatten */
    return rfl_name(n, rfl_linear(n, x, 1000, 1), "head");
}

/* The twelve of the issue first, then more of torchvision's. */
enum {
    RFL__Z_RESNET18, RFL__Z_RESNET34, RFL__Z_RESNET50, RFL__Z_ALEXNET, RFL__Z_VGG16,
    RFL__Z_MOBILENET_V2, RFL__Z_MOBILENET_V3_LARGE, RFL__Z_SQUEEZENET1_1,
    RFL__Z_SHUFFLENET_V2_X1_0, RFL__Z_EFFICIENTNET_B0, RFL__Z_DENSENET121, RFL__Z_VIT_B_16,
    RFL__Z_RESNET101, RFL__Z_RESNET152, RFL__Z_WIDE_RESNET50_2, RFL__Z_RESNEXT50_32X4D,
    RFL__Z_VGG11, RFL__Z_VGG19, RFL__Z_MOBILENET_V3_SMALL, RFL__Z_SQUEEZENET1_0,
    RFL__Z_SHUFFLENET_V2_X0_5, RFL__Z_EFFICIENTNET_B1, RFL__Z_DENSENET169, RFL__Z_VIT_B_32,
    RFL__Z_MNASNET1_0, RFL__Z_GOOGLENET, RFL__Z_INCEPTION_V3, RFL__Z_REGNET_Y_400MF,
    RFL__Z_CONVNEXT_TINY, RFL__Z_SWIN_T, RFL__Z_COUNT
};
static const char *const rfl__zoo_names[RFL__Z_COUNT] = {
    "resnet18", "resnet34", "resnet50", "alexnet", "vgg16", "mobilenet_v2",
    "mobilenet_v3_large", "squeezenet1_1", "shufflenet_v2_x1_0", "efficientnet_b0",
    "densenet121", "vit_b_16", "resnet101", "resnet152", "wide_resnet50_2",
    "resnext50_32x4d", "vgg11", "vgg19", "mobilenet_v3_small", "squeezenet1_0",
    "shufflenet_v2_x0_5", "efficientnet_b1", "densenet169", "vit_b_32", "mnasnet1_0", "googlenet",
    "inception_v3", "regnet_y_400mf", "convnext_tiny", "swin_t"};

RFL_API int rfl_zoo_count(void) { return RFL__Z_COUNT; }
RFL_API const char *rfl_zoo_name(int i) {
    return (i >= 0 && i < RFL__Z_COUNT) ? rfl__zoo_names[i] : (const char *)0;
}

RFL_API rfl_result rfl_zoo_build(rfl_net *net, const char *name, uint32_t res) {
    static const uint8_t r18[4] = {2, 2, 2, 2}, r34[4] = {3, 4, 6, 3}, r101[4] = {3, 4, 23, 3},
                         r152[4] = {3, 8, 36, 3};
    static const uint8_t v11[5] = {1, 1, 2, 2, 2}, v16[5] = {2, 2, 3, 3, 3},
                         v19[5] = {2, 2, 4, 4, 4};
    static const uint8_t d121[4] = {6, 12, 24, 16}, d169[4] = {6, 12, 32, 32};
    static const uint8_t eb0[7] = {1, 2, 2, 3, 3, 4, 1}, eb1[7] = {2, 3, 3, 4, 4, 5, 2};
    static const uint16_t sh10[3] = {116, 232, 464}, sh05[3] = {48, 96, 192};
    int i, which = -1;
    rfl_tensor x;
    if (!net || !name) return RFL_ERR_ARG;
    if (net->err) return net->err;
    if (net->count) return RFL_ERR_STATE;
    for (i = 0; i < RFL__Z_COUNT; i++)
        if (rfl_name_eq(name, rfl__zoo_names[i])) which = i;
    if (which < 0) return RFL_ERR_UNKNOWN_NAME;
    if (!res) res = which == RFL__Z_INCEPTION_V3 ? 299 : 224;
    x = rfl_name(net, rfl_input(net, 3, res, res), "input");
    switch (which) {
    case RFL__Z_RESNET18: rfl__zresnet(net, x, r18, 0, 1, 64); break;
    case RFL__Z_RESNET34: rfl__zresnet(net, x, r34, 0, 1, 64); break;
    case RFL__Z_RESNET50: rfl__zresnet(net, x, r34, 1, 1, 64); break;
    case RFL__Z_RESNET101: rfl__zresnet(net, x, r101, 1, 1, 64); break;
    case RFL__Z_RESNET152: rfl__zresnet(net, x, r152, 1, 1, 64); break;
    case RFL__Z_WIDE_RESNET50_2: rfl__zresnet(net, x, r34, 1, 1, 128); break;
    case RFL__Z_RESNEXT50_32X4D: rfl__zresnet(net, x, r34, 1, 32, 4); break;
    case RFL__Z_ALEXNET: rfl__zalexnet(net, x); break;
    case RFL__Z_VGG11: rfl__zvgg(net, x, v11); break;
    case RFL__Z_VGG16: rfl__zvgg(net, x, v16); break;
    case RFL__Z_VGG19: rfl__zvgg(net, x, v19); break;
    case RFL__Z_MOBILENET_V2: rfl__zmobilenet_v2(net, x); break;
    case RFL__Z_MOBILENET_V3_LARGE: rfl__zmobilenet_v3(net, x, rfl__zmbv3_large, 15, 1280); break;
    case RFL__Z_MOBILENET_V3_SMALL: rfl__zmobilenet_v3(net, x, rfl__zmbv3_small, 11, 1024); break;
    case RFL__Z_SQUEEZENET1_0: rfl__zsqueezenet(net, x, 1); break;
    case RFL__Z_SQUEEZENET1_1: rfl__zsqueezenet(net, x, 0); break;
    case RFL__Z_SHUFFLENET_V2_X1_0: rfl__zshufflenet_v2(net, x, sh10); break;
    case RFL__Z_SHUFFLENET_V2_X0_5: rfl__zshufflenet_v2(net, x, sh05); break;
    case RFL__Z_EFFICIENTNET_B0: rfl__zefficientnet(net, x, eb0); break;
    case RFL__Z_EFFICIENTNET_B1: rfl__zefficientnet(net, x, eb1); break;
    case RFL__Z_DENSENET121: rfl__zdensenet(net, x, d121); break;
    case RFL__Z_DENSENET169: rfl__zdensenet(net, x, d169); break;
    case RFL__Z_VIT_B_16: rfl__zvit_b(net, x, res, 16); break;
    case RFL__Z_VIT_B_32: rfl__zvit_b(net, x, res, 32); break;
    case RFL__Z_MNASNET1_0: rfl__zmnasnet(net, x); break;
    case RFL__Z_GOOGLENET: rfl__zgooglenet(net, x); break;
    case RFL__Z_INCEPTION_V3: rfl__zinception_v3(net, x); break;
    case RFL__Z_REGNET_Y_400MF: rfl__zregnet_y_400mf(net, x); break;
    case RFL__Z_CONVNEXT_TINY: rfl__zconvnext_tiny(net, x); break;
    case RFL__Z_SWIN_T: rfl__zswin_t(net, x, res); break;
    default: break;
    }
    return net->err;
}
#endif /* RFL_NO_ZOO */
