/* rfl-estimate: per-layer and total cost of a built-in model, the
   torchsummary-style table, and the predicted time on a machine.
   Usage: see `usage` below. */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "tool.h"
#include <errno.h>
#include "onnx_load.h"

static const char *usage =
    "usage: rfl-estimate MODEL [--batch N] [--res H] [--dtype D] [--mode train|infer]\n"
    "                    [--hw NAME | --hw-file FILE] [--summary] [--conv torch|report]\n"
    "                    [--json]\n"
    "       rfl-estimate LLM|--hf-config FILE --phase prefill|decode --seq S ...\n"
    "                    (rfl-estimate llama-3-8b --help: the LLM options)\n"
    "       rfl-estimate LLM|--hf-config FILE --layers [--phase P] [--seq S]\n"
    "                    [--logits last|all] [the options above]\n"
    "       rfl-estimate --onnx FILE [--batch N] [--dim NAME=V]... [options above]\n"
    "       rfl-estimate --list\n"
    "  MODEL       a zoo model (--list): torchvision's definition, 3 channels,\n"
    "              1000 classes, H x H input\n"
    "  --onnx FILE an ONNX model instead (- reads standard input): streamed,\n"
    "              weights skipped (external data not needed); params = float\n"
    "              initializer elements (batch norm folded into a conv changes\n"
    "              them, not the MACs); --batch sets a symbolic batch axis (the\n"
    "              first; axis 1 of an LSTM, GRU or RNN input [seq, batch, in])\n"
    "  --dim N=V   value of the symbolic dim N of an ONNX input (repeatable)\n"
    "  --batch N   batch size (default 1)\n"
    "  --res H     input resolution (default 224; inception_v3 299)\n"
    "  --dtype D   fp32 (default), fp16, bf16, int8: bytes per element and the\n"
    "              roofs used (fp16/bf16/int8: conv and matmul on tensor cores)\n"
    "  --mode M    infer (default): time of the forward pass; train: forward\n"
    "              + backward\n"
    "  --hw NAME   predict time on a machine (rfl-hw lists them): per layer\n"
    "              max(compute, memory) summed, and the whole model at once\n"
    "  --hw-file F a machine file instead (rfl-hw NAME --json, rfl-probe -o F)\n"
    "  --summary   the torchsummary table (per sample, fp32, MB = 2^20 bytes)\n"
    "  --conv C    torch (default): mac FLOPs as PyTorch's FlopCounterMode and\n"
    "              torchvision's GFLOPS (2 x multiply-adds of conv/matmul, no\n"
    "              bias); report: the pen-and-paper convention, linear =\n"
    "              2 x in x out + out (also: --pen-and-paper)\n"
    "  --layers    an LLM as layer records, the zoo's table (also implied by\n"
    "              --mode train or --summary with an LLM): one sequence of the\n"
    "              step, --batch sequences, the math type (default: the\n"
    "              config's), --weights/--kv storage types; defaults as the\n"
    "              LLM estimate: decode after --seq 1024 (--mode train: a\n"
    "              prefill, logits on every position). FLOPs and time count\n"
    "              eager attention (T x (S + T) scores); without --layers the\n"
    "              records by module give the causal count and its time\n"
    "  --json      one JSON object: model, batch, input, dtype, mode, params,\n"
    "              param_bytes, forward{flops, mac_flops, bytes}, backward{...},\n"
    "              activation_bytes, train{sgd_bytes, adam_bytes}, by_type[...],\n"
    "              layers[{name, type, op, out, params, forward_flops, ...}],\n"
    "              and with --hw: hw, predicted_time_s, bound (per layer too).\n"
    "              ONNX nodes without a FLOP rule leave flops, mac_flops, bound\n"
    "              and predicted_time_s null, with flops_known, mac_flops_known,\n"
    "              predicted_time_known_s and unknown_nodes beside them\n"
    "FLOPs: a multiply-add is 2. \"flops\" counts everything (bias, norms,\n"
    "activations, pooling, adds, softmax); \"mac_flops\" conv and matmul only.\n"
    "Backward mac = 2 x forward minus the first layer's input gradient.\n";

