/* page.c - the classroom page's adapter: roofline.h compiled to
   WebAssembly (wasm32, freestanding: no libc), exporting what web/page.js
   calls. It only parses the page's state, calls the library and writes
   JSON; every number comes from the library.

   The reduce document is the library's own (rfl_reduce_json): the bytes
   rfl-reduce --json prints, so the page cannot drift from the CLI's
   schema. So is an estimate, a zoo model's or an LLM step's (the
   library's workload and rfl_workload_json: rfl-estimate --json's
   members, with the page's own kind, step and machine beside them).

   Memory: all static. page_in() is where the page writes its input (the
   state's strings, or one chunk of a CSV file); page_out() holds the last
   JSON answer. Nothing here allocates. */
#define RFL_NO_STDIO
#define RFL_NO_PNG
#define RFL_NO_ONNX
#define RFL_NO_PROBE
/* libm: wasm has sqrt, floor and ceil as instructions; log10 and pow are
   ours (the chart only uses them to place pixels and pick decades). */
#define RFL_SQRT(x) __builtin_sqrt(x)
#define RFL_FLOOR(x) __builtin_floor(x)
#define RFL_CEIL(x) __builtin_ceil(x)
#define RFL_LOG10(x) page_log10(x)
#define RFL_POW(x, y) page_pow(x, y)
static double page_log10(double x);
static double page_pow(double x, double y);
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"

#define EXPORT(name) __attribute__((export_name(#name))) 

/* The compiler may call these for struct copies and zeroing. */
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memcpy(void *d, const void *s, size_t n) {
	unsigned char *p = (unsigned char *)d;
	const unsigned char *q = (const unsigned char *)s;
	while (n--) *p++ = *q++;
	return d;
}
void *memset(void *d, int c, size_t n) {
	unsigned char *p = (unsigned char *)d;
	while (n--) *p++ = (unsigned char)c;
	return d;
}
void *memmove(void *d, const void *s, size_t n) {
	unsigned char *p = (unsigned char *)d;
	const unsigned char *q = (const unsigned char *)s;
	if (p < q) while (n--) *p++ = *q++;
	else while (n--) p[n] = q[n];
	return d;
}
int memcmp(const void *a, const void *b, size_t n) {
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	for (; n; n--, p++, q++) if (*p != *q) return *p - *q;
	return 0;
}

/* 128-bit multiply (low half): what clang calls on wasm32 for the
   library's 64-bit overflow checks (__builtin_mul_overflow); the
   compiler-rt builtins are not linked in a freestanding build. */
__extension__ typedef __int128 page_ti;
__extension__ typedef unsigned __int128 page_tu;
page_ti __multi3(page_ti a, page_ti b);
page_ti __multi3(page_ti a, page_ti b) {
	uint64_t al = (uint64_t)a, ah = (uint64_t)((page_tu)a >> 64);
	uint64_t bl = (uint64_t)b, bh = (uint64_t)((page_tu)b >> 64);
	uint64_t a0 = al & 0xffffffffu, a1 = al >> 32, b0 = bl & 0xffffffffu, b1 = bl >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
	uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
	uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + al * bh + ah * bl;
	return (page_ti)(((page_tu)hi << 64) | lo);
}

/* ---- log10 and pow, enough for chart axes --------------------------------
   x = m x 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s), s =
   (m - 1) / (m + 1), |s| < 0.172: the series to s^31 is below 1e-17. */
static double page_ln(double x) {
	const double ln2 = 0.69314718055994530942;
	double s, s2, t, sum = 0;
	int e = 0, k;
	if (!(x > 0)) return x == 0 ? -1e308 * 10 : (x - x) / (x - x);
	if (x > 1e308) return x; /* inf */
	while (x >= 1.4142135623730951) x *= 0.5, e++;
	while (x < 0.70710678118654752) x *= 2, e--;
	s = (x - 1) / (x + 1);
	s2 = s * s;
	t = s;
	for (k = 1; k < 40; k += 2) { sum += t / k; t *= s2; }
	return 2 * sum + e * ln2;
}
static double page_exp(double x) {
	const double ln2 = 0.69314718055994530942;
	double r, t = 1, sum = 1, p = 1;
	int k, n;
	if (x > 709) return 1e308 * 10;
	if (x < -745) return 0;
	n = (int)__builtin_floor(x / ln2 + 0.5);
	r = x - n * ln2; /* |r| <= 0.35 */
	for (k = 1; k < 25; k++) { t *= r / k; sum += t; }
	if (n > 0) while (n--) p *= 2;
	else while (n++) p *= 0.5;
	return sum * p;
}
static double page_log10(double x) {
	double l = page_ln(x) / 2.30258509299404568402, r = __builtin_floor(l + 0.5);
	/* exact decades stay exact: 1000 -> 3, not 2.9999999999999996 */
	if (__builtin_fabs(l - r) < 1e-12 && page_pow(10, r) == x) return r;
	return l;
}
static double page_pow(double x, double y) {
	double r = 1;
	if (y == __builtin_floor(y) && __builtin_fabs(y) < 400) { /* exact by squaring */
		double b = y < 0 ? 1 / x : x;
		long n = (long)(y < 0 ? -y : y);
		while (n) { if (n & 1) r *= b; b *= b; n >>= 1; }
		return r;
	}
	return page_exp(y * page_ln(x));
}

