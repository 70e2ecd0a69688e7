/* ---- layers part: API ------------------------------------------------------
   Layer cost formulas over a network the caller builds into its own array
   of layer records, and a zoo of torchvision models built the same way.

   A network is a list of layers; a tensor is named by the index of the
   layer that produced it (rfl_tensor). Shapes are per sample: the batch is
   applied when costs are computed, so one built network answers for every
   batch size. The builder keeps the first error in the net (sticky, like a
   stream): after an error every builder call returns RFL_NO_TENSOR and
   changes nothing, so a model can be written as straight-line code and
   checked once at the end (net.err, net.err_layer, net.err_what).

       rfl_layer rec[64];
       rfl_net net;
       rfl_tensor x, y;
       rfl_net_init(&net, rec, 64, 0, 0);
       x = rfl_input(&net, 3, 32, 32);
       y = rfl_conv(&net, x, 16, 3, 1, 1);
       y = rfl_batchnorm(&net, y);
       y = rfl_act(&net, y, RFL_ACT_RELU);
       y = rfl_add(&net, y, rfl_conv(&net, x, 16, 1, 1, 0));  residual branch
       y = rfl_linear(&net, rfl_flatten(&net, rfl_adaptive_avgpool(&net, y, 1, 1)), 10, 1);
       if (net.err) ... rfl_result_str(net.err), net.err_layer, net.err_what

   Costs (rfl_layer_cost_get, rfl_net_cost_get) are exact 64-bit integers; sizes
   that overflow 64 bits are RFL_ERR_OVERFLOW, never a wrapped number. The
   FLOP conventions are in the LAYERS section of the manual at the top of
   roofline.h. Compile the zoo out with RFL_NO_ZOO (the builder stays). */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- data types ------------------------------------------------------------ */
typedef enum rfl_dtype {
    RFL_DTYPE_FP32 = 0, /* 4 bytes; FLOPs under the FP32 roof */
    RFL_DTYPE_FP16,     /* 2 bytes; conv/matmul under FP16 tensor, rest FP16 SIMT */
    RFL_DTYPE_BF16,     /* 2 bytes; conv/matmul under BF16 tensor, rest FP16 SIMT */
    RFL_DTYPE_INT8,     /* 1 byte;  conv/matmul under INT8 tensor, rest FP32 */
    RFL_DTYPE_COUNT
} rfl_dtype;

/* "fp32", "fp16", "bf16", "int8" ("?" when out of range). */
RFL_API const char *rfl_dtype_name(rfl_dtype d);
/* Bytes per element: 4, 2, 2, 1 (0 when out of range). */
RFL_API int rfl_dtype_bytes(rfl_dtype d);
/* Parse a dtype name, case-insensitive: fp32/float32/float, fp16/float16/
   half, bf16/bfloat16, int8. RFL_ERR_UNKNOWN_NAME otherwise. */
RFL_API rfl_result rfl_dtype_parse(const char *name, rfl_dtype *out);

/* ---- layer operations and their groups -------------------------------------- */
typedef enum rfl_op {
    RFL_OP_INPUT = 0,     /* the network input */
    RFL_OP_PARAM,         /* a learned tensor (class token, position embedding) */
    RFL_OP_CONV2D,
    RFL_OP_LINEAR,
    RFL_OP_MATMUL,        /* batched: [..., M, K] x [..., K, N] */
    RFL_OP_ATTENTION,     /* scaled dot-product attention, all heads */
    RFL_OP_BATCHNORM,
    RFL_OP_LAYERNORM,
    RFL_OP_ACT,           /* an activation, see rfl_act_kind */
    RFL_OP_SOFTMAX,
    RFL_OP_MAXPOOL,
    RFL_OP_AVGPOOL,
    RFL_OP_ADAPTIVE_AVGPOOL,
    RFL_OP_ADD,
    RFL_OP_MUL,
    RFL_OP_CONCAT,
    RFL_OP_SHUFFLE,       /* channel shuffle */
    RFL_OP_FLATTEN,
    RFL_OP_RESHAPE,
    RFL_OP_TRANSPOSE,
    RFL_OP_SLICE,
    RFL_OP_DROPOUT,
    RFL_OP_EMBEDDING,
    RFL_OP_MARK,          /* a module boundary (BasicBlock ...): no cost, a
                             row of the torchsummary table only */
    RFL_OP_COUNT
} rfl_op;