static rfl_layer recs[RFL_ZOO_MAX_LAYERS];
static char names[RFL_ZOO_NAMES_SIZE];

static void list_zoo(FILE *f, const char *sep) {
    int i;
    for (i = 0; i < rfl_zoo_count(); i++) fprintf(f, "%s%s", i ? sep : "", rfl_zoo_name(i));
}

static unsigned long long parse_count(const char *opt, const char *s, unsigned long long max) {
    char *end;
    unsigned long long v;
    if (!s) tl_usage_error("%s needs a value", opt);
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*s == '-' || end == s || *end || errno || v == 0 || v > max)
        tl_input_error(0, 0, 0, "%s: '%s' is not a whole number from 1 to %llu", opt, s, max);
    return v;
}

/* Display name of layer i: its torch module path, else "add-12". */
static const char *layer_name(const rfl_net *net, int i) {
    static char b[64];
    if (net->layers[i].name) return net->layers[i].name;
    rfl_layer_label(net, i, b, sizeof b);
    return b;
}

static const char *bound_str(const rfl_prediction *p) {
    return p->bound.memory ? "memory" : "compute";
}

/* An exact integer (tl_jnum keeps 15 significant digits). */
static void jint(tl_json *j, const char *key, uint64_t v) {
    tl_j_sep(j, key);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

#include "estimate_llm.h" /* decoder LLMs (issue 17) */

static tl_onnx ox; /* --onnx */

static void json_shape(tl_json *j, const char *key, const rfl_net *net, int i, uint64_t batch) {
    const rfl_onnx_value *v = 0;
    int k;
    for (k = 0; ox.path && net->layers[i].op == RFL_OP_INPUT && k < ox.g.input_count; k++)
        if (tl_is(ox.g.values[ox.g.inputs[k]].name, net->layers[i].name)) v = &ox.g.values[ox.g.inputs[k]];
    tl_jarr(j, key);
    if (v) { /* an ONNX input: its own dims as built */
        for (k = 0; k < v->rank; k++) tl_jnum(j, 0, (double)tl_onnx_dim(&ox, v, k));
        tl_jclose_arr(j);
        return;
    }
    jint(j, 0, batch);
    for (k = 0; k < net->layers[i].rank; k++) tl_jnum(j, 0, net->layers[i].shape[k]);
    tl_jclose_arr(j);
}

/* Sums by layer type: layers, FLOPs, bytes (forward, + backward when
   training) and predicted time (with a machine). */
static int unk[RFL_LT_COUNT]; /* by type: layers whose FLOPs are unknown */
static void by_type(const rfl_net *net, const rfl_cost_desc *d, const rfl_machine *hw, int *cnt,
                    double *tf, double *tb, double *tt) {
    int i, t, train = d->mode == RFL_MODE_TRAIN;
    for (t = 0; t < RFL_LT_COUNT; t++) cnt[t] = unk[t] = 0, tf[t] = tb[t] = tt[t] = 0;
    for (i = 0; i < net->count; i++) {
        rfl_layer_cost c;
        const rfl_layer *L = &net->layers[i];
        if (L->op == RFL_OP_MARK) continue;
        t = (int)rfl_op_ltype((rfl_op)L->op);
        rfl_layer_cost_get(net, i, d, &c);
        cnt[t]++;
        if (L->flags & RFL_LF_UNKNOWN_FLOPS) unk[t]++;
        tf[t] += (double)c.fwd_flops + (train ? (double)c.bwd_flops : 0);
        tb[t] += (double)c.fwd_bytes + (train ? (double)c.bwd_bytes : 0);
        if (hw) {
            rfl_prediction p;
            rfl_layer_predict(net, i, d, hw, &p);
            tt[t] += p.time_s;
        }
    }
}

static void print_summary(const rfl_net *net) {
    rfl_summary s;
    char lab[64], shp[64];
    int i;
    rfl_net_summary(net, &s);
    printf("----------------------------------------------------------------\n");
    printf("%20s  %25s %15s\n", "Layer (type)", "Output Shape", "Param #");
    printf("================================================================\n");
    for (i = 0; i < net->count; i++) {
        if (!(net->layers[i].flags & RFL_LF_MODULE)) continue;
        rfl_layer_label(net, i, lab, sizeof lab);
        rfl_layer_shape_str(net, i, 0, shp, sizeof shp);
        printf("%20s  %25s %15s\n", lab, shp, tl_commas((double)net->layers[i].params));
    }
    printf("================================================================\n");
    printf("Total params: %s\n", tl_commas((double)s.params));
    printf("Trainable params: %s\n", tl_commas((double)s.params));
    printf("Non-trainable params: 0\n");
    printf("----------------------------------------------------------------\n");
    printf("Input size (MB): %0.2f\n", s.input_mb);
    printf("Forward/backward pass size (MB): %0.2f\n", s.fwd_bwd_mb);
    printf("Params size (MB): %0.2f\n", s.params_mb);
    printf("Estimated Total Size (MB): %0.2f\n", s.total_mb);
    printf("----------------------------------------------------------------\n");
}

/* ---- the run: one model, its costs, its prediction ---------------------- */
static const char *model, *hwname;
static unsigned long long batch = 1, res = 0; /* res 0: the model's own (224; 299 Inception) */
static int json, summary, batch_given, dtype_given;
static char oxname[64];
static rfl_cost_desc d;
static rfl_net net;
static rfl_net_cost tot;
static rfl_net_prediction np;
static const rfl_machine *hw;

static void parse_dtype(const char *v) {
    if (!v) tl_usage_error("--dtype needs a value");
    if (rfl_dtype_parse(v, &d.dtype) != RFL_OK || d.dtype == RFL_DTYPE_INT4)
        tl_input_error(0, 0, 0, "unknown dtype '%s' (fp32, tf32, fp16, bf16, fp8, int8)", v);
    dtype_given = 1;
}

static void parse_mode(const char *v) {
    if (!v) tl_usage_error("--mode needs a value");
    if (tl_is(v, "train")) d.mode = RFL_MODE_TRAIN;
    else if (tl_is(v, "infer") || tl_is(v, "inference")) d.mode = RFL_MODE_INFER;
    else tl_usage_error("--mode is train or infer, not '%s'", v);
}

static void parse_conv(const char *v) {
    if (!v) tl_usage_error("--conv needs a value");
    if (tl_is(v, "report")) d.convention = RFL_CONV_REPORT;
    else if (tl_is(v, "torch")) d.convention = RFL_CONV_TORCH;
    else tl_usage_error("--conv is torch or report, not '%s'", v);
}

static void print_list(void) {
    list_zoo(stdout, "\n");
    putchar('\n');
#ifndef RFL_NO_LLM
    llm_list(stdout); /* decoder LLMs */
#endif
}

static void parse_args(int argc, char **argv) {
    int a, k = 0;
    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : 0;
        if (tl_is(o, "--help") || tl_is(o, "-h")) { fputs(usage, stdout); exit(0); }
        else if (tl_is(o, "--list")) { print_list(); exit(0); }
        else if (tl_is(o, "--json")) json = 1;
        else if (tl_is(o, "--summary")) summary = 1;
        else if (tl_is(o, "--batch")) { batch = parse_count(o, v, 1ull << 40); batch_given = 1; a++; }
        else if (tl_is(o, "--onnx")) { if (!v) tl_usage_error("--onnx needs a file"); ox.path = v; a++; }
        else if (tl_is(o, "--dim")) { tl_onnx_add_dim(&ox, v); a++; }
        else if (tl_is(o, "--res")) { res = parse_count(o, v, 65536); a++; }
        else if (tl_is(o, "--dtype")) { parse_dtype(v); a++; }
        else if (tl_is(o, "--mode")) { parse_mode(v); a++; }
        else if (tl_is(o, "--conv")) { parse_conv(v); a++; }
        else if (tl_is(o, "--pen-and-paper")) d.convention = RFL_CONV_REPORT;
        else if (tl_hw_file_option(o, v)) a++;
        else if (tl_is(o, "--hw")) { if (!v) tl_usage_error("--hw needs a value"); hwname = v; a++; }
#ifndef RFL_NO_LLM
        else if ((k = llm_rec_option(o, v)) > 0) a += k - 1; /* --layers --phase --seq ... */
#endif
        else if (o[0] == '-' && o[1]) tl_usage_error("unknown option '%s'", o);
        else if (!model) model = o;
        else tl_usage_error("one model at a time ('%s' and '%s')", model, o);
    }
    if (ox.path && model) tl_usage_error("a zoo model or --onnx, not both");
    if (ox.dims[0] && !ox.path) tl_usage_error("--dim is for --onnx models");
    if (ox.path) model = tl_onnx_model_name(ox.path, oxname, sizeof oxname);
    (void)k;
#ifndef RFL_NO_LLM
    if (!model && lrec.hf) model = lrec.hf;
#endif
    if (!model) tl_usage_error("no model given (rfl-estimate --list shows the zoo)");
}