/* ---- buffers ---------------------------------------------------------------- */
#define IN_SIZE (1u << 20)   /* one CSV chunk or the state's strings */
#define OUT_SIZE (4u << 20)  /* the JSON answer (the largest zoo model's
								layers take about 400 KB) */
#define CHART_MAX_W 2400
#define CHART_MAX_H 1600
static char in_buf[IN_SIZE + 1];
static char out_buf[OUT_SIZE];
static char fmt_buf[64];
static unsigned char pixels[CHART_MAX_W * CHART_MAX_H * 4];

EXPORT(page_in) char *page_in(void) { return in_buf; }
EXPORT(page_in_size) int page_in_size(void) { return (int)IN_SIZE; }
EXPORT(page_out) const char *page_out(void) { return out_buf; }
EXPORT(page_fmt) const char *page_fmt(void) { return fmt_buf; }
EXPORT(page_pixels) unsigned char *page_pixels(void) { return pixels; }

/* The library's number formats, for the page's text: the exact value as
   the tools' JSON writes it (15 significant digits), and "19.5 T". */
EXPORT(page_fmt_num) int page_fmt_num(double v, int sig) {
	return (int)rfl_fmt_num(fmt_buf, sizeof fmt_buf, v, sig);
}
EXPORT(page_fmt_si) int page_fmt_si(double v, int sig) {
	return (int)rfl_fmt_si(fmt_buf, sizeof fmt_buf, v, sig);
}

/* ---- answers: JSON documents into out_buf, through the library's writer -- */
/* The answer's length, or -1 when it did not fit. */
static int json_done(rfl_json_writer *w) {
	return rfl_json_w_finish(w) == RFL_OK ? (int)w->len : -1;
}

static int error_json(const char *what, const char *detail) {
	rfl_json_writer w;
	rfl_json_w_init(&w, out_buf, OUT_SIZE);
	rfl_json_w_obj(&w, 0);
	rfl_json_w_str(&w, "error", what);
	if (detail) rfl_json_w_str(&w, "detail", detail);
	rfl_json_w_end(&w);
	return json_done(&w);
}

/* A reader's error: {"error", "field", "line", "col", "offset"}. */
static int error_at_json(const rfl_error *e, rfl_result r) {
	rfl_json_writer w;
	rfl_json_w_init(&w, out_buf, OUT_SIZE);
	rfl_json_w_obj(&w, 0);
	rfl_json_w_str(&w, "error", e->msg[0] ? e->msg : rfl_result_str(r));
	rfl_json_w_str(&w, "field", e->where);
	rfl_json_w_u64(&w, "line", e->line);
	rfl_json_w_u64(&w, "col", e->col);
	rfl_json_w_u64(&w, "offset", e->offset);
	rfl_json_w_end(&w);
	return json_done(&w);
}

/* ---- the lists for the page's controls ----------------------------------- */
EXPORT(page_list) int page_list(void) {
	rfl_json_writer w;
	int i;
	rfl_json_w_init(&w, out_buf, OUT_SIZE);
	rfl_json_w_obj(&w, 0);
	rfl_json_w_str(&w, "version", rfl_version());
	rfl_json_w_arr(&w, "models");
	for (i = 0; i < rfl_zoo_count(); i++) rfl_json_w_str(&w, 0, rfl_zoo_name(i));
	rfl_json_w_end(&w);
	rfl_json_w_arr(&w, "llms");
	for (i = 0; i < rfl_llm_count(); i++) rfl_json_w_str(&w, 0, rfl_llm_name(i));
	rfl_json_w_end(&w);
	rfl_json_w_arr(&w, "machines");
	for (i = 0; i < rfl_hw_count(); i++) {
		const rfl_machine *m = rfl_hw_get(i);
		rfl_json_w_obj(&w, 0);
		rfl_json_w_str(&w, "id", m->id);
		rfl_json_w_str(&w, "name", m->name);
		rfl_json_w_str(&w, "aliases", m->aliases);
		rfl_json_w_str(&w, "kind", rfl_kind_name(m->kind));
		rfl_json_w_end(&w);
	}
	rfl_json_w_end(&w);
	rfl_json_w_end(&w);
	return json_done(&w);
}

