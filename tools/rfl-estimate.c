/* rfl-estimate: per-layer and total cost of a model (the zoo, a decoder
   LLM or an ONNX file), the torchsummary-style table, and the predicted
   time on a machine. One path for every source: the library builds the
   records, costs and predicts them and writes the JSON. */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "cli.h"

static const char *usage =
	"usage: rfl-estimate MODEL [--batch N] [--res H] [--dtype D] [--mode train|infer]\n"
	"                    [--hw NAME | --hw-file FILE] [--summary] [--conv torch|report]\n"
	"                    [--layers] [--json]\n"
	"       rfl-estimate LLM|--hf-config FILE [--phase prefill|decode] [--seq S]\n"
	"                    [--logits last|all] [--weights T] [--kv T] [--strict]\n"
	"                    [--gpus N [--link nvlink|pcie]] [options above]\n"
	"       rfl-estimate --onnx FILE [--batch N] [--dim NAME=V]... [options above]\n"
	"       rfl-estimate --list\n"
	"  MODEL       a zoo model (--list): torchvision's definition, 3 channels,\n"
	"              1000 classes, H x H input; or a built-in decoder LLM (--list)\n"
	"  --list      the zoo's models and the LLMs, one a line\n"
	"  --hf-config FILE  a Hugging Face config.json instead (gpt2, llama, qwen2/3,\n"
	"              gemma2/3, phi3, olmo2, gpt_neox, ...; another model_type:\n"
	"              Llama-style, with a warning; --strict refuses it)\n"
	"  --onnx FILE an ONNX model instead (- reads standard input): streamed,\n"
	"              weights skipped (external data not needed); params = float\n"
	"              initializer elements (batch norm folded into a conv changes\n"
	"              them, not the MACs); --batch sets a symbolic batch axis (the\n"
	"              first; axis 1 of an LSTM, GRU or RNN input [seq, batch, in])\n"
	"  --dim N=V   value of the symbolic dim N of an ONNX input (repeatable)\n"
	"  --batch N   batch size (default 1; an LLM: sequences)\n"
	"  --res H     input resolution (default 224; inception_v3 299)\n"
	"  --dtype D   the math type, which picks the roofs: fp32 (default; an LLM:\n"
	"              its config's torch_dtype), tf32, fp16, bf16, fp8, int8\n"
	"              (conv and matmul on tensor cores, the rest on vector units)\n"
	"  --weights T storage of the weight matrices (default: --dtype); also int4\n"
	"  --kv T      storage of an LLM's KV cache (default: --dtype); also int4\n"
	"  --mode M    infer (default): time of the forward pass; train: forward\n"
	"              + backward (an LLM: a prefill, logits on every position)\n"
	"  --phase P   an LLM's step: decode (default), one new token per sequence\n"
	"              after a cache of S tokens (attends to S + 1); prefill: S\n"
	"              tokens per sequence\n"
	"  --seq S     an LLM's S (default 1024, the library's default step; fewer\n"
	"              where learned positions end: GPT-2 decodes after 1023)\n"
	"  --logits L  last (default): the LM head on the last prefill position,\n"
	"              as generation does; all: on every position (a plain forward)\n"
	"  --gpus N    an LLM split over N GPUs of one node by tensor parallelism\n"
	"              (Megatron: attention heads, MLP columns, the vocabulary): the\n"
	"              figures are one GPU's; adds the all-reduces, their time on the\n"
	"              machine's link (ring), memory per GPU and the smallest N of\n"
	"              1, 2, 4, 8 that fits the machine\n"
	"  --link L    with --gpus and --hw: time the all-reduces on the table's\n"
	"              nvlink or pcie link nearest the machine's instead of its own\n";
/* the rest (C99 promises string literals of 4095 characters) */
static const char *usage2 =
	"  --hw NAME   predict time on a machine (rfl-hw lists them): per layer\n"
	"              max(compute, memory) summed, and the whole model at once\n"
	"  --hw-file F a machine file instead (rfl-hw NAME --json, rfl-probe -o F)\n"
	"  --forecast  the step's time on --hw, beside the bound: the kernels PyTorch\n"
	"              launches (forward, backward, loss, optimizer, autocast casts), each\n"
	"              timed from its shape (tiles and waves, achieved bandwidth, a\n"
	"              fixed cost), and the host's dispatch (JSON: forecast{...})\n"
	"  --runtime R eager (default; an LLM: fused): host cost per op; graphs: CUDA\n"
	"              graphs, no host cost; fused (LLMs): a fused implementation,\n"
	"              the bound corrected by achieved DRAM and tensor fractions,\n"
	"              int4/int8 dequantization, kernel costs, all-reduces\n"
	"  --optim O   --forecast of training: sgd (default; with momentum) or adam,\n"
	"              PyTorch's foreach step\n"
	"  --step-terms LIST  the eager/graphs forecast's 13 terms instead of the\n"
	"              table's (dev/capture/fit_step.py fits them), comma-separated:\n"
	"              kernel ns; tensor, TF32, SIMT efficiency; DRAM fraction\n"
	"              forward, backward; norm and depthwise factors; host ns per\n"
	"              op, per kernel, per\n"
	"              parameter tensor; host us per step; overlap\n"
	"  --summary   the torchsummary table (per sample, fp32, MB = 2^20 bytes)\n"
	"  --conv C    torch (default): mac FLOPs as PyTorch's FlopCounterMode and\n"
	"              torchvision's GFLOPS (2 x multiply-adds of conv/matmul, no\n"
	"              bias); report: the pen-and-paper convention, linear =\n"
	"              2 x in x out + out (also: --pen-and-paper)\n"
	"  --layers    an LLM record by record, as the zoo's table (without it: by\n"
	"              module, '*' for the layer index, with counts)\n"
	"  --json      one JSON object (docs/schema.md): model, batch, input, dtype,\n"
	"              mode, params, param_bytes, forward{flops, mac_flops, bytes},\n"
	"              backward{...}, activation_bytes, train{sgd_bytes, adam_bytes},\n"
	"              by_type[...], layers[{name, type, op, out, params, ...}], and\n"
	"              with --hw: hw, predicted_time_s, bound (per layer too). An\n"
	"              LLM adds its step, an ONNX file its graph. ONNX nodes without\n"
	"              a FLOP rule leave flops, mac_flops, bound and\n"
	"              predicted_time_s null, with flops_known, mac_flops_known,\n"
	"              predicted_time_known_s and unknown_nodes beside them\n"
	"FLOPs: a multiply-add is 2. \"flops\" counts everything (bias, norms,\n"
	"activations, pooling, adds, softmax); \"mac_flops\" conv and matmul only.\n"
	"Backward mac = 2 x forward minus the first layer's input gradient. An\n"
	"LLM's attention: mac_flops eager (FlopCounterMode, T x (S + T) scores),\n"
	"flops and time causal (FlashAttention, what runs).\n"
	"Exit: 0 ok, 1 bad input (a file, a name), 2 bad usage.\n";

