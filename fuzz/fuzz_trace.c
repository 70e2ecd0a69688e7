/* fuzz_trace.c - the reducer's trace reader (PyTorch profiler JSON) on
   arbitrary bytes. Input: 2 config bytes, then the JSON.
	 c[0] bit 0: select ProfilerStep#c[1] (desc.use_step); bit 1: by-name
		  table; bit 2: a per-kernel callback
	 c[1] the step; also the seed of the chunk sizes
   Properties:
   - no crash, no UB, no access outside the caller's buffers;
   - pushed in random chunks (and, when small, byte by byte) the result or
	 the error (code, offset, message) is the one-shot's;
   - an error has a NUL-terminated message and an offset inside the input;
   - a result is consistent: kernels <= kernels_seen, busy time <= the
	 summed kernel time and <= the span (unless flagged a bound), stream
	 and class tables account for every kernel counted, FLOPs and bytes
	 unknown, the callback saw every kernel. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

static uint64_t calls;
static void on_kernel(void *user, const rfl_kernel_stat *k) {
	(void)user;
	FZ_CHECK(memchr(k->name, 0, sizeof k->name) != NULL);
	calls++;
}

static void check_result(const rfl_reduce_result *r, const rfl_reduce_desc *d, uint64_t ncalls) {
	const rfl_reduce_trace *t = &r->trace;
	uint64_t n = 0, ns = 0;
	int i;
	FZ_CHECK(r->format == RFL_CSV_PYTORCH_TRACE);
	FZ_CHECK(r->kernels >= 1 && r->kernels <= r->kernels_seen);
	FZ_CHECK(r->total.work.unknown & RFL_UNKNOWN_FLOPS(RFL_FP32));
	FZ_CHECK(!(r->total.work.unknown & RFL_UNKNOWN_TIME));
	FZ_CHECK(memchr(r->device, 0, sizeof r->device) != NULL);
	if (!(r->flags & RFL_REDUCE_SATURATED)) {
		FZ_CHECK(t->busy_ns <= r->total.time_ns);
		if (!t->busy_upper_bound) FZ_CHECK(t->busy_ns <= t->span_ns);
		for (i = 0; i < t->stream_count; i++) n += t->streams[i].kernels, ns += t->streams[i].time_ns;
		FZ_CHECK(n == r->kernels && ns == r->total.time_ns);
		for (n = 0, ns = 0, i = 0; i < RFL_TRACE_CLASS_MAX; i++) n += t->class_kernels[i], ns += t->class_ns[i];
		FZ_CHECK(n == r->kernels && ns == r->total.time_ns);
	}
	FZ_CHECK(t->stream_count >= 0 && t->stream_count <= RFL_TRACE_STREAMS_MAX);
	for (i = 1; i < r->top_count; i++) FZ_CHECK(r->top[i].time_ns <= r->top[i - 1].time_ns);
	for (i = 0; i < r->warning_count; i++) FZ_CHECK(memchr(r->warnings[i].text, 0, sizeof r->warnings[i].text) != NULL);
	if (d->on_kernel) FZ_CHECK(ncalls == r->kernels);
}

static rfl_kernel_stat groups_a[64], groups_b[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	static unsigned char scratch_a[RFL_REDUCE_SCRATCH_DEFAULT], scratch_b[RFL_REDUCE_SCRATCH_DEFAULT];
	static rfl_reduce_state a, b;
	static rfl_reduce_result ra, rb;
	rfl_reduce_desc d;
	const uint8_t *js = data + (size < 2 ? size : 2);
	size_t len = size < 2 ? 0 : size - 2, pos;
	uint8_t c0 = size > 0 ? data[0] : 0, c1 = size > 1 ? data[1] : 0;
	uint32_t seed = 0x9E3779B9u ^ c1 ^ (uint32_t)len;
	rfl_result e1, e2;
	uint64_t calls_a;
	memset(&d, 0, sizeof d);
	if (c0 & 1) d.use_step = 1, d.step = c1 % 4;
	if (c0 & 2) d.groups = groups_a, d.group_cap = 64;
	if (c0 & 4) d.on_kernel = on_kernel;
	calls = 0;
	e1 = rfl_reduce_buffer(js, len, &d, scratch_a, sizeof scratch_a, &a, &ra);
	calls_a = calls;
	if (e1 != RFL_OK) {
		FZ_CHECK(a.err.code == e1);
		FZ_CHECK(memchr(a.err.msg, 0, sizeof a.err.msg) != NULL);
		if (!(len >= 2 && js[0] == 0x1f && js[1] == 0x8b)) FZ_CHECK(a.err.offset <= len);
	} else if (ra.format == RFL_CSV_PYTORCH_TRACE) check_result(&ra, &d, calls_a);

	if (c0 & 2) d.groups = groups_b;
	calls = 0;
	FZ_CHECK(rfl_reduce_init(&b, &d, scratch_b, sizeof scratch_b) == RFL_OK);
	for (pos = 0; pos < len;) {
		size_t n;
		seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
		n = len <= 2048 && (c1 & 1) ? 1 : (seed & 3) == 0 ? 0 : 1 + (seed >> 8) % 700;
		if (n > len - pos) n = len - pos;
		{
			unsigned char *chunk = (unsigned char *)malloc(n ? n : 1);
			memcpy(chunk, js + pos, n);
			rfl_reduce_push(&b, chunk, n);
			free(chunk);
		}
		pos += n;
	}
	e2 = rfl_reduce_finish(&b, &rb);
	FZ_CHECK(e1 == e2);
	if (e1 != RFL_OK) {
		FZ_CHECK(a.err.offset == b.err.offset);
		FZ_CHECK(strcmp(a.err.msg, b.err.msg) == 0);
	} else if (ra.format == RFL_CSV_PYTORCH_TRACE) {
		FZ_CHECK(ra.kernels == rb.kernels && ra.kernels_seen == rb.kernels_seen);
		FZ_CHECK(ra.total.time_ns == rb.total.time_ns);
		FZ_CHECK(memcmp(&ra.trace, &rb.trace, sizeof ra.trace) == 0);
		FZ_CHECK(strcmp(ra.device, rb.device) == 0);
		FZ_CHECK(ra.top_count == rb.top_count && ra.warning_count == rb.warning_count);
		FZ_CHECK(calls == calls_a);
	}
	return 0;
}
