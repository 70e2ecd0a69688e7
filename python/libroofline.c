/* libroofline.c - the shared build of roofline.h for the Python module
   (make python: build/libroofline.so, ctypes loads it). The library is
   all of it; the rflpy_ calls below are argument plumbing only: they take
   flat arguments, call the library's calls in the order the tools do
   (tools/cli.h, rfl-estimate, rfl-hw, rfl-reduce) and write the
   library's own JSON document into the caller's buffer.

   Memory: the caller's. Every call takes out[out_size] for its document
   and, where it builds something, mem[mem_size] for the records and
   state; too small: RFL_ERR_BUFFER with the bytes needed in err->need
   (ask again with that much). Nothing here allocates or keeps state. */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"

#define RFLPY_API __attribute__((visibility("default")))

static rfl_result rflpy_fail(rfl_error *err, rfl_result r, const char *msg) {
	memset(err, 0, sizeof *err);
	err->code = r, err->index = -1;
	if (msg) snprintf(err->msg, sizeof err->msg, "%s", msg);
	return r;
}

/* fn(ctx) counted, then written into out (cli_json_out's two passes). */
typedef void (*rflpy_fn)(rfl_json_writer *w, const void *ctx);
static rfl_result rflpy_json(rflpy_fn fn, const void *ctx, char *out, size_t out_size, rfl_error *err) {
	rfl_json_writer w;
	rfl_json_w_init(&w, 0, 0);
	fn(&w, ctx);
	if (w.len + 1 > out_size) {
		rflpy_fail(err, RFL_ERR_BUFFER, "output buffer");
		err->need = w.len + 1;
		return RFL_ERR_BUFFER;
	}
	rfl_json_w_init(&w, out, out_size);
	fn(&w, ctx);
	if (rfl_json_w_finish(&w) != RFL_OK) return rflpy_fail(err, RFL_ERR_ARG, "JSON writer: badly nested");
	return RFL_OK;
}

/* ---- hw: rfl-hw NAME --json ------------------------------------------------ */
static void rflpy_hw_w(rfl_json_writer *w, const void *ctx) {
	rfl_machine_file one;
	memset(&one, 0, sizeof one);
	one.machine = *(const rfl_machine *)ctx;
	rfl_json_w_obj(w, 0);
	rfl_machine_file_write(w, &one);
	rfl_json_w_end(w);
}
RFLPY_API int rflpy_hw(const char *name, char *out, size_t out_size, rfl_error *err) {
	const rfl_machine *m;
	memset(err, 0, sizeof *err);
	if (rfl_hw_find(name, &m) != RFL_OK) return rflpy_fail(err, RFL_ERR_UNKNOWN_NAME, 0);
	return rflpy_json(rflpy_hw_w, m, out, out_size, err);
}

/* ---- estimate: rfl-estimate ... --json ------------------------------------- */
/* The options as rfl-estimate's parser leaves them (cli_model_option). */
typedef struct rflpy_est {
	const char *name;                 /* a zoo or LLM name, or NULL */
	const char *hf_text; size_t hf_len; const char *hf_name; int strict;
	const void *onnx; size_t onnx_len; const char *onnx_file; const char *dims;
	const char *hw;                   /* a machine name, or NULL */
	uint64_t batch, seq; uint32_t res;
	int dtype, weights, kv, mode, convention, phase, seq_set, logits;
	int summary, forecast, link; uint32_t gpus;
} rflpy_est;

typedef struct rflpy_mem {
	rfl_workload w;        /* its config or graph in the arena after this */
	rfl_llm_tp tp;
	rfl_llm_tp_fit fit;
	rfl_forecast fc;
	rfl_workload_json_desc jd;
	const rfl_machine *hw;
	rfl_warning warning;   /* a config read as Llama-style (not strict) */
} rflpy_mem;

static void rflpy_est_w(rfl_json_writer *w, const void *ctx) {
	const rflpy_mem *m = (const rflpy_mem *)ctx;
	rfl_json_w_obj(w, 0);
	rfl_workload_json(w, &m->w, m->hw, &m->jd);
	rfl_json_w_end(w);
}

static size_t rflpy_align(size_t n) { return (n + 15) & ~(size_t)15; }

