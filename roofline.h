/* roofline.h - v0.1.0 - roofline performance modeling for GPUs and CPUs - MIT
   single header; hw_specs.h (the hardware table) beside it

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
       RFL_PNG_REQUIRED       a missing stb_image_write.h is an #error
                              naming the fix (the tools define it); by
                              default PNG then just drops out (RFL_HAS_PNG)
       RFL_HAS_PNG            defined by the header when PNG is on; define
                              it yourself where the compiler lacks
                              __has_include (stb at <stb/stb_image_write.h>)
       RFL_NO_REDUCE          leave out the ncu / nvprof CSV reducer
       RFL_NO_LLM             leave out the decoder transformers (and the
                              LLM join, which also needs the reducer), and
                              with them rfl_causal and the costing only
                              their records use (causal counts, KV-cache
                              records, experts)
       RFL_NO_ONNX            leave out the ONNX reader
       RFL_NO_MACHINE_FILE    leave out the machine-file (JSON) reader
       RFL_NO_JSON_WRITER     leave out the JSON writer and the documents
                              it writes (machine files, rfl-reduce --json)
       RFL_NO_PROBE           leave out the probe (measured ceilings)
       RFL_NO_CHECK           leave out the homework checker (API CHECK;
                              also off without the zoo, table or reducer)
       RFL_HW_NO_STRINGS      the table without its sources, aliases and
                              device names
       RFL_HW_NO_DEVICE_NAMES the table without the vendors' device names
                              ("NVIDIA H100 80GB HBM3"): rfl_hw_find then
                              knows ids, names and aliases only
       RFL_HW_NO_LINKS        the table without its GPU-to-GPU links
                              (every machine's link is then NULL: unknown)
       RFL_NO_COLLECTIVES     leave out the all-reduce time model
                              (rfl_allreduce_time)
       RFL_HW_ONLY            the table with only the machines named by
                              RFL_HW_KEEP_<ID> (e.g. RFL_HW_KEEP_H100_SXM)
       RFL_NO_ERROR_STRINGS   rfl_result_str() returns "" (saves rodata)
       RFL_ASSERT(x)          default: no check (define to assert(x) to debug)
       RFL_NO_SIMD            the reducer's portable path instead of SSE2
       RFL_NO_AVX2            no AVX2 / AVX-512BW row walker (x86-64 GCC
                              and clang pick it at run time from CPUID),
                              and no AVX2 / AVX-512 probe kernels
       RFL_SQRT RFL_FLOOR RFL_CEIL RFL_LOG10 RFL_POW
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

   CONTENTS (search for a banner's text, e.g. "[10] REDUCER")
       this block   the manual: options, quick start, API by task,
                    conventions, each part's rules, errors, memory
       API  NAME    declarations: one section for each [N] part below, JOIN /
                    in the same order ("API  ZOO" for [8] ZOO...); each
                    function with its in/out, buffers and results
       IMPLEMENTATION (ROOFLINE_IMPLEMENTATION), in the order data flows:
       [1]  NUMBERS, RESULTS, WORK    [8]  ZOO
       [2]  JSON                      [9]  ONNX
       [3]  MACHINES                  [10] REDUCER
       [4]  MACHINE FILES             [11] JOIN
       [5]  ROOFLINE MATH             [12] CHART
       [6]  LAYERS                    [13] PNG
       [7]  TRANSFORMERS              [14] PROBE
                                      [15] CHECK
       VERSION HISTORY, LICENSE (MIT) at the end of the file.
       rfl_version() returns RFL_VERSION_STRING, the version compiled in.

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
       Hardware:  rfl_hw_count rfl_hw_get rfl_hw_find rfl_hw_suggest rfl_hw_match
                  rfl_machine_from_cpu rfl_ridge rfl_attainable
                  rfl_link_kind_name (a machine's GPU-to-GPU link, rfl_link)
       Collectives: rfl_allreduce_time rfl_ar_basis_name (an all-reduce's
                  time on a machine's link, RFL_NO_COLLECTIVES)
                  rfl_machine_file_parse rfl_machine_file_write
                  rfl_machine_file_print rfl_machine_file_prec (MACHINE FILES below)
                  rfl_probe_run rfl_probe_levels rfl_probe_kernel_run
                  rfl_probe_job_slice rfl_probe_job_flops rfl_probe_job_bytes
                  rfl_probe_isa_best rfl_probe_isa_name (measured roofs: PROBE)
       Work:      rfl_work_flops rfl_work_ai rfl_work_attainable rfl_predict
                  rfl_roof_fraction rfl_work_add rfl_work_scale rfl_work_known
                  rfl_work_main_prec
       Layers:    rfl_net_init rfl_input rfl_conv rfl_conv_ex rfl_linear
                  rfl_matmul rfl_attention rfl_batchnorm rfl_layernorm rfl_act
                  rfl_softmax rfl_maxpool rfl_avgpool rfl_adaptive_avgpool
                  rfl_add rfl_mul rfl_concat rfl_shuffle rfl_flatten
                  rfl_reshape rfl_transpose rfl_slice rfl_dropout
                  rfl_embedding rfl_param rfl_mark rfl_layer_name rfl_scope_push
                  rfl_scope_pushi rfl_scope_pop rfl_layer_label
                  rfl_layer_class rfl_layer_shape_str rfl_op_ltype
                  rfl_layer_cost_get rfl_layer_work rfl_layer_predict
                  rfl_net_cost_get rfl_net_predict rfl_net_group rfl_net_summary
                  rfl_zoo_count rfl_zoo_name rfl_zoo_build (LAYERS below)
       LLMs:      rfl_llm_find rfl_llm_config_parse rfl_llm_config_check
                  rfl_llm_count rfl_llm_name rfl_llm_build rfl_llm_cost_desc
                  rfl_llm_kv_cache_bytes rfl_llm_kind_name
                  rfl_net_compute_bound_batch
                  (TRANSFORMERS below: conventions; rfl_llm_build writes a
                  step as layer records, so every LAYERS tool takes it)
       ONNX:      rfl_onnx_init rfl_onnx_push rfl_onnx_skip rfl_onnx_finish
                  rfl_onnx_build rfl_onnx_read_file rfl_onnx_read_buffer
                  rfl_onnx_read_stream rfl_onnx_input_dim
                  (ONNX below: a model file streamed into layer records)
       Reducer:   rfl_reduce_init rfl_reduce_push rfl_reduce_finish
                  rfl_reduce_buffer rfl_reduce_tensor_flops
                  rfl_reduce_ceilings_machine rfl_reduce_format_name
                  rfl_reduce_warn_code rfl_reduce_json rfl_reduce_json_point
                  rfl_reduce_device
                  (REDUCER below)
       LLM join:  rfl_llm_classify_init rfl_llm_classify_kernel
                  rfl_llm_classify_finish rfl_llm_warn_code
                  (API JOIN)
       Join:      rfl_kclass_of rfl_kclass_name rfl_kclass_ltype
                  rfl_join_init rfl_join_machine rfl_join_kernel rfl_join_compute
                  rfl_report_init rfl_report_estimate rfl_report_place
                  rfl_report_compare rfl_report_tensor_flops rfl_report_flops_per_s
                  rfl_report_group_name rfl_report_json rfl_report_points
                  rfl_report_layer_points rfl_report_machine_label
                  rfl_report_llm_points rfl_report_batch_chart rfl_report_legend
                  (API JOIN: kernel classes, estimate beside profile, reports)
       Chart:     rfl_canvas_init rfl_canvas_clear rfl_canvas_clip
                  rfl_canvas_unclip rfl_chart_roofline rfl_chart_bars
                  rfl_chart_scatter rfl_chart_roofline_ascii rfl_draw_* rfl_fill_*
                  rfl_text_width rfl_series_color rfl_series_marker
                  (CHART below)
       PNG:       rfl_png_write rfl_png_encode rfl_png_save rfl_png_arena_size
       Checker:   rfl_check_read rfl_check_run rfl_check_json rfl_check_gradescope
                  rfl_check_template rfl_check_variant rfl_check_parse_value
                  rfl_check_field_name rfl_check_field_dim rfl_check_verdict_name
                  rfl_check_diag_name (API CHECK: a homework's answer file
                  graded, each wrong value with a diagnosis code)
       Numbers:   rfl_fmt_num rfl_fmt_u64 rfl_fmt_si rfl_parse_num
       JSON:      rfl_json_parse (count mode: NULL tokens) rfl_json_get
                  rfl_json_at rfl_json_path rfl_json_num rfl_json_str
                  rfl_json_str_eq rfl_json_line ([2]; see its API comment)
                  writer: rfl_json_w_init rfl_json_w_obj rfl_json_w_arr
                  rfl_json_w_end rfl_json_w_num rfl_json_w_u64 rfl_json_w_num_if
                  rfl_json_w_null rfl_json_w_bool rfl_json_w_str
                  rfl_json_w_str_n rfl_json_w_finish (the tools' documents:
                  docs/schema.md, RFL_SCHEMA_VERSION); an estimate's:
                  rfl_net_json, with an LLM step's rfl_llm_step_figures
       Names:     rfl_result_str rfl_version rfl_parse_name_eq rfl_prec_name
                  rfl_prec_parse rfl_level_name rfl_kind_name rfl_dtype_name
                  rfl_dtype_parse rfl_dtype_bytes rfl_dtype_bits rfl_dtype_roofs
                  rfl_dtype_storage rfl_act_name rfl_op_name rfl_ltype_name

   MACHINE FILES ([4]; --hw-file FILE in the tools)
       A machine file is exactly what `rfl-hw NAME --json` prints, read back
       (tools: --hw-file FILE), plus an optional "measured" object that
       rfl-probe writes. Keys, in any order:

         "name"        string, required: display name
         "id"          string; default: the name
         "aliases"     array of strings (no commas inside); default none
         "kind"        "gpu" | "cpu" | "tpu" | "accelerator" | "soc", required
         "peak_flops"  object, required: dense FLOP/s by precision name
                       (fp64 fp64_tensor fp32 tf32_tensor fp16 fp16_tensor
                       bf16_tensor fp8_tensor int8_tensor); null or 0 = no such
                       unit; at least one must be > 0
         "mem_bw"      object, required: bytes/s by level (dram l2 l1); null or
                       0 = unknown; at least one must be > 0
         "mem_bytes" "l2_bytes" "boost_mhz" "tdp_w"
                       numbers or null (= unknown), optional
         "units"       integer or null, optional
         "ridge"       object, optional and ignored: derived (peak / bandwidth),
                       recomputed from the figures above
         "source"      string, optional: where the figures come from
         "link"        object, optional (absent: unknown): the GPU-to-GPU link
                       (rfl_link; the table's, or your own node's)
             "kind"        "nvlink" | "pcie" | "infinity-fabric" | "none" |
                           null (= unknown), required
             "gen" "lanes" "gpus_per_node"   integers or null
             "bw_per_direction"  bytes/s per GPU, each way, or null
             "latency_s"   one ring step, seconds, or null
             "source"      string, optional
             "allreduce"   object, optional: the all-reduce fitted on
                           measurements (rfl_allreduce_time): "base_s",
                           "step_s", "eager_s" (seconds), "busbw" (bytes/s,
                           required, > 0), "gpus" (the most measured),
                           "source"
         "measured"    object, optional: ceilings measured on the machine (by
                       rfl-probe or by hand), kept beside the datasheet's:
             "peak_flops"  as above (at least one > 0, or the object absent)
             "mem_bw"      as above (at least one > 0, or the object absent)
                           (at least one of the two objects is required)
             "threads"     integer or null: threads the probe ran (optional)
             "source"      string, optional: how they were measured
         any key starting with '_' (anywhere): ignored (comments, extras a
                       tool keeps for itself, e.g. a probe's raw sweep)

       Numbers: finite and >= 0 (negative, NaN, inf and 1e999 are errors).
       Any other key, a precision or level name not listed, a duplicate key,
       a wrong type or a missing required field is an error naming the field
       ("peak_flops.fp32", "measured.mem_bw.l2") and its line. A whole table
       (rfl-hw --json without NAME) is rejected: give one machine.

       The top level is the machine every tool uses for its numbers
       (estimates, reductions, fractions of the roof). A host the table does
       not know is written by rfl-probe with its measured figures at the top
       level *and* under "measured"; a known host gets the table's datasheet
       figures at the top and the probe's under "measured". Charts draw the
       measured roof dashed beside the solid datasheet roof (see
       rfl_roofline_desc.measured).

   LAYERS ([6], [8]; tools/rfl-estimate.c uses all of it)
       A network lives in the caller's array of rfl_layer;
       each builder call appends a layer, propagates the per-sample shape and
       returns a tensor handle for wiring branches. Errors are sticky: check
       net.err.code once at the end (net.err.index is the layer, net.err.where
       says "layer 3 (conv2d in layer1.0)").
           rfl_layer rec[32]; rfl_net net; rfl_tensor x, y;
           rfl_net_init(&net, rec, 32, NULL, 0);
           x = rfl_input(&net, 3, 32, 32);                  per sample
           y = rfl_act(&net, rfl_batchnorm(&net, rfl_conv(&net, x, 16, 3, 1, 1)),
                       RFL_ACT_RELU);
           y = rfl_add(&net, y, rfl_conv(&net, x, 16, 1, 1, 0));   residual
           y = rfl_flatten(&net, rfl_adaptive_avgpool(&net, y, 1, 1));
           y = rfl_linear(&net, y, 10, 1);
           rfl_cost_desc d = {0}; d.batch = 256; rfl_net_cost c;
           if (net.err.code || rfl_net_cost_get(&net, &d, &c)) return 1;
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
       bytes at the dtype size (fp32 and tf32 4, fp16/bf16 2, fp8 and int8
         1), or per role (rfl_cost_desc weights, kv, act: int4 weights two
         per byte): forward reads inputs and weights and writes the output;
         views (flatten, reshape, slice) and eval-mode dropout move nothing;
         an embedding reads its ids (int64) and only the gathered rows.
         Backward reads the output gradient, the saved
         input and the weights, writes the input and weight gradients.
         Activation memory: every materialised output is kept (input
         included; no in-place, no recomputation): an upper estimate.
         Training footprint: param_bytes x 3 (SGD with momentum: weights,
         gradients, momentum) or x 4 (Adam: two moments) + activations.
       Works and roofs (rfl_layer_work): bytes at RFL_DRAM; at tf32, fp16,
         bf16, fp8 and int8 conv and matmul go under the tensor roof of the
         math type, the rest under the vector units' (rfl_dtype_roofs). A
         machine without that roof is RFL_ERR_NO_ROOF, never a guess.
       Causal attention (rfl_causal, rfl_cost_desc.causal; not with
         RFL_NO_LLM): the causal count (query i sees the cached keys and
         i + 1) in flops and time; mac_flops stays eager. Grouped view: rfl_net_group, by layer type
         or by module pattern ("model.layers.*.mlp.down_proj", count 16).
       Time (rfl_net_predict): per layer max(compute, memory) summed, and
         beside it the whole model as one work; each layer's bound.
       torchsummary (rfl_net_summary): sksq96/pytorch-summary's totals,
         MB = 2^20: rows = every module call except containers (rfl_mark
         rows stand for BasicBlock & co.), per sample, 4 bytes/element:
         fwd/bwd = 2 x sum of row outputs. ResNet-18: 0.57, 62.79, 44.59,
         107.96 MB; AlexNet: 0.57, 8.38, 233.08, 242.03.
       Attention takes grouped k and v (GQA, MQA) and a k longer than q (a
         decode's cache): rfl_attention. RFL_LF_ONCE records (rotary's
         inv_freq x positions) do not scale with the batch. Decoder LLMs
         become records through rfl_llm_build (TRANSFORMERS below), so the
         table, training and charts take them too.
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

   TRANSFORMERS ([7]; rfl-estimate LLM or --hf-config FILE)
       A decoder transformer (GPT-2, Llama, Qwen2, Mistral, Mixtral) is given
       by an rfl_llm_config (a built-in one, rfl_llm_find, or a Hugging Face
       config.json, rfl_llm_config_parse) and one step (rfl_llm_step_desc): a
       prefill of S tokens per sequence, or a decode of one new token per
       sequence after a cache of S tokens (it attends to S + 1 positions).
       The step is layer records like any model (rfl_llm_build), costed under
       the step's cost desc (rfl_llm_cost_desc: the batch, the math type, the
       storage types of weights and KV cache, the causal count):
           rfl_layer rec[RFL_LLM_NET_LAYERS(32)]; char nm[RFL_LLM_NET_NAMES(32)];
           rfl_llm_find("llama-3-8b", &c);
           memset(&d, 0, sizeof d); d.phase = RFL_LLM_DECODE; d.seq = 2048;
           d.math = RFL_DTYPE_BF16;
           rfl_net_init(&net, rec, RFL_LLM_NET_LAYERS(32), nm, sizeof nm);
           rfl_llm_build(&net, &c, &d); rfl_llm_cost_desc(&c, &d, &cd);
           rfl_net_cost_get(&net, &cd, &t);   t.fwd_bytes, t.fwd_kv_read_bytes
           rfl_net_predict(&net, &cd, h100, &p);   p.layers_s: the step time
           rfl_llm_kv_cache_bytes(&c, &d, &kv);    the cache after the step
       Everything of the LAYERS part serves a decoder as it serves a CNN:
       per-record and total costs with bytes by role (fwd_weight_bytes,
       fwd_kv_read_bytes, fwd_kv_write_bytes, the rest activations); the view
       by module (RFL_GROUP_MODULE: "model.layers.*.mlp.down_proj", count 32)
       and by kind (RFL_GROUP_KIND: "attention", "mlp", ...); the prediction
       (rfl_net_predict: per record max(compute, memory), matrix FLOPs under
       the math type's matrix roof, the rest under its vector roof); the batch
       at which a decode turns compute-bound (rfl_net_compute_bound_batch);
       training (RFL_MODE_TRAIN: a prefill with every position's logits).
       Conventions (exact uint64 at the batch; overflow: RFL_ERR_OVERFLOW), for
       the step's records under rfl_llm_cost_desc:
         mac_flops  PyTorch FlopCounterMode on Hugging Face's eager forward
                    (transformers 5.x): 2 x multiply-adds of every mm, addmm,
                    bmm. Attention scores and context over the full T x (P + T)
                    for each head (grouped KV heads repeated, as repeat_kv
                    does); rotary's inv_freq x positions bmm, once per forward,
                    hd x T, batch-independent (positions are (1, T)). Equal to
                    llm-reference.json by op (tests/test_llm.c).
         flops      what runs: linear mac + biases; causal attention
                    (FlashAttention: query i sees P + i keys) mac + 6 per score
                    (scale, softmax); LayerNorm 8 and RMSNorm 4 per element;
                    rotary 3 per q and k element; gelu / silu 5, mul and add
                    1; the router's softmax 5 per expert; MoE's combine 2 per
                    routed slot element. fwd_mma_flops: the products (linear
                    mac, causal scores and context, rotary's product), on
                    matrix units.
         bytes      DRAM traffic of a fused FlashAttention step: every weight
                    matrix read once at the weights type (embedding: only the
                    gathered rows; MoE: the experts the routed tokens touch,
                    all distinct, at most all of them); norm scales and biases
                    at the math type; the KV cache written (the step's new
                    tokens) and read (decode: the S + 1 cached positions;
                    prefill reads K and V as activations) at the kv type; each
                    record reads its inputs and writes its outputs at the math
                    type (scores are not materialised; MoE's dispatch and
                    combine are, as Hugging Face's index_select and index_add
                    do; rotary_emb reads inv_freq and the positions). Token ids
                    are int64. int4 = 4 bits; scales and zero points of
                    quantised weights are not counted.
         kv_cache_bytes  the cache after the step: (S or S + 1) x 2 x kv_heads
                    x head_dim x layers x batch at the kv type.
         logits     prefill: the LM head on the last position of each sequence
                    (logits_all = 0, as generation does) or on every position
                    (a plain forward); decode: one position.
       Sliding windows (Mistral-7B-v0.1: 4,096; Qwen2 only with
       use_sliding_window): a query sees at most the window's keys in the
       causal count (flops, mma flops, time) and in a decode's KV-cache read;
       mac_flops stays eager (masked, still computed) and kv_cache_bytes
       keeps every position (Hugging Face's default cache does).
       Not modelled: dropout (inference), sampling, the attention mask and
       position-id builders.
       Tools: records everywhere. rfl-estimate LLM prints them by module with
       totals, bytes by role, the step time, tokens/s and the compute-bound
       batches (--layers, --mode train, --summary: the zoo's per-record
       table); rfl-report --llm joins their kinds to a profile, --model NAME
       reports a prefill of 512 tokens beside zoo models; rfl-plot --work FILE
       --kernels draws a point per distinct layer.

   ONNX ([9]; rfl-estimate --onnx FILE)
       An .onnx file read as a stream of chunks of any size (split anywhere, same
       result), with no allocation: the graph's structure (nodes, names, dims,
       attributes, the small integer tensors that shape computations read) is
       kept in the caller's arena; weight payloads are skipped, never held, and
       a caller that can seek jumps over them (st.skip). Weights kept as
       external data need only the .onnx: the dims are in it.

           rfl_onnx_state st; rfl_onnx_graph g; rfl_onnx_info info;
           rfl_onnx_init(&st, arena, sizeof arena);
           while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
               if (rfl_onnx_push(&st, buf, n)) break;          errors are sticky
               if (st.skip) { fseek(f, (long)st.skip, SEEK_CUR);  optional
                              rfl_onnx_skip(&st, st.skip); }
           }
           if (st.err.code || rfl_onnx_finish(&st, &g))
               puts(st.err.msg);                       "byte 12: truncated ..."
           desc.batch = 8;                       dynamic first axis of the inputs
           rfl_net_init(&net, rec, g.record_bound, 0, 0);
           if (rfl_onnx_build(&g, &desc, &net, &info))
               rfl_error_format(&info.err, "m.onnx", line, sizeof line);
                           "m.onnx: node 'x' (Reshape): ..." (where: the node)
           rfl_cost_desc c = {0}; c.batch = info.batch;   counts are per sample

       Arena: NULL (count mode) reads the stream and finish returns RFL_OK with
       st.need, the bytes the whole read and build take; a non-NULL arena that
       is too small makes finish return RFL_ERR_BUFFER with st.need set (the
       stream is still read to its end, so one pass gives the size). Everything
       the graph points to lives in the arena: keep it while the graph or a net
       built from it (layer names) is in use. Payloads are never touched: a
       reader that seeks past them reads a large file in the time of its graph.

       Records (rfl_onnx_build): one rfl_layer per node that computes on data
       (constant-folded shape arithmetic makes none), cls = the op type, name =
       the node name (its first output's name when empty). Layer kinds and
       FLOPs follow the LAYERS conventions: mac_flops = 2 x multiply-adds of
       Conv, ConvTranspose, Gemm and MatMul (no bias); MatMul / Gemm with a
       weight initializer are linear layers, between two activations matmul;
       params = elements of the floating-point initializers (each counted
       once, at its first consumer). Shapes are inferred at batch info.batch
       and stored per sample (counts / batch). An op without a cost rule gets
       RFL_LF_UNKNOWN_FLOPS (flops 0, info.unknown_ops counts them) when its
       output shape is known (from a shape rule or the file's value_info);
       otherwise the build fails naming the node. Such a record leaves the
       net's FLOP totals and times a lower bound (rfl_net_cost.unknown_layers,
       rfl_net_prediction.unknown_layers), never a complete figure.
       Ops with shape and cost rules: Conv ConvTranspose Gemm MatMul
       BatchNormalization LayerNormalization InstanceNormalization Relu
       LeakyRelu Clip Sigmoid HardSigmoid HardSwish Tanh Erf Gelu Softmax
       LogSoftmax Add Sub Mul Div Pow Sqrt Exp Log Neg Abs Reciprocal Floor
       Ceil Max Min Equal Less Greater Not And Or Where MaxPool AveragePool
       GlobalAveragePool GlobalMaxPool ReduceMean ReduceSum ReduceMax
       ReduceMin Flatten Reshape Transpose Concat Split Slice Gather Squeeze
       Unsqueeze Pad Resize Upsample Shape Constant ConstantOfShape Expand
       Range Cast Identity Dropout Tile ScatterND ScatterElements Trilu CumSum
       Sin Cos Round Sign Softplus Elu PRelu Mod Xor LessOrEqual
       GreaterOrEqual QuantizeLinear DequantizeLinear Sum Mean LSTM GRU RNN
       Einsum, and com.microsoft's Attention and MultiHeadAttention (their
       formulas above their rules in the implementation: LSTM mac = 2 x 4H x
       (I + H) per step and direction; Einsum 2 x the product of every index
       size for a two-operand contraction). Data movement (Concat,
       Pad, Expand, Transpose, Cast, Resize nearest...) has 0 FLOPs; Resize
       linear 2^(k+1) - 1 and cubic 2 x 4^k - 1 per output (k resized axes);
       Reduce* one per input element; unary math 1 per element.

   REDUCER ([10]; tools/rfl-reduce.c, examples/stream_reduce.c)
       A push parser for ncu --csv (raw page or details) and nvprof --csv
       exports: feed chunks of any size, split anywhere, same result.
           static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
           rfl_reduce_state st; rfl_reduce_result res;  (large: static)
           rfl_reduce_desc d = {0};            d.top_n = 5; d.machine = h100;
           rfl_reduce_init(&st, &d, scratch, sizeof scratch);
           while ((n = fread(buf, 1, sizeof buf, f)) > 0)
               if (rfl_reduce_push(&st, buf, n)) break;    errors are sticky
           if (st.err.code || rfl_reduce_finish(&st, &res)) {
               rfl_error_format(&st.err, "prof.csv", line, sizeof line);
               puts(line);                  "prof.csv:12:5: message" }
           ai = rfl_work_ai(&res.total.work, RFL_DRAM);   res.total.flops[]: exact u64
       Scratch: RFL_REDUCE_SCRATCH_SIZE(columns) bytes (API REDUCER); the
       default fits a `--set full` raw page. The by-name table (desc.groups)
       comes from the caller too. Quantities a profile lacks stay unknown
       (work.unknown bits), never 0; counts saturate and are flagged, never
       wrap; warnings (res.warnings) explain what a profile hides.
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
       Speed: data rows go through a row walker over 64-byte blocks of
       masks ([10] says how). On x86-64 with GCC or clang it uses AVX2 or
       AVX-512BW when CPUID says so (RFL_NO_AVX2: never), else SSE2, else
       portable 64-bit words (RFL_NO_SIMD); every path gives the same
       result (tests/test_reduce.c compares them). `make bench` measures
       it on 200 MB, with the page cache as after a read from disk (a file
       just written in small pieces reads slower; the bench prints that
       case too).

   CHART ([12]; tools/rfl-plot.c draws with it)
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
       Roofline: one panel per machine, sharing ranges, with one roof per
       precision of the points on it, the ridge labelled, lighter extra
       ceilings, and the points (rfl_point, rfl_roofline_desc). Ranges snap
       to decades around the data and the ridges; the legend takes the plot
       corner that covers least; a label that does not fit is shortened,
       then left out. Extra ceilings from a list: rfl_ceilings_parse;
       those a panel cannot draw (no L2 figure...): rfl_roofline_missing_levels.
       Also bar and scatter charts, the roofline as 80x24 text, and the
       primitives with our own 5x9 bitmap font (API CHART AND PNG).
       Never writes outside the canvas, whatever the input (NaN, inf, huge
       or negative values, 1x1 and 0x0 canvases, 10,000-character labels).
       Deterministic: the same inputs give the same pixels and PNG bytes.
       libm: the chart needs RFL_LOG10 RFL_POW RFL_SQRT RFL_FLOOR RFL_CEIL,
       by default from <math.h> (link with -lm).
   PNG ([13]; stb_image_write.h from Debian's libstb-dev; RFL_HAS_PNG says
   so. Without it rfl_png_* calls do not compile, with a message that says
   why: test RFL_HAS_PNG, or define RFL_PNG_REQUIRED to insist)
       rfl_png_write   the PNG bytes to a callback (no FILE anywhere)
       rfl_png_encode  into a caller buffer (too small: the size needed)
       rfl_png_save    to a file (not with RFL_NO_STDIO)
       stb allocates only in `arena`, a caller buffer of
       RFL_PNG_ARENA_BYTES(w, h, ch) bytes (RFL_PNG_ARENA_CHART for charts:
       API PNG). NOT RE-ENTRANT: while a call runs a static pointer names
       its arena. Do not encode in two threads at once.
       Speed: the library's own deflate (greedy LZ77, fixed Huffman codes)
       goes in through stb's STBIW_ZLIB_COMPRESS hook, and every row uses
       PNG filter "up" (stb's per-row filter search and its compressor
       are several times slower on charts). stb's settings are statics of
       this unit (STB_IMAGE_WRITE_STATIC), set on every call. make bench
       times rfl-plot drawing and encoding a 1600x1000 chart of 2
       machines, 6 ceilings each and 50 points.

   PROBE ([14]; tools/rfl-probe.c)
       Peak FLOP/s (FMA chains) and bandwidth per memory level (read and triad
       sweeps over working-set sizes) measured on the machine that runs it,
       with the caller's timer, the caller's buffer and, on a host, the
       caller's threads: nothing is allocated, nothing is started, no OS is
       needed, so a board's firmware measures its own roof with its cycle
       counter. tools/rfl-probe.c runs it on a host with pthreads.
           static double buf[RFL_PROBE_BUFFER_DOUBLES(64u << 20)];
           rfl_probe_desc d; rfl_probe_result r;
           memset(&d, 0, sizeof d);
           d.now = my_cycles; d.ticks_per_s = 168e6;       or seconds and 1
           d.buf = buf; d.size = sizeof buf;
           if (rfl_probe_run(&d, &r) == RFL_OK) ... r.machine, r.sweep[]
       Kernels (each single-threaded; run_all spreads one over threads):
         FMA    per precision (fp64, fp32): 12 independent vector accumulators
                x = x * m + c, 2 FLOPs per lane and step; on x86-64 with GCC or
                clang, AVX-512F, AVX2+FMA or SSE2 (mul + add) by CPUID at run
                time (the reducer's CPUID helper: with RFL_NO_AVX2 only SSE2),
                plain C elsewhere. The best instruction set only (desc.isa
                forces one).
         READ   s += a[i] over n doubles: 8 bytes per element.
         TRIAD  a[i] = b[i] + s * c[i]: 24 bytes per element (STREAM's
                convention: reads of b, c and the write of a; the
                write-allocate read of a is not counted).
       Working set of a sweep point of S bytes: READ n = S / 8, TRIAD three
       arrays of n = S / 24 doubles. Sizes from min_bytes doubling (factor 2;
       desc.step 4 for a quick run) up to max_bytes. Each measurement doubles
       its repetitions until the work of one run takes min_s beyond the time
       of an empty run (the clock, waking the threads), then keeps the best
       (the shortest) of `runs` runs (the two FMA peaks: 3 x runs).
       Levels: the triad (and read) curve is fitted by 1 to 4 flat pieces
       (least squares on log bandwidth, at least 2 points each; a piece is
       kept when it lowers the error clearly and differs from its neighbour by
       over 15%); each piece's median is its level (the last piece's over its
       3 largest sizes at most): 1 piece DRAM; 2 L1, DRAM;
       3 L1, L2, DRAM; 4 L1, L2, L3, DRAM. So max_bytes must be well beyond
       the last cache (4x) for DRAM to be DRAM. rfl_machine has no L3: the
       machine gets L1, L2 and DRAM from the triad; L3 stays in the result.
       Threads: with run_all set, every job goes to it; it must run the job on
       all `threads` threads (rfl_probe_job_slice gives thread t its part:
       FMA jobs whole, each thread its own accumulators; sweep jobs a 1/threads
       slice of the arrays) and return when all are done. FLOPs count
       threads x the job's; bytes count the whole arrays. The timer brackets
       the call, so the pool's start-up is in the time: keep threads waiting
       on a barrier, not created per call.

   ERRORS
       Every fallible function returns rfl_result (RFL_OK = 0);
       rfl_result_str() names it. Every parser and builder keeps its first
       error in one shape, an rfl_error in its state (net.err, doc.err,
       st.err, info.err; an out-parameter for the one-call readers): code,
       line, column, byte offset, where (field path, node or layer), message,
       and the size needed when a buffer was short. rfl_error_format()
       prints it as "FILE:LINE:COL: WHERE: MESSAGE":
           char line[320];
           if (st.err.code) { rfl_error_format(&st.err, path, line, sizeof line);
                              puts(line); }

   MEMORY
       Nothing is allocated. Functions that need memory take (buffer, size);
       the sizes each part needs are given in its section. Parser states
       (rfl_reduce_state, rfl_onnx_state, rfl_llm_classifier) are plain
       structs the caller places anywhere (static, stack, its own struct):
       the fields below their "---- private ----" line are the library's
       (read none, write none), as are the types named rfl__*.

   FILES (not with RFL_NO_STDIO)
       rfl_file_read reads a whole text file into a caller buffer in
       bounded chunks and stops at the buffer's size: a directory, a
       device such as /dev/zero, a binary (a NUL byte) or a file above its
       cap is a clear error at once, never a read that fills memory. Every
       reader of the tools goes through it with a cap fit for what it
       reads: RFL_CAP_CONFIG 1 MiB (a Hugging Face config.json; real ones
       are kilobytes), RFL_CAP_MACHINE 1 MiB (a machine file),
       RFL_CAP_WORK 16 MiB (rfl-plot --work), RFL_CAP_ANSWERS 1 MiB
       (rfl-check's answer, points and roster files), RFL_CAP_PROFILE
       1 GiB (an ncu / nvprof CSV read whole by rfl-report and rfl-check;
       rfl-reduce streams it and stops at the first NUL byte). ONNX files are streamed (weights
       skipped, the graph kept in the caller's arena, whose size caps it).

   EMBEDDED (examples/embedded.c, `make m4`; `make size`: tools/size-report.sh)
       The core: RFL_NO_STDIO RFL_NO_HW_TABLE RFL_NO_ZOO RFL_NO_REDUCE
       RFL_NO_CHART RFL_NO_PNG (and RFL_NO_LLM RFL_NO_ONNX
       RFL_NO_MACHINE_FILE RFL_NO_PROBE): numbers, roofline math, layer
       formulas and predictions with the caller's own rfl_machine. It
       references nothing but the compiler's own helpers (libgcc,
       memcpy/memset): no libc, no libm, no heap, no writable globals.
       For a Cortex-M4:
           arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding \
               -ffunction-sections -fdata-sections -Wl,--gc-sections \
               -nostdlib -T tests/arm/link.ld tests/arm/startup.c app.c -lgcc
       (tests/arm/: vector table, start-up, semihosting write and exit, a
       linker script for qemu's mps2-an386 that also fits an STM32F407).
       Budgets (code + read-only data, gcc -Os): the core 24 KiB; the
       table, zoo, reducer, chart and PNG together 128 KiB; no stack frame
       over 1 KiB. make size prints every part's size (one machine of the
       table, RFL_HW_ONLY + RFL_HW_KEEP_<ID>, among them) and fails when a
       budget is broken (README: "Using the header in your project").
       examples/embedded.c (DS-CNN-S on a caller-defined STM32F407) links
       with ROOFLINE_STATIC and --gc-sections and runs on the emulated
       board (make m4), printing what the host build prints. double is
       soft on the M4's single-precision FPU: make m4-profile measures
       what an estimate costs; there is no float build.
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

/* ==========================================================================
   API  NUMBERS, RESULTS, WORK
   results, the work record, our own number formatting and parsing
   ========================================================================== */
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
    RFL_ERR_SYNTAX,         /* malformed input: CSV (quote, field count), JSON */
    RFL_ERR_TRUNCATED,      /* input ended inside a quoted field or row */
    RFL_ERR_NO_HEADER,      /* no recognisable header row */
    RFL_ERR_EMPTY,          /* empty input */
    RFL_ERR_LOCALE,         /* decimal/thousands convention is ambiguous */
    RFL_ERR_FIELD_TOO_LONG, /* a numeric field longer than the scratch */
    RFL_ERR_NOT_FINITE,     /* NaN or infinity where a finite value is needed */
    RFL_ERR_STATE,          /* call out of order (push after finish, ...) */
    RFL_ERR_IO,             /* a file or write callback failed */
    RFL_ERR_MISSING,        /* a required field or key is absent */
    RFL_ERR_FORMAT,         /* malformed input (JSON, protobuf, ...): not what the format allows */
    RFL_ERR_UNSUPPORTED,    /* a model type, operator or feature this library has no rule for */
    RFL_ERR_GRAPH,          /* a graph with a cycle or a reference to an unknown name */
    RFL_ERR_COUNT_
} rfl_result;

/* Name of a result ("ok", "buffer too small", ...). Never NULL. */
RFL_API const char *rfl_result_str(rfl_result r);

/* ---- errors: one shape for every parser ----------------------------------
   Every reader and builder keeps its first error in an rfl_error (the
   net builder, the JSON reader, the Hugging Face config and machine-file
   readers, the ONNX reader and its graph builder, the reducer). A field a
   parser cannot know stays 0 / "". The arrays are bounded so that a state
   holding one stays small (texts are cut, never overrun). */
#define RFL_ERROR_WHERE_SIZE 96
#define RFL_ERROR_MSG_SIZE 160
typedef struct rfl_error {
    rfl_result code;     /* the first error; RFL_OK when fine */
    int index;           /* layer or node index of a build error; -1 = none */
    uint64_t line, col;  /* 1-based place in a text input; 0 = none */
    uint64_t offset;     /* 0-based byte offset of that place (with line), or
                            of a binary input's error (its message says "byte N") */
    uint64_t need;       /* RFL_ERR_BUFFER: the size the short buffer needs
                            (where names it: "toks" in tokens, "strbuf" in
                            bytes); 0 = unknown */
    char where[RFL_ERROR_WHERE_SIZE]; /* field path ("peak_flops.fp32"), node
                            ("node 'x' (Reshape)") or layer ("layer 3 (conv2d
                            in layer1.0)"); "" = the input as a whole */
    char msg[RFL_ERROR_MSG_SIZE];     /* what is wrong; "": rfl_result_str(code) */
} rfl_error;

/* The error as one line: "FILE:LINE:COL: WHERE: MESSAGE", each part left
   out when unknown (no file, line 0, col 0, where ""); an empty message is
   rfl_result_str(code), except with code RFL_OK: then the line is the
   place alone ("FILE:LINE:COL: "), for a caller's own message to follow.
   file may be NULL, or any name for the input.
   out: buf[size], always NUL-terminated when size > 0 (cut to fit).
   Returns the length of the whole line (snprintf's rule: buf NULL / size 0
   counts). */
RFL_API size_t rfl_error_format(const rfl_error *e, const char *file, char *buf, size_t size);

/* Version of the compiled implementation, e.g. "0.1.0". */
RFL_API const char *rfl_version(void);

/* ---- precisions and memory levels ------------------------------------- */
/* FLOPs are kept per precision; each precision has exactly one roof on a
   machine (peak_flops[prec]), so work is never put under a foreign roof.
   RFL_FP32 is 0, the default. RFL_FP16 is FP16/BF16 on the vector (SIMT)
   units; the _TENSOR entries are matrix units by input type. A precision
   is a ceiling (a pipe: where FLOPs run), not a number format (how numbers
   are stored: rfl_dtype; rfl_dtype_roofs maps a math type to its two). */
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
RFL_API int rfl_parse_name_eq(const char *a, const char *b);

/* ---- files: bounded reads (not with RFL_NO_STDIO) ------------------------------
   The caps the tools read their inputs with (the manual's FILES). */
#define RFL_CAP_CONFIG ((size_t)1 << 20)   /* a Hugging Face config.json */
#define RFL_CAP_MACHINE ((size_t)1 << 20)  /* a machine file (rfl-hw --json) */
#define RFL_CAP_WORK ((size_t)16 << 20)    /* rfl-plot --work JSON */
#define RFL_CAP_PROFILE ((size_t)1 << 30)  /* an ncu / nvprof CSV read whole */
#define RFL_CAP_ANSWERS ((size_t)1 << 20)  /* rfl-check's answers, points, roster */
#define RFL_FILE_CHUNK 65536               /* bytes per read */
#ifndef RFL_NO_STDIO
/* Read the file at path ("-": standard input) into buf[cap]: at most
   cap - 1 bytes, RFL_FILE_CHUNK at a time, and a NUL after them; *len gets
   the bytes read. With `text` set a NUL byte stops the read (binary, not
   text). Returns RFL_OK; RFL_ERR_IO when the file cannot be opened or read
   or is a directory; RFL_ERR_FORMAT at a NUL byte (*len = its offset);
   RFL_ERR_BUFFER when the file holds more than cap - 1 bytes (*len =
   cap - 1). *why (may be NULL) gets what happened in words: "is a
   directory", "cannot be opened", "read error", "binary (a NUL byte), not
   text", "larger than the cap", or "" on success. */
RFL_API rfl_result rfl_file_read(const char *path, void *buf, size_t cap, int text, size_t *len,
                                 const char **why);
#endif

/* ==========================================================================
   API  JSON
   a small tokenising reader (machine files, Hugging Face configs)
   ========================================================================== */
/* ---- JSON: a small reader over a caller token array -------------------------
   Machine files (rfl-hw --json) and Hugging Face config.json files are
   read with it; tools use it for their own inputs too. The whole document
   is tokenised into the caller's array (no allocation; jsmn's model), then
   looked up by key. Strings stay in the source: a token holds byte
   offsets. Depth is limited to 64; numbers must be valid JSON numbers.
       rfl_json_tok tok[256]; rfl_json_doc doc; char line[320];
       if (rfl_json_parse(&doc, text, len, tok, 256))
           rfl_error_format(&doc.err, "config.json", line, sizeof line);
       i = rfl_json_path(&doc, 0, "forward.flops");   value token or -1
       if (rfl_json_num(&doc, i, &v)) ...
   Count mode: rfl_json_parse(&doc, text, len, NULL, 0) checks the
   document and sets doc.n to the number of tokens it needs. */
typedef enum rfl_json_type {
    RFL_JSON_OBJ = 1, RFL_JSON_ARR, RFL_JSON_STR, RFL_JSON_NUM,
    RFL_JSON_TRUE, RFL_JSON_FALSE, RFL_JSON_NULL
} rfl_json_type;
typedef struct rfl_json_tok {
    rfl_json_type type;
    size_t start, end; /* bytes of the value (strings: inside the quotes) */
    int after;         /* index of the first token after this subtree */
} rfl_json_tok;
typedef struct rfl_json_doc {
    const char *src;
    size_t len, pos;
    rfl_json_tok *t;   /* NULL in count mode */
    int n, cap, depth;
    rfl_error err;     /* code RFL_OK when fine */
} rfl_json_doc;
/* Tokenise src[0..len) into toks (cap of them; NULL: count only).
   Returns RFL_OK, RFL_ERR_BUFFER when cap is too small (doc->n then holds
   how many were filled, doc->err.need the total, where "toks"), or
   RFL_ERR_SYNTAX with doc->err's message, line, col and offset set (also
   for a document both malformed and too large). */
RFL_API rfl_result rfl_json_parse(rfl_json_doc *doc, const char *src, size_t len,
                                  rfl_json_tok *toks, int cap);
/* Value token of `key` in object token obj; -1 when absent or obj is not
   an object. */
RFL_API int rfl_json_get(const rfl_json_doc *doc, int obj, const char *key);
/* Value at a dotted path of object keys ("forward.flops"), or -1. */
RFL_API int rfl_json_path(const rfl_json_doc *doc, int obj, const char *path);
/* i-th element of array token arr, or -1. */
RFL_API int rfl_json_at(const rfl_json_doc *doc, int arr, int i);
/* 1 when tok is a number (stored in *out), else 0. */
RFL_API int rfl_json_num(const rfl_json_doc *doc, int tok, double *out);
/* String token into buf, escapes decoded (\uXXXX: ASCII only, else '?').
   1 when tok is a string that fit, else 0 (buf gets "" or the prefix). */
RFL_API int rfl_json_str(const rfl_json_doc *doc, int tok, char *buf, size_t size);
/* 1 when tok is a string equal to s. */
RFL_API int rfl_json_str_eq(const rfl_json_doc *doc, int tok, const char *s);
/* Line of the token's first byte (for error messages); 0 for tok < 0. */
RFL_API long rfl_json_line(const rfl_json_doc *doc, int tok);

#ifndef RFL_NO_JSON_WRITER
/* ---- JSON: a small writer into a caller buffer -----------------------------
   Every JSON document a tool prints (machine files, rfl-reduce --json) is
   written by the library through this writer, so every front end writes
   the same keys the same way: members in the order written, two spaces an
   indent level, numbers through rfl_fmt_num (15 digits, identical on
   every architecture; not finite: null). The buffer rule: w.len counts
   the whole document even past cap, so a NULL buffer (count mode) or a
   short one tells the size to pass next time (w.len + 1, for the NUL).
       rfl_json_writer w; char buf[4096];
       rfl_json_w_init(&w, buf, sizeof buf);
       rfl_json_w_obj(&w, 0);                    the top-level object
       rfl_json_w_num(&w, "count", 3);
       rfl_json_w_end(&w);                       closes it (and a newline)
       if (rfl_json_w_finish(&w) == RFL_OK) fputs(buf, stdout);
   key: the member's name inside an object, NULL inside an array or at
   the top. Depth is limited to 64 (beyond: RFL_ERR_FORMAT at finish). */
/* The version of the tools' JSON documents (docs/schema.md): a key renamed,
   removed or given another meaning raises it; a key added does not. */
#define RFL_SCHEMA_VERSION 3
typedef struct rfl_json_writer {
    char *buf;          /* caller's; NULL: count only */
    size_t cap;         /* bytes of buf */
    size_t len;         /* bytes of the document so far (may exceed cap) */
    int depth;          /* open objects and arrays */
    uint64_t some;      /* bit d: level d has a member already */
    uint64_t arr;       /* bit d: level d is an array */
    rfl_result err;     /* RFL_ERR_FORMAT: too deep, or an end too many */
} rfl_json_writer;
RFL_API void rfl_json_w_init(rfl_json_writer *w, char *buf, size_t cap);
RFL_API void rfl_json_w_obj(rfl_json_writer *w, const char *key);
RFL_API void rfl_json_w_arr(rfl_json_writer *w, const char *key);
/* Closes the innermost object or array (at the top: a newline after). */
RFL_API void rfl_json_w_end(rfl_json_writer *w);
RFL_API void rfl_json_w_num(rfl_json_writer *w, const char *key, double v);
/* An exact integer, all its digits (counts beyond 2^53 too). */
RFL_API void rfl_json_w_u64(rfl_json_writer *w, const char *key, uint64_t v);
/* v when known is nonzero, else null (unknown is null, never 0). */
RFL_API void rfl_json_w_num_if(rfl_json_writer *w, const char *key, int known, double v);
RFL_API void rfl_json_w_null(rfl_json_writer *w, const char *key);
RFL_API void rfl_json_w_bool(rfl_json_writer *w, const char *key, int v);
/* A string, escaped (NULL: null); _n: its first n bytes. */
RFL_API void rfl_json_w_str(rfl_json_writer *w, const char *key, const char *s);
RFL_API void rfl_json_w_str_n(rfl_json_writer *w, const char *key, const char *s, size_t n);
/* NUL-terminates the buffer. RFL_OK; RFL_ERR_BUFFER when it was too small
   (or NULL: count mode; need w->len + 1 bytes); RFL_ERR_FORMAT when the
   document was not well nested. */
RFL_API rfl_result rfl_json_w_finish(rfl_json_writer *w);
#endif

/* ==========================================================================
   API  MACHINES
   the hardware table, lookups, machines from CPU parts
   ========================================================================== */
/* ---- machines ------------------------------------------------------------ */
typedef enum rfl_kind {
    RFL_KIND_GPU = 0,
    RFL_KIND_CPU,
    RFL_KIND_TPU,
    RFL_KIND_ACCEL,
    RFL_KIND_SOC
} rfl_kind;
RFL_API const char *rfl_kind_name(rfl_kind k); /* "gpu", "cpu", ... */

/* The GPU-to-GPU link of a node (hw_specs.h: RFL_HW_LINKS). */
typedef enum rfl_link_kind {
    RFL_LINK_UNKNOWN = 0, /* not known: never read as "no link" */
    RFL_LINK_NONE,        /* one device: no GPU-to-GPU link */
    RFL_LINK_NVLINK,
    RFL_LINK_PCIE,
    RFL_LINK_INFINITY_FABRIC,
    RFL_LINK_KIND_COUNT
} rfl_link_kind;
#if !defined(RFL_NO_COLLECTIVES) || !defined(RFL_NO_MACHINE_FILE)
/* "unknown", "none", "nvlink", "pcie", "infinity-fabric" (machine files;
   absent when both of those parts are). */
RFL_API const char *rfl_link_kind_name(rfl_link_kind k);
#endif

typedef struct rfl_link {
    rfl_link_kind kind;
    int gen;              /* NVLink / PCIe generation; 0 = unknown */
    int lanes;            /* NVLinks or fabric links per GPU, PCIe lanes; 0 = unknown */
    int gpus_per_node;    /* the usual node; 0 = unknown */
    double bw_bytes_per_s; /* per GPU, per direction; 0 = unknown */
    double latency_s;     /* one ring step of a small message; 0 = unknown */
    const char *source;
    /* The all-reduce fitted on measurements (all 0: not measured):
       base_s + 2 (n - 1) step_s + 2 (n - 1) / n x bytes / busbw in a CUDA
       graph, eager_s more per call launched eagerly; measured on 2 to
       ar_gpus GPUs. */
    double ar_base_s, ar_step_s, ar_busbw, ar_eager_s;
    int ar_gpus;
    const char *ar_source;
} rfl_link;

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
    const rfl_link *link; /* GPU-to-GPU link; NULL = unknown (as its kind
                             RFL_LINK_UNKNOWN) */
} rfl_machine;

/* The built-in table (hw_specs.h). Absent with RFL_NO_HW_TABLE: then the
   lookups find nothing and rfl_hw_count() is 0.
   A device carries only the machines it needs: with RFL_HW_ONLY the table
   (and the enum, so RFL_HW_<ID> stays its index) holds only the rows whose
   RFL_HW_KEEP_<ID> is defined (empty or 1), e.g.
       #define RFL_HW_ONLY
       #define RFL_HW_KEEP_H100_SXM
   (at least one). RFL_HW_NO_STRINGS leaves out the sources and aliases
   (both "") and the device names: rfl_hw_find then knows the id and the
   display name only. */
#ifndef RFL_NO_HW_TABLE
#include "hw_specs.h"
#ifdef RFL_HW_ONLY
/* RFL__HW_KEPT(E) is 1 when RFL_HW_KEEP_E is defined empty or as 1, else 0:
   the defined macro's value pasted onto RFL__HWK_ names one of the two
   macros below, which put "0," before the 1 and so shift it into second
   place. */
#define RFL__HWK_ 0,
#define RFL__HWK_1 0,
#define RFL__HW_SECOND_(a, b, ...) b
#define RFL__HW_SECOND(...) RFL__HW_SECOND_(__VA_ARGS__)
#define RFL__HW_KEPT3(v) RFL__HW_SECOND(RFL__HWK_##v 1, 0, ~)
#define RFL__HW_KEPT2(v) RFL__HW_KEPT3(v)
#define RFL__HW_KEPT(E) RFL__HW_KEPT2(RFL_HW_KEEP_##E)
#define RFL__HW_IF_0(...)
#define RFL__HW_IF_1(...) __VA_ARGS__
#define RFL__HW_IF2(c) RFL__HW_IF_##c
#define RFL__HW_IF(c) RFL__HW_IF2(c)
#define RFL__HW_ENUM(E, ...) RFL__HW_IF(RFL__HW_KEPT(E))(RFL_HW_##E,)
#else
#define RFL__HW_ENUM(E, ...) RFL_HW_##E,
#endif
typedef enum rfl_hw_id { RFL_HW_TABLE(RFL__HW_ENUM) RFL_HW_COUNT } rfl_hw_id;
#undef RFL__HW_ENUM
#endif
RFL_API int rfl_hw_count(void);
RFL_API const rfl_machine *rfl_hw_get(int index); /* NULL when out of range */
/* Look a machine up by id, name, alias or device name (what nvidia-smi,
   ncu's device__attribute_display_name, CUDA, rocm-smi or HIP print:
   "NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-16GB", "AMD Instinct MI300X";
   hw_specs.h lists them with their sources): case-insensitive, ignoring
   '-', '_', ' ' and '.', and a leading "NVIDIA" on a name or device name.
   "a100" is the A100 SXM4 40GB, "v100" the V100 SXM2, "h100" the H100 SXM.
   A device name finds only its own memory size and form factor: one the
   table lacks ("NVIDIA A100-PCIE-40GB") is RFL_ERR_UNKNOWN_NAME, as is
   any name not in the table. */
RFL_API rfl_result rfl_hw_find(const char *name, const rfl_machine **out);
/* Writes up to n closest ids, comma-separated, into buf (always
   NUL-terminated when size > 0): first the machines of the name's own
   family (its first word with a digit, trailing letters dropped: "a100",
   "h200", "mi300"), then the rest, each group by edit distance. Returns the
   number written. */
RFL_API int rfl_hw_suggest(const char *name, int n, char *buf, size_t size);
/* The warning code a tool reports when a profile's device is not the
   machine it is compared with (see rfl_hw_match). */
#define RFL_HW_DEVICE_MISMATCH "device_mismatch"
/* Which of n machines (a tool's --hw list) a profile ran on.
   in device: the profile's device name (ncu's device__attribute_display_name,
   nvidia-smi's name). in list[0..n-1]: the candidates (table rows or
   machine files). out found (may be NULL): the table machine the device name
   resolves to (rfl_hw_find), NULL when the table lacks it.
   Returns the index of the device's own machine in list: the same table row,
   a machine whose id is that row's id, or (device unknown to the table) a
   machine whose id or name is the device name; whatever the order of list.
   -1 when none of them is it (report RFL_HW_DEVICE_MISMATCH) or device is
   NULL or empty. Never a machine of another memory size or form factor. */
RFL_API int rfl_hw_match(const char *device, const rfl_machine *const *list, int n,
                         const rfl_machine **found);

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

#ifndef RFL_NO_COLLECTIVES
/* ---- collectives: the all-reduce of tensor parallelism ---------------------
   One all-reduce of `bytes` over `gpus` GPUs of one node, as NCCL's ring
   does it (its own cost model, src/graph/tuning.cc): 2 (n - 1) steps, each
   moving bytes / n, so
       time = base + 2 (n - 1) x step + 2 (n - 1) / n x bytes / busbw
   where busbw is the bus bandwidth (nccl-tests' definition). With the
   link's fit (m->link->ar_*, fitted on measurements) base, step and busbw
   are the fitted ones; without one, base = 0, step = the link's latency
   and busbw = its bandwidth per direction: the datasheet's, a lower bound
   on the time (a latency the table lacks counts 0). */
typedef enum rfl_ar_basis {
    RFL_AR_FITTED = 0,   /* the link's fit, on no more GPUs than were measured */
    RFL_AR_EXTRAPOLATED, /* the link's fit, on more GPUs than were measured */
    RFL_AR_DATASHEET     /* no fit: datasheet latency and bandwidth (lower bound) */
} rfl_ar_basis;
RFL_API const char *rfl_ar_basis_name(rfl_ar_basis b); /* "fitted", "extrapolated", "datasheet" */
#define RFL_AR_EAGER 1u  /* flag: launched outside a CUDA graph (adds the fit's ar_eager_s) */
typedef struct rfl_allreduce {
    double time_s;         /* latency_s + transfer_s */
    double latency_s;      /* base + steps x step (+ eager) */
    double transfer_s;     /* 2 (n - 1) / n x bytes / busbw */
    double busbw;          /* the bus bandwidth assumed, bytes/s */
    double bound_s;        /* the datasheet's time (base 0, the link's step
                              latency and bandwidth each way): the bound
                              beside a fitted time; 0 when the link has no
                              bandwidth */
    int steps;             /* 2 (n - 1) */
    const char *algorithm; /* "ring" */
    rfl_ar_basis basis;
} rfl_allreduce;
/* gpus == 1: RFL_OK, every figure 0 (nothing to reduce). Errors:
   RFL_ERR_ARG (m or out NULL, gpus < 1, or more GPUs than the link's node
   holds), RFL_ERR_NO_DATA (the link is unknown or NONE, or has no
   bandwidth). flags: RFL_AR_EAGER or 0. */
RFL_API rfl_result rfl_allreduce_time(const rfl_machine *m, int gpus, uint64_t bytes,
                                      unsigned flags, rfl_allreduce *out);
#endif

/* ==========================================================================
   API  MACHINE FILES
   a machine from the JSON that rfl-hw --json prints (RFL_NO_MACHINE_FILE)
   ========================================================================== */
#ifndef RFL_NO_MACHINE_FILE
/* ---- machine files ---------------------------------------------------------
   The overview and its conventions: MACHINE FILES in the manual.

   out->machine gets the top level; out->measured (valid when
   out->has_measured) is a copy of it whose peak_flops and bw_bytes_per_s
   are the measured ones (0 where not measured) and whose source is the
   measured source. Every string (id, name, aliases joined by commas,
   sources) points into strbuf: keep strbuf (not the JSON) alive while the
   machines are used. Both machines' link points at out->link (NULL
   without a "link"): keep *out where it is (a copy of the struct still
   points at the first). toks: RFL_MACHINE_FILE_TOKS suffices for anything
   rfl-hw prints; more for files with many '_' extras. Errors:
     RFL_ERR_SYNTAX    not JSON (err->line/col/offset from the tokenizer;
                       err->where: the key it happened in, e.g. a file cut
                       after "tf32_tensor": 156 names peak_flops.tf32_tensor)
     RFL_ERR_BUFFER    toks or strbuf too small: err->where names it
                       ("toks", "strbuf"), err->need says how many tokens
                       or bytes it needs (tokens first: strings are only
                       counted once the document is tokenised)
     RFL_ERR_MISSING   a required field is absent (err->where names it)
     RFL_ERR_FORMAT    wrong type, unknown key or name, duplicate key
     RFL_ERR_NOT_FINITE / RFL_ERR_NUMBER  a bad number (negative, NaN,
                       inf, not an integer where one is needed)
     RFL_ERR_ARG       NULL arguments */
#define RFL_MACHINE_FILE_TOKS 256
typedef struct rfl_machine_file {
    rfl_machine machine;   /* the top level: datasheet (or hand-written) */
    rfl_machine measured;  /* measured ceilings; valid when has_measured */
    int has_measured;
    int measured_threads;  /* 0 = not given */
    rfl_link link;         /* "link"; machine.link points here when given */
} rfl_machine_file;
/* err (may be NULL): where is the dotted path of the field ("" = the
   document); line and col are 0 when the error has no token. */
RFL_API rfl_result rfl_machine_file_parse(const char *json, size_t len,
                                          rfl_json_tok *toks, int ntoks,
                                          char *strbuf, size_t strsize,
                                          rfl_machine_file *out,
                                          rfl_error *err);
#ifndef RFL_NO_JSON_WRITER
/* The writer beside the reader: the members of a machine file (what
   rfl-hw NAME --json prints) into the object the caller opened, so that a
   tool may add its own '_' members before closing it:
       rfl_json_w_obj(&w, 0); rfl_machine_file_write(&w, &mf); rfl_json_w_end(&w);
   Keys in the order of the manual's list (MACHINE FILES): name, id, aliases, kind,
   peak_flops (fp64 first, then by unit kind), mem_bw, mem_bytes,
   l2_bytes, units, boost_mhz, tdp_w, ridge (every prec_level > 0),
   source, "link" when mf->machine.link is set (every key, null where
   unknown; "allreduce" when fitted), and "measured" when mf->has_measured (its empty objects left
   out, threads when > 0). A figure <= 0 is null. Read back, it gives the
   same machine (a round trip). */
RFL_API void rfl_machine_file_write(rfl_json_writer *w, const rfl_machine_file *mf);
/* The whole document into buf[size] (NUL-terminated). Returns the bytes
   it needs, NUL included: when that is over size, nothing usable was
   written (buf NULL: count only). */
RFL_API size_t rfl_machine_file_print(char *buf, size_t size, const rfl_machine_file *mf);
#endif
/* The order machine files list precisions in (fp64 first, then by unit
   kind): the i-th, for 0 <= i < RFL_PREC_COUNT. */
RFL_API rfl_prec rfl_machine_file_prec(int i);
#endif /* RFL_NO_MACHINE_FILE */

/* ==========================================================================
   API  ROOFLINE MATH
   ridge, attainable, prediction, fraction of the roof
   ========================================================================== */
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

/* ==========================================================================
   API  LAYERS
   the builder, shape propagation, costs, predicted time, torchsummary
   ========================================================================== */
/* A tensor is named by the index of the layer that produced it
   (rfl_tensor). Shapes are per sample: the batch applies when costs are
   computed, so one built network answers for every batch size. After the
   first error every builder call returns RFL_NO_TENSOR and changes
   nothing. The example and the FLOP conventions: LAYERS in the manual. */

/* ---- number formats --------------------------------------------------------
   One enum for every number format: the math type of an estimate (what
   the arithmetic runs in, so which roofs time it) and the storage type of
   each role (weights, KV cache, activations), for CNNs and LLMs alike.
   RFL_DTYPE_DEFAULT (0) means fp32 as a math type and "as the math type"
   as a storage type. The roof a format's FLOPs go under is an rfl_prec
   (a ceiling of the machine, not a format): see rfl_layer_work. */
typedef enum rfl_dtype {
    RFL_DTYPE_DEFAULT = 0, /* math: fp32; storage: the math type */
    RFL_DTYPE_FP32,        /* 32 bits; FLOPs under the FP32 roof */
    RFL_DTYPE_FP16,        /* 16; conv/matmul under FP16 tensor, rest FP16 SIMT */
    RFL_DTYPE_BF16,        /* 16; conv/matmul under BF16 tensor, rest FP16 SIMT */
    RFL_DTYPE_FP8,         /* 8 (e4m3, e5m2); conv/matmul under FP8 tensor, rest FP16 */
    RFL_DTYPE_INT8,        /* 8; conv/matmul under INT8 tensor, rest FP32 */
    RFL_DTYPE_INT4,        /* 4 bits, two per byte: storage only (no int4 roof) */
    RFL_DTYPE_TF32,        /* fp32 data (32 bits), conv/matmul under the TF32
                              tensor roof, rest FP32 (PyTorch's cuDNN default) */
    RFL_DTYPE_COUNT
} rfl_dtype;

/* "fp32", "fp32", "fp16", "bf16", "fp8", "int8", "int4", "tf32" ("?" when
   out of range): the default is named as the math type it stands for (a
   storage role's default: name rfl_dtype_storage's answer instead). */
RFL_API const char *rfl_dtype_name(rfl_dtype d);
/* Bits per element: 32 (default, fp32, tf32), 16, 16, 8, 8, 4; 0 when out
   of range. */
RFL_API int rfl_dtype_bits(rfl_dtype d);
/* Whole bytes per element: bits / 8 (int4: 0, half a byte). */
RFL_API int rfl_dtype_bytes(rfl_dtype d);
/* Parse a name, case-insensitive: fp32/float32/float, fp16/float16/half,
   bf16/bfloat16, fp8/float8/e4m3/e5m2, int8, int4, tf32.
   RFL_ERR_UNKNOWN_NAME otherwise. */
RFL_API rfl_result rfl_dtype_parse(const char *name, rfl_dtype *out);
/* The roofs of math type t: where its matrix FLOPs (conv, matmul,
   attention) go, and the rest (fp32: RFL_FP32 both; tf32: TF32 tensor and
   FP32; fp16, bf16: their tensor roofs and RFL_FP16; fp8: FP8 tensor and
   RFL_FP16; int8: INT8 tensor and RFL_FP32). Either out may be NULL.
   RFL_ERR_ARG for int4 (no int4 math) or out of range. */
RFL_API rfl_result rfl_dtype_roofs(rfl_dtype t, rfl_prec *matrix, rfl_prec *other);
/* The storage type of a role set to `role` under math type `math`: role,
   or when 0 the math type's storage (default and tf32: fp32). */
RFL_API rfl_dtype rfl_dtype_storage(rfl_dtype role, rfl_dtype math);

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
#define RFL_LF_ONCE 0x40u    /* done once per batch, not per sample (rotary's
                                inv_freq x positions): counts do not scale */
#define RFL_LF_UNKNOWN_FLOPS 0x80u /* no FLOP rule for its op (an ONNX node):
                                its FLOPs are unknown, counted as 0 */

/* One layer. Per-sample counts are computed once when the layer is
   added; rfl_layer_cost scales them by the batch. */
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
                             attention heads, kv heads, causal (1: a causal
                             mask, see rfl_causal), sliding window (0: none);
                             slice dim, start; linear: experts (> 1: params
                             hold that many experts' weights, of which the
                             batch's routed token slots (its input rows)
                             read the ones they reach) */
    uint8_t op;           /* rfl_op */
    uint8_t rank;         /* 1..RFL_MAX_RANK */
    uint8_t flags;        /* RFL_LF_* */
    uint8_t needs_grad;   /* 1 when the output depends on a parameter */
    uint8_t kv_cache;     /* 1: the output is the KV cache (a cache write, a
                             decode's cache input): stored at
                             rfl_cost_desc.kv */
    uint8_t kind;         /* 0: none; rfl_llm_build: 1 + the record's
                             rfl_llm_kind (RFL_GROUP_KIND groups by it) */
} rfl_layer;

typedef struct rfl_net {
    rfl_layer *layers;    /* the caller's array */
    int cap;              /* its length */
    int count;            /* layers used */
    char *names;          /* optional arena for full dotted names; NULL: none */
    size_t names_size, names_used;
    char scope[96];       /* current name prefix ("layer1.0"), see rfl_scope_push */
    size_t scope_len;
    rfl_error err;        /* first builder error (code RFL_OK when none):
                             index = the failing layer's would-be index,
                             where = "layer 3 (conv2d in layer1.0)" (the op
                             of the failing call, the scope); the scope
                             stays where the error happened */
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
   path; name "" gives the scope itself); without one, rfl_layer_name keeps the
   caller's pointer and ignores the scope.
   rfl_scope_push appends ".part" to the scope (part may be "3"); pop
   removes the last part. A scope deeper than 95 bytes is RFL_ERR_BUFFER.
   rfl_scope_pushi pushes a decimal index. */
RFL_API void rfl_scope_push(rfl_net *net, const char *part);
RFL_API void rfl_scope_pushi(rfl_net *net, int index);
RFL_API void rfl_scope_pop(rfl_net *net);
/* Name layer t (the string is copied into the arena under the current
   scope, or kept as a pointer when there is no arena: it must outlive the
   net). Returns t, so calls nest: rfl_layer_name(&net, rfl_conv(...), "conv1"). */
RFL_API rfl_tensor rfl_layer_name(rfl_net *net, rfl_tensor t, const char *name);

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
   mac_flops = 2 Lq Lk D + 2 Lq Lk Dv, FlopCounterMode's count for SDPA.
   Grouped keys (GQA, MQA): k (Lk, D / g) and v (Lk, Dv / g), g dividing
   heads, give heads / g kv heads, each repeated g times (repeat_kv):
   output (Lq, Dv), mac_flops as for the repeated k and v (arg[1]: kv heads). */
RFL_API rfl_tensor rfl_attention(rfl_net *net, rfl_tensor q, rfl_tensor k, rfl_tensor v,
                                 uint32_t heads);
/* Mark attention record t causal: query i of Lq sees the Lk - Lq earlier
   (cached) keys and itself and those before it, at most `window` keys (0:
   no window). The record keeps the eager count (mac_flops: every query
   against every key, as FlopCounterMode counts a masked product);
   rfl_cost_desc.causal times the causal count (what FlashAttention runs),
   and then a KV-cache input is read for the window only. Returns t;
   RFL_ERR_ARG when t is no attention record. Only decoder LLMs build
   causal records, KV-cache records and experts: with RFL_NO_LLM there is
   no rfl_causal and no costing of them (rfl_cost_desc.causal and .kv then
   change nothing). */
#ifndef RFL_NO_LLM
RFL_API rfl_tensor rfl_causal(rfl_net *net, rfl_tensor t, uint32_t window);
#endif

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

/* Evaluation settings; zero means default. Storage types are per role:
   parameters (weight matrices and tables: int4 packs two per byte; biases
   and norm scales stay at the math type), the KV cache (records
   with kv_cache set) and activations (everything else); forward bytes, activation
   memory and param_bytes follow them, backward bytes stay at the math
   type's size. */
typedef struct rfl_cost_desc {
    uint64_t batch;           /* 0 = 1 */
    rfl_dtype dtype;          /* the math type: 0 = fp32 (int4: RFL_ERR_ARG) */
    rfl_flop_conv convention; /* 0 = torch */
    rfl_mode mode;            /* 0 = inference. Selects what the predictions
                                 time (forward, or forward + backward) and
                                 whether dropout moves bytes */
    rfl_dtype weights;        /* storage of weight matrices; 0 = the math type */
    rfl_dtype kv;             /* storage of the KV cache; 0 = the math type */
    rfl_dtype act;            /* storage of activations; 0 = the math type */
    int causal;               /* nonzero: causal attention records count and
                                 time what runs (rfl_causal); 0: the eager
                                 count, every query against every key */
} rfl_cost_desc;

/* Cost of one layer at a batch: exact counts. */
typedef struct rfl_layer_cost {
    uint64_t params;
    uint64_t fwd_mac_flops, fwd_flops, fwd_bytes;
    uint64_t bwd_mac_flops, bwd_flops, bwd_bytes;
    uint64_t fwd_mma_flops, bwd_mma_flops; /* the part of fwd_flops and
                             bwd_flops on matrix units: the mac FLOPs as the
                             torch convention counts them, or a causal
                             attention's causal products */
    uint64_t act_bytes;  /* activation memory kept for the backward pass */
#ifndef RFL_NO_LLM
    uint64_t fwd_weight_bytes, fwd_kv_read_bytes, fwd_kv_write_bytes; /* parts
                             of fwd_bytes by role: parameters read (weight
                             matrices, gathered table rows, biases, norm
                             scales), KV cache read and written; the rest of
                             fwd_bytes is activations */
#endif
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
    uint64_t input_bytes;            /* the network inputs at the batch (a
                                        decode step's KV cache included) */
    uint64_t fwd_mac_flops, fwd_flops, fwd_bytes;
    uint64_t bwd_mac_flops, bwd_flops, bwd_bytes;
    uint64_t activation_bytes;       /* kept for backward, input included */
    uint64_t train_sgd_bytes;        /* weights + grads + 1 momentum + activations */
    uint64_t train_adam_bytes;       /* weights + grads + 2 moments + activations */
    rfl_work forward, backward;      /* the summed works */
    int layers;                      /* layers with a cost (marks excluded) */
    int unknown_layers;              /* layers whose FLOPs are unknown
                                        (RFL_LF_UNKNOWN_FLOPS): when > 0 every
                                        FLOP total above is only the known
                                        part, a lower bound */
#ifndef RFL_NO_LLM
    uint64_t fwd_weight_bytes, fwd_kv_read_bytes, fwd_kv_write_bytes; /* fwd_bytes
                                        by role (rfl_layer_cost) */
#endif
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
    int unknown_layers;     /* > 0: some layers' FLOPs are unknown, so every
                               time above is the known part's, a lower
                               bound, and no binding ceiling is known */
} rfl_net_prediction;
/* Predicted time of the network: per layer, summed, and whole. */
RFL_API rfl_result rfl_net_predict(const rfl_net *net, const rfl_cost_desc *d,
                                   const rfl_machine *m, rfl_net_prediction *out);
#ifndef RFL_NO_LLM
/* The smallest batch (<= cap) at which net under d (its batch ignored)
   turns compute-bound on m: the records' compute terms sum to at least
   their memory terms (rfl_net_predict's compute_s >= memory_s); *out = 0
   when none up to cap. gemm_only: only the matrix records with weights
   (projections, MLPs, experts, an LM head), leaving attention's KV
   traffic out: the batch at which the weight GEMMs stop being
   memory-bound. Part of the LLM part (RFL_NO_LLM removes it). */
RFL_API rfl_result rfl_net_compute_bound_batch(const rfl_net *net, const rfl_cost_desc *d,
                                               const rfl_machine *m, int gemm_only,
                                               uint64_t cap, uint64_t *out);
#endif

/* ---- grouped view ----------------------------------------------------------------
   Records summed by group, for CNNs and LLMs alike: by layer type
   (rfl_ltype: "conv", "matmul", "norm", ...) or by module (the name with
   each all-digit part made '*': a decoder's 16 "model.layers.3.mlp.down_proj"
   are one group "model.layers.*.mlp.down_proj" of count 16; a ResNet's
   "layer1.0.conv1" and "layer1.1.conv1" are "layer1.*.conv1"). Groups come
   in the order of their first record; inputs and marks are left out. Or
   by kind: a decoder's records (rfl_llm_build) by their rfl_llm_kind
   ("attention", "mlp", ...: rfl_llm_kind_name), any other record by its
   layer type, so one call serves CNNs and LLMs. */
typedef enum rfl_group_by {
    RFL_GROUP_LTYPE = 0, /* by rfl_op_ltype */
    RFL_GROUP_MODULE,    /* by name pattern (unnamed records: by class) */
    RFL_GROUP_KIND       /* by rfl_layer.kind, else by rfl_op_ltype */
} rfl_group_by;

#define RFL_GROUP_NAME 96
typedef struct rfl_group_cost {
    char name[RFL_GROUP_NAME]; /* the ltype name or the name pattern */
    int ltype;             /* rfl_ltype of its first record */
    int kind;              /* rfl_layer.kind of its first record */
    int count;             /* records in the group */
    uint64_t params;
    uint64_t fwd_mac_flops, fwd_flops, fwd_mma_flops, fwd_bytes;
    uint64_t bwd_flops, bwd_bytes;
    rfl_work forward, backward; /* the summed works (rfl_layer_work) */
    double time_s;         /* with a machine: sum of rfl_layer_predict, else 0 */
    double compute_s, memory_s;
#ifndef RFL_NO_LLM
    uint64_t fwd_weight_bytes, fwd_kv_read_bytes, fwd_kv_write_bytes; /* fwd_bytes
                              by role (rfl_layer_cost) */
#endif
} rfl_group_cost;

/* Sum net's records under d into groups[0..cap). m (may be NULL): the
   machine for time_s. Returns the number of groups (call with groups NULL
   to size the array; more groups than cap: only the first cap are
   written, the count is still returned), or -1 when a record's cost fails
   (a bad desc, an overflow, no roof on m). */
RFL_API int rfl_net_group(const rfl_net *net, const rfl_cost_desc *d, rfl_group_by by,
                          const rfl_machine *m, rfl_group_cost *groups, int cap);

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

/* ==========================================================================
   API  TRANSFORMERS (RFL_NO_LLM removes it)
   decoder LLMs by config: prefill and decode steps, the HF config reader
   ========================================================================== */
#ifndef RFL_NO_LLM
/* Where a step's work goes (rfl_layer.kind of its records, RFL_GROUP_KIND;
   the kinds the LLM join sorts kernels into). */
typedef enum rfl_llm_kind {
    RFL_LLM_EMBEDDING,   /* token (and learned position) lookup: a gather */
    RFL_LLM_ATTENTION,   /* q/k/v/o projections, scores, context, rotary,
                            KV cache reads and writes */
    RFL_LLM_MLP,         /* up/gate/down or fc/proj, router, experts */
    RFL_LLM_LM_HEAD,     /* final projection to the vocabulary */
    RFL_LLM_NORM,        /* LayerNorm, RMSNorm */
    RFL_LLM_ELEMENTWISE, /* residual adds, activations, casts, copies */
    RFL_LLM_KIND_COUNT
} rfl_llm_kind;
/* "embedding", "attention", "mlp", "lm_head", "norm", "elementwise". */
RFL_API const char *rfl_llm_kind_name(rfl_llm_kind k);

/* ---- decoder LLMs: configs, steps, records ------------------------------------
   The overview and its conventions: TRANSFORMERS in the manual. */

typedef enum rfl_llm_phase { RFL_LLM_PREFILL = 0, RFL_LLM_DECODE } rfl_llm_phase;
typedef enum rfl_llm_norm { RFL_LLM_LAYERNORM = 0, RFL_LLM_RMSNORM } rfl_llm_norm;
typedef enum rfl_llm_pos { RFL_LLM_POS_LEARNED = 0, RFL_LLM_POS_ROTARY } rfl_llm_pos;
/* Where a block's norms are: before attention and MLP (pre, Llama);
   before and after both (sandwich, Gemma 2/3); after both only (post,
   OLMo 2). */
typedef enum rfl_llm_norm_place {
    RFL_LLM_NORM_PRE = 0, RFL_LLM_NORM_SANDWICH, RFL_LLM_NORM_POST
} rfl_llm_norm_place;
/* Layers a config can mark one by one (layer_full, layer_dense). */
#define RFL_LLM_MASK_LAYERS 256

typedef struct rfl_llm_config {
    char model_type[16];     /* "gpt2", "llama", "qwen2", "mistral", "mixtral" */
    uint32_t hidden;         /* hidden_size / n_embd */
    uint32_t layers;         /* num_hidden_layers / n_layer */
    uint32_t heads;          /* num_attention_heads / n_head */
    uint32_t kv_heads;       /* num_key_value_heads (MHA: = heads, MQA: 1) */
    uint32_t head_dim;       /* head_dim, else hidden / heads */
    uint32_t intermediate;   /* intermediate_size / n_inner (gpt2: 4 x hidden) */
    uint32_t vocab;          /* vocab_size */
    uint32_t max_positions;  /* max_position_embeddings / n_positions */
    uint32_t experts;        /* num_local_experts; 0: a dense MLP */
    uint32_t experts_per_tok;/* num_experts_per_tok */
    uint32_t sliding_window; /* 0: none; else the causal count's window */
    uint8_t norm;            /* rfl_llm_norm */
    uint8_t pos;             /* rfl_llm_pos: learned (a wpe table) or rotary */
    uint8_t act;             /* rfl_act_kind: RFL_ACT_GELU, RFL_ACT_SILU */
    uint8_t gated;           /* 1: down(act(gate(x)) * up(x)) (SwiGLU); 0:
                                proj(act(fc(x))) */
    uint8_t tied;            /* the LM head is the embedding table */
    uint8_t qkv_bias;        /* biases on q, k, v (Qwen2, attention_bias) */
    uint8_t o_bias;          /* bias on the attention output (attention_bias) */
    uint8_t mlp_bias;        /* biases on the MLP (GPT-2, mlp_bias) */
    uint8_t dtype;           /* rfl_dtype of torch_dtype / dtype; 0: none */
    /* ---- what the newer families add; zero everywhere is the Llama way -- */
    uint32_t rotary_dim;     /* dims of a head that rotate (gpt_neox rotary_pct,
                                partial_rotary_factor); 0: head_dim */
    uint8_t qk_norm;         /* RMSNorm on q and k: 0 none; 1 per head, over
                                head_dim (qwen3, gemma3); 2 over the whole q
                                and k widths (olmo2) */
    uint8_t norm_place;      /* rfl_llm_norm_place */
    uint8_t parallel;        /* parallel residual: x + attn(ln1(x)) + mlp(ln2(x))
                                (gpt_neox use_parallel_residual) */
    uint8_t fused_qkv;       /* one q-k-v projection (phi3 qkv_proj, gpt_neox
                                query_key_value) */
    uint8_t fused_gate_up;   /* one gate-up projection (phi3 gate_up_proj) */
    uint8_t embed_scale;     /* embeddings times sqrt(hidden) (gemma) */
    uint8_t attn_softcap;    /* scores capped: cap tanh(s / cap) (gemma2
                                attn_logit_softcapping) */
    uint8_t logit_softcap;   /* logits capped the same way
                                (final_logit_softcapping) */
    uint8_t sinks;           /* a learned sink logit per head joins each
                                softmax (gpt_oss) */
    uint8_t moe_bias;        /* the router and the experts have biases
                                (gpt_oss) */
    /* Per-layer exceptions, bit l of byte l / 8 for layer l (a config of
       more than RFL_LLM_MASK_LAYERS layers has none): */
    uint8_t layer_full[RFL_LLM_MASK_LAYERS / 8];  /* with sliding_window: layer
                                l attends to every position (layer_types,
                                sliding_window_pattern) */
    uint8_t layer_dense[RFL_LLM_MASK_LAYERS / 8]; /* with experts: layer l has
                                a dense MLP of intermediate (first_k_dense_replace,
                                moe_layer_freq, decoder_sparse_step,
                                mlp_only_layers) */
    /* experts (experts > 0) */
    uint32_t moe_intermediate; /* a routed expert's width (moe_intermediate_size);
                                  0: intermediate */
    uint32_t shared_experts;   /* experts every token goes through, each of
                                  the routed width (n_shared_experts) */
    /* multi-head latent attention (kv_lora_rank > 0; DeepSeek-V2/V3) */
    uint32_t q_lora_rank;      /* 0: q_proj; else q_a_proj to this rank,
                                  norm, q_b_proj */
    uint32_t kv_lora_rank;     /* the latent's width */
    uint32_t qk_nope_dim;      /* qk_nope_head_dim */
    uint32_t qk_rope_dim;      /* qk_rope_head_dim */
    uint32_t v_head_dim;       /* v_head_dim */
} rfl_llm_config;

/* One step. Zero means the default for every field. */
typedef struct rfl_llm_step_desc {
    rfl_llm_phase phase;  /* prefill (0) or decode */
    uint64_t batch;       /* sequences; 0 = 1 */
    uint64_t seq;         /* prefill: S tokens per sequence (0 = 1); decode:
                             tokens already cached (may be 0) */
    int logits_all;       /* prefill: LM head on every position (default:
                             the last one only) */
    rfl_dtype math;    /* type the math runs in (the roof); 0 = fp32 */
    rfl_dtype weights; /* storage of weight matrices; 0 = math */
    rfl_dtype kv;      /* storage of the KV cache; 0 = math */
} rfl_llm_step_desc;

/* Built-in models, by name (rfl_parse_name_eq: case, '-', '_', '.' ignored):
   gpt2 gpt2-medium gpt2-large gpt2-xl llama-2-7b llama-3.2-1b llama-3.2-3b
   llama-3-8b llama-3-70b qwen2.5-0.5b qwen2.5-1.5b qwen2.5-7b mistral-7b
   mixtral-8x7b, from their published config.json. RFL_ERR_UNKNOWN_NAME
   otherwise. */
RFL_API int rfl_llm_count(void);
RFL_API const char *rfl_llm_name(int i);
RFL_API rfl_result rfl_llm_find(const char *name, rfl_llm_config *out);

/* Read a Hugging Face config.json (model_type gpt2, llama, qwen2, mistral,
   mixtral) from json[0..len) into *out, tokenised into the caller's toks
   (about 64 + 4 per key; 512 is plenty for a published config). Errors:
   RFL_ERR_SYNTAX (malformed JSON), RFL_ERR_BUFFER (toks too small),
   RFL_ERR_MISSING (a required field is absent), RFL_ERR_UNSUPPORTED (an
   unknown model_type or activation), RFL_ERR_NUMBER (not a whole number,
   or negative), RFL_ERR_OVERFLOW (beyond 2^32 - 1, or a model too large
   to count in 64 bits), RFL_ERR_SHAPE (zero, heads not dividing hidden,
   kv_heads not dividing heads, more experts per token than experts). err
   (may be NULL) says where a config is wrong: err->where is the field (the
   JSON key, "" for a syntax error), line, col and offset those of its
   value (1:1 for a missing field); on RFL_ERR_BUFFER err->need is the
   number of tokens the document needs. */
RFL_API rfl_result rfl_llm_config_parse(const char *json, size_t len, rfl_json_tok *toks,
                                       int cap, rfl_llm_config *out,
                                       rfl_error *err);
/* Check a config (the same rules as the reader); err->where names the
   first bad field (no position: the config is not text). */
RFL_API rfl_result rfl_llm_config_check(const rfl_llm_config *cfg, rfl_error *err);

/* ---- the step as layer records -------------------------------------------------
   rfl_llm_build writes one step of cfg into an initialised, empty net with
   the LAYERS builders, as the zoo does. Records are per sequence: d->batch
   and the types are ignored (they go in rfl_cost_desc: rfl_llm_cost_desc).
   Names are Hugging Face's module paths ("model.layers.3.mlp.down_proj";
   GPT-2: "transformer.h.3.mlp.c_proj", class Conv1D); functional parts get
   a descriptive name ("model.layers.3.self_attn.rotary_q"). Each record
   carries its kind (rfl_layer.kind = 1 + rfl_llm_kind).
   Per block: norm (LayerNorm; RMSNorm: class RMSNorm, hidden params, 4
   FLOPs per element); q, k, v (GPT-2: c_attn and three slices); rotary on
   q and k (3 FLOPs per element); k_cache_write and v_cache_write (copies of
   the new K and V into the cache; no gradient); decode: k_cache and
   v_cache, inputs of S + 1 positions (the cache read per sample); attention
   with kv_heads groups (eager: T x (S + T) scores, mac_flops as
   FlopCounterMode), causal (rfl_causal, with the sliding window); o_proj;
   the residual add; norm; the MLP (SwiGLU: gate_proj, up_proj, act_fn,
   mul, down_proj; GPT-2: c_fc, act, c_proj; MoE: gate, routing softmax,
   dispatch of T x experts_per_tok token slots, experts.w1 / w3 / w2
   holding all experts' weights, of which a batch reads the ones it
   reaches, combine); the add. Before the blocks: input_ids, the
   embedding(s) (GPT-2: wte + wpe), rotary_emb (its inv_freq x positions
   product once per batch: RFL_LF_ONCE); after: the final norm,
   last_position (prefill without logits_all: a view of the last row),
   lm_head. Tied: the table is counted on lm_head (the embedding record has
   0 params; it still reads its rows and gets a gradient). Decode's cache
   inputs and the cache writes are kv_cache records. Dropout (eval) is left
   out. Kinds: embeddings; attention (rotary_emb, q/k/v, rotary, the cache
   writes, attention, o_proj); norms; mlp (the projections; MoE: all of
   block_sparse_moe); elementwise (adds, a dense MLP's activation and mul);
   lm_head (last_position, lm_head).
   Returns RFL_ERR_ARG (NULL, int4 math, a bad phase or type, or a net not
   empty), the config's errors (rfl_llm_config_check), RFL_ERR_SHAPE (a
   GPT-2 step beyond its learned positions), RFL_ERR_OVERFLOW (a count
   beyond 64 bits, a dim beyond 32 bits), or net->err.code
   (RFL_ERR_BUFFER: the array or names too small). */
#define RFL_LLM_NET_LAYERS(layers) (8 + 24 * (layers)) /* records, enough */
#define RFL_LLM_NET_NAMES(layers) (64 * RFL_LLM_NET_LAYERS(layers)) /* bytes */
RFL_API rfl_result rfl_llm_build(rfl_net *net, const rfl_llm_config *cfg,
                                 const rfl_llm_step_desc *d);
/* The cost desc of step d of cfg, for its records: batch (0 = 1); the math
   type d->math, else the config's dtype, else fp32; weights and kv storage
   (0: the math type); causal = 1 (what runs); inference, torch's
   convention, activations at the math type. Returns rfl_llm_build's
   errors but the net's. */
RFL_API rfl_result rfl_llm_cost_desc(const rfl_llm_config *cfg, const rfl_llm_step_desc *d,
                                     rfl_cost_desc *out);
/* Bytes of the KV cache after step d: (S or S + 1) x 2 x kv_heads x
   head_dim x layers x batch at the kv type (d->kv, else the math type of
   rfl_llm_cost_desc). Returns its errors. */
RFL_API rfl_result rfl_llm_kv_cache_bytes(const rfl_llm_config *cfg, const rfl_llm_step_desc *d,
                                          uint64_t *out);
#endif /* RFL_NO_LLM */

/* ==========================================================================
   API  ZOO
   built-in models (RFL_NO_ZOO)
   ========================================================================== */
/* ---- the zoo ---------------------------------------------------------------------
   torchvision 0.26's models at any resolution, 3 input channels, 1000
   classes, eval-mode structure; names are torch's module paths. */
#ifndef RFL_NO_ZOO
#define RFL_ZOO_MAX_LAYERS 720   /* records the largest model needs */
#define RFL_ZOO_NAMES_SIZE 32768 /* names arena the largest model needs */
/* Number of models and the i-th name (NULL when out of range). */
RFL_API int rfl_zoo_count(void);
RFL_API const char *rfl_zoo_name(int i);
/* Build model `name` (rfl_parse_name_eq: case, '-', '_' ignored) for res x res
   inputs (0 = the model's default: 224, inception_v3 299) into an
   initialised, empty net. RFL_ERR_UNKNOWN_NAME for an unknown model;
   RFL_ERR_SHAPE when res is too small for the model; RFL_ERR_BUFFER when
   the array or names arena is too small. */
RFL_API rfl_result rfl_zoo_build(rfl_net *net, const char *name, uint32_t res);
#endif

/* ==========================================================================
   API  ONNX (RFL_NO_ONNX removes it)
   a streamed protobuf reader into a caller arena, shapes, the same records
   ========================================================================== */
#ifndef RFL_NO_ONNX
/* ---- ONNX part: API -------------------------------------------------------
   The overview and its conventions: ONNX in the manual. */

#define RFL_ONNX_MAX_RANK 8      /* tensor rank the shape rules handle */
#define RFL_ONNX_KEEP_BYTES 512  /* tensor payloads up to this size are kept */
#define RFL_ONNX_NAME_MAX 4096   /* longest name (a longer one is an error) */
#define RFL_ONNX_MAX_DEPTH 8     /* nested messages followed (deeper ones,
                                    such as subgraphs, are skipped) */
/* rfl_onnx_value.flags */
#define RFL_ONNX_INPUT 0x01u       /* listed in graph.input */
#define RFL_ONNX_INITIALIZER 0x02u /* a weight or constant of the graph */
#define RFL_ONNX_OUTPUT 0x04u      /* listed in graph.output */
#define RFL_ONNX_HAS_SHAPE 0x08u   /* rank and dims known from the file */
#define RFL_ONNX_EXTERNAL 0x10u    /* its data lives in an external file */

typedef struct rfl_onnx_dim {
    int64_t value;      /* >= 0, or -1 when symbolic / unknown */
    const char *param;  /* the symbolic name ("batch"), or NULL */
} rfl_onnx_dim;

/* A named tensor: a graph input, an initializer, a node output, or the
   tensor of a Constant's attribute (name ""). */
typedef struct rfl_onnx_value {
    const char *name;
    const rfl_onnx_dim *dims;  /* rank entries (from the file) */
    int rank;                  /* -1: unknown */
    int elem_type;             /* TensorProto.DataType: 1 float, 6 int32,
                                  7 int64, 10 float16, 16 bfloat16; 0 unknown */
    int producer;              /* node index; -1: none */
    unsigned flags;            /* RFL_ONNX_* */
    int n_data;                /* kept elements (payloads <= KEEP_BYTES) */
    const int64_t *ints;       /* integer or bool data, or NULL */
    const double *reals;       /* floating-point data, or NULL */
} rfl_onnx_value;

typedef struct rfl_onnx_attr {
    const char *name;
    int type;              /* AttributeProto type: 1 float, 2 int, 3 string,
                              4 tensor, 6 floats, 7 ints (0: from the fields) */
    int n;                 /* elements of ints / floats */
    int64_t i;
    double f;
    const char *s;         /* NULL when absent */
    const int64_t *ints;
    const double *floats;
    int tensor;            /* value index of t, or -1 */
} rfl_onnx_attr;

typedef struct rfl_onnx_node {
    const char *name, *op_type, *domain;
    const int *inputs;     /* value indexes; -1 for an omitted optional input */
    const int *outputs;
    const rfl_onnx_attr *attrs;
    int n_inputs, n_outputs, n_attrs;
} rfl_onnx_node;

typedef struct rfl_onnx_graph {
    const rfl_onnx_node *nodes;
    rfl_onnx_value *values;
    const int *inputs;       /* graph inputs that are not initializers */
    const int *outputs;
    int node_count, value_count, input_count, output_count;
    int record_bound;        /* layer records rfl_onnx_build may need */
    int64_t ir_version;
    int64_t opset;           /* of the default domain (0 when not given) */
    uint64_t params;         /* elements of floating-point initializers */
    int initializer_count;
    void *work;              /* rfl_onnx_build's scratch (in the arena) */
    size_t work_size;
} rfl_onnx_graph;

typedef struct rfl__onnx_frame {
    uint64_t end;            /* stream offset where the message ends */
    size_t len_at;           /* arena position of its length varint */
    size_t body_at;          /* arena position of its first field */
    uint8_t len_width, type;
} rfl__onnx_frame;

typedef struct rfl_onnx_state {
    uint64_t offset;         /* stream bytes consumed (pushed or skipped) */
    uint64_t skip;           /* after a push: this many bytes that follow
                                are payload the reader ignores; seek past
                                them and call rfl_onnx_skip, or push them */
    size_t need;             /* arena bytes the read and build need (set by
                                finish, also with RFL_ERR_BUFFER) */
    uint64_t seeked;         /* of offset: bytes seeked over (rfl_onnx_skip) */
    rfl_error err;           /* first error (sticky): offset = the stream
                                byte of a wire error, which its message
                                names ("byte 12: ..."); where = the tensor
                                or node of a graph error */
    /* ---- private ---- */
    unsigned char *arena;
    size_t size, used;
    uint64_t counts[16];
    rfl__onnx_frame frames[RFL_ONNX_MAX_DEPTH];
    int depth, phase, action, finished;
    uint32_t field;
    uint64_t val, remain, field_start;
    unsigned shift, hdr_len, wire;
    unsigned char hdr[24];
} rfl_onnx_state;

/* Settings of rfl_onnx_build; zero means default. */
typedef struct rfl_onnx_desc {
    uint64_t batch;          /* batch axis of every graph input (the first;
                                the second for a recurrent net's X) when it
                                is symbolic or unknown: 0 = 1 */
    const char *dims;        /* "seq=128,height=224": values of the other
                                symbolic dims (also "NAME=V" for the batch
                                axis' name); NULL: none */
} rfl_onnx_desc;

typedef struct rfl_onnx_info {
    uint64_t batch;          /* batch the shapes were inferred at: records
                                hold counts / batch (per sample) */
    int batch_axis;          /* axis of the graph inputs taken as the batch:
                                0, or 1 for a recurrent net's X [seq, batch,
                                input] */
    int unknown_ops;         /* records with RFL_LF_UNKNOWN_FLOPS */
    const char *unknown_op;  /* op type of the first of them, or NULL */
    rfl_error err;           /* a build error: index = the node (or -1),
                                where = "node 'x' (Reshape)", msg = what */
} rfl_onnx_info;

/* Start a read into arena[size] (NULL / 0: count mode). */
RFL_API rfl_result rfl_onnx_init(rfl_onnx_state *st, void *arena, size_t size);
/* Feed the next len bytes. Errors are sticky (st->err): RFL_ERR_FORMAT
   for bytes that are not ONNX protobuf. */
RFL_API rfl_result rfl_onnx_push(rfl_onnx_state *st, const void *data, size_t len);
/* The caller seeked past n <= st->skip bytes instead of pushing them. */
RFL_API rfl_result rfl_onnx_skip(rfl_onnx_state *st, uint64_t n);
/* End of the stream: decode the kept structure into *g. RFL_ERR_TRUNCATED
   when the stream stops inside a message; RFL_ERR_GRAPH (st->err names the
   node) for an unknown input name or a name produced twice;
   RFL_ERR_FORMAT / RFL_ERR_OVERFLOW for a negative or overflowing dim
   (st->err names the tensor); RFL_ERR_BUFFER: see st->need. */
RFL_API rfl_result rfl_onnx_finish(rfl_onnx_state *st, rfl_onnx_graph *g);
/* Shapes and costs: appends the records to an initialised, empty net
   (g->record_bound records suffice). RFL_ERR_GRAPH for a cycle,
   RFL_ERR_SHAPE / RFL_ERR_OVERFLOW for shapes that do not fit,
   RFL_ERR_UNSUPPORTED for a node whose output shape cannot be known,
   RFL_ERR_MISSING for a symbolic dim without a value; info->err says
   which node (also copied to net->err). Uses g->work (the graph is
   modified). */
RFL_API rfl_result rfl_onnx_build(rfl_onnx_graph *g, const rfl_onnx_desc *d, rfl_net *net,
                                  rfl_onnx_info *info);
/* Whole-buffer helper: init + push + finish. */
RFL_API rfl_result rfl_onnx_read_buffer(rfl_onnx_state *st, const void *data, size_t len,
                                        void *arena, size_t size, rfl_onnx_graph *g);
#ifndef RFL_NO_STDIO
/* Read a file, seeking past weight payloads: init + push + finish.
   RFL_ERR_IO when it cannot be opened or read (st->err.msg says). The
   caller's two passes: arena NULL (count mode) gives st->need, then the
   read into an arena of that size. */
RFL_API rfl_result rfl_onnx_read_file(rfl_onnx_state *st, const char *path, void *arena,
                                      size_t size, rfl_onnx_graph *g);
/* The same from an open stream, from where it stands (standard input, a
   pipe): payloads are seeked over when f can seek, else read and
   dropped. st->offset - st->seeked bytes were read. f stays open. */
#include <stdio.h>
RFL_API rfl_result rfl_onnx_read_stream(rfl_onnx_state *st, FILE *f, void *arena,
                                        size_t size, rfl_onnx_graph *g);
#endif
/* Dim `axis` of graph input `input` as rfl_onnx_build saw it with desc d
   (info: what the build said): the batch for a symbolic or unknown batch
   axis, a d->dims value for a named one, else the file's; -1 when none of
   these (a symbolic dim without a value). */
RFL_API int64_t rfl_onnx_input_dim(const rfl_onnx_graph *g, const rfl_onnx_desc *d,
                                   const rfl_onnx_info *info, int input, int axis);

#endif /* RFL_NO_ONNX */

#ifndef RFL_NO_JSON_WRITER
/* ---- the estimate as JSON ----------------------------------------------------
   rfl-estimate --json, written once here (docs/schema.md, RFL_SCHEMA_VERSION)
   for a zoo model, an LLM step and an ONNX graph alike: model, batch, input,
   dtype, mode, convention, params, param_bytes, forward{flops, mac_flops,
   bytes}, backward{...}, activation_bytes, train{sgd_bytes, adam_bytes},
   with a machine hw, predicted_time_s, bound, whole_model_time_s,
   compute_bound_layers, memory_bound_layers; summary{...} when asked;
   by_type[{type, layers, flops, bytes, predicted_time_s}]; layers[{name,
   type, op, out, params, forward_flops, forward_mac_flops, forward_bytes,
   backward_flops, backward_mac_flops, backward_bytes, predicted_time_s,
   bound}]. An LLM adds its step (model_type, prec, phase, seq, logits,
   attention, weights, kv, tokens), after train kv_cache_bytes and
   bytes{weights, kv_read, kv_write, activations}, and with a machine
   compute_s, memory_s, tokens_per_s, ttft_s (null for a decode),
   decode_compute_bound_batch, gemm_compute_bound_batch and
   max_batch_in_memory (null: none; rfl_llm_step_figures); an
   ONNX graph its file (onnx_file, opset, batch_axis, onnx_nodes,
   unknown_flops_nodes, unknown_flops_op, unknown_nodes). FLOPs of records
   without a FLOP rule are unknown: the totals' flops and mac_flops are
   null with flops_known and mac_flops_known beside them, and so are the
   times and the bound (predicted_time_known_s, whole_model_time_known_s). */
typedef struct rfl_net_json_desc {
    const char *model;          /* "model" */
    int summary;                /* nonzero: "summary", rfl_net_summary's totals */
    /* an LLM step (rfl_llm_build's records), else NULL */
    const struct rfl_llm_config *llm;
    const struct rfl_llm_step_desc *step;
    /* an ONNX graph (rfl_onnx_build's records), else NULL */
    const struct rfl_onnx_graph *onnx;
    const struct rfl_onnx_info *onnx_info;
    const char *onnx_file;      /* as the caller names it */
    const char *onnx_dims;      /* the build's rfl_onnx_desc.dims */
} rfl_net_json_desc;
#ifndef RFL_NO_LLM
/* What an LLM step adds to its records' totals, for the tools' tables and
   JSON alike (rfl_llm_step_figures). */
#define RFL_LLM_BATCH_CAP 65536 /* the compute-bound batches are searched up to it */
typedef struct rfl_llm_figures {
    uint64_t tokens;          /* new tokens: batch x (S for a prefill, else 1) */
    uint64_t kv_cache_bytes;  /* the cache after the step (rfl_llm_kv_cache_bytes) */
    /* with a machine */
    double tokens_per_s;      /* tokens / the predicted step time */
    double ttft_s;            /* a prefill: its step time; a decode: 0 */
    uint64_t decode_bound_batch; /* a decode step: the batch at which it turns
                                 compute-bound (rfl_net_compute_bound_batch);
                                 0: none up to RFL_LLM_BATCH_CAP, or a prefill */
    uint64_t gemm_bound_batch;   /* the same for its weight GEMMs alone */
    uint64_t max_batch_in_memory; /* sequences of the step's length whose KV
                                 cache fits beside the weights in the machine's
                                 memory (activations left out: an upper bound);
                                 0: none, or the memory is unknown */
} rfl_llm_figures;
/* The figures of the step built by rfl_llm_build(net, cfg, step) under its
   cost desc d (rfl_llm_cost_desc; step with its batch and types), on m (may
   be NULL: the machine's figures stay 0). Returns the errors of
   rfl_net_cost_get, rfl_net_predict and the LLM calls. */
RFL_API rfl_result rfl_llm_step_figures(const rfl_net *net, const rfl_cost_desc *d,
                                        const struct rfl_llm_config *cfg,
                                        const struct rfl_llm_step_desc *step,
                                        const rfl_machine *m, rfl_llm_figures *out);
#endif
/* The estimate of net under d (m: the machine of the times, or NULL) as
   the members of the object the caller opened on w. Returns the error of
   rfl_net_cost_get or rfl_net_predict (nothing written then). */
RFL_API rfl_result rfl_net_json(rfl_json_writer *w, const rfl_net *net, const rfl_cost_desc *d,
                                const rfl_machine *m, const rfl_net_json_desc *jd);
#endif

/* ==========================================================================
   API  REDUCER
   streaming ncu / nvprof CSV -> work
   ========================================================================== */
/* Formats, detected from the bytes (preamble lines such as ==PROF== and the
   application's own output are skipped; BOM, CRLF, quoted fields with commas
   and doubled quotes, thousands separators, n/a and empty values handled):
     ncu --csv --page raw     header row, units row, one row per kernel
     ncu --csv (details)      one row per kernel per metric, own unit column
     nvprof --csv --metrics   Device,Kernel,Invocations,Metric Name,...,Avg
     nvprof --csv (summary)   Type,Time(%),Time,Calls,Avg,Min,Max,Name
     nvprof --csv --print-gpu-trace   Start,Duration,...,Name
   Several sections may follow each other in one stream (e.g. an nvprof
   summary then its metrics): a blank line or a "==" line ends a section.

   Scratch: RFL_REDUCE_SCRATCH_SIZE(max_columns) bytes = a carry of
   RFL_REDUCE_CARRY bytes (holds one partial header name or number between
   chunks) + 3 bytes per CSV column (the column -> metric map, and the
   length of the run of unused columns from each column, which lets the
   parser skip them 64 bytes at a time). A `--set full` raw page has ~2,100
   columns; RFL_REDUCE_SCRATCH_DEFAULT takes 8,192. Too many
   columns -> RFL_ERR_BUFFER; a number longer than the carry ->
   RFL_ERR_FIELD_TOO_LONG; a kernel name longer than RFL_REDUCE_NAME_MAX-1
   is kept truncated and flagged (RFL_REDUCE_NAME_TRUNCATED).
   Counts (FLOPs, bytes, instructions) and times in ns are exact uint64;
   an overflow saturates at UINT64_MAX (RFL_REDUCE_SATURATED). */
#ifndef RFL_NO_REDUCE
#define RFL_REDUCE_NAME_MAX 256  /* kernel name bytes kept, with the NUL */
#define RFL_REDUCE_TOP_MAX 32    /* most kernels rfl_reduce_result.top holds */
#define RFL_REDUCE_WARN_MAX 16   /* warnings kept (more are counted) */
#define RFL_REDUCE_WARN_TEXT 320 /* bytes per warning text, with the NUL */
#define RFL_REDUCE_CARRY 256     /* partial-field carry taken from scratch */
#define RFL_REDUCE_DEVICE_MAX 96 /* device name bytes kept, with the NUL */
#define RFL_REDUCE_SCRATCH_SIZE(max_columns) \
    ((size_t)RFL_REDUCE_CARRY + 3 * (size_t)(max_columns))
#define RFL_REDUCE_SCRATCH_DEFAULT RFL_REDUCE_SCRATCH_SIZE(8192)

typedef enum rfl_csv_format {
    RFL_CSV_UNKNOWN = 0,
    RFL_CSV_NCU_RAW,         /* ncu --csv --page raw */
    RFL_CSV_NCU_DETAILS,     /* ncu --csv (details page) */
    RFL_CSV_NVPROF_METRICS,  /* nvprof --csv --metrics ... */
    RFL_CSV_NVPROF_SUMMARY,  /* nvprof --csv (GPU activities summary) */
    RFL_CSV_NVPROF_TRACE     /* nvprof --csv --print-gpu-trace */
} rfl_csv_format;
/* "ncu-raw", "ncu-details", "nvprof-metrics", "nvprof-summary",
   "nvprof-trace", "unknown". */
RFL_API const char *rfl_reduce_format_name(rfl_csv_format f);

/* Number convention. AUTO detects it from the file: "3,355,641.60" is US,
   "27.595.520" or "65,77" is EU; a value that reads both ways ("1,280")
   before any unambiguous one in the same row is RFL_ERR_LOCALE. */
typedef enum rfl_locale {
    RFL_LOCALE_AUTO = 0,
    RFL_LOCALE_US,  /* 1,234.5 */
    RFL_LOCALE_EU   /* 1.234,5 */
} rfl_locale;

/* Warning codes (rfl_reduce_warning.code). Each comes with a text that says
   what it means and what to do. */
typedef enum rfl_reduce_warn {
    RFL_WARN_NONE = 0,
    RFL_WARN_TENSOR_UNCOUNTED, /* tensor-core kernels (by name) with no FLOP count */
    RFL_WARN_TENSOR_ESTIMATED, /* tensor FLOPs = instructions x a factor */
    RFL_WARN_NO_FP_COUNTERS,   /* no FLOP counter of any precision */
    RFL_WARN_ABOVE_ROOF,       /* a kernel or the total above the roof */
    RFL_WARN_BELOW_COMPULSORY, /* DRAM writes below an elementwise output */
    RFL_WARN_HIERARCHY,        /* AI(L1) > AI(L2) or AI(L2) > AI(DRAM) */
    RFL_WARN_LOW_CLOCK,        /* profile clock well below the boost clock */
    RFL_WARN_AUTO_UNITS,       /* --print-units auto: digits lost */
    RFL_WARN_RATE_DERIVED,     /* counts derived from rounded rates */
    RFL_WARN_NAME_TRUNCATED,   /* kernel names longer than NAME_MAX */
    RFL_WARN_SATURATED,        /* a uint64 total saturated */
    RFL_WARN_GROUPS_FULL,      /* by-name table full: rest under "other" */
    RFL_WARN_NO_TIME,          /* no time metric: FLOP/s unknown */
    RFL_WARN_PARTIAL_COUNTERS, /* e.g. ffma without fadd/fmul: lower bound */
    RFL_WARN_NO_TENSOR_COUNTERS, /* none collected, none needed by the names */
    RFL_WARN_COUNT_
} rfl_reduce_warn;

/* Flags in rfl_kernel_stat.flags and rfl_reduce_result.flags. */
#define RFL_REDUCE_TENSOR_ESTIMATED 1u /* tensor FLOPs from instructions */
#define RFL_REDUCE_RATE_DERIVED 2u     /* a count came from rate x cycles */
#define RFL_REDUCE_SATURATED 4u        /* a uint64 count saturated */
#define RFL_REDUCE_NAME_TRUNCATED 8u   /* the name was cut */
#define RFL_REDUCE_TIME_FROM_CYCLES 16u /* time = cycles / clock */

/* One kernel (a profiled launch), a group of kernels with the same name, or
   a total. Exact integer counts and the same numbers as an rfl_work. */
typedef struct rfl_kernel_stat {
    uint64_t id;                  /* ncu "ID" (first id for groups) */
    uint64_t invocations;         /* launches counted */
    uint64_t flops[RFL_PREC_COUNT];  /* FLOPs (2 per multiply-add) */
    uint64_t bytes[RFL_LEVEL_COUNT]; /* bytes per memory level */
    uint64_t time_ns;             /* summed kernel time, ns */
    uint64_t tensor_inst;         /* tensor pipe warp instructions */
    unsigned flags;               /* RFL_REDUCE_* flags */
    rfl_work work;                /* same numbers, unknown bits set */
    char name[RFL_REDUCE_NAME_MAX]; /* NUL-terminated, maybe truncated */
} rfl_kernel_stat;

/* Called once per completed kernel (after filters), in file order. */
typedef void (*rfl_kernel_fn)(void *user, const rfl_kernel_stat *k);

typedef struct rfl_reduce_desc {
    rfl_locale locale;         /* AUTO (0) detects; US/EU declares */
    int top_n;                 /* kernels kept in result.top; 0 = 10,
                                  negative = none,
                                  capped at RFL_REDUCE_TOP_MAX */
    const char *filter;        /* keep kernels whose name contains this;
                                  NULL or "" = all. Matched on the kept
                                  (maybe truncated) name. */
    int use_ids;               /* nonzero: keep only id_first..id_last */
    uint64_t id_first, id_last;
    rfl_kernel_stat *groups;   /* by-name table (caller memory) or NULL */
    int group_cap;             /* entries in groups */
    const rfl_machine *machine; /* optional: roof and clock warnings */
    double tensor_flops_per_inst; /* FLOPs per tensor-pipe instruction
                                  for estimates; 0 = by each kernel's
                                  name (see the REDUCER manual) */
    rfl_kernel_fn on_kernel;   /* optional per-kernel callback */
    void *user;                /* passed to on_kernel */
} rfl_reduce_desc;

typedef struct rfl_reduce_warning {
    rfl_reduce_warn code;
    int has_kernel;            /* 1: kernel_id names the kernel */
    uint64_t kernel_id;
    char text[RFL_REDUCE_WARN_TEXT];
} rfl_reduce_warning;

typedef struct rfl_reduce_result {
    rfl_csv_format format;     /* the first section's format */
    char device[RFL_REDUCE_DEVICE_MAX]; /* the device's name as the profile
                                  gives it ("NVIDIA H100 80GB HBM3": ncu raw
                                  pages' device__attribute_display_name,
                                  first kernel row); "" when it gives none */
    rfl_locale locale;         /* declared or detected (AUTO: no evidence) */
    uint64_t kernels;          /* kernels counted after filters */
    uint64_t kernels_seen;     /* before filters */
    rfl_kernel_stat total;     /* totals (name "total") */
    double flops_per_s;        /* total FLOPs / time; 0 when unknown */
    /* The device's own ceilings when the profile carries them
       (*.peak_sustained x the matching clock, time-weighted over kernels);
       0 = not in the profile. */
    double ceil_flops[RFL_PREC_COUNT];
    double ceil_bw[RFL_LEVEL_COUNT];
    double sm_clock_hz;        /* time-weighted SM clock; 0 = unknown */
    double tensor_flops_per_inst; /* mean factor of the estimates, else 0 */
    double auto_units_rel_err; /* worst relative rounding of a scaled value */
    unsigned flags;            /* RFL_REDUCE_* flags */
    int top_count;             /* top kernels by time, longest first */
    rfl_kernel_stat top[RFL_REDUCE_TOP_MAX];
    int group_count;           /* entries filled in desc.groups */
    rfl_kernel_stat other;     /* kernels whose name found no group slot */
    int warning_count;
    int warnings_dropped;      /* beyond RFL_REDUCE_WARN_MAX */
    rfl_reduce_warning warnings[RFL_REDUCE_WARN_MAX];
} rfl_reduce_result;

/* A unit's scale into a metric's base unit (private to the reducer). */
typedef struct rfl__unit { int cls; uint64_t mult; int exp10; } rfl__unit;

/* Parser state: a plain struct, large (static, not on a small stack), so
   callers can place it anywhere. After a failure, err.line and err.col
   (1-based) and err.offset (0-based byte) say where. */
#define RFL__ROLES 80 /* metric roles the reducer knows */
#define RFL__TC_MEMO 64 /* kernel-name answers remembered */
#define RFL__NB 32 /* 64-byte blocks of masks made at a time */
typedef struct rfl__blks {
    uint64_t sep[RFL__NB], ends[RFL__NB], hard[RFL__NB];
    uint64_t inside_carry, prev_cq, prev_ok;
} rfl__blks;
typedef struct rfl__tc_memo {
    uint64_t h, len, stamp;
    int used, cc, fam, elementwise;
    rfl_prec prec;
    double sync, wg;
} rfl__tc_memo;
typedef struct rfl_reduce_state {
    rfl_error err;             /* first error (sticky) */
    /* ---- private ---- */
    rfl_reduce_desc desc;
    unsigned char *carry, *colmap, *runs;
    size_t col_cap;
    uint64_t offset, line, line_start, offset_now, field_line, field_col, field_off;
    uint64_t unit_line, unit_col, unit_off;
    int mode, fstate, quoted, need, row_kind, field_over, bom_state, saw_bytes;
    uint32_t col, ncols, carry_len;
    char pre[16];
    size_t pre_len;
    rfl_csv_format fmt;
    rfl_locale locale;
    int top_n, key_col[11];
    int roles_seen[RFL__ROLES];
    unsigned char role_ucls[RFL__ROLES], role_unit_set[RFL__ROLES], kset[RFL__ROLES];
    unsigned char role_plain[RFL__ROLES];
    uint64_t role_mult[RFL__ROLES];
    rfl__unit role_unit[RFL__ROLES], nv_time_unit;
    double kv_d[RFL__ROLES][2]; /* per-kernel values: US and EU readings */
    uint64_t kv_u[RFL__ROLES][2];
    unsigned kflags;
    int amb_pending;
    uint64_t amb_line, amb_col, amb_off;
    char amb_text[64], auto_example[64], unit[32];
    size_t unit_len, tmp_len, name_len;
    int unit_over, have_kernel, name_pending, row_skip, row_role, row_ucls, cc_major;
    int name_trunc, tmp_trunc, finished, simd;
    uint64_t row_mult, cur_id, cur_invoc, nv_index, rows;
    char name[RFL_REDUCE_NAME_MAX], tmp_name[RFL_REDUCE_NAME_MAX];
    rfl_kernel_stat kst;
    rfl__tc_memo tc_memo[RFL__TC_MEMO];
    rfl__blks blks;
    uint64_t tc_clock;
    rfl_reduce_result res;
    char scratch_text[RFL_REDUCE_WARN_TEXT];
    double clk_w, clk_sum, ceil_w[(int)RFL_PREC_COUNT + (int)RFL_LEVEL_COUNT],
        ceil_sum[(int)RFL_PREC_COUNT + (int)RFL_LEVEL_COUNT], w_above_x;
    uint64_t w_tc_kernels, w_est_kernels, w_pipe_kernels;
    double w_tc_s, w_time_s, w_est_flops, w_est_inst;
    char w_tc_example[48];
    uint64_t w_below, w_below_id,
        w_below_got, w_below_need, w_above, w_above_id, w_trunc, w_other;
    unsigned w_partial;
    uint64_t nv_ns[2];         /* nvprof kernel time: summary, trace */
    int nv_known[2];
} rfl_reduce_state;

/* Start a reduction.
   state   out: initialised (any previous content ignored)
   desc    in: options, copied (NULL = all defaults); the strings, groups
           table and machine it points to must outlive the reduction
   scratch in: caller memory of RFL_REDUCE_SCRATCH_SIZE(columns) bytes
   Returns RFL_ERR_ARG for NULL state/scratch, RFL_ERR_BUFFER when size is
   below RFL_REDUCE_SCRATCH_SIZE(1). See also rfl_reduce_push. */
RFL_API rfl_result rfl_reduce_init(rfl_reduce_state *state,
                                   const rfl_reduce_desc *desc,
                                   void *scratch, size_t size);

/* Feed len bytes (any split, len may be 0). Returns RFL_OK or the first
   error, which is sticky: state->err (line, col, offset, msg) says
   where and what. A NUL byte is RFL_ERR_FORMAT at once (binary, not a
   CSV export). See also rfl_reduce_finish. */
RFL_API rfl_result rfl_reduce_push(rfl_reduce_state *state,
                                   const void *bytes, size_t len);

/* End of input: completes the last row, computes totals, top kernels,
   groups, ceilings and warnings into *result (out). Errors: RFL_ERR_EMPTY
   (no bytes), RFL_ERR_NO_HEADER, RFL_ERR_NO_DATA (a header but no data
   row), RFL_ERR_TRUNCATED (input ends inside a quoted field), or the
   sticky error of a push. After finish, push returns
   RFL_ERR_STATE. */
RFL_API rfl_result rfl_reduce_finish(rfl_reduce_state *state,
                                     rfl_reduce_result *result);
/* The profile's device name as read so far ("" before its first kernel
   row, or when the file has none): known while streaming, from the first
   kernel's callback on (the machine to judge its kernels against). */
RFL_API const char *rfl_reduce_device(const rfl_reduce_state *state);

/* Whole buffer at once: init + one push + finish. scratch as for init. */
RFL_API rfl_result rfl_reduce_buffer(const void *bytes, size_t len,
                                     const rfl_reduce_desc *desc,
                                     void *scratch, size_t size,
                                     rfl_reduce_state *state,
                                     rfl_reduce_result *result);

/* Tensor FLOPs summed over the tensor precisions of a stat (exact). */
RFL_API uint64_t rfl_reduce_tensor_flops(const rfl_kernel_stat *k);

/* A machine holding the profile's own ceilings (result.ceil_*), named
   "profile" (so rfl_work_attainable etc. can use it). */
RFL_API void rfl_reduce_ceilings_machine(const rfl_reduce_result *r,
                                         rfl_machine *out);

/* A warning's stable code ("padded_mma", "below_compulsory", ...): what
   tests and users match on. */
RFL_API const char *rfl_reduce_warn_code(rfl_reduce_warn w);

#ifndef RFL_NO_JSON_WRITER
/* rfl-reduce --json, written once here (docs/schema.md, RFL_SCHEMA_VERSION):
   format, kernels, kernels_seen, locale, time_s, time_ns, flops{fp64, fp32,
   fp16, tensor, total, tensor_estimated, by_precision{...}}, bytes{dram,
   l2, l1}, ai{dram, l2, l1}, flops_per_s, tensor_inst, ceilings{...},
   with hw: hw, hw_prec, roof_fraction; warnings[{code, kernel, text}],
   top[kernel], and with groups (desc.groups of the reduction, or NULL):
   by_name[kernel] and other. A kernel has id, name, name_truncated,
   invocations, then time_s, flops, bytes, ai and flops_per_s with the
   totals' meaning (objects per precision and level). A quantity the
   profile did not measure is null, never 0. The top-level object is
   opened and closed here (newline after). */
RFL_API void rfl_reduce_json(rfl_json_writer *w, const rfl_reduce_result *r,
                             const rfl_kernel_stat *groups, const rfl_machine *hw);
/* The reader's side of the same keys: the DRAM arithmetic intensity and
   achieved FLOP/s of object obj of such a document (the totals, or one
   kernel of top / by_name): ai.dram, else flops.total / bytes.dram;
   flops_per_s, else flops.total / time_s. 1 when both are known (> 0). */
RFL_API int rfl_reduce_json_point(const rfl_json_doc *d, int obj, double *ai, double *flops_per_s);
#endif
#endif /* RFL_NO_REDUCE */

/* ==========================================================================
   API  JOIN (RFL_NO_LLM or RFL_NO_REDUCE removes it)
   kernel classes, an estimate beside its profile, a model's report
   ========================================================================== */
#ifndef RFL_NO_LLM
/* ---- the LLM join -----------------------------------------------------
   A step's records beside its Nsight Compute profile, kind by kind, and two
   warnings that explain the usual gap: rfl_join (API JOIN) with
   RFL_GROUP_KIND, whose kernels go through the classifier below.
       rfl_join j;                                 (a plain struct)
       rfl_join_init(&j, RFL_GROUP_KIND, h100);
       rd.on_kernel = rfl_join_kernel; rd.user = &j;      reducer desc
       ... rfl_reduce_push / rfl_reduce_finish ...
       rfl_join_compute(&j, &net, &cd, h100);      j.rows[], j.warnings[]
   (rfl_llm_classify_* alone: the kinds measured, without an estimate.)
   Kernels into kinds. A name alone cannot tell an attention projection from
   an MLP GEMM (the same cuBLAS / nvjet kernels run both), so the classifier
   reads the kernel stream in order, as a Hugging Face forward launches it:
     - a norm starts a segment: a fused layer_norm / rms_norm kernel, or an
       eager RMSNorm (x.to(fp32), x.pow(2), .mean(-1), + eps, rsqrt, *, cast
       back, * weight: 8 kernels, found by its mean reduction and the pow and
       cast just before it; gelu_new's pow(x, 3) is not followed by a mean);
       every kernel from there up to the next GEMM or attention kernel is
       RFL_LLM_NORM;
     - a segment with an attention kernel (RFL_KC_ATTENTION: fmha, flash,
       sdpa, cuDNN's SDPA) is attention: its GEMMs (q, k, v, o), the attention kernel and
       the elementwise kernels between its first GEMM and the attention
       kernel (rotary, the KV cache's torch.cat) are RFL_LLM_ATTENTION;
     - a segment without one is the MLP (its GEMMs, splitK reductions
       included: RFL_LLM_MLP), except the last segment, whose GEMMs are the
       LM head (RFL_LLM_LM_HEAD); GEMMs before the first norm are rotary's
       inv_freq product (RFL_LLM_ATTENTION);
     - index_select / gather / embedding kernels are RFL_LLM_EMBEDDING;
       everything else (residual adds, activations, casts, position ids,
       rotary's cos / sin tables) is RFL_LLM_ELEMENTWISE.
   Limits: one step per profile (a second step's LM head would count as an
   MLP); eager or SDPA Hugging Face forwards (a fused kernel that does norm
   and GEMM at once, or attention written as plain GEMMs, is misread); an
   eager RMSNorm's first kernel (the cast to fp32) counts as a norm only when
   it sits right before the pow. tests/test_llm_join.c checks the kinds on
   the four shared GPT-2 and Llama-3.2-1B captures.
   Warnings (stable codes, thresholds below):
     padded_mma    tensor FLOPs executed >= RFL_LLM_PADDED_RATIO x the
                   step's useful matrix FLOPs (the estimate's mac_flops):
                   small products (a decode GEMV, one query row) run on
                   padded MMA tiles; measured FLOP/s overstates useful work.
     launch_bound  kernel time >= RFL_LLM_LAUNCH_GAP x the estimate's time at
                   the roof, and >= RFL_LLM_LAUNCH_SHARE of that time is in
                   tiny kernels: kernels whose own measured bytes and FLOPs
                   need under RFL_LLM_TINY_S at the roof of the machine (the
                   time is launch, ramp-up and drain). */
#define RFL_LLM_PADDED_RATIO 2.0
#define RFL_LLM_LAUNCH_GAP 2.0
#define RFL_LLM_LAUNCH_SHARE 0.5
#define RFL_LLM_TINY_S 1e-6
#ifndef RFL_NO_REDUCE
struct rfl_kernel_stat; /* the reducer's (API REDUCER, above) */

/* Measured, one kind (or the total): exact sums over its kernels
   (saturating at UINT64_MAX). */
typedef struct rfl_llm_kind_meas {
    uint64_t kernels;
    uint64_t time_ns;
    uint64_t flops;        /* every precision, tensor included */
    uint64_t tensor_flops; /* the tensor-core part */
    uint64_t dram_bytes;
    uint64_t tiny_kernels; /* kernels needing < RFL_LLM_TINY_S at the roof */
    uint64_t tiny_time_ns;
    rfl_work work;         /* the kernels' works summed (unknown bits OR-ed) */
} rfl_llm_kind_meas;

typedef struct rfl__llm_kern { /* one held-back kernel */
    uint64_t id, time_ns, flops, tensor_flops, dram_bytes;
    rfl_work work;
    int role, norm_start, tiny;
} rfl__llm_kern;

/* The classifier: a plain struct fed one kernel at a time. */
typedef struct rfl_llm_classifier {
    rfl_llm_kind_meas kinds[RFL_LLM_KIND_COUNT]; /* out, after finish */
    rfl_llm_kind_meas total;
    unsigned unknown;        /* RFL_UNKNOWN_* bits OR-ed over the kernels */
    int finished;
    /* ---- private ---- */
    const rfl_machine *machine;
    rfl__llm_kern hold[2];   /* the last two kernels, held back until the
                                next one says whether they start a norm */
    int held;
    int segment, in_norm, seg_gemm, seg_core;
    rfl_llm_kind_meas seg_gemms, seg_pre; /* GEMMs, and kernels between the
                                first GEMM and an attention kernel, of the
                                open segment: their kind waits for its end */
} rfl_llm_classifier;

/* Start (machine may be NULL: then no kernel counts as tiny). */
RFL_API void rfl_llm_classify_init(rfl_llm_classifier *c, const rfl_machine *machine);
/* One kernel, in launch order; an rfl_kernel_fn for rfl_reduce_desc.on_kernel
   (user = the classifier). Ignored after finish. */
RFL_API void rfl_llm_classify_kernel(void *classifier, const struct rfl_kernel_stat *k);
/* End of the step: settles the held kernels and the last segment. */
RFL_API void rfl_llm_classify_finish(rfl_llm_classifier *c);

typedef enum rfl_llm_warn {
    RFL_LLM_WARN_NONE = 0,
    RFL_LLM_WARN_PADDED_MMA,   /* "padded_mma" */
    RFL_LLM_WARN_LAUNCH_BOUND, /* "launch_bound" */
    RFL_LLM_WARN_COUNT_
} rfl_llm_warn;
/* The stable code string ("" for NONE). */
RFL_API const char *rfl_llm_warn_code(rfl_llm_warn w);

#define RFL_LLM_WARN_TEXT 640
typedef struct rfl_llm_warning {
    rfl_llm_warn code;
    char text[RFL_LLM_WARN_TEXT]; /* what it means, the figures, what helps */
} rfl_llm_warning;

#endif /* RFL_NO_REDUCE */

#endif /* RFL_NO_LLM */

#if !defined(RFL_NO_LLM) && !defined(RFL_NO_REDUCE)
/* Kernel classes: what a kernel's name alone says, for CNNs and LLMs
   alike (rfl_kclass_of; one rule table, first match wins). cuDNN's fused
   attention (SDPA, flash) is attention; cuDNN's implicit-GEMM, Winograd and
   FFT kernels are convolutions; its batch-norm kernels are norms. */
typedef enum rfl_kclass {
    RFL_KC_CONV = 0,    /* convolution, implicit_gemm, winograd, dgrad, cuDNN */
    RFL_KC_GEMM,        /* gemm, gemv, nvjet, cutlass, xmma, splitKreduce */
    RFL_KC_ATTENTION,   /* fmha, flash, sdpa, attention, cuDNN's SDPA reduction */
    RFL_KC_NORM,        /* batch / layer / group / RMS norm kernels */
    RFL_KC_MEAN,        /* a MeanOps reduction (an eager RMSNorm's mean) */
    RFL_KC_POW,         /* pow (RMSNorm's x^2, gelu_new's x^3) */
    RFL_KC_COPY,        /* copies, casts, concatenation, layout transposes */
    RFL_KC_EMBEDDING,   /* index_select, gather, embedding */
    RFL_KC_POOL,        /* max / average pooling */
    RFL_KC_REDUCTION,   /* softmax, sums, losses */
    RFL_KC_ELEMENTWISE, /* activations, adds, fills, the optimizer step */
    RFL_KC_OTHER,
    RFL_KC_COUNT
} rfl_kclass;
/* The class of a kernel name, case-insensitively; NULL is RFL_KC_OTHER. */
RFL_API rfl_kclass rfl_kclass_of(const char *name);
/* "convolution", "gemm", "attention", "norm", "mean", "pow", "copy",
   "embedding", "pool", "reduction", "elementwise", "other". */
RFL_API const char *rfl_kclass_name(rfl_kclass c);
/* The layer type whose records a class's kernels run (attention: matmul,
   mean: reduction, pow: elementwise, copy: data). */
RFL_API rfl_ltype rfl_kclass_ltype(rfl_kclass c);

/* ---- the join: an estimate beside its profile, group by group ----------
   A net's records grouped, each group beside the profile's kernels of it:
   how many, their FLOPs, DRAM bytes and time. Two groupings:
     RFL_GROUP_LTYPE  CNNs, ONNX graphs: rows in rfl_ltype order; a kernel
                      goes to the type of its class (rfl_kclass_of, then
                      rfl_kclass_ltype);
     RFL_GROUP_KIND   an LLM step (rfl_llm_build: every record has its
                      kind): rows in rfl_llm_kind order; kernels go through
                      the LLM classifier (API TRANSFORMERS, the LLM join),
                      and the warnings padded_mma and launch_bound are
                      looked for.
       rfl_join j;                                  (a plain struct)
       rfl_join_init(&j, RFL_GROUP_LTYPE, h100);    the profile's machine
       rd.on_kernel = rfl_join_kernel; rd.user = &j;      reducer desc
       ... rfl_reduce_push / rfl_reduce_finish ...
       rfl_join_compute(&j, &net, &cd, h100);       j.rows[], j.total
   A row's estimated time is each record's forward and backward predicted
   apart on the machine (max(compute, memory) each), summed. */
#define RFL_JOIN_ROWS 12
typedef struct rfl_join_row {
    const char *name;       /* the group: rfl_ltype_name, rfl_llm_kind_name */
    int layers;             /* records (inputs and marks left out) */
    double fwd_flops, bwd_flops; /* estimate; bwd 0 unless training */
    double bytes;           /* estimated DRAM bytes, forward (+ backward) */
    double fwd_time_s, bwd_time_s; /* estimated time on the machine */
    uint64_t mac_flops;     /* estimated useful matrix FLOPs, forward */
    rfl_llm_kind_meas meas; /* measured: meas.work the kernels' works summed */
} rfl_join_row;

typedef struct rfl_join {
    rfl_group_by by;         /* RFL_GROUP_LTYPE or RFL_GROUP_KIND */
    int count;               /* rows */
    rfl_join_row rows[RFL_JOIN_ROWS];
    rfl_join_row total;
    uint64_t transforms;     /* Winograd and FFT launches: algorithms with
                                fewer multiplications than the formula */
    int uncosted;            /* records whose cost failed: left out */
    int untimed;             /* works without a roof on the machine: no time */
    /* RFL_GROUP_KIND: the step against the profile, and its warnings */
    double useful_flops;         /* the estimate's mac_flops */
    double executed_tensor_flops;/* measured */
    double useful_per_executed;  /* useful / executed tensor; 0: none ran */
    double kernel_time_s;        /* measured, summed over kernels */
    double roof_time_s;          /* the estimate at the roof */
    double bytes_time_s;         /* the estimate's bytes / DRAM bandwidth */
    double gap;                  /* kernel_time_s / roof_time_s (0: unknown) */
    double mean_kernel_s;
    double tiny_share;           /* share of kernel time in tiny kernels */
    int warning_count;
    rfl_llm_warning warnings[RFL_LLM_WARN_COUNT_ - 1];
    /* ---- private ---- */
    rfl_llm_classifier cl;
} rfl_join;

/* Start. m: the machine the profile ran on (its roofs say which kernels
   are tiny; may be NULL, then set it with rfl_join_machine before the
   first kernel, or no kernel counts as tiny). */
RFL_API void rfl_join_init(rfl_join *j, rfl_group_by by, const rfl_machine *m);
RFL_API void rfl_join_machine(rfl_join *j, const rfl_machine *m);
/* One kernel, in launch order; an rfl_kernel_fn for
   rfl_reduce_desc.on_kernel (user = the join). */
RFL_API void rfl_join_kernel(void *join, const struct rfl_kernel_stat *k);
/* The estimate of net under d beside the kernels (the profile is over:
   a later kernel is ignored), times on machine m (NULL: no times, no
   warnings). A record whose cost fails is left out (uncosted). Returns
   RFL_ERR_ARG (NULL join or net; RFL_GROUP_KIND: a record of no LLM
   kind), RFL_ERR_STATE (a net with a builder error), RFL_ERR_NO_ROOF (m
   lacks a roof some work needs: those works have no time, untimed; the
   rest is filled). A warning needs the quantities it compares: no tensor
   counters, no padded_mma; no time, no launch_bound. */
RFL_API rfl_result rfl_join_compute(rfl_join *j, const rfl_net *net, const rfl_cost_desc *d,
                                    const rfl_machine *m);

/* ---- reports: one model's estimate, profile and comparison ------------
   What rfl-report shows of a model, for any front end: the estimate on
   each machine, the profile placed on the machine it ran on, measured over
   estimated FLOPs with the likely reasons, the join by group, and
   report.json (docs/schema.md, "rfl-report").
       rfl_report_model *rm;                 (large: static or allocated)
       rfl_report_init(rm, name, RFL_GROUP_LTYPE);
       rfl_report_estimate(rm, &net, &cd, machines, n);
       rd.on_kernel = rfl_join_kernel; rd.user = &rm->join;  reduce into rm->res
       rfl_report_place(rm, rfl_reduce_device(&st), machines, &n, cap, forced);
                             at the first kernel: the machine it ran on
       rfl_report_compare(rm, &net, &cd, machines);        ratio, reasons, join
       rfl_report_json(&w, &rep);                          rep: the models */
#define RFL_REPORT_MACHINES 8
#define RFL_REPORT_REASONS 6
#define RFL_REPORT_TEXT 400
typedef struct rfl_report_model {
    const char *name;            /* the model's key (the caller's string) */
    char disp[64];               /* its name in tables and charts: the zoo's
                                    readable one ("ResNet-18"), else name */
    char labels[2][96];          /* rfl_report_points: its points' labels */
    /* estimate */
    rfl_net_cost cost;
    rfl_work est;                /* forward (+ backward when training) */
    rfl_prec est_prec;           /* its main precision */
    rfl_net_prediction pred[RFL_REPORT_MACHINES];
    rfl_result pred_err[RFL_REPORT_MACHINES];
    /* profile: the caller reduces it into res (file: NULL when none) */
    const char *file;
    rfl_reduce_result res;
    int meas_hw;                 /* the machine it ran on: index, -1 none */
    int dev_added;               /* that machine was added to the list */
    char device_warning[RFL_REPORT_TEXT]; /* RFL_HW_DEVICE_MISMATCH's text, "" */
    /* comparison */
    rfl_join join;
    double ratio;                /* measured / estimated FLOPs; 0: unknown */
    int mismatch;                /* the profile looks like another batch or mode */
    int n_reasons;
    char reasons[RFL_REPORT_REASONS][RFL_REPORT_TEXT];
} rfl_report_model;

/* The whole report, for rfl_report_json. */
typedef struct rfl_report {
    const rfl_cost_desc *d;      /* batch, mode, dtype */
    const rfl_machine *const *machines;
    int n_machines;
    const rfl_report_model *const *models;
    int n_models;
    const char *const *charts;   /* files written (may be NULL) */
    int n_charts;                /* -1: no "charts" key (no PNG support) */
} rfl_report;

/* Start: no profile, no machine. */
RFL_API void rfl_report_init(rfl_report_model *rm, const char *name, rfl_group_by by);
/* The estimate of net under d, predicted on machines[0..n). Returns the
   cost's errors (a prediction's go to pred_err). */
RFL_API rfl_result rfl_report_estimate(rfl_report_model *rm, const rfl_net *net,
                                       const rfl_cost_desc *d, const rfl_machine *const *machines,
                                       int n);
/* The machine a profile ran on, from its device name (the reducer's, as
   soon as its first kernel is read: rfl_reduce_device; NULL or "": none):
   forced (a --ncu-hw machine, may be NULL) when given; else the device's
   own machine among machines[0..*n) (rfl_hw_match), a table machine
   missing from the list appended to it (while *n < cap; predict on it
   yourself; *n 0: no machine was asked for, so no device_mismatch), or -1
   (a device the table lacks); no device name: the first machine. Sets
   meas_hw, dev_added, device_warning and res.device, and the join's
   machine. */
RFL_API void rfl_report_place(rfl_report_model *rm, const char *device,
                              const rfl_machine **machines, int *n, int cap,
                              const rfl_machine *forced);
/* The join on the profile's machine (else machines[0]), measured over
   estimated FLOPs and its reasons. */
RFL_API rfl_result rfl_report_compare(rfl_report_model *rm, const rfl_net *net,
                                      const rfl_cost_desc *d, const rfl_machine *const *machines);
/* Measured tensor-core FLOPs of the profile; achieved FLOP/s (0: no time). */
RFL_API double rfl_report_tensor_flops(const rfl_report_model *rm);
RFL_API double rfl_report_flops_per_s(const rfl_report_model *rm);
/* The display name of a join row of layer types ("convolution", "matrix
   product", ...; kinds: their own name). */
RFL_API const char *rfl_report_group_name(const rfl_join *j, int row);
#ifndef RFL_NO_JSON_WRITER
/* report.json (docs/schema.md): batch, mode, dtype, machines, models. */
RFL_API void rfl_report_json(rfl_json_writer *w, const rfl_report *rep);
#endif
#endif /* !RFL_NO_LLM && !RFL_NO_REDUCE */

/* ==========================================================================
   API  CHART AND PNG
   canvas, charts, PNG through stb_image_write
   ========================================================================== */
#ifndef RFL_NO_CHART

/* RFL_HAS_PNG: see OPTIONS, and "PNG off" below. */
#if !defined(RFL_NO_PNG) && !defined(RFL_HAS_PNG)
#if defined(__has_include)
#if __has_include(<stb/stb_image_write.h>)
#define RFL_HAS_PNG 1
#endif
#endif
#endif
#if defined(RFL_HAS_PNG) && !defined(RFL__STB_PATH)
#define RFL__STB_PATH <stb/stb_image_write.h>
#endif

/* ---- colours -------------------------------------------------------------
   0xAARRGGBB; alpha 0xFF is opaque. In option structs a colour of 0 means
   "default" (a fully transparent black is never useful there). */
typedef uint32_t rfl_color;
#define RFL_RGB(r, g, b) \
    ((rfl_color)0xFF000000u | ((rfl_color)(r) << 16) | ((rfl_color)(g) << 8) | (rfl_color)(b))
#define RFL_RGBA(r, g, b, a)                                                   \
    (((rfl_color)(a) << 24) | ((rfl_color)(r) << 16) | ((rfl_color)(g) << 8) | \
     (rfl_color)(b))

/* ---- canvas ---------------------------------------------------------------
   Pixels are the caller's: channels 3 (RGB) or 4 (RGBA, straight alpha),
   rows stride_bytes apart, top row first. Every drawing call clips to the
   clip rectangle (initially the whole canvas) and never writes outside the
   buffer, whatever the coordinates (NaN, infinities, huge values are
   skipped or clamped). Coordinates are in pixels, y down, pixel centres at
   x + 0.5. A canvas of width or height 0 is valid and draws nothing. */
typedef struct rfl_canvas {
    unsigned char *pixels;
    int width, height;
    int channels;      /* 3 or 4 */
    int stride_bytes;  /* bytes from one row to the next */
    int clip_x0, clip_y0, clip_x1, clip_y1; /* drawing limited to
                                               [x0,x1) x [y0,y1) */
} rfl_canvas;

/* Bytes a canvas of w x h pixels with `channels` needs (tight rows). The
   charts also use some stack (no frame over 1 KiB: tools/size-report.sh
   checks it). */
#define RFL_CANVAS_BYTES(w, h, channels) ((size_t)(w) * (size_t)(h) * (size_t)(channels))
#define RFL_CANVAS_MAX_SIDE 32768

/* Set up a canvas over caller memory.
   in:  pixels (may be NULL only when w or h is 0), size_bytes of it,
        w, h (0..RFL_CANVAS_MAX_SIDE), channels (0 = 3 = RGB, or 4 = RGBA),
        stride_bytes (0 = w x channels; else >= w x channels).
   out: *c. Pixels are not cleared (see rfl_canvas_clear).
   Returns RFL_ERR_ARG for negative or oversized sides, a bad channel
   count or stride; RFL_ERR_BUFFER when size_bytes is less than
   stride_bytes x (h - 1) + w x channels. */
RFL_API rfl_result rfl_canvas_init(rfl_canvas *c, void *pixels, size_t size_bytes,
                                   int w, int h, int channels, int stride_bytes);
/* Restrict drawing to [x0,x1) x [y0,y1), intersected with the canvas.
   rfl_canvas_unclip restores the whole canvas. */
RFL_API void rfl_canvas_clip(rfl_canvas *c, int x0, int y0, int x1, int y1);
RFL_API void rfl_canvas_unclip(rfl_canvas *c);
/* Fill the clip rectangle with a colour (alpha written as is on RGBA). */
RFL_API void rfl_canvas_clear(rfl_canvas *c, rfl_color color);

/* ---- primitives (anti-aliased, alpha-blended) ------------------------------ */
/* A straight segment of any width (pixels; below 0.1 treated as 0.1, above
   1000 as 1000) with round ends. */
RFL_API void rfl_draw_line(rfl_canvas *c, double x0, double y0, double x1, double y1,
                           double width, rfl_color color);
/* A dashed segment: dashes of `on` pixels separated by `off` pixels
   (a pattern shorter than 2 px, or on/off <= 0, draws a solid line). */
RFL_API void rfl_draw_dashed(rfl_canvas *c, double x0, double y0, double x1, double y1,
                             double width, double on, double off, rfl_color color);
/* Connected segments through n points xy[2i], xy[2i+1]; non-finite points
   break the line. dash_on <= 0: solid. */
RFL_API void rfl_draw_polyline(rfl_canvas *c, const double *xy, int n, double width,
                               double dash_on, double dash_off, rfl_color color);
/* Rectangles with corner (x, y) and size w x h (negative sizes are empty). */
RFL_API void rfl_fill_rect(rfl_canvas *c, double x, double y, double w, double h,
                           rfl_color color);
RFL_API void rfl_draw_rect(rfl_canvas *c, double x, double y, double w, double h,
                           double width, rfl_color color);
RFL_API void rfl_fill_circle(rfl_canvas *c, double cx, double cy, double r, rfl_color color);
RFL_API void rfl_draw_circle(rfl_canvas *c, double cx, double cy, double r, double width,
                             rfl_color color);
/* A filled polygon (non-zero winding) through n points, anti-aliased, with
   the colour's alpha. At most RFL_POLY_MAX points (more, or xy NULL:
   RFL_ERR_ARG); a NaN or infinite vertex: RFL_ERR_NOT_FINITE, nothing
   drawn. Vertices beyond +-1e7 are clamped. */
#define RFL_POLY_MAX 256
RFL_API rfl_result rfl_fill_polygon(rfl_canvas *c, const double *xy, int n, rfl_color color);

/* Markers: a point's shape. 0 = automatic (by series). */
typedef enum rfl_marker {
    RFL_MARKER_AUTO = 0,
    RFL_MARKER_CIRCLE,
    RFL_MARKER_SQUARE,
    RFL_MARKER_TRIANGLE,
    RFL_MARKER_DIAMOND,
    RFL_MARKER_CROSS,
    RFL_MARKER_PLUS,
    RFL_MARKER_TRIANGLE_DOWN,
    RFL_MARKER_COUNT
} rfl_marker;
/* A marker centred at (cx, cy), `size` pixels across; hollow != 0 draws an
   outline with a white centre (used for estimates). */
RFL_API void rfl_draw_marker(rfl_canvas *c, rfl_marker m, double cx, double cy, double size,
                             int hollow, rfl_color color);

/* ---- text -----------------------------------------------------------------
   The library's own bitmap font (printable ASCII 32..126; other bytes draw
   as '?'): glyphs 5 x 9 pixels in a 6 x 11 cell at scale 1, drawn at integer
   scales 1..8 with smoothed diagonals from scale 2 up. */
enum {
    RFL_TEXT_LEFT = 0, RFL_TEXT_CENTER = 1, RFL_TEXT_RIGHT = 2,   /* horizontal */
    RFL_TEXT_TOP = 0, RFL_TEXT_MIDDLE = 4, RFL_TEXT_BOTTOM = 8,   /* vertical */
    RFL_TEXT_UP = 16  /* rotated 90 degrees counter-clockwise (reads upward);
                         alignment then applies to the rotated box */
};
#define RFL_FONT_W 6  /* advance per character at scale 1 */
#define RFL_FONT_H 11 /* line height at scale 1 */
/* Width in pixels of the first `len` bytes of text (len < 0: up to NUL) at
   `scale` (clamped to 1..8). */
RFL_API int rfl_text_width(const char *text, int len, int scale);
/* Draw text anchored at (x, y) by `flags` (RFL_TEXT_*). A caret followed by
   digits or a minus ("10^-3") draws the exponent raised and smaller.
   Returns the width drawn (along the text direction). NULL text draws
   nothing. */
RFL_API int rfl_draw_text(rfl_canvas *c, double x, double y, const char *text, int scale,
                          int flags, rfl_color color);

/* ---- axes and charts ------------------------------------------------------- */
typedef enum rfl_scale {
    RFL_SCALE_AUTO = 0, /* log when positive data spans more than ~2 decades */
    RFL_SCALE_LINEAR,
    RFL_SCALE_LOG
} rfl_scale;

/* Tick label style. */
typedef enum rfl_ticks {
    RFL_TICKS_AUTO = 0, /* plain numbers when every tick is in 0.001..99999,
                           else 10^k (log axis) / SI (linear): one style
                           for all the labels of an axis */
    RFL_TICKS_PLAIN,    /* 0.1, 1, 10, 100 */
    RFL_TICKS_POW10,    /* 10^3 with a raised exponent (log axes) */
    RFL_TICKS_SI        /* 1 k, 10 M, 1 T */
} rfl_ticks;

/* Where the legend goes. AUTO: the plot corner that hides the least data. */
typedef enum rfl_legend {
    RFL_LEGEND_AUTO = 0,
    RFL_LEGEND_NONE,
    RFL_LEGEND_TOP_LEFT,
    RFL_LEGEND_TOP_RIGHT,
    RFL_LEGEND_BOTTOM_LEFT,
    RFL_LEGEND_BOTTOM_RIGHT
} rfl_legend;

/* Where a chart put a plot (out): the plot rectangle in pixels and its
   ranges. A value v maps to px = x0 + t (x1 - x0), py = y1 - u (y1 - y0),
   with t = (log10 v - log10 x_min) / (log10 x_max - log10 x_min) on a log
   axis and (v - x_min) / (x_max - x_min) on a linear one (u likewise). */
typedef struct rfl_chart_area {
    double x0, y0, x1, y1;
    double x_min, x_max, y_min, y_max;
    int x_log, y_log;
} rfl_chart_area;

/* A point on a roofline chart: a model, a layer or a kernel. */
typedef struct rfl_point {
    const char *label;     /* legend entry; points with the same label share
                              one entry, colour and marker (e.g. all kernels
                              of one profile). NULL/"" = not in the legend */
    double ai;             /* arithmetic intensity, FLOP/byte (x) */
    double flops_per_s;    /* achieved (or predicted) FLOP/s (y) */
    rfl_prec prec;         /* precision of the work: its roof is drawn and the
                              point is checked against it */
    int machine;           /* panel index into the machines (0 = first);
                              RFL_ALL_MACHINES: every panel */
    int estimate;          /* nonzero: an estimate (hollow marker) rather than
                              a measurement (filled) */
    int link;              /* nonzero: joined by a thin line to the other
                              points with the same link id (an estimate and a
                              measurement of one model) */
    double weight;         /* marker area weight, e.g. share of time 0..1;
                              0 = the standard size */
    rfl_marker marker;     /* 0 = by label */
    rfl_color color;       /* 0 = by label (a colour-blind-safe palette) */
} rfl_point;
#define RFL_ALL_MACHINES (-1)
/* The colour and marker a chart gives its series i (0, 1, ...; by order of
   first appearance) when the points leave them 0. A front end drawing
   several charts of one report sets each series' colour and marker from its
   own index with these, so a series looks the same in every chart whatever
   order it appears in. Negative i: as 0. */
RFL_API rfl_color rfl_series_color(int i);
RFL_API rfl_marker rfl_series_marker(int i);

/* A roofline chart: one panel per machine, side by side. */
typedef struct rfl_roofline_desc {
    const char *title;                    /* NULL = "Roofline" */
    const rfl_machine *const *machines;   /* one panel each (1..8) */
    int n_machines;
    const rfl_point *points;
    int n_points;
    rfl_prec prec;        /* the roof drawn when no point is on a panel
                             (default RFL_FP32); otherwise one roof per
                             precision of the points on the panel */
    unsigned extra_precs; /* bits (1u << rfl_prec): lighter extra compute
                             ceilings (FP64, tensor, ...) where the machine
                             has them, each labelled with its value */
    unsigned extra_levels;/* bits (1u << rfl_level): lighter extra bandwidth
                             ceilings (L2, L1) where known */
    rfl_level level;      /* bandwidth of the main roof (default DRAM) */
    double x_min, x_max;  /* AI range; 0 = from the data and roofs */
    double y_min, y_max;  /* FLOP/s range; 0 = from the data and roofs */
    rfl_ticks x_ticks, y_ticks; /* default: plain AI, SI FLOP/s */
    rfl_legend legend;
    int font_scale;       /* 0 = from the canvas size */
    int columns;          /* panels per row; 0 = all in one row when the
                             canvas is wider than tall, else one column */
    rfl_chart_area *areas;/* optional out: n_machines entries */
    const rfl_machine *const *measured; /* optional: n_machines entries (NULL
                             entries = none): the panel's measured ceilings
                             (rfl_machine_file.measured), drawn dashed in
                             the roof's colour beside the solid datasheet
                             roof, labelled "measured" */
} rfl_roofline_desc;

/* Draw a roofline chart filling the canvas (cleared to white first).
   Roof per machine and precision: the one polyline min(peak, AI x BW),
   the ridge marked and labelled, extra ceilings lighter and labelled,
   points with markers and a legend; a point above its roof gets a warning
   mark and a legend entry "above roof: check units".
   Returns RFL_ERR_ARG for NULL or no machines; RFL_ERR_NO_ROOF when a
   machine lacks the roof of a point's precision or of desc->prec (the
   rest is still drawn). A canvas too small for axes draws what fits. */
RFL_API rfl_result rfl_chart_roofline(rfl_canvas *c, const rfl_roofline_desc *d);

/* A ceilings list, as rfl-plot's and rfl-report's --ceilings take it
   ("fp64,tensor,l2,l1" or "all"; case, '-' and '_' ignored), as the desc
   bits: *precs for extra_precs, *levels for extra_levels. "tensor" is the
   tensor roof that work of `prec` would use, and FP16 tensor. An unknown
   name: RFL_ERR_UNKNOWN_NAME, *bad (may be NULL) its offset in list. */
RFL_API rfl_result rfl_ceilings_parse(const char *list, rfl_prec prec, unsigned *precs,
                                      unsigned *levels, size_t *bad);

/* The levels of d->extra_levels that panel k cannot draw: neither its
   machine nor its measured ceilings know that bandwidth (bits 1u <<
   rfl_level; the main level never). A tool says so: a ceiling asked for
   and silently left out reads as "no such limit". */
RFL_API unsigned rfl_roofline_missing_levels(const rfl_roofline_desc *d, int k);

/* The same roofline as text: `rows` lines of `cols` characters, each ended
   by '\n', then a NUL; buf needs RFL_ASCII_BYTES(cols, rows) bytes (size
   too small: RFL_ERR_BUFFER). cols/rows 0 = 80 x 24; minimum 20 x 8.
   Only the first machine is drawn (rfl-plot --ascii draws one per
   machine). Roof '/' and '_', ridge '+', points by letter (A, B, ...; '!'
   above the roof) with a key under the plot. RFL_ERR_NO_ROOF as for
   rfl_chart_roofline (the chart is still written). */
#define RFL_ASCII_BYTES(cols, rows) ((size_t)((cols) + 1) * (size_t)(rows) + 1u)
RFL_API rfl_result rfl_chart_roofline_ascii(char *buf, size_t size, int cols, int rows,
                                            const rfl_roofline_desc *d);

/* Bar chart: categories (models, layer types) x series (e.g. forward and
   backward, or FLOPs per model on two machines). */
typedef enum rfl_orient {
    RFL_ORIENT_AUTO = 0, /* horizontal when category labels are long */
    RFL_ORIENT_VERTICAL,
    RFL_ORIENT_HORIZONTAL
} rfl_orient;
typedef struct rfl_bar_desc {
    const char *title;
    const char *value_title;    /* value axis title with unit, e.g.
                                   "Forward FLOPs (FLOP)" */
    const char *category_title; /* optional */
    const char *const *categories;
    int n_categories;
    const char *const *series;  /* legend names; NULL with one series */
    int n_series;               /* 0 = 1 */
    const double *values;       /* [category][series], n_categories x
                                   n_series; non-finite or negative = none */
    int stacked;                /* 0 grouped, nonzero stacked */
    rfl_orient orient;
    rfl_scale scale;            /* AUTO: linear for stacked, log when grouped
                                   values span > 2.5 decades */
    rfl_ticks ticks;            /* default SI */
    const rfl_color *colors;    /* per series; NULL = palette */
    rfl_legend legend;
    int font_scale;             /* 0 = from the canvas size */
    int value_labels;           /* nonzero: print each bar's value (SI) */
    rfl_chart_area *area;       /* optional out (x = categories 0..n) */
} rfl_bar_desc;
/* Draw a bar chart filling the canvas (cleared to white first): value axis
   from 0 (linear) or decades (log), 1-2-5 or decade ticks, a legend with
   one swatch per series when there are several. In: c, d. Out: pixels,
   d->area. Returns RFL_ERR_ARG for NULL d or inconsistent counts; a
   canvas too small for a plot draws only what fits. See rfl_bar_desc. */
RFL_API rfl_result rfl_chart_bars(rfl_canvas *c, const rfl_bar_desc *d);

/* Scatter chart (latency against FLOPs, ...). */
typedef struct rfl_xy {
    const char *label;  /* legend entry, shared as for rfl_point */
    double x, y;
    int link;           /* joins points with the same nonzero id */
    double weight;      /* marker area weight; 0 = standard */
    rfl_marker marker;
    rfl_color color;
    int hollow;
} rfl_xy;
typedef struct rfl_scatter_desc {
    const char *title;
    const char *x_title, *y_title; /* with units: "Forward FLOPs (FLOP)" */
    const rfl_xy *points;
    int n_points;
    rfl_scale x_scale, y_scale;
    rfl_ticks x_ticks, y_ticks;
    double x_min, x_max, y_min, y_max; /* 0 = from the data */
    rfl_legend legend;
    int font_scale;
    int point_labels;   /* nonzero: write each label beside its point */
    rfl_chart_area *area; /* optional out */
} rfl_scatter_desc;
/* Draw a scatter chart filling the canvas (cleared to white first):
   points that a log axis cannot show (<= 0, NaN) are skipped; each label
   gets a colour and marker; with point_labels the labels go beside the
   points (where they cover nothing), else in a legend. Returns
   RFL_ERR_ARG for NULL d or a bad count. See rfl_scatter_desc. */
RFL_API rfl_result rfl_chart_scatter(rfl_canvas *c, const rfl_scatter_desc *d);

/* ---- PNG (stb_image_write, optional) ---------------------------------------
   Every allocation of stb's encoder comes from `arena`, a caller buffer
   used as a bump allocator. Not re-entrant (see PNG in the manual). */
#ifdef RFL_HAS_PNG
/* Arena bytes for encoding a w x h canvas of `channels`. With F the
   filtered image size (w x channels + 1) x h, the encoder holds F, a 32 KiB
   hash table, its code tables, the compressed stream and the PNG file at
   once:
   RFL_PNG_ARENA_BYTES always suffices, even for noise (3.25 F + 140 kB);
   RFL_PNG_ARENA_CHART (9/8 F + 256 KiB) suffices for charts, whose flat
   areas compress to a small part of F. Too small an arena is
   RFL_ERR_BUFFER, never a crash. rfl_png_arena_size returns
   RFL_PNG_ARENA_BYTES. */
#define RFL__PNG_F(w, h, ch) (((size_t)(w) * (size_t)(ch) + 1u) * (size_t)(h))
#define RFL_PNG_ARENA_BYTES(w, h, channels) \
    (RFL__PNG_F(w, h, channels) * 13u / 4u + (size_t)140000u)
#define RFL_PNG_ARENA_CHART(w, h, channels) \
    (RFL__PNG_F(w, h, channels) * 9u / 8u + (size_t)262144u)
RFL_API size_t rfl_png_arena_size(int w, int h, int channels);
/* Receives the whole PNG file in one or more calls; return nonzero to fail
   (then RFL_ERR_IO). */
typedef int (*rfl_write_fn)(void *user, const void *data, size_t len);
/* Encode the canvas as PNG and hand the bytes to `write`.
   Returns RFL_ERR_ARG (NULL, empty canvas), RFL_ERR_BUFFER (arena too
   small: nothing written), RFL_ERR_IO (write returned nonzero). */
RFL_API rfl_result rfl_png_write(const rfl_canvas *c, void *arena, size_t arena_size,
                                 rfl_write_fn write, void *user);
/* Encode into a caller buffer `out` of `size` bytes; *len gets the PNG size.
   RFL_ERR_BUFFER when either the arena or out is too small. */
RFL_API rfl_result rfl_png_encode(const rfl_canvas *c, void *arena, size_t arena_size,
                                  void *out, size_t size, size_t *len);
#ifndef RFL_NO_STDIO
/* Write the canvas to a PNG file. RFL_ERR_IO when the file cannot be
   written. */
RFL_API rfl_result rfl_png_save(const rfl_canvas *c, const char *path, void *arena,
                                size_t arena_size);
#endif
#endif /* RFL_HAS_PNG */
#endif /* RFL_NO_CHART */

/* ---- API JOIN, continued: a report's chart points ---------------------------
   What the roofline charts of a report show (rfl-report's, a web page's):
   the points, their labels (kept in each rfl_report_model) and colours. */
#if !defined(RFL_NO_LLM) && !defined(RFL_NO_REDUCE) && !defined(RFL_NO_CHART)
/* A machine's short label for legends: "H100" from "NVIDIA H100 SXM5
   80GB"; its id where another of machines[0..n) has the same label (an
   A100 40GB and 80GB). Returns buf. */
RFL_API const char *rfl_report_machine_label(const rfl_machine *const *machines, int n,
                                             const rfl_machine *m, char *buf, size_t size);
/* The model-level roofline on machines[h], as chart panel `panel`: each
   model's estimate (hollow, at its per-layer predicted time) and, on the
   machine it ran on, its measurement (filled), linked. Labels: "DISP
   estimate", "DISP measured (H100)" (and the roof's precision when it is
   not the estimate's). Returns the points written (at most cap). */
RFL_API int rfl_report_points(rfl_report_model *const *models, int n,
                              const rfl_machine *const *machines, int nh, int h, int panel,
                              rfl_point *pts, int cap);
/* One model's layers on machines[h]: every record with work (hollow, its
   layer type's colour and marker, area = its share of the predicted time)
   and, when it was measured there, each group's kernels (filled). Returns
   the points written (at most cap). */
RFL_API int rfl_report_layer_points(const rfl_report_model *rm, const rfl_net *net,
                                    const rfl_cost_desc *d, const rfl_machine *const *machines,
                                    int h, rfl_point *pts, int cap);
/* An LLM step (rfl_llm_build records) on machines[h]'s roofline: the
   whole step estimated at batch 1, 16, 64 and 256 (a decode; a prefill at
   d's batch), linked; its kinds at d's batch (rfl_net_group by kind:
   hollow, area = share of the step's time); and when rm was measured
   there, the kernels of each kind (filled) and the measured step with its
   executed and with its useful FLOPs over the same bytes. decode: the
   records are a decode step. Returns the points written (at most cap). */
RFL_API int rfl_report_llm_points(const rfl_report_model *rm, const rfl_net *net,
                                  const rfl_cost_desc *d, const rfl_machine *const *machines,
                                  int h, int decode, rfl_point *pts, int cap);
/* A decode step against the batch, on the whole canvas: the step's time
   (left half) and tokens/s (right half, one token per sequence) at batch
   1, 2, 4 ... 256 on machines[0..nh) (rfl_net_predict of net under d, its
   batch changed), a line per machine, with a hollow diamond at the batch
   where its weight GEMMs turn compute-bound (rfl_net_compute_bound_batch)
   and a footnote naming those batches. name: the step in the titles.
   Returns RFL_ERR_ARG (NULL, nh outside 1..RFL_REPORT_MACHINES). */
RFL_API rfl_result rfl_report_batch_chart(rfl_canvas *cv, const char *name, const rfl_net *net,
                                          const rfl_cost_desc *d,
                                          const rfl_machine *const *machines, int nh);
/* A legend line centred at (cx, y): a coloured box and a name each. */
RFL_API void rfl_report_legend(rfl_canvas *cv, double cx, double y, const char *const *names,
                               const rfl_color *colors, int n, int scale);
#endif

/* ---- PNG off ----------------------------------------------------------------
   Without PNG (RFL_NO_PNG, RFL_NO_CHART, or stb_image_write.h not found),
   a call of rfl_png_* must not become an implicit declaration: each name
   expands to an identifier that says why, so the compiler stops with
   "'rfl_png_off__...' undeclared". RFL_PNG_REQUIRED (the tools define it)
   makes a missing stb an #error naming the fix. */
#if defined(RFL_NO_PNG) || defined(RFL_NO_CHART)
#undef RFL_HAS_PNG
#endif
#if defined(RFL_PNG_REQUIRED) && !defined(RFL_HAS_PNG)
#if defined(RFL_NO_PNG) || defined(RFL_NO_CHART)
#error "roofline.h: RFL_PNG_REQUIRED is defined, and so is RFL_NO_PNG or RFL_NO_CHART"
#else
#error "roofline.h: PNG output needs <stb/stb_image_write.h>: install it (Debian/Ubuntu: sudo apt-get install libstb-dev) or define RFL_NO_PNG"
#endif
#endif
#ifndef RFL_HAS_PNG
#if defined(RFL_NO_PNG) || defined(RFL_NO_CHART)
#define RFL__PNG_OFF rfl_png_off__RFL_NO_PNG_or_RFL_NO_CHART_is_defined
#else
#define RFL__PNG_OFF rfl_png_off__stb_image_write_h_not_found__install_libstb_dev
#endif
#define rfl_png_write(...) RFL__PNG_OFF
#define rfl_png_encode(...) RFL__PNG_OFF
#define rfl_png_save(...) RFL__PNG_OFF
#define rfl_png_arena_size(...) RFL__PNG_OFF
#define RFL_PNG_ARENA_BYTES(...) RFL__PNG_OFF
#define RFL_PNG_ARENA_CHART(...) RFL__PNG_OFF
#endif

/* ==========================================================================
   API  PROBE
   measured ceilings: FMA chains, read and triad sweeps (RFL_NO_PROBE)
   ========================================================================== */
#ifndef RFL_NO_PROBE
/* ---- the probe: measured ceilings ------------------------------------------
   The overview and its conventions: PROBE in the manual. */
typedef enum rfl_probe_isa {
    RFL_ISA_AUTO = 0, /* the best this CPU has */
    RFL_ISA_C,        /* plain C (what the compiler makes of it) */
    RFL_ISA_SSE2,     /* x86-64: 128-bit, mul + add */
    RFL_ISA_AVX2,     /* x86-64: 256-bit FMA */
    RFL_ISA_AVX512,   /* x86-64: 512-bit FMA */
    RFL_ISA_COUNT
} rfl_probe_isa;
typedef enum rfl_probe_kernel {
    RFL_PROBE_FMA = 0, RFL_PROBE_READ, RFL_PROBE_TRIAD,
    RFL_PROBE_INIT     /* writes the arrays' start values (first touch) */
} rfl_probe_kernel;
/* Memory levels the probe finds (rfl_level has no L3). */
enum { RFL_PROBE_L1 = 0, RFL_PROBE_L2, RFL_PROBE_L3, RFL_PROBE_DRAM, RFL_PROBE_LEVELS };
#define RFL_PROBE_MAX_POINTS 32
/* doubles of buffer a sweep up to max_bytes needs (alignment included) */
#define RFL_PROBE_BUFFER_DOUBLES(max_bytes) ((size_t)(max_bytes) / 8u + 64u)

typedef struct rfl_probe_job {
    rfl_probe_kernel kernel;
    rfl_prec prec;       /* FMA: RFL_FP64 or RFL_FP32 */
    rfl_probe_isa isa;   /* never AUTO here */
    double *a, *b, *c;   /* READ: a; TRIAD / INIT: a, b, c */
    size_t n;            /* doubles per array */
    uint64_t reps;       /* FMA: steps of the 12 accumulators; sweeps: passes */
} rfl_probe_job;
/* Run a job on this thread. Returns a checksum of what it computed (the
   caller keeps it, so no compiler can drop the work). */
RFL_API double rfl_probe_kernel_run(const rfl_probe_job *job);
/* Thread t's part of a job run by `threads` threads (PROBE in the manual). */
RFL_API void rfl_probe_job_slice(const rfl_probe_job *job, int t, int threads,
                                 rfl_probe_job *out);
/* FLOPs of one FMA job on one thread; bytes of a sweep job (whole). */
RFL_API double rfl_probe_job_flops(const rfl_probe_job *job);
RFL_API double rfl_probe_job_bytes(const rfl_probe_job *job);
/* The best instruction set this CPU and build have; its name ("avx512",
   "avx2", "sse2", "c"). */
RFL_API rfl_probe_isa rfl_probe_isa_best(void);
RFL_API const char *rfl_probe_isa_name(rfl_probe_isa isa);

typedef struct rfl_probe_desc {
    double (*now)(void *ctx);  /* required: a clock in ticks (or seconds) */
    void *now_ctx;
    double ticks_per_s;        /* 0 = 1: now() returns seconds */
    void (*run_all)(void *ctx, const rfl_probe_job *job); /* NULL: this thread */
    void *run_ctx;
    int threads;               /* threads run_all uses; 0 = 1 */
    double *buf;               /* required for sweeps: the working sets */
    size_t size;               /* its bytes */
    size_t min_bytes;          /* first sweep size; 0 = 16 KiB */
    size_t max_bytes;          /* last; 0 = what buf holds */
    int step;                  /* size factor per point: 0 = 2, or 4 */
    int runs;                  /* best of; 0 = 3 */
    double min_s;              /* shortest run timed; 0 = 0.01 s */
    rfl_probe_isa isa;         /* 0 = the best (rfl_probe_isa_best) */
    unsigned skip;             /* 1: no FMA; 2: no read; 4: no triad */
    void (*progress)(void *ctx, const char *what, int done, int total);
    void *progress_ctx;        /* optional: called before each measurement */
} rfl_probe_desc;

typedef struct rfl_probe_point {
    double bytes;              /* working-set size */
    double read_bps, triad_bps; /* bytes/s (0 = not measured) */
} rfl_probe_point;
typedef struct rfl_probe_result {
    double peak_flops[RFL_PREC_COUNT];   /* fp64 and fp32 measured, else 0 */
    double read_bps[RFL_PROBE_LEVELS];   /* by RFL_PROBE_L1 .. DRAM; 0 = not found */
    double triad_bps[RFL_PROBE_LEVELS];
    rfl_probe_point sweep[RFL_PROBE_MAX_POINTS];
    int n_points;
    rfl_probe_isa isa;
    int threads;
    double seconds;            /* the whole probe, by the caller's clock */
    double checksum;           /* of every kernel (keep it, print it) */
    rfl_machine machine;       /* id "host", kind cpu: peaks, triad L1 L2 DRAM */
} rfl_probe_result;
/* Measure. RFL_ERR_ARG: no clock, a sweep without buffer, min > max, a
   buffer smaller than min_bytes; RFL_ERR_NO_DATA: the clock did not
   advance. */
RFL_API rfl_result rfl_probe_run(const rfl_probe_desc *d, rfl_probe_result *r);
/* The levels of a sweep curve (bytes/s by size, n points in size order,
   bps[i * stride]: stride 1 for an array, sizeof(rfl_probe_point) /
   sizeof(double) for a field of rfl_probe_result.sweep; values <= 0 are
   skipped): the fit that PROBE in the manual describes. out[RFL_PROBE_LEVELS], 0 where
   none. Returns the number of pieces (0 when no value). */
RFL_API int rfl_probe_levels(const double *bps, int n, int stride,
                             double out[RFL_PROBE_LEVELS]);
#endif /* RFL_NO_PROBE */

/* ==========================================================================
   API  CHECK
   a roofline homework (an answer file) graded against the library's own
   estimate and the reduction of the student's profile (RFL_NO_CHECK)
   ========================================================================== */
/* The checker needs the zoo, the table and the reducer: without any of
   them it drops out too. */
#if defined(RFL_NO_ZOO) || defined(RFL_NO_HW_TABLE) || defined(RFL_NO_REDUCE)
#ifndef RFL_NO_CHECK
#define RFL_NO_CHECK
#endif
#endif

#ifndef RFL_NO_CHECK
/* ---- the answer file (schema 1; docs/schema.md) ---------------------------
   {"schema": 1, "assignment": {"hw", "batch", "mode", "dtype", "student"},
    "machine": {"peak_flops_per_s", "bandwidth_bytes_per_s",
                "ridge_flop_per_byte"},
    "models": {NAME: {"forward_flops", "backward_flops", "flops", "bytes",
                      "ai", "attainable_flops_per_s", "bound",
                      "predicted_time_s",
                      "measured": {"profile", "flops", "bytes", "time_s",
                                   "ai", "achieved_flops_per_s"}}}}
   flops, bytes and predicted_time_s are for the assignment's mode (train:
   forward + backward). A value is a number in base units, null (missing),
   or a string with a unit (rfl_check_parse_value). "bound" is "memory" or
   "compute". "profile" is the student's ncu CSV, relative to the answer
   file (the caller reads and reduces it). Keys starting with '_' and the
   template's "units" are ignored; any other unknown key is an error (a
   typo would otherwise grade as missing). At most RFL_CHECK_MAX_MODELS
   models; the file at most RFL_CHECK_FILE_MAX bytes.

   What is expected (one assignment: a zoo model at 224 x 224, the batch,
   mode and dtype, the table's machine; FLOPs under the dtype's roof: fp32
   RFL_FP32, fp16/bf16/int8 their tensor roof), and every convention
   accepted (a value is ok when it is within tol of any of them):
     FLOPs   mac (conv and matmul only, FlopCounterMode, torchvision),
             report (mac + linear biases, pen and paper), all (bias, BN,
             ReLU, pooling, adds too). Backward: the library's rule, 2 x
             forward minus the first layer's input gradient.
     bytes   all (every layer's traffic, rfl_layer_cost_get) or conv+linear
             (only conv and linear layers: 4 x (input + weights + output)
             at fp32, the reports' pen-and-paper sum); train adds the
             same layers' backward bytes.
     ai      any FLOPs convention over any bytes convention.
     attainable  min(peak, ai x bandwidth) for each ai; bound its term.
     time    whole model max(FLOPs / peak, bytes / bandwidth) for every
             pair, or the per-layer sum of rfl_net_predict.
     machine peak of the dtype's roof, DRAM bandwidth, ridge = peak / bw.
     measured  the reduction of the profile: all FLOPs (tensor included),
             DRAM bytes, summed kernel time, their AI and FLOP/s.
   Diagnosis codes (stable; rfl_check_diag_name) of a wrong value, tried
   in this order; ratio = got / expected:
     carried_error     follows from the student's own wrong inputs (an AI
                       that is their own FLOPs / bytes, a time from their
                       own peak ...): fix those (credit: desc.carry_credit)
     inconsistent_ai   an AI that is not the student's own FLOPs / bytes
     tensor_flops_missing  measured FLOPs = the FP (SIMT) counters only,
                       while the profile has tensor-core FLOPs, or
                       tensor-core kernels with no FLOP counter (then the
                       FP sum is a lower bound: a larger answer, and the
                       measured AI and FLOP/s, are unchecked)
     per_sample        the value at batch 1 for a batch-B assignment
     forward_only      a training value equal to the forward value
     backward_twice_forward  backward = exactly 2 x forward (or a step =
                       3 x forward): the first layer computes no input
                       gradient, so the right backward is less
     mac_not_flop      ratio 0.5: multiply-adds reported as FLOPs
     precision_roof    the peak (ridge, attainable) of another precision's
                       roof, e.g. A100 FP16 tensor 312 TFLOP/s for FP32 work
     wrong_machine     the figure of another machine of the table
     binary_prefix     ratio 1.024^k or 1/1.024^k (k = 1..4: Ki Mi Gi Ti
                       for k M G T)
     unit_slip         ratio 1000^k or 1/1000^k (ms written as s ...)
     above_roof        a measured point above the roof min(peak, ai x bw)
     measured_partial  measured FLOPs, bytes or time below the profile's
                       totals: rows left out of the sum
     wrong_variant     the assignment is not the student's variant
     footprint_not_traffic  bytes = a torchsummary size (total, params or
                       forward/backward pass, MB = 2^20 or 1e6, per sample):
                       memory held is not DRAM traffic
   A diagnosis matches within tol / 4. */
#define RFL_CHECK_MAX_MODELS 8
#define RFL_CHECK_FILE_MAX (1u << 20) /* answer file size cap, bytes */
#define RFL_CHECK_TOKS 1024            /* tokens for 8 models without long '_' extras */
#define RFL_CHECK_MAX_ITEMS (3 + 1 + 13 * RFL_CHECK_MAX_MODELS)

typedef enum rfl_check_field {
    RFL_CHECK_PEAK = 0,    /* machine.peak_flops_per_s */
    RFL_CHECK_BW,          /* machine.bandwidth_bytes_per_s */
    RFL_CHECK_RIDGE,       /* machine.ridge_flop_per_byte */
    RFL_CHECK_FWD_FLOPS,   /* models.M.forward_flops ... */
    RFL_CHECK_BWD_FLOPS,
    RFL_CHECK_FLOPS,
    RFL_CHECK_BYTES,
    RFL_CHECK_AI,
    RFL_CHECK_ATTAINABLE,
    RFL_CHECK_BOUND,
    RFL_CHECK_TIME,
    RFL_CHECK_M_FLOPS,     /* models.M.measured.flops ... */
    RFL_CHECK_M_BYTES,
    RFL_CHECK_M_TIME,
    RFL_CHECK_M_AI,
    RFL_CHECK_M_ACHIEVED,
    RFL_CHECK_VARIANT,     /* the assignment against the student's variant */
    RFL_CHECK_FIELD_COUNT
} rfl_check_field;

/* Dimensions of values, for rfl_check_parse_value. */
typedef enum rfl_check_dim {
    RFL_DIM_FLOP = 0, RFL_DIM_BYTE, RFL_DIM_TIME, RFL_DIM_FLOP_PER_S,
    RFL_DIM_BYTE_PER_S, RFL_DIM_FLOP_PER_BYTE, RFL_DIM_TEXT
} rfl_check_dim;

typedef enum rfl_check_verdict {
    RFL_VERDICT_OK = 0, RFL_VERDICT_WRONG, RFL_VERDICT_MISSING,
    RFL_VERDICT_UNCHECKED  /* nothing to check it against (no profile) */
} rfl_check_verdict;

typedef enum rfl_check_diag {
    RFL_DIAG_NONE = 0, RFL_DIAG_CARRIED_ERROR, RFL_DIAG_INCONSISTENT_AI,
    RFL_DIAG_TENSOR_FLOPS_MISSING, RFL_DIAG_PER_SAMPLE, RFL_DIAG_FORWARD_ONLY,
    RFL_DIAG_BACKWARD_TWICE_FORWARD, RFL_DIAG_MAC_NOT_FLOP,
    RFL_DIAG_PRECISION_ROOF, RFL_DIAG_WRONG_MACHINE, RFL_DIAG_BINARY_PREFIX,
    RFL_DIAG_UNIT_SLIP, RFL_DIAG_ABOVE_ROOF, RFL_DIAG_MEASURED_PARTIAL,
    RFL_DIAG_WRONG_VARIANT, RFL_DIAG_FOOTPRINT_NOT_TRAFFIC, RFL_DIAG_COUNT
} rfl_check_diag;

/* "machine.peak_flops_per_s", "forward_flops", "measured.flops",
   "variant" (the names of points files); "ok" "wrong" "missing"
   "unchecked"; "" or the diagnosis code. */
RFL_API const char *rfl_check_field_name(rfl_check_field f);
RFL_API const char *rfl_check_verdict_name(rfl_check_verdict v);
RFL_API const char *rfl_check_diag_name(rfl_check_diag d);
RFL_API rfl_check_dim rfl_check_field_dim(rfl_check_field f);

/* A value: a plain number in base units ("3.64e9"), or a number and a
   unit, spaces between allowed: "311 MB", "296.7 MiB", "3.64 GFLOP",
   "1.8 GMAC" (a MAC is 2 FLOPs), "0.55 ms", "19.5 TFLOP/s", "1555 GB/s",
   "12.5 FLOP/B"; commas may group digits by three ("8,297,434,213").
   Prefixes k (or K) M G T P = 1e3..1e15, Ki Mi Gi Ti =
   2^10..2^40, and for seconds m u (or the micro sign) n. Units: FLOP,
   FLOPs, flop(s), MAC(s); B, byte(s); s, sec; FLOP/s, FLOPS; B/s,
   byte(s)/s; FLOP/B, FLOP/byte. A unit of another dimension is
   RFL_ERR_UNIT, a bad number RFL_ERR_NUMBER; *at (may be NULL) gets the
   byte where it went wrong. */
RFL_API rfl_result rfl_check_parse_value(const char *s, size_t len, rfl_check_dim dim,
                                         double *out, size_t *at);

typedef struct rfl_check_value {
    int given;             /* 1: a value; 0: absent or null (missing) */
    double v;              /* base units (bound: 1 memory, 0 compute) */
    long line;             /* of the value in the file */
} rfl_check_value;
typedef struct rfl_check_model {
    char name[48];         /* as written (a zoo name) */
    char profile[256];     /* "" when none */
    long line, profile_line;
    rfl_check_value v[RFL_CHECK_FIELD_COUNT]; /* model and measured fields */
} rfl_check_model;
typedef struct rfl_check_answers {
    char hw[64], student[64];
    uint64_t batch;
    rfl_mode mode;
    rfl_dtype dtype;
    const rfl_machine *machine; /* hw, found in the table */
    rfl_check_value mach[3];    /* RFL_CHECK_PEAK .. RFL_CHECK_RIDGE */
    int n_models;
    rfl_check_model models[RFL_CHECK_MAX_MODELS];
} rfl_check_answers;
/* Read an answer file (json[0..len), at most RFL_CHECK_FILE_MAX bytes)
   with ntoks tokens (RFL_CHECK_TOKS suffice) into *out. Errors, with
   err->where (the field: "models.resnet18.bytes", "" = the document),
   line and column: RFL_ERR_SYNTAX (not JSON), RFL_ERR_BUFFER (file over
   the cap, or too few tokens: err->need > 0 of them), RFL_ERR_FORMAT
   (unknown key, wrong type, a schema other than 1), RFL_ERR_MISSING
   (assignment or its hw), RFL_ERR_UNKNOWN_NAME (machine, model, dtype,
   mode), RFL_ERR_UNIT / RFL_ERR_NUMBER (a value). */
RFL_API rfl_result rfl_check_read(const char *json, size_t len, rfl_json_tok *toks,
                                  int ntoks, rfl_check_answers *out, rfl_error *err);

typedef struct rfl_check_desc {
    double tol;            /* relative; 0 = 0.02 (a MiB-for-MB slip is 4.9%) */
    double points[RFL_CHECK_FIELD_COUNT]; /* per field; 0 = 1; < 0: not graded */
    int carry_credit;      /* nonzero: full points for a carried_error */
    rfl_layer *layers;     /* required: RFL_ZOO_MAX_LAYERS records */
    int layer_cap;
    /* per model of the answers (same order), the reduction of its profile
       (NULL array or entry: none; measured values are then unchecked) */
    const rfl_reduce_result *const *profiles;
    /* the student's variant (rfl_check_variant), or NULL: not checked.
       A wrong variant scores 0. */
    const char *variant_model, *variant_hw;
    uint64_t variant_batch;
} rfl_check_desc;

typedef struct rfl_check_item {
    char field[112];       /* "models.resnet18.forward_flops" */
    rfl_check_field kind;
    int model;             /* index in answers.models, -1 for the machine */
    rfl_check_verdict verdict;
    rfl_check_diag diagnosis;
    int has_expected, has_got;
    double expected, got;  /* base units; bound: 1 memory, 0 compute */
    double ratio;          /* got / expected; 0 when either is absent */
    double points, max_points;
    char message[320];     /* for the student: why, and what to do */
} rfl_check_item;
typedef struct rfl_check_report {
    double score, max_score;
    int n_items, n_ok, n_wrong, n_missing, n_unchecked;
    int variant_wrong;
} rfl_check_report;
/* Check the answers: one item per value (the machine's three, then per
   model its 13, then the variant when desc names one). items[cap]
   (RFL_CHECK_MAX_ITEMS suffice); too few: RFL_ERR_BUFFER, rep->n_items
   the number needed. RFL_ERR_ARG without desc->layers. */
RFL_API rfl_result rfl_check_run(const rfl_check_answers *a, const rfl_check_desc *d,
                                 rfl_check_item *items, int cap, rfl_check_report *rep);

/* JSON of a run into buf (size bytes): {"score", "max_score", "items":
   [{"field", "verdict", "expected", "got", "ratio", "diagnosis",
   "message", "points", "max_points"}]}; rfl_check_gradescope writes
   Gradescope's results.json: {"score", "max_score", "output", "tests":
   [{"name", "score", "max_score", "output"}]}. Both return the length of
   the whole text; it was written (NUL-terminated) when that is < size. */
RFL_API size_t rfl_check_json(const rfl_check_report *rep, const rfl_check_item *items,
                              int n, char *buf, size_t size);
RFL_API size_t rfl_check_gradescope(const rfl_check_report *rep,
                                    const rfl_check_item *items, int n, char *buf,
                                    size_t size);

/* An empty answer file (every value null) with a "units" hint. */
typedef struct rfl_check_template_desc {
    const char *hw;                  /* required */
    uint64_t batch;                  /* 0 = 1 */
    rfl_mode mode;
    rfl_dtype dtype;
    const char *const *models;       /* required, n_models >= 1 */
    int n_models;
    const char *student;             /* optional */
} rfl_check_template_desc;
RFL_API size_t rfl_check_template(const rfl_check_template_desc *t, char *buf, size_t size);

/* A student's variant: out[0] model, out[1] machine, out[2] batch index,
   of n_models, n_hw, n_batches choices. Reproducible everywhere: FNV-1a
   (64 bit) of the student's name, XOR the seed, through three steps of
   splitmix64, each taken modulo its count. */
RFL_API void rfl_check_variant(const char *student, uint64_t seed, int n_models, int n_hw,
                               int n_batches, int out[3]);
#endif /* RFL_NO_CHECK */

#ifdef __cplusplus
}
#endif

#endif /* ROOFLINE_H */

/* ========================================================================== */
/*                               IMPLEMENTATION                               */
/* ========================================================================== */
#if defined(ROOFLINE_IMPLEMENTATION) && !defined(ROOFLINE_IMPLEMENTATION_DONE)
#define ROOFLINE_IMPLEMENTATION_DONE


/* ==========================================================================
   [1]  NUMBERS, RESULTS, WORK
   results, the work record, our own number formatting and parsing
   ========================================================================== */
#include <stdarg.h> /* va_list of rfl__sb_f: freestanding, no libc */
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
    /* in the order of rfl_result (tests/test_core.c checks the last) */
    static const char *const msg[RFL_ERR_COUNT_] = {
        "ok", "invalid argument", "buffer too small", "unknown name",
        "no ceiling for that precision on this machine", "quantity unknown or zero",
        "invalid shape", "size or count overflows", "not a number", "unknown unit",
        "malformed input (syntax)", "input ends inside a field", "no header row found",
        "empty input", "ambiguous number format (declare the locale)",
        "numeric field longer than the scratch buffer", "NaN or infinity", "call out of order",
        "I/O error", "required field missing", "malformed input", "not supported",
        "invalid graph"};
    return (unsigned)r < RFL_ERR_COUNT_ && msg[r] ? msg[r] : "unknown error";
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

RFL_API int rfl_parse_name_eq(const char *a, const char *b) {
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
        if (rfl_parse_name_eq(name, rfl__prec_names[i])) { *out = (rfl_prec)i; return RFL_OK; }
    for (i = 0; i < (int)(sizeof extra / sizeof extra[0]); i++)
        if (rfl_parse_name_eq(name, extra[i].n)) { *out = extra[i].p; return RFL_OK; }
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

/* For a helper with a large frame (a chart's tables, an ONNX op's shape
   arrays): called once, it would be inlined and its locals added to its
   caller's in one frame past 1 KiB, the budget per function on small
   targets (tools/size-report.sh). */
#if defined(__GNUC__) || defined(__clang__)
#define RFL__NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define RFL__NOINLINE __declspec(noinline)
#else
#define RFL__NOINLINE
#endif

/* ---- x86 vector units: what the reducer's row walker and the probe's
   kernels may use. SSE2 is the x86-64 baseline (a compiler header, no
   libc); AVX2 and AVX-512 are chosen at run time from CPUID by GCC and
   clang (function target attributes: no -mavx2 needed). RFL_NO_SIMD and
   RFL_NO_AVX2 turn them off. */
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(RFL_NO_SIMD)
#include <emmintrin.h>
#define RFL__SSE2 1
#endif
#if defined(RFL__SSE2) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__TINYC__) && !defined(RFL_NO_AVX2)
#include <cpuid.h>
#include <immintrin.h>
#define RFL__AVX2 1
/* 0: baseline, 1: AVX2 (with BMI1/2, POPCNT, PCLMUL), 2: also AVX-512BW.
   CPUID and XGETBV directly (cpuid.h is a compiler header): no libgcc
   CPU-model symbols, and the OS must save the vector registers. */
static RFL__UNUSED int rfl__cpu_simd(void) {
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

/* A message text that RFL_NO_ERROR_STRINGS removes (the result code and
   the position stay). */
#ifdef RFL_NO_ERROR_STRINGS
#define RFL__MSG(s) ""
#else
#define RFL__MSG(s) s
#endif

/* ---- text building: messages into a caller's fixed buffer -------------------
   Appends stop at the buffer's end (the text is cut, never overrun) and
   keep it NUL-terminated. */
typedef struct rfl__sb { char *b; size_t n, cap; } rfl__sb;
static RFL__UNUSED rfl__sb rfl__sb_make(char *b, size_t cap) {
    rfl__sb s;
    s.b = b, s.n = 0, s.cap = cap;
    if (cap) b[0] = 0;
    return s;
}
static RFL__UNUSED void rfl__sb_s(rfl__sb *s, const char *t) {
    while (t && *t && s->n + 1 < s->cap) s->b[s->n++] = *t++;
    if (s->cap) s->b[s->n] = 0;
}
/* at most max characters of t */
static RFL__UNUSED void rfl__sb_sn(rfl__sb *s, const char *t, size_t max) {
    while (t && *t && max-- && s->n + 1 < s->cap) s->b[s->n++] = *t++;
    if (s->cap) s->b[s->n] = 0;
}
static RFL__UNUSED void rfl__sb_num(rfl__sb *s, double v, int sig) {
    char t[40];
    rfl_fmt_num(t, sizeof t, v, sig);
    rfl__sb_s(s, t);
}
static RFL__UNUSED void rfl__sb_u64(rfl__sb *s, uint64_t v) {
    char t[32];
    rfl_fmt_u64(t, sizeof t, v);
    rfl__sb_s(s, t);
}
/* Append fmt, where "%s" takes a string, "%u" a uint64_t and "%N" a
   double printed with N significant digits (1..17); any other '%' stands
   for itself ("%3% of the time": a number, then "% of the time"). */
static RFL__UNUSED void rfl__sb_f(rfl__sb *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    while (*fmt) {
        const char *lit = fmt;
        int sig = 0;
        while (*fmt && !(fmt[0] == '%' && (fmt[1] == 's' || fmt[1] == 'u' ||
                                           (fmt[1] >= '1' && fmt[1] <= '9'))))
            fmt++;
        rfl__sb_sn(s, lit, (size_t)(fmt - lit));
        if (!*fmt++) break;
        if (*fmt == 's') rfl__sb_s(s, va_arg(ap, const char *)), fmt++;
        else if (*fmt == 'u') rfl__sb_u64(s, va_arg(ap, uint64_t)), fmt++;
        else {
            while (*fmt >= '0' && *fmt <= '9') sig = sig * 10 + (*fmt++ - '0');
            rfl__sb_num(s, va_arg(ap, double), sig);
        }
    }
    va_end(ap);
}
/* "19.5 TFLOP/s" */
static RFL__UNUSED void rfl__sb_si(rfl__sb *s, double v, const char *unit) {
    char t[40];
    rfl_fmt_si(t, sizeof t, v, 4);
    rfl__sb_s(s, t);
    rfl__sb_s(s, unit);
}

/* ---- errors ----------------------------------------------------------------- */
/* A fresh error: nothing wrong, no place. */
static RFL__UNUSED void rfl__err_clear(rfl_error *e) {
    RFL_MEMSET(e, 0, sizeof *e);
    e->index = -1;
}
/* Record code and message (cut to fit); position and where stay as they
   are, for the caller to fill. */
static RFL__UNUSED rfl_result rfl__err_set(rfl_error *e, rfl_result code, const char *msg) {
    rfl__sb s = rfl__sb_make(e->msg, sizeof e->msg);
    rfl__sb_s(&s, msg);
    return e->code = code;
}
static RFL__UNUSED void rfl__err_where(rfl_error *e, const char *where) {
    rfl__sb s = rfl__sb_make(e->where, sizeof e->where);
    rfl__sb_s(&s, where);
}

/* Append t at *n of buf[size], counting what does not fit. */
static void rfl__ef_put(char *buf, size_t size, size_t *n, const char *t) {
    for (; t && *t; t++, (*n)++)
        if (*n + 1 < size) buf[*n] = *t;
}
static void rfl__ef_num(char *buf, size_t size, size_t *n, uint64_t v) {
    char t[24];
    rfl_fmt_u64(t, sizeof t, v);
    rfl__ef_put(buf, size, n, t);
    rfl__ef_put(buf, size, n, ":");
}

RFL_API size_t rfl_error_format(const rfl_error *e, const char *file, char *buf, size_t size) {
    size_t n = 0;
    if (!buf) size = 0;
    if (!e) {
        if (size) buf[0] = 0;
        return 0;
    }
    if (file && *file) rfl__ef_put(buf, size, &n, file), rfl__ef_put(buf, size, &n, ":");
    if (e->line) rfl__ef_num(buf, size, &n, e->line);
    if (e->line && e->col) rfl__ef_num(buf, size, &n, e->col);
    if (n) rfl__ef_put(buf, size, &n, " ");
    if (e->where[0]) rfl__ef_put(buf, size, &n, e->where), rfl__ef_put(buf, size, &n, ": ");
    if (e->code || e->msg[0]) rfl__ef_put(buf, size, &n, e->msg[0] ? e->msg : rfl_result_str(e->code));
    if (size) buf[n < size ? n : size - 1] = 0;
    return n;
}

/* ---- files: bounded reads ---------------------------------------------------
   fopen of a directory succeeds on POSIX systems and the first read fails
   with EISDIR; where errno has no EISDIR the error stays "read error". */
#ifndef RFL_NO_STDIO
#include <errno.h>
#include <stdio.h>
static rfl_result rfl__file_fail(rfl_result r, const char **why, const char *w) {
    if (why) *why = w;
    return r;
}

RFL_API rfl_result rfl_file_read(const char *path, void *buf, size_t cap, int text, size_t *len,
                                 const char **why) {
    unsigned char *b = (unsigned char *)buf;
    size_t n = 0, got, i;
    rfl_result r = RFL_OK;
    FILE *f;
    int c;
    if (why) *why = "";
    if (len) *len = 0;
    if (!path || !buf || cap < 1 || !len) return rfl__file_fail(RFL_ERR_ARG, why, "bad argument");
    f = (path[0] == '-' && !path[1]) ? stdin : fopen(path, "rb");
    if (!f) {
#ifdef EISDIR
        if (errno == EISDIR) return rfl__file_fail(RFL_ERR_IO, why, "is a directory");
#endif
        return rfl__file_fail(RFL_ERR_IO, why, "cannot be opened");
    }
    for (;;) {
        size_t want = cap - 1 - n < RFL_FILE_CHUNK ? cap - 1 - n : RFL_FILE_CHUNK;
        if (want == 0) { /* full: one byte more means over the cap */
            if ((c = fgetc(f)) != EOF) r = rfl__file_fail(RFL_ERR_BUFFER, why, "larger than the cap");
            break;
        }
        errno = 0;
        got = fread(b + n, 1, want, f);
        for (i = 0; text && i < got && b[n + i]; i++) {}
        if (text && i < got) {
            n += i;
            r = rfl__file_fail(RFL_ERR_FORMAT, why, "binary (a NUL byte), not text");
            break;
        }
        n += got;
        if (got < want) break;
    }
    if (!r && ferror(f)) {
#ifdef EISDIR
        if (errno == EISDIR) r = rfl__file_fail(RFL_ERR_IO, why, "is a directory");
        else
#endif
            r = rfl__file_fail(RFL_ERR_IO, why, "read error");
    }
    if (f != stdin) fclose(f);
    b[n] = 0;
    *len = n;
    return r;
}
#endif

/* ==========================================================================
   [2]  JSON
   a small tokenising reader (machine files, Hugging Face configs)
   ========================================================================== */
static RFL__UNUSED int rfl__memeq(const void *a, const void *b, size_t n) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (n--)
        if (*x++ != *y++) return 0;
    return 1;
}

static void rfl__json_ws(rfl_json_doc *d) {
    while (d->pos < d->len && (d->src[d->pos] == ' ' || d->src[d->pos] == '\t' ||
                               d->src[d->pos] == '\n' || d->src[d->pos] == '\r'))
        d->pos++;
}

/* Records the first error with its line and column; returns -1. */
static int rfl__json_fail(rfl_json_doc *d, const char *msg) {
    size_t i, at = d->pos < d->len ? d->pos : d->len;
    rfl_error *e = &d->err;
    if (e->code) return -1;
    rfl__err_set(e, RFL_ERR_SYNTAX, msg);
    e->offset = at;
    e->line = 1;
    e->col = 1;
    for (i = 0; i < at; i++) {
        if (d->src[i] == '\n') { e->line++; e->col = 1; }
        else e->col++;
    }
    return -1;
}

/* A new token over [start, end) (a container's end: rfl__json_close); in
   count mode only counted. -2 when the array is full. */
static int rfl__json_new(rfl_json_doc *d, rfl_json_type type, size_t start, size_t end) {
    if (d->t) {
        if (d->n >= d->cap) return -2;
        d->t[d->n].type = type;
        d->t[d->n].start = start;
        d->t[d->n].end = end;
        d->t[d->n].after = d->n + 1;
    }
    return d->n++;
}
static void rfl__json_close(rfl_json_doc *d, int k, size_t end) {
    if (!d->t) return;
    d->t[k].end = end;
    d->t[k].after = d->n;
}

static int rfl__json_string(rfl_json_doc *d) {
    int k;
    size_t start = ++d->pos;
    while (d->pos < d->len && d->src[d->pos] != '"') {
        if ((unsigned char)d->src[d->pos] < 0x20) return rfl__json_fail(d, "control character in a string");
        if (d->src[d->pos] == '\\') d->pos++;
        d->pos++;
    }
    if (d->pos >= d->len) return rfl__json_fail(d, "unterminated string");
    k = rfl__json_new(d, RFL_JSON_STR, start, d->pos);
    d->pos++;
    return k;
}

/* true, false, null or a number: the bytes up to the next delimiter. */
static int rfl__json_scalar(rfl_json_doc *d) {
    size_t start = d->pos, n;
    rfl_json_type type = RFL_JSON_NUM;
    const char *s = d->src + start;
    double v;
    while (d->pos < d->len) {
        char c = d->src[d->pos];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '+' || c == '-' ||
              c == '.' || c == 'E'))
            break;
        d->pos++;
    }
    n = d->pos - start;
    if (n == 0) return rfl__json_fail(d, "unexpected character");
    if (n == 4 && rfl__memeq(s, "true", 4)) type = RFL_JSON_TRUE;
    else if (n == 5 && rfl__memeq(s, "false", 5)) type = RFL_JSON_FALSE;
    else if (n == 4 && rfl__memeq(s, "null", 4)) type = RFL_JSON_NULL;
    else if (rfl_parse_num(s, n, &v) != RFL_OK) {
        d->pos = start;
        return rfl__json_fail(d, "invalid number or literal");
    }
    return rfl__json_new(d, type, start, d->pos);
}

static int rfl__json_value(rfl_json_doc *d);

/* An object or array: members until the closing bracket. */
static int rfl__json_container(rfl_json_doc *d) {
    char open = d->src[d->pos], close = open == '{' ? '}' : ']';
    int k, r;
    if (++d->depth > 64) return rfl__json_fail(d, "nesting deeper than 64");
    k = rfl__json_new(d, open == '{' ? RFL_JSON_OBJ : RFL_JSON_ARR, d->pos, d->pos);
    if (k < 0) return k;
    d->pos++;
    rfl__json_ws(d);
    if (d->pos < d->len && d->src[d->pos] == close) {
        d->pos++;
    } else {
        for (;;) {
            rfl__json_ws(d);
            if (open == '{') {
                if (d->pos >= d->len || d->src[d->pos] != '"') return rfl__json_fail(d, "expected a key string");
                if ((r = rfl__json_string(d)) < 0) return r;
                rfl__json_ws(d);
                if (d->pos >= d->len || d->src[d->pos] != ':') return rfl__json_fail(d, "expected ':'");
                d->pos++;
            }
            if ((r = rfl__json_value(d)) < 0) return r;
            rfl__json_ws(d);
            if (d->pos < d->len && d->src[d->pos] == ',') { d->pos++; continue; }
            if (d->pos < d->len && d->src[d->pos] == close) { d->pos++; break; }
            return rfl__json_fail(d, open == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    d->depth--;
    rfl__json_close(d, k, d->pos);
    return k;
}

static int rfl__json_value(rfl_json_doc *d) {
    char c;
    rfl__json_ws(d);
    if (d->pos >= d->len) return rfl__json_fail(d, "unexpected end of input");
    c = d->src[d->pos];
    if (c == '{' || c == '[') return rfl__json_container(d);
    if (c == '"') return rfl__json_string(d);
    return rfl__json_scalar(d);
}

/* The token array is full: count the whole document (a syntax error
   found on the way wins), keeping the tokens filled. */
static rfl_result rfl__json_short(rfl_json_doc *d) {
    rfl_json_tok *t = d->t;
    int filled = d->n, cap = d->cap, need;
    d->t = (rfl_json_tok *)0, d->cap = 0, d->n = 0, d->pos = 0, d->depth = 0;
    if (rfl__json_value(d) >= 0) {
        rfl__json_ws(d);
        if (d->pos != d->len) rfl__json_fail(d, "trailing characters after the document");
    }
    need = d->n;
    d->t = t, d->cap = cap, d->n = filled;
    if (d->err.code) return RFL_ERR_SYNTAX;
    d->err.need = (uint64_t)need;
    rfl__err_where(&d->err, "toks");
    return rfl__err_set(&d->err, RFL_ERR_BUFFER, RFL__MSG("token array too small"));
}

RFL_API rfl_result rfl_json_parse(rfl_json_doc *doc, const char *src, size_t len,
                                  rfl_json_tok *toks, int cap) {
    int r;
    if (!doc || (!src && len)) return RFL_ERR_ARG;
    RFL_MEMSET(doc, 0, sizeof *doc);
    rfl__err_clear(&doc->err);
    doc->src = src;
    doc->len = len;
    doc->t = toks;
    doc->cap = toks ? cap : 0;
    r = rfl__json_value(doc);
    if (r == -2) return rfl__json_short(doc);
    if (r < 0) return RFL_ERR_SYNTAX;
    rfl__json_ws(doc);
    if (doc->pos != doc->len) {
        rfl__json_fail(doc, "trailing characters after the document");
        return RFL_ERR_SYNTAX;
    }
    return RFL_OK;
}

static int rfl__json_ok(const rfl_json_doc *d, int tok) {
    return d && d->t && tok >= 0 && tok < d->n && tok < d->cap;
}

RFL_API int rfl_json_get(const rfl_json_doc *doc, int obj, const char *key) {
    int i;
    if (!rfl__json_ok(doc, obj) || doc->t[obj].type != RFL_JSON_OBJ || !key) return -1;
    for (i = obj + 1; i < doc->t[obj].after; i = doc->t[i + 1].after)
        if (rfl_json_str_eq(doc, i, key)) return i + 1;
    return -1;
}

RFL_API int rfl_json_path(const rfl_json_doc *doc, int obj, const char *path) {
    char key[64];
    if (!path) return -1;
    while (*path && obj >= 0) {
        size_t n = 0;
        while (*path && *path != '.' && n + 1 < sizeof key) key[n++] = *path++;
        key[n] = 0;
        if (*path == '.') path++;
        obj = rfl_json_get(doc, obj, key);
    }
    return obj;
}

RFL_API int rfl_json_at(const rfl_json_doc *doc, int arr, int i) {
    int k;
    if (!rfl__json_ok(doc, arr) || doc->t[arr].type != RFL_JSON_ARR || i < 0) return -1;
    for (k = arr + 1; k < doc->t[arr].after; k = doc->t[k].after)
        if (i-- == 0) return k;
    return -1;
}

RFL_API int rfl_json_num(const rfl_json_doc *doc, int tok, double *out) {
    if (!rfl__json_ok(doc, tok) || doc->t[tok].type != RFL_JSON_NUM || !out) return 0;
    return rfl_parse_num(doc->src + doc->t[tok].start, doc->t[tok].end - doc->t[tok].start, out) == RFL_OK;
}

static int rfl__json_hex4(const char *s, unsigned *out) {
    int i;
    *out = 0;
    for (i = 0; i < 4; i++) {
        int c = rfl__lower(s[i]);
        unsigned v = (c >= '0' && c <= '9') ? (unsigned)(c - '0')
                     : (c >= 'a' && c <= 'f') ? (unsigned)(c - 'a' + 10) : 16u;
        if (v > 15) return 0;
        *out = *out * 16 + v;
    }
    return 1;
}

RFL_API int rfl_json_str(const rfl_json_doc *doc, int tok, char *buf, size_t size) {
    size_t i, n = 0, end;
    if (!buf || !size) return 0;
    buf[0] = 0;
    if (!rfl__json_ok(doc, tok) || doc->t[tok].type != RFL_JSON_STR) return 0;
    end = doc->t[tok].end;
    for (i = doc->t[tok].start; i < end; i++) {
        char c = doc->src[i];
        if (n + 1 >= size) { buf[n] = 0; return 0; }
        if (c == '\\' && i + 1 < end) {
            unsigned u;
            const char *e = "n\nt\tr\rb\bf\f"; /* an escape's letter, then its character */
            c = doc->src[++i];
            while (*e && *e != c) e += 2;
            if (*e) c = e[1];
            else if (c == 'u' && i + 4 < end && rfl__json_hex4(doc->src + i + 1, &u)) {
                c = u < 0x80 ? (char)u : '?';
                i += 4;
            }
        }
        buf[n++] = c;
    }
    buf[n] = 0;
    return 1;
}

RFL_API int rfl_json_str_eq(const rfl_json_doc *doc, int tok, const char *s) {
    size_t n;
    if (!rfl__json_ok(doc, tok) || doc->t[tok].type != RFL_JSON_STR || !s) return 0;
    n = rfl__strlen(s);
    return doc->t[tok].end - doc->t[tok].start == n && rfl__memeq(doc->src + doc->t[tok].start, s, n);
}

RFL_API long rfl_json_line(const rfl_json_doc *doc, int tok) {
    long line = 1;
    size_t i;
    if (!rfl__json_ok(doc, tok)) return 0;
    for (i = 0; i < doc->t[tok].start && i < doc->len; i++) line += doc->src[i] == '\n';
    return line;
}

#ifndef RFL_NO_JSON_WRITER
/* ---- the writer ------------------------------------------------------------- */
RFL_API void rfl_json_w_init(rfl_json_writer *w, char *buf, size_t cap) {
    RFL_MEMSET(w, 0, sizeof *w);
    w->buf = buf;
    w->cap = buf ? cap : 0;
}

/* Bytes into the buffer while they fit; len counts them all. */
static void rfl__jw_put(rfl_json_writer *w, const char *s, size_t n) {
    size_t room = w->len < w->cap ? w->cap - w->len : 0;
    if (room) RFL_MEMCPY(w->buf + w->len, s, n < room ? n : room);
    w->len += n;
}
static void rfl__jw_c(rfl_json_writer *w, char c) { rfl__jw_put(w, &c, 1); }

static void rfl__jw_quoted(rfl_json_writer *w, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t i;
    rfl__jw_c(w, '"');
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char e[6] = {'\\', 'u', '0', '0', 0, 0};
        if (c == '"' || c == '\\') e[1] = (char)c, rfl__jw_put(w, e, 2);
        else if (c == '\n' || c == '\t') e[1] = (char)(c == '\n' ? 'n' : 't'), rfl__jw_put(w, e, 2);
        else if (c < 0x20) e[4] = hex[c >> 4], e[5] = hex[c & 15], rfl__jw_put(w, e, 6);
        else rfl__jw_c(w, (char)c);
    }
    rfl__jw_c(w, '"');
}

/* Before a value: the comma, the new line and indent, the key. */
static void rfl__jw_sep(rfl_json_writer *w, const char *key) {
    int i;
    if (w->depth > 0) {
        uint64_t bit = (uint64_t)1 << (w->depth - 1);
        if (w->some & bit) rfl__jw_c(w, ',');
        w->some |= bit;
        rfl__jw_c(w, '\n');
        for (i = 0; i < w->depth; i++) rfl__jw_put(w, "  ", 2);
    }
    if (key) {
        rfl__jw_quoted(w, key, rfl__strlen(key));
        rfl__jw_put(w, ": ", 2);
    }
}

static void rfl__jw_open(rfl_json_writer *w, const char *key, int array) {
    uint64_t bit;
    rfl__jw_sep(w, key);
    rfl__jw_c(w, array ? '[' : '{');
    if (w->depth >= 64) { w->err = RFL_ERR_FORMAT; return; }
    bit = (uint64_t)1 << w->depth++;
    w->some &= ~bit;
    w->arr = array ? w->arr | bit : w->arr & ~bit;
}
RFL_API void rfl_json_w_obj(rfl_json_writer *w, const char *key) { rfl__jw_open(w, key, 0); }
RFL_API void rfl_json_w_arr(rfl_json_writer *w, const char *key) { rfl__jw_open(w, key, 1); }

RFL_API void rfl_json_w_end(rfl_json_writer *w) {
    uint64_t bit;
    int i;
    if (w->depth <= 0) { w->err = RFL_ERR_FORMAT; return; }
    bit = (uint64_t)1 << --w->depth;
    if (w->some & bit) {
        rfl__jw_c(w, '\n');
        for (i = 0; i < w->depth; i++) rfl__jw_put(w, "  ", 2);
    }
    rfl__jw_c(w, (w->arr & bit) ? ']' : '}');
    if (w->depth == 0) rfl__jw_c(w, '\n');
}

RFL_API void rfl_json_w_null(rfl_json_writer *w, const char *key) {
    rfl__jw_sep(w, key);
    rfl__jw_put(w, "null", 4);
}
RFL_API void rfl_json_w_num(rfl_json_writer *w, const char *key, double v) {
    char b[40];
    if (v != v || v - v != 0.0) { rfl_json_w_null(w, key); return; }
    rfl__jw_sep(w, key);
    rfl__jw_put(w, b, rfl_fmt_num(b, sizeof b, v, 15));
}
RFL_API void rfl_json_w_u64(rfl_json_writer *w, const char *key, uint64_t v) {
    char b[24];
    rfl__jw_sep(w, key);
    rfl__jw_put(w, b, rfl_fmt_u64(b, sizeof b, v));
}
RFL_API void rfl_json_w_num_if(rfl_json_writer *w, const char *key, int known, double v) {
    if (known) rfl_json_w_num(w, key, v);
    else rfl_json_w_null(w, key);
}
RFL_API void rfl_json_w_bool(rfl_json_writer *w, const char *key, int v) {
    rfl__jw_sep(w, key);
    rfl__jw_put(w, v ? "true" : "false", v ? 4 : 5);
}
RFL_API void rfl_json_w_str_n(rfl_json_writer *w, const char *key, const char *s, size_t n) {
    if (!s) { rfl_json_w_null(w, key); return; }
    rfl__jw_sep(w, key);
    rfl__jw_quoted(w, s, n);
}
RFL_API void rfl_json_w_str(rfl_json_writer *w, const char *key, const char *s) {
    rfl_json_w_str_n(w, key, s, s ? rfl__strlen(s) : 0);
}

RFL_API rfl_result rfl_json_w_finish(rfl_json_writer *w) {
    if (w->len < w->cap) w->buf[w->len] = 0;
    else if (w->cap) w->buf[w->cap - 1] = 0;
    if (w->err || w->depth) return RFL_ERR_FORMAT;
    return w->len < w->cap ? RFL_OK : RFL_ERR_BUFFER;
}
#endif /* RFL_NO_JSON_WRITER */

/* ==========================================================================
   [3]  MACHINES
   the hardware table, lookups, machines from CPU parts
   ========================================================================== */
/* ---- machines ------------------------------------------------------------ */
RFL_API const char *rfl_kind_name(rfl_kind k) {
    static const char *const n[] = {"gpu", "cpu", "tpu", "accelerator", "soc"};
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

/* s past a leading "NVIDIA" word: drivers before R470 printed
   "A100-SXM4-40GB" where later ones print "NVIDIA A100-SXM4-40GB". */
static const char *rfl__hw_unvendor(const char *s) {
    static const char v[] = "nvidia";
    int i;
    for (i = 0; i < 6; i++)
        if (rfl__lower((unsigned char)s[i]) != v[i]) return s;
    return (s[6] == ' ' || s[6] == '-' || s[6] == '_') ? s + 7 : s;
}

/* A device or display name equal to name, "NVIDIA" optional on either. */
static int rfl__hw_dev_eq(const char *dev, const char *name) {
    return rfl_parse_name_eq(dev, name) || rfl_parse_name_eq(rfl__hw_unvendor(dev), rfl__hw_unvendor(name));
}

#ifndef RFL_NO_HW_TABLE
#define RFL__T 1e12
#define RFL__G 1e9
#ifdef RFL_HW_NO_STRINGS
#define RFL__HW_STR(s) ""
#else
#define RFL__HW_STR(s) s
#endif
#ifdef RFL_HW_NO_LINKS
#define RFL__HW_LINK(l) 0
#else
/* The links, each row once (machines share them by pointer). */
#define RFL__HWL_ENUM(E, ...) RFL__HWL_##E,
enum { RFL_HW_LINKS(RFL__HWL_ENUM) RFL__HWL_COUNT };
#undef RFL__HWL_ENUM
#define RFL__HWL_ROW(E, kind, gen, lanes, gbps, lat, node, src, base, step, busbw, eager, \
                     gpus, fsrc)                                                        \
    {RFL_LINK_##kind, gen, lanes, node, (gbps) * RFL__G, (lat) * 1e-9, RFL__HW_STR(src), \
     (base) * 1e-9, (step) * 1e-9, (busbw) * RFL__G, (eager) * 1e-9, gpus, RFL__HW_STR(fsrc)},
static const rfl_link rfl__hw_links[] = {RFL_HW_LINKS(RFL__HWL_ROW)};
#undef RFL__HWL_ROW
#define RFL__HW_LINK(l) &rfl__hw_links[RFL__HWL_##l]
#endif
#define RFL__HW_ROW(E, id, name, al, kind, f64, f64t, f32, tf32, f16, f16t, bf16t, \
                    f8t, i8t, dram, l2, l1, mem, l2m, units, mhz, tdp, src, lnk)   \
    {id, name, RFL__HW_STR(al), RFL_KIND_##kind,                                   \
     {(f32) * RFL__T, (f64) * RFL__T, (f16) * RFL__T, (f64t) * RFL__T,             \
      (tf32) * RFL__T, (f16t) * RFL__T, (bf16t) * RFL__T, (f8t) * RFL__T,          \
      (i8t) * RFL__T},                                                             \
     {(dram) * RFL__G, (l2) * RFL__G, (l1) * RFL__G},                              \
     (mem) * 1073741824.0, (l2m) * 1048576.0, units, mhz, tdp, RFL__HW_STR(src),   \
     RFL__HW_LINK(lnk)},
#ifdef RFL_HW_ONLY
#define RFL__HW_ROW_IF(E, ...) RFL__HW_IF(RFL__HW_KEPT(E))(RFL__HW_ROW(E, __VA_ARGS__))
static const rfl_machine rfl__hw_table[] = {RFL_HW_TABLE(RFL__HW_ROW_IF)};
#undef RFL__HW_ROW_IF
#else
static const rfl_machine rfl__hw_table[] = {RFL_HW_TABLE(RFL__HW_ROW)};
#endif
#undef RFL__HW_ROW
#undef RFL__HW_STR
#undef RFL__HW_LINK

RFL_API int rfl_hw_count(void) {
    return (int)(sizeof rfl__hw_table / sizeof rfl__hw_table[0]);
}
RFL_API const rfl_machine *rfl_hw_get(int i) {
    return (i >= 0 && i < rfl_hw_count()) ? &rfl__hw_table[i] : (const rfl_machine *)0;
}

#ifndef RFL_HW_NO_STRINGS /* no aliases to match */
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
        if (rfl_parse_name_eq(one, name)) return 1;
        if (*list == ',') list++;
    }
    return 0;
}
#endif

#if !defined(RFL_HW_NO_STRINGS) && !defined(RFL_HW_NO_DEVICE_NAMES)
/* The vendors' device names (hw_specs.h), each with its row. */
typedef struct rfl__hw_dev { int row; const char *name; } rfl__hw_dev;
#define RFL__HW_DEV(E, name, src) {RFL_HW_##E, name},
#ifdef RFL_HW_ONLY
#define RFL__HW_DEV_IF(E, ...) RFL__HW_IF(RFL__HW_KEPT(E))(RFL__HW_DEV(E, __VA_ARGS__))
static const rfl__hw_dev rfl__hw_devs[] = {RFL_HW_DEVICE_NAMES(RFL__HW_DEV_IF) {-1, ""}};
#undef RFL__HW_DEV_IF
#else
static const rfl__hw_dev rfl__hw_devs[] = {RFL_HW_DEVICE_NAMES(RFL__HW_DEV) {-1, ""}};
#endif
#undef RFL__HW_DEV
#endif

RFL_API rfl_result rfl_hw_find(const char *name, const rfl_machine **out) {
    int i, n = rfl_hw_count();
    if (!name || !out) return RFL_ERR_ARG;
    *out = 0;
    /* ids and names first, so an alias never shadows a full id */
    for (i = 0; i < n; i++)
        if (rfl_parse_name_eq(rfl__hw_table[i].id, name) || rfl__hw_dev_eq(rfl__hw_table[i].name, name)) {
            *out = &rfl__hw_table[i];
            return RFL_OK;
        }
#ifndef RFL_HW_NO_STRINGS
    for (i = 0; i < n; i++)
        if (rfl__alias_match(rfl__hw_table[i].aliases, name)) {
            *out = &rfl__hw_table[i];
            return RFL_OK;
        }
#ifndef RFL_HW_NO_DEVICE_NAMES
    for (i = 0; rfl__hw_devs[i].row >= 0; i++)
        if (rfl__hw_dev_eq(rfl__hw_devs[i].name, name)) {
            *out = &rfl__hw_table[rfl__hw_devs[i].row];
            return RFL_OK;
        }
#endif
#endif
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

/* A name's family: its first word holding a digit, lower case, its trailing
   letters dropped ("NVIDIA A100 80GB PCIe" -> "a100", "MI300X" -> "mi300",
   "h200-sxm" -> "h200"); words end at anything but a letter or a digit.
   Returns the length, 0 when no word has a digit. */
static int rfl__hw_family(const char *s, char *out, int cap) {
#define RFL__DIG(ch) ((ch) >= '0' && (ch) <= '9')
#define RFL__ALNUM(ch) (RFL__DIG(ch) || (rfl__lower((unsigned char)(ch)) >= 'a' && rfl__lower((unsigned char)(ch)) <= 'z'))
    while (*s) {
        int n = 0, digit = 0;
        while (*s && !RFL__ALNUM(*s)) s++;
        for (; RFL__ALNUM(*s); s++) {
            digit |= RFL__DIG(*s);
            if (n < cap) out[n++] = (char)rfl__lower((unsigned char)*s);
        }
        if (digit) {
            while (n > 0 && !RFL__DIG(out[n - 1])) n--;
            return n;
        }
    }
    return 0;
#undef RFL__DIG
#undef RFL__ALNUM
}

RFL_API int rfl_hw_suggest(const char *name, int n, char *buf, size_t size) {
    enum { MAXN = 8 };
    int bestd[MAXN], besti[MAXN], k = 0, i, j, nm = rfl_hw_count();
    char q[48], c[48], qf[16], cf[16];
    int qn, qfn;
    size_t pos = 0;
    if (buf && size) buf[0] = 0;
    if (!name || n <= 0 || !buf || !size) return 0;
    if (n > MAXN) n = MAXN;
    qn = rfl__norm(name, (size_t)-1, q, 48);
    qfn = rfl__hw_family(name, qf, (int)sizeof qf);
    for (i = 0; i < nm; i++) {
        const rfl_machine *m = &rfl__hw_table[i];
        int d = rfl__name_dist(q, qn, c, rfl__norm(m->id, (size_t)-1, c, 48));
        int cfn = rfl__hw_family(m->id, cf, (int)sizeof cf);
        /* the name's own family first: an unknown "NVIDIA H200 NVL" is
           nearer the H200 than the short "a10" or "t4" */
        int other = qfn > 0 && !(cfn == qfn && rfl__memeq(cf, qf, (size_t)qfn));
        const char *a = m->aliases;
        while (a && *a) { /* each alias */
            size_t l = 0;
            int e;
            while (a[l] && a[l] != ',') l++;
            e = rfl__name_dist(q, qn, c, rfl__norm(a, l, c, 48));
            if (e < d) d = e;
            a += l + (a[l] == ',');
        }
        if (other) d += 1000;
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
    }
    return i; /* the ids that fit */
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

RFL_API int rfl_hw_match(const char *device, const rfl_machine *const *list, int n,
                         const rfl_machine **found) {
    const rfl_machine *x = 0;
    int h;
    if (found) *found = 0;
    if (!device || !*device || !list) return -1;
    if (rfl_hw_find(device, &x) != RFL_OK) x = 0;
    if (found) *found = x;
    for (h = 0; h < n; h++) {
        if (!list[h]) continue;
        if (x ? list[h] == x || rfl_parse_name_eq(list[h]->id, x->id)
              : rfl_parse_name_eq(list[h]->id, device) || rfl__hw_dev_eq(list[h]->name, device))
            return h;
    }
    return -1;
}

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

#if !defined(RFL_NO_COLLECTIVES) || !defined(RFL_NO_MACHINE_FILE)
RFL_API const char *rfl_link_kind_name(rfl_link_kind k) {
    static const char *const n[] = {"unknown", "none", "nvlink", "pcie", "infinity-fabric"};
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}
#endif

#ifndef RFL_NO_COLLECTIVES
RFL_API const char *rfl_ar_basis_name(rfl_ar_basis b) {
    static const char *const n[] = {"fitted", "extrapolated", "datasheet"};
    return (unsigned)b < sizeof n / sizeof n[0] ? n[b] : "?";
}

RFL_API rfl_result rfl_allreduce_time(const rfl_machine *m, int gpus, uint64_t bytes,
                                      unsigned flags, rfl_allreduce *out) {
    const rfl_link *l;
    double base, step, busbw, n = gpus;
    int fitted;
    if (!m || !out || gpus < 1) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    out->algorithm = "ring";
    l = m->link;
    if (gpus == 1) return RFL_OK;
    if (!l || l->kind == RFL_LINK_UNKNOWN || l->kind == RFL_LINK_NONE) return RFL_ERR_NO_DATA;
    if (l->gpus_per_node > 0 && gpus > l->gpus_per_node) return RFL_ERR_ARG;
    fitted = l->ar_busbw > 0;
    base = fitted ? l->ar_base_s : 0;
    step = fitted ? l->ar_step_s : l->latency_s;
    busbw = fitted ? l->ar_busbw : l->bw_bytes_per_s;
    if (!(busbw > 0)) return RFL_ERR_NO_DATA;
    out->basis = !fitted ? RFL_AR_DATASHEET : gpus > l->ar_gpus ? RFL_AR_EXTRAPOLATED : RFL_AR_FITTED;
    out->steps = 2 * (gpus - 1);
    out->busbw = busbw;
    out->latency_s = base + out->steps * step + ((flags & RFL_AR_EAGER) && fitted ? l->ar_eager_s : 0);
    out->transfer_s = 2 * (n - 1) / n * (double)bytes / busbw;
    out->time_s = out->latency_s + out->transfer_s;
    if (l->bw_bytes_per_s > 0)
        out->bound_s = out->steps * l->latency_s + 2 * (n - 1) / n * (double)bytes / l->bw_bytes_per_s;
    return RFL_OK;
}
#endif


/* ==========================================================================
   [4]  MACHINE FILES
   a machine from the JSON that rfl-hw --json prints (RFL_NO_MACHINE_FILE)
   ========================================================================== */
#ifndef RFL_NO_MACHINE_FILE
/* The reader's state: the tokenised document, the caller's string buffer
   (strings are counted even when they no longer fit, so that one error
   reports the whole size needed). The first error goes to doc.err. */
typedef struct rfl__mf {
    rfl_json_doc doc;
    char *sb;
    size_t sb_size, sb_used, sb_need;
} rfl__mf;

static void rfl__mf_path(char *dst, size_t size, const char *prefix, const char *key) {
    size_t n = 0;
    const char *parts[2];
    int i;
    parts[0] = prefix ? prefix : "";
    parts[1] = key ? key : "";
    for (i = 0; i < 2; i++) {
        const char *s = parts[i];
        if (i == 1 && n > 0 && *s && n + 1 < size) dst[n++] = '.';
        while (*s && n + 1 < size) dst[n++] = *s++;
    }
    dst[n] = 0;
}

/* Records the error at token tok (-1: none) for field prefix.key. */
static rfl_result rfl__mf_fail(rfl__mf *f, rfl_result code, int tok, const char *prefix,
                               const char *key, const char *msg) {
    rfl_error *e = &f->doc.err;
    size_t i, at;
    rfl__err_set(e, code, msg);
    rfl__mf_path(e->where, sizeof e->where, prefix, key);
    if (tok >= 0 && tok < f->doc.n) {
        at = f->doc.t[tok].start;
        if (f->doc.t[tok].type == RFL_JSON_STR && at > 0) at--; /* the opening quote */
        e->offset = at;
        e->line = 1;
        e->col = 1;
        for (i = 0; i < at && i < f->doc.len; i++) {
            if (f->doc.src[i] == '\n') { e->line++; e->col = 1; }
            else e->col++;
        }
    }
    return code;
}

/* Length of a string token once decoded, as rfl_json_str writes it. */
static size_t rfl__mf_decoded_len(const rfl_json_doc *d, int tok) {
    size_t i, n = 0, end = d->t[tok].end;
    unsigned u;
    for (i = d->t[tok].start; i < end; i++, n++) {
        if (d->src[i] != '\\' || i + 1 >= end) continue;
        i++;
        if (d->src[i] == 'u' && i + 4 < end && rfl__json_hex4(d->src + i + 1, &u)) i += 4;
    }
    return n;
}

/* Copies a string token into the string buffer; "" (counted in sb_need)
   when it no longer fits. */
static const char *rfl__mf_strdup(rfl__mf *f, int tok) {
    size_t n = rfl__mf_decoded_len(&f->doc, tok) + 1;
    char *s;
    f->sb_need += n;
    if (f->sb_used + n > f->sb_size) return "";
    s = f->sb + f->sb_used;
    rfl_json_str(&f->doc, tok, s, n);
    f->sb_used += n;
    return s;
}

/* Index of key token k in names[0..n), -2 for a '_' key (ignored), -1 when
   unknown. */
static int rfl__mf_key(const rfl__mf *f, int k, const char *const *names, int n) {
    int i;
    if (f->doc.t[k].end > f->doc.t[k].start && f->doc.src[f->doc.t[k].start] == '_') return -2;
    for (i = 0; i < n; i++)
        if (rfl_json_str_eq(&f->doc, k, names[i])) return i;
    return -1;
}

/* The key's text for an error message (truncated to the buffer). */
static const char *rfl__mf_keytext(const rfl__mf *f, int k, char *buf, size_t size) {
    rfl_json_str(&f->doc, k, buf, size);
    return buf;
}

/* A number >= 0, or null (stored as 0: unknown / absent). */
static rfl_result rfl__mf_num(rfl__mf *f, int tok, const char *prefix, const char *key,
                              double *out) {
    double v;
    *out = 0;
    if (f->doc.t[tok].type == RFL_JSON_NULL) return RFL_OK;
    if (f->doc.t[tok].type != RFL_JSON_NUM)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, tok, prefix, key, "expected a number or null");
    if (!rfl_json_num(&f->doc, tok, &v) || !rfl__isfinite(v))
        return rfl__mf_fail(f, RFL_ERR_NOT_FINITE, tok, prefix, key, "not a finite number");
    if (v < 0) return rfl__mf_fail(f, RFL_ERR_NUMBER, tok, prefix, key, "negative");
    *out = v;
    return RFL_OK;
}

/* A whole number 0..2^31-1, or null (0). */
static rfl_result rfl__mf_int(rfl__mf *f, int tok, const char *prefix, const char *key, int *out) {
    double v;
    rfl_result r = rfl__mf_num(f, tok, prefix, key, &v);
    *out = 0;
    if (r != RFL_OK) return r;
    if (v > 2147483647.0 || v != (double)(long)v)
        return rfl__mf_fail(f, RFL_ERR_NUMBER, tok, prefix, key, "expected a whole number below 2^31");
    *out = (int)v;
    return RFL_OK;
}

/* peak_flops (levels 0) or mem_bw (levels 1): precision / level names to
   numbers or null. *positive counts the values > 0. */
static rfl_result rfl__mf_ceilings(rfl__mf *f, int obj, const char *path, int levels,
                                   double *vals, int *positive) {
    const char *names[RFL_PREC_COUNT];
    int n = levels ? (int)RFL_LEVEL_COUNT : (int)RFL_PREC_COUNT, i, k;
    unsigned seen = 0;
    char kb[48];
    rfl_result r;
    *positive = 0;
    if (f->doc.t[obj].type != RFL_JSON_OBJ)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, obj, path, 0, "expected an object");
    for (i = 0; i < n; i++)
        names[i] = levels ? rfl_level_name((rfl_level)i) : rfl_prec_name((rfl_prec)i);
    for (k = obj + 1; k < f->doc.t[obj].after; k = f->doc.t[k + 1].after) {
        i = rfl__mf_key(f, k, names, n);
        if (i == -2) continue;
        if (i < 0)
            return rfl__mf_fail(f, RFL_ERR_FORMAT, k, path, rfl__mf_keytext(f, k, kb, sizeof kb),
                                levels ? "unknown memory level (dram, l2, l1)"
                                       : "unknown precision (fp64, fp64_tensor, fp32, tf32_tensor, "
                                         "fp16, fp16_tensor, bf16_tensor, fp8_tensor, int8_tensor)");
        if (seen & (1u << i)) return rfl__mf_fail(f, RFL_ERR_FORMAT, k, path, names[i], "duplicate key");
        seen |= 1u << i;
        if ((r = rfl__mf_num(f, k + 1, path, names[i], &vals[i])) != RFL_OK) return r;
        *positive += vals[i] > 0;
    }
    return RFL_OK;
}

/* "aliases": strings without commas, joined by commas into the buffer. */
static rfl_result rfl__mf_aliases(rfl__mf *f, int arr, const char **out) {
    size_t need = 0, i;
    int k, count = 0;
    char *s;
    if (f->doc.t[arr].type != RFL_JSON_ARR)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, arr, "aliases", 0, "expected an array of strings");
    for (k = arr + 1; k < f->doc.t[arr].after; k = f->doc.t[k].after, count++) {
        if (f->doc.t[k].type != RFL_JSON_STR || f->doc.t[k].end == f->doc.t[k].start)
            return rfl__mf_fail(f, RFL_ERR_FORMAT, k, "aliases", 0, "expected a non-empty string");
        for (i = f->doc.t[k].start; i < f->doc.t[k].end; i++)
            if (f->doc.src[i] == ',')
                return rfl__mf_fail(f, RFL_ERR_FORMAT, k, "aliases", 0, "an alias cannot hold a comma");
        need += rfl__mf_decoded_len(&f->doc, k) + 1; /* the comma, or the final NUL */
    }
    *out = "";
    if (!count) return RFL_OK;
    f->sb_need += need;
    if (f->sb_used + need > f->sb_size) return RFL_OK; /* reported at the end */
    s = f->sb + f->sb_used;
    for (k = arr + 1; k < f->doc.t[arr].after; k = f->doc.t[k].after) {
        size_t n = rfl__mf_decoded_len(&f->doc, k);
        rfl_json_str(&f->doc, k, f->sb + f->sb_used, n + 1);
        f->sb_used += n + 1;
        f->sb[f->sb_used - 1] = ',';
    }
    f->sb[f->sb_used - 1] = 0;
    *out = s;
    return RFL_OK;
}

enum {
    RFL__MF_NAME, RFL__MF_ID, RFL__MF_ALIASES, RFL__MF_KIND, RFL__MF_PEAK, RFL__MF_BW,
    RFL__MF_MEM, RFL__MF_L2, RFL__MF_UNITS, RFL__MF_MHZ, RFL__MF_TDP, RFL__MF_RIDGE,
    RFL__MF_SOURCE, RFL__MF_LINK, RFL__MF_MEASURED, RFL__MF_KEYS
};
static const char *const rfl__mf_keys[RFL__MF_KEYS] = {
    "name", "id", "aliases", "kind", "peak_flops", "mem_bw", "mem_bytes",
    "l2_bytes", "units", "boost_mhz", "tdp_w", "ridge", "source", "link", "measured"};

static rfl_result rfl__mf_string(rfl__mf *f, int tok, const char *key, const char **out) {
    if (f->doc.t[tok].type != RFL_JSON_STR)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, tok, 0, key, "expected a string");
    *out = rfl__mf_strdup(f, tok);
    return RFL_OK;
}

static rfl_result rfl__mf_kind(rfl__mf *f, int tok, rfl_kind *out) {
    int k;
    for (k = RFL_KIND_GPU; k <= RFL_KIND_SOC; k++)
        if (rfl_json_str_eq(&f->doc, tok, rfl_kind_name((rfl_kind)k))) {
            *out = (rfl_kind)k;
            return RFL_OK;
        }
    return rfl__mf_fail(f, RFL_ERR_FORMAT, tok, 0, "kind",
                        "expected \"gpu\", \"cpu\", \"tpu\", \"accelerator\" or \"soc\"");
}

/* One top-level member (key index which, value token v) into m; positive
   counts the ceilings > 0 of peak_flops [0] and mem_bw [1]. */
static rfl_result rfl__mf_member(rfl__mf *f, int which, int v, rfl_machine *m, int *positive) {
    const char *key = rfl__mf_keys[which];
    switch (which) {
    case RFL__MF_NAME: return rfl__mf_string(f, v, key, &m->name);
    case RFL__MF_ID: return rfl__mf_string(f, v, key, &m->id);
    case RFL__MF_SOURCE: return rfl__mf_string(f, v, key, &m->source);
    case RFL__MF_ALIASES: return rfl__mf_aliases(f, v, &m->aliases);
    case RFL__MF_KIND: return rfl__mf_kind(f, v, &m->kind);
    case RFL__MF_PEAK: return rfl__mf_ceilings(f, v, key, 0, m->peak_flops, &positive[0]);
    case RFL__MF_BW: return rfl__mf_ceilings(f, v, key, 1, m->bw_bytes_per_s, &positive[1]);
    case RFL__MF_MEM: return rfl__mf_num(f, v, 0, key, &m->mem_bytes);
    case RFL__MF_L2: return rfl__mf_num(f, v, 0, key, &m->l2_bytes);
    case RFL__MF_UNITS: return rfl__mf_int(f, v, 0, key, &m->units);
    case RFL__MF_MHZ: return rfl__mf_num(f, v, 0, key, &m->boost_mhz);
    case RFL__MF_TDP: return rfl__mf_num(f, v, 0, key, &m->tdp_w);
    case RFL__MF_RIDGE: /* derived: recomputed from the figures, never read */
        if (f->doc.t[v].type != RFL_JSON_OBJ && f->doc.t[v].type != RFL_JSON_NULL)
            return rfl__mf_fail(f, RFL_ERR_FORMAT, v, 0, key, "expected an object");
        return RFL_OK;
    }
    return RFL_OK; /* "link" and "measured": read after the top level */
}

/* A field absent, or present with no ceiling > 0. */
static rfl_result rfl__mf_need(rfl__mf *f, int tok, const char *prefix, const char *key,
                               int present, int positive) {
    if (!present) return rfl__mf_fail(f, RFL_ERR_MISSING, tok, prefix, key, "required field missing");
    if (!positive) return rfl__mf_fail(f, RFL_ERR_MISSING, tok, prefix, key, "needs at least one value > 0");
    return RFL_OK;
}

/* A string member of prefix's object. */
static rfl_result rfl__mf_pstring(rfl__mf *f, int tok, const char *prefix, const char *key,
                                  const char **out) {
    if (f->doc.t[tok].type != RFL_JSON_STR)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, tok, prefix, key, "expected a string");
    *out = rfl__mf_strdup(f, tok);
    return RFL_OK;
}

/* The members of object obj named in keys[0..n): each known (or '_') and
   once; seen[i] counts them. Returns the next member's key token after k
   (the first: k = -1), or -1 at the end; an error: -2 with r set. */
static int rfl__mf_next(rfl__mf *f, int obj, int k, const char *path, const char *const *keys,
                        int n, const char *expect, int *seen, int *which, rfl_result *r) {
    char kb[48];
    int i;
    for (k = k < 0 ? obj + 1 : f->doc.t[k + 1].after; k < f->doc.t[obj].after; k = f->doc.t[k + 1].after) {
        if ((i = rfl__mf_key(f, k, keys, n)) == -2) continue;
        if (i < 0) {
            *r = rfl__mf_fail(f, RFL_ERR_FORMAT, k, path, rfl__mf_keytext(f, k, kb, sizeof kb), expect);
            return -2;
        }
        if (seen[i]++) {
            *r = rfl__mf_fail(f, RFL_ERR_FORMAT, k, path, keys[i], "duplicate key");
            return -2;
        }
        *which = i;
        return k;
    }
    return -1;
}

/* "link.allreduce": the fitted all-reduce (busbw required, > 0). */
static rfl_result rfl__mf_allreduce(rfl__mf *f, int obj, rfl_link *l) {
    static const char *const keys[] = {"base_s", "step_s", "busbw", "eager_s", "gpus", "source"};
    static const char path[] = "link.allreduce";
    int k = -1, i = 0, seen[6] = {0, 0, 0, 0, 0, 0};
    rfl_result r = RFL_OK;
    double *nums[4];
    nums[0] = &l->ar_base_s, nums[1] = &l->ar_step_s, nums[2] = &l->ar_busbw, nums[3] = &l->ar_eager_s;
    if (f->doc.t[obj].type != RFL_JSON_OBJ)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, obj, "link", "allreduce", "expected an object");
    while (r == RFL_OK && (k = rfl__mf_next(f, obj, k, path, keys, 6,
                                            "unknown key (base_s, step_s, busbw, eager_s, gpus, source)",
                                            seen, &i, &r)) >= 0) {
        if (i < 4) r = rfl__mf_num(f, k + 1, path, keys[i], nums[i]);
        else if (i == 4) r = rfl__mf_int(f, k + 1, path, keys[i], &l->ar_gpus);
        else r = rfl__mf_pstring(f, k + 1, path, keys[i], &l->ar_source);
    }
    if (r != RFL_OK) return r;
    return rfl__mf_need(f, obj, path, "busbw", seen[2], l->ar_busbw > 0);
}

/* "link": the GPU-to-GPU link (kind required; null = unknown). */
static rfl_result rfl__mf_link(rfl__mf *f, int obj, rfl_link *l) {
    static const char *const keys[] = {"kind", "gen", "lanes", "bw_per_direction", "latency_s",
                                       "gpus_per_node", "source", "allreduce"};
    int k = -1, i = 0, j, seen[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    rfl_result r = RFL_OK;
    if (f->doc.t[obj].type != RFL_JSON_OBJ)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, obj, 0, "link", "expected an object");
    l->source = l->ar_source = "";
    while (r == RFL_OK && (k = rfl__mf_next(f, obj, k, "link", keys, 8,
                                            "unknown key (kind, gen, lanes, bw_per_direction, latency_s, "
                                            "gpus_per_node, source, allreduce)", seen, &i, &r)) >= 0) {
        int v = k + 1;
        switch (i) {
        case 0:
            for (j = 0; j < RFL_LINK_KIND_COUNT && f->doc.t[v].type == RFL_JSON_STR; j++)
                if (rfl_json_str_eq(&f->doc, v, rfl_link_kind_name((rfl_link_kind)j))) break;
            if (f->doc.t[v].type != RFL_JSON_NULL && !(f->doc.t[v].type == RFL_JSON_STR && j < RFL_LINK_KIND_COUNT))
                r = rfl__mf_fail(f, RFL_ERR_FORMAT, v, "link", "kind",
                                 "expected \"nvlink\", \"pcie\", \"infinity-fabric\", \"none\" or null (unknown)");
            else l->kind = f->doc.t[v].type == RFL_JSON_NULL ? RFL_LINK_UNKNOWN : (rfl_link_kind)j;
            break;
        case 1: r = rfl__mf_int(f, v, "link", keys[i], &l->gen); break;
        case 2: r = rfl__mf_int(f, v, "link", keys[i], &l->lanes); break;
        case 3: r = rfl__mf_num(f, v, "link", keys[i], &l->bw_bytes_per_s); break;
        case 4: r = rfl__mf_num(f, v, "link", keys[i], &l->latency_s); break;
        case 5: r = rfl__mf_int(f, v, "link", keys[i], &l->gpus_per_node); break;
        case 6: r = rfl__mf_pstring(f, v, "link", keys[i], &l->source); break;
        default: r = rfl__mf_allreduce(f, v, l); break;
        }
    }
    if (r != RFL_OK) return r;
    return rfl__mf_need(f, obj, "link", "kind", seen[0], 1);
}

/* The "measured" object: a copy of the machine with measured ceilings. */
static rfl_result rfl__mf_measured(rfl__mf *f, int obj, rfl_machine_file *out) {
    static const char *const keys[] = {"peak_flops", "mem_bw", "threads", "source"};
    rfl_machine *m = &out->measured;
    int k, i, seen[4] = {0, 0, 0, 0}, positive[2] = {0, 0};
    char kb[48];
    rfl_result r = RFL_OK;
    if (f->doc.t[obj].type != RFL_JSON_OBJ)
        return rfl__mf_fail(f, RFL_ERR_FORMAT, obj, 0, "measured", "expected an object");
    *m = out->machine;
    RFL_MEMSET(m->peak_flops, 0, sizeof m->peak_flops);
    RFL_MEMSET(m->bw_bytes_per_s, 0, sizeof m->bw_bytes_per_s);
    m->source = "measured";
    for (k = obj + 1; k < f->doc.t[obj].after && r == RFL_OK; k = f->doc.t[k + 1].after) {
        if ((i = rfl__mf_key(f, k, keys, 4)) == -2) continue;
        if (i < 0)
            return rfl__mf_fail(f, RFL_ERR_FORMAT, k, "measured", rfl__mf_keytext(f, k, kb, sizeof kb),
                                "unknown key (peak_flops, mem_bw, threads, source)");
        if (seen[i]++) return rfl__mf_fail(f, RFL_ERR_FORMAT, k, "measured", keys[i], "duplicate key");
        if (i == 0) r = rfl__mf_ceilings(f, k + 1, "measured.peak_flops", 0, m->peak_flops, &positive[0]);
        else if (i == 1) r = rfl__mf_ceilings(f, k + 1, "measured.mem_bw", 1, m->bw_bytes_per_s, &positive[1]);
        else if (i == 2) r = rfl__mf_int(f, k + 1, "measured", "threads", &out->measured_threads);
        else if (f->doc.t[k + 1].type != RFL_JSON_STR)
            r = rfl__mf_fail(f, RFL_ERR_FORMAT, k + 1, "measured", "source", "expected a string");
        else m->source = rfl__mf_strdup(f, k + 1);
    }
    if (r != RFL_OK) return r;
    if (!seen[0] && !seen[1])
        return rfl__mf_fail(f, RFL_ERR_MISSING, obj, "measured", 0, "needs peak_flops or mem_bw");
    if (seen[0] && (r = rfl__mf_need(f, obj, "measured", "peak_flops", 1, positive[0])) != RFL_OK) return r;
    if (seen[1] && (r = rfl__mf_need(f, obj, "measured", "mem_bw", 1, positive[1])) != RFL_OK) return r;
    out->has_measured = 1;
    return RFL_OK;
}

/* The top-level object: every key known (or '_'), none twice, the required
   ones present; then "measured", which copies the finished machine. */
static rfl_result rfl__mf_top(rfl__mf *f, rfl_machine_file *out) {
    rfl_machine *m = &out->machine;
    int k, i, seen[RFL__MF_KEYS], positive[2] = {0, 0}, measured = -1, link = -1;
    char kb[48];
    rfl_result r;
    RFL_MEMSET(seen, 0, sizeof seen);
    m->aliases = "";
    m->source = "";
    for (k = 1; k < f->doc.t[0].after; k = f->doc.t[k + 1].after) {
        if ((i = rfl__mf_key(f, k, rfl__mf_keys, RFL__MF_KEYS)) == -2) continue;
        if (i < 0 && (rfl_json_str_eq(&f->doc, k, "machines") || rfl_json_str_eq(&f->doc, k, "count")))
            return rfl__mf_fail(f, RFL_ERR_FORMAT, k, 0, "machines",
                                "a whole table (rfl-hw --json): give one machine (rfl-hw NAME --json)");
        if (i < 0) return rfl__mf_fail(f, RFL_ERR_FORMAT, k, 0, rfl__mf_keytext(f, k, kb, sizeof kb), "unknown key");
        if (seen[i]++) return rfl__mf_fail(f, RFL_ERR_FORMAT, k, 0, rfl__mf_keys[i], "duplicate key");
        if (i == RFL__MF_MEASURED) measured = k + 1;
        if (i == RFL__MF_LINK) link = k + 1;
        if ((r = rfl__mf_member(f, i, k + 1, m, positive)) != RFL_OK) return r;
    }
    if ((r = rfl__mf_need(f, 0, 0, "name", seen[RFL__MF_NAME], 1)) != RFL_OK ||
        (r = rfl__mf_need(f, 0, 0, "kind", seen[RFL__MF_KIND], 1)) != RFL_OK ||
        (r = rfl__mf_need(f, 0, 0, "peak_flops", seen[RFL__MF_PEAK], positive[0])) != RFL_OK ||
        (r = rfl__mf_need(f, 0, 0, "mem_bw", seen[RFL__MF_BW], positive[1])) != RFL_OK)
        return r;
    if (!seen[RFL__MF_ID]) m->id = m->name;
    if (link >= 0) {
        if ((r = rfl__mf_link(f, link, &out->link)) != RFL_OK) return r;
        m->link = &out->link;
    }
    return measured >= 0 ? rfl__mf_measured(f, measured, out) : RFL_OK;
}

/* Where a syntax error is, as a field path: the keys of the containers
   still open at the error (a closed container has end > start; an open one
   still has end == start) and the last key inside the innermost one. So a
   file cut after "tf32_tensor": 156 names peak_flops.tf32_tensor. */
static void rfl__mf_syntax_path(rfl__mf *f) {
    enum { DEPTH = 16 };
    int box[DEPTH], kids[DEPTH], key[DEPTH], top = -1, i, l;
    const rfl_json_tok *t = f->doc.t;
    size_t n = 0;
    char *out = f->doc.err.where;
    for (i = 0; i < f->doc.n && i < f->doc.cap; i++) {
        while (top >= 0 && t[box[top]].end > t[box[top]].start && i >= t[box[top]].after) top--;
        if (top >= 0 && t[box[top]].type == RFL_JSON_OBJ && kids[top]++ % 2 == 0) key[top] = i;
        if ((t[i].type == RFL_JSON_OBJ || t[i].type == RFL_JSON_ARR) && top + 1 < DEPTH) {
            box[++top] = i;
            kids[top] = 0;
            key[top] = -1;
        }
    }
    while (top >= 0 && t[box[top]].end > t[box[top]].start && t[box[top]].end <= f->doc.err.offset)
        top--; /* closed before the error */
    for (l = 0; l <= top; l++) {
        size_t k;
        if (t[box[l]].type != RFL_JSON_OBJ || key[l] < 0) continue;
        if (n > 0 && n + 1 < sizeof f->doc.err.where) out[n++] = '.';
        for (k = t[key[l]].start; k < t[key[l]].end && n + 1 < sizeof f->doc.err.where; k++)
            out[n++] = f->doc.src[k];
    }
    out[n] = 0;
}

/* Tokenise; a syntax error (its where: the field path) or a short token
   array (where "toks", need: the tokens) stays in doc.err. */
static rfl_result rfl__mf_tokenise(rfl__mf *f, const char *json, size_t len, rfl_json_tok *toks,
                                   int ntoks) {
    rfl_result r = rfl_json_parse(&f->doc, json, len, toks, ntoks);
    if (r == RFL_ERR_SYNTAX) {
        rfl__mf_syntax_path(f);
    } else if (r == RFL_OK && f->doc.t[0].type != RFL_JSON_OBJ) {
        r = rfl__mf_fail(f, RFL_ERR_FORMAT, 0, 0, 0, "expected an object (one machine)");
    }
    return r;
}

RFL_API rfl_result rfl_machine_file_parse(const char *json, size_t len, rfl_json_tok *toks,
                                          int ntoks, char *strbuf, size_t strsize,
                                          rfl_machine_file *out, rfl_error *err) {
    rfl__mf f;
    rfl_result r;
    RFL_MEMSET(&f, 0, sizeof f);
    rfl__err_clear(&f.doc.err);
    if ((!json && len) || !out || !toks || ntoks < 1 || (!strbuf && strsize)) {
        r = rfl__err_set(&f.doc.err, RFL_ERR_ARG, RFL__MSG("NULL argument"));
        if (err) *err = f.doc.err;
        return r;
    }
    RFL_MEMSET(out, 0, sizeof *out);
    f.sb = strbuf;
    f.sb_size = strsize;
    r = rfl__mf_tokenise(&f, json, len, toks, ntoks);
    if (r == RFL_OK) r = rfl__mf_top(&f, out);
    if (r == RFL_OK && f.sb_need > strsize) {
        rfl__err_where(&f.doc.err, "strbuf");
        f.doc.err.need = f.sb_need;
        r = rfl__err_set(&f.doc.err, RFL_ERR_BUFFER, RFL__MSG("string buffer too small"));
    }
    if (r != RFL_OK) RFL_MEMSET(out, 0, sizeof *out);
    if (err) *err = f.doc.err;
    return r;
}

/* ---- the writer ------------------------------------------------------------- */
RFL_API rfl_prec rfl_machine_file_prec(int i) {
    static const rfl_prec order[RFL_PREC_COUNT] = {
        RFL_FP64, RFL_FP64_TENSOR, RFL_FP32, RFL_TF32_TENSOR, RFL_FP16,
        RFL_FP16_TENSOR, RFL_BF16_TENSOR, RFL_FP8_TENSOR, RFL_INT8_TENSOR};
    return i >= 0 && i < RFL_PREC_COUNT ? order[i] : RFL_FP32;
}

#ifndef RFL_NO_JSON_WRITER
/* peak_flops and mem_bw. skip_empty: leave out an object with no value > 0
   (a probe that measured only bandwidth), which the reader would reject. */
static void rfl__mfw_ceilings(rfl_json_writer *w, const rfl_machine *m, int skip_empty) {
    int i, l, peaks = 0, bws = 0;
    for (i = 0; i < RFL_PREC_COUNT; i++) peaks += m->peak_flops[i] > 0;
    for (l = 0; l < RFL_LEVEL_COUNT; l++) bws += m->bw_bytes_per_s[l] > 0;
    if (peaks || !skip_empty) {
        rfl_json_w_obj(w, "peak_flops");
        for (i = 0; i < RFL_PREC_COUNT; i++) {
            rfl_prec p = rfl_machine_file_prec(i);
            rfl_json_w_num_if(w, rfl_prec_name(p), m->peak_flops[p] > 0, m->peak_flops[p]);
        }
        rfl_json_w_end(w);
    }
    if (bws || !skip_empty) {
        rfl_json_w_obj(w, "mem_bw");
        for (l = 0; l < RFL_LEVEL_COUNT; l++)
            rfl_json_w_num_if(w, rfl_level_name((rfl_level)l), m->bw_bytes_per_s[l] > 0,
                              m->bw_bytes_per_s[l]);
        rfl_json_w_end(w);
    }
}

/* "fp32_dram": every ridge point the machine has. */
static void rfl__mfw_ridges(rfl_json_writer *w, const rfl_machine *m) {
    char key[48];
    int i, l;
    rfl_json_w_obj(w, "ridge");
    for (i = 0; i < RFL_PREC_COUNT; i++)
        for (l = 0; l < RFL_LEVEL_COUNT; l++) {
            rfl_prec p = rfl_machine_file_prec(i);
            double r = rfl_ridge(m, p, (rfl_level)l);
            size_t n = rfl__strlen(rfl_prec_name(p)), k = rfl__strlen(rfl_level_name((rfl_level)l));
            if (!(r > 0) || n + k + 2 > sizeof key) continue;
            RFL_MEMCPY(key, rfl_prec_name(p), n);
            key[n] = '_';
            RFL_MEMCPY(key + n + 1, rfl_level_name((rfl_level)l), k + 1);
            rfl_json_w_num(w, key, r);
        }
    rfl_json_w_end(w);
}

/* "link": every key, null where unknown; "allreduce" when fitted. */
static void rfl__mfw_link(rfl_json_writer *w, const rfl_link *l) {
    rfl_json_w_obj(w, "link");
    if (l->kind == RFL_LINK_UNKNOWN) rfl_json_w_null(w, "kind");
    else rfl_json_w_str(w, "kind", rfl_link_kind_name(l->kind));
    rfl_json_w_num_if(w, "gen", l->gen > 0, l->gen);
    rfl_json_w_num_if(w, "lanes", l->lanes > 0, l->lanes);
    rfl_json_w_num_if(w, "bw_per_direction", l->bw_bytes_per_s > 0, l->bw_bytes_per_s);
    rfl_json_w_num_if(w, "latency_s", l->latency_s > 0, l->latency_s);
    rfl_json_w_num_if(w, "gpus_per_node", l->gpus_per_node > 0, l->gpus_per_node);
    rfl_json_w_str(w, "source", l->source ? l->source : "");
    if (l->ar_busbw > 0) {
        rfl_json_w_obj(w, "allreduce");
        rfl_json_w_num(w, "base_s", l->ar_base_s);
        rfl_json_w_num(w, "step_s", l->ar_step_s);
        rfl_json_w_num(w, "busbw", l->ar_busbw);
        rfl_json_w_num(w, "eager_s", l->ar_eager_s);
        rfl_json_w_num_if(w, "gpus", l->ar_gpus > 0, l->ar_gpus);
        rfl_json_w_str(w, "source", l->ar_source ? l->ar_source : "");
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
}

RFL_API void rfl_machine_file_write(rfl_json_writer *w, const rfl_machine_file *mf) {
    const rfl_machine *m = &mf->machine;
    const char *a = m->aliases;
    rfl_json_w_str(w, "name", m->name);
    rfl_json_w_str(w, "id", m->id);
    rfl_json_w_arr(w, "aliases");
    while (a && *a) { /* "a100,a100-40gb" -> two strings */
        size_t n = 0;
        while (a[n] && a[n] != ',') n++;
        rfl_json_w_str_n(w, 0, a, n);
        a += n + (a[n] == ',');
    }
    rfl_json_w_end(w);
    rfl_json_w_str(w, "kind", rfl_kind_name(m->kind));
    rfl__mfw_ceilings(w, m, 0);
    rfl_json_w_num_if(w, "mem_bytes", m->mem_bytes > 0, m->mem_bytes);
    rfl_json_w_num_if(w, "l2_bytes", m->l2_bytes > 0, m->l2_bytes);
    rfl_json_w_num_if(w, "units", m->units > 0, m->units);
    rfl_json_w_num_if(w, "boost_mhz", m->boost_mhz > 0, m->boost_mhz);
    rfl_json_w_num_if(w, "tdp_w", m->tdp_w > 0, m->tdp_w);
    rfl__mfw_ridges(w, m);
    rfl_json_w_str(w, "source", m->source);
    if (m->link) rfl__mfw_link(w, m->link);
    if (!mf->has_measured) return;
    rfl_json_w_obj(w, "measured");
    rfl__mfw_ceilings(w, &mf->measured, 1);
    rfl_json_w_num_if(w, "threads", mf->measured_threads > 0, mf->measured_threads);
    rfl_json_w_str(w, "source", mf->measured.source);
    rfl_json_w_end(w);
}

RFL_API size_t rfl_machine_file_print(char *buf, size_t size, const rfl_machine_file *mf) {
    rfl_json_writer w;
    rfl_json_w_init(&w, buf, size);
    rfl_json_w_obj(&w, 0);
    rfl_machine_file_write(&w, mf);
    rfl_json_w_end(&w);
    rfl_json_w_finish(&w);
    return w.len + 1;
}
#endif /* RFL_NO_JSON_WRITER */
#endif /* RFL_NO_MACHINE_FILE */


/* ==========================================================================
   [5]  ROOFLINE MATH
   ridge, attainable, prediction, fraction of the roof
   ========================================================================== */
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


/* ==========================================================================
   [6]  LAYERS
   the builder, shape propagation, costs, predicted time, torchsummary
   ========================================================================== */
/* ---- layers part: implementation -------------------------------------------
   Per-sample counts are computed when a layer is added (64-bit, overflow
   checked); costs at a batch multiply them. Freestanding: no libc. */

/* ---- checked 64-bit arithmetic ------------------------------------------------ */
static RFL__UNUSED RFL__NOINLINE int rfl__ly_mul64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a && b > (uint64_t)-1 / a) return 0;
    *out = a * b;
    return 1;
}
static RFL__UNUSED RFL__NOINLINE int rfl__ly_add64(uint64_t a, uint64_t b, uint64_t *out) {
    if (b > (uint64_t)-1 - a) return 0;
    *out = a + b;
    return 1;
}
/* *acc += x, 0 on overflow (one pointer: shorter calls in the sums) */
static RFL__UNUSED RFL__NOINLINE int rfl__ly_acc(uint64_t *acc, uint64_t x) {
    return rfl__ly_add64(*acc, x, acc);
}
/* a * b * c * d, 0 on overflow (callers treat a 0 result with non-zero
   factors as overflow through the flag). */
static int rfl__ly_mul4(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t *out) {
    uint64_t t;
    return rfl__ly_mul64(a, b, &t) && rfl__ly_mul64(t, c, &t) && rfl__ly_mul64(t, d, out);
}

/* ---- names of things ----------------------------------------------------------- */
RFL_API const char *rfl_dtype_name(rfl_dtype d) {
    static const char *const n[RFL_DTYPE_COUNT] = {"fp32", "fp32", "fp16", "bf16",
                                                   "fp8",  "int8", "int4", "tf32"};
    return ((unsigned)d < RFL_DTYPE_COUNT) ? n[d] : "?";
}
RFL_API int rfl_dtype_bits(rfl_dtype d) {
    static const int b[RFL_DTYPE_COUNT] = {32, 32, 16, 16, 8, 8, 4, 32};
    return ((unsigned)d < RFL_DTYPE_COUNT) ? b[d] : 0;
}
RFL_API int rfl_dtype_bytes(rfl_dtype d) { return rfl_dtype_bits(d) / 8; }
RFL_API rfl_dtype rfl_dtype_storage(rfl_dtype role, rfl_dtype math) {
    if (role) return role;
    return math == RFL_DTYPE_DEFAULT || math == RFL_DTYPE_TF32 ? RFL_DTYPE_FP32 : math;
}
RFL_API rfl_result rfl_dtype_parse(const char *name, rfl_dtype *out) {
    static const struct { const char *n; rfl_dtype d; } t[] = {
        {"fp32", RFL_DTYPE_FP32}, {"float32", RFL_DTYPE_FP32}, {"float", RFL_DTYPE_FP32},
        {"fp16", RFL_DTYPE_FP16}, {"float16", RFL_DTYPE_FP16}, {"half", RFL_DTYPE_FP16},
        {"bf16", RFL_DTYPE_BF16}, {"bfloat16", RFL_DTYPE_BF16}, {"fp8", RFL_DTYPE_FP8},
        {"e4m3", RFL_DTYPE_FP8},  {"e5m2", RFL_DTYPE_FP8},     {"float8", RFL_DTYPE_FP8},
        {"int8", RFL_DTYPE_INT8}, {"int4", RFL_DTYPE_INT4},    {"tf32", RFL_DTYPE_TF32}};
    int i;
    if (!name || !out) return RFL_ERR_ARG;
    for (i = 0; i < (int)(sizeof t / sizeof t[0]); i++)
        if (rfl_parse_name_eq(name, t[i].n)) { *out = t[i].d; return RFL_OK; }
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
    rfl__err_clear(&net->err);
    if (!layers || cap < 1) return net->err.code = RFL_ERR_ARG;
    net->layers = layers;
    net->cap = cap;
    net->names = names_size ? names : (char *)0;
    net->names_size = names ? names_size : 0;
    return RFL_OK;
}

/* Record the first error (where: "layer N (what in scope)"; the message
   stays "": the result's name says it); always returns RFL_NO_TENSOR. */
static rfl_tensor rfl__ly_fail(rfl_net *net, rfl_result r, const char *what) {
    if (net && net->err.code == RFL_OK) {
        rfl__sb s = rfl__sb_make(net->err.where, sizeof net->err.where);
        net->err.code = r;
        net->err.index = net->count;
        rfl__sb_s(&s, "layer ");
        rfl__sb_u64(&s, (uint64_t)net->count);
        rfl__sb_s(&s, " (");
        rfl__sb_s(&s, what);
        if (net->scope_len) rfl__sb_s(&s, " in "), rfl__sb_s(&s, net->scope);
        rfl__sb_s(&s, ")");
    }
    return RFL_NO_TENSOR;
}

RFL_API void rfl_scope_push(rfl_net *net, const char *part) {
    size_t n, need;
    if (!net || !part || net->err.code) return;
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
    if (!net || net->err.code) return; /* after an error the scope says where */
    while (net->scope_len && net->scope[net->scope_len - 1] != '.') net->scope_len--;
    if (net->scope_len) net->scope_len--;
    net->scope[net->scope_len] = 0;
}

RFL_API rfl_tensor rfl_layer_name(rfl_net *net, rfl_tensor t, const char *name) {
    size_t n, need, sep;
    char *dst;
    if (!net || net->err.code || t < 0 || t >= net->count || !name) return t;
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
    int bad_arg;
    if (!net || net->err.code) return (rfl_layer *)0;
    bad_arg = !net->layers || (op != RFL_OP_INPUT && net->count == 0) || /* the input first */
              (ninputs > 0 && (a < 0 || a >= net->count)) ||
              (ninputs > 1 && (b < 0 || b >= net->count));
    if (bad_arg || net->count >= net->cap) {
        rfl__ly_fail(net, bad_arg ? RFL_ERR_ARG : RFL_ERR_BUFFER, rfl__ly_op_names[op]);
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
    L->rank = x->rank;
    RFL_MEMCPY(L->shape, x->shape, sizeof L->shape);
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
        if (!rfl__ly_acc(&L->params, co) || !rfl__ly_mul4(co, oh, ow, 1, &b) ||
            !rfl__ly_acc(&L->flops, b))
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
        if (!rfl__ly_acc(&L->params, out_features) ||
            !rfl__ly_mul64(tokens, out_features, &L->bias_flops) ||
            !rfl__ly_acc(&L->flops, L->bias_flops))
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
    uint64_t lq, lk, d, dv, s, m1, m2, sc, g;
    if (!L) return RFL_NO_TENSOR;
    if (v < 0 || v >= net->count) return rfl__ly_fail(net, RFL_ERR_ARG, "attention");
    Q = rfl__ly_in(net, q), K = rfl__ly_in(net, k), V = rfl__ly_in(net, v);
    if (V->needs_grad) L->needs_grad = 1;
    if (Q->rank != 2 || K->rank != 2 || V->rank != 2 || !heads)
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "attention");
    lq = Q->shape[0], d = Q->shape[1], lk = K->shape[0], dv = V->shape[1];
    /* grouped k and v (GQA, MQA): d / K width query heads share each kv
       head, repeated as repeat_kv does; g = 1 is plain multi-head */
    g = K->shape[1] <= d ? d / K->shape[1] : 0;
    if (!g || d % K->shape[1] || heads % g || V->shape[0] != lk || d % heads || dv % (heads / g) ||
        !rfl__ly_dim(dv * g, &L->shape[1]))
        return rfl__ly_fail(net, RFL_ERR_SHAPE, "attention");
    dv *= g;
    L->rank = 2;
    L->shape[0] = (uint32_t)lq;
    /* q k^T: 2 lq lk d; probabilities x v: 2 lq lk dv; the scores get a
       scale (1) and a softmax (5) per element, per head */
    if (!rfl__ly_mul4(lq, lk, d, 2, &m1) || !rfl__ly_mul4(lq, lk, dv, 2, &m2) ||
        !rfl__ly_add64(m1, m2, &L->mac_flops) || !rfl__ly_mul4(lq, lk, heads, 6, &sc) ||
        !rfl__ly_add64(L->mac_flops, sc, &L->flops) ||
        !rfl__ly_add64(Q->out_numel, K->out_numel, &s) || !rfl__ly_add64(s, V->out_numel, &L->in_numel))
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "attention");
    L->arg[0] = heads, L->arg[1] = (uint32_t)(heads / g); /* kv heads */
    return rfl__ly_commit(net, L);
}

#ifndef RFL_NO_LLM
RFL_API rfl_tensor rfl_causal(rfl_net *net, rfl_tensor t, uint32_t window) {
    if (!net || net->err.code) return RFL_NO_TENSOR;
    if (t < 0 || t >= net->count || net->layers[t].op != RFL_OP_ATTENTION ||
        net->layers[t].shape[0] > net->layers[net->layers[t].in[1]].shape[0])
        return rfl__ly_fail(net, RFL_ERR_ARG, "causal");
    net->layers[t].arg[2] = 1, net->layers[t].arg[3] = window;
    return t;
}
#endif

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
    return net && !net->err.code && net->layers && x >= 0 && x < net->count;
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
    if (!net || net->err.code) return RFL_NO_TENSOR;
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
        if (!rfl__ly_acc(&in, X->out_numel)) return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "concat");
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
    /* torch's class of each op as a module; functional ops by their call */
    static const char *const cls[RFL_OP_COUNT] = {
        "Input", "Parameter", "Conv2d", "Linear", "matmul", "attention", "BatchNorm2d",
        "LayerNorm", "?", "Softmax", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "add",
        "mul", "cat", "channel_shuffle", "flatten", "reshape", "transpose", "slice", "Dropout",
        "Embedding", "Module"};
    const rfl_layer *L;
    int module;
    if (!net || i < 0 || i >= net->count || net->layers[i].op >= RFL_OP_COUNT) return "?";
    L = &net->layers[i];
    module = (L->flags & RFL_LF_MODULE) != 0;
    if (L->cls) return L->cls; /* a mark's class, or one a model set */
    switch (L->op) {
    case RFL_OP_ACT:
        if (!module) return rfl_act_name((rfl_act_kind)L->arg[0]);
        return L->arg[0] < RFL_ACT_COUNT ? rfl__ly_act_cls[L->arg[0]] : "?";
    case RFL_OP_ADAPTIVE_AVGPOOL: return module ? cls[L->op] : "adaptive_avg_pool2d";
    case RFL_OP_LINEAR: return module ? cls[L->op] : "linear";
    case RFL_OP_BATCHNORM: return L->rank == 3 ? "BatchNorm2d" : "BatchNorm1d";
    case RFL_OP_FLATTEN: return module ? "Flatten" : "flatten";
    default: return cls[L->op];
    }
}

static size_t rfl__ly_cat(char *buf, size_t size, size_t pos, const char *s) {
    while (*s) pos = rfl__put(buf, size, pos, *s++);
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
    return rfl__finish(buf, size, pos);
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
    return rfl__finish(buf, size, pos);
}

/* ---- costs ------------------------------------------------------------------------
   The formulas; the manual's LAYERS section says the same in words. */

/* n elements of `bits` bits in whole bytes (int4: two per byte), checked. */
static int rfl__ly_store(uint64_t n, int bits, uint64_t *out) {
    uint64_t whole;
    return rfl__ly_mul64(n / 8, (uint64_t)bits, &whole) &&
           rfl__ly_add64(whole, ((n % 8) * (uint64_t)bits + 7) / 8, out);
}

/* Bits of each role under d: math, weights, kv, activations. */
typedef struct rfl__ly_bits { int math, w, kv, act; } rfl__ly_bits;
static rfl__ly_bits rfl__ly_roles(const rfl_cost_desc *d) {
    rfl__ly_bits b;
    rfl_dtype m = d ? d->dtype : RFL_DTYPE_DEFAULT;
    b.math = rfl_dtype_bits(m);
    b.w = d && d->weights ? rfl_dtype_bits(d->weights) : b.math;
    b.kv = d && d->kv ? rfl_dtype_bits(d->kv) : b.math;
    b.act = d && d->act ? rfl_dtype_bits(d->act) : b.math;
    return b;
}

/* Bias elements of a layer's params (kept at the math type). */
static uint64_t rfl__ly_bias_params(const rfl_layer *L) {
    if (!(L->flags & RFL_LF_BIAS)) return 0;
    if (L->op == RFL_OP_CONV2D) return L->shape[0];
    return L->op == RFL_OP_LINEAR ? L->shape[L->rank - 1] : 0;
}

/* Bytes of n of L's parameters (n = L->params or the rows read): weight
   matrices and tables at the weights type, biases and the rest (norm
   scales, class tokens) at the math type. */
static int rfl__ly_param_store(const rfl_layer *L, uint64_t n, const rfl__ly_bits *b,
                               uint64_t *out) {
    uint64_t bias = rfl__ly_bias_params(L), w, x;
    rfl_op op = (rfl_op)L->op;
    if (op != RFL_OP_CONV2D && op != RFL_OP_LINEAR && op != RFL_OP_EMBEDDING)
        return rfl__ly_store(n, b->math, out);
    if (bias > n) bias = n;
    return rfl__ly_store(n - bias, b->w, &w) && rfl__ly_store(bias, b->math, &x) &&
           rfl__ly_add64(w, x, out);
}

#ifndef RFL_NO_LLM
/* Causal (query, key) pairs of one sequence: query i of lq (at position
   p + i, p = lk - lq cached keys before it) sees p + i + 1 keys, or the
   window's W: the first a = clamp(W - p, 0, lq) see p + i + 1, the rest W. */
static int rfl__ly_causal_pairs(uint64_t lq, uint64_t lk, uint64_t W, uint64_t *out) {
    uint64_t p = lk - lq, a = lq, t, u;
    if (W && W < lk) a = W > p ? W - p : 0;
    /* a p + a (a + 1) / 2 + (lq - a) W, halving the even factor */
    if (!rfl__ly_mul64(a, p, &t)) return 0;
    if (!(a % 2 ? rfl__ly_mul64(a, (a + 1) / 2, &u) : rfl__ly_mul64(a / 2, a + 1, &u)))
        return 0;
    return rfl__ly_acc(&t, u) && rfl__ly_mul64(lq - a, W, &u) && rfl__ly_add64(t, u, out);
}

/* A causal attention's count under d (per sample): its matrix FLOPs and
   all FLOPs (6 per score and head: scale and softmax), and the KV
   positions read (the window's). 0 when the record keeps its eager count. */
static int rfl__ly_causal(const rfl_net *net, const rfl_layer *L, const rfl_cost_desc *d,
                          uint64_t *mma, uint64_t *all, uint64_t *kv_pos) {
    const rfl_layer *Q, *K;
    uint64_t pairs, sc, lk;
    if (!d || !d->causal || L->op != RFL_OP_ATTENTION || !L->arg[2]) return 0;
    Q = &net->layers[L->in[0]], K = &net->layers[L->in[1]], lk = K->shape[0];
    *kv_pos = L->arg[3] && L->arg[3] < lk ? L->arg[3] : lk;
    if (!rfl__ly_causal_pairs(L->shape[0], lk, L->arg[3], &pairs) ||
        !rfl__ly_mul4(pairs, 2, (uint64_t)Q->shape[1] + L->shape[1], 1, mma) ||
        !rfl__ly_mul4(pairs, L->arg[0], 6, 1, &sc) || !rfl__ly_add64(*mma, sc, all))
        return -1;
    return 1;
}
#else
/* Without the LLMs no record is causal (only their builder marks one). */
static int rfl__ly_causal(const rfl_net *net, const rfl_layer *L, const rfl_cost_desc *d,
                          uint64_t *mma, uint64_t *all, uint64_t *kv_pos) {
    (void)net, (void)L, (void)d, (void)mma, (void)all, (void)kv_pos;
    return 0;
}
#endif

/* Forward bytes of L at the batch (in, o: elements read and written; w:
   params read): by role. A cache write writes the KV type; attention
   over a KV-cache input reads it (the window's positions when causal).
   role[3]: the weights, KV-read and KV-write parts (LLM part only). */
static int rfl__ly_fwd_bytes(const rfl_net *net, const rfl_layer *L, const rfl__ly_bits *b,
                             uint64_t B, uint64_t in, uint64_t o, uint64_t w, uint64_t kv_pos,
                             uint64_t *out, uint64_t *role) {
    uint64_t kv = 0, t, u, x;
    int ob = L->kv_cache ? b->kv : b->act, ia = b->act;
#ifdef RFL_NO_LLM
    (void)net, (void)B, (void)kv_pos, (void)role; /* no KV-cache records, no experts: the LLMs' alone */
#else
    if (L->op == RFL_OP_ATTENTION && net->layers[L->in[1]].kv_cache) {
        const rfl_layer *K = &net->layers[L->in[1]];
        uint64_t all_kv = 2 * K->out_numel; /* k and v: the same shape */
        if (!rfl__ly_mul64(all_kv, B, &t) || t > in) return 0;
        in -= t;
        if (!rfl__ly_mul4(kv_pos ? kv_pos : K->shape[0], 2 * (uint64_t)K->shape[1], B, 1, &kv))
            return 0;
    }
    if (L->op == RFL_OP_LINEAR && L->arg[0] > 1) {
        /* experts: the R routed token slots reach min(E, R) experts */
        uint64_t E = L->arg[0], R;
        if (!rfl__ly_mul64(net->layers[L->in[0]].shape[0], B, &R) ||
            !rfl__ly_mul64(R < E ? R : E, w / E, &w) || !rfl__ly_param_store(L, w, b, &w))
            return 0;
    } else
#endif
    if (L->op == RFL_OP_EMBEDDING) { /* the gathered rows are the table's; ids int64 */
        if (!rfl__ly_param_store(L, o, b, &w)) return 0;
        ia = 64;
    } else if (!rfl__ly_param_store(L, w, b, &w)) {
        return 0;
    }
    if (!(rfl__ly_store(in, ia, &t) && rfl__ly_store(kv, b->kv, &u) && rfl__ly_acc(&t, u) &&
          rfl__ly_acc(&t, w) && rfl__ly_store(o, ob, &x) && rfl__ly_add64(t, x, out)))
        return 0;
#ifndef RFL_NO_LLM
    role[0] = w, role[1] = u, role[2] = L->kv_cache ? x : 0;
#endif
    return 1;
}
RFL_API rfl_result rfl_layer_cost_get(const rfl_net *net, int i, const rfl_cost_desc *d,
                                      rfl_layer_cost *out) {
    const rfl_layer *L;
    uint64_t B, s, pb, in = 0, o = 0, w, fm = 0, ff = 0, mm = 0, ext = 0, t = 0, ig;
    uint64_t cm = 0, ca = 0, kvp = 0, role[3] = {0, 0, 0};
    rfl__ly_bits bits = rfl__ly_roles(d);
    int ok = 1, train, causal;
    rfl_op op;
    if (!net || !out || i < 0 || i >= net->count || !net->layers) return RFL_ERR_ARG;
    if (d && ((unsigned)d->dtype >= RFL_DTYPE_COUNT || d->dtype == RFL_DTYPE_INT4))
        return RFL_ERR_ARG; /* int4 is a storage type: no int4 roof */
    RFL_MEMSET(out, 0, sizeof *out);
    L = &net->layers[i];
    op = (rfl_op)L->op;
    B = (d && d->batch && !(L->flags & RFL_LF_ONCE)) ? d->batch : 1;
    s = (uint64_t)bits.math / 8;
    train = d && d->mode == RFL_MODE_TRAIN;
    pb = (L->flags & RFL_LF_SHARED) ? 1 : B;
    out->params = L->params;
    if (op == RFL_OP_MARK || op == RFL_OP_PARAM) return RFL_OK;
    /* per batch: input elements, output elements, forward mac and flops */
    ok = rfl__ly_mul64(L->in_numel, B, &in) && rfl__ly_mul64(L->out_numel, pb, &o) &&
         rfl__ly_mul64(L->mac_flops, B, &fm) && rfl__ly_mul64(L->flops, B, &ff);
    if (ok && d && d->convention == RFL_CONV_REPORT) ok = rfl__ly_mul64(L->bias_flops, B, &ext);
    if (!ok) return RFL_ERR_OVERFLOW;
    w = L->params;
    if (op == RFL_OP_EMBEDDING) w = 0; /* only the gathered rows are read */
    mm = fm;
    causal = rfl__ly_causal(net, L, d, &cm, &ca, &kvp);
    if (causal < 0 || (causal && (!rfl__ly_mul64(cm, B, &mm) || !rfl__ly_mul64(ca, B, &ff))))
        return RFL_ERR_OVERFLOW;
    out->fwd_mac_flops = fm + ext;
    out->fwd_flops = ff;
    out->fwd_mma_flops = mm;
    /* forward bytes: read inputs and weights, write the output; views move
       nothing; eval-mode dropout returns its input */
    if (!((L->flags & RFL_LF_VIEW) || op == RFL_OP_INPUT || (op == RFL_OP_DROPOUT && !train)))
        ok = rfl__ly_fwd_bytes(net, L, &bits, B, in, o, w, kvp, &out->fwd_bytes, role);
#ifndef RFL_NO_LLM
    out->fwd_weight_bytes = role[0], out->fwd_kv_read_bytes = role[1];
    out->fwd_kv_write_bytes = role[2];
#else
    (void)role;
#endif
    /* activation memory: every materialised output is kept (the input too) */
    if (!(L->flags & RFL_LF_VIEW))
        ok = ok && rfl__ly_store(o, L->kv_cache ? bits.kv : bits.act, &out->act_bytes);
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
        out->bwd_mma_flops = t;
        /* read grad out, saved input, (weights); write grad weights, (grad in) */
        ok = ok && rfl__ly_add64(o, in, &t) && rfl__ly_acc(&t, w) &&
             (!ig || (rfl__ly_acc(&t, w) && rfl__ly_acc(&t, in)));
        break;
    case RFL_OP_MATMUL:
    case RFL_OP_ATTENTION:
        /* a gradient for each operand: 2 x forward (no recomputation) */
        ok = fm <= (uint64_t)-1 / 2 && ff <= (uint64_t)-1 / 2 && rfl__ly_add64(o, in, &t) &&
             rfl__ly_acc(&t, in);
        out->bwd_mac_flops = ok ? 2 * fm : 0; /* no wrapped value, even with the error */
        out->bwd_flops = ok ? 2 * ff : 0;
        out->bwd_mma_flops = ok ? 2 * mm : 0; /* mm <= ff */
        break;
    case RFL_OP_EMBEDDING:
        /* scatter-add of the output gradient into the table rows */
        out->bwd_flops = o;
        ok = rfl__ly_add64(o, o, &t) && rfl__ly_acc(&t, in);
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
        ok = ff <= (uint64_t)-1 / 2 && rfl__ly_add64(o, in, &t) && rfl__ly_acc(&t, in) &&
             rfl__ly_acc(&t, w);
        out->bwd_flops = ok ? 2 * ff : 0;
        break;
    }
    ok = ok && rfl__ly_mul64(t, s, &out->bwd_bytes);
    return ok ? RFL_OK : RFL_ERR_OVERFLOW;
}


static int rfl__ly_precs(rfl_dtype t, rfl_prec *mm, rfl_prec *ew) {
    static const unsigned char m[RFL_DTYPE_COUNT] = {
        RFL_FP32, RFL_FP32, RFL_FP16_TENSOR, RFL_BF16_TENSOR, RFL_FP8_TENSOR,
        RFL_INT8_TENSOR, RFL_PREC_COUNT, RFL_TF32_TENSOR};
    static const unsigned char e[RFL_DTYPE_COUNT] = {RFL_FP32, RFL_FP32, RFL_FP16, RFL_FP16,
                                                     RFL_FP16, RFL_FP32, RFL_FP32, RFL_FP32};
    if ((unsigned)t >= RFL_DTYPE_COUNT || m[t] == RFL_PREC_COUNT) return 0;
    *mm = (rfl_prec)m[t], *ew = (rfl_prec)e[t];
    return 1;
}
RFL_API rfl_result rfl_dtype_roofs(rfl_dtype t, rfl_prec *matrix, rfl_prec *other) {
    rfl_prec a, b;
    if (!rfl__ly_precs(t, &a, &b)) return RFL_ERR_ARG;
    if (matrix) *matrix = a;
    if (other) *other = b;
    return RFL_OK;
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
    rfl_prec mm = RFL_FP32, ew = RFL_FP32;
    rfl_cost_desc dd;
    rfl_result r;
    if (d) dd = *d;
    else RFL_MEMSET(&dd, 0, sizeof dd);
    dd.convention = RFL_CONV_TORCH; /* works count what the machine runs */
    r = rfl_layer_cost_get(net, i, &dd, &c);
    if (r) return r;
    rfl__ly_precs(dd.dtype, &mm, &ew); /* a math type: rfl_layer_cost_get checked it */
    /* the matrix part of conv/matmul/attention goes to the matrix precision */
    if (fwd) rfl__ly_mkwork(fwd, mm, ew, c.fwd_mma_flops, c.fwd_flops, c.fwd_bytes);
    if (bwd) rfl__ly_mkwork(bwd, mm, ew, c.bwd_mma_flops, c.bwd_flops, c.bwd_bytes);
    return RFL_OK;
}

RFL_API rfl_result rfl_net_cost_get(const rfl_net *net, const rfl_cost_desc *d,
                                    rfl_net_cost *out) {
    rfl_layer_cost c;
    rfl_work fw, bw;
    rfl_result r;
    rfl__ly_bits bits = rfl__ly_roles(d);
    uint64_t pb = 0, st = 0, lb = 0;
    int i, ok = 1;
    if (!net || !out || !net->layers) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    out->forward.unknown = out->backward.unknown =
        RFL_UNKNOWN_BYTES(RFL_L2) | RFL_UNKNOWN_BYTES(RFL_L1) | RFL_UNKNOWN_TIME;
    if (net->err.code) return RFL_ERR_STATE;
    if (net->count < 1) return RFL_ERR_NO_DATA;
    for (i = 0; i < net->count; i++) {
        r = rfl_layer_cost_get(net, i, d, &c);
        if (r) return r;
        r = rfl_layer_work(net, i, d, &fw, &bw);
        if (r) return r;
        ok = ok && rfl__ly_acc(&out->params, c.params) &&
             rfl__ly_acc(&out->fwd_mac_flops, c.fwd_mac_flops) &&
             rfl__ly_acc(&out->fwd_flops, c.fwd_flops) &&
             rfl__ly_acc(&out->fwd_bytes, c.fwd_bytes) &&
             rfl__ly_acc(&out->bwd_mac_flops, c.bwd_mac_flops) &&
             rfl__ly_acc(&out->bwd_flops, c.bwd_flops) &&
             rfl__ly_acc(&out->bwd_bytes, c.bwd_bytes) &&
             rfl__ly_acc(&out->activation_bytes, c.act_bytes);
#ifndef RFL_NO_LLM
        ok = ok && rfl__ly_acc(&out->fwd_weight_bytes, c.fwd_weight_bytes) &&
             rfl__ly_acc(&out->fwd_kv_read_bytes, c.fwd_kv_read_bytes) &&
             rfl__ly_acc(&out->fwd_kv_write_bytes, c.fwd_kv_write_bytes);
#endif
        if (net->layers[i].op == RFL_OP_INPUT) out->input_bytes += c.act_bytes;
        ok = ok && rfl__ly_param_store(&net->layers[i], c.params, &bits, &lb) &&
             rfl__ly_acc(&pb, lb);
        if (net->layers[i].op != RFL_OP_MARK) out->layers++;
        if (net->layers[i].flags & RFL_LF_UNKNOWN_FLOPS) out->unknown_layers++;
        rfl_work_add(&out->forward, &fw);
        rfl_work_add(&out->backward, &bw);
    }
    out->param_bytes = pb; /* at the storage types */
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
    out->unknown_layers = c.unknown_layers;
    for (i = 0; i < net->count; i++) {
        r = rfl_layer_predict(net, i, d, m, &p);
        if (r) return r;
        if (p.time_s <= 0) continue; /* views, marks: no work */
        out->layers_s += p.time_s;
        out->compute_s += p.compute_s;
        out->memory_s += p.memory_s;
        if (net->layers[i].flags & RFL_LF_UNKNOWN_FLOPS) continue; /* its bound is unknown */
        if (p.bound.memory) out->memory_layers++;
        else out->compute_layers++;
    }
    if (d && d->mode == RFL_MODE_TRAIN) rfl_work_add(&c.forward, &c.backward);
    return rfl_predict(m, &c.forward, &out->whole);
}

#ifndef RFL_NO_LLM
/* *mb = memory_s > compute_s of net's records at batch B (gemm_only: of
   the matrix records that read weights). */
static rfl_result rfl__ly_memory_bound(const rfl_net *net, const rfl_cost_desc *d,
                                       const rfl_machine *m, int gemm_only, uint64_t B,
                                       int *mb) {
    rfl_cost_desc dd = *d;
    rfl_layer_cost c;
    rfl_prediction p;
    rfl_result r;
    double cs = 0, ms = 0;
    int i;
    dd.batch = B;
    for (i = 0; i < net->count; i++) {
        if ((r = rfl_layer_cost_get(net, i, &dd, &c)) != RFL_OK) return r;
        if (gemm_only && (!c.fwd_mma_flops || !c.fwd_weight_bytes ||
                          net->layers[i].op == RFL_OP_EMBEDDING))
            continue;
        if ((r = rfl_layer_predict(net, i, &dd, m, &p)) != RFL_OK) return r;
        if (p.time_s <= 0) continue; /* views, marks: no work */
        cs += p.compute_s, ms += p.memory_s;
    }
    *mb = ms > cs;
    return RFL_OK;
}

/* compute / memory grows with the batch (weights are read once, FLOPs
   grow with it), so the first compute-bound batch is found by doubling,
   then bisection. */
RFL_API rfl_result rfl_net_compute_bound_batch(const rfl_net *net, const rfl_cost_desc *d,
                                               const rfl_machine *m, int gemm_only,
                                               uint64_t cap, uint64_t *out) {
    uint64_t lo = 0, hi = 1; /* lo: memory-bound (0: none seen); hi: to test */
    rfl_cost_desc zero;
    rfl_result r;
    int mb = 0;
    if (!net || !net->layers || !m || !out || !cap) return RFL_ERR_ARG;
    *out = 0;
    if (net->err.code) return RFL_ERR_STATE;
    if (!d) RFL_MEMSET(&zero, 0, sizeof zero), d = &zero;
    for (;;) {
        if ((r = rfl__ly_memory_bound(net, d, m, gemm_only, hi, &mb)) != RFL_OK) return r;
        if (!mb) break;
        if (hi >= cap) return RFL_OK; /* memory-bound up to cap */
        lo = hi;
        hi = hi > cap / 2 ? cap : hi * 2;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((r = rfl__ly_memory_bound(net, d, m, gemm_only, mid, &mb)) != RFL_OK) return r;
        if (mb) lo = mid;
        else hi = mid;
    }
    *out = hi;
    return RFL_OK;
}
#endif

/* ---- grouped view ------------------------------------------------------------------ */
/* The group key of record i into key[RFL_GROUP_NAME]. */
static void rfl__ly_group_key(const rfl_net *net, int i, rfl_group_by by, char *key) {
    const char *s = net->layers[i].name;
    size_t n = 0;
#ifndef RFL_NO_LLM
    if (by == RFL_GROUP_KIND && net->layers[i].kind)
        s = rfl_llm_kind_name((rfl_llm_kind)(net->layers[i].kind - 1));
    else
#endif
    if (by != RFL_GROUP_MODULE || !s) s = by != RFL_GROUP_MODULE
        ? rfl_ltype_name(rfl_op_ltype((rfl_op)net->layers[i].op)) : rfl_layer_class(net, i);
    while (*s && n + 1 < RFL_GROUP_NAME) {
        const char *e = s;
        while (*e >= '0' && *e <= '9') e++;
        /* an all-digit part (between dots, or at an end): '*' */
        if (by == RFL_GROUP_MODULE && e > s && (*e == '.' || !*e) &&
            (n == 0 || key[n - 1] == '.')) {
            key[n++] = '*', s = e;
        } else {
            key[n++] = *s++;
        }
    }
    key[n] = 0;
}

static int rfl__ly_streq(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}
static int rfl__ly_grouped(const rfl_layer *L) {
    return L->op != RFL_OP_MARK && L->op != RFL_OP_INPUT;
}
/* 1 when a record before i has i's key (a group counted, not written). */
static int rfl__ly_seen(const rfl_net *net, int i, rfl_group_by by, const char *key) {
    char k2[RFL_GROUP_NAME];
    int j;
    for (j = 0; j < i; j++) {
        if (!rfl__ly_grouped(&net->layers[j])) continue;
        rfl__ly_group_key(net, j, by, k2);
        if (rfl__ly_streq(k2, key)) return 1;
    }
    return 0;
}

static int rfl__ly_group_add(rfl_group_cost *g, const rfl_layer_cost *c, const rfl_work *fw,
                             const rfl_work *bw, const rfl_prediction *p) {
    g->count++;
    rfl_work_add(&g->forward, fw);
    rfl_work_add(&g->backward, bw);
    if (p) g->time_s += p->time_s, g->compute_s += p->compute_s, g->memory_s += p->memory_s;
#ifndef RFL_NO_LLM
    if (!rfl__ly_acc(&g->fwd_weight_bytes, c->fwd_weight_bytes) ||
        !rfl__ly_acc(&g->fwd_kv_read_bytes, c->fwd_kv_read_bytes) ||
        !rfl__ly_acc(&g->fwd_kv_write_bytes, c->fwd_kv_write_bytes))
        return 0;
#endif
    return rfl__ly_acc(&g->params, c->params) &&
           rfl__ly_acc(&g->fwd_mac_flops, c->fwd_mac_flops) &&
           rfl__ly_acc(&g->fwd_flops, c->fwd_flops) &&
           rfl__ly_acc(&g->fwd_mma_flops, c->fwd_mma_flops) &&
           rfl__ly_acc(&g->fwd_bytes, c->fwd_bytes) &&
           rfl__ly_acc(&g->bwd_flops, c->bwd_flops) &&
           rfl__ly_acc(&g->bwd_bytes, c->bwd_bytes);
}

RFL_API int rfl_net_group(const rfl_net *net, const rfl_cost_desc *d, rfl_group_by by,
                          const rfl_machine *m, rfl_group_cost *groups, int cap) {
    char key[RFL_GROUP_NAME];
    int i, j, n = 0;
    if (!net || !net->layers || net->err.code || (groups && cap < 0)) return -1;
    if (!groups) cap = 0;
    for (i = 0; i < net->count; i++) {
        rfl_layer_cost c;
        rfl_work fw, bw;
        rfl_prediction p;
        const rfl_layer *L = &net->layers[i];
        if (!rfl__ly_grouped(L)) continue;
        if (rfl_layer_cost_get(net, i, d, &c) || rfl_layer_work(net, i, d, &fw, &bw)) return -1;
        rfl__ly_group_key(net, i, by, key);
        for (j = 0; j < n && j < cap && !rfl__ly_streq(groups[j].name, key); j++) {}
        if (j == cap || j == n) { /* not among the written groups */
            if (j < n && rfl__ly_seen(net, i, by, key)) continue; /* an unwritten one */
            if (n++ >= cap) continue; /* counted, not written */
            RFL_MEMSET(&groups[j], 0, sizeof groups[j]);
            RFL_MEMCPY(groups[j].name, key, rfl__strlen(key) + 1);
            groups[j].ltype = (int)rfl_op_ltype((rfl_op)L->op);
            groups[j].kind = L->kind;
            groups[j].forward.unknown = groups[j].backward.unknown = fw.unknown;
        }
        RFL_MEMSET(&p, 0, sizeof p);
        if (m && (fw.bytes[RFL_DRAM] > 0 || rfl_work_flops(&fw) > 0) &&
            rfl_layer_predict(net, i, d, m, &p))
            return -1;
        if (!rfl__ly_group_add(&groups[j], &c, &fw, &bw, m && p.time_s > 0 ? &p : 0)) return -1;
    }
    return n;
}

/* ---- torchsummary ------------------------------------------------------------------ */
RFL_API rfl_result rfl_net_summary(const rfl_net *net, rfl_summary *out) {
    double outs = 0, in = 0;
    int i;
    if (!net || !out || !net->layers) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    if (net->err.code) return RFL_ERR_STATE;
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


/* ==========================================================================
   [7]  TRANSFORMERS
   decoder LLMs as layer records; phases; the HF config reader (RFL_NO_LLM)
   ========================================================================== */
#ifndef RFL_NO_LLM
/* ---- names and sizes ----------------------------------------------------------- */
RFL_API const char *rfl_llm_kind_name(rfl_llm_kind k) {
    static const char *const n[RFL_LLM_KIND_COUNT] = {"embedding", "attention", "mlp",
                                                       "lm_head", "norm", "elementwise"};
    return (unsigned)k < RFL_LLM_KIND_COUNT ? n[k] : "?";
}

static int rfl__llm_is_gpt2(const rfl_llm_config *c) { return c->pos == RFL_LLM_POS_LEARNED; }

/* Bit l of a per-layer mask (none beyond RFL_LLM_MASK_LAYERS). */
static int rfl__llm_bit(const uint8_t *mask, uint32_t l) {
    return l < RFL_LLM_MASK_LAYERS && (mask[l / 8] >> (l % 8) & 1);
}
/* Layer l attends through the sliding window. */
static int rfl__llm_layer_slides(const rfl_llm_config *c, uint32_t l) {
    return c->sliding_window && !rfl__llm_bit(c->layer_full, l);
}
/* Layer l's MLP is the experts. */
static int rfl__llm_layer_moe(const rfl_llm_config *c, uint32_t l) {
    return c->experts && !rfl__llm_bit(c->layer_dense, l);
}
/* Elements the cache keeps per token and layer: K and V of every kv head. */
static uint64_t rfl__llm_cache_width(const rfl_llm_config *c) {
    return 2 * (uint64_t)c->kv_heads * c->head_dim;
}

/* The step's sizes, with a sticky overflow flag for checked arithmetic. */
typedef struct rfl__llm_ctx {
    uint64_t B, T, P, Hq, Hk, hd, L;
    int kbits, ok;
} rfl__llm_ctx;

static uint64_t rfl__lm_mul(rfl__llm_ctx *x, uint64_t a, uint64_t b) {
    uint64_t r = 0;
    if (!rfl__ly_mul64(a, b, &r)) x->ok = 0;
    return r;
}
static uint64_t rfl__lm_add(rfl__llm_ctx *x, uint64_t a, uint64_t b) {
    uint64_t r = 0;
    if (!rfl__ly_add64(a, b, &r)) x->ok = 0;
    return r;
}

/* d's sizes after the config's and the step's checks: the math type
   (d->math, fp32 when 0) must have a roof, the phase and types be valid,
   B x T and P + T fit 64 bits, a learned-position model's table hold
   P + T positions. */
static rfl_result rfl__llm_ctx_init(rfl__llm_ctx *x, const rfl_llm_config *c,
                                    const rfl_llm_step_desc *d) {
    rfl_dtype m;
    rfl_result r = rfl_llm_config_check(c, (rfl_error *)0);
    if (r) return r;
    if (!d || (unsigned)d->math >= RFL_DTYPE_COUNT ||
        (unsigned)d->weights >= RFL_DTYPE_COUNT || (unsigned)d->kv >= RFL_DTYPE_COUNT ||
        (d->phase != RFL_LLM_PREFILL && d->phase != RFL_LLM_DECODE))
        return RFL_ERR_ARG;
    m = d->math == RFL_DTYPE_DEFAULT ? RFL_DTYPE_FP32 : d->math;
    if (m == RFL_DTYPE_INT4) return RFL_ERR_ARG; /* no int4 math roof */
    RFL_MEMSET(x, 0, sizeof *x);
    x->ok = 1;
    x->B = d->batch ? d->batch : 1;
    if (d->phase == RFL_LLM_DECODE) x->T = 1, x->P = d->seq;
    else x->T = d->seq ? d->seq : 1, x->P = 0;
    rfl__lm_mul(x, x->B, x->T);
    x->Hq = c->heads, x->Hk = c->kv_heads, x->hd = c->head_dim, x->L = c->layers;
    x->kbits = rfl_dtype_bits(d->kv ? d->kv : m);
    /* learned positions have a table of max_positions rows */
    if (c->pos == RFL_LLM_POS_LEARNED && rfl__lm_add(x, x->P, x->T) > c->max_positions)
        return RFL_ERR_SHAPE;
    rfl__lm_add(x, x->P, x->T); /* P + T must fit too */
    return x->ok ? RFL_OK : RFL_ERR_OVERFLOW;
}

/* Parameters of one block, its weights and its dims: every count of a
   step at a token is of their order, so a config whose fp32 parameter
   bytes fit 64 bits is countable (rfl_llm_config_parse). 0 on overflow. */
static int rfl__llm_countable(const rfl_llm_config *c) {
    rfl__llm_ctx x;
    uint64_t D = c->hidden, q, kv, blk, mlp, all;
    RFL_MEMSET(&x, 0, sizeof x);
    x.ok = 1;
    q = rfl__lm_mul(&x, c->heads, c->head_dim), kv = rfl__lm_mul(&x, c->kv_heads, c->head_dim);
    blk = rfl__lm_mul(&x, D, rfl__lm_add(&x, rfl__lm_mul(&x, 2, q), rfl__lm_mul(&x, 2, kv)));
    mlp = rfl__lm_mul(&x, rfl__lm_mul(&x, D, c->intermediate), c->gated ? 3 : 2);
    if (c->experts) mlp = rfl__lm_add(&x, rfl__lm_mul(&x, mlp, c->experts), rfl__lm_mul(&x, D, c->experts));
    blk = rfl__lm_add(&x, rfl__lm_add(&x, blk, mlp), rfl__lm_mul(&x, 8, D));
    all = rfl__lm_add(&x, rfl__lm_mul(&x, blk, c->layers),
                      rfl__lm_mul(&x, rfl__lm_add(&x, rfl__lm_mul(&x, 2, c->vocab), c->max_positions), D));
    rfl__lm_mul(&x, all, 4);
    return x.ok;
}

/* ---- configs: built-in, checked ----------------------------------------------------- */
#define RFL__LLM_MSG(s) RFL__MSG(s)

/* Published config.json values (the files at
   https://huggingface.co/<repo>/blob/main/config.json):
   openai-community/gpt2, gpt2-medium, gpt2-large, gpt2-xl;
   meta-llama/Llama-2-7b-hf (MHA), Llama-3.2-1B, Llama-3.2-3B, Meta-Llama-3-8B,
   Meta-Llama-3-70B; Qwen/Qwen2.5-0.5B, Qwen2.5-1.5B, Qwen2.5-7B
   (use_sliding_window false);
   mistralai/Mistral-7B-v0.1 (sliding_window 4096), Mixtral-8x7B-v0.1. */
typedef struct rfl__llm_builtin {
    const char *name, *type;
    uint32_t hidden, layers, heads, kv_heads, head_dim, inter, vocab, max_pos, experts, ept,
        window;
    uint8_t tied, qkv_bias;
} rfl__llm_builtin;
static const rfl__llm_builtin rfl__llm_builtins[] = {
    {"gpt2", "gpt2", 768, 12, 12, 12, 64, 3072, 50257, 1024, 0, 0, 0, 1, 1},
    {"gpt2-medium", "gpt2", 1024, 24, 16, 16, 64, 4096, 50257, 1024, 0, 0, 0, 1, 1},
    {"gpt2-large", "gpt2", 1280, 36, 20, 20, 64, 5120, 50257, 1024, 0, 0, 0, 1, 1},
    {"gpt2-xl", "gpt2", 1600, 48, 25, 25, 64, 6400, 50257, 1024, 0, 0, 0, 1, 1},
    {"llama-2-7b", "llama", 4096, 32, 32, 32, 128, 11008, 32000, 4096, 0, 0, 0, 0, 0},
    {"llama-3.2-1b", "llama", 2048, 16, 32, 8, 64, 8192, 128256, 131072, 0, 0, 0, 1, 0},
    {"llama-3.2-3b", "llama", 3072, 28, 24, 8, 128, 8192, 128256, 131072, 0, 0, 0, 1, 0},
    {"llama-3-8b", "llama", 4096, 32, 32, 8, 128, 14336, 128256, 8192, 0, 0, 0, 0, 0},
    {"llama-3-70b", "llama", 8192, 80, 64, 8, 128, 28672, 128256, 8192, 0, 0, 0, 0, 0},
    {"qwen2.5-0.5b", "qwen2", 896, 24, 14, 2, 64, 4864, 151936, 32768, 0, 0, 0, 1, 1},
    {"qwen2.5-1.5b", "qwen2", 1536, 28, 12, 2, 128, 8960, 151936, 131072, 0, 0, 0, 1, 1},
    {"qwen2.5-7b", "qwen2", 3584, 28, 28, 4, 128, 18944, 152064, 131072, 0, 0, 0, 0, 1},
    {"mistral-7b", "mistral", 4096, 32, 32, 8, 128, 14336, 32000, 32768, 0, 0, 4096, 0, 0},
    {"mixtral-8x7b", "mixtral", 4096, 32, 32, 8, 128, 14336, 32000, 32768, 8, 2, 0, 0, 0}};
#define RFL__LLM_NBUILTIN ((int)(sizeof rfl__llm_builtins / sizeof rfl__llm_builtins[0]))

static void rfl__llm_copy_type(rfl_llm_config *c, const char *t) {
    size_t n = rfl__strlen(t);
    if (n >= sizeof c->model_type) n = sizeof c->model_type - 1;
    RFL_MEMCPY(c->model_type, t, n);
    c->model_type[n] = 0;
}
/* 0: gpt2, 1: read as the Llama family is (hidden_size, ...), -1: unknown. */
static int rfl__llm_family(const char *t) {
    static const char *const llama_like[] = {
        "llama", "mistral", "qwen2", "mixtral", "qwen3", "qwen3_moe", "gemma2", "gemma3_text",
        "phi3", "deepseek_v2", "deepseek_v3", "olmo2", "gpt_oss", "gpt_neox"};
    size_t i;
    if (rfl_parse_name_eq(t, "gpt2")) return 0;
    for (i = 0; i < sizeof llama_like / sizeof llama_like[0]; i++)
        if (rfl_parse_name_eq(t, llama_like[i])) return 1;
    return -1;
}
/* A family's defaults for everything but the sizes. */
static void rfl__llm_family_defaults(rfl_llm_config *c, int gpt2) {
    c->norm = (uint8_t)(gpt2 ? RFL_LLM_LAYERNORM : RFL_LLM_RMSNORM);
    c->pos = (uint8_t)(gpt2 ? RFL_LLM_POS_LEARNED : RFL_LLM_POS_ROTARY);
    c->act = (uint8_t)(gpt2 ? RFL_ACT_GELU : RFL_ACT_SILU);
    c->gated = (uint8_t)!gpt2;
    c->qkv_bias = c->o_bias = c->mlp_bias = (uint8_t)gpt2;
}

RFL_API int rfl_llm_count(void) { return RFL__LLM_NBUILTIN; }
RFL_API const char *rfl_llm_name(int i) {
    return i >= 0 && i < RFL__LLM_NBUILTIN ? rfl__llm_builtins[i].name : (const char *)0;
}
RFL_API rfl_result rfl_llm_find(const char *name, rfl_llm_config *out) {
    int i;
    if (!name || !out) return RFL_ERR_ARG;
    for (i = 0; i < RFL__LLM_NBUILTIN; i++) {
        const rfl__llm_builtin *b = &rfl__llm_builtins[i];
        if (!rfl_parse_name_eq(name, b->name)) continue;
        RFL_MEMSET(out, 0, sizeof *out);
        rfl__llm_copy_type(out, b->type);
        rfl__llm_family_defaults(out, rfl__llm_family(b->type) == 0);
        out->hidden = b->hidden, out->layers = b->layers, out->heads = b->heads;
        out->kv_heads = b->kv_heads, out->head_dim = b->head_dim, out->intermediate = b->inter;
        out->vocab = b->vocab, out->max_positions = b->max_pos, out->experts = b->experts;
        out->experts_per_tok = b->ept, out->sliding_window = b->window;
        out->tied = b->tied;
        out->qkv_bias = (uint8_t)(out->qkv_bias | b->qkv_bias);
        /* GPT-2's published config names no torch_dtype */
        out->dtype = (uint8_t)(rfl__llm_family(b->type) == 0 ? RFL_DTYPE_DEFAULT : RFL_DTYPE_BF16);
        return RFL_OK;
    }
    return RFL_ERR_UNKNOWN_NAME;
}

static rfl_result rfl__llm_bad(rfl_error *err, rfl_result r, const char *field,
                               const char *msg) {
    if (err) rfl__err_where(err, field), rfl__err_set(err, r, msg);
    return r;
}

RFL_API rfl_result rfl_llm_config_check(const rfl_llm_config *c, rfl_error *err) {
    int fam, g;
    if (err) rfl__err_clear(err);
    if (!c) return rfl__llm_bad(err, RFL_ERR_ARG, "", "");
    fam = rfl__llm_family(c->model_type);
    if (fam < 0) return rfl__llm_bad(err, RFL_ERR_UNSUPPORTED, "model_type", RFL__LLM_MSG("unknown model_type"));
    g = fam == 0;
#define RFL__LLM_NZ(v, k2, kh)                                                                 \
    if (!(v)) return rfl__llm_bad(err, RFL_ERR_SHAPE, g ? k2 : kh, RFL__LLM_MSG("must be at least 1"))
    RFL__LLM_NZ(c->hidden, "n_embd", "hidden_size");
    RFL__LLM_NZ(c->layers, "n_layer", "num_hidden_layers");
    RFL__LLM_NZ(c->heads, "n_head", "num_attention_heads");
    RFL__LLM_NZ(c->kv_heads, "n_head", "num_key_value_heads");
    RFL__LLM_NZ(c->head_dim, "n_embd", "head_dim");
    RFL__LLM_NZ(c->intermediate, "n_inner", "intermediate_size");
    RFL__LLM_NZ(c->vocab, "vocab_size", "vocab_size");
#undef RFL__LLM_NZ
    if (c->heads % c->kv_heads)
        return rfl__llm_bad(err, RFL_ERR_SHAPE, "num_key_value_heads", RFL__LLM_MSG("does not divide num_attention_heads"));
    if (c->pos == RFL_LLM_POS_LEARNED && !c->max_positions)
        return rfl__llm_bad(err, RFL_ERR_SHAPE, "n_positions", RFL__LLM_MSG("must be at least 1"));
    if (c->experts && (!c->experts_per_tok || c->experts_per_tok > c->experts))
        return rfl__llm_bad(err, RFL_ERR_SHAPE, "num_experts_per_tok", RFL__LLM_MSG("must be from 1 to num_local_experts"));
    if (c->norm > RFL_LLM_RMSNORM || c->pos > RFL_LLM_POS_ROTARY || c->act >= RFL_ACT_COUNT ||
        c->dtype >= RFL_DTYPE_COUNT)
        return rfl__llm_bad(err, RFL_ERR_ARG, "", RFL__LLM_MSG("norm, pos, act or dtype out of range"));
    return RFL_OK;
}

/* ---- the Hugging Face config reader ------------------------------------------------ */
/* The reader's state; the first error goes to doc.err. */
typedef struct rfl__hf {
    rfl_json_doc doc;
    int gpt2;
} rfl__hf;

/* The error's place: token tok's value (the root when tok < 0). */
static rfl_result rfl__hf_at(rfl__hf *h, int tok) {
    size_t i, off = tok >= 0 ? h->doc.t[tok].start : 0;
    rfl_error *e = &h->doc.err;
    if (tok >= 0 && h->doc.t[tok].type == RFL_JSON_STR && off) off--; /* the quote */
    e->offset = off, e->line = 1, e->col = 1;
    for (i = 0; i < off && i < h->doc.len; i++) {
        if (h->doc.src[i] == '\n') e->line++, e->col = 1;
        else e->col++;
    }
    return e->code;
}

/* Record an error at token tok (the root when tok < 0). */
static rfl_result rfl__hf_fail(rfl__hf *h, int tok, rfl_result r, const char *field,
                               const char *msg) {
    rfl__err_where(&h->doc.err, field);
    rfl__err_set(&h->doc.err, r, msg);
    return rfl__hf_at(h, tok);
}

/* A whole number in [0, 2^32) at key; absent or null: *out = def, or
   RFL_ERR_MISSING when required. */
static rfl_result rfl__hf_u32(rfl__hf *h, const char *key, int required, uint32_t def,
                              uint32_t *out) {
    int t = rfl_json_get(&h->doc, 0, key);
    double v;
    if (t < 0 || h->doc.t[t].type == RFL_JSON_NULL) {
        *out = def;
        return required ? rfl__hf_fail(h, -1, RFL_ERR_MISSING, key, RFL__LLM_MSG("required field is missing"))
                        : RFL_OK;
    }
    if (!rfl_json_num(&h->doc, t, &v))
        return rfl__hf_fail(h, t, RFL_ERR_NUMBER, key, RFL__LLM_MSG("not a number"));
    if (v < 0) return rfl__hf_fail(h, t, RFL_ERR_NUMBER, key, RFL__LLM_MSG("negative"));
    if (v > 4294967295.0) return rfl__hf_fail(h, t, RFL_ERR_OVERFLOW, key, RFL__LLM_MSG("larger than 2^32 - 1"));
    if ((double)(uint32_t)v != v)
        return rfl__hf_fail(h, t, RFL_ERR_NUMBER, key, RFL__LLM_MSG("not a whole number"));
    *out = (uint32_t)v;
    return RFL_OK;
}

/* true / false at key; absent or null: def. */
static rfl_result rfl__hf_bool(rfl__hf *h, const char *key, uint8_t def, uint8_t *out) {
    int t = rfl_json_get(&h->doc, 0, key);
    *out = def;
    if (t < 0 || h->doc.t[t].type == RFL_JSON_NULL) return RFL_OK;
    if (h->doc.t[t].type == RFL_JSON_TRUE) *out = 1;
    else if (h->doc.t[t].type == RFL_JSON_FALSE) *out = 0;
    else return rfl__hf_fail(h, t, RFL_ERR_FORMAT, key, RFL__LLM_MSG("not true or false"));
    return RFL_OK;
}

/* The activation (hidden_act / activation_function), if present. */
static rfl_result rfl__hf_act(rfl__hf *h, rfl_llm_config *c) {
    static const char *const gelu[] = {"gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_fast"};
    const char *key = h->gpt2 ? "activation_function" : "hidden_act";
    int t = rfl_json_get(&h->doc, 0, key), i;
    if (t < 0 || h->doc.t[t].type == RFL_JSON_NULL) return RFL_OK;
    for (i = 0; i < 4; i++)
        if (rfl_json_str_eq(&h->doc, t, gelu[i])) { c->act = RFL_ACT_GELU; return RFL_OK; }
    if (rfl_json_str_eq(&h->doc, t, "silu") || rfl_json_str_eq(&h->doc, t, "swish")) {
        c->act = RFL_ACT_SILU;
        return RFL_OK;
    }
    return rfl__hf_fail(h, t, RFL_ERR_UNSUPPORTED, key, RFL__LLM_MSG("unknown activation"));
}

/* torch_dtype (or transformers 5's dtype): the model's own type. */
static void rfl__hf_dtype(rfl__hf *h, rfl_llm_config *c) {
    char b[16];
    rfl_dtype t;
    int k = rfl_json_get(&h->doc, 0, "torch_dtype");
    if (k < 0) k = rfl_json_get(&h->doc, 0, "dtype");
    if (k >= 0 && rfl_json_str(&h->doc, k, b, sizeof b) && rfl_dtype_parse(b, &t) == RFL_OK)
        c->dtype = (uint8_t)t;
}

static rfl_result rfl__hf_gpt2(rfl__hf *h, rfl_llm_config *c) {
    rfl_result r;
    uint32_t inner;
    if ((r = rfl__hf_u32(h, "n_embd", 1, 0, &c->hidden)) ||
        (r = rfl__hf_u32(h, "n_layer", 1, 0, &c->layers)) ||
        (r = rfl__hf_u32(h, "n_head", 1, 0, &c->heads)) ||
        (r = rfl__hf_u32(h, "vocab_size", 1, 0, &c->vocab)) ||
        (r = rfl__hf_u32(h, "n_positions", 1, 0, &c->max_positions)) ||
        (r = rfl__hf_u32(h, "n_inner", 0, 0, &inner)) ||
        (r = rfl__hf_bool(h, "tie_word_embeddings", 1, &c->tied)))
        return r;
    if (!c->heads || c->hidden % c->heads)
        return rfl__hf_fail(h, rfl_json_get(&h->doc, 0, "n_head"), RFL_ERR_SHAPE, "n_head",
                            RFL__LLM_MSG("does not divide n_embd"));
    c->kv_heads = c->heads;
    c->head_dim = c->hidden / c->heads;
    if (inner) c->intermediate = inner;
    else if (c->hidden > 0xFFFFFFFFu / 4)
        return rfl__hf_fail(h, rfl_json_get(&h->doc, 0, "n_embd"), RFL_ERR_OVERFLOW, "n_embd",
                            RFL__LLM_MSG("4 x n_embd is larger than 2^32 - 1"));
    else c->intermediate = 4 * c->hidden;
    return RFL_OK;
}

/* The fields of experts and latent attention (qwen3_moe, deepseek_v2,
   deepseek_v3, gpt_oss), after the Llama-style fields. */
static rfl_result rfl__hf_sparse(rfl__hf *h, rfl_llm_config *c) {
    (void)h, (void)c;
    return RFL_OK;
}

static rfl_result rfl__hf_llama(rfl__hf *h, rfl_llm_config *c) {
    rfl_result r;
    uint8_t attn_bias;
    int qwen2 = rfl_parse_name_eq(c->model_type, "qwen2"), moe = rfl_parse_name_eq(c->model_type, "mixtral");
    if ((r = rfl__hf_u32(h, "hidden_size", 1, 0, &c->hidden)) ||
        (r = rfl__hf_u32(h, "num_hidden_layers", 1, 0, &c->layers)) ||
        (r = rfl__hf_u32(h, "num_attention_heads", 1, 0, &c->heads)) ||
        (r = rfl__hf_u32(h, "intermediate_size", 1, 0, &c->intermediate)) ||
        (r = rfl__hf_u32(h, "vocab_size", 1, 0, &c->vocab)) ||
        (r = rfl__hf_u32(h, "num_key_value_heads", 0, c->heads, &c->kv_heads)) ||
        (r = rfl__hf_u32(h, "max_position_embeddings", 0, 0, &c->max_positions)) ||
        (r = rfl__hf_u32(h, "sliding_window", 0, 0, &c->sliding_window)) ||
        (r = rfl__hf_bool(h, "tie_word_embeddings", 0, &c->tied)) ||
        (r = rfl__hf_bool(h, "attention_bias", 0, &attn_bias)) ||
        (r = rfl__hf_bool(h, "mlp_bias", 0, &c->mlp_bias)))
        return r;
    if (!c->heads) return rfl__hf_fail(h, rfl_json_get(&h->doc, 0, "num_attention_heads"),
                                       RFL_ERR_SHAPE, "num_attention_heads", RFL__LLM_MSG("must be at least 1"));
    if ((r = rfl__hf_u32(h, "head_dim", 0, c->hidden / c->heads, &c->head_dim))) return r;
    if (rfl_json_get(&h->doc, 0, "head_dim") < 0 && c->hidden % c->heads)
        return rfl__hf_fail(h, rfl_json_get(&h->doc, 0, "num_attention_heads"), RFL_ERR_SHAPE,
                            "num_attention_heads", RFL__LLM_MSG("does not divide hidden_size"));
    c->qkv_bias = (uint8_t)(qwen2 || attn_bias); /* Qwen2: always on q, k, v */
    c->o_bias = attn_bias;
    if (moe && ((r = rfl__hf_u32(h, "num_local_experts", 1, 0, &c->experts)) ||
                (r = rfl__hf_u32(h, "num_experts_per_tok", 1, 0, &c->experts_per_tok))))
        return r;
    if (qwen2) { /* the window applies only with use_sliding_window */
        uint8_t use;
        if ((r = rfl__hf_bool(h, "use_sliding_window", 0, &use))) return r;
        if (!use) c->sliding_window = 0;
    }
    return rfl__hf_sparse(h, c);
}

/* The field a config_check error names, as a token of the document. */
static rfl_result rfl__hf_check(rfl__hf *h, const rfl_llm_config *c) {
    rfl_result r = rfl_llm_config_check(c, &h->doc.err);
    if (r) return rfl__hf_at(h, rfl_json_get(&h->doc, 0, h->doc.err.where));
    /* absurd sizes: the model must be countable in 64 bits */
    r = rfl__llm_countable(c) ? RFL_OK : RFL_ERR_OVERFLOW;
    if (r) return rfl__hf_fail(h, rfl_json_get(&h->doc, 0, h->gpt2 ? "n_embd" : "hidden_size"), r,
                               h->gpt2 ? "n_embd" : "hidden_size",
                               RFL__LLM_MSG("the model's sizes overflow 64-bit counts"));
    return RFL_OK;
}

/* The reader after the arguments' check; errors in h->doc.err (a syntax
   error or a short token array: the tokenizer's own). */
static rfl_result rfl__hf_parse(rfl__hf *h, const char *json, size_t len, rfl_json_tok *toks,
                                int cap, rfl_llm_config *out) {
    rfl_result r;
    int t, fam;
    char type[32];
    r = rfl_json_parse(&h->doc, json, len, toks, cap);
    if (r) return r;
    if (toks[0].type != RFL_JSON_OBJ)
        return rfl__hf_fail(h, 0, RFL_ERR_FORMAT, "", RFL__LLM_MSG("not a JSON object"));
    t = rfl_json_get(&h->doc, 0, "model_type");
    if (t < 0) return rfl__hf_fail(h, -1, RFL_ERR_MISSING, "model_type", RFL__LLM_MSG("required field is missing"));
    if (!rfl_json_str(&h->doc, t, type, sizeof type) || (fam = rfl__llm_family(type)) < 0)
        return rfl__hf_fail(h, t, RFL_ERR_UNSUPPORTED, "model_type",
                            RFL__LLM_MSG("unknown model_type (gpt2, llama, qwen2, mistral, mixtral)"));
    rfl__llm_copy_type(out, type);
    h->gpt2 = fam == 0;
    rfl__llm_family_defaults(out, h->gpt2);
    r = h->gpt2 ? rfl__hf_gpt2(h, out) : rfl__hf_llama(h, out);
    if (!r) r = rfl__hf_act(h, out);
    if (r) return r;
    rfl__hf_dtype(h, out);
    return rfl__hf_check(h, out);
}

RFL_API rfl_result rfl_llm_config_parse(const char *json, size_t len, rfl_json_tok *toks,
                                       int cap, rfl_llm_config *out, rfl_error *err) {
    rfl__hf h;
    rfl_result r;
    RFL_MEMSET(&h, 0, sizeof h);
    rfl__err_clear(&h.doc.err);
    if (!out || (!json && len) || !toks || cap < 1) {
        r = rfl__err_set(&h.doc.err, RFL_ERR_ARG, "");
    } else {
        RFL_MEMSET(out, 0, sizeof *out);
        r = rfl__hf_parse(&h, json, len, toks, cap, out);
    }
    if (err) *err = h.doc.err;
    return r;
}
/* ---- the step as layer records (rfl_llm_build) ---------------------------------
   One sequence of the step, written with [6]'s builders so that every tool
   that reads records (per-layer tables, training, charts, reports) reads a
   decoder too. The few records [6] has no builder for (the KV cache read as
   an input, rotary's once-per-batch product, MoE dispatch and combine) are
   made here with [6]'s begin / commit, so [6] stays as the zoo needs it. */
typedef struct rfl__lb {
    rfl_net *net;
    const rfl_llm_config *c;
    uint32_t T, Lk, q, kv; /* new tokens, attended positions, q and kv widths */
    int gpt2, decode;
    uint32_t layer;        /* the block being written */
    int tagged;            /* records before this one have their kind */
    rfl_tensor ids;
} rfl__lb;

/* The records made since the last tag are of kind k (RFL_GROUP_KIND: the
   kinds the LLM join sorts kernels into). Returns t. */
static rfl_tensor rfl__lb_tag(rfl__lb *b, rfl_tensor t, rfl_llm_kind k) {
    for (; b->tagged < b->net->count; b->tagged++)
        b->net->layers[b->tagged].kind = (uint8_t)(k + 1);
    return t;
}

/* A record of op `op` on x (RFL_NO_TENSOR: a source), shape (d0, d1). */
static rfl_tensor rfl__lb_rec(rfl_net *net, rfl_op op, rfl_tensor x, uint32_t d0, uint32_t d1,
                              uint64_t in_numel, uint64_t flops, const char *cls) {
    rfl_layer *L = rfl__ly_begin(net, op, x, 0, x >= 0 ? 1 : 0);
    if (!L) return RFL_NO_TENSOR;
    L->rank = 2, L->shape[0] = d0, L->shape[1] = d1;
    L->in_numel = in_numel, L->flops = flops, L->cls = cls;
    return rfl__ly_commit(net, L);
}

/* A linear module (GPT-2's are Conv1D, the same product); `experts` copies
   of its weights (MoE: the record stands for all of them). */
static rfl_tensor rfl__lb_linear(rfl__lb *b, rfl_tensor x, uint32_t out, int bias,
                                 const char *name, uint64_t experts) {
    rfl_tensor t = rfl_layer_name(b->net, rfl_linear(b->net, x, out, bias), name);
    if (t < 0) return t;
    if (b->gpt2 && bias) b->net->layers[t].cls = "Conv1D";
    if (!rfl__ly_mul64(b->net->layers[t].params, experts, &b->net->layers[t].params))
        return rfl__ly_fail(b->net, RFL_ERR_OVERFLOW, "linear");
    if (experts > 1) b->net->layers[t].arg[0] = (uint32_t)experts; /* weights read: the reached */
    return t;
}

/* LayerNorm, or RMSNorm: a scale and no shift (hidden params), no mean: x^2,
   mean, rsqrt, scale = 4 FLOPs per element, half of LayerNorm's 8. */
static rfl_tensor rfl__lb_norm(rfl__lb *b, rfl_tensor x, const char *name) {
    rfl_tensor t = rfl_layer_name(b->net, rfl_layernorm(b->net, x), name);
    if (t >= 0 && b->c->norm == RFL_LLM_RMSNORM) {
        rfl_layer *L = &b->net->layers[t];
        L->params /= 2, L->flops /= 2, L->cls = "RMSNorm";
    }
    return rfl__lb_tag(b, t, RFL_LLM_NORM);
}

/* x with `cls` as a functional elementwise record: per-element FLOPs. */
static rfl_tensor rfl__lb_unary(rfl__lb *b, rfl_op op, rfl_tensor x, unsigned per,
                                const char *cls, const char *name) {
    rfl_tensor t = rfl_layer_name(b->net, rfl__ly_unary(b->net, op, x, per, 0, 0, 0), name);
    if (t >= 0) b->net->layers[t].cls = cls;
    return t;
}

/* Multi-head latent attention (kv_lora_rank > 0). */
static rfl_tensor rfl__lb_mla(rfl__lb *b, rfl_tensor h) {
    (void)h;
    return rfl__ly_fail(b->net, RFL_ERR_UNSUPPORTED, "mla");
}

/* q / k / v projections, rotary, the cache, attention, output projection.
   The step's new K and V are copied into the cache (kv type, no gradient);
   decode attends to the cache, a per-sample input of S + 1 positions. */
static rfl_tensor rfl__lb_attention(rfl__lb *b, rfl_tensor h) {
    rfl_net *net = b->net;
    const rfl_llm_config *c = b->c;
    rfl_tensor q, k, v, a;
    int i;
    if (c->kv_lora_rank) return rfl__lb_mla(b, h);
    rfl_scope_push(net, b->gpt2 ? "attn" : "self_attn");
    if (b->gpt2) {
        a = rfl__lb_linear(b, h, b->q + 2 * b->kv, c->qkv_bias, "c_attn", 1);
        q = rfl_layer_name(net, rfl_slice(net, a, 1, 0, b->q), "q");
        k = rfl_layer_name(net, rfl_slice(net, a, 1, b->q, b->kv), "k");
        v = rfl_layer_name(net, rfl_slice(net, a, 1, b->q + b->kv, b->kv), "v");
    } else {
        q = rfl__lb_linear(b, h, b->q, c->qkv_bias, "q_proj", 1);
        k = rfl__lb_linear(b, h, b->kv, c->qkv_bias, "k_proj", 1);
        v = rfl__lb_linear(b, h, b->kv, c->qkv_bias, "v_proj", 1);
    }
    if (c->pos == RFL_LLM_POS_ROTARY) { /* q cos + rotate_half(q) sin: 3 per element */
        q = rfl__lb_unary(b, RFL_OP_MUL, q, 3, "apply_rotary_pos_emb", "rotary_q");
        k = rfl__lb_unary(b, RFL_OP_MUL, k, 3, "apply_rotary_pos_emb", "rotary_k");
    }
    for (i = 0; i < 2; i++) {
        a = rfl__lb_unary(b, RFL_OP_TRANSPOSE, i ? v : k, 0, "cache_update",
                          i ? "v_cache_write" : "k_cache_write");
        if (a >= 0) net->layers[a].needs_grad = 0, net->layers[a].kv_cache = 1;
    }
    if (b->decode) {
        k = rfl_layer_name(net, rfl__lb_rec(net, RFL_OP_INPUT, RFL_NO_TENSOR, b->Lk, b->kv, 0, 0, "Cache"), "k_cache");
        v = rfl_layer_name(net, rfl__lb_rec(net, RFL_OP_INPUT, RFL_NO_TENSOR, b->Lk, b->kv, 0, 0, "Cache"), "v_cache");
        if (v >= 0) net->layers[k].kv_cache = net->layers[v].kv_cache = 1;
    }
    a = rfl_causal(net, rfl_layer_name(net, rfl_attention(net, q, k, v, c->heads), "attention"),
                   rfl__llm_layer_slides(c, b->layer) ? c->sliding_window : 0);
    a = rfl__lb_linear(b, a, c->hidden, c->o_bias, b->gpt2 ? "c_proj" : "o_proj", 1);
    rfl_scope_pop(net);
    return rfl__lb_tag(b, a, RFL_LLM_ATTENTION);
}

/* Mixture of experts: router and its softmax; the T x K routed token slots
   gathered (dispatch), through one gated MLP record set that holds every
   expert's weights, weighted and summed back per token (combine). */
static rfl_tensor rfl__lb_moe(rfl__lb *b, rfl_tensor h) {
    rfl_net *net = b->net;
    const rfl_llm_config *c = b->c;
    uint64_t tk = (uint64_t)b->T * c->experts_per_tok, n;
    uint32_t tk32 = 0;
    rfl_tensor x, g;
    if (!rfl__ly_dim(tk, &tk32) || !rfl__ly_mul64(tk, c->hidden, &n) || n > (uint64_t)-1 / 2)
        return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "experts");
    rfl_scope_push(net, "block_sparse_moe");
    g = rfl_layer_name(net, rfl_softmax(net, rfl__lb_linear(b, h, c->experts, 0, "gate", 1)), "routing");
    if (g >= 0) net->layers[g].flags &= (uint8_t)~RFL_LF_MODULE; /* F.softmax */
    x = rfl_layer_name(net, rfl__lb_rec(net, RFL_OP_CONCAT, h, tk32, c->hidden, n, 0, "dispatch"), "dispatch");
    rfl_scope_push(net, "experts");
    g = rfl_act(net, rfl__lb_linear(b, x, c->intermediate, 0, "w1", c->experts), (rfl_act_kind)c->act);
    g = rfl_mul(net, rfl_layer_name(net, g, "act_fn"), rfl__lb_linear(b, x, c->intermediate, 0, "w3", c->experts));
    x = rfl__lb_linear(b, rfl_layer_name(net, g, "mul"), c->hidden, 0, "w2", c->experts);
    rfl_scope_pop(net);
    x = rfl_layer_name(net, rfl__lb_rec(net, RFL_OP_ADD, x, b->T, c->hidden, n, 2 * n, "combine"), "combine");
    rfl_scope_pop(net);
    return rfl__lb_tag(b, x, RFL_LLM_MLP); /* router, dispatch, experts, combine */
}

/* The MLP: gated (SwiGLU: down(act(gate(x)) * up(x))), plain (GPT-2:
   c_proj(act(c_fc(x)))), or experts. */
static rfl_tensor rfl__lb_mlp(rfl__lb *b, rfl_tensor h) {
    rfl_net *net = b->net;
    const rfl_llm_config *c = b->c;
    rfl_tensor g, u;
    int bias = c->mlp_bias;
    if (rfl__llm_layer_moe(c, b->layer)) return rfl__lb_moe(b, h);
    rfl_scope_push(net, "mlp");
    g = rfl__lb_tag(b, rfl__lb_linear(b, h, c->intermediate, bias, c->gated ? "gate_proj" : b->gpt2 ? "c_fc" : "up_proj", 1), RFL_LLM_MLP);
    g = rfl_layer_name(net, rfl_act(net, g, (rfl_act_kind)c->act), b->gpt2 ? "act" : "act_fn");
    if (g >= 0 && b->gpt2) net->layers[g].cls = "NewGELUActivation"; /* gelu_new's module */
    rfl__lb_tag(b, g, RFL_LLM_ELEMENTWISE); /* the activation and the mul */
    if (c->gated) {
        u = rfl__lb_tag(b, rfl__lb_linear(b, h, c->intermediate, bias, "up_proj", 1), RFL_LLM_MLP);
        g = rfl__lb_tag(b, rfl_layer_name(net, rfl_mul(net, g, u), "mul"), RFL_LLM_ELEMENTWISE);
    }
    g = rfl__lb_linear(b, g, c->hidden, bias, b->gpt2 ? "c_proj" : "down_proj", 1);
    rfl_scope_pop(net);
    return rfl__lb_tag(b, g, RFL_LLM_MLP);
}

static rfl_tensor rfl__lb_block(rfl__lb *b, rfl_tensor h) {
    rfl_net *net = b->net;
    rfl_tensor a = rfl__lb_norm(b, h, b->gpt2 ? "ln_1" : "input_layernorm");
    h = rfl_layer_name(net, rfl_add(net, h, rfl__lb_attention(b, a)), "add_attn");
    a = rfl__lb_norm(b, rfl__lb_tag(b, h, RFL_LLM_ELEMENTWISE), b->gpt2 ? "ln_2" : "post_attention_layernorm");
    h = rfl_layer_name(net, rfl_add(net, h, rfl__lb_mlp(b, a)), "add_mlp");
    return rfl__lb_tag(b, h, RFL_LLM_ELEMENTWISE);
}

/* Token ids, the embedding(s), rotary's cos / sin. Returns the hidden state. */
static rfl_tensor rfl__lb_embed(rfl__lb *b, rfl_tensor *wte) {
    rfl_net *net = b->net;
    const rfl_llm_config *c = b->c;
    rfl_tensor h;
    b->ids = rfl_layer_name(net, rfl_input(net, b->T, 0, 0), "input_ids");
    rfl_scope_push(net, b->gpt2 ? "transformer" : "model");
    *wte = h = rfl_layer_name(net, rfl_embedding(net, b->ids, c->vocab, c->hidden), b->gpt2 ? "wte" : "embed_tokens");
    rfl__lb_tag(b, h, RFL_LLM_EMBEDDING);
    if (c->pos == RFL_LLM_POS_LEARNED) {
        rfl_tensor p = rfl_layer_name(net, rfl_embedding(net, b->ids, c->max_positions, c->hidden), "wpe");
        /* positions 0..T-1 are the same for every sequence: one gather */
        if (p >= 0) net->layers[p].flags |= RFL_LF_ONCE | RFL_LF_SHARED;
        rfl__lb_tag(b, p, RFL_LLM_EMBEDDING);
        h = rfl__lb_tag(b, rfl_layer_name(net, rfl_add(net, h, p), "embed_add"), RFL_LLM_ELEMENTWISE);
    } else {
        /* inv_freq (hd/2, 1) x positions (1, T), once per forward whatever
           the batch (FlopCounterMode counts one bmm); cos and sin of T x hd */
        uint64_t hd = c->head_dim, mac = 0, all = 0;
        rfl_tensor t;
        if (!rfl__ly_mul4(2, hd / 2, b->T, 1, &mac) || !rfl__ly_mul4(2, hd, b->T, 1, &all) ||
            !rfl__ly_add64(all, mac, &all))
            return rfl__ly_fail(net, RFL_ERR_OVERFLOW, "rotary_emb");
        t = rfl_layer_name(net, rfl__lb_rec(net, RFL_OP_MATMUL, b->ids, b->T, 2 * c->head_dim,
                                      hd / 2 + b->T, all, "LlamaRotaryEmbedding"), "rotary_emb");
        if (t >= 0) {
            net->layers[t].mac_flops = mac;
            net->layers[t].flags |= RFL_LF_ONCE | RFL_LF_SHARED;
        }
        rfl__lb_tag(b, t, RFL_LLM_ATTENTION); /* the rotary tables */
    }
    rfl_scope_pop(net);
    return h;
}

RFL_API rfl_result rfl_llm_build(rfl_net *net, const rfl_llm_config *cfg,
                                 const rfl_llm_step_desc *d) {
    rfl__llm_ctx x;
    rfl_llm_step_desc one;
    rfl__lb b;
    rfl_result r;
    rfl_tensor h, wte = RFL_NO_TENSOR;
    uint32_t l;
    if (!net || !d || !net->layers || net->count || net->err.code) return RFL_ERR_ARG;
    one = *d;
    one.batch = 1; /* records are per sequence: the batch is rfl_cost_desc's */
    r = rfl__llm_ctx_init(&x, cfg, &one);
    if (r) return r;
    RFL_MEMSET(&b, 0, sizeof b);
    b.net = net, b.c = cfg, b.gpt2 = rfl__llm_is_gpt2(cfg), b.decode = d->phase == RFL_LLM_DECODE;
    /* per-sample dims are 32-bit (rotary's cos / sin: 2 x head_dim) */
    if (!rfl__ly_dim(x.T, &b.T) || !rfl__ly_dim(x.P + x.T, &b.Lk) ||
        !rfl__ly_dim(x.Hq * x.hd, &b.q) || !rfl__ly_dim(x.Hk * x.hd, &b.kv) ||
        !rfl__ly_dim((uint64_t)b.q + 2 * (uint64_t)b.kv, &l) || cfg->head_dim > 0x7FFFFFFFu)
        return RFL_ERR_OVERFLOW;
    h = rfl__lb_embed(&b, &wte);
    rfl_scope_push(net, b.gpt2 ? "transformer" : "model");
    rfl_scope_push(net, b.gpt2 ? "h" : "layers");
    for (l = 0; l < cfg->layers; l++) {
        rfl_scope_pushi(net, (int)l);
        b.layer = l;
        h = rfl__lb_block(&b, h);
        rfl_scope_pop(net);
    }
    rfl_scope_pop(net);
    h = rfl__lb_norm(&b, h, b.gpt2 ? "ln_f" : "norm");
    rfl_scope_pop(net);
    /* generation's logits: the last position only (hidden_states[:, -1:]) */
    if (!b.decode && !d->logits_all && b.T > 1) h = rfl_layer_name(net, rfl_slice(net, h, 0, b.T - 1, 1), "last_position");
    rfl__lb_tag(&b, rfl_layer_name(net, rfl_linear(net, h, cfg->vocab, 0), "lm_head"), RFL_LLM_LM_HEAD);
    /* tied: one table, counted on lm_head, which reads all of it; the
       embedding reads only its rows and still gets a gradient */
    if (cfg->tied && !net->err.code) net->layers[wte].params = 0;
    return net->err.code;
}

/* d with its math type resolved: d->math, the config's dtype, fp32. */
static rfl_llm_step_desc rfl__llm_resolved(const rfl_llm_config *cfg, const rfl_llm_step_desc *d) {
    rfl_llm_step_desc r = *d;
    if (!r.math) r.math = cfg->dtype && cfg->dtype != RFL_DTYPE_INT4 ? (rfl_dtype)cfg->dtype
                                                                      : RFL_DTYPE_FP32;
    return r;
}

RFL_API rfl_result rfl_llm_cost_desc(const rfl_llm_config *cfg, const rfl_llm_step_desc *d,
                                     rfl_cost_desc *out) {
    rfl_llm_step_desc s;
    rfl__llm_ctx x;
    rfl_result r;
    if (!cfg || !d || !out) return RFL_ERR_ARG;
    s = rfl__llm_resolved(cfg, d);
    if ((r = rfl__llm_ctx_init(&x, cfg, &s)) != RFL_OK) return r;
    RFL_MEMSET(out, 0, sizeof *out);
    out->batch = x.B;
    out->dtype = s.math;
    out->weights = s.weights;
    out->kv = s.kv;
    out->causal = 1;
    return RFL_OK;
}

RFL_API rfl_result rfl_llm_kv_cache_bytes(const rfl_llm_config *cfg, const rfl_llm_step_desc *d,
                                          uint64_t *out) {
    rfl_llm_step_desc s;
    rfl__llm_ctx x;
    rfl_result r;
    uint64_t n;
    if (!cfg || !d || !out) return RFL_ERR_ARG;
    *out = 0;
    s = rfl__llm_resolved(cfg, d);
    if ((r = rfl__llm_ctx_init(&x, cfg, &s)) != RFL_OK) return r;
    /* P + T positions of every layer, K and V */
    n = rfl__lm_mul(&x, rfl__lm_mul(&x, x.B, x.P + x.T), rfl__llm_cache_width(cfg));
    if (!x.ok || !rfl__ly_store(rfl__lm_mul(&x, n, x.L), x.kbits, &n) || !x.ok)
        return RFL_ERR_OVERFLOW;
    *out = n;
    return RFL_OK;
}
#endif /* RFL_NO_LLM */


/* ==========================================================================
   [8]  ZOO
   built-in models (RFL_NO_ZOO)
   ========================================================================== */
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
    return rfl_layer_name(n, rfl_conv_ex(n, x, &d), name);
}
static rfl_tensor rfl__zbn(rfl_net *n, rfl_tensor x, const char *name) {
    return rfl_layer_name(n, rfl_batchnorm(n, x), name);
}
static rfl_tensor rfl__zact(rfl_net *n, rfl_tensor x, rfl_act_kind a, const char *name) {
    return rfl_layer_name(n, rfl_act(n, x, a), name);
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
    return rfl_layer_name(n, rfl_mark(n, x, cls), "");
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
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 1, 0), "maxpool");
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
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "fc");
}

/* ---- AlexNet and VGG-16: features.i, avgpool, classifier.i ---- */
static rfl_tensor rfl__zclassifier(rfl_net *n, rfl_tensor x, uint32_t hidden, int dropout_first) {
    int i = 0;
    rfl_scope_push(n, "classifier");
    if (dropout_first) { rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_dropout(n, x), ""); rfl_scope_pop(n); }
    rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_linear(n, x, hidden, 1), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_act(n, x, RFL_ACT_RELU), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_dropout(n, x), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_linear(n, x, hidden, 1), ""); rfl_scope_pop(n);
    rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_act(n, x, RFL_ACT_RELU), ""); rfl_scope_pop(n);
    if (!dropout_first) { rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_dropout(n, x), ""); rfl_scope_pop(n); }
    rfl_scope_pushi(n, i++); x = rfl_layer_name(n, rfl_linear(n, x, 1000, 1), ""); rfl_scope_pop(n);
    rfl_scope_pop(n);
    return x;
}

/* One child of a Sequential: name it by its index. */
static rfl_tensor rfl__zidx(rfl_net *n, rfl_tensor x, int *idx) {
    char b[24];
    rfl_fmt_u64(b, sizeof b, (uint64_t)(*idx)++);
    return rfl_layer_name(n, x, b);
}

/* Push a numbered scope ("denseblock" 1: "denseblock1"). */
static void rfl__zpush_num(rfl_net *n, const char *prefix, uint64_t i) {
    char b[32];
    size_t l = rfl__strlen(prefix);
    RFL_MEMCPY(b, prefix, l);
    rfl_fmt_u64(b + l, sizeof b - l, i);
    rfl_scope_push(n, b);
}

static rfl_tensor rfl__zalexnet(rfl_net *n, rfl_tensor x) {
    /* out, kernel, stride, pad, a 3x3 max pool after */
    static const uint16_t cv[5][5] = {{64, 11, 4, 2, 1}, {192, 5, 1, 2, 1}, {384, 3, 1, 1, 0},
                                      {256, 3, 1, 1, 0}, {256, 3, 1, 1, 1}};
    int i = 0, c;
    rfl_scope_push(n, "features");
    for (c = 0; c < 5; c++) {
        x = rfl__zidx(n, rfl__zconv(n, x, 0, cv[c][0], cv[c][1], cv[c][2], cv[c][3], 1, 1), &i);
        x = rfl__zidx(n, rfl_act(n, x, RFL_ACT_RELU), &i);
        if (cv[c][4]) x = rfl__zidx(n, rfl_maxpool(n, x, 3, 2, 0, 0), &i);
    }
    rfl_scope_pop(n);
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 6, 6), "avgpool");
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
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 7, 7), "avgpool");
    x = rfl_flatten(n, x);
    return rfl__zclassifier(n, x, 4096, 0);
}

/* The head MobileNetV2, EfficientNet and MNASNet end with: flatten, then
   classifier = Dropout (0), Linear to 1000 classes (1). */
static rfl_tensor rfl__zhead(rfl_net *n, rfl_tensor x) {
    x = rfl_flatten(n, x);
    rfl_scope_push(n, "classifier");
    x = rfl_layer_name(n, rfl_dropout(n, x), "0");
    x = rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "1");
    rfl_scope_pop(n);
    return x;
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
    return rfl__zhead(n, x);
}

/* torchvision's SqueezeExcitation as child `name` of the scope. */
static rfl_tensor rfl__zse(rfl_net *n, rfl_tensor x, const char *name, uint32_t squeeze,
                           rfl_act_kind act, rfl_act_kind scale_act) {
    rfl_tensor s;
    uint32_t c = rfl__zch(n, x);
    if (name) rfl_scope_push(n, name);
    s = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
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
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    rfl_scope_push(n, "classifier");
    x = rfl_layer_name(n, rfl_linear(n, x, last, 1), "0");
    x = rfl_layer_name(n, rfl_act(n, x, RFL_ACT_HARDSWISH), "1");
    x = rfl_layer_name(n, rfl_dropout(n, x), "2");
    x = rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "3");
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
    x = rfl_layer_name(n, rfl_dropout(n, x), "0");
    x = rfl__zconv(n, x, "1", 1000, 1, 1, 0, 1, 1);
    x = rfl_layer_name(n, rfl_act(n, x, RFL_ACT_RELU), "2");
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "3");
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
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 1, 0), "maxpool");
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
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "fc");
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
                y = rfl_layer_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
                y = rfl_add(n, y, x);
            }
            x = rfl__zmark(n, y, "MBConv");
            rfl_scope_pop(n);
        }
        rfl_scope_pop(n);
    }
    x = rfl__zcna(n, x, 8, 1280, 1, 1, 1, RFL_ACT_SILU);
    rfl_scope_pop(n);
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    return rfl__zhead(n, x);
}

/* ---- DenseNet-121 ---- */
static rfl_tensor rfl__zdensenet(rfl_net *n, rfl_tensor x, const uint8_t *blocks) {
    rfl_tensor feats[64];
    int i, j;
    rfl_scope_push(n, "features");
    x = rfl__zconv(n, x, "conv0", 64, 7, 2, 3, 1, 0);
    x = rfl__zact(n, rfl__zbn(n, x, "norm0"), RFL_ACT_RELU, "relu0");
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 1, 0), "pool0");
    for (i = 0; i < 4; i++) {
        int nf = 0;
        rfl__zpush_num(n, "denseblock", (uint64_t)i + 1);
        feats[nf++] = x;
        for (j = 0; j < blocks[i]; j++) {
            rfl_tensor y;
            rfl__zpush_num(n, "denselayer", (uint64_t)j + 1);
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
            rfl__zpush_num(n, "transition", (uint64_t)i + 1);
            x = rfl__zact(n, rfl__zbn(n, x, "norm"), RFL_ACT_RELU, "relu");
            x = rfl__zconv(n, x, "conv", rfl__zch(n, x) / 2, 1, 1, 0, 1, 0);
            x = rfl_layer_name(n, rfl_avgpool(n, x, 2, 2, 0, 0), "pool");
            rfl_scope_pop(n);
        }
    }
    x = rfl__zbn(n, x, "norm5");
    rfl_scope_pop(n);
    x = rfl__zfn(n, rfl_act(n, x, RFL_ACT_RELU)); /* F.relu */
    x = rfl__zfn(n, rfl_adaptive_avgpool(n, x, 1, 1));
    x = rfl_flatten(n, x);
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "classifier");
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
    t[0] = rfl_layer_name(n, rfl_param(n, 1, D, 0), "class_token");
    t[1] = x;
    x = rfl_concat(n, t, 2, 0);
    rfl_scope_push(n, "encoder");
    x = rfl_add(n, x, rfl_layer_name(n, rfl_param(n, L + 1, D, 0), "pos_embedding"));
    x = rfl_layer_name(n, rfl_dropout(n, x), "dropout");
    rfl_scope_push(n, "layers");
    for (i = 0; i < 12; i++) {
        rfl__zpush_num(n, "encoder_layer_", (uint64_t)i);
        in = x;
        x = rfl_layer_name(n, rfl_layernorm(n, x), "ln_1");
        rfl_scope_push(n, "self_attention");
        x = rfl__zfn(n, rfl_layer_name(n, rfl_linear(n, x, 3 * D, 1), "in_proj"));
        q = rfl_slice(n, x, 1, 0, D);
        k = rfl_slice(n, x, 1, D, D);
        v = rfl_slice(n, x, 1, 2 * D, D);
        x = rfl_attention(n, q, k, v, heads);
        /* MHA calls F.linear with out_proj's weight: no hook fires */
        x = rfl__zfn(n, rfl_layer_name(n, rfl_linear(n, x, D, 1), "out_proj"));
        x = rfl__zmark(n, x, "MultiheadAttention");
        rfl_scope_pop(n);
        x = rfl_layer_name(n, rfl_dropout(n, x), "dropout");
        x = rfl_add(n, x, in);
        in = x;
        x = rfl_layer_name(n, rfl_layernorm(n, x), "ln_2");
        rfl_scope_push(n, "mlp");
        x = rfl_layer_name(n, rfl_linear(n, x, mlp, 1), "0");
        x = rfl_layer_name(n, rfl_act(n, x, RFL_ACT_GELU), "1");
        x = rfl_layer_name(n, rfl_dropout(n, x), "2");
        x = rfl_layer_name(n, rfl_linear(n, x, D, 1), "3");
        x = rfl_layer_name(n, rfl_dropout(n, x), "4");
        rfl_scope_pop(n);
        x = rfl_add(n, x, in);
        x = rfl__zmark(n, x, "EncoderBlock");
        rfl_scope_pop(n);
    }
    rfl_scope_pop(n);
    x = rfl_layer_name(n, rfl_layernorm(n, x), "ln");
    x = rfl__zmark(n, x, "Encoder");
    rfl_scope_pop(n);
    x = rfl_slice(n, x, 0, 0, 1); /* x[:, 0] */
    x = rfl_reshape(n, x, D, 0, 0, 0);
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "heads.head");
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
    return rfl__zhead(n, x);
}

/* ---- GoogLeNet and Inception v3: BasicConv2d = conv (no bias), BN, F.relu ---- */
static rfl_tensor rfl__zbasic(rfl_net *n, rfl_tensor x, const char *name, uint32_t co,
                              uint32_t kh, uint32_t kw, uint32_t s, uint32_t ph, uint32_t pw) {
    rfl_conv_desc d;
    RFL_MEMSET(&d, 0, sizeof d);
    d.out_channels = co, d.kernel_h = kh, d.kernel_w = kw, d.stride_h = s, d.stride_w = s;
    d.pad_h = ph, d.pad_w = pw;
    rfl_scope_push(n, name);
    x = rfl_layer_name(n, rfl_conv_ex(n, x, &d), "conv");
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
    b[3] = rfl_layer_name(n, rfl_maxpool(n, x, 3, 1, 1, 1), "0");
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
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 0, 1), "maxpool1");
    x = RFL__ZB(x, "conv2", 64, 1, 1, 0);
    x = RFL__ZB(x, "conv3", 192, 3, 1, 1);
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 0, 1), "maxpool2");
    for (i = 0; i < 9; i++) {
        x = rfl__zgoogle_inception(n, x, nm[i], c[i]);
        if (i == 1) x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 0, 1), "maxpool3");
        if (i == 6) x = rfl_layer_name(n, rfl_maxpool(n, x, 2, 2, 0, 1), "maxpool4");
    }
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    x = rfl_layer_name(n, rfl_dropout(n, x), "dropout");
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "fc");
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
    /* the Mixed blocks: InceptionA (arg: pool features) to E (C: 7x7 channels) */
    static const struct { const char *name; char block; uint16_t arg; } mixed[11] = {
        {"Mixed_5b", 'A', 32},  {"Mixed_5c", 'A', 64},  {"Mixed_5d", 'A', 64},
        {"Mixed_6a", 'B', 0},   {"Mixed_6b", 'C', 128}, {"Mixed_6c", 'C', 160},
        {"Mixed_6d", 'C', 160}, {"Mixed_6e", 'C', 192}, {"Mixed_7a", 'D', 0},
        {"Mixed_7b", 'E', 0},   {"Mixed_7c", 'E', 0}};
    int i;
    x = RFL__ZB(x, "Conv2d_1a_3x3", 32, 3, 2, 0);
    x = RFL__ZB(x, "Conv2d_2a_3x3", 32, 3, 1, 0);
    x = RFL__ZB(x, "Conv2d_2b_3x3", 64, 3, 1, 1);
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 0, 0), "maxpool1");
    x = RFL__ZB(x, "Conv2d_3b_1x1", 80, 1, 1, 0);
    x = RFL__ZB(x, "Conv2d_4a_3x3", 192, 3, 1, 0);
    x = rfl_layer_name(n, rfl_maxpool(n, x, 3, 2, 0, 0), "maxpool2");
    for (i = 0; i < 11; i++) {
        rfl_scope_push(n, mixed[i].name);
        if (mixed[i].block == 'A') x = rfl__zinc_a(n, x, mixed[i].arg);
        else if (mixed[i].block == 'B') x = rfl__zinc_b(n, x);
        else if (mixed[i].block == 'C') x = rfl__zinc_c(n, x, mixed[i].arg);
        else if (mixed[i].block == 'D') x = rfl__zinc_d(n, x);
        else x = rfl__zinc_e(n, x);
        rfl_scope_pop(n);
    }
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_layer_name(n, rfl_dropout(n, x), "dropout");
    x = rfl_flatten(n, x);
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "fc");
}
#undef RFL__ZB

/* ---- RegNetY-400MF: stage widths 48, 104, 208, 440, depths 1, 3, 6, 6,
   group width 8, SE ratio 0.25 (BlockParams.from_init_params(depth=16,
   w_0=48, w_a=27.89, w_m=2.09)) ---- */
static rfl_tensor rfl__zregnet_y_400mf(rfl_net *n, rfl_tensor x) {
    static const uint16_t w[4] = {48, 104, 208, 440}, dep[4] = {1, 3, 6, 6};
    static const char *const block[4] = {"block1-", "block2-", "block3-", "block4-"};
    int i, j;
    rfl_scope_push(n, "stem");
    x = rfl__zcna(n, x, -1, 32, 3, 2, 1, RFL_ACT_RELU);
    rfl_scope_pop(n);
    rfl_scope_push(n, "trunk_output");
    for (i = 0; i < 4; i++) {
        rfl__zpush_num(n, "block", (uint64_t)i + 1);
        for (j = 0; j < dep[i]; j++) {
            uint32_t win = rfl__zch(n, x), wo = w[i], st = j ? 1 : 2;
            rfl_tensor p = x, y;
            rfl__zpush_num(n, block[i], (uint64_t)j); /* "block1-0" */
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
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_flatten(n, x);
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "fc");
}

/* ---- ConvNeXt-Tiny ---- */
/* LayerNorm2d: a layer norm over the channels of (C, H, W) */
static rfl_tensor rfl__zln2d(rfl_net *n, rfl_tensor x, const char *name) {
    rfl_tensor t = rfl_layer_name(n, rfl_layernorm(n, x), name);
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
    t = rfl_layer_name(n, rfl_transpose(n, t, 0, 1), name);
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
            y = rfl_layer_name(n, rfl_layernorm(n, y), "2");
            y = rfl_layer_name(n, rfl_linear(n, y, 4 * d, 1), "3");
            y = rfl_layer_name(n, rfl_act(n, y, RFL_ACT_GELU), "4");
            y = rfl_layer_name(n, rfl_linear(n, y, d, 1), "5");
            y = rfl__zpermute(n, y, "6", 0);
            rfl_scope_pop(n);
            ls = rfl_layer_name(n, rfl_param(n, d, 1, 1), "layer_scale");
            y = rfl_mul(n, y, ls);
            y = rfl_layer_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
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
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    rfl_scope_push(n, "classifier");
    x = rfl__zln2d(n, x, "0");
    x = rfl_layer_name(n, rfl_flatten(n, x), "1");
    if (x >= 0) n->layers[x].flags |= RFL_LF_MODULE; /* nn.Flatten */
    x = rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "2");
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
    qkv = rfl__zfn(n, rfl_layer_name(n, rfl_linear(n, x, 3 * C, 1), "qkv"));
    q = rfl_reshape(n, rfl_slice(n, qkv, 2, 0, C), nw, heads, N, hd);
    k = rfl_reshape(n, rfl_slice(n, qkv, 2, C, C), nw, heads, hd, N);
    v = rfl_reshape(n, rfl_slice(n, qkv, 2, 2 * C, C), nw, heads, N, hd);
    a = rfl_matmul(n, q, k);
    /* relative position bias: a (2 x 7 - 1)^2 x heads table, gathered */
    bias = rfl_layer_name(n, rfl_param(n, heads, N, N), "relative_position_bias_table");
    if (bias >= 0) n->layers[bias].params = 169ull * heads;
    a = rfl_add(n, a, rfl_reshape(n, bias, 1, heads, N, N));
    a = rfl__zfn(n, rfl_softmax(n, a));
    a = rfl_matmul(n, a, v);
    a = rfl_reshape(n, a, nw, N, C, 0);
    a = rfl__zfn(n, rfl_layer_name(n, rfl_linear(n, a, C, 1), "proj"));
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
    x = rfl_layer_name(n, rfl_layernorm(n, x), "2");
    rfl_scope_pop(n);
    for (i = 0; i < 4; i++) {
        rfl_scope_pushi(n, f++);
        for (j = 0; j < dep[i]; j++) {
            rfl_tensor y;
            uint32_t c = rfl__zch(n, x) ? n->layers[x].shape[2] : 0;
            rfl_scope_pushi(n, j);
            y = rfl_layer_name(n, rfl_layernorm(n, x), "norm1");
            y = rfl__zswin_attention(n, y, heads[i]);
            y = rfl_layer_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
            x = rfl_add(n, x, y);
            y = rfl_layer_name(n, rfl_layernorm(n, x), "norm2");
            rfl_scope_push(n, "mlp");
            y = rfl_layer_name(n, rfl_linear(n, y, 4 * c, 1), "0");
            y = rfl_layer_name(n, rfl_act(n, y, RFL_ACT_GELU), "1");
            y = rfl_layer_name(n, rfl_dropout(n, y), "2");
            y = rfl_layer_name(n, rfl_linear(n, y, c, 1), "3");
            y = rfl_layer_name(n, rfl_dropout(n, y), "4");
            rfl_scope_pop(n);
            y = rfl_layer_name(n, rfl_mark(n, y, "StochasticDepth"), "stochastic_depth");
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
            x = rfl_layer_name(n, rfl_layernorm(n, x), "norm");
            x = rfl_layer_name(n, rfl_linear(n, x, 2 * c, 0), "reduction");
            x = rfl__zmark(n, x, "PatchMerging");
            rfl_scope_pop(n);
        }
    }
    rfl_scope_pop(n);
    x = rfl_layer_name(n, rfl_layernorm(n, x), "norm");
    x = rfl__zpermute(n, x, "permute", 0);
    x = rfl_layer_name(n, rfl_adaptive_avgpool(n, x, 1, 1), "avgpool");
    x = rfl_layer_name(n, rfl_flatten(n, x), "flatten");
    if (x >= 0) n->layers[x].flags |= RFL_LF_MODULE; /* nn.Flatten */
    return rfl_layer_name(n, rfl_linear(n, x, 1000, 1), "head");
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
    if (net->err.code) return net->err.code;
    if (net->count) return RFL_ERR_STATE;
    for (i = 0; i < RFL__Z_COUNT; i++)
        if (rfl_parse_name_eq(name, rfl__zoo_names[i])) which = i;
    if (which < 0) return RFL_ERR_UNKNOWN_NAME;
    if (!res) res = which == RFL__Z_INCEPTION_V3 ? 299 : 224;
    x = rfl_layer_name(net, rfl_input(net, 3, res, res), "input");
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
    return net->err.code;
}
#endif /* RFL_NO_ZOO */

/* ==========================================================================
   [9]  ONNX
   protobuf wire format, streamed; graph into the arena; shapes (RFL_NO_ONNX)
   ========================================================================== */
#ifndef RFL_NO_ONNX
/* ---- ONNX part: implementation ----------------------------------------------
   Two stages. The stream stage walks the protobuf wire format byte by byte
   (any split), follows only the messages and fields the graph needs (a
   schema below) and copies those fields, tag and length bytes unchanged,
   into the arena: the arena then holds a smaller but valid ModelProto. A
   message's length varint is rewritten in place when it ends (same width,
   padded with 0x80 bytes: still valid protobuf). Skipped payloads (weights,
   doc strings, subgraphs) cost O(1) per chunk. The finish stage decodes
   that compact copy into arrays (nodes, values, attributes) behind it;
   the build stage infers shapes and writes layer records.

   Stream counters bound every array finish makes, so st.need is known at
   the end of the stream even in count mode. */

/* message types of the schema */
enum {
    RFL__OX_MODEL, RFL__OX_GRAPH, RFL__OX_NODE, RFL__OX_ATTR, RFL__OX_TENSOR, RFL__OX_VINFO,
    RFL__OX_TYPE, RFL__OX_TTYPE, RFL__OX_SHAPE, RFL__OX_DIM, RFL__OX_OPSET, RFL__OX_NTYPES
};
/* field actions; RFL__OX_MSG + type: a sub-message to follow */
enum {
    RFL__OX_SKIP = 0, RFL__OX_SCALAR, RFL__OX_NAME, RFL__OX_STRING, RFL__OX_DATA, RFL__OX_LIST,
    RFL__OX_MSG = 16
};
/* stream counters (st->counts[]): messages by type, then these */
enum { RFL__OXC_IO = RFL__OX_NTYPES, RFL__OXC_STR, RFL__OXC_ELEMS, RFL__OXC_OUT };
/* phases of the byte machine */
enum { RFL__OXP_TAG, RFL__OXP_LEN, RFL__OXP_VARINT, RFL__OXP_FIXED, RFL__OXP_COPY, RFL__OXP_SKIP };

static const char *const rfl__ox_msg_names[RFL__OX_NTYPES] = {
    "ModelProto", "GraphProto", "NodeProto", "AttributeProto", "TensorProto", "ValueInfoProto",
    "TypeProto", "TypeProto.Tensor", "TensorShapeProto", "Dimension", "OperatorSetId"};

/* The schema: which fields of which message the graph needs (onnx.proto
   field numbers). Everything else is skipped. */
static int rfl__ox_action(int msg, uint32_t f) {
    switch (msg) {
    case RFL__OX_MODEL:
        return f == 1 ? RFL__OX_SCALAR : f == 7 ? RFL__OX_MSG + RFL__OX_GRAPH
             : f == 8 ? RFL__OX_MSG + RFL__OX_OPSET : RFL__OX_SKIP;
    case RFL__OX_GRAPH:
        return f == 1 ? RFL__OX_MSG + RFL__OX_NODE : f == 5 ? RFL__OX_MSG + RFL__OX_TENSOR
             : (f == 11 || f == 12 || f == 13) ? RFL__OX_MSG + RFL__OX_VINFO : RFL__OX_SKIP;
    case RFL__OX_NODE:
        return (f == 1 || f == 2 || f == 3 || f == 4 || f == 7) ? RFL__OX_NAME
             : f == 5 ? RFL__OX_MSG + RFL__OX_ATTR : RFL__OX_SKIP;
    case RFL__OX_ATTR:
        return f == 1 ? RFL__OX_NAME : (f == 2 || f == 3 || f == 20) ? RFL__OX_SCALAR
             : f == 4 ? RFL__OX_STRING : f == 5 ? RFL__OX_MSG + RFL__OX_TENSOR
             : (f == 7 || f == 8) ? RFL__OX_LIST : RFL__OX_SKIP;
    case RFL__OX_TENSOR:
        return f == 1 ? RFL__OX_LIST : (f == 2 || f == 14) ? RFL__OX_SCALAR : f == 8 ? RFL__OX_NAME
             : (f == 4 || f == 5 || f == 7 || f == 9 || f == 10 || f == 11) ? RFL__OX_DATA
             : RFL__OX_SKIP;
    case RFL__OX_VINFO: return f == 1 ? RFL__OX_NAME : f == 2 ? RFL__OX_MSG + RFL__OX_TYPE : RFL__OX_SKIP;
    case RFL__OX_TYPE: return f == 1 ? RFL__OX_MSG + RFL__OX_TTYPE : RFL__OX_SKIP;
    case RFL__OX_TTYPE:
        return f == 1 ? RFL__OX_SCALAR : f == 2 ? RFL__OX_MSG + RFL__OX_SHAPE : RFL__OX_SKIP;
    case RFL__OX_SHAPE: return f == 1 ? RFL__OX_MSG + RFL__OX_DIM : RFL__OX_SKIP;
    case RFL__OX_DIM: return f == 1 ? RFL__OX_SCALAR : f == 2 ? RFL__OX_NAME : RFL__OX_SKIP;
    case RFL__OX_OPSET: return f == 1 ? RFL__OX_NAME : f == 2 ? RFL__OX_SCALAR : RFL__OX_SKIP;
    default: return RFL__OX_SKIP;
    }
}

/* Append text to a message buffer (truncating). */
static size_t rfl__ox_cat(char *buf, size_t size, size_t k, const char *s) {
    while (s && *s && k + 1 < size) buf[k++] = *s++;
    buf[k] = 0;
    return k;
}
static size_t rfl__ox_catu(char *buf, size_t size, size_t k, uint64_t v) {
    char n[24];
    rfl_fmt_u64(n, sizeof n, v);
    return rfl__ox_cat(buf, size, k, n);
}
static RFL__UNUSED size_t rfl__ox_cati(char *buf, size_t size, size_t k, int64_t v) {
    if (v < 0) {
        k = rfl__ox_cat(buf, size, k, "-");
        return rfl__ox_catu(buf, size, k, (uint64_t)0 - (uint64_t)v);
    }
    return rfl__ox_catu(buf, size, k, (uint64_t)v);
}

/* A wire error at stream offset `at`: "byte N: what (in Message field F)". */
static rfl_result rfl__ox_wire_err(rfl_onnx_state *st, rfl_result r, uint64_t at, const char *what) {
    char *m = st->err.msg;
    size_t k;
    if (st->err.code) return st->err.code;
    st->err.code = r;
    st->err.offset = at;
    k = rfl__ox_cat(m, sizeof st->err.msg, 0, "byte ");
    k = rfl__ox_catu(m, sizeof st->err.msg, k, at);
    k = rfl__ox_cat(m, sizeof st->err.msg, k, ": ");
    k = rfl__ox_cat(m, sizeof st->err.msg, k, what);
    if (st->depth > 0) {
        k = rfl__ox_cat(m, sizeof st->err.msg, k, " (in ");
        k = rfl__ox_cat(m, sizeof st->err.msg, k, rfl__ox_msg_names[st->frames[st->depth - 1].type]);
        k = rfl__ox_cat(m, sizeof st->err.msg, k, ")");
    }
    return r;
}

RFL_API rfl_result rfl_onnx_init(rfl_onnx_state *st, void *arena, size_t size) {
    if (!st) return RFL_ERR_ARG;
    RFL_MEMSET(st, 0, sizeof *st);
    rfl__err_clear(&st->err);
    st->arena = (unsigned char *)arena;
    st->size = arena ? size : 0;
    /* the ModelProto itself: open until the end of the stream */
    st->frames[0].end = (uint64_t)-1;
    st->frames[0].type = RFL__OX_MODEL;
    st->depth = 1;
    st->phase = RFL__OXP_TAG;
    return RFL_OK;
}

/* Copy kept bytes into the arena; past its end only count them. */
static void rfl__ox_emit(rfl_onnx_state *st, const unsigned char *p, size_t n) {
    if (st->arena && st->used <= st->size && n <= st->size - st->used)
        RFL_MEMCPY(st->arena + st->used, p, n);
    st->used += n;
}

/* A message ends: rewrite its length varint (same width) with what was kept. */
static void rfl__ox_pop(rfl_onnx_state *st) {
    rfl__onnx_frame *fr = &st->frames[--st->depth];
    size_t len = st->used - fr->body_at;
    unsigned i;
    if (!st->arena || st->used > st->size) return;
    for (i = 0; i < fr->len_width; i++) {
        unsigned char b = (unsigned char)(len & 0x7F);
        len >>= 7;
        if (i + 1 < fr->len_width) b |= 0x80;
        st->arena[fr->len_at + i] = b;
    }
}

/* After a field: close every message that ends here; a field that runs
   past its message's end is an error. */
static rfl_result rfl__ox_field_done(rfl_onnx_state *st) {
    st->phase = RFL__OXP_TAG;
    st->hdr_len = 0;
    st->val = 0;
    st->shift = 0;
    while (st->depth > 1 && st->offset >= st->frames[st->depth - 1].end) {
        if (st->offset > st->frames[st->depth - 1].end)
            return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start,
                                    "field runs past the end of its message");
        rfl__ox_pop(st);
    }
    return RFL_OK;
}

/* One more varint byte into st->val; 1 when the varint is complete. */
static int rfl__ox_varint_byte(rfl_onnx_state *st, unsigned char b, rfl_result *err) {
    if (st->shift >= 64 || (st->shift == 63 && (b & 0x7E))) {
        *err = rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start, "varint longer than 64 bits");
        return 0;
    }
    st->val |= (uint64_t)(b & 0x7F) << st->shift;
    st->shift += 7;
    if (st->hdr_len < sizeof st->hdr) st->hdr[st->hdr_len++] = b;
    return !(b & 0x80);
}

/* The tag is complete: pick the field's action and the next phase. */
static rfl_result rfl__ox_on_tag(rfl_onnx_state *st) {
    uint64_t tag = st->val;
    int msg = st->frames[st->depth - 1].type;
    if (tag >> 32 || (tag >> 3) == 0)
        return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start, "bad field number");
    st->field = (uint32_t)(tag >> 3);
    st->wire = (unsigned)(tag & 7);
    st->action = rfl__ox_action(msg, st->field);
    st->val = 0;
    st->shift = 0;
    switch (st->wire) {
    case 0: st->phase = RFL__OXP_VARINT; break;
    case 1: st->phase = RFL__OXP_FIXED, st->remain = 8; break;
    case 5: st->phase = RFL__OXP_FIXED, st->remain = 4; break;
    case 2: st->phase = RFL__OXP_LEN; break;
    default:
        return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start,
                                "wire type 3, 4, 6 or 7 (not ONNX protobuf)");
    }
    if (st->action >= RFL__OX_MSG && st->wire != 2)
        return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start,
                                "a message field with a scalar wire type");
    return RFL_OK;
}

/* Open a sub-message of len bytes (its header is in hdr). */
static rfl_result rfl__ox_open(rfl_onnx_state *st, uint64_t len, unsigned len_width) {
    rfl__onnx_frame *fr;
    int type = st->action - RFL__OX_MSG;
    if (st->depth >= RFL_ONNX_MAX_DEPTH)
        return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start, "messages nested too deep");
    rfl__ox_emit(st, st->hdr, st->hdr_len);
    fr = &st->frames[st->depth++];
    fr->end = st->offset + len;
    fr->len_at = st->used - len_width;
    fr->body_at = st->used;
    fr->len_width = (uint8_t)len_width;
    fr->type = (uint8_t)type;
    st->counts[type]++;
    return rfl__ox_field_done(st); /* an empty message closes at once */
}

/* The length of a length-delimited field is complete: follow, keep or skip. */
static rfl_result rfl__ox_on_len(rfl_onnx_state *st, unsigned len_width) {
    uint64_t len = st->val;
    int msg = st->frames[st->depth - 1].type, a = st->action;
    if (len > st->frames[st->depth - 1].end - st->offset)
        return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start,
                                "length runs past the end of its message");
    if (a >= RFL__OX_MSG) return rfl__ox_open(st, len, len_width);
    if (a == RFL__OX_NAME && len > RFL_ONNX_NAME_MAX)
        return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start, "name longer than 4096 bytes");
    if ((a == RFL__OX_STRING && len > RFL_ONNX_NAME_MAX) ||
        (a == RFL__OX_DATA && len > RFL_ONNX_KEEP_BYTES) ||
        ((a == RFL__OX_LIST || a == RFL__OX_SCALAR) && len > 65536))
        a = RFL__OX_SKIP;
    st->remain = len;
    if (a == RFL__OX_SKIP) {
        st->phase = RFL__OXP_SKIP;
    } else {
        if (a == RFL__OX_NAME || a == RFL__OX_STRING) {
            st->counts[RFL__OXC_STR] += len + 1;
            if (msg == RFL__OX_NODE && (st->field == 1 || st->field == 2))
                st->counts[RFL__OXC_IO]++;
            if (msg == RFL__OX_NODE && st->field == 2) st->counts[RFL__OXC_OUT]++;
        } else {
            st->counts[RFL__OXC_ELEMS] += len; /* >= 1 byte per element */
        }
        rfl__ox_emit(st, st->hdr, st->hdr_len);
        st->phase = RFL__OXP_COPY;
    }
    st->action = a;
    if (len == 0) return rfl__ox_field_done(st);
    return RFL_OK;
}

/* The byte machine over one chunk. Payload phases take whole runs. */
static rfl_result rfl__ox_run(rfl_onnx_state *st, const unsigned char *p, size_t n) {
    size_t i = 0;
    rfl_result r = RFL_OK;
    while (i < n) {
        unsigned char b;
        if (st->phase == RFL__OXP_COPY || st->phase == RFL__OXP_SKIP) {
            size_t take = (st->remain < (uint64_t)(n - i)) ? (size_t)st->remain : n - i;
            if (st->phase == RFL__OXP_COPY) rfl__ox_emit(st, p + i, take);
            i += take, st->offset += take, st->remain -= take;
            if (!st->remain && (r = rfl__ox_field_done(st)) != RFL_OK) return r;
            continue;
        }
        b = p[i++];
        if (st->phase == RFL__OXP_TAG && st->hdr_len == 0) st->field_start = st->offset;
        st->offset++;
        switch (st->phase) {
        case RFL__OXP_TAG:
            if (st->hdr_len >= 5 && (b & 0x80))
                return rfl__ox_wire_err(st, RFL_ERR_FORMAT, st->field_start, "bad field tag");
            if (rfl__ox_varint_byte(st, b, &r)) r = rfl__ox_on_tag(st);
            break;
        case RFL__OXP_LEN: {
            unsigned before = st->hdr_len;
            if (rfl__ox_varint_byte(st, b, &r)) {
                unsigned w = 0, k;
                /* width of the length varint: bytes since the tag's end */
                for (k = 0; k < before + 1; k++)
                    if (!(st->hdr[k] & 0x80)) { w = before + 1 - k - 1; break; }
                r = rfl__ox_on_len(st, w);
            }
            break;
        }
        case RFL__OXP_VARINT:
            if (rfl__ox_varint_byte(st, b, &r)) {
                if (st->action != RFL__OX_SKIP) {
                    rfl__ox_emit(st, st->hdr, st->hdr_len);
                    st->counts[RFL__OXC_ELEMS]++;
                }
                r = rfl__ox_field_done(st);
            }
            break;
        case RFL__OXP_FIXED:
            if (st->hdr_len < sizeof st->hdr) st->hdr[st->hdr_len++] = b;
            if (--st->remain == 0) {
                if (st->action != RFL__OX_SKIP) {
                    rfl__ox_emit(st, st->hdr, st->hdr_len);
                    st->counts[RFL__OXC_ELEMS]++;
                }
                r = rfl__ox_field_done(st);
            }
            break;
        default: break;
        }
        if (r) return r;
    }
    return RFL_OK;
}

RFL_API rfl_result rfl_onnx_push(rfl_onnx_state *st, const void *data, size_t len) {
    rfl_result r;
    if (!st) return RFL_ERR_ARG;
    if (st->err.code) return st->err.code;
    if (st->finished) return RFL_ERR_STATE;
    if (!data && len) return RFL_ERR_ARG;
    r = rfl__ox_run(st, (const unsigned char *)data, len);
    st->skip = st->phase == RFL__OXP_SKIP ? st->remain : 0;
    return r;
}

RFL_API rfl_result rfl_onnx_skip(rfl_onnx_state *st, uint64_t n) {
    if (!st) return RFL_ERR_ARG;
    if (st->err.code) return st->err.code;
    if (st->phase != RFL__OXP_SKIP || n > st->remain) return RFL_ERR_ARG;
    st->offset += n;
    st->seeked += n;
    st->remain -= n;
    st->skip = st->remain;
    if (!st->remain) return rfl__ox_field_done(st);
    return RFL_OK;
}

/* ---- finish: the compact copy into arrays -------------------------------------- */

/* Per-value scratch of the build (shape, folded constant, its record). */
#define RFL__OX_CONSTS 8
typedef struct rfl__ox_slot {
    int64_t dim[RFL_ONNX_MAX_RANK];
    int64_t cv[RFL__OX_CONSTS]; /* folded values (a double's bits when isfloat) */
    const int64_t *ext_i;       /* or the graph's kept data */
    const double *ext_f;
    int32_t rank;               /* -1: unknown */
    int32_t nconst;             /* elements of a known constant, -1: none */
    int32_t record;             /* producing layer record, -1: none */
    uint64_t pending;           /* parameters not yet claimed by a record */
    uint8_t batched, isfloat, done, bdep; /* bdep: values depend on the batch */
    uint8_t bax1;               /* batch axis + 1 when a rule knows it, else 0 */
} rfl__ox_slot;

/* An in-memory protobuf reader over the compact copy. */
typedef struct rfl__pb {
    const unsigned char *p, *end;
} rfl__pb;

static int rfl__pb_varint(rfl__pb *r, uint64_t *v) {
    unsigned shift = 0;
    *v = 0;
    while (r->p < r->end && shift < 64) {
        unsigned char b = *r->p++;
        *v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) return 1;
        shift += 7;
    }
    return 0;
}
/* Next field: 1 and its number, wire type, value (wire 0, 1, 5) or body
   (wire 2); 0 at the end or on a malformed field. */
static int rfl__pb_next(rfl__pb *r, uint32_t *f, unsigned *wire, uint64_t *v, rfl__pb *sub) {
    uint64_t tag, len;
    unsigned k, n;
    if (r->p >= r->end || !rfl__pb_varint(r, &tag)) return 0;
    *f = (uint32_t)(tag >> 3);
    *wire = (unsigned)(tag & 7);
    *v = 0;
    switch (*wire) {
    case 0: return rfl__pb_varint(r, v);
    case 1: case 5:
        n = *wire == 1 ? 8 : 4;
        if ((size_t)(r->end - r->p) < n) return 0;
        for (k = 0; k < n; k++) *v |= (uint64_t)r->p[k] << (8 * k);
        r->p += n;
        return 1;
    case 2:
        if (!rfl__pb_varint(r, &len) || len > (uint64_t)(r->end - r->p)) return 0;
        sub->p = r->p;
        sub->end = r->p + len;
        r->p += len;
        *v = len;
        return 1;
    default: return 0;
    }
}

typedef struct rfl__ox_fin {
    rfl_onnx_state *st;
    rfl_onnx_graph *g;
    unsigned char *base;
    size_t pos, size;
    rfl_onnx_node *nodes;
    rfl_onnx_attr *attrs;
    int *io;
    rfl_onnx_value *values;
    rfl_onnx_dim *dims;
    int64_t *el;  /* kept elements: int64, or double through memcpy */
    char *str;
    int *hash, *ins, *outs;
    size_t n_io, n_dims, n_el, n_str, cap_io, cap_dims, cap_el, cap_str;
    int n_nodes, n_attrs, n_values, cap_nodes, cap_attrs, cap_values, n_ins, n_outs, cap_vi;
    uint32_t hmask;
} rfl__ox_fin;

static size_t rfl__ox_align(size_t n) { return (n + 7u) & ~(size_t)7u; }
static uint64_t rfl__ox_align64(uint64_t n) { return (n + 7u) & ~(uint64_t)7u; }

/* The bytes finish and build need beyond the compact copy, from the
   stream counters; 0 when it overflows. */
static uint64_t rfl__ox_tables_size(const uint64_t *c, uint32_t *hsize) {
    uint64_t vals = c[RFL__OX_TENSOR] + c[RFL__OX_VINFO] + c[RFL__OXC_OUT] + 1, h = 16, t = 0;
    if (vals > 0x10000000u || c[RFL__OXC_ELEMS] > ((uint64_t)1 << 40) ||
        c[RFL__OXC_STR] > ((uint64_t)1 << 40) || c[RFL__OX_DIM] > ((uint64_t)1 << 40))
        return 0;
    while (h < 2 * vals) h *= 2;
    *hsize = (uint32_t)h;
    t += rfl__ox_align64(c[RFL__OX_NODE] * sizeof(rfl_onnx_node));
    t += rfl__ox_align64(c[RFL__OX_ATTR] * sizeof(rfl_onnx_attr));
    t += rfl__ox_align64(c[RFL__OXC_IO] * sizeof(int));
    t += rfl__ox_align64(vals * sizeof(rfl_onnx_value));
    t += rfl__ox_align64((c[RFL__OX_DIM] + c[RFL__OXC_ELEMS]) * sizeof(rfl_onnx_dim));
    t += rfl__ox_align64(c[RFL__OXC_ELEMS] * 8);
    t += rfl__ox_align64(c[RFL__OXC_STR]);
    t += rfl__ox_align64(h * sizeof(int));
    t += 2 * rfl__ox_align64(c[RFL__OX_VINFO] * sizeof(int));
    t += rfl__ox_align64(vals * sizeof(rfl__ox_slot));
    return t;
}

static void *rfl__ox_take(rfl__ox_fin *F, size_t bytes) {
    void *p = F->base + F->pos;
    F->pos += rfl__ox_align(bytes);
    return p;
}

/* A graph error: RFL_ERR_* with "a 'x'..." assembled from parts; where c
   starts with "': ", the part before it names the place ("tensor 'w'"). */
static rfl_result rfl__ox_gerr(rfl__ox_fin *F, rfl_result r, const char *a, const char *b,
                               const char *c, const char *d) {
    rfl_error *e = &F->st->err;
    size_t k = 0;
    if (e->code) return e->code;
    e->code = r;
    e->offset = F->st->offset;
    if (c[0] == '\'' && c[1] == ':' && c[2] == ' ') {
        k = rfl__ox_cat(e->where, sizeof e->where, k, a);
        k = rfl__ox_cat(e->where, sizeof e->where, k, b);
        rfl__ox_cat(e->where, sizeof e->where, k, "'");
        c += 3, a = b = "", k = 0;
    }
    k = rfl__ox_cat(e->msg, sizeof e->msg, k, a);
    k = rfl__ox_cat(e->msg, sizeof e->msg, k, b);
    k = rfl__ox_cat(e->msg, sizeof e->msg, k, c);
    rfl__ox_cat(e->msg, sizeof e->msg, k, d);
    return r;
}

static const char *rfl__ox_strdup(rfl__ox_fin *F, const rfl__pb *s) {
    size_t n = (size_t)(s->end - s->p);
    char *d;
    if (n + 1 > F->cap_str - F->n_str) return "";
    d = F->str + F->n_str;
    RFL_MEMCPY(d, s->p, n);
    d[n] = 0;
    F->n_str += n + 1;
    return d;
}

static uint32_t rfl__ox_hash(const unsigned char *s, size_t n) {
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ s[i]) * 16777619u;
    return h;
}
static int rfl__ox_name_is(const char *name, const rfl__pb *s) {
    size_t n = (size_t)(s->end - s->p), i;
    for (i = 0; i < n; i++)
        if (name[i] != (char)s->p[i]) return 0;
    return name[n] == 0;
}
/* Index of the value named s; with create, a new one when absent.
   -1 when absent (or no room). */
static int rfl__ox_lookup(rfl__ox_fin *F, const rfl__pb *s, int create) {
    uint32_t h = rfl__ox_hash(s->p, (size_t)(s->end - s->p)) & F->hmask;
    rfl_onnx_value *v;
    while (F->hash[h] >= 0) {
        if (rfl__ox_name_is(F->values[F->hash[h]].name, s)) return F->hash[h];
        h = (h + 1) & F->hmask;
    }
    if (!create || F->n_values >= F->cap_values) return -1;
    v = &F->values[F->n_values];
    RFL_MEMSET(v, 0, sizeof *v);
    v->name = rfl__ox_strdup(F, s);
    v->rank = -1;
    v->producer = -1;
    F->hash[h] = F->n_values;
    return F->n_values++;
}
static int rfl__ox_new_value(rfl__ox_fin *F) {
    rfl_onnx_value *v;
    if (F->n_values >= F->cap_values) return -1;
    v = &F->values[F->n_values];
    RFL_MEMSET(v, 0, sizeof *v);
    v->name = "";
    v->rank = -1;
    v->producer = -1;
    return F->n_values++;
}

/* Elements of a repeated scalar field (packed or not) into F->el. */
static void rfl__ox_put_el(rfl__ox_fin *F, int64_t x) {
    if (F->n_el < F->cap_el) F->el[F->n_el++] = x;
}
static void rfl__ox_put_real(rfl__ox_fin *F, double x) {
    if (F->n_el < F->cap_el) RFL_MEMCPY(F->el + F->n_el++, &x, sizeof x);
}
static double rfl__ox_f32(uint64_t bits) {
    uint32_t u = (uint32_t)bits;
    float x;
    RFL_MEMCPY(&x, &u, sizeof x);
    return (double)x;
}
static double rfl__ox_f64(uint64_t bits) {
    double x;
    RFL_MEMCPY(&x, &bits, sizeof x);
    return x;
}
/* kind 0: varint ints, 1: fixed32 floats, 2: fixed64 doubles */
static int rfl__ox_list(rfl__ox_fin *F, unsigned wire, uint64_t v, rfl__pb *sub, int kind) {
    int n = 0;
    if (wire == 2) {
        rfl__pb r = *sub;
        while (r.p < r.end) {
            uint64_t x = 0;
            unsigned k;
            if (kind == 0) {
                if (!rfl__pb_varint(&r, &x)) break;
                rfl__ox_put_el(F, (int64_t)x);
            } else {
                unsigned w = kind == 1 ? 4 : 8;
                if ((size_t)(r.end - r.p) < w) break;
                for (k = 0; k < w; k++) x |= (uint64_t)r.p[k] << (8 * k);
                r.p += w;
                rfl__ox_put_real(F, kind == 1 ? rfl__ox_f32(x) : rfl__ox_f64(x));
            }
            n++;
        }
        return n;
    }
    if (kind == 0) rfl__ox_put_el(F, (int64_t)v);
    else rfl__ox_put_real(F, kind == 1 ? rfl__ox_f32(v) : rfl__ox_f64(v));
    return 1;
}

static int rfl__ox_is_float_type(int t) { return t == 1 || t == 10 || t == 11 || t == 16 || (t >= 17 && t <= 20); }

/* Little-endian raw_data of a kept tensor into elements. */
static int rfl__ox_raw(rfl__ox_fin *F, const rfl__pb *s, int type) {
    size_t n = (size_t)(s->end - s->p), w, i, k;
    int sgn = (type == 3 || type == 5 || type == 6 || type == 7);
    w = (type == 7 || type == 11 || type == 13) ? 8 : (type == 1 || type == 6 || type == 12) ? 4
      : (type == 4 || type == 5) ? 2 : (type == 2 || type == 3 || type == 9) ? 1 : 0;
    if (!w || n % w) return 0;
    for (i = 0; i < n / w; i++) {
        uint64_t x = 0;
        for (k = 0; k < w; k++) x |= (uint64_t)s->p[i * w + k] << (8 * k);
        if (type == 1) rfl__ox_put_real(F, rfl__ox_f32(x));
        else if (type == 11) rfl__ox_put_real(F, rfl__ox_f64(x));
        else if (sgn && w < 8 && (x >> (8 * w - 1)) & 1) rfl__ox_put_el(F, (int64_t)(x | (~(uint64_t)0 << (8 * w))));
        else rfl__ox_put_el(F, (int64_t)x);
    }
    return (int)(n / w);
}

/* Element count of a value's dims, checked; 0 with *ok = 0 on overflow. */
static uint64_t rfl__ox_numel(const rfl_onnx_value *v, int *ok) {
    uint64_t n = 1;
    int i;
    *ok = 1;
    for (i = 0; i < v->rank; i++) {
        uint64_t d = (uint64_t)v->dims[i].value;
        if (v->dims[i].value < 0) return 0;
        if (d && n > (uint64_t)-1 / d) { *ok = 0; return 0; }
        n *= d;
    }
    return n;
}

/* A TensorProto: dims, type, name, kept data. Returns the value index. */
static int rfl__ox_tensor(rfl__ox_fin *F, rfl__pb body, int named) {
    rfl__pb r = body, sub, name;
    uint32_t f;
    unsigned w;
    uint64_t v;
    int type = 0, vi, rank = 0, ext = 0, n = 0;
    size_t d0 = F->n_dims, e0;
    rfl_onnx_value *val;
    name.p = name.end = body.p;
    /* first: dims, type, name, location (any order) */
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        if (f == 1) { /* dims go through el (the list reader), then into dims */
            size_t j;
            e0 = F->n_el;
            rfl__ox_list(F, w, v, &sub, 0);
            for (j = e0; j < F->n_el && F->n_dims < F->cap_dims; j++, rank++) {
                F->dims[F->n_dims].value = F->el[j];
                F->dims[F->n_dims++].param = (const char *)0;
            }
            F->n_el = e0;
        } else if (f == 2 && w == 0) {
            type = (int)v;
        } else if (f == 8 && w == 2) {
            name = sub;
        } else if (f == 14 && w == 0) {
            ext = v == 1;
        }
    }
    vi = named ? rfl__ox_lookup(F, &name, 1) : rfl__ox_new_value(F);
    if (vi < 0) return -1;
    val = &F->values[vi];
    val->dims = F->dims + d0;
    val->rank = rank;
    val->elem_type = type;
    val->flags |= RFL_ONNX_HAS_SHAPE | (ext ? RFL_ONNX_EXTERNAL : 0u);
    /* then: the kept data */
    e0 = F->n_el;
    r = body;
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        if (f == 9 && w == 2) n += rfl__ox_raw(F, &sub, type);
        else if ((f == 5 || f == 7 || f == 11) && !rfl__ox_is_float_type(type)) n += rfl__ox_list(F, w, v, &sub, 0);
        else if (f == 4 && type == 1) n += rfl__ox_list(F, w, v, &sub, 1);
        else if (f == 10 && type == 11) n += rfl__ox_list(F, w, v, &sub, 2);
    }
    if (n > 0) {
        val->n_data = n;
        if (type == 1 || type == 11) val->reals = (const double *)(const void *)(F->el + e0);
        else val->ints = F->el + e0;
    }
    return vi;
}

/* A ValueInfoProto (graph input, output or value_info): elem type, dims. */
static int rfl__ox_vinfo(rfl__ox_fin *F, rfl__pb body) {
    rfl__pb r = body, sub, t, tt, sh, dm, name;
    uint32_t f, f2;
    unsigned w, w2;
    uint64_t v, v2;
    int vi, type = 0, rank = -1;
    size_t d0 = F->n_dims;
    name.p = name.end = body.p;
    t.p = t.end = body.p;
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        if (f == 1 && w == 2) name = sub;
        else if (f == 2 && w == 2) t = sub;
    }
    vi = rfl__ox_lookup(F, &name, 1);
    if (vi < 0) return -1;
    /* TypeProto.tensor_type -> elem_type, shape -> dims */
    while (rfl__pb_next(&t, &f, &w, &v, &sub)) {
        if (f != 1 || w != 2) continue;
        tt = sub;
        while (rfl__pb_next(&tt, &f, &w, &v, &sub)) {
            if (f == 1 && w == 0) type = (int)v;
            if (f != 2 || w != 2) continue;
            sh = sub;
            rank = 0;
            while (rfl__pb_next(&sh, &f, &w, &v, &sub)) {
                rfl_onnx_dim *d;
                if (f != 1 || w != 2 || F->n_dims >= F->cap_dims) continue;
                d = &F->dims[F->n_dims++];
                d->value = -1;
                d->param = (const char *)0;
                rank++;
                dm = sub;
                while (rfl__pb_next(&dm, &f2, &w2, &v2, &sub)) {
                    if (f2 == 1 && w2 == 0) d->value = (int64_t)v2;
                    else if (f2 == 2 && w2 == 2) d->param = rfl__ox_strdup(F, &sub), d->value = -1;
                }
            }
        }
    }
    if (F->values[vi].elem_type == 0) F->values[vi].elem_type = type;
    if (rank >= 0 && !(F->values[vi].flags & RFL_ONNX_HAS_SHAPE)) {
        F->values[vi].rank = rank;
        F->values[vi].dims = F->dims + d0;
        F->values[vi].flags |= RFL_ONNX_HAS_SHAPE;
    }
    return vi;
}

/* Check a value's dims: a negative dim is an error naming the tensor. */
static rfl_result rfl__ox_check_dims(rfl__ox_fin *F, const rfl_onnx_value *v) {
    int i;
    for (i = 0; i < v->rank; i++)
        if (v->dims[i].value < -1 || (v->dims[i].value == -1 && !v->dims[i].param &&
                                      (v->flags & RFL_ONNX_INITIALIZER)))
            return rfl__ox_gerr(F, RFL_ERR_FORMAT, "tensor '", v->name, "': negative dim", "");
    return RFL_OK;
}

/* An AttributeProto into attrs[k]. */
static void rfl__ox_attr(rfl__ox_fin *F, rfl__pb body, rfl_onnx_attr *a) {
    rfl__pb r = body, sub;
    uint32_t f;
    unsigned w;
    uint64_t v;
    size_t e0;
    RFL_MEMSET(a, 0, sizeof *a);
    a->name = "";
    a->tensor = -1;
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        switch (f) {
        case 1: if (w == 2) a->name = rfl__ox_strdup(F, &sub); break;
        case 2: if (w == 5) a->f = rfl__ox_f32(v); break;
        case 3: if (w == 0) a->i = (int64_t)v; break;
        case 4: if (w == 2) a->s = rfl__ox_strdup(F, &sub); break;
        case 5: if (w == 2) a->tensor = rfl__ox_tensor(F, sub, 0); break;
        case 7: /* floats: elements of one attribute are contiguous */
            e0 = F->n_el;
            a->n += rfl__ox_list(F, w, v, &sub, 1);
            if (!a->floats) a->floats = (const double *)(const void *)(F->el + e0);
            break;
        case 8:
            e0 = F->n_el;
            a->n += rfl__ox_list(F, w, v, &sub, 0);
            if (!a->ints) a->ints = F->el + e0;
            break;
        case 20: if (w == 0) a->type = (int)v; break;
        default: break;
        }
    }
}

/* A NodeProto into nodes[k]: names, outputs (their producer), attributes;
   inputs are resolved once every value is known (rfl__ox_inputs). */
static rfl_result rfl__ox_node(rfl__ox_fin *F, rfl__pb body, int k) {
    rfl__pb r = body, sub;
    uint32_t f;
    unsigned w;
    uint64_t v;
    int nin = 0, nout = 0, nat = 0, *io;
    rfl_onnx_node *n = &F->nodes[k];
    while (rfl__pb_next(&r, &f, &w, &v, &sub))
        nin += f == 1 && w == 2, nout += f == 2 && w == 2, nat += f == 5 && w == 2;
    if ((size_t)(nin + nout) > F->cap_io - F->n_io || nat > F->cap_attrs - F->n_attrs)
        return rfl__ox_gerr(F, RFL_ERR_FORMAT, "node tables overflow", "", "", "");
    io = F->io + F->n_io;
    F->n_io += (size_t)(nin + nout);
    RFL_MEMSET(n, 0, sizeof *n);
    n->name = n->op_type = n->domain = "";
    n->inputs = io, n->outputs = io + nin, n->attrs = F->attrs + F->n_attrs;
    r = body;
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        if (w != 2) continue;
        if (f == 1) io[n->n_inputs++] = -1;
        else if (f == 3) n->name = rfl__ox_strdup(F, &sub);
        else if (f == 4) n->op_type = rfl__ox_strdup(F, &sub);
        else if (f == 7) n->domain = rfl__ox_strdup(F, &sub);
        else if (f == 5) rfl__ox_attr(F, sub, &F->attrs[F->n_attrs++]), n->n_attrs++;
    }
    r = body;
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        int vi;
        if (f != 2 || w != 2) continue;
        if (sub.p == sub.end) { io[nin + n->n_outputs++] = -1; continue; }
        vi = rfl__ox_lookup(F, &sub, 1);
        if (vi < 0) return rfl__ox_gerr(F, RFL_ERR_FORMAT, "value table overflow", "", "", "");
        if (F->values[vi].producer >= 0 || (F->values[vi].flags & RFL_ONNX_INITIALIZER))
            return rfl__ox_gerr(F, RFL_ERR_GRAPH, "node '", n->name[0] ? n->name : n->op_type,
                                "': output produced twice: ", F->values[vi].name);
        F->values[vi].producer = k;
        io[nin + n->n_outputs++] = vi;
    }
    return RFL_OK;
}

/* Second pass over a node: its input names to value indexes. */
static rfl_result rfl__ox_inputs(rfl__ox_fin *F, rfl__pb body, int k) {
    rfl__pb r = body, sub;
    uint32_t f;
    unsigned w;
    uint64_t v;
    int i = 0, *io = (int *)F->nodes[k].inputs;
    const rfl_onnx_node *n = &F->nodes[k];
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        int vi;
        const rfl_onnx_value *val;
        if (f != 1 || w != 2) continue;
        if (sub.p == sub.end) { io[i++] = -1; continue; } /* an omitted optional input */
        vi = rfl__ox_lookup(F, &sub, 0);
        val = vi >= 0 ? &F->values[vi] : (const rfl_onnx_value *)0;
        if (!val || (val->producer < 0 && !(val->flags & (RFL_ONNX_INPUT | RFL_ONNX_INITIALIZER)))) {
            char nm[64];
            size_t len = (size_t)(sub.end - sub.p);
            if (len > sizeof nm - 1) len = sizeof nm - 1;
            RFL_MEMCPY(nm, sub.p, len);
            nm[len] = 0;
            return rfl__ox_gerr(F, RFL_ERR_GRAPH, "node '", n->name[0] ? n->name : n->op_type,
                                "': unknown input name ", nm);
        }
        io[i++] = vi;
    }
    return RFL_OK;
}

/* GraphProto: pass 0 creates values and nodes, pass 1 resolves inputs. */
static rfl_result rfl__ox_graph(rfl__ox_fin *F, rfl__pb body, int pass) {
    rfl__pb r = body, sub;
    uint32_t f;
    unsigned w;
    uint64_t v;
    int k = 0, vi;
    rfl_result e = RFL_OK;
    while (!e && rfl__pb_next(&r, &f, &w, &v, &sub)) {
        if (w != 2) continue;
        if (f == 1 && pass == 1) e = rfl__ox_inputs(F, sub, k++);
        if (pass == 1) continue;
        if (f == 1) {
            if (F->n_nodes >= F->cap_nodes) return rfl__ox_gerr(F, RFL_ERR_FORMAT, "node overflow", "", "", "");
            e = rfl__ox_node(F, sub, F->n_nodes++);
        } else if (f == 5) {
            vi = rfl__ox_tensor(F, sub, 1);
            if (vi < 0) return rfl__ox_gerr(F, RFL_ERR_FORMAT, "value table overflow", "", "", "");
            if (F->values[vi].producer >= 0)
                return rfl__ox_gerr(F, RFL_ERR_GRAPH, "initializer '", F->values[vi].name,
                                    "' is also a node output", "");
            F->values[vi].flags |= RFL_ONNX_INITIALIZER;
            e = rfl__ox_check_dims(F, &F->values[vi]);
        } else if (f == 11 || f == 12 || f == 13) {
            vi = rfl__ox_vinfo(F, sub);
            if (vi < 0) return rfl__ox_gerr(F, RFL_ERR_FORMAT, "value table overflow", "", "", "");
            if (f == 11 && F->n_ins < F->cap_vi && !(F->values[vi].flags & RFL_ONNX_INPUT))
                F->ins[F->n_ins++] = vi, F->values[vi].flags |= RFL_ONNX_INPUT;
            if (f == 12 && F->n_outs < F->cap_vi && !(F->values[vi].flags & RFL_ONNX_OUTPUT))
                F->outs[F->n_outs++] = vi, F->values[vi].flags |= RFL_ONNX_OUTPUT;
            e = rfl__ox_check_dims(F, &F->values[vi]);
        }
    }
    return e;
}

/* Lay the tables out behind the compact copy. */
static void rfl__ox_layout(rfl__ox_fin *F, const uint64_t *c, uint32_t hsize) {
    size_t vals = (size_t)(c[RFL__OX_TENSOR] + c[RFL__OX_VINFO] + c[RFL__OXC_OUT] + 1);
    uint32_t i;
    F->cap_nodes = (int)c[RFL__OX_NODE];
    F->nodes = (rfl_onnx_node *)rfl__ox_take(F, (size_t)c[RFL__OX_NODE] * sizeof(rfl_onnx_node));
    F->cap_attrs = (int)c[RFL__OX_ATTR];
    F->attrs = (rfl_onnx_attr *)rfl__ox_take(F, (size_t)c[RFL__OX_ATTR] * sizeof(rfl_onnx_attr));
    F->cap_io = (size_t)c[RFL__OXC_IO];
    F->io = (int *)rfl__ox_take(F, F->cap_io * sizeof(int));
    F->cap_values = (int)vals;
    F->values = (rfl_onnx_value *)rfl__ox_take(F, vals * sizeof(rfl_onnx_value));
    F->cap_dims = (size_t)(c[RFL__OX_DIM] + c[RFL__OXC_ELEMS]);
    F->dims = (rfl_onnx_dim *)rfl__ox_take(F, F->cap_dims * sizeof(rfl_onnx_dim));
    F->cap_el = (size_t)c[RFL__OXC_ELEMS];
    F->el = (int64_t *)rfl__ox_take(F, F->cap_el * 8);
    F->cap_str = (size_t)c[RFL__OXC_STR];
    F->str = (char *)rfl__ox_take(F, F->cap_str);
    F->hmask = hsize - 1;
    F->hash = (int *)rfl__ox_take(F, hsize * sizeof(int));
    for (i = 0; i < hsize; i++) F->hash[i] = -1;
    F->cap_vi = (int)c[RFL__OX_VINFO];
    F->ins = (int *)rfl__ox_take(F, (size_t)F->cap_vi * sizeof(int));
    F->outs = (int *)rfl__ox_take(F, (size_t)F->cap_vi * sizeof(int));
    F->g->work = rfl__ox_take(F, vals * sizeof(rfl__ox_slot));
    F->g->work_size = vals * sizeof(rfl__ox_slot);
}

/* ModelProto: ir_version, the default domain's opset, the graph. */
static rfl_result rfl__ox_model(rfl__ox_fin *F, rfl__pb model) {
    rfl__pb r = model, sub, o, s2, graph;
    uint32_t f, f2;
    unsigned w, w2;
    uint64_t v, v2;
    rfl_result e;
    int has_graph = 0;
    graph.p = graph.end = model.p;
    while (rfl__pb_next(&r, &f, &w, &v, &sub)) {
        if (f == 1 && w == 0) F->g->ir_version = (int64_t)v;
        if (f == 7 && w == 2) graph = sub, has_graph = 1;
        if (f == 8 && w == 2) {
            int64_t ver = 0;
            int dflt = 1;
            o = sub;
            while (rfl__pb_next(&o, &f2, &w2, &v2, &s2)) {
                if (f2 == 1 && w2 == 2 && s2.end > s2.p && !(s2.end - s2.p == 7 &&
                    rfl__memeq(s2.p, "ai.onnx", 7)))
                    dflt = 0;
                if (f2 == 2 && w2 == 0) ver = (int64_t)v2;
            }
            if (dflt) F->g->opset = ver;
        }
    }
    if (!has_graph)
        return rfl__ox_gerr(F, RFL_ERR_FORMAT, "no graph: not an ONNX model", "", "", "");
    e = rfl__ox_graph(F, graph, 0);
    if (!e) e = rfl__ox_graph(F, graph, 1);
    return e;
}

/* Totals over the values: params (floating-point initializers) and the
   records a build may need. */
static rfl_result rfl__ox_totals(rfl__ox_fin *F) {
    rfl_onnx_graph *g = F->g;
    int i, ok;
    uint64_t n, rb = 1;
    for (i = 0; i < F->n_values; i++) {
        const rfl_onnx_value *v = &F->values[i];
        if (!(v->flags & RFL_ONNX_INITIALIZER)) continue;
        g->initializer_count++;
        n = rfl__ox_numel(v, &ok);
        if (!ok) return rfl__ox_gerr(F, RFL_ERR_OVERFLOW, "tensor '", v->name,
                                     "': element count overflows 64 bits", "");
        if (rfl__ox_is_float_type(v->elem_type)) {
            if (g->params + n < n) return rfl__ox_gerr(F, RFL_ERR_OVERFLOW, "params overflow", "", "", "");
            g->params += n;
        }
    }
    for (i = 0; i < F->n_nodes; i++) rb += (uint64_t)F->nodes[i].n_outputs;
    rb += (uint64_t)F->n_ins;
    g->record_bound = rb > 0x7FFFFFFF ? 0x7FFFFFFF : (int)rb;
    return RFL_OK;
}

RFL_API rfl_result rfl_onnx_finish(rfl_onnx_state *st, rfl_onnx_graph *g) {
    rfl__ox_fin F;
    uint32_t hsize = 0;
    uint64_t tables, need;
    size_t pad;
    rfl__pb model;
    rfl_result e;
    if (!st || !g) return RFL_ERR_ARG;
    RFL_MEMSET(g, 0, sizeof *g);
    if (st->err.code) return st->err.code;
    if (st->finished) return RFL_ERR_STATE;
    st->finished = 1;
    if (st->offset == 0) return rfl__ox_wire_err(st, RFL_ERR_EMPTY, 0, "empty input");
    if (st->phase != RFL__OXP_TAG || st->hdr_len || st->depth > 1)
        return rfl__ox_wire_err(st, RFL_ERR_TRUNCATED, st->offset,
                                "the stream ends inside a message (truncated file)");
    tables = rfl__ox_tables_size(st->counts, &hsize);
    need = (uint64_t)rfl__ox_align(st->used) + tables + 8;
    if (!tables || need > (uint64_t)(size_t)-1)
        return rfl__ox_wire_err(st, RFL_ERR_OVERFLOW, st->offset, "graph too large");
    st->need = (size_t)need;
    if (!st->arena) return RFL_OK; /* count mode */
    if (need > st->size) {
        size_t k = rfl__ox_cat(st->err.msg, sizeof st->err.msg, 0, "arena too small: ");
        k = rfl__ox_catu(st->err.msg, sizeof st->err.msg, k, need);
        rfl__ox_cat(st->err.msg, sizeof st->err.msg, k, " bytes needed");
        st->err.offset = st->offset;
        st->err.need = need;
        return st->err.code = RFL_ERR_BUFFER;
    }
    RFL_MEMSET(&F, 0, sizeof F);
    F.st = st;
    F.g = g;
    pad = (size_t)((8u - ((uintptr_t)(st->arena + st->used) & 7u)) & 7u);
    F.base = st->arena + st->used + pad;
    F.size = st->size - st->used - pad;
    model.p = st->arena;
    model.end = st->arena + st->used;
    rfl__ox_layout(&F, st->counts, hsize);
    e = rfl__ox_model(&F, model);
    if (!e) e = rfl__ox_totals(&F);
    if (e) return e;
    g->nodes = F.nodes, g->node_count = F.n_nodes;
    g->values = F.values, g->value_count = F.n_values;
    g->outputs = F.outs, g->output_count = F.n_outs;
    /* graph inputs, less those that are initializers (IR < 4 lists both) */
    {
        int i, n = 0;
        for (i = 0; i < F.n_ins; i++)
            if (!(F.values[F.ins[i]].flags & RFL_ONNX_INITIALIZER)) F.ins[n++] = F.ins[i];
        g->inputs = F.ins, g->input_count = n;
    }
    return RFL_OK;
}

/* ---- build: shapes, folded shape arithmetic, records ------------------------------
   Every value gets a slot (g->work): its dims at the inferred batch, and
   for small integer tensors (Shape -> Gather -> Concat -> Reshape chains)
   its values, so a Reshape's target shape is known. A tensor is "batched"
   when it derives from a graph input; nodes with a batched input become
   layer records, the others (weights arithmetic, folded constants) make
   none and hand their unclaimed parameters on to the first record that
   consumes them ("pending"). */
typedef struct rfl__ox_b {
    rfl_onnx_graph *g;
    const rfl_onnx_desc *d;
    rfl_net *net;
    rfl_onnx_info *info;
    rfl__ox_slot *s;
    uint64_t batch;
    int node;
    int bax;                 /* the batch axis of the graph inputs */
} rfl__ox_b;

/* Totals at the batch for one record; rfl__ox_record makes them per sample. */
typedef struct rfl__ox_cost {
    uint64_t mac, flops, bias;
    uint32_t arg[4];
    unsigned flags;
} rfl__ox_cost;

static const char *rfl__ox_node_label(const rfl_onnx_graph *g, const rfl_onnx_node *n) {
    if (n->name[0]) return n->name;
    if (n->n_outputs > 0 && n->outputs[0] >= 0) return g->values[n->outputs[0]].name;
    return n->op_type;
}

/* A build error naming the node: "node 'x' (Op): what detail". */
static rfl_result rfl__ox_berr(rfl__ox_b *B, rfl_result r, const char *what, const char *detail) {
    rfl_error *e = &B->info->err;
    size_t k = 0;
    if (e->code) return r;
    e->code = r;
    e->index = B->node;
    if (B->node >= 0) {
        const rfl_onnx_node *n = &B->g->nodes[B->node];
        k = rfl__ox_cat(e->where, sizeof e->where, k, "node '");
        k = rfl__ox_cat(e->where, sizeof e->where, k, rfl__ox_node_label(B->g, n));
        k = rfl__ox_cat(e->where, sizeof e->where, k, "' (");
        k = rfl__ox_cat(e->where, sizeof e->where, k, n->op_type);
        rfl__ox_cat(e->where, sizeof e->where, k, ")");
    }
    k = rfl__ox_cat(e->msg, sizeof e->msg, 0, what);
    rfl__ox_cat(e->msg, sizeof e->msg, k, detail);
    return r;
}

static int rfl__ox_streq(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

/* ---- attributes ---- */
static const rfl_onnx_attr *rfl__ox_attr_get(const rfl_onnx_node *n, const char *name) {
    int i;
    for (i = 0; i < n->n_attrs; i++)
        if (rfl__ox_streq(n->attrs[i].name, name)) return &n->attrs[i];
    return (const rfl_onnx_attr *)0;
}
static int64_t rfl__ox_attr_i(const rfl_onnx_node *n, const char *name, int64_t dflt) {
    const rfl_onnx_attr *a = rfl__ox_attr_get(n, name);
    return a ? a->i : dflt;
}
static const char *rfl__ox_attr_s(const rfl_onnx_node *n, const char *name) {
    const rfl_onnx_attr *a = rfl__ox_attr_get(n, name);
    return a && a->s ? a->s : "";
}
/* ints attribute: count (0 when absent), elements in *out */
static int rfl__ox_attr_ints(const rfl_onnx_node *n, const char *name, const int64_t **out) {
    const rfl_onnx_attr *a = rfl__ox_attr_get(n, name);
    *out = a ? a->ints : (const int64_t *)0;
    return a && a->ints ? a->n : 0;
}

/* ---- slots ---- */
static rfl__ox_slot *rfl__ox_in(rfl__ox_b *B, const rfl_onnx_node *n, int i) {
    if (i >= n->n_inputs || n->inputs[i] < 0) return (rfl__ox_slot *)0;
    return &B->s[n->inputs[i]];
}
static rfl__ox_slot *rfl__ox_out(rfl__ox_b *B, const rfl_onnx_node *n, int i) {
    if (i >= n->n_outputs || n->outputs[i] < 0) return (rfl__ox_slot *)0;
    return &B->s[n->outputs[i]];
}
/* double -> int64 without undefined behaviour: NaN 0, clamped. */
static int64_t rfl__ox_d2i(double x) {
    if (!(x == x)) return 0;
    if (x >= 9.2e18) return INT64_MAX;
    if (x <= -9.2e18) return INT64_MIN;
    return (int64_t)x;
}
static int64_t rfl__ox_geti(const rfl__ox_slot *s, int i) {
    double x;
    if (s->isfloat) {
        if (s->ext_f) x = s->ext_f[i];
        else RFL_MEMCPY(&x, &s->cv[i], sizeof x);
        return rfl__ox_d2i(x);
    }
    return s->ext_i ? s->ext_i[i] : s->cv[i];
}
static double rfl__ox_getf(const rfl__ox_slot *s, int i) {
    double x;
    if (!s->isfloat) return (double)rfl__ox_geti(s, i);
    if (s->ext_f) return s->ext_f[i];
    RFL_MEMCPY(&x, &s->cv[i], sizeof x);
    return x;
}
static void rfl__ox_setf(rfl__ox_slot *s, int i, double x) { RFL_MEMCPY(&s->cv[i], &x, sizeof x); }

/* Element count of a slot; 0 with *ok = 0 when unknown or overflowing. */
static uint64_t rfl__ox_count(const rfl__ox_slot *s, int *ok) {
    uint64_t n = 1;
    int i;
    *ok = s->rank >= 0;
    for (i = 0; i < s->rank; i++) {
        uint64_t d = (uint64_t)s->dim[i];
        if (d && n > (uint64_t)-1 / d) { *ok = 0; return 0; }
        n *= d;
    }
    return *ok ? n : 0;
}

/* An output's shape; dims must be >= 0. */
static rfl_result rfl__ox_shape(rfl__ox_b *B, rfl__ox_slot *o, const int64_t *dims, int rank) {
    int i, ok;
    if (!o) return RFL_OK;
    if (rank < 0 || rank > RFL_ONNX_MAX_RANK)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "rank above 8", "");
    for (i = 0; i < rank; i++) {
        if (dims[i] < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "negative output dim", "");
        o->dim[i] = dims[i];
    }
    o->rank = rank;
    rfl__ox_count(o, &ok);
    if (!ok) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "output size overflows 64 bits", "");
    return RFL_OK;
}

/* Values of a constant input into buf (at most max); -1 when not known. */
static int rfl__ox_consts(const rfl__ox_slot *s, int64_t *buf, int max) {
    int i;
    if (!s || s->nconst < 0 || s->nconst > max) return -1;
    for (i = 0; i < s->nconst; i++) buf[i] = rfl__ox_geti(s, i);
    return s->nconst;
}

/* ---- symbolic dims from the desc ("a=1,b=2") ---- */
static int rfl__ox_dim_lookup(const char *list, const char *name, int64_t *out) {
    const char *p = list;
    if (!p || !name) return 0;
    while (*p) {
        const char *q = name;
        while (*p == ' ' || *p == ',') p++;
        while (*q && *p == *q) p++, q++;
        if (!*q && *p == '=') {
            uint64_t v = 0;
            int digits = 0;
            p++;
            while (*p >= '0' && *p <= '9' && v < ((uint64_t)1 << 40)) v = v * 10 + (uint64_t)(*p++ - '0'), digits++;
            if (digits && (*p == 0 || *p == ',' || *p == ' ')) { *out = (int64_t)v; return 1; }
            return 0;
        }
        while (*p && *p != ',') p++;
    }
    return 0;
}

/* Dims of a value from the file into slot s: numbers, NAME=V, or the batch
   for a graph input's first axis. 0 and the missing name when unknown. */
static int rfl__ox_file_dims(rfl__ox_b *B, const rfl_onnx_value *v, rfl__ox_slot *s, int input,
                             const char **missing) {
    int i;
    int64_t x;
    if (!(v->flags & RFL_ONNX_HAS_SHAPE) || v->rank > RFL_ONNX_MAX_RANK) return 0;
    for (i = 0; i < v->rank; i++) {
        const rfl_onnx_dim *d = &v->dims[i];
        if (d->value >= 0) x = d->value;
        else if (d->param && rfl__ox_dim_lookup(B->d ? B->d->dims : (const char *)0, d->param, &x)) {}
        else if (i == B->bax && (input || (d->param && B->g->input_count > 0 &&
                                          B->g->values[B->g->inputs[0]].rank > B->bax &&
                                          B->g->values[B->g->inputs[0]].dims[B->bax].param &&
                                          rfl__ox_streq(d->param, B->g->values[B->g->inputs[0]].dims[B->bax].param))))
            x = (int64_t)B->batch;
        else {
            *missing = d->param ? d->param : "?";
            return 0;
        }
        s->dim[i] = x;
    }
    s->rank = v->rank;
    return 1;
}

/* ---- records ---- */
static uint64_t rfl__ox_per(uint64_t x, uint64_t b) { return x / b + (x % b != 0); }

/* Per-sample shape of slot s into L (rank <= 4: leading dims folded). */
static int rfl__ox_rec_shape(rfl__ox_b *B, const rfl__ox_slot *s, rfl_layer *L) {
    int64_t d[RFL_ONNX_MAX_RANK];
    int r = 0, i, start = 0;
    int ax = -1;
    for (i = 0; i < s->rank; i++) d[r++] = s->dim[i];
    /* the batch axis: the one a rule knows, else the first, else one equal
       to the batch (moved by a Transpose or Unsqueeze), else one it
       divides; it goes, or shrinks */
    if (s->batched && s->bax1 && s->bax1 <= r && (uint64_t)d[s->bax1 - 1] % B->batch == 0) ax = s->bax1 - 1;
    if (ax < 0 && s->batched && r > 0 && (uint64_t)d[0] % B->batch == 0) ax = 0;
    for (i = 0; ax < 0 && s->batched && i < r; i++)
        if ((uint64_t)d[i] == B->batch) ax = i;
    for (i = 0; ax < 0 && s->batched && i < r; i++)
        if (d[i] && (uint64_t)d[i] % B->batch == 0) ax = i;
    if (ax >= 0) {
        d[ax] = (int64_t)((uint64_t)d[ax] / B->batch);
        if (d[ax] == 1 && r > 1) {
            for (i = ax; i > 0; i--) d[i] = d[i - 1];
            start = 1;
        }
    }
    if (r == 0) d[r++] = 1;
    while (r - start > RFL_MAX_RANK) { /* fold the leading dims */
        if (d[start] && (uint64_t)d[start + 1] > 0xFFFFFFFFu / (uint64_t)d[start]) return 0;
        d[start + 1] *= d[start];
        start++;
    }
    L->rank = (uint8_t)(r - start);
    for (i = start; i < r; i++) {
        if ((uint64_t)d[i] > 0xFFFFFFFFu) return 0;
        L->shape[i - start] = (uint32_t)d[i];
    }
    return 1;
}

/* The record of output k of node n: totals at the batch made per sample,
   parameters claimed from the inputs, its inputs' records. */
static rfl_result rfl__ox_record(rfl__ox_b *B, const rfl_onnx_node *n, int k, rfl_op op,
                                 const rfl__ox_cost *c, int first) {
    rfl_net *net = B->net;
    rfl__ox_slot *o = rfl__ox_out(B, n, k);
    rfl_layer *L;
    uint64_t in = 0, numel, params = 0;
    int i, ok, nin = 0;
    if (!o) return RFL_OK;
    if (net->count >= net->cap) return rfl__ox_berr(B, RFL_ERR_BUFFER, "layer array full", "");
    L = &net->layers[net->count];
    RFL_MEMSET(L, 0, sizeof *L);
    L->name = (n->name[0] && n->n_outputs == 1) ? n->name : B->g->values[n->outputs[k]].name;
    L->cls = n->op_type;
    L->op = (uint8_t)op;
    L->in[0] = L->in[1] = RFL_NO_TENSOR;
    for (i = 0; i < n->n_inputs; i++) {
        rfl__ox_slot *x = rfl__ox_in(B, n, i);
        if (!x) continue;
        if (first) params += x->pending, x->pending = 0;
        if (!x->batched) continue;
        if (x->record >= 0 && nin < 2) {
            L->in[nin++] = x->record;
            if (net->layers[x->record].needs_grad) L->needs_grad = 1;
        }
        numel = rfl__ox_count(x, &ok);
        if (!ok || in + numel < in) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "input size overflows", "");
        in += numel;
    }
    numel = rfl__ox_count(o, &ok);
    if (!ok) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "output size overflows", "");
    L->params = params;
    L->in_numel = rfl__ox_per(in, B->batch);
    L->out_numel = o->batched ? rfl__ox_per(numel, B->batch) : numel;
    L->mac_flops = rfl__ox_per(c->mac, B->batch);
    L->flops = rfl__ox_per(c->flops, B->batch);
    L->bias_flops = rfl__ox_per(c->bias, B->batch);
    if (L->flops < L->mac_flops) L->flops = L->mac_flops;
    for (i = 0; i < 4; i++) L->arg[i] = c->arg[i];
    L->flags = (uint8_t)(c->flags | (o->batched ? 0u : (unsigned)RFL_LF_SHARED));
    if (!rfl__ox_rec_shape(B, o, L)) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "a dim above 2^32", "");
    if (L->params) { /* as the builder's commit */
        if (!L->needs_grad) L->flags |= RFL_LF_NOGRAD;
        L->needs_grad = 1;
    }
    if (c->flags & RFL_LF_UNKNOWN_FLOPS) {
        if (!B->info->unknown_op) B->info->unknown_op = n->op_type;
        B->info->unknown_ops++;
    }
    o->record = net->count++;
    return RFL_OK;
}

/* Does node n read a batched tensor (or batch-dependent shape values)? */
static int rfl__ox_batched_in(rfl__ox_b *B, const rfl_onnx_node *n, int *bdep) {
    int i, b = 0;
    *bdep = 0;
    for (i = 0; i < n->n_inputs; i++) {
        rfl__ox_slot *x = rfl__ox_in(B, n, i);
        if (!x) continue;
        if (x->batched) b = 1;
        if (x->bdep) *bdep = 1;
    }
    return b;
}

/* ---- broadcasting ---- */
static rfl_result rfl__ox_bcast(rfl__ox_b *B, const rfl__ox_slot *a, const rfl__ox_slot *b,
                                int64_t *out, int *rank) {
    int r = a->rank > b->rank ? a->rank : b->rank, i;
    for (i = 0; i < r; i++) {
        int ia = i - (r - a->rank), ib = i - (r - b->rank);
        int64_t da = ia >= 0 ? a->dim[ia] : 1, db = ib >= 0 ? b->dim[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "shapes do not broadcast", "");
        out[i] = da == 1 ? db : da;
    }
    *rank = r;
    return RFL_OK;
}

/* Flat index into a broadcast operand (row-major) for output index idx. */
static int rfl__ox_bidx(const rfl__ox_slot *s, const int64_t *od, int orank, int idx) {
    int i, pos = 0;
    int64_t stride = 1, rem = idx;
    int64_t coord[RFL_ONNX_MAX_RANK];
    for (i = orank - 1; i >= 0; i--) coord[i] = rem % (od[i] ? od[i] : 1), rem /= (od[i] ? od[i] : 1);
    for (i = s->rank - 1; i >= 0; i--) {
        int oi = i + (orank - s->rank);
        pos += (int)((s->dim[i] == 1 ? 0 : coord[oi]) * stride);
        stride *= s->dim[i];
    }
    return pos;
}

/* After an op's shape rule: outputs that are folded constants make no
   record; a node reading a batched tensor (or, for ops that write a tensor
   of a given shape, batch-dependent shape values) makes one record per
   output, the cost on the first; the rest (weights arithmetic) hand their
   unclaimed params to the first output. */
static rfl_result rfl__ox_conclude(rfl__ox_b *B, const rfl_onnx_node *n, rfl_op op,
                                   const rfl__ox_cost *c, int writes_shape) {
    int k, i, bdep, batched = rfl__ox_batched_in(B, n, &bdep), folded = 1;
    rfl__ox_cost z;
    rfl_result r = RFL_OK;
    for (k = 0; k < n->n_outputs; k++) {
        rfl__ox_slot *o = rfl__ox_out(B, n, k);
        if (o && o->nconst < 0) folded = 0;
    }
    if (folded) {
        for (k = 0; k < n->n_outputs; k++) {
            rfl__ox_slot *o = rfl__ox_out(B, n, k);
            if (o) o->bdep = (uint8_t)(o->bdep | bdep), o->batched = 0;
        }
        return RFL_OK;
    }
    /* a tensor made from shape values (ConstantOfShape, Expand, Range) is
       per sample when its first axis is the batch; a Range over the
       sequence length is not */
    if (!batched && bdep && writes_shape) {
        rfl__ox_slot *o = rfl__ox_out(B, n, 0);
        batched = o && o->rank > 0 && (uint64_t)o->dim[0] == B->batch;
    }
    if (batched) { /* the cost and the params on the first output present
                      (an LSTM's Y may be omitted) */
        int first = 1;
        RFL_MEMSET(&z, 0, sizeof z);
        z.flags = c->flags & ~(unsigned)RFL_LF_BIAS;
        for (k = 0; k < n->n_outputs && !r; k++) {
            rfl__ox_slot *o = rfl__ox_out(B, n, k);
            if (!o || o->rank < 0) continue;
            o->batched = 1;
            r = rfl__ox_record(B, n, k, op, first ? c : &z, first);
            first = 0;
        }
        return r;
    }
    for (i = 0; i < n->n_inputs; i++) { /* weights arithmetic: no record */
        rfl__ox_slot *x = rfl__ox_in(B, n, i), *o = rfl__ox_out(B, n, 0);
        if (x && o && x != o) o->pending += x->pending, x->pending = 0;
    }
    return RFL_OK;
}

static rfl_result rfl__ox_need(rfl__ox_b *B, const rfl__ox_slot *x, const char *what) {
    if (!x) return rfl__ox_berr(B, RFL_ERR_SHAPE, "missing input ", what);
    if (x->rank < 0) return rfl__ox_berr(B, RFL_ERR_UNSUPPORTED, "shape unknown of input ", what);
    return RFL_OK;
}

/* Normalise an axis against rank r (negative counts from the end). */
static int rfl__ox_axis(int64_t a, int r, int *out) {
    if (a < 0) a += r;
    if (a < 0 || a >= r) return 0;
    *out = (int)a;
    return 1;
}

/* Fold a unary op on a small constant; 1 when done. */
static int rfl__ox_fold1(const rfl_onnx_node *n, const rfl__ox_slot *x, rfl__ox_slot *o) {
    const char *op = n->op_type;
    int i, tofloat = x->isfloat;
    if (x->nconst < 0 || x->nconst > RFL__OX_CONSTS) return 0;
    if (rfl__ox_streq(op, "Cast")) {
        int64_t t = rfl__ox_attr_i(n, "to", 1);
        tofloat = rfl__ox_is_float_type((int)t);
    } else if (rfl__ox_streq(op, "Sqrt") || rfl__ox_streq(op, "Reciprocal")) {
        tofloat = 1;
    } else if (!rfl__ox_streq(op, "Neg") && !rfl__ox_streq(op, "Floor") &&
               !rfl__ox_streq(op, "Ceil") && !rfl__ox_streq(op, "Abs") &&
               !rfl__ox_streq(op, "Not") && !rfl__ox_streq(op, "Relu")) {
        return 0;
    }
    o->isfloat = (uint8_t)tofloat;
    for (i = 0; i < x->nconst; i++) {
        double v = rfl__ox_getf(x, i), r = v;
        switch (op[0]) {
        case 'N': r = op[1] == 'e' ? -v : (v == 0); break;
        case 'F': r = (double)rfl__ox_d2i(v) - ((double)rfl__ox_d2i(v) > v); break;
        case 'C': if (op[1] == 'e') r = (double)rfl__ox_d2i(v) + ((double)rfl__ox_d2i(v) < v); break;
        case 'A': r = v < 0 ? -v : v; break;
        case 'R': r = op[2] == 'l' ? (v < 0 ? 0 : v) : (v != 0 ? 1.0 / v : 0); break;
        case 'S': { double g = v > 1 ? v / 2 : 1; int it; /* Newton: no libm */
            for (it = 0; it < 60 && v > 0; it++) g = 0.5 * (g + v / g);
            r = v > 0 ? g : 0; break; }
        default: break;
        }
        if (tofloat) rfl__ox_setf(o, i, r);
        else o->cv[i] = x->isfloat ? rfl__ox_d2i(r) : (op[0] == 'C' && op[1] == 'a') ? rfl__ox_geti(x, i) : rfl__ox_d2i(r);
    }
    o->nconst = x->nconst;
    return 1;
}

/* Elementwise one-input ops: same shape, per-element FLOPs. */
static rfl_result rfl__ox_unary(rfl__ox_b *B, const rfl_onnx_node *n, rfl_op op,
                                unsigned per_elem, unsigned act, unsigned flags) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "0");
    int ok;
    if (r || (r = rfl__ox_shape(B, o, x->dim, x->rank)) != RFL_OK || !o) return r;
    rfl__ox_fold1(n, x, o);
    RFL_MEMSET(&c, 0, sizeof c);
    c.flops = rfl__ox_count(o, &ok) * per_elem;
    c.arg[0] = act;
    c.flags = flags;
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* Identity (and eval Dropout of a non-batched tensor): the output is the
   input, record and all. */
static rfl_result rfl__ox_alias(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    rfl_result r = rfl__ox_need(B, x, "0");
    if (r || !o) return r;
    *o = *x;
    x->pending = 0;
    return RFL_OK;
}

/* Fold an elementwise op over small constants (broadcast). */
static void rfl__ox_fold2(const rfl_onnx_node *n, rfl__ox_slot *const *in, int nin, rfl__ox_slot *o) {
    const char *op = n->op_type;
    int i, j, isf = 0, cmp, ok;
    uint64_t cnt = rfl__ox_count(o, &ok);
    for (j = 0; j < nin; j++)
        if (!in[j] || in[j]->nconst < 0) return;
    if (!ok || cnt > RFL__OX_CONSTS) return;
    cmp = rfl__ox_streq(op, "Equal") || rfl__ox_streq(op, "Less") || rfl__ox_streq(op, "Greater") ||
          rfl__ox_streq(op, "And") || rfl__ox_streq(op, "Or");
    for (j = (nin == 3 ? 1 : 0); j < nin; j++) isf |= in[j]->isfloat;
    if (cmp) isf = 0;
    for (i = 0; i < (int)cnt; i++) {
        double v[3], r = 0;
        for (j = 0; j < nin; j++) v[j] = rfl__ox_getf(in[j], rfl__ox_bidx(in[j], o->dim, o->rank, i));
        switch (op[0]) {
        case 'A': r = op[1] == 'd' ? v[0] + v[1] : (v[0] != 0 && v[1] != 0); break;
        case 'S': r = v[0] - v[1]; break;
        case 'M': r = op[1] == 'u' ? v[0] * v[1] : op[1] == 'a' ? (v[0] > v[1] ? v[0] : v[1])
                    : op[1] == 'i' ? (v[0] < v[1] ? v[0] : v[1])
                    : (rfl__ox_d2i(v[1]) && rfl__ox_d2i(v[1]) != -1) ? (double)(rfl__ox_d2i(v[0]) % rfl__ox_d2i(v[1])) : 0; break;
        case 'D':
            r = v[1] != 0 ? v[0] / v[1] : 0;
            if (!isf) r = (double)rfl__ox_d2i(r); /* integer division truncates */
            break;
        case 'E': r = v[0] == v[1]; break;
        case 'L': r = v[0] < v[1]; break;
        case 'G': r = v[0] > v[1]; break;
        case 'O': r = v[0] != 0 || v[1] != 0; break;
        case 'W': r = v[0] != 0 ? v[1] : v[2]; break;
        default: return;
        }
        if (isf) rfl__ox_setf(o, i, r);
        else o->cv[i] = rfl__ox_d2i(r);
    }
    o->isfloat = (uint8_t)isf;
    o->nconst = (int32_t)cnt;
}

/* Broadcast elementwise ops (Add ... Where): one FLOP per output element. */
static rfl_result rfl__ox_binary(rfl__ox_b *B, const rfl_onnx_node *n, rfl_op op) {
    rfl__ox_slot *in[3], *o = rfl__ox_out(B, n, 0);
    rfl__ox_slot acc;
    rfl__ox_cost c;
    int64_t od[RFL_ONNX_MAX_RANK];
    int nin = n->n_inputs < 3 ? n->n_inputs : 3, j, orank = 0, ok;
    rfl_result r = RFL_OK;
    if (nin < 2) return rfl__ox_berr(B, RFL_ERR_SHAPE, "needs two inputs", "");
    RFL_MEMSET(&acc, 0, sizeof acc);
    for (j = 0; j < nin && !r; j++) {
        in[j] = rfl__ox_in(B, n, j);
        r = rfl__ox_need(B, in[j], j == 0 ? "0" : j == 1 ? "1" : "2");
        if (r) return r;
        if (j == 0) acc = *in[0];
        else if ((r = rfl__ox_bcast(B, &acc, in[j], od, &orank)) == RFL_OK)
            RFL_MEMCPY(acc.dim, od, sizeof od), acc.rank = orank;
    }
    if (r || (r = rfl__ox_shape(B, o, acc.dim, acc.rank)) != RFL_OK || !o) return r;
    rfl__ox_fold2(n, in, nin, o);
    RFL_MEMSET(&c, 0, sizeof c);
    c.flops = rfl__ox_count(o, &ok);
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* Spatial geometry of Conv / ConvTranspose / pools: kernel, strides,
   pads (begin..., end...), dilations, auto_pad. */
typedef struct rfl__ox_win {
    int64_t k[RFL_ONNX_MAX_RANK], s[RFL_ONNX_MAX_RANK], pb[RFL_ONNX_MAX_RANK],
        pe[RFL_ONNX_MAX_RANK], d[RFL_ONNX_MAX_RANK], op[RFL_ONNX_MAX_RANK];
    int nsp;
    uint64_t kprod;
} rfl__ox_win;

static rfl_result rfl__ox_window(rfl__ox_b *B, const rfl_onnx_node *n, int nsp,
                                 const int64_t *wk, rfl__ox_win *w) {
    const int64_t *a;
    int i, cnt;
    w->nsp = nsp;
    w->kprod = 1;
    cnt = rfl__ox_attr_ints(n, "kernel_shape", &a);
    for (i = 0; i < nsp; i++) {
        w->k[i] = cnt == nsp ? a[i] : wk ? wk[i] : 0;
        if (w->k[i] <= 0 || w->k[i] > 65536)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "bad or missing kernel_shape", "");
        w->kprod *= (uint64_t)w->k[i];
        w->s[i] = w->d[i] = 1, w->pb[i] = w->pe[i] = w->op[i] = 0;
    }
    cnt = rfl__ox_attr_ints(n, "strides", &a);
    for (i = 0; i < nsp && cnt == nsp; i++) w->s[i] = a[i];
    cnt = rfl__ox_attr_ints(n, "dilations", &a);
    for (i = 0; i < nsp && cnt == nsp; i++) w->d[i] = a[i];
    cnt = rfl__ox_attr_ints(n, "pads", &a);
    for (i = 0; i < nsp && cnt == 2 * nsp; i++) w->pb[i] = a[i], w->pe[i] = a[nsp + i];
    cnt = rfl__ox_attr_ints(n, "output_padding", &a);
    for (i = 0; i < nsp && cnt == nsp; i++) w->op[i] = a[i];
    for (i = 0; i < nsp; i++)
        if (w->s[i] <= 0 || w->s[i] > 65536 || w->d[i] <= 0 || w->d[i] > 65536 || w->pb[i] < 0 ||
            w->pe[i] < 0 || w->pb[i] > ((int64_t)1 << 32) || w->pe[i] > ((int64_t)1 << 32) ||
            w->op[i] < 0 || w->op[i] > 65536)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "bad strides, dilations or pads", "");
    return RFL_OK;
}

/* Output extent along one spatial axis (forward windows), ONNX's rules. */
static int rfl__ox_win_out(const rfl__ox_win *w, int i, int64_t in, const char *autopad, int ceil_mode,
                           int64_t *out) {
    int64_t ext = w->d[i] * (w->k[i] - 1) + 1, span;
    if (autopad[0] == 'S') { *out = (in + w->s[i] - 1) / w->s[i]; return 1; } /* SAME_* */
    if (autopad[0] == 'V') { if (in < ext) return 0; *out = (in - ext) / w->s[i] + 1; return 1; }
    if (in + w->pb[i] + w->pe[i] < ext) return 0;
    span = in + w->pb[i] + w->pe[i] - ext;
    *out = (ceil_mode ? (span + w->s[i] - 1) / w->s[i] : span / w->s[i]) + 1;
    /* ceil mode: the last window must start inside the input or left pad */
    if (ceil_mode && (*out - 1) * w->s[i] >= in + w->pb[i]) (*out)--;
    return 1;
}

static int rfl__ox_mul(uint64_t a, uint64_t b, uint64_t *o) {
    if (a && b > (uint64_t)-1 / a) return 0;
    *o = a * b;
    return 1;
}

/* Conv: [N, C, spatial...] with weights [M, C/group, k...]. mac = 2 N M
   (C/group) prod(k) prod(out). */
static rfl_result rfl__ox_conv(rfl__ox_b *B, const rfl_onnx_node *n, int transposed) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *w = rfl__ox_in(B, n, 1), *o = rfl__ox_out(B, n, 0);
    rfl__ox_win win;
    rfl__ox_cost c;
    int64_t od[RFL_ONNX_MAX_RANK];
    const int64_t *os;
    int nsp, i, ok = 1, nos;
    int64_t g = rfl__ox_attr_i(n, "group", 1), cout;
    uint64_t outsp = 1, insp = 1, t;
    const char *ap = rfl__ox_attr_s(n, "auto_pad");
    rfl_result r = rfl__ox_need(B, x, "X");
    if (!r) r = rfl__ox_need(B, w, "W");
    if (r) return r;
    nsp = x->rank - 2;
    if (nsp < 1 || w->rank != x->rank || g < 1 || x->dim[1] % g)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "input, weight and group do not agree", "");
    if ((r = rfl__ox_window(B, n, nsp, w->dim + 2, &win)) != RFL_OK) return r;
    if (!transposed && w->dim[1] * g != x->dim[1])
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "weight channels do not match the input", "");
    if (transposed && w->dim[0] != x->dim[1])
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "weight channels do not match the input", "");
    cout = transposed ? w->dim[1] * g : w->dim[0];
    od[0] = x->dim[0], od[1] = cout;
    nos = rfl__ox_attr_ints(n, "output_shape", &os);
    for (i = 0; i < nsp; i++) {
        int64_t in = x->dim[2 + i];
        if (!transposed) {
            if (!rfl__ox_win_out(&win, i, in, ap, 0, &od[2 + i]))
                return rfl__ox_berr(B, RFL_ERR_SHAPE, "input smaller than the kernel", "");
        } else if (nos == nsp) {
            od[2 + i] = os[i];
        } else if (ap[0] == 'S') {
            od[2 + i] = in * win.s[i];
        } else {
            od[2 + i] = win.s[i] * (in - 1) + win.op[i] + win.d[i] * (win.k[i] - 1) + 1 - win.pb[i] - win.pe[i];
            if (od[2 + i] <= 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "empty output", "");
        }
        ok = ok && rfl__ox_mul(outsp, (uint64_t)od[2 + i], &outsp) && rfl__ox_mul(insp, (uint64_t)in, &insp);
    }
    if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK || !o) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    /* MACs per batch element: conv M (C/g) k out; transposed C (M/g) k in */
    ok = ok && rfl__ox_mul((uint64_t)x->dim[0], (uint64_t)(transposed ? x->dim[1] : cout), &t) &&
         rfl__ox_mul(t, (uint64_t)(transposed ? cout / g : x->dim[1] / g), &t) &&
         rfl__ox_mul(t, win.kprod, &t) && rfl__ox_mul(t, transposed ? insp : outsp, &t) &&
         rfl__ox_mul(t, 2, &c.mac);
    c.flops = c.mac;
    if (n->n_inputs > 2 && n->inputs[2] >= 0) { /* bias: one add per output */
        uint64_t b = rfl__ox_count(o, &i);
        ok = ok && c.flops + b >= b;
        c.flops += b;
        c.flags |= RFL_LF_BIAS;
    }
    if (!ok) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    c.flags |= RFL_LF_MODULE;
    c.arg[0] = (uint32_t)win.k[0], c.arg[1] = (uint32_t)(nsp > 1 ? win.k[1] : 1);
    c.arg[2] = (uint32_t)win.s[0], c.arg[3] = (uint32_t)g;
    return rfl__ox_conclude(B, n, RFL_OP_CONV2D, &c, 0);
}

/* MaxPool / AveragePool: FLOPs = output elements x window size. */
static rfl_result rfl__ox_pool(rfl__ox_b *B, const rfl_onnx_node *n, rfl_op op) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    rfl__ox_win win;
    rfl__ox_cost c;
    int64_t od[RFL_ONNX_MAX_RANK];
    int nsp, i, ok;
    int ceil_mode = (int)rfl__ox_attr_i(n, "ceil_mode", 0);
    const char *ap = rfl__ox_attr_s(n, "auto_pad");
    rfl_result r = rfl__ox_need(B, x, "X");
    if (r) return r;
    nsp = x->rank - 2;
    if (nsp < 1) return rfl__ox_berr(B, RFL_ERR_SHAPE, "input rank below 3", "");
    if ((r = rfl__ox_window(B, n, nsp, (const int64_t *)0, &win)) != RFL_OK) return r;
    od[0] = x->dim[0], od[1] = x->dim[1];
    for (i = 0; i < nsp; i++)
        if (!rfl__ox_win_out(&win, i, x->dim[2 + i], ap, ceil_mode, &od[2 + i]))
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "input smaller than the window", "");
    if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK || !o) return r;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 1), od, x->rank)) != RFL_OK) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    if (!rfl__ox_mul(rfl__ox_count(o, &ok), win.kprod, &c.flops))
        return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    c.flags = RFL_LF_MODULE | (ceil_mode ? RFL_LF_CEIL : 0u);
    c.arg[0] = (uint32_t)win.k[0], c.arg[1] = (uint32_t)(nsp > 1 ? win.k[1] : 1);
    c.arg[2] = (uint32_t)win.s[0], c.arg[3] = (uint32_t)win.pb[0];
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* GlobalAveragePool / GlobalMaxPool: [N, C, 1, ...], one FLOP per input. */
static rfl_result rfl__ox_gpool(rfl__ox_b *B, const rfl_onnx_node *n, rfl_op op) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    rfl__ox_cost c;
    int64_t od[RFL_ONNX_MAX_RANK];
    int i, ok;
    rfl_result r = rfl__ox_need(B, x, "X");
    if (r) return r;
    if (x->rank < 3) return rfl__ox_berr(B, RFL_ERR_SHAPE, "input rank below 3", "");
    for (i = 0; i < x->rank; i++) od[i] = i < 2 ? x->dim[i] : 1;
    if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK || !o) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    c.flops = rfl__ox_count(x, &ok);
    c.flags = RFL_LF_MODULE;
    c.arg[0] = c.arg[1] = 1;
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* Is slot x a weight (derived from initializers only, not a constant)? */
static int rfl__ox_is_weight(const rfl__ox_slot *x) { return x && !x->batched && !x->bdep; }

/* Gemm: A [M, K] (transA), B [K, N] (transB), C broadcast. A linear layer
   when B is a weight. mac = 2 M N K; the bias adds M N. */
static rfl_result rfl__ox_gemm(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *a = rfl__ox_in(B, n, 0), *b = rfl__ox_in(B, n, 1), *o = rfl__ox_out(B, n, 0);
    rfl__ox_cost c;
    int64_t M, K, N, K2, od[2];
    int ok, lin;
    rfl_result r = rfl__ox_need(B, a, "A");
    if (!r) r = rfl__ox_need(B, b, "B");
    if (r) return r;
    if (a->rank != 2 || b->rank != 2) return rfl__ox_berr(B, RFL_ERR_SHAPE, "A and B must be 2-D", "");
    M = rfl__ox_attr_i(n, "transA", 0) ? a->dim[1] : a->dim[0];
    K = rfl__ox_attr_i(n, "transA", 0) ? a->dim[0] : a->dim[1];
    K2 = rfl__ox_attr_i(n, "transB", 0) ? b->dim[1] : b->dim[0];
    N = rfl__ox_attr_i(n, "transB", 0) ? b->dim[0] : b->dim[1];
    if (K != K2) return rfl__ox_berr(B, RFL_ERR_SHAPE, "inner dims differ", "");
    od[0] = M, od[1] = N;
    if ((r = rfl__ox_shape(B, o, od, 2)) != RFL_OK || !o) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    ok = rfl__ox_mul((uint64_t)M, (uint64_t)N, &c.bias) && rfl__ox_mul(c.bias, (uint64_t)K, &c.mac) &&
         rfl__ox_mul(c.mac, 2, &c.mac);
    if (!ok) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    lin = rfl__ox_is_weight(b);
    c.flops = c.mac;
    if (n->n_inputs > 2 && n->inputs[2] >= 0) {
        c.flops += c.bias;
        c.flags |= RFL_LF_BIAS;
    } else {
        c.bias = 0;
    }
    if (!lin) c.bias = 0; /* bias_flops: linear layers only */
    if (lin) c.flags |= RFL_LF_MODULE;
    return rfl__ox_conclude(B, n, lin ? RFL_OP_LINEAR : RFL_OP_MATMUL, &c, 0);
}

/* MatMul, numpy rules: 1-D operands promoted, batch dims broadcast.
   A linear layer when B is a 2-D weight. */
static rfl_result rfl__ox_matmul(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *a = rfl__ox_in(B, n, 0), *b = rfl__ox_in(B, n, 1), *o = rfl__ox_out(B, n, 0);
    rfl__ox_slot ba, bb;
    rfl__ox_cost c;
    int64_t od[RFL_ONNX_MAX_RANK], M, K, N;
    int orank = 0, i, ok, r1a, r1b;
    uint64_t lead = 1;
    rfl_result r = rfl__ox_need(B, a, "A");
    if (!r) r = rfl__ox_need(B, b, "B");
    if (r) return r;
    if (a->rank < 1 || b->rank < 1) return rfl__ox_berr(B, RFL_ERR_SHAPE, "scalar operand", "");
    r1a = a->rank == 1, r1b = b->rank == 1;
    M = r1a ? 1 : a->dim[a->rank - 2], K = a->dim[a->rank - 1];
    N = r1b ? 1 : b->dim[b->rank - 1];
    if ((r1b ? b->dim[0] : b->dim[b->rank - 2]) != K)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "inner dims differ", "");
    /* broadcast the batch dims */
    ba.rank = r1a ? 0 : a->rank - 2, bb.rank = r1b ? 0 : b->rank - 2;
    for (i = 0; i < ba.rank; i++) ba.dim[i] = a->dim[i];
    for (i = 0; i < bb.rank; i++) bb.dim[i] = b->dim[i];
    if ((r = rfl__ox_bcast(B, &ba, &bb, od, &orank)) != RFL_OK) return r;
    for (i = 0; i < orank; i++) lead *= (uint64_t)od[i];
    if (!r1a) od[orank++] = M;
    if (!r1b) od[orank++] = N;
    if ((r = rfl__ox_shape(B, o, od, orank)) != RFL_OK || !o) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    ok = rfl__ox_mul(lead, (uint64_t)M, &c.mac) && rfl__ox_mul(c.mac, (uint64_t)N, &c.mac) &&
         rfl__ox_mul(c.mac, (uint64_t)K, &c.mac) && rfl__ox_mul(c.mac, 2, &c.mac);
    if (!ok) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    c.flops = c.mac;
    if (rfl__ox_is_weight(b) && b->rank == 2 && !r1a) {
        c.flags = RFL_LF_MODULE;
        return rfl__ox_conclude(B, n, RFL_OP_LINEAR, &c, 0);
    }
    return rfl__ox_conclude(B, n, RFL_OP_MATMUL, &c, 0);
}

/* An int list from attribute `name` or, when absent, from constant input
   `idx`; -1 when neither is known, -2 when the input exists but is not a
   constant. */
static int rfl__ox_ints_arg(rfl__ox_b *B, const rfl_onnx_node *n, const char *name, int idx,
                            int64_t *buf, int max) {
    const int64_t *a;
    int cnt = rfl__ox_attr_ints(n, name, &a), i;
    rfl__ox_slot *x;
    if (cnt > 0 || rfl__ox_attr_get(n, name)) {
        if (cnt > max) return -2;
        for (i = 0; i < cnt; i++) buf[i] = a[i];
        return cnt;
    }
    x = rfl__ox_in(B, n, idx);
    if (!x) return -1;
    cnt = rfl__ox_consts(x, buf, max);
    return cnt < 0 ? -2 : cnt;
}

static rfl_result rfl__ox_not_const(rfl__ox_b *B, const char *what) {
    return rfl__ox_berr(B, RFL_ERR_UNSUPPORTED, what, " is not a known constant");
}

/* The output keeps the input's small constant values (views of constants). */
static void rfl__ox_keep_values(const rfl__ox_slot *x, rfl__ox_slot *o) {
    int ok;
    uint64_t cnt = rfl__ox_count(o, &ok);
    if (x->nconst < 0 || !ok || cnt != (uint64_t)x->nconst) return;
    o->nconst = x->nconst, o->isfloat = x->isfloat;
    o->ext_i = x->ext_i, o->ext_f = x->ext_f;
    RFL_MEMCPY(o->cv, x->cv, sizeof o->cv);
}

static rfl_result rfl__ox_view_done(rfl__ox_b *B, const rfl_onnx_node *n, const rfl__ox_slot *x,
                                    rfl_op op, unsigned flags) {
    rfl__ox_cost c;
    rfl__ox_slot *o = rfl__ox_out(B, n, 0);
    if (o) rfl__ox_keep_values(x, o);
    RFL_MEMSET(&c, 0, sizeof c);
    c.flags = flags;
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* Flatten(axis): [prod(d[:axis]), prod(d[axis:])]. */
static rfl_result rfl__ox_flatten(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0);
    int64_t od[2] = {1, 1}, ax = rfl__ox_attr_i(n, "axis", 1);
    int i;
    rfl_result r = rfl__ox_need(B, x, "0");
    if (r) return r;
    if (ax < 0) ax += x->rank;
    if (ax < 0 || ax > x->rank) return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
    for (i = 0; i < x->rank; i++) od[i < ax ? 0 : 1] *= x->dim[i];
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, 2)) != RFL_OK) return r;
    return rfl__ox_view_done(B, n, x, RFL_OP_FLATTEN, RFL_LF_VIEW);
}

/* Reshape(data, shape): 0 copies the input dim (unless allowzero), -1 takes
   the rest. */
static rfl_result rfl__ox_reshape(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0);
    int64_t sh[RFL_ONNX_MAX_RANK];
    int cnt, i, infer = -1, ok;
    uint64_t total, known = 1;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r) return r;
    cnt = rfl__ox_ints_arg(B, n, "shape", 1, sh, RFL_ONNX_MAX_RANK);
    if (cnt < 0) return rfl__ox_not_const(B, "the target shape");
    total = rfl__ox_count(x, &ok);
    for (i = 0; i < cnt; i++) {
        if (sh[i] == 0 && !rfl__ox_attr_i(n, "allowzero", 0)) {
            if (i >= x->rank) return rfl__ox_berr(B, RFL_ERR_SHAPE, "0 beyond the input rank", "");
            sh[i] = x->dim[i];
        }
        if (sh[i] == -1) {
            if (infer >= 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "two -1 dims", "");
            infer = i;
            continue;
        }
        if (sh[i] < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "negative dim in the target shape", "");
        if (!rfl__ox_mul(known, (uint64_t)sh[i], &known))
            return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "target shape overflows", "");
    }
    if (infer >= 0) {
        if (!known || total % known) return rfl__ox_berr(B, RFL_ERR_SHAPE, "size not divisible by the target shape", "");
        sh[infer] = (int64_t)(total / known);
    } else if (known != total) {
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "element count differs from the target shape", "");
    }
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), sh, cnt)) != RFL_OK) return r;
    return rfl__ox_view_done(B, n, x, RFL_OP_RESHAPE, RFL_LF_VIEW);
}

/* Squeeze / Unsqueeze (axes from the attribute or input 1). */
static rfl_result rfl__ox_squeeze(rfl__ox_b *B, const rfl_onnx_node *n, int un) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0);
    int64_t ax[RFL_ONNX_MAX_RANK], od[RFL_ONNX_MAX_RANK];
    int cnt, i, j, orank, mark[RFL_ONNX_MAX_RANK], a;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r) return r;
    cnt = rfl__ox_ints_arg(B, n, "axes", 1, ax, RFL_ONNX_MAX_RANK);
    if (cnt == -2) return rfl__ox_not_const(B, "axes");
    orank = un ? x->rank + (cnt > 0 ? cnt : 0) : x->rank;
    if (orank > RFL_ONNX_MAX_RANK) return rfl__ox_berr(B, RFL_ERR_SHAPE, "rank above 8", "");
    for (i = 0; i < RFL_ONNX_MAX_RANK; i++) mark[i] = 0;
    for (i = 0; i < cnt; i++) {
        if (!rfl__ox_axis(ax[i], orank, &a)) return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
        mark[a] = 1;
    }
    if (un) {
        for (i = 0, j = 0; i < orank; i++) od[i] = mark[i] ? 1 : x->dim[j++];
    } else {
        for (i = 0, j = 0; i < x->rank; i++) {
            if (cnt <= 0 ? x->dim[i] == 1 : mark[i]) {
                if (x->dim[i] != 1) return rfl__ox_berr(B, RFL_ERR_SHAPE, "squeezing a dim that is not 1", "");
                continue;
            }
            od[j++] = x->dim[i];
        }
        orank = j;
    }
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, orank)) != RFL_OK) return r;
    return rfl__ox_view_done(B, n, x, RFL_OP_RESHAPE, RFL_LF_VIEW);
}

/* Transpose(perm; default: reversed). A copy. */
static rfl_result rfl__ox_transpose(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    const int64_t *p;
    int64_t od[RFL_ONNX_MAX_RANK];
    int cnt, i, a, seen = 0;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r) return r;
    cnt = rfl__ox_attr_ints(n, "perm", &p);
    if (cnt && cnt != x->rank) return rfl__ox_berr(B, RFL_ERR_SHAPE, "perm length differs from the rank", "");
    for (i = 0; i < x->rank; i++) {
        if (!cnt) a = x->rank - 1 - i;
        else if (!rfl__ox_axis(p[i], x->rank, &a) || (seen >> a) & 1)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "perm is not a permutation", "");
        seen |= 1 << a;
        od[i] = x->dim[a];
    }
    if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK || !o) return r;
    if (x->nconst >= 0 && x->nconst <= RFL__OX_CONSTS) { /* small constants move */
        int j, k;
        for (j = 0; j < x->nconst; j++) {
            int64_t rem = j, src = 0, coord[RFL_ONNX_MAX_RANK], stride[RFL_ONNX_MAX_RANK];
            for (k = x->rank - 1; k >= 0; k--) coord[k] = rem % od[k], rem /= od[k];
            for (k = x->rank - 1, rem = 1; k >= 0; k--) stride[k] = rem, rem *= x->dim[k];
            for (k = 0; k < x->rank; k++) src += coord[k] * stride[cnt ? (int)(p[k] < 0 ? p[k] + x->rank : p[k]) : x->rank - 1 - k];
            if (x->isfloat) rfl__ox_setf(o, j, rfl__ox_getf(x, (int)src));
            else o->cv[j] = rfl__ox_geti(x, (int)src);
        }
        o->nconst = x->nconst, o->isfloat = x->isfloat;
    }
    RFL_MEMSET(&c, 0, sizeof c);
    c.arg[0] = cnt >= 2 ? (uint32_t)p[0] : 0, c.arg[1] = cnt >= 2 ? (uint32_t)p[1] : 1;
    return rfl__ox_conclude(B, n, RFL_OP_TRANSPOSE, &c, 0);
}

/* Concat(axis): other dims equal; small constants concatenate. */
static rfl_result rfl__ox_concat(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x0 = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    int64_t od[RFL_ONNX_MAX_RANK];
    int i, j, a, all = 1, k = 0, isf = 0;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x0, "0");
    if (r) return r;
    if (!rfl__ox_axis(rfl__ox_attr_i(n, "axis", 0), x0->rank, &a))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
    for (j = 0; j < x0->rank; j++) od[j] = x0->dim[j];
    od[a] = 0;
    for (i = 0; i < n->n_inputs; i++) {
        rfl__ox_slot *x = rfl__ox_in(B, n, i);
        if ((r = rfl__ox_need(B, x, "i")) != RFL_OK) return r;
        if (x->rank != x0->rank) return rfl__ox_berr(B, RFL_ERR_SHAPE, "ranks differ", "");
        for (j = 0; j < x->rank; j++)
            if (j != a && x->dim[j] != x0->dim[j]) return rfl__ox_berr(B, RFL_ERR_SHAPE, "dims differ", "");
        od[a] += x->dim[a];
        if (x->nconst < 0) all = 0;
        isf |= x->isfloat;
    }
    if ((r = rfl__ox_shape(B, o, od, x0->rank)) != RFL_OK || !o) return r;
    if (all && x0->rank == 1 && od[0] <= RFL__OX_CONSTS) { /* shape arithmetic */
        for (i = 0; i < n->n_inputs; i++) {
            rfl__ox_slot *x = rfl__ox_in(B, n, i);
            for (j = 0; j < x->nconst; j++, k++)
                if (isf) rfl__ox_setf(o, k, rfl__ox_getf(x, j));
                else o->cv[k] = rfl__ox_geti(x, j);
        }
        o->nconst = k, o->isfloat = (uint8_t)isf;
    }
    RFL_MEMSET(&c, 0, sizeof c);
    c.arg[0] = (uint32_t)n->n_inputs, c.arg[1] = (uint32_t)a;
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 0);
}

/* Split(axis; sizes from input 1, the 'split' attribute, or equal parts). */
static rfl_result rfl__ox_split(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0);
    int64_t sz[64], od[RFL_ONNX_MAX_RANK], sum = 0, start = 0;
    int cnt, i, j, a, no = n->n_outputs;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "input");
    if (r) return r;
    if (!rfl__ox_axis(rfl__ox_attr_i(n, "axis", 0), x->rank, &a))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
    if (no < 1 || no > 64) return rfl__ox_berr(B, RFL_ERR_UNSUPPORTED, "more than 64 outputs", "");
    cnt = rfl__ox_ints_arg(B, n, "split", 1, sz, 64);
    if (cnt == -2) return rfl__ox_not_const(B, "split");
    if (cnt <= 0) { /* equal parts, the last one smaller */
        int64_t part = (x->dim[a] + no - 1) / no;
        for (i = 0; i < no; i++) sz[i] = x->dim[a] - part * i < part ? x->dim[a] - part * i : part;
        cnt = no;
    }
    if (cnt != no) return rfl__ox_berr(B, RFL_ERR_SHAPE, "split sizes differ from the outputs", "");
    for (i = 0; i < cnt; i++) {
        if (sz[i] < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "negative split size", "");
        sum += sz[i];
    }
    if (sum != x->dim[a]) return rfl__ox_berr(B, RFL_ERR_SHAPE, "split sizes do not add up", "");
    for (i = 0; i < no; i++) {
        rfl__ox_slot *o = rfl__ox_out(B, n, i);
        for (j = 0; j < x->rank; j++) od[j] = x->dim[j];
        od[a] = sz[i];
        if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK) return r;
        if (o && x->nconst >= 0 && x->rank == 1 && sz[i] <= RFL__OX_CONSTS) {
            for (j = 0; j < sz[i]; j++)
                if (x->isfloat) rfl__ox_setf(o, j, rfl__ox_getf(x, (int)(start + j)));
                else o->cv[j] = rfl__ox_geti(x, (int)(start + j));
            o->nconst = (int32_t)sz[i], o->isfloat = x->isfloat;
        }
        start += sz[i];
    }
    RFL_MEMSET(&c, 0, sizeof c);
    c.flags = RFL_LF_VIEW;
    c.arg[0] = (uint32_t)a;
    return rfl__ox_conclude(B, n, RFL_OP_SLICE, &c, 0);
}

/* Slice(data, starts, ends, axes, steps), ONNX's clamping rules; the
   opset < 10 form takes attributes. */
static rfl_result rfl__ox_slice(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    int64_t st[RFL_ONNX_MAX_RANK], en[RFL_ONNX_MAX_RANK], ax[RFL_ONNX_MAX_RANK], sp[RFL_ONNX_MAX_RANK];
    int64_t od[RFL_ONNX_MAX_RANK], first[RFL_ONNX_MAX_RANK], step[RFL_ONNX_MAX_RANK];
    int ns, ne, na, nsp, i, a, j;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r) return r;
    ns = rfl__ox_ints_arg(B, n, "starts", 1, st, RFL_ONNX_MAX_RANK);
    ne = rfl__ox_ints_arg(B, n, "ends", 2, en, RFL_ONNX_MAX_RANK);
    if (ns < 0 || ne != ns) return rfl__ox_not_const(B, "starts / ends");
    na = rfl__ox_ints_arg(B, n, "axes", 3, ax, RFL_ONNX_MAX_RANK);
    nsp = rfl__ox_ints_arg(B, n, "steps", 4, sp, RFL_ONNX_MAX_RANK);
    if (na == -2 || nsp == -2) return rfl__ox_not_const(B, "axes / steps");
    for (i = 0; i < x->rank; i++) od[i] = x->dim[i], first[i] = 0, step[i] = 1;
    for (i = 0; i < ns; i++) {
        int64_t d, s0, e0, k = nsp > i ? sp[i] : 1;
        if (!rfl__ox_axis(na > i ? ax[i] : i, x->rank, &a) || k == 0)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "bad axis or zero step", "");
        d = x->dim[a], s0 = st[i], e0 = en[i];
        if (s0 < 0) s0 = s0 < -d ? 0 - (k < 0) : s0 + d;
        if (e0 < 0) e0 = e0 < -d ? 0 - (k < 0) : e0 + d;
        if (k > 0) {
            s0 = s0 > d ? d : s0, e0 = e0 > d ? d : e0;
            od[a] = e0 > s0 ? (e0 - s0 + k - 1) / k : 0;
        } else {
            s0 = s0 > d - 1 ? d - 1 : s0, e0 = e0 > d - 1 ? d - 1 : e0;
            od[a] = s0 > e0 ? (s0 - e0 + (-k) - 1) / (-k) : 0;
        }
        first[a] = s0, step[a] = k;
    }
    if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK || !o) return r;
    if (x->nconst >= 0) { /* small constants of any rank (reversed pad lists) */
        int ok;
        uint64_t cnt = rfl__ox_count(o, &ok);
        if (ok && cnt <= RFL__OX_CONSTS) {
            for (j = 0; j < (int)cnt; j++) {
                int64_t rem = j, src = 0, stride = 1, coord[RFL_ONNX_MAX_RANK];
                for (i = x->rank - 1; i >= 0; i--) coord[i] = rem % od[i], rem /= od[i];
                for (i = x->rank - 1; i >= 0; i--)
                    src += (first[i] + coord[i] * step[i]) * stride, stride *= x->dim[i];
                if (x->isfloat) rfl__ox_setf(o, j, rfl__ox_getf(x, (int)src));
                else o->cv[j] = rfl__ox_geti(x, (int)src);
            }
            o->nconst = (int32_t)cnt, o->isfloat = x->isfloat;
        }
    }
    RFL_MEMSET(&c, 0, sizeof c);
    c.flags = RFL_LF_VIEW;
    return rfl__ox_conclude(B, n, RFL_OP_SLICE, &c, 0);
}

/* Gather(data, indices, axis): data[:axis] + indices.shape + data[axis+1:].
   A weight table read with batched indices is an embedding. */
static rfl_result rfl__ox_gather(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *ix = rfl__ox_in(B, n, 1), *o = rfl__ox_out(B, n, 0);
    int64_t od[RFL_ONNX_MAX_RANK];
    int a, i, k = 0, ok;
    uint64_t cnt;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (!r) r = rfl__ox_need(B, ix, "indices");
    if (r) return r;
    if (!rfl__ox_axis(rfl__ox_attr_i(n, "axis", 0), x->rank, &a))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
    if (x->rank - 1 + ix->rank > RFL_ONNX_MAX_RANK) return rfl__ox_berr(B, RFL_ERR_SHAPE, "rank above 8", "");
    for (i = 0; i < a; i++) od[k++] = x->dim[i];
    for (i = 0; i < ix->rank; i++) od[k++] = ix->dim[i];
    for (i = a + 1; i < x->rank; i++) od[k++] = x->dim[i];
    if ((r = rfl__ox_shape(B, o, od, k)) != RFL_OK || !o) return r;
    cnt = rfl__ox_count(o, &ok);
    if (x->nconst >= 0 && ix->nconst >= 0 && x->rank == 1 && ok && cnt <= RFL__OX_CONSTS) {
        for (i = 0; i < (int)cnt; i++) {
            int64_t j = rfl__ox_geti(ix, i);
            if (j < 0) j += x->dim[0];
            if (j < 0 || j >= x->dim[0]) return rfl__ox_berr(B, RFL_ERR_SHAPE, "index out of range", "");
            if (x->isfloat) rfl__ox_setf(o, i, rfl__ox_getf(x, (int)j));
            else o->cv[i] = rfl__ox_geti(x, (int)j);
        }
        o->nconst = (int32_t)cnt, o->isfloat = x->isfloat;
    }
    RFL_MEMSET(&c, 0, sizeof c);
    if (rfl__ox_is_weight(x) && ix->batched) {
        c.flags = RFL_LF_MODULE;
        return rfl__ox_conclude(B, n, RFL_OP_EMBEDDING, &c, 0);
    }
    c.flags = RFL_LF_VIEW;
    return rfl__ox_conclude(B, n, RFL_OP_SLICE, &c, 0);
}

/* Pad: pads from the attribute (opset < 11) or input 1, axes input 3. */
static rfl_result rfl__ox_pad(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0);
    int64_t p[2 * RFL_ONNX_MAX_RANK], ax[RFL_ONNX_MAX_RANK], od[RFL_ONNX_MAX_RANK];
    int cnt, na, i, a, np;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r) return r;
    cnt = rfl__ox_ints_arg(B, n, "pads", 1, p, 2 * RFL_ONNX_MAX_RANK);
    if (cnt < 0) return rfl__ox_not_const(B, "pads");
    na = rfl__ox_ints_arg(B, n, "axes_", 3, ax, RFL_ONNX_MAX_RANK);
    if (na == -2) return rfl__ox_not_const(B, "axes");
    np = na > 0 ? na : x->rank;
    if (cnt != 2 * np) return rfl__ox_berr(B, RFL_ERR_SHAPE, "pads length differs from the rank", "");
    for (i = 0; i < x->rank; i++) od[i] = x->dim[i];
    for (i = 0; i < np; i++) {
        if (!rfl__ox_axis(na > 0 ? ax[i] : i, x->rank, &a)) return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
        od[a] += p[i] + p[np + i];
        if (od[a] < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "pads remove more than the dim", "");
    }
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, x->rank)) != RFL_OK) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 0);
}

/* Resize / Upsample: sizes, or floor(dim x scale). FLOPs per output:
   nearest 0; linear 2^(k+1) - 1 (k resized axes: 2^k weighted inputs);
   cubic 2 x 4^k - 1. */
static rfl_result rfl__ox_resize(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *sc, *sz, *o = rfl__ox_out(B, n, 0);
    int64_t od[RFL_ONNX_MAX_RANK], sizes[RFL_ONNX_MAX_RANK];
    int i, k = 0, up = rfl__ox_streq(n->op_type, "Upsample"), ok;
    const char *mode = rfl__ox_attr_s(n, "mode");
    uint64_t per = 0;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "X");
    if (r) return r;
    sc = rfl__ox_in(B, n, up || n->n_inputs == 2 ? 1 : 2);
    sz = up ? (rfl__ox_slot *)0 : rfl__ox_in(B, n, 3);
    if (sz && sz->nconst > 0) {
        if (rfl__ox_consts(sz, sizes, RFL_ONNX_MAX_RANK) != x->rank)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "sizes length differs from the rank", "");
        for (i = 0; i < x->rank; i++) od[i] = sizes[i];
    } else if (sc && sc->nconst == x->rank) {
        for (i = 0; i < x->rank; i++) {
            double s = rfl__ox_getf(sc, i), v = (double)x->dim[i] * s;
            if (!(s > 0) || v > 9e15) return rfl__ox_berr(B, RFL_ERR_SHAPE, "bad scale", "");
            od[i] = (int64_t)v;
        }
    } else {
        const rfl_onnx_attr *a = rfl__ox_attr_get(n, "scales");
        if (!a || a->n != x->rank || !a->floats) return rfl__ox_not_const(B, "scales / sizes");
        for (i = 0; i < x->rank; i++) od[i] = rfl__ox_d2i((double)x->dim[i] * a->floats[i]);
    }
    if ((r = rfl__ox_shape(B, o, od, x->rank)) != RFL_OK || !o) return r;
    for (i = 0; i < x->rank; i++) k += od[i] != x->dim[i];
    if (mode[0] == 'l' || mode[0] == 'b') per = ((uint64_t)2 << k) - 1;
    else if (mode[0] == 'c') per = 2 * ((uint64_t)1 << (2 * k)) - 1;
    RFL_MEMSET(&c, 0, sizeof c);
    c.flops = rfl__ox_count(o, &ok) * per;
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 0);
}

/* Shape(start, end): the dims as a folded constant. */
static rfl_result rfl__ox_shape_op(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    int64_t s0 = rfl__ox_attr_i(n, "start", 0), e0 = rfl__ox_attr_i(n, "end", 64), len;
    int i;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r || !o) return r;
    if (s0 < 0) s0 += x->rank;
    if (e0 < 0) e0 += x->rank;
    s0 = s0 < 0 ? 0 : s0 > x->rank ? x->rank : s0;
    e0 = e0 < 0 ? 0 : e0 > x->rank ? x->rank : e0;
    len = e0 > s0 ? e0 - s0 : 0;
    if ((r = rfl__ox_shape(B, o, &len, 1)) != RFL_OK) return r;
    for (i = 0; i < len; i++) o->cv[i] = x->dim[s0 + i];
    o->nconst = (int32_t)len;
    o->bdep = (uint8_t)(x->batched | x->bdep);
    return RFL_OK;
}

/* A constant from a graph value (an initializer or a Constant's tensor). */
static void rfl__ox_from_value(rfl__ox_slot *s, const rfl_onnx_value *v) {
    int i, ok;
    s->rank = v->rank;
    for (i = 0; i < v->rank && i < RFL_ONNX_MAX_RANK; i++) s->dim[i] = v->dims[i].value;
    if (v->rank > RFL_ONNX_MAX_RANK) s->rank = -1;
    if (v->n_data > 0 && s->rank >= 0 && rfl__ox_count(s, &ok) == (uint64_t)v->n_data && ok) {
        s->nconst = v->n_data;
        s->ext_i = v->ints, s->ext_f = v->reals;
        s->isfloat = v->reals != 0;
    }
}

/* Constant(value | value_int(s) | value_float(s)). */
static rfl_result rfl__ox_constant(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *o = rfl__ox_out(B, n, 0);
    const rfl_onnx_attr *a;
    int64_t len;
    int i;
    if (!o) return RFL_OK;
    if ((a = rfl__ox_attr_get(n, "value")) != 0 && a->tensor >= 0) {
        const rfl_onnx_value *v = &B->g->values[a->tensor];
        rfl__ox_from_value(o, v);
        if (o->rank < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "rank above 8", "");
        return RFL_OK; /* not an initializer: no params */
    }
    if ((a = rfl__ox_attr_get(n, "value_int")) != 0 || (a = rfl__ox_attr_get(n, "value_float")) != 0) {
        o->rank = 0, o->nconst = 1;
        if (a->name[6] == 'f') o->isfloat = 1, rfl__ox_setf(o, 0, a->f);
        else o->cv[0] = a->i;
        return RFL_OK;
    }
    if ((a = rfl__ox_attr_get(n, "value_ints")) != 0 || (a = rfl__ox_attr_get(n, "value_floats")) != 0) {
        len = a->n;
        if ((rfl__ox_shape(B, o, &len, 1)) != RFL_OK) return RFL_ERR_SHAPE;
        if (len <= RFL__OX_CONSTS) {
            for (i = 0; i < a->n; i++)
                if (a->floats) rfl__ox_setf(o, i, a->floats[i]);
                else o->cv[i] = a->ints[i];
            o->nconst = a->n, o->isfloat = a->floats != 0;
        }
        return RFL_OK;
    }
    return rfl__ox_berr(B, RFL_ERR_UNSUPPORTED, "no value attribute this reader knows", "");
}

/* ConstantOfShape(shape; value): a filled tensor; small ones fold. */
static rfl_result rfl__ox_const_of_shape(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *o = rfl__ox_out(B, n, 0), fill;
    int64_t sh[RFL_ONNX_MAX_RANK];
    int cnt = rfl__ox_consts(rfl__ox_in(B, n, 0), sh, RFL_ONNX_MAX_RANK), i, ok;
    const rfl_onnx_attr *a = rfl__ox_attr_get(n, "value");
    uint64_t num;
    rfl__ox_cost c;
    rfl_result r;
    if (cnt < 0) return rfl__ox_not_const(B, "the shape");
    if ((r = rfl__ox_shape(B, o, sh, cnt)) != RFL_OK || !o) return r;
    RFL_MEMSET(&fill, 0, sizeof fill);
    fill.isfloat = 1, fill.nconst = 1; /* default: float 0 */
    if (a && a->tensor >= 0) rfl__ox_from_value(&fill, &B->g->values[a->tensor]);
    num = rfl__ox_count(o, &ok);
    if (ok && num <= RFL__OX_CONSTS && fill.nconst == 1) {
        for (i = 0; i < (int)num; i++)
            if (fill.isfloat) rfl__ox_setf(o, i, rfl__ox_getf(&fill, 0));
            else o->cv[i] = rfl__ox_geti(&fill, 0);
        o->nconst = (int32_t)num, o->isfloat = fill.isfloat;
    }
    RFL_MEMSET(&c, 0, sizeof c);
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 1);
}

/* Expand(input, shape): numpy broadcast of the two. */
static rfl_result rfl__ox_expand(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0), t;
    rfl__ox_slot *ins[1];
    int64_t od[RFL_ONNX_MAX_RANK];
    int cnt, orank = 0, i;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "input");
    if (r) return r;
    RFL_MEMSET(&t, 0, sizeof t);
    cnt = rfl__ox_consts(rfl__ox_in(B, n, 1), t.dim, RFL_ONNX_MAX_RANK);
    if (cnt < 0) return rfl__ox_not_const(B, "the shape");
    t.rank = cnt;
    for (i = 0; i < cnt; i++)
        if (t.dim[i] < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "negative dim in the shape", "");
    if ((r = rfl__ox_bcast(B, x, &t, od, &orank)) != RFL_OK) return r;
    if ((r = rfl__ox_shape(B, o, od, orank)) != RFL_OK || !o) return r;
    ins[0] = x;
    if (x->nconst >= 0) { /* fold as a broadcast copy */
        int ok;
        uint64_t num = rfl__ox_count(o, &ok);
        if (ok && num <= RFL__OX_CONSTS) {
            for (i = 0; i < (int)num; i++) {
                int src = rfl__ox_bidx(ins[0], o->dim, o->rank, i);
                if (x->isfloat) rfl__ox_setf(o, i, rfl__ox_getf(x, src));
                else o->cv[i] = rfl__ox_geti(x, src);
            }
            o->nconst = (int32_t)num, o->isfloat = x->isfloat;
        }
    }
    RFL_MEMSET(&c, 0, sizeof c);
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 1);
}

/* Range(start, limit, delta) of constants. */
static rfl_result rfl__ox_range(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *s = rfl__ox_in(B, n, 0), *l = rfl__ox_in(B, n, 1), *d = rfl__ox_in(B, n, 2);
    rfl__ox_slot *o = rfl__ox_out(B, n, 0);
    double a, b, st, cntf;
    int64_t cnt;
    int i;
    rfl__ox_cost c;
    rfl_result r;
    if (!s || !l || !d || s->nconst != 1 || l->nconst != 1 || d->nconst != 1)
        return rfl__ox_not_const(B, "start / limit / delta");
    a = rfl__ox_getf(s, 0), b = rfl__ox_getf(l, 0), st = rfl__ox_getf(d, 0);
    if (st == 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "zero delta", "");
    cntf = (b - a) / st;
    if (cntf > 9e15) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "too many elements", "");
    cnt = !(cntf > 0) ? 0 : rfl__ox_d2i(cntf) + ((double)rfl__ox_d2i(cntf) < cntf);
    if ((r = rfl__ox_shape(B, o, &cnt, 1)) != RFL_OK || !o) return r;
    if (cnt <= RFL__OX_CONSTS) {
        o->isfloat = (uint8_t)(s->isfloat | l->isfloat | d->isfloat);
        for (i = 0; i < cnt; i++)
            if (o->isfloat) rfl__ox_setf(o, i, a + st * i);
            else o->cv[i] = rfl__ox_d2i(a + st * i);
        o->nconst = (int32_t)cnt;
    }
    RFL_MEMSET(&c, 0, sizeof c);
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 1);
}

/* ReduceMean / Sum / Max / Min / Prod: axes from the attribute or input 1,
   keepdims; one FLOP per input element. Small constants fold. */
static rfl_result rfl__ox_reduce(rfl__ox_b *B, const rfl_onnx_node *n, rfl_op op) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *o = rfl__ox_out(B, n, 0);
    int64_t ax[RFL_ONNX_MAX_RANK], od[RFL_ONNX_MAX_RANK];
    int cnt, i, a, k = 0, mark[RFL_ONNX_MAX_RANK], keep = (int)rfl__ox_attr_i(n, "keepdims", 1), ok;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "data");
    if (r) return r;
    cnt = rfl__ox_ints_arg(B, n, "axes", 1, ax, RFL_ONNX_MAX_RANK);
    if (cnt == -2) return rfl__ox_not_const(B, "axes");
    for (i = 0; i < RFL_ONNX_MAX_RANK; i++) mark[i] = cnt <= 0 && !rfl__ox_attr_i(n, "noop_with_empty_axes", 0);
    for (i = 0; i < cnt; i++) {
        if (!rfl__ox_axis(ax[i], x->rank, &a)) return rfl__ox_berr(B, RFL_ERR_SHAPE, "axis out of range", "");
        mark[a] = 1;
    }
    for (i = 0; i < x->rank; i++)
        if (!mark[i]) od[k++] = x->dim[i];
        else if (keep) od[k++] = 1;
    if ((r = rfl__ox_shape(B, o, od, k)) != RFL_OK || !o) return r;
    if (x->nconst >= 0 && x->rank == 1 && mark[0] && x->nconst <= 64) { /* e.g. ReduceProd of a shape */
        double acc = rfl__ox_getf(x, 0);
        for (i = 1; i < x->nconst; i++) {
            double v = rfl__ox_getf(x, i);
            if (rfl__ox_streq(n->op_type, "ReduceProd")) acc *= v;
            else if (rfl__ox_streq(n->op_type, "ReduceMax")) acc = v > acc ? v : acc;
            else if (rfl__ox_streq(n->op_type, "ReduceMin")) acc = v < acc ? v : acc;
            else acc += v;
        }
        if (rfl__ox_streq(n->op_type, "ReduceMean") && x->nconst) acc /= x->nconst;
        if (x->isfloat) rfl__ox_setf(o, 0, acc);
        else o->cv[0] = rfl__ox_d2i(acc);
        o->nconst = 1, o->isfloat = x->isfloat;
    }
    RFL_MEMSET(&c, 0, sizeof c);
    c.flops = rfl__ox_count(x, &ok);
    c.arg[0] = c.arg[1] = 1;
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* Tile(input, repeats): each dim times its repeat; a copy. */
static rfl_result rfl__ox_tile(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0);
    int64_t rep[RFL_ONNX_MAX_RANK], od[RFL_ONNX_MAX_RANK];
    int cnt, i;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "input");
    if (r) return r;
    cnt = rfl__ox_consts(rfl__ox_in(B, n, 1), rep, RFL_ONNX_MAX_RANK);
    if (cnt < 0) return rfl__ox_not_const(B, "repeats");
    if (cnt != x->rank) return rfl__ox_berr(B, RFL_ERR_SHAPE, "repeats length differs from the rank", "");
    for (i = 0; i < cnt; i++) {
        if (rep[i] < 0 || (rep[i] && x->dim[i] > INT64_MAX / rep[i]))
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "bad repeats", "");
        od[i] = x->dim[i] * rep[i];
    }
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, cnt)) != RFL_OK) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    return rfl__ox_conclude(B, n, RFL_OP_CONCAT, &c, 1);
}

/* ---- recurrent nets, attention, einsum, variadic ops ---- */
/* *o = a x b x c; 0 on overflow */
static int rfl__ox_mul3(uint64_t a, uint64_t b, uint64_t c, uint64_t *o) {
    return rfl__ox_mul(a, b, o) && rfl__ox_mul(*o, c, o);
}

/* LSTM, GRU and RNN as the ONNX operator spec defines them: X [S, N, I]
   (layout 1: [N, S, I]), W [D, G H, I], R [D, G H, H], B [D, 2 G H],
   sequence_lens [N], initial states, LSTM's peepholes P [D, 3 H]; G gates
   (LSTM 4, GRU 3, RNN 1), D directions (2: bidirectional). Per step,
   direction and sequence (default activations):
     mac   2 G H (I + H)                  x W^T and h R^T
     adds  G H (the two products), + 2 G H with B (Wb and Rb)
     LSTM  3 sigmoids (4 each) + 2 tanh (1 each) + c = f c + i g (3)
           + h = o tanh(c) (1): 18 H; peepholes (P c, added): 6 H
     GRU   2 sigmoids (8 H) + tanh (H) + r . h (H) + h = (1 - z) n + z h
           (4 H): 14 H; linear_before_reset moves Rbh inside r . (...),
           the same count
     RNN   tanh: H
   Steps: S x N, or the sum of a constant sequence_lens (each at most S).
   Outputs: Y [S, D, N, H] (layout 1: [N, S, D, H]), Y_h and Y_c [D, N, H]
   (layout 1: [N, D, H]). */
static rfl_result rfl__ox_rnn(rfl__ox_b *B, const rfl_onnx_node *n, int G) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *w = rfl__ox_in(B, n, 1);
    int lay = rfl__ox_attr_i(n, "layout", 0) != 0, k, i, bias = n->n_inputs > 3 && n->inputs[3] >= 0;
    int peep = G == 4 && n->n_inputs > 7 && n->inputs[7] >= 0;
    int64_t S, N, I, H, D, od[4], lens[RFL__OX_CONSTS];
    uint64_t steps, gh, mac, ew;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "X");
    if (!r) r = rfl__ox_need(B, w, "W");
    if (r) return r;
    if (x->rank != 3 || w->rank != 3) return rfl__ox_berr(B, RFL_ERR_SHAPE, "X and W must be 3-D", "");
    S = x->dim[lay], N = x->dim[1 - lay], I = x->dim[2], D = w->dim[0];
    H = rfl__ox_attr_i(n, "hidden_size", w->dim[1] / G);
    if (D != (rfl__ox_streq(rfl__ox_attr_s(n, "direction"), "bidirectional") ? 2 : 1) || H < 1 ||
        w->dim[1] % G || w->dim[1] / G != H || w->dim[2] != I)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "W is not [directions, gates x hidden_size, input_size]", "");
    od[0] = lay ? N : S, od[1] = lay ? S : D, od[2] = lay ? D : N, od[3] = H;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, 4)) != RFL_OK) return r;
    od[0] = lay ? N : D, od[1] = lay ? D : N, od[2] = H;
    for (k = 1; k < 3 && !r; k++) r = rfl__ox_shape(B, rfl__ox_out(B, n, k), od, 3);
    for (k = 0; k < 3 && !r; k++) /* where the batch sits in Y, Y_h, Y_c */
        if (rfl__ox_out(B, n, k)) rfl__ox_out(B, n, k)->bax1 = (uint8_t)(lay ? 1 : k == 0 ? 3 : 2);
    if (r) return r;
    steps = (uint64_t)S * (uint64_t)N; /* both below 2^32: the output fit */
    if (rfl__ox_consts(rfl__ox_in(B, n, 4), lens, RFL__OX_CONSTS) == N)
        for (i = 0, steps = 0; i < N; i++) steps += lens[i] < 0 ? 0 : lens[i] > S ? (uint64_t)S : (uint64_t)lens[i];
    gh = (uint64_t)G * (uint64_t)H;
    ew = gh * (bias ? 3u : 1u) + (uint64_t)H * (G == 4 ? 18u + (peep ? 6u : 0u) : G == 3 ? 14u : 1u);
    RFL_MEMSET(&c, 0, sizeof c);
    if (!rfl__ox_mul3(2 * gh, (uint64_t)I + (uint64_t)H, steps, &mac) || !rfl__ox_mul(mac, (uint64_t)D, &c.mac) ||
        !rfl__ox_mul3(ew, steps, (uint64_t)D, &ew) || (c.flops = c.mac + ew) < ew ||
        !rfl__ox_mul3(2 * gh, steps, (uint64_t)D, &c.bias))
        return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    if (!bias) c.bias = 0;
    c.flags = RFL_LF_MODULE | (bias ? RFL_LF_BIAS : 0u);
    return rfl__ox_conclude(B, n, RFL_OP_LINEAR, &c, 0);
}

/* The scores of attention, as rfl_attention counts them: q k^T 2 S T Dq
   and probabilities x v 2 S T Dv (mac), a scale and a softmax (6) per
   score and head; per sequence, times N sequences. */
static int rfl__ox_attn_cost(uint64_t N, uint64_t S, uint64_t T, uint64_t Dq, uint64_t Dv, uint64_t heads,
                             rfl__ox_cost *c) {
    uint64_t st, a, b, sc;
    return rfl__ox_mul3(N, S, T, &st) && rfl__ox_mul3(st, Dq, 2, &a) && rfl__ox_mul3(st, Dv, 2, &b) &&
           (c->mac = a + b) >= a && rfl__ox_mul3(st, heads, 6, &sc) && (c->flops = c->mac + sc) >= sc;
}

/* com.microsoft Attention: input [N, S, I] x weights [I, Hq + Hk + Hv]
   (+ bias) -> q, k, v; past [2, N, heads, P, Hk / heads] makes T = P + S
   keys. mac = 2 N S I (Hq + Hk + Hv) + the scores' (rfl__ox_attn_cost);
   the bias adds N S (Hq + Hk + Hv). Outputs: [N, S, Hv], present
   [2, N, heads, T, Hk / heads]. */
static rfl_result rfl__ox_ms_attention(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *x = rfl__ox_in(B, n, 0), *w = rfl__ox_in(B, n, 1), *past = rfl__ox_in(B, n, 4);
    const int64_t *qkv;
    int64_t heads = rfl__ox_attr_i(n, "num_heads", 0), Hq, Hk, Hv, T, od[5];
    uint64_t proj, pm;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, x, "input");
    if (!r) r = rfl__ox_need(B, w, "weights");
    if (r) return r;
    if (x->rank != 3 || w->rank != 2 || w->dim[0] != x->dim[2] || heads < 1)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "input [batch, seq, hidden] and weights [hidden, 3 x hidden] "
                            "with num_heads wanted", "");
    if (rfl__ox_attr_ints(n, "qkv_hidden_sizes", &qkv) == 3) Hq = qkv[0], Hk = qkv[1], Hv = qkv[2];
    else Hq = Hk = Hv = w->dim[1] / 3;
    if (Hq < 1 || Hk != Hq || Hv < 1 || Hq + Hk + Hv != w->dim[1] || Hq % heads || Hv % heads)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "weights do not split into q, k, v for num_heads", "");
    T = x->dim[1] + (past && past->rank == 5 ? past->dim[3] : 0);
    od[0] = x->dim[0], od[1] = x->dim[1], od[2] = Hv;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, 3)) != RFL_OK) return r;
    od[0] = 2, od[1] = x->dim[0], od[2] = heads, od[3] = T, od[4] = Hk / heads;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 1), od, 5)) != RFL_OK) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    if (!rfl__ox_attn_cost((uint64_t)x->dim[0], (uint64_t)x->dim[1], (uint64_t)T, (uint64_t)Hq,
                           (uint64_t)Hv, (uint64_t)heads, &c) ||
        !rfl__ox_mul3((uint64_t)x->dim[0] * (uint64_t)x->dim[1], (uint64_t)w->dim[1], 1, &c.bias) ||
        !rfl__ox_mul3(c.bias, (uint64_t)x->dim[2], 2, &proj) || (pm = c.mac + proj) < proj ||
        (c.flops += proj) < proj)
        return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    c.mac = pm;
    if (n->n_inputs > 2 && n->inputs[2] >= 0) {
        if ((c.flops += c.bias) < c.bias) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
        c.flags |= RFL_LF_BIAS;
    } else {
        c.bias = 0;
    }
    c.arg[0] = c.arg[1] = (uint32_t)(heads > 0xFFFF ? 0xFFFF : heads);
    c.flags |= RFL_LF_MODULE;
    return rfl__ox_conclude(B, n, RFL_OP_ATTENTION, &c, 0);
}

/* Width and length of a com.microsoft MultiHeadAttention key or value:
   [N, L, D], [N, heads, L, D / heads], or packed [N, L, heads, 2, D / heads]. */
static int rfl__ox_mha_kv(const rfl__ox_slot *s, int64_t *L, int64_t *D) {
    if (s->rank == 3) *L = s->dim[1], *D = s->dim[2];
    else if (s->rank == 4) *L = s->dim[2], *D = s->dim[1] * s->dim[3];
    else if (s->rank == 5) *L = s->dim[1], *D = s->dim[2] * s->dim[4];
    else return 0;
    return 1;
}

/* com.microsoft MultiHeadAttention: query [N, S, D] (or packed q, k, v
   [N, S, heads, 3, D / heads]), key and value as rfl__ox_mha_kv reads
   them, past_key [N, heads, P, D / heads] making T = P + L keys. FLOPs:
   rfl__ox_attn_cost, plus the bias adds N (S D + L D + L Dv). Outputs:
   [N, S, Dv], present_key [N, heads, T, D / heads], present_value
   [N, heads, T, Dv / heads]. */
static rfl_result rfl__ox_mha(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot *q = rfl__ox_in(B, n, 0), *k = rfl__ox_in(B, n, 1), *v = rfl__ox_in(B, n, 2),
                 *pk = rfl__ox_in(B, n, 6);
    int64_t heads = rfl__ox_attr_i(n, "num_heads", 0), S, D, L, Dk, Dv, T, od[4];
    uint64_t b1, b2;
    rfl__ox_cost c;
    rfl_result r = rfl__ox_need(B, q, "query");
    if (r) return r;
    if (heads < 1 || (q->rank != 3 && q->rank != 5))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "query [batch, seq, hidden] with num_heads wanted", "");
    S = q->dim[1], D = q->rank == 3 ? q->dim[2] : q->dim[2] * q->dim[4];
    L = S, Dk = Dv = D; /* packed: keys and values from the query */
    if (k && k->rank >= 0 && !rfl__ox_mha_kv(k, &L, &Dk))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "key of rank 3, 4 or 5 wanted", "");
    if (k && k->rank == 5) Dv = Dk;
    if (v && v->rank >= 0 && !rfl__ox_mha_kv(v, &T, &Dv))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "value of rank 3 or 4 wanted", "");
    if (Dk != D || D % heads || Dv % heads)
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "query and key widths differ or do not split into num_heads", "");
    T = L + (pk && pk->rank == 4 ? pk->dim[2] : 0);
    od[0] = q->dim[0], od[1] = S, od[2] = Dv;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, 3)) != RFL_OK) return r;
    od[1] = heads, od[2] = T, od[3] = D / heads;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 1), od, 4)) != RFL_OK) return r;
    od[3] = Dv / heads;
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 2), od, 4)) != RFL_OK) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    if (!rfl__ox_attn_cost((uint64_t)q->dim[0], (uint64_t)S, (uint64_t)T, (uint64_t)D, (uint64_t)Dv,
                           (uint64_t)heads, &c) ||
        !rfl__ox_mul3((uint64_t)q->dim[0], (uint64_t)S, (uint64_t)D, &b1) ||
        !rfl__ox_mul3((uint64_t)q->dim[0], (uint64_t)L, (uint64_t)(D + Dv), &b2) || (c.bias = b1 + b2) < b2)
        return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    if (n->n_inputs > 3 && n->inputs[3] >= 0 && (c.flops += c.bias) >= c.bias) c.flags |= RFL_LF_BIAS;
    c.bias = 0; /* bias_flops: linear layers only */
    c.arg[0] = c.arg[1] = (uint32_t)(heads > 0xFFFF ? 0xFFFF : heads);
    return rfl__ox_conclude(B, n, RFL_OP_ATTENTION, &c, 0);
}

/* An einsum label: a-z 0..25, A-Z 26..51; the dims "..." stands for are
   52..59, right-aligned as broadcasting aligns them. */
#define RFL__OX_EIN_LABELS 60
static int rfl__ox_ein_label(char ch) {
    if (ch >= 'a' && ch <= 'z') return ch - 'a';
    if (ch >= 'A' && ch <= 'Z') return 26 + ch - 'A';
    return -1;
}

/* One term of an equation into lab (the labels of each dim); rank < 0
   for the output, whose "..." has *ell dims (else *ell gets the most any
   operand's has). The label count, or -1 when malformed. */
static int rfl__ox_ein_term(const char **pp, int rank, int *ell, int *lab) {
    const char *p = *pp, *q;
    int m = 0, letters = 0, seen = 0, i, e;
    for (q = p; *q && *q != ',' && *q != '-'; q++) letters += rfl__ox_ein_label(*q) >= 0;
    for (; *p && *p != ',' && *p != '-'; p++) {
        if (*p == ' ') continue;
        if (*p == '.') {
            e = rank >= 0 ? rank - letters : *ell;
            if (seen++ || p[1] != '.' || p[2] != '.' || e < 0 || m + e > RFL_ONNX_MAX_RANK) return -1;
            if (rank >= 0 && e > *ell) *ell = e;
            for (i = 0; i < e; i++) lab[m++] = 52 + RFL_ONNX_MAX_RANK - e + i;
            p += 2;
            continue;
        }
        if ((i = rfl__ox_ein_label(*p)) < 0 || m >= RFL_ONNX_MAX_RANK) return -1;
        lab[m++] = i;
    }
    *pp = p;
    return (rank >= 0 && m != rank) ? -1 : m;
}

/* Einsum, any equation. Every label's size comes from the operands (a 1
   broadcasts); no "->": the output is "..." then the labels used once, in
   ASCII order. P = the product of every label's size (the points of the
   loop nest). k >= 2 operands: (k - 1) multiplies per point, and an add
   when some label is summed: k P FLOPs, all mac (two operands: 2 P, as
   MatMul's 2 M N K), else (k - 1) P (an outer or elementwise product).
   One operand: a sum over the dropped labels, P; a transpose or a
   diagonal, 0. */
static rfl_result rfl__ox_einsum(rfl__ox_b *B, const rfl_onnx_node *n) {
    const char *p = rfl__ox_attr_s(n, "equation");
    int lab[RFL_ONNX_MAX_RANK];
    unsigned char uses[RFL__OX_EIN_LABELS], inout[RFL__OX_EIN_LABELS]; /* bytes: a small frame */
    int64_t size[RFL__OX_EIN_LABELS], od[RFL_ONNX_MAX_RANK];
    int k, i, m, no = 0, ell = 0, summed = 0, nops = n->n_inputs;
    uint64_t P = 1;
    rfl__ox_cost c;
    rfl_result r = RFL_OK;
    rfl_op op;
    for (i = 0; i < RFL__OX_EIN_LABELS; i++) size[i] = -1, uses[i] = inout[i] = 0;
    for (k = 0; k < nops; k++) {
        rfl__ox_slot *x = rfl__ox_in(B, n, k);
        if ((r = rfl__ox_need(B, x, k == 0 ? "0" : "1")) != RFL_OK) return r;
        if ((m = rfl__ox_ein_term(&p, x->rank, &ell, lab)) < 0 || (k < nops - 1 && *p++ != ','))
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "equation does not match the operands: ", rfl__ox_attr_s(n, "equation"));
        for (i = 0; i < m; i++) {
            int64_t d = x->dim[i], *s = &size[lab[i]];
            if (*s > 1 && d != 1 && d != *s)
                return rfl__ox_berr(B, RFL_ERR_SHAPE, "a label with two sizes in ", rfl__ox_attr_s(n, "equation"));
            if (*s < 0 || *s == 1) *s = d;
            if (uses[lab[i]] < 2) uses[lab[i]]++; /* 0, 1 or more */
        }
    }
    while (*p == ' ') p++;
    if (nops < 1 || (*p && (p[0] != '-' || p[1] != '>')))
        return rfl__ox_berr(B, RFL_ERR_SHAPE, "equation does not match the operands: ", rfl__ox_attr_s(n, "equation"));
    if (*p) {
        p += 2;
        if ((no = rfl__ox_ein_term(&p, -1, &ell, lab)) < 0 || *p)
            return rfl__ox_berr(B, RFL_ERR_SHAPE, "bad output in equation ", rfl__ox_attr_s(n, "equation"));
    } else { /* implicit: "..." first, then A-Z, a-z used once */
        for (i = 0; i < ell; i++) lab[no++] = 52 + RFL_ONNX_MAX_RANK - ell + i;
        for (i = 0; i < 52 && no < RFL_ONNX_MAX_RANK; i++)
            if (uses[(i + 26) % 52] == 1) lab[no++] = (i + 26) % 52;
    }
    for (i = 0; i < no; i++) {
        if (size[lab[i]] < 0) return rfl__ox_berr(B, RFL_ERR_SHAPE, "an output label no operand has in ", rfl__ox_attr_s(n, "equation"));
        od[i] = size[lab[i]], inout[lab[i]] = 1;
    }
    if ((r = rfl__ox_shape(B, rfl__ox_out(B, n, 0), od, no)) != RFL_OK) return r;
    for (i = 0; i < RFL__OX_EIN_LABELS; i++)
        if (size[i] >= 0) {
            if (!rfl__ox_mul(P, (uint64_t)size[i], &P)) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
            summed |= !inout[i];
        }
    RFL_MEMSET(&c, 0, sizeof c);
    if (!rfl__ox_mul(P, nops >= 2 ? (uint64_t)(nops - 1 + summed) : (uint64_t)summed, &c.flops))
        return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "FLOPs overflow 64 bits", "");
    op = nops >= 2 ? (summed ? RFL_OP_MATMUL : RFL_OP_MUL) : summed ? RFL_OP_SOFTMAX : RFL_OP_TRANSPOSE;
    if (op == RFL_OP_MATMUL) c.mac = c.flops;
    return rfl__ox_conclude(B, n, op, &c, 0);
}

/* Sum, Mean, Max, Min over any number of inputs (broadcast): one input is
   that input (no record, no FLOPs); k inputs, k - 1 FLOPs per output
   element (Mean: k, the divide). Two-input Max and Min stay binary ops
   (small constants fold). */
static rfl_result rfl__ox_variadic(rfl__ox_b *B, const rfl_onnx_node *n) {
    rfl__ox_slot acc, *x, *o = rfl__ox_out(B, n, 0);
    rfl__ox_cost c;
    int64_t od[RFL_ONNX_MAX_RANK];
    int j, orank = 0, ok, mean = rfl__ox_streq(n->op_type, "Mean");
    rfl_result r = RFL_OK;
    if (n->n_inputs == 1) return rfl__ox_alias(B, n);
    if (n->n_inputs == 2 && n->op_type[0] == 'M' && !mean) return rfl__ox_binary(B, n, RFL_OP_ADD);
    if (n->n_inputs < 1) return rfl__ox_berr(B, RFL_ERR_SHAPE, "needs an input", "");
    RFL_MEMSET(&acc, 0, sizeof acc);
    for (j = 0; j < n->n_inputs; j++) {
        x = rfl__ox_in(B, n, j);
        if ((r = rfl__ox_need(B, x, j == 0 ? "0" : "1")) != RFL_OK) return r;
        if (j == 0) acc = *x;
        else if ((r = rfl__ox_bcast(B, &acc, x, od, &orank)) != RFL_OK) return r;
        else RFL_MEMCPY(acc.dim, od, sizeof od), acc.rank = orank;
    }
    if ((r = rfl__ox_shape(B, o, acc.dim, acc.rank)) != RFL_OK || !o) return r;
    RFL_MEMSET(&c, 0, sizeof c);
    c.flops = rfl__ox_count(o, &ok) * (uint64_t)(n->n_inputs - 1 + mean);
    return rfl__ox_conclude(B, n, mean ? RFL_OP_MUL : RFL_OP_ADD, &c, 0);
}

/* The shape and cost rule of node n's op; RFL_ERR_UNKNOWN_NAME when this
   reader has none. Per-element FLOPs as the LAYERS section says. */
static RFL__NOINLINE rfl_result rfl__ox_rule(rfl__ox_b *B, const rfl_onnx_node *n) {
    static const struct { const char *op; uint8_t kind, per, act; } un[] = {
        {"Relu", RFL_OP_ACT, 1, RFL_ACT_RELU}, {"LeakyRelu", RFL_OP_ACT, 2, RFL_ACT_RELU},
        {"Clip", RFL_OP_ACT, 2, RFL_ACT_RELU6}, {"Sigmoid", RFL_OP_ACT, 4, RFL_ACT_SIGMOID},
        {"HardSigmoid", RFL_OP_ACT, 4, RFL_ACT_HARDSIGMOID},
        {"HardSwish", RFL_OP_ACT, 5, RFL_ACT_HARDSWISH}, {"Tanh", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Gelu", RFL_OP_ACT, 5, RFL_ACT_GELU}, {"Erf", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Sqrt", RFL_OP_ACT, 1, RFL_ACT_TANH}, {"Exp", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Log", RFL_OP_ACT, 1, RFL_ACT_TANH}, {"Neg", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Abs", RFL_OP_ACT, 1, RFL_ACT_TANH}, {"Reciprocal", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Floor", RFL_OP_ACT, 1, RFL_ACT_TANH}, {"Ceil", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Not", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Softmax", RFL_OP_SOFTMAX, 5, 0}, {"LogSoftmax", RFL_OP_SOFTMAX, 6, 0},
        {"BatchNormalization", RFL_OP_BATCHNORM, 4, 0},
        {"LayerNormalization", RFL_OP_LAYERNORM, 8, 0},
        {"InstanceNormalization", RFL_OP_LAYERNORM, 8, 0},
        {"Cast", RFL_OP_TRANSPOSE, 0, 0}, {"Dropout", RFL_OP_DROPOUT, 0, 0},
        {"ScatterND", RFL_OP_CONCAT, 0, 0}, {"ScatterElements", RFL_OP_CONCAT, 0, 0},
        {"Trilu", RFL_OP_CONCAT, 0, 0}, {"CumSum", RFL_OP_ADD, 1, 0},
        {"Sin", RFL_OP_ACT, 1, RFL_ACT_TANH}, {"Cos", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Round", RFL_OP_ACT, 1, RFL_ACT_TANH}, {"Sign", RFL_OP_ACT, 1, RFL_ACT_TANH},
        {"Softplus", RFL_OP_ACT, 2, RFL_ACT_TANH}, {"Elu", RFL_OP_ACT, 2, RFL_ACT_TANH},
        {"QuantizeLinear", RFL_OP_MUL, 2, 0}, {"DequantizeLinear", RFL_OP_MUL, 2, 0}};
    static const struct { const char *op; uint8_t kind; } bin[] = {
        {"Add", RFL_OP_ADD}, {"Sub", RFL_OP_ADD}, {"Mul", RFL_OP_MUL}, {"Div", RFL_OP_MUL},
        {"Pow", RFL_OP_MUL}, {"Max", RFL_OP_ADD}, {"Min", RFL_OP_ADD}, {"Equal", RFL_OP_ADD},
        {"Less", RFL_OP_ADD}, {"Greater", RFL_OP_ADD}, {"And", RFL_OP_MUL}, {"Or", RFL_OP_ADD},
        {"Where", RFL_OP_MUL}, {"Mod", RFL_OP_MUL}, {"PRelu", RFL_OP_MUL},
        {"LessOrEqual", RFL_OP_ADD}, {"GreaterOrEqual", RFL_OP_ADD}, {"Xor", RFL_OP_ADD}};
    static const char *const rnn[3] = {"RNN", "GRU", "LSTM"}; /* 1, 3, 4 gates */
    const char *op = n->op_type;
    int i;
    for (i = 0; i < (int)(sizeof un / sizeof un[0]); i++)
        if (rfl__ox_streq(op, un[i].op)) {
            unsigned fl = (un[i].kind == RFL_OP_TRANSPOSE || un[i].kind == RFL_OP_CONCAT ||
                           un[i].kind == RFL_OP_ADD || un[i].kind == RFL_OP_MUL) ? 0u : (unsigned)RFL_LF_MODULE;
            rfl__ox_slot *x = rfl__ox_in(B, n, 0);
            if (un[i].kind == RFL_OP_DROPOUT && x && !x->batched) return rfl__ox_alias(B, n);
            return rfl__ox_unary(B, n, (rfl_op)un[i].kind, un[i].per, un[i].act, fl);
        }
    if (rfl__ox_streq(op, "Max") || rfl__ox_streq(op, "Min") || rfl__ox_streq(op, "Sum") ||
        rfl__ox_streq(op, "Mean"))
        return rfl__ox_variadic(B, n);
    for (i = 0; i < (int)(sizeof bin / sizeof bin[0]); i++)
        if (rfl__ox_streq(op, bin[i].op)) return rfl__ox_binary(B, n, (rfl_op)bin[i].kind);
    if (rfl__ox_streq(n->domain, "com.microsoft") && rfl__ox_streq(op, "Attention"))
        return rfl__ox_ms_attention(B, n);
    if (rfl__ox_streq(n->domain, "com.microsoft") && rfl__ox_streq(op, "MultiHeadAttention"))
        return rfl__ox_mha(B, n);
    for (i = 0; i < 3; i++)
        if (rfl__ox_streq(op, rnn[i])) return rfl__ox_rnn(B, n, i == 0 ? 1 : i + 2);
    if (rfl__ox_streq(op, "Einsum")) return rfl__ox_einsum(B, n);
    if (rfl__ox_streq(op, "Identity")) return rfl__ox_alias(B, n);
    if (rfl__ox_streq(op, "Conv")) return rfl__ox_conv(B, n, 0);
    if (rfl__ox_streq(op, "ConvTranspose")) return rfl__ox_conv(B, n, 1);
    if (rfl__ox_streq(op, "Gemm")) return rfl__ox_gemm(B, n);
    if (rfl__ox_streq(op, "MatMul")) return rfl__ox_matmul(B, n);
    if (rfl__ox_streq(op, "MaxPool")) return rfl__ox_pool(B, n, RFL_OP_MAXPOOL);
    if (rfl__ox_streq(op, "AveragePool")) return rfl__ox_pool(B, n, RFL_OP_AVGPOOL);
    if (rfl__ox_streq(op, "GlobalAveragePool")) return rfl__ox_gpool(B, n, RFL_OP_ADAPTIVE_AVGPOOL);
    if (rfl__ox_streq(op, "GlobalMaxPool")) return rfl__ox_gpool(B, n, RFL_OP_MAXPOOL);
    if (rfl__ox_streq(op, "ReduceMean")) return rfl__ox_reduce(B, n, RFL_OP_ADAPTIVE_AVGPOOL);
    if (rfl__ox_streq(op, "ReduceSum") || rfl__ox_streq(op, "ReduceMax") ||
        rfl__ox_streq(op, "ReduceMin") || rfl__ox_streq(op, "ReduceProd"))
        return rfl__ox_reduce(B, n, RFL_OP_SOFTMAX);
    if (rfl__ox_streq(op, "Flatten")) return rfl__ox_flatten(B, n);
    if (rfl__ox_streq(op, "Reshape")) return rfl__ox_reshape(B, n);
    if (rfl__ox_streq(op, "Squeeze")) return rfl__ox_squeeze(B, n, 0);
    if (rfl__ox_streq(op, "Unsqueeze")) return rfl__ox_squeeze(B, n, 1);
    if (rfl__ox_streq(op, "Transpose")) return rfl__ox_transpose(B, n);
    if (rfl__ox_streq(op, "Concat")) return rfl__ox_concat(B, n);
    if (rfl__ox_streq(op, "Split")) return rfl__ox_split(B, n);
    if (rfl__ox_streq(op, "Slice")) return rfl__ox_slice(B, n);
    if (rfl__ox_streq(op, "Gather")) return rfl__ox_gather(B, n);
    if (rfl__ox_streq(op, "Pad")) return rfl__ox_pad(B, n);
    if (rfl__ox_streq(op, "Resize") || rfl__ox_streq(op, "Upsample")) return rfl__ox_resize(B, n);
    if (rfl__ox_streq(op, "Shape")) return rfl__ox_shape_op(B, n);
    if (rfl__ox_streq(op, "Constant")) return rfl__ox_constant(B, n);
    if (rfl__ox_streq(op, "ConstantOfShape")) return rfl__ox_const_of_shape(B, n);
    if (rfl__ox_streq(op, "Expand")) return rfl__ox_expand(B, n);
    if (rfl__ox_streq(op, "Range")) return rfl__ox_range(B, n);
    if (rfl__ox_streq(op, "Tile")) return rfl__ox_tile(B, n);
    return RFL_ERR_UNKNOWN_NAME;
}

/* No rule (or a rule that needs a value the file does not fold): take the
   output shapes from the file's value_info; FLOPs unknown. */
static rfl_result rfl__ox_fallback(rfl__ox_b *B, const rfl_onnx_node *n, int known_op) {
    rfl__ox_cost c;
    const char *missing = "";
    int k;
    for (k = 0; k < n->n_outputs; k++) {
        rfl__ox_slot *o = rfl__ox_out(B, n, k);
        if (!o) continue;
        o->nconst = -1;
        if (!rfl__ox_file_dims(B, &B->g->values[n->outputs[k]], o, 0, &missing)) {
            if (known_op) return RFL_ERR_UNSUPPORTED; /* keep the rule's message */
            rfl__err_clear(&B->info->err);
            return rfl__ox_berr(B, RFL_ERR_UNSUPPORTED,
                                "no shape rule for this op and no value_info shape for output ",
                                B->g->values[n->outputs[k]].name);
        }
    }
    RFL_MEMSET(&c, 0, sizeof c);
    c.flags = RFL_LF_UNKNOWN_FLOPS;
    return rfl__ox_conclude(B, n, RFL_OP_RESHAPE, &c, 1);
}

static rfl_result rfl__ox_run_node(rfl__ox_b *B, int i) {
    const rfl_onnx_node *n = &B->g->nodes[i];
    rfl_result r;
    int k;
    B->node = i;
    r = rfl__ox_rule(B, n);
    if (r == RFL_ERR_UNKNOWN_NAME) r = rfl__ox_fallback(B, n, 0);
    else if (r == RFL_ERR_UNSUPPORTED) {
        rfl_error keep = B->info->err;
        rfl__err_clear(&B->info->err);
        r = rfl__ox_fallback(B, n, 1);
        if (r) B->info->err = keep;
    }
    for (k = 0; k < n->n_outputs; k++)
        if (n->outputs[k] >= 0) B->s[n->outputs[k]].done = 1;
    return r;
}

/* Graph inputs: dims from the file, the batch and NAME=V; an input record
   each. The first input's first axis is the batch of the build. */
static rfl_result rfl__ox_inputs_init(rfl__ox_b *B) {
    rfl_onnx_graph *g = B->g;
    int i, ok;
    for (i = 0; i < g->input_count; i++) {
        const rfl_onnx_value *v = &g->values[g->inputs[i]];
        rfl__ox_slot *s = &B->s[g->inputs[i]];
        const char *missing = "";
        rfl_layer *L;
        uint64_t numel;
        if (!rfl__ox_file_dims(B, v, s, 1, &missing)) {
            char what[120];
            size_t k = rfl__ox_cat(what, sizeof what, 0, "input '");
            k = rfl__ox_cat(what, sizeof what, k, v->name);
            if (!(v->flags & RFL_ONNX_HAS_SHAPE) || v->rank > RFL_ONNX_MAX_RANK)
                return rfl__ox_berr(B, RFL_ERR_MISSING, what, "': no shape (or rank above 8)");
            k = rfl__ox_cat(what, sizeof what, k, "': symbolic dim '");
            k = rfl__ox_cat(what, sizeof what, k, missing);
            return rfl__ox_berr(B, RFL_ERR_MISSING, what, "' has no value");
        }
        if (i == 0) {
            B->batch = s->rank > B->bax ? (uint64_t)s->dim[B->bax] : 1;
            if (!B->batch) return rfl__ox_berr(B, RFL_ERR_SHAPE, "batch of 0 in input ", v->name);
            B->info->batch = B->batch;
        }
        s->batched = 1, s->done = 1;
        s->bax1 = (uint8_t)(B->bax + 1);
        numel = rfl__ox_count(s, &ok);
        if (!ok) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "input size overflows: ", v->name);
        if (B->net->count >= B->net->cap) return rfl__ox_berr(B, RFL_ERR_BUFFER, "layer array full", "");
        L = &B->net->layers[B->net->count];
        RFL_MEMSET(L, 0, sizeof *L);
        L->name = v->name;
        L->op = RFL_OP_INPUT;
        L->in[0] = L->in[1] = RFL_NO_TENSOR;
        L->out_numel = rfl__ox_per(numel, B->batch);
        if (!rfl__ox_rec_shape(B, s, L)) return rfl__ox_berr(B, RFL_ERR_OVERFLOW, "a dim above 2^32 in ", v->name);
        s->record = B->net->count++;
    }
    return RFL_OK;
}

/* The batch axis of the graph inputs: 1 when the first input is the X of
   a recurrent node in its default layout [seq, batch, input], directly or
   as the ids [seq, batch] of an embedding (Gather on axis 0), else 0. */
static int rfl__ox_batch_axis(const rfl_onnx_graph *g) {
    int i, x, p;
    if (g->input_count < 1 || g->values[g->inputs[0]].rank < 2) return 0;
    for (i = 0; i < g->node_count; i++) {
        const rfl_onnx_node *n = &g->nodes[i], *e;
        if (n->n_inputs < 1 || rfl__ox_attr_i(n, "layout", 0) ||
            !(rfl__ox_streq(n->op_type, "LSTM") || rfl__ox_streq(n->op_type, "GRU") ||
              rfl__ox_streq(n->op_type, "RNN")))
            continue;
        if ((x = n->inputs[0]) == g->inputs[0]) return 1;
        p = x >= 0 ? g->values[x].producer : -1;
        e = p >= 0 ? &g->nodes[p] : (const rfl_onnx_node *)0;
        if (e && rfl__ox_streq(e->op_type, "Gather") && !rfl__ox_attr_i(e, "axis", 0) && e->n_inputs > 1 &&
            e->inputs[1] == g->inputs[0])
            return 1;
    }
    return 0;
}

/* Slots: unknown; initializers from the file (their params pending). */
static void rfl__ox_slots_init(rfl__ox_b *B) {
    rfl_onnx_graph *g = B->g;
    int i, ok;
    for (i = 0; i < g->value_count; i++) {
        rfl__ox_slot *s = &B->s[i];
        const rfl_onnx_value *v = &g->values[i];
        RFL_MEMSET(s, 0, sizeof *s);
        s->rank = -1, s->nconst = -1, s->record = -1;
        if (!(v->flags & RFL_ONNX_INITIALIZER)) continue;
        rfl__ox_from_value(s, v);
        s->done = 1;
        if (rfl__ox_is_float_type(v->elem_type)) s->pending = rfl__ox_count(s, &ok);
    }
}

/* 1 when node n has an output not yet computed (nodes without named
   outputs compute nothing anyone reads). */
static int rfl__ox_pending_node(const rfl__ox_b *B, const rfl_onnx_node *n) {
    int j;
    for (j = 0; j < n->n_outputs; j++)
        if (n->outputs[j] >= 0 && !B->s[n->outputs[j]].done) return 1;
    return 0;
}

RFL_API rfl_result rfl_onnx_build(rfl_onnx_graph *g, const rfl_onnx_desc *d, rfl_net *net,
                                  rfl_onnx_info *info) {
    rfl__ox_b B;
    rfl_onnx_info scratch;
    rfl_result r;
    int left, progress, i, j;
    if (!info) info = &scratch;
    RFL_MEMSET(info, 0, sizeof *info);
    rfl__err_clear(&info->err);
    if (!g || !net || !net->layers || (g->value_count && !g->values)) return RFL_ERR_ARG;
    if (net->err.code || net->count) return RFL_ERR_STATE;
    if (!g->work || g->work_size < (size_t)g->value_count * sizeof(rfl__ox_slot)) return RFL_ERR_ARG;
    RFL_MEMSET(&B, 0, sizeof B);
    B.g = g, B.d = d, B.net = net, B.info = info, B.node = -1;
    B.s = (rfl__ox_slot *)g->work;
    B.batch = (d && d->batch) ? d->batch : 1;
    info->batch = B.batch;
    info->batch_axis = B.bax = rfl__ox_batch_axis(g);
    rfl__ox_slots_init(&B);
    r = rfl__ox_inputs_init(&B);
    /* nodes in file order; a node whose inputs are not ready yet waits for
       a later pass (unsorted files); no progress means a cycle */
    for (i = 0, left = 0; i < g->node_count; i++) left += rfl__ox_pending_node(&B, &g->nodes[i]);
    for (progress = 1; !r && left && progress;) {
        progress = 0;
        for (i = 0; i < g->node_count && !r; i++) {
            const rfl_onnx_node *n = &g->nodes[i];
            int ready = 1;
            if (!rfl__ox_pending_node(&B, n)) continue;
            for (j = 0; j < n->n_inputs; j++)
                if (n->inputs[j] >= 0 && !B.s[n->inputs[j]].done) ready = 0;
            if (!ready) continue;
            r = rfl__ox_run_node(&B, i);
            left--, progress = 1;
        }
    }
    if (!r && left) {
        for (i = 0; i < g->node_count; i++)
            if (rfl__ox_pending_node(&B, &g->nodes[i])) break;
        B.node = i < g->node_count ? i : -1;
        r = rfl__ox_berr(&B, RFL_ERR_GRAPH, "a cycle: its inputs depend on its own output", "");
    }
    if (r && !info->err.code) info->err.code = r;
    if (r && !net->err.code) net->err = info->err, net->err.index = net->count;
    return r;
}

RFL_API rfl_result rfl_onnx_read_buffer(rfl_onnx_state *st, const void *data, size_t len,
                                        void *arena, size_t size, rfl_onnx_graph *g) {
    rfl_result r = rfl_onnx_init(st, arena, size);
    if (!r) r = rfl_onnx_push(st, data, len);
    if (!r) r = rfl_onnx_finish(st, g);
    return r;
}

#ifndef RFL_NO_STDIO
#include <stdio.h>
/* Push the file in 512-byte reads (stdio buffers the file; a small
   buffer keeps the frame under 1 KiB for small stacks); payloads the
   reader skips are seeked over (fseek from the current position, in steps
   a long can hold), so the reads cover only the graph. */
RFL_API rfl_result rfl_onnx_read_stream(rfl_onnx_state *st, FILE *f, void *arena, size_t size,
                                        rfl_onnx_graph *g) {
    unsigned char buf[512];
    size_t n;
    long start = 0, end = 0;
    int size_known = 0;
    rfl_result r;
    if (!st || !f || !g) return RFL_ERR_ARG;
    r = rfl_onnx_init(st, arena, size);
    if (r) return r;
    /* the stream's size bounds every seek: a payload cut short by the end
       of the file is read (not seeked over), so finish sees the truncation */
    if ((start = ftell(f)) >= 0 && fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) >= start &&
        fseek(f, start, SEEK_SET) == 0)
        size_known = 1, end -= start;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (rfl_onnx_push(st, buf, n)) break;
        while (size_known && st->skip > 0 && st->skip <= (uint64_t)end - st->offset) {
            long step = st->skip > 0x40000000u ? 0x40000000L : (long)st->skip;
            if (fseek(f, step, SEEK_CUR) != 0) break;
            rfl_onnx_skip(st, (uint64_t)step);
        }
    }
    if (ferror(f) && !st->err.code) rfl__err_set(&st->err, RFL_ERR_IO, "read error");
    if (st->err.code) return st->err.code;
    return rfl_onnx_finish(st, g);
}

RFL_API rfl_result rfl_onnx_read_file(rfl_onnx_state *st, const char *path, void *arena,
                                      size_t size, rfl_onnx_graph *g) {
    FILE *f;
    rfl_result r;
    if (!st || !path || !g) return RFL_ERR_ARG;
    r = rfl_onnx_init(st, arena, size);
    if (r) return r;
    f = fopen(path, "rb");
    if (!f) return rfl__err_set(&st->err, RFL_ERR_IO, "cannot open the file");
    r = rfl_onnx_read_stream(st, f, arena, size, g);
    fclose(f);
    return r;
}
#endif

RFL_API int64_t rfl_onnx_input_dim(const rfl_onnx_graph *g, const rfl_onnx_desc *d,
                                   const rfl_onnx_info *info, int input, int axis) {
    const rfl_onnx_value *v;
    const rfl_onnx_dim *dim;
    const char *p = d ? d->dims : 0;
    size_t n;
    if (!g || input < 0 || input >= g->input_count) return -1;
    v = &g->values[g->inputs[input]];
    if (axis < 0 || axis >= v->rank) return -1;
    dim = &v->dims[axis];
    n = dim->param ? rfl__strlen(dim->param) : 0;
    while (n && p && *p) { /* "seq=128,height=224" */
        if (rfl__memeq(p, dim->param, n) && p[n] == '=') {
            int64_t x = 0;
            for (p += n + 1; *p >= '0' && *p <= '9' && x < ((int64_t)1 << 58); p++) x = x * 10 + (*p - '0');
            return x;
        }
        while (*p && *p != ',') p++;
        if (*p) p++;
    }
    if (info && axis == info->batch_axis && (dim->value < 0 || dim->param)) return (int64_t)info->batch;
    return dim->param ? -1 : dim->value;
}
#endif /* RFL_NO_ONNX */

#ifndef RFL_NO_JSON_WRITER
/* ---- the estimate as JSON --------------------------------------------------- */
/* Dims of the records' shape at the batch, or those of the ONNX graph
   input the record stands for (as built: null for one without a value). */
static void rfl__nj_shape(rfl_json_writer *w, const char *key, const rfl_net *net, int i,
                          uint64_t batch, const rfl_net_json_desc *jd) {
    const rfl_layer *L = &net->layers[i];
    int k;
    rfl_json_w_arr(w, key);
#ifndef RFL_NO_ONNX
    for (k = 0; jd && jd->onnx && L->op == RFL_OP_INPUT && L->name && k < jd->onnx->input_count; k++) {
        const rfl_onnx_value *v = &jd->onnx->values[jd->onnx->inputs[k]];
        rfl_onnx_desc od;
        int a;
        if (!rfl__ox_streq(v->name, L->name)) continue;
        RFL_MEMSET(&od, 0, sizeof od);
        od.dims = jd->onnx_dims;
        for (a = 0; a < v->rank; a++) {
            int64_t x = rfl_onnx_input_dim(jd->onnx, &od, jd->onnx_info, k, a);
            rfl_json_w_num_if(w, 0, x >= 0, (double)x);
        }
        rfl_json_w_end(w);
        return;
    }
#else
    (void)jd;
#endif
    rfl_json_w_u64(w, 0, batch);
    for (k = 0; k < L->rank; k++) rfl_json_w_num(w, 0, L->shape[k]);
    rfl_json_w_end(w);
}

/* forward / backward: with unknown FLOPs the counts are null and their
   known part stands beside them */
static void rfl__nj_pass(rfl_json_writer *w, const char *key, int unknown, uint64_t flops,
                         uint64_t mac, uint64_t bytes) {
    rfl_json_w_obj(w, key);
    if (unknown) {
        rfl_json_w_null(w, "flops");
        rfl_json_w_null(w, "mac_flops");
        rfl_json_w_u64(w, "flops_known", flops);
        rfl_json_w_u64(w, "mac_flops_known", mac);
    } else {
        rfl_json_w_u64(w, "flops", flops);
        rfl_json_w_u64(w, "mac_flops", mac);
    }
    rfl_json_w_u64(w, "bytes", bytes);
    rfl_json_w_end(w);
}

/* An exact count when known, else null. */
static void rfl__nj_u64_if(rfl_json_writer *w, const char *key, int known, uint64_t v) {
    if (known) rfl_json_w_u64(w, key, v);
    else rfl_json_w_null(w, key);
}

static const char *rfl__nj_bound(const rfl_prediction *p) { return p->bound.memory ? "memory" : "compute"; }

/* Sums by layer type (forward, + backward when training). */
static void rfl__nj_by_type(rfl_json_writer *w, const rfl_net *net, const rfl_cost_desc *d,
                            const rfl_machine *m) {
    int t, i, train = d && d->mode == RFL_MODE_TRAIN;
    rfl_json_w_arr(w, "by_type");
    for (t = 0; t < RFL_LT_COUNT; t++) {
        int cnt = 0, unk = 0;
        double f = 0, b = 0, s = 0;
        for (i = 0; i < net->count; i++) {
            rfl_layer_cost c;
            rfl_prediction p;
            const rfl_layer *L = &net->layers[i];
            if (L->op == RFL_OP_MARK || (int)rfl_op_ltype((rfl_op)L->op) != t) continue;
            rfl_layer_cost_get(net, i, d, &c);
            cnt++;
            unk += (L->flags & RFL_LF_UNKNOWN_FLOPS) != 0;
            f += (double)c.fwd_flops + (train ? (double)c.bwd_flops : 0);
            b += (double)c.fwd_bytes + (train ? (double)c.bwd_bytes : 0);
            if (m && rfl_layer_predict(net, i, d, m, &p) == RFL_OK) s += p.time_s;
        }
        if (!cnt) continue;
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "type", rfl_ltype_name((rfl_ltype)t));
        rfl_json_w_num(w, "layers", cnt);
        if (unk) rfl_json_w_null(w, "flops"), rfl_json_w_num(w, "flops_known", f);
        else rfl_json_w_num(w, "flops", f);
        rfl_json_w_num(w, "bytes", b);
        if (m) rfl_json_w_num(w, "predicted_time_s", s);
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
}

static void rfl__nj_layer(rfl_json_writer *w, const rfl_net *net, int i, const rfl_cost_desc *d,
                          const rfl_machine *m, const rfl_net_json_desc *jd) {
    const rfl_layer *L = &net->layers[i];
    int unk = (L->flags & RFL_LF_UNKNOWN_FLOPS) != 0; /* no FLOP rule: its kind is unknown too */
    uint64_t B = d && d->batch ? d->batch : 1;
    rfl_layer_cost c;
    rfl_prediction p;
    char b[64];
    rfl_layer_cost_get(net, i, d, &c);
    rfl_json_w_obj(w, 0);
    if (!L->name) rfl_layer_label(net, i, b, sizeof b);
    rfl_json_w_str(w, "name", L->name ? L->name : b);
    rfl_json_w_str(w, "type", unk ? 0 : rfl_ltype_name(rfl_op_ltype((rfl_op)L->op)));
    rfl_json_w_str(w, "op", unk                   ? 0
                            : L->op == RFL_OP_ACT ? rfl_act_name((rfl_act_kind)L->arg[0])
                                                  : rfl_op_name((rfl_op)L->op));
    rfl__nj_shape(w, "out", net, i, (L->flags & RFL_LF_SHARED) ? 1 : B, jd);
    rfl_json_w_u64(w, "params", c.params);
    rfl__nj_u64_if(w, "forward_flops", !unk, c.fwd_flops);
    rfl__nj_u64_if(w, "forward_mac_flops", !unk, c.fwd_mac_flops);
    rfl_json_w_u64(w, "forward_bytes", c.fwd_bytes);
    rfl__nj_u64_if(w, "backward_flops", !unk, c.bwd_flops);
    rfl__nj_u64_if(w, "backward_mac_flops", !unk, c.bwd_mac_flops);
    rfl_json_w_u64(w, "backward_bytes", c.bwd_bytes);
    if (m && !unk && rfl_layer_predict(net, i, d, m, &p) == RFL_OK) {
        rfl_json_w_num(w, "predicted_time_s", p.time_s);
        rfl_json_w_str(w, "bound", p.time_s > 0 ? rfl__nj_bound(&p) : 0);
    } else if (m) {
        rfl_json_w_null(w, "predicted_time_s");
        rfl_json_w_null(w, "bound");
    }
    rfl_json_w_end(w);
}

#ifndef RFL_NO_ONNX
/* The file's part: its first input as built, the graph's counts. */
static void rfl__nj_onnx(rfl_json_writer *w, const rfl_net_json_desc *jd) {
    const rfl_onnx_graph *g = jd->onnx;
    rfl_onnx_desc od;
    int i, rank = g->input_count > 0 ? g->values[g->inputs[0]].rank : 0;
    RFL_MEMSET(&od, 0, sizeof od);
    od.dims = jd->onnx_dims;
    rfl_json_w_arr(w, "input"); /* unknown dims: null */
    for (i = 0; i < rank; i++) {
        int64_t x = rfl_onnx_input_dim(g, &od, jd->onnx_info, 0, i);
        rfl_json_w_num_if(w, 0, x >= 0, (double)x);
    }
    rfl_json_w_end(w);
    rfl_json_w_str(w, "onnx_file", jd->onnx_file);
    rfl_json_w_num(w, "opset", (double)g->opset);
    rfl_json_w_num(w, "batch_axis", jd->onnx_info->batch_axis);
    rfl_json_w_num(w, "onnx_nodes", g->node_count);
    rfl_json_w_num(w, "unknown_flops_nodes", jd->onnx_info->unknown_ops);
    rfl_json_w_str(w, "unknown_flops_op", jd->onnx_info->unknown_op);
}
#endif

#ifndef RFL_NO_LLM
RFL_API rfl_result rfl_llm_step_figures(const rfl_net *net, const rfl_cost_desc *d,
                                        const struct rfl_llm_config *cfg,
                                        const struct rfl_llm_step_desc *step,
                                        const rfl_machine *m, rfl_llm_figures *out) {
    rfl_llm_step_desc one;
    rfl_net_prediction np;
    rfl_net_cost t;
    uint64_t kv1 = 0;
    rfl_result r;
    int dec;
    if (!net || !d || !cfg || !step || !out) return RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    dec = step->phase == RFL_LLM_DECODE;
    one = *step;
    one.batch = 1;
    if (!rfl__ly_mul64(d->batch ? d->batch : 1, dec ? 1 : (step->seq ? step->seq : 1), &out->tokens))
        return RFL_ERR_OVERFLOW;
    if ((r = rfl_llm_kv_cache_bytes(cfg, step, &out->kv_cache_bytes)) != RFL_OK ||
        (r = rfl_llm_kv_cache_bytes(cfg, &one, &kv1)) != RFL_OK || !m)
        return r;
    if ((r = rfl_net_cost_get(net, d, &t)) != RFL_OK || (r = rfl_net_predict(net, d, m, &np)) != RFL_OK)
        return r;
    out->tokens_per_s = np.layers_s > 0 ? (double)out->tokens / np.layers_s : 0;
    out->ttft_s = dec ? 0 : np.layers_s;
    if (dec && ((r = rfl_net_compute_bound_batch(net, d, m, 0, RFL_LLM_BATCH_CAP,
                                                 &out->decode_bound_batch)) != RFL_OK ||
                (r = rfl_net_compute_bound_batch(net, d, m, 1, RFL_LLM_BATCH_CAP,
                                                 &out->gemm_bound_batch)) != RFL_OK))
        return r;
    if (m->mem_bytes > 0 && kv1 && (double)t.param_bytes < m->mem_bytes)
        out->max_batch_in_memory = (uint64_t)((m->mem_bytes - (double)t.param_bytes) / (double)kv1);
    return RFL_OK;
}

/* The step: the model type, the roof of its matrix FLOPs (which rfl-plot
   --work places it under), phase, sequence, logits, the attention count,
   the storage types, the new tokens. */
static void rfl__nj_step(rfl_json_writer *w, const rfl_cost_desc *d, const rfl_net_json_desc *jd,
                         const rfl_llm_figures *f) {
    rfl_prec mm = RFL_FP32;
    rfl_dtype_roofs(d->dtype, &mm, 0);
    rfl_json_w_str(w, "model_type", jd->llm->model_type);
    rfl_json_w_str(w, "prec", rfl_prec_name(mm));
    rfl_json_w_str(w, "phase", jd->step->phase == RFL_LLM_DECODE ? "decode" : "prefill");
    rfl_json_w_u64(w, "seq", jd->step->seq);
    rfl_json_w_str(w, "logits", jd->step->logits_all ? "all" : "last");
    rfl_json_w_str(w, "attention", d->causal ? "causal" : "eager");
    rfl_json_w_str(w, "weights", rfl_dtype_name(rfl_dtype_storage(d->weights, d->dtype)));
    rfl_json_w_str(w, "kv", rfl_dtype_name(rfl_dtype_storage(d->kv, d->dtype)));
    rfl_json_w_u64(w, "tokens", f->tokens);
}

/* The step's memory: the cache after it, the forward bytes by role. */
static void rfl__nj_step_bytes(rfl_json_writer *w, const rfl_net_cost *t, const rfl_llm_figures *f) {
    uint64_t roles = t->fwd_weight_bytes + t->fwd_kv_read_bytes + t->fwd_kv_write_bytes;
    rfl_json_w_u64(w, "kv_cache_bytes", f->kv_cache_bytes);
    rfl_json_w_obj(w, "bytes");
    rfl_json_w_u64(w, "weights", t->fwd_weight_bytes);
    rfl_json_w_u64(w, "kv_read", t->fwd_kv_read_bytes);
    rfl_json_w_u64(w, "kv_write", t->fwd_kv_write_bytes);
    rfl_json_w_u64(w, "activations", t->fwd_bytes - roles);
    rfl_json_w_end(w);
}

/* The step on the machine. */
static void rfl__nj_step_time(rfl_json_writer *w, const rfl_net_prediction *np, int decode,
                              const rfl_llm_figures *f) {
    rfl_json_w_num(w, "compute_s", np->compute_s);
    rfl_json_w_num(w, "memory_s", np->memory_s);
    rfl_json_w_num(w, "tokens_per_s", f->tokens_per_s);
    rfl_json_w_num_if(w, "ttft_s", !decode, f->ttft_s);
    rfl__nj_u64_if(w, "decode_compute_bound_batch", f->decode_bound_batch > 0, f->decode_bound_batch);
    rfl__nj_u64_if(w, "gemm_compute_bound_batch", f->gemm_bound_batch > 0, f->gemm_bound_batch);
    rfl__nj_u64_if(w, "max_batch_in_memory", f->max_batch_in_memory > 0, f->max_batch_in_memory);
}
#endif

static void rfl__nj_time(rfl_json_writer *w, const rfl_net_prediction *np, const rfl_machine *m) {
    int unk = np->unknown_layers > 0; /* the known part's times only */
    rfl_json_w_str(w, "hw", m->id);
    if (unk) rfl_json_w_null(w, "predicted_time_s"), rfl_json_w_null(w, "bound");
    else rfl_json_w_num(w, "predicted_time_s", np->layers_s);
    if (!unk) rfl_json_w_str(w, "bound", rfl__nj_bound(&np->whole));
    if (unk) rfl_json_w_null(w, "whole_model_time_s");
    else rfl_json_w_num(w, "whole_model_time_s", np->whole.time_s);
    if (unk) rfl_json_w_num(w, "predicted_time_known_s", np->layers_s);
    if (unk) rfl_json_w_num(w, "whole_model_time_known_s", np->whole.time_s);
    rfl_json_w_num(w, "compute_bound_layers", np->compute_layers);
    rfl_json_w_num(w, "memory_bound_layers", np->memory_layers);
}

RFL_API rfl_result rfl_net_json(rfl_json_writer *w, const rfl_net *net, const rfl_cost_desc *d,
                                const rfl_machine *m, const rfl_net_json_desc *jd) {
    rfl_net_cost t;
    rfl_net_prediction np;
    rfl_result r;
    uint64_t B = d && d->batch ? d->batch : 1;
    int i;
#ifndef RFL_NO_LLM
    rfl_llm_figures f;
    int llm = jd && jd->llm && jd->step && d;
#endif
    if (!w || !net) return RFL_ERR_ARG;
#ifndef RFL_NO_LLM
    if (llm && (r = rfl_llm_step_figures(net, d, jd->llm, jd->step, m, &f)) != RFL_OK) return r;
#endif
    if ((r = rfl_net_cost_get(net, d, &t)) != RFL_OK) return r;
    if (m && (r = rfl_net_predict(net, d, m, &np)) != RFL_OK) return r;
    rfl_json_w_str(w, "model", jd ? jd->model : 0);
    rfl_json_w_u64(w, "batch", B);
#ifndef RFL_NO_ONNX
    if (jd && jd->onnx) rfl__nj_onnx(w, jd);
    else
#endif
        rfl__nj_shape(w, "input", net, 0, B, 0);
#ifndef RFL_NO_LLM
    if (llm) rfl__nj_step(w, d, jd, &f);
#endif
    rfl_json_w_str(w, "dtype", rfl_dtype_name(d ? d->dtype : RFL_DTYPE_DEFAULT));
    rfl_json_w_str(w, "mode", d && d->mode == RFL_MODE_TRAIN ? "train" : "infer");
    rfl_json_w_str(w, "convention", d && d->convention == RFL_CONV_REPORT ? "report" : "torch");
    rfl_json_w_u64(w, "params", t.params);
    rfl_json_w_u64(w, "param_bytes", t.param_bytes);
    rfl__nj_pass(w, "forward", t.unknown_layers, t.fwd_flops, t.fwd_mac_flops, t.fwd_bytes);
    rfl__nj_pass(w, "backward", t.unknown_layers, t.bwd_flops, t.bwd_mac_flops, t.bwd_bytes);
    if (jd && jd->onnx) {
        rfl_json_w_arr(w, "unknown_nodes");
        for (i = 0; i < net->count; i++)
            if (net->layers[i].flags & RFL_LF_UNKNOWN_FLOPS) rfl_json_w_str(w, 0, net->layers[i].name);
        rfl_json_w_end(w);
    }
    rfl_json_w_u64(w, "activation_bytes", t.activation_bytes);
    rfl_json_w_obj(w, "train");
    rfl_json_w_u64(w, "sgd_bytes", t.train_sgd_bytes);
    rfl_json_w_u64(w, "adam_bytes", t.train_adam_bytes);
    rfl_json_w_end(w);
#ifndef RFL_NO_LLM
    if (llm) rfl__nj_step_bytes(w, &t, &f);
#endif
    if (m) rfl__nj_time(w, &np, m);
#ifndef RFL_NO_LLM
    if (llm && m) rfl__nj_step_time(w, &np, jd->step->phase == RFL_LLM_DECODE, &f);
#endif
    if (jd && jd->summary) {
        rfl_summary s;
        rfl_net_summary(net, &s);
        rfl_json_w_obj(w, "summary");
        rfl_json_w_num(w, "rows", s.rows);
        rfl_json_w_u64(w, "params", s.params);
        rfl_json_w_num(w, "input_mb", s.input_mb);
        rfl_json_w_num(w, "fwd_bwd_mb", s.fwd_bwd_mb);
        rfl_json_w_num(w, "params_mb", s.params_mb);
        rfl_json_w_num(w, "total_mb", s.total_mb);
        rfl_json_w_end(w);
    }
    rfl__nj_by_type(w, net, d, m);
    rfl_json_w_arr(w, "layers");
    for (i = 0; i < net->count; i++)
        if (net->layers[i].op != RFL_OP_MARK) rfl__nj_layer(w, net, i, d, m, jd);
    rfl_json_w_end(w);
    return RFL_OK;
}
#endif /* RFL_NO_JSON_WRITER */


/* ==========================================================================
   [10] REDUCER
   streaming ncu / nvprof CSV push parser
   ========================================================================== */
#ifndef RFL_NO_REDUCE
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
       RFL__K_MVALUE, RFL__K_INVOC, RFL__K_AVG, RFL__K_TYPE, RFL__K_TIME, RFL__K_DEVICE };
/* unit classes a role accepts */
enum { RFL__U_TIME = 1, RFL__U_BYTES, RFL__U_COUNT, RFL__U_HZ, RFL__U_PERCYC,
       RFL__U_BPS, RFL__U_PCT };
enum { RFL__M_PRE = 0, RFL__M_SKIP, RFL__M_CSV };
enum { RFL__ROW_HEADER = 0, RFL__ROW_UNITS, RFL__ROW_DATA };
enum { RFL__F_START = 0, RFL__F_UNQ, RFL__F_Q, RFL__F_QQ, RFL__F_QCR, RFL__F_CR0 };
enum { RFL__NEED_SKIP = 0, RFL__NEED_CARRY, RFL__NEED_NAME };

/* Exact metric names (ncu), then nvprof names. Prefixed families
   (sm__ops_path_tensor_op_*) are matched in rfl__classify. */
static const struct { const char *name; unsigned char role, ucls; } rfl__metrics[] = {
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
    /* per-type instruction counters: on H100, _op_hmma is the whole pipe
       (gmma and hfma2 included, every kernel of the captures) */
    {"sm__inst_executed_pipe_tensor_op_hmma.sum", RFL__R_TINST_OP, RFL__U_COUNT},
    {"sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum", RFL__R_TINST_HFMA2, RFL__U_COUNT},
    {"sm__inst_executed_pipe_tensor_op_gmma.sum", RFL__R_TINST_GMMA, RFL__U_COUNT},
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
/* s[0..n) into dst of cap bytes, cut to fit, NUL-terminated; the length kept */
static size_t rfl__copy_text(char *dst, size_t cap, const char *s, size_t n) {
    if (n > cap - 1) n = cap - 1;
    RFL_MEMCPY(dst, s, n);
    dst[n] = 0;
    return n;
}

/* Metric name -> role (0 = unused); *ucls gets the unit class; *mult the
   factor nvprof transaction counts need (32 bytes each). */
static int rfl__classify(const char *s, size_t n, int *ucls, uint64_t *mult) {
    static const char *const ops[9] = {"fadd", "fmul", "ffma", "dadd", "dmul",
                                       "dfma", "hadd", "hmul", "hfma"};
    /* tensor-path counters by input type, first match (default FP16) */
    static const struct { const char *sub; int role; } by_src[] = {
        {"src_tf32", RFL__R_T_TF32}, {"src_bf16", RFL__R_T_BF16}, {"src_fp16", RFL__R_T_FP16},
        {"src_fp8", RFL__R_T_FP8},   {"e4m3", RFL__R_T_FP8},      {"e5m2", RFL__R_T_FP8},
        {"src_int", RFL__R_T_INT8},  {"imma", RFL__R_T_INT8},     {"fp64", RFL__R_T_FP64},
        {"dmma", RFL__R_T_FP64}};
    const char *p = s;
    size_t i, m = n;
    *mult = 1;
    for (i = 0; i < sizeof rfl__metrics / sizeof rfl__metrics[0]; i++)
        if (rfl__eqn(s, n, rfl__metrics[i].name)) {
            *ucls = rfl__metrics[i].ucls;
            if (rfl__ends(s, n, "_transactions")) *mult = 32;
            return rfl__metrics[i].role;
        }
    /* SASS FP counters, sm__ or smsp__ prefix, as counts or per-cycle rates */
    if (rfl__starts(p, m, "smsp__")) p += 6, m -= 6;
    else if (rfl__starts(p, m, "sm__")) p += 4, m -= 4;
    else m = 0;
    if (m && rfl__starts(p, m, "sass_thread_inst_executed_op_")) {
        p += 29, m -= 29;
        for (i = 0; i < 9; i++)
            if (rfl__starts(p, m, ops[i]) && rfl__starts(p + 4, m - 4, "_pred_on.sum")) {
                if (m == 16) { *ucls = RFL__U_COUNT; return RFL__R_FADD + (int)i; }
                if (rfl__eqn(p + 16, m - 16, ".per_cycle_elapsed")) {
                    *ucls = RFL__U_PERCYC;
                    return RFL__R_FADD_R + (int)i;
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
        for (i = 0; i < sizeof by_src / sizeof by_src[0]; i++)
            if (rfl__contains(s, n, by_src[i].sub)) return by_src[i].role + sp;
        return RFL__R_T_FP16 + sp;
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

/* *u = class cls, scale mult x 10^exp10; returns 1 */
static int rfl__unit_set(rfl__unit *u, int cls, uint64_t mult, int exp10) {
    u->cls = cls, u->mult = mult, u->exp10 = exp10;
    return 1;
}
static int rfl__ieq(const char *a, size_t an, const char *b) {
    size_t i;
    for (i = 0; i < an; i++)
        if (!b[i] || rfl__lower((unsigned char)a[i]) != rfl__lower((unsigned char)b[i])) return 0;
    return b[an] == 0;
}
/* 1 when a[0..an) is one of the '|'-separated words of alts, ignoring case
   (an empty word matches an empty a) */
static int rfl__ieq_any(const char *a, size_t an, const char *alts) {
    for (;;) {
        size_t i = 0;
        while (i < an && alts[i] && alts[i] != '|' &&
               rfl__lower((unsigned char)a[i]) == rfl__lower((unsigned char)alts[i]))
            i++;
        if (i == an && (!alts[i] || alts[i] == '|')) return 1;
        while (*alts && *alts != '|') alts++;
        if (!*alts++) return 0;
    }
}
/* class of a numerator word: bytes / time / count / hz */
static int rfl__unit_word(const char *s, size_t n, rfl__unit *u) {
    /* the words of one scale share a row (narrow fields and few rows keep
       the table small on a small device); k: the multiplier is 1024^k */
    static const struct { const char *w; unsigned char cls, k, e; } t[] = {
        {"byte|bytes|b", RFL__U_BYTES, 0, 0}, {"kbyte|kb", RFL__U_BYTES, 0, 3},
        {"mbyte|mb", RFL__U_BYTES, 0, 6}, {"gbyte|gb", RFL__U_BYTES, 0, 9},
        {"tbyte|tb", RFL__U_BYTES, 0, 12}, {"kib|kibyte", RFL__U_BYTES, 1, 0},
        {"mib|mibyte", RFL__U_BYTES, 2, 0}, {"gib|gibyte", RFL__U_BYTES, 3, 0},
        {"tib", RFL__U_BYTES, 4, 0},
        {"ns|nsecond|nsec", RFL__U_TIME, 0, 0}, {"us|usecond|usec", RFL__U_TIME, 0, 3},
        {"ms|msecond|msec", RFL__U_TIME, 0, 6}, {"s|second|sec", RFL__U_TIME, 0, 9},
        {"hz", RFL__U_HZ, 0, 0}, {"khz", RFL__U_HZ, 0, 3}, {"mhz", RFL__U_HZ, 0, 6},
        {"ghz", RFL__U_HZ, 0, 9},
        {"|inst|cycle|cycles|warp|thread|sector|request|wavefront|block|count|flop|op|ops",
         RFL__U_COUNT, 0, 0},
        {"%", RFL__U_PCT, 0, 0}};
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (rfl__ieq_any(s, n, t[i].w))
            return rfl__unit_set(u, t[i].cls, (uint64_t)1 << (10 * t[i].k), t[i].e);
    return 0;
}
/* Parse a unit into the scale for a role of class `want`; 0 = unknown or
   not fitting (the caller reports RFL_ERR_UNIT). */
static int rfl__unit_for(const char *s, size_t n, int want, rfl__unit *out) {
    size_t slash;
    rfl__unit a, b;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    while (n && s[0] == ' ') s++, n--;
    for (slash = 0; slash < n && s[slash] != '/'; slash++) {}
    if (!rfl__unit_word(s, slash, &a)) return 0;
    if (slash == n) /* no denominator: a count also reads per cycle */
        return (a.cls == want || (want == RFL__U_PERCYC && a.cls == RFL__U_COUNT)) &&
               rfl__unit_set(out, want, a.mult, a.exp10);
    if (!rfl__unit_word(s + slash + 1, n - slash - 1, &b)) return 0;
    if (b.cls == RFL__U_COUNT && !(b.mult == 1 && b.exp10 == 0)) return 0;
    if (want == RFL__U_PERCYC && (a.cls == RFL__U_COUNT || a.cls == RFL__U_BYTES) &&
        b.cls == RFL__U_COUNT && a.mult == 1 && a.exp10 == 0)
        return rfl__unit_set(out, want, 1, 0);
    /* x per time: the time unit's scale is to ns, so per-second = 9 - e */
    if (b.cls == RFL__U_TIME && b.mult == 1) {
        if (want == RFL__U_HZ && a.cls == RFL__U_COUNT)
            return rfl__unit_set(out, want, 1, 9 - b.exp10);
        if (want == RFL__U_BPS && a.cls == RFL__U_BYTES)
            return rfl__unit_set(out, want, a.mult, a.exp10 + 9 - b.exp10);
    }
    return 0;
}

/* ---- numbers ------------------------------------------------------------- */
/* One value read under one convention. */
typedef struct rfl__val { double d; uint64_t u; int e10; unsigned sat; uint64_t mant; } rfl__val;

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
    int neg = 0, digits = 0, lead = 0, groups = 0, gl = 0, exp10 = 0, ok;
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
    if (i < n && s[i] == dec) {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
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
        for (; exp10 > 0; exp10--) um = rfl__sat_mul(um, 10, &fl);
        p = rfl__sat_mul(p, um, &fl);
        ok = ok && !fl;
    }
    v->sat = 0;
    v->u = ok ? p : rfl__round_u64(v->d, &v->sat);
    return 1;
}

/* ---- state helpers ------------------------------------------------------- */
/* An error at (line, col), byte offset `off`. The offset is passed in, not
   derived from the current line: a field can open lines before the error is
   seen (a quote left open until the end of input). */
static rfl_result rfl__fail_at(rfl_reduce_state *st, rfl_result r, uint64_t line, uint64_t col,
                               uint64_t off, const char *m1, const char *m2, size_t m2n,
                               const char *m3) {
    rfl__sb s;
    if (st->err.code) return st->err.code;
    st->err.code = r, st->err.line = line, st->err.col = col, st->err.offset = off;
    s = rfl__sb_make(st->err.msg, sizeof st->err.msg);
    rfl__sb_s(&s, m1);
    rfl__sb_sn(&s, m2, m2n);
    rfl__sb_s(&s, m3);
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

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define RFL__ALWAYS_INLINE static inline __attribute__((always_inline))
#else /* -Os: one copy, the compiler decides */
#define RFL__ALWAYS_INLINE static
#endif

/* The convention's group separator and decimal mark for rfl__num_scan; both
   0 while the locale is unknown (then only plain digits read the same both
   ways). */
#define RFL__GDM(st, g, dm)                                                                 \
    ((g) = (st)->locale == RFL_LOCALE_AUTO ? 0 : (st)->locale == RFL_LOCALE_EU ? '.' : ',', \
     (dm) = (st)->locale == RFL_LOCALE_AUTO ? 0 : (st)->locale == RFL_LOCALE_EU ? ',' : '.')

/* The common value, in one pass: digits in the base unit, grouped by the
   file's known convention ("1,970,899,334.25"), or plain digits while it
   is still unknown (rfl__num_scan reads, rfl__put_digits stores). Returns 1
   when read, 0 when rfl__put_value's general reader must look (spaces,
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
/* Adds d and x to role's reading k (0 US, 1 European): each reading sums
   on its own while the locale is undecided. The caller sets kset[role]
   once both readings are stored. */
RFL__ALWAYS_INLINE void rfl__store(rfl_reduce_state *st, int role, int k, double d, uint64_t x) {
    if (st->kset[role]) {
        st->kv_d[role][k] += d;
        st->kv_u[role][k] = rfl__sat_add(st->kv_u[role][k], x, &st->kflags);
    } else {
        st->kv_d[role][k] = d;
        st->kv_u[role][k] = x;
    }
}

/* Stores the digits m with frac of them decimals (nd <= 19) as role's value
   (plain digits: both readings the same). */
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
    rfl__store(st, role, 0, d, x);
    rfl__store(st, role, 1, d, x);
    st->kset[role] = 1;
}

static rfl_result rfl__put_value(rfl_reduce_state *st, int role, const char *s, size_t n,
                                 const rfl__unit *u, uint64_t mult) {
    rfl__val us, eu;
    int okus, okeu, k, frac;
    size_t i;
    uint64_t m;
    char g, dm;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    while (n && s[0] == ' ') s++, n--;
    if (n == 0 || ((s[0] == 'n' || s[0] == 'N') && rfl__ieq(s, n, "n/a")) ||
        (n == 1 && s[0] == '-'))
        return RFL_OK; /* no value */
    /* in the base unit, the one-pass reader first (scaled units come here:
       the digits they lose are tracked below) */
    RFL__GDM(st, g, dm);
    if (u->mult == 1 && u->exp10 == 0 && mult == 1 && rfl__num_scan(s, n, g, dm, &m, &frac)) {
        rfl__put_digits(st, role, m, frac);
        return RFL_OK;
    }
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
            rfl__copy_text(st->amb_text, sizeof st->amb_text, s, n);
        }
    }
    if (!okus) us = eu;
    if (!okeu) eu = us;
    /* a scaled unit keeps only the printed digits: digits were lost when
       the last printed one is worth more than one base unit (134.23 Mbyte:
       10 kB; 0.069000 ms: 1 ns, none) */
    if ((u->mult != 1 || u->exp10 != 0) && (u->cls == RFL__U_BYTES || u->cls == RFL__U_TIME) &&
        us.mant && ((double)u->mult * rfl__scale10(1.0, us.e10 + u->exp10)) > 1.0 &&
        0.5 / (double)us.mant > st->res.auto_units_rel_err) {
        st->res.auto_units_rel_err = 0.5 / (double)us.mant;
        i = rfl__copy_text(st->auto_example, sizeof st->auto_example, s, n);
        for (k = 0; st->unit[k] && i + 2 < sizeof st->auto_example; k++) {
            if (k == 0) st->auto_example[i++] = ' ';
            st->auto_example[i++] = st->unit[k];
        }
        st->auto_example[i] = 0;
    }
    for (k = 0; k < 2; k++) {
        rfl__val *v = k ? &eu : &us;
        uint64_t x = rfl__sat_mul(v->u, mult, &st->kflags);
        st->kflags |= v->sat;
        rfl__store(st, role, k, v->d * (double)mult, x);
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

/* A new warning whose text starts with text; more may be appended to the
   builder returned (beyond RFL_REDUCE_WARN_MAX: counted, text dropped). */
static rfl__sb rfl__warn(rfl_reduce_state *st, rfl_reduce_warn code, int has_kernel,
                         uint64_t id, const char *text) {
    rfl_reduce_result *r = &st->res;
    rfl_reduce_warning *w;
    rfl__sb s;
    if (r->warning_count >= RFL_REDUCE_WARN_MAX) {
        r->warnings_dropped++;
        s = rfl__sb_make(st->scratch_text, sizeof st->scratch_text);
    } else {
        w = &r->warnings[r->warning_count++];
        w->code = code;
        w->has_kernel = has_kernel;
        w->kernel_id = id;
        s = rfl__sb_make(w->text, sizeof w->text);
    }
    rfl__sb_s(&s, text);
    return s;
}

/* ---- kernels --------------------------------------------------------------- */
RFL_API uint64_t rfl_reduce_tensor_flops(const rfl_kernel_stat *k) {
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
            if (rfl__pre(p, "e4m3") || rfl__pre(p, "e5m2")) return 1;
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
#define RFL__IN(t) rfl__contains(s, n, t) /* the name holds t */
    if (RFL__IN("tf32") || RFL__IN("tfloat32")) *prec = RFL_TF32_TENSOR;
    else if (RFL__IN("bf16") || code == 't') *prec = RFL_BF16_TENSOR;
    else if (RFL__IN("e4m3") || RFL__IN("e5m2")) *prec = RFL_FP8_TENSOR;
    else if (RFL__IN("imma") || RFL__IN("int8") || RFL__IN("16832")) *prec = RFL_INT8_TENSOR;
    else if (RFL__IN("dmma")) *prec = RFL_FP64_TENSOR;
    else if (RFL__IN("s1688") && (cc_major >= 8 || RFL__IN("80")))
        *prec = RFL_TF32_TENSOR; /* Ampere's FP32-in, FP32-out tensor op is TF32 */
    else *prec = RFL_FP16_TENSOR;
    /* mma.sync: 2 x M x N x K of the shape (m16n8k8 2048: every TF32 and
       the FP16 first-layer kernel of the captures; m16n8k16 4096: every
       FP16/BF16 16816 kernel; m16n8k32 8192); Volta's HMMA.884 512, the
       NERSC scripts' figure. */
    if (RFL__IN("884") || (cc_major == 7 && !RFL__IN("1688") && !RFL__IN("16816"))) *sync = 512;
    else if (RFL__IN("16832") || RFL__IN("16x8x32") || *prec == RFL_INT8_TENSOR) *sync = 8192;
    else if (RFL__IN("16816") || RFL__IN("16x8x16")) *sync = 4096;
    else if (RFL__IN("1688") || RFL__IN("16x8x8") || *prec == RFL_TF32_TENSOR) *sync = 2048;
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
    return RFL__IN("gmma") || RFL__IN("warpgroup") || nv >= 0 ? 2 : 1;
#undef RFL__IN
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

/* What one kernel's tensor-core work looked like (rfl__kernel_tensor), for
   the warnings. */
typedef struct rfl__tc_case {
    int what;     /* 1 FLOPs estimated, 2 tensor kernel uncounted, 3 pipe only */
    double est;   /* estimated FLOPs (what == 1) */
    double mma;   /* matrix instructions behind the estimate */
    const rfl__tc_memo *memo; /* the name's answers, when looked up */
} rfl__tc_case;

/* Time from the duration metric, else from cycles / clock; -1 = unknown. */
static double rfl__kernel_time(rfl_reduce_state *st, int L, rfl_kernel_stat *k, unsigned *fl) {
    double time_s = -1;
    if (RFL__HAS(RFL__R_TIME)) {
        k->time_ns = RFL__U(RFL__R_TIME);
        time_s = RFL__D(RFL__R_TIME) * 1e-9;
    } else if (RFL__HAS(RFL__R_SM_CYC) && RFL__HAS(RFL__R_SM_HZ) && RFL__D(RFL__R_SM_HZ) > 0) {
        time_s = RFL__D(RFL__R_SM_CYC) / RFL__D(RFL__R_SM_HZ);
        k->time_ns = rfl__round_u64(time_s * 1e9, fl);
        k->flags |= RFL_REDUCE_TIME_FROM_CYCLES;
    } else
        k->work.unknown |= RFL_UNKNOWN_TIME;
    return time_s;
}

/* Elapsed cycles for per-cycle rates; -1 = unknown. */
static double rfl__kernel_cycles(rfl_reduce_state *st, int L, double time_s) {
    if (RFL__HAS(RFL__R_SMSP_CYC)) return RFL__D(RFL__R_SMSP_CYC);
    if (RFL__HAS(RFL__R_SM_CYC)) return RFL__D(RFL__R_SM_CYC);
    if (RFL__HAS(RFL__R_SMSP_HZ) && time_s >= 0) return RFL__D(RFL__R_SMSP_HZ) * time_s;
    if (RFL__HAS(RFL__R_SM_HZ) && time_s >= 0) return RFL__D(RFL__R_SM_HZ) * time_s;
    return -1;
}

/* SIMT FLOPs: add + mul + 2 x fma per precision, from counts, else from
   per-cycle rates, else from nvprof's flop_count_*. The roles of each
   kind come in the order of RFL_FP32, RFL_FP64, RFL_FP16 (0, 1, 2). */
static void rfl__kernel_simt(rfl_reduce_state *st, int L, rfl_kernel_stat *k, double cyc, unsigned *fl) {
    int p, j;
    for (p = 0; p < 3; p++) {
        int r0 = RFL__R_FADD + 3 * p, rr = RFL__R_FADD_R + 3 * p, nv = RFL__R_NV_SP + p;
        int counts = RFL__HAS(r0) + RFL__HAS(r0 + 1) + RFL__HAS(r0 + 2);
        uint64_t f = 0;
        if (counts) {
            if (counts < 3) st->w_partial |= 1u << p;
            for (j = 0; j < 3; j++) /* add, mul, fma */
                if (RFL__HAS(r0 + j))
                    f = rfl__sat_add(f, rfl__sat_mul(RFL__U(r0 + j), j == 2 ? 2 : 1, fl), fl);
        } else if ((RFL__HAS(rr) || RFL__HAS(rr + 1) || RFL__HAS(rr + 2)) && cyc >= 0) {
            double d = 0;
            for (j = 0; j < 3; j++)
                if (RFL__HAS(rr + j))
                    d += (j == 2 ? 2.0 : 1.0) * (double)rfl__round_u64(RFL__D(rr + j) * cyc, fl);
            f = rfl__round_u64(d, fl);
            k->flags |= RFL_REDUCE_RATE_DERIVED;
        } else if (RFL__HAS(nv))
            f = RFL__U(nv);
        else
            k->work.unknown |= RFL_UNKNOWN_FLOPS(p);
        k->flops[p] = f;
    }
}

/* Tensor FLOPs per family from the counters (the base counter, else one
   breakdown's parts); returns whether any family's counter was collected. */
static int rfl__kernel_tensor_counted(rfl_reduce_state *st, int L, rfl_kernel_stat *k, unsigned *fl) {
    int i, any = 0;
    for (i = 0; i < 6; i++) { /* RFL__R_T_* in the order of RFL_FP64_TENSOR.. */
        int tp = RFL_FP64_TENSOR + i;
        int b = RFL__R_T_FP64 + i, sp = b + (RFL__R_TS_FP64 - RFL__R_T_FP64);
        int wb = b + (RFL__R_TW_FP64 - RFL__R_T_FP64), ws = b + (RFL__R_TWS_FP64 - RFL__R_T_FP64);
        int dst = b == RFL__R_T_FP16 ? RFL__R_TD_FP16 : b;
        if (st->roles_seen[b] || st->roles_seen[sp] || st->roles_seen[dst] ||
            st->roles_seen[wb] || st->roles_seen[ws]) {
            uint64_t fs = RFL__HAS(b) ? RFL__U(b) : RFL__HAS(sp) ? RFL__U(sp)
                          : RFL__HAS(dst) ? RFL__U(dst) : 0;
            uint64_t fw = RFL__HAS(wb) ? RFL__U(wb) : RFL__HAS(ws) ? RFL__U(ws) : 0;
            any = 1;
            k->flops[tp] = rfl__sat_add(fs, fw, fl);
        } else
            k->work.unknown |= RFL_UNKNOWN_FLOPS(tp);
    }
    if (RFL__HAS(RFL__R_TINST)) k->tensor_inst = RFL__U(RFL__R_TINST);
    else if (RFL__HAS(RFL__R_TINST_OP)) k->tensor_inst = RFL__U(RFL__R_TINST_OP);
    if (!any && (RFL__HAS(RFL__R_TINST) || RFL__HAS(RFL__R_TINST_OP)))
        for (i = 0; i < 6; i++) /* estimates follow: 0 unless named below */
            k->work.unknown &= ~RFL_UNKNOWN_FLOPS(RFL_FP64_TENSOR + i);
    return any;
}

/* Tensor FLOPs: counted, else estimated from the matrix instructions of a
   kernel whose name says tensor cores. */
static void rfl__kernel_tensor(rfl_reduce_state *st, int L, rfl_kernel_stat *k, unsigned *fl,
                               rfl__tc_case *tc) {
    int any = rfl__kernel_tensor_counted(st, L, k, fl), fam;
    /* the name matters only while this kernel's matrix work is neither
       counted nor known to be none */
    int have_inst = RFL__HAS(RFL__R_TINST) || RFL__HAS(RFL__R_TINST_OP);
    uint64_t hf = RFL__HAS(RFL__R_TINST_HFMA2) ? RFL__U(RFL__R_TINST_HFMA2) : 0;
    if ((any && rfl_reduce_tensor_flops(k) > 0) || (have_inst && k->tensor_inst <= hf)) fam = 0;
    else fam = (tc->memo = rfl__name_memo(st, k->name, st->name_len))->fam;
    if (!fam) {
        if (!any && k->tensor_inst > 0) tc->what = 3; /* not a matrix kernel by name */
        return;
    }
    if (!any && k->tensor_inst > 0) {
        /* no tensor FLOP counter: estimated from the matrix instructions
           (the pipe's HFMA2s left out when counted), split into warpgroup
           and mma.sync ones by the gmma counter when collected, else by
           the name */
        rfl_prec tcp = tc->memo->prec;
        double g;
        tc->mma = (double)(k->tensor_inst > hf ? k->tensor_inst - hf : 0);
        g = RFL__HAS(RFL__R_TINST_GMMA) ? RFL__D(RFL__R_TINST_GMMA) : fam == 2 ? tc->mma : 0;
        if (g > tc->mma) g = tc->mma;
        tc->est = st->desc.tensor_flops_per_inst > 0 ? tc->mma * st->desc.tensor_flops_per_inst
                                                     : g * tc->memo->wg + (tc->mma - g) * tc->memo->sync;
        k->flops[tcp] = rfl__round_u64(tc->est, fl);
        k->work.unknown &= ~RFL_UNKNOWN_FLOPS(tcp);
        k->flags |= RFL_REDUCE_TENSOR_ESTIMATED;
        tc->what = 1;
    } else if (rfl_reduce_tensor_flops(k) == 0)
        tc->what = 2; /* a tensor-core kernel whose FLOPs nothing counted */
}

static void rfl__kernel_bytes(rfl_reduce_state *st, int L, rfl_kernel_stat *k, double time_s, unsigned *fl) {
    if (RFL__HAS(RFL__R_DRAM_READ) || RFL__HAS(RFL__R_DRAM_WRITE))
        k->bytes[RFL_DRAM] = rfl__sat_add(RFL__HAS(RFL__R_DRAM_READ) ? RFL__U(RFL__R_DRAM_READ) : 0,
                                          RFL__HAS(RFL__R_DRAM_WRITE) ? RFL__U(RFL__R_DRAM_WRITE) : 0, fl);
    else if (RFL__HAS(RFL__R_DRAM))
        k->bytes[RFL_DRAM] = RFL__U(RFL__R_DRAM);
    else if (RFL__HAS(RFL__R_DRAM_RATE) && time_s >= 0) {
        k->bytes[RFL_DRAM] = rfl__round_u64(RFL__D(RFL__R_DRAM_RATE) * time_s, fl);
        k->flags |= RFL_REDUCE_RATE_DERIVED;
    } else
        k->work.unknown |= RFL_UNKNOWN_BYTES(RFL_DRAM);
    if (RFL__HAS(RFL__R_L2)) k->bytes[RFL_L2] = RFL__U(RFL__R_L2);
    else k->work.unknown |= RFL_UNKNOWN_BYTES(RFL_L2);
    if (RFL__HAS(RFL__R_L1)) k->bytes[RFL_L1] = RFL__U(RFL__R_L1);
    else k->work.unknown |= RFL_UNKNOWN_BYTES(RFL_L1);
}

/* The device's own ceilings (every kernel, filtered or not), weighted by
   the kernel's time. */
static void rfl__kernel_ceilings(rfl_reduce_state *st, int L, double time_s) {
    double c[(int)RFL_PREC_COUNT + RFL_LEVEL_COUNT];
    double w = time_s > 0 ? time_s : 1e-9, hz;
    int i;
    hz = RFL__HAS(RFL__R_SM_HZ) ? RFL__D(RFL__R_SM_HZ) : RFL__HAS(RFL__R_SMSP_HZ) ? RFL__D(RFL__R_SMSP_HZ) : 0;
    if (hz > 0) st->clk_sum += hz * w, st->clk_w += w;
    RFL_MEMSET(c, 0, sizeof c);
    for (i = 0; i < 3; i++) { /* the roles in the order of FP32, FP64, FP16 and DRAM, L2, L1 */
        if (hz > 0 && RFL__HAS(RFL__R_FFMA_PEAK + i))
            c[i] = 2.0 * RFL__D(RFL__R_FFMA_PEAK + i) * hz;
        if (RFL__HAS(RFL__R_DRAM_PEAK + i) && RFL__HAS(RFL__R_DRAM_HZ + i))
            c[(int)RFL_PREC_COUNT + i] = RFL__D(RFL__R_DRAM_PEAK + i) * RFL__D(RFL__R_DRAM_HZ + i);
    }
    for (i = 0; i < (int)RFL_PREC_COUNT + RFL_LEVEL_COUNT; i++)
        if (c[i] > 0) st->ceil_sum[i] += c[i] * w, st->ceil_w[i] += w;
}

/* What the tensor warnings need, for kept kernels only. */
static void rfl__note_tensor(rfl_reduce_state *st, const rfl_kernel_stat *k, double time_s,
                             const rfl__tc_case *tc) {
    if (tc->what == 1) {
        st->w_est_kernels++;
        st->w_est_flops += tc->est;
        st->w_est_inst += tc->mma;
        st->res.tensor_flops_per_inst = st->w_est_flops / st->w_est_inst;
    } else if (tc->what == 2) {
        if (!st->w_tc_kernels)
            rfl__copy_text(st->w_tc_example, sizeof st->w_tc_example, k->name,
                           rfl__strlen(k->name));
        st->w_tc_kernels++;
        if (time_s > 0) st->w_tc_s += time_s;
    } else if (tc->what == 3)
        st->w_pipe_kernels++;
}

/* An elementwise kernel that wrote less to DRAM than its output: L2
   residency (see the manual). */
static void rfl__note_below_output(rfl_reduce_state *st, int L, const rfl_kernel_stat *k,
                                   rfl__tc_case *tc) {
    static const uint64_t elem_bytes[3] = {4, 8, 2}; /* FP32, FP64, FP16 */
    uint64_t need = 0;
    int i;
    if (!RFL__HAS(RFL__R_DRAM_WRITE)) return;
    for (i = 0; i < 9; i++) /* add, mul, fma of each precision: one element written each */
        if (RFL__HAS(RFL__R_FADD + i)) need += elem_bytes[i / 3] * RFL__U(RFL__R_FADD + i);
    if (!need || (double)RFL__U(RFL__R_DRAM_WRITE) >= 0.95 * (double)need) return;
    if (!tc->memo) tc->memo = rfl__name_memo(st, k->name, st->name_len);
    if (tc->memo->elementwise && !st->w_below++) {
        st->w_below_id = k->id;
        st->w_below_got = RFL__U(RFL__R_DRAM_WRITE);
        st->w_below_need = need;
    }
}

/* The largest fraction of one of the machine's ceilings (FLOP/s per
   precision, DRAM bytes/s) that a kernel or a total reached; 0 when its
   time is unknown. Above 1 is impossible: a bug in the data. */
static double rfl__roof_excess(const rfl_machine *m, const rfl_kernel_stat *k) {
    double t, worst = 0, x;
    int p;
    if ((k->work.unknown & RFL_UNKNOWN_TIME) || !k->time_ns) return 0;
    t = (double)k->time_ns * 1e-9;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (!(k->work.unknown & RFL_UNKNOWN_FLOPS(p)) && m->peak_flops[p] > 0) {
            x = (double)k->flops[p] / t / m->peak_flops[p];
            if (x > worst) worst = x;
        }
    if (!(k->work.unknown & RFL_UNKNOWN_BYTES(RFL_DRAM)) && m->bw_bytes_per_s[RFL_DRAM] > 0) {
        x = (double)k->bytes[RFL_DRAM] / t / m->bw_bytes_per_s[RFL_DRAM];
        if (x > worst) worst = x;
    }
    return worst;
}

/* A kernel faster than the machine's roof allows. */
static void rfl__note_above_roof(rfl_reduce_state *st, const rfl_kernel_stat *k) {
    double worst = st->desc.machine ? rfl__roof_excess(st->desc.machine, k) : 0;
    if (worst > 1.0 && (!st->w_above++ || worst > st->w_above_x))
        st->w_above_x = worst, st->w_above_id = k->id;
}

/* Top N by time (ties: the earlier kernel stays first). */
static void rfl__keep_top(rfl_reduce_state *st, const rfl_kernel_stat *k) {
    rfl_reduce_result *r = &st->res;
    int n = st->top_n, pos = r->top_count, i, last;
    while (pos > 0 && r->top[pos - 1].time_ns < k->time_ns) pos--;
    if (pos >= n) return;
    last = r->top_count < n ? r->top_count : n - 1;
    for (i = last; i > pos; i--) r->top[i] = r->top[i - 1];
    r->top[pos] = *k;
    if (r->top_count < n) r->top_count++;
}

/* Into the by-name table; a full table sends the rest to "other". */
static void rfl__group_by_name(rfl_reduce_state *st, const rfl_kernel_stat *k) {
    rfl_reduce_result *r = &st->res;
    int i;
    if (!st->desc.groups || st->desc.group_cap <= 0) return;
    for (i = 0; i < r->group_count; i++)
        if (rfl__name_same(st->desc.groups[i].name, k->name)) break;
    if (i < r->group_count) rfl__stat_add(&st->desc.groups[i], k);
    else if (r->group_count < st->desc.group_cap) st->desc.groups[r->group_count++] = *k;
    else {
        if (!r->other.invocations) r->other.id = k->id;
        rfl__stat_add(&r->other, k);
        st->w_other++;
    }
}

static int rfl__kernel_kept(const rfl_reduce_state *st, const rfl_kernel_stat *k) {
    if (st->desc.use_ids && (k->id < st->desc.id_first || k->id > st->desc.id_last)) return 0;
    return !st->desc.filter || !st->desc.filter[0] ||
           rfl__contains(k->name, rfl__strlen(k->name), st->desc.filter);
}

/* The kernel's numbers from the metrics read for it. */
static void rfl__kernel_measure(rfl_reduce_state *st, int L, rfl_kernel_stat *k, double *time_s,
                                rfl__tc_case *tc) {
    /* all but the name, which is copied by its length (hot: every row) */
    RFL_MEMSET(k, 0, offsetof(rfl_kernel_stat, name));
    k->id = st->cur_id;
    k->invocations = st->fmt == RFL_CSV_NVPROF_METRICS ? st->cur_invoc : 1;
    RFL_MEMCPY(k->name, st->name, st->name_len + 1); /* name_len < NAME_MAX */
    k->flags = st->kflags | (st->name_trunc ? RFL_REDUCE_NAME_TRUNCATED : 0u);
    *time_s = rfl__kernel_time(st, L, k, &k->flags);
    rfl__kernel_simt(st, L, k, rfl__kernel_cycles(st, L, *time_s), &k->flags);
    rfl__kernel_tensor(st, L, k, &k->flags, tc);
    rfl__kernel_bytes(st, L, k, *time_s, &k->flags);
    rfl__stat_work(k);
}

/* A kernel (raw row, details group, nvprof metrics group) is complete. */
static rfl_result rfl__kernel_done(rfl_reduce_state *st) {
    rfl_kernel_stat *k = &st->kst;
    rfl__tc_case tc;
    double time_s;
    int L;
    if (!st->have_kernel) return RFL_OK;
    if (st->amb_pending && st->locale == RFL_LOCALE_AUTO)
        return rfl__fail_at(st, RFL_ERR_LOCALE, st->amb_line, st->amb_col, st->amb_off, "'",
                            st->amb_text, rfl__strlen(st->amb_text),
                            "' reads both as US (1,234.5) and European (1.234,5) and nothing "
                            "before it decides; declare the locale (--locale us|eu)");
    L = st->locale == RFL_LOCALE_EU;
    RFL_MEMSET(&tc, 0, sizeof tc);
    rfl__kernel_measure(st, L, k, &time_s, &tc);
    rfl__kernel_ceilings(st, L, time_s);
    st->res.kernels_seen++;
    if (rfl__kernel_kept(st, k)) {
        st->res.kernels++;
        if (time_s > 0) st->w_time_s += time_s;
        rfl__note_tensor(st, k, time_s, &tc);
        if (k->flags & RFL_REDUCE_NAME_TRUNCATED) st->w_trunc++;
        rfl__note_below_output(st, L, k, &tc);
        rfl__note_above_roof(st, k);
        rfl__stat_add(&st->res.total, k);
        rfl__keep_top(st, k);
        rfl__group_by_name(st, k);
        if (st->desc.on_kernel) st->desc.on_kernel(st->desc.user, k);
    }
    rfl__reset_kernel(st);
    return RFL_OK;
}

/* Data rows follow: which roles read in their base unit (rfl__num_scan). */
static void rfl__data_rows(rfl_reduce_state *st) {
    int i;
    st->row_kind = RFL__ROW_DATA;
    for (i = 0; i < RFL__R_COUNT; i++)
        st->role_plain[i] = st->role_unit[i].mult == 1 && st->role_unit[i].exp10 == 0 &&
                            st->role_mult[i] == 1;
}

/* ---- header rows ----------------------------------------------------------- */
/* The key columns by name, per format (bit f: rfl_csv_format f). */
#define RFL__NCU ((1u << RFL_CSV_NCU_RAW) | (1u << RFL_CSV_NCU_DETAILS))
static const struct { unsigned fmts; const char *name; int code; } rfl__key_names[] = {
    {RFL__NCU, "ID", RFL__K_ID}, {RFL__NCU, "Kernel Name", RFL__K_NAME},
    {RFL__NCU, "CC", RFL__K_CC}, {RFL__NCU, "Metric Unit", RFL__K_MUNIT},
    {RFL__NCU, "Metric Value", RFL__K_MVALUE},
    {RFL__NCU | 1u << RFL_CSV_NVPROF_METRICS, "Metric Name", RFL__K_MNAME},
    {1u << RFL_CSV_NVPROF_METRICS, "Kernel", RFL__K_NAME},
    {1u << RFL_CSV_NVPROF_METRICS, "Invocations", RFL__K_INVOC},
    {1u << RFL_CSV_NVPROF_METRICS, "Avg", RFL__K_AVG},
    {1u << RFL_CSV_NVPROF_SUMMARY, "Type", RFL__K_TYPE},
    {1u << RFL_CSV_NVPROF_SUMMARY, "Time", RFL__K_TIME},
    {1u << RFL_CSV_NVPROF_TRACE, "Duration", RFL__K_TIME},
    {1u << RFL_CSV_NVPROF_SUMMARY | 1u << RFL_CSV_NVPROF_TRACE, "Name", RFL__K_NAME},
    {1u << RFL_CSV_NCU_RAW, "device__attribute_display_name", RFL__K_DEVICE}};

static rfl_result rfl__header_field(rfl_reduce_state *st, const char *s, size_t n, int overflow) {
    int code = 0, ucls = 0;
    uint64_t mult = 1;
    size_t i;
    if (st->col >= st->col_cap)
        return rfl__fail_field(st, RFL_ERR_BUFFER,
                               "the header has more columns than the scratch's column map; "
                               "pass RFL_REDUCE_SCRATCH_SIZE(columns) bytes", 0, 0, 0);
    for (i = 0; !overflow && !code && i < sizeof rfl__key_names / sizeof rfl__key_names[0]; i++)
        if (((rfl__key_names[i].fmts >> st->fmt) & 1) && rfl__eqn(s, n, rfl__key_names[i].name))
            code = rfl__key_names[i].code;
    if (code == RFL__K_MVALUE) st->fmt = RFL_CSV_NCU_DETAILS;
    else if (!overflow && !code && ((RFL__NCU >> st->fmt) & 1))
        code = rfl__classify(s, n, &ucls, &mult); /* ncu: metric columns */
    if (code >= RFL__K_ID) st->key_col[code - RFL__K_ID] = (int)st->col;
    else if (code) {
        st->roles_seen[code] = 1;
        st->role_ucls[code] = (unsigned char)ucls;
        st->role_mult[code] = mult;
    }
    st->colmap[st->col] = (unsigned char)code;
    return RFL_OK;
}

/* runs[c]: unused columns starting at c (the hot path skips them). The
   runs right of a column do not depend on it, so they may be remade in
   the middle of a row. */
static void rfl__col_runs(rfl_reduce_state *st) {
    uint32_t c, run = 0;
    for (c = st->ncols; c-- > 0;) {
        run = st->colmap[c] ? 0 : run < 65535 ? run + 1 : run;
        st->runs[2 * c] = (unsigned char)(run & 255);
        st->runs[2 * c + 1] = (unsigned char)(run >> 8);
    }
}

static rfl_result rfl__header_end(rfl_reduce_state *st) {
#define RFL__KC(key) (st->key_col[RFL__K_##key - RFL__K_ID]) /* its column, -1 = none */
    st->ncols = st->col + 1;
    rfl__col_runs(st);
    switch (st->fmt) {
    case RFL_CSV_NCU_RAW:
        st->row_kind = RFL__ROW_UNITS;
        break;
    case RFL_CSV_NCU_DETAILS:
        if (RFL__KC(MNAME) < 0 || RFL__KC(MUNIT) < 0 || RFL__KC(MVALUE) < RFL__KC(MNAME) ||
            RFL__KC(MVALUE) < RFL__KC(MUNIT))
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                             "details header needs Metric Name, Metric Unit, then Metric Value", 0, 0, 0);
        rfl__data_rows(st);
        break;
    case RFL_CSV_NVPROF_METRICS:
        if (RFL__KC(NAME) < 0 || RFL__KC(MNAME) < 0 || RFL__KC(AVG) < RFL__KC(MNAME) ||
            RFL__KC(AVG) < RFL__KC(INVOC) || RFL__KC(MNAME) < RFL__KC(NAME))
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                             "nvprof metrics header needs Kernel, Invocations, Metric Name, Avg", 0, 0, 0);
        rfl__data_rows(st);
        break;
    default: /* nvprof summary / trace: a units row follows */
        if (RFL__KC(TIME) < 0 || RFL__KC(NAME) < 0)
            return rfl__fail(st, RFL_ERR_NO_HEADER, st->line, 1,
                             "nvprof header needs a time column and Name", 0, 0, 0);
        st->row_kind = RFL__ROW_UNITS;
        break;
    }
    if (st->res.format == RFL_CSV_UNKNOWN) st->res.format = st->fmt;
    return RFL_OK;
#undef RFL__KC
}

static rfl_result rfl__unit_field(rfl_reduce_state *st, const char *s, size_t n) {
    int code = st->colmap[st->col];
    rfl__unit u;
    if (code == RFL__K_TIME && !rfl__unit_for(s, n, RFL__U_TIME, &st->nv_time_unit))
        return rfl__fail_field(st, RFL_ERR_UNIT, "unknown time unit '", s, n, "'");
    if (!code || code >= RFL__K_ID) return RFL_OK; /* K_TIME's unit is read above */
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
    st->name_len = rfl__copy_text(st->name, sizeof st->name, st->tmp_name, st->tmp_len);
    st->name_trunc = st->tmp_trunc;
}

/* The ID column: a new kernel (on a details page, when the ID changes). */
static rfl_result rfl__data_id(rfl_reduce_state *st, const char *s, size_t n) {
    uint64_t id;
    rfl_result e;
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

/* The kernel-name column (the name is in tmp_name): what it means depends
   on the format. */
static rfl_result rfl__data_name(rfl_reduce_state *st) {
    rfl_result e;
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
}

/* nvprof's Avg column: the value per invocation; a unit may be glued on
   ("1.5GB"). */
static rfl_result rfl__data_avg(rfl_reduce_state *st, const char *s, size_t n) {
    size_t m = n;
    rfl__unit u;
    if (!st->row_role) return RFL_OK;
    while (m && (s[m - 1] == ' ' || s[m - 1] == '\r')) m--;
    n = m;
    while (m && !((s[m - 1] >= '0' && s[m - 1] <= '9') || s[m - 1] == '.' || s[m - 1] == ','))
        m--;
    rfl__unit_set(&u, st->row_ucls, 1, 0);
    if (m == 0 && n > 0 && !rfl__ieq(s, n, "n/a"))
        return rfl__fail_field(st, RFL_ERR_NUMBER, "not a number: '", s, n, "'");
    if (m < n && !rfl__unit_for(s + m, n - m, st->row_ucls, &u))
        return rfl__fail_field(st, RFL_ERR_UNIT, "unknown unit in '", s, n, "'");
    st->unit[0] = 0;
    return rfl__put_value(st, st->row_role, s, m, &u, rfl__sat_mul(st->row_mult, st->cur_invoc ? st->cur_invoc : 1, &st->kflags));
}

static rfl_result rfl__data_field(rfl_reduce_state *st, const char *s, size_t n) {
    int code = st->colmap[st->col];
    rfl__unit u;
    switch (code) {
    case RFL__K_ID: return rfl__data_id(st, s, n);
    case RFL__K_NAME: return rfl__data_name(st);
    case RFL__K_CC: {
        size_t i = 0;
        int v = 0;
        /* capped: a long digit string must not overflow the int */
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (v < 100000) v = v * 10 + (s[i] - '0');
        if (v < 1000) st->cc_major = v;
        return RFL_OK;
    }
    case RFL__K_MNAME: /* row_ucls and row_mult are read only where row_role is set */
        st->row_role = rfl__classify(s, n, &st->row_ucls, &st->row_mult);
        if (st->row_role) st->roles_seen[st->row_role] = 1;
        return RFL_OK;
    case RFL__K_MUNIT:
        st->unit_len = rfl__copy_text(st->unit, sizeof st->unit, s, n);
        st->unit_over = n >= sizeof st->unit;
        return RFL_OK;
    case RFL__K_MVALUE:
        if (!st->row_role) return RFL_OK;
        if (st->unit_over || !rfl__unit_for(st->unit, st->unit_len, st->row_ucls, &u))
            return rfl__fail_at(st, RFL_ERR_UNIT, st->unit_line, st->unit_col, st->unit_off,
                                "unknown unit '", st->unit, st->unit_len,
                                "' for a metric that is used");
        return rfl__put_value(st, st->row_role, s, n, &u, st->row_mult);
    case RFL__K_INVOC:
        return rfl__read_int(st, s, n, &st->cur_invoc);
    case RFL__K_AVG: return rfl__data_avg(st, s, n);
    case RFL__K_TYPE:
        st->row_skip |= !rfl__eqn(s, n, "GPU activities");
        return RFL_OK;
    case RFL__K_TIME:
        st->unit[0] = 0;
        st->kset[0] = 0;
        return rfl__put_value(st, 0, s, n, &st->nv_time_unit, 1);
    case RFL__K_DEVICE: /* the first row's names the device: then the column is skipped */
        if (!st->res.device[0]) rfl__copy_text(st->res.device, sizeof st->res.device, s, n);
        st->colmap[st->col] = 0;
        rfl__col_runs(st);
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
            int L, trace = st->fmt == RFL_CSV_NVPROF_TRACE;
            if (st->amb_pending && st->locale == RFL_LOCALE_AUTO)
                return rfl__fail_at(st, RFL_ERR_LOCALE, st->amb_line, st->amb_col, st->amb_off,"'", st->amb_text,
                                 rfl__strlen(st->amb_text), "' is ambiguous; declare the locale");
            L = st->locale == RFL_LOCALE_EU ? 1 : 0;
            st->nv_ns[trace] = rfl__sat_add(st->nv_ns[trace], st->kv_u[0][L], &st->res.flags);
            st->nv_known[trace] = 1;
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
        if (t) return p + (rfl__ctz(t) >> 3); /* bits above a match may be false */
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
    for (i = 0; i < (int)(sizeof st->key_col / sizeof st->key_col[0]); i++) st->key_col[i] = -1;
    RFL_MEMSET(st->roles_seen, 0, sizeof st->roles_seen);
    RFL_MEMSET(st->role_unit_set, 0, sizeof st->role_unit_set);
    for (i = 0; i < RFL__R_COUNT; i++) rfl__unit_set(&st->role_unit[i], RFL__U_COUNT, 1, 0);
    rfl__reset_kernel(st);
    st->name_pending = 0;
    st->row_skip = 0;
}

/* Field complete: dispatch by row kind. */
static rfl_result rfl__field_end_s(rfl_reduce_state *st, const char *s, size_t n) {
    if (st->need == RFL__NEED_SKIP) return RFL_OK;
    if (st->need == RFL__NEED_NAME) {
        while (st->tmp_len && st->tmp_name[st->tmp_len - 1] == '\r' && !st->quoted) st->tmp_len--;
        st->tmp_name[st->tmp_len] = 0;
        return st->row_kind == RFL__ROW_DATA ? rfl__data_field(st, s, 0) : RFL_OK;
    }
    if (!st->quoted) while (n && s[n - 1] == '\r') n--;
    if (st->row_kind == RFL__ROW_HEADER) return rfl__header_field(st, s, n, st->field_over);
    if (st->field_over) {
        if (st->colmap[st->col] == RFL__K_DEVICE) return RFL_OK; /* text, not needed whole */
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
        size_t room = RFL_REDUCE_CARRY - st->carry_len;
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
    uint64_t cq, bad;
    ins ^= cy[0];
    cq = q & ~ins;
    /* hard stops: junk after a closing quote, an opening quote not after
       , \n or ", and doubled quotes (unescaped by the general path) */
    bad = (((cq << 1) | cy[1]) & ~(c | n | r)) | (q & ins & ~(((c | n | q) << 1) | cy[2]));
    cy[1] = cq >> 63;
    cy[2] = ((c | n | q) >> 63) & 1;
    cy[0] = (uint64_t)0 - (ins >> 63);
    k->sep[i] = c & ~ins;
    k->ends[i] = (c | n) & ~ins;
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
#ifdef RFL__AVX2
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
#endif

/* The walker's body is compiled once per instruction set (simd: 0
   baseline, 1 AVX2, 2 AVX-512BW, a constant in each copy), so that the x86
   copies use the popcnt and BMI instructions throughout: RFL__POPCNT
   counts bits, RFL__NUM16 reads a metric value by rfl__num16 where 16
   bytes from cs can be read, RFL__SELECT leaves s2 its want-th lowest set
   bit alone (want >= 1, popcount >= want), RFL__FILL_CALL makes masks. */
RFL__ALWAYS_INLINE uint64_t rfl__nth_bit(uint64_t x, uint32_t want) {
    while (--want) x &= x - 1;
    return x & (0 - x);
}
#ifdef RFL__AVX2
#define RFL__POPCNT(x) (simd ? (uint64_t)__builtin_popcountll(x) : rfl__popcount(x))
#define RFL__NUM16(cs, ce, m, f)                                                              \
    (simd && (ce) - (cs) <= 16 && e - (cs) >= 16 &&                                           \
     rfl__num16((const char *)(cs), (unsigned)((ce) - (cs)), g, dm, &(m), &(f)))
#define RFL__SELECT(s2, want) \
    ((s2) = simd == 2 ? rfl__sel_pdep(s2, (want) - 1) : rfl__nth_bit(s2, want))
#define RFL__FILL_CALL(at)                                                                \
    (simd == 2   ? rfl__blk_fill_avx512(k, at, bn)                                        \
     : simd == 1 ? rfl__blk_fill_avx2(k, at, bn)                                          \
                 : rfl__blk_fill(k, at, bn))
#else
#define RFL__POPCNT(x) rfl__popcount(x)
#define RFL__NUM16(cs, ce, m, f) ((void)(m), (void)(f), 0)
#define RFL__SELECT(s2, want) ((s2) = rfl__nth_bit(s2, want))
#define RFL__FILL_CALL(at) ((void)simd, rfl__blk_fill(k, at, bn))
#endif
enum { RFL__W_NEXT, RFL__W_STOP, RFL__W_ERR };
/* One field whose end the masks found (end: its ',' or '\n'): a metric
   value goes straight to the number reader, as rfl__data_field would (its
   position is stored only for the general reader, which can fail); any
   other field to the general field handler. *pp moves past the field,
   except where a quoted field was cut by the masks (RFL__W_STOP, *pp
   unmoved). RFL__W_NEXT: walk on; RFL__W_STOP: the row ended (or the
   field needs the byte machine). */
RFL__ALWAYS_INLINE int rfl__walk_field(rfl_reduce_state *st, const unsigned char **pp,
                                       const unsigned char *end, const unsigned char *e,
                                       uint32_t *colp, char *gp, char *dmp,
                                       const unsigned char *p0, uint64_t base, const int simd,
                                       rfl_result *err) {
    const unsigned char *p = *pp, *cs = p, *ce = end;
    const unsigned char *map = st->colmap;
    uint32_t col = *colp;
    char g = *gp, dm = *dmp;
    (void)simd; /* used by RFL__NUM16 where the wide readers exist */
    if (*end == '\n' && ce > cs && ce[-1] == '\r') ce--;
    if (*p == '"') {
        if (ce - p < 2 || ce[-1] != '"') return RFL__W_STOP;
        cs = p + 1, ce--;
    } else
        ce = end; /* unquoted: the number reader trims the CR */
    if (map[col] && map[col] < RFL__R_COUNT && (size_t)(ce - cs) <= RFL_REDUCE_CARRY) {
        int role = map[col], fr;
        uint64_t m;
        if (st->role_plain[role] &&
            (RFL__NUM16(cs, ce, m, fr) || rfl__num_scan((const char *)cs, (size_t)(ce - cs), g, dm, &m, &fr)))
            rfl__put_digits(st, role, m, fr);
        else {
            uint64_t at = base + (uint64_t)(p - p0);
            st->field_line = st->line, st->field_col = at - st->line_start + 1;
            st->field_off = at;
            st->unit[0] = 0;
            *err = rfl__put_value(st, role, (const char *)cs, (size_t)(ce - cs), &st->role_unit[role],
                                  st->role_mult[role]);
            RFL__GDM(st, *gp, *dmp); /* the general reader may have settled the locale */
        }
    } else {
        st->offset_now = base + (uint64_t)(end - p0);
        st->col = col;
        rfl__field_begin(st, base + (uint64_t)(p - p0));
        st->quoted = *p == '"';
        if (st->need == RFL__NEED_NAME) rfl__append(st, cs, (size_t)(ce - cs));
        else if ((size_t)(ce - cs) > RFL_REDUCE_CARRY) st->field_over = 1;
        *err = rfl__field_end_s(st, (const char *)cs, (size_t)(ce - cs));
        RFL__GDM(st, *gp, *dmp);
    }
    if (*err != RFL_OK) return RFL__W_ERR;
    *pp = end + 1;
    if (*end == ',') { *colp = col + 1; return RFL__W_NEXT; }
    st->col = col;
    st->offset_now = base + (uint64_t)(end - p0);
    if ((*err = rfl__row_end(st)) != RFL_OK) return RFL__W_ERR;
    st->line++, st->line_start = base + (uint64_t)(end - p0) + 1;
    *colp = 0;
    return end + 1 < e && end[1] == '"' ? RFL__W_NEXT : RFL__W_STOP; /* next row: quoted ID */
}

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
            int w = rfl__walk_field(st, &p, kb + rfl__ctz(avail), e, &col, &g, &dm, p0, base, simd, &err);
            if (w == RFL__W_ERR) goto out;
            cur = p;
            if (w == RFL__W_STOP) break;
        }
    }
out:
    st->col = col;
    *pp = p;
    return err;
#undef RFL__FILL
}
#undef RFL__FILL_CALL
#undef RFL__POPCNT
#undef RFL__SELECT
#undef RFL__NUM16

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
    return rfl__walk_body(st, pp, e, p0, base, 0);
}

#define RFL__POS(q) (base + (uint64_t)((q) - p0))
#define RFL__NEWLINE(q) (st->line++, st->line_start = RFL__POS(q) + 1)
#define RFL__TRY(x) do { rfl_result e_ = (x); if (e_ != RFL_OK) return e_; } while (0)

static rfl_result rfl__feed(rfl_reduce_state *st, const unsigned char *p0, size_t len);

/* The bytes before a CSV header (ncu's ==PROF== lines, a BOM): kept a line
   at a time until one starts a known header, which is then replayed
   through the CSV machine. One step; moves *pp. */
static rfl_result rfl__feed_pre(rfl_reduce_state *st, const unsigned char **pp,
                                const unsigned char *p0, uint64_t base) {
    const unsigned char *p = *pp;
    unsigned char c = *p;
    rfl_csv_format f;
    if (st->bom_state < 3) { /* UTF-8 BOM at the very start */
        static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
        if (RFL__POS(p) == (uint64_t)st->bom_state && c == bom[st->bom_state]) {
            st->bom_state++;
            *pp = p + 1;
            if (st->bom_state == 3) st->line_start = RFL__POS(p + 1);
            return RFL_OK;
        }
        st->bom_state = 3;
    }
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') st->saw_bytes = 1;
    if (c != '\n' && st->pre_len < sizeof st->pre) {
        st->pre[st->pre_len++] = (char)c;
        *pp = p + 1;
        return RFL_OK;
    }
    if (rfl__header_prefix(st->pre, st->pre_len, &f)) {
        /* replay the prefix through the CSV machine; this byte goes to it next */
        size_t n = st->pre_len;
        rfl__csv_start(st, f);
        st->offset = st->line_start;
        return rfl__feed(st, (const unsigned char *)st->pre, n);
    }
    st->pre_len = 0;
    if (c == '\n') { RFL__NEWLINE(p); *pp = p + 1; }
    else st->mode = RFL__M_SKIP;
    return RFL_OK;
}

/* A line that is not CSV: skipped to its end. */
static void rfl__feed_skip(rfl_reduce_state *st, const unsigned char **pp, const unsigned char *e,
                           const unsigned char *p0, uint64_t base) {
    const unsigned char *q = rfl__scan2(*pp, e, '\n', '\n');
    if (q == e) { *pp = e; return; }
    RFL__NEWLINE(q);
    st->mode = RFL__M_PRE;
    st->pre_len = 0;
    *pp = q + 1;
}

/* The field s[0..n) ended at q (a ',' or '\n'): hand it over, next field
   or row. */
static rfl_result rfl__field_done(rfl_reduce_state *st, const unsigned char *s, size_t n,
                                  const unsigned char *q, const unsigned char *p0, uint64_t base) {
    st->fstate = RFL__F_START;
    st->offset_now = RFL__POS(q);
    RFL__TRY(rfl__field_end_s(st, (const char *)s, n));
    if (*q == ',') { st->col++; return RFL_OK; }
    RFL__TRY(rfl__row_end(st));
    RFL__NEWLINE(q);
    st->col = 0;
    return RFL_OK;
}

/* A whole quoted data field inside this chunk, handled in place; 0 when
   it is not (it then goes through the quote states). */
static int rfl__quoted_in_place(rfl_reduce_state *st, const unsigned char **pp, const unsigned char *e,
                                const unsigned char *p0, uint64_t base, rfl_result *err) {
    const unsigned char *p = *pp, *q = rfl__scan2(p + 1, e, '"', '\n');
    size_t n;
    if (!(q + 1 < e && *q == '"' && (q[1] == ',' || q[1] == '\n'))) return 0;
    n = (size_t)(q - p - 1);
    st->quoted = 1;
    if (st->need == RFL__NEED_NAME) rfl__append(st, p + 1, n);
    else if (n > RFL_REDUCE_CARRY) st->field_over = 1;
    *err = rfl__field_done(st, p + 1, n, q + 1, p0, base);
    *pp = q + 2;
    return 1;
}

/* A field starts (or a row, or a section ends). */
static rfl_result rfl__field_start(rfl_reduce_state *st, const unsigned char **pp, const unsigned char *e,
                                   const unsigned char *p0, uint64_t base) {
    const unsigned char *p = *pp;
    unsigned char c = *p;
    rfl_result err;
    if (st->row_kind == RFL__ROW_DATA && (st->col > 0 || c == '"')) {
        /* hot path: the row walker (64-byte blocks) */
        RFL__TRY(rfl__walk(st, pp, e, p0, base));
        if (*pp != p) return RFL_OK;
    }
    if (st->col == 0) { /* row start: blank or "==" line ends a section */
        if (c == '\n') {
            RFL__TRY(rfl__section_end(st));
            RFL__NEWLINE(p);
            *pp = p + 1;
            return RFL_OK;
        }
        if (c == '\r') { st->fstate = RFL__F_CR0; *pp = p + 1; return RFL_OK; }
        if (c == '=') {
            RFL__TRY(rfl__section_end(st));
            st->mode = RFL__M_SKIP;
            return RFL_OK;
        }
    }
    if (st->row_kind != RFL__ROW_HEADER && st->col >= st->ncols) {
        char t[24];
        size_t k = rfl_fmt_u64(t, sizeof t, (uint64_t)st->ncols);
        return rfl__fail(st, RFL_ERR_SYNTAX, st->line, RFL__POS(p) - st->line_start + 1,
                         "row has more fields than the header's ", t, k, "");
    }
    rfl__field_begin(st, RFL__POS(p));
    if (c == '"' && st->row_kind == RFL__ROW_DATA && rfl__quoted_in_place(st, pp, e, p0, base, &err))
        return err;
    if (c == '"') { st->quoted = 1; st->fstate = RFL__F_Q; *pp = p + 1; }
    else st->fstate = RFL__F_UNQ;
    return RFL_OK;
}

/* One step of the CSV machine: the state's next bytes. Moves *pp. */
static rfl_result rfl__feed_csv(rfl_reduce_state *st, const unsigned char **pp, const unsigned char *e,
                                const unsigned char *p0, uint64_t base) {
    const unsigned char *p = *pp, *q;
    unsigned char c = *p;
    switch (st->fstate) {
    case RFL__F_START:
        return rfl__field_start(st, pp, e, p0, base);
    case RFL__F_CR0:
        if (c == '\n') { /* a blank CRLF line: the LF as a blank line */
            st->fstate = RFL__F_START;
            return rfl__field_start(st, pp, e, p0, base);
        }
        /* a lone CR starts a field: treat as unquoted data */
        rfl__field_begin(st, RFL__POS(p) - 1);
        rfl__append(st, (const unsigned char *)"\r", 1);
        st->fstate = RFL__F_UNQ;
        return RFL_OK;
    case RFL__F_UNQ:
        q = rfl__scan2(p, e, ',', '\n');
        rfl__append(st, p, (size_t)(q - p));
        *pp = q == e ? e : q + 1;
        return q == e ? RFL_OK : rfl__field_done(st, st->carry, st->carry_len, q, p0, base);
    case RFL__F_Q:
        q = rfl__scan2(p, e, '"', '\n');
        rfl__append(st, p, (size_t)(q - p));
        *pp = q == e ? e : q + 1;
        if (q == e) return RFL_OK;
        if (*q == '\n') {
            rfl__append(st, q, 1);
            RFL__NEWLINE(q);
        } else
            st->fstate = RFL__F_QQ;
        return RFL_OK;
    case RFL__F_QQ:
        if (c == '"') { rfl__append(st, p, 1); st->fstate = RFL__F_Q; *pp = p + 1; return RFL_OK; }
        if (c == ',' || c == '\n') {
            *pp = p + 1;
            return rfl__field_done(st, st->carry, st->carry_len, p, p0, base);
        }
        if (c == '\r') { st->fstate = RFL__F_QCR; *pp = p + 1; return RFL_OK; }
        return rfl__fail(st, RFL_ERR_SYNTAX, st->line, RFL__POS(p) - st->line_start + 1,
                         "unexpected character after a closing quote", 0, 0, 0);
    case RFL__F_QCR:
        if (c != '\n')
            return rfl__fail(st, RFL_ERR_SYNTAX, st->line, RFL__POS(p) - st->line_start + 1,
                             "carriage return not followed by a line feed", 0, 0, 0);
        *pp = p + 1;
        return rfl__field_done(st, st->carry, st->carry_len, p, p0, base);
    default:
        return RFL_ERR_STATE;
    }
}

static rfl_result rfl__feed(rfl_reduce_state *st, const unsigned char *p0, size_t len) {
    const unsigned char *p = p0, *e = p0 + len;
    uint64_t base = st->offset;
    while (p < e) {
        if (st->mode == RFL__M_PRE) RFL__TRY(rfl__feed_pre(st, &p, p0, base));
        else if (st->mode == RFL__M_SKIP) rfl__feed_skip(st, &p, e, p0, base);
        else RFL__TRY(rfl__feed_csv(st, &p, e, p0, base));
    }
    st->offset = base + len;
    return RFL_OK;
}

/* ---- public ------------------------------------------------------------------ */
RFL_API const char *rfl_reduce_format_name(rfl_csv_format f) {
    static const char *const names[] = {"unknown", "ncu-raw", "ncu-details", "nvprof-metrics",
                                        "nvprof-summary", "nvprof-trace"};
    return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "unknown";
}

RFL_API rfl_result rfl_reduce_init(rfl_reduce_state *st, const rfl_reduce_desc *desc,
                                   void *scratch, size_t size) {
    if (!st || !scratch) return RFL_ERR_ARG;
    RFL_MEMSET(st, 0, sizeof *st);
    rfl__err_clear(&st->err);
    if (size < RFL_REDUCE_SCRATCH_SIZE(1)) return RFL_ERR_BUFFER;
    if (desc) st->desc = *desc;
    st->carry = (unsigned char *)scratch;
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
    RFL_MEMCPY(st->res.total.name, "total", 6);
    RFL_MEMCPY(st->res.other.name, "other", 6);
    return RFL_OK;
}

/* Index of the first NUL byte in p[0..n), or n: eight bytes a step (a
   word has a zero byte when (w - 0x01..01) & ~w & 0x80..80 is not 0). */
static size_t rfl__nul_at(const unsigned char *p, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        RFL_MEMCPY(&w, p + i, 8);
        if ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) break;
    }
    while (i < n && p[i]) i++;
    return i;
}

RFL_API rfl_result rfl_reduce_push(rfl_reduce_state *st, const void *bytes, size_t len) {
    rfl_result e;
    size_t k;
    if (!st) return RFL_ERR_ARG;
    if (st->err.code) return st->err.code;
    if (st->finished) return RFL_ERR_STATE;
    if (!bytes && len) return RFL_ERR_ARG;
    if (!len) return RFL_OK;
    /* no CSV export holds a NUL byte: a binary or a device (/dev/zero)
       stops here, where it would otherwise be skipped as preamble forever */
    k = rfl__nul_at((const unsigned char *)bytes, len);
    e = rfl__feed(st, (const unsigned char *)bytes, k);
    if (e == RFL_OK && k < len)
        e = rfl__fail_at(st, RFL_ERR_FORMAT, st->line, st->offset - st->line_start + 1, st->offset,
                         "a NUL byte: binary, not a CSV export of ncu or nvprof", "", 0, "");
    if (e != RFL_OK && !st->err.code) st->err.code = e;
    return e;
}

/* Tensor-core FLOPs uncounted or estimated. */
static void rfl__warn_tensor(rfl_reduce_state *st) {
    rfl__sb s;
    if (st->w_tc_kernels) {
        s = rfl__warn(st, RFL_WARN_TENSOR_UNCOUNTED, 0, 0, "");
        rfl__sb_f(&s, "%u tensor-core kernel(s) by name (%3% of the time; e.g. ", st->w_tc_kernels,
                  st->w_time_s > 0 ? 100 * st->w_tc_s / st->w_time_s : 0);
        rfl__sb_sn(&s, st->w_tc_example, 40);
        rfl__sb_s(&s, rfl__strlen(st->w_tc_example) > 40 ? "...) " : ") ");
        rfl__sb_s(&s, "have no tensor FLOP count: their FLOPs are missing from the totals (cuDNN "
                      "runs FP32 convolutions as TF32 on Ampere and later by default). Collect "
                      "sm__ops_path_tensor_op_* for every type");
    }
    if (st->w_est_kernels) {
        s = rfl__warn(st, RFL_WARN_TENSOR_ESTIMATED, 0, 0, "");
        rfl__sb_f(&s, "tensor FLOPs of %u kernel(s) are estimates: %15 tensor-pipe instructions x %4",
                  st->w_est_kernels, st->w_est_inst, st->res.tensor_flops_per_inst);
        rfl__sb_s(&s, st->desc.tensor_flops_per_inst > 0
                          ? " FLOPs (the caller's factor). "
                          : " FLOPs (mean; per kernel by the mma shape of its name: m16n8k8 "
                            "2048, m16n8k16 4096, wgmma 512 x tile N). ");
        if (st->w_pipe_kernels)
            rfl__sb_f(&s, "%u non-matrix kernel(s) by name also used the pipe: not counted. ",
                      st->w_pipe_kernels);
        rfl__sb_s(&s, "Collect sm__ops_path_tensor_op_* for counts");
    }
}

/* Which counters the profile lacks, or has only in part. */
static void rfl__warn_counters(rfl_reduce_state *st) {
    rfl_reduce_result *r = &st->res;
    rfl_kernel_stat *t = &r->total;
    rfl__sb s;
    unsigned fp_bits = RFL_UNKNOWN_FLOPS(RFL_PREC_COUNT) - 1; /* every precision's */
    if (r->kernels && (t->work.unknown & fp_bits) != fp_bits && !st->w_tc_kernels) {
        int i, seen = st->roles_seen[RFL__R_TINST] | st->roles_seen[RFL__R_TINST_OP] |
                      st->roles_seen[RFL__R_TPIPE] | st->roles_seen[RFL__R_TD_FP16];
        for (i = 0; i < 6; i++)
            seen |= st->roles_seen[RFL__R_T_FP64 + i] | st->roles_seen[RFL__R_TW_FP64 + i] |
                    st->roles_seen[RFL__R_TS_FP64 + i] | st->roles_seen[RFL__R_TWS_FP64 + i];
        if (!seen)
            rfl__warn(st, RFL_WARN_NO_TENSOR_COUNTERS, 0, 0,
                      "no tensor-core counter in this profile, and no kernel name marks a "
                      "tensor-core kernel (tf32, hmma, gmma, tensorop): the FP counts are "
                      "likely complete. Had tensor cores run (TF32 is cuDNN's default on "
                      "Ampere and later), their FLOPs would be missing: add "
                      "sm__ops_path_tensor_op_* to be sure");
    }
    if (r->kernels && (t->work.unknown & fp_bits) == fp_bits)
        rfl__warn(st, RFL_WARN_NO_FP_COUNTERS, 0, 0,
                  "no FLOP counters in this profile: FLOPs and AI are unknown. Collect "
                  "smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum (and the "
                  "d/h variants and sm__ops_path_tensor_op_*)");
    if (st->w_partial) {
        s = rfl__warn(st, RFL_WARN_PARTIAL_COUNTERS, 0, 0, "");
        rfl__sb_f(&s, "not every add/mul/fma counter was collected for %s%s%s",
                  (st->w_partial & 1) ? "FP32 " : "", (st->w_partial & 2) ? "FP64 " : "",
                  (st->w_partial & 4) ? "FP16 " : "");
        rfl__sb_s(&s, "(a missing one counts 0): those FLOPs are a lower bound. Collect "
                      "smsp__sass_thread_inst_executed_op_{add,mul,fma}_pred_on.sum together");
    }
    if (t->flags & RFL_REDUCE_RATE_DERIVED)
        rfl__warn(st, RFL_WARN_RATE_DERIVED, 0, 0,
                  "some counts were derived from per-cycle or per-second rates x elapsed "
                  "cycles or time, as Nsight Compute's roofline does; the rates are printed "
                  "with 2 decimals, so the counts are approximate. Collect the .sum counters "
                  "for exact counts");
    if (r->kernels && (t->work.unknown & RFL_UNKNOWN_TIME))
        rfl__warn(st, RFL_WARN_NO_TIME, 0, 0,
                  "no time metric (gpu__time_duration.sum) for some kernels: time and FLOP/s "
                  "unknown");
}

/* What the bytes say: L2 residency, a hierarchy upside down. */
static void rfl__warn_memory(rfl_reduce_state *st) {
    rfl_kernel_stat *t = &st->res.total;
    unsigned known = ~t->work.unknown;
    /* fewer bytes at an outer level than at the one inside it */
    int l1_low = (known & RFL_UNKNOWN_BYTES(RFL_L1)) && (known & RFL_UNKNOWN_BYTES(RFL_L2)) &&
                 t->bytes[RFL_L1] < t->bytes[RFL_L2];
    int l2_low = (known & RFL_UNKNOWN_BYTES(RFL_L2)) && (known & RFL_UNKNOWN_BYTES(RFL_DRAM)) &&
                 t->bytes[RFL_L2] < t->bytes[RFL_DRAM];
    rfl__sb s;
    if (st->w_below) {
        s = rfl__warn(st, RFL_WARN_BELOW_COMPULSORY, 1, st->w_below_id, "");
        rfl__sb_f(&s, "DRAM writes of %u elementwise kernel(s) are below their output size (kernel "
                      "%u: %u bytes written, output at least %u", st->w_below, st->w_below_id,
                  st->w_below_got, st->w_below_need);
        rfl__sb_s(&s, "): part of the output was still in L2 when the kernel ended, so its DRAM "
                      "AI is overstated");
    }
    if (st->res.kernels && (l1_low || l2_low)) {
        s = rfl__warn(st, RFL_WARN_HIERARCHY, 0, 0, "hierarchy inversion: ");
        if (l1_low)
            rfl__sb_s(&s, "L1 bytes below L2 bytes (AI at L1 above AI at L2; TMA and other "
                          "copies that bypass L1 are not in l1tex__t_bytes) ");
        if (l2_low)
            rfl__sb_s(&s, "L2 bytes below DRAM bytes (AI at L2 above AI at DRAM: check units "
                          "and that both metrics cover the same kernels)");
    }
}

/* Against the machine: kernels or the total faster than it allows, a
   profile clocked below its boost. */
static void rfl__warn_machine(rfl_reduce_state *st, const rfl_machine *m) {
    rfl_reduce_result *r = &st->res;
    double worst = rfl__roof_excess(m, &r->total);
    rfl__sb s;
    if (st->w_above) {
        s = rfl__warn(st, RFL_WARN_ABOVE_ROOF, 1, st->w_above_id, "");
        rfl__sb_f(&s, "%u kernel(s) ran above the roof of %s (worst: kernel %u at %3% of a "
                      "ceiling): a measurement or unit bug, or the wrong machine",
                  st->w_above, m->id, st->w_above_id, st->w_above_x * 100);
    }
    if (worst > 1.0) {
        s = rfl__warn(st, RFL_WARN_ABOVE_ROOF, 0, 0, "");
        rfl__sb_f(&s, "the total runs at %3% of a ceiling of %s: above the roof means a "
                      "measurement or unit bug", worst * 100, m->id);
    }
    if (m->boost_mhz > 0 && r->sm_clock_hz > 0 && r->sm_clock_hz < 0.9 * m->boost_mhz * 1e6) {
        s = rfl__warn(st, RFL_WARN_LOW_CLOCK, 0, 0, "");
        rfl__sb_f(&s, "the profile ran at %4 MHz, %3% below the boost clock of %s (%5 MHz): ",
                  r->sm_clock_hz / 1e6, 100.0 * (1.0 - r->sm_clock_hz / (m->boost_mhz * 1e6)),
                  m->id, m->boost_mhz);
        rfl__sb_s(&s, "datasheet peaks are too high for it (ncu locks the base clock "
                      "unless --clock-control none); compare with the profile's own ceilings");
    }
}

/* Units, names, saturation, a full by-name table. */
static void rfl__warn_bookkeeping(rfl_reduce_state *st) {
    rfl_reduce_result *r = &st->res;
    rfl__sb s;
    if (r->auto_units_rel_err > 0) {
        s = rfl__warn(st, RFL_WARN_AUTO_UNITS, 0, 0, "");
        rfl__sb_f(&s, "values were printed with auto-scaled units (e.g. '%s'): each keeps only its "
                      "printed digits, up to %2% off per value. Export with --print-units base "
                      "for exact counts", st->auto_example, r->auto_units_rel_err * 100);
    }
    if (st->w_trunc) {
        s = rfl__warn(st, RFL_WARN_NAME_TRUNCATED, 0, 0, "");
        rfl__sb_f(&s, "%u kernel name(s) longer than 255 bytes were truncated (grouping by name "
                      "compares the kept part)", st->w_trunc);
    }
    if (r->total.flags & RFL_REDUCE_SATURATED)
        rfl__warn(st, RFL_WARN_SATURATED, 0, 0,
                  "a count overflowed 64 bits and was saturated at 18446744073709551615");
    if (st->w_other) {
        s = rfl__warn(st, RFL_WARN_GROUPS_FULL, 0, 0, "");
        rfl__sb_f(&s, "%u kernel(s) found no free entry in the by-name table of %u: counted under "
                      "\"other\" (the totals include them)", st->w_other, (uint64_t)st->desc.group_cap);
    }
}

static void rfl__warnings(rfl_reduce_state *st) {
    rfl__warn_tensor(st);
    rfl__warn_counters(st);
    rfl__warn_memory(st);
    if (st->desc.machine) rfl__warn_machine(st, st->desc.machine);
    rfl__warn_bookkeeping(st);
}

RFL_API const char *rfl_reduce_device(const rfl_reduce_state *st) {
    return st ? st->res.device : "";
}

RFL_API rfl_result rfl_reduce_finish(rfl_reduce_state *st, rfl_reduce_result *out) {
    rfl_reduce_result *r;
    int i;
    if (!st || !out) return RFL_ERR_ARG;
    if (st->err.code) return st->err.code;
    if (st->finished) return RFL_ERR_STATE;
    st->finished = 1;
    r = &st->res;
    if (st->mode == RFL__M_CSV) {
        if (st->fstate == RFL__F_Q)
            return rfl__fail_field(st, RFL_ERR_TRUNCATED,
                                   "unterminated quote: the input ends inside this field", 0, 0, 0);
        if (st->fstate != RFL__F_START && st->fstate != RFL__F_CR0) { /* a last row, no newline */
            st->offset_now = st->offset;
            st->err.code = rfl__field_end_s(st, (const char *)st->carry, st->carry_len);
            if (st->err.code != RFL_OK) return st->err.code;
            if ((st->err.code = rfl__row_end(st)) != RFL_OK) return st->err.code;
        }
        if ((st->err.code = rfl__section_end(st)) != RFL_OK) return st->err.code;
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
    if (!r->kernels) r->total.work.unknown = RFL_UNKNOWN_ALL;
    if (st->nv_known[0] || st->nv_known[1]) { /* nvprof: the trace's time, else the summary's */
        r->total.time_ns = st->nv_ns[st->nv_known[1]];
        r->total.work.unknown &= ~RFL_UNKNOWN_TIME;
    }
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

RFL_API const char *rfl_reduce_warn_code(rfl_reduce_warn w) {
    static const char *const codes[RFL_WARN_COUNT_] = {
        "warning", "tensor_uncounted", "tensor_estimated", "no_fp_counters", "above_roof",
        "below_compulsory", "hierarchy_inversion", "low_clock", "auto_units", "rate_derived",
        "name_truncated", "saturated", "groups_full", "no_time", "partial_counters",
        "no_tensor_counters"};
    return (int)w > 0 && (int)w < (int)RFL_WARN_COUNT_ ? codes[w] : "warning";
}

#ifndef RFL_NO_JSON_WRITER
/* ---- rfl-reduce --json ------------------------------------------------------ */
#define RFL__KNOWN(k, bits) (((k)->work.unknown & (bits)) == 0)
static unsigned rfl__prec_bits(int first) {
    unsigned b = 0;
    int p;
    for (p = first; p < RFL_PREC_COUNT; p++) b |= RFL_UNKNOWN_FLOPS(p);
    return b;
}
/* some precision (of those from first on) known? */
static int rfl__flops_known(const rfl_kernel_stat *k, int first) {
    return (k->work.unknown & rfl__prec_bits(first)) != rfl__prec_bits(first);
}
static int rfl__ai_known(const rfl_kernel_stat *k, rfl_level l) {
    return rfl__flops_known(k, 0) && RFL__KNOWN(k, RFL_UNKNOWN_BYTES(l)) && k->bytes[l] > 0;
}
static int rfl__fps_known(const rfl_kernel_stat *k) {
    return rfl__flops_known(k, 0) && RFL__KNOWN(k, RFL_UNKNOWN_TIME) && k->time_ns > 0;
}

/* The members of "flops" that totals and kernels share. */
static void rfl__rj_flops(rfl_json_writer *w, const rfl_kernel_stat *k) {
    rfl_json_w_num_if(w, "fp64", RFL__KNOWN(k, RFL_UNKNOWN_FLOPS(RFL_FP64)), (double)k->flops[RFL_FP64]);
    rfl_json_w_num_if(w, "fp32", RFL__KNOWN(k, RFL_UNKNOWN_FLOPS(RFL_FP32)), (double)k->flops[RFL_FP32]);
    rfl_json_w_num_if(w, "fp16", RFL__KNOWN(k, RFL_UNKNOWN_FLOPS(RFL_FP16)), (double)k->flops[RFL_FP16]);
    rfl_json_w_num_if(w, "tensor", rfl__flops_known(k, RFL_FP64_TENSOR), (double)rfl_reduce_tensor_flops(k));
    rfl_json_w_num_if(w, "total", rfl__flops_known(k, 0), rfl_work_flops(&k->work));
}

/* bytes{dram, l2, l1}, ai{dram, l2, l1}, flops_per_s: totals and kernels alike. */
static void rfl__rj_levels(rfl_json_writer *w, const rfl_kernel_stat *k) {
    int l;
    rfl_json_w_obj(w, "bytes");
    for (l = 0; l < RFL_LEVEL_COUNT; l++)
        rfl_json_w_num_if(w, rfl_level_name((rfl_level)l), RFL__KNOWN(k, RFL_UNKNOWN_BYTES(l)),
                          (double)k->bytes[l]);
    rfl_json_w_end(w);
    rfl_json_w_obj(w, "ai");
    for (l = 0; l < RFL_LEVEL_COUNT; l++)
        rfl_json_w_num_if(w, rfl_level_name((rfl_level)l), rfl__ai_known(k, (rfl_level)l),
                          rfl_work_ai(&k->work, (rfl_level)l));
    rfl_json_w_end(w);
    rfl_json_w_num_if(w, "flops_per_s", rfl__fps_known(k), rfl_work_flops(&k->work) / k->work.time_s);
}

/* One kernel (or name group) of top / by_name; with_name 0: "other". */
static void rfl__rj_kernel(rfl_json_writer *w, const char *key, const rfl_kernel_stat *k,
                           int with_name) {
    rfl_json_w_obj(w, key);
    if (with_name) {
        rfl_json_w_num(w, "id", (double)k->id);
        rfl_json_w_str(w, "name", k->name);
        rfl_json_w_bool(w, "name_truncated", (k->flags & RFL_REDUCE_NAME_TRUNCATED) != 0);
    }
    rfl_json_w_num(w, "invocations", (double)k->invocations);
    rfl_json_w_num_if(w, "time_s", RFL__KNOWN(k, RFL_UNKNOWN_TIME), k->work.time_s);
    rfl_json_w_obj(w, "flops");
    rfl__rj_flops(w, k);
    rfl_json_w_end(w);
    rfl__rj_levels(w, k);
    rfl_json_w_end(w);
}

static void rfl__rj_total_flops(rfl_json_writer *w, const rfl_reduce_result *r) {
    const rfl_kernel_stat *t = &r->total;
    int p;
    rfl_json_w_obj(w, "flops");
    rfl__rj_flops(w, t);
    rfl_json_w_bool(w, "tensor_estimated", (r->flags & RFL_REDUCE_TENSOR_ESTIMATED) != 0);
    if (r->tensor_flops_per_inst > 0) rfl_json_w_num(w, "tensor_flops_per_inst", r->tensor_flops_per_inst);
    rfl_json_w_obj(w, "by_precision");
    for (p = 0; p < RFL_PREC_COUNT; p++)
        rfl_json_w_num_if(w, rfl_prec_name((rfl_prec)p), RFL__KNOWN(t, RFL_UNKNOWN_FLOPS(p)),
                          (double)t->flops[p]);
    rfl_json_w_end(w);
    rfl_json_w_end(w);
}

/* The profile's own ceilings, and with hw the fraction of its roof. */
static void rfl__rj_ceilings(rfl_json_writer *w, const rfl_reduce_result *r, const rfl_machine *hw) {
    rfl_json_w_obj(w, "ceilings");
    rfl_json_w_num_if(w, "fp32_flops_per_s", r->ceil_flops[RFL_FP32] > 0, r->ceil_flops[RFL_FP32]);
    rfl_json_w_num_if(w, "fp64_flops_per_s", r->ceil_flops[RFL_FP64] > 0, r->ceil_flops[RFL_FP64]);
    rfl_json_w_num_if(w, "fp16_flops_per_s", r->ceil_flops[RFL_FP16] > 0, r->ceil_flops[RFL_FP16]);
    rfl_json_w_num_if(w, "dram_bytes_per_s", r->ceil_bw[RFL_DRAM] > 0, r->ceil_bw[RFL_DRAM]);
    rfl_json_w_num_if(w, "l2_bytes_per_s", r->ceil_bw[RFL_L2] > 0, r->ceil_bw[RFL_L2]);
    rfl_json_w_num_if(w, "l1_bytes_per_s", r->ceil_bw[RFL_L1] > 0, r->ceil_bw[RFL_L1]);
    rfl_json_w_num_if(w, "sm_clock_hz", r->sm_clock_hz > 0, r->sm_clock_hz);
    rfl_json_w_end(w);
    if (hw) {
        rfl_prec mp = rfl_work_main_prec(&r->total.work);
        double frac = 0;
        int ok = rfl_roof_fraction(hw, &r->total.work, mp, &frac) == RFL_OK && rfl__fps_known(&r->total);
        rfl_json_w_str(w, "hw", hw->id);
        rfl_json_w_str(w, "hw_prec", rfl_prec_name(mp));
        rfl_json_w_num_if(w, "roof_fraction", ok, frac);
    }
}

RFL_API void rfl_reduce_json(rfl_json_writer *w, const rfl_reduce_result *r,
                             const rfl_kernel_stat *groups, const rfl_machine *hw) {
    const rfl_kernel_stat *t = &r->total;
    int i;
    rfl_json_w_obj(w, 0);
    rfl_json_w_str(w, "format", rfl_reduce_format_name(r->format));
    rfl_json_w_num(w, "kernels", (double)r->kernels);
    rfl_json_w_num(w, "kernels_seen", (double)r->kernels_seen);
    rfl_json_w_str(w, "locale", r->locale == RFL_LOCALE_EU ? "eu" : r->locale == RFL_LOCALE_US ? "us" : "auto");
    rfl_json_w_num_if(w, "time_s", RFL__KNOWN(t, RFL_UNKNOWN_TIME), t->work.time_s);
    rfl_json_w_num_if(w, "time_ns", RFL__KNOWN(t, RFL_UNKNOWN_TIME), (double)t->time_ns);
    rfl__rj_total_flops(w, r);
    rfl__rj_levels(w, t);
    rfl_json_w_num(w, "tensor_inst", (double)t->tensor_inst);
    rfl__rj_ceilings(w, r, hw);
    rfl_json_w_arr(w, "warnings");
    for (i = 0; i < r->warning_count; i++) {
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "code", rfl_reduce_warn_code(r->warnings[i].code));
        if (r->warnings[i].has_kernel) rfl_json_w_num(w, "kernel", (double)r->warnings[i].kernel_id);
        rfl_json_w_str(w, "text", r->warnings[i].text);
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
    rfl_json_w_arr(w, "top");
    for (i = 0; i < r->top_count; i++) rfl__rj_kernel(w, 0, &r->top[i], 1);
    rfl_json_w_end(w);
    if (groups) {
        rfl_json_w_arr(w, "by_name");
        for (i = 0; i < r->group_count; i++) rfl__rj_kernel(w, 0, &groups[i], 1);
        rfl_json_w_end(w);
        rfl__rj_kernel(w, "other", &r->other, 0);
    }
    rfl_json_w_end(w);
}
#undef RFL__KNOWN

static double rfl__json_num_at(const rfl_json_doc *d, int obj, const char *path) {
    double v;
    return rfl_json_num(d, rfl_json_path(d, obj, path), &v) ? v : -1;
}

RFL_API int rfl_reduce_json_point(const rfl_json_doc *d, int obj, double *ai, double *flops_per_s) {
    double total = rfl__json_num_at(d, obj, "flops.total"), dram = rfl__json_num_at(d, obj, "bytes.dram");
    double time_s = rfl__json_num_at(d, obj, "time_s");
    *ai = rfl__json_num_at(d, obj, "ai.dram");
    *flops_per_s = rfl__json_num_at(d, obj, "flops_per_s");
    if (!(*ai > 0) && total > 0 && dram > 0) *ai = total / dram;
    if (!(*flops_per_s > 0) && total > 0 && time_s > 0) *flops_per_s = total / time_s;
    return *ai > 0 && *flops_per_s > 0;
}
#endif /* RFL_NO_JSON_WRITER */

#undef RFL__HAS
#undef RFL__U
#undef RFL__D
#undef RFL__POS
#undef RFL__NEWLINE
#undef RFL__TRY
#undef RFL__NCU
#endif /* RFL_NO_REDUCE */

/* ==========================================================================
   [11] JOIN
   kernel classes; an estimate beside a profile (CNN layer types, LLM kinds
   with padded_mma and launch_bound); a model's report and report.json
   ========================================================================== */
#if !defined(RFL_NO_LLM) && !defined(RFL_NO_REDUCE)
/* A kernel name against the classifier's keys, case-insensitively. */
static int rfl__llm_has(const char *s, const char *key) {
    size_t i;
    for (; *s; s++) {
        for (i = 0; key[i] && s[i] && rfl__lower((unsigned char)s[i]) == key[i]; i++) {}
        if (!key[i]) return 1;
    }
    return 0;
}

/* Keys in lower case. Order matters: "fmha_cutlassF" and cuDNN's
   "sdpa_..._flash_fprop" are attention before cutlass or fprop;
   "cublasLt::splitKreduce" belongs to its GEMM; norms ("bn_fw", "layer_norm")
   before convolutions (cuDNN runs both) and before elementwise rules;
   "implicit_gemm" is a convolution before it is a GEMM; a MeanOps reduction
   before "reduce"; "bfloat16_copy_kernel" is a copy before it is
   elementwise. */
static const struct { const char *key; unsigned char cls; } rfl__kc_rules[] = {
    {"fmha", RFL_KC_ATTENTION},        {"flash", RFL_KC_ATTENTION},
    {"sdpa", RFL_KC_ATTENTION},        {"attention", RFL_KC_ATTENTION},
    {"lean_reduction", RFL_KC_ATTENTION}, /* cuDNN SDPA's split-KV combine */
    {"splitkreduce", RFL_KC_GEMM},     {"splitk_reduce", RFL_KC_GEMM},
    {"batch_norm", RFL_KC_NORM},       {"batchnorm", RFL_KC_NORM},
    {"bn_", RFL_KC_NORM},              {"layer_norm", RFL_KC_NORM},
    {"layernorm", RFL_KC_NORM},        {"group_norm", RFL_KC_NORM},
    {"rms_norm", RFL_KC_NORM},         {"rmsnorm", RFL_KC_NORM},
    {"convolution", RFL_KC_CONV},      {"convolve", RFL_KC_CONV},
    {"conv2d", RFL_KC_CONV},           {"conv_", RFL_KC_CONV},
    {"_conv", RFL_KC_CONV},            {"implicit_gemm", RFL_KC_CONV},
    {"winograd", RFL_KC_CONV},         {"fft", RFL_KC_CONV},
    {"dgrad", RFL_KC_CONV},            {"wgrad", RFL_KC_CONV},
    {"fprop", RFL_KC_CONV},            {"cudnn", RFL_KC_CONV},
    {"gemm", RFL_KC_GEMM},             {"gemv", RFL_KC_GEMM},
    {"nvjet", RFL_KC_GEMM},            {"cutlass", RFL_KC_GEMM},
    {"matmul", RFL_KC_GEMM},           {"xmma", RFL_KC_GEMM},
    {"cublas", RFL_KC_GEMM},
    {"internal::kernel<", RFL_KC_GEMM}, /* cuBLAS's small-matrix kernels */
    {"indexselect", RFL_KC_EMBEDDING}, {"index_select", RFL_KC_EMBEDDING},
    {"gather", RFL_KC_EMBEDDING},      {"embedding", RFL_KC_EMBEDDING},
    {"pool", RFL_KC_POOL},             {"meanops", RFL_KC_MEAN},
    {"pow_tensor", RFL_KC_POW},
    {"softmax", RFL_KC_REDUCTION},     {"reduce", RFL_KC_REDUCTION},
    {"nll_loss", RFL_KC_REDUCTION},    {"cross_entropy", RFL_KC_REDUCTION},
    {"sum_kernel", RFL_KC_REDUCTION},  {"norm_kernel", RFL_KC_REDUCTION},
    {"copy", RFL_KC_COPY},             {"memcpy", RFL_KC_COPY},
    {"memset", RFL_KC_COPY},           {"cat_", RFL_KC_COPY},
    {"catarray", RFL_KC_COPY},         {"nchwtonhwc", RFL_KC_COPY},
    {"nhwctonchw", RFL_KC_COPY},       {"transpose", RFL_KC_COPY},
    {"elementwise", RFL_KC_ELEMENTWISE}, {"relu", RFL_KC_ELEMENTWISE},
    {"clamp", RFL_KC_ELEMENTWISE},     {"add", RFL_KC_ELEMENTWISE},
    {"mul", RFL_KC_ELEMENTWISE},       {"dropout", RFL_KC_ELEMENTWISE},
    {"fill", RFL_KC_ELEMENTWISE},      {"scale", RFL_KC_ELEMENTWISE},
    {"multi_tensor_apply", RFL_KC_ELEMENTWISE}, /* the optimizer step */
    {"sgd", RFL_KC_ELEMENTWISE},       {"adam", RFL_KC_ELEMENTWISE}};

RFL_API rfl_kclass rfl_kclass_of(const char *name) {
    size_t i;
    if (!name) return RFL_KC_OTHER;
    for (i = 0; i < sizeof rfl__kc_rules / sizeof rfl__kc_rules[0]; i++)
        if (rfl__llm_has(name, rfl__kc_rules[i].key)) return (rfl_kclass)rfl__kc_rules[i].cls;
    return RFL_KC_OTHER;
}

RFL_API const char *rfl_kclass_name(rfl_kclass c) {
    static const char *const names[RFL_KC_COUNT] = {
        "convolution", "gemm", "attention", "norm", "mean", "pow", "copy",
        "embedding", "pool", "reduction", "elementwise", "other"};
    return (unsigned)c < RFL_KC_COUNT ? names[c] : "?";
}

RFL_API rfl_ltype rfl_kclass_ltype(rfl_kclass c) {
    static const unsigned char lt[RFL_KC_COUNT] = {
        RFL_LT_CONV, RFL_LT_MATMUL, RFL_LT_MATMUL, RFL_LT_NORM, RFL_LT_REDUCTION,
        RFL_LT_ELEMENTWISE, RFL_LT_DATA, RFL_LT_EMBEDDING, RFL_LT_POOL,
        RFL_LT_REDUCTION, RFL_LT_ELEMENTWISE, RFL_LT_OTHER};
    return (unsigned)c < RFL_KC_COUNT ? (rfl_ltype)lt[c] : RFL_LT_OTHER;
}

static uint64_t rfl__llm_sat(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
static void rfl__llm_meas_add(rfl_llm_kind_meas *a, const rfl_llm_kind_meas *b) {
    a->kernels = rfl__llm_sat(a->kernels, b->kernels);
    a->time_ns = rfl__llm_sat(a->time_ns, b->time_ns);
    a->flops = rfl__llm_sat(a->flops, b->flops);
    a->tensor_flops = rfl__llm_sat(a->tensor_flops, b->tensor_flops);
    a->dram_bytes = rfl__llm_sat(a->dram_bytes, b->dram_bytes);
    a->tiny_kernels = rfl__llm_sat(a->tiny_kernels, b->tiny_kernels);
    a->tiny_time_ns = rfl__llm_sat(a->tiny_time_ns, b->tiny_time_ns);
    rfl_work_add(&a->work, &b->work);
}
/* A kernel's FLOPs over every precision, tensor included. */
static uint64_t rfl__llm_flops(const rfl_kernel_stat *k) {
    uint64_t s = 0;
    int p;
    for (p = 0; p < RFL_PREC_COUNT; p++) s = rfl__llm_sat(s, k->flops[p]);
    return s;
}

static void rfl__llm_kern_meas(const rfl__llm_kern *k, rfl_llm_kind_meas *m) {
    RFL_MEMSET(m, 0, sizeof *m);
    m->kernels = 1;
    m->time_ns = k->time_ns;
    m->flops = k->flops;
    m->tensor_flops = k->tensor_flops;
    m->dram_bytes = k->dram_bytes;
    m->tiny_kernels = (uint64_t)(k->tiny != 0);
    m->tiny_time_ns = k->tiny ? k->time_ns : 0;
    m->work = k->work;
}

RFL_API void rfl_llm_classify_init(rfl_llm_classifier *c, const rfl_machine *machine) {
    if (!c) return;
    RFL_MEMSET(c, 0, sizeof *c);
    c->machine = machine;
}

/* The kind of the open segment's GEMMs, when it closes. */
static rfl_llm_kind rfl__llm_gemm_kind(const rfl_llm_classifier *c, int last) {
    if (c->segment == 0 || c->seg_core) return RFL_LLM_ATTENTION;
    return last ? RFL_LLM_LM_HEAD : RFL_LLM_MLP;
}
static void rfl__llm_close(rfl_llm_classifier *c, int last) {
    rfl__llm_meas_add(&c->kinds[rfl__llm_gemm_kind(c, last)], &c->seg_gemms);
    rfl__llm_meas_add(&c->kinds[RFL_LLM_ELEMENTWISE], &c->seg_pre);
    RFL_MEMSET(&c->seg_gemms, 0, sizeof c->seg_gemms);
    RFL_MEMSET(&c->seg_pre, 0, sizeof c->seg_pre);
    c->seg_gemm = c->seg_core = 0;
}

/* One kernel leaves the hold: the segment rules of the manual. */
static void rfl__llm_settle(rfl_llm_classifier *c, const rfl__llm_kern *k) {
    rfl_llm_kind_meas m;
    rfl__llm_kern_meas(k, &m);
    rfl__llm_meas_add(&c->total, &m);
    if (k->role == RFL_KC_EMBEDDING) {
        rfl__llm_meas_add(&c->kinds[RFL_LLM_EMBEDDING], &m);
        return;
    }
    if (k->role == RFL_KC_NORM || k->norm_start ||
        (k->role == RFL_KC_MEAN && !c->in_norm)) {
        rfl__llm_close(c, 0);
        c->segment++;
        c->in_norm = 1;
    }
    if (k->role == RFL_KC_GEMM) {
        c->in_norm = 0;
        c->seg_gemm = 1;
        rfl__llm_meas_add(&c->seg_gemms, &m);
    } else if (k->role == RFL_KC_ATTENTION) {
        c->in_norm = 0;
        c->seg_core = 1;
        rfl__llm_meas_add(&c->kinds[RFL_LLM_ATTENTION], &m);
        rfl__llm_meas_add(&c->kinds[RFL_LLM_ATTENTION], &c->seg_pre); /* rotary, KV cache */
        RFL_MEMSET(&c->seg_pre, 0, sizeof c->seg_pre);
    } else if (c->in_norm) {
        rfl__llm_meas_add(&c->kinds[RFL_LLM_NORM], &m);
    } else if (c->segment > 0 && c->seg_gemm && !c->seg_core) {
        rfl__llm_meas_add(&c->seg_pre, &m);
    } else {
        rfl__llm_meas_add(&c->kinds[RFL_LLM_ELEMENTWISE], &m);
    }
}

/* 1 when a kernel's own counters need under RFL_LLM_TINY_S at the roof. */
static int rfl__llm_tiny(const rfl_machine *m, const rfl_kernel_stat *k) {
    double need;
    int p;
    if (!m || (k->work.unknown & (RFL_UNKNOWN_TIME | RFL_UNKNOWN_BYTES(RFL_DRAM))) ||
        m->bw_bytes_per_s[RFL_DRAM] <= 0)
        return 0;
    need = (double)k->bytes[RFL_DRAM] / m->bw_bytes_per_s[RFL_DRAM];
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        if (!k->flops[p]) continue;
        if (m->peak_flops[p] <= 0) return 0; /* no roof: cannot say */
        if ((double)k->flops[p] / m->peak_flops[p] > need)
            need = (double)k->flops[p] / m->peak_flops[p];
    }
    return need < RFL_LLM_TINY_S;
}

RFL_API void rfl_llm_classify_kernel(void *classifier, const struct rfl_kernel_stat *k) {
    rfl_llm_classifier *c = (rfl_llm_classifier *)classifier;
    rfl__llm_kern x;
    if (!c || !k || c->finished) return;
    RFL_MEMSET(&x, 0, sizeof x);
    x.id = k->id;
    x.time_ns = k->time_ns;
    x.flops = rfl__llm_flops(k);
    x.work = k->work;
    x.tensor_flops = rfl_reduce_tensor_flops(k);
    x.dram_bytes = k->bytes[RFL_DRAM];
    x.role = (int)rfl_kclass_of(k->name);
    x.tiny = rfl__llm_tiny(c->machine, k);
    c->unknown |= k->work.unknown;
    /* An eager RMSNorm shows itself at its mean: the pow before it, and the
       cast before that, start the norm. */
    if (x.role == RFL_KC_MEAN && c->held && c->hold[c->held - 1].role == RFL_KC_POW) {
        if (c->held == 2 && c->hold[0].role == RFL_KC_COPY) c->hold[0].norm_start = 1;
        else c->hold[c->held - 1].norm_start = 1;
    }
    if (c->held == 2) {
        rfl__llm_settle(c, &c->hold[0]);
        c->hold[0] = c->hold[1];
        c->held = 1;
    }
    c->hold[c->held++] = x;
}

RFL_API void rfl_llm_classify_finish(rfl_llm_classifier *c) {
    int i;
    if (!c || c->finished) return;
    for (i = 0; i < c->held; i++) rfl__llm_settle(c, &c->hold[i]);
    c->held = 0;
    rfl__llm_close(c, 1);
    c->finished = 1;
}

RFL_API const char *rfl_llm_warn_code(rfl_llm_warn w) {
    switch (w) {
    case RFL_LLM_WARN_PADDED_MMA: return "padded_mma";
    case RFL_LLM_WARN_LAUNCH_BOUND: return "launch_bound";
    default: return "";
    }
}
/* ---- the join: estimate beside profile, warnings ---- */
typedef struct rfl__llm_txt { char *buf; size_t cap, len; } rfl__llm_txt;
static void rfl__llm_put(rfl__llm_txt *t, const char *s) {
    while (*s && t->len + 1 < t->cap) t->buf[t->len++] = *s++;
    t->buf[t->len] = 0;
}
static void rfl__llm_put_si(rfl__llm_txt *t, double v, const char *unit) {
    char b[40];
    rfl_fmt_si(b, sizeof b, v, 3);
    rfl__llm_put(t, b);
    rfl__llm_put(t, unit);
}
static void rfl__llm_put_num(rfl__llm_txt *t, double v, int sig) {
    char b[40];
    rfl_fmt_num(b, sizeof b, v, sig);
    rfl__llm_put(t, b);
}

static void rfl__llm_padded(rfl_join *j) {
    rfl_llm_warning *w = &j->warnings[j->warning_count++];
    rfl__llm_txt t;
    int k, first = 1;
    t.buf = w->text; t.cap = sizeof w->text; t.len = 0;
    w->code = RFL_LLM_WARN_PADDED_MMA;
    rfl__llm_put(&t, "the tensor cores executed ");
    rfl__llm_put_si(&t, j->executed_tensor_flops, "FLOP for ");
    rfl__llm_put_si(&t, j->useful_flops, "FLOP of useful matrix work (useful / executed ");
    rfl__llm_put_num(&t, j->useful_per_executed, 2);
    rfl__llm_put(&t, "; ");
    for (k = 0; k < j->count; k++) {
        double ex = (double)j->rows[k].meas.tensor_flops, us = (double)j->rows[k].mac_flops;
        if (ex < RFL_LLM_PADDED_RATIO * us || ex <= 0) continue;
        rfl__llm_put(&t, first ? "" : ", ");
        rfl__llm_put(&t, j->rows[k].name);
        rfl__llm_put(&t, " ");
        rfl__llm_put_si(&t, ex, "FLOP for ");
        rfl__llm_put_si(&t, us, "FLOP");
        first = 0;
    }
    rfl__llm_put(&t, "): a product with one token or one query row (a decode GEMV, decode "
                     "attention) runs on whole MMA tiles of 8 to 64 rows, the rest padding. "
                     "Measured FLOP/s");
    if (j->kernel_time_s > 0) {
        rfl__llm_put(&t, " (");
        rfl__llm_put_si(&t, (double)j->total.meas.flops / j->kernel_time_s, "FLOP/s");
        rfl__llm_put(&t, ")");
    }
    rfl__llm_put(&t, " overstates useful work");
    if (j->kernel_time_s > 0) {
        rfl__llm_put(&t, " (");
        rfl__llm_put_si(&t, j->useful_flops / j->kernel_time_s, "FLOP/s");
        rfl__llm_put(&t, ")");
    }
    rfl__llm_put(&t, ": judge this step by its bytes and time.");
}

static void rfl__llm_launch(rfl_join *j, const rfl_machine *m) {
    rfl_llm_warning *w = &j->warnings[j->warning_count++];
    rfl__llm_txt t;
    t.buf = w->text; t.cap = sizeof w->text; t.len = 0;
    w->code = RFL_LLM_WARN_LAUNCH_BOUND;
    rfl__llm_put_num(&t, (double)j->total.meas.kernels, 10);
    rfl__llm_put(&t, " kernels, mean ");
    rfl__llm_put_si(&t, j->mean_kernel_s, "s: ");
    rfl__llm_put_si(&t, j->kernel_time_s, "s of kernel time, ");
    rfl__llm_put_num(&t, j->gap, 2);
    rfl__llm_put(&t, "x the ");
    rfl__llm_put_si(&t, j->roof_time_s, "s the step needs at the roof (its bytes, ");
    rfl__llm_put_si(&t, j->total.bytes, "B at ");
    rfl__llm_put_si(&t, m->bw_bytes_per_s[RFL_DRAM], "B/s: ");
    rfl__llm_put_si(&t, j->bytes_time_s, "s); ");
    rfl__llm_put_num(&t, (double)j->total.meas.tiny_kernels, 10);
    rfl__llm_put(&t, " kernels (");
    rfl__llm_put_num(&t, 100.0 * j->tiny_share, 2);
    rfl__llm_put(&t, "% of the time) each need under 1 us of work, so launch, ramp-up and "
                     "drain fill the step. What helps: CUDA graphs (one launch for the "
                     "step), fused kernels (norm, rotary, MLP: fewer launches), a larger "
                     "batch (the same launches carry more tokens).");
}

/* The step against its profile: useful and executed FLOPs, the gap to the
   roof, the warnings. */
static void rfl__llm_figures(rfl_join *j, const rfl_machine *m) {
    const rfl_llm_kind_meas *t = &j->total.meas;
    j->useful_flops = (double)j->total.mac_flops;
    j->executed_tensor_flops = (double)t->tensor_flops;
    if (t->tensor_flops) j->useful_per_executed = j->useful_flops / j->executed_tensor_flops;
    j->roof_time_s = j->total.fwd_time_s + j->total.bwd_time_s;
    if (m->bw_bytes_per_s[RFL_DRAM] > 0) j->bytes_time_s = j->total.bytes / m->bw_bytes_per_s[RFL_DRAM];
    if (!(t->work.unknown & RFL_UNKNOWN_TIME) && t->kernels) {
        j->kernel_time_s = (double)t->time_ns * 1e-9;
        j->mean_kernel_s = j->kernel_time_s / (double)t->kernels;
        if (t->time_ns) j->tiny_share = (double)t->tiny_time_ns / (double)t->time_ns;
        if (j->roof_time_s > 0) j->gap = j->kernel_time_s / j->roof_time_s;
    }
    /* no tensor counter in the profile: executed tensor FLOPs are unknown */
    if (t->tensor_flops && j->useful_flops > 0 &&
        j->executed_tensor_flops >= RFL_LLM_PADDED_RATIO * j->useful_flops)
        rfl__llm_padded(j);
    if (j->gap >= RFL_LLM_LAUNCH_GAP && j->tiny_share >= RFL_LLM_LAUNCH_SHARE)
        rfl__llm_launch(j, m);
}

/* ---- the join: estimate beside profile, group by group ---- */
RFL_API void rfl_join_init(rfl_join *j, rfl_group_by by, const rfl_machine *m) {
    int r;
    if (!j) return;
    RFL_MEMSET(j, 0, sizeof *j);
    j->by = by == RFL_GROUP_KIND ? RFL_GROUP_KIND : RFL_GROUP_LTYPE;
    j->count = j->by == RFL_GROUP_KIND ? (int)RFL_LLM_KIND_COUNT : (int)RFL_LT_COUNT;
    for (r = 0; r < j->count; r++)
        j->rows[r].name = j->by == RFL_GROUP_KIND ? rfl_llm_kind_name((rfl_llm_kind)r)
                                                  : rfl_ltype_name((rfl_ltype)r);
    j->total.name = "total";
    rfl_llm_classify_init(&j->cl, m);
}

RFL_API void rfl_join_machine(rfl_join *j, const rfl_machine *m) {
    if (j) j->cl.machine = m;
}

RFL_API void rfl_join_kernel(void *join, const struct rfl_kernel_stat *k) {
    rfl_join *j = (rfl_join *)join;
    rfl_llm_kind_meas *x;
    if (!j || !k || j->cl.finished) return;
    if (rfl__llm_has(k->name, "winograd") || rfl__llm_has(k->name, "fft")) j->transforms += k->invocations;
    if (j->by == RFL_GROUP_KIND) { rfl_llm_classify_kernel(&j->cl, k); return; }
    x = &j->rows[rfl_kclass_ltype(rfl_kclass_of(k->name))].meas;
    rfl_work_add(&x->work, &k->work);
    x->kernels += k->invocations ? k->invocations : 1;
    x->flops = rfl__llm_sat(x->flops, rfl__llm_flops(k));
    x->tensor_flops = rfl__llm_sat(x->tensor_flops, rfl_reduce_tensor_flops(k));
    x->dram_bytes = rfl__llm_sat(x->dram_bytes, k->bytes[RFL_DRAM]);
    x->time_ns = rfl__llm_sat(x->time_ns, k->time_ns);
}

/* *t += the predicted time of w on m (no work: nothing; no roof for it:
   counted in j->untimed). */
static void rfl__join_time(rfl_join *j, double *t, const rfl_machine *m, const rfl_work *w) {
    rfl_prediction p;
    if (!m || (rfl_work_flops(w) <= 0 && w->bytes[RFL_DRAM] <= 0)) return;
    if (rfl_predict(m, w, &p) == RFL_OK) *t += p.time_s;
    else j->untimed++;
}

/* Record i into its row's estimate; 0 when it has no row (KIND: no kind). */
static int rfl__join_record(rfl_join *j, const rfl_net *net, int i, const rfl_cost_desc *d,
                            const rfl_machine *m) {
    const rfl_layer *L = &net->layers[i];
    int r = j->by == RFL_GROUP_KIND ? (int)L->kind - 1 : (int)rfl_op_ltype((rfl_op)L->op);
    rfl_join_row *row;
    rfl_layer_cost c;
    rfl_work f, b;
    if (r < 0 || r >= j->count) return 0;
    row = &j->rows[r];
    if (rfl_layer_cost_get(net, i, d, &c) || rfl_layer_work(net, i, d, &f, &b)) {
        j->uncosted++;
        return 1;
    }
    row->layers++;
    row->mac_flops = rfl__llm_sat(row->mac_flops, c.fwd_mac_flops);
    row->fwd_flops += rfl_work_flops(&f);
    row->bytes += f.bytes[RFL_DRAM];
    rfl__join_time(j, &row->fwd_time_s, m, &f);
    if (d && d->mode == RFL_MODE_TRAIN) {
        row->bwd_flops += rfl_work_flops(&b);
        row->bytes += b.bytes[RFL_DRAM];
        rfl__join_time(j, &row->bwd_time_s, m, &b);
    }
    return 1;
}

RFL_API rfl_result rfl_join_compute(rfl_join *j, const rfl_net *net, const rfl_cost_desc *d,
                                    const rfl_machine *m) {
    rfl_join_row *t;
    int i, k;
    if (!j || !net || !net->layers) return RFL_ERR_ARG;
    if (net->err.code) return RFL_ERR_STATE;
    if (j->by == RFL_GROUP_KIND) rfl_llm_classify_finish(&j->cl);
    j->cl.finished = 1;
    t = &j->total;
    RFL_MEMSET(t, 0, sizeof *t);
    t->name = "total";
    j->untimed = j->uncosted = j->warning_count = 0;
    for (k = 0; k < j->count; k++) { /* the estimate anew; the measurement kept */
        rfl_join_row *r = &j->rows[k];
        rfl_llm_kind_meas meas = j->by == RFL_GROUP_KIND ? j->cl.kinds[k] : r->meas;
        const char *name = r->name;
        RFL_MEMSET(r, 0, sizeof *r);
        r->name = name, r->meas = meas;
    }
    for (i = 0; i < net->count; i++) {
        const rfl_layer *L = &net->layers[i];
        if (L->op == RFL_OP_INPUT || L->op == RFL_OP_MARK) continue;
        if (!rfl__join_record(j, net, i, d, m)) return RFL_ERR_ARG;
    }
    for (k = 0; k < j->count; k++) {
        const rfl_join_row *r = &j->rows[k];
        t->layers += r->layers;
        t->mac_flops = rfl__llm_sat(t->mac_flops, r->mac_flops);
        t->fwd_flops += r->fwd_flops, t->bwd_flops += r->bwd_flops, t->bytes += r->bytes;
        t->fwd_time_s += r->fwd_time_s, t->bwd_time_s += r->bwd_time_s;
        if (j->by != RFL_GROUP_KIND) rfl__llm_meas_add(&t->meas, &r->meas);
    }
    if (j->by == RFL_GROUP_KIND) t->meas = j->cl.total;
    if (j->by == RFL_GROUP_KIND && m) rfl__llm_figures(j, m);
    return j->untimed ? RFL_ERR_NO_ROOF : RFL_OK;
}

/* ---- reports ---- */
/* Text into a fixed buffer, cut at its end. */
static void rfl__rep_si(rfl__llm_txt *t, double v, const char *unit) {
    char b[40];
    rfl_fmt_si(b, sizeof b, v, 4);
    rfl__llm_put(t, b);
    rfl__llm_put(t, unit);
}
/* 1234567 -> "1,234,567" */
static void rfl__rep_commas(rfl__llm_txt *t, double v) {
    char d[40], b[2] = {0, 0};
    size_t n = rfl_fmt_num(d, sizeof d, v, 17), i, intlen = n, start = d[0] == '-';
    for (i = 0; i < n; i++) if (d[i] == '.' || d[i] == 'e') { intlen = i; break; }
    for (i = 0; i < n; i++) {
        if (i > start && i < intlen && (intlen - i) % 3 == 0) rfl__llm_put(t, ",");
        b[0] = d[i];
        rfl__llm_put(t, b);
    }
}
static void rfl__rep_u64(rfl__llm_txt *t, uint64_t v) {
    char b[24];
    rfl_fmt_u64(b, sizeof b, v);
    rfl__llm_put(t, b);
}
static rfl__llm_txt rfl__rep_reason(rfl_report_model *rm) {
    rfl__llm_txt t;
    t.buf = rm->reasons[rm->n_reasons++]; t.cap = RFL_REPORT_TEXT; t.len = 0;
    t.buf[0] = 0;
    return t;
}

/* A zoo model's readable title ("ResNet-18"); any other name as it is. */
static const char *rfl__rep_title(const char *name) {
#ifndef RFL_NO_ZOO
    static const char *const known[][2] = {
        {"resnet18", "ResNet-18"}, {"resnet34", "ResNet-34"}, {"resnet50", "ResNet-50"},
        {"resnet101", "ResNet-101"}, {"resnet152", "ResNet-152"}, {"alexnet", "AlexNet"},
        {"vgg11", "VGG-11"}, {"vgg16", "VGG-16"}, {"vgg19", "VGG-19"},
        {"mobilenet_v2", "MobileNetV2"}, {"densenet121", "DenseNet-121"},
        {"efficientnet_b0", "EfficientNet-B0"}, {"vit_b_16", "ViT-B/16"}};
    size_t i;
    for (i = 0; i < sizeof known / sizeof *known; i++)
        if (rfl_parse_name_eq(name, known[i][0])) return known[i][1];
#endif
    return name;
}

RFL_API void rfl_report_init(rfl_report_model *rm, const char *name, rfl_group_by by) {
    rfl__llm_txt d;
    if (!rm) return;
    RFL_MEMSET(rm, 0, sizeof *rm);
    rm->name = name;
    rm->meas_hw = -1;
    d.buf = rm->disp, d.cap = sizeof rm->disp, d.len = 0;
    rfl__llm_put(&d, name ? rfl__rep_title(name) : "");
    rfl_join_init(&rm->join, by, 0);
}

RFL_API rfl_result rfl_report_estimate(rfl_report_model *rm, const rfl_net *net,
                                       const rfl_cost_desc *d, const rfl_machine *const *machines,
                                       int n) {
    rfl_result r;
    int h;
    if (!rm || !net || (n && !machines) || n > RFL_REPORT_MACHINES) return RFL_ERR_ARG;
    if ((r = rfl_net_cost_get(net, d, &rm->cost)) != RFL_OK) return r;
    rm->est = rm->cost.forward;
    if (d && d->mode == RFL_MODE_TRAIN) rfl_work_add(&rm->est, &rm->cost.backward);
    rm->est_prec = rfl_work_main_prec(&rm->est);
    for (h = 0; h < n; h++) rm->pred_err[h] = rfl_net_predict(net, d, machines[h], &rm->pred[h]);
    return RFL_OK;
}

RFL_API double rfl_report_tensor_flops(const rfl_report_model *rm) {
    return rm ? (double)rfl_reduce_tensor_flops(&rm->res.total) : 0;
}
RFL_API double rfl_report_flops_per_s(const rfl_report_model *rm) {
    const rfl_work *w = &rm->res.total.work;
    return w->time_s > 0 ? rfl_work_flops(w) / w->time_s : 0;
}

/* The device_mismatch text of a placed profile ("" when none is due). */
static void rfl__rep_devwarn(rfl_report_model *rm, const rfl_machine *const *machines,
                             const rfl_machine *x, int matched) {
    rfl__llm_txt t;
    const char *dev = rm->res.device;
    t.buf = rm->device_warning; t.cap = sizeof rm->device_warning; t.len = 0;
    t.buf[0] = 0;
    if (!dev[0] || (matched && !rm->dev_added) || (rm->meas_hw >= 0 && !x && !rm->dev_added))
        return; /* agrees; or a device the table lacks, placed where the caller says */
    rfl__llm_put(&t, "measured on '");
    rfl__llm_put(&t, dev);
    rfl__llm_put(&t, "'");
    if (x) rfl__llm_put(&t, " ("), rfl__llm_put(&t, x->id), rfl__llm_put(&t, ")");
    if (rm->dev_added)
        rfl__llm_put(&t, ", which is not among --hw: its machine was added, the measured point "
                         "is on its panel only");
    else if (rm->meas_hw >= 0) {
        rfl__llm_put(&t, ", but placed on the ");
        rfl__llm_put(&t, machines[rm->meas_hw]->name);
        rfl__llm_put(&t, " (--ncu-hw): its % of the roof compares it with another machine's ceilings");
    } else if (x) {
        rfl__llm_put(&t, ", which is not among --hw and could not be added (at most ");
        rfl__rep_u64(&t, RFL_REPORT_MACHINES);
        rfl__llm_put(&t, " machines): the measured point is left off the charts");
    } else
        rfl__llm_put(&t, ", a device the table does not know: the measured point is left off the "
                         "charts (--ncu-hw NAME, or a machine file of it with --hw-file, places it)");
}

RFL_API void rfl_report_place(rfl_report_model *rm, const char *device,
                              const rfl_machine **machines, int *n, int cap,
                              const rfl_machine *forced) {
    const rfl_machine *x = 0;
    rfl__llm_txt d;
    int h, matched = 0, none;
    if (!rm || !machines || !n) return;
    d.buf = rm->res.device, d.cap = sizeof rm->res.device, d.len = 0;
    rfl__llm_put(&d, device ? device : "");
    none = *n == 0;
    rm->meas_hw = -1, rm->dev_added = 0;
    if (forced) {
        for (h = 0; h < *n; h++) if (machines[h] == forced) rm->meas_hw = h;
    } else if (!rm->res.device[0]) {
        rm->meas_hw = *n > 0 ? 0 : -1; /* no device name: the first machine */
    } else {
        rm->meas_hw = rfl_hw_match(rm->res.device, machines, *n, &x);
        if (rm->meas_hw < 0 && x && *n < cap && *n < RFL_REPORT_MACHINES) {
            machines[*n] = x;
            rm->meas_hw = (*n)++;
            rm->dev_added = 1;
        }
    }
    if (rm->res.device[0] && rm->meas_hw >= 0)
        matched = rfl_hw_match(rm->res.device, &machines[rm->meas_hw], 1, &x) == 0;
    else if (rm->res.device[0])
        rfl_hw_match(rm->res.device, machines, 0, &x);
    if (none) rm->dev_added = 0; /* no machine given: its own is the list */
    else rfl__rep_devwarn(rm, (const rfl_machine *const *)machines, x, matched);
    rfl_join_machine(&rm->join, rm->meas_hw >= 0 ? machines[rm->meas_hw] : 0);
}

static int rfl__rep_has_warning(const rfl_report_model *rm, rfl_reduce_warn code) {
    int i;
    for (i = 0; i < rm->res.warning_count; i++) if (rm->res.warnings[i].code == code) return 1;
    return 0;
}

/* A profile of another mode or batch: said first, and then the algorithm
   reasons would only distract. */
static void rfl__rep_mismatch(rfl_report_model *rm, const rfl_cost_desc *d, double meas, double r) {
    double fwd = rfl_work_flops(&rm->cost.forward);
    int train = d && d->mode == RFL_MODE_TRAIN;
    double other = train ? fwd : fwd + rfl_work_flops(&rm->cost.backward);
    double ro = other > 0 ? meas / other : 0, k = r >= 1 ? r : 1 / r;
    double kr = k < 1e18 ? (double)(uint64_t)(k + 0.5) : k, off = k > kr ? k - kr : kr - k;
    rfl__llm_txt t;
    if (ro > 0.8 && ro < 1.25) {
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, "the profile looks like ");
        rfl__llm_put(&t, train ? "a forward pass only" : "a training step");
        rfl__llm_put(&t, " (measured / that estimate = ");
        rfl__llm_put_num(&t, ro, 3);
        rfl__llm_put(&t, "): was it captured with --mode ");
        rfl__llm_put(&t, train ? "infer?" : "train?");
        rm->mismatch = 1;
    } else if (kr >= 2 && off / kr < 0.15) {
        uint64_t b = d && d->batch ? d->batch : 1;
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, r >= 1 ? "measured is about " : "measured is about 1/");
        rfl__llm_put_num(&t, kr, 17);
        if (r >= 1) {
            rfl__llm_put(&t, "x the estimate: a profile of batch ");
            rfl__rep_u64(&t, b * (uint64_t)kr);
            rfl__llm_put(&t, " instead of ");
            rfl__rep_u64(&t, b);
            rfl__llm_put(&t, "?");
        } else
            rfl__llm_put(&t, " of the estimate: a profile of a smaller batch (or a part of the step)?");
        rm->mismatch = 1;
    }
}

/* The tensor cores' part: TF32 allowed while the estimate is FP32, or
   tensor work without counts. Returns 1 when no other reason applies. */
static int rfl__rep_tensor(rfl_report_model *rm, double est, double meas, double ten) {
    const rfl_work *w = &rm->res.total.work;
    rfl_prec mp = rfl_work_main_prec(w);
    rfl__llm_txt t;
    if (ten > 0 && rm->est_prec == RFL_FP32) {
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, "TENSOR CORES: ");
        rfl__rep_si(&t, ten, "FLOP of the ");
        rfl__rep_si(&t, meas, "FLOP measured FLOPs ran on tensor cores (");
        rfl__llm_put(&t, rfl_prec_name(mp));
        rfl__llm_put(&t, (rm->res.flags & RFL_REDUCE_TENSOR_ESTIMATED)
                             ? "), estimated from tensor-pipe instructions"
                             : "), counted from sm__ops_path_tensor_op_*");
        rfl__llm_put(&t, ". PyTorch allows TF32 for cuDNN convolutions by default; the FP32 "
                         "counters (fadd, fmul, ffma) alone see only ");
        rfl__rep_si(&t, w->flops[RFL_FP32], "FLOP (");
        rfl__llm_put_num(&t, est > 0 ? w->flops[RFL_FP32] / est : 0, 3);
        rfl__llm_put(&t, " of the estimate). Such work is placed under the ");
        rfl__llm_put(&t, rfl_prec_name(mp));
        rfl__llm_put(&t, " roof, not the FP32 one.");
    }
    if (rfl__rep_has_warning(rm, RFL_WARN_TENSOR_UNCOUNTED)) {
        /* the count is incomplete: a ratio of it says nothing about batch,
           mode or algorithms, so this is the one reason given */
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, "TENSOR CORES NOT IN THE COUNTERS (see the profile warning): kernels "
                         "that ran on tensor cores (TF32 is PyTorch's cuDNN default on Ampere and "
                         "later) have no FLOP count, so this ratio compares an incomplete count "
                         "and says nothing about batch or mode. Collect the tensor counters "
                         "(README, 'Capture a profile') or set torch.backends.cudnn.allow_tf32 = "
                         "False to compare in FP32.");
        return 1;
    }
    if (rm->res.flags & RFL_REDUCE_TENSOR_ESTIMATED) {
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, "tensor FLOPs are estimated from tensor-pipe instructions (");
        rfl__llm_put_num(&t, rm->res.tensor_flops_per_inst, 4);
        rfl__llm_put(&t, " FLOPs each on average, by each kernel's mma shape): the ratio is as "
                         "good as that estimate (within 1% on the ResNet-18 TF32 capture, 30% "
                         "high on ResNet-50's Hopper kernels). Collect sm__ops_path_tensor_op_* "
                         "for counts.");
    }
    return 0;
}

/* Measured over estimated FLOPs, and the likely reasons when far from 1. */
static void rfl__rep_reasons(rfl_report_model *rm, const rfl_cost_desc *d) {
    const rfl_work *w = &rm->res.total.work;
    double est = rfl_work_flops(&rm->est), meas, ten, r;
    uint64_t tr = rm->join.transforms;
    rfl__llm_txt t;
    if (!rfl_work_known(w, RFL_UNKNOWN_FLOPS(RFL_FP32)) &&
        !rfl_work_known(w, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR))) {
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, "the profile has no FLOP counters: collect smsp__sass_thread_inst_executed_"
                         "op_{fadd,fmul,ffma}_pred_on.sum and the sm__ops_path_tensor_op_* counters");
        return;
    }
    meas = rfl_work_flops(w);
    ten = rfl_report_tensor_flops(rm);
    rm->ratio = r = est > 0 ? meas / est : 0;
    if (rfl__rep_tensor(rm, est, meas, ten) || (r >= 0.8 && r <= 1.25)) return;
    if (ten == 0 || ten < 0.5 * meas) rfl__rep_mismatch(rm, d, meas, r);
    if (rm->mismatch) return;
    if (r < 0.8 && tr) {
        t = rfl__rep_reason(rm);
        rfl__rep_commas(&t, (double)tr);
        rfl__llm_put(&t, " Winograd/FFT kernel launches: these algorithms do fewer multiplications "
                         "than a direct convolution, so counters see fewer FLOPs than the formula");
    }
    if (r > 1.25 && rm->join.by == RFL_GROUP_LTYPE) { /* an LLM step: padded_mma says it */
        t = rfl__rep_reason(rm);
        rfl__llm_put(&t, "the libraries do more arithmetic than the formula: implicit-GEMM tiles "
                         "padded to the tile size");
        if (tr) {
            rfl__llm_put(&t, ", Winograd/FFT transforms (");
            rfl__rep_commas(&t, (double)tr);
            rfl__llm_put(&t, " launches here)");
        }
        rfl__llm_put(&t, ", layout conversions");
        if (d && d->mode == RFL_MODE_TRAIN)
            rfl__llm_put(&t, ", and work the estimate leaves out (loss, optimizer step)");
    }
}

RFL_API rfl_result rfl_report_compare(rfl_report_model *rm, const rfl_net *net,
                                      const rfl_cost_desc *d, const rfl_machine *const *machines) {
    int h;
    if (!rm || !net || !machines) return RFL_ERR_ARG;
    h = rm->file && rm->meas_hw >= 0 ? rm->meas_hw : 0;
    rm->n_reasons = 0, rm->ratio = 0, rm->mismatch = 0;
    if (rm->file) rfl__rep_reasons(rm, d);
    return rfl_join_compute(&rm->join, net, d, machines[h]);
}

RFL_API const char *rfl_report_group_name(const rfl_join *j, int row) {
    static const char *const lt[RFL_LT_COUNT] = {
        "convolution", "matrix product", "normalisation", "elementwise", "pooling",
        "reduction", "embedding", "copy", "other"};
    if (!j || row < 0 || row >= j->count) return "?";
    return j->by == RFL_GROUP_LTYPE ? lt[row] : j->rows[row].name;
}

#ifndef RFL_NO_CHART
/* ---- a report's chart points ---- */
static size_t rfl__rep_prefix(const char *s, const char *p) {
    size_t k = 0;
    while (p[k] && s[k] == p[k]) k++;
    return p[k] ? 0 : k;
}
/* "H100" from "NVIDIA H100 SXM5 80GB", "V100" from "NVIDIA Tesla V100 ...". */
static void rfl__rep_short(const rfl_machine *m, char *b, size_t n) {
    const char *s = m->name;
    size_t k = 0;
    s += rfl__rep_prefix(s, "NVIDIA ");
    s += rfl__rep_prefix(s, "Tesla ");
    while (s[k] && s[k] != ' ' && k + 1 < n) b[k] = s[k], k++;
    b[k] = 0;
}

RFL_API const char *rfl_report_machine_label(const rfl_machine *const *machines, int n,
                                             const rfl_machine *m, char *buf, size_t size) {
    char o[40];
    int g;
    if (!buf || !size) return "";
    rfl__rep_short(m, buf, size);
    for (g = 0; g < n; g++) {
        if (machines[g] == m || rfl_parse_name_eq(machines[g]->id, m->id)) continue;
        rfl__rep_short(machines[g], o, sizeof o);
        if (rfl__ly_streq(o, buf)) {
            rfl__llm_txt t;
            t.buf = buf, t.cap = size, t.len = 0;
            rfl__llm_put(&t, m->id);
            break;
        }
    }
    return buf;
}

static rfl_point *rfl__rep_point(rfl_point *p, const char *label, double ai, double fl, rfl_prec prec) {
    RFL_MEMSET(p, 0, sizeof *p);
    p->label = label, p->ai = ai, p->flops_per_s = fl, p->prec = prec;
    return p;
}

RFL_API int rfl_report_points(rfl_report_model *const *models, int n,
                              const rfl_machine *const *machines, int nh, int h, int panel,
                              rfl_point *pts, int cap) {
    int i, k = 0;
    for (i = 0; i < n && models && pts; i++) {
        rfl_report_model *m = models[i];
        const rfl_work *w = &m->res.total.work;
        rfl_prec mp = rfl_work_main_prec(w);
        double fl = rfl_report_flops_per_s(m);
        rfl_point *p;
        rfl__llm_txt t;
        if (!m->pred_err[h] && m->pred[h].layers_s > 0 && k < cap) {
            t.buf = m->labels[0], t.cap = sizeof m->labels[0], t.len = 0;
            rfl__llm_put(&t, m->disp), rfl__llm_put(&t, " estimate");
            p = rfl__rep_point(&pts[k++], t.buf, rfl_work_ai(&m->est, RFL_DRAM),
                               rfl_work_flops(&m->est) / m->pred[h].layers_s, m->est_prec);
            p->machine = panel, p->estimate = 1, p->link = i + 1;
            p->color = rfl_series_color(i);   /* model i looks alike in every chart: */
            p->marker = rfl_series_marker(i); /* its shape, hollow or filled */
        }
        if (m->file && m->meas_hw == h && fl > 0 && rfl_work_ai(w, RFL_DRAM) > 0 &&
            machines[h]->peak_flops[mp] > 0 && k < cap) {
            char s[40];
            t.buf = m->labels[1], t.cap = sizeof m->labels[1], t.len = 0;
            rfl__llm_put(&t, m->disp), rfl__llm_put(&t, " measured (");
            rfl__llm_put(&t, rfl_report_machine_label(machines, nh, machines[h], s, sizeof s));
            if (mp != m->est_prec) rfl__llm_put(&t, ", "), rfl__llm_put(&t, rfl_prec_name(mp)), rfl__llm_put(&t, " roof");
            rfl__llm_put(&t, ")");
            p = rfl__rep_point(&pts[k++], t.buf, rfl_work_ai(w, RFL_DRAM), fl, mp);
            p->machine = panel, p->link = i + 1;
            p->color = rfl_series_color(i);
            p->marker = rfl_series_marker(i);
        }
    }
    return k;
}

/* A group's colour and marker slot: a layer type looks alike in every
   model's chart (embedding and other share one); an LLM kind its own. */
static int rfl__rep_slot(rfl_group_by by, int row) {
    static const unsigned char lt[RFL_LT_COUNT] = {0, 1, 2, 3, 4, 5, 7, 6, 7};
    return by == RFL_GROUP_KIND ? row : (row >= 0 && row < RFL_LT_COUNT ? lt[row] : 7);
}
static rfl_color rfl__rep_color(rfl_group_by by, int row) {
    static const rfl_color c[8] = {
        RFL_RGB(0, 114, 178), RFL_RGB(213, 94, 0), RFL_RGB(0, 158, 115), RFL_RGB(204, 121, 167),
        RFL_RGB(230, 159, 0), RFL_RGB(86, 180, 233), RFL_RGB(120, 120, 120), RFL_RGB(60, 60, 60)};
    return by == RFL_GROUP_KIND ? rfl_series_color(8 + row) : c[rfl__rep_slot(by, row)];
}

RFL_API int rfl_report_layer_points(const rfl_report_model *rm, const rfl_net *net,
                                    const rfl_cost_desc *d, const rfl_machine *const *machines,
                                    int h, rfl_point *pts, int cap) {
    static rfl_join types; /* names of the layer types (constant) */
    const rfl_join *j = &rm->join;
    const rfl_machine *m = machines[h];
    double total = rm->pred_err[h] ? 0 : rm->pred[h].layers_s, tt = rm->res.total.work.time_s;
    int i, k, n = 0, measured_here = rm->file && rm->meas_hw == h;
    rfl_join_init(&types, RFL_GROUP_LTYPE, 0);
    for (i = 0; net && i < net->count && n < cap; i++) {
        rfl_work f, b;
        rfl_prediction p;
        rfl_point *q;
        double F, B;
        if (rfl_layer_work(net, i, d, &f, &b) != RFL_OK) continue;
        if (d && d->mode == RFL_MODE_TRAIN) rfl_work_add(&f, &b);
        F = rfl_work_flops(&f), B = f.bytes[RFL_DRAM];
        if (!(F > 0) || !(B > 0) || rfl_predict(m, &f, &p) != RFL_OK || !(p.time_s > 0)) continue;
        k = (int)rfl_op_ltype((rfl_op)net->layers[i].op);
        /* one legend entry per type: layers hollow, kernels filled */
        q = rfl__rep_point(&pts[n++], rfl_report_group_name(&types, k), F / B, F / p.time_s,
                           rfl_work_main_prec(&f));
        q->estimate = 1;
        q->weight = total > 0 ? p.time_s / total : 0;
        q->color = rfl__rep_color(RFL_GROUP_LTYPE, k);
        q->marker = rfl_series_marker(rfl__rep_slot(RFL_GROUP_LTYPE, k));
    }
    for (k = 0; measured_here && k < j->count && n < cap; k++) {
        const rfl_work *w = &j->rows[k].meas.work;
        double F = rfl_work_flops(w), B = w->bytes[RFL_DRAM];
        rfl_point *q;
        if (!(F > 0) || !(B > 0) || !(w->time_s > 0) || !(m->peak_flops[rfl_work_main_prec(w)] > 0)) continue;
        q = rfl__rep_point(&pts[n++], rfl_report_group_name(j, k), F / B, F / w->time_s,
                           rfl_work_main_prec(w));
        /* half-precision SASS in an FP32 run is index arithmetic (HFMA2
           tricks of the compiler), not the model's math: FP32 roof */
        if (q->prec == RFL_FP16 && rm->est_prec == RFL_FP32) q->prec = RFL_FP32;
        q->weight = tt > 0 ? w->time_s / tt : 0;
        q->color = rfl__rep_color(j->by, k);
        q->marker = rfl_series_marker(rfl__rep_slot(j->by, k));
    }
    return n;
}

/* The whole step under d at batch b on m as a point (rfl_net_predict's
   per-record time); 0 when it has no cost or no time there. */
static int rfl__rep_step_point(const rfl_net *net, const rfl_cost_desc *d, uint64_t b,
                               const rfl_machine *m, rfl_point *p) {
    rfl_cost_desc cd = *d;
    rfl_net_cost c;
    rfl_net_prediction pr;
    rfl_work w;
    cd.batch = b;
    if (rfl_net_cost_get(net, &cd, &c) != RFL_OK || rfl_net_predict(net, &cd, m, &pr) != RFL_OK ||
        c.unknown_layers || !(pr.layers_s > 0))
        return 0;
    w = c.forward;
    if (d->mode == RFL_MODE_TRAIN) rfl_work_add(&w, &c.backward);
    if (!(w.bytes[RFL_DRAM] > 0)) return 0;
    rfl__rep_point(p, 0, rfl_work_ai(&w, RFL_DRAM), rfl_work_flops(&w) / pr.layers_s,
                   rfl_work_main_prec(&w));
    return 1;
}

RFL_API int rfl_report_llm_points(const rfl_report_model *rm, const rfl_net *net,
                                  const rfl_cost_desc *d, const rfl_machine *const *machines,
                                  int h, int decode, rfl_point *pts, int cap) {
    static const uint64_t batches[4] = {1, 16, 64, 256};
    static rfl_group_cost g[RFL_JOIN_ROWS];
    const rfl_join *j = &rm->join;
    const rfl_machine *m = machines[h];
    double total = rm->pred_err[h] ? 0 : rm->pred[h].layers_s, B = (double)j->total.meas.dram_bytes;
    int i, k, n = 0, ng;
    if (!rm || !net || !d || !pts) return 0;
    for (i = 0; i < (decode ? 4 : 1) && n < cap; i++)
        if (rfl__rep_step_point(net, d, decode ? batches[i] : d->batch, m, &pts[n])) {
            pts[n].label = decode ? "step estimate, batch 1, 16, 64, 256" : "step estimate";
            pts[n].estimate = 1, pts[n].link = 1, pts[n].weight = 0.15 * (i + 1);
            pts[n++].color = RFL_RGB(40, 40, 40);
        }
    ng = rfl_net_group(net, d, RFL_GROUP_KIND, m, g, RFL_JOIN_ROWS);
    for (k = 0; k < ng && k < RFL_JOIN_ROWS && n < cap; k++) {
        double F = rfl_work_flops(&g[k].forward), Bk = g[k].forward.bytes[RFL_DRAM];
        int row = 0; /* the join's row of the same name: one colour and marker a kind */
        while (row < j->count && !rfl__ly_streq(rfl_report_group_name(j, row), g[k].name)) row++;
        if (!(F > 0) || !(Bk > 0) || !(g[k].time_s > 0)) continue;
        rfl__rep_point(&pts[n], g[k].name, F / Bk, F / g[k].time_s,
                       rfl_work_main_prec(&g[k].forward));
        pts[n].estimate = 1, pts[n].weight = total > 0 ? g[k].time_s / total : 0;
        pts[n].color = rfl__rep_color(j->by, row);
        pts[n++].marker = rfl_series_marker(rfl__rep_slot(j->by, row));
    }
    if (!rm->file || rm->meas_hw != h) return n;
    for (k = 0; k < j->count && n < cap; k++) { /* the kernels of each kind */
        const rfl_work *w = &j->rows[k].meas.work;
        double F = rfl_work_flops(w), Bk = w->bytes[RFL_DRAM];
        if (!(F > 0) || !(Bk > 0) || !(w->time_s > 0) || !(m->peak_flops[rfl_work_main_prec(w)] > 0)) continue;
        rfl__rep_point(&pts[n], rfl_report_group_name(j, k), F / Bk, F / w->time_s, rfl_work_main_prec(w));
        pts[n].color = rfl__rep_color(j->by, k);
        pts[n++].marker = rfl_series_marker(rfl__rep_slot(j->by, k));
    }
    if (j->kernel_time_s > 0 && B > 0 && n + 2 <= cap) { /* executed and useful FLOPs, same bytes */
        double x = rfl_work_flops(&j->total.meas.work);
        rfl_prec p = rfl_work_main_prec(&j->total.meas.work);
        rfl__rep_point(&pts[n], "step measured, executed FLOPs", x / B, x / j->kernel_time_s, p);
        pts[n].link = 2, pts[n].marker = RFL_MARKER_TRIANGLE, pts[n++].color = RFL_RGB(120, 0, 0);
        rfl__rep_point(&pts[n], "step measured, useful FLOPs", j->useful_flops / B,
                       j->useful_flops / j->kernel_time_s, p);
        pts[n].link = 2, pts[n].marker = RFL_MARKER_SQUARE, pts[n++].color = RFL_RGB(200, 0, 0);
    }
    return n;
}

#define RFL__BATCHES 9 /* 1, 2, 4 ... 256 */
/* One panel of the batch chart: which 0 the step time (ms), 1 tokens/s. */
static void rfl__rep_batch_panel(rfl_canvas *cv, const char *name, const rfl_net *net,
                                 const rfl_cost_desc *d, const rfl_machine *const *ms, int nh,
                                 const uint64_t *bound, int which) {
    static rfl_xy pts[RFL_REPORT_MACHINES * (RFL__BATCHES + 1)];
    char title[160];
    rfl__llm_txt t;
    rfl_scatter_desc s;
    rfl_net_prediction p;
    rfl_cost_desc cd = *d;
    int h, i, n = 0;
    for (i = 0; i <= RFL__BATCHES; i++) /* i == RFL__BATCHES: the diamonds, last in the legend */
        for (h = 0; h < nh; h++) {
            rfl_xy *q = &pts[n];
            cd.batch = i < RFL__BATCHES ? (uint64_t)1 << i : bound[h];
            if (!cd.batch || cd.batch > 256 || rfl_net_predict(net, &cd, ms[h], &p) != RFL_OK ||
                !(p.layers_s > 0))
                continue;
            RFL_MEMSET(q, 0, sizeof *q);
            q->label = i < RFL__BATCHES ? ms[h]->id : "weight GEMMs turn compute-bound";
            q->x = (double)cd.batch;
            q->y = which ? (double)cd.batch / p.layers_s : p.layers_s * 1e3;
            if (i < RFL__BATCHES) q->link = h + 1;
            else q->marker = RFL_MARKER_DIAMOND, q->color = RFL_RGB(0, 0, 0), q->hollow = 1, q->weight = 0.3;
            n++;
        }
    t.buf = title, t.cap = sizeof title, t.len = 0;
    rfl__llm_put(&t, name), rfl__llm_put(&t, ", "), rfl__llm_put(&t, rfl_dtype_name(d->dtype));
    rfl__llm_put(&t, which ? ": tokens/s" : ": step time");
    RFL_MEMSET(&s, 0, sizeof s);
    s.title = title;
    s.x_title = "Batch (sequences decoding together)";
    s.y_title = which ? "Tokens per second (tokens/s)" : "Decode step time (ms)";
    s.points = pts, s.n_points = n;
    s.x_scale = s.y_scale = RFL_SCALE_LOG;
    s.x_ticks = RFL_TICKS_PLAIN, s.y_ticks = which ? RFL_TICKS_SI : RFL_TICKS_PLAIN;
    s.x_min = 0.7, s.x_max = 370;
    s.legend = which ? RFL_LEGEND_BOTTOM_RIGHT : RFL_LEGEND_TOP_LEFT;
    rfl_chart_scatter(cv, &s);
}

RFL_API rfl_result rfl_report_batch_chart(rfl_canvas *cv, const char *name, const rfl_net *net,
                                          const rfl_cost_desc *d,
                                          const rfl_machine *const *machines, int nh) {
    uint64_t bound[RFL_REPORT_MACHINES];
    char note[400], num[32];
    rfl__llm_txt t;
    rfl_canvas half;
    int h, W, ph;
    if (!cv || !cv->pixels || !name || !net || !d || !machines || nh < 1 || nh > RFL_REPORT_MACHINES)
        return RFL_ERR_ARG;
    W = cv->width, ph = cv->height - 70; /* the panels; the footnote below */
    for (h = 0; h < nh; h++)
        if (rfl_net_compute_bound_batch(net, d, machines[h], 1, 65536, &bound[h]) != RFL_OK) bound[h] = 0;
    rfl_canvas_clear(cv, RFL_RGB(255, 255, 255));
    for (h = 0; h < 2; h++) { /* each panel on a sub-canvas over the same pixels */
        rfl_canvas_init(&half, cv->pixels + (size_t)(h * (W / 2) * cv->channels),
                        (size_t)cv->stride_bytes * (size_t)(ph - 1) + (size_t)(W / 2) * (size_t)cv->channels,
                        W / 2, ph, cv->channels, cv->stride_bytes);
        rfl__rep_batch_panel(&half, name, net, d, machines, nh, bound, h);
    }
    rfl_draw_text(cv, W / 2, ph + 20, "Diamonds: the batch at which the weight GEMMs turn "
                  "compute-bound (estimates at the roof):", 2, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE,
                  RFL_RGB(40, 40, 40));
    t.buf = note, t.cap = sizeof note, t.len = 0;
    note[0] = 0;
    for (h = 0; h < nh; h++) { /* only a drawn diamond is named bare */
        rfl_fmt_u64(num, sizeof num, bound[h]);
        rfl__llm_put(&t, h ? ",  " : ""), rfl__llm_put(&t, machines[h]->id), rfl__llm_put(&t, " ");
        rfl__llm_put(&t, bound[h] ? num : "none up to 65536");
        rfl__llm_put(&t, bound[h] > 256 ? " (past 256, not drawn)" : bound[h] ? "" : " (not drawn)");
    }
    rfl_draw_text(cv, W / 2, ph + 50, note, 2, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL_RGB(40, 40, 40));
    return RFL_OK;
}

RFL_API void rfl_report_legend(rfl_canvas *cv, double cx, double y, const char *const *names,
                               const rfl_color *colors, int n, int scale) {
    int i, w = 0;
    double x;
    for (i = 0; i < n; i++) w += 7 * RFL_FONT_W * scale + rfl_text_width(names[i], -1, scale);
    x = cx - w / 2.0;
    for (i = 0; i < n; i++) {
        rfl_fill_rect(cv, x, y - RFL_FONT_W * scale, 2 * RFL_FONT_W * scale, 2 * RFL_FONT_W * scale, colors[i]);
        x += 3 * RFL_FONT_W * scale;
        x += rfl_draw_text(cv, x, y, names[i], scale, RFL_TEXT_LEFT | RFL_TEXT_MIDDLE, RFL_RGB(0, 0, 0));
        x += 4 * RFL_FONT_W * scale;
    }
}
#endif /* RFL_NO_CHART */

#ifndef RFL_NO_JSON_WRITER
/* FLOPs by precision; null where the profile did not count them. */
static void rfl__rep_json_flops(rfl_json_writer *w, const rfl_work *x, double tensor) {
    int p, any = 0;
    for (p = 0; p < RFL_PREC_COUNT; p++) any |= rfl_work_known(x, RFL_UNKNOWN_FLOPS(p));
    rfl_json_w_obj(w, "flops");
    rfl_json_w_num_if(w, "fp64", rfl_work_known(x, RFL_UNKNOWN_FLOPS(RFL_FP64)), x->flops[RFL_FP64]);
    rfl_json_w_num_if(w, "fp32", rfl_work_known(x, RFL_UNKNOWN_FLOPS(RFL_FP32)), x->flops[RFL_FP32]);
    rfl_json_w_num_if(w, "fp16", rfl_work_known(x, RFL_UNKNOWN_FLOPS(RFL_FP16)), x->flops[RFL_FP16]);
    rfl_json_w_num_if(w, "tensor", rfl_work_known(x, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR)), tensor);
    rfl_json_w_num_if(w, "total", any, rfl_work_flops(x));
    rfl_json_w_end(w);
}

/* bytes or AI per level; null where the work does not know it (known 0:
   some FLOPs unknown, so no AI) */
static void rfl__rep_json_levels(rfl_json_writer *w, const char *key, const rfl_work *x, int ai,
                                 int known) {
    static const char *const names[] = {"dram", "l2", "l1"};
    int k;
    rfl_json_w_obj(w, key);
    for (k = 0; k < 3; k++)
        rfl_json_w_num_if(w, names[k], known && rfl_work_known(x, RFL_UNKNOWN_BYTES(k)),
                          ai ? rfl_work_ai(x, (rfl_level)k) : x->bytes[k]);
    rfl_json_w_end(w);
}

static void rfl__rep_json_estimate(rfl_json_writer *w, const rfl_report_model *m, int train) {
    int known = !m->cost.unknown_layers; /* else the FLOPs are a lower bound: null */
    double mac = (double)m->cost.fwd_mac_flops + (train ? (double)m->cost.bwd_mac_flops : 0);
    rfl_json_w_obj(w, "estimate");
    rfl_json_w_num_if(w, "flops", known, rfl_work_flops(&m->est));
    rfl_json_w_num_if(w, "forward_flops", known, rfl_work_flops(&m->cost.forward));
    rfl_json_w_num_if(w, "backward_flops", known, train ? rfl_work_flops(&m->cost.backward) : 0);
    rfl_json_w_num_if(w, "mac_flops", known, mac);
    if (!known) {
        rfl_json_w_num(w, "flops_known", rfl_work_flops(&m->est));
        rfl_json_w_num(w, "mac_flops_known", mac);
        rfl_json_w_num(w, "unknown_layers", m->cost.unknown_layers);
    }
    rfl_json_w_num(w, "bytes", m->est.bytes[RFL_DRAM]);
    rfl__rep_json_levels(w, "ai", &m->est, 1, known); /* an object, as every ai */
    rfl_json_w_str(w, "prec", rfl_prec_name(m->est_prec));
    rfl_json_w_end(w);
}

static void rfl__rep_json_profile(rfl_json_writer *w, const rfl_report_model *m,
                                  const rfl_machine *const *hw) {
    const rfl_work *x = &m->res.total.work;
    double fl = rfl_report_flops_per_s(m);
    int k;
    if (!m->file) { rfl_json_w_null(w, "profile"); return; }
    rfl_json_w_obj(w, "profile");
    rfl_json_w_str(w, "file", m->file);
    rfl_json_w_str(w, "device", m->res.device[0] ? m->res.device : 0);
    rfl_json_w_str(w, "machine", m->meas_hw >= 0 ? hw[m->meas_hw]->id : 0);
    rfl_json_w_str(w, "device_warning", m->device_warning[0] ? RFL_HW_DEVICE_MISMATCH : 0);
    rfl_json_w_str(w, "device_warning_text", m->device_warning[0] ? m->device_warning : 0);
    rfl_json_w_num(w, "kernels", (double)m->res.kernels);
    rfl_json_w_num_if(w, "time_s", x->time_s > 0, x->time_s);
    rfl__rep_json_flops(w, x, rfl_report_tensor_flops(m));
    rfl__rep_json_levels(w, "bytes", x, 0, 1);
    rfl__rep_json_levels(w, "ai", x, 1, 1);
    rfl_json_w_num_if(w, "flops_per_s", fl > 0, fl);
    rfl_json_w_str(w, "prec", rfl_prec_name(rfl_work_main_prec(x)));
    rfl_json_w_num(w, "tensor_inst", (double)m->res.total.tensor_inst);
    rfl_json_w_arr(w, "warnings");
    for (k = 0; k < m->res.warning_count; k++) rfl_json_w_str(w, 0, m->res.warnings[k].text);
    rfl_json_w_end(w);
    rfl_json_w_end(w);
}

/* The model on each machine: roof, bound, predicted and measured time. */
static void rfl__rep_json_machines(rfl_json_writer *w, const rfl_report_model *m,
                                   const rfl_report *rep) {
    const rfl_work *x = &m->res.total.work;
    int h, unk = m->cost.unknown_layers != 0;
    rfl_json_w_arr(w, "machines");
    for (h = 0; h < rep->n_machines; h++) {
        const rfl_machine *mc = rep->machines[h];
        rfl_bound b;
        double a = rfl_work_attainable(mc, &m->est, m->est_prec, &b);
        int here = m->file && m->meas_hw == h, ok = !m->pred_err[h];
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "hw", mc->id);
        rfl_json_w_num_if(w, "attainable_flops_per_s", a > 0 && !unk, a);
        if (unk) { /* some FLOPs unknown: the known part's figures */
            rfl_json_w_null(w, "bound");
            rfl_json_w_null(w, "predicted_time_s");
            rfl_json_w_null(w, "predicted_whole_time_s");
            rfl_json_w_num_if(w, "predicted_time_known_s", ok, m->pred[h].layers_s);
        } else {
            rfl_json_w_str(w, "bound", a > 0 ? (b.memory ? "memory" : "compute") : 0);
            rfl_json_w_num_if(w, "predicted_time_s", ok, m->pred[h].layers_s);
            rfl_json_w_num_if(w, "predicted_whole_time_s", ok, m->pred[h].whole.time_s);
        }
        rfl_json_w_bool(w, "measured_here", here);
        if (here) {
            double am = rfl_work_attainable(mc, x, rfl_work_main_prec(x), 0);
            double fl = rfl_report_flops_per_s(m);
            rfl_json_w_num_if(w, "measured_time_s", x->time_s > 0, x->time_s);
            rfl_json_w_num_if(w, "measured_attainable_flops_per_s", am > 0, am);
            rfl_json_w_num_if(w, "roof_fraction", am > 0 && fl > 0, fl / am);
        }
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
}

/* Estimate and measurement by group (on the measured machine). */
static void rfl__rep_json_groups(rfl_json_writer *w, const rfl_report_model *m,
                                 const rfl_report *rep) {
    const rfl_join *j = &m->join;
    int k, here = m->file != 0, h = m->file && m->meas_hw >= 0 ? m->meas_hw : 0;
    rfl_json_w_arr(w, "by_type");
    for (k = 0; k < j->count; k++) {
        const rfl_join_row *r = &j->rows[k];
        if (!r->layers && !r->meas.kernels) continue;
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "type", rfl_report_group_name(j, k));
        rfl_json_w_num(w, "layers", r->layers);
        rfl_json_w_num(w, "forward_flops", r->fwd_flops);
        rfl_json_w_num(w, "backward_flops", r->bwd_flops);
        rfl_json_w_num(w, "bytes", r->bytes);
        rfl_json_w_str(w, "predicted_on", rep->machines[h]->id);
        rfl_json_w_num(w, "predicted_time_s", r->fwd_time_s + r->bwd_time_s);
        rfl_json_w_num_if(w, "kernels", here, (double)r->meas.kernels);
        rfl_json_w_num_if(w, "measured_flops", here, rfl_work_flops(&r->meas.work));
        rfl_json_w_num_if(w, "measured_dram_bytes", here, r->meas.work.bytes[RFL_DRAM]);
        rfl_json_w_num_if(w, "measured_time_s", here, r->meas.work.time_s);
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
}

/* An LLM step against its profile: the join's figures and warnings. */
static void rfl__rep_json_step(rfl_json_writer *w, const rfl_report_model *m) {
    const rfl_join *j = &m->join;
    int k, t = j->kernel_time_s > 0;
    if (j->by != RFL_GROUP_KIND || !m->file) return;
    rfl_json_w_obj(w, "step");
    rfl_json_w_num(w, "useful_flops", j->useful_flops);
    rfl_json_w_num_if(w, "executed_tensor_flops", j->total.meas.tensor_flops != 0, j->executed_tensor_flops);
    rfl_json_w_num_if(w, "useful_per_executed", j->useful_per_executed > 0, j->useful_per_executed);
    rfl_json_w_num_if(w, "kernel_time_s", t, j->kernel_time_s);
    rfl_json_w_num(w, "roof_time_s", j->roof_time_s);
    rfl_json_w_num(w, "bytes_time_s", j->bytes_time_s);
    rfl_json_w_num_if(w, "gap", t && j->gap > 0, j->gap);
    rfl_json_w_num_if(w, "tiny_share", t, j->tiny_share);
    rfl_json_w_arr(w, "warnings");
    for (k = 0; k < j->warning_count; k++) {
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "code", rfl_llm_warn_code(j->warnings[k].code));
        rfl_json_w_str(w, "text", j->warnings[k].text);
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
    rfl_json_w_end(w);
}

RFL_API void rfl_report_json(rfl_json_writer *w, const rfl_report *rep) {
    rfl_prec p;
    int i, h, train;
    if (!w || !rep || !rep->d || rep->n_models < 1) return;
    train = rep->d->mode == RFL_MODE_TRAIN;
    p = rep->models[0]->est_prec;
    rfl_json_w_obj(w, 0);
    rfl_json_w_num(w, "batch", (double)(rep->d->batch ? rep->d->batch : 1));
    rfl_json_w_str(w, "mode", train ? "train" : "infer");
    rfl_json_w_str(w, "dtype", rfl_dtype_name(rep->d->dtype));
    rfl_json_w_arr(w, "machines");
    for (h = 0; h < rep->n_machines; h++) {
        const rfl_machine *mc = rep->machines[h];
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "id", mc->id);
        rfl_json_w_str(w, "name", mc->name);
        rfl_json_w_str(w, "prec", rfl_prec_name(p));
        rfl_json_w_num(w, "peak_flops_per_s", mc->peak_flops[p]);
        rfl_json_w_num(w, "bw_bytes_per_s", mc->bw_bytes_per_s[RFL_DRAM]);
        rfl_json_w_num(w, "ridge", rfl_ridge(mc, p, RFL_DRAM));
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
    rfl_json_w_arr(w, "models");
    for (i = 0; i < rep->n_models; i++) {
        const rfl_report_model *m = rep->models[i];
        int k;
        rfl_json_w_obj(w, 0);
        rfl_json_w_str(w, "model", m->name);
        rfl__rep_json_estimate(w, m, train);
        rfl__rep_json_profile(w, m, rep->machines);
        rfl_json_w_num_if(w, "flops_ratio", m->ratio > 0, m->ratio);
        rfl_json_w_arr(w, "ratio_reasons");
        for (k = 0; k < m->n_reasons; k++) rfl_json_w_str(w, 0, m->reasons[k]);
        rfl_json_w_end(w);
        rfl__rep_json_machines(w, m, rep);
        rfl__rep_json_groups(w, m, rep);
        rfl__rep_json_step(w, m);
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
    if (rep->n_charts >= 0) {
        rfl_json_w_arr(w, "charts");
        for (i = 0; i < rep->n_charts; i++) rfl_json_w_str(w, 0, rep->charts[i]);
        rfl_json_w_end(w);
    }
    rfl_json_w_end(w);
}
#endif /* RFL_NO_JSON_WRITER */
#endif /* !RFL_NO_LLM && !RFL_NO_REDUCE */


/* ==========================================================================
   [12] CHART
   canvas, font, axes, roofline / bar / scatter / text charts (RFL_NO_CHART)
   ========================================================================== */
#ifndef RFL_NO_CHART

/* libm through overridable macros (the chart needs log10/pow/sqrt; the
   core does not). */
#ifndef RFL_SQRT
#include <math.h>
#define RFL_SQRT(x) sqrt(x)
#endif
#ifndef RFL_LOG10
#include <math.h>
#define RFL_LOG10(x) log10(x)
#endif
#ifndef RFL_POW
#include <math.h>
#define RFL_POW(x, y) pow(x, y)
#endif
#ifndef RFL_FLOOR
#include <math.h>
#define RFL_FLOOR(x) floor(x)
#endif
#ifndef RFL_CEIL
#include <math.h>
#define RFL_CEIL(x) ceil(x)
#endif

#define RFL__BIG 1e7 /* coordinates beyond this are clamped or skipped */

static RFL__UNUSED double rfl__clampd(double v, double lo, double hi) {
    return v < lo ? lo : v > hi ? hi : v;
}
/* floor to int for values already clamped into int range */
static RFL__UNUSED int rfl__ifloor(double v) {
    int i = (int)v;
    return (v < (double)i) ? i - 1 : i;
}
/* a safe double -> int: NaN -> lo, clamped to [lo, hi] */
static RFL__UNUSED int rfl__iclamp(double v, int lo, int hi) {
    if (!(v == v) || v <= (double)lo) return lo;
    if (v >= (double)hi) return hi;
    return rfl__ifloor(v);
}
static RFL__UNUSED double rfl__absd(double v) { return v < 0 ? -v : v; }
/* Widen [*lo, *hi] to take in vlo and vhi. */
static RFL__UNUSED void rfl__widen(double *lo, double *hi, double vlo, double vhi) {
    if (vlo < *lo) *lo = vlo;
    if (vhi > *hi) *hi = vhi;
}
static RFL__UNUSED int rfl__imin(int a, int b) { return a < b ? a : b; }
static RFL__UNUSED int rfl__imax(int a, int b) { return a > b ? a : b; }

/* ---- canvas -------------------------------------------------------------- */
RFL_API rfl_result rfl_canvas_init(rfl_canvas *c, void *pixels, size_t size_bytes, int w,
                                   int h, int channels, int stride_bytes) {
    size_t need;
    if (!c) return RFL_ERR_ARG;
    RFL_MEMSET(c, 0, sizeof *c);
    if (channels == 0) channels = 3;
    if (w < 0 || h < 0 || w > RFL_CANVAS_MAX_SIDE || h > RFL_CANVAS_MAX_SIDE) return RFL_ERR_ARG;
    if (channels != 3 && channels != 4) return RFL_ERR_ARG;
    if (stride_bytes == 0) stride_bytes = w * channels;
    if (stride_bytes < w * channels) return RFL_ERR_ARG;
    if (w > 0 && h > 0) {
        if (!pixels) return RFL_ERR_ARG;
        need = (size_t)stride_bytes * (size_t)(h - 1) + (size_t)w * (size_t)channels;
        if (size_bytes < need) return RFL_ERR_BUFFER;
    }
    c->pixels = (unsigned char *)pixels;
    c->width = w;
    c->height = h;
    c->channels = channels;
    c->stride_bytes = stride_bytes;
    c->clip_x1 = w;
    c->clip_y1 = h;
    return RFL_OK;
}

RFL_API void rfl_canvas_clip(rfl_canvas *c, int x0, int y0, int x1, int y1) {
    if (!c) return;
    c->clip_x0 = rfl__imin(rfl__imax(x0, 0), c->width);
    c->clip_y0 = rfl__imin(rfl__imax(y0, 0), c->height);
    c->clip_x1 = rfl__imin(rfl__imax(x1, c->clip_x0), c->width);
    c->clip_y1 = rfl__imin(rfl__imax(y1, c->clip_y0), c->height);
}

RFL_API void rfl_canvas_unclip(rfl_canvas *c) {
    if (c) rfl_canvas_clip(c, 0, 0, c->width, c->height);
}

/* true when the canvas can be drawn on at all (defends against a canvas
   struct filled in by hand with a clip outside the buffer) */
static int rfl__canvas_ok(const rfl_canvas *c) {
    return c && c->pixels && c->width > 0 && c->height > 0 &&
           (c->channels == 3 || c->channels == 4) && c->stride_bytes >= c->width * c->channels &&
           c->clip_x0 >= 0 && c->clip_y0 >= 0 && c->clip_x1 <= c->width &&
           c->clip_y1 <= c->height && c->clip_x0 < c->clip_x1 && c->clip_y0 < c->clip_y1;
}

RFL_API void rfl_canvas_clear(rfl_canvas *c, rfl_color color) {
    int x, y;
    unsigned char r = (unsigned char)(color >> 16), g = (unsigned char)(color >> 8),
                  b = (unsigned char)color, a = (unsigned char)(color >> 24);
    if (!rfl__canvas_ok(c)) return;
    for (y = c->clip_y0; y < c->clip_y1; y++) {
        unsigned char *p = c->pixels + (size_t)y * (size_t)c->stride_bytes +
                           (size_t)c->clip_x0 * (size_t)c->channels;
        if (r == g && g == b && (c->channels == 3 || a == r)) { /* grey: one fill */
            RFL_MEMSET(p, r, (size_t)(c->clip_x1 - c->clip_x0) * (size_t)c->channels);
            continue;
        }
        for (x = c->clip_x0; x < c->clip_x1; x++) {
            p[0] = r; p[1] = g; p[2] = b;
            if (c->channels == 4) p[3] = a;
            p += c->channels;
        }
    }
}

/* Blend `color` with weight a (0..256, coverage x alpha) into one pixel. */
static void rfl__blend_at(unsigned char *p, int ch, rfl_color color, int a) {
    int r = (int)((color >> 16) & 255), g = (int)((color >> 8) & 255), b = (int)(color & 255);
    if (a <= 0) return;
    if (a >= 256) {
        p[0] = (unsigned char)r; p[1] = (unsigned char)g; p[2] = (unsigned char)b;
        if (ch == 4) p[3] = 255;
        return;
    }
    if (ch == 3) {
        p[0] = (unsigned char)(p[0] + (((r - p[0]) * a) >> 8));
        p[1] = (unsigned char)(p[1] + (((g - p[1]) * a) >> 8));
        p[2] = (unsigned char)(p[2] + (((b - p[2]) * a) >> 8));
    } else {
        /* straight alpha "over": out_a = a + da (1 - a) */
        int da = p[3] * (256 - a) >> 8, oa = a + da;
        if (oa <= 0) return;
        p[0] = (unsigned char)((r * a + p[0] * da) / oa);
        p[1] = (unsigned char)((g * a + p[1] * da) / oa);
        p[2] = (unsigned char)((b * a + p[2] * da) / oa);
        p[3] = (unsigned char)(oa >= 256 ? 255 : oa);
    }
}

/* weight 0..256 from a coverage 0..1 and the colour's alpha */
static int rfl__weight(rfl_color color, double cov) {
    double a = (double)((color >> 24) & 255) * (256.0 / 255.0) * cov;
    if (!(a > 0)) return 0;
    return a >= 256 ? 256 : (int)(a + 0.5);
}

/* One pixel, coordinates checked against the clip. */
static void rfl__plot(rfl_canvas *c, int x, int y, rfl_color color, double cov) {
    if (x < c->clip_x0 || x >= c->clip_x1 || y < c->clip_y0 || y >= c->clip_y1) return;
    rfl__blend_at(c->pixels + (size_t)y * (size_t)c->stride_bytes + (size_t)x * (size_t)c->channels,
                  c->channels, color, rfl__weight(color, cov));
}

/* A horizontal run [x0, x1) on row y with one weight (clipped). Opaque
   runs (the grid, text, bars) are plain stores. */
static void rfl__hspan(rfl_canvas *c, int y, int x0, int x1, rfl_color color, int a) {
    unsigned char *p, r = (unsigned char)(color >> 16), g = (unsigned char)(color >> 8),
                      b = (unsigned char)color;
    if (y < c->clip_y0 || y >= c->clip_y1 || a <= 0) return;
    if (x0 < c->clip_x0) x0 = c->clip_x0;
    if (x1 > c->clip_x1) x1 = c->clip_x1;
    if (x0 >= x1) return;
    p = c->pixels + (size_t)y * (size_t)c->stride_bytes + (size_t)x0 * (size_t)c->channels;
    if (a >= 256) {
        if (c->channels == 3)
            for (; x0 < x1; x0++, p += 3) { p[0] = r; p[1] = g; p[2] = b; }
        else
            for (; x0 < x1; x0++, p += 4) { p[0] = r; p[1] = g; p[2] = b; p[3] = 255; }
        return;
    }
    for (; x0 < x1; x0++, p += c->channels) rfl__blend_at(p, c->channels, color, a);
}

/* ---- lines ------------------------------------------------------------------
   A segment is a capsule: every pixel whose centre lies within width/2 of the
   segment, with a one-pixel linear ramp for anti-aliasing. Each row only
   visits the x range the capsule can reach, so long diagonals stay cheap. */
static int rfl__finite4(double a, double b, double c2, double d) {
    return rfl__isfinite(a) && rfl__isfinite(b) && rfl__isfinite(c2) && rfl__isfinite(d);
}
/* Beyond any sensible drawing (1e150 px): skipped, which avoids overflow. */
static int rfl__far4(double a, double b, double c2, double d) {
    return rfl__absd(a) > 1e150 || rfl__absd(b) > 1e150 || rfl__absd(c2) > 1e150 ||
           rfl__absd(d) > 1e150;
}

/* Liang-Barsky: clip the segment to the rectangle; 0 when outside. */
static int rfl__clip_seg(double *x0, double *y0, double *x1, double *y1, double rx0, double ry0,
                         double rx1, double ry1) {
    double t0 = 0, t1 = 1, dx = *x1 - *x0, dy = *y1 - *y0;
    double p[4], q[4];
    int i;
    p[0] = -dx; q[0] = *x0 - rx0;
    p[1] = dx;  q[1] = rx1 - *x0;
    p[2] = -dy; q[2] = *y0 - ry0;
    p[3] = dy;  q[3] = ry1 - *y0;
    for (i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) return 0;
        } else {
            double t = q[i] / p[i];
            if (p[i] < 0) { if (t > t1) return 0; if (t > t0) t0 = t; }
            else { if (t < t0) return 0; if (t < t1) t1 = t; }
        }
    }
    *x1 = *x0 + t1 * dx; *y1 = *y0 + t1 * dy;
    *x0 = *x0 + t0 * dx; *y0 = *y0 + t0 * dy;
    return 1;
}

static void rfl__capsule(rfl_canvas *c, double x0, double y0, double x1, double y1, double hw,
                         rfl_color color) {
    double dx, dy, l2, r = hw + 1.0, scale = 1.0;
    int ya, yb, py;
    if (!rfl__canvas_ok(c) || !rfl__finite4(x0, y0, x1, y1) || rfl__far4(x0, y0, x1, y1))
        return;
    if (hw < 0.5) { scale = hw * 2; hw = 0.5; r = 1.5; } /* thin: fainter, not thinner */
    if (!(hw <= RFL__BIG)) return;
    if (hw > 500) { hw = 500; r = 501; } /* widths beyond 1000 px are clamped */
    if (!rfl__clip_seg(&x0, &y0, &x1, &y1, c->clip_x0 - r - 1, c->clip_y0 - r - 1,
                       c->clip_x1 + r + 1, c->clip_y1 + r + 1))
        return;
    dx = x1 - x0;
    dy = y1 - y0;
    l2 = dx * dx + dy * dy;
    ya = rfl__iclamp((y0 < y1 ? y0 : y1) - r, c->clip_y0, c->clip_y1);
    yb = rfl__iclamp((y0 > y1 ? y0 : y1) + r + 1, c->clip_y0, c->clip_y1);
    for (py = ya; py < yb; py++) {
        double cy = py + 0.5, ta = 0, tb = 1, xa, xb;
        int xs, xe, px;
        unsigned char *row = c->pixels + (size_t)py * (size_t)c->stride_bytes;
        if (rfl__absd(dy) > 1e-12) {
            ta = (cy - r - y0) / dy;
            tb = (cy + r - y0) / dy;
            if (ta > tb) { double t = ta; ta = tb; tb = t; }
            if (ta < 0) ta = 0;
            if (tb > 1) tb = 1;
            if (ta > tb) { ta = tb = (cy - y0) / dy < 0 ? 0 : 1; }
        }
        xa = x0 + dx * ta;
        xb = x0 + dx * tb;
        if (xa > xb) { double t = xa; xa = xb; xb = t; }
        xs = rfl__iclamp(xa - r, c->clip_x0, c->clip_x1);
        xe = rfl__iclamp(xb + r + 1, c->clip_x0, c->clip_x1);
        for (px = xs; px < xe; px++) {
            double qx = px + 0.5 - x0, qy = cy - y0, t = 0, ex, ey, d2, cov;
            if (l2 > 0) {
                t = (qx * dx + qy * dy) / l2;
                t = t < 0 ? 0 : t > 1 ? 1 : t;
            }
            ex = qx - t * dx;
            ey = qy - t * dy;
            d2 = ex * ex + ey * ey;
            if (d2 >= (hw + 0.5) * (hw + 0.5)) continue;
            if (d2 <= (hw - 0.5) * (hw - 0.5)) cov = 1;
            else cov = hw + 0.5 - RFL_SQRT(d2);
            rfl__blend_at(row + (size_t)px * (size_t)c->channels, c->channels, color,
                          rfl__weight(color, cov * scale));
        }
    }
}

RFL_API void rfl_draw_line(rfl_canvas *c, double x0, double y0, double x1, double y1,
                           double width, rfl_color color) {
    if (!(width >= 0.1)) width = 0.1; /* also NaN */
    rfl__capsule(c, x0, y0, x1, y1, width * 0.5, color);
}

/* Dashes along one segment starting at pattern phase *phase (pixels into
   the on+off period); returns with *phase advanced. */
static void rfl__dash_seg(rfl_canvas *c, double x0, double y0, double x1, double y1, double hw,
                          double on, double off, double *phase, rfl_color color) {
    double dx = x1 - x0, dy = y1 - y0, len = RFL_SQRT(dx * dx + dy * dy), pos = 0, period;
    int guard = 0;
    if (!(len > 0) || !rfl__isfinite(len)) return;
    if (len > 4 * RFL__BIG) { rfl__capsule(c, x0, y0, x1, y1, hw, color); return; }
    period = on + off;
    while (pos < len && guard++ < 200000) {
        double ph = *phase, seg;
        if (ph < on) { /* inside a dash */
            double a = pos, b;
            seg = on - ph;
            b = pos + seg < len ? pos + seg : len;
            {   /* round caps add hw at each end: shorten the drawn part */
                double sa = a + hw * 0.5, sb = b - hw * 0.5;
                if (sb < sa) sa = sb = (a + b) * 0.5;
                rfl__capsule(c, x0 + dx * sa / len, y0 + dy * sa / len, x0 + dx * sb / len,
                             y0 + dy * sb / len, hw, color);
            }
            *phase += b - a;
            pos = b;
        } else {
            seg = period - ph;
            if (pos + seg > len) { *phase += len - pos; pos = len; }
            else { pos += seg; *phase = 0; }
        }
        if (*phase >= period) *phase = 0;
    }
}

/* The dash phase after dist more pixels of a pattern of the given period. */
static void rfl__phase_walk(double *phase, double dist, double period) {
    *phase += dist - period * RFL_FLOOR(dist / period);
    if (*phase >= period) *phase -= period;
}

static double rfl__dist(double x0, double y0, double x1, double y1) {
    return RFL_SQRT((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
}

/* Dashes along a segment that may reach far off the canvas: only the
   visible part is walked, the phase advanced over the rest so the pattern
   does not shift. */
static void rfl__dash_clipped(rfl_canvas *c, double x0, double y0, double x1, double y1,
                              double hw, double on, double off, double *phase, rfl_color color) {
    double cx0 = x0, cy0 = y0, cx1 = x1, cy1 = y1, m = hw * 2 + 2, period = on + off;
    if (!rfl__canvas_ok(c) || !rfl__finite4(x0, y0, x1, y1) || !(hw <= RFL__BIG)) return;
    if (hw > 500) { hw = 500; m = 1002; }
    if (rfl__far4(x0, y0, x1, y1)) return;
    if (!rfl__clip_seg(&cx0, &cy0, &cx1, &cy1, c->clip_x0 - m, c->clip_y0 - m, c->clip_x1 + m,
                       c->clip_y1 + m)) {
        rfl__phase_walk(phase, rfl__dist(x0, y0, x1, y1), period);
        return;
    }
    rfl__phase_walk(phase, rfl__dist(x0, y0, cx0, cy0), period);
    rfl__dash_seg(c, cx0, cy0, cx1, cy1, hw, on, off, phase, color);
    rfl__phase_walk(phase, rfl__dist(cx1, cy1, x1, y1), period);
}

RFL_API void rfl_draw_dashed(rfl_canvas *c, double x0, double y0, double x1, double y1,
                             double width, double on, double off, rfl_color color) {
    double xy[4];
    xy[0] = x0, xy[1] = y0, xy[2] = x1, xy[3] = y1;
    rfl_draw_polyline(c, xy, 2, width, on, off, color);
}

RFL_API void rfl_draw_polyline(rfl_canvas *c, const double *xy, int n, double width,
                               double dash_on, double dash_off, rfl_color color) {
    int i;
    double phase = 0;
    if (!xy || n < 2) return;
    if (!(width >= 0.1)) width = 0.1;
    for (i = 0; i + 1 < n; i++) {
        double x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * i + 2], y1 = xy[2 * i + 3];
        if (!rfl__finite4(x0, y0, x1, y1)) { phase = 0; continue; }
        /* patterns finer than 2 px would only look grey: draw solid */
        if (dash_on > 0 && dash_off > 0 && dash_on + dash_off >= 2 && dash_on + dash_off < RFL__BIG)
            rfl__dash_clipped(c, x0, y0, x1, y1, width * 0.5, dash_on < 0.5 ? 0.5 : dash_on,
                              dash_off, &phase, color);
        else
            rfl__capsule(c, x0, y0, x1, y1, width * 0.5, color);
    }
}

/* ---- rectangles and circles ------------------------------------------------ */
RFL_API void rfl_fill_rect(rfl_canvas *c, double x, double y, double w, double h,
                           rfl_color color) {
    double x1, y1;
    int iy0, iy1, py, xl, xr, in0, in1;
    if (!rfl__canvas_ok(c) || !rfl__finite4(x, y, w, h) || !(w > 0) || !(h > 0)) return;
    x1 = rfl__clampd(x + w, -RFL__BIG, RFL__BIG);
    y1 = rfl__clampd(y + h, -RFL__BIG, RFL__BIG);
    x = rfl__clampd(x, -RFL__BIG, RFL__BIG);
    y = rfl__clampd(y, -RFL__BIG, RFL__BIG);
    iy0 = rfl__iclamp(y, c->clip_y0, c->clip_y1);
    iy1 = rfl__iclamp(RFL_CEIL(y1), c->clip_y0, c->clip_y1);
    xl = rfl__ifloor(x);             /* first touched column */
    xr = rfl__ifloor(RFL_CEIL(x1));  /* one past the last touched column */
    in0 = (double)xl == x ? xl : xl + 1;   /* fully covered columns [in0, in1) */
    in1 = rfl__ifloor(x1);
    for (py = iy0; py < iy1; py++) {
        double cy = (py + 1 < y1 ? py + 1 : y1) - (py > y ? py : y);
        if (cy <= 0) continue;
        if (in1 > in0) rfl__hspan(c, py, in0, in1, color, rfl__weight(color, cy));
        if (xr - xl == 1 && in1 <= in0) { rfl__plot(c, xl, py, color, (x1 - x) * cy); continue; }
        if (in0 != xl) rfl__plot(c, xl, py, color, (xl + 1 - x) * cy);
        if (in1 < xr && in1 >= in0) rfl__plot(c, in1, py, color, (x1 - in1) * cy);
    }
}

RFL_API void rfl_draw_rect(rfl_canvas *c, double x, double y, double w, double h, double width,
                           rfl_color color) {
    if (!(w > 0) || !(h > 0) || !(width > 0)) return;
    if (width * 2 >= w || width * 2 >= h) { rfl_fill_rect(c, x, y, w, h, color); return; }
    rfl_fill_rect(c, x, y, w, width, color);
    rfl_fill_rect(c, x, y + h - width, w, width, color);
    rfl_fill_rect(c, x, y + width, width, h - 2 * width, color);
    rfl_fill_rect(c, x + w - width, y + width, width, h - 2 * width, color);
}

/* Disc or ring: coverage from the distance to the centre. ring_hw < 0 fills. */
static void rfl__disc(rfl_canvas *c, double cx, double cy, double r, double ring_hw,
                      rfl_color color) {
    double reach;
    int ya, yb, xa, xb, py, px;
    if (!rfl__canvas_ok(c) || !rfl__finite4(cx, cy, r, 0) || !(r > 0)) return;
    if (rfl__absd(cx) > RFL__BIG || rfl__absd(cy) > RFL__BIG || r > RFL__BIG) return;
    reach = r + (ring_hw > 0 ? ring_hw : 0) + 1;
    ya = rfl__iclamp(cy - reach, c->clip_y0, c->clip_y1);
    yb = rfl__iclamp(cy + reach + 1, c->clip_y0, c->clip_y1);
    xa = rfl__iclamp(cx - reach, c->clip_x0, c->clip_x1);
    xb = rfl__iclamp(cx + reach + 1, c->clip_x0, c->clip_x1);
    for (py = ya; py < yb; py++) {
        double dy = py + 0.5 - cy;
        unsigned char *row = c->pixels + (size_t)py * (size_t)c->stride_bytes;
        for (px = xa; px < xb; px++) {
            double dx = px + 0.5 - cx, d2 = dx * dx + dy * dy, d, cov;
            if (d2 >= reach * reach) continue;
            d = RFL_SQRT(d2);
            if (ring_hw < 0) cov = r + 0.5 - d;
            else cov = ring_hw + 0.5 - rfl__absd(d - r);
            if (cov <= 0) continue;
            if (cov > 1) cov = 1;
            rfl__blend_at(row + (size_t)px * (size_t)c->channels, c->channels, color,
                          rfl__weight(color, cov));
        }
    }
}

RFL_API void rfl_fill_circle(rfl_canvas *c, double cx, double cy, double r, rfl_color color) {
    rfl__disc(c, cx, cy, r, -1, color);
}
RFL_API void rfl_draw_circle(rfl_canvas *c, double cx, double cy, double r, double width,
                             rfl_color color) {
    if (!(width >= 0.1)) width = 0.1;
    rfl__disc(c, cx, cy, r, width * 0.5, color);
}

/* ---- polygons ----------------------------------------------------------------
   Scanline fill, non-zero winding: RFL__SUB sub-scanlines per pixel row,
   exact horizontal coverage, accumulated in a stack row of RFL__TILE
   columns (wider polygons are done in column tiles, left to right; no
   allocation). Each sub-scanline's crossings are found a few at a time
   (RFL__XLOOK per pass over the edges), so that the frame does not grow
   with RFL_POLY_MAX while a convex shape still takes one pass. */
#define RFL__SUB 5
#define RFL__TILE 64
#define RFL__XLOOK 4

/* A sub-scanline: the span in progress starts at xl with winding `wind`;
   x[i..n-1] are the next crossings (distinct, ascending) with their
   summed directions (+1 down, -1 up); `rest`: more lie beyond x[n-1]. */
typedef struct rfl__xing {
    double sy, xl, x[RFL__XLOOK];
    int dir[RFL__XLOOK], i, n, rest, wind;
} rfl__xing;

/* vertex i, clamped as the fill sees it */
static void rfl__poly_pt(const double *xy, int i, double *x, double *y) {
    *x = rfl__clampd(xy[2 * i], -RFL__BIG, RFL__BIG);
    *y = rfl__clampd(xy[2 * i + 1], -RFL__BIG, RFL__BIG);
}

/* One pass over the edges: the RFL__XLOOK leftmost crossings right of
   t->xl. A value that drops out (evicted or never let in) cannot come back,
   so the sums of those kept are complete. */
static void rfl__xing_next(const double *xy, int n, rfl__xing *t) {
    double ax, ay, bx, by;
    int e, j, k;
    t->i = t->n = t->rest = 0;
    rfl__poly_pt(xy, n - 1, &ax, &ay);
    for (e = 0; e < n; e++, ax = bx, ay = by) { /* edge from vertex e - 1 to e */
        double cx;
        int d;
        rfl__poly_pt(xy, e, &bx, &by);
        if (!((ay <= t->sy && by > t->sy) || (by <= t->sy && ay > t->sy))) continue;
        cx = ax + (t->sy - ay) * (bx - ax) / (by - ay);
        d = by > ay ? 1 : -1;
        if (!(cx > t->xl)) continue;
        for (j = 0; j < t->n && t->x[j] < cx; j++) {}
        if (j < t->n && t->x[j] == cx) { t->dir[j] += d; continue; }
        if (j == RFL__XLOOK) { t->rest = 1; continue; }
        if (t->n == RFL__XLOOK) { t->rest = 1; t->n--; }
        for (k = t->n; k > j; k--) { t->x[k] = t->x[k - 1]; t->dir[k] = t->dir[k - 1]; }
        t->x[j] = cx;
        t->dir[j] = d;
        t->n++;
    }
}

RFL_API rfl_result rfl_fill_polygon(rfl_canvas *c, const double *xy, int n, rfl_color color) {
    float acc[RFL__TILE + 1];
    rfl__xing xs[RFL__SUB];
    double minx = RFL__BIG, maxx = -RFL__BIG, miny = RFL__BIG, maxy = -RFL__BIG;
    int i, ya, yb, xa, xb, tx, py, s, k;
    if (!xy || n < 0 || n > RFL_POLY_MAX) return RFL_ERR_ARG;
    if (n < 3 || !rfl__canvas_ok(c)) return RFL_OK;
    for (i = 0; i < n; i++) {
        double x, y;
        if (!rfl__isfinite(xy[2 * i]) || !rfl__isfinite(xy[2 * i + 1])) return RFL_ERR_NOT_FINITE;
        rfl__poly_pt(xy, i, &x, &y);
        rfl__widen(&minx, &maxx, x, x);
        rfl__widen(&miny, &maxy, y, y);
    }
    ya = rfl__iclamp(miny, c->clip_y0, c->clip_y1);
    yb = rfl__iclamp(maxy + 1, c->clip_y0, c->clip_y1);
    xa = rfl__iclamp(minx, c->clip_x0, c->clip_x1);
    xb = rfl__iclamp(maxx + 1, c->clip_x0, c->clip_x1);
    for (py = ya; py < yb; py++) {
        for (s = 0; s < RFL__SUB; s++) { /* left of every crossing: winding 0 */
            xs[s].sy = py + (s + 0.5) / RFL__SUB;
            xs[s].xl = -1e300;
            xs[s].wind = 0;
            rfl__xing_next(xy, n, &xs[s]);
        }
        for (tx = xa; tx < xb; tx += RFL__TILE) {
            int tw = rfl__imin(RFL__TILE, xb - tx), any = 0;
            for (k = 0; k <= tw; k++) acc[k] = 0;
            for (s = 0; s < RFL__SUB; s++) {
                rfl__xing *t = &xs[s];
                /* spans between neighbouring crossings where the winding
                   is not 0 */
                while (t->i < t->n) {
                    double xr = t->x[t->i];
                    if (t->wind != 0) {
                        double sa = t->xl - tx, sb = xr - tx;
                        const float w = 1.0f / RFL__SUB;
                        if (sa < 0) sa = 0;
                        if (sb > tw) sb = tw;
                        if (sa < sb) {
                            int ia = (int)sa, ib = (int)sb;
                            any = 1;
                            if (ia == ib) {
                                acc[ia] += (float)(sb - sa) * w;
                            } else {
                                acc[ia] += (float)(ia + 1 - sa) * w;
                                for (k = ia + 1; k < ib; k++) acc[k] += w;
                                if (ib < tw) acc[ib] += (float)(sb - ib) * w;
                            }
                        }
                    }
                    if (xr >= tx + tw) break; /* goes on in the next tile */
                    t->xl = xr;
                    t->wind += t->dir[t->i++];
                    if (t->i == t->n && t->rest) rfl__xing_next(xy, n, t);
                }
            }
            if (!any) continue;
            for (k = 0; k < tw; k++) {
                if (acc[k] <= 0.001f) continue;
                if (acc[k] >= 0.999f) {
                    int e = k, a = rfl__weight(color, 1);
                    while (e < tw && acc[e] >= 0.999f) e++;
                    rfl__hspan(c, py, tx + k, tx + e, color, a);
                    k = e - 1;
                    continue;
                }
                rfl__plot(c, tx + k, py, color, acc[k] > 1 ? 1.0 : (double)acc[k]);
            }
        }
    }
    return RFL_OK;
}

/* ---- markers ------------------------------------------------------------------
   The filled shapes: a factor on the half size (so that the shapes look
   alike in size), the vertex count, and the vertices as multiples of the
   scaled half size. */
static const struct rfl__shape_def {
    rfl_marker m;
    double k;
    int n;
    double v[8];
} rfl__shapes[4] = {
    {RFL_MARKER_SQUARE, 0.88, 4, {-1, -1, 1, -1, 1, 1, -1, 1}},
    {RFL_MARKER_TRIANGLE, 1.2, 3, {0, -1, 0.95, 0.7, -0.95, 0.7}},
    {RFL_MARKER_TRIANGLE_DOWN, 1.2, 3, {0, 1, -0.95, -0.7, 0.95, -0.7}},
    {RFL_MARKER_DIAMOND, 1.2, 4, {0, -1, 1, 0, 0, 1, -1, 0}}};

/* Fill the shape of marker i of rfl__shapes with half size h. */
static void rfl__fill_shape(rfl_canvas *c, int i, double cx, double cy, double h, rfl_color color) {
    const struct rfl__shape_def *sh = &rfl__shapes[i];
    double xy[8];
    int j;
    for (j = 0; j < 2 * sh->n; j += 2) {
        xy[j] = cx + h * sh->k * sh->v[j];
        xy[j + 1] = cy + h * sh->k * sh->v[j + 1];
    }
    rfl_fill_polygon(c, xy, sh->n, color);
}

RFL_API void rfl_draw_marker(rfl_canvas *c, rfl_marker m, double cx, double cy, double size,
                             int hollow, rfl_color color) {
    double h, lw;
    int i;
    if (!rfl__canvas_ok(c) || !rfl__finite4(cx, cy, size, 0) || !(size > 0)) return;
    if (rfl__absd(cx) > RFL__BIG || rfl__absd(cy) > RFL__BIG) return;
    if (size > 1000) size = 1000;
    h = size * 0.5;
    lw = size / 7 < 1.5 ? 1.5 : size / 7;
    for (i = 0; i < 4 && rfl__shapes[i].m != m; i++) {}
    if (m == RFL_MARKER_CROSS || m == RFL_MARKER_PLUS) {
        double k = m == RFL_MARKER_CROSS ? h * 0.8 : h, w = (hollow ? lw : lw * 1.6) * 0.5;
        if (m == RFL_MARKER_CROSS) {
            rfl__capsule(c, cx - k, cy - k, cx + k, cy + k, w, color);
            rfl__capsule(c, cx - k, cy + k, cx + k, cy - k, w, color);
        } else {
            rfl__capsule(c, cx - k, cy, cx + k, cy, w, color);
            rfl__capsule(c, cx, cy - k, cx, cy + k, w, color);
        }
    } else if (i < 4) {
        rfl__fill_shape(c, i, cx, cy, h, color);
        if (hollow && h - lw * 1.6 > 0.5) /* a white inside */
            rfl__fill_shape(c, i, cx, cy, h - lw * (m == RFL_MARKER_SQUARE ? 1.1 : 1.6),
                            RFL_RGB(255, 255, 255));
    } else if (hollow) { /* circle */
        rfl__disc(c, cx, cy, h - lw * 0.5, -1, RFL_RGB(255, 255, 255));
        rfl__disc(c, cx, cy, h - lw * 0.5, lw * 0.5, color);
    } else {
        rfl__disc(c, cx, cy, h, -1, color);
    }
}

/* ---- text: the library's own bitmap font -----------------------------------
   Designed for this library: 5 x 9 glyph boxes (rows 0..6 cap height, 7..8
   descenders), one byte per row, bit 4 = leftmost column. */
static const unsigned char rfl__font[95][9] = {
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00}, /*   */
    {0x04,0x04,0x04,0x04,0x04,0x00,0x04,0x00,0x00}, /* ! */
    {0x0a,0x0a,0x0a,0x00,0x00,0x00,0x00,0x00,0x00}, /* " */
    {0x0a,0x0a,0x1f,0x0a,0x1f,0x0a,0x0a,0x00,0x00}, /* # */
    {0x04,0x0f,0x14,0x0e,0x05,0x1e,0x04,0x00,0x00}, /* $ */
    {0x18,0x19,0x02,0x04,0x08,0x13,0x03,0x00,0x00}, /* % */
    {0x0c,0x12,0x14,0x08,0x15,0x12,0x0d,0x00,0x00}, /* & */
    {0x04,0x04,0x08,0x00,0x00,0x00,0x00,0x00,0x00}, /* ' */
    {0x02,0x04,0x08,0x08,0x08,0x04,0x02,0x00,0x00}, /* ( */
    {0x08,0x04,0x02,0x02,0x02,0x04,0x08,0x00,0x00}, /* ) */
    {0x00,0x04,0x15,0x0e,0x15,0x04,0x00,0x00,0x00}, /* star */
    {0x00,0x04,0x04,0x1f,0x04,0x04,0x00,0x00,0x00}, /* + */
    {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c,0x04,0x08}, /* , */
    {0x00,0x00,0x00,0x1f,0x00,0x00,0x00,0x00,0x00}, /* - */
    {0x00,0x00,0x00,0x00,0x00,0x0c,0x0c,0x00,0x00}, /* . */
    {0x01,0x01,0x02,0x04,0x08,0x10,0x10,0x00,0x00}, /* / */
    {0x0e,0x11,0x13,0x15,0x19,0x11,0x0e,0x00,0x00}, /* 0 */
    {0x04,0x0c,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, /* 1 */
    {0x0e,0x11,0x01,0x02,0x04,0x08,0x1f,0x00,0x00}, /* 2 */
    {0x1f,0x02,0x04,0x02,0x01,0x11,0x0e,0x00,0x00}, /* 3 */
    {0x02,0x06,0x0a,0x12,0x1f,0x02,0x02,0x00,0x00}, /* 4 */
    {0x1f,0x10,0x1e,0x01,0x01,0x11,0x0e,0x00,0x00}, /* 5 */
    {0x06,0x08,0x10,0x1e,0x11,0x11,0x0e,0x00,0x00}, /* 6 */
    {0x1f,0x01,0x02,0x04,0x08,0x08,0x08,0x00,0x00}, /* 7 */
    {0x0e,0x11,0x11,0x0e,0x11,0x11,0x0e,0x00,0x00}, /* 8 */
    {0x0e,0x11,0x11,0x0f,0x01,0x02,0x0c,0x00,0x00}, /* 9 */
    {0x00,0x0c,0x0c,0x00,0x0c,0x0c,0x00,0x00,0x00}, /* : */
    {0x00,0x0c,0x0c,0x00,0x0c,0x0c,0x04,0x08,0x00}, /* ; */
    {0x02,0x04,0x08,0x10,0x08,0x04,0x02,0x00,0x00}, /* < */
    {0x00,0x00,0x1f,0x00,0x1f,0x00,0x00,0x00,0x00}, /* = */
    {0x08,0x04,0x02,0x01,0x02,0x04,0x08,0x00,0x00}, /* > */
    {0x0e,0x11,0x01,0x02,0x04,0x00,0x04,0x00,0x00}, /* ? */
    {0x0e,0x11,0x17,0x15,0x17,0x10,0x0f,0x00,0x00}, /* @ */
    {0x0e,0x11,0x11,0x1f,0x11,0x11,0x11,0x00,0x00}, /* A */
    {0x1e,0x11,0x11,0x1e,0x11,0x11,0x1e,0x00,0x00}, /* B */
    {0x0e,0x11,0x10,0x10,0x10,0x11,0x0e,0x00,0x00}, /* C */
    {0x1c,0x12,0x11,0x11,0x11,0x12,0x1c,0x00,0x00}, /* D */
    {0x1f,0x10,0x10,0x1e,0x10,0x10,0x1f,0x00,0x00}, /* E */
    {0x1f,0x10,0x10,0x1e,0x10,0x10,0x10,0x00,0x00}, /* F */
    {0x0e,0x11,0x10,0x17,0x11,0x11,0x0f,0x00,0x00}, /* G */
    {0x11,0x11,0x11,0x1f,0x11,0x11,0x11,0x00,0x00}, /* H */
    {0x0e,0x04,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, /* I */
    {0x07,0x02,0x02,0x02,0x02,0x12,0x0c,0x00,0x00}, /* J */
    {0x11,0x12,0x14,0x18,0x14,0x12,0x11,0x00,0x00}, /* K */
    {0x10,0x10,0x10,0x10,0x10,0x10,0x1f,0x00,0x00}, /* L */
    {0x11,0x1b,0x15,0x15,0x11,0x11,0x11,0x00,0x00}, /* M */
    {0x11,0x11,0x19,0x15,0x13,0x11,0x11,0x00,0x00}, /* N */
    {0x0e,0x11,0x11,0x11,0x11,0x11,0x0e,0x00,0x00}, /* O */
    {0x1e,0x11,0x11,0x1e,0x10,0x10,0x10,0x00,0x00}, /* P */
    {0x0e,0x11,0x11,0x11,0x15,0x12,0x0d,0x00,0x00}, /* Q */
    {0x1e,0x11,0x11,0x1e,0x14,0x12,0x11,0x00,0x00}, /* R */
    {0x0f,0x10,0x10,0x0e,0x01,0x01,0x1e,0x00,0x00}, /* S */
    {0x1f,0x04,0x04,0x04,0x04,0x04,0x04,0x00,0x00}, /* T */
    {0x11,0x11,0x11,0x11,0x11,0x11,0x0e,0x00,0x00}, /* U */
    {0x11,0x11,0x11,0x11,0x11,0x0a,0x04,0x00,0x00}, /* V */
    {0x11,0x11,0x11,0x15,0x15,0x15,0x0a,0x00,0x00}, /* W */
    {0x11,0x11,0x0a,0x04,0x0a,0x11,0x11,0x00,0x00}, /* X */
    {0x11,0x11,0x0a,0x04,0x04,0x04,0x04,0x00,0x00}, /* Y */
    {0x1f,0x01,0x02,0x04,0x08,0x10,0x1f,0x00,0x00}, /* Z */
    {0x0e,0x08,0x08,0x08,0x08,0x08,0x0e,0x00,0x00}, /* [ */
    {0x10,0x10,0x08,0x04,0x02,0x01,0x01,0x00,0x00}, /* backslash */
    {0x0e,0x02,0x02,0x02,0x02,0x02,0x0e,0x00,0x00}, /* ] */
    {0x04,0x0a,0x11,0x00,0x00,0x00,0x00,0x00,0x00}, /* ^ */
    {0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x1f}, /* _ */
    {0x08,0x04,0x02,0x00,0x00,0x00,0x00,0x00,0x00}, /* ` */
    {0x00,0x00,0x0e,0x01,0x0f,0x11,0x0f,0x00,0x00}, /* a */
    {0x10,0x10,0x16,0x19,0x11,0x11,0x1e,0x00,0x00}, /* b */
    {0x00,0x00,0x0e,0x10,0x10,0x11,0x0e,0x00,0x00}, /* c */
    {0x01,0x01,0x0d,0x13,0x11,0x11,0x0f,0x00,0x00}, /* d */
    {0x00,0x00,0x0e,0x11,0x1f,0x10,0x0e,0x00,0x00}, /* e */
    {0x06,0x09,0x08,0x1c,0x08,0x08,0x08,0x00,0x00}, /* f */
    {0x00,0x00,0x0f,0x11,0x11,0x11,0x0f,0x01,0x0e}, /* g */
    {0x10,0x10,0x16,0x19,0x11,0x11,0x11,0x00,0x00}, /* h */
    {0x04,0x00,0x0c,0x04,0x04,0x04,0x0e,0x00,0x00}, /* i */
    {0x02,0x00,0x06,0x02,0x02,0x02,0x02,0x12,0x0c}, /* j */
    {0x10,0x10,0x12,0x14,0x18,0x14,0x12,0x00,0x00}, /* k */
    {0x0c,0x04,0x04,0x04,0x04,0x04,0x0e,0x00,0x00}, /* l */
    {0x00,0x00,0x1a,0x15,0x15,0x15,0x15,0x00,0x00}, /* m */
    {0x00,0x00,0x16,0x19,0x11,0x11,0x11,0x00,0x00}, /* n */
    {0x00,0x00,0x0e,0x11,0x11,0x11,0x0e,0x00,0x00}, /* o */
    {0x00,0x00,0x16,0x19,0x11,0x11,0x1e,0x10,0x10}, /* p */
    {0x00,0x00,0x0d,0x13,0x11,0x11,0x0f,0x01,0x01}, /* q */
    {0x00,0x00,0x16,0x19,0x10,0x10,0x10,0x00,0x00}, /* r */
    {0x00,0x00,0x0f,0x10,0x0e,0x01,0x1e,0x00,0x00}, /* s */
    {0x08,0x08,0x1e,0x08,0x08,0x09,0x06,0x00,0x00}, /* t */
    {0x00,0x00,0x11,0x11,0x11,0x13,0x0d,0x00,0x00}, /* u */
    {0x00,0x00,0x11,0x11,0x11,0x0a,0x04,0x00,0x00}, /* v */
    {0x00,0x00,0x11,0x11,0x15,0x15,0x0a,0x00,0x00}, /* w */
    {0x00,0x00,0x11,0x0a,0x04,0x0a,0x11,0x00,0x00}, /* x */
    {0x00,0x00,0x11,0x11,0x11,0x11,0x0f,0x01,0x0e}, /* y */
    {0x00,0x00,0x1f,0x02,0x04,0x08,0x1f,0x00,0x00}, /* z */
    {0x03,0x04,0x04,0x08,0x04,0x04,0x03,0x00,0x00}, /* { */
    {0x04,0x04,0x04,0x04,0x04,0x04,0x04,0x04,0x04}, /* | */
    {0x18,0x04,0x04,0x02,0x04,0x04,0x18,0x00,0x00}, /* } */
    {0x00,0x00,0x08,0x15,0x02,0x00,0x00,0x00,0x00}, /* ~ */
};

#define RFL__FONT_MAXSCALE 8

static int rfl__is_sup(int ch) { return (ch >= '0' && ch <= '9') || ch == '-' || ch == '+'; }

RFL_API int rfl_text_width(const char *text, int len, int scale) {
    long w = 0;
    int i, sup = 0, ss;
    if (!text) return 0;
    scale = rfl__imin(rfl__imax(scale, 1), RFL__FONT_MAXSCALE);
    ss = scale > 1 ? scale - 1 : 1;
    for (i = 0; (len < 0 || i < len) && text[i]; i++) {
        if (text[i] == '^' && rfl__is_sup((unsigned char)text[i + 1]) &&
            (len < 0 || i + 1 < len)) { sup = 1; continue; }
        if (sup && !rfl__is_sup((unsigned char)text[i])) sup = 0;
        w += RFL_FONT_W * (sup ? ss : scale);
        if (w > 1000000000L) break;
    }
    return (int)w;
}

/* Frame of a text run: glyph-local (u along the text, v down the glyph)
   to canvas pixels. */
typedef struct rfl__tframe {
    double ox, oy;
    int up;
} rfl__tframe;

static void rfl__tfill(rfl_canvas *c, const rfl__tframe *f, double u, double v, double du,
                       double dv, rfl_color color) {
    if (f->up) rfl_fill_rect(c, f->ox + v, f->oy - u - du, dv, du, color);
    else rfl_fill_rect(c, f->ox + u, f->oy + v, du, dv, color);
}
static void rfl__ttri(rfl_canvas *c, const rfl__tframe *f, const double *uv, rfl_color color) {
    double xy[6], cx, cy, h = 0, sx = 1, sy = 1;
    int q, j, n, ix, iy;
    for (q = 0; q < 3; q++) {
        double u = uv[2 * q], v = uv[2 * q + 1];
        xy[2 * q] = f->up ? f->ox + v : f->ox + u;
        xy[2 * q + 1] = f->up ? f->oy - u : f->oy + v;
    }
    /* vertex 1 is the right angle, the legs run along the axes: exact
       coverage per pixel, far cheaper than the general polygon fill */
    cx = xy[2];
    cy = xy[3];
    for (q = 0; q < 3; q += 2) {
        double dx = xy[2 * q] - cx, dy = xy[2 * q + 1] - cy;
        if (dx != 0) { sx = dx > 0 ? 1 : -1; h = dx > 0 ? dx : -dx; }
        if (dy != 0) sy = dy > 0 ? 1 : -1;
    }
    if (cx != RFL_FLOOR(cx) || cy != RFL_FLOOR(cy) || h <= 0 || h > 8 ||
        rfl__absd(cx) > RFL__BIG || rfl__absd(cy) > RFL__BIG) {
        rfl_fill_polygon(c, xy, 3, color);
        return;
    }
    n = (int)RFL_CEIL(h);
    ix = (int)cx;
    iy = (int)cy;
    for (j = 0; j < n; j++)
        for (q = 0; q + j < n + 1 && q < n; q++) {
            double t = h - q - j, a;
            if (t <= 0) continue;
            a = t >= 2 ? 1 : t <= 1 ? t * t / 2 : 1 - (2 - t) * (2 - t) / 2;
            rfl__plot(c, sx > 0 ? ix + q : ix - 1 - q, sy > 0 ? iy + j : iy - 1 - j, color, a);
        }
}

static int rfl__glyph_on(const unsigned char *g, int col, int row) {
    if (col < 0 || col > 4 || row < 0 || row > 8) return 0;
    return (g[row] >> (4 - col)) & 1;
}

/* One glyph with its top-left cell corner at local (u, v). From scale 2 up,
   diagonal steps get small bridging triangles so strokes read smoothly. */
static void rfl__glyph(rfl_canvas *c, const rfl__tframe *f, double u, double v, int ch, int s,
                       rfl_color color) {
    const unsigned char *g;
    int row, col, end;
    if (ch < 32 || ch > 126) ch = '?';
    g = rfl__font[ch - 32];
    v += s; /* one empty row above the glyph in the cell */
    for (row = 0; row < 9; row++)
        for (col = 0; col < 5; col = end + 1) { /* a rectangle per run of set bits */
            for (end = col; rfl__glyph_on(g, end, row); end++) {}
            if (end > col) rfl__tfill(c, f, u + col * s, v + row * s, (end - col) * s, s, color);
        }
    if (s < 2) return;
    for (row = 0; row < 8; row++) {
        for (col = -1; col < 5; col++) {
            int a = rfl__glyph_on(g, col, row), b = rfl__glyph_on(g, col + 1, row);
            int cc = rfl__glyph_on(g, col, row + 1), d = rfl__glyph_on(g, col + 1, row + 1);
            double X = u + (col + 1) * s, Y = v + (row + 1) * s, h = s * 0.5, t[6];
            int dir = a && d && !b && !cc ? 1 : b && cc && !a && !d ? -1 : 0; /* "\" or "/" */
            if (!dir) continue;
            t[0] = X; t[1] = Y - h; t[2] = X; t[3] = Y; t[4] = X + dir * h; t[5] = Y;
            rfl__ttri(c, f, t, color);
            t[0] = X - dir * h; t[1] = Y; t[4] = X; t[5] = Y + h;
            rfl__ttri(c, f, t, color);
        }
    }
}

/* Offsets from a text's anchor to the start of its box (along the text)
   and to its top (across it), for a box w x h and the RFL_TEXT_* flags. */
static void rfl__text_anchor(int flags, double w, double h, double *along, double *across) {
    *along = (flags & 3) == RFL_TEXT_CENTER ? -w * 0.5 : (flags & 3) == RFL_TEXT_RIGHT ? -w : 0;
    *across = (flags & 12) == RFL_TEXT_MIDDLE ? -h * 0.5 : (flags & 12) == RFL_TEXT_BOTTOM ? -h : 0;
}

RFL_API int rfl_draw_text(rfl_canvas *c, double x, double y, const char *text, int scale,
                          int flags, rfl_color color) {
    int w, i, sup = 0, ss, before;
    double u = 0, limit, adv, along, across;
    rfl__tframe f;
    if (!text) return 0;
    scale = rfl__imin(rfl__imax(scale, 1), RFL__FONT_MAXSCALE);
    ss = scale > 1 ? scale - 1 : 1;
    w = rfl_text_width(text, -1, scale);
    if (!rfl__canvas_ok(c) || !rfl__isfinite(x) || !rfl__isfinite(y)) return w;
    x = rfl__clampd(x, -RFL__BIG, RFL__BIG);
    y = rfl__clampd(y, -RFL__BIG, RFL__BIG);
    rfl__text_anchor(flags, w, RFL_FONT_H * scale, &along, &across);
    f.up = (flags & RFL_TEXT_UP) != 0;
    /* whole pixels keep the glyph blocks crisp */
    f.ox = RFL_FLOOR((f.up ? x + across : x + along) + 0.5);
    f.oy = RFL_FLOOR((f.up ? y - along : y + across) + 0.5);
    /* stop once the pen has left the clip box: long labels cost nothing */
    limit = f.up ? f.oy - c->clip_y0 : c->clip_x1 - f.ox;
    for (i = 0; text[i]; i++) {
        int ch = (unsigned char)text[i];
        if (ch == '^' && rfl__is_sup((unsigned char)text[i + 1])) { sup = 1; continue; }
        if (sup && !rfl__is_sup(ch)) sup = 0;
        if (u > limit) break;
        adv = RFL_FONT_W * (sup ? ss : scale);
        /* glyphs wholly before the clip box (centred long text) are skipped */
        before = f.up ? f.oy - u - adv > c->clip_y1 : f.ox + u + adv < c->clip_x0;
        if (!before && sup) rfl__glyph(c, &f, u, -scale * 2.0 + (scale - ss) * 1.0, ch, ss, color);
        else if (!before) rfl__glyph(c, &f, u, 0, ch, scale, color);
        u += adv;
    }
    return w;
}

/* ---- axes ------------------------------------------------------------------ */
typedef struct rfl__axis {
    double lo, hi;   /* value range */
    int log;
    double p0, p1;   /* pixel positions of lo and hi (rfl__axis_place) */
    double llo, lhi; /* log axes: log10 of lo and hi, kept because the
                        obstacles are mapped again for every score */
    rfl_ticks ticks;
} rfl__axis;

/* Put the range (final by now) at pixels p0..p1. */
static void rfl__axis_place(rfl__axis *a, double p0, double p1) {
    a->p0 = p0;
    a->p1 = p1;
    if (a->log) {
        a->llo = RFL_LOG10(a->lo);
        a->lhi = RFL_LOG10(a->hi);
    }
}
/* value -> pixel on a placed axis; values a log axis cannot show map far
   outside */
static double rfl__amap(const rfl__axis *a, double v) {
    double t;
    if (!rfl__isfinite(v)) return -1e300;
    if (a->log) {
        if (!(v > 0)) return -1e300;
        t = (RFL_LOG10(v) - a->llo) / (a->lhi - a->llo);
    } else {
        t = (v - a->lo) / (a->hi - a->lo);
    }
    t = rfl__clampd(t, -1e6, 1e6); /* far off the plot, still a safe coordinate */
    return a->p0 + t * (a->p1 - a->p0);
}

static double rfl__p10(double k) { return RFL_POW(10.0, k); }

/* 1-2-5 step near span/target */
static double rfl__nice_step(double span, int target) {
    double raw = span / (target > 0 ? target : 1), e, f;
    if (!(raw > 0) || !rfl__isfinite(raw)) return 1;
    e = RFL_FLOOR(RFL_LOG10(raw));
    f = raw / rfl__p10(e);
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * rfl__p10(e);
}

/* Snap a range outward: decades on log axes, 1-2-5 steps on linear ones. */
static void rfl__nice_range(rfl__axis *a, double lo, double hi) {
    if (a->log) {
        if (!(lo > 0) || !rfl__isfinite(lo)) lo = 1;
        if (!(hi > lo) || !rfl__isfinite(hi)) hi = lo * 10;
        a->lo = rfl__p10(RFL_FLOOR(RFL_LOG10(lo) + 1e-9));
        a->hi = rfl__p10(RFL_CEIL(RFL_LOG10(hi) - 1e-9));
        if (!(a->hi > a->lo)) a->hi = a->lo * 10;
    } else {
        double st;
        if (!rfl__isfinite(lo)) lo = 0;
        if (!rfl__isfinite(hi) || !(hi > lo)) hi = lo + 1;
        st = rfl__nice_step(hi - lo, 6);
        a->lo = RFL_FLOOR(lo / st + 1e-9) * st;
        a->hi = RFL_CEIL(hi / st - 1e-9) * st;
        if (!(a->hi > a->lo)) a->hi = a->lo + st;
    }
}

/* Ticks are computed where they are drawn, not kept in arrays (stack).
   Majors 0..nmajor-1 (at most RFL__MAXTICK); minors only on log axes of at
   most 8 decades: candidates 0..nminor-1, m x 10^k for m = 2..9, of which
   rfl__tminor keeps those inside the axis. */
#define RFL__MAXTICK 64
typedef struct rfl__tickset {
    double k0, step; /* log: first decade, decades per tick; linear: first
                        multiple of the step, the step */
    int nmajor, nminor;
} rfl__tickset;

static double rfl__tmajor(const rfl__axis *a, const rfl__tickset *t, int i) {
    double v;
    /* i == 0 apart: k0 may be -inf (lo 0) with an infinite step */
    if (a->log) return rfl__p10(i ? t->k0 + i * t->step : t->k0);
    v = (t->k0 + i) * t->step;
    return rfl__absd(v) < t->step * 1e-9 ? 0 : v;
}
/* minor candidate j; 0 when it lies outside the axis */
static int rfl__tminor(const rfl__axis *a, const rfl__tickset *t, int j, double *v) {
    *v = (j % 8 + 2) * rfl__p10(t->k0 - 1 + j / 8);
    return *v > a->lo * (1 + 1e-9) && *v < a->hi * (1 - 1e-9);
}

static void rfl__make_ticks(const rfl__axis *a, rfl__tickset *t) {
    t->nmajor = t->nminor = 0;
    if (a->log) {
        double k0 = RFL_CEIL(RFL_LOG10(a->lo) - 1e-9), k1 = RFL_FLOOR(RFL_LOG10(a->hi) + 1e-9);
        t->k0 = k0;
        t->step = 1;
        if (k1 - k0 > 12) t->step = RFL_CEIL((k1 - k0) / 10);
        while (t->nmajor < RFL__MAXTICK &&
               (t->nmajor ? k0 + t->nmajor * t->step : k0) <= k1 + 1e-9)
            t->nmajor++;
        /* decades k0 - 1 .. k1 */
        if (t->step == 1 && k1 - k0 <= 8 && k1 - k0 >= -1) t->nminor = 8 * ((int)(k1 - k0) + 2);
    } else {
        t->step = rfl__nice_step(a->hi - a->lo, 6);
        t->k0 = RFL_CEIL(a->lo / t->step - 1e-9);
        while (t->nmajor < RFL__MAXTICK &&
               !((t->k0 + t->nmajor) * t->step > a->hi + t->step * 1e-9))
            t->nmajor++;
    }
}

/* Trim trailing blanks left by rfl_fmt_si ("100 " -> "100"). */
static void rfl__rtrim(char *b) {
    size_t n = rfl__strlen(b);
    while (n && b[n - 1] == ' ') b[--n] = 0;
}

/* An axis's label style, one for all its labels (a mix read "1000, 10000,
   10^5"). AUTO: plain when every major tick is 0 or within 0.001..99999,
   else 10^k on a log axis and SI on a linear one. */
static rfl_ticks rfl__axis_style(const rfl__axis *a) {
    rfl__tickset t;
    double v0, v1, big;
    if (a->ticks != RFL_TICKS_AUTO) return a->ticks;
    rfl__make_ticks(a, &t);
    if (t.nmajor < 1) return RFL_TICKS_PLAIN;
    v0 = rfl__absd(rfl__tmajor(a, &t, 0));
    v1 = rfl__absd(rfl__tmajor(a, &t, t.nmajor - 1));
    big = v0 > v1 ? v0 : v1;
    if (a->log) return v0 >= 1e-3 && v1 < 1e5 ? RFL_TICKS_PLAIN : RFL_TICKS_POW10;
    /* linear: the largest label sits at an end, the smallest nonzero is the step */
    return big < 1e5 && t.step >= 1e-3 ? RFL_TICKS_PLAIN : RFL_TICKS_SI;
}

static void rfl__tick_label(char *b, size_t size, const rfl__axis *a, double v) {
    double av = rfl__absd(v);
    rfl_ticks st = rfl__axis_style(a);
    b[0] = 0;
    if (st == RFL_TICKS_POW10 && a->log && v > 0) {
        double k = RFL_FLOOR(RFL_LOG10(v) + 0.5);
        if (rfl__absd(v / rfl__p10(k) - 1) < 1e-6) {
            b[0] = '1'; b[1] = '0'; b[2] = '^';
            rfl_fmt_num(b + 3, size - 3, k, 4);
            return;
        }
        st = RFL_TICKS_SI;
    }
    if (st == RFL_TICKS_SI && av >= 1e-24) {
        rfl_fmt_si(b, size, v, 3);
        rfl__rtrim(b);
        return;
    }
    rfl_fmt_num(b, size, v, 6);
}

/* ---- layout helpers ---------------------------------------------------------- */
typedef struct rfl__rect {
    double x0, y0, x1, y1;
} rfl__rect;

static int rfl__overlap(const rfl__rect *a, const rfl__rect *b) {
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Things a legend or a label should not cover, each with a weight: the
   chart's fixed obstacles (points, samples along lines, bars), then the
   labels placed so far. Only the labels' choices are stored (the frames
   stay small): the chart replays its fixed obstacles into an rfl__scan
   for every rectangle it scores, and rebuilds a placed label's box from
   its id and choice. The limits are those of the table of RFL__NOBST
   rectangles that this replaced: the first RFL__NOBST - RFL__NLAB fixed
   obstacles count, then labels while the total is under RFL__NOBST, but
   at most RFL__NLAB labels (a scatter chart; a roofline panel has at most
   RFL__JOBS); beyond that they are ignored, which only affects placement. */
#define RFL__NOBST 768
#define RFL__NLAB 96
typedef struct rfl__scan {
    const rfl__rect *r; /* the rectangle scored; NULL: only count */
    long score;
    int n;              /* fixed obstacles counted so far */
} rfl__scan;
typedef void (*rfl__fixed_fn)(const void *ctx, rfl__scan *sc);
typedef void (*rfl__label_fn)(const void *ctx, int id, int how, rfl__rect *box);
typedef struct rfl__labels { /* the chart's arrays of cap (<= RFL__NLAB) entries */
    int n, cap;
    int *id;            /* which label: the chart's numbering */
    unsigned char *how; /* candidate + 8 x form (1: the short one) */
} rfl__labels;
typedef struct rfl__obst {
    rfl__fixed_fn fixed;
    rfl__label_fn label_box; /* a placed label's box from (id, how) */
    const void *ctx;
    rfl__labels *lab;        /* NULL: the chart places no labels */
    int nfixed;              /* fixed obstacles that count */
} rfl__obst;

static void rfl__scan_add(rfl__scan *sc, double x0, double y0, double x1, double y1, int w) {
    rfl__rect b;
    if (sc->n >= RFL__NOBST - RFL__NLAB || !rfl__finite4(x0, y0, x1, y1)) return;
    sc->n++;
    b.x0 = x0; b.y0 = y0; b.x1 = x1; b.y1 = y1;
    if (sc->r && rfl__overlap(&b, sc->r)) sc->score += w;
}
/* ctx must describe every fixed obstacle already: they are counted here */
static void rfl__obst_init(rfl__obst *o, rfl__fixed_fn fixed, rfl__label_fn label_box,
                           const void *ctx, rfl__labels *lab, int *id, unsigned char *how,
                           int cap) {
    rfl__scan sc;
    o->fixed = fixed;
    o->label_box = label_box;
    o->ctx = ctx;
    o->lab = lab;
    if (lab) {
        lab->n = 0;
        lab->cap = cap;
        lab->id = id;
        lab->how = how;
    }
    RFL_MEMSET(&sc, 0, sizeof sc);
    fixed(ctx, &sc);
    o->nfixed = sc.n;
}
static long rfl__obst_score(const rfl__obst *o, const rfl__rect *r) {
    rfl__scan sc;
    int i;
    RFL_MEMSET(&sc, 0, sizeof sc);
    sc.r = r;
    o->fixed(o->ctx, &sc);
    for (i = 0; o->lab && i < o->lab->n; i++) {
        rfl__rect b;
        o->label_box(o->ctx, o->lab->id[i], o->lab->how[i], &b);
        if (rfl__overlap(&b, r)) sc.score += 40;
    }
    return sc.score;
}
/* Samples of a pixel polyline every few pixels as small obstacles. */
static void rfl__scan_line(rfl__scan *sc, double x0, double y0, double x1, double y1, double step,
                           int w, const rfl__rect *clip) {
    double dx = x1 - x0, dy = y1 - y0, len = RFL_SQRT(dx * dx + dy * dy), t;
    int k = 0;
    if (!(len > 0) || !rfl__isfinite(len)) return;
    if (len / step > 48) step = len / 48; /* long lines: at most ~48 samples */
    for (t = 0; t <= len && k < 400; t += step, k++) {
        double x = x0 + dx * t / len, y = y0 + dy * t / len;
        /* boxes stretched along the line so that they touch: the whole
           line is covered, but only 2 px to either side of it */
        double hx = rfl__absd(dx) / len * step / 2 + 2, hy = rfl__absd(dy) / len * step / 2 + 2;
        if (x < clip->x0 || x > clip->x1 || y < clip->y0 || y > clip->y1) continue;
        rfl__scan_add(sc, x - hx, y - hy, x + hx, y + hy, w);
    }
}

/* Text box for anchor + flags (horizontal text only). */
static rfl__rect rfl__text_box(double x, double y, const char *s, int scale, int flags) {
    rfl__rect r;
    double w = rfl_text_width(s, -1, scale), h = RFL_FONT_H * scale, dx, dy;
    rfl__text_anchor(flags, w, h, &dx, &dy);
    r.x0 = x + dx;
    r.y0 = y + dy;
    r.x1 = r.x0 + w;
    r.y1 = r.y0 + h;
    return r;
}

/* Try label anchors in order, first with the full text, then with `alt`
   (a shorter form, may be NULL); draw at the first place that stays inside
   `inside` and covers nothing. Failing that, the least bad place that
   covers no point or label (crossing a few line samples is tolerated);
   failing that, nothing: an unreadable label is worse than none. Records
   the drawn label in o as `id` with its choice (see rfl__label_box).
   Returns 1 when drawn. */
typedef struct rfl__cand {
    double x, y;
    int flags;
} rfl__cand;
/* The box a placed label keeps others out of: its text with a margin. */
static void rfl__label_box(const rfl__cand *cand, const char *t, int scale, rfl__rect *box) {
    rfl__rect br = rfl__text_box(cand->x, cand->y, t, scale, cand->flags);
    box->x0 = br.x0 - 4 * scale;
    box->y0 = br.y0 - 2;
    box->x1 = br.x1 + 4 * scale;
    box->y1 = br.y1 + 2;
}
static int rfl__place_label(rfl_canvas *c, rfl__obst *o, const rfl__rect *inside,
                            const rfl__cand *cand, int n, const char *s, const char *alt,
                            int scale, rfl_color color, int id) {
    long best = -1;
    int i, v, bi = 0, bv = 0;
    const char *bs = s;
    rfl__rect br, box;
    rfl__labels *lab = o->lab;
    for (v = 0; v < 2; v++) {
        const char *t = v ? alt : s;
        if (!t) continue;
        for (i = 0; i < n; i++) {
            rfl__rect r = rfl__text_box(cand[i].x, cand[i].y, t, scale, cand[i].flags);
            long sc = rfl__obst_score(o, &r);
            if (r.x0 < inside->x0 || r.x1 > inside->x1 || r.y0 < inside->y0 || r.y1 > inside->y1)
                sc += 1000;
            if (best < 0 || sc < best) { best = sc; bi = i; bs = t; bv = v; }
            if (sc == 0) break;
        }
        if (best == 0) break;
    }
    if (n <= 0 || best < 0 || best >= 30) return 0;
    br = rfl__text_box(cand[bi].x, cand[bi].y, bs, scale, cand[bi].flags);
    /* a white halo keeps a label legible where it crosses grid lines */
    rfl_fill_rect(c, br.x0 - 2, br.y0, br.x1 - br.x0 + 4, br.y1 - br.y0, RFL_RGB(255, 255, 255));
    rfl_draw_text(c, cand[bi].x, cand[bi].y, bs, scale, cand[bi].flags, color);
    rfl__label_box(&cand[bi], bs, scale, &box);
    if (lab && rfl__finite4(box.x0, box.y0, box.x1, box.y1) && o->nfixed + lab->n < RFL__NOBST &&
        lab->n < lab->cap) {
        lab->id[lab->n] = id;
        lab->how[lab->n++] = (unsigned char)(bi + 8 * bv);
    }
    return 1;
}

/* ---- palette and series ------------------------------------------------------ */
static const rfl_color rfl__palette[10] = {
    0xFF1F77B4u, 0xFFE8710Au, 0xFF2CA02Cu, 0xFF8E5CC8u, 0xFF8C564Bu,
    0xFFD6449Fu, 0xFF17A2B8u, 0xFF8A8A14u, 0xFF2B3A8Cu, 0xFF6F6F6Fu};
static const rfl_marker rfl__markers[7] = {RFL_MARKER_CIRCLE, RFL_MARKER_SQUARE,
                                           RFL_MARKER_TRIANGLE, RFL_MARKER_DIAMOND,
                                           RFL_MARKER_TRIANGLE_DOWN, RFL_MARKER_PLUS,
                                           RFL_MARKER_CROSS};
RFL_API rfl_color rfl_series_color(int i) { return rfl__palette[(i < 0 ? 0 : i) % 10]; }
RFL_API rfl_marker rfl_series_marker(int i) { return rfl__markers[(i < 0 ? 0 : i) % 7]; }
#define RFL__INK 0xFF222222u
#define RFL__GRID 0xFFDADADAu
#define RFL__GRID2 0xFFF0F0F0u
#define RFL__WARN 0xFFD62728u
#define RFL__LIGHT 0xFF8F8F8Fu

static int rfl__streq(const char *a, const char *b) {
    if (a == b) return 1;
    if (!a || !b) return 0;
    while (*a && *a == *b) { a++; b++; }
    return *a == *b;
}
static int rfl__has_label(const char *s) { return s && s[0]; }

/* ---- legend ---------------------------------------------------------------- */
#define RFL__MAXLEG 24
/* Entries in small types (the legend lives on the stack): a warning's
   text is followed by rfl__leg_suffix. */
typedef struct rfl__legend {
    const char *text[RFL__MAXLEG];
    rfl_color color[RFL__MAXLEG];
    unsigned char marker[RFL__MAXLEG]; /* rfl_marker */
    unsigned char hollow[RFL__MAXLEG];
    unsigned char kind[RFL__MAXLEG]; /* 0 marker, 1 swatch, 2 warning, 3 note */
    int n, more;
} rfl__legend;

static void rfl__leg_add(rfl__legend *l, const char *text, rfl_marker m, rfl_color col,
                         int hollow, int kind) {
    if (l->n >= RFL__MAXLEG) { l->more++; return; }
    l->text[l->n] = text;
    /* rfl_draw_marker draws every value outside the enum as a circle */
    l->marker[l->n] = (unsigned char)((unsigned)m < RFL_MARKER_COUNT ? m : RFL_MARKER_CIRCLE);
    l->color[l->n] = col;
    l->hollow[l->n] = hollow != 0;
    l->kind[l->n] = (unsigned char)kind;
    l->n++;
}
static const char *rfl__leg_suffix(const rfl__legend *l, int i) {
    return l->kind[i] == 2 ? ": above roof, check units" : 0;
}

#define RFL__LEG_MAXCH 48 /* longer legend texts are cut with ".." */
static int rfl__leg_textw(const rfl__legend *l, int i, int s) {
    int w = rfl_text_width(l->text[i], -1, s) + rfl_text_width(rfl__leg_suffix(l, i), -1, s);
    return rfl__imin(w, RFL__LEG_MAXCH * RFL_FONT_W * s);
}
static void rfl__leg_size(const rfl__legend *l, int s, double *w, double *h) {
    int i, mw = 0;
    for (i = 0; i < l->n; i++) mw = rfl__imax(mw, rfl__leg_textw(l, i, s));
    if (l->more) mw = rfl__imax(mw, 12 * RFL_FONT_W * s);
    *w = mw + 24.0 * s;
    *h = (l->n + (l->more ? 1 : 0)) * (RFL_FONT_H + 3) * s + 6.0 * s;
}

/* Draw text clipped to at most RFL__LEG_MAXCH characters. */
static void rfl__text_cut(rfl_canvas *c, double x, double y, const char *a, const char *b, int s,
                          int flags, rfl_color col) {
    char buf[RFL__LEG_MAXCH + 4];
    int n = 0, i;
    for (i = 0; a && a[i] && n < RFL__LEG_MAXCH; i++) buf[n++] = a[i];
    for (i = 0; b && b[i] && n < RFL__LEG_MAXCH; i++) buf[n++] = b[i];
    if ((a && a[0] && rfl__strlen(a) + (b ? rfl__strlen(b) : 0) > RFL__LEG_MAXCH)) {
        buf[n - 2] = '.';
        buf[n - 1] = '.';
    }
    buf[n] = 0;
    rfl_draw_text(c, x, y, buf, s, flags, col);
}

static void rfl__leg_draw(rfl_canvas *c, const rfl__legend *l, double x, double y, int s) {
    double w, h, rowh = (RFL_FONT_H + 3) * s;
    int i;
    rfl__leg_size(l, s, &w, &h);
    rfl_fill_rect(c, x, y, w, h, RFL_RGB(255, 255, 255)); /* opaque: it sits where no data is */
    rfl_draw_rect(c, x, y, w, h, 1, 0xFFB0B0B0u);
    for (i = 0; i < l->n; i++) {
        double cy = y + 3 * s + rowh * i + rowh / 2, mx = x + 11 * s;
        switch (l->kind[i]) {
        case 1: rfl_fill_rect(c, mx - 5 * s, cy - 4 * s, 10 * s, 8 * s, l->color[i]); break;
        case 2:
            rfl_draw_circle(c, mx, cy, 4.5 * s, 1.5 * s, RFL__WARN);
            rfl_draw_text(c, mx + 0.5, cy, "!", s, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE, RFL__WARN);
            break;
        case 3: break;
        default:
            rfl_draw_marker(c, (rfl_marker)l->marker[i], mx, cy, 6.0 + 3 * s, l->hollow[i], l->color[i]);
        }
        rfl__text_cut(c, x + 20 * s, cy + s, l->text[i], rfl__leg_suffix(l, i), s, RFL_TEXT_MIDDLE,
                      l->kind[i] == 2 ? RFL__WARN : l->kind[i] == 3 ? 0xFF666666u : RFL__INK);
    }
    if (l->more) {
        char b[48];
        rfl__sb t = rfl__sb_make(b, sizeof b);
        rfl__sb_f(&t, "... and %6 more", (double)l->more);
        rfl_draw_text(c, x + 20 * s, y + 3 * s + rowh * l->n + rowh / 2 + s, b, s, RFL_TEXT_MIDDLE,
                      0xFF666666u);
    }
}

/* Put the legend in the corner of `plot` that covers the least; when every
   corner would hide a point or a label at the normal text size, try one
   size smaller before settling for the least bad corner. */
static void rfl__leg_place(rfl_canvas *c, const rfl__legend *l, const rfl__rect *plot,
                           const rfl__obst *o, rfl_legend where, int s) {
    static const int order[4] = {0, 3, 1, 2}; /* ties: TL, BR, TR, BL */
    rfl__rect r;
    long best = -1;
    int i, ls, bs = s;
    double bx = 0, by = 0;
    if (where == RFL_LEGEND_NONE || (l->n == 0 && !l->more)) return;
    for (ls = s; ls >= 1 && ls >= s - 1; ls--) {
        double w, h, pad = 6.0 * ls;
        rfl__leg_size(l, ls, &w, &h);
        for (i = 0; i < 4; i++) {
            int k = order[i];
            long sc;
            if (where >= RFL_LEGEND_TOP_LEFT && where <= RFL_LEGEND_BOTTOM_RIGHT &&
                k != (int)where - (int)RFL_LEGEND_TOP_LEFT)
                continue;
            r.x0 = (k & 1) ? plot->x1 - pad - w : plot->x0 + pad;
            r.y0 = (k & 2) ? plot->y1 - pad - h : plot->y0 + pad;
            r.x1 = r.x0 + w;
            r.y1 = r.y0 + h;
            sc = rfl__obst_score(o, &r);
            if (r.x0 < plot->x0 || r.y0 < plot->y0) sc += 100000; /* does not fit */
            if (best < 0 || sc < best) { best = sc; bs = ls; bx = r.x0; by = r.y0; }
        }
        if (best >= 0 && best < 30) break; /* hides no point or label */
    }
    rfl__leg_draw(c, l, bx, by, bs);
}

/* ---- frame: axes, grid, ticks, titles ------------------------------------------ */
/* Width of the widest y tick label. */
static int rfl__ylabel_w(const rfl__axis *a, int s) {
    rfl__tickset t;
    char b[40];
    int i, w = 0;
    rfl__make_ticks(a, &t);
    for (i = 0; i < t.nmajor; i++) {
        rfl__tick_label(b, sizeof b, a, rfl__tmajor(a, &t, i));
        w = rfl__imax(w, rfl_text_width(b, -1, s));
    }
    return w;
}

/* The plot inside the panel x0..x1, y0..y1: margins for the axes (y
   labels lw wide) and their titles. */
static rfl__rect rfl__plot_rect(double x0, double y0, double x1, double y1, double lw, int s,
                                int has_ytitle) {
    rfl__rect r;
    r.x0 = x0 + 6 * s + (has_ytitle ? (RFL_FONT_H + 4) * s : 0) + lw + 6 * s;
    r.x1 = x1 - 14 * s;
    r.y0 = y0 + 4 * s;
    r.y1 = y1 - (6 * s + RFL_FONT_H * s + 4 * s + (RFL_FONT_H + 4) * s);
    if (r.x1 < r.x0 + 4) r.x1 = r.x0 + 4;
    if (r.y1 < r.y0 + 4) r.y1 = r.y0 + 4;
    return r;
}

/* A one-pixel grid or tick line at pixel pos of an axis, from a to b
   across the other: vertical for the x axis, horizontal for the y axis
   (is_y). Exact and far cheaper than a round-capped anti-aliased segment. */
static void rfl__tick_line(rfl_canvas *c, int is_y, double pos, double a, double b, rfl_color col) {
    if (is_y) rfl_fill_rect(c, a, RFL_FLOOR(pos), b - a, 1, col);
    else rfl_fill_rect(c, RFL_FLOOR(pos), a, 1, b - a, col);
}

/* An axis's grid lines across the plot: minor ones lighter, first. */
static void rfl__axis_grid(rfl_canvas *c, const rfl__rect *p, const rfl__axis *a,
                           const rfl__tickset *t, int is_y) {
    double v, lo = is_y ? p->x0 : p->y0, hi = is_y ? p->x1 : p->y1;
    int i;
    for (i = 0; i < t->nminor; i++)
        if (rfl__tminor(a, t, i, &v))
            rfl__tick_line(c, is_y, RFL_FLOOR(rfl__amap(a, v)) + 0.5, lo, hi, RFL__GRID2);
    for (i = 0; i < t->nmajor; i++)
        rfl__tick_line(c, is_y, RFL_FLOOR(rfl__amap(a, rfl__tmajor(a, t, i))) + 0.5, lo, hi,
                       RFL__GRID);
}

/* An axis's tick marks outside the plot, and the label of every step-th
   major tick: below the x axis, left of the y axis. */
static void rfl__axis_ticks(rfl_canvas *c, const rfl__rect *p, const rfl__axis *a,
                            const rfl__tickset *t, int is_y, int step, int s) {
    char b[40];
    double v, pos;
    int i;
    for (i = 0; i < t->nminor + t->nmajor; i++) { /* minor ticks first, shorter and lighter */
        int major = i >= t->nminor, len = (major ? 5 : 3) * s;
        rfl_color col = major ? 0xFF555555u : 0xFF888888u;
        if (major) v = rfl__tmajor(a, t, i - t->nminor);
        else if (!rfl__tminor(a, t, i, &v)) continue;
        pos = RFL_FLOOR(rfl__amap(a, v)) + 0.5;
        if (is_y) rfl__tick_line(c, 1, pos, p->x0 - len, p->x0, col);
        else rfl__tick_line(c, 0, pos, p->y1, p->y1 + len, col);
        if (!major || (i - t->nminor) % step) continue;
        rfl__tick_label(b, sizeof b, a, v);
        if (is_y) rfl_draw_text(c, p->x0 - 7 * s, pos, b, s, RFL_TEXT_RIGHT | RFL_TEXT_MIDDLE, RFL__INK);
        else rfl_draw_text(c, pos, p->y1 + 7 * s, b, s, RFL_TEXT_CENTER, RFL__INK);
    }
}

/* Every step-th x label, the smallest step at which no two collide. */
static int rfl__xlabel_step(const rfl__axis *x, const rfl__tickset *t, int s) {
    char b[40];
    int i, step;
    for (step = 1;; step++) {
        double prev = -1e300;
        int ok = 1;
        for (i = 0; i < t->nmajor; i += step) {
            double v = rfl__tmajor(x, t, i), px = rfl__amap(x, v), w;
            rfl__tick_label(b, sizeof b, x, v);
            w = rfl_text_width(b, -1, s);
            if (px - w / 2 < prev + 4 * s) { ok = 0; break; }
            prev = px + w / 2;
        }
        if (ok || step > t->nmajor) return step;
    }
}

/* Every step-th y label, so that labels are a line apart. */
static int rfl__ylabel_step(const rfl__axis *y, const rfl__tickset *t, int s) {
    int step = 1;
    if (t->nmajor > 1) {
        double gap = rfl__absd(rfl__amap(y, rfl__tmajor(y, t, 1)) - rfl__amap(y, rfl__tmajor(y, t, 0)));
        while (gap * step < (RFL_FONT_H + 2) * s && step < t->nmajor) step++;
    }
    return step;
}

/* axes flags for rfl__draw_frame */
#define RFL__NO_XTICKS 1
#define RFL__NO_YTICKS 2
/* The plot's frame: grid, ticks and labels (an axis without ticks has no
   grid either), and the axis titles. */
static void rfl__draw_frame(rfl_canvas *c, const rfl__rect *p, const rfl__axis *x,
                            const rfl__axis *y, const char *xtitle, const char *ytitle, int s,
                            int flags) {
    rfl__tickset t;
    rfl__make_ticks(x, &t);
    if (flags & RFL__NO_XTICKS) t.nmajor = t.nminor = 0;
    rfl__axis_grid(c, p, x, &t, 0);
    rfl__axis_ticks(c, p, x, &t, 0, rfl__xlabel_step(x, &t, s), s);
    rfl__make_ticks(y, &t);
    if (flags & RFL__NO_YTICKS) t.nmajor = t.nminor = 0;
    rfl__axis_grid(c, p, y, &t, 1);
    rfl__axis_ticks(c, p, y, &t, 1, rfl__ylabel_step(y, &t, s), s);
    rfl_draw_rect(c, RFL_FLOOR(p->x0), RFL_FLOOR(p->y0), RFL_FLOOR(p->x1) - RFL_FLOOR(p->x0) + 1,
                  RFL_FLOOR(p->y1) - RFL_FLOOR(p->y0) + 1, 1, 0xFF555555u);
    if (xtitle)
        rfl_draw_text(c, (p->x0 + p->x1) / 2, p->y1 + 7 * s + RFL_FONT_H * s + 5 * s, xtitle, s,
                      RFL_TEXT_CENTER, RFL__INK);
    if (ytitle) {
        double lw = (flags & RFL__NO_YTICKS) ? 0 : rfl__ylabel_w(y, s);
        rfl_draw_text(c, p->x0 - 7 * s - lw - 4 * s, (p->y0 + p->y1) / 2, ytitle, s,
                      RFL_TEXT_UP | RFL_TEXT_CENTER | RFL_TEXT_BOTTOM, RFL__INK);
    }
}

/* Font scale from the size of one plot panel: 1 below ~700 x 440 pixels,
   2 up to ~1350 x 840, then 3 and 4 (text stays near 1/50 of the panel). */
static int rfl__auto_font(double w, double h, int fs) {
    double k;
    if (fs > 0) return fs > RFL__FONT_MAXSCALE ? RFL__FONT_MAXSCALE : fs;
    k = w / 560.0 < h / 350.0 ? w / 560.0 : h / 350.0;
    return 1 + (k >= 1.25) + (k >= 2.4) + (k >= 3.6);
}

/* A chart's start: the whole canvas cleared to white, and the title band;
   returns the y below it. A title too wide for the canvas drops one size,
   then is cut with "..". */
static double rfl__begin_chart(rfl_canvas *c, const char *title, int s) {
    char b[256];
    rfl__sb t = rfl__sb_make(b, sizeof b);
    int ts = s + 1;
    double room = c->width - 8.0 * s;
    rfl_canvas_unclip(c);
    rfl_canvas_clear(c, RFL_RGB(255, 255, 255));
    if (!title || !title[0]) return 4.0 * s;
    if (rfl_text_width(title, -1, ts) > room) ts = s;
    if (rfl_text_width(title, -1, ts) > room) {
        int n = (int)(room / (RFL_FONT_W * ts)) - 2;
        n = rfl__imax(rfl__imin(n, (int)sizeof b - 3), 1);
        rfl__sb_sn(&t, title, (size_t)n);
        rfl__sb_s(&t, "..");
        title = b;
    }
    rfl_draw_text(c, c->width / 2.0, 6.0 * s, title, ts, RFL_TEXT_CENTER, RFL__INK);
    return 6.0 * s + RFL_FONT_H * ts + 2.0 * s;
}

/* Where the plot went, for the caller (rfl_chart_area; a NULL a: nothing). */
static void rfl__put_area(rfl_chart_area *a, const rfl__rect *p, const rfl__axis *x,
                          const rfl__axis *y) {
    if (!a) return;
    a->x0 = p->x0; a->y0 = p->y0; a->x1 = p->x1; a->y1 = p->y1;
    a->x_min = x->lo; a->x_max = x->hi; a->x_log = x->log;
    a->y_min = y->lo; a->y_max = y->hi; a->y_log = y->log;
}

/* ---- series: colour and marker per label -----------------------------------
   A series is the points that share a label. Only its first point and its
   colour slot are kept (small frames): the label and the link are read
   from that point. Series whose first points share a nonzero link share a
   colour slot. */
#define RFL__MAXSER 64
typedef struct rfl__series {
    const rfl_point *pts; /* roofline points, or */
    const rfl_xy *xys;    /* scatter points */
    int links;            /* 0: links do not share colours (the text chart) */
    int first[RFL__MAXSER];          /* first point of the series */
    unsigned char slot[RFL__MAXSER]; /* colour slot */
    int n, nslots;
} rfl__series;

static void rfl__ser_init(rfl__series *t, const rfl_point *pts, const rfl_xy *xys, int links) {
    t->pts = pts;
    t->xys = xys;
    t->links = links;
    t->n = t->nslots = 0;
}
static const char *rfl__ser_label(const rfl__series *t, int i) {
    return t->pts ? t->pts[t->first[i]].label : t->xys[t->first[i]].label;
}
static int rfl__ser_link(const rfl__series *t, int i) {
    if (!t->links) return 0;
    return t->pts ? t->pts[t->first[i]].link : t->xys[t->first[i]].link;
}
static int rfl__ser_find(const rfl__series *t, const char *label) {
    int i;
    for (i = 0; i < t->n; i++)
        if (rfl__streq(rfl__ser_label(t, i), label)) return i;
    return -1;
}
/* Register point `index`'s label; returns its series index (-1 when the
   table is full or the label empty). */
static int rfl__ser_add(rfl__series *t, int index) {
    int k, link;
    const char *label = t->pts ? t->pts[index].label : t->xys[index].label;
    if (!rfl__has_label(label)) return -1;
    k = rfl__ser_find(t, label);
    if (k >= 0) return k;
    if (t->n >= RFL__MAXSER) return -1;
    t->first[t->n] = index;
    /* a nonzero link takes the slot of the first series with that link */
    link = rfl__ser_link(t, t->n);
    for (k = 0; k < t->n && !(link && rfl__ser_link(t, k) == link); k++) {}
    t->slot[t->n] = (unsigned char)(k < t->n ? t->slot[k] : t->nslots++);
    return t->n++;
}

/* ---- the roofline chart ------------------------------------------------------- */
static const char *rfl__prec_title(rfl_prec p) {
    static const char *const n[RFL_PREC_COUNT] = {"FP32", "FP64", "FP16", "FP64 tensor",
                                                 "TF32 tensor", "FP16 tensor", "BF16 tensor",
                                                 "FP8 tensor", "INT8 tensor"};
    return (unsigned)p < RFL_PREC_COUNT ? n[p] : "?";
}
static const char *rfl__level_title(rfl_level l) {
    static const char *const n[RFL_LEVEL_COUNT] = {"DRAM", "L2", "L1"};
    return (unsigned)l < RFL_LEVEL_COUNT ? n[l] : "?";
}

/* "19.5 TFLOP/s": value with SI prefix and unit appended. */
static void rfl__fmt_unit(char *b, size_t size, const char *pre, double v, const char *unit) {
    rfl__sb t = rfl__sb_make(b, size);
    rfl__sb_s(&t, pre);
    rfl__sb_si(&t, v, unit);
}

static int rfl__point_ok(const rfl_point *p) {
    return rfl__isfinite(p->ai) && p->ai > 0 && rfl__isfinite(p->flops_per_s) && p->flops_per_s > 0;
}
static int rfl__on_panel(const rfl_point *p, int k, int n) {
    return p->machine == RFL_ALL_MACHINES ? 1 : (p->machine == k && k < n);
}

/* Precisions drawn as main roofs on panel k (bit mask). */
static unsigned rfl__panel_precs(const rfl_roofline_desc *d, int k) {
    unsigned m = 0;
    int i;
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *p = &d->points[i];
        if (rfl__point_ok(p) && rfl__on_panel(p, k, d->n_machines) && (unsigned)p->prec < RFL_PREC_COUNT)
            m |= 1u << p->prec;
    }
    if (!m) m = 1u << ((unsigned)d->prec < RFL_PREC_COUNT ? d->prec : RFL_FP32);
    return m;
}

/* roof of prec at ai on machine m (main level); 0 when absent */
static double rfl__roof(const rfl_machine *m, rfl_prec p, rfl_level l, double ai) {
    double peak = m->peak_flops[p], bw = m->bw_bytes_per_s[l];
    if (!(peak > 0)) return 0;
    if (!(bw > 0)) return peak;
    return ai * bw < peak ? ai * bw : peak;
}

/* 1 when the point lies above its roof on m (2% allowed for rounding):
   its units are probably wrong. */
static int rfl__above_roof(const rfl_machine *m, rfl_level lv, const rfl_point *pt) {
    double roof = (unsigned)pt->prec < RFL_PREC_COUNT ? rfl__roof(m, pt->prec, lv, pt->ai) : 0;
    return roof > 0 && pt->flops_per_s > roof * 1.02;
}

static double rfl__marker_size(double weight, int s) {
    double base = 6.0 + 4.0 * s, k;
    if (!(weight > 0) || !rfl__isfinite(weight)) return base;
    k = RFL_SQRT(weight > 1 ? 1 : weight) * 2.6;
    return base * (k < 0.45 ? 0.45 : k > 2.6 ? 2.6 : k);
}
/* A point's marker at (px, py) as an obstacle, with a margin. */
static void rfl__scan_marker(rfl__scan *sc, double px, double py, double weight, int s) {
    double h = rfl__marker_size(weight, s) / 2 + 3 * s;
    rfl__scan_add(sc, px - h, py - h, px + h, py + h, 30);
}

/* Room for the measured roofs: their peaks and ridges widen the ranges. */
static void rfl__ranges_measured(const rfl_roofline_desc *d, rfl_level lv, double *xhi,
                                 double *ylo, double *yhi) {
    int k, p;
    for (k = 0; d->measured && k < d->n_machines; k++) {
        const rfl_machine *mm = d->measured[k], *m = d->machines[k];
        double bw;
        if (!mm) continue;
        bw = mm->bw_bytes_per_s[lv] > 0 ? mm->bw_bytes_per_s[lv] : m->bw_bytes_per_s[lv];
        for (p = 0; p < RFL_PREC_COUNT; p++) {
            double pk = mm->peak_flops[p] > 0 ? mm->peak_flops[p] : m->peak_flops[p];
            if (!((rfl__panel_precs(d, k) >> p) & 1) || !(pk > 0)) continue;
            rfl__widen(ylo, yhi, pk / 10, pk * 3);
            if (bw > 0 && pk / bw * 30 > *xhi) *xhi = pk / bw * 30;
        }
    }
}

static void rfl__ranges(const rfl_roofline_desc *d, rfl__axis *x, rfl__axis *y) {
    double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300, ymin_roof = 1e300;
    double plo = 1e300;
    int k, i, p;
    rfl_level lv = (unsigned)d->level < RFL_LEVEL_COUNT ? d->level : RFL_DRAM;
    for (k = 0; k < d->n_machines; k++) {
        const rfl_machine *m = d->machines[k];
        unsigned mains = rfl__panel_precs(d, k), precs = mains | d->extra_precs;
        double bw = m->bw_bytes_per_s[lv], mainpeak = 0;
        for (p = 0; p < RFL_PREC_COUNT; p++) {
            double pk = m->peak_flops[p];
            int is_main = (mains >> p) & 1;
            if (!((precs >> p) & 1) || !(pk > 0)) continue;
            if (is_main && pk > mainpeak) mainpeak = pk;
            /* room above a main roof for its label; extra ceilings less */
            rfl__widen(&ylo, &yhi, pk / 10, pk * (is_main ? 3 : 1.6));
            if (bw > 0) rfl__widen(&xlo, &xhi, pk / bw / 30, pk / bw * 30);
        }
        for (i = 0; i < RFL_LEVEL_COUNT; i++) {
            double b2 = m->bw_bytes_per_s[i];
            if (!((d->extra_levels >> i) & 1) || !(b2 > 0) || !(mainpeak > 0)) continue;
            if (mainpeak / b2 / 10 < xlo) xlo = mainpeak / b2 / 10;
        }
    }
    rfl__ranges_measured(d, lv, &xhi, &ylo, &yhi);
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        if (!rfl__point_ok(pt)) continue;
        rfl__widen(&xlo, &xhi, pt->ai / 3, pt->ai * 3);
        rfl__widen(&plo, &yhi, pt->flops_per_s / 3, pt->flops_per_s * 3);
    }
    if (!(xhi > xlo)) { xlo = 0.1; xhi = 1000; }
    /* the roof should enter from the left edge rather than the bottom */
    for (k = 0; k < d->n_machines; k++) {
        const rfl_machine *m = d->machines[k];
        unsigned precs = rfl__panel_precs(d, k);
        for (p = 0; p < RFL_PREC_COUNT; p++) {
            double r;
            if (!((precs >> p) & 1)) continue;
            r = rfl__roof(m, (rfl_prec)p, lv, rfl__p10(RFL_FLOOR(RFL_LOG10(xlo) + 1e-9)));
            if (r > 0 && r < ymin_roof) ymin_roof = r;
        }
    }
    if (ymin_roof < ylo) ylo = ymin_roof;
    if (!(yhi > 0) || yhi < -1e299) yhi = 1e15;
    if (ylo > yhi / 100) ylo = yhi / 100;
    if (ylo < yhi / 1e7) ylo = yhi / 1e7; /* keep the roof readable ... */
    if (plo < ylo) ylo = plo;             /* ... unless a point needs more */
    if (d->x_min > 0 && rfl__isfinite(d->x_min)) xlo = d->x_min;
    if (d->x_max > 0 && rfl__isfinite(d->x_max)) xhi = d->x_max;
    if (d->y_min > 0 && rfl__isfinite(d->y_min)) ylo = d->y_min;
    if (d->y_max > 0 && rfl__isfinite(d->y_max)) yhi = d->y_max;
    x->log = y->log = 1;
    if (d->x_min > 0 && d->x_max > d->x_min && rfl__isfinite(d->x_max)) { x->lo = xlo; x->hi = xhi; }
    else rfl__nice_range(x, xlo, xhi);
    if (d->y_min > 0 && d->y_max > d->y_min && rfl__isfinite(d->y_max)) { y->lo = ylo; y->hi = yhi; }
    else rfl__nice_range(y, ylo, yhi);
}

/* Geometry of one roof in pixels: left end, ridge, right end. */
typedef struct rfl__roofpx {
    double xy[6];
    int n;
    double rx, ry; /* ridge, when 0 < ridge within range */
    int has_ridge;
} rfl__roofpx;

static void rfl__roof_px(const rfl__axis *x, const rfl__axis *y, double peak, double bw,
                         rfl__roofpx *r) {
    double ridge = bw > 0 ? peak / bw : 0;
    r->n = 0;
    r->has_ridge = 0;
    if (!(peak > 0)) return;
    if (!(bw > 0) || ridge <= x->lo) { /* flat only */
        r->xy[0] = rfl__amap(x, x->lo); r->xy[1] = rfl__amap(y, peak);
        r->xy[2] = rfl__amap(x, x->hi); r->xy[3] = r->xy[1];
        r->n = 2;
        return;
    }
    r->xy[0] = rfl__amap(x, x->lo);
    r->xy[1] = rfl__amap(y, x->lo * bw);
    if (ridge >= x->hi) {
        r->xy[2] = rfl__amap(x, x->hi);
        r->xy[3] = rfl__amap(y, x->hi * bw);
        r->n = 2;
        return;
    }
    r->rx = r->xy[2] = rfl__amap(x, ridge);
    r->ry = r->xy[3] = rfl__amap(y, peak);
    r->xy[4] = rfl__amap(x, x->hi);
    r->xy[5] = r->xy[3];
    r->n = 3;
    r->has_ridge = 1;
}

static void rfl__scan_poly(rfl__scan *sc, const double *xy, int n, int w, const rfl__rect *clip) {
    int i;
    for (i = 0; i + 1 < n; i++)
        rfl__scan_line(sc, xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3], 8, w, clip);
}

/* The visible part of the slope (clipped to the plot). */
static int rfl__slope_seg(const rfl__roofpx *r, const rfl__rect *p, double *x0, double *y0,
                          double *x1, double *y1) {
    *x0 = r->xy[0]; *y0 = r->xy[1]; *x1 = r->xy[2]; *y1 = r->xy[3];
    if (r->n < 2 || *y0 == *y1) return 0;
    return rfl__clip_seg(x0, y0, x1, y1, p->x0, p->y0, p->x1, p->y1);
}

/* The visible part of the slope: the mid point (for its label); 0 when
   too short to carry one. */
static int rfl__slope_mid(const rfl__roofpx *r, const rfl__rect *p, double *mx, double *my) {
    double x0, y0, x1, y1;
    if (!rfl__slope_seg(r, p, &x0, &y0, &x1, &y1)) return 0;
    *mx = (x0 + x1) / 2;
    *my = (y0 + y1) / 2;
    return (x1 - x0) + (y0 - y1) > 40;
}

/* 1 when a label on panel k already says "estim" (no need for a note) */
static int rfl__any_says_estimate(const rfl_roofline_desc *d, int k) {
    int i;
    for (i = 0; i < d->n_points; i++) {
        const char *l = d->points[i].label;
        if (!d->points[i].estimate || !rfl__on_panel(&d->points[i], k, d->n_machines) || !l) continue;
        for (; *l; l++)
            if (rfl__lower(l[0]) == 'e' && rfl__lower(l[1]) == 's' && rfl__lower(l[2]) == 't') break;
        if (!*l) return 0;
    }
    return 1;
}

/* An extra compute ceiling is drawn unless it is a main roof, has the
   same peak as one (the line is already there), or repeats the peak of an
   earlier extra ceiling (then that one's label names both). */
static int rfl__extra_shown(const rfl_machine *m, unsigned extra, unsigned precs, int p) {
    double pk = m->peak_flops[p];
    int q;
    if (!((extra >> p) & 1) || ((precs >> p) & 1) || !(pk > 0)) return 0;
    for (q = 0; q < RFL_PREC_COUNT; q++) {
        double o = m->peak_flops[q];
        int main_q = (precs >> q) & 1, extra_q = ((extra >> q) & 1) && q < p;
        if (q == p || !(o > 0) || !(main_q || extra_q)) continue;
        if (rfl__absd(o - pk) <= pk * 1e-3) return 0;
    }
    return 1;
}

/* One panel: what its drawing, its obstacles and its labels share. */
typedef struct rfl__panel {
    const rfl_roofline_desc *d;
    const rfl_machine *m;
    const rfl_machine *meas; /* measured ceilings (desc->measured[k]) or NULL */
    int k, s;
    rfl_level lv;
    unsigned precs; /* the main roofs */
    double bw, mainpeak;
    rfl__axis x, y;
    rfl__rect plot, inner; /* inner: 3 px inside the plot, for labels */
} rfl__panel;

/* Main roof p in pixels; 0 when p has none here. */
static int rfl__main_px(const rfl__panel *P, int p, rfl__roofpx *r) {
    if (!((P->precs >> p) & 1) || !(P->m->peak_flops[p] > 0)) return 0;
    rfl__roof_px(&P->x, &P->y, P->m->peak_flops[p], P->bw, r);
    return 1;
}
/* Extra compute ceiling p in pixels; 0 when not shown. */
static int rfl__extra_px(const rfl__panel *P, int p, rfl__roofpx *r) {
    double pk = P->m->peak_flops[p];
    if (!rfl__extra_shown(P->m, P->d->extra_precs, P->precs, p)) return 0;
    rfl__roof_px(&P->x, &P->y, pk, P->bw, r);
    if (r->n == 3 && pk < P->mainpeak) { /* only the flat part shows below the roof */
        r->xy[0] = r->xy[2]; r->xy[1] = r->xy[3]; r->xy[2] = r->xy[4]; r->xy[3] = r->xy[5]; r->n = 2;
    }
    return 1;
}
/* Extra bandwidth ceiling i in pixels: the slope up to the main peak; 0
   when not shown. */
static double rfl__level_bw(const rfl_machine *m, const rfl_machine *meas, int i, int *from_meas) {
    double b = m->bw_bytes_per_s[i];
    *from_meas = !(b > 0) && meas && meas->bw_bytes_per_s[i] > 0;
    return *from_meas ? meas->bw_bytes_per_s[i] : b;
}
/* (the table's level, else the measured one) */
static int rfl__level_px(const rfl__panel *P, int i, rfl__roofpx *r) {
    int mf;
    double b2 = rfl__level_bw(P->m, P->meas, i, &mf);
    if (!((P->d->extra_levels >> i) & 1) || i == (int)P->lv || !(b2 > 0) || !(P->mainpeak > 0))
        return 0;
    rfl__roof_px(&P->x, &P->y, P->mainpeak, b2, r);
    if (r->n == 3) r->n = 2; /* has_ridge stays: rfl__slope_mid still takes it */
    return 1;
}

/* Measured roof of main precision p in pixels (dashed beside the solid
   one): the measured peak and bandwidth, the datasheet's where one was
   not measured; 0 when nothing of it was measured. */
static int rfl__meas_px(const rfl__panel *P, int p, rfl__roofpx *r) {
    const rfl_machine *mm = P->meas;
    double pk, bw;
    if (!mm || !((P->precs >> p) & 1)) return 0;
    if (!(mm->peak_flops[p] > 0) && !(mm->bw_bytes_per_s[P->lv] > 0)) return 0;
    pk = mm->peak_flops[p] > 0 ? mm->peak_flops[p] : P->m->peak_flops[p];
    bw = mm->bw_bytes_per_s[P->lv] > 0 ? mm->bw_bytes_per_s[P->lv] : P->bw;
    if (!(pk > 0)) return 0;
    rfl__roof_px(&P->x, &P->y, pk, bw, r);
    return 1;
}
#define RFL__MEAS_INK 0xFFC04A00u /* dark orange: apart from the ink and the palette's blue */

/* The panel's fixed obstacles, in the order they count: main roofs,
   points, extra compute ceilings, extra bandwidths. */
static void rfl__roof_fixed(const void *ctx, rfl__scan *sc) {
    const rfl__panel *P = (const rfl__panel *)ctx;
    const rfl_roofline_desc *d = P->d;
    rfl__roofpx r;
    int p, i;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r)) rfl__scan_poly(sc, r.xy, r.n, 6, &P->plot);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__meas_px(P, p, &r)) rfl__scan_poly(sc, r.xy, r.n, 6, &P->plot);
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        if (rfl__point_ok(pt) && rfl__on_panel(pt, P->k, d->n_machines))
            rfl__scan_marker(sc, rfl__amap(&P->x, pt->ai), rfl__amap(&P->y, pt->flops_per_s),
                             pt->weight, P->s);
    }
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__extra_px(P, p, &r)) rfl__scan_poly(sc, r.xy, r.n, 4, &P->plot);
    for (i = 0; i < RFL_LEVEL_COUNT; i++)
        if (rfl__level_px(P, i, &r)) rfl__scan_poly(sc, r.xy, r.n, 4, &P->plot);
}

/* A label's candidates and text: the long form `full`, and `alt` (NULL or
   a shorter form); n 0 when there is no such label. */
typedef struct rfl__label {
    rfl__cand cd[8];
    int n;
    const char *full, *alt;
    rfl_color color;
    char text[96], buf[64];
} rfl__label;

/* One more place for L, anchored at (x, y) by flags (RFL_TEXT_*). */
static void rfl__cand_add(rfl__label *L, double x, double y, int flags) {
    L->cd[L->n].x = x;
    L->cd[L->n].y = y;
    L->cd[L->n++].flags = flags;
}

/* The panel's labels by number, in the order they are placed (the first
   get the best places): per main roof p its ridge, peak and slope (3p,
   3p + 1, 3p + 2), then the extra compute ceilings (RFL__JOB_EXTRA + p)
   and the extra bandwidths (RFL__JOB_LEVEL + i). */
#define RFL__JOB_EXTRA (3 * RFL_PREC_COUNT)
#define RFL__JOB_LEVEL (RFL__JOB_EXTRA + RFL_PREC_COUNT)
#define RFL__JOB_MEAS (RFL__JOB_LEVEL + RFL_LEVEL_COUNT) /* measured peak, slope */
#define RFL__JOBS (RFL__JOB_MEAS + 2)
/* The measured roof that carries the labels: the highest main roof with
   one. -1 when none. */
static int rfl__meas_main(const rfl__panel *P) {
    rfl__roofpx r;
    int p, best = -1;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__meas_px(P, p, &r) && (best < 0 || P->m->peak_flops[p] > P->m->peak_flops[best])) best = p;
    return best;
}

/* "measured 1.23 TFLOP/s" under the measured flat (which 0), "measured
   45.1 GB/s" right of its slope (which 1); only for what was measured. */
static void rfl__meas_label(const rfl__panel *P, int which, rfl__label *L) {
    static const double fr[3] = {0.55, 0.75, 0.35};
    const rfl_machine *mm = P->meas;
    double sx0, sy0, sx1, sy1, fy, lx;
    rfl__roofpx r;
    int p = rfl__meas_main(P), s = P->s, i;
    if (p < 0 || !rfl__meas_px(P, p, &r)) return;
    L->color = RFL__MEAS_INK;
    L->full = L->text;
    if (which == 0) {
        if (!(mm->peak_flops[p] > 0) || !(r.n == 3 || !(P->bw > 0) || r.xy[1] == r.xy[3])) return;
        rfl__fmt_unit(L->text, sizeof L->text, "measured ", mm->peak_flops[p],
                      p == RFL_INT8_TENSOR ? "OP/s" : "FLOP/s");
        fy = r.xy[2 * r.n - 1];
        lx = (r.has_ridge ? r.rx : P->plot.x0) + 10 * s;
        rfl__cand_add(L, P->plot.x1 - 6 * s, fy + 4 * s, RFL_TEXT_RIGHT);
        rfl__cand_add(L, P->plot.x1 - 6 * s, fy - 4 * s, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
        rfl__cand_add(L, lx, fy + 4 * s, RFL_TEXT_LEFT);
        /* a line lower */
        rfl__cand_add(L, P->plot.x1 - 6 * s, fy + 4 * s + (RFL_FONT_H + 2) * s, RFL_TEXT_RIGHT);
        rfl__cand_add(L, lx, fy + 4 * s + (RFL_FONT_H + 2) * s, RFL_TEXT_LEFT);
        return;
    }
    if (!(mm->bw_bytes_per_s[P->lv] > 0) || !rfl__slope_seg(&r, &P->plot, &sx0, &sy0, &sx1, &sy1)) return;
    rfl__fmt_unit(L->text, sizeof L->text, "measured ", mm->bw_bytes_per_s[P->lv], "B/s");
    for (i = 0; i < 3; i++) /* below-right of the dashed slope, where the solid one is not */
        rfl__cand_add(L, sx0 + (sx1 - sx0) * fr[i] + 8 * s, sy0 + (sy1 - sy0) * fr[i] + 6 * s,
                      RFL_TEXT_LEFT | RFL_TEXT_TOP);
}

/* "DRAM 1.555 TB/s" into b (64 bytes); returns where the value starts. */
static size_t rfl__bw_text(char *b, size_t size, const char *level, double bw) {
    rfl__sb t = rfl__sb_make(b, size);
    size_t n;
    rfl__sb_f(&t, "%s ", level);
    n = t.n;
    rfl__sb_si(&t, bw, "B/s");
    return n;
}

/* The ridge: "ridge 12.54 FLOP/B", or without the unit. */
static void rfl__ridge_label(const rfl__panel *P, int p, const rfl__roofpx *r, rfl__label *L) {
    rfl__sb b = rfl__sb_make(L->buf, sizeof L->buf), t = rfl__sb_make(L->text, sizeof L->text);
    int s = P->s;
    if (!r->has_ridge) return;
    rfl__sb_f(&b, "ridge %4", P->m->peak_flops[p] / P->bw);
    rfl__sb_f(&t, "%s FLOP/B", L->buf);
    L->full = L->text;
    L->alt = L->buf;
    rfl__cand_add(L, r->rx + 8 * s, r->ry + 5 * s, RFL_TEXT_LEFT);
    rfl__cand_add(L, r->rx - 8 * s, r->ry - 5 * s, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
    rfl__cand_add(L, r->rx + 8 * s, r->ry + 20 * s, RFL_TEXT_LEFT);
    rfl__cand_add(L, r->rx + 4 * s, r->ry - 5 * s, RFL_TEXT_LEFT | RFL_TEXT_BOTTOM);
}

/* The flat roof: "FP32 peak 19.5 TFLOP/s", or the value alone, above the
   line at the right. */
static void rfl__peak_label(const rfl__panel *P, int p, const rfl__roofpx *r, rfl__label *L) {
    rfl__sb t = rfl__sb_make(L->text, sizeof L->text);
    double fy = r->xy[2 * r->n - 1], lh = (RFL_FONT_H + 2) * P->s, rx = P->plot.x1 - 6 * P->s;
    int s = P->s;
    if (!(r->n == 3 || !(P->bw > 0) || r->xy[1] == r->xy[3])) return;
    rfl__sb_f(&t, "%s peak ", rfl__prec_title((rfl_prec)p));
    L->alt = L->text + t.n;
    rfl__sb_si(&t, P->m->peak_flops[p], p == RFL_INT8_TENSOR ? "OP/s" : "FLOP/s");
    L->full = L->text;
    rfl__cand_add(L, rx, fy - 4 * s, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
    rfl__cand_add(L, rx, fy + 4 * s, RFL_TEXT_RIGHT);
    rfl__cand_add(L, rx, fy - 4 * s - lh, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
    rfl__cand_add(L, rx, fy + 4 * s + lh, RFL_TEXT_RIGHT);
    rfl__cand_add(L, (r->has_ridge ? r->rx : P->plot.x0) + 10 * s, fy - 4 * s,
                  RFL_TEXT_LEFT | RFL_TEXT_BOTTOM);
}

/* The slope: "DRAM 1.555 TB/s", or the value alone, left of the line's
   visible middle. The panel's roofs share one memory slope: labelled
   once, on the roof of the highest peak (its slope is the longest). */
static void rfl__slope_label(const rfl__panel *P, int p, const rfl__roofpx *r, rfl__label *L) {
    static const double fr[3] = {0.5, 0.75, 0.3}; /* middle, higher, lower */
    const rfl_machine *m = P->m;
    double mx, my, sx0, sy0, sx1, sy1;
    int s = P->s, q;
    if (!(P->bw > 0 && rfl__slope_seg(r, &P->plot, &sx0, &sy0, &sx1, &sy1) &&
          rfl__slope_mid(r, &P->plot, &mx, &my)))
        return;
    for (q = 0; q < RFL_PREC_COUNT; q++) {
        double pq = m->peak_flops[q], pp = m->peak_flops[p];
        if (q != p && ((P->precs >> q) & 1) && pq > 0 && (pq > pp || (pq == pp && q < p)))
            return;
    }
    L->full = L->buf;
    L->alt = L->buf + rfl__bw_text(L->buf, sizeof L->buf, rfl__level_title(P->lv), P->bw);
    for (q = 0; q < 6; q++) {
        double ax = sx0 + (sx1 - sx0) * fr[q % 3], ay = sy0 + (sy1 - sy0) * fr[q % 3];
        /* above-left of the line first (empty: above the roof),
           below-right only when that fails */
        if (q < 3) rfl__cand_add(L, ax - 6 * s, ay - 6 * s, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
        else rfl__cand_add(L, ax + 8 * s, ay + 6 * s, RFL_TEXT_LEFT | RFL_TEXT_TOP);
    }
}

/* An extra compute ceiling: "FP64 9.7 TFLOP/s"; later extra ceilings with
   this peak share the label. */
static void rfl__extra_label(const rfl__panel *P, int p, rfl__label *L) {
    const rfl_machine *m = P->m;
    const rfl__rect *plot = &P->plot;
    rfl__sb t = rfl__sb_make(L->text, sizeof L->text);
    double pk = m->peak_flops[p], py, rx;
    int s = P->s, q, all_int = p == RFL_INT8_TENSOR;
    if (!rfl__extra_shown(m, P->d->extra_precs, P->precs, p)) return;
    rfl__sb_s(&t, rfl__prec_title((rfl_prec)p));
    for (q = p + 1; q < RFL_PREC_COUNT; q++) {
        if (!((P->d->extra_precs >> q) & 1) || ((P->precs >> q) & 1) ||
            !(rfl__absd(m->peak_flops[q] - pk) <= pk * 1e-3) || t.n + 16 > 60)
            continue;
        rfl__sb_f(&t, "/%s", rfl__prec_title((rfl_prec)q));
        if (q != RFL_INT8_TENSOR) all_int = 0;
    }
    rfl__sb_s(&t, " ");
    rfl__sb_si(&t, pk, all_int ? "OP/s" : "FLOP/s");
    L->full = L->text;
    L->color = 0xFF6A6A6Au;
    py = rfl__amap(&P->y, pk);
    rx = P->bw > 0 ? rfl__amap(&P->x, pk / P->bw) : plot->x0;
    if (rx < plot->x0) rx = plot->x0;
    rfl__cand_add(L, plot->x1 - 6 * s, py - 3 * s, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
    rfl__cand_add(L, plot->x1 - 6 * s, py + 3 * s, RFL_TEXT_RIGHT);
    rfl__cand_add(L, rx + 10 * s, py - 3 * s, RFL_TEXT_LEFT | RFL_TEXT_BOTTOM);
}

/* 1 when text `t` at candidate (x, y, flags) crosses a main or measured
   roof: a halo there would cut the roof itself. */
static int rfl__cuts_roof(const rfl__panel *P, const char *t, double x, double y, int flags) {
    rfl__rect box = rfl__text_box(x, y, t, P->s, flags);
    rfl__scan sc;
    rfl__roofpx r;
    int p;
    RFL_MEMSET(&sc, 0, sizeof sc);
    sc.r = &box;
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        if (rfl__main_px(P, p, &r)) rfl__scan_poly(&sc, r.xy, r.n, 1, &P->plot);
        if (rfl__meas_px(P, p, &r)) rfl__scan_poly(&sc, r.xy, r.n, 1, &P->plot);
    }
    return sc.score > 0;
}

/* An extra bandwidth: "L2 5.5 TB/s" over the top end of its own dashed
   slope (up to three rows up: the ridge label may be there); failing
   that, centred on the slope where that cuts no roof (the halo cuts the
   dashed line). Never beside it: parallel slopes lie close, and a label
   between two of them reads as the other's. */
static void rfl__level_label(const rfl__panel *P, int i, rfl__label *L) {
    static const char *const meas_title[RFL_LEVEL_COUNT] = {"measured DRAM", "measured L2",
                                                            "measured L1"};
    static const double fr[3] = {0.5, 0.3, 0.7};
    rfl__roofpx r;
    double mx, my, x0, y0, x1, y1, th = RFL_FONT_H * P->s + 4;
    int q, mf;
    double bw = rfl__level_bw(P->m, P->meas, i, &mf);
    if (!rfl__level_px(P, i, &r) || !rfl__slope_mid(&r, &P->plot, &mx, &my) ||
        !rfl__slope_seg(&r, &P->plot, &x0, &y0, &x1, &y1))
        return;
    rfl__bw_text(L->buf, sizeof L->buf, mf ? meas_title[i] : rfl__level_title((rfl_level)i), bw);
    L->full = L->buf;
    L->color = 0xFF6A6A6Au;
    for (q = 0; q < 3; q++) {
        rfl__cand_add(L, x1, y1 - 3 - q * th, RFL_TEXT_CENTER | RFL_TEXT_BOTTOM);
        rfl__cand_add(L, x1 + 2, y1 - 3 - q * th, RFL_TEXT_RIGHT | RFL_TEXT_BOTTOM);
    }
    for (q = 0; q < 3 && L->n < (int)(sizeof L->cd / sizeof L->cd[0]); q++) {
        mx = x0 + (x1 - x0) * fr[q], my = y0 + (y1 - y0) * fr[q];
        if (!rfl__cuts_roof(P, L->buf, mx, my, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE))
            rfl__cand_add(L, mx, my, RFL_TEXT_CENTER | RFL_TEXT_MIDDLE);
    }
}

/* Label `job` of the panel (numbered as above); L->n = 0: none. */
static void rfl__roof_label(const rfl__panel *P, int job, rfl__label *L) {
    rfl__roofpx r;
    L->n = 0;
    L->alt = 0;
    L->color = RFL__INK;
    if (job >= RFL__JOB_MEAS) rfl__meas_label(P, job - RFL__JOB_MEAS, L);
    else if (job >= RFL__JOB_LEVEL) rfl__level_label(P, job - RFL__JOB_LEVEL, L);
    else if (job >= RFL__JOB_EXTRA) rfl__extra_label(P, job - RFL__JOB_EXTRA, L);
    else if (!rfl__main_px(P, job / 3, &r)) return;
    else if (job % 3 == 0) rfl__ridge_label(P, job / 3, &r, L);
    else if (job % 3 == 1) rfl__peak_label(P, job / 3, &r, L);
    else rfl__slope_label(P, job / 3, &r, L);
}
static void rfl__roof_label_box(const void *ctx, int job, int how, rfl__rect *box) {
    const rfl__panel *P = (const rfl__panel *)ctx;
    rfl__label L;
    rfl__roof_label(P, job, &L);
    rfl__label_box(&L.cd[how & 7], how >> 3 ? L.alt : L.full, P->s, box);
}
static void rfl__roof_place(rfl_canvas *c, const rfl__panel *P, rfl__obst *o, int job) {
    rfl__label L;
    rfl__roof_label(P, job, &L);
    if (L.n) rfl__place_label(c, o, &P->inner, L.cd, L.n, L.full, L.alt, P->s, L.color, job);
}

/* The legend of a panel: its series, then warnings, then a note. */
static void rfl__roof_legend(rfl_canvas *c, const rfl__panel *P, const rfl__series *ser,
                             const rfl__obst *o) {
    const rfl_roofline_desc *d = P->d;
    rfl__legend leg;
    int i, k = P->k, any_est = 0;
    leg.n = leg.more = 0;
    for (i = 0; i < ser->n; i++) {
        const rfl_point *f = &d->points[ser->first[i]];
        int j, on = 0, est = 0, hollow_all = 1;
        for (j = ser->first[i]; j < d->n_points; j++) {
            const rfl_point *pt = &d->points[j];
            if (!rfl__point_ok(pt) || !rfl__on_panel(pt, k, d->n_machines)) continue;
            if (!rfl__streq(pt->label, rfl__ser_label(ser, i))) continue;
            on = 1;
            est |= pt->estimate;
            if (!pt->estimate) hollow_all = 0;
        }
        if (on)
            rfl__leg_add(&leg, rfl__ser_label(ser, i), f->marker ? f->marker : rfl__markers[i % 7],
                         f->color ? f->color : rfl__palette[ser->slot[i] % 10], est && hollow_all, 0);
    }
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        if (!rfl__point_ok(pt) || !rfl__on_panel(pt, k, d->n_machines)) continue;
        if (pt->estimate) any_est = 1;
        if (rfl__above_roof(P->m, P->lv, pt))
            rfl__leg_add(&leg, rfl__has_label(pt->label) ? pt->label : "a point",
                         RFL_MARKER_CIRCLE, RFL__WARN, 0, 2);
    }
    if (any_est && !rfl__any_says_estimate(d, k)) rfl__leg_add(&leg, "hollow = estimate", RFL_MARKER_CIRCLE, 0, 0, 3);
    rfl__leg_place(c, &leg, &P->plot, o, d->legend, P->s);
}

/* The panel's title, plot rectangle (into P) and axes. */
static void rfl__panel_frame(rfl_canvas *c, rfl__panel *P, const rfl__rect *panel) {
    const rfl_roofline_desc *d = P->d;
    char xt[80];
    rfl__sb xs = rfl__sb_make(xt, sizeof xt);
    int s = P->s;
    /* panel title: the machine */
    rfl_draw_text(c, (panel->x0 + panel->x1) / 2, panel->y0, P->m->name ? P->m->name : P->m->id, s,
                  RFL_TEXT_CENTER, RFL__INK);
    P->plot = rfl__plot_rect(panel->x0, panel->y0 + (RFL_FONT_H + 3) * s, panel->x1, panel->y1,
                             rfl__ylabel_w(&P->y, s), s, 1);
    rfl__axis_place(&P->x, P->plot.x0, P->plot.x1);
    rfl__axis_place(&P->y, P->plot.y1, P->plot.y0);
    P->inner = P->plot;
    P->inner.x0 += 3; P->inner.y0 += 3; P->inner.x1 -= 3; P->inner.y1 -= 3;
    rfl__put_area(d->areas ? &d->areas[P->k] : 0, &P->plot, &P->x, &P->y);
    { /* dashed levels: their slopes are read with their own bytes; said where it fits */
        rfl__roofpx r;
        int i, lv = 0;
        for (i = 0; i < RFL_LEVEL_COUNT; i++) lv |= rfl__level_px(P, i, &r);
        if (lv) rfl__sb_f(&xs, "Arithmetic intensity (FLOP/byte of %s; of L2, L1 for their slopes)",
                          rfl__level_title(P->lv));
        if (!lv || rfl_text_width(xt, -1, s) > P->plot.x1 - P->plot.x0) {
            xs = rfl__sb_make(xt, sizeof xt);
            rfl__sb_f(&xs, "Arithmetic intensity (FLOP/byte of %s)", rfl__level_title(P->lv));
        }
    }
    rfl__draw_frame(c, &P->plot, &P->x, &P->y, xt, "Performance (FLOP/s)", s, 0);
}

/* Extra ceilings (lighter, under everything else), ridge drop lines, the
   roofs and their ridge marks. */
static void rfl__panel_roofs(rfl_canvas *c, const rfl__panel *P) {
    rfl__roofpx r;
    int p, i, s = P->s;
    double lw = 1.0 + 1.25 * s;
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__extra_px(P, p, &r))
            rfl_draw_polyline(c, r.xy, r.n, 0.6 + 0.7 * s, 6.0 * s, 4.0 * s, RFL__LIGHT);
    for (i = 0; i < RFL_LEVEL_COUNT; i++)
        if (rfl__level_px(P, i, &r))
            rfl_draw_polyline(c, r.xy, r.n, 0.6 + 0.7 * s, 6.0 * s, 4.0 * s, RFL__LIGHT);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r) && r.has_ridge)
            rfl_draw_dashed(c, r.rx, r.ry, r.rx, P->plot.y1, 1, 2.0 * s, 3.0 * s, 0xFFB8B8B8u);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r)) rfl_draw_polyline(c, r.xy, r.n, lw, 0, 0, RFL__INK);
    for (p = 0; p < RFL_PREC_COUNT; p++) /* measured beside the datasheet: dashed */
        if (rfl__meas_px(P, p, &r)) rfl_draw_polyline(c, r.xy, r.n, lw, 7.0 * s, 4.0 * s, RFL__MEAS_INK);
    for (p = 0; p < RFL_PREC_COUNT; p++)
        if (rfl__main_px(P, p, &r) && r.has_ridge) {
            rfl_fill_circle(c, r.rx, r.ry, 2.5 * s + 1, RFL__INK);
            rfl_fill_circle(c, r.rx, r.ry, 1.2 * s, RFL_RGB(255, 255, 255));
        }
}

/* Links between an estimate and a measurement (thin dashed lines), then
   the points: weighted (kernels) first so that model points stay on top. */
static void rfl__panel_points(rfl_canvas *c, const rfl__panel *P, const rfl__series *ser) {
    const rfl_roofline_desc *d = P->d;
    int i, pass, k = P->k, s = P->s;
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *a = &d->points[i];
        int j;
        if (!a->link || !rfl__point_ok(a) || !rfl__on_panel(a, k, d->n_machines)) continue;
        for (j = i + 1; j < d->n_points; j++) {
            const rfl_point *bp = &d->points[j];
            if (bp->link != a->link || !rfl__point_ok(bp) || !rfl__on_panel(bp, k, d->n_machines)) continue;
            rfl_draw_dashed(c, rfl__amap(&P->x, a->ai), rfl__amap(&P->y, a->flops_per_s),
                            rfl__amap(&P->x, bp->ai), rfl__amap(&P->y, bp->flops_per_s), 0.5 + 0.5 * s,
                            4.0 * s, 3.0 * s, 0xFF9A9A9Au);
            break; /* a chain: each point to the next of its link */
        }
    }
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < d->n_points; i++) {
            const rfl_point *pt = &d->points[i];
            int si, weighted = pt->weight > 0;
            rfl_color col;
            rfl_marker mk;
            double px, py, sz;
            if (weighted != (pass == 0)) continue;
            if (!rfl__point_ok(pt) || !rfl__on_panel(pt, k, d->n_machines)) continue;
            si = rfl__ser_find(ser, pt->label);
            col = pt->color ? pt->color : si >= 0 ? rfl__palette[ser->slot[si] % 10] : 0xFF555555u;
            mk = pt->marker ? pt->marker : si >= 0 ? rfl__markers[si % 7] : RFL_MARKER_CIRCLE;
            px = rfl__amap(&P->x, pt->ai);
            py = rfl__amap(&P->y, pt->flops_per_s);
            sz = rfl__marker_size(pt->weight, s);
            if (!pt->estimate && mk != RFL_MARKER_CROSS && mk != RFL_MARKER_PLUS)
                rfl_draw_marker(c, mk, px, py, sz + 2.5 * s, 0, RFL_RGB(255, 255, 255));
            rfl_draw_marker(c, mk, px, py, sz, pt->estimate, weighted ? (col & 0x00FFFFFFu) | 0xD0000000u : col);
            if (rfl__above_roof(P->m, P->lv, pt)) {
                rfl_draw_circle(c, px, py, sz / 2 + 4 * s, 1.5 * s, RFL__WARN);
                rfl_draw_text(c, px + sz / 2 + 5 * s, py - sz / 2 - 3 * s, "!", s + 1,
                              RFL_TEXT_LEFT | RFL_TEXT_BOTTOM, RFL__WARN);
            }
        }
    }
}

static RFL__NOINLINE rfl_result rfl__roof_panel(rfl_canvas *c, const rfl_roofline_desc *d, int k,
                                                const rfl__rect *panel, const rfl__axis *x,
                                                const rfl__axis *y, int s, const rfl__series *ser) {
    rfl__panel P;
    rfl__obst o;
    rfl__labels lab;
    int lab_id[RFL__JOBS]; /* each label once at most */
    unsigned char lab_how[RFL__JOBS];
    rfl_result res = RFL_OK;
    int p, i;

    P.d = d;
    P.m = d->machines[k];
    P.meas = d->measured ? d->measured[k] : 0;
    P.k = k;
    P.s = s;
    P.lv = (unsigned)d->level < RFL_LEVEL_COUNT ? d->level : RFL_DRAM;
    P.precs = rfl__panel_precs(d, k);
    P.bw = P.m->bw_bytes_per_s[P.lv];
    P.x = *x;
    P.y = *y;
    rfl__panel_frame(c, &P, panel);
    P.mainpeak = 0;
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        if (!((P.precs >> p) & 1)) continue;
        if (!(P.m->peak_flops[p] > 0)) { res = RFL_ERR_NO_ROOF; continue; }
        if (P.m->peak_flops[p] > P.mainpeak) P.mainpeak = P.m->peak_flops[p];
    }
    rfl__obst_init(&o, rfl__roof_fixed, rfl__roof_label_box, &P, &lab, lab_id, lab_how, RFL__JOBS);
    rfl_canvas_clip(c, (int)P.plot.x0 + 1, (int)P.plot.y0 + 1, (int)P.plot.x1, (int)P.plot.y1);
    rfl__panel_roofs(c, &P);
    for (i = 0; i < RFL__JOBS; i++) rfl__roof_place(c, &P, &o, i); /* labels inside the plot */
    rfl__panel_points(c, &P, ser);
    rfl_canvas_unclip(c);
    rfl__roof_legend(c, &P, ser, &o);
    return res;
}

RFL_API rfl_result rfl_ceilings_parse(const char *list, rfl_prec prec, unsigned *precs,
                                      unsigned *levels, size_t *bad) {
    const char *s = list;
    char tok[32];
    rfl_prec p;
    if (!list || !precs || !levels) return RFL_ERR_ARG;
    *precs = *levels = 0;
    while (*s) {
        size_t n = 0;
        while (s[n] && s[n] != ',') n++;
        if (n >= sizeof tok) n = sizeof tok - 1; /* too long for any name: unknown below */
        RFL_MEMCPY(tok, s, n);
        tok[n] = 0;
        if (rfl_parse_name_eq(tok, "all")) {
            *precs = ~0u;
            *levels |= (1u << RFL_L2) | (1u << RFL_L1);
        } else if (rfl_parse_name_eq(tok, "tensor")) {
            *precs |= 1u << (prec == RFL_FP16 ? RFL_FP16_TENSOR : prec == RFL_FP64 ? RFL_FP64_TENSOR
                                                                                   : RFL_TF32_TENSOR);
            *precs |= 1u << RFL_FP16_TENSOR;
        } else if (rfl_parse_name_eq(tok, "l2")) *levels |= 1u << RFL_L2;
        else if (rfl_parse_name_eq(tok, "l1")) *levels |= 1u << RFL_L1;
        else if (rfl_prec_parse(tok, &p) == RFL_OK) *precs |= 1u << p;
        else {
            if (bad) *bad = (size_t)(s - list);
            return RFL_ERR_UNKNOWN_NAME;
        }
        while (*s && *s != ',') s++;
        if (*s == ',') s++;
    }
    return RFL_OK;
}

RFL_API unsigned rfl_roofline_missing_levels(const rfl_roofline_desc *d, int k) {
    const rfl_machine *m, *meas;
    unsigned miss = 0;
    int i, mf;
    if (!d || !d->machines || k < 0 || k >= d->n_machines || !(m = d->machines[k])) return 0;
    meas = d->measured ? d->measured[k] : 0;
    for (i = 0; i < RFL_LEVEL_COUNT; i++)
        if (((d->extra_levels >> i) & 1) && i != (int)d->level && !(rfl__level_bw(m, meas, i, &mf) > 0))
            miss |= 1u << i;
    return miss;
}

RFL_API rfl_result rfl_chart_roofline(rfl_canvas *c, const rfl_roofline_desc *d) {
    rfl__axis x, y;
    rfl__series ser;
    rfl_result res = RFL_OK;
    int s, cols, rows, k, i;
    double top, pw, ph, gap;
    if (!c || !d || !d->machines || d->n_machines < 1 || d->n_machines > 8 || d->n_points < 0 ||
        (d->n_points > 0 && !d->points))
        return RFL_ERR_ARG;
    for (k = 0; k < d->n_machines; k++)
        if (!d->machines[k]) return RFL_ERR_ARG;
    if (!rfl__canvas_ok(c)) return RFL_OK; /* nothing to draw on */
    RFL_MEMSET(&x, 0, sizeof x);
    RFL_MEMSET(&y, 0, sizeof y);
    x.ticks = d->x_ticks;
    y.ticks = d->y_ticks ? d->y_ticks : RFL_TICKS_SI;
    rfl__ranges(d, &x, &y);
    rfl__ser_init(&ser, d->points, 0, 1);
    for (i = 0; i < d->n_points; i++)
        if (rfl__point_ok(&d->points[i])) rfl__ser_add(&ser, i);
    cols = d->columns > 0 ? d->columns
           : c->width >= c->height ? (d->n_machines <= 3 ? d->n_machines : (d->n_machines + 1) / 2)
                                   : (d->n_machines <= 2 ? 1 : 2);
    if (cols > d->n_machines) cols = d->n_machines;
    rows = (d->n_machines + cols - 1) / cols;
    s = rfl__auto_font((double)c->width / cols, (double)c->height / rows, d->font_scale);
    top = rfl__begin_chart(c, d->title ? d->title : "Roofline", s);
    gap = 8.0 * s;
    pw = (c->width - gap) / cols;
    ph = (c->height - top - 4.0 * s) / rows;
    for (k = 0; k < d->n_machines; k++) {
        rfl__rect panel;
        rfl_result r;
        panel.x0 = gap + (k % cols) * pw;
        panel.x1 = panel.x0 + pw - gap;
        panel.y0 = top + (k / cols) * ph;
        panel.y1 = panel.y0 + ph - 2.0 * s;
        r = rfl__roof_panel(c, d, k, &panel, &x, &y, s, &ser);
        if (r != RFL_OK) res = r;
    }
    return res;
}

/* ---- bar charts --------------------------------------------------------------- */
static double rfl__bar_val(const rfl_bar_desc *d, int cat, int ser, int nser) {
    double v = d->values[(size_t)cat * (size_t)nser + (size_t)ser];
    return rfl__isfinite(v) && v > 0 ? v : 0;
}

/* A bar chart's layout: what its drawing and its obstacles share. */
typedef struct rfl__bars {
    const rfl_bar_desc *d;
    rfl__axis va;
    rfl__rect plot;
    double slot; /* pixels per category */
    int horiz, nser, ncat, s;
} rfl__bars;

/* The bars in order with their category and value labels: drawn when c
   is given, else counted and scored as obstacles into sc (one walk, so
   that both see the same geometry). */
static void rfl__bars_walk(const rfl__bars *B, rfl_canvas *c, rfl__scan *sc) {
    const rfl_bar_desc *d = B->d;
    const rfl__axis *va = &B->va;
    const rfl__rect *plot = &B->plot;
    int i, j, s = B->s, nser = B->nser, horiz = B->horiz;
    double slot = B->slot;
    char b[48];
    for (i = 0; i < B->ncat; i++) {
        double base = (horiz ? plot->y0 : plot->x0) + slot * i, acc = 0;
        double gw = slot * 0.78, bw = d->stacked ? gw : gw / nser;
        double start = base + (slot - gw) / 2;
        double lo_px = rfl__amap(va, va->lo);
        if (sc && sc->n >= RFL__NOBST - RFL__NLAB) return; /* no more count */
        /* category label */
        if (c && horiz)
            rfl__text_cut(c, plot->x0 - 7 * s, base + slot / 2 + s, d->categories[i], 0, s,
                          RFL_TEXT_RIGHT | RFL_TEXT_MIDDLE, RFL__INK);
        else if (c)
            rfl__text_cut(c, base + slot / 2, plot->y1 + 7 * s, d->categories[i], 0, s,
                          RFL_TEXT_CENTER, RFL__INK);
        for (j = 0; j < nser; j++) {
            double v = rfl__bar_val(d, i, j, nser), a0, a1, p0, p1, q0, q1;
            rfl_color col = d->colors && d->colors[j] ? d->colors[j] : rfl__palette[j % 10];
            if (!(v > 0)) continue;
            if (d->stacked) { a0 = acc; a1 = acc + v; acc = a1; }
            else { a0 = va->log ? va->lo : 0; a1 = v; }
            p0 = a0 > 0 || !va->log ? rfl__amap(va, a0) : lo_px;
            p1 = rfl__amap(va, a1);
            q0 = d->stacked ? start : start + bw * j;
            q1 = q0 + bw - (nser > 1 && !d->stacked ? 1 : 0);
            if (c && horiz) rfl_fill_rect(c, p0, q0, p1 - p0, q1 - q0, col);
            else if (c) rfl_fill_rect(c, q0, p1, q1 - q0, p0 - p1, col);
            else if (horiz) rfl__scan_add(sc, p0, q0, p1 + 2, q1, 20);
            else rfl__scan_add(sc, q0, p1 - 2, q1, p0, 20);
            if (d->value_labels && (!d->stacked || j == nser - 1)) {
                double shown = d->stacked ? acc : v;
                rfl_fmt_si(b, sizeof b, shown, 3);
                rfl__rtrim(b);
                if (horiz) {
                    if (c) rfl_draw_text(c, p1 + 4 * s, (q0 + q1) / 2 + s, b, s, RFL_TEXT_LEFT | RFL_TEXT_MIDDLE, RFL__INK);
                    else rfl__scan_add(sc, p1, q0, p1 + 6 * s + rfl_text_width(b, -1, s), q1, 20);
                } else if (rfl_text_width(b, -1, s) <= (q1 - q0) + 6 * s || nser == 1 || d->stacked) {
                    if (c) rfl_draw_text(c, (q0 + q1) / 2, p1 - 3 * s, b, s, RFL_TEXT_CENTER | RFL_TEXT_BOTTOM, RFL__INK);
                    else rfl__scan_add(sc, q0, p1 - (RFL_FONT_H + 3) * s, q1, p1, 20);
                }
            }
        }
    }
}
static void rfl__bars_fixed(const void *ctx, rfl__scan *sc) {
    rfl__bars_walk((const rfl__bars *)ctx, 0, sc);
}

/* The value axis (log when asked, or when grouped values span over 2.5
   decades) and the width of the widest category label (cut as the legend
   cuts). */
static void rfl__bars_values(const rfl_bar_desc *d, int nser, int s, rfl__axis *va, int *maxlw) {
    double vmax = 0, vminpos = 1e300;
    int i, j;
    *maxlw = 0;
    for (i = 0; i < d->n_categories; i++) {
        double sum = 0;
        int w = rfl_text_width(d->categories[i], -1, s);
        *maxlw = rfl__imax(*maxlw, rfl__imin(w, RFL__LEG_MAXCH * RFL_FONT_W * s));
        for (j = 0; j < nser; j++) {
            double v = rfl__bar_val(d, i, j, nser);
            sum += v;
            if (v > 0 && v < vminpos) vminpos = v;
            if (!d->stacked && v > vmax) vmax = v;
        }
        if (d->stacked && sum > vmax) vmax = sum;
    }
    if (!(vmax > 0)) { vmax = 1; vminpos = 1; }
    RFL_MEMSET(va, 0, sizeof *va);
    va->log = d->scale == RFL_SCALE_LOG ||
              (d->scale == RFL_SCALE_AUTO && !d->stacked && vmax / vminpos > 316.0);
    va->ticks = d->ticks ? d->ticks : RFL_TICKS_SI;
    if (va->log) rfl__nice_range(va, vminpos / 2, vmax * 1.5);
    else rfl__nice_range(va, 0, vmax * 1.08);
}

RFL_API rfl_result rfl_chart_bars(rfl_canvas *c, const rfl_bar_desc *d) {
    rfl__bars B;
    rfl__axis *va = &B.va, dummy, *x, *y;
    rfl__rect *plot = &B.plot;
    rfl__obst o;
    rfl__legend leg;
    int nser, ncat, s, j, horiz, maxlw;
    double top, avail;
    if (!c || !d || d->n_categories < 0 || d->n_categories > 100000 || d->n_series < 0 ||
        d->n_series > 64 || (d->n_categories > 0 && (!d->values || !d->categories)))
        return RFL_ERR_ARG;
    if (!rfl__canvas_ok(c)) return RFL_OK;
    nser = d->n_series ? d->n_series : 1;
    ncat = d->n_categories;
    s = rfl__auto_font(c->width, c->height, d->font_scale);
    top = rfl__begin_chart(c, d->title, s);
    rfl__bars_values(d, nser, s, va, &maxlw);
    RFL_MEMSET(&dummy, 0, sizeof dummy); /* linear, from 0 */
    dummy.hi = ncat > 0 ? ncat : 1;
    /* orientation: horizontal when labels would not fit under their bars */
    avail = (c->width - 120.0 * s) / (ncat > 0 ? ncat : 1);
    horiz = d->orient == RFL_ORIENT_HORIZONTAL ||
            (d->orient == RFL_ORIENT_AUTO && (maxlw > avail * 0.92 || ncat > 24));
    /* the value axis along x or y, the categories (no ticks) along the other; horizontal bars
       have the category labels where the y labels go, and no margin under the x title */
    x = horiz ? va : &dummy;
    y = horiz ? &dummy : va;
    *plot = rfl__plot_rect(4.0 * s, top, c->width - 4.0 * s, c->height - (horiz ? 0 : 2.0 * s),
                           horiz ? maxlw : rfl__ylabel_w(va, s), s,
                           (horiz ? d->category_title : d->value_title) != 0);
    rfl__axis_place(x, plot->x0, plot->x1);
    rfl__axis_place(y, plot->y1, plot->y0);
    if (plot->x1 <= plot->x0 + 4 || plot->y1 <= plot->y0 + 4) return RFL_OK; /* too small */
    rfl__put_area(d->area, plot, x, y);
    rfl__draw_frame(c, plot, x, y, horiz ? d->value_title : d->category_title,
                    horiz ? 0 : d->value_title, s, horiz ? RFL__NO_YTICKS : RFL__NO_XTICKS);
    B.d = d;
    B.slot = ((horiz ? plot->y1 - plot->y0 : plot->x1 - plot->x0)) / (ncat > 0 ? ncat : 1);
    B.horiz = horiz;
    B.nser = nser;
    B.ncat = ncat;
    B.s = s;
    rfl__bars_walk(&B, c, 0);
    if (horiz && d->category_title) /* vertical bars: the frame's x title */
        rfl_draw_text(c, 6.0 * s, (plot->y0 + plot->y1) / 2, d->category_title, s,
                      RFL_TEXT_UP | RFL_TEXT_CENTER | RFL_TEXT_TOP, RFL__INK);
    leg.n = leg.more = 0;
    if (nser > 1 && d->series)
        for (j = 0; j < nser; j++)
            rfl__leg_add(&leg, d->series[j] ? d->series[j] : "", RFL_MARKER_SQUARE,
                         d->colors && d->colors[j] ? d->colors[j] : rfl__palette[j % 10], 0, 1);
    rfl__obst_init(&o, rfl__bars_fixed, 0, &B, 0, 0, 0, 0);
    rfl__leg_place(c, &leg, plot, &o, d->legend, s);
    return RFL_OK;
}

/* ---- scatter ---------------------------------------------------------------------- */
static int rfl__xy_ok(const rfl_xy *p, int xlog, int ylog) {
    return rfl__isfinite(p->x) && rfl__isfinite(p->y) && (!xlog || p->x > 0) && (!ylog || p->y > 0);
}

/* A scatter chart's plot: what its drawing, obstacles and labels share. */
typedef struct rfl__xyplot {
    const rfl_scatter_desc *d;
    rfl__axis x, y;
    rfl__rect plot;
    int s;
} rfl__xyplot;

/* the points, the chart's fixed obstacles */
static void rfl__xy_fixed(const void *ctx, rfl__scan *sc) {
    const rfl__xyplot *S = (const rfl__xyplot *)ctx;
    int i;
    for (i = 0; i < S->d->n_points; i++) {
        const rfl_xy *p = &S->d->points[i];
        if (rfl__xy_ok(p, S->x.log, S->y.log))
            rfl__scan_marker(sc, rfl__amap(&S->x, p->x), rfl__amap(&S->y, p->y), p->weight, S->s);
    }
}
/* where point i's label may go: right, left, above, below */
static void rfl__xy_cands(const rfl__xyplot *S, int i, rfl__cand *cd) {
    const rfl_xy *p = &S->d->points[i];
    double px = rfl__amap(&S->x, p->x), py = rfl__amap(&S->y, p->y);
    int s = S->s;
    cd[0].x = px + 8 * s; cd[0].y = py; cd[0].flags = RFL_TEXT_LEFT | RFL_TEXT_MIDDLE;
    cd[1].x = px - 8 * s; cd[1].y = py; cd[1].flags = RFL_TEXT_RIGHT | RFL_TEXT_MIDDLE;
    cd[2].x = px; cd[2].y = py - 8 * s; cd[2].flags = RFL_TEXT_CENTER | RFL_TEXT_BOTTOM;
    cd[3].x = px; cd[3].y = py + 8 * s; cd[3].flags = RFL_TEXT_CENTER | RFL_TEXT_TOP;
}
static void rfl__xy_label_box(const void *ctx, int i, int how, rfl__rect *box) {
    const rfl__xyplot *S = (const rfl__xyplot *)ctx;
    rfl__cand cd[4];
    rfl__xy_cands(S, i, cd);
    rfl__label_box(&cd[how & 7], S->d->points[i].label, S->s, box);
}
/* Labels beside the points, or the legend, placed around the points and
   each other; unclips the canvas before the legend. */
static RFL__NOINLINE void rfl__xy_annotate(rfl_canvas *c, const rfl__xyplot *S, const rfl__series *ser) {
    const rfl_scatter_desc *d = S->d;
    rfl__obst o;
    rfl__labels lab;
    int lab_id[RFL__NLAB];
    unsigned char lab_how[RFL__NLAB];
    rfl__legend leg;
    int i;
    rfl__obst_init(&o, rfl__xy_fixed, rfl__xy_label_box, S, &lab, lab_id, lab_how, RFL__NLAB);
    leg.n = leg.more = 0;
    if (d->point_labels) {
        for (i = 0; i < d->n_points; i++) {
            const rfl_xy *p = &d->points[i];
            rfl__cand cd[4];
            if (!rfl__xy_ok(p, S->x.log, S->y.log) || !rfl__has_label(p->label)) continue;
            rfl__xy_cands(S, i, cd);
            rfl__place_label(c, &o, &S->plot, cd, 4, p->label, 0, S->s, 0xFF444444u, i);
        }
    } else {
        for (i = 0; i < ser->n; i++) {
            const rfl_xy *f = &d->points[ser->first[i]];
            rfl__leg_add(&leg, rfl__ser_label(ser, i), f->marker ? f->marker : rfl__markers[i % 7],
                         f->color ? f->color : rfl__palette[ser->slot[i] % 10], f->hollow, 0);
        }
    }
    rfl_canvas_unclip(c);
    rfl__leg_place(c, &leg, &S->plot, &o, d->legend, S->s);
}

/* A scatter axis from the data's least, greatest and least positive
   values (mn > mx: no data), unless the caller gives a usable range. */
static void rfl__xy_axis(rfl__axis *a, rfl_scale scale, rfl_ticks ticks, double mn, double mx,
                         double pos, double umin, double umax) {
    if (mn > mx) { mn = 0; mx = 1; pos = 1; }
    RFL_MEMSET(a, 0, sizeof *a);
    a->log = scale == RFL_SCALE_LOG || (scale == RFL_SCALE_AUTO && mn > 0 && mx / mn > 100);
    a->ticks = ticks;
    if (a->log) rfl__nice_range(a, pos / 1.5, mx * 1.5);
    else rfl__nice_range(a, mn >= 0 && mn < mx - mn ? 0 : mn - (mx - mn) * 0.05,
                         mx + (mx - mn) * 0.08 + (mx == mn));
    if ((umin != 0 || umax != 0) && rfl__isfinite(umin) && rfl__isfinite(umax) && umax > umin &&
        (!a->log || umin > 0)) {
        a->lo = umin;
        a->hi = umax;
    }
}

/* The axes' scales and ranges: from the finite points, unless the caller
   gives a usable range. */
static void rfl__xy_ranges(const rfl_scatter_desc *d, rfl__axis *x, rfl__axis *y) {
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300, xpos = 1e300, ypos = 1e300;
    int i;
    for (i = 0; i < d->n_points; i++) {
        const rfl_xy *p = &d->points[i];
        if (!rfl__xy_ok(p, 0, 0)) continue;
        rfl__widen(&xmin, &xmax, p->x, p->x);
        rfl__widen(&ymin, &ymax, p->y, p->y);
        if (p->x > 0 && p->x < xpos) xpos = p->x;
        if (p->y > 0 && p->y < ypos) ypos = p->y;
    }
    rfl__xy_axis(x, d->x_scale, d->x_ticks, xmin, xmax, xpos, d->x_min, d->x_max);
    rfl__xy_axis(y, d->y_scale, d->y_ticks, ymin, ymax, ypos, d->y_min, d->y_max);
}

RFL_API rfl_result rfl_chart_scatter(rfl_canvas *c, const rfl_scatter_desc *d) {
    rfl__xyplot S;
    rfl__series ser;
    int s, i, k;
    double top;
    if (!c || !d || d->n_points < 0 || (d->n_points > 0 && !d->points)) return RFL_ERR_ARG;
    if (!rfl__canvas_ok(c)) return RFL_OK;
    s = rfl__auto_font(c->width, c->height, d->font_scale);
    S.d = d;
    S.s = s;
    top = rfl__begin_chart(c, d->title, s);
    rfl__xy_ranges(d, &S.x, &S.y);
    S.plot = rfl__plot_rect(4.0 * s, top, c->width - 4.0 * s, c->height - 2.0 * s,
                            rfl__ylabel_w(&S.y, s), s, d->y_title != 0);
    rfl__axis_place(&S.x, S.plot.x0, S.plot.x1);
    rfl__axis_place(&S.y, S.plot.y1, S.plot.y0);
    rfl__put_area(d->area, &S.plot, &S.x, &S.y);
    rfl__draw_frame(c, &S.plot, &S.x, &S.y, d->x_title, d->y_title, s, 0);
    rfl__ser_init(&ser, 0, d->points, 1);
    for (i = 0; i < d->n_points; i++)
        if (rfl__xy_ok(&d->points[i], S.x.log, S.y.log)) rfl__ser_add(&ser, i);
    rfl_canvas_clip(c, (int)S.plot.x0 + 1, (int)S.plot.y0 + 1, (int)S.plot.x1, (int)S.plot.y1);
    for (i = 0; i < d->n_points; i++) {
        const rfl_xy *a = &d->points[i];
        if (!a->link || !rfl__xy_ok(a, S.x.log, S.y.log)) continue;
        for (k = i + 1; k < d->n_points; k++) {
            const rfl_xy *bp = &d->points[k];
            if (bp->link != a->link || !rfl__xy_ok(bp, S.x.log, S.y.log)) continue;
            rfl_draw_dashed(c, rfl__amap(&S.x, a->x), rfl__amap(&S.y, a->y), rfl__amap(&S.x, bp->x),
                            rfl__amap(&S.y, bp->y), 0.5 + 0.5 * s, 4.0 * s, 3.0 * s, 0xFF9A9A9Au);
            break;
        }
    }
    for (i = 0; i < d->n_points; i++) {
        const rfl_xy *p = &d->points[i];
        double px, py, sz;
        int si;
        rfl_color col;
        rfl_marker mk;
        if (!rfl__xy_ok(p, S.x.log, S.y.log)) continue;
        si = rfl__ser_find(&ser, p->label);
        col = p->color ? p->color : si >= 0 ? rfl__palette[ser.slot[si] % 10] : 0xFF555555u;
        mk = p->marker ? p->marker : si >= 0 ? rfl__markers[si % 7] : RFL_MARKER_CIRCLE;
        px = rfl__amap(&S.x, p->x);
        py = rfl__amap(&S.y, p->y);
        sz = rfl__marker_size(p->weight, s);
        if (!p->hollow && mk != RFL_MARKER_CROSS && mk != RFL_MARKER_PLUS)
            rfl_draw_marker(c, mk, px, py, sz + 2.5 * s, 0, RFL_RGB(255, 255, 255));
        rfl_draw_marker(c, mk, px, py, sz, p->hollow, col);
    }
    rfl__xy_annotate(c, &S, &ser);
    return RFL_OK;
}

/* ---- the roofline as text ---------------------------------------------------- */
typedef struct rfl__grid {
    char *b;
    int cols, rows;
} rfl__grid;
static void rfl__gput(rfl__grid *g, int r, int c, char ch) {
    if (r < 0 || r >= g->rows || c < 0 || c >= g->cols) return;
    g->b[(size_t)r * (size_t)(g->cols + 1) + (size_t)c] = ch;
}
static void rfl__gstr(rfl__grid *g, int r, int c, const char *s) {
    for (; s && *s; s++, c++) {
        char ch = *s;
        if ((unsigned char)ch < 32 || (unsigned char)ch > 126) ch = '?';
        rfl__gput(g, r, c, ch);
    }
}
/* row (0 = top of the plot area) of a value on the log y axis */
static int rfl__grow(const rfl__axis *y, double v, int top, int h) {
    double t = (RFL_LOG10(v) - RFL_LOG10(y->lo)) / (RFL_LOG10(y->hi) - RFL_LOG10(y->lo));
    if (!(t == t)) return -1000;
    t = rfl__clampd(t, -10, 10);
    return top + h - 1 - rfl__ifloor(t * (h - 1) + 0.5);
}
static int rfl__gcol(const rfl__axis *x, double v, int left, int w) {
    double t = (RFL_LOG10(v) - RFL_LOG10(x->lo)) / (RFL_LOG10(x->hi) - RFL_LOG10(x->lo));
    if (!(t == t)) return -1000;
    t = rfl__clampd(t, -10, 10);
    return left + rfl__ifloor(t * (w - 1) + 0.5);
}

/* The text picture's frame: plot area, axes, ticks, labels. */
typedef struct rfl__ascii {
    rfl__grid g;
    rfl__axis x, y;
    int left, top, pw, ph; /* plot area */
    const rfl_machine *m;
    rfl_level lv;
} rfl__ascii;

static void rfl__ascii_blank(rfl__grid *g, char *buf, int cols, int rows) {
    int r;
    g->b = buf;
    g->cols = cols;
    g->rows = rows;
    for (r = 0; r < rows; r++) {
        RFL_MEMSET(buf + (size_t)r * (size_t)(cols + 1), ' ', (size_t)cols);
        buf[(size_t)r * (size_t)(cols + 1) + (size_t)cols] = '\n';
    }
    buf[(size_t)rows * (size_t)(cols + 1)] = 0;
}

static void rfl__ascii_axes(rfl__ascii *A, const rfl_roofline_desc *d) {
    rfl__grid *g = &A->g;
    rfl__tickset t;
    char lab[96];
    const char *name = A->m->name ? A->m->name : A->m->id;
    int r, c, i, n, last = -100, bottom = A->top + A->ph;
    n = (int)rfl__strlen(name);
    rfl__gstr(g, 0, n < g->cols ? (g->cols - n) / 2 : 0, name); /* title: the machine */
    for (r = A->top; r < bottom; r++) rfl__gput(g, r, A->left - 1, '|');
    rfl__gput(g, bottom, A->left - 1, '+');
    for (c = A->left; c < A->left + A->pw; c++) rfl__gput(g, bottom, c, '-');
    A->x.ticks = d->x_ticks;
    A->y.ticks = d->y_ticks ? d->y_ticks : RFL_TICKS_SI;
    rfl__make_ticks(&A->y, &t);
    for (i = 0; i < t.nmajor; i++) { /* y labels, spaces squeezed out */
        double v = rfl__tmajor(&A->y, &t, i);
        int k = 0, j;
        rfl__tick_label(lab, sizeof lab, &A->y, v);
        for (j = 0; lab[j]; j++) if (lab[j] != ' ') lab[k++] = lab[j];
        lab[k] = 0;
        rfl__gstr(g, rfl__grow(&A->y, v, A->top, A->ph), A->left - 1 - k, lab);
    }
    rfl__make_ticks(&A->x, &t);
    for (i = 0; i < t.nmajor; i++) {
        double v = rfl__tmajor(&A->x, &t, i);
        int cc = rfl__gcol(&A->x, v, A->left, A->pw);
        rfl__tick_label(lab, sizeof lab, &A->x, v);
        if (lab[2] == '^') { /* 10^3 is 1e3 in text ("10e3" would read 10000) */
            char *q = lab + 1;
            for (*q = 'e', q++; (q[0] = q[1]) != 0; q++) {}
        }
        n = (int)rfl__strlen(lab);
        rfl__gput(g, bottom, cc, '+');
        if (cc - n / 2 > last + 1) { rfl__gstr(g, bottom + 1, cc - n / 2, lab); last = cc - n / 2 + n; }
    }
    rfl__gstr(g, bottom + 2, A->left + (A->pw - 36 > 0 ? (A->pw - 36) / 2 : 0),
              "arithmetic intensity (FLOP/byte) ->");
    rfl__gstr(g, 0, 0, "FLOP/s");
}

/* One precision's roof: '_' flat, '/' slanted, '+' at the ridge. */
static void rfl__ascii_roof(rfl__ascii *A, rfl_prec p) {
    double pk = A->m->peak_flops[p], bw = A->m->bw_bytes_per_s[A->lv];
    double l0 = RFL_LOG10(A->x.lo), l1 = RFL_LOG10(A->x.hi);
    int c, q, prev = -1000, top = A->top, bottom = A->top + A->ph;
    for (c = A->left; c < A->left + A->pw; c++) {
        double ai = RFL_POW(10.0, l0 + (double)(c - A->left) / (A->pw - 1) * (l1 - l0));
        int rr = rfl__grow(&A->y, rfl__roof(A->m, p, A->lv, ai), top, A->ph);
        int flat = !(bw > 0) || ai * bw >= pk;
        if (rr >= top && rr < bottom) rfl__gput(&A->g, rr, c, flat ? '_' : '/');
        /* steep in text: fill the rows skipped since the last column */
        if (!flat && prev > -1000)
            for (q = prev - 1; q > rr; q--)
                if (q >= top && q < bottom) rfl__gput(&A->g, q, c, '/');
        prev = rr;
    }
    if (bw > 0) {
        int rc = rfl__gcol(&A->x, pk / bw, A->left, A->pw), rr = rfl__grow(&A->y, pk, top, A->ph);
        if (rc >= A->left && rc < A->left + A->pw && rr >= top && rr < bottom) rfl__gput(&A->g, rr, rc, '+');
    }
}

/* Points: a letter per series, '!' above the roof. */
static void rfl__ascii_points(rfl__ascii *A, const rfl_roofline_desc *d, const rfl__series *ser) {
    int i, rr, cc, si;
    for (i = 0; i < d->n_points; i++) {
        const rfl_point *pt = &d->points[i];
        if (!rfl__point_ok(pt) || !rfl__on_panel(pt, 0, 1)) continue;
        si = rfl__ser_find(ser, pt->label);
        rr = rfl__grow(&A->y, pt->flops_per_s, A->top, A->ph);
        cc = rfl__gcol(&A->x, pt->ai, A->left, A->pw);
        if (rr < A->top || rr >= A->top + A->ph || cc < A->left || cc >= A->left + A->pw) continue;
        rfl__gput(&A->g, rr, cc,
                  rfl__above_roof(A->m, A->lv, pt) ? '!' : si >= 0 && si < 26 ? (char)('A' + si) : '*');
    }
}

/* Key, first line: the first drawn roof, its ridge and bandwidth. Returns
   the next free line. */
static int rfl__ascii_key_roof(rfl__ascii *A, unsigned precs, int line) {
    double bw = A->m->bw_bytes_per_s[A->lv], pk;
    char lab[96];
    rfl__sb s = rfl__sb_make(lab, sizeof lab);
    int p;
    for (p = 0; p < RFL_PREC_COUNT && !(((precs >> p) & 1) && A->m->peak_flops[p] > 0); p++) {}
    if (p == RFL_PREC_COUNT || line >= A->g.rows) return line;
    pk = A->m->peak_flops[p];
    rfl__sb_sn(&s, rfl__prec_title((rfl_prec)p), 40);
    rfl__sb_s(&s, " ");
    rfl__sb_si(&s, pk, "FLOP/s");
    if (bw > 0) {
        rfl__sb_f(&s, ", ridge (+) %4 FLOP/B, %s ", pk / bw, rfl__level_title(A->lv));
        rfl__sb_si(&s, bw, "B/s");
    }
    rfl__gstr(&A->g, line, 1, lab);
    return line + 1;
}

/* Key, one line per series: letter, label, AI and FLOP/s. */
static void rfl__ascii_key_points(rfl__ascii *A, const rfl_roofline_desc *d, const rfl__series *ser,
                                  int line) {
    char lab[96];
    int i;
    for (i = 0; i < ser->n && line < A->g.rows; i++) {
        const rfl_point *pt = &d->points[ser->first[i]];
        rfl__sb s = rfl__sb_make(lab, sizeof lab);
        char letter[3] = {'*', ' ', 0};
        if (line == A->g.rows - 1 && i + 1 < ser->n) { rfl__gstr(&A->g, line, 1, "..."); return; }
        if (i < 26) letter[0] = (char)('A' + i);
        rfl__sb_s(&s, letter);
        rfl__sb_sn(&s, rfl__ser_label(ser, i), 40);
        rfl__sb_f(&s, ": %3 FLOP/B, ", pt->ai);
        rfl__sb_si(&s, pt->flops_per_s, "FLOP/s");
        if (rfl__above_roof(A->m, A->lv, pt)) rfl__sb_s(&s, " (!) above roof: check units");
        rfl__gstr(&A->g, line++, 1, lab);
    }
}

RFL_API rfl_result rfl_chart_roofline_ascii(char *buf, size_t size, int cols, int rows,
                                            const rfl_roofline_desc *d) {
    rfl__ascii A;
    rfl__series ser;
    rfl_roofline_desc one;
    rfl_result res = RFL_OK;
    unsigned precs;
    int i, p, key;
    if (cols == 0 && rows == 0) { cols = 80; rows = 24; }
    if (!buf || !d || !d->machines || d->n_machines < 1 || !d->machines[0] || d->n_points < 0 ||
        (d->n_points > 0 && !d->points) || cols < 20 || rows < 8 || cols > 1000 || rows > 1000)
        return RFL_ERR_ARG;
    if (size < RFL_ASCII_BYTES(cols, rows)) {
        if (size) buf[0] = 0;
        return RFL_ERR_BUFFER;
    }
    RFL_MEMSET(&A, 0, sizeof A);
    rfl__ascii_blank(&A.g, buf, cols, rows);
    A.m = d->machines[0];
    A.lv = (unsigned)d->level < RFL_LEVEL_COUNT ? d->level : RFL_DRAM;
    one = *d; /* ranges as the picture has them, for this machine alone */
    one.n_machines = 1;
    one.extra_precs = 0;
    one.extra_levels = 0;
    rfl__ranges(&one, &A.x, &A.y);
    rfl__ser_init(&ser, d->points, 0, 0); /* links do not show in text */
    for (i = 0; i < d->n_points; i++)
        if (rfl__point_ok(&d->points[i]) && rfl__on_panel(&d->points[i], 0, 1)) rfl__ser_add(&ser, i);
    key = ser.n + 1 < rows / 4 ? ser.n + 1 : rows / 4;
    A.left = 7, A.top = 1;
    A.ph = rows - A.top - 3 - key > 3 ? rows - A.top - 3 - key : 3;
    A.pw = cols - A.left - 1;
    rfl__ascii_axes(&A, d);
    precs = rfl__panel_precs(d, 0);
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        if (!((precs >> p) & 1)) continue;
        if (A.m->peak_flops[p] > 0) rfl__ascii_roof(&A, (rfl_prec)p);
        else res = RFL_ERR_NO_ROOF;
    }
    rfl__ascii_points(&A, d, &ser);
    rfl__ascii_key_points(&A, d, &ser, rfl__ascii_key_roof(&A, precs, A.top + A.ph + 3));
    return res;
}
#endif /* RFL_NO_CHART */

/* ==========================================================================
   [13] PNG
   stb_image_write with its allocations in a caller arena (RFL_NO_PNG)
   ========================================================================== */
/* ---- PNG through stb_image_write ---------------------------------------------
   stb's allocation macros take no context, so a static pointer names the
   arena of the call in progress: the one sanctioned mutable static, which
   makes this path non-reentrant (documented in the API). When the arena
   runs out, the allocator longjmps back to rfl_png_write: stb does not
   check every allocation, so returning NULL would not be safe. */
#if !defined(RFL_NO_CHART) && defined(RFL_HAS_PNG)
#include <setjmp.h>
#include <string.h> /* memcpy: 8-byte compares in rfl__zlib (stb needs it too) */

typedef struct rfl__arena {
    unsigned char *base;
    size_t size, used, top; /* top: offset of the last block's header */
    jmp_buf fail;
    rfl_write_fn write;
    void *user;
    int write_failed;
} rfl__arena;

static rfl__arena *rfl__png_arena; /* see above: set only during a call */

#define RFL__AHDR 16u /* block header: previous top offset, block size */
static void *rfl__arena_alloc(size_t n) {
    rfl__arena *a = rfl__png_arena;
    size_t start = (a->used + 15u) & ~(size_t)15u, need;
    if (n > a->size || start > a->size) longjmp(a->fail, 1);
    need = RFL__AHDR + ((n + 15u) & ~(size_t)15u);
    if (need > a->size - start) longjmp(a->fail, 1);
    ((size_t *)(void *)(a->base + start))[0] = a->top;
    ((size_t *)(void *)(a->base + start))[1] = n;
    a->top = start;
    a->used = start + need;
    return a->base + start + RFL__AHDR;
}
static void rfl__arena_free(void *p) {
    rfl__arena *a = rfl__png_arena;
    size_t off;
    if (!p) return;
    off = (size_t)((unsigned char *)p - a->base) - RFL__AHDR;
    if (off == a->top && a->used > 0) { /* last block: give it back */
        a->used = off;
        a->top = ((size_t *)(void *)(a->base + off))[0];
    }
}
static void *rfl__arena_realloc(void *p, size_t oldsz, size_t n) {
    rfl__arena *a = rfl__png_arena;
    unsigned char *q;
    size_t off;
    if (!p) return rfl__arena_alloc(n);
    off = (size_t)((unsigned char *)p - a->base) - RFL__AHDR;
    if (off == a->top) { /* grow the last block in place */
        size_t need = RFL__AHDR + ((n + 15u) & ~(size_t)15u);
        if (n > a->size || need > a->size - off) longjmp(a->fail, 1);
        ((size_t *)(void *)(a->base + off))[1] = n;
        a->used = off + need;
        return p;
    }
    q = (unsigned char *)rfl__arena_alloc(n);
    RFL_MEMCPY(q, p, oldsz < n ? oldsz : n);
    return q;
}

/* Our own zlib stream (RFC 1950/1951) for stb's PNG writer, through its
   STBIW_ZLIB_COMPRESS hook: greedy LZ77 with one hash probe per position
   and the fixed Huffman code. Charts are mostly flat colour, so long
   matches dominate; this runs several times faster than stb's built-in
   compressor (which compares against up to 2 x quality candidates per
   byte) at a similar size, and keeps a 1600x1000 chart within the time
   budget. Output buffer and hash table come from the arena. */
#define RFL__ZHBITS 13
typedef struct rfl__zout {
    unsigned char *p;
    size_t n, cap, max;
    uint32_t bits;
    int nbits;
} rfl__zout;

static void rfl__zreserve(rfl__zout *z) {
    size_t nc = z->cap * 2 > z->max ? z->max : z->cap * 2;
    if (z->n + 16 <= z->cap) return;
    if (nc < z->n + 16) nc = z->n + 16;
    z->p = (unsigned char *)rfl__arena_realloc(z->p, z->cap, nc);
    z->cap = nc;
}
static void rfl__zput(rfl__zout *z, uint32_t v, int n) {
    z->bits |= v << z->nbits;
    z->nbits += n;
    while (z->nbits >= 8) {
        z->p[z->n++] = (unsigned char)z->bits;
        z->bits >>= 8;
        z->nbits -= 8;
    }
}
static uint32_t rfl__zrev(uint32_t v, int n) {
    uint32_t r = 0;
    while (n--) { r = (r << 1) | (v & 1u); v >>= 1; }
    return r;
}
/* Per-call code tables (a few hundred entries, built in microseconds):
   fixed Huffman literal/length codes bit-reversed for the LSB-first
   stream (RFC 1951 3.2.6), and length/distance -> code index. */
typedef struct rfl__ztab {
    uint16_t lit[288];
    unsigned char litn[288];
    unsigned char lcode[259];  /* length 3..258 -> 0..28 */
    unsigned char dlo[257];    /* distance 1..256 -> 0..15 */
    unsigned char dhi[256];    /* (distance - 1) >> 7 for 257..32768 */
} rfl__ztab;
/* length and distance bases and extra bits: RFC 1951 section 3.2.5 */
static const unsigned short rfl__zlbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                                               31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
                                               227, 258};
static const unsigned char rfl__zlext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                             2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned short rfl__zdbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97,
                                               129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                                               3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const unsigned char rfl__zdext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                             6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static void rfl__ztab_init(rfl__ztab *t) {
    int i, k;
    for (i = 0; i < 288; i++) {
        uint32_t code;
        int n;
        if (i < 144) { code = 0x30u + (uint32_t)i; n = 8; }
        else if (i < 256) { code = 0x190u + (uint32_t)(i - 144); n = 9; }
        else if (i < 280) { code = (uint32_t)(i - 256); n = 7; }
        else { code = 0xC0u + (uint32_t)(i - 280); n = 8; }
        t->lit[i] = (uint16_t)rfl__zrev(code, n);
        t->litn[i] = (unsigned char)n;
    }
    for (i = 3, k = 0; i <= 258; i++) {
        while (k < 28 && rfl__zlbase[k + 1] <= i) k++;
        t->lcode[i] = (unsigned char)k;
    }
    for (i = 1, k = 0; i <= 256; i++) {
        while (k < 29 && rfl__zdbase[k + 1] <= i) k++;
        t->dlo[i] = (unsigned char)k;
    }
    for (i = 2; i < 256; i++) { /* distances 257..32768 share a code per 128 */
        int d = i * 128 + 1;
        k = 29;
        while (rfl__zdbase[k] > d) k--;
        t->dhi[i] = (unsigned char)k;
    }
}
static void rfl__zsym(rfl__zout *z, const rfl__ztab *t, int sym) {
    rfl__zput(z, t->lit[sym], t->litn[sym]);
}
static void rfl__zmatch(rfl__zout *z, const rfl__ztab *t, int len, int dist) {
    int i = t->lcode[len], k = dist <= 256 ? t->dlo[dist] : t->dhi[(dist - 1) >> 7];
    rfl__zsym(z, t, 257 + i);
    if (rfl__zlext[i]) rfl__zput(z, (uint32_t)(len - rfl__zlbase[i]), rfl__zlext[i]);
    rfl__zput(z, rfl__zrev((uint32_t)k, 5), 5);
    if (rfl__zdext[k]) rfl__zput(z, (uint32_t)(dist - rfl__zdbase[k]), rfl__zdext[k]);
}

static unsigned char *rfl__zlib(unsigned char *data, int data_len, int *out_len, int quality) {
    uint32_t *head, a = 1, b = 0;
    rfl__zout z;
    rfl__ztab *tab; /* 1.6 KB: in the arena, not on the stack (1 KiB frames) */
    size_t i = 0, n = data_len > 0 ? (size_t)data_len : 0, k;
    (void)quality;
    tab = (rfl__ztab *)rfl__arena_alloc(sizeof *tab);
    rfl__ztab_init(tab);
    head = (uint32_t *)rfl__arena_alloc(sizeof(uint32_t) << RFL__ZHBITS);
    RFL_MEMSET(head, 0, sizeof(uint32_t) << RFL__ZHBITS);
    z.max = n + n / 8 + 64; /* fixed codes: at most 9 bits per byte */
    z.cap = n / 32 + 1024 < z.max ? n / 32 + 1024 : z.max;
    z.p = (unsigned char *)rfl__arena_alloc(z.cap); /* last block: grows in place */
    z.n = 0;
    z.bits = 0;
    z.nbits = 0;
    z.p[z.n++] = 0x78; /* deflate, 32K window */
    z.p[z.n++] = 0x01; /* (0x7801 % 31 == 0), no dictionary, fastest */
    rfl__zput(&z, 1, 1); /* final block */
    rfl__zput(&z, 1, 2); /* fixed Huffman codes */
    while (i < n) {
        rfl__zreserve(&z);
        if (i + 4 <= n) {
            uint32_t v = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 |
                         (uint32_t)data[i + 2] << 16 | (uint32_t)data[i + 3] << 24;
            uint32_t h = (v * 2654435761u) >> (32 - RFL__ZHBITS);
            size_t cand = head[h];
            head[h] = (uint32_t)(i + 1);
            if (cand && i - (cand - 1) <= 32768) {
                const unsigned char *p = data + cand - 1, *q = data + i;
                size_t lim = n - i < 258 ? n - i : 258, len = 0;
                while (len + 8 <= lim) { /* eight bytes at a time */
                    uint64_t u, w;
                    memcpy(&u, p + len, 8);
                    memcpy(&w, q + len, 8);
                    if (u != w) break;
                    len += 8;
                }
                while (len < lim && p[len] == q[len]) len++;
                if (len >= 4) {
                    rfl__zmatch(&z, tab, (int)len, (int)(i - (cand - 1)));
                    i += len;
                    continue;
                }
            }
        }
        rfl__zsym(&z, tab, data[i]);
        i++;
    }
    rfl__zreserve(&z);
    rfl__zsym(&z, tab, 256);             /* end of block */
    if (z.nbits) rfl__zput(&z, 0, 8 - z.nbits);
    for (k = 0; k < n; ) { /* Adler-32; runs of zero bytes (most of a
                              filtered chart) only add a to b */
        size_t end = k + 5552 < n ? k + 5552 : n;
        while (k < end) {
            uint64_t w = 1;
            if (k + 8 <= end) memcpy(&w, data + k, 8);
            if (w == 0) { b += 8u * a; k += 8; continue; }
            { size_t e = k + 8 < end ? k + 8 : end; for (; k < e; k++) { a += data[k]; b += a; } }
        }
        a %= 65521u;
        b %= 65521u;
    }
    for (k = 0; k < 4; k++) /* Adler-32, big-endian */
        z.p[z.n++] = (unsigned char)((b << 16 | a) >> (24 - 8 * k));
    *out_len = (int)z.n;
    return z.p;
}

#define STBIW_MALLOC(sz) rfl__arena_alloc(sz)
#define STBIW_ZLIB_COMPRESS(d, n, o, q) rfl__zlib(d, n, o, q)
#define STBIW_REALLOC_SIZED(p, oldsz, newsz) rfl__arena_realloc(p, oldsz, newsz)
#define STBIW_FREE(p) rfl__arena_free(p)
#define STBIW_ASSERT(x) ((void)0)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO /* files go through our own callback */
/* stb is not warning-clean under our flags: silence it, and only it. */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wcomma"
#pragma clang diagnostic ignored "-Wextra-semi-stmt"
#pragma clang diagnostic ignored "-Wimplicit-int-conversion"
#pragma clang diagnostic ignored "-Wshorten-64-to-32"
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
#ifdef __cplusplus
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#endif
#endif
#include RFL__STB_PATH
/* With STBI_WRITE_NO_STDIO stb declares its HDR callback writer but only
   defines it with stdio; an unused stub keeps -Wunused-function quiet. */
static RFL__UNUSED int stbi_write_hdr_to_func(stbi_write_func *func, void *context, int w, int h,
                                              int comp, const float *data) {
    (void)func; (void)context; (void)w; (void)h; (void)comp; (void)data;
    return 0;
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#ifdef __clang__
#pragma clang diagnostic pop
#endif

RFL_API size_t rfl_png_arena_size(int w, int h, int channels) {
    if (w <= 0 || h <= 0) return 0;
    if (channels != 4) channels = 3;
    return RFL_PNG_ARENA_BYTES(w, h, channels);
}

static void rfl__png_sink(void *ctx, void *data, int size) {
    rfl__arena *a = (rfl__arena *)ctx;
    if (a->write_failed || size < 0) return;
    if (a->write(a->user, data, (size_t)size) != 0) a->write_failed = 1;
}

/* setjmp here, around a call stb cannot see through: the volatile pointer
   keeps stb's encoder out of line, so none of its locals live across the
   setjmp (-Wclobbered). Returns stb's result, or 0 when the arena ran out. */
typedef int (*rfl__png_fn)(stbi_write_func *, void *, int, int, int, const void *, int);
static int rfl__png_guarded(rfl__arena *a, const rfl_canvas *c) {
    rfl__png_fn volatile fn = stbi_write_png_to_func;
    if (setjmp(a->fail)) return 0;
    return fn(rfl__png_sink, a, c->width, c->height, c->channels, c->pixels, c->stride_bytes);
}

RFL_API rfl_result rfl_png_write(const rfl_canvas *c, void *arena, size_t arena_size,
                                 rfl_write_fn write, void *user) {
    rfl__arena a;
    int ok;
    if (!c || !write || !c->pixels || c->width <= 0 || c->height <= 0 ||
        (c->channels != 3 && c->channels != 4) || c->stride_bytes < c->width * c->channels)
        return RFL_ERR_ARG;
    if (!arena) return RFL_ERR_BUFFER;
    if ((size_t)c->width * (size_t)c->channels + 1u > (size_t)0x7FFFFFFF / (size_t)c->height)
        return RFL_ERR_OVERFLOW; /* stb counts bytes in int */
    RFL_MEMSET(&a, 0, sizeof a);
    a.base = (unsigned char *)arena;
    a.size = arena_size;
    a.write = write;
    a.user = user;
    rfl__png_arena = &a;
    /* stb's settings are statics of this unit only (STB_IMAGE_WRITE_STATIC):
       set on every call so that output depends on nothing else. Filter 2
       ("up") for every row: stb's per-row choice among five filters costs
       more than the whole rest of the encode, and "up" turns a chart's
       repeated rows into zeros that our compressor (rfl__zlib) packs
       into long matches. The compression level is unused by rfl__zlib. */
    stbi_write_force_png_filter = 2;
    stbi__flip_vertically_on_write = 0;
    ok = rfl__png_guarded(&a, c);
    rfl__png_arena = 0;
    if (!ok) return RFL_ERR_BUFFER;
    return a.write_failed ? RFL_ERR_IO : RFL_OK;
}

typedef struct rfl__membuf {
    unsigned char *out;
    size_t size, len;
} rfl__membuf;
static int rfl__mem_write(void *user, const void *data, size_t len) {
    rfl__membuf *m = (rfl__membuf *)user;
    if (m->len + len <= m->size && m->out) RFL_MEMCPY(m->out + m->len, data, len);
    m->len += len;
    return 0;
}

RFL_API rfl_result rfl_png_encode(const rfl_canvas *c, void *arena, size_t arena_size, void *out,
                                  size_t size, size_t *len) {
    rfl__membuf m;
    rfl_result r;
    m.out = (unsigned char *)out;
    m.size = out ? size : 0;
    m.len = 0;
    r = rfl_png_write(c, arena, arena_size, rfl__mem_write, &m);
    if (len) *len = m.len;
    if (r == RFL_OK && m.len > m.size) r = RFL_ERR_BUFFER;
    return r;
}

#ifndef RFL_NO_STDIO
#include <stdio.h>
static int rfl__file_write(void *user, const void *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)user) == len ? 0 : 1;
}
RFL_API rfl_result rfl_png_save(const rfl_canvas *c, const char *path, void *arena,
                                size_t arena_size) {
    FILE *f;
    rfl_result r;
    if (!path) return RFL_ERR_ARG;
    f = fopen(path, "wb");
    if (!f) return RFL_ERR_IO;
    r = rfl_png_write(c, arena, arena_size, rfl__file_write, f);
    if (fclose(f) != 0 && r == RFL_OK) r = RFL_ERR_IO;
    return r;
}
#endif
#endif /* RFL_HAS_PNG */


/* ==========================================================================
   [14] PROBE
   measured ceilings: FMA chains, read and triad sweeps (RFL_NO_PROBE)
   ========================================================================== */
#ifndef RFL_NO_PROBE
/* ---- kernels ------------------------------------------------------------------
   One template per kernel, instantiated per instruction set by redefining
   RFL__V (vector type), RFL__E (element), RFL__SET1, RFL__MADD, RFL__STORE
   and RFL__LANES: twelve named accumulators (not an array, which a
   compiler may keep in memory) so every chain stays in a register. */
#if defined(__GNUC__) || defined(__clang__)
#define RFL__CLOBBER() __asm__ __volatile__("" ::: "memory") /* no pass merged away */
#else
#define RFL__CLOBBER() ((void)0)
#endif
#define RFL__ACC12(D) D(0) D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11)
#define RFL__FMA_DECL(k) RFL__V x##k = RFL__SET1((RFL__E)(0.5 + 0.01 * (k)));
#define RFL__FMA_STEP(k) x##k = RFL__MADD(x##k, m, c);
#define RFL__FMA_SUM(k)                                                                       \
    RFL__STORE(t, x##k);                                                                      \
    for (i = 0; i < RFL__LANES; i++) s += (double)t[i];
/* x = x * m + c converges to c / (1 - m) (about 1): no overflow, no
   denormals, and no compiler may shorten it (no -ffast-math) */
#define RFL__FMA_FN(NAME, ATTR)                                                               \
    ATTR static double NAME(uint64_t reps) {                                                  \
        const RFL__V m = RFL__SET1((RFL__E)0.9999999), c = RFL__SET1((RFL__E)1e-7);           \
        RFL__E t[RFL__LANES];                                                                 \
        double s = 0;                                                                         \
        uint64_t r;                                                                           \
        int i;                                                                                \
        RFL__ACC12(RFL__FMA_DECL)                                                             \
        for (r = 0; r < reps; r++) { RFL__ACC12(RFL__FMA_STEP) }                              \
        RFL__ACC12(RFL__FMA_SUM)                                                              \
        return s;                                                                             \
    }
/* plain C: scalar chains (a compiler may pack them into vectors) */
#define RFL__SET1(v) (v)
#define RFL__MADD(x, m, c) ((x) * (m) + (c))
#define RFL__STORE(t, x) ((t)[0] = (x))
#define RFL__LANES 1
#define RFL__V double
#define RFL__E double
RFL__FMA_FN(rfl__fma_c64, )
#undef RFL__V
#undef RFL__E
#define RFL__V float
#define RFL__E float
RFL__FMA_FN(rfl__fma_c32, )
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__MADD
#undef RFL__STORE
#undef RFL__LANES

static double rfl__read_c(const double *a, size_t n, uint64_t reps) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    uint64_t r;
    size_t i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i + 4 <= n; i += 4) s0 += a[i], s1 += a[i + 1], s2 += a[i + 2], s3 += a[i + 3];
        for (; i < n; i++) s0 += a[i];
        RFL__CLOBBER();
    }
    return s0 + s1 + s2 + s3;
}
static double rfl__triad_c(double *a, const double *b, const double *c, size_t n, uint64_t reps) {
    const double s = 3.0;
    uint64_t r;
    size_t i;
    for (r = 0; r < reps; r++) {
        for (i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        RFL__CLOBBER();
    }
    return n ? a[0] + a[n - 1] : 0;
}

/* Vector sweeps: 8 accumulators (read) or 2 vectors a step (triad), the
   tail in C. LOAD/ADD/FMA name the intrinsics, W the doubles a vector. */
#define RFL__SWEEP_FNS(SUF, ATTR, V, W, LOAD, STORE, ADD, MUL, SET1, ZERO, RED)               \
    ATTR static double rfl__read_##SUF(const double *a, size_t n, uint64_t reps) {            \
        V s0 = ZERO(), s1 = ZERO(), s2 = ZERO(), s3 = ZERO();                                 \
        V s4 = ZERO(), s5 = ZERO(), s6 = ZERO(), s7 = ZERO();                                 \
        double t = 0;                                                                         \
        uint64_t r;                                                                           \
        size_t i;                                                                             \
        for (r = 0; r < reps; r++) {                                                          \
            for (i = 0; i + 8 * W <= n; i += 8 * W) {                                         \
                s0 = ADD(s0, LOAD(a + i)), s1 = ADD(s1, LOAD(a + i + W));                     \
                s2 = ADD(s2, LOAD(a + i + 2 * W)), s3 = ADD(s3, LOAD(a + i + 3 * W));         \
                s4 = ADD(s4, LOAD(a + i + 4 * W)), s5 = ADD(s5, LOAD(a + i + 5 * W));         \
                s6 = ADD(s6, LOAD(a + i + 6 * W)), s7 = ADD(s7, LOAD(a + i + 7 * W));         \
            }                                                                                 \
            for (; i < n; i++) t += a[i];                                                     \
            RFL__CLOBBER();                                                                   \
        }                                                                                     \
        s0 = ADD(ADD(ADD(s0, s1), ADD(s2, s3)), ADD(ADD(s4, s5), ADD(s6, s7)));               \
        return t + RED(s0);                                                                   \
    }                                                                                         \
    ATTR static double rfl__triad_##SUF(double *a, const double *b, const double *c,          \
                                         size_t n, uint64_t reps) {                           \
        const V s = SET1(3.0);                                                                \
        uint64_t r;                                                                           \
        size_t i;                                                                             \
        for (r = 0; r < reps; r++) {                                                          \
            for (i = 0; i + 2 * W <= n; i += 2 * W) {                                         \
                STORE(a + i, ADD(LOAD(b + i), MUL(s, LOAD(c + i))));                          \
                STORE(a + i + W, ADD(LOAD(b + i + W), MUL(s, LOAD(c + i + W))));              \
            }                                                                                 \
            for (; i < n; i++) a[i] = b[i] + 3.0 * c[i];                                      \
            RFL__CLOBBER();                                                                   \
        }                                                                                     \
        return n ? a[0] + a[n - 1] : 0;                                                       \
    }

#ifdef RFL__SSE2 /* x86-64 baseline (emmintrin.h is included above) */
static double rfl__red_sse2(__m128d v) {
    double t[2];
    _mm_storeu_pd(t, v);
    return t[0] + t[1];
}
RFL__SWEEP_FNS(sse2, , __m128d, 2, _mm_loadu_pd, _mm_storeu_pd, _mm_add_pd, _mm_mul_pd,
               _mm_set1_pd, _mm_setzero_pd, rfl__red_sse2)
#define RFL__MADD(x, m, c) RFL__ADDV(RFL__MULV(x, m), c) /* no FMA: mul + add */
#define RFL__LANES (16 / (int)sizeof(RFL__E))
#define RFL__V __m128d
#define RFL__E double
#define RFL__SET1 _mm_set1_pd
#define RFL__ADDV _mm_add_pd
#define RFL__MULV _mm_mul_pd
#define RFL__STORE _mm_storeu_pd
RFL__FMA_FN(rfl__fma_sse2_64, )
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__ADDV
#undef RFL__MULV
#undef RFL__STORE
#define RFL__V __m128
#define RFL__E float
#define RFL__SET1 _mm_set1_ps
#define RFL__ADDV _mm_add_ps
#define RFL__MULV _mm_mul_ps
#define RFL__STORE _mm_storeu_ps
RFL__FMA_FN(rfl__fma_sse2_32, )
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__ADDV
#undef RFL__MULV
#undef RFL__STORE
#undef RFL__MADD
#undef RFL__LANES
#endif /* RFL__SSE2 */

#ifdef RFL__AVX2 /* the reducer's CPUID helper and immintrin.h */
#define RFL__ATTR_AVX2 __attribute__((target("avx2,fma")))
#define RFL__ATTR_AVX512 __attribute__((target("avx512f")))
RFL__ATTR_AVX2 static double rfl__red_avx2(__m256d v) {
    double t[4];
    _mm256_storeu_pd(t, v);
    return t[0] + t[1] + t[2] + t[3];
}
RFL__ATTR_AVX512 static double rfl__red_avx512(__m512d v) {
    double t[8];
    _mm512_storeu_pd(t, v);
    return t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
}
RFL__SWEEP_FNS(avx2, RFL__ATTR_AVX2, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd,
               _mm256_add_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_setzero_pd, rfl__red_avx2)
RFL__SWEEP_FNS(avx512, RFL__ATTR_AVX512, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd,
               _mm512_add_pd, _mm512_mul_pd, _mm512_set1_pd, _mm512_setzero_pd,
               rfl__red_avx512)
#define RFL__LANES ((int)sizeof(RFL__V) / (int)sizeof(RFL__E))
#define RFL__V __m256d
#define RFL__E double
#define RFL__SET1 _mm256_set1_pd
#define RFL__MADD _mm256_fmadd_pd
#define RFL__STORE _mm256_storeu_pd
RFL__FMA_FN(rfl__fma_avx2_64, RFL__ATTR_AVX2)
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__MADD
#undef RFL__STORE
#define RFL__V __m256
#define RFL__E float
#define RFL__SET1 _mm256_set1_ps
#define RFL__MADD _mm256_fmadd_ps
#define RFL__STORE _mm256_storeu_ps
RFL__FMA_FN(rfl__fma_avx2_32, RFL__ATTR_AVX2)
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__MADD
#undef RFL__STORE
#define RFL__V __m512d
#define RFL__E double
#define RFL__SET1 _mm512_set1_pd
#define RFL__MADD _mm512_fmadd_pd
#define RFL__STORE _mm512_storeu_pd
RFL__FMA_FN(rfl__fma_avx512_64, RFL__ATTR_AVX512)
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__MADD
#undef RFL__STORE
#define RFL__V __m512
#define RFL__E float
#define RFL__SET1 _mm512_set1_ps
#define RFL__MADD _mm512_fmadd_ps
#define RFL__STORE _mm512_storeu_ps
RFL__FMA_FN(rfl__fma_avx512_32, RFL__ATTR_AVX512)
#undef RFL__V
#undef RFL__E
#undef RFL__SET1
#undef RFL__MADD
#undef RFL__STORE
#undef RFL__LANES
#endif /* RFL__AVX2 */

RFL_API rfl_probe_isa rfl_probe_isa_best(void) {
#ifdef RFL__AVX2
    unsigned a, b, c, d;
    int level = rfl__cpu_simd(); /* 1: AVX2 (+BMI...), 2: also AVX-512BW */
    /* every AVX2 CPU made has FMA3, but a hypervisor may hide it: bit 12 */
    if (level >= 1 && __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 12)))
        return level == 2 ? RFL_ISA_AVX512 : RFL_ISA_AVX2;
#endif
#ifdef RFL__SSE2
    return RFL_ISA_SSE2;
#else
    return RFL_ISA_C;
#endif
}

RFL_API const char *rfl_probe_isa_name(rfl_probe_isa isa) {
    static const char *const names[RFL_ISA_COUNT] = {"auto", "c", "sse2", "avx2", "avx512"};
    return (unsigned)isa < (unsigned)RFL_ISA_COUNT ? names[isa] : "?";
}

/* doubles (fp64) or floats (fp32) a vector of isa holds */
static int rfl__probe_lanes(rfl_probe_isa isa, rfl_prec prec) {
    static const int vec_bytes[RFL_ISA_COUNT] = {8, 8, 16, 32, 64};
    int w = (unsigned)isa < (unsigned)RFL_ISA_COUNT ? vec_bytes[isa] : 8;
    if (isa == RFL_ISA_C || isa == RFL_ISA_AUTO) return 1;
    return prec == RFL_FP32 ? w / 4 : w / 8;
}

RFL_API double rfl_probe_job_flops(const rfl_probe_job *job) {
    if (!job || job->kernel != RFL_PROBE_FMA) return 0;
    return (double)job->reps * 12.0 * 2.0 * (double)rfl__probe_lanes(job->isa, job->prec);
}

RFL_API double rfl_probe_job_bytes(const rfl_probe_job *job) {
    if (!job) return 0;
    switch (job->kernel) {
    case RFL_PROBE_READ: return 8.0 * (double)job->n * (double)job->reps;
    case RFL_PROBE_TRIAD: return 24.0 * (double)job->n * (double)job->reps; /* STREAM */
    case RFL_PROBE_INIT: return 8.0 * (double)job->n;
    case RFL_PROBE_FMA: break;
    }
    return 0;
}

RFL_API void rfl_probe_job_slice(const rfl_probe_job *job, int t, int threads,
                                 rfl_probe_job *out) {
    size_t per, start;
    *out = *job;
    if (job->kernel == RFL_PROBE_FMA || threads <= 1 || t < 0 || t >= threads) return;
    per = job->n / (size_t)threads / 8u * 8u; /* 64-byte pieces: no shared lines */
    start = per * (size_t)t;
    out->n = t == threads - 1 ? job->n - start : per;
    out->a = job->a ? job->a + start : 0;
    out->b = job->b ? job->b + start : 0;
    out->c = job->c ? job->c + start : 0;
}

static double rfl__probe_fma(rfl_probe_isa isa, rfl_prec prec, uint64_t reps) {
    int f32 = prec == RFL_FP32;
    switch (isa) {
#ifdef RFL__AVX2
    case RFL_ISA_AVX512: return f32 ? rfl__fma_avx512_32(reps) : rfl__fma_avx512_64(reps);
    case RFL_ISA_AVX2: return f32 ? rfl__fma_avx2_32(reps) : rfl__fma_avx2_64(reps);
#endif
#ifdef RFL__SSE2
    case RFL_ISA_SSE2: return f32 ? rfl__fma_sse2_32(reps) : rfl__fma_sse2_64(reps);
#endif
    default: return f32 ? (double)rfl__fma_c32(reps) : rfl__fma_c64(reps);
    }
}

static double rfl__probe_sweep(const rfl_probe_job *j) {
    int rd = j->kernel == RFL_PROBE_READ;
    switch (j->isa) {
#ifdef RFL__AVX2
    case RFL_ISA_AVX512:
        return rd ? rfl__read_avx512(j->a, j->n, j->reps)
                  : rfl__triad_avx512(j->a, j->b, j->c, j->n, j->reps);
    case RFL_ISA_AVX2:
        return rd ? rfl__read_avx2(j->a, j->n, j->reps)
                  : rfl__triad_avx2(j->a, j->b, j->c, j->n, j->reps);
#endif
#ifdef RFL__SSE2
    case RFL_ISA_SSE2:
        return rd ? rfl__read_sse2(j->a, j->n, j->reps)
                  : rfl__triad_sse2(j->a, j->b, j->c, j->n, j->reps);
#endif
    default:
        return rd ? rfl__read_c(j->a, j->n, j->reps) : rfl__triad_c(j->a, j->b, j->c, j->n, j->reps);
    }
}

RFL_API double rfl_probe_kernel_run(const rfl_probe_job *job) {
    size_t i;
    if (!job) return 0;
    switch (job->kernel) {
    case RFL_PROBE_FMA: return rfl__probe_fma(job->isa, job->prec, job->reps);
    case RFL_PROBE_INIT:
        for (i = 0; job->a && i < job->n; i++) job->a[i] = 1.0;
        return 0;
    case RFL_PROBE_READ:
    case RFL_PROBE_TRIAD:
        if (!job->a || (job->kernel == RFL_PROBE_TRIAD && (!job->b || !job->c))) return 0;
        return rfl__probe_sweep(job);
    }
    return 0;
}

/* ---- levels: a piecewise-flat fit of the sweep curve ----------------------------
   log2 without libm: x = m 2^e, m in [1, 2), ln m = 2 atanh((m-1)/(m+1))
   (z <= 1/3: six terms are within 1e-7). */
static double rfl__probe_log2(double x) {
    double e = 0, z, z2, t, s = 0;
    int k;
    if (!(x > 0) || x > 1e300) return 0;
    while (x >= 2) x *= 0.5, e += 1;
    while (x < 1) x *= 2, e -= 1;
    z = (x - 1) / (x + 1), z2 = z * z, t = z;
    for (k = 0; k < 6; k++, t *= z2) s += t / (double)(2 * k + 1);
    return e + 2 * s * 1.4426950408889634; /* 1 / ln 2 */
}

/* sum of squares of y[i..j] about its mean */
static float rfl__probe_sse(const float *y, int i, int j) {
    float mean = 0, e = 0, d;
    int k;
    for (k = i; k <= j; k++) mean += y[k];
    mean /= (float)(j - i + 1);
    for (k = i; k <= j; k++) d = y[k] - mean, e += d * d;
    return e;
}

/* median of bps[idx[i..j]] (the values a piece holds) */
static double rfl__probe_median(const double *bps, int stride, const unsigned char *idx, int i,
                                int j) {
    double t[RFL_PROBE_MAX_POINTS], x;
    int n = 0, a, b;
    for (a = i; a <= j; a++) { /* insertion sort: at most 32 values */
        x = bps[idx[a] * stride];
        for (b = n++; b > 0 && t[b - 1] > x; b--) t[b] = t[b - 1];
        t[b] = x;
    }
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Best split of y[0..n) into k pieces (ends >= 1 point, middles >= 2):
   error returned, piece starts in start[0..k). Two rows of the table
   and the back pointers: small stack for a board. */
static float rfl__probe_fit(const float *y, int n, int k, int *start) {
    float prev[RFL_PROBE_MAX_POINTS + 1], cur[RFL_PROBE_MAX_POINTS + 1];
    unsigned char from[4][RFL_PROBE_MAX_POINTS + 1];
    int p, j, i;
    for (j = 0; j <= n; j++) prev[j] = j ? 3e38f : 0;
    for (p = 1; p <= k; p++) {   /* cur[j]: y[0..j) in p pieces */
        for (j = 0; j <= n; j++) { /* the last piece is y[i..j) */
            cur[j] = 3e38f, from[p - 1][j] = 0;
            for (i = p - 1; i < j; i++) {
                int end = p == 1 || (p == k && j == n);
                float e;
                if (prev[i] >= 3e38f || (p == 1 && i != 0) || (!end && j - i < 2)) continue;
                e = prev[i] + rfl__probe_sse(y, i, j - 1);
                if (e < cur[j]) cur[j] = e, from[p - 1][j] = (unsigned char)i;
            }
        }
        for (j = 0; j <= n; j++) prev[j] = cur[j];
    }
    for (p = k, j = n; p >= 1; p--) start[p - 1] = from[p - 1][j], j = from[p - 1][j];
    return prev[n];
}

/* 1 when each piece's median differs from the next one's by over 15% */
static int rfl__probe_steps(const double *bps, int stride, const unsigned char *idx, int m,
                            int k, const int *st) {
    int i;
    for (i = 1; i < k; i++) {
        double hi = rfl__probe_median(bps, stride, idx, st[i - 1], st[i] - 1);
        double lo = rfl__probe_median(bps, stride, idx, st[i], i + 1 < k ? st[i + 1] - 1 : m - 1);
        if (hi < lo * 1.15 && lo < hi * 1.15) return 0;
    }
    return 1;
}

RFL_API int rfl_probe_levels(const double *bps, int n, int stride, double out[RFL_PROBE_LEVELS]) {
    static const unsigned char label[5][4] = {
        {0}, {RFL_PROBE_DRAM}, {RFL_PROBE_L1, RFL_PROBE_DRAM},
        {RFL_PROBE_L1, RFL_PROBE_L2, RFL_PROBE_DRAM},
        {RFL_PROBE_L1, RFL_PROBE_L2, RFL_PROBE_L3, RFL_PROBE_DRAM}};
    float y[RFL_PROBE_MAX_POINTS], err, e;
    unsigned char idx[RFL_PROBE_MAX_POINTS];
    int start[4], st[4], m = 0, i, k, kept = 1;
    if (out) RFL_MEMSET(out, 0, sizeof(double) * RFL_PROBE_LEVELS);
    if (!bps || !out || stride < 1) return 0;
    for (i = 0; i < n && m < RFL_PROBE_MAX_POINTS; i++) {
        double v = bps[i * stride];
        if (v > 0 && v < 1e300) idx[m] = (unsigned char)i, y[m++] = (float)rfl__probe_log2(v);
    }
    if (m < 1) return 0;
    for (i = m - 1; i >= 0; i--) y[i] -= y[0]; /* relative (y[0] last): float keeps its digits */
    start[0] = 0, err = rfl__probe_sse(y, 0, m - 1);
    for (k = 2; k <= 4 && k <= m; k++) {
        e = rfl__probe_fit(y, m, k, st);
        /* a new piece must explain clearly more than noise (a 15% step
           on 2 points is 2 x 0.2^2 = 0.08) and be a step of over 15% */
        if (err - e < 0.06f + 0.004f * (float)m || !rfl__probe_steps(bps, stride, idx, m, k, st))
            break;
        err = e, kept = k;
        for (i = 0; i < k; i++) start[i] = st[i];
    }
    /* DRAM from the 3 largest sizes at most: past the last cache the
       curve may still fall (TLB reach, a shared cache of other cores) */
    if (start[kept - 1] < m - 3) start[kept - 1] = m - 3;
    for (i = 0; i < kept; i++)
        out[label[kept][i]] =
            rfl__probe_median(bps, stride, idx, start[i], i + 1 < kept ? start[i + 1] - 1 : m - 1);
    return kept;
}

/* ---- the driver ---------------------------------------------------------------- */
typedef struct rfl__probe_ctx {
    const rfl_probe_desc *d;
    rfl_probe_result *r;
    double tps, min_s;
    int runs, done, total;
} rfl__probe_ctx;

static double rfl__probe_time(rfl__probe_ctx *x, const rfl_probe_job *job) {
    const rfl_probe_desc *d = x->d;
    double t0 = d->now(d->now_ctx), t1;
    if (d->run_all)
        d->run_all(d->run_ctx, job);
    else
        x->r->checksum += rfl_probe_kernel_run(job);
    t1 = d->now(d->now_ctx);
    return (t1 - t0) / x->tps;
}

/* Repetitions doubled (or more) until the work of one run takes min_s
   beyond the overhead of a run (an empty job: the clock and, with
   threads, waking them, which on a busy machine can take longer than
   min_s), then the best of `runs` runs at that count. Returns the best
   seconds, overhead included (0: the clock never advanced). */
static double rfl__probe_measure(rfl__probe_ctx *x, rfl_probe_job *job, const char *what) {
    double t, best, over = 1e300;
    int i;
    if (x->d->progress) x->d->progress(x->d->progress_ctx, what, ++x->done, x->total);
    for (job->reps = 0, i = 0; i < 3; i++)
        if ((t = rfl__probe_time(x, job)) < over) over = t;
    if (!(over > 0)) over = 0;
    job->reps = 1;
    for (;;) {
        uint64_t grow = 16;
        t = rfl__probe_time(x, job) - over;
        if (t >= x->min_s || job->reps >= ((uint64_t)1 << 40)) break;
        if (t > 0 && x->min_s * 1.25 / t < 16) grow = (uint64_t)(x->min_s * 1.25 / t) + 1;
        if (grow < 2) grow = 2;
        job->reps *= grow;
    }
    for (best = t, i = 1; i < x->runs; i++) {
        t = rfl__probe_time(x, job);
        if (t > 0 && (t < best || !(best > 0))) best = t;
    }
    return best > 0 ? best : 0;
}

static rfl_result rfl__probe_peaks(rfl__probe_ctx *x, rfl_probe_isa isa) {
    static const rfl_prec precs[2] = {RFL_FP64, RFL_FP32};
    int i;
    for (i = 0; i < 2; i++) {
        rfl_probe_job job;
        double s;
        RFL_MEMSET(&job, 0, sizeof job);
        job.kernel = RFL_PROBE_FMA, job.prec = precs[i], job.isa = isa;
        x->runs *= 3; /* the peaks: 2 measurements, so 3x the runs cost little */
        s = rfl__probe_measure(x, &job, precs[i] == RFL_FP64 ? "fma fp64" : "fma fp32");
        x->runs /= 3;
        if (!(s > 0)) return RFL_ERR_NO_DATA;
        x->r->peak_flops[precs[i]] = rfl_probe_job_flops(&job) * (double)x->r->threads / s;
    }
    return RFL_OK;
}

/* One sweep point: a read over S / 8 doubles and a triad over three
   arrays of about S / 24. */
static rfl_result rfl__probe_point(rfl__probe_ctx *x, double *base, size_t bytes,
                                   rfl_probe_isa isa, rfl_probe_point *pt) {
    rfl_probe_job job;
    double s;
    RFL_MEMSET(&job, 0, sizeof job);
    RFL_MEMSET(pt, 0, sizeof *pt);
    pt->bytes = (double)bytes;
    job.isa = isa, job.a = base;
    if (!(x->d->skip & 2u)) {
        job.kernel = RFL_PROBE_READ, job.n = bytes / 8u;
        if (!((s = rfl__probe_measure(x, &job, "read")) > 0)) return RFL_ERR_NO_DATA;
        pt->read_bps = rfl_probe_job_bytes(&job) / s;
    }
    if (!(x->d->skip & 4u)) {
        /* n a multiple of 8 doubles: b and c start on 64-byte lines, as
           STREAM's arrays do (a vector load across two lines is slower) */
        job.kernel = RFL_PROBE_TRIAD, job.n = bytes / 24u / 8u * 8u;
        job.b = base + job.n, job.c = base + 2 * job.n;
        if (!((s = rfl__probe_measure(x, &job, "triad")) > 0)) return RFL_ERR_NO_DATA;
        pt->triad_bps = rfl_probe_job_bytes(&job) / s;
    }
    return RFL_OK;
}

/* sizes min, min x step, ... <= max: the number of points (capped) */
static int rfl__probe_npoints(size_t lo, size_t hi, int step) {
    int n = 0;
    while (lo <= hi && n < RFL_PROBE_MAX_POINTS) {
        n++;
        if (lo > hi / (size_t)step) break;
        lo *= (size_t)step;
    }
    return n;
}

static rfl_result rfl__probe_sweep_all(rfl__probe_ctx *x, double *base, size_t lo, int npts,
                                       int step, rfl_probe_isa isa) {
    rfl_probe_result *r = x->r;
    const int stride = (int)(sizeof(rfl_probe_point) / sizeof(double));
    int i;
    for (i = 0; i < npts; i++, lo *= (size_t)step) {
        rfl_result e = rfl__probe_point(x, base, lo, isa, &r->sweep[i]);
        if (e) return e;
        r->n_points = i + 1;
    }
    rfl_probe_levels(&r->sweep[0].read_bps, npts, stride, r->read_bps);
    rfl_probe_levels(&r->sweep[0].triad_bps, npts, stride, r->triad_bps);
    return RFL_OK;
}

static void rfl__probe_machine(rfl_probe_result *r) {
    rfl_machine *m = &r->machine;
    const double *bw = r->triad_bps[RFL_PROBE_DRAM] > 0 ? r->triad_bps : r->read_bps;
    int i;
    RFL_MEMSET(m, 0, sizeof *m);
    m->id = "host", m->name = "this host (measured)", m->aliases = "";
    m->kind = RFL_KIND_CPU, m->source = "measured by rfl_probe_run";
    for (i = 0; i < RFL_PREC_COUNT; i++) m->peak_flops[i] = r->peak_flops[i];
    m->bw_bytes_per_s[RFL_DRAM] = bw[RFL_PROBE_DRAM];
    m->bw_bytes_per_s[RFL_L2] = bw[RFL_PROBE_L2];
    m->bw_bytes_per_s[RFL_L1] = bw[RFL_PROBE_L1];
    m->units = r->threads;
}

/* the isa to use: the asked one if this CPU and build have it */
static rfl_result rfl__probe_pick_isa(rfl_probe_isa want, rfl_probe_isa *out) {
    rfl_probe_isa best = rfl_probe_isa_best();
    if ((unsigned)want >= (unsigned)RFL_ISA_COUNT) return RFL_ERR_ARG;
    if (want == RFL_ISA_AUTO) want = best;
    if (want > best) return RFL_ERR_UNSUPPORTED;
    *out = want;
    return RFL_OK;
}

RFL_API rfl_result rfl_probe_run(const rfl_probe_desc *d, rfl_probe_result *r) {
    rfl__probe_ctx x;
    double *base = 0, t0;
    size_t lo, hi = 0, cap = 0;
    int step, npts = 0;
    rfl_result e;
    if (!d || !r || !d->now) return RFL_ERR_ARG;
    RFL_MEMSET(r, 0, sizeof *r);
    RFL_MEMSET(&x, 0, sizeof x);
    x.d = d, x.r = r;
    x.tps = d->ticks_per_s > 0 ? d->ticks_per_s : 1;
    x.min_s = d->min_s > 0 ? d->min_s : 0.01;
    x.runs = d->runs > 0 ? d->runs : 3;
    r->threads = d->threads > 0 ? d->threads : 1;
    if ((e = rfl__probe_pick_isa(d->isa, &r->isa)) != RFL_OK) return e;
    step = d->step == 4 ? 4 : 2;
    lo = d->min_bytes ? d->min_bytes : 16384u;
    if ((d->skip & 6u) != 6u) { /* a sweep: the buffer, 64-byte aligned */
        size_t skew;
        if (!d->buf) return RFL_ERR_ARG;
        skew = (size_t)((64u - (uintptr_t)d->buf % 64u) % 64u) / 8u;
        cap = d->size / 8u > skew ? (d->size / 8u - skew) * 8u : 0;
        base = d->buf + skew;
        hi = d->max_bytes && d->max_bytes < cap ? d->max_bytes : cap;
        if (lo < 64 || lo > hi) return RFL_ERR_ARG;
        npts = rfl__probe_npoints(lo, hi, step);
    }
    x.total = ((d->skip & 1u) ? 0 : 2) + npts * (((d->skip & 2u) ? 0 : 1) + ((d->skip & 4u) ? 0 : 1));
    t0 = d->now(d->now_ctx);
    if (base) { /* first touch by the threads that will use the pages */
        rfl_probe_job init;
        RFL_MEMSET(&init, 0, sizeof init);
        init.kernel = RFL_PROBE_INIT, init.isa = r->isa, init.a = base, init.n = hi / 8u;
        if (d->run_all) d->run_all(d->run_ctx, &init);
        else rfl_probe_kernel_run(&init);
    }
    if (!(d->skip & 1u) && (e = rfl__probe_peaks(&x, r->isa)) != RFL_OK) return e;
    if (base && (e = rfl__probe_sweep_all(&x, base, lo, npts, step, r->isa)) != RFL_OK) return e;
    r->seconds = (d->now(d->now_ctx) - t0) / x.tps;
    rfl__probe_machine(r);
    return RFL_OK;
}
#endif /* RFL_NO_PROBE */

/* ==========================================================================
   [15] CHECK
   an answer file read, graded against the estimate and the profile, and
   written back as JSON (the checker's own small writer: rfl__cw)
   ========================================================================== */
#ifndef RFL_NO_CHECK
static const char *const rfl__ck_names[RFL_CHECK_FIELD_COUNT] = {
    "machine.peak_flops_per_s", "machine.bandwidth_bytes_per_s",
    "machine.ridge_flop_per_byte", "forward_flops", "backward_flops", "flops", "bytes", "ai",
    "attainable_flops_per_s", "bound", "predicted_time_s", "measured.flops",
    "measured.bytes", "measured.time_s", "measured.ai", "measured.achieved_flops_per_s",
    "variant"};
static const unsigned char rfl__ck_dims[RFL_CHECK_FIELD_COUNT] = {
    RFL_DIM_FLOP_PER_S, RFL_DIM_BYTE_PER_S, RFL_DIM_FLOP_PER_BYTE, RFL_DIM_FLOP, RFL_DIM_FLOP,
    RFL_DIM_FLOP, RFL_DIM_BYTE, RFL_DIM_FLOP_PER_BYTE, RFL_DIM_FLOP_PER_S, RFL_DIM_TEXT,
    RFL_DIM_TIME, RFL_DIM_FLOP, RFL_DIM_BYTE, RFL_DIM_TIME, RFL_DIM_FLOP_PER_BYTE,
    RFL_DIM_FLOP_PER_S, RFL_DIM_TEXT};
static const char *const rfl__ck_diags[RFL_DIAG_COUNT] = {
    "", "carried_error", "inconsistent_ai", "tensor_flops_missing", "per_sample",
    "forward_only", "backward_twice_forward", "mac_not_flop", "precision_roof",
    "wrong_machine", "binary_prefix", "unit_slip", "above_roof", "measured_partial",
    "wrong_variant", "footprint_not_traffic"};

RFL_API const char *rfl_check_field_name(rfl_check_field f) {
    return (unsigned)f < RFL_CHECK_FIELD_COUNT ? rfl__ck_names[f] : "?";
}
RFL_API rfl_check_dim rfl_check_field_dim(rfl_check_field f) {
    return (unsigned)f < RFL_CHECK_FIELD_COUNT ? (rfl_check_dim)rfl__ck_dims[f] : RFL_DIM_TEXT;
}
RFL_API const char *rfl_check_verdict_name(rfl_check_verdict v) {
    static const char *const n[4] = {"ok", "wrong", "missing", "unchecked"};
    return (unsigned)v < 4 ? n[v] : "?";
}
RFL_API const char *rfl_check_diag_name(rfl_check_diag d) {
    return (unsigned)d < RFL_DIAG_COUNT ? rfl__ck_diags[d] : "?";
}

/* ---- values with units ---------------------------------------------------- */
static int rfl__ck_is(const char *s, size_t n, const char *lit) {
    return rfl__strlen(lit) == n && rfl__memeq(s, lit, n);
}
/* The unit's dimension and factor (MAC: 2 FLOPs); -1 when unknown. */
static int rfl__ck_unit(const char *u, size_t n, double *k) {
    static const char *const names[] = {
        "FLOP", "FLOPs", "flop", "flops", "FLOPS/s", "MAC", "MACs", "mac", "macs",
        "B", "byte", "bytes", "Byte", "Bytes", "s", "sec",
        "FLOP/s", "FLOPs/s", "flop/s", "flops/s", "FLOPS",
        "B/s", "byte/s", "bytes/s", "Byte/s", "Bytes/s",
        "FLOP/B", "FLOP/byte", "FLOPs/byte", "FLOPs/B", "flop/byte", "flops/byte", "flop/B"};
    static const signed char dim[] = {
        RFL_DIM_FLOP, RFL_DIM_FLOP, RFL_DIM_FLOP, RFL_DIM_FLOP, RFL_DIM_FLOP_PER_S,
        RFL_DIM_FLOP, RFL_DIM_FLOP, RFL_DIM_FLOP, RFL_DIM_FLOP,
        RFL_DIM_BYTE, RFL_DIM_BYTE, RFL_DIM_BYTE, RFL_DIM_BYTE, RFL_DIM_BYTE, RFL_DIM_TIME,
        RFL_DIM_TIME, RFL_DIM_FLOP_PER_S, RFL_DIM_FLOP_PER_S, RFL_DIM_FLOP_PER_S,
        RFL_DIM_FLOP_PER_S, RFL_DIM_FLOP_PER_S, RFL_DIM_BYTE_PER_S, RFL_DIM_BYTE_PER_S,
        RFL_DIM_BYTE_PER_S, RFL_DIM_BYTE_PER_S, RFL_DIM_BYTE_PER_S, RFL_DIM_FLOP_PER_BYTE,
        RFL_DIM_FLOP_PER_BYTE, RFL_DIM_FLOP_PER_BYTE, RFL_DIM_FLOP_PER_BYTE,
        RFL_DIM_FLOP_PER_BYTE, RFL_DIM_FLOP_PER_BYTE, RFL_DIM_FLOP_PER_BYTE};
    size_t i;
    for (i = 0; i < sizeof dim; i++)
        if (rfl__ck_is(u, n, names[i])) {
            *k = (i >= 5 && i <= 8) ? 2.0 : 1.0;
            return dim[i];
        }
    return -1;
}

/* A number, with commas between groups of three digits allowed before
   the point ("8,297,434,213", as the reports' tables print them). */
static rfl_result rfl__ck_num(const char *s, size_t n, double *v) {
    char t[64];
    size_t i, k = 0, digits = 0;
    int commas = 0, point = 0;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (c == '.' || c == 'e' || c == 'E') point = 1;
        if (c == ',' && !point) {
            if (digits == 0 || (commas && digits != 3) || (!commas && digits > 3)) return RFL_ERR_NUMBER;
            commas = 1, digits = 0;
            continue;
        }
        if (c >= '0' && c <= '9' && !point) digits++;
        if (k + 1 >= sizeof t) return RFL_ERR_NUMBER;
        t[k++] = c;
    }
    if (commas && digits != 3) return RFL_ERR_NUMBER;
    return rfl_parse_num(t, k, v);
}

RFL_API rfl_result rfl_check_parse_value(const char *s, size_t len, rfl_check_dim dim,
                                         double *out, size_t *at) {
    static const char pre[] = "kKMGTPmun";
    static const double pk[] = {1e3, 1e3, 1e6, 1e9, 1e12, 1e15, 1e-3, 1e-6, 1e-9};
    size_t i = 0, j, u;
    double v, k = 1.0, f = 1.0;
    int d = -1, p;
    if (at) *at = 0;
    if (!s || !out) return RFL_ERR_ARG;
    while (i < len && s[i] == ' ') i++;
    for (j = i; j < len && s[j] != ' ' && !((s[j] >= 'A' && s[j] <= 'Z') ||
                                             (s[j] >= 'a' && s[j] <= 'z' && s[j] != 'e') ||
                                             (unsigned char)s[j] >= 0x80);
         j++) {}
    if (rfl__ck_num(s + i, j - i, &v) != RFL_OK) { if (at) *at = i; return RFL_ERR_NUMBER; }
    while (j < len && s[j] == ' ') j++;
    while (len > j && s[len - 1] == ' ') len--;
    if (at) *at = j;
    if (j == len) { *out = v; return RFL_OK; } /* no unit: base units */
    /* the unit bare, or after one prefix (k, Ki, m, the micro sign ...) */
    d = rfl__ck_unit(s + j, len - j, &f);
    for (p = 0; d < 0 && pre[p]; p++) {
        if (s[j] != pre[p]) continue;
        u = j + 1, k = pk[p];
        if (u < len && s[u] == 'i' && p < 5) k = (double)(1ull << (10 * (p < 2 ? 1 : p))), u++;
        d = rfl__ck_unit(s + u, len - u, &f);
        if (d >= 0 && p >= 6 && d != RFL_DIM_TIME) d = -1; /* milli-FLOPs: no */
    }
    if (d < 0 && len - j > 2 && (unsigned char)s[j] == 0xC2 && (unsigned char)s[j + 1] == 0xB5)
        k = 1e-6, d = rfl__ck_unit(s + j + 2, len - j - 2, &f), d = d == RFL_DIM_TIME ? d : -1;
    if (d < 0 || d != (int)dim) return RFL_ERR_UNIT;
    *out = v * k * f;
    return RFL_OK;
}

/* ---- reading the answer file ----------------------------------------------- */
typedef struct rfl__ck_rd {
    rfl_json_doc doc;
    rfl_error *err;
} rfl__ck_rd;

static rfl_result rfl__ck_fail(rfl__ck_rd *r, rfl_result code, int tok, size_t extra,
                               const char *field, const char *msg) {
    size_t i, off = tok >= 0 ? r->doc.t[tok].start + extra : 0;
    uint64_t line = 1, col = 1;
    if (tok >= 0 && r->doc.t[tok].type == RFL_JSON_STR && off > 0 && extra == 0) off--;
    for (i = 0; i < off && i < r->doc.len; i++) {
        if (r->doc.src[i] == '\n') line++, col = 1;
        else col++;
    }
    r->err->code = code;
    r->err->line = tok >= 0 ? line : 0, r->err->col = tok >= 0 ? col : 0;
    r->err->offset = off;
    rfl__finish(r->err->where, sizeof r->err->where,
                rfl__ly_cat(r->err->where, sizeof r->err->where, 0, field));
    rfl__finish(r->err->msg, sizeof r->err->msg, rfl__ly_cat(r->err->msg, sizeof r->err->msg, 0, msg));
    return code;
}

/* "prefix.key" into buf */
static const char *rfl__ck_path(char *buf, size_t size, const char *a, const char *b,
                                const char *c) {
    size_t p = rfl__ly_cat(buf, size, 0, a);
    if (b) p = rfl__ly_cat(buf, size, rfl__put(buf, size, p, '.'), b);
    if (c) p = rfl__ly_cat(buf, size, rfl__put(buf, size, p, '.'), c);
    rfl__finish(buf, size, p);
    return buf;
}

static rfl_result rfl__ck_value(rfl__ck_rd *r, int tok, rfl_check_field f, const char *path,
                                rfl_check_value *out) {
    const rfl_json_tok *t = &r->doc.t[tok];
    size_t at = 0;
    rfl_result e;
    out->line = rfl_json_line(&r->doc, tok);
    if (t->type == RFL_JSON_NULL) return RFL_OK;
    if (f == RFL_CHECK_BOUND) {
        static const char *const ok[4] = {"memory", "memory-bound", "compute", "compute-bound"};
        int i;
        for (i = 0; i < 4; i++)
            if (rfl_json_str_eq(&r->doc, tok, ok[i])) {
                out->given = 1, out->v = i < 2 ? 1.0 : 0.0;
                return RFL_OK;
            }
        return rfl__ck_fail(r, RFL_ERR_FORMAT, tok, 0, path, "bound is \"memory\" or \"compute\"");
    }
    if (t->type == RFL_JSON_NUM) {
        out->given = rfl_json_num(&r->doc, tok, &out->v);
    } else if (t->type == RFL_JSON_STR) {
        e = rfl_check_parse_value(r->doc.src + t->start, t->end - t->start,
                                  (rfl_check_dim)rfl__ck_dims[f], &out->v, &at);
        if (e == RFL_ERR_UNIT)
            return rfl__ck_fail(r, e, tok, at, path, "a unit of another dimension, or unknown");
        if (e) return rfl__ck_fail(r, e, tok, at, path, "not a number");
        out->given = 1;
    } else {
        return rfl__ck_fail(r, RFL_ERR_FORMAT, tok, 0, path,
                            "a value is a number, a string with a unit, or null");
    }
    if (!(out->v >= 0) || out->v - out->v != 0.0)
        return rfl__ck_fail(r, RFL_ERR_NOT_FINITE, tok, 0, path, "a value is finite and >= 0");
    return RFL_OK;
}

/* Is key token k one of names[lo..hi) ('_' keys: skip)? Returns the index,
   -2 for a skipped key, -1 for an unknown one. */
static int rfl__ck_key(const rfl_json_doc *doc, int k, int lo, int hi) {
    int i;
    if (doc->t[k].end > doc->t[k].start && doc->src[doc->t[k].start] == '_') return -2;
    for (i = lo; i < hi; i++) {
        const char *n = rfl__ck_names[i], *dot = n;
        while (*dot && *dot != '.') dot++;
        if (rfl_json_str_eq(doc, k, *dot ? dot + 1 : n)) return i;
    }
    return -1;
}

static rfl_result rfl__ck_obj(rfl__ck_rd *r, int tok, const char *path) {
    if (tok < 0 || r->doc.t[tok].type != RFL_JSON_OBJ)
        return rfl__ck_fail(r, RFL_ERR_FORMAT, tok, 0, path, "must be an object");
    return RFL_OK;
}

static rfl_result rfl__ck_model(rfl__ck_rd *r, int k0, rfl_check_model *m) {
    char path[112], sub[112], key[64];
    int obj = k0 + 1, k, i, mk;
    rfl_result e;
    rfl_json_str(&r->doc, k0, m->name, sizeof m->name);
    m->line = rfl_json_line(&r->doc, k0);
    rfl__ck_path(path, sizeof path, "models", m->name, 0);
    if ((e = rfl__ck_obj(r, obj, path)) != RFL_OK) return e;
    for (k = obj + 1; k < r->doc.t[obj].after; k = r->doc.t[k + 1].after) {
        if (rfl_json_str_eq(&r->doc, k, "measured")) {
            rfl__ck_path(sub, sizeof sub, path, "measured", 0);
            if ((e = rfl__ck_obj(r, k + 1, sub)) != RFL_OK) return e;
            for (mk = k + 2; mk < r->doc.t[k + 1].after; mk = r->doc.t[mk + 1].after) {
                if (rfl_json_str_eq(&r->doc, mk, "profile")) {
                    m->profile_line = rfl_json_line(&r->doc, mk);
                    if (r->doc.t[mk + 1].type == RFL_JSON_NULL) continue;
                    if (!rfl_json_str(&r->doc, mk + 1, m->profile, sizeof m->profile) || !m->profile[0])
                        return rfl__ck_fail(r, RFL_ERR_FORMAT, mk + 1, 0, "models.*.measured.profile",
                                            "profile is a file name (under 256 bytes) or null");
                    continue;
                }
                i = rfl__ck_key(&r->doc, mk, RFL_CHECK_M_FLOPS, RFL_CHECK_VARIANT);
                if (i == -2) continue;
                rfl_json_str(&r->doc, mk, key, sizeof key);
                rfl__ck_path(sub, sizeof sub, path, "measured", key);
                if (i < 0) return rfl__ck_fail(r, RFL_ERR_FORMAT, mk, 0, sub, "unknown key");
                if ((e = rfl__ck_value(r, mk + 1, (rfl_check_field)i, sub, &m->v[i])) != RFL_OK)
                    return e;
            }
            continue;
        }
        i = rfl__ck_key(&r->doc, k, RFL_CHECK_FWD_FLOPS, RFL_CHECK_M_FLOPS);
        if (i == -2) continue;
        rfl_json_str(&r->doc, k, key, sizeof key);
        rfl__ck_path(sub, sizeof sub, path, key, 0);
        if (i < 0) return rfl__ck_fail(r, RFL_ERR_FORMAT, k, 0, sub, "unknown key");
        if ((e = rfl__ck_value(r, k + 1, (rfl_check_field)i, sub, &m->v[i])) != RFL_OK) return e;
    }
    return RFL_OK;
}

static rfl_result rfl__ck_assignment(rfl__ck_rd *r, int obj, rfl_check_answers *a) {
    char s[64];
    int k;
    double b;
    rfl_result e;
    if ((e = rfl__ck_obj(r, obj, "assignment")) != RFL_OK) return e;
    a->batch = 1;
    for (k = obj + 1; k < r->doc.t[obj].after; k = r->doc.t[k + 1].after) {
        int v = k + 1, str = rfl_json_str(&r->doc, v, s, sizeof s);
        if (rfl_json_str_eq(&r->doc, k, "hw")) {
            if (!str || rfl_hw_find(s, &a->machine) != RFL_OK)
                return rfl__ck_fail(r, RFL_ERR_UNKNOWN_NAME, v, 0, "assignment.hw",
                                    "no machine of that name in the table (rfl-hw lists them)");
            rfl__finish(a->hw, sizeof a->hw, rfl__ly_cat(a->hw, sizeof a->hw, 0, s));
        } else if (rfl_json_str_eq(&r->doc, k, "batch")) {
            if (!rfl_json_num(&r->doc, v, &b) || b < 1 || b > 1e9 || b != (double)(uint64_t)b)
                return rfl__ck_fail(r, RFL_ERR_NUMBER, v, 0, "assignment.batch",
                                    "batch is a whole number from 1 to 1e9");
            a->batch = (uint64_t)b;
        } else if (rfl_json_str_eq(&r->doc, k, "mode")) {
            if (str && (rfl_parse_name_eq(s, "train") || rfl_parse_name_eq(s, "training"))) a->mode = RFL_MODE_TRAIN;
            else if (str && (rfl_parse_name_eq(s, "infer") || rfl_parse_name_eq(s, "inference"))) a->mode = RFL_MODE_INFER;
            else return rfl__ck_fail(r, RFL_ERR_UNKNOWN_NAME, v, 0, "assignment.mode",
                                     "mode is \"train\" or \"infer\"");
        } else if (rfl_json_str_eq(&r->doc, k, "dtype")) {
            if (!str || rfl_dtype_parse(s, &a->dtype) != RFL_OK)
                return rfl__ck_fail(r, RFL_ERR_UNKNOWN_NAME, v, 0, "assignment.dtype",
                                    "dtype is fp32, fp16, bf16 or int8");
        } else if (rfl_json_str_eq(&r->doc, k, "student")) {
            if (!str && r->doc.t[v].type != RFL_JSON_NULL)
                return rfl__ck_fail(r, RFL_ERR_FORMAT, v, 0, "assignment.student",
                                    "student is a string (under 64 bytes)");
            if (str) rfl__finish(a->student, sizeof a->student, rfl__ly_cat(a->student, sizeof a->student, 0, s));
        } else if (rfl__ck_key(&r->doc, k, 0, 0) != -2) {
            return rfl__ck_fail(r, RFL_ERR_FORMAT, k, 0, "assignment", "unknown key");
        }
    }
    if (!a->machine) return rfl__ck_fail(r, RFL_ERR_MISSING, obj, 0, "assignment.hw", "no hw");
    return RFL_OK;
}

static rfl_result rfl__ck_top(rfl__ck_rd *r, rfl_check_answers *a) {
    int k, i, m, asg = -1;
    double v;
    rfl_result e;
    if ((e = rfl__ck_obj(r, 0, "")) != RFL_OK) return e;
    for (k = 1; k < r->doc.t[0].after; k = r->doc.t[k + 1].after) {
        int val = k + 1;
        if (rfl_json_str_eq(&r->doc, k, "schema")) {
            if (!rfl_json_num(&r->doc, val, &v) || v != 1)
                return rfl__ck_fail(r, RFL_ERR_FORMAT, val, 0, "schema", "this reader knows schema 1");
        } else if (rfl_json_str_eq(&r->doc, k, "assignment")) {
            asg = val;
        } else if (rfl_json_str_eq(&r->doc, k, "machine")) {
            if ((e = rfl__ck_obj(r, val, "machine")) != RFL_OK) return e;
            for (m = val + 1; m < r->doc.t[val].after; m = r->doc.t[m + 1].after) {
                char p[112], key[64];
                i = rfl__ck_key(&r->doc, m, RFL_CHECK_PEAK, RFL_CHECK_FWD_FLOPS);
                if (i == -2) continue;
                rfl_json_str(&r->doc, m, key, sizeof key);
                rfl__ck_path(p, sizeof p, "machine", key, 0);
                if (i < 0) return rfl__ck_fail(r, RFL_ERR_FORMAT, m, 0, p, "unknown key");
                if ((e = rfl__ck_value(r, m + 1, (rfl_check_field)i, p, &a->mach[i])) != RFL_OK)
                    return e;
            }
        } else if (rfl_json_str_eq(&r->doc, k, "models")) {
            if ((e = rfl__ck_obj(r, val, "models")) != RFL_OK) return e;
            for (m = val + 1; m < r->doc.t[val].after; m = r->doc.t[m + 1].after) {
                if (rfl__ck_key(&r->doc, m, 0, 0) == -2) continue;
                if (a->n_models == RFL_CHECK_MAX_MODELS)
                    return rfl__ck_fail(r, RFL_ERR_BUFFER, m, 0, "models", "more than 8 models");
                if ((e = rfl__ck_model(r, m, &a->models[a->n_models])) != RFL_OK) return e;
                for (i = 0; i < rfl_zoo_count() && !rfl_parse_name_eq(rfl_zoo_name(i), a->models[a->n_models].name); i++) {}
                if (i == rfl_zoo_count())
                    return rfl__ck_fail(r, RFL_ERR_UNKNOWN_NAME, m, 0, "models",
                                        "not a model of the zoo (rfl-estimate --list)");
                a->n_models++;
            }
        } else if (!rfl_json_str_eq(&r->doc, k, "units") && rfl__ck_key(&r->doc, k, 0, 0) != -2) {
            return rfl__ck_fail(r, RFL_ERR_FORMAT, k, 0, "", "unknown key");
        }
    }
    if (asg < 0) return rfl__ck_fail(r, RFL_ERR_MISSING, 0, 0, "assignment", "no assignment");
    return rfl__ck_assignment(r, asg, a);
}

RFL_API rfl_result rfl_check_read(const char *json, size_t len, rfl_json_tok *toks,
                                  int ntoks, rfl_check_answers *out, rfl_error *err) {
    rfl__ck_rd r;
    rfl_result e;
    RFL_MEMSET(&r, 0, sizeof r);
    if (!err) err = &r.doc.err; /* no second rfl_error in this frame */
    rfl__err_clear(err);
    if (!json || !out || !toks || ntoks < 1) return err->code = RFL_ERR_ARG;
    RFL_MEMSET(out, 0, sizeof *out);
    r.err = err;
    if (len > RFL_CHECK_FILE_MAX) {
        rfl__ck_fail(&r, RFL_ERR_BUFFER, -1, 0, "", "an answer file is at most 1 MiB");
        return RFL_ERR_BUFFER;
    }
    e = rfl_json_parse(&r.doc, json, len, toks, ntoks);
    if (e == RFL_ERR_BUFFER) {
        rfl__ck_fail(&r, e, -1, 0, "", "too few JSON tokens");
        err->need = r.doc.err.need;
        return e;
    }
    if (e) {
        *err = r.doc.err; /* the tokenizer's message and place */
        return e;
    }
    return rfl__ck_top(&r, out);
}

/* ---- the truth: what every accepted convention gives -------------------------- */
#define RFL__CK_NC 6 /* candidates per value at most */
typedef struct rfl__ck_cand {
    int n;
    double v[RFL__CK_NC];
    const char *why[RFL__CK_NC];
} rfl__ck_cand;
typedef struct rfl__ck_truth {
    /* [convention][0 forward, 1 backward]: mac, report, all */
    double fl[3][2];
    double by[2][2];          /* all layers, conv+linear */
    double fl1[3][2], by1[2][2]; /* the same at batch 1 */
    double layers_s, layers1_s; /* per-layer sums at the batch, at 1 */
    rfl__ck_cand footprint;   /* torchsummary's sizes, in bytes */
    double peak, bw;
    rfl_prec prec;
} rfl__ck_truth;

static void rfl__ck_add(rfl__ck_cand *c, double v, const char *why) {
    if (c->n < RFL__CK_NC && v > 0) c->v[c->n] = v, c->why[c->n++] = why;
}
static int rfl__ck_near(double got, double want, double tol) {
    return want > 0 && got >= want * (1 - tol) && got <= want * (1 + tol);
}
static int rfl__ck_find(const rfl__ck_cand *c, double got, double tol) {
    int i;
    for (i = 0; i < c->n; i++)
        if (rfl__ck_near(got, c->v[i], tol)) return i;
    return -1;
}

static int rfl__ck_bound_find(const rfl__ck_cand *c, double got) {
    int i;
    for (i = 0; i < c->n; i++)
        if (c->v[i] == got) return i;
    return -1;
}

static rfl_prec rfl__ck_prec(rfl_dtype d) {
    return d == RFL_DTYPE_FP16 ? RFL_FP16_TENSOR : d == RFL_DTYPE_BF16 ? RFL_BF16_TENSOR
         : d == RFL_DTYPE_INT8 ? RFL_INT8_TENSOR : RFL_FP32;
}

/* Costs of the built net at a batch, every convention. */
static rfl_result rfl__ck_costs(const rfl_net *net, const rfl_check_answers *a, uint64_t batch,
                                double fl[3][2], double by[2][2], double *layers_s) {
    rfl_cost_desc cd;
    rfl_net_cost c;
    rfl_net_prediction np;
    rfl_layer_cost lc;
    rfl_result e;
    int i;
    RFL_MEMSET(&cd, 0, sizeof cd);
    cd.batch = batch, cd.dtype = a->dtype, cd.mode = a->mode;
    if ((e = rfl_net_cost_get(net, &cd, &c)) != RFL_OK) return e;
    fl[0][0] = (double)c.fwd_mac_flops, fl[0][1] = (double)c.bwd_mac_flops;
    fl[2][0] = (double)c.fwd_flops, fl[2][1] = (double)c.bwd_flops;
    by[0][0] = (double)c.fwd_bytes, by[0][1] = (double)c.bwd_bytes;
    by[1][0] = by[1][1] = 0;
    for (i = 0; i < net->count; i++) {
        rfl_op op = (rfl_op)net->layers[i].op;
        if (op != RFL_OP_CONV2D && op != RFL_OP_LINEAR) continue;
        if ((e = rfl_layer_cost_get(net, i, &cd, &lc)) != RFL_OK) return e;
        by[1][0] += (double)lc.fwd_bytes, by[1][1] += (double)lc.bwd_bytes;
    }
    *layers_s = rfl_net_predict(net, &cd, a->machine, &np) == RFL_OK ? np.layers_s : 0;
    cd.convention = RFL_CONV_REPORT;
    if ((e = rfl_net_cost_get(net, &cd, &c)) != RFL_OK) return e;
    fl[1][0] = (double)c.fwd_mac_flops, fl[1][1] = (double)c.bwd_mac_flops;
    return RFL_OK;
}

static const char *const rfl__ck_flconv[3] = {
    "mac convention (conv and matmul multiply-adds x 2, no bias)",
    "report convention (mac + linear biases)", "all FLOPs (bias, norms, activations, pools)"};
static const char *const rfl__ck_byconv[2] = {
    "every layer's traffic", "conv and linear layers only"};
static const char *const rfl__ck_aiconv[6] = {
    "mac FLOPs / every layer's bytes", "mac FLOPs / conv and linear bytes",
    "report FLOPs / every layer's bytes", "report FLOPs / conv and linear bytes",
    "all FLOPs / every layer's bytes", "all FLOPs / conv and linear bytes"};

/* Candidates of field f. which: 0 at the batch, 1 at batch 1, 2 forward
   only, 3 "backward = 2 x forward" (a step 3 x forward). */
static void rfl__ck_cands(const rfl__ck_truth *t, int train, rfl_check_field f, int which,
                          rfl__ck_cand *c) {
    const double(*fl)[2] = which == 1 ? t->fl1 : t->fl;
    const double(*by)[2] = which == 1 ? t->by1 : t->by;
    double F[3], B[2];
    int i, j, fwd = which == 2 || !train;
    c->n = 0;
    for (i = 0; i < 3; i++)
        F[i] = which == 3 ? 3 * fl[i][0] : fwd ? fl[i][0] : fl[i][0] + fl[i][1];
    for (j = 0; j < 2; j++) B[j] = fwd ? by[j][0] : by[j][0] + by[j][1];
    switch (f) {
    case RFL_CHECK_FWD_FLOPS:
        if (which != 3) for (i = 0; i < 3; i++) rfl__ck_add(c, fl[i][0], rfl__ck_flconv[i]);
        break;
    case RFL_CHECK_BWD_FLOPS:
        if (!train) break;
        for (i = 0; i < 3; i++)
            rfl__ck_add(c, which == 3 ? 2 * fl[i][0] : which == 2 ? fl[i][0] : fl[i][1], rfl__ck_flconv[i]);
        break;
    case RFL_CHECK_FLOPS:
        for (i = 0; i < 3; i++) rfl__ck_add(c, F[i], rfl__ck_flconv[i]);
        break;
    case RFL_CHECK_BYTES:
        if (which != 3) for (j = 0; j < 2; j++) rfl__ck_add(c, B[j], rfl__ck_byconv[j]);
        break;
    case RFL_CHECK_AI: case RFL_CHECK_ATTAINABLE: case RFL_CHECK_BOUND:
        if (which == 3) break;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 2; j++) {
                double ai = B[j] > 0 ? F[i] / B[j] : 0, att = ai * t->bw;
                if (att > t->peak) att = t->peak;
                if (f == RFL_CHECK_AI) rfl__ck_add(c, ai, rfl__ck_aiconv[i * 2 + j]);
                else if (f == RFL_CHECK_ATTAINABLE) rfl__ck_add(c, att, rfl__ck_aiconv[i * 2 + j]);
                else if (c->n < RFL__CK_NC) /* bound: 1 memory, 0 compute */
                    c->v[c->n] = ai * t->bw < t->peak, c->why[c->n++] = rfl__ck_byconv[j];
            }
        break;
    case RFL_CHECK_TIME:
        if (which == 3) break;
        for (i = 0; i < 3; i += 2)
            for (j = 0; j < 2; j++) {
                double tc = F[i] / t->peak, tm = B[j] / t->bw;
                rfl__ck_add(c, tc > tm ? tc : tm, "whole model: max(FLOPs / peak, bytes / bandwidth)");
            }
        if (which != 2) rfl__ck_add(c, which == 1 ? t->layers1_s : t->layers_s,
                                    "per layer max(compute, memory), summed");
        break;
    default: break;
    }
}

/* ---- messages ------------------------------------------------------------------ */
typedef struct rfl__cs { char *b; size_t size, n; } rfl__cs;
static void rfl__cs_s(rfl__cs *s, const char *t) { s->n = rfl__ly_cat(s->b, s->size, s->n, t); }
/* NUL-terminate, keeping what fit */
static void rfl__cs_end(rfl__cs *s) {
    if (s->size) s->b[s->n < s->size ? s->n : s->size - 1] = 0;
}
static void rfl__cs_num(rfl__cs *s, double v) {
    char t[40];
    if (v >= 1e4 || v <= -1e4) rfl_fmt_si(t, sizeof t, v, 4); /* "740.7 M" */
    else rfl_fmt_num(t, sizeof t, v, 4);
    rfl__cs_s(s, t);
}

/* ---- grading one value ---------------------------------------------------------- */
typedef struct rfl__ck_ctx {
    const rfl_check_answers *a;
    const rfl_check_desc *d;
    const rfl__ck_truth *t;
    const rfl_check_model *m;   /* NULL for the machine */
    const rfl_reduce_result *prof;
    double tol, dtol;
    int train;
} rfl__ck_ctx;

static double rfl__ck_own(const rfl_check_value *v, double fallback) {
    return v->given ? v->v : fallback;
}

/* A diagnosis that needs the student's other values (carried, inconsistent). */
static rfl_check_diag rfl__ck_follow(const rfl__ck_ctx *x, rfl_check_field f, double got,
                                     const char **why) {
    const rfl_check_value *v = x->m ? x->m->v : 0, *mc = x->a->mach;
    double peak = rfl__ck_own(&mc[RFL_CHECK_PEAK], x->t->peak), bw = rfl__ck_own(&mc[RFL_CHECK_BW], x->t->bw);
    double own = -1;
    rfl_check_field ai_f = f == RFL_CHECK_M_AI ? RFL_CHECK_M_FLOPS : RFL_CHECK_FLOPS;
    if (f == RFL_CHECK_RIDGE && mc[RFL_CHECK_PEAK].given && mc[RFL_CHECK_BW].given) {
        own = peak / bw, *why = "your peak / your bandwidth";
    } else if ((f == RFL_CHECK_AI || f == RFL_CHECK_M_AI) && v[ai_f].given && v[ai_f + 1].given &&
               v[ai_f + 1].v > 0) {
        own = v[ai_f].v / v[ai_f + 1].v;
        *why = "your FLOPs / your bytes";
        if (!rfl__ck_near(got, own, x->tol)) return RFL_DIAG_INCONSISTENT_AI;
    } else if (f == RFL_CHECK_ATTAINABLE && v[RFL_CHECK_AI].given) {
        own = v[RFL_CHECK_AI].v * bw;
        if (own > peak) own = peak;
        *why = "min(your peak, your AI x your bandwidth)";
    } else if (f == RFL_CHECK_BOUND && v[RFL_CHECK_AI].given) {
        own = v[RFL_CHECK_AI].v * bw < peak, *why = "your AI against your ridge";
        return got == own ? RFL_DIAG_CARRIED_ERROR : RFL_DIAG_NONE;
    } else if (f == RFL_CHECK_TIME && v[RFL_CHECK_FLOPS].given && v[RFL_CHECK_BYTES].given) {
        double tc = v[RFL_CHECK_FLOPS].v / peak, tm = v[RFL_CHECK_BYTES].v / bw;
        own = tc > tm ? tc : tm, *why = "max(your FLOPs / your peak, your bytes / your bandwidth)";
    } else if (f == RFL_CHECK_M_ACHIEVED && v[RFL_CHECK_M_FLOPS].given && v[RFL_CHECK_M_TIME].given &&
               v[RFL_CHECK_M_TIME].v > 0) {
        own = v[RFL_CHECK_M_FLOPS].v / v[RFL_CHECK_M_TIME].v, *why = "your measured FLOPs / your time";
    }
    return own > 0 && rfl__ck_near(got, own, x->tol) ? RFL_DIAG_CARRIED_ERROR : RFL_DIAG_NONE;
}

/* 1 when got / (a candidate) is factor k within tol: the closest such
   candidate goes to *ref (a MiB slip must not match another convention's
   GiB slip). */
static int rfl__ck_ratio(const rfl__ck_cand *c, double got, double k, double tol, double *ref,
                         const char **why) {
    int i, best = -1;
    double err, best_err = tol;
    for (i = 0; i < c->n; i++) {
        err = got / (c->v[i] * k) - 1;
        if (err < 0) err = -err;
        if (err <= best_err) best = i, best_err = err;
    }
    if (best >= 0) *ref = c->v[best], *why = c->why[best];
    return best >= 0;
}

/* A diagnosis from the value alone against the truth. *ref gets the value
   the mistake reproduces. */
static rfl_check_diag rfl__ck_diagnose(const rfl__ck_ctx *x, rfl_check_field f, double got,
                                       const rfl__ck_cand *c, double *ref, const char **why,
                                       int *ci) {
    rfl__ck_cand alt;
    int i, k, p;
    double dt = x->dtol, b, u;
    rfl_check_diag dg = rfl__ck_follow(x, f, got, why);
    if (dg) return dg;
    if (f == RFL_CHECK_M_FLOPS && x->prof) {
        const rfl_kernel_stat *T = &x->prof->total;
        double simt = (double)(T->flops[RFL_FP32] + T->flops[RFL_FP64] + T->flops[RFL_FP16]);
        int tc = rfl_reduce_tensor_flops(T) > 0;
        for (i = 0; i < x->prof->warning_count; i++)
            tc |= x->prof->warnings[i].code == RFL_WARN_TENSOR_UNCOUNTED;
        if (tc && rfl__ck_near(got, simt, dt)) {
            *ref = simt, *why = "the FP counters (fadd + fmul + 2 x ffma) only";
            return RFL_DIAG_TENSOR_FLOPS_MISSING;
        }
    }
    if (f == RFL_CHECK_BYTES && rfl__ck_ratio(&x->t->footprint, got, 1.0, dt, ref, why)) {
        *ci = 0;
        return RFL_DIAG_FOOTPRINT_NOT_TRAFFIC;
    }
    if (x->m && f < RFL_CHECK_M_FLOPS) {
        if (x->a->batch > 1) {
            rfl__ck_cands(x->t, x->train, f, 1, &alt);
            if ((i = rfl__ck_find(&alt, got, dt)) >= 0)
                return *ref = alt.v[i], *why = "batch 1", *ci = i, RFL_DIAG_PER_SAMPLE;
        }
        if (x->train && f != RFL_CHECK_FWD_FLOPS && f != RFL_CHECK_BWD_FLOPS) {
            rfl__ck_cands(x->t, 1, f, 2, &alt);
            if ((i = rfl__ck_find(&alt, got, dt)) >= 0)
                return *ref = alt.v[i], *why = "the forward pass", *ci = i, RFL_DIAG_FORWARD_ONLY;
        }
        if (x->train) {
            rfl__ck_cands(x->t, 1, f, 3, &alt);
            if ((i = rfl__ck_find(&alt, got, dt)) >= 0)
                return *ref = alt.v[i], *why = "2 x forward", *ci = i, RFL_DIAG_BACKWARD_TWICE_FORWARD;
        }
    }
    if ((f == RFL_CHECK_FWD_FLOPS || f == RFL_CHECK_BWD_FLOPS || f == RFL_CHECK_FLOPS) &&
        rfl__ck_ratio(c, got, 0.5, dt, ref, why))
        return RFL_DIAG_MAC_NOT_FLOP;
    if (f == RFL_CHECK_PEAK || f == RFL_CHECK_RIDGE || f == RFL_CHECK_ATTAINABLE) {
        const rfl_machine *M = x->a->machine;
        double ai = x->m && x->m->v[RFL_CHECK_AI].given ? x->m->v[RFL_CHECK_AI].v : 0;
        for (p = 0; p < RFL_PREC_COUNT; p++) {
            double v = M->peak_flops[p];
            if (p == (int)x->t->prec || v <= 0) continue;
            if (f == RFL_CHECK_RIDGE) v /= x->t->bw;
            if (f == RFL_CHECK_ATTAINABLE) v = ai * x->t->bw < v ? 0 : v; /* under that roof's flat part */
            if (rfl__ck_near(got, v, dt)) {
                *ref = v, *why = rfl_prec_name((rfl_prec)p);
                return RFL_DIAG_PRECISION_ROOF;
            }
        }
    }
    if (f <= RFL_CHECK_RIDGE) {
        for (k = 0; k < rfl_hw_count(); k++) {
            const rfl_machine *M = rfl_hw_get(k);
            double pk = M->peak_flops[x->t->prec], bw = M->bw_bytes_per_s[RFL_DRAM];
            double v = f == RFL_CHECK_PEAK ? pk : f == RFL_CHECK_BW ? bw : bw > 0 ? pk / bw : 0;
            if (M != x->a->machine && rfl__ck_near(got, v, dt)) {
                *ref = v, *why = M->name;
                return RFL_DIAG_WRONG_MACHINE;
            }
        }
    }
    for (k = 1, b = 1, u = 1; k <= 4; k++) {
        b *= 1.024, u *= 1000;
        if (rfl__ck_ratio(c, got, b, dt, ref, why) || rfl__ck_ratio(c, got, 1 / b, dt, ref, why))
            return RFL_DIAG_BINARY_PREFIX;
        if (k < 4 && (rfl__ck_ratio(c, got, u, dt, ref, why) || rfl__ck_ratio(c, got, 1 / u, dt, ref, why)))
            return RFL_DIAG_UNIT_SLIP;
    }
    if (f == RFL_CHECK_M_ACHIEVED) {
        const rfl_check_value *v = x->m->v;
        double ai = v[RFL_CHECK_M_AI].given ? v[RFL_CHECK_M_AI].v : 0, roof = x->t->peak;
        if (ai <= 0 && x->prof && x->prof->total.bytes[RFL_DRAM])
            ai = rfl_work_flops(&x->prof->total.work) / (double)x->prof->total.bytes[RFL_DRAM];
        if (ai > 0 && ai * x->t->bw < roof) roof = ai * x->t->bw;
        if (got > roof * (1 + x->tol)) return *ref = roof, *why = "the roof", RFL_DIAG_ABOVE_ROOF;
    }
    if ((f == RFL_CHECK_M_FLOPS || f == RFL_CHECK_M_BYTES || f == RFL_CHECK_M_TIME) && c->n &&
        got < c->v[0])
        return *ref = c->v[0], *why = "the profile's total", RFL_DIAG_MEASURED_PARTIAL;
    return RFL_DIAG_NONE;
}

static const char *rfl__ck_advice(rfl_check_diag d) {
    switch (d) {
    case RFL_DIAG_CARRIED_ERROR: return "it follows from your own values above, which are wrong: fix those first";
    case RFL_DIAG_INCONSISTENT_AI: return "AI must be your own FLOPs divided by your own bytes";
    case RFL_DIAG_TENSOR_FLOPS_MISSING: return "fadd/fmul/ffma do not see tensor cores (TF32 is on by default since Ampere): add the tensor FLOPs (sm__ops_path_tensor_op_*)";
    case RFL_DIAG_PER_SAMPLE: return "this is the value for one sample: multiply by the batch (weights are read once per batch, not per sample)";
    case RFL_DIAG_FORWARD_ONLY: return "a training step is forward + backward";
    case RFL_DIAG_BACKWARD_TWICE_FORWARD: return "backward = 2 x forward minus the first layer's input gradient, which is never computed (its input needs no gradient)";
    case RFL_DIAG_MAC_NOT_FLOP: return "a multiply-add (MAC) is 2 FLOPs: thop and fvcore report MACs, torchinfo mult-adds";
    case RFL_DIAG_PRECISION_ROOF: return "the roof's precision must match the work's: FP32 work never runs under a tensor-core or FP16 peak";
    case RFL_DIAG_WRONG_MACHINE: return "a figure of another machine: use the assignment's";
    case RFL_DIAG_BINARY_PREFIX: return "a binary prefix for a decimal one (MiB = 2^20 bytes written as MB = 1e6, or back)";
    case RFL_DIAG_UNIT_SLIP: return "off by a power of 1000: a unit slip (ms written as s, MB as GB ...)";
    case RFL_DIAG_ABOVE_ROOF: return "a measured point above the roof is a bug in the measurement or the units";
    case RFL_DIAG_MEASURED_PARTIAL: return "below the profile's total: rows were left out of the sum (e.g. only the lines whose unit was Kbyte)";
    case RFL_DIAG_WRONG_VARIANT: return "these answers are for another variant than yours";
    case RFL_DIAG_FOOTPRINT_NOT_TRAFFIC: return "torchsummary's sizes are memory held, not DRAM traffic: traffic is what each layer reads and writes (input, weights, output)";
    default: return "no known mistake gives this value: check the formula";
    }
}

static void rfl__ck_item(const rfl__ck_ctx *x, rfl_check_field f, const rfl_check_value *v,
                         const rfl__ck_cand *c, const char *noexp, rfl_check_item *it) {
    rfl__cs s;
    const char *why = 0;
    double ref = 0;
    int i, ci = 0;
    it->kind = f, it->has_got = v->given, it->got = v->v;
    s.b = it->message, s.size = sizeof it->message, s.n = 0;
    if (c->n) it->has_expected = 1, it->expected = c->v[0];
    if (!v->given) {
        it->verdict = RFL_VERDICT_MISSING;
        rfl__cs_s(&s, "missing");
    } else if (!c->n) {
        it->verdict = RFL_VERDICT_UNCHECKED;
        rfl__cs_s(&s, noexp);
    } else if ((i = f == RFL_CHECK_BOUND ? rfl__ck_bound_find(c, v->v)
                                         : rfl__ck_find(c, v->v, x->tol)) >= 0) {
        it->verdict = RFL_VERDICT_OK;
        if (f != RFL_CHECK_BOUND) it->expected = c->v[i];
        rfl__cs_s(&s, "ok (");
        rfl__cs_s(&s, c->why[i]);
        rfl__cs_s(&s, ")");
    } else {
        it->verdict = RFL_VERDICT_WRONG;
        it->diagnosis = f == RFL_CHECK_BOUND ? rfl__ck_follow(x, f, v->v, &why)
                                             : rfl__ck_diagnose(x, f, v->v, c, &ref, &why, &ci);
        if (it->diagnosis && ref > 0 && f != RFL_CHECK_BOUND) it->expected = ref;
        if (it->diagnosis == RFL_DIAG_PER_SAMPLE || it->diagnosis == RFL_DIAG_FORWARD_ONLY ||
            it->diagnosis == RFL_DIAG_BACKWARD_TWICE_FORWARD || it->diagnosis == RFL_DIAG_TENSOR_FLOPS_MISSING ||
            it->diagnosis == RFL_DIAG_PRECISION_ROOF || it->diagnosis == RFL_DIAG_WRONG_MACHINE ||
            it->diagnosis == RFL_DIAG_CARRIED_ERROR || it->diagnosis == RFL_DIAG_INCONSISTENT_AI) {
            /* the right value in the convention of what was given */
            it->expected = c->v[ci < c->n ? ci : 0];
        }
        rfl__cs_s(&s, it->diagnosis ? rfl_check_diag_name(it->diagnosis) : "wrong");
        if (why && it->diagnosis) { rfl__cs_s(&s, " ("); rfl__cs_s(&s, why); rfl__cs_s(&s, ")"); }
        rfl__cs_s(&s, ": ");
        rfl__cs_s(&s, rfl__ck_advice(it->diagnosis));
    }
    if (it->has_expected && it->has_got && it->expected > 0 && f != RFL_CHECK_BOUND)
        it->ratio = it->got / it->expected;
    if (it->verdict != RFL_VERDICT_OK && it->verdict != RFL_VERDICT_MISSING && it->has_expected &&
        f != RFL_CHECK_BOUND && it->verdict != RFL_VERDICT_UNCHECKED) {
        rfl__cs_s(&s, "; expected ");
        rfl__cs_num(&s, it->expected);
        rfl__cs_s(&s, ", ratio ");
        rfl__cs_num(&s, it->ratio);
    }
    rfl__cs_end(&s);
}

static void rfl__ck_points(const rfl_check_desc *d, rfl_check_item *it) {
    double p = d->points[it->kind];
    if (p < 0) return;
    it->max_points = p > 0 ? p : 1;
    if (it->verdict == RFL_VERDICT_OK ||
        (d->carry_credit && it->diagnosis == RFL_DIAG_CARRIED_ERROR))
        it->points = it->max_points;
}

/* 1 when tensor-core kernels ran with no FLOP count: the profile's FLOPs
   are then a lower bound (the A100 reports' case) */
static int rfl__ck_uncounted(const rfl_reduce_result *p) {
    int i;
    for (i = 0; i < p->warning_count; i++)
        if (p->warnings[i].code == RFL_WARN_TENSOR_UNCOUNTED) return 1;
    return 0;
}

static void rfl__ck_measured(const rfl_reduce_result *p, rfl_check_field f, rfl__ck_cand *c) {
    const rfl_kernel_stat *T = &p->total;
    const rfl_work *w = &T->work;
    int fk = (rfl_work_known(w, RFL_UNKNOWN_ALL & ((1u << RFL_PREC_COUNT) - 1u)) ||
              rfl_work_flops(w) > 0) && !rfl__ck_uncounted(p);
    int bk = rfl_work_known(w, RFL_UNKNOWN_BYTES(RFL_DRAM)), tk = T->time_ns > 0;
    double F = rfl_work_flops(w), B = (double)T->bytes[RFL_DRAM], S = (double)T->time_ns * 1e-9;
    c->n = 0;
    if (f == RFL_CHECK_M_FLOPS && fk) rfl__ck_add(c, F, "the profile's FLOPs, every precision");
    if (f == RFL_CHECK_M_BYTES && bk) rfl__ck_add(c, B, "the profile's DRAM read + write");
    if (f == RFL_CHECK_M_TIME && tk) rfl__ck_add(c, S, "the profile's summed kernel time");
    if (f == RFL_CHECK_M_AI && fk && bk && B > 0) rfl__ck_add(c, F / B, "the profile's FLOPs / bytes");
    if (f == RFL_CHECK_M_ACHIEVED && fk && tk) rfl__ck_add(c, F / S, "the profile's FLOPs / time");
}

/* Measured FLOPs of a profile whose tensor-core kernels were not counted:
   the FP counters' sum is only a lower bound. Given as the answer, it is
   tensor_flops_missing; a larger answer cannot be checked. */
static void rfl__ck_lower_bound(const rfl__ck_ctx *x, rfl_check_item *it) {
    const rfl_kernel_stat *T = &x->prof->total;
    double simt = (double)(T->flops[RFL_FP32] + T->flops[RFL_FP64] + T->flops[RFL_FP16]);
    rfl__cs s;
    s.b = it->message, s.size = sizeof it->message, s.n = 0;
    it->has_expected = 1, it->expected = simt, it->ratio = simt > 0 ? it->got / simt : 0;
    if (it->got <= simt * (1 + x->tol)) {
        it->verdict = RFL_VERDICT_WRONG, it->diagnosis = RFL_DIAG_TENSOR_FLOPS_MISSING;
        rfl__cs_s(&s, "tensor_flops_missing (tensor-core kernels ran with no FLOP counter: the profile's ");
        rfl__cs_num(&s, simt);
        rfl__cs_s(&s, " FLOPs are only a lower bound): ");
        rfl__cs_s(&s, rfl__ck_advice(it->diagnosis));
    } else {
        it->verdict = RFL_VERDICT_UNCHECKED, it->diagnosis = RFL_DIAG_NONE;
        rfl__cs_s(&s, "at least ");
        rfl__cs_num(&s, simt);
        rfl__cs_s(&s, ": the profile's tensor-core kernels have no FLOP counter, so this cannot be checked");
    }
    rfl__cs_end(&s);
}

/* Not inlined: its net (an rfl_error inside) would join rfl_check_run's
   frame, past 1 KiB. */
static RFL__NOINLINE rfl_result rfl__ck_model_items(rfl__ck_ctx *x, int mi, rfl_check_item *items,
                                                    int *n, int cap) {
    const rfl_check_model *m = &x->a->models[mi];
    rfl_net net;
    rfl__ck_truth *t = (rfl__ck_truth *)x->t;
    rfl__ck_cand c;
    rfl_summary sum;
    rfl_result e;
    int f;
    if ((e = rfl_net_init(&net, x->d->layers, x->d->layer_cap, 0, 0)) != RFL_OK) return e;
    if ((e = rfl_zoo_build(&net, m->name, 0)) != RFL_OK) return e;
    if ((e = rfl__ck_costs(&net, x->a, x->a->batch, t->fl, t->by, &t->layers_s)) != RFL_OK) return e;
    if ((e = rfl__ck_costs(&net, x->a, 1, t->fl1, t->by1, &t->layers1_s)) != RFL_OK) return e;
    t->footprint.n = 0;
    if (rfl_net_summary(&net, &sum) == RFL_OK) {
        double mb[3];
        int k;
        mb[0] = sum.total_mb, mb[1] = sum.params_mb, mb[2] = sum.fwd_bwd_mb;
        for (k = 0; k < 3; k++) {
            rfl__ck_add(&t->footprint, mb[k] * 1048576.0, "torchsummary, MB = 2^20");
            rfl__ck_add(&t->footprint, mb[k] * 1e6, "torchsummary's MB read as 1e6");
        }
    }
    x->m = m;
    x->prof = x->d->profiles ? x->d->profiles[mi] : 0;
    for (f = RFL_CHECK_FWD_FLOPS; f < RFL_CHECK_VARIANT; f++) {
        rfl_check_item *it;
        if (f == RFL_CHECK_BWD_FLOPS && !x->train) continue;
        if (*n >= cap) { (*n)++; continue; }
        it = &items[(*n)++];
        RFL_MEMSET(it, 0, sizeof *it);
        it->model = mi;
        rfl__ck_path(it->field, sizeof it->field, "models", m->name, rfl__ck_names[f]);
        if (f >= RFL_CHECK_M_FLOPS) {
            c.n = 0;
            if (x->prof) rfl__ck_measured(x->prof, (rfl_check_field)f, &c);
        } else {
            rfl__ck_cands(t, x->train, (rfl_check_field)f, 0, &c);
        }
        rfl__ck_item(x, (rfl_check_field)f, &m->v[f], &c,
                     !x->prof ? "no profile named: cannot be checked"
                     : rfl__ck_uncounted(x->prof) && f != RFL_CHECK_M_BYTES && f != RFL_CHECK_M_TIME
                         ? "the profile's FLOPs are a lower bound (tensor-core kernels uncounted)"
                         : "the profile does not measure this",
                     it);
        if (f == RFL_CHECK_M_FLOPS && x->prof && m->v[f].given && rfl__ck_uncounted(x->prof))
            rfl__ck_lower_bound(x, it);
        rfl__ck_points(x->d, it);
    }
    return RFL_OK;
}

static void rfl__ck_variant(const rfl__ck_ctx *x, rfl_check_item *it) {
    const rfl_machine *vm = 0;
    rfl__cs s;
    int ok = 1, i;
    RFL_MEMSET(it, 0, sizeof *it);
    it->kind = RFL_CHECK_VARIANT, it->model = -1;
    rfl__ck_path(it->field, sizeof it->field, "assignment", 0, 0);
    s.b = it->message, s.size = sizeof it->message, s.n = 0;
    if (x->d->variant_hw && (rfl_hw_find(x->d->variant_hw, &vm) != RFL_OK || vm != x->a->machine)) ok = 0;
    if (x->d->variant_batch && x->d->variant_batch != x->a->batch) ok = 0;
    if (x->d->variant_model) {
        if (x->a->n_models != 1) ok = 0;
        for (i = 0; i < x->a->n_models; i++)
            if (!rfl_parse_name_eq(x->a->models[i].name, x->d->variant_model)) ok = 0;
    }
    it->verdict = ok ? RFL_VERDICT_OK : RFL_VERDICT_WRONG;
    it->diagnosis = ok ? RFL_DIAG_NONE : RFL_DIAG_WRONG_VARIANT;
    rfl__cs_s(&s, ok ? "ok: your variant" : "wrong_variant: your variant is ");
    if (!ok) {
        rfl__cs_s(&s, x->d->variant_model ? x->d->variant_model : "?");
        rfl__cs_s(&s, " on ");
        rfl__cs_s(&s, x->d->variant_hw ? x->d->variant_hw : "?");
        rfl__cs_s(&s, " at batch ");
        rfl__cs_num(&s, (double)x->d->variant_batch);
        rfl__cs_s(&s, "; these answers are not for it");
    }
    rfl__cs_end(&s);
}

RFL_API rfl_result rfl_check_run(const rfl_check_answers *a, const rfl_check_desc *d,
                                 rfl_check_item *items, int cap, rfl_check_report *rep) {
    rfl__ck_truth t;
    rfl__ck_ctx x;
    rfl__ck_cand c;
    rfl_check_report spare;
    rfl_result e;
    int n = 0, f, i;
    if (!rep) rep = &spare;
    RFL_MEMSET(rep, 0, sizeof *rep);
    if (!a || !d || !d->layers || d->layer_cap < 1 || !a->machine || (cap > 0 && !items))
        return RFL_ERR_ARG;
    RFL_MEMSET(&t, 0, sizeof t);
    RFL_MEMSET(&x, 0, sizeof x);
    t.prec = rfl__ck_prec(a->dtype);
    t.peak = a->machine->peak_flops[t.prec], t.bw = a->machine->bw_bytes_per_s[RFL_DRAM];
    if (t.peak <= 0 || t.bw <= 0) return RFL_ERR_NO_ROOF;
    x.a = a, x.d = d, x.t = &t, x.train = a->mode == RFL_MODE_TRAIN;
    x.tol = d->tol > 0 ? d->tol : 0.02, x.dtol = x.tol / 4;
    for (f = RFL_CHECK_PEAK; f <= RFL_CHECK_RIDGE; f++) {
        rfl_check_item *it;
        if (n >= cap) { n++; continue; }
        it = &items[n++];
        RFL_MEMSET(it, 0, sizeof *it);
        it->model = -1;
        rfl__finish(it->field, sizeof it->field, rfl__ly_cat(it->field, sizeof it->field, 0, rfl__ck_names[f]));
        c.n = 0;
        rfl__ck_add(&c, f == RFL_CHECK_PEAK ? t.peak : f == RFL_CHECK_BW ? t.bw : t.peak / t.bw,
                    f == RFL_CHECK_BW ? "the datasheet's DRAM bandwidth" : "the datasheet's peak of the work's precision");
        rfl__ck_item(&x, (rfl_check_field)f, &a->mach[f], &c, "", it);
        rfl__ck_points(d, it);
    }
    for (i = 0; i < a->n_models; i++)
        if ((e = rfl__ck_model_items(&x, i, items, &n, cap)) != RFL_OK) return e;
    if (d->variant_model || d->variant_hw || d->variant_batch) {
        if (n < cap) {
            rfl__ck_variant(&x, &items[n]);
            rfl__ck_points(d, &items[n]);
        }
        n++;
    }
    rep->n_items = n;
    if (n > cap) return RFL_ERR_BUFFER;
    for (i = 0; i < n; i++) {
        rep->score += items[i].points, rep->max_score += items[i].max_points;
        rep->n_ok += items[i].verdict == RFL_VERDICT_OK;
        rep->n_wrong += items[i].verdict == RFL_VERDICT_WRONG;
        rep->n_missing += items[i].verdict == RFL_VERDICT_MISSING;
        rep->n_unchecked += items[i].verdict == RFL_VERDICT_UNCHECKED;
        if (items[i].diagnosis == RFL_DIAG_WRONG_VARIANT) rep->variant_wrong = 1;
    }
    if (rep->variant_wrong) rep->score = 0;
    return RFL_OK;
}

/* ---- writing JSON: the checker's own small writer --------------------------------- */
typedef struct rfl__cw {
    char *b;
    size_t size, n;
    int depth, first;
} rfl__cw;
static void rfl__cw_c(rfl__cw *w, char c) { w->n = rfl__put(w->b, w->size, w->n, c); }
static void rfl__cw_raw(rfl__cw *w, const char *s) { w->n = rfl__ly_cat(w->b, w->size, w->n, s); }
static void rfl__cw_str(rfl__cw *w, const char *s) {
    static const char hex[] = "0123456789abcdef";
    rfl__cw_c(w, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') rfl__cw_c(w, '\\'), rfl__cw_c(w, (char)ch);
        else if (ch < 0x20) {
            rfl__cw_raw(w, "\\u00");
            rfl__cw_c(w, hex[ch >> 4]), rfl__cw_c(w, hex[ch & 15]);
        } else rfl__cw_c(w, (char)ch);
    }
    rfl__cw_c(w, '"');
}
static void rfl__cw_key(rfl__cw *w, const char *k) {
    int i;
    if (!w->first) rfl__cw_c(w, ',');
    w->first = 0;
    rfl__cw_c(w, '\n');
    for (i = 0; i < w->depth; i++) rfl__cw_raw(w, "  ");
    if (k) { rfl__cw_str(w, k); rfl__cw_raw(w, ": "); }
}
static void rfl__cw_open(rfl__cw *w, const char *k, char c) {
    if (w->depth) rfl__cw_key(w, k);
    rfl__cw_c(w, c);
    w->depth++, w->first = 1;
}
static void rfl__cw_close(rfl__cw *w, char c) {
    int i;
    w->depth--;
    if (!w->first) {
        rfl__cw_c(w, '\n');
        for (i = 0; i < w->depth; i++) rfl__cw_raw(w, "  ");
    }
    w->first = 0;
    rfl__cw_c(w, c);
}
static void rfl__cw_num(rfl__cw *w, const char *k, int known, double v) {
    char t[40];
    rfl__cw_key(w, k);
    if (!known || v != v || v - v != 0.0) { rfl__cw_raw(w, "null"); return; }
    rfl_fmt_num(t, sizeof t, v, 15);
    rfl__cw_raw(w, t);
}
static void rfl__cw_kstr(rfl__cw *w, const char *k, const char *s) {
    rfl__cw_key(w, k);
    if (s) rfl__cw_str(w, s);
    else rfl__cw_raw(w, "null");
}
static size_t rfl__cw_end(rfl__cw *w) {
    rfl__cw_c(w, '\n');
    if (w->n < w->size) w->b[w->n] = 0;
    else if (w->b && w->size) w->b[0] = 0;
    return w->n;
}
static void rfl__cw_value(rfl__cw *w, const char *k, const rfl_check_item *it, int known,
                          double v) {
    if (it->kind == RFL_CHECK_BOUND && known) rfl__cw_kstr(w, k, v != 0 ? "memory" : "compute");
    else rfl__cw_num(w, k, known, v);
}

RFL_API size_t rfl_check_json(const rfl_check_report *rep, const rfl_check_item *items,
                              int n, char *buf, size_t size) {
    rfl__cw w;
    int i;
    RFL_MEMSET(&w, 0, sizeof w);
    w.b = buf, w.size = buf ? size : 0;
    if (!rep || (n > 0 && !items)) return 0;
    rfl__cw_open(&w, 0, '{');
    rfl__cw_num(&w, "score", 1, rep->score);
    rfl__cw_num(&w, "max_score", 1, rep->max_score);
    rfl__cw_open(&w, "items", '[');
    for (i = 0; i < n; i++) {
        const rfl_check_item *it = &items[i];
        rfl__cw_open(&w, 0, '{');
        rfl__cw_kstr(&w, "field", it->field);
        rfl__cw_kstr(&w, "verdict", rfl_check_verdict_name(it->verdict));
        rfl__cw_value(&w, "expected", it, it->has_expected, it->expected);
        rfl__cw_value(&w, "got", it, it->has_got, it->got);
        rfl__cw_num(&w, "ratio", it->ratio > 0, it->ratio);
        rfl__cw_kstr(&w, "diagnosis", it->diagnosis ? rfl_check_diag_name(it->diagnosis) : 0);
        rfl__cw_kstr(&w, "message", it->message);
        rfl__cw_num(&w, "points", 1, it->points);
        rfl__cw_num(&w, "max_points", 1, it->max_points);
        rfl__cw_close(&w, '}');
    }
    rfl__cw_close(&w, ']');
    rfl__cw_close(&w, '}');
    return rfl__cw_end(&w);
}

RFL_API size_t rfl_check_gradescope(const rfl_check_report *rep,
                                    const rfl_check_item *items, int n, char *buf,
                                    size_t size) {
    rfl__cw w;
    char msg[160];
    rfl__cs s;
    int i;
    RFL_MEMSET(&w, 0, sizeof w);
    w.b = buf, w.size = buf ? size : 0;
    if (!rep || (n > 0 && !items)) return 0;
    s.b = msg, s.size = sizeof msg, s.n = 0;
    rfl__cs_num(&s, rep->n_ok);
    rfl__cs_s(&s, " ok, ");
    rfl__cs_num(&s, rep->n_wrong);
    rfl__cs_s(&s, " wrong, ");
    rfl__cs_num(&s, rep->n_missing);
    rfl__cs_s(&s, rep->variant_wrong ? " missing; not your variant: score 0" : " missing");
    rfl__cs_end(&s);
    rfl__cw_open(&w, 0, '{');
    rfl__cw_num(&w, "score", 1, rep->score);
    rfl__cw_num(&w, "max_score", 1, rep->max_score);
    rfl__cw_kstr(&w, "output", msg);
    rfl__cw_open(&w, "tests", '[');
    for (i = 0; i < n; i++) {
        rfl__cw_open(&w, 0, '{');
        rfl__cw_kstr(&w, "name", items[i].field);
        rfl__cw_num(&w, "score", 1, items[i].points);
        rfl__cw_num(&w, "max_score", 1, items[i].max_points);
        rfl__cw_kstr(&w, "output", items[i].message);
        rfl__cw_close(&w, '}');
    }
    rfl__cw_close(&w, ']');
    rfl__cw_close(&w, '}');
    return rfl__cw_end(&w);
}

RFL_API size_t rfl_check_template(const rfl_check_template_desc *t, char *buf, size_t size) {
    static const char *const units[][2] = {
        {"flops", "FLOP (a multiply-add is 2 FLOPs); a number or \"3.64 GFLOP\", \"1.8 GMAC\""},
        {"bytes", "bytes; a number or \"311 MB\" (1e6), \"296.7 MiB\" (2^20)"},
        {"time", "seconds; a number or \"0.55 ms\""},
        {"rates", "FLOP/s and B/s; \"19.5 TFLOP/s\", \"1555 GB/s\""},
        {"ai", "FLOP/B; \"12.5 FLOP/B\""},
        {"bound", "\"memory\" or \"compute\""},
        {"profile", "your ncu --csv --page raw export, relative to this file"},
        {"mode", "flops, bytes and predicted_time_s are for the whole step: train = forward + backward"}};
    rfl__cw w;
    char num[24];
    int i, f;
    RFL_MEMSET(&w, 0, sizeof w);
    w.b = buf, w.size = buf ? size : 0;
    if (!t || !t->hw || !t->models || t->n_models < 1) return 0;
    rfl__cw_open(&w, 0, '{');
    rfl__cw_num(&w, "schema", 1, 1);
    rfl__cw_open(&w, "units", '{');
    for (i = 0; i < 8; i++) rfl__cw_kstr(&w, units[i][0], units[i][1]);
    rfl__cw_close(&w, '}');
    rfl__cw_open(&w, "assignment", '{');
    rfl__cw_kstr(&w, "hw", t->hw);
    rfl_fmt_u64(num, sizeof num, t->batch ? t->batch : 1);
    rfl__cw_key(&w, "batch");
    rfl__cw_raw(&w, num);
    rfl__cw_kstr(&w, "mode", t->mode == RFL_MODE_TRAIN ? "train" : "infer");
    rfl__cw_kstr(&w, "dtype", rfl_dtype_name(t->dtype));
    if (t->student) rfl__cw_kstr(&w, "student", t->student);
    rfl__cw_close(&w, '}');
    rfl__cw_open(&w, "machine", '{');
    for (f = RFL_CHECK_PEAK; f <= RFL_CHECK_RIDGE; f++) rfl__cw_num(&w, rfl__ck_names[f] + 8, 0, 0);
    rfl__cw_close(&w, '}');
    rfl__cw_open(&w, "models", '{');
    for (i = 0; i < t->n_models; i++) {
        rfl__cw_open(&w, t->models[i], '{');
        for (f = RFL_CHECK_FWD_FLOPS; f < RFL_CHECK_M_FLOPS; f++) {
            if (f == RFL_CHECK_BWD_FLOPS && t->mode != RFL_MODE_TRAIN) continue;
            rfl__cw_num(&w, rfl__ck_names[f], 0, 0);
        }
        rfl__cw_open(&w, "measured", '{');
        rfl__cw_num(&w, "profile", 0, 0);
        for (f = RFL_CHECK_M_FLOPS; f < RFL_CHECK_VARIANT; f++) rfl__cw_num(&w, rfl__ck_names[f] + 9, 0, 0);
        rfl__cw_close(&w, '}');
        rfl__cw_close(&w, '}');
    }
    rfl__cw_close(&w, '}');
    rfl__cw_close(&w, '}');
    return rfl__cw_end(&w);
}

/* ---- variants ------------------------------------------------------------------ */
static uint64_t rfl__ck_mix(uint64_t *s) { /* splitmix64 (Steele, Lea, Flood 2014) */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
RFL_API void rfl_check_variant(const char *student, uint64_t seed, int n_models, int n_hw,
                               int n_batches, int out[3]) {
    uint64_t h = 0xcbf29ce484222325ull, s;
    int n[3], i;
    n[0] = n_models, n[1] = n_hw, n[2] = n_batches;
    if (!out) return;
    for (; student && *student; student++) h = (h ^ (unsigned char)*student) * 0x100000001b3ull;
    s = h ^ seed;
    for (i = 0; i < 3; i++) {
        uint64_t r = rfl__ck_mix(&s);
        out[i] = n[i] > 0 ? (int)(r % (uint64_t)n[i]) : 0;
    }
}
#endif /* RFL_NO_CHECK */

#endif /* ROOFLINE_IMPLEMENTATION */

/*
   VERSION HISTORY
       0.1.0 (2026-11)  first release: layer formulas and a 30-model zoo
                        equal to PyTorch's counts, decoder LLMs (configs,
                        Hugging Face config.json, prefill and decode), the
                        ONNX reader, a 47-machine datasheet table
                        (hw_specs.h), machine files and the probe of the
                        host's own ceilings, the streaming ncu / nvprof CSV
                        reducer and its LLM join, the chart writer with PNG
                        through stb_image_write; one file (the former src/
                        parts merged into this header), rfl_version().

   LICENSE (MIT)
       Copyright (c) 2026 the roofline.h authors

       Permission is hereby granted, free of charge, to any person obtaining
       a copy of this software and associated documentation files (the
       "Software"), to deal in the Software without restriction, including
       without limitation the rights to use, copy, modify, merge, publish,
       distribute, sublicense, and/or sell copies of the Software, and to
       permit persons to whom the Software is furnished to do so, subject to
       the following conditions:

       The above copyright notice and this permission notice shall be
       included in all copies or substantial portions of the Software.

       THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
       EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
       MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
       NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
       LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION
       OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
       WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
