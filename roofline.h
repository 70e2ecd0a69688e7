/* roofline.h - v0.1.0 - roofline performance modeling for GPUs and CPUs - MIT
   https://example.invalid/roofline.h (single header; hw_specs.h beside it)

   Layer cost formulas, a hardware table, a streaming Nsight Compute / nvprof
   CSV reducer and a raster chart writer, with no allocation anywhere: every
   buffer comes from the caller.

   DO THIS
       #define ROOFLINE_IMPLEMENTATION
       #include "roofline.h"
   in *one* C or C++ file; include "roofline.h" without the define anywhere
   else. hw_specs.h must sit beside roofline.h (or define RFL_NO_HW_TABLE).

   OPTIONS (define before including; every one is off by default)
       ROOFLINE_STATIC        all functions static (RFL_API = static)
       RFL_API                override the decoration of public functions
       RFL_NO_STDIO           no <stdio.h>: no FILE helpers, no printing
       RFL_NO_HW_TABLE        leave out hw_specs.h (bring your own machines)
       RFL_NO_ZOO             leave out the built-in models
       RFL_NO_CHART           leave out the chart writer (and PNG)
       RFL_NO_PNG             leave out PNG output (stb_image_write)
       RFL_NO_ERROR_STRINGS   rfl_result_str() returns "" (saves rodata)
       RFL_ASSERT(x)          default: no check (define to assert(x) to debug)
       RFL_NO_SIMD            the reducer's portable path instead of SSE2
       RFL_NO_AVX2            no AVX2 / AVX-512BW row walker (x86-64 GCC
                              and clang pick it at run time from CPUID)
       RFL_SQRT RFL_FLOOR RFL_CEIL RFL_LOG10 RFL_POW RFL_FABS
                              libm replacements (defaults: <math.h>, used by
                              the chart only; the core needs no libm)
       RFL_MEMSET RFL_MEMCPY  default: GCC/clang builtins (memcpy/memset),
                              else the library's own byte loops

   QUICK START (a complete program; examples/minimal.c does it for the
   zoo's ResNet-18)
       #define ROOFLINE_IMPLEMENTATION
       #include "roofline.h"
       #include <stdio.h>
       int main(void) {
           const rfl_machine *a100; rfl_work w = {0}; rfl_bound b;
           if (rfl_hw_find("a100", &a100) != RFL_OK) return 1;
           w.flops[RFL_FP32] = 3.628e9;  w.bytes[RFL_DRAM] = 105e6;
           double ai = rfl_work_ai(&w, RFL_DRAM);
           double att = rfl_work_attainable(a100, &w, RFL_FP32, &b);
           printf("AI %.2f FLOP/B, %.1f TFLOP/s, %s-bound\n", ai, att / 1e12,
                  b.memory ? "memory" : "compute");
           return 0;
       }

   EXAMPLES (examples/, built by make into build/examples/, each runs with
   no arguments)
       minimal.c        ResNet-18's AI and bound on an A100, ten lines
       homework.c       estimate + reduce a profile + roofline + PNG: the
                        whole exercise (rfl-report does it for the CLI)
       stream_reduce.c  an ncu export from stdin, 4 KB chunks, one static
                        buffer
       custom_model.c   the builder: a residual block and a branch, costed
       own_hardware.c   rfl_cpu_desc + rfl_machine_from_cpu, its roofline
       embedded.c       static buffers only, no stdio, no heap

   CONVENTIONS (every number in this library)
       - A multiply-add is 2 FLOPs. int8 "FLOPs" are integer operations.
       - GB = 1e9 bytes, TB/s = 1e12 bytes/s (MB = 2^20 only in the
         torchsummary-compatible table, which says so).
       - Peaks are dense: a vendor's "with sparsity" figure is halved.
       - A precision's roof is used only for work of that precision: FP32
         work is never placed under a tensor-core roof.
       - Quantities a profile did not measure are *unknown*, never 0
         (rfl_work.unknown bits).

   API BY TASK
       Hardware:  rfl_hw_count rfl_hw_get rfl_hw_find rfl_hw_suggest
                  rfl_machine_from_cpu rfl_ridge rfl_attainable
       Work:      rfl_work_flops rfl_work_ai rfl_work_attainable rfl_predict
                  rfl_roof_fraction rfl_work_add
       Layers:    rfl_net_init rfl_input rfl_conv rfl_conv_ex rfl_linear
                  rfl_matmul rfl_attention rfl_batchnorm rfl_layernorm rfl_act
                  rfl_softmax rfl_maxpool rfl_avgpool rfl_adaptive_avgpool
                  rfl_add rfl_mul rfl_concat rfl_shuffle rfl_flatten
                  rfl_reshape rfl_transpose rfl_slice rfl_dropout
                  rfl_embedding rfl_param rfl_mark rfl_name rfl_scope_push
                  rfl_layer_cost_get rfl_layer_work rfl_layer_predict
                  rfl_net_cost_get rfl_net_predict rfl_net_summary
                  rfl_zoo_count rfl_zoo_name rfl_zoo_build (LAYERS below)
       Reducer:   rfl_reduce_init rfl_reduce_push rfl_reduce_finish
                  rfl_reduce_buffer rfl_kernel_tensor_flops
                  rfl_reduce_ceilings_machine rfl_csv_format_name (REDUCER below)
       Chart:     rfl_canvas_init rfl_chart_roofline rfl_chart_bars
                  rfl_chart_scatter rfl_chart_roofline_ascii rfl_draw_* rfl_fill_*
                  (CHART below)
       PNG:       rfl_png_write rfl_png_encode rfl_png_save rfl_png_arena_size
       Numbers:   rfl_fmt_num rfl_fmt_u64 rfl_fmt_si rfl_parse_num

   LAYERS (src/layers_api.h; tools/rfl-estimate.c uses all of it)
       A network lives in the caller's array of rfl_layer (112 bytes each);
       each builder call appends a layer, propagates the per-sample shape and
       returns a tensor handle for wiring branches. Errors are sticky: check
       net.err once at the end (net.err_layer, net.err_what say where).
           rfl_layer rec[32]; rfl_net net; rfl_tensor x, y;
           rfl_net_init(&net, rec, 32, NULL, 0);
           x = rfl_input(&net, 3, 32, 32);                  per sample
           y = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 16, 3, 1, 1)),
                       RFL_ACT_RELU);
           y = rfl_add(&net, y, rfl_conv(&net, x, 16, 1, 1, 0));   residual
           y = rfl_flatten(&net, rfl_adaptive_avgpool(&net, y, 1, 1));
           y = rfl_linear(&net, y, 10, 1);
           rfl_cost_desc d = {0}; d.batch = 256; rfl_net_cost c;
           if (net.err || rfl_net_cost_get(&net, &d, &c)) return 1;
       Counts are exact uint64 at the batch (overflow: RFL_ERR_OVERFLOW).
       mac_flops: 2 x multiply-adds of conv, linear, matmul and attention,
         no bias: PyTorch FlopCounterMode's and torchvision's GFLOPS x 2.
         Equal to FlopCounterMode for every zoo model (tests/test_zoo.c).
         RFL_CONV_REPORT, the pen-and-paper convention, adds linear biases:
         linear = 2 x in x out + out (AlexNet: 1,428,386,152).
       flops (everything), forward, per output element unless noted:
         conv, linear: mac + 1 (bias)   batchnorm 4 (normalise, scale, shift)
         layernorm 8 (statistics 4)     relu 1   relu6 2   tanh 1
         sigmoid 4   hardsigmoid 4      hardswish 5   silu 5   gelu 5
         (exp, erf and tanh count 1)    softmax 5 (max, sub, exp, sum, div)
         max/avg pool: window size      adaptive avg pool: its window sizes
         add, mul 1    attention: mac + 6 per score and head (scale, softmax)
         concat, shuffle, flatten, reshape, transpose, slice, dropout,
         embedding: 0 (data movement).
       backward: conv and linear: weight gradient (= forward mac) + input
         gradient (= forward mac) + bias gradient (1 per output), except
         that a layer whose input needs no gradient (the first layer)
         computes no input gradient. Backward mac = 2 x forward mac minus
         the first layer's input gradient, always (ResNet-18: 7,020,265,472).
         matmul, attention: 2 x forward (no recomputation). norms,
         activations, softmax, pools, mul: 2 x forward flops. add: 0 (1 per
         element when an operand broadcasts). embedding: 1 per output
         (scatter-add). Layers before the first parameter: nothing.
         Where we are right and a popular tool is not: FlopCounterMode
         counts grouped and depthwise convolution backward as if dense
         (MobileNetV2: 11.68 GFLOP backward for 0.60 forward, 19.4x;
         EfficientNet-B0 41x) and counts SDPA's recomputation (ViT-B/16).
       bytes at the dtype size (fp32 4, fp16/bf16 2, int8 1): forward reads
         inputs and weights and writes the output; views (flatten, reshape,
         slice) and eval-mode dropout move nothing; an embedding reads only
         the gathered rows. Backward reads the output gradient, the saved
         input and the weights, writes the input and weight gradients.
         Activation memory: every materialised output is kept (input
         included; no in-place, no recomputation): an upper estimate.
         Training footprint: params x dtype x 3 (SGD with momentum: weights,
         gradients, momentum) or x 4 (Adam: two moments) + activations.
       Works and roofs (rfl_layer_work): bytes at RFL_DRAM (L2/L1 unknown);
         fp32: all FLOPs under RFL_FP32. fp16 / bf16: conv and matmul mac
         under RFL_FP16_TENSOR / RFL_BF16_TENSOR, the rest under RFL_FP16
         (vector units). int8: mac under RFL_INT8_TENSOR, the rest under
         RFL_FP32 (requantisation and activations run on the vector units).
         A machine without that roof is RFL_ERR_NO_ROOF, never a guess.
       Time (rfl_net_predict): per layer max(compute, memory) summed, and
         beside it the whole model as one work; each layer's bound.
       torchsummary (rfl_net_summary): sksq96/pytorch-summary's totals,
         MB = 2^20: rows = every module call except containers (rfl_mark
         rows stand for BasicBlock & co.), per sample, 4 bytes/element:
         fwd/bwd = 2 x sum of row outputs. ResNet-18: 0.57, 62.79, 44.59,
         107.96 MB; AlexNet: 0.57, 8.38, 233.08, 242.03.
       Zoo (RFL_NO_ZOO removes it): rfl_zoo_build(&net, "resnet50", res)
         builds torchvision 0.26's model with its module names; needs
         RFL_ZOO_MAX_LAYERS records and RFL_ZOO_NAMES_SIZE bytes of names.
         resnet18/34/50/101/152 wide_resnet50_2 resnext50_32x4d alexnet
         vgg11/16/19 mobilenet_v2 mobilenet_v3_large/small squeezenet1_0/1_1
         shufflenet_v2_x1_0/x0_5 efficientnet_b0/b1 densenet121/169
         vit_b_16/32 mnasnet1_0 googlenet inception_v3 (299 x 299 by
         default) regnet_y_400mf convnext_tiny swin_t (res a multiple of
         224): params, forward mac_flops and every torchsummary row equal
         PyTorch's for all 30 (tests/data/torch-zoo*.json).

   REDUCER (src/reduce_api.h; tools/rfl-reduce.c, examples/stream_reduce.c)
       A push parser for ncu --csv (raw page or details) and nvprof --csv
       exports: feed chunks of any size, split anywhere, same result.
           static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
           rfl_reduce_state st; rfl_reduce_result res;  (36 + 23 KB: static)
           rfl_reduce_desc d = {0};            d.top_n = 5; d.machine = h100;
           rfl_reduce_init(&st, &d, scratch, sizeof scratch);
           while ((n = fread(buf, 1, sizeof buf, f)) > 0)
               if (rfl_reduce_push(&st, buf, n)) break;    errors are sticky
           if (st.err || rfl_reduce_finish(&st, &res))
               printf("%llu:%llu: %s\n", st.err_line, st.err_col, st.err_msg);
           ai = rfl_work_ai(&res.total.work, RFL_DRAM);   res.total.flops[]: exact u64
       Scratch rule: RFL_REDUCE_SCRATCH_SIZE(columns) = 256-byte carry (one
       partial number or header name between chunks) + 3 bytes per CSV
       column; a `--set full` raw page has ~2,100 columns, so the default
       (8,192 columns, 24,832 bytes) fits. The by-name table (desc.groups)
       and everything else come from the caller too. Quantities a profile
       lacks stay unknown (work.unknown bits), never 0; counts saturate and
       are flagged, never wrap; warnings (res.warnings) explain what a
       profile hides: uncounted tensor FLOPs, auto-scaled units, L2
       residency, points above the roof, a clock below boost.
       Tensor cores: FLOPs come from the sm__ops_path_tensor_op_* counters
       (X_sparsity_off/_on breakdowns only where X is absent). A kernel is a
       tensor-core kernel when its name says so (tf32, tfloat32, hmma,
       gmma, tensorop, an mma shape such as 1688 or tensor16x8x8, nvjet):
       the tensor pipe also issues instructions in elementwise, pooling and
       layout kernels (seen in H100 captures), so a pipe count proves
       nothing. Without tensor FLOP counters, a named kernel's FLOPs are
       estimated from sm__inst_executed_pipe_tensor x the FLOPs of the mma
       shape its name gives (m16n8k8 2048, m16n8k16 4096, Hopper wgmma
       32768; desc.tensor_flops_per_inst overrides), flagged
       RFL_REDUCE_TENSOR_ESTIMATED; a named kernel with neither raises
       RFL_WARN_TENSOR_UNCOUNTED; a profile with no tensor counter and no
       such name gets RFL_WARN_NO_TENSOR_COUNTERS, a note that the FP
       counters cannot see tensor cores.
       Speed: data rows go through a row walker that reads 64-byte blocks
       as bit masks of quotes, commas and line ends, skips runs of unused
       columns by counting separators, and reads the usual number
       ("1,234.5") in one pass (with AVX2, a field of up to 16 bytes by one
       PSHUFB). On x86-64 with GCC or clang it uses AVX2 or AVX-512BW when
       CPUID says so (RFL_NO_AVX2: never), else SSE2, else portable 64-bit
       words (RFL_NO_SIMD); every path gives the same result
       (tests/test_reduce.c compares them). What a kernel's name says is
       remembered per name (64 names). `make bench` measures it on 200 MB,
       with the page cache as after a read from disk: a file just written
       in small pieces sits in 4 KB pages, and read() then costs 2 to 3
       times more (the bench prints that case too).

   CHART (src/chart_api.h; tools/rfl-plot.c draws with it)
       Charts draw into the caller's pixels (RGB or RGBA, any stride):
           static unsigned char px[1200 * 800 * 3];
           rfl_canvas c; const rfl_machine *m[1]; rfl_point p[2] = {{0}};
           rfl_roofline_desc d = {0};
           rfl_canvas_init(&c, px, sizeof px, 1200, 800, 3, 0);
           rfl_hw_find("a100", &m[0]);
           p[0].label = "ResNet18 measured"; p[0].ai = 3.17;
           p[0].flops_per_s = 3.35e11;
           p[1].label = "ResNet18 estimate"; p[1].ai = 34.56;
           p[1].flops_per_s = 1.95e13; p[1].estimate = 1;     hollow marker
           p[0].link = p[1].link = 1;                 joined, one colour
           d.machines = m; d.n_machines = 1; d.points = p; d.n_points = 2;
           rfl_chart_roofline(&c, &d);
           rfl_png_save(&c, "r.png", arena, sizeof arena);   see PNG below
       Roofline: one panel per machine, side by side, sharing ranges. Per
       panel, one roof min(peak, AI x BW) per precision of the points on it
       (a precision's roof only for work of that precision; d.prec when the
       panel has none), the ridge marked and labelled "ridge 12.54 FLOP/B",
       extra_precs / extra_levels as lighter labelled ceilings. Points with
       one label share colour, marker and legend entry; weight sizes
       kernels by their share of time; link joins an estimate and its
       measurement; a point above its roof gets a red ring and a legend
       line "above roof, check units". Ranges snap to decades around the
       data and the ridges; the legend takes the plot corner that covers
       least; a label that does not fit is shortened, then left out.
       d.areas receives each plot's pixel rectangle and ranges.
       Also: rfl_chart_bars (grouped or stacked; horizontal when labels are
       long; log when values span > 2.5 decades), rfl_chart_scatter,
       rfl_chart_roofline_ascii (80x24 text), and the primitives
       rfl_draw_line/_dashed/_polyline/_rect/_circle/_marker/_text,
       rfl_fill_rect/_circle/_polygon, our own 5x9 bitmap font at scales
       1..8 (RFL_TEXT_UP rotates; "10^3" raises the exponent).
       Never writes outside the canvas, whatever the input (NaN, inf, huge
       or negative values, 1x1 and 0x0 canvases, 10,000-character labels).
       Deterministic: the same inputs give the same pixels and PNG bytes.
       libm: the chart needs RFL_LOG10 RFL_POW RFL_SQRT RFL_FLOOR RFL_CEIL,
       by default from <math.h> (link with -lm).
   PNG (stb_image_write.h from Debian's libstb-dev; RFL_HAS_PNG says so)
       rfl_png_write   the PNG bytes to a callback (no FILE anywhere)
       rfl_png_encode  into a caller buffer (too small: the size needed)
       rfl_png_save    to a file (not with RFL_NO_STDIO)
       stb allocates inside its encoder: its STBIW_MALLOC/REALLOC/FREE go to
       `arena`, a bump allocator over a caller buffer, so nothing is
       allocated anywhere else. Too small is RFL_ERR_BUFFER, never a crash.
       Size, with F = (w x channels + 1) x h: RFL_PNG_ARENA_BYTES(w, h, ch)
       always suffices (3.25 F + 140 kB); RFL_PNG_ARENA_CHART (1.125 F +
       256 KiB) suffices for charts (1600x1000 RGB measured: 5.31 MB).
       NOT RE-ENTRANT: stb's macros take no context, so while a call runs a
       static pointer names its arena. Do not encode in two threads at once.
       Speed: the library's own deflate (greedy LZ77, fixed Huffman codes)
       goes in through stb's STBIW_ZLIB_COMPRESS hook, and every row uses
       PNG filter "up" (stb's per-row filter search and its compressor took
       80 ms for a 1600x1000 chart; this takes about 9). stb's settings are
       statics of this unit (STB_IMAGE_WRITE_STATIC), set on every call.
       rfl-plot draws and encodes a 1600x1000 chart of 2 machines, 6
       ceilings each and 50 points in about 19 ms (make bench).

   ERRORS
       Every fallible function returns rfl_result (RFL_OK = 0);
       rfl_result_str() names it. Parsers keep line, column and byte offset of
       the first error in their state.

   MEMORY
       Nothing is allocated. Functions that need memory take (buffer, size);
       the sizes each part needs are given in its section.

   EMBEDDED (examples/embedded.c; `make size` measures, tools/size-report.sh)
       With RFL_NO_STDIO and RFL_NO_CHART the library references nothing
       but the compiler's own helpers (libgcc, memcpy/memset): no libc, no
       libm, no heap, no writable globals. For a Cortex-M4:
           arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding \
               -ffunction-sections -fdata-sections -Wl,--gc-sections \
               -nostdlib -T tests/arm/link.ld tests/arm/startup.c app.c -lgcc
       (tests/arm/ has a minimal vector table, start-up and linker script).
       ROOFLINE_STATIC lets the compiler drop what the program never calls.
       Flash (code + read-only data) per part, gcc 12.2 -Os: core 5.7 KB,
       hw table 17.6 KB (sources 6.4 KB of it; RFL_NO_HW_TABLE), layers
       11.5 KB, reducer 30 KB, zoo 16 KB (RFL_NO_ZOO), chart 42 KB
       (RFL_NO_CHART): the core configuration is 65 KB, the whole header
       123 KB (issue 7's targets of 24 and 64 KB are not met; `make size`
       prints the current figures). A program pays only for what it calls
       (ROOFLINE_STATIC, --gc-sections): examples/embedded.c (layers,
       table, prediction) links to 26 KB of flash and 1.9 KB of RAM.
       Largest stack frames: under 0.5 KB outside the chart; chart
       functions under 1 KB (a chart needs about 3.5 KB of stack in all).
*/
#ifndef ROOFLINE_H
#define ROOFLINE_H