enum { OPT_JSON = 1, OPT_SUMMARY, OPT_LAYERS, OPT_GPUS, OPT_LINK, OPT_FORECAST, OPT_RUNTIME, OPT_STEP_TERMS, OPT_OPTIM };
static const cli_opt opts[] = {
	{"--json", 0, OPT_JSON}, {"--summary", 0, OPT_SUMMARY}, {"--layers", 0, OPT_LAYERS},
	{"--gpus", "N", OPT_GPUS}, {"--link", "nvlink|pcie", OPT_LINK},
	{"--forecast", 0, OPT_FORECAST}, {"--runtime", "eager|graphs|fused", OPT_RUNTIME},
	{"--step-terms", "LIST", OPT_STEP_TERMS}, {"--optim", "sgd|adam", OPT_OPTIM}, {0, 0, 0}};
static const cli_opt *const tables[] = {opts, cli_model_opts, cli_machine_opts, 0};

typedef struct est {
	cli c;
	cli_model m;
	const rfl_machine *hw;
	int json, summary, layers, forecast;
	rfl_runtime runtime;
	rfl_step_terms st;
	int has_st, optim;
	rfl_forecast fc;
	rfl_net_cost tot;
	rfl_net_prediction np;
	/* --gpus N: the plan (the workload holds one GPU's part) */
	uint32_t gpus;
	rfl_link_kind link;
	rfl_llm_tp tp;
	rfl_llm_tp_fit fit;
	int has_fit; /* --gpus with a machine whose memory is known */
} est;

static int is_onnx(const est *e) { return e->m.w.source == RFL_WL_ONNX; }
static int is_llm(const est *e) { return e->m.w.source == RFL_WL_LLM; }
static int training(const est *e) { return e->m.w.cost.mode == RFL_MODE_TRAIN; }
static const char *bound_str(const rfl_prediction *p) { return p->bound.memory ? "memory" : "compute"; }

/* Display name of layer i: its torch module path, else "add-12". */
static const char *layer_name(const rfl_net *net, int i, char *b, size_t n) {
	if (net->layers[i].name) return net->layers[i].name;
	rfl_layer_label(net, i, b, n);
	return b;
}

/* ---- the run: options, model, costs ---------------------------------------- */
static void parse_args(est *e, int argc, char **argv) {
	int id;
	cli_init(&e->c, "rfl-estimate", argc, argv, tables);
	cli_model_init(&e->m);
	while ((id = cli_next(&e->c)) != CLI_DONE) {
		switch (id) {
		case CLI_HELP: fputs(usage, stdout), fputs(usage2, stdout); exit(CLI_OK);
		case CLI_ARG: cli_model_name(&e->c, &e->m, e->c.val); break;
		case OPT_JSON: e->json = 1; break;
		case OPT_SUMMARY: e->summary = 1; break;
		case OPT_LAYERS: e->layers = 1; break;
		case OPT_FORECAST: e->forecast = 1; break;
		case OPT_STEP_TERMS: {
			double v[13];
			char *end = 0;
			const char *p = e->c.val;
			int k;
			for (k = 0; k < 13; k++, p = end + 1) {
				v[k] = strtod(p, &end);
				if (end == p || v[k] < 0 || (k < 12 && *end != ',') || (k == 12 && *end))
					cli_usage_error(&e->c, "--step-terms takes 13 numbers >= 0, comma-separated, not '%s'", e->c.val);
			}
			memset(&e->st, 0, sizeof e->st);
			e->st.family = "--step-terms", e->st.source = "--step-terms";
			e->st.kernel_s = v[0] * 1e-9, e->st.tensor_eff = v[1], e->st.tf32_eff = v[2];
			e->st.simt_eff = v[3], e->st.dram_frac = v[4], e->st.bwd_frac = v[5];
			e->st.norm_frac = v[6], e->st.dw_frac = v[7];
			e->st.host_op_s = v[8] * 1e-9, e->st.host_kernel_s = v[9] * 1e-9;
			e->st.host_param_s = v[10] * 1e-9, e->st.host_step_s = v[11] * 1e-6, e->st.overlap = v[12];
			e->has_st = 1;
			break;
		}
		case OPT_OPTIM:
			e->optim = cli_pick(&e->c, "sgd", "adam", 0) ? RFL_OPTIM_ADAM : 0;
			break;
		case OPT_RUNTIME:
			e->runtime = cli_is(e->c.val, "fused") ? RFL_RUNTIME_FUSED
					   : (rfl_runtime)(RFL_RUNTIME_EAGER + cli_pick(&e->c, "eager", "graphs", 0));
			break;
		case OPT_GPUS: e->gpus = (uint32_t)cli_u64(&e->c, 1, 1024); break;
		case OPT_LINK: e->link = cli_pick(&e->c, "nvlink", "pcie", 0) ? RFL_LINK_PCIE : RFL_LINK_NVLINK; break;
		default: cli_model_option(&e->c, &e->m, id); /* --hw, --hw-file: kept by cli_next */
		}
	}
}

/* No roof for some of the work: say which precision lacks one, and what
   the machine has. */
static void no_roof_error(const est *e) {
	char miss[128] = "", have[256] = "";
	int p;
	for (p = 0; p < RFL_PREC_COUNT; p++) {
		double f = e->tot.forward.flops[p] + (training(e) ? e->tot.backward.flops[p] : 0);
		char *dst = f > 0 && !(e->hw->peak_flops[p] > 0) ? miss : e->hw->peak_flops[p] > 0 ? have : 0;
		size_t sz = dst == miss ? sizeof miss : sizeof have;
		if (dst) snprintf(dst + strlen(dst), sz - strlen(dst), "%s%s", *dst ? ", " : "",
						  rfl_prec_name((rfl_prec)p));
	}
	cli_input_error(&e->c, 0, 0, 0,
					"%s has no %s roof for the %s work of %s (conv/matmul go to the "
					"tensor roof, the rest to the vector roof); its roofs: %s",
					e->hw->id, miss[0] ? miss : "dram", rfl_dtype_name(e->m.w.cost.dtype), e->m.w.name,
					have[0] ? have : "none");
}

