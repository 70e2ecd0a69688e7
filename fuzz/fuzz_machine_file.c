/* fuzz_machine_file.c - the machine-file reader (rfl_machine_file_parse)
   on arbitrary bytes. Byte 0 picks the token array size (1..256), byte 1
   the string buffer size (0..1020); the rest is the file, copied to a heap
   block of its exact size so that ASan sees any read past it.
   Properties:
   - an error has its code, a message, a NUL-terminated field, a line and
	 column inside the input (line <= lines of the input), and leaves the
	 machines zeroed;
   - RFL_ERR_BUFFER: parsing again with the sizes it asked for
	 (err.need for the buffer err.where names) no longer fails for that buffer;
   - a machine that parses has a name, a kind in range, finite ceilings
	 >= 0 with at least one peak and one bandwidth > 0, strings inside the
	 string buffer or the library's defaults; a measured copy has at least
	 one measured ceiling > 0 and the machine's id;
   - its link is NULL or the file's own (both machines the same), its kind
	 in range, its figures finite and >= 0, an all-reduce fit with a bus
	 bandwidth > 0, its strings inside the string buffer or "";
   - written back with the library's writer (rfl_machine_file_print: what
	 rfl-hw --json prints) and read again, it is the same machine (figures
	 to 15 digits). */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#define RFL_NO_REDUCE
#include "roofline.h"
#include "fuzz_util.h"
#include <math.h>

static rfl_json_tok toks[4096];
static char strs[65536];

static long count_lines(const char *s, size_t n) {
	long l = 1;
	size_t i;
	for (i = 0; i < n; i++) l += s[i] == '\n';
	return l;
}

static void check_error(rfl_result r, const rfl_error *e, const rfl_machine_file *mf,
						const char *s, size_t n) {
	FZ_CHECK(e->code == r);
	FZ_CHECK(e->msg[0] && memchr(e->msg, 0, sizeof e->msg) != NULL);
	FZ_CHECK(memchr(e->where, 0, sizeof e->where) != NULL);
	if (r == RFL_ERR_BUFFER)
		FZ_CHECK((!strcmp(e->where, "toks") || !strcmp(e->where, "strbuf")) && e->need > 0);
	FZ_CHECK(mf->machine.name == NULL && mf->has_measured == 0);
	if (r != RFL_ERR_BUFFER) {
		FZ_CHECK(e->line >= 1 && e->line <= (uint64_t)count_lines(s, n));
		FZ_CHECK(e->col >= 1 && e->offset <= n);
	}
}

static int in_strs(const char *p, size_t size) {
	return p >= strs && p < strs + size;
}

static void check_machine(const rfl_machine *m, size_t strsize, int measured) {
	int i, peaks = 0, bws = 0;
	FZ_CHECK(m->name && m->id && m->aliases && m->source);
	FZ_CHECK(in_strs(m->name, strsize));
	FZ_CHECK(m->kind >= RFL_KIND_GPU && m->kind <= RFL_KIND_SOC);
	for (i = 0; i < RFL_PREC_COUNT; i++) {
		FZ_CHECK(isfinite(m->peak_flops[i]) && m->peak_flops[i] >= 0);
		peaks += m->peak_flops[i] > 0;
	}
	for (i = 0; i < RFL_LEVEL_COUNT; i++) {
		FZ_CHECK(isfinite(m->bw_bytes_per_s[i]) && m->bw_bytes_per_s[i] >= 0);
		bws += m->bw_bytes_per_s[i] > 0;
	}
	FZ_CHECK(measured ? peaks + bws > 0 : peaks > 0 && bws > 0);
	FZ_CHECK(isfinite(m->mem_bytes) && m->mem_bytes >= 0 && isfinite(m->l2_bytes) &&
			 m->l2_bytes >= 0 && isfinite(m->boost_mhz) && m->boost_mhz >= 0 &&
			 isfinite(m->tdp_w) && m->tdp_w >= 0 && m->units >= 0);
}

static void check_link(const rfl_machine_file *mf, size_t strsize) {
	const rfl_link *l = mf->machine.link;
	const double v[6] = {l ? l->bw_bytes_per_s : 0, l ? l->latency_s : 0, l ? l->ar_base_s : 0,
						 l ? l->ar_step_s : 0, l ? l->ar_busbw : 0, l ? l->ar_eager_s : 0};
	int i;
	FZ_CHECK(l == NULL || l == &mf->link);
	if (mf->has_measured) FZ_CHECK(mf->measured.link == l);
	if (!l) return;
	FZ_CHECK(l->kind >= RFL_LINK_UNKNOWN && l->kind < RFL_LINK_KIND_COUNT);
	FZ_CHECK(l->gen >= 0 && l->lanes >= 0 && l->gpus_per_node >= 0 && l->ar_gpus >= 0);
	for (i = 0; i < 6; i++) FZ_CHECK(isfinite(v[i]) && v[i] >= 0);
	FZ_CHECK(l->source && (!*l->source || in_strs(l->source, strsize)));
	FZ_CHECK(l->ar_source && (!*l->ar_source || in_strs(l->ar_source, strsize)));
	/* an "allreduce" object always has its bus bandwidth */
	if (l->ar_base_s > 0 || l->ar_step_s > 0 || l->ar_eager_s > 0 || l->ar_gpus > 0 || *l->ar_source)
		FZ_CHECK(l->ar_busbw > 0);
}

/* 15 digits written, read back: equal to 1e-14; subnormals keep fewer
   digits (no such ceiling means anything) */
static int near(double a, double b) { return fabs(a - b) <= 1e-14 * fabs(a) || fabs(a) < 1e-290; }