#define RFL_VERSION_MAJOR 0
#define RFL_VERSION_MINOR 1
#define RFL_VERSION_PATCH 0
#define RFL_VERSION_STRING "0.1.0"

#include <stddef.h> /* size_t: freestanding */
#include <stdint.h> /* uint64_t: freestanding */

#ifndef RFL_API
#ifdef ROOFLINE_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define RFL_API static __attribute__((unused)) /* unused ones: no warning */
#else
#define RFL_API static
#endif
#else
#define RFL_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results ---------------------------------------------------------- */
typedef enum rfl_result {
    RFL_OK = 0,
    RFL_ERR_ARG,            /* a NULL or out-of-range argument */
    RFL_ERR_BUFFER,         /* a caller buffer is too small */
    RFL_ERR_UNKNOWN_NAME,   /* no machine / model / dtype of that name */
    RFL_ERR_NO_ROOF,        /* the machine has no ceiling for that precision */
    RFL_ERR_NO_DATA,        /* a needed quantity is unknown or zero */
    RFL_ERR_SHAPE,          /* invalid layer shape or parameters */
    RFL_ERR_OVERFLOW,       /* a size or count overflows 64 bits */
    RFL_ERR_NUMBER,         /* a field that should be a number is not */
    RFL_ERR_UNIT,           /* an unknown unit on a metric that is used */
    RFL_ERR_SYNTAX,         /* malformed CSV (quote, field count) */
    RFL_ERR_TRUNCATED,      /* input ended inside a quoted field or row */
    RFL_ERR_NO_HEADER,      /* no recognisable header row */
    RFL_ERR_EMPTY,          /* empty input */
    RFL_ERR_LOCALE,         /* decimal/thousands convention is ambiguous */
    RFL_ERR_FIELD_TOO_LONG, /* a numeric field longer than the scratch */
    RFL_ERR_NOT_FINITE,     /* NaN or infinity where a finite value is needed */
    RFL_ERR_STATE,          /* call out of order (push after finish, ...) */
    RFL_ERR_IO,             /* a file or write callback failed */
    RFL_ERR_COUNT_
} rfl_result;