typedef enum rfl_act_kind {
    RFL_ACT_RELU = 0,
    RFL_ACT_RELU6,
    RFL_ACT_GELU,
    RFL_ACT_SILU,
    RFL_ACT_HARDSWISH,
    RFL_ACT_HARDSIGMOID,
    RFL_ACT_SIGMOID,
    RFL_ACT_TANH,
    RFL_ACT_COUNT
} rfl_act_kind;

/* Layer groups, for reports that sum by type. */
typedef enum rfl_ltype {
    RFL_LT_CONV = 0,    /* conv2d */
    RFL_LT_MATMUL,      /* linear, matmul, attention */
    RFL_LT_NORM,        /* batchnorm, layernorm */
    RFL_LT_ELEMENTWISE, /* activations, add, mul */
    RFL_LT_POOL,        /* max, avg, adaptive avg */
    RFL_LT_REDUCTION,   /* softmax */
    RFL_LT_EMBEDDING,
    RFL_LT_DATA,        /* concat, shuffle, flatten, reshape, transpose,
                           slice, dropout: data movement, no FLOPs */
    RFL_LT_OTHER,       /* input, param, mark */
    RFL_LT_COUNT
} rfl_ltype;

/* "conv2d", "linear", ..., "mark" / "relu", "gelu", ... / "conv", "matmul",
   "norm", "elementwise", "pool", "reduction", "embedding", "data", "other".
   "?" when out of range. */
RFL_API const char *rfl_op_name(rfl_op op);
RFL_API const char *rfl_act_name(rfl_act_kind a);
RFL_API const char *rfl_ltype_name(rfl_ltype t);
/* The group of an op. */
RFL_API rfl_ltype rfl_op_ltype(rfl_op op);

/* ---- records and the network ------------------------------------------------ */
typedef int rfl_tensor;      /* index of the producing layer; < 0: none */
#define RFL_NO_TENSOR (-1)
#define RFL_MAX_RANK 4       /* per-sample dimensions (batch excluded) */

/* rfl_layer.flags */
#define RFL_LF_MODULE 0x01u  /* a torch module: a row of the torchsummary table */
#define RFL_LF_BIAS 0x02u    /* conv / linear with a bias */
#define RFL_LF_NOGRAD 0x04u  /* its input needs no gradient (the first layer) */
#define RFL_LF_SHARED 0x08u  /* output is not per sample (a param tensor) */
#define RFL_LF_VIEW 0x10u    /* output aliases its input: no bytes, no memory */
#define RFL_LF_CEIL 0x20u    /* pooling with ceil_mode */

/* One layer: 112 bytes on LP64. Per-sample counts are computed once when
   the layer is added; rfl_layer_cost scales them by the batch. */
typedef struct rfl_layer {
    const char *name;     /* "layer1.0.conv1" (names arena / caller string) or
                             NULL: tables then print "Conv2d-5" */
    const char *cls;      /* class name of a mark ("BasicBlock") or one a
                             model sets ("LayerNorm2d"); NULL: from the op */
    uint64_t params;      /* learned parameters */
    uint64_t in_numel;    /* elements read from activations, per sample */
    uint64_t out_numel;   /* output elements, per sample */
    uint64_t mac_flops;   /* 2 x multiply-adds of conv/matmul, per sample */
    uint64_t flops;       /* every FLOP (mac_flops included), per sample */
    uint64_t bias_flops;  /* bias adds of linear layers, per sample (for the
                             pen-and-paper convention) */
    rfl_tensor in[2];     /* producing layers of the first two inputs */
    uint32_t shape[RFL_MAX_RANK]; /* per-sample output dims */
    uint32_t arg[4];      /* op arguments: conv kh, kw, stride_h, groups;
                             pools kh, kw, stride_h; act kind; shuffle groups;
                             attention heads; slice dim, start */
    uint8_t op;           /* rfl_op */
    uint8_t rank;         /* 1..RFL_MAX_RANK */
    uint8_t flags;        /* RFL_LF_* */
    uint8_t needs_grad;   /* 1 when the output depends on a parameter */
} rfl_layer;

