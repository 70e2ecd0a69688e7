/* test_bad.c - hostile input for the reducer (issue 8).
   1. Every file in tests/bad/ is listed in tests/bad/EXPECTED.txt with the
	  exact error (code, line, column) derived by hand from its bytes (see
	  the manifest's header for the position rules), and gives exactly that
	  error through the library: in one push, one byte at a time, and in
	  chunks of 7 bytes; err.offset is the same place as a byte offset.
   2. Generated inputs too big to commit: a 1 MB field as a metric value
	  (an error at the field: it cannot fit the carry), as a kernel name
	  (kept truncated and flagged; the numbers still exact), as an unused
	  column and as a preamble line (both skipped, numbers exact).
   3. Arithmetic edges: counts beyond 64 bits saturate at UINT64_MAX, are
	  flagged and warned about, and never wrap.
   Expected values are hand-derived in the comments next to them. */
#define _POSIX_C_SOURCE 200809L
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#define RFL_NO_CHART
#include "roofline.h"
#include "rfl_test.h"
#include <dirent.h>
#include <stdlib.h>

static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static rfl_reduce_state st;
static rfl_reduce_result res;

static const struct { const char *name; rfl_result r; } codes[] = {
	{"RFL_OK", RFL_OK}, {"RFL_ERR_ARG", RFL_ERR_ARG}, {"RFL_ERR_BUFFER", RFL_ERR_BUFFER},
	{"RFL_ERR_UNKNOWN_NAME", RFL_ERR_UNKNOWN_NAME}, {"RFL_ERR_NO_ROOF", RFL_ERR_NO_ROOF},
	{"RFL_ERR_NO_DATA", RFL_ERR_NO_DATA}, {"RFL_ERR_SHAPE", RFL_ERR_SHAPE},
	{"RFL_ERR_OVERFLOW", RFL_ERR_OVERFLOW}, {"RFL_ERR_NUMBER", RFL_ERR_NUMBER},
	{"RFL_ERR_UNIT", RFL_ERR_UNIT}, {"RFL_ERR_SYNTAX", RFL_ERR_SYNTAX},
	{"RFL_ERR_TRUNCATED", RFL_ERR_TRUNCATED}, {"RFL_ERR_NO_HEADER", RFL_ERR_NO_HEADER},
	{"RFL_ERR_EMPTY", RFL_ERR_EMPTY}, {"RFL_ERR_LOCALE", RFL_ERR_LOCALE},
	{"RFL_ERR_FIELD_TOO_LONG", RFL_ERR_FIELD_TOO_LONG},
	{"RFL_ERR_NOT_FINITE", RFL_ERR_NOT_FINITE}, {"RFL_ERR_STATE", RFL_ERR_STATE},
	{"RFL_ERR_IO", RFL_ERR_IO}, {"RFL_ERR_FORMAT", RFL_ERR_FORMAT}};

static int code_of(const char *name, rfl_result *out) {
	size_t i;
	for (i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strcmp(codes[i].name, name) == 0) { *out = codes[i].r; return 1; }
	return 0;
}

/* Reduce `len` bytes pushed in chunks of `chunk` (0 = all at once). */
static rfl_result reduce(const unsigned char *b, size_t len, size_t chunk) {
	size_t i;
	if (!chunk) return rfl_reduce_buffer(b, len, NULL, scratch, sizeof scratch, &st, &res);
	if (rfl_reduce_init(&st, NULL, scratch, sizeof scratch) != RFL_OK) return RFL_ERR_STATE;
	for (i = 0; i < len; i += chunk) rfl_reduce_push(&st, b + i, len - i < chunk ? len - i : chunk);
	return rfl_reduce_finish(&st, &res);
}

/* Byte offset of (line, col) in b, counted here from the bytes: the start
   of that line (after its line's '\n') plus col - 1, past a UTF-8 BOM on
   line 1. */
static uint64_t offset_of(const unsigned char *b, size_t len, unsigned long line,
						  unsigned long col) {
	size_t i = 0;
	unsigned long l = 1;
	if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3;
	for (; i < len && l < line; i++)
		if (b[i] == '\n') l++;
	return (uint64_t)i + col - 1;
}