/* The layer records: from the zoo, or from the ONNX file at its batch. */
static void build_model(void) {
    rfl_result r;
    int i;
    rfl_net_init(&net, recs, RFL_ZOO_MAX_LAYERS, names, sizeof names);
#ifndef RFL_NO_LLM
    lrec.dtype_given = dtype_given;
    if (!ox.path && llm_rec_build(&net, &model, &d)) return; /* an LLM: its records */
#endif
    if (ox.path) {
        ox.batch = batch_given ? batch : 0;
        tl_onnx_load(&ox);
        net = ox.net, batch = d.batch = ox.info.batch;
    }
    r = ox.path ? RFL_OK : rfl_zoo_build(&net, model, (uint32_t)res);
    if (r == RFL_ERR_UNKNOWN_NAME) {
        fprintf(stderr, "%s: unknown model '%s'; the zoo: ", tl_prog, model);
        list_zoo(stderr, ", ");
        fputc('\n', stderr);
        exit(TL_BAD_INPUT);
    }
    if (r == RFL_OK && !ox.path) res = net.layers[0].shape[1];
    if (r != RFL_OK) {
        char what[160];
        if (!net.err.code) net.err.code = r;
        snprintf(what, sizeof what, "%s at %llux%llu", model, res, res);
        tl_error(what, &net.err);
    }
    for (i = 0; i < rfl_zoo_count(); i++) /* the canonical spelling */
        if (rfl_parse_name_eq(model, rfl_zoo_name(i))) model = rfl_zoo_name(i);
}

