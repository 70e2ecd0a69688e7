/* fuzz_load.c - rfl_workload_load on arbitrary bytes: a config.json or
   an ONNX file given as bytes, counted, then built in an arena of exactly
   the bytes asked.
   Input: 2 config bytes, then the file's bytes.
	 c[0] bit 0 a config.json (else ONNX), bit 1 strict, bits 2-3 the
		  phase (0 default, 1 prefill, 2 decode), bit 4 logits all,
		  bit 5 training, bit 6 seq given (c[1]), bit 7 --dim seq=3
	 c[1] seq
   Properties:
   - no crash, no UB, no access outside the input or the arena (an
	 exact-size heap block under ASan);
   - the answer is RFL_OK, or its code in wl.err with NUL-terminated where
	 and msg; RFL_ERR_BUFFER asks for more than it was given (an ONNX
	 file never after its count; a config at most twice: its tokens,
	 then its records);
   - a built workload's records lie in the arena, and they cost or
	 overflow; a config's warning is NUL-terminated. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	fz_in in;
	uint8_t c0, c1;
	rfl_workload wl;
	rfl_workload_desc d;
	rfl_warning warn;
	rfl_net_cost t;
	rfl_result r;
	unsigned char *arena;
	uint64_t need;
	int builds = 0;
	fz_init(&in, data, size);
	c0 = fz_u8(&in), c1 = fz_u8(&in);
	memset(&d, 0, sizeof d);
	memset(&warn, 'x', sizeof warn);
	d.bytes = data + (size < 2 ? size : 2), d.bytes_len = size < 2 ? 0 : size - 2;
	if (c0 & 1) d.hf_config = "config.json", d.strict = (c0 >> 1) & 1, d.warning = &warn;
	else d.onnx_file = "model.onnx";
	d.phase = (c0 >> 2) & 3;
	if (d.phase == 3) d.phase = 0;
	d.logits = (c0 & 16) ? RFL_WL_LOGITS_ALL : 0;
	d.cost.mode = (c0 & 32) ? RFL_MODE_TRAIN : RFL_MODE_INFER;
	d.seq_set = (c0 >> 6) & 1, d.seq = c1;
	d.dims = (c0 & 128) ? "seq=3" : 0;
	r = rfl_workload_load(&wl, &d, 0, 0);
	for (;;) {
		FZ_CHECK(r == RFL_OK || wl.err.code == r);
		FZ_CHECK(memchr(wl.err.where, 0, sizeof wl.err.where) && memchr(wl.err.msg, 0, sizeof wl.err.msg));
		if (r != RFL_ERR_BUFFER) break;
		need = wl.err.need;
		FZ_CHECK(need > 0 && builds < ((c0 & 1) ? 3 : 1));
		if (need > ((uint64_t)64 << 20)) return 0; /* a graph too large for the fuzzer's memory */
		if (!(arena = (unsigned char *)malloc((size_t)need))) return 0;
		r = rfl_workload_load(&wl, &d, arena, (size_t)need);
		builds++;
		FZ_CHECK(r != RFL_ERR_BUFFER || wl.err.need > need);
		if (r == RFL_OK) {
			FZ_CHECK(wl.source == ((c0 & 1) ? RFL_WL_LLM : RFL_WL_ONNX));
			FZ_CHECK(!(c0 & 1) || memchr(warn.text, 0, sizeof warn.text) != 0); /* the config's warning */
			FZ_CHECK(wl.net.count <= wl.net.cap && (unsigned char *)wl.net.layers >= arena &&
					 (unsigned char *)(wl.net.layers + wl.net.cap) <= arena + need);
			r = rfl_net_cost_get(&wl.net, &wl.cost, &t);
			FZ_CHECK(r == RFL_OK || r == RFL_ERR_OVERFLOW);
			r = RFL_OK;
		}
		free(arena);
	}
	return 0;
}