static void expect_error(const char *file, const unsigned char *b, size_t len, rfl_result code,
						 unsigned long line, unsigned long col) {
	static const size_t chunks[3] = {0, 1, 7};
	uint64_t off = offset_of(b, len, line, col);
	int k;
	for (k = 0; k < 3; k++) {
		rfl_result r = reduce(b, len, chunks[k]);
		if (r != code || st.err.line != line || st.err.col != col)
			printf("  %s (chunk %d): got %s at %lu:%lu \"%s\", expected %s at %lu:%lu\n", file,
				   (int)chunks[k], rfl_result_str(r), (unsigned long)st.err.line,
				   (unsigned long)st.err.col, st.err.msg, rfl_result_str(code), line, col);
		RT_EQ_INT(r, code);
		RT_EQ_U64(st.err.line, line);
		RT_EQ_U64(st.err.col, col);
		RT_EQ_U64(st.err.offset, off); /* the same place as a byte offset */
		RT_CHECK(st.err.offset <= len);
		RT_CHECK(st.err.msg[0] != 0); /* a message for humans */
	}
}

static int listed(char names[][64], int n, const char *f) {
	int i;
	for (i = 0; i < n; i++)
		if (strcmp(names[i], f) == 0) return 1;
	return 0;
}

static void test_manifest(void) {
	static char names[128][64];
	int n = 0;
	char ln[512];
	FILE *m = fopen("tests/bad/EXPECTED.txt", "r");
	DIR *d;
	struct dirent *e;
	RT_CHECK(m != NULL);
	if (!m) return;
	while (fgets(ln, sizeof ln, m)) {
		char file[64], code[40], path[128];
		unsigned long line, col;
		rfl_result r = RFL_OK;
		unsigned char *b;
		size_t len;
		if (ln[0] == '#' || ln[0] == '\n') continue;
		if (sscanf(ln, "%63s %39s %lu %lu", file, code, &line, &col) != 4) {
			printf("  bad manifest line: %s", ln);
			RT_CHECK(0);
			continue;
		}
		RT_CHECK(code_of(code, &r));
		snprintf(path, sizeof path, "tests/bad/%s", file);
		b = (unsigned char *)rt_slurp(path, &len);
		RT_CHECK(b != NULL);
		if (!b) continue;
		expect_error(file, b, len, r, line, col);
		free(b);
		if (n < 128) strcpy(names[n++], file);
	}
	fclose(m);
	RT_CHECK(n >= 12); /* the list, at least */
	/* every file in the folder has its expected error written down */
	d = opendir("tests/bad");
	RT_CHECK(d != NULL);
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "EXPECTED.txt") == 0) continue;
		if (!listed(names, n, e->d_name)) printf("  tests/bad/%s is not in EXPECTED.txt\n", e->d_name);
		RT_CHECK(listed(names, n, e->d_name));
	}
	if (d) closedir(d);
}

/* ---- generated inputs --------------------------------------------------- */
#define MB (1024u * 1024u)
static const char hdr[] =
	"\"ID\",\"Kernel Name\",\"Block Size\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
	"\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
	"\"\",\"\",\"\",\"ns\",\"byte\",\"inst\"\n";

static size_t put(unsigned char *b, size_t at, const char *s) {
	size_t n = strlen(s);
	memcpy(b + at, s, n);
	return at + n;
}
static size_t fill(unsigned char *b, size_t at, int c, size_t n) {
	memset(b + at, c, n);
	return at + n;
}

static void test_big_fields(void) {
	unsigned char *b = (unsigned char *)malloc(MB + 4096);
	size_t n;
	rfl_result r;
	/* (a) a 1 MB number in a used column: line 3 is the row; its fields
	   "0", "k", "1", start at columns 1, 5, 9, so the time field's opening
	   quote is at column 13. It cannot fit the carry: an error, not a
	   truncated number. */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"k\",\"1\",\"");
	n = fill(b, n, '7', MB);
	n = put(b, n, "\",\"100\",\"50\"\n");
	expect_error("1 MB number", b, n, RFL_ERR_FIELD_TOO_LONG, 3, 13);

	/* (b) a 1 MB kernel name: kept truncated to NAME_MAX-1 bytes and
	   flagged; the row's numbers are exact: time 63,232 ns, DRAM bytes
	   134,228,480, FP32 FLOPs 2 x 16,777,216 = 33,554,432. */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"");
	n = fill(b, n, 'K', MB);
	n = put(b, n, "\",\"(128, 1, 1)\",\"63,232\",\"134,228,480\",\"16,777,216\"\n");
	r = reduce(b, n, 0);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.kernels, 1);
	RT_EQ_U64(res.total.time_ns, 63232);
	RT_EQ_U64(res.total.bytes[RFL_DRAM], 134228480);
	RT_EQ_U64(res.total.flops[RFL_FP32], 33554432);
	RT_CHECK(res.top_count == 1 && strlen(res.top[0].name) == RFL_REDUCE_NAME_MAX - 1);
	RT_CHECK(res.top_count == 1 && (res.top[0].flags & RFL_REDUCE_NAME_TRUNCATED));
	RT_CHECK(res.flags & RFL_REDUCE_NAME_TRUNCATED);

	/* (c) a 1 MB unused field (Block Size): skipped, numbers exact */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"k\",\"");
	n = fill(b, n, '(', MB);
	n = put(b, n, "\",\"63,232\",\"134,228,480\",\"16,777,216\"\n");
	r = reduce(b, n, 0);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.time_ns, 63232);
	RT_EQ_U64(res.total.flops[RFL_FP32], 33554432);
	r = reduce(b, n, 4093); /* and split across chunks */
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.bytes[RFL_DRAM], 134228480);

	/* (d) a 1 MB line of application output before the header: skipped */
	n = fill(b, 0, 'x', MB);
	n = put(b, n, "\n");
	n = put(b, n, hdr);
	n = put(b, n, "\"0\",\"k\",\"1\",\"63,232\",\"134,228,480\",\"16,777,216\"\n");
	r = reduce(b, n, 0);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.kernels, 1);
	RT_EQ_U64(res.total.time_ns, 63232);
	free(b);
}