/* No roof for some of the work: say which precision lacks one, and what
   the machine has. */
static void no_roof_error(void) {
    char miss[128] = "", have[256] = "";
    int p;
    for (p = 0; p < RFL_PREC_COUNT; p++) {
        double f = tot.forward.flops[p] + (d.mode == RFL_MODE_TRAIN ? tot.backward.flops[p] : 0);
        char *dst = f > 0 && !(hw->peak_flops[p] > 0) ? miss : hw->peak_flops[p] > 0 ? have : 0;
        size_t sz = dst == miss ? sizeof miss : sizeof have;
        if (dst) snprintf(dst + strlen(dst), sz - strlen(dst), "%s%s", *dst ? ", " : "",
                          rfl_prec_name((rfl_prec)p));
    }
    tl_input_error(0, 0, 0,
                   "%s has no %s roof for the %s work of %s (conv/matmul go to the "
                   "tensor roof, the rest to the vector roof); its roofs: %s",
                   hw->id, miss[0] ? miss : "dram", rfl_dtype_name(d.dtype), model,
                   have[0] ? have : "none");
}

static void cost_and_predict(void) {
    rfl_result r = rfl_net_cost_get(&net, &d, &tot);
    if (r != RFL_OK)
        tl_input_error(0, 0, 0, "%s at batch %llu: %s", model, batch, rfl_result_str(r));
    if (!hw) return;
    r = rfl_net_predict(&net, &d, hw, &np);
    if (r == RFL_ERR_NO_ROOF) no_roof_error();
    if (r != RFL_OK) tl_input_error(0, 0, 0, "%s on %s: %s", model, hw->id, rfl_result_str(r));
}