/* mem: rflpy_mem, then rfl_workload_load's arena. */
RFLPY_API int rflpy_estimate(const rflpy_est *o, void *mem, size_t mem_size, char *out, size_t out_size,
							 rfl_error *err) {
	rflpy_mem *m = (rflpy_mem *)mem;
	rfl_workload_desc d;
	size_t head = rflpy_align(sizeof *m);
	rfl_result r;
	memset(err, 0, sizeof *err);
	if (mem_size < head) { rflpy_fail(err, RFL_ERR_BUFFER, "memory"); err->need = head + 65536; return RFL_ERR_BUFFER; }
	memset(m, 0, sizeof *m);
	memset(&d, 0, sizeof d);
	d.cost.batch = o->batch, d.res = o->res, d.cost.dtype = (rfl_dtype)o->dtype;
	d.cost.weights = (rfl_dtype)o->weights, d.cost.kv = (rfl_dtype)o->kv;
	d.cost.mode = (rfl_mode)o->mode, d.cost.convention = (rfl_flop_conv)o->convention;
	d.phase = o->phase, d.seq_set = o->seq_set, d.seq = o->seq, d.logits = o->logits;
	d.model = o->name, d.strict = o->strict, d.warning = &m->warning;
	if (o->hf_text) /* the bytes; the path names them */
		d.hf_config = "config.json", d.name = o->hf_name, d.bytes = o->hf_text, d.bytes_len = o->hf_len;
	if (o->onnx) d.onnx_file = o->onnx_file ? o->onnx_file : "", d.bytes = o->onnx, d.bytes_len = o->onnx_len;
	if (o->onnx) d.dims = o->dims;
	if (o->hw && rfl_hw_find(o->hw, &m->hw) != RFL_OK) return rflpy_fail(err, RFL_ERR_UNKNOWN_NAME, "machine");
	r = rfl_workload_load(&m->w, &d, (unsigned char *)mem + head, mem_size - head);
	if (r == RFL_ERR_BUFFER && m->w.err.need) {
		rflpy_fail(err, RFL_ERR_BUFFER, "memory");
		err->need = head + m->w.err.need;
		return RFL_ERR_BUFFER;
	}
	if (r != RFL_OK) { *err = m->w.err; if (!err->code) err->code = r; return r; }
	if (o->gpus) {
		if ((r = rfl_workload_split(&m->w, &m->tp, o->gpus)) != RFL_OK) {
			*err = m->w.err; if (!err->code) err->code = r; return r;
		}
		m->jd.tp_link = o->link;
		if (m->hw && rfl_workload_fit(&m->w, m->hw, 0, &m->fit) == RFL_OK) m->jd.tp_fit = &m->fit;
	}
	if (o->forecast) {
		rfl_forecast_desc fd;
		memset(&fd, 0, sizeof fd);
		if (o->gpus > 1) {
			rfl_llm_tp_comm c;
			if ((r = rfl_llm_tp_comm_time(&m->tp, m->hw, (rfl_link_kind)o->link, 0, &c)) != RFL_OK)
				return rflpy_fail(err, r, "the all-reduces cannot be timed: the machine's link is unknown");
			fd.link = c.link;
		}
		if ((r = rfl_workload_forecast(&m->w, m->hw, &fd, &m->fc)) != RFL_OK) return rflpy_fail(err, r, 0);
		m->jd.forecast = &m->fc;
	}
	m->jd.summary = o->summary;
	/* what rfl-estimate checks before it writes: the costs and the times */
	{
		rfl_net_cost tot;
		rfl_net_prediction np;
		if ((r = rfl_net_cost_get(&m->w.net, &m->w.cost, &tot)) != RFL_OK) return rflpy_fail(err, r, 0);
		if (m->hw && (r = rfl_net_predict(&m->w.net, &m->w.cost, m->hw, &np)) != RFL_OK) return rflpy_fail(err, r, 0);
	}
	return rflpy_json(rflpy_est_w, m, out, out_size, err);
}

/* The workload's source after rflpy_estimate (rfl_workload_source), and
   its step, for the binding's checks of options that do not go together. */