/* Name of a result ("ok", "buffer too small", ...). Never NULL. */
RFL_API const char *rfl_result_str(rfl_result r);

/* Version of the compiled implementation, e.g. "0.1.0". */
RFL_API const char *rfl_version(void);

/* ---- precisions and memory levels ------------------------------------- */
/* FLOPs are kept per precision; each precision has exactly one roof on a
   machine (peak_flops[prec]), so work is never put under a foreign roof.
   RFL_FP32 is 0, the default. RFL_FP16 is FP16/BF16 on the vector (SIMT)
   units; the _TENSOR entries are matrix units by input type. */
typedef enum rfl_prec {
    RFL_FP32 = 0,
    RFL_FP64,
    RFL_FP16,
    RFL_FP64_TENSOR,
    RFL_TF32_TENSOR,
    RFL_FP16_TENSOR,
    RFL_BF16_TENSOR,
    RFL_FP8_TENSOR,
    RFL_INT8_TENSOR,
    RFL_PREC_COUNT
} rfl_prec;

typedef enum rfl_level {
    RFL_DRAM = 0,
    RFL_L2,
    RFL_L1,
    RFL_LEVEL_COUNT
} rfl_level;

/* Stable short names: "fp32", "tf32_tensor", ...; "dram", "l2", "l1". */
RFL_API const char *rfl_prec_name(rfl_prec p);
RFL_API const char *rfl_level_name(rfl_level l);
/* Parse a precision or dtype name, case-insensitive ("fp32", "FP16",
   "bf16" -> RFL_FP16 SIMT, "tf32" -> RFL_TF32_TENSOR, ...). */