static void json_layers(tl_json *jp) {
    tl_json j = *jp;
    int i;
    tl_jarr(&j, "layers");
    for (i = 0; i < net.count; i++) {
        rfl_layer_cost c;
        const rfl_layer *L = &net.layers[i];
        if (L->op == RFL_OP_MARK) continue;
        rfl_layer_cost_get(&net, i, &d, &c);
        tl_jobj(&j, 0);
        tl_jstr(&j, "name", layer_name(&net, i));
        if (L->flags & RFL_LF_UNKNOWN_FLOPS) tl_jnull(&j, "type"); /* its kind is unknown too */
        else tl_jstr(&j, "type", rfl_ltype_name(rfl_op_ltype((rfl_op)L->op)));
        if (L->flags & RFL_LF_UNKNOWN_FLOPS) tl_jnull(&j, "op"); /* no rule: cls names it */
        else tl_jstr(&j, "op", L->op == RFL_OP_ACT ? rfl_act_name((rfl_act_kind)L->arg[0])
                                                    : rfl_op_name((rfl_op)L->op));
        json_shape(&j, "out", &net, i, (L->flags & RFL_LF_SHARED) ? 1 : batch);
        jint(&j, "params", c.params);
        if (L->flags & RFL_LF_UNKNOWN_FLOPS) { /* no FLOP rule: unknown, not 0 */
            tl_jnull(&j, "forward_flops");
            tl_jnull(&j, "forward_mac_flops");
        } else {
            jint(&j, "forward_flops", c.fwd_flops);
            jint(&j, "forward_mac_flops", c.fwd_mac_flops);
        }
        jint(&j, "forward_bytes", c.fwd_bytes);
        if (L->flags & RFL_LF_UNKNOWN_FLOPS) {
            tl_jnull(&j, "backward_flops");
            tl_jnull(&j, "backward_mac_flops");
        } else {
            jint(&j, "backward_flops", c.bwd_flops);
            jint(&j, "backward_mac_flops", c.bwd_mac_flops);
        }
        jint(&j, "backward_bytes", c.bwd_bytes);
        if (hw && (L->flags & RFL_LF_UNKNOWN_FLOPS)) {
            tl_jnull(&j, "predicted_time_s");
            tl_jnull(&j, "bound");
        } else if (hw) {
            rfl_prediction p;
            rfl_layer_predict(&net, i, &d, hw, &p);
            tl_jnum(&j, "predicted_time_s", p.time_s);
            if (p.time_s > 0) tl_jstr(&j, "bound", bound_str(&p));
            else tl_jnull(&j, "bound");
        }
        tl_jclose(&j);
    }
    tl_jclose_arr(&j);
    *jp = j;
}

/* forward / backward totals; with layers of unknown FLOPs the FLOP counts
   are null and their known part stands beside them */
static void json_pass(tl_json *j, const char *key, uint64_t flops, uint64_t mac, uint64_t bytes) {
    tl_jobj(j, key);
    if (tot.unknown_layers) {
        tl_jnull(j, "flops");
        tl_jnull(j, "mac_flops");
        jint(j, "flops_known", flops);
        jint(j, "mac_flops_known", mac);
    } else {
        jint(j, "flops", flops);
        jint(j, "mac_flops", mac);
    }
    jint(j, "bytes", bytes);
    tl_jclose(j);
}