/* --gpus N: the plan, checked against the machine's node; the workload
   becomes one GPU's part (every figure after it is per GPU). */
static void plan_tp(est *e) {
	cli_model *m = &e->m;
	const rfl_link *l = e->hw ? e->hw->link : 0;
	rfl_result r;
	if (!e->gpus) return;
	if (!is_llm(e)) cli_usage_error(&e->c, "--gpus is for decoder LLMs (%s --list)", e->c.prog);
	if (training(e)) cli_usage_error(&e->c, "--gpus times inference steps (prefill or decode), not training");
	if (l && l->gpus_per_node > 0 && e->gpus > (uint32_t)l->gpus_per_node)
		cli_input_error(&e->c, 0, 0, 0, "%s: a node holds %d GPUs (its link: %s); --gpus %lu is more: "
						"tensor parallelism here is one node", e->hw->id, l->gpus_per_node,
						rfl_link_kind_name(l->kind), (unsigned long)e->gpus);
	if ((r = rfl_workload_split(&m->w, &e->tp, e->gpus)) != RFL_OK) {
		if (m->w.err.where[0] || m->w.err.msg[0]) cli_error(&e->c, m->w.name, &m->w.err);
		cli_input_error(&e->c, 0, 0, 0, "%s on %lu GPUs: %s", m->w.name, (unsigned long)e->gpus, rfl_result_str(r));
	}
	e->has_fit = e->hw && rfl_workload_fit(&m->w, e->hw, 0, &e->fit) == RFL_OK;
}

static void cost_and_predict(est *e) {
	rfl_result r = rfl_net_cost_get(&e->m.w.net, &e->m.w.cost, &e->tot);
	if (r != RFL_OK)
		cli_input_error(&e->c, 0, 0, 0, "%s at batch %llu: %s", e->m.w.name,
						(unsigned long long)e->m.w.cost.batch, rfl_result_str(r));
	if (!e->hw) return;
	r = rfl_net_predict(&e->m.w.net, &e->m.w.cost, e->hw, &e->np);
	if (r == RFL_ERR_NO_ROOF) no_roof_error(e);
	if (r != RFL_OK) cli_input_error(&e->c, 0, 0, 0, "%s on %s: %s", e->m.w.name, e->hw->id, rfl_result_str(r));
}

/* --json: the library writes the document. */
static void write_json(rfl_json_writer *w, const void *v) {
	const est *e = (const est *)v;
	rfl_workload_json_desc jd;
	memset(&jd, 0, sizeof jd);
	jd.summary = e->summary, jd.forecast = e->forecast ? &e->fc : 0;
	jd.tp_link = (int)e->link, jd.tp_fit = e->has_fit ? &e->fit : 0;
	rfl_json_w_obj(w, 0);
	rfl_workload_json(w, &e->m.w, e->hw, &jd);
	rfl_json_w_end(w);
}

/* ---- tables ------------------------------------------------------------------ */
static void print_summary(est *e) {
	const rfl_net *net = &e->m.w.net;
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
		printf("%20s  %25s %15s\n", lab, shp, cli_commas(&e->c, (double)net->layers[i].params));
	}
	printf("================================================================\n");
	printf("Total params: %s\n", cli_commas(&e->c, (double)s.params));
	printf("Trainable params: %s\n", cli_commas(&e->c, (double)s.params));
	printf("Non-trainable params: 0\n");
	printf("----------------------------------------------------------------\n");
	printf("Input size (MB): %0.2f\n", s.input_mb);
	printf("Forward/backward pass size (MB): %0.2f\n", s.fwd_bwd_mb);
	printf("Params size (MB): %0.2f\n", s.params_mb);
	printf("Estimated Total Size (MB): %0.2f\n", s.total_mb);
	printf("----------------------------------------------------------------\n");
}

/* ONNX graph input k's dims as built, "[8, 3, 224, 224]" (a symbolic dim
   without a value: its name). */
static const char *onnx_dims(const cli_model *m, int k, char *buf, size_t size) {
	const rfl_onnx_value *v = &m->w.onnx->values[m->w.onnx->inputs[k]];
	rfl_onnx_desc od;
	size_t n = 0;
	int i;
	memset(&od, 0, sizeof od);
	od.dims = m->dims;
	n += (size_t)snprintf(buf, size, "[");
	for (i = 0; i < v->rank && n < size; i++) {
		int64_t x = rfl_onnx_input_dim(m->w.onnx, &od, m->w.onnx_info, k, i);
		if (x < 0) n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
										 v->dims[i].param ? v->dims[i].param : "?");
		else n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)x);
	}
	if (n < size) snprintf(buf + n, size - n, "]");
	return buf;
}

/* Record i's output shape; an ONNX graph input: its dims as built. */
static const char *shape_cell(const est *e, int i, char *buf, size_t size) {
	const rfl_layer *L = &e->m.w.net.layers[i];
	int k;
	for (k = 0; is_onnx(e) && L->op == RFL_OP_INPUT && L->name && k < e->m.w.onnx->input_count; k++)
		if (!strcmp(e->m.w.onnx->values[e->m.w.onnx->inputs[k]].name, L->name)) return onnx_dims(&e->m, k, buf, size);
	rfl_layer_shape_str(&e->m.w.net, i, (L->flags & RFL_LF_SHARED) ? 1 : e->m.w.cost.batch, buf, size);
	return buf;
}

/* "prefill of 512 tokens, logits on the last position" */
static const char *step_str(const rfl_llm_config *c, const rfl_workload *s, char *b, size_t n) {
	if (s->phase == RFL_LLM_DECODE && c->sliding_window && s->seq + 1 > c->sliding_window)
		snprintf(b, n, "decode of 1 token after %llu cached (attends to %llu; sliding layers to their "
				 "window of %lu)", (unsigned long long)s->seq, (unsigned long long)s->seq + 1,
				 (unsigned long)c->sliding_window);
	else if (s->phase == RFL_LLM_DECODE)
		snprintf(b, n, "decode of 1 token after %llu cached (attends to %llu)",
				 (unsigned long long)s->seq, (unsigned long long)s->seq + 1);
	else
		snprintf(b, n, "prefill of %llu tokens, logits on %s", (unsigned long long)s->seq,
				 s->logits_all ? "every position" : "the last position");
	return b;
}