RFL_API rfl_result rfl_prec_parse(const char *name, rfl_prec *out);

/* ---- the work record: the one currency --------------------------------- */
#define RFL_UNKNOWN_FLOPS(p) (1u << (p))                     /* bits 0..8 */
/* (int) casts: C++ compilers warn on arithmetic between two enum types */
#define RFL_UNKNOWN_BYTES(l) (1u << ((int)RFL_PREC_COUNT + (int)(l)))  /* bits 9..11 */
#define RFL_UNKNOWN_TIME (1u << ((int)RFL_PREC_COUNT + (int)RFL_LEVEL_COUNT))
#define RFL_UNKNOWN_ALL \
    ((1u << ((int)RFL_PREC_COUNT + (int)RFL_LEVEL_COUNT + 1)) - 1u)

typedef struct rfl_work {
    double flops[RFL_PREC_COUNT];  /* FLOPs (2 per multiply-add) */
    double bytes[RFL_LEVEL_COUNT]; /* bytes moved at each memory level */
    double time_s;                 /* measured time; 0 = none */
    unsigned unknown;              /* RFL_UNKNOWN_* bits: not measured.
                                      Zero-init means "all known". */
} rfl_work;

/* Total FLOPs over every precision with known counts. */
RFL_API double rfl_work_flops(const rfl_work *w);
/* The precision holding the most FLOPs (RFL_FP32 when there are none). */
RFL_API rfl_prec rfl_work_main_prec(const rfl_work *w);
/* Arithmetic intensity at a level: total FLOPs / bytes. Returns 0 when the
   bytes are zero or unknown (check first with rfl_work_known). */