typedef struct rfl_net {
    rfl_layer *layers;    /* the caller's array */
    int cap;              /* its length */
    int count;            /* layers used */
    char *names;          /* optional arena for full dotted names; NULL: none */
    size_t names_size, names_used;
    char scope[96];       /* current name prefix ("layer1.0"), see rfl_scope_push */
    size_t scope_len;
    rfl_result err;       /* first builder error, RFL_OK when none */
    int err_layer;        /* index the failing layer would have had */
    const char *err_what; /* op name of the failing call ("conv2d"); the
                             scope stays where the error happened */
} rfl_net;

/* Set up an empty network over the caller's array.
   in:  layers[cap] (cap >= 1), optional names arena names[names_size]
        (NULL/0: layers keep only names given as static strings).
   out: *net. Returns RFL_ERR_ARG for a NULL net/array or cap < 1.
   Memory: cap x sizeof(rfl_layer); the zoo needs at most RFL_ZOO_MAX_LAYERS
   records and RFL_ZOO_NAMES_SIZE bytes of names. */
RFL_API rfl_result rfl_net_init(rfl_net *net, rfl_layer *layers, int cap, char *names,
                                size_t names_size);

/* Names. With an arena, layers get "scope.name" (torch's dotted module
   path; name "" gives the scope itself); without one, rfl_name keeps the
   caller's pointer and ignores the scope.
   rfl_scope_push appends ".part" to the scope (part may be "3"); pop
   removes the last part. A scope deeper than 95 bytes is RFL_ERR_BUFFER.
   rfl_scope_pushi pushes a decimal index. */
RFL_API void rfl_scope_push(rfl_net *net, const char *part);
RFL_API void rfl_scope_pushi(rfl_net *net, int index);
RFL_API void rfl_scope_pop(rfl_net *net);
/* Name layer t (the string is copied into the arena under the current
   scope, or kept as a pointer when there is no arena: it must outlive the
   net). Returns t, so calls nest: rfl_name(&net, rfl_conv(...), "conv1"). */
RFL_API rfl_tensor rfl_name(rfl_net *net, rfl_tensor t, const char *name);

/* ---- the builder -------------------------------------------------------------
   Every call appends one layer and returns its output tensor, or
   RFL_NO_TENSOR after recording the error in net (RFL_ERR_SHAPE for a bad
   shape or argument, RFL_ERR_BUFFER when the array is full,
   RFL_ERR_OVERFLOW when a size overflows 64 bits, RFL_ERR_ARG for a
   tensor handle that names no layer). */

/* The network input, per sample: (C, H, W) for images, (L, 0, 0) token ids
   for an embedding, (L, D, 0) a sequence. Trailing zeros end the shape.
   Must be the first layer. */
RFL_API rfl_tensor rfl_input(rfl_net *net, uint32_t d0, uint32_t d1, uint32_t d2);
/* A learned tensor of the given per-sample shape (shared by the batch):
   a class token (1, D, 0) or a position embedding (L, D, 0). */
RFL_API rfl_tensor rfl_param(rfl_net *net, uint32_t d0, uint32_t d1, uint32_t d2);

/* 2-D convolution over x = (C, H, W). kernel_w, stride_w, dilation_w of 0
   copy the _h value; when kernel_w is 0 pad_w copies pad_h as well.
   Output H = (H + 2 pad - dilation (k - 1) - 1) / stride + 1. */