static void print_header(est *e) {
	const cli_model *m = &e->m;
	char b[160];
	if (is_onnx(e))
		printf("%s: input '%s' %s%s, ", m->onnx, m->w.onnx->input_count > 0 ? m->w.onnx->values[m->w.onnx->inputs[0]].name : "",
			   m->w.onnx->input_count > 0 ? onnx_dims(m, 0, b, sizeof b) : "[]",
			   m->w.onnx_info->batch_axis ? " (batch: axis 1, an RNN's X)" : "");
	else if (is_llm(e))
		printf("%s: %s, batch %llu, ", m->w.name, step_str(m->w.llm, &m->w, b, sizeof b),
			   (unsigned long long)m->w.cost.batch);
	else
		printf("%s: input [%llu, 3, %lu, %lu], ", m->w.name, (unsigned long long)m->w.cost.batch,
			   (unsigned long)m->w.res, (unsigned long)m->w.res);
	printf("%s, %s, FLOPs: %s convention\n", rfl_dtype_name(m->w.cost.dtype),
		   training(e) ? "training" : "inference",
		   m->w.cost.convention == RFL_CONV_REPORT ? "pen-and-paper" : "torch");
	if (e->gpus > 1) printf("one GPU of %lu (tensor parallel): every record, FLOP, byte and time below is one GPU's\n",
						(unsigned long)e->gpus);
}

/* A FLOP cell: "?" for a record whose op has no FLOP rule. */
static const char *flops_cell(est *e, const rfl_layer *L, uint64_t f) {
	return (L->flags & RFL_LF_UNKNOWN_FLOPS) ? "?" : cli_si(&e->c, (double)f, "");
}

static void print_layers_table(est *e) {
	const rfl_net *net = &e->m.w.net;
	int i, w = 4;
	char shp[160], nm[64];
	for (i = 0; i < net->count; i++) {
		int l = (int)strlen(layer_name(net, i, nm, sizeof nm));
		if (net->layers[i].op != RFL_OP_MARK && l > w) w = l;
	}
	if (w > 56) w = 56;
	printf("%4s  %-*s %-11s %-22s %12s %10s %10s %10s", "#", w, "layer", "type", "output",
		   "params", "fwd FLOP", "fwd bytes", "bwd FLOP");
	if (e->hw) printf(" %8s %10s  %s", "AI", "time", "bound");
	putchar('\n');
	for (i = 0; i < net->count; i++) {
		rfl_layer_cost c;
		rfl_prediction p;
		const rfl_layer *L = &net->layers[i];
		double f, b;
		if (L->op == RFL_OP_MARK) continue;
		rfl_layer_cost_get(net, i, &e->m.w.cost, &c);
		printf("%4d  %-*.*s %-11s %-22s %12s %10s %10s %10s", i, w, w, layer_name(net, i, nm, sizeof nm),
			   rfl_ltype_name(rfl_op_ltype((rfl_op)L->op)), shape_cell(e, i, shp, sizeof shp),
			   cli_commas(&e->c, (double)c.params), flops_cell(e, L, c.fwd_flops),
			   cli_si(&e->c, (double)c.fwd_bytes, "B"), flops_cell(e, L, c.bwd_flops));
		if (e->hw) {
			f = (double)c.fwd_flops + (training(e) ? (double)c.bwd_flops : 0);
			b = (double)c.fwd_bytes + (training(e) ? (double)c.bwd_bytes : 0);
			rfl_layer_predict(net, i, &e->m.w.cost, e->hw, &p);
			if (L->flags & RFL_LF_UNKNOWN_FLOPS) /* bytes known, FLOPs not */
				printf(" %8s >%9s  %s", "?", cli_si(&e->c, p.time_s, "s"), "?");
			else if (p.time_s > 0)
				printf(" %8s %10s  %s", b > 0 ? cli_num(&e->c, f / b, 3) : "-",
					   cli_si(&e->c, p.time_s, "s"), bound_str(&p));
			else
				printf(" %8s %10s  %s", "-", "-", "-");
		}
		putchar('\n');
	}
}

/* Groups of records (rfl_net_group): by module, with counts (an LLM's
   view without --layers), or by layer type. */
static rfl_group_cost *groups_of(est *e, rfl_group_by by, int *n) {
	rfl_group_cost *g;
	*n = rfl_net_group(&e->m.w.net, &e->m.w.cost, by, e->hw, 0, 0);
	if (*n < 0) cli_input_error(&e->c, 0, 0, 0, "%s: the records cannot be grouped", e->m.w.name);
	g = (rfl_group_cost *)cli_xmalloc(&e->c, sizeof *g * (size_t)(*n ? *n : 1));
	rfl_net_group(&e->m.w.net, &e->m.w.cost, by, e->hw, g, *n);
	return g;
}

static void print_modules_table(est *e) {
	int i, n, w = 6;
	rfl_group_cost *g = groups_of(e, RFL_GROUP_MODULE, &n);
	for (i = 0; i < n; i++) if ((int)strlen(g[i].name) > w) w = (int)strlen(g[i].name);
	printf("%-*s %-11s %5s %14s %10s %10s %10s %10s", w, "module", "type", "count", "params",
		   "mac FLOP", "FLOP", "weights", "bytes");
	if (e->hw) printf(" %10s  %s", "time", "bound");
	putchar('\n');
	for (i = 0; i < n; i++) {
		printf("%-*s %-11s %5d %14s %10s %10s %10s %10s", w, g[i].name,
			   rfl_ltype_name((rfl_ltype)g[i].ltype), g[i].count, cli_commas(&e->c, (double)g[i].params),
			   cli_si(&e->c, (double)g[i].fwd_mac_flops, ""), cli_si(&e->c, (double)g[i].fwd_flops, ""),
			   cli_si(&e->c, (double)g[i].fwd_weight_bytes, "B"), cli_si(&e->c, (double)g[i].fwd_bytes, "B"));
		if (e->hw && g[i].time_s > 0)
			printf(" %10s  %s", cli_si(&e->c, g[i].time_s, "s"),
				   g[i].memory_s > g[i].compute_s ? "memory" : "compute");
		putchar('\n');
	}
	free(g);
}