/* ---- a machine: rfl-hw NAME --json (the npm package's hw) ---------------- */
/* page_hw(): in_buf holds the name. The machine as a machine file, the
   library's writer (rfl_machine_file_write), or {"error", "detail"}. */
EXPORT(page_hw) int page_hw(void) {
	static rfl_machine_file one;
	const rfl_machine *m;
	rfl_json_writer w;
	in_buf[IN_SIZE] = 0;
	if (rfl_hw_find(in_buf, &m) != RFL_OK) return error_json("unknown machine", in_buf);
	memset(&one, 0, sizeof one);
	one.machine = *m;
	rfl_json_w_init(&w, out_buf, OUT_SIZE);
	rfl_json_w_obj(&w, 0);
	rfl_machine_file_write(&w, &one);
	rfl_json_w_end(&w);
	return json_done(&w);
}

/* ---- the state: strings the page wrote into in_buf, NUL-separated ------- */
typedef struct page_state {
	const char *model, *hw, *dtype, *mode, *phase;
	uint64_t batch, seq;
	int seq_set; /* seq given (>= 0); else the library's default step */
} page_state;

static void state_read(page_state *s, double batch, double seq) {
	const char **f[5];
	char *p = in_buf;
	int k;
	f[0] = &s->model, f[1] = &s->hw, f[2] = &s->dtype, f[3] = &s->mode, f[4] = &s->phase;
	in_buf[IN_SIZE] = 0;
	for (k = 0; k < 5; k++) {
		*f[k] = p;
		while (*p && p < in_buf + IN_SIZE) p++;
		if (p < in_buf + IN_SIZE) p++;
	}
	s->batch = batch >= 1 && batch <= 1099511627776.0 ? (uint64_t)batch : 0;
	s->seq = seq >= 0 && seq <= 1099511627776.0 ? (uint64_t)seq : 0;
	s->seq_set = !(seq < 0);
}

/* The last estimate, kept for the chart. */
static struct {
	int ok;
	const rfl_machine *hw;
	rfl_work work; /* the step's whole work: FLOPs per precision, DRAM bytes */
	double time_s; /* predicted (per layer or row, summed) */
	char label[96];
	char title[96];
} est;

/* The machine under the roof of prec: its roof as every document writes
   it (rfl_roof_json), then the page's own memory, peaks and source. */
static void machine_w(rfl_json_writer *w, const char *key, const rfl_machine *m, rfl_prec prec) {
	int p;
	rfl_json_w_obj(w, key);
	rfl_roof_json(w, m, prec); /* the library's one spelling of a roof */
	rfl_json_w_num_if(w, "mem_bytes", m->mem_bytes > 0, m->mem_bytes);
	rfl_json_w_obj(w, "peaks");
	for (p = 0; p < RFL_PREC_COUNT; p++)
		if (m->peak_flops[p] > 0) rfl_json_w_num(w, rfl_prec_name((rfl_prec)p), m->peak_flops[p]);
	rfl_json_w_end(w);
	rfl_json_w_str(w, "source", m->source);
	rfl_json_w_end(w);
}
/* dst = a + b + c, cut to size */
static void cat3(char *dst, size_t size, const char *a, const char *b, const char *c) {
	size_t n = 0;
	const char *parts[3];
	int k;
	parts[0] = a, parts[1] = b, parts[2] = c;
	for (k = 0; k < 3; k++)
		for (; *parts[k] && n + 1 < size; parts[k]++) dst[n++] = *parts[k];
	dst[n] = 0;
}
static void label_set(const char *model, const char *what) {
	cat3(est.label, sizeof est.label, model, " ", what);
	cat3(est.title, sizeof est.title, "Roofline of ", model, "");
}

/* ---- an estimate: rfl-estimate MODEL --hw H --json --------------------------
   The library's workload (a zoo model or a decoder LLM at the page's step;
   its records: enough for the largest built-in, llama-3-70b's 80 layers),
   its JSON, and the page's own kind, step and machine beside them. */