RFL_API double rfl_work_ai(const rfl_work *w, rfl_level level);
/* 1 when the quantity is known: flops of all precisions (mask) etc. */
RFL_API int rfl_work_known(const rfl_work *w, unsigned unknown_bits);
/* acc += w (unknown bits are OR-ed: one unknown part makes the sum unknown). */
RFL_API void rfl_work_add(rfl_work *acc, const rfl_work *w);
/* w *= k (FLOPs, bytes and time). */
RFL_API void rfl_work_scale(rfl_work *w, double k);

/* ---- machines ------------------------------------------------------------ */
typedef enum rfl_kind {
    RFL_KIND_GPU = 0,
    RFL_KIND_CPU,
    RFL_KIND_TPU,
    RFL_KIND_ACCEL,
    RFL_KIND_SOC
} rfl_kind;
RFL_API const char *rfl_kind_name(rfl_kind k); /* "gpu", "cpu", ... */

typedef struct rfl_machine {
    const char *id;      /* canonical key, e.g. "a100-sxm4-40gb" */
    const char *name;    /* display name, e.g. "NVIDIA A100 SXM4 40GB" */
    const char *aliases; /* comma-separated, e.g. "a100,a100-40gb" */
    rfl_kind kind;
    double peak_flops[RFL_PREC_COUNT]; /* dense FLOP/s; 0 = no such unit */
    double bw_bytes_per_s[RFL_LEVEL_COUNT]; /* bytes/s; 0 = unknown */
    double mem_bytes;    /* device / system memory; 0 = unknown */
    double l2_bytes;     /* last-level on-chip cache; 0 = unknown */
    int units;           /* SMs, CUs, cores, TensorCores; 0 = unknown */
    double boost_mhz;    /* 0 = unknown */
    double tdp_w;        /* 0 = unknown */
    const char *source;  /* datasheet / whitepaper, and how derived */
} rfl_machine;