/* By layer type: where the FLOPs, the bytes and the time go. */
static void print_types_table(est *e) {
	double tf[RFL_LT_COUNT], tb[RFL_LT_COUNT], tt[RFL_LT_COUNT], sf = 0, sb = 0, st = 0;
	int cnt[RFL_LT_COUNT], unk[RFL_LT_COUNT], t, i;
	const rfl_net *net = &e->m.w.net;
	for (t = 0; t < RFL_LT_COUNT; t++) cnt[t] = unk[t] = 0, tf[t] = tb[t] = tt[t] = 0;
	for (i = 0; i < net->count; i++) {
		rfl_layer_cost c;
		rfl_prediction p;
		const rfl_layer *L = &net->layers[i];
		if (L->op == RFL_OP_MARK) continue;
		t = (int)rfl_op_ltype((rfl_op)L->op);
		rfl_layer_cost_get(net, i, &e->m.w.cost, &c);
		cnt[t]++;
		unk[t] += (L->flags & RFL_LF_UNKNOWN_FLOPS) != 0;
		tf[t] += (double)c.fwd_flops + (training(e) ? (double)c.bwd_flops : 0);
		tb[t] += (double)c.fwd_bytes + (training(e) ? (double)c.bwd_bytes : 0);
		if (e->hw && rfl_layer_predict(net, i, &e->m.w.cost, e->hw, &p) == RFL_OK) tt[t] += p.time_s;
	}
	for (t = 0; t < RFL_LT_COUNT; t++) sf += tf[t], sb += tb[t], st += tt[t];
	printf("\n%-12s %6s %12s %6s %12s %6s", "by type", "layers",
		   training(e) ? "FLOP (f+b)" : "FLOP", "", "bytes", "");
	if (e->hw) printf(" %10s %6s", "time", "");
	putchar('\n');
	for (t = 0; t < RFL_LT_COUNT; t++) {
		if (!cnt[t]) continue;
		printf("%-12s %6d %12s %5.1f%% %12s %5.1f%%", rfl_ltype_name((rfl_ltype)t), cnt[t],
			   unk[t] ? "?" : cli_si(&e->c, tf[t], ""), sf > 0 ? 100 * tf[t] / sf : 0,
			   cli_si(&e->c, tb[t], "B"), sb > 0 ? 100 * tb[t] / sb : 0);
		if (e->hw) printf(" %10s %5.1f%%", cli_si(&e->c, tt[t], "s"), st > 0 ? 100 * tt[t] / st : 0);
		putchar('\n');
	}
}

static void print_pass(est *e, const char *what, uint64_t flops, uint64_t mac, uint64_t bytes) {
	const char *least = e->tot.unknown_layers ? "at least " : "";
	printf("%-16s %s%s FLOP (mac %s%s FLOP = %s), %s moved\n", what, least,
		   cli_si(&e->c, (double)flops, ""), least, cli_si(&e->c, (double)mac, ""),
		   cli_commas(&e->c, (double)mac), cli_si(&e->c, (double)bytes, "B"));
}

static void print_time(est *e) {
	const rfl_net_prediction *np = &e->np;
	rfl_work all = e->tot.forward;
	if (training(e)) rfl_work_add(&all, &e->tot.backward);
	printf("on %s (%s):\n", e->hw->name, training(e) ? "forward + backward" : "forward");
	printf("  predicted time %s%s: sum over layers of max(compute, memory); %d layers "
		   "compute-bound, %d memory-bound%s\n", np->unknown_layers ? "at least " : "",
		   cli_si(&e->c, np->layers_s, "s"), np->compute_layers, np->memory_layers,
		   np->unknown_layers ? " (of those with known FLOPs)" : "");
	if (np->unknown_layers)
		printf("  whole model    at least %s: the bound is unknown (FLOPs of %d node%s "
			   "unknown; AI at least %s FLOP/B)\n", cli_si(&e->c, np->whole.time_s, "s"),
			   np->unknown_layers, np->unknown_layers > 1 ? "s" : "",
			   cli_num(&e->c, rfl_work_ai(&all, RFL_DRAM), 3));
	else
		printf("  whole model    %s: all FLOPs and bytes at once, %s-bound (AI %s FLOP/B)\n",
			   cli_si(&e->c, np->whole.time_s, "s"), bound_str(&np->whole),
			   cli_num(&e->c, rfl_work_ai(&all, RFL_DRAM), 3));
}

/* Latent attention (DeepSeek): the step absorbed as serving kernels run
   it, beside the table's transformers form (the same cache); its time is
   the one a serving decode sees. */
static void print_mla(est *e) {
	rfl_workload_desc d = e->m.d;
	rfl_workload a;
	size_t n = (size_t)RFL_LLM_NET_LAYERS((size_t)e->m.w.llm->layers);
	rfl_net_cost t;
	rfl_net_prediction p;
	d.mla_absorbed = 1;
	rfl_workload_init(&a, (rfl_layer *)cli_xmalloc(&e->c, sizeof(rfl_layer) * n), (int)n,
					  (char *)cli_xmalloc(&e->c, RFL_WL_NAMES(n)), RFL_WL_NAMES(n));
	if (rfl_workload_llm(&a, e->m.w.llm, &d) != RFL_OK || rfl_net_cost_get(&a.net, &a.cost, &t) != RFL_OK ||
		(e->hw && rfl_net_predict(&a.net, &a.cost, e->hw, &p) != RFL_OK))
		cli_input_error(&e->c, 0, 0, 0, "%s: the absorbed latent attention cannot be costed", e->m.w.name);
	printf("MLA absorbed     forward %s FLOP, mac %s, %s (W_UK into q, W_UV into o, attention "
		   "over the cached latent, as serving kernels); the rows above are transformers' form\n",
		   cli_si(&e->c, (double)t.fwd_flops, ""), cli_si(&e->c, (double)t.fwd_mac_flops, ""),
		   cli_si(&e->c, (double)t.fwd_bytes, "B"));
	if (e->hw) printf("  absorbed step  %s on %s (the serving decode's time)\n", cli_si(&e->c, p.layers_s, "s"), e->hw->id);
	free(a.net.layers), free(a.net.names);
}

