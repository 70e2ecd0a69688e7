/* fuzz_onnx.c - the streamed ONNX reader and the shape build on arbitrary
   bytes. Input: 3 config bytes, then the .onnx bytes.
	 c[0] chunking seed (0: every byte alone when the input is small)
	 c[1] batch (0..255; 0 = default)
	 c[2] bit 0: skip payloads with rfl_onnx_skip instead of pushing them;
		  bit 1: give "seq=7,N=3" as symbolic dims
   Properties:
   - no crash, no UB, no access outside the state, the arena (an exact-size
	 heap block, so ASan sees one byte too far) or the record array;
   - count mode's need equals the need of a real read; an arena of exactly
	 that size reads; one byte less is RFL_ERR_BUFFER with the same need;
   - the chunked push (and the skipping path) gives the one-shot result:
	 same code, offset and need, the same node and value names;
   - an error has an offset within the input and a NUL-terminated message;
   - the build never writes more than record_bound records, and an error
	 names a node or says what was wrong. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

typedef struct one_read {
	rfl_result r;
	uint64_t off;
	size_t need;
} one_read;

static uint32_t rng_next(uint32_t *s) {
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Push p[0..n) in chunks from seed (0: one byte at a time); with skip,
   jump over what the reader ignores. */
static rfl_result chunked(rfl_onnx_state *st, const uint8_t *p, size_t n, uint32_t seed,
						  int skip, void *arena, size_t size, rfl_onnx_graph *g) {
	size_t i = 0;
	rfl_onnx_init(st, arena, size);
	while (i < n) {
		size_t c = seed ? 1 + rng_next(&seed) % 97 : 1;
		if (c > n - i) c = n - i;
		if (rfl_onnx_push(st, p + i, c)) break;
		i += c;
		if (skip && st->skip) {
			uint64_t k = st->skip < n - i ? st->skip : n - i;
			FZ_CHECK(rfl_onnx_skip(st, k) == RFL_OK || st->err.code);
			i += (size_t)k;
		}
	}
	if (st->err.code) return st->err.code;
	return rfl_onnx_finish(st, g);
}

static void same_graph(const rfl_onnx_graph *a, const rfl_onnx_graph *b) {
	int i;
	FZ_CHECK(a->node_count == b->node_count && a->value_count == b->value_count);
	FZ_CHECK(a->params == b->params && a->input_count == b->input_count);
	for (i = 0; i < a->node_count; i++) {
		FZ_CHECK(strcmp(a->nodes[i].name, b->nodes[i].name) == 0);
		FZ_CHECK(strcmp(a->nodes[i].op_type, b->nodes[i].op_type) == 0);
		FZ_CHECK(a->nodes[i].n_attrs == b->nodes[i].n_attrs);
	}
	for (i = 0; i < a->value_count; i++) FZ_CHECK(strcmp(a->values[i].name, b->values[i].name) == 0);
}

static void check_build(rfl_onnx_graph *g, uint8_t batch, int dims) {
	rfl_layer *rec;
	rfl_net net;
	rfl_onnx_desc d;
	rfl_onnx_info info;
	rfl_result r;
	int cap = g->record_bound;
	if (cap < 1 || cap > 100000) return;
	rec = (rfl_layer *)malloc((size_t)cap * sizeof *rec);
	FZ_CHECK(rec != NULL);
	rfl_net_init(&net, rec, cap, 0, 0);
	memset(&d, 0, sizeof d);
	d.batch = batch;
	d.dims = dims ? "seq=7,N=3" : NULL;
	r = rfl_onnx_build(g, &d, &net, &info);
	FZ_CHECK(net.count <= cap);
	FZ_CHECK(memchr(info.err.msg, 0, sizeof info.err.msg) != NULL);
	if (r) FZ_CHECK(info.err.msg[0] != 0 || r == RFL_ERR_ARG || r == RFL_ERR_STATE);
	if (r && r != RFL_ERR_ARG && r != RFL_ERR_STATE)
		FZ_CHECK(info.err.code == r && net.err.code == r); /* the net keeps the node's error */
	else {
		rfl_net_cost c;
		rfl_cost_desc cd;
		memset(&cd, 0, sizeof cd);
		cd.batch = info.batch;
		r = rfl_net_cost_get(&net, &cd, &c);
		FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW || r == RFL_ERR_NO_DATA);
	}
	free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	static rfl_onnx_state st, st2;
	rfl_onnx_graph g, g2;
	fz_in in;
	uint8_t seed, batch, flags;
	one_read a;
	unsigned char *arena, *arena2;
	rfl_result r;
	fz_init(&in, data, size);
	seed = fz_u8(&in), batch = fz_u8(&in), flags = fz_u8(&in);
	data += in.i, size -= in.i;
	/* count mode */
	a.r = rfl_onnx_read_buffer(&st, data, size, NULL, 0, &g);
	a.off = st.err.offset, a.need = st.need;
	FZ_CHECK(memchr(st.err.msg, 0, sizeof st.err.msg) != NULL);
	if (a.r) {
		FZ_CHECK(st.err.code == a.r);
		FZ_CHECK(a.off <= size);
		FZ_CHECK(st.err.msg[0] != 0);
		return 0;
	}
	FZ_CHECK(a.need > 0);
	/* exactly the need: reads */
	arena = (unsigned char *)malloc(a.need);
	FZ_CHECK(arena != NULL);
	r = rfl_onnx_read_buffer(&st, data, size, arena, a.need, &g);
	FZ_CHECK(r == RFL_OK || r == RFL_ERR_GRAPH || r == RFL_ERR_FORMAT || r == RFL_ERR_OVERFLOW);
	FZ_CHECK(st.need == a.need);
	/* chunked (and skipping): the same */
	arena2 = (unsigned char *)malloc(a.need);
	FZ_CHECK(arena2 != NULL);
	FZ_CHECK(chunked(&st2, data, size, size < 2048 ? seed : (uint32_t)seed + 1, flags & 1, arena2,
					 a.need, &g2) == r);
	FZ_CHECK(st2.need == a.need && st2.err.offset == st.err.offset);
	if (r == RFL_OK) {
		same_graph(&g, &g2);
		check_build(&g, batch, flags & 2);
	}
	free(arena2);
	/* one byte short: RFL_ERR_BUFFER with the same need */
	if (a.need > 1) {
		unsigned char *small = (unsigned char *)malloc(a.need - 1);
		FZ_CHECK(small != NULL);
		FZ_CHECK(rfl_onnx_read_buffer(&st, data, size, small, a.need - 1, &g2) == RFL_ERR_BUFFER);
		FZ_CHECK(st.need == a.need);
		free(small);
	}
	free(arena);
	return 0;
}
