/* test_hw_only.c - a device carries only the machines it needs (issue 16):
   RFL_HW_ONLY with RFL_HW_KEEP_<ID> keeps a few rows of hw_specs.h, and
   RFL_HW_NO_STRINGS drops their sources and aliases.

   Expected values come from hw_specs.h's own documentation and the vendors'
   figures, not from the code: the H100 SXM's datasheet FP32 is 67 TFLOP/s
   and its HBM3 3.35 TB/s; the Raspberry Pi 5's FP32 is 4 cores x 2.4 GHz x
   4 lanes x 2 FMA pipes x 2 = 153.6 GFLOP/s. */
#define RFL_HW_ONLY
#define RFL_HW_KEEP_H100_SXM   /* defined empty: kept */
#define RFL_HW_KEEP_RPI5 1     /* defined as 1: kept */
#define RFL_HW_KEEP_T4 0       /* defined as 0: not kept */
#define RFL_HW_NO_STRINGS
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "rfl_test.h"

/* Is the text (given reversed, so that this file does not carry it) in
   the bytes of the running program? -1 when the program cannot be read. */
static int in_program(const char *path, const char *reversed) {
	static char buf[1 << 16];
	char needle[128];
	size_t n = strlen(reversed), i, got, keep = 0;
	FILE *f = fopen(path, "rb");
	int found = 0;
	if (!f || n >= sizeof needle) return -1;
	for (i = 0; i < n; i++) needle[i] = reversed[n - 1 - i];
	/* windows that overlap by n - 1 bytes, so no match is split */
	while ((got = fread(buf + keep, 1, sizeof buf - keep, f)) > 0 && !found) {
		size_t len = keep + got;
		for (i = 0; i + n <= len && !found; i++) found = memcmp(buf + i, needle, n) == 0;
		keep = len >= n - 1 ? n - 1 : len;
		memmove(buf, buf + len - keep, keep);
	}
	fclose(f);
	return found;
}

int main(int argc, char **argv) {
	const rfl_machine *m = NULL;
	(void)argc;

	/* two rows, in hw_specs.h's order, and the enum indexes them */
	RT_EQ_INT(rfl_hw_count(), 2);
	RT_EQ_INT(RFL_HW_COUNT, 2);
	RT_EQ_INT(RFL_HW_H100_SXM, 0);
	RT_EQ_INT(RFL_HW_RPI5, 1);
	RT_STR(rfl_hw_get(RFL_HW_H100_SXM)->id, "h100-sxm");
	RT_STR(rfl_hw_get(RFL_HW_RPI5)->id, "raspberry-pi-5");
	RT_CHECK(rfl_hw_get(2) == NULL);

	/* the id and the display name still find a machine */
	RT_EQ_INT(rfl_hw_find("h100-sxm", &m), RFL_OK);
	RT_CHECK(m == rfl_hw_get(RFL_HW_H100_SXM));
	RT_EQ_INT(rfl_hw_find("H100_SXM", &m), RFL_OK); /* normalised compare */
	RT_EQ_INT(rfl_hw_find("NVIDIA H100 SXM5 80GB", &m), RFL_OK);
	RT_EQ_INT(rfl_hw_find("raspberry-pi-5", &m), RFL_OK);
	RT_CHECK(m == rfl_hw_get(RFL_HW_RPI5));

	/* aliases are gone: "h100" and "rpi5" are aliases in hw_specs.h */
	RT_EQ_INT(rfl_hw_find("h100", &m), RFL_ERR_UNKNOWN_NAME);
	RT_EQ_INT(rfl_hw_find("rpi5", &m), RFL_ERR_UNKNOWN_NAME);
	/* a machine that was not kept (T4: KEEP defined as 0; A100: not named) */
	RT_EQ_INT(rfl_hw_find("t4", &m), RFL_ERR_UNKNOWN_NAME);
	RT_EQ_INT(rfl_hw_find("a100-sxm4-40gb", &m), RFL_ERR_UNKNOWN_NAME);

	/* the numbers stay; the strings are empty, never NULL */
	m = rfl_hw_get(RFL_HW_H100_SXM);
	RT_NEAR(m->peak_flops[RFL_FP32], 67e12, 1e-12);
	RT_NEAR(m->bw_bytes_per_s[RFL_DRAM], 3.35e12, 1e-12);
	RT_STR(m->aliases, "");
	RT_STR(m->source, "");
	RT_STR(m->name, "NVIDIA H100 SXM5 80GB");
	m = rfl_hw_get(RFL_HW_RPI5);
	RT_NEAR(m->peak_flops[RFL_FP32], 153.6e9, 1e-12);

	/* and the program does not carry what was left out: another machine's
	   id, a kept machine's source or alias list */
	RT_EQ_INT(in_program(argv[0], "2mxs-001v"), 0);                /* v100-sxm2 */
	RT_EQ_INT(in_program(argv[0], "teehsatad 001H AIDIVN"), 0);    /* NVIDIA H100 datasheet */
	RT_EQ_INT(in_program(argv[0], "5mxs-001h,001h"), 0);           /* h100,h100-sxm5 */
	/* the search itself works: a kept id is found */
	RT_EQ_INT(in_program(argv[0], "mxs-001h"), 1);                 /* h100-sxm */
	return rt_done();
}