static void print_json(void) {
    tl_json j;
    memset(&j, 0, sizeof j);
    j.f = stdout;
    tl_jobj(&j, 0);
    tl_jstr(&j, "model", model);
    jint(&j, "batch", batch);
    if (ox.path) tl_onnx_json(&j, &ox);
    else json_shape(&j, "input", &net, 0, batch);
#ifndef RFL_NO_LLM
    if (lrec.on) llm_rec_json(&j, d.dtype);
#endif
    tl_jstr(&j, "dtype", rfl_dtype_name(d.dtype));
    tl_jstr(&j, "mode", d.mode == RFL_MODE_TRAIN ? "train" : "infer");
    tl_jstr(&j, "convention", d.convention == RFL_CONV_REPORT ? "report" : "torch");
    jint(&j, "params", tot.params);
    jint(&j, "param_bytes", tot.param_bytes);
    json_pass(&j, "forward", tot.fwd_flops, tot.fwd_mac_flops, tot.fwd_bytes);
    json_pass(&j, "backward", tot.bwd_flops, tot.bwd_mac_flops, tot.bwd_bytes);
    if (ox.path) tl_onnx_json_unknown(&j, &net);
    jint(&j, "activation_bytes", tot.activation_bytes);
    tl_jobj(&j, "train");
    jint(&j, "sgd_bytes", tot.train_sgd_bytes);
    jint(&j, "adam_bytes", tot.train_adam_bytes);
    tl_jclose(&j);
    if (hw && np.unknown_layers) { /* times of the known part only */
        tl_jstr(&j, "hw", hw->id);
        tl_jnull(&j, "predicted_time_s");
        tl_jnull(&j, "bound");
        tl_jnull(&j, "whole_model_time_s");
        tl_jnum(&j, "predicted_time_known_s", np.layers_s);
        tl_jnum(&j, "whole_model_time_known_s", np.whole.time_s);
        tl_jnum(&j, "compute_bound_layers", np.compute_layers);
        tl_jnum(&j, "memory_bound_layers", np.memory_layers);
    } else if (hw) {
        tl_jstr(&j, "hw", hw->id);
        tl_jnum(&j, "predicted_time_s", np.layers_s);
        tl_jstr(&j, "bound", bound_str(&np.whole));
        tl_jnum(&j, "whole_model_time_s", np.whole.time_s);
        tl_jnum(&j, "compute_bound_layers", np.compute_layers);
        tl_jnum(&j, "memory_bound_layers", np.memory_layers);
    }
    if (summary) {
        rfl_summary s;
        rfl_net_summary(&net, &s);
        tl_jobj(&j, "summary");
        tl_jnum(&j, "rows", s.rows);
        jint(&j, "params", s.params);
        tl_jnum(&j, "input_mb", s.input_mb);
        tl_jnum(&j, "fwd_bwd_mb", s.fwd_bwd_mb);
        tl_jnum(&j, "params_mb", s.params_mb);
        tl_jnum(&j, "total_mb", s.total_mb);
        tl_jclose(&j);
    }
    {
        double tf[RFL_LT_COUNT], tb[RFL_LT_COUNT], tt[RFL_LT_COUNT];
        int cnt[RFL_LT_COUNT], t;
        by_type(&net, &d, hw, cnt, tf, tb, tt);
        tl_jarr(&j, "by_type");
        for (t = 0; t < RFL_LT_COUNT; t++) {
            if (!cnt[t]) continue;
            tl_jobj(&j, 0);
            tl_jstr(&j, "type", rfl_ltype_name((rfl_ltype)t));
            tl_jnum(&j, "layers", cnt[t]);
            if (unk[t]) tl_jnull(&j, "flops"), tl_jnum(&j, "flops_known", tf[t]);
            else tl_jnum(&j, "flops", tf[t]);
            tl_jnum(&j, "bytes", tb[t]);
            if (hw) tl_jnum(&j, "predicted_time_s", tt[t]);
            tl_jclose(&j);
        }
        tl_jclose_arr(&j);
    }
    json_layers(&j);
    tl_jclose(&j);
}

