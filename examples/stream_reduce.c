/* stream_reduce.c - reduce an Nsight Compute (or nvprof) CSV export from
   standard input in 4 KB chunks, with one static buffer for everything.

   ncu ... --csv --page raw --log-file run.csv python3 train.py
   ./build/examples/stream_reduce < run.csv
   ./build/examples/stream_reduce          (a terminal on stdin: reads the
											shipped examples/data profile)
   The reducer is a push parser: it keeps no line and no file, only the
   caller's scratch (a carry for one partial field + one byte per column),
   so a profile of any size streams through the same few kilobytes. */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include <stdio.h>
#include <unistd.h>

/* The one buffer: reducer scratch, then the 4 KB chunk. */
static unsigned char mem[RFL_REDUCE_SCRATCH_DEFAULT + 4096];
static rfl_reduce_state st;  /* a plain struct (~40 KB): here, not on the stack */
static rfl_reduce_result res;

int main(void) {
	unsigned char *chunk = mem + RFL_REDUCE_SCRATCH_DEFAULT;
	FILE *in = stdin;
	size_t n;
	int i;
	if (isatty(fileno(stdin)) && !(in = fopen("examples/data/resnet18-b1-train-seed-raw.csv", "rb"))) {
		fprintf(stderr, "usage: stream_reduce < profile.csv\n");
		return 2;
	}
	if (rfl_reduce_init(&st, NULL, mem, RFL_REDUCE_SCRATCH_DEFAULT) != RFL_OK) return 1;
	while ((n = fread(chunk, 1, 4096, in)) > 0)
		if (rfl_reduce_push(&st, chunk, n) != RFL_OK) break;
	if (st.err.code == RFL_OK) rfl_reduce_finish(&st, &res);
	if (st.err.code != RFL_OK) { /* the first error, with its place in the stream */
		fprintf(stderr, "line %lu, column %lu: %s (%s)\n", (unsigned long)st.err.line,
				(unsigned long)st.err.col, st.err.msg, rfl_result_str(st.err.code));
		return 1;
	}
	printf("%s, %lu kernels, %.4g ms\n", rfl_reduce_format_name(res.format),
		   (unsigned long)res.kernels, res.total.time_ns / 1e6);
	for (i = 0; i < RFL_PREC_COUNT; i++) /* a quantity not in the file is unknown, not 0 */
		if (rfl_work_known(&res.total.work, RFL_UNKNOWN_FLOPS(i)) && res.total.flops[i])
			printf("  %-12s %20llu FLOP\n", rfl_prec_name((rfl_prec)i),
				   (unsigned long long)res.total.flops[i]);
	for (i = 0; i < RFL_LEVEL_COUNT; i++)
		if (rfl_work_known(&res.total.work, RFL_UNKNOWN_BYTES(i)))
			printf("  %-12s %20llu B   AI %.2f FLOP/B\n", rfl_level_name((rfl_level)i),
				   (unsigned long long)res.total.bytes[i], rfl_work_ai(&res.total.work, (rfl_level)i));
	if (res.flops_per_s > 0) printf("  achieved %.3g TFLOP/s\n", res.flops_per_s / 1e12);
	for (i = 0; i < res.warning_count; i++) printf("warning: %s\n", res.warnings[i].text);
	return 0;
}