/* The built-in table (hw_specs.h). Absent with RFL_NO_HW_TABLE: then the
   lookups find nothing and rfl_hw_count() is 0. */
#ifndef RFL_NO_HW_TABLE
#include "hw_specs.h"
#define RFL__HW_ENUM(E, ...) RFL_HW_##E,
typedef enum rfl_hw_id { RFL_HW_TABLE(RFL__HW_ENUM) RFL_HW_COUNT } rfl_hw_id;
#undef RFL__HW_ENUM
#endif
RFL_API int rfl_hw_count(void);
RFL_API const rfl_machine *rfl_hw_get(int index); /* NULL when out of range */
/* Look a machine up by id, name or alias: case-insensitive, ignoring '-',
   '_', ' ' and '.'. "a100" is the A100 SXM4 40GB, "v100" the V100 SXM2,
   "h100" the H100 SXM. Returns RFL_ERR_UNKNOWN_NAME when absent. */
RFL_API rfl_result rfl_hw_find(const char *name, const rfl_machine **out);
/* Writes up to n closest ids (by edit distance), comma-separated, into buf
   (always NUL-terminated when size > 0). Returns the number written. */
RFL_API int rfl_hw_suggest(const char *name, int n, char *buf, size_t size);

/* A CPU or board described by its parts. peak = sockets x cores x GHz x
   (SIMD lanes x FMA pipes x 2); bandwidth = sockets x channels x MT/s x
   bytes per transfer. Zero fields are errors except where noted. */