#ifndef RFL_NO_LLM
#define PAGE_RECS RFL_LLM_NET_LAYERS(80)
#else
#define PAGE_RECS RFL_ZOO_MAX_LAYERS
#endif
/* rfl_workload_load's arena (the config, records, names); the checker's records */
static rfl_layer arena[PAGE_RECS + PAGE_RECS * RFL_WL_NAMES(1) / sizeof(rfl_layer) + 16];

static int model_estimate(const page_state *s, const rfl_machine *hw, int runtime) {
	static rfl_workload wl;
	static rfl_forecast fc;
	rfl_workload_json_desc jd;
	rfl_forecast_desc fd;
	rfl_result fr = RFL_ERR_ARG;
	rfl_workload_desc d;
	rfl_net_cost tot;
	rfl_net_prediction np;
	rfl_json_writer w;
	rfl_result r;
	rfl_work all;
	rfl_prec prec;
	int llm;
	memset(&d, 0, sizeof d);
	d.cost.batch = s->batch;
	if (s->dtype[0] && (rfl_dtype_parse(s->dtype, &d.cost.dtype) != RFL_OK || d.cost.dtype == RFL_DTYPE_INT4))
		return error_json("unknown dtype", s->dtype);
	d.cost.mode = s->mode[0] == 't' ? RFL_MODE_TRAIN : RFL_MODE_INFER;
	d.phase = s->phase[0] == 'p' ? RFL_WL_PREFILL : s->phase[0] == 'd' ? RFL_WL_DECODE : 0;
	d.seq = s->seq, d.seq_set = s->seq_set, d.model = s->model;
	r = rfl_workload_load(&wl, &d, arena, sizeof arena);
	if (r == RFL_ERR_UNKNOWN_NAME) return error_json("unknown model", s->model);
	if (r != RFL_OK) return error_json(rfl_result_str(r), wl.err.msg[0] ? wl.err.msg : s->model);
	llm = wl.source == RFL_WL_LLM;
	if ((r = rfl_net_cost_get(&wl.net, &wl.cost, &tot)) != RFL_OK) return error_json(rfl_result_str(r), wl.name);
	r = rfl_net_predict(&wl.net, &wl.cost, hw, &np);
	if (r == RFL_ERR_NO_ROOF)
		return error_json("no roof", "this machine has no roof for the precision of this dtype's work");
	if (r != RFL_OK) return error_json(rfl_result_str(r), wl.name);
	all = tot.forward;
	if (wl.cost.mode == RFL_MODE_TRAIN) rfl_work_add(&all, &tot.backward);
	prec = rfl_work_main_prec(&all);
	/* the forecast at runtime - 1 (rfl_runtime; 0: none): rfl-estimate --forecast's */
	memset(&fd, 0, sizeof fd);
	memset(&jd, 0, sizeof jd);
	fd.runtime = (rfl_runtime)(runtime - 1);
	if (runtime > 0 && (fr = rfl_workload_forecast(&wl, hw, &fd, &fc)) == RFL_OK) jd.forecast = &fc;

	rfl_json_w_init(&w, out_buf, OUT_SIZE);
	rfl_json_w_obj(&w, 0);
	rfl_json_w_str(&w, "kind", llm ? "llm" : "zoo");
	rfl_workload_json(&w, &wl, hw, &jd); /* rfl-estimate --json's members */
	if (runtime > 0 && fr != RFL_OK) { /* no forecast for this machine or runtime: say why */
		rfl_json_w_null(&w, "forecast");
		rfl_json_w_str(&w, "forecast_error", fr == RFL_ERR_UNSUPPORTED ? "fused is the runtime of a decoder LLM's inference"
					   : fr == RFL_ERR_NO_DATA ? "no forecast terms for this machine (a GPU's)" : rfl_result_str(fr));
	}
	/* the page's own: the step's totals and its roof, for the explanation */
	rfl_json_w_obj(&w, "step");
	rfl_json_w_num(&w, "flops", rfl_work_flops(&all));
	rfl_json_w_num(&w, "bytes", all.bytes[RFL_DRAM]);
	rfl_json_w_num(&w, "ai", rfl_work_ai(&all, RFL_DRAM));
	rfl_json_w_num(&w, "whole_compute_s", np.whole.compute_s);
	rfl_json_w_num(&w, "whole_memory_s", np.whole.memory_s);
	rfl_json_w_num_if(&w, "attainable_flops_per_s", rfl_work_attainable(hw, &all, prec, 0) > 0, rfl_work_attainable(hw, &all, prec, 0));
	rfl_json_w_end(&w);
	machine_w(&w, "machine", hw, prec);
	rfl_json_w_end(&w);

	est.ok = 1, est.hw = hw, est.work = all, est.time_s = np.layers_s;
	label_set(wl.name, !llm ? "estimate (" RFL_ESTIMATE_NOTE ")"
					   : wl.phase == RFL_LLM_PREFILL ? "prefill est. (" RFL_ESTIMATE_NOTE ")"
													 : "decode est. (" RFL_ESTIMATE_NOTE ")");
	return json_done(&w);
}