typedef struct rfl_conv_desc {
    uint32_t out_channels;
    uint32_t kernel_h, kernel_w;
    uint32_t stride_h, stride_w;     /* 0 = 1 */
    uint32_t pad_h, pad_w;
    uint32_t dilation_h, dilation_w; /* 0 = 1 */
    uint32_t groups;                 /* 0 = 1; divides C and out_channels */
    int bias;                        /* nonzero: one bias per out channel */
} rfl_conv_desc;
RFL_API rfl_tensor rfl_conv_ex(rfl_net *net, rfl_tensor x, const rfl_conv_desc *d);
/* Square kernel, no groups, no dilation, no bias. */
RFL_API rfl_tensor rfl_conv(rfl_net *net, rfl_tensor x, uint32_t out_channels,
                            uint32_t kernel, uint32_t stride, uint32_t pad);

/* Linear layer on the last dimension: (..., in) -> (..., out). */
RFL_API rfl_tensor rfl_linear(rfl_net *net, rfl_tensor x, uint32_t out_features, int bias);
/* Batched matrix product of two activations: a (..., M, K) x b (..., K, N)
   -> (..., M, N); leading dims equal. Both operands get gradients. */
RFL_API rfl_tensor rfl_matmul(rfl_net *net, rfl_tensor a, rfl_tensor b);
/* Scaled dot-product attention of q (Lq, D), k (Lk, D), v (Lk, Dv) with
   `heads` heads (dividing D and Dv): softmax(q k^T / sqrt(d)) v -> (Lq, Dv).
   mac_flops = 2 Lq Lk D + 2 Lq Lk Dv, FlopCounterMode's count for SDPA. */
RFL_API rfl_tensor rfl_attention(rfl_net *net, rfl_tensor q, rfl_tensor k, rfl_tensor v,
                                 uint32_t heads);

/* Normalisation: batchnorm over dim 0 (channels), layernorm over the last
   dim; 2 x (normalised size) parameters each (scale and shift). */
RFL_API rfl_tensor rfl_batchnorm(rfl_net *net, rfl_tensor x);
RFL_API rfl_tensor rfl_layernorm(rfl_net *net, rfl_tensor x);
RFL_API rfl_tensor rfl_act(rfl_net *net, rfl_tensor x, rfl_act_kind kind);
/* Softmax over the last dimension. */
RFL_API rfl_tensor rfl_softmax(rfl_net *net, rfl_tensor x);

/* Pooling over (C, H, W), square window; pad <= kernel / 2; ceil_mode as
   torch (a last window must start inside the input or left padding). */
RFL_API rfl_tensor rfl_maxpool(rfl_net *net, rfl_tensor x, uint32_t kernel, uint32_t stride,
                               uint32_t pad, int ceil_mode);
RFL_API rfl_tensor rfl_avgpool(rfl_net *net, rfl_tensor x, uint32_t kernel, uint32_t stride,
                               uint32_t pad, int ceil_mode);
/* Adaptive average pooling to (C, out_h, out_w), torch's windows. */
RFL_API rfl_tensor rfl_adaptive_avgpool(rfl_net *net, rfl_tensor x, uint32_t out_h,
                                        uint32_t out_w);

/* Elementwise a + b and a * b; b is equal to a or broadcasts to it (each of
   its dims equal or 1: squeeze-excitation scales (C, 1, 1)). */
RFL_API rfl_tensor rfl_add(rfl_net *net, rfl_tensor a, rfl_tensor b);
RFL_API rfl_tensor rfl_mul(rfl_net *net, rfl_tensor a, rfl_tensor b);
/* Concatenate n >= 1 tensors along dim (0 = channels); other dims equal. */
RFL_API rfl_tensor rfl_concat(rfl_net *net, const rfl_tensor *xs, int n, int dim);
/* Channel shuffle of (C, H, W) with groups dividing C. */
RFL_API rfl_tensor rfl_shuffle(rfl_net *net, rfl_tensor x, uint32_t groups);
/* Flatten every per-sample dim into one (torch.flatten(x, 1)); a view. */
RFL_API rfl_tensor rfl_flatten(rfl_net *net, rfl_tensor x);
/* View x as (d0, d1, d2, d3), trailing zeros end the shape; same numel. */
RFL_API rfl_tensor rfl_reshape(rfl_net *net, rfl_tensor x, uint32_t d0, uint32_t d1,
                               uint32_t d2, uint32_t d3);