static void print_layers_table(void) {
    int i;
    int w = 4;
    char shp[64], in[160];
    for (i = 0; i < net.count; i++) {
        int l = (int)strlen(layer_name(&net, i));
        if (net.layers[i].op != RFL_OP_MARK && l > w) w = l;
    }
    if (w > 56) w = 56;
    if (ox.path) printf("%s: input %s, ", ox.path, tl_onnx_input_str(&ox, in, sizeof in));
#ifndef RFL_NO_LLM
    else if (lrec.on) printf("%s: %s, batch %llu, ", model, llm_rec_step_str(), batch);
#endif
    else printf("%s: input [%llu, 3, %llu, %llu], ", model, batch, res, res);
    printf("%s, %s, FLOPs: %s convention\n", rfl_dtype_name(d.dtype),
           d.mode == RFL_MODE_TRAIN ? "training" : "inference", d.convention == RFL_CONV_REPORT ? "pen-and-paper" : "torch");
    printf("%4s  %-*s %-11s %-22s %12s %10s %10s %10s", "#", w, "layer", "type", "output",
           "params", "fwd FLOP", "fwd bytes", "bwd FLOP");
    if (hw) printf(" %8s %10s  %s", "AI", "time", "bound");
    putchar('\n');
    for (i = 0; i < net.count; i++) {
        rfl_layer_cost c;
        const rfl_layer *L = &net.layers[i];
        if (L->op == RFL_OP_MARK) continue;
        rfl_layer_cost_get(&net, i, &d, &c);
        if (!(ox.path && L->op == RFL_OP_INPUT && tl_onnx_shape_of(&ox, L->name, shp, sizeof shp)))
            rfl_layer_shape_str(&net, i, (L->flags & RFL_LF_SHARED) ? 1 : batch, shp, sizeof shp);
        printf("%4d  %-*.*s %-11s %-22s %12s %10s %10s %10s", i, w, w, layer_name(&net, i),
               rfl_ltype_name(rfl_op_ltype((rfl_op)L->op)), shp, tl_commas((double)c.params),
               tl_onnx_flops_cell(L, c.fwd_flops), tl_si((double)c.fwd_bytes, "B"),
               tl_onnx_flops_cell(L, c.bwd_flops));
        if (hw) {
            rfl_prediction p;
            double f = (double)c.fwd_flops, b = (double)c.fwd_bytes;
            if (d.mode == RFL_MODE_TRAIN) f += (double)c.bwd_flops, b += (double)c.bwd_bytes;
            rfl_layer_predict(&net, i, &d, hw, &p);
            if (L->flags & RFL_LF_UNKNOWN_FLOPS) /* bytes known, FLOPs not */
                printf(" %8s >%9s  %s", "?", tl_si(p.time_s, "s"), "?");
            else if (p.time_s > 0)
                printf(" %8s %10s  %s", b > 0 ? tl_num(f / b, 3) : "-", tl_si(p.time_s, "s"),
                       bound_str(&p));
            else
                printf(" %8s %10s  %s", "-", "-", "-");
        }
        putchar('\n');
    }
}

/* By layer type: where the FLOPs, the bytes and the time go. */
static void print_types_table(void) {
    double tf[RFL_LT_COUNT], tb[RFL_LT_COUNT], tt[RFL_LT_COUNT];
    int cnt[RFL_LT_COUNT], t;
    double sf = 0, sb = 0, st = 0;
    by_type(&net, &d, hw, cnt, tf, tb, tt);
    for (t = 0; t < RFL_LT_COUNT; t++) sf += tf[t], sb += tb[t], st += tt[t];
    printf("\n%-12s %6s %12s %6s %12s %6s", "by type", "layers",
           d.mode == RFL_MODE_TRAIN ? "FLOP (f+b)" : "FLOP", "", "bytes", "");
    if (hw) printf(" %10s %6s", "time", "");
    putchar('\n');
    for (t = 0; t < RFL_LT_COUNT; t++) {
        if (!cnt[t]) continue;
        printf("%-12s %6d %12s %5.1f%% %12s %5.1f%%", rfl_ltype_name((rfl_ltype)t), cnt[t],
               unk[t] ? "?" : tl_si(tf[t], ""), sf > 0 ? 100 * tf[t] / sf : 0, tl_si(tb[t], "B"),
               sb > 0 ? 100 * tb[t] / sb : 0);
        if (hw) printf(" %10s %5.1f%%", tl_si(tt[t], "s"), st > 0 ? 100 * tt[t] / st : 0);
        putchar('\n');
    }
}