RFLPY_API int rflpy_source(const void *mem, int *phase, uint64_t *seq, int *mode) {
	const rflpy_mem *m = (const rflpy_mem *)mem;
	*phase = m->w.phase, *seq = m->w.seq, *mode = (int)m->w.cost.mode;
	return m->w.source;
}
/* The config reader's warning after rflpy_estimate ("": none), with its
   code (rfl-estimate prints both on stderr). */
RFLPY_API const char *rflpy_estimate_warning(const void *mem, const char **code) {
	const rfl_warning *w = &((const rflpy_mem *)mem)->warning;
	*code = rfl_warn_code(w->code);
	return w->text;
}

/* Check the options rfl-estimate refuses together (cli_model_load's,
   plan_tp's and run_forecast's wording): step_given: a phase, seq or
   logits was asked; gpus, forecast: as asked. 1 and msg when refused. */
RFLPY_API int rflpy_estimate_usage(const void *mem, int step_given, uint32_t gpus, int forecast, char *msg,
								   size_t size) {
	const rflpy_mem *m = (const rflpy_mem *)mem;
	int llm = m->w.source == RFL_WL_LLM, train = m->w.cost.mode == RFL_MODE_TRAIN;
	const char *s = 0;
	if (!llm && step_given) s = "phase, seq and logits are for decoder LLMs";
	else if (llm && train && m->w.phase == RFL_LLM_DECODE)
		s = "mode train is a prefill (decode generates without gradients)";
	else if (llm && m->w.phase == RFL_LLM_PREFILL && m->w.seq == 0) s = "seq must be at least 1 for a prefill";
	else if (gpus && !llm) s = "gpus is for decoder LLMs";
	else if (gpus && train) s = "gpus times inference steps (prefill or decode), not training";
	else if (forecast && (!llm || !m->hw || train))
		s = "forecast is for a decoder LLM's inference step on a machine (hw=)";
	if (s) snprintf(msg, size, "%s", s);
	return s != 0;
}

/* ---- reduce: rfl-reduce FILE --json, pushed in chunks ---------------------- */
#define RFLPY_GROUPS 512
typedef struct rflpy_red {
	rfl_reduce_state st;
	rfl_reduce_result res;
	rfl_reduce_desc d;
	const rfl_machine *hw;
	int by_name;
	char filter[256];
	rfl_kernel_stat groups[RFLPY_GROUPS];
	unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
} rflpy_red;
RFLPY_API size_t rflpy_reduce_size(void) { return sizeof(rflpy_red); }
/* top: rfl-reduce --top (0: none, -1: the default 10) */
RFLPY_API int rflpy_reduce_init(void *mem, const char *hw, int by_name, int top, const char *filter,
								int locale, rfl_error *err) {
	rflpy_red *s = (rflpy_red *)mem;
	rfl_result r;
	memset(s, 0, sizeof *s);
	memset(err, 0, sizeof *err);
	if (hw && rfl_hw_find(hw, &s->hw) != RFL_OK) return rflpy_fail(err, RFL_ERR_UNKNOWN_NAME, "machine");
	s->d.machine = s->hw, s->d.locale = (rfl_locale)locale;
	s->d.top_n = top < 0 ? 0 : top == 0 ? -1 : top;
	if (filter) snprintf(s->filter, sizeof s->filter, "%s", filter), s->d.filter = s->filter;
	if ((s->by_name = by_name) != 0) s->d.groups = s->groups, s->d.group_cap = RFLPY_GROUPS;
	if ((r = rfl_reduce_init(&s->st, &s->d, s->scratch, sizeof s->scratch)) != RFL_OK) return rflpy_fail(err, r, "init failed");
	return RFL_OK;
}
RFLPY_API int rflpy_reduce_push(void *mem, const void *data, size_t len, rfl_error *err) {
	rflpy_red *s = (rflpy_red *)mem;
	rfl_result r = rfl_reduce_push(&s->st, data, len);
	*err = s->st.err;
	if (r != RFL_OK && !err->code) err->code = r;
	return r;
}
static void rflpy_red_w(rfl_json_writer *w, const void *ctx) {
	const rflpy_red *s = (const rflpy_red *)ctx;
	rfl_reduce_json(w, &s->res, s->by_name ? s->groups : 0, s->hw);
}
RFLPY_API int rflpy_reduce_finish(void *mem, char *out, size_t out_size, rfl_error *err) {
	rflpy_red *s = (rflpy_red *)mem;
	rfl_result r = s->st.err.code ? s->st.err.code : rfl_reduce_finish(&s->st, &s->res);
	if (r != RFL_OK) { *err = s->st.err; if (!err->code) err->code = r; return r; }
	return rflpy_json(rflpy_red_w, s, out, out_size, err);
}
/* the document again (a larger out after RFL_ERR_BUFFER) */
RFLPY_API int rflpy_reduce_json(const void *mem, char *out, size_t out_size, rfl_error *err) {
	memset(err, 0, sizeof *err);
	return rflpy_json(rflpy_red_w, mem, out, out_size, err);
}