/* An LLM step: the bytes by role, the cache, and on the machine its
   tokens/s and the batches where it turns compute-bound. */
static void print_step(est *e, int on_hw) {
	const rfl_net_cost *t = &e->tot;
	const rfl_workload *s = &e->m.w;
	rfl_llm_figures f;
	uint64_t roles = t->fwd_weight_bytes + t->fwd_kv_read_bytes + t->fwd_kv_write_bytes;
	if (rfl_workload_figures(s, e->hw, &f) != RFL_OK)
		cli_input_error(&e->c, 0, 0, 0, "%s: the step's figures cannot be computed", e->m.w.name);
	if (!on_hw) printf("step bytes       %s: weights %s, KV read %s, KV written %s, activations %s\n",
		   cli_si(&e->c, (double)t->fwd_bytes, "B"), cli_si(&e->c, (double)t->fwd_weight_bytes, "B"),
		   cli_si(&e->c, (double)t->fwd_kv_read_bytes, "B"), cli_si(&e->c, (double)t->fwd_kv_write_bytes, "B"),
		   cli_si(&e->c, (double)(t->fwd_bytes - roles), "B"));
	if (!on_hw) printf("KV cache         %s after the step\n", cli_si(&e->c, (double)f.kv_cache_bytes, "B"));
	if (!on_hw && e->m.w.llm->kv_lora_rank) print_mla(e);
	if (!on_hw) {
		rfl_warning w;
		int i;
		for (i = 0; rfl_llm_figures_warning(&f, i, &w); i++) printf("%s\n", cli_warning(0, &w));
		return;
	}
	printf("  tokens/s       %s (%s / step time)%s\n", cli_num(&e->c, f.tokens_per_s, 4),
		   s->phase == RFL_LLM_PREFILL ? "batch x seq" : "batch",
		   e->gpus > 1 ? ", without the all-reduces (below)" : "");
	if (s->phase == RFL_LLM_PREFILL) printf("  ttft           %s\n", cli_si(&e->c, f.ttft_s, "s"));
	else if (f.decode_bound_batch)
		printf("  decode turns compute-bound at batch %llu (seq %llu)\n",
			   (unsigned long long)f.decode_bound_batch, (unsigned long long)s->seq);
	else /* a search that found none, not a proof */
		printf("  decode stays memory-bound at seq %llu for every batch tried, up to %d (the "
			   "search's limit; the KV cache grows with the batch)\n", (unsigned long long)s->seq,
			   RFL_LLM_BATCH_CAP);
	if (f.gemm_bound_batch)
		printf("  its weight GEMMs turn compute-bound at batch %llu\n", (unsigned long long)f.gemm_bound_batch);
	if (f.max_batch_in_memory)
		printf("  memory holds the weights and the KV cache of at most %llu sequences of %llu tokens\n",
			   (unsigned long long)f.max_batch_in_memory,
			   (unsigned long long)(s->seq + (s->phase == RFL_LLM_DECODE)));
}

/* --gpus N: the split, the all-reduces and their time, memory per GPU,
   which N fits the machine. */
static void print_tp_comm(est *e) {
	rfl_llm_tp_comm c;
	const rfl_llm_tp *t = &e->tp;
	rfl_result r = rfl_llm_tp_comm_time(t, e->hw, e->link, 0, &c);
	const rfl_link *l = r == RFL_OK ? c.link : e->hw->link;
	double step = e->np.layers_s;
	if (r != RFL_OK) {
		if (e->link && l && l->kind != RFL_LINK_UNKNOWN)
			printf("  all-reduces    not timed: %s's link (%s) has no %s row near it in the table\n", e->hw->id,
				   rfl_link_kind_name(l->kind), rfl_link_kind_name(e->link));
		else
			printf("  all-reduces    not timed: %s's link is %s (a machine file can give one)\n", e->hw->id,
				   l && l->kind == RFL_LINK_NONE ? "none: one device" : "unknown");
		return;
	}
	printf("  link           %s%s%s, %s each way%s: %s\n", rfl_link_kind_name(l->kind), l->gen > 0 ? " " : "",
		   l->gen > 0 ? cli_num(&e->c, l->gen, 2) : "", cli_si(&e->c, l->bw_bytes_per_s, "B/s"),
		   c.link_from_table ? " (--link: the table's row nearest the machine's own)" : "", l->source);
	printf("  all-reduce     %s each: ring, %d steps (latency %s%s) + 2 (N - 1) / N x %s at %s (%s); "
		   "basis: %s\n", cli_si(&e->c, c.allreduce.time_s, "s"), c.allreduce.steps,
		   cli_si(&e->c, c.allreduce.latency_s, "s"),
		   c.allreduce.latency_assumed ? ", ASSUMED: 1 us a step, the link's latency is unpublished (NCCL's PCI figure)" : "",
		   cli_si(&e->c, (double)t->allreduce_bytes, "B"),
		   cli_si(&e->c, c.allreduce.busbw, "B/s"), cli_si(&e->c, c.allreduce.transfer_s, "s"),
		   c.allreduce.basis == RFL_AR_DATASHEET && c.allreduce.latency_assumed
			   ? "the datasheet's bandwidth and an assumed latency"
		   : c.allreduce.basis == RFL_AR_DATASHEET ? "the datasheet's latency and bandwidth, a lower bound"
		   : c.allreduce.basis == RFL_AR_EXTRAPOLATED ? "the link's all-reduce fit (rfl-hw: its source), "
														"extrapolated to more GPUs"
													  : "the link's all-reduce fit (rfl-hw: its source)");
	printf("  per step       %s: %llu all-reduces x %s + the logits' gather %s\n",
		   cli_si(&e->c, c.comm_s, "s"), (unsigned long long)t->allreduces,
		   cli_si(&e->c, c.allreduce.time_s, "s"), cli_si(&e->c, c.gather.time_s, "s"));
	printf("  step           %s = %s (one GPU's bound) + %s (all-reduces, not overlapped): %s tokens/s\n",
		   cli_si(&e->c, step + c.comm_s, "s"), cli_si(&e->c, step, "s"), cli_si(&e->c, c.comm_s, "s"),
		   cli_num(&e->c, step + c.comm_s > 0 ? (double)e->m.w.cost.batch *
				   (e->m.w.phase == RFL_LLM_DECODE ? 1 : (double)e->m.w.seq) / (step + c.comm_s) : 0, 4));
}