/* Swap two per-sample dims (a copy: bytes, no FLOPs). */
RFL_API rfl_tensor rfl_transpose(rfl_net *net, rfl_tensor x, int dim_a, int dim_b);
/* x[..., start:start+len, ...] along dim (channel split, class token); a view. */
RFL_API rfl_tensor rfl_slice(rfl_net *net, rfl_tensor x, int dim, uint32_t start,
                             uint32_t len);
/* Dropout: identity in inference, a mask in training; no FLOPs. */
RFL_API rfl_tensor rfl_dropout(rfl_net *net, rfl_tensor x);
/* Embedding lookup: ids (L) -> (L, dim); vocab x dim parameters. */
RFL_API rfl_tensor rfl_embedding(rfl_net *net, rfl_tensor ids, uint32_t vocab, uint32_t dim);
/* A module boundary: x passes through unchanged; the record is a row of the
   torchsummary table named cls ("BasicBlock", a static string) and costs
   nothing. torchsummary counts container outputs in its pass size. */
RFL_API rfl_tensor rfl_mark(rfl_net *net, rfl_tensor x, const char *cls);

/* Torch class name of layer i as torchsummary prints it ("Conv2d", "ReLU",
   "BatchNorm2d", a mark's cls; functional ops: "add", "cat", ...). */
RFL_API const char *rfl_layer_class(const rfl_net *net, int i);
/* Write the torchsummary label of layer i into buf: "Conv2d-5", the class
   and the 1-based index among the module rows (functional layers: "add-12",
   their layer index). The dotted name is layers[i].name. Returns the
   length, 0 when it does not fit (buf gets ""). */
RFL_API size_t rfl_layer_label(const rfl_net *net, int i, char *buf, size_t size);
/* Write "(B, C, H, W)" style output shape with the given batch (0: "-1",
   as torchsummary). Returns the length, 0 when it does not fit. */
RFL_API size_t rfl_layer_shape_str(const rfl_net *net, int i, uint64_t batch, char *buf,
                                   size_t size);

/* ---- costs -------------------------------------------------------------------- */
typedef enum rfl_flop_conv {
    RFL_CONV_TORCH = 0, /* mac_flops as FlopCounterMode / torchvision GFLOPS */
    RFL_CONV_REPORT     /* pen and paper: linear = 2 in out + out (bias) */
} rfl_flop_conv;

typedef enum rfl_mode {
    RFL_MODE_INFER = 0, /* forward only */
    RFL_MODE_TRAIN      /* forward + backward */
} rfl_mode;

/* Evaluation settings; zero means default. */
typedef struct rfl_cost_desc {
    uint64_t batch;           /* 0 = 1 */
    rfl_dtype dtype;          /* 0 = fp32 */
    rfl_flop_conv convention; /* 0 = torch */
    rfl_mode mode;            /* 0 = inference. Selects what the predictions
                                 time (forward, or forward + backward) and
                                 whether dropout moves bytes */
} rfl_cost_desc;

/* Cost of one layer at a batch: exact counts. */
typedef struct rfl_layer_cost {
    uint64_t params;
    uint64_t fwd_mac_flops, fwd_flops, fwd_bytes;
    uint64_t bwd_mac_flops, bwd_flops, bwd_bytes;
    uint64_t act_bytes;  /* activation memory kept for the backward pass */
} rfl_layer_cost;

/* Cost of layer i (see the LAYERS manual section for every formula).
   Returns RFL_ERR_ARG for a bad index, RFL_ERR_OVERFLOW when a count at
   this batch overflows 64 bits. */
RFL_API rfl_result rfl_layer_cost_get(const rfl_net *net, int i, const rfl_cost_desc *d,
                                      rfl_layer_cost *out);
/* Forward and backward work of layer i, FLOPs under the dtype's precision
   (fp32: RFL_FP32; fp16/bf16: conv and matmul FLOPs under the tensor
   precision, the rest under RFL_FP16; int8: conv and matmul under
   RFL_INT8_TENSOR, the rest under RFL_FP32), bytes at RFL_DRAM, L2 and L1
   marked unknown, no time. fwd or bwd may be NULL. */