/* page_estimate(batch, seq, runtime): in_buf holds model, hw, dtype, mode, phase
   (NUL-separated; "" = the default); seq < 0: the library's default step;
   runtime 1 + rfl_runtime adds the forecast (0: none). Returns the JSON's length, -1 when
   it did not fit; the JSON has "error" when the state is wrong. */
EXPORT(page_estimate) int page_estimate(double batch, double seq, int runtime) {
	page_state s;
	const rfl_machine *hw;
	state_read(&s, batch, seq);
	est.ok = 0;
	if (rfl_hw_find(s.hw, &hw) != RFL_OK) return error_json("unknown machine", s.hw);
	return model_estimate(&s, hw, runtime);
}

/* ---- the reducer: a CSV pushed in chunks --------------------------------- */
static rfl_reduce_state rst;
static rfl_reduce_result rres;
static unsigned char rscratch[RFL_REDUCE_SCRATCH_DEFAULT];
static const rfl_machine *rhw;
static int rdone;

/* page_reduce_begin(): in_buf holds the machine's name ("" = none). */
EXPORT(page_reduce_begin) int page_reduce_begin(void) {
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	in_buf[IN_SIZE] = 0;
	rhw = 0;
	rdone = 0;
	if (in_buf[0] && rfl_hw_find(in_buf, &rhw) != RFL_OK) rhw = 0;
	d.machine = rhw;
	return (int)rfl_reduce_init(&rst, &d, rscratch, sizeof rscratch);
}

/* page_reduce_push(n): the next n bytes of the file, in in_buf. 0 = go on;
   otherwise the (sticky) error: page_reduce_end says where. */
EXPORT(page_reduce_push) int page_reduce_push(int n) {
	if (n < 0 || (unsigned)n > IN_SIZE) return (int)RFL_ERR_ARG;
	if (rst.err.code) return (int)rst.err.code;
	return (int)rfl_reduce_push(&rst, in_buf, (size_t)n);
}

static int known(const rfl_kernel_stat *k, unsigned bits) { return (k->work.unknown & bits) == 0; }
static unsigned prec_bits(int from) {
	unsigned b = 0;
	int p;
	for (p = from; p < RFL_PREC_COUNT; p++) b |= RFL_UNKNOWN_FLOPS(p);
	return b;
}
static int flops_known(const rfl_kernel_stat *k) {
	return (k->work.unknown & prec_bits(0)) != prec_bits(0);
}
static int ai_known(const rfl_kernel_stat *k, rfl_level l) {
	return flops_known(k) && known(k, RFL_UNKNOWN_BYTES(l)) && k->bytes[l] > 0;
}
static int fps_known(const rfl_kernel_stat *k) {
	return flops_known(k) && known(k, RFL_UNKNOWN_TIME) && k->time_ns > 0;
}

/* page_reduce_end(): rfl-reduce FILE --hw H --json's document, written by
   the library (rfl_reduce_json), or {"error", "line", "col", "offset"}.
   Returns its length, or -1 when out_buf is too small. */
EXPORT(page_reduce_end) int page_reduce_end(void) {
	rfl_result r = rst.err.code ? rst.err.code : rfl_reduce_finish(&rst, &rres);
	rfl_json_writer w;
	rdone = 0;
	if (r != RFL_OK) {
		return error_at_json(&rst.err, r);
	}
	rdone = 1;
	rfl_json_w_init(&w, out_buf, OUT_SIZE);
	rfl_reduce_json(&w, &rres, 0, rhw);
	return json_done(&w);
}

/* ---- the checker: an answer file pasted or dropped ------------------------
   page_check(n): the answer file's n bytes in in_buf. The measured values
   are checked against the profile dropped on the page (for every model
   whose answer names a profile); without one they stay unchecked. Returns
   the length of rfl-check --json's object, or of {"error", "field",
   "line", "col"}. */