typedef struct rfl_cpu_desc {
    const char *id;           /* optional; default "custom-cpu" */
    const char *name;         /* optional */
    int sockets;              /* 0 = 1 */
    int cores;                /* per socket */
    double ghz;               /* all-core clock used for the peak */
    int simd_bits;            /* 128 (NEON/SSE), 256 (AVX2), 512 (AVX-512) */
    int fma_pipes;            /* vector FMA (or add+mul) pipes per core */
    int fma;                  /* 0 = fused multiply-add; 1 = separate add and
                                 mul pipes (counted the same: 2 per cycle) */
    int mem_channels;         /* per socket */
    double mts;               /* memory transfer rate, MT/s (e.g. 3200) */
    int bytes_per_transfer;   /* 0 = 8 (a 64-bit DDR channel) */
    int fp16;                 /* nonzero: FP16 vector at 2x the FP32 rate */
} rfl_cpu_desc;
RFL_API rfl_result rfl_machine_from_cpu(const rfl_cpu_desc *d, rfl_machine *out);

/* ---- roofline math ------------------------------------------------------ */
/* Ridge point peak_flops[prec] / bw[level] in FLOP/byte; 0 when either
   ceiling is absent. */
RFL_API double rfl_ridge(const rfl_machine *m, rfl_prec prec, rfl_level level);
/* min(peak[prec], ai x bw[level]). 0 when the roof does not exist. */
RFL_API double rfl_attainable(const rfl_machine *m, rfl_prec prec,
                              rfl_level level, double ai);