/* ---- check: rfl-check ANSWERS --json ---------------------------------------- */
typedef struct rflpy_chk {
	rfl_check_answers ans;
	rfl_check_report rep;
	rfl_check_desc d;
	rfl_reduce_state st;
	rfl_reduce_result res[RFL_CHECK_MAX_MODELS];
	const rfl_reduce_result *profs[RFL_CHECK_MAX_MODELS];
	rfl_check_item items[RFL_CHECK_MAX_ITEMS];
	rfl_layer layers[RFL_ZOO_MAX_LAYERS];
	unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
	rfl_json_tok toks[RFL_CHECK_TOKS];
} rflpy_chk;
RFLPY_API size_t rflpy_check_size(void) { return sizeof(rflpy_chk); }
/* Read the answers; then the models' profiles: rflpy_check_profile
   names model i's ("" none), rflpy_check_reduce takes its bytes. */
RFLPY_API int rflpy_check_read(void *mem, const char *text, size_t len, rfl_error *err) {
	rflpy_chk *c = (rflpy_chk *)mem;
	memset(c, 0, sizeof *c);
	return rfl_check_read(text, len, c->toks, RFL_CHECK_TOKS, &c->ans, err);
}
RFLPY_API int rflpy_check_models(const void *mem) { return ((const rflpy_chk *)mem)->ans.n_models; }
RFLPY_API const char *rflpy_check_profile(const void *mem, int i, long *line) {
	const rflpy_chk *c = (const rflpy_chk *)mem;
	*line = c->ans.models[i].profile_line;
	return c->ans.models[i].profile;
}
RFLPY_API int rflpy_check_reduce(void *mem, int i, const char *text, size_t len, rfl_error *err) {
	rflpy_chk *c = (rflpy_chk *)mem;
	rfl_reduce_desc d;
	rfl_result r;
	memset(&d, 0, sizeof d);
	d.top_n = -1, d.machine = c->ans.machine;
	r = rfl_reduce_buffer(text, len, &d, c->scratch, sizeof c->scratch, &c->st, &c->res[i]);
	if (r != RFL_OK) { *err = c->st.err; if (!err->code) err->code = r; return r; }
	c->profs[i] = &c->res[i];
	return RFL_OK;
}
/* The run (tol 0: 0.02) and its JSON (rfl_check_json). */
RFLPY_API int rflpy_check_run(void *mem, double tol, int carry_credit, char *out, size_t out_size, rfl_error *err) {
	rflpy_chk *c = (rflpy_chk *)mem;
	size_t n;
	rfl_result r;
	memset(err, 0, sizeof *err);
	memset(&c->d, 0, sizeof c->d);
	c->d.tol = tol, c->d.carry_credit = carry_credit;
	c->d.layers = c->layers, c->d.layer_cap = RFL_ZOO_MAX_LAYERS, c->d.profiles = c->profs;
	if ((r = rfl_check_run(&c->ans, &c->d, c->items, RFL_CHECK_MAX_ITEMS, &c->rep)) != RFL_OK)
		return rflpy_fail(err, r, "cannot check");
	n = rfl_check_json(&c->rep, c->items, c->rep.n_items, out, out_size);
	if (n >= out_size) { rflpy_fail(err, RFL_ERR_BUFFER, "output buffer"); err->need = n + 1; return RFL_ERR_BUFFER; }
	return RFL_OK;
}

/* ---- chart: rfl-plot's roofline as PNG bytes ------------------------------- */
/* n machines by name; np points (label, ai, FLOP/s, rfl_prec): a point
   with no FLOP/s is an estimate, placed at the roof of its precision on
   every panel (rfl-plot's add_at_roofs); a measured one on the panel of
   the machine on[i] names (NULL: every panel; a machine not drawn: none).
   px[rflpy_chart_mem(w, h)]: the pixels and the points; png[size] gets
   the file, *len its length. */
