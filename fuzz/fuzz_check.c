/* fuzz_check.c - the answer-file reader (rfl_check_read) and the checker
   (rfl_check_run, its JSON writers) on arbitrary bytes. Byte 0 picks the
   token array size (1..1024, in steps of 4), byte 1 the tolerance and the
   carried credit; the rest is the file, copied to a heap block of its
   exact size so that ASan sees any read past it.
   Properties:
   - an error has its code, a message, a NUL-terminated field and, unless
	 it is about sizes, a line and column inside the input;
   - too few tokens: reading again with err.need of them gets past the
	 tokenizer;
   - a file that reads has a machine, 1 <= batch, at most 8 models with
	 NUL-terminated names, finite values >= 0;
   - its check returns OK or a documented code (no roof for the dtype,
	 a count overflow at a huge batch); with OK: 3 + 13 items per model
	 (12 in inference, 12 for an LLM), verdicts and codes in range, messages
	 NUL-terminated, 0 <= score <= max_score, and both JSON writers' text
	 is as long as their count mode said and parses as JSON;
   - an unreadable value is not given, and its line and column lie inside
	 the input;
   - the same bytes as Gradescope's submission metadata
	 (rfl_check_submitter): OK with a NUL-terminated name, or a
	 documented error with its message. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"
#include <math.h>

static rfl_json_tok toks[1024], toks2[RFL_CHECK_TOKS * 4];
static rfl_layer layers[RFL_LLM_NET_LAYERS(80)];
static rfl_check_answers ans;
static rfl_check_item items[RFL_CHECK_MAX_ITEMS];
static char out[1 << 17];

static long count_lines(const char *s, size_t n) {
	long l = 1;
	size_t i;
	for (i = 0; i < n; i++) l += s[i] == '\n';
	return l;
}

static void check_json(size_t need, size_t wrote) {
	rfl_json_doc doc;
	FZ_CHECK(need == wrote);
	if (wrote >= sizeof out) return;
	FZ_CHECK(strlen(out) == wrote);
	FZ_CHECK(rfl_json_parse(&doc, out, wrote, toks2, RFL_CHECK_TOKS * 4) == RFL_OK);
}

static void check_run(const uint8_t cfg) {
	rfl_check_desc d;
	rfl_check_report rep;
	rfl_result r;
	int i, want = 3;
	memset(&d, 0, sizeof d);
	d.tol = (cfg & 3) * 0.02;
	d.carry_credit = (cfg >> 2) & 1;
	d.layers = layers, d.layer_cap = (int)(sizeof layers / sizeof layers[0]);
	r = rfl_check_run(&ans, &d, items, RFL_CHECK_MAX_ITEMS, &rep);
	FZ_CHECK(r == RFL_OK || r == RFL_ERR_NO_ROOF || r == RFL_ERR_OVERFLOW || r == RFL_ERR_SHAPE);
	if (r != RFL_OK) return;
	for (i = 0; i < ans.n_models; i++) want += ans.models[i].llm || ans.mode != RFL_MODE_TRAIN ? 12 : 13;
	FZ_CHECK(rep.n_items == want);
	FZ_CHECK(rep.score >= 0 && rep.score <= rep.max_score);
	FZ_CHECK(rep.n_ok + rep.n_wrong + rep.n_missing + rep.n_unchecked == rep.n_items);
	for (i = 0; i < rep.n_items; i++) {
		FZ_CHECK((unsigned)items[i].verdict <= RFL_VERDICT_UNCHECKED);
		FZ_CHECK((unsigned)items[i].diagnosis < RFL_DIAG_COUNT);
		FZ_CHECK(memchr(items[i].message, 0, sizeof items[i].message) != NULL);
		FZ_CHECK(memchr(items[i].field, 0, sizeof items[i].field) != NULL);
		FZ_CHECK(items[i].points <= items[i].max_points);
	}
	check_json(rfl_check_json(&rep, items, rep.n_items, 0, 0),
			   rfl_check_json(&rep, items, rep.n_items, out, sizeof out));
	check_json(rfl_check_gradescope(&rep, items, rep.n_items, 0, 0),
			   rfl_check_gradescope(&rep, items, rep.n_items, out, sizeof out));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	rfl_error e;
	rfl_result r;
	int ntoks, i, f;
	size_t n;
	char *text;
	if (size < 2) return 0;
	ntoks = 1 + data[0] * 4;
	n = size - 2;
	text = (char *)malloc(n ? n : 1);
	if (!text) return 0;
	memcpy(text, data + 2, n);
	{
		char who[64];
		r = rfl_check_submitter(text, n, toks, ntoks, data[1] & 1 ? "email" : "name", who, sizeof who, &e);
		FZ_CHECK(r == RFL_OK || r == RFL_ERR_SYNTAX || r == RFL_ERR_BUFFER || r == RFL_ERR_MISSING);
		if (r == RFL_OK) FZ_CHECK(memchr(who, 0, sizeof who) != NULL && who[0]);
		else FZ_CHECK(e.code == r && e.msg[0]);
	}
	r = rfl_check_read(text, n, toks, ntoks, &ans, &e);
	if (r != RFL_OK) {
		FZ_CHECK(e.code == r);
		FZ_CHECK(e.msg[0]);
		FZ_CHECK(memchr(e.where, 0, sizeof e.where) != NULL);
		if (r != RFL_ERR_BUFFER) {
			FZ_CHECK(e.line >= 1 && e.line <= (uint64_t)count_lines(text, n));
			FZ_CHECK(e.col >= 1 && e.offset <= n);
		} else if (e.need > 0) {
			FZ_CHECK(e.need > (uint64_t)ntoks);
			if (e.need <= sizeof toks2 / sizeof toks2[0]) {
				r = rfl_check_read(text, n, toks2, (int)e.need, &ans, &e);
				FZ_CHECK(r != RFL_ERR_BUFFER || e.need == 0);
			}
		}
		free(text);
		return 0;
	}
	FZ_CHECK(ans.machine != NULL && ans.batch >= 1);
	FZ_CHECK(ans.n_models >= 0 && ans.n_models <= RFL_CHECK_MAX_MODELS);
	for (i = 0; i < ans.n_models; i++) {
		FZ_CHECK(memchr(ans.models[i].name, 0, sizeof ans.models[i].name) != NULL);
		for (f = 0; f < RFL_CHECK_FIELD_COUNT; f++)
			if (ans.models[i].v[f].given) FZ_CHECK(isfinite(ans.models[i].v[f].v) && ans.models[i].v[f].v >= 0);
			else if (ans.models[i].v[f].unread)
				FZ_CHECK(ans.models[i].v[f].line >= 1 && ans.models[i].v[f].line <= count_lines(text, n) &&
						 ans.models[i].v[f].col >= 1 && (size_t)ans.models[i].v[f].col <= n + 1);
	}
	check_run(data[1]);
	free(text);
	return 0;
}