#ifndef RFL_NO_CHECK
static rfl_json_tok ctoks[RFL_CHECK_TOKS * 4];
static rfl_check_answers cans;
static rfl_check_item citems[RFL_CHECK_MAX_ITEMS];

EXPORT(page_check) int page_check(int n) {
	rfl_error err;
	rfl_check_desc d;
	rfl_check_report rep;
	const rfl_reduce_result *prof[RFL_CHECK_MAX_MODELS];
	rfl_result r;
	size_t len;
	int i;
	if (n < 0 || (unsigned)n > IN_SIZE) return error_json("an answer file is at most 1 MiB", 0);
	r = rfl_check_read(in_buf, (size_t)n, ctoks, (int)(sizeof ctoks / sizeof ctoks[0]), &cans, &err);
	if (r != RFL_OK) {
		return error_at_json(&err, r);
	}
	memset(&d, 0, sizeof d);
	d.layers = arena, d.layer_cap = RFL_ZOO_MAX_LAYERS;
	for (i = 0; i < cans.n_models; i++) prof[i] = rdone && cans.models[i].profile[0] ? &rres : 0;
	d.profiles = prof;
	r = rfl_check_run(&cans, &d, citems, RFL_CHECK_MAX_ITEMS, &rep);
	if (r != RFL_OK) return error_json("cannot check", rfl_result_str(r));
	len = rfl_check_json(&rep, citems, rep.n_items, out_buf, OUT_SIZE);
	return len < OUT_SIZE ? (int)len : -1;
}
#endif

/* ---- the chart --------------------------------------------------------------
   page_chart(w, h, measured): the roofline of the last estimate's machine
   with the estimate (hollow) and, when measured and a profile was
   reduced, the profile (filled), into page_pixels() as RGBA. Returns 0, or
   an rfl_result (the chart may still be partly drawn). */
EXPORT(page_chart) int page_chart(int w, int h, int measured) {
	rfl_canvas c;
	rfl_roofline_desc d;
	rfl_point pt[2];
	const rfl_machine *m[1];
	int n = 0;
	rfl_result r;
	if (w < 1 || h < 1 || w > CHART_MAX_W || h > CHART_MAX_H) return (int)RFL_ERR_ARG;
	if ((r = rfl_canvas_init(&c, pixels, sizeof pixels, w, h, 4, 0)) != RFL_OK) return (int)r;
	rfl_canvas_clear(&c, RFL_RGB(255, 255, 255));
	if (!est.ok) return (int)RFL_ERR_NO_DATA;
	memset(pt, 0, sizeof pt);
	memset(&d, 0, sizeof d);
	m[0] = est.hw;
	if (est.time_s > 0 && est.work.bytes[RFL_DRAM] > 0) {
		pt[n].label = est.label;
		pt[n].ai = rfl_work_ai(&est.work, RFL_DRAM);
		pt[n].flops_per_s = rfl_estimate_flops_per_s(rfl_work_flops(&est.work), est.time_s);
		pt[n].prec = rfl_work_main_prec(&est.work);
		pt[n].estimate = 1;
		pt[n].link = 1;
		n++;
	}
	if (measured && rdone) {
		const rfl_kernel_stat *t = &rres.total;
		rfl_prec mp = rfl_work_main_prec(&t->work);
		if (fps_known(t) && ai_known(t, RFL_DRAM) && est.hw->peak_flops[mp] > 0) {
			rfl_bound b;
			rfl_work_attainable(est.hw, &t->work, mp, &b); /* at the AI of the level that binds */
			pt[n].level = b.memory ? b.level : RFL_DRAM;
			pt[n].label = pt[n].level == RFL_DRAM ? "your profile (measured)"
						: pt[n].level == RFL_L2 ? "your profile (measured, L2 AI)" : "your profile (measured, L1 AI)";
			pt[n].ai = rfl_work_ai(&t->work, pt[n].level);
			pt[n].flops_per_s = rfl_work_flops(&t->work) / t->work.time_s;
			pt[n].prec = mp;
			pt[n].link = 1;
			n++;
		}
	}
	d.title = est.title;
	d.machines = m;
	d.n_machines = 1;
	d.points = pt;
	d.n_points = n;
	d.prec = n ? pt[0].prec : RFL_FP32;
	return (int)rfl_chart_roofline(&c, &d);
}
