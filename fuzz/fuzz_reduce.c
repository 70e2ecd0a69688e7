/* fuzz_reduce.c - the streaming reducer on arbitrary bytes.
   Input: 4 config bytes, then the CSV bytes.
	 c[0] bits 0-1 locale (3 = AUTO too), bit 2 by-name groups table,
		  bit 3 name filter "gemm", bit 4 id range, bit 5 a machine (H100),
		  bit 6 a per-kernel callback, bit 7 a small group table
	 c[1] chunking: seed of the chunk sizes (0 = every byte alone when the
		  input is small)
	 c[2] top_n (0..40: 0 = default, above 32 = capped)
	 c[3] scratch: 0-3 the default size, else a small one (columns
		  c[3] x 8), so "too many columns" paths are reached too
   Properties:
   - no crash, no UB, no access outside the scratch, state, group table or
	 input (every caller buffer is an exact-size heap block under ASan);
   - the result of the chunked push (and, for small inputs, of pushing
	 every byte alone), at a row-walker instruction set picked by the seed,
	 is identical to the one-shot rfl_reduce_buffer:
	 same error code and position, or the same result field by field;
   - an error has a position inside the input (line >= 1, col >= 1,
	 offset <= length) and a NUL-terminated message;
   - a result is self-consistent: top kernels sorted by time and no more
	 than asked, groups + other account for every kernel counted, names
	 and warning texts NUL-terminated, the callback saw every kernel;
   - push after finish is RFL_ERR_STATE. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

typedef struct cb_count {
	uint64_t calls;
} cb_count;

static void on_kernel(void *user, const rfl_kernel_stat *k) {
	FZ_CHECK(memchr(k->name, 0, sizeof k->name) != NULL);
	((cb_count *)user)->calls++;
}

static uint32_t rng_next(uint32_t *s) {
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

#define SAME(f) FZ_CHECK(memcmp(&a->f, &b->f, sizeof a->f) == 0)
static void same_stat(const rfl_kernel_stat *a, const rfl_kernel_stat *b) {
	SAME(id); SAME(invocations); SAME(flops); SAME(bytes); SAME(time_ns);
	SAME(tensor_inst); SAME(flags); SAME(work.flops); SAME(work.bytes);
	SAME(work.time_s); SAME(work.unknown);
	FZ_CHECK(strcmp(a->name, b->name) == 0);
}
static void same_result(const rfl_reduce_result *a, const rfl_reduce_result *b,
						const rfl_kernel_stat *ga, const rfl_kernel_stat *gb) {
	int i;
	SAME(format); SAME(locale); SAME(kernels); SAME(kernels_seen);
	same_stat(&a->total, &b->total);
	SAME(flops_per_s); SAME(ceil_flops); SAME(ceil_bw); SAME(sm_clock_hz);
	SAME(tensor_flops_per_inst); SAME(auto_units_rel_err); SAME(flags);
	SAME(top_count); SAME(group_count); SAME(warning_count); SAME(warnings_dropped);
	for (i = 0; i < a->top_count && i < RFL_REDUCE_TOP_MAX; i++) same_stat(&a->top[i], &b->top[i]);
	for (i = 0; ga && i < a->group_count; i++) same_stat(&ga[i], &gb[i]);
	same_stat(&a->other, &b->other);
	for (i = 0; i < a->warning_count && i < RFL_REDUCE_WARN_MAX; i++) {
		SAME(warnings[i].code); SAME(warnings[i].has_kernel); SAME(warnings[i].kernel_id);
		FZ_CHECK(strcmp(a->warnings[i].text, b->warnings[i].text) == 0);
	}
}

static void check_result(const rfl_reduce_result *r, const rfl_reduce_desc *d, uint64_t calls) {
	int i, top = d->top_n ? d->top_n : 10;
	uint64_t inv = 0;
	if (top > RFL_REDUCE_TOP_MAX) top = RFL_REDUCE_TOP_MAX;
	FZ_CHECK(r->top_count >= 0 && r->top_count <= top);
	FZ_CHECK((uint64_t)r->top_count <= r->kernels);
	FZ_CHECK(r->kernels <= r->kernels_seen);
	FZ_CHECK(r->warning_count >= 0 && r->warning_count <= RFL_REDUCE_WARN_MAX);
	FZ_CHECK(memchr(r->total.name, 0, sizeof r->total.name) != NULL);
	for (i = 0; i < r->top_count; i++) {
		FZ_CHECK(memchr(r->top[i].name, 0, sizeof r->top[i].name) != NULL);
		if (i) FZ_CHECK(r->top[i].time_ns <= r->top[i - 1].time_ns);
		if (!(r->total.flags & RFL_REDUCE_SATURATED))
			FZ_CHECK(r->top[i].time_ns <= r->total.time_ns);
	}
	for (i = 0; i < r->warning_count; i++)
		FZ_CHECK(memchr(r->warnings[i].text, 0, sizeof r->warnings[i].text) != NULL);
	if (d->groups) {
		FZ_CHECK(r->group_count >= 0 && r->group_count <= d->group_cap);
		for (i = 0; i < r->group_count; i++) {
			FZ_CHECK(memchr(d->groups[i].name, 0, sizeof d->groups[i].name) != NULL);
			inv += d->groups[i].invocations;
		}
		inv += r->other.invocations;
		if (!(r->total.flags & RFL_REDUCE_SATURATED)) FZ_CHECK(inv == r->total.invocations);
	}
	if (d->on_kernel) FZ_CHECK(calls == r->kernels);
	FZ_CHECK(!(r->flops_per_s < 0) && r->flops_per_s == r->flops_per_s);
}

typedef struct run {
	rfl_reduce_state *st;
	rfl_reduce_result *res;
	rfl_kernel_stat *groups;
	unsigned char *scratch;
	rfl_result r;
	cb_count cb;
} run;

static void run_alloc(run *u, size_t scratch_size, int group_cap) {
	u->st = (rfl_reduce_state *)malloc(sizeof *u->st);
	u->res = (rfl_reduce_result *)malloc(sizeof *u->res);
	u->groups = group_cap ? (rfl_kernel_stat *)malloc(sizeof *u->groups * (size_t)group_cap) : NULL;
	u->scratch = (unsigned char *)malloc(scratch_size);
	/* garbage, not zeros: the library must not depend on cleared memory */
	memset(u->st, 0xCD, sizeof *u->st);
	memset(u->res, 0xCD, sizeof *u->res);
	if (u->groups) memset(u->groups, 0xCD, sizeof *u->groups * (size_t)group_cap);
	memset(u->scratch, 0xCD, scratch_size);
	u->cb.calls = 0;
}
static void run_free(run *u) {
	free(u->st);
	free(u->res);
	free(u->groups);
	free(u->scratch);
}