static int has_warning(rfl_warn w) {
	int i;
	for (i = 0; i < res.warning_count; i++)
		if (res.warnings[i].code == w) return 1;
	return 0;
}

static void test_overflow(void) {
	unsigned char b[2048];
	size_t n;
	rfl_result r;
	/* each kernel: ffma = 2^64 - 1 instructions -> 2 x that FP32 FLOPs,
	   already beyond 2^64; two such kernels more so. Saturated, flagged,
	   warned; never the wrapped 2^65 - 2 mod 2^64 = 2^64 - 2. */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"k\",\"1\",\"100\",\"1,000\",\"18,446,744,073,709,551,615\"\n");
	n = put(b, n, "\"1\",\"k\",\"1\",\"100\",\"1,000\",\"18,446,744,073,709,551,615\"\n");
	r = reduce(b, n, 0);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.flops[RFL_FP32], UINT64_MAX);
	RT_CHECK(res.total.flags & RFL_REDUCE_SATURATED);
	RT_CHECK(res.flags & RFL_REDUCE_SATURATED);
	RT_CHECK(has_warning(RFL_WARN_SATURATED));
	RT_EQ_U64(res.total.time_ns, 200);          /* the rest stays exact */
	RT_EQ_U64(res.total.bytes[RFL_DRAM], 2000);

	/* bytes: 2^64 - 1 then 1 more: the sum is 2^64, saturates */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"k\",\"1\",\"100\",\"18,446,744,073,709,551,615\",\"1\"\n");
	n = put(b, n, "\"1\",\"k\",\"1\",\"100\",\"1\",\"1\"\n");
	r = reduce(b, n, 1);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.bytes[RFL_DRAM], UINT64_MAX);
	RT_CHECK(res.total.flags & RFL_REDUCE_SATURATED);
	RT_CHECK(has_warning(RFL_WARN_SATURATED));
	RT_EQ_U64(res.total.flops[RFL_FP32], 4); /* 2 x (1 + 1) */

	/* one value beyond 2^64 (2^64 exactly) in a single field */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"k\",\"1\",\"100\",\"18,446,744,073,709,551,616\",\"1\"\n");
	r = reduce(b, n, 0);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.bytes[RFL_DRAM], UINT64_MAX);
	RT_CHECK(res.total.flags & RFL_REDUCE_SATURATED);

	/* time in ms: 2e13 ms = 2e19 ns > 2^64 - 1 (about 1.8447e19) */
	n = put(b, 0,
			"\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\"\n"
			"\"\",\"\",\"msecond\",\"byte\"\n"
			"\"0\",\"k\",\"20,000,000,000,000\",\"8\"\n");
	r = reduce(b, n, 0);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.time_ns, UINT64_MAX);
	RT_CHECK(res.total.flags & RFL_REDUCE_SATURATED);
	RT_EQ_U64(res.total.bytes[RFL_DRAM], 8);

	/* just below the edge stays exact: 2^63 + 2^63 - 1 = 2^64 - 1 */
	n = put(b, 0, hdr);
	n = put(b, n, "\"0\",\"k\",\"1\",\"1\",\"9,223,372,036,854,775,808\",\"1\"\n");
	n = put(b, n, "\"1\",\"k\",\"1\",\"1\",\"9,223,372,036,854,775,807\",\"1\"\n");
	r = reduce(b, n, 3);
	RT_EQ_INT(r, RFL_OK);
	RT_EQ_U64(res.total.bytes[RFL_DRAM], UINT64_MAX);
	RT_CHECK(!(res.total.flags & RFL_REDUCE_SATURATED));
	RT_CHECK(!has_warning(RFL_WARN_SATURATED));
}

int main(void) {
	test_manifest();
	test_big_fields();
	test_overflow();
	return rt_done();
}