static void print_tp_fit(est *e) {
	rfl_llm_tp_fit f = e->fit;
	int i;
	if (!e->has_fit) {
		printf("  fit            unknown: %s's memory is not known\n", e->hw->id);
		return;
	}
	printf("  fit            weights + KV cache + activations within %g%% of %s's %s = %s per GPU\n"
		   "                 (vLLM's default gpu_memory_utilization; the rest: CUDA context, NCCL buffers)\n",
		   100 * f.mem_fraction, e->hw->id, cli_si(&e->c, f.mem_bytes, "B"),
		   cli_si(&e->c, f.mem_fraction * f.mem_bytes, "B"));
	printf("  %-14s %4s %10s %5s  %s\n", "per N", "GPUs", "per GPU", "fits", "max_batch_in_memory (KV caches "
		   "beside the weights in all the memory: at most)");
	for (i = 0; i < RFL_LLM_TP_FIT_N; i++) {
		const rfl_llm_tp_fit_row *r = &f.rows[i];
		if (r->split != RFL_OK) {
			printf("  %-14s %4u %10s %5s  %s\n", "", r->gpus, "-", "no",
				   r->split == RFL_ERR_ARG     ? "more GPUs than a node holds"
				   : r->split == RFL_ERR_SHAPE ? "the model does not split this way"
											   : rfl_result_str(r->split));
			continue;
		}
		printf("  %-14s %4u %10s %5s  %s\n", "", r->gpus, cli_si(&e->c, (double)r->bytes, "B"), r->fits ? "yes" : "no",
			   r->max_batch_in_memory ? cli_num(&e->c, (double)r->max_batch_in_memory, 17) : "none");
	}
	if (f.smallest_gpus) printf("  smallest N     %u GPU%s\n", f.smallest_gpus, f.smallest_gpus > 1 ? "s" : "");
	else printf("  smallest N     none of 1, 2, 4, 8 fits\n");
}

static void print_tp(est *e) {
	const rfl_llm_tp *t = &e->tp;
	const rfl_llm_config *c = e->m.w.llm;
	uint64_t tot = t->weight_bytes + t->kv_bytes + t->act_bytes;
	if (t->gpus < 2)
		printf("\ntensor parallel  1 GPU: the model whole, no all-reduces\n");
	else
		printf("\ntensor parallel  %lu GPUs of one node (Megatron's split): the figures above are one GPU's\n",
			   (unsigned long)t->gpus);
	if (t->gpus > 1) printf("  one GPU        %u of %u heads, %u of %u kv heads%s, MLP %u of %u", t->shard.heads, c->heads,
		   t->shard.kv_heads, c->kv_heads, c->kv_heads < t->gpus ? " (replicated)" : "",
		   t->shard.intermediate, c->intermediate);
	if (t->gpus > 1 && c->moe_intermediate)
		printf(", experts %u of %u wide", t->shard.moe_intermediate, c->moe_intermediate);
	if (t->gpus > 1) printf(", vocabulary %u of %u\n", t->shard.vocab, c->vocab);
	if (t->gpus > 1) printf("  all-reduces    %u per layer x %u layers + 1 (the embedding) = %llu per step, %s each "
		   "(batch x tokens x hidden)\n", t->allreduces_per_layer, c->layers, (unsigned long long)t->allreduces,
		   cli_si(&e->c, (double)t->allreduce_bytes, "B"));
	if (t->gpus > 1) printf("  logits         gathered once per step: %s\n", cli_si(&e->c, (double)t->gather_bytes, "B"));
	printf("  memory per GPU %s: weights %s, KV cache %s, activations %s (the largest live set)\n",
		   cli_si(&e->c, (double)tot, "B"), cli_si(&e->c, (double)t->weight_bytes, "B"),
		   cli_si(&e->c, (double)t->kv_bytes, "B"), cli_si(&e->c, (double)t->act_bytes, "B"));
	if (!e->hw) return;
	if (t->gpus > 1) print_tp_comm(e);
	print_tp_fit(e);
}

/* ---- --forecast ----------------------------------------------------------------- */
static void run_forecast(est *e) {
	rfl_forecast_desc fd;
	const rfl_machine_file *mf = cli_file_of(&e->c, e->hw);
	rfl_result r;
	if (!e->hw) cli_usage_error(&e->c, "--forecast needs a machine (--hw or --hw-file)");
	memset(&fd, 0, sizeof fd);
	fd.runtime = e->runtime, fd.optim = e->optim;
	if (e->has_st) fd.step_terms = &e->st;
	if (mf && mf->host_op_s > 0) fd.host_op_s = mf->host_op_s;
	if (!is_llm(e) || (e->runtime && e->runtime != RFL_RUNTIME_FUSED)) {
		if (e->runtime == RFL_RUNTIME_FUSED) cli_usage_error(&e->c, "--runtime fused is for decoder LLMs");
		if (e->gpus > 1) cli_usage_error(&e->c, "--runtime eager|graphs forecasts one GPU (no --gpus)");
		r = rfl_workload_forecast(&e->m.w, e->hw, &fd, &e->fc);
		goto done;
	}
	if (training(e))
		cli_usage_error(&e->c, "--runtime fused forecasts an LLM's inference step (--runtime eager for training)");
	if (mf && mf->has_measured) fd.measured = &mf->measured;
	if (e->gpus > 1) {
		rfl_llm_tp_comm c;
		if (rfl_llm_tp_comm_time(&e->tp, e->hw, e->link, 0, &c) != RFL_OK)
			cli_input_error(&e->c, 0, 0, 0, "%s on %lu GPUs of %s: no forecast: the link is %s, so the "
							"all-reduces cannot be timed (a machine file can give one; --link nvlink|pcie "
							"takes the table's)", e->m.w.name, (unsigned long)e->gpus, e->hw->id,
							e->hw->link && e->hw->link->kind == RFL_LINK_NONE ? "none" : "unknown");
		fd.link = c.link;
	}
	r = rfl_workload_forecast(&e->m.w, e->hw, &fd, &e->fc);
done:
	if (r == RFL_ERR_NO_DATA && e->hw->kind != RFL_KIND_GPU)
		cli_input_error(&e->c, 0, 0, 0, "%s on %s: no forecast: its terms were measured on GPUs only, and %s "
						"is a %s (the bound above stands)", e->m.w.name, e->hw->id, e->hw->id, rfl_kind_name(e->hw->kind));
	if (r != RFL_OK)
		cli_input_error(&e->c, 0, 0, 0, "%s on %s: no forecast: %s", e->m.w.name, e->hw->id, rfl_result_str(r));
}