/* Findings already reported and kept in tests/regress/reduce/: build with
   -DFZ_RELAX_KNOWN (make fuzz FUZZ_DEFS=-DFZ_RELAX_KNOWN) to fuzz past them
   until they are fixed. Known: junk after a closing quote in a skipped
   field is reported at a different column in one push than in small
   chunks (quote-then-junk-in-skipped-field.csv), or even accepted
   (tests/bad/quote-junk-skipped.csv). */
#ifdef FZ_RELAX_KNOWN
#define FZ_KNOWN(c) ((void)0)
#else
#define FZ_KNOWN(c) FZ_CHECK(c)
#endif

static void same_outcome(const run *a, const run *b, int group_cap) {
#ifdef FZ_RELAX_KNOWN
	if (a->r != b->r && (strstr(a->st->err.msg, "closing quote") || strstr(b->st->err.msg, "closing quote")))
		return; /* known: the one-push path misses junk after a quote (quote-junk-skipped.csv) */
#endif
	FZ_CHECK(a->r == b->r);
	if (a->r != RFL_OK) {
		FZ_CHECK(a->st->err.code == b->st->err.code);
		FZ_CHECK(a->st->err.line == b->st->err.line);
		FZ_KNOWN(a->st->err.col == b->st->err.col);
		FZ_KNOWN(a->st->err.offset == b->st->err.offset);
		FZ_KNOWN(strcmp(a->st->err.msg, b->st->err.msg) == 0);
	} else {
		same_result(a->res, b->res, group_cap ? a->groups : NULL, group_cap ? b->groups : NULL);
		FZ_CHECK(a->cb.calls == b->cb.calls);
	}
}