#define RFLPY_POINTS 64
RFLPY_API size_t rflpy_chart_mem(int w, int h) {
	return rflpy_align(RFL_CANVAS_BYTES(w, h, 3)) + sizeof(rfl_point) * RFLPY_POINTS * 8;
}
RFLPY_API int rflpy_chart(const char *const *names, int n, const char *const *labels, const double *ai,
						  const double *fps, const int *prec, const char *const *on, int np, int w, int h, const char *title,
						  void *px, size_t px_size, void *png, size_t size, size_t *len, rfl_error *err) {
	const rfl_machine *ms[8];
	rfl_point *pts;
	rfl_roofline_desc d;
	rfl_canvas cv;
	size_t need = RFL_PNG_ARENA_CHART(w, h, 3);
	int i, k, m = 0;
	rfl_result r;
	memset(err, 0, sizeof *err);
	if (n < 1 || n > 8 || np < 0 || np > RFLPY_POINTS) return rflpy_fail(err, RFL_ERR_ARG, "1 to 8 machines, at most 64 points");
	for (i = 0; i < n; i++)
		if (rfl_hw_find(names[i], &ms[i]) != RFL_OK) {
			rflpy_fail(err, RFL_ERR_UNKNOWN_NAME, 0);
			snprintf(err->where, sizeof err->where, "%s", names[i]);
			return RFL_ERR_UNKNOWN_NAME;
		}
	if (w < 1 || h < 1 || px_size < rflpy_chart_mem(w, h)) return rflpy_fail(err, RFL_ERR_ARG, "pixels");
	pts = (rfl_point *)(void *)((unsigned char *)px + rflpy_align(RFL_CANVAS_BYTES(w, h, 3)));
	memset(pts, 0, sizeof(rfl_point) * RFLPY_POINTS * 8);
	for (i = 0; i < np; i++) {
		for (k = 0; k < (fps[i] > 0 ? 1 : n); k++) {
			rfl_point *p = &pts[m];
			p->label = labels[i], p->ai = ai[i], p->prec = (rfl_prec)prec[i];
			p->flops_per_s = fps[i], p->machine = RFL_ALL_MACHINES;
			if (fps[i] > 0 && on[i]) { /* a profile only on the machine it ran on */
				const rfl_machine *hm;
				int j, at = -1;
				if (rfl_hw_find(on[i], &hm) == RFL_OK)
					for (j = 0; j < n; j++) if (ms[j] == hm) at = j;
				if (at < 0) continue;
				p->machine = at;
			}
			if (!(fps[i] > 0))
				p->machine = k, p->estimate = 1, p->flops_per_s = rfl_attainable(ms[k], p->prec, RFL_DRAM, ai[i]);
			if (p->flops_per_s > 0) m++;
		}
	}
	if ((r = rfl_canvas_init(&cv, px, px_size, w, h, 3, 0)) != RFL_OK) return rflpy_fail(err, r, 0);
	rfl_canvas_clear(&cv, RFL_RGB(255, 255, 255));
	memset(&d, 0, sizeof d);
	d.title = title, d.machines = ms, d.n_machines = n, d.points = pts, d.n_points = m;
	r = rfl_chart_roofline(&cv, &d);
	if (r != RFL_OK && r != RFL_ERR_NO_ROOF) return rflpy_fail(err, r, 0);
	if (size < need) { rflpy_fail(err, RFL_ERR_BUFFER, "png"); err->need = need + size; return RFL_ERR_BUFFER; }
	/* the arena first, the file after it */
	if ((r = rfl_png_encode(&cv, png, need, (char *)png + need, size - need, len)) != RFL_OK) {
		rflpy_fail(err, r, "png");
		if (r == RFL_ERR_BUFFER) err->need = need + size * 2;
		return r;
	}
	memmove(png, (char *)png + need, *len);
	return RFL_OK;
}

RFLPY_API const char *rflpy_hw_id(int i) {
	const rfl_machine *m = rfl_hw_get(i);
	return m ? m->id : "";
}