/* Which ceiling binds. */
typedef struct rfl_bound {
    int memory;        /* 1: a bandwidth ceiling binds; 0: compute */
    rfl_prec prec;     /* compute ceiling (the roof's precision) */
    rfl_level level;   /* bandwidth ceiling, when memory is 1 */
} rfl_bound;
/* Attainable FLOP/s for this work under the roof of `prec`: min over the
   compute peak and, for every level whose bytes are known and whose
   bandwidth the machine has, AI(level) x bw(level). 0 when the machine has
   no roof for prec. `bound` (may be NULL) receives the binding ceiling. */
RFL_API double rfl_work_attainable(const rfl_machine *m, const rfl_work *w,
                                   rfl_prec prec, rfl_bound *bound);

/* Predicted time: max(compute time, memory time), where compute time sums
   flops[p] / peak[p] over the precisions present and memory time is the
   largest bytes[l] / bw[l]. Work of a precision the machine has no roof for
   is an error (RFL_ERR_NO_ROOF), never silently put under another roof. */
typedef struct rfl_prediction {
    double time_s;
    double compute_s;                 /* sum over precisions */
    double memory_s;                  /* max over levels */
    double level_s[RFL_LEVEL_COUNT];  /* bytes / bw per level (0 if none) */
    rfl_bound bound;                  /* the term that binds */
} rfl_prediction;
RFL_API rfl_result rfl_predict(const rfl_machine *m, const rfl_work *w,
                               rfl_prediction *out);

/* Achieved FLOP/s (FLOPs of prec / time) over attainable FLOP/s under that
   precision's roof. RFL_ERR_NO_DATA without a time; RFL_ERR_NO_ROOF when the
   machine has no roof for prec. A result above 1 means a measurement or unit
   bug (a point above the roof). */
RFL_API rfl_result rfl_roof_fraction(const rfl_machine *m, const rfl_work *w,
                                     rfl_prec prec, double *fraction);

/* ---- numbers: our own formatting and parsing (no printf, no strtod) ---- */
/* Decimal with up to `sig` significant digits (1..17), shortest form, like
   %.{sig}g but with an exponent only below 1e-5 or at/above 1e15 ("1e+21").
   Integral values below 2^53 print exactly. NaN -> "nan", inf -> "inf".
   Returns the length, or 0 when the buffer is too small (buf gets ""). */
RFL_API size_t rfl_fmt_num(char *buf, size_t size, double v, int sig);
RFL_API size_t rfl_fmt_u64(char *buf, size_t size, uint64_t v);
/* Engineering notation with an SI prefix: 1.95e13 -> "19.5 T" (sig digits),
   0.00123 -> "1.23 m". */
RFL_API size_t rfl_fmt_si(char *buf, size_t size, double v, int sig);
/* Parse a plain decimal number ("-12.5e3", no separators) of len bytes.
   RFL_ERR_NUMBER on anything else. */
RFL_API rfl_result rfl_parse_num(const char *s, size_t len, double *out);

/* Case-insensitive compare ignoring '-', '_', ' ' and '.'; 1 when equal. */
RFL_API int rfl_name_eq(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

/* ---- the parts ------------------------------------------------------------
   Each part lives in src/ during development and is inlined into this file
   for release (tools/amalgamate.sh). */
#include "src/layers_api.h"
#include "src/reduce_api.h"
#include "src/chart_api.h"

#endif /* ROOFLINE_H */

/* ========================================================================== */
/*                               IMPLEMENTATION                               */
/* ========================================================================== */
#if defined(ROOFLINE_IMPLEMENTATION) && !defined(ROOFLINE_IMPLEMENTATION_DONE)
#define ROOFLINE_IMPLEMENTATION_DONE

#include "src/core_impl.h"
#include "src/layers_impl.h"
#include "src/reduce_impl.h"
#include "src/chart_impl.h"

#endif /* ROOFLINE_IMPLEMENTATION */