static void print_totals(void) {
    const char *least = tot.unknown_layers ? "at least " : "";
    printf("\n");
    printf("params           %s (%s at %s)\n", tl_commas((double)tot.params),
           tl_si((double)tot.param_bytes, "B"), rfl_dtype_name(d.weights ? d.weights : d.dtype));
    printf("forward          %s%s FLOP (mac %s%s FLOP = %s), %s moved\n", least,
           tl_si((double)tot.fwd_flops, ""), least, tl_si((double)tot.fwd_mac_flops, ""),
           tl_commas((double)tot.fwd_mac_flops), tl_si((double)tot.fwd_bytes, "B"));
    printf("backward         %s%s FLOP (mac %s%s FLOP = %s), %s moved\n", least,
           tl_si((double)tot.bwd_flops, ""), least, tl_si((double)tot.bwd_mac_flops, ""),
           tl_commas((double)tot.bwd_mac_flops), tl_si((double)tot.bwd_bytes, "B"));
    if (ox.path) tl_onnx_unknown_note(&ox, stdout);
    printf("activations      %s kept for backward\n", tl_si((double)tot.activation_bytes, "B"));
    printf("training memory  %s with SGD+momentum, %s with Adam\n",
           tl_si((double)tot.train_sgd_bytes, "B"), tl_si((double)tot.train_adam_bytes, "B"));
    if (hw) {
        printf("on %s (%s):\n", hw->name, d.mode == RFL_MODE_TRAIN ? "forward + backward"
                                                                  : "forward");
        printf("  predicted time %s%s: sum over layers of max(compute, memory); %d layers "
               "compute-bound, %d memory-bound%s\n", least,
               tl_si(np.layers_s, "s"), np.compute_layers, np.memory_layers,
               np.unknown_layers ? " (of those with known FLOPs)" : "");
        rfl_work all = tot.forward;
        if (d.mode == RFL_MODE_TRAIN) rfl_work_add(&all, &tot.backward);
        if (np.unknown_layers)
            printf("  whole model    at least %s: the bound is unknown (FLOPs of %d node%s "
                   "unknown; AI at least %s FLOP/B)\n", tl_si(np.whole.time_s, "s"),
                   np.unknown_layers, np.unknown_layers > 1 ? "s" : "",
                   tl_num(rfl_work_ai(&all, RFL_DRAM), 3));
        else
            printf("  whole model    %s: all FLOPs and bytes at once, %s-bound (AI %s FLOP/B)\n",
                   tl_si(np.whole.time_s, "s"), bound_str(&np.whole),
                   tl_num(rfl_work_ai(&all, RFL_DRAM), 3));
    }
}

int main(int argc, char **argv) {
    tl_prog = "rfl-estimate";
#ifndef RFL_NO_LLM
    if (llm_wanted(argc, argv) && !llm_records_wanted(argc, argv)) return llm_main(argc, argv);
#endif
    memset(&d, 0, sizeof d);
    d.dtype = RFL_DTYPE_FP32;
    tl_onnx_init(&ox, 0);
    parse_args(argc, argv);
    hw = tl_machine(hwname); /* --hw NAME or --hw-file FILE */
    d.batch = batch;
    build_model();
    cost_and_predict();
    if (json) print_json();
    else if (summary) print_summary(&net);
    else {
        print_layers_table();
        print_types_table();
        print_totals();
    }
    return 0;
}