/* A term as the text names it: "76% of DRAM bandwidth". */
static const char *term_str(est *e, const rfl_forecast_term *t, char *b, size_t n) {
	if (!strcmp(t->name, "dram_bandwidth")) snprintf(b, n, "%.0f%% of DRAM bandwidth", 100 * t->value);
	else if (!strcmp(t->name, "tensor_peak"))
		snprintf(b, n, "%.0f%% of the %s tensor peak", 100 * t->value, rfl_dtype_name(e->m.w.cost.dtype));
	else if (!strcmp(t->name, "dequantization"))
		snprintf(b, n, "%s dequantization at %s", rfl_dtype_name(e->m.w.cost.weights), cli_si(&e->c, t->value, "FLOP/s"));
	else if (!strcmp(t->name, "kernels"))
		snprintf(b, n, "%.0f kernels' fixed cost", t->value);
	else if (!strcmp(t->name, "tiles"))
		snprintf(b, n, "GEMM tiles and waves at %.0f%% of peak", 100 * t->value);
	else if (!strcmp(t->name, "added_work"))
		snprintf(b, n, "work the bound leaves out (loss, optimizer, casts)");
	else if (!strcmp(t->name, "tf32_convolutions"))
		snprintf(b, n, "fp32 convolutions on TF32 (PyTorch's default)");
	else if (!strcmp(t->name, "static_cache"))
		snprintf(b, n, "KV heads repeated over the static cache");
	else if (!strcmp(t->name, "host"))
		snprintf(b, n, "host dispatch of %.0f ops", t->value);
	else snprintf(b, n, "%.0f all-reduces and gathers", t->value);
	return b;
}

static void print_forecast(est *e) {
	const rfl_forecast *f = &e->fc;
	char b[96];
	int i;
	if (strcmp(f->runtime, "fused")) {
		printf("\nforecast %s/step (%s%s%s): GPU %s in %.0f kernels, host %s; bound %s; %s binds\n",
			   cli_si(&e->c, f->step_time_s, "s"), f->runtime, f->optim ? ", " : "", f->optim ? f->optim : "",
			   cli_si(&e->c, f->gpu_time_s, "s"), f->kernels,
			   cli_si(&e->c, f->host_time_s, "s"), cli_si(&e->c, f->bound_s, "s"), f->binds);
		goto terms;
	}
	printf("\nforecast %s%s (%s tokens/s%s); bound %s; %s: +%s\n", cli_si(&e->c, f->step_time_s, "s"),
		   e->m.w.phase == RFL_LLM_PREFILL ? " to first token" : "/step", cli_num(&e->c, f->tokens_per_s, 4),
		   f->gpus > 1 ? ", all GPUs" : "", cli_si(&e->c, f->bound_s, "s"),
		   term_str(e, &f->terms[f->main_term], b, sizeof b), cli_si(&e->c, f->terms[f->main_term].seconds, "s"));
terms:
	for (i = 0; i < f->n_terms; i++)
		if (f->terms[i].seconds > 0)
			printf("  %-44s +%s\n", term_str(e, &f->terms[i], b, sizeof b), cli_si(&e->c, f->terms[i].seconds, "s"));
	printf("  basis: %s\n  source: %s\n", f->basis, f->source ? f->source : "");
}

static void print_totals(est *e) {
	const rfl_net_cost *t = &e->tot;
	const cli_model *m = &e->m;
	printf("\nparams           %s (%s at %s)\n", cli_commas(&e->c, (double)t->params),
		   cli_si(&e->c, (double)t->param_bytes, "B"), rfl_dtype_name(m->w.cost.weights ? m->w.cost.weights : m->w.cost.dtype));
	print_pass(e, "forward", t->fwd_flops, t->fwd_mac_flops, t->fwd_bytes);
	if (training(e)) print_pass(e, "backward", t->bwd_flops, t->bwd_mac_flops, t->bwd_bytes);
	if (is_onnx(e) && m->w.onnx_info->unknown_ops > 0)
		printf("note: %d node%s without a FLOP rule (first: %s): their FLOPs are unknown, so "
			   "FLOP totals and times are lower bounds\n", m->w.onnx_info->unknown_ops,
			   m->w.onnx_info->unknown_ops > 1 ? "s" : "", m->w.onnx_info->unknown_op ? m->w.onnx_info->unknown_op : "?");
	if (training(e)) { /* inference output holds no training lines */
		printf("activations      %s kept for backward\n", cli_si(&e->c, (double)t->activation_bytes, "B"));
		printf("training memory  %s with SGD+momentum, %s with Adam\n",
			   cli_si(&e->c, (double)t->train_sgd_bytes, "B"), cli_si(&e->c, (double)t->train_adam_bytes, "B"));
	}
	if (is_llm(e)) print_step(e, 0);
	if (e->hw) print_time(e);
	if (is_llm(e) && e->hw) print_step(e, 1);
	if (e->gpus) print_tp(e);
	if (e->forecast) print_forecast(e);
}

int main(int argc, char **argv) {
	static est e;
	parse_args(&e, argc, argv);
	e.hw = cli_machine(&e.c); /* --hw NAME or --hw-file FILE */
	if (e.link && !e.gpus) cli_usage_error(&e.c, "--link goes with --gpus N");
	if (e.link && !e.hw) cli_usage_error(&e.c, "--link needs a machine (--hw NAME or --hw-file FILE)");
	cli_model_load(&e.c, &e.m);
	plan_tp(&e);
	if (e.layers && !is_llm(&e)) cli_usage_error(&e.c, "--layers is for decoder LLMs (the zoo's table has them)");
	cost_and_predict(&e);
	if (e.forecast) run_forecast(&e);
	if (e.json) cli_json_out(&e.c, stdout, write_json, &e);
	else if (e.summary) print_summary(&e);
	else {
		print_header(&e);
		if (is_llm(&e) && !e.layers && !training(&e)) print_modules_table(&e);
		else print_layers_table(&e);
		print_types_table(&e);
		print_totals(&e);
	}
	return 0;
}