RFL_API rfl_result rfl_layer_work(const rfl_net *net, int i, const rfl_cost_desc *d,
                                  rfl_work *fwd, rfl_work *bwd);

typedef struct rfl_net_cost {
    uint64_t params, param_bytes;
    uint64_t input_bytes;            /* the network input at the batch */
    uint64_t fwd_mac_flops, fwd_flops, fwd_bytes;
    uint64_t bwd_mac_flops, bwd_flops, bwd_bytes;
    uint64_t activation_bytes;       /* kept for backward, input included */
    uint64_t train_sgd_bytes;        /* weights + grads + 1 momentum + activations */
    uint64_t train_adam_bytes;       /* weights + grads + 2 moments + activations */
    rfl_work forward, backward;      /* the summed works */
    int layers;                      /* layers with a cost (marks excluded) */
} rfl_net_cost;

/* Totals over the network. Returns the first layer error (RFL_ERR_OVERFLOW)
   or RFL_ERR_STATE when the net holds a builder error. */
RFL_API rfl_result rfl_net_cost_get(const rfl_net *net, const rfl_cost_desc *d,
                                    rfl_net_cost *out);

/* ---- predicted time ------------------------------------------------------------ */
/* Layer i on machine m: rfl_predict of its forward work (inference) or
   forward + backward work (training, d->mode). RFL_ERR_NO_ROOF when the
   machine has no roof for the dtype's precisions. */
RFL_API rfl_result rfl_layer_predict(const rfl_net *net, int i, const rfl_cost_desc *d,
                                     const rfl_machine *m, rfl_prediction *out);

typedef struct rfl_net_prediction {
    double layers_s;        /* sum over layers of max(compute, memory) */
    double compute_s;       /* sum over layers of the compute terms */
    double memory_s;        /* sum over layers of the memory terms */
    int compute_layers;     /* layers whose compute term binds */
    int memory_layers;      /* layers whose memory term binds */
    rfl_prediction whole;   /* the whole model as one piece of work */
} rfl_net_prediction;
/* Predicted time of the network: per layer, summed, and whole. */
RFL_API rfl_result rfl_net_predict(const rfl_net *net, const rfl_cost_desc *d,
                                   const rfl_machine *m, rfl_net_prediction *out);

/* ---- torchsummary ----------------------------------------------------------------
   The totals torchsummary (sksq96/pytorch-summary) prints: it hooks every
   module except containers (Sequential, ModuleList) and the model itself,
   once per call, runs batch -1 and counts per sample at 4 bytes/element,
   MB = 2^20 bytes: input = numel(input) x 4; forward/backward = 2 x sum of
   every row's output numel x 4; params = params x 4. */
typedef struct rfl_summary {
    int rows;               /* hooked module calls (RFL_LF_MODULE layers) */
    uint64_t params;        /* sum of the rows' params */
    double input_mb, fwd_bwd_mb, params_mb, total_mb;
} rfl_summary;
RFL_API rfl_result rfl_net_summary(const rfl_net *net, rfl_summary *out);

/* ---- the zoo ---------------------------------------------------------------------
   torchvision 0.26's models at any resolution, 3 input channels, 1000
   classes, eval-mode structure; names are torch's module paths. */
#ifndef RFL_NO_ZOO
#define RFL_ZOO_MAX_LAYERS 720   /* records the largest model needs */
#define RFL_ZOO_NAMES_SIZE 32768 /* names arena the largest model needs */
/* Number of models and the i-th name (NULL when out of range). */
RFL_API int rfl_zoo_count(void);
RFL_API const char *rfl_zoo_name(int i);
/* Build model `name` (rfl_name_eq: case, '-', '_' ignored) for res x res
   inputs (0 = the model's default: 224, inception_v3 299) into an
   initialised, empty net. RFL_ERR_UNKNOWN_NAME for
   an unknown model; RFL_ERR_SHAPE when res is too small for the model;
   RFL_ERR_BUFFER when the array or names arena is too small. */
RFL_API rfl_result rfl_zoo_build(rfl_net *net, const char *name, uint32_t res);
#endif

#ifdef __cplusplus
}
#endif