/* gzip's magic, or '{' as the first non-blank byte: not the CSV reader */
static int not_csv(const uint8_t *p, size_t n) {
	size_t i = 0;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) return 1;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
	return i < n && p[i] == '{';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	static const char *const filt = "gemm";
	rfl_reduce_desc d;
	const uint8_t *csv;
	size_t len, scratch_size, pos;
	int group_cap = 0;
	uint32_t seed;
	run one, chunked;
	uint8_t c[4] = {0, 0, 0, 0};
	memcpy(c, data, size < 4 ? size : 4);
	csv = data + (size < 4 ? size : 4);
	len = size < 4 ? 0 : size - 4;

	memset(&d, 0, sizeof d);
	d.locale = (rfl_locale)((c[0] & 3) == 3 ? 0 : (c[0] & 3));
	if (c[0] & 4) group_cap = (c[0] & 128) ? 2 : 64;
	if (c[0] & 8) d.filter = filt;
	if (c[0] & 16) { d.use_ids = 1; d.id_first = 2; d.id_last = 40; }
	if (c[0] & 32) rfl_hw_find("h100", &d.machine);
	d.top_n = c[2] % 41;
	scratch_size = c[3] < 4 ? RFL_REDUCE_SCRATCH_DEFAULT : RFL_REDUCE_SCRATCH_SIZE((size_t)c[3] * 8);

	/* one shot */
	run_alloc(&one, scratch_size, group_cap);
	d.groups = one.groups;
	d.group_cap = group_cap;
	if (c[0] & 64) { d.on_kernel = on_kernel; d.user = &one.cb; }
	one.r = rfl_reduce_buffer(csv, len, &d, one.scratch, scratch_size, one.st, one.res);
	if (one.r != RFL_OK) {
		FZ_CHECK(one.st->err.code == one.r);
		FZ_CHECK(memchr(one.st->err.msg, 0, sizeof one.st->err.msg) != NULL);
		/* a trace (JSON) or gzip input has a byte offset and no line; inside
		   gzip it counts inflated bytes (fuzz_trace, fuzz_inflate check them) */
		if (!not_csv(csv, len)) {
			FZ_KNOWN(one.st->err.offset <= len); /* err-offset-past-input-multiline-quote */
			if (one.r != RFL_ERR_EMPTY) FZ_CHECK(one.st->err.line >= 1 && one.st->err.col >= 1);
		}
	} else {
		check_result(one.res, &d, one.cb.calls);
	}
	FZ_CHECK(rfl_reduce_push(one.st, "x", 1) == RFL_ERR_STATE || one.r != RFL_OK);

	/* chunked: sizes from the config seed, with empty pushes mixed in */
	run_alloc(&chunked, scratch_size, group_cap);
	d.groups = chunked.groups;
	if (c[0] & 64) d.user = &chunked.cb;
	seed = 0x9E3779B9u ^ ((uint32_t)c[1] << 8) ^ (uint32_t)len;
	chunked.r = rfl_reduce_init(chunked.st, &d, chunked.scratch, scratch_size);
	FZ_CHECK(chunked.r == RFL_OK);
	/* the row walker's instruction set, from the seed: any level up to what
	   this CPU has (0 baseline, 1 AVX2, 2 AVX-512BW) against the one shot's
	   top level */
	chunked.st->simd = (int)(seed % (uint32_t)(chunked.st->simd + 1));
	for (pos = 0; pos < len;) {
		size_t n;
		uint32_t k = rng_next(&seed);
		if (c[1] == 0 && len <= 4096) n = 1;
		else if ((k & 7) == 0) n = 0;
		else if ((k & 7) < 5) n = 1 + (k >> 8) % 16;
		else n = 1 + (k >> 8) % (4096 + 1);
		if (n > len - pos) n = len - pos;
		{
			/* each chunk in its own exact-size block: a read past it is caught */
			unsigned char *chunk = (unsigned char *)malloc(n ? n : 1);
			memcpy(chunk, csv + pos, n);
			rfl_reduce_push(chunked.st, chunk, n);
			free(chunk);
		}
		pos += n;
	}
	chunked.r = rfl_reduce_finish(chunked.st, chunked.res);
	same_outcome(&one, &chunked, group_cap);
	FZ_CHECK(rfl_reduce_push(chunked.st, "x", 1) == RFL_ERR_STATE || chunked.r != RFL_OK);
	run_free(&one);
	run_free(&chunked);
	return 0;
}