static int same_link(const rfl_link *a, const rfl_link *b) {
	if (!a || !b) return a == b;
	return a->kind == b->kind && a->gen == b->gen && a->lanes == b->lanes &&
		   a->gpus_per_node == b->gpus_per_node && a->ar_gpus == b->ar_gpus &&
		   strcmp(a->source, b->source) == 0 && near(a->bw_bytes_per_s, b->bw_bytes_per_s) &&
		   near(a->latency_s, b->latency_s) &&
		   (a->ar_busbw > 0 ? strcmp(a->ar_source, b->ar_source) == 0 && near(a->ar_base_s, b->ar_base_s) &&
								  near(a->ar_step_s, b->ar_step_s) && near(a->ar_busbw, b->ar_busbw) &&
								  near(a->ar_eager_s, b->ar_eager_s)
							: b->ar_busbw == 0);
}

static int same(const rfl_machine *a, const rfl_machine *b) {
	int i, ok = strcmp(a->name, b->name) == 0 && strcmp(a->id, b->id) == 0 &&
				strcmp(a->aliases, b->aliases) == 0 && strcmp(a->source, b->source) == 0 &&
				a->kind == b->kind && a->units == b->units && near(a->mem_bytes, b->mem_bytes) &&
				near(a->l2_bytes, b->l2_bytes) && near(a->boost_mhz, b->boost_mhz) &&
				near(a->tdp_w, b->tdp_w);
	for (i = 0; i < RFL_PREC_COUNT; i++) ok &= near(a->peak_flops[i], b->peak_flops[i]);
	for (i = 0; i < RFL_LEVEL_COUNT; i++) ok &= near(a->bw_bytes_per_s[i], b->bw_bytes_per_s[i]);
	return ok && same_link(a->link, b->link);
}

/* Written back and read again: the same machine. Strings the writer
   cannot keep (NUL and bytes the reader decodes to '?') are skipped. */
static void check_round_trip(const rfl_machine_file *mf) {
	static char text[1 << 17];
	static rfl_json_tok t2[4096];
	static char s2[1 << 17];
	rfl_machine_file back;
	rfl_error e;
	size_t len = rfl_machine_file_print(text, sizeof text, mf) - 1;
	rfl_result r;
	if (len >= sizeof text - 1) return;
	r = rfl_machine_file_parse(text, len, t2, 4096, s2, sizeof s2, &back, &e);
	if (r != RFL_OK) fprintf(stderr, "round trip: %s: %s: %s\n%.*s\n", rfl_result_str(r), e.where, e.msg, (int)len, text);
	FZ_CHECK(r == RFL_OK);
	FZ_CHECK(same(&mf->machine, &back.machine));
	FZ_CHECK(back.has_measured == mf->has_measured);
	if (mf->has_measured) FZ_CHECK(same(&mf->measured, &back.measured));
}

/* What a round trip cannot keep is not checked: strings with a \u escape
   (NUL ends a C string; non-ASCII becomes '?') and figures within 15
   digits of DBL_MAX (written rounded up, they overflow). */
static int round_trippable(const char *s, size_t n, const rfl_machine_file *mf) {
	size_t i;
	int k;
	for (i = 0; i + 1 < n; i++)
		if (s[i] == '\\' && s[i + 1] == 'u') return 0;
	for (k = 0; k < 2; k++) {
		const rfl_machine *m = k ? &mf->measured : &mf->machine;
		for (i = 0; i < RFL_PREC_COUNT; i++) if (m->peak_flops[i] > 1e300) return 0;
		for (i = 0; i < RFL_LEVEL_COUNT; i++) if (m->bw_bytes_per_s[i] > 1e300) return 0;
		if (m->mem_bytes > 1e300 || m->l2_bytes > 1e300 || m->boost_mhz > 1e300 || m->tdp_w > 1e300)
			return 0;
	}
	if (mf->machine.link) {
		const rfl_link *l = mf->machine.link;
		if (l->bw_bytes_per_s > 1e300 || l->latency_s > 1e300 || l->ar_base_s > 1e300 ||
			l->ar_step_s > 1e300 || l->ar_busbw > 1e300 || l->ar_eager_s > 1e300)
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	rfl_machine_file mf;
	rfl_error e;
	rfl_result r;
	int ntoks;
	size_t strsize, n;
	char *text;
	if (size < 2) return 0;
	ntoks = 1 + data[0];
	strsize = (size_t)data[1] * 4;
	n = size - 2;
	text = (char *)malloc(n ? n : 1);
	memcpy(text, data + 2, n);
	r = rfl_machine_file_parse(text, n, toks, ntoks, strs, strsize, &mf, &e);
	if (r != RFL_OK) {
		check_error(r, &e, &mf, text, n);
		if (r == RFL_ERR_BUFFER) {
			int short_toks = !strcmp(e.where, "toks");
			int nt = short_toks && e.need > (uint64_t)ntoks ? (int)e.need : ntoks;
			size_t ns = !short_toks && e.need > strsize ? (size_t)e.need : strsize;
			if (nt <= 4096 && ns <= sizeof strs) {
				rfl_error e2;
				r = rfl_machine_file_parse(text, n, toks, nt, strs, ns, &mf, &e2);
				/* the tokens were the first limit: the strings may be next */
				if (short_toks) FZ_CHECK(!(r == RFL_ERR_BUFFER && !strcmp(e2.where, "toks")));
				else FZ_CHECK(r == RFL_OK);
				strsize = ns;
			}
		}
	}
	if (r == RFL_OK) {
		check_machine(&mf.machine, strsize, 0);
		check_link(&mf, strsize);
		if (mf.has_measured) {
			check_machine(&mf.measured, strsize, 1);
			FZ_CHECK(mf.measured.id == mf.machine.id);
		}
		if (round_trippable(text, n, &mf)) check_round_trip(&mf);
	}
	free(text);
	return 0;
}
