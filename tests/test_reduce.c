/* The reducer: fixtures against the ground truths of
   ../shared/fixtures/README.md (copied values below, with their source),
   chunking invariance, formats, locale, units, errors, groups, warnings.
   Expected numbers are never the code's own output: they come from the
   README, from hand sums written here, or from the file's own text. */
#define RFL_NO_CHART
#define ROOFLINE_IMPLEMENTATION
#include "roofline.h"
#include "rfl_test.h"
#include <stdlib.h>

static unsigned char scratch[RFL_REDUCE_SCRATCH_DEFAULT];
static rfl_reduce_state st;

static char *load(const char *name, size_t *len) { return rt_load("tests/data", name, len); }

/* mode 0: whole; 1: every byte alone; 2: random splits (seed); 3: 64 KB */
static uint64_t rng = 88172645463325252ull;
static size_t next_rand(size_t m) {
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (size_t)(rng % m);
}
/* Does s[0..n) contain the NUL-terminated t? */
static int memmem_n(const char *s, size_t n, const char *t) {
	size_t i, k = strlen(t);
	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, t, k) == 0) return 1;
	return 0;
}

/* >= 0: the row walker's instruction set for the next reductions (0
   baseline, 1 AVX2, 2 AVX-512BW; never above what this CPU has) */
static int force_simd = -1;

static rfl_result reduce_mode(const char *b, size_t n, const rfl_reduce_desc *d, int mode,
							  rfl_reduce_result *r) {
	size_t i = 0;
	rfl_result e = rfl_reduce_init(&st, d, scratch, sizeof scratch);
	if (e) return e;
	if (force_simd >= 0 && force_simd <= st.simd) st.simd = force_simd;
	while (i < n) {
		size_t k = mode == 0 ? n - i : mode == 1 ? 1 : mode == 2 ? 1 + next_rand(300) : 65536;
		if (mode == 2 && next_rand(5) == 0) k = 1 + next_rand(5000);
		if (k > n - i) k = n - i;
		if ((e = rfl_reduce_push(&st, b + i, k)) != RFL_OK) return e;
		i += k;
	}
	return rfl_reduce_finish(&st, r);
}

static int same_stat(const rfl_kernel_stat *a, const rfl_kernel_stat *b) {
	return memcmp(a->flops, b->flops, sizeof a->flops) == 0 &&
		   memcmp(a->bytes, b->bytes, sizeof a->bytes) == 0 && a->time_ns == b->time_ns &&
		   a->work.unknown == b->work.unknown && a->flags == b->flags && a->id == b->id &&
		   a->invocations == b->invocations && strcmp(a->name, b->name) == 0;
}
static int same_result(const rfl_reduce_result *a, const rfl_reduce_result *b) {
	int i;
	if (!same_stat(&a->total, &b->total) || a->kernels != b->kernels || a->format != b->format ||
		a->top_count != b->top_count || a->warning_count != b->warning_count ||
		a->locale != b->locale || a->ceil_flops[RFL_FP32] != b->ceil_flops[RFL_FP32] ||
		a->ceil_bw[RFL_DRAM] != b->ceil_bw[RFL_DRAM] || strcmp(a->device, b->device))
		return 0;
	for (i = 0; i < a->top_count; i++)
		if (!same_stat(&a->top[i], &b->top[i])) return 0;
	for (i = 0; i < a->warning_count; i++)
		if (strcmp(a->warnings[i].text, b->warnings[i].text)) return 0;
	return 1;
}

static rfl_reduce_result R0, R1;

/* Reduce a file whole, byte by byte, in random splits and in 64 KB chunks,
   and whole and in 64 KB chunks with each lower instruction set of the row
   walker this CPU has; every way must give the same result (left in R0). */
static void reduce_all_ways(const char *b, size_t n, const rfl_reduce_desc *d, const char *what) {
	int mode, simd, top;
	RT_EQ_INT(reduce_mode(b, n, d, 0, &R0), RFL_OK);
	top = st.simd;
	for (mode = 1; mode <= 3; mode++) {
		int rep, reps = mode == 2 ? 3 : 1;
		for (rep = 0; rep < reps; rep++) {
			memset(&R1, 0, sizeof R1);
			RT_EQ_INT(reduce_mode(b, n, d, mode, &R1), RFL_OK);
			if (!RT_CHECK(same_result(&R0, &R1))) printf("     %s: chunking mode %d differs\n", what, mode);
		}
	}
	for (simd = 0; simd < top; simd++) {
		force_simd = simd;
		for (mode = 0; mode <= 3; mode += 3) {
			memset(&R1, 0, sizeof R1);
			RT_EQ_INT(reduce_mode(b, n, d, mode, &R1), RFL_OK);
			if (!RT_CHECK(same_result(&R0, &R1)))
				printf("     %s: walker level %d (of %d), chunking mode %d differs\n", what, simd, top, mode);
		}
		force_simd = -1;
	}
}

static int has_warning(const rfl_reduce_result *r, rfl_warn w) {
	int i;
	for (i = 0; i < r->warning_count; i++)
		if (r->warnings[i].code == w) return 1;
	return 0;
}
static int known(const rfl_kernel_stat *k, unsigned bits) { return (k->work.unknown & bits) == 0; }

/* ---- fixtures vs the README's ground truth -------------------------------- */
static void test_fixtures(void) {
	size_t n;
	char *b;
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);

	/* micro-seed-raw: FP32 2,233,466,880; DRAM 558,875,392; time 250,176 ns */
	b = load("micro-seed-raw.csv", &n);
	reduce_all_ways(b, n, &d, "micro-seed-raw");
	RT_EQ_INT(R0.format, RFL_CSV_NCU_RAW);
	RT_EQ_U64(R0.kernels, 4);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2233466880ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 558875392ull);
	RT_EQ_U64(R0.total.time_ns, 250176ull);
	RT_CHECK(!known(&R0.total, RFL_UNKNOWN_FLOPS(RFL_FP64)));   /* not collected: unknown */
	RT_CHECK(!known(&R0.total, RFL_UNKNOWN_BYTES(RFL_L2)));
	RT_CHECK(!known(&R0.total, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR)));
	RT_EQ_INT(R0.locale, RFL_LOCALE_US);
	/* README: add as FFMA 16,777,216 (x2), mul 16,777,216, SGEMM ffma 1,074,790,400 */
	RT_EQ_U64(R0.top[0].flops[RFL_FP32], 2ull * 16777216);
	RT_EQ_U64(R0.top[1].flops[RFL_FP32], 16777216ull);
	{
		int i, trunc = 0, sgemm = 0;
		for (i = 0; i < R0.top_count; i++) {
			if (R0.top[i].flags & RFL_REDUCE_NAME_TRUNCATED) {
				trunc++;
				RT_EQ_U64(strlen(R0.top[i].name), RFL_REDUCE_NAME_MAX - 1);
			}
			if (strstr(R0.top[i].name, "gemm")) {
				sgemm = 1;
				RT_EQ_U64(R0.top[i].flops[RFL_FP32], 2ull * 1074790400);
			}
		}
		RT_EQ_INT(trunc, 1); /* the addcmul kernel's name is ~600 bytes */
		RT_CHECK(sgemm);
	}
	RT_CHECK(has_warning(&R0, RFL_WARN_NAME_TRUNCATED));
	/* README: elementwise DRAM writes below the output size (L2 residency) */
	RT_CHECK(has_warning(&R0, RFL_WARN_BELOW_COMPULSORY));
	free(b);

	/* micro-seed-details: FP32 2,233,466,880; DRAM 558,892,544; time 248,544 */
	b = load("micro-seed-details.csv", &n);
	reduce_all_ways(b, n, &d, "micro-seed-details");
	RT_EQ_INT(R0.format, RFL_CSV_NCU_DETAILS);
	RT_EQ_U64(R0.kernels, 4);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2233466880ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 558892544ull);
	RT_EQ_U64(R0.total.time_ns, 248544ull);
	free(b);

	/* resnet18 seed: 237 kernels; FP32 10,278,929,315; DRAM 279,844,608;
	   time 2,641,696 ns; AI 36.73; 3.89 TFLOP/s */
	b = load("resnet18-b1-train-seed-raw.csv", &n);
	reduce_all_ways(b, n, &d, "resnet18-seed");
	RT_EQ_U64(R0.kernels, 237);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 10278929315ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 279844608ull);
	RT_EQ_U64(R0.total.time_ns, 2641696ull);
	RT_NEAR(rfl_work_ai(&R0.total.work, RFL_DRAM), 36.73, 0.0005);
	RT_NEAR(R0.flops_per_s, 3.89e12, 0.002);
	free(b);

	/* alexnet full (H100): 79 kernels; FP32 5,648,711,651; FP16 20,418,068;
	   DRAM 735,022,080; L2 1,716,552,576; L1 1,770,352,640; time 1,100,672;
	   tensor inst 327,906 with every tensor-path counter 0 */
	b = load("alexnet-b1-train-full-raw.csv", &n);
	reduce_all_ways(b, n, &d, "alexnet");
	RT_EQ_U64(R0.kernels, 79);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 5648711651ull);
	RT_EQ_U64(R0.total.flops[RFL_FP16], 20418068ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 735022080ull);
	RT_EQ_U64(R0.total.bytes[RFL_L2], 1716552576ull);
	RT_EQ_U64(R0.total.bytes[RFL_L1], 1770352640ull);
	RT_EQ_U64(R0.total.time_ns, 1100672ull);
	RT_EQ_U64(R0.total.tensor_inst, 327906ull);
	RT_EQ_U64(rfl_reduce_tensor_flops(&R0.total), 0);
	/* The tensor pipe issued 327,906 instructions, but in elementwise adds,
	   max-pool backward, reductions and FP32 GEMMs (the capture's kernel
	   names), with every tensor FLOP counter 0 and FP32 FLOPs already above
	   the direct-convolution count: no FLOPs are missing, and no warning
	   may say so. */
	RT_CHECK(!has_warning(&R0, RFL_WARN_TENSOR_UNCOUNTED));
	RT_CHECK(!has_warning(&R0, RFL_WARN_NO_TENSOR_COUNTERS)); /* they were collected */
	RT_CHECK(!has_warning(&R0, RFL_WARN_TENSOR_ESTIMATED));
	RT_CHECK(!has_warning(&R0, RFL_WARN_HIERARCHY)); /* L1 > L2 > DRAM here */
	/* profile's own ceilings: 16,896 x 2 x ~1.97 GHz; 1,280 B x ~2.61 GHz */
	RT_NEAR(R0.ceil_flops[RFL_FP32], 67e12, 0.02);
	RT_NEAR(R0.ceil_bw[RFL_DRAM], 3.35e12, 0.01);
	{ /* the same ceilings as a machine: ridge 67e12 / 3.35e12 = 20 FLOP/B */
		rfl_machine pm;
		rfl_reduce_ceilings_machine(&R0, &pm);
		RT_STR(pm.id, "profile");
		RT_NEAR(rfl_ridge(&pm, RFL_FP32, RFL_DRAM), 20.0, 0.03);
		RT_NEAR(pm.boost_mhz, 1970, 0.02);
	}
	free(b);

	/* H200 ResNet-18: FP32 10,278,929,315; DRAM 280,009,216; time 2,568,672;
	   AI 36.71; ceilings ~65.8 TFLOP/s FP32 and ~4.80 TB/s */
	b = load("h200-resnet18-b1-train-full-raw.csv", &n);
	reduce_all_ways(b, n, &d, "h200-resnet18");
	RT_EQ_U64(R0.kernels, 237);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 10278929315ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 280009216ull);
	RT_EQ_U64(R0.total.time_ns, 2568672ull);
	/* the README's AI is FP32 FLOPs over DRAM bytes (FP16/FP64 SASS are extra) */
	RT_NEAR((double)R0.total.flops[RFL_FP32] / (double)R0.total.bytes[RFL_DRAM], 36.71, 0.0003);
	RT_NEAR(R0.ceil_flops[RFL_FP32], 65.8e12, 0.02);
	RT_NEAR(R0.ceil_bw[RFL_DRAM], 4.80e12, 0.01);
	free(b);

	/* H200 AlexNet: 79 kernels; FP32 5,648,711,651; DRAM 725,523,712; time 1,020,864 */
	b = load("h200-alexnet-b1-train-full-raw.csv", &n);
	reduce_all_ways(b, n, &d, "h200-alexnet");
	RT_EQ_U64(R0.kernels, 79);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 5648711651ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 725523712ull);
	RT_EQ_U64(R0.total.time_ns, 1020864ull);
	free(b);

	/* micro-tc: tensor-path ops 6,442,450,944 = 3 x 2 x 1024^3; tensor inst
	   196,608; FP32 SASS FLOPs 2,244,608 */
	b = load("micro-tc-full-raw.csv", &n);
	reduce_all_ways(b, n, &d, "micro-tc");
	RT_EQ_U64(rfl_reduce_tensor_flops(&R0.total), 6442450944ull);
	RT_EQ_U64(R0.total.flops[RFL_TF32_TENSOR], 2147483648ull); /* 2 x 1024^3 each */
	RT_EQ_U64(R0.total.flops[RFL_FP16_TENSOR], 2147483648ull);
	RT_EQ_U64(R0.total.flops[RFL_BF16_TENSOR], 2147483648ull);
	RT_EQ_U64(R0.total.tensor_inst, 196608ull);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2244608ull);
	RT_CHECK(!(R0.flags & RFL_REDUCE_TENSOR_ESTIMATED));
	RT_CHECK(!has_warning(&R0, RFL_WARN_TENSOR_UNCOUNTED));
	/* L1 bytes (264,192) below L2 bytes: the inversion warning */
	RT_CHECK(has_warning(&R0, RFL_WARN_HIERARCHY));
	/* the same file without its tensor-path columns: estimated from the
	   instruction counts, 65,536 per kernel, at the wgmma factor the three
	   sm90/nvjet names give (32768): each kernel's 2 x 1024^3 in the
	   precision its name gives (tf32; nvjet "tst" BF16, "hsh" FP16) */
	{
		char *c = (char *)malloc(n + 1), *s;
		memcpy(c, b, n + 1);
		for (s = c; (s = strstr(s, "\"sm__ops_path_tensor_op_")) != 0; s++) s[1] = 'x';
		RT_EQ_INT(reduce_mode(c, n, &d, 0, &R1), RFL_OK);
		RT_EQ_U64(rfl_reduce_tensor_flops(&R1.total), 196608ull * 32768ull);
		RT_EQ_U64(R1.total.flops[RFL_TF32_TENSOR], 2147483648ull);
		RT_EQ_U64(R1.total.flops[RFL_BF16_TENSOR], 2147483648ull);
		RT_EQ_U64(R1.total.flops[RFL_FP16_TENSOR], 2147483648ull);
		RT_CHECK(R1.flags & RFL_REDUCE_TENSOR_ESTIMATED);
		RT_CHECK(has_warning(&R1, RFL_WARN_TENSOR_ESTIMATED));
		RT_NEAR(R1.tensor_flops_per_inst, 32768, 0);
		/* the caller's factor wins (NERSC's Volta figure) */
		d.tensor_flops_per_inst = 512;
		RT_EQ_INT(reduce_mode(c, n, &d, 2, &R1), RFL_OK);
		RT_EQ_U64(rfl_reduce_tensor_flops(&R1.total), 196608ull * 512);
		d.tensor_flops_per_inst = 0;
		free(c);
	}
	free(b);

	/* Exports with every sm__ops_path_tensor_op_* counter carry X,
	   X_sparsity_off and X_sparsity_on (off + on = X): X alone counts. The
	   expected sums are the base columns added up with Python's csv module:
	   ResNet-50 b8 TF32 hgmma 33,420,214,272 + hmma 40,256,929,792; ResNet-18
	   b1 train TF32 hgmma 83,886,080 + hmma 6,388,973,568. Without the base
	   columns the breakdowns give the same totals. */
	{
		static const char *files[2] = {"resnet50-b8-infer-tf32-full-raw.csv",
									   "resnet18-b1-train-tf32-full-raw.csv"};
		static const uint64_t want[2] = {33420214272ull + 40256929792ull,
										 83886080ull + 6388973568ull};
		int f;
		for (f = 0; f < 2; f++) {
			char *s, *q;
			b = load(files[f], &n);
			RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
			RT_EQ_U64(R1.total.flops[RFL_TF32_TENSOR], want[f]);
			RT_EQ_U64(rfl_reduce_tensor_flops(&R1.total), want[f]);
			for (s = b; (s = strstr(s, "\"sm__ops_path_tensor_op_")) != 0; s++) {
				q = strchr(s + 1, '"');
				if (q && !memmem_n(s, (size_t)(q - s), "_sparsity_")) s[1] = 'x';
			}
			RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
			RT_EQ_U64(R1.total.flops[RFL_TF32_TENSOR], want[f]);
			RT_CHECK(!(R1.flags & RFL_REDUCE_TENSOR_ESTIMATED));
			free(b);
		}
	}

	/* roofline sections: FP counts only as per-cycle rates (2 decimals) and
	   DRAM only as bytes/s: counts derived, close to the seed's exact ones */
	b = load("micro-roofline-sections-raw.csv", &n);
	reduce_all_ways(b, n, &d, "roofline-sections");
	RT_CHECK(R0.flags & RFL_REDUCE_RATE_DERIVED);
	RT_CHECK(has_warning(&R0, RFL_WARN_RATE_DERIVED));
	RT_NEAR((double)R0.total.flops[RFL_FP32], 2233466880.0, 0.001);
	RT_NEAR((double)R0.total.bytes[RFL_DRAM], 558875392.0, 0.01);
	RT_EQ_U64(R0.total.time_ns, 63136ull + 62496 + 62400 + 60832); /* the file's own 4 times */
	RT_NEAR(R0.ceil_flops[RFL_FP32], 67e12, 0.01);  /* README: ~67 TFLOP/s */
	RT_NEAR(R0.ceil_bw[RFL_DRAM], 3.35e12, 0.005);  /* README: ~3.35 TB/s */
	RT_NEAR(R0.ceil_flops[RFL_FP64], 67e12 / 2, 0.01); /* dfma peak 8,448 = half */
	free(b);
}

/* ---- nvprof (hand-written from the nvprof documentation's CSV layout) ---- */
static void test_nvprof(void) {
	size_t n1, n2, n3;
	char *m = load("nvprof-metrics.csv", &n1), *s = load("nvprof-summary.csv", &n2),
		 *t = load("nvprof-trace.csv", &n3), *cat;
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	reduce_all_ways(m, n1, &d, "nvprof-metrics");
	RT_EQ_INT(R0.format, RFL_CSV_NVPROF_METRICS);
	RT_EQ_U64(R0.kernels, 2);
	/* saxpy 2 x 2,097,152 + sgemm 2,147,483,648 */
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2ull * 2097152 + 2147483648ull);
	RT_EQ_U64(R0.total.flops[RFL_FP64], 0);
	/* saxpy: (262,172 + 131,072) transactions x 2 invocations x 32 B;
	   sgemm: 12,582,912 + 4,194,304 bytes */
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], (262172ull + 131072) * 2 * 32 + 12582912 + 4194304);
	RT_EQ_U64(R0.total.invocations, 3);
	RT_CHECK(!known(&R0.total, RFL_UNKNOWN_TIME)); /* no time in a metrics export */
	reduce_all_ways(s, n2, &d, "nvprof-summary");
	RT_EQ_INT(R0.format, RFL_CSV_NVPROF_SUMMARY);
	/* kernels only (memcpy and API rows excluded): 1.234567 ms + 0.230000 ms */
	RT_EQ_U64(R0.total.time_ns, 1234567ull + 230000);
	RT_CHECK(!has_warning(&R0, RFL_WARN_AUTO_UNITS)); /* 6 decimals of ms: ns kept */
	reduce_all_ways(t, n3, &d, "nvprof-trace");
	RT_EQ_INT(R0.format, RFL_CSV_NVPROF_TRACE);
	RT_EQ_U64(R0.total.time_ns, 115008ull + 114992 + 1234567); /* us with 3 decimals */
	/* one stream: summary then metrics (cat s m | rfl-reduce -) */
	cat = (char *)malloc(n1 + n2 + 1);
	memcpy(cat, s, n2), memcpy(cat + n2, m, n1);
	reduce_all_ways(cat, n1 + n2, &d, "nvprof-cat");
	RT_EQ_U64(R0.total.time_ns, 1464567ull);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2ull * 2097152 + 2147483648ull);
	RT_NEAR(R0.flops_per_s, (2.0 * 2097152 + 2147483648.0) / 1464567e-9, 1e-12);
	free(cat), free(m), free(s), free(t);
}

/* ---- transformations: CRLF, BOM, preamble, EU locale ------------------------ */
static char *to_crlf(const char *b, size_t n, size_t *out) {
	char *c = (char *)malloc(2 * n + 4);
	size_t i, k = 0;
	memcpy(c, "\xEF\xBB\xBF", 3), k = 3; /* and a BOM */
	for (i = 0; i < n; i++) {
		if (b[i] == '\n') c[k++] = '\r';
		c[k++] = b[i];
	}
	*out = k;
	return c;
}
/* European ncu: swap ',' and '.' inside quoted numbers ("3,355,641.60" ->
   "3.355.641,60"); other fields unchanged. */
static char *to_eu(const char *b, size_t n) {
	char *c = (char *)malloc(n + 1);
	size_t i = 0, j;
	memcpy(c, b, n + 1);
	while (i < n) {
		if (c[i] != '"') { i++; continue; }
		for (j = i + 1; j < n && c[j] != '"'; j++) {}
		if (j < n) {
			size_t k;
			int num = j > i + 1;
			for (k = i + 1; k < j; k++)
				if (!((c[k] >= '0' && c[k] <= '9') || c[k] == ',' || c[k] == '.')) num = 0;
			if (num)
				for (k = i + 1; k < j; k++) c[k] = c[k] == ',' ? '.' : c[k] == '.' ? ',' : c[k];
		}
		i = j + 1;
	}
	return c;
}

static void test_transforms(void) {
	size_t n, n2;
	char *b = load("micro-seed-raw.csv", &n), *c, *p;
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	/* BOM + CRLF: the same ground truth */
	c = to_crlf(b, n, &n2);
	reduce_all_ways(c, n2, &d, "crlf");
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2233466880ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 558875392ull);
	RT_EQ_U64(R0.total.time_ns, 250176ull);
	RT_CHECK(strchr(R0.top[0].name, '\r') == 0);
	free(c);
	/* the application's own output before the header (2>&1), with commas
	   and quotes, and an ==ERROR== line */
	{
		const char *pre = "Epoch 1, loss \"0.5\", acc 0.9\n==ERROR== something\n"
						  "ID is not a header here\n\n";
		size_t np = strlen(pre);
		p = (char *)malloc(n + np + 1);
		memcpy(p, pre, np), memcpy(p + np, b, n + 1);
		reduce_all_ways(p, n + np, &d, "preamble");
		RT_EQ_U64(R0.total.flops[RFL_FP32], 2233466880ull);
		RT_EQ_U64(R0.kernels, 4);
		free(p);
	}
	/* EU locale: detected from "3.355.641,60"-style values */
	c = to_eu(b, n);
	RT_CHECK(strstr(c, "\"3.355.641,60\"") != 0);
	reduce_all_ways(c, n, &d, "eu");
	RT_EQ_INT(R0.locale, RFL_LOCALE_EU);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2233466880ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 558875392ull);
	RT_EQ_U64(R0.total.time_ns, 250176ull);
	/* declared EU: same; declared US: an error naming the value */
	d.locale = RFL_LOCALE_EU;
	RT_EQ_INT(reduce_mode(c, n, &d, 2, &R1), RFL_OK);
	RT_EQ_U64(R1.total.flops[RFL_FP32], 2233466880ull);
	d.locale = RFL_LOCALE_US;
	RT_EQ_INT(reduce_mode(c, n, &d, 0, &R1), RFL_ERR_LOCALE);
	RT_EQ_U64(st.err.line, 6); /* the first data row */
	d.locale = RFL_LOCALE_AUTO;
	free(c);
	/* the EU alexnet: every full-set quantity still exact */
	free(b);
	b = load("alexnet-b1-train-full-raw.csv", &n);
	c = to_eu(b, n);
	RT_EQ_INT(reduce_mode(c, n, &d, 2, &R0), RFL_OK);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 5648711651ull);
	RT_EQ_U64(R0.total.bytes[RFL_L2], 1716552576ull);
	RT_EQ_U64(R0.total.time_ns, 1100672ull);
	RT_NEAR(R0.ceil_bw[RFL_DRAM], 3.35e12, 0.01);
	free(c), free(b);
}

/* ---- small hand-made files ---------------------------------------------------- */
static rfl_result red(const char *text, int loc) { /* int: C++ takes 0 too */
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	d.locale = (rfl_locale)loc;
	return reduce_mode(text, strlen(text), &d, 1, &R0);
}

#define RAW_HDR "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"

static void test_locale_and_units(void) {
	/* every value reads both ways: ambiguous, an error unless declared */
	const char *amb = RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n"
							  "\"0\",\"k\",\"1,280\",\"2,048\",\"1,024\"\n";
	RT_EQ_INT(red(amb, RFL_LOCALE_AUTO), RFL_ERR_LOCALE);
	RT_EQ_U64(st.err.line, 3);
	RT_EQ_U64(st.err.col, 9); /* the first ambiguous value: "1,280" */
	RT_EQ_INT(red(amb, RFL_LOCALE_US), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 1280);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 2048);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2048);
	RT_EQ_INT(red(amb, RFL_LOCALE_EU), RFL_OK); /* 1,280 ns = 1.28 ns -> 1 */
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 2);
	/* a later value in the row decides: "65,77" can only be European */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n"
						  "\"0\",\"k\",\"1.280\",\"2.048\",\"65,77\"\n", RFL_LOCALE_AUTO), RFL_OK);
	RT_EQ_INT(R0.locale, RFL_LOCALE_EU);
	RT_EQ_U64(R0.total.time_ns, 1280);
	/* mixed conventions in one file */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n"
						  "\"0\",\"k\",\"1,280.5\",\"2\",\"3\"\n\"1\",\"k\",\"1.280,5\",\"2\",\"3\"\n",
				  RFL_LOCALE_AUTO), RFL_ERR_LOCALE);
	RT_EQ_U64(st.err.line, 4);
	/* units: prefixes normalised; decimal and binary */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"usecond\",\"Kbyte\",\"inst\"\n"
						  "\"0\",\"k\",\"1.5\",\"3\",\"7\"\n", RFL_LOCALE_AUTO), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 1500);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 3000);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 14);
	RT_CHECK(has_warning(&R0, RFL_WARN_AUTO_UNITS));
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"msecond\",\"MiB\",\"\"\n\"0\",\"k\",\"2\",\"1\",\"7\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 2000000);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 1048576);
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"second\",\"GiB\",\"\"\n\"0\",\"k\",\"2\",\"1\",\"7\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 2000000000ull);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 1073741824ull);
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ms\",\"Gbyte\",\"\"\n\"0\",\"k\",\"0.000001\",\"1.5\",\"7\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 1);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 1500000000ull);
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"nsecond\",\"Tbyte\",\"\"\n\"0\",\"k\",\"5\",\"2\",\"7\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 2000000000000ull);
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"us\",\"KiB\",\"\"\n\"0\",\"k\",\"5\",\"2\",\"7\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 5000);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 2048);
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"s\",\"GB\",\"\"\n\"0\",\"k\",\"1\",\"2\",\"7\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 2000000000ull);
	/* an unknown unit on a used metric is an error at the unit's position */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"furlong\",\"\"\n\"0\",\"k\",\"1\",\"2\",\"3\"\n", 0), RFL_ERR_UNIT);
	RT_EQ_U64(st.err.line, 2);
	RT_EQ_U64(st.err.col, 12); /* "","","ns", then the unit */
	/* a time in bytes is as wrong as an unknown unit */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"byte\",\"byte\",\"\"\n\"0\",\"k\",\"1\",\"2\",\"3\"\n", 0), RFL_ERR_UNIT);
	/* frequency units: Mhz and cycle/nsecond (older ncu) */
	RT_EQ_INT(red("\"ID\",\"sm__cycles_elapsed.avg\",\"sm__cycles_elapsed.avg.per_second\"\n"
				  "\"\",\"cycle\",\"cycle/nsecond\"\n\"0\",\"2,000.00\",\"2\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 1000); /* 2,000 cycles at 2 GHz, no gpu__time */
	RT_CHECK(R0.total.flags & RFL_REDUCE_TIME_FROM_CYCLES);
	RT_EQ_INT(red("\"ID\",\"sm__cycles_elapsed.avg\",\"sm__cycles_elapsed.avg.per_second\"\n"
				  "\"\",\"cycle\",\"Mhz\"\n\"0\",\"2,000\",\"1,000.0\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.time_ns, 2000);
	/* details page with its own unit per row, n/a and empty values */
	RT_EQ_INT(red("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
				  "\"0\",\"a\",\"gpu__time_duration.sum\",\"usecond\",\"1.5\"\n"
				  "\"0\",\"a\",\"dram__bytes_read.sum\",\"Mbyte\",\"2\"\n"
				  "\"0\",\"a\",\"dram__bytes_write.sum\",\"byte\",\"n/a\"\n"
				  "\"0\",\"a\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"\"\n"
				  "\"1\",\"b\",\"gpu__time_duration.sum\",\"nsecond\",\"500\"\n"
				  "\"1\",\"b\",\"sm__unused_metric.sum\",\"parsec\",\"500\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.kernels, 2);
	RT_EQ_U64(R0.total.time_ns, 2000);
	RT_EQ_U64(R0.top[0].bytes[RFL_DRAM], 2000000);
	RT_CHECK(!known(&R0.top[1], RFL_UNKNOWN_BYTES(RFL_DRAM))); /* kernel b: no bytes */
	RT_CHECK(!known(&R0.total, RFL_UNKNOWN_BYTES(RFL_DRAM)));
	/* undecided locale: each reading keeps its own sum. "1,280" reads
	   1280 (US) or 1.28 (EU); the plain "5" adds 5 to both; "1.234,5"
	   can only be European, so dram = 1.28 + 5 = 6.28 -> 6 bytes (the US
	   sum, 1285, must not leak into the European one) */
	RT_EQ_INT(red("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
				  "\"0\",\"a\",\"dram__bytes_read.sum\",\"byte\",\"1,280\"\n"
				  "\"0\",\"a\",\"dram_read_bytes\",\"byte\",\"5\"\n"
				  "\"0\",\"a\",\"gpu__time_duration.sum\",\"nsecond\",\"1.234,5\"\n", 0),
			  RFL_OK);
	RT_EQ_INT(R0.locale, RFL_LOCALE_EU);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 6);
	/* quoted fields with commas and doubled quotes; unquoted numbers */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n"
						  "0,\"f<a, \"\"b\"\">(int, float)\",\"1,000\",\"3,000,000\",7\n", 0), RFL_OK);
	RT_STR(R0.top[0].name, "f<a, \"b\">(int, float)");
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 3000000);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 14);
}

static void test_errors(void) {
	/* unterminated quote at the end of input: line and column of the quote */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k,1\n", 0), RFL_ERR_TRUNCATED);
	RT_EQ_U64(st.err.line, 3);
	RT_EQ_U64(st.err.col, 5);
	/* wrong field count: too many (at the extra field), too few (row end) */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"2\",\"3\",\"4\"\n", 0), RFL_ERR_SYNTAX);
	RT_EQ_U64(st.err.line, 3);
	RT_EQ_U64(st.err.col, 21); /* the sixth field */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"2\",\"3\"\n\"1\",\"k\",\"1\"\n", 0), RFL_ERR_SYNTAX);
	RT_EQ_U64(st.err.line, 4);
	RT_EQ_U64(st.err.col, 12);
	/* a non-number in a metric column */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"12abc\",\"3\"\n", 0), RFL_ERR_NUMBER);
	RT_EQ_U64(st.err.line, 3);
	RT_EQ_U64(st.err.col, 13);
	RT_CHECK(strstr(st.err.msg, "12abc") != 0);
	/* ... but a non-number in an unused column is fine */
	RT_EQ_INT(red("\"ID\",\"Block Size\",\"gpu__time_duration.sum\"\n\"\",\"\",\"ns\"\n\"0\",\"(128, 1, 1)\",\"5\"\n", 0), RFL_OK);
	/* no header, empty input, whitespace only */
	RT_EQ_INT(red("==PROF== Connected\nhello, world\n", 0), RFL_ERR_NO_HEADER);
	RT_EQ_INT(red("", 0), RFL_ERR_EMPTY);
	RT_EQ_INT(red("\n\r\n  \n", 0), RFL_ERR_EMPTY);
	/* a numeric field longer than the carry */
	{
		static char big[1200];
		size_t k = (size_t)sprintf(big, RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"");
		memset(big + k, '1', 400), k += 400;
		strcpy(big + k, "\",\"3\"\n");
		RT_EQ_INT(red(big, 0), RFL_ERR_FIELD_TOO_LONG);
		RT_EQ_U64(st.err.line, 3);
		RT_EQ_U64(st.err.col, 13);
		RT_EQ_INT(reduce_mode(big, strlen(big), 0, 0, &R0), RFL_ERR_FIELD_TOO_LONG);
	}
	/* scratch: too small for the column map; too small at all */
	{
		size_t n;
		char *b = load("micro-seed-raw.csv", &n);
		static unsigned char small[RFL_REDUCE_SCRATCH_SIZE(100)];
		RT_EQ_INT(rfl_reduce_init(&st, 0, small, sizeof small), RFL_OK);
		RT_EQ_INT(rfl_reduce_push(&st, b, n), RFL_ERR_BUFFER);
		RT_EQ_U64(st.err.line, 4); /* the header row */
		RT_EQ_INT(rfl_reduce_init(&st, 0, small, 10), RFL_ERR_BUFFER);
		RT_EQ_INT(rfl_reduce_init(&st, 0, 0, 10), RFL_ERR_ARG);
		/* exactly RFL_REDUCE_SCRATCH_SIZE(293 columns) is enough */
		RT_EQ_INT(rfl_reduce_init(&st, 0, scratch, RFL_REDUCE_SCRATCH_SIZE(293)), RFL_OK);
		RT_EQ_INT(rfl_reduce_push(&st, b, n), RFL_OK);
		RT_EQ_INT(rfl_reduce_finish(&st, &R0), RFL_OK);
		RT_EQ_U64(R0.total.flops[RFL_FP32], 2233466880ull);
		/* call order */
		RT_EQ_INT(rfl_reduce_push(&st, b, 1), RFL_ERR_STATE);
		RT_EQ_INT(rfl_reduce_finish(&st, &R0), RFL_ERR_STATE);
		free(b);
	}
}

/* ---- groups, filters, callback, saturation, machine warnings ------------- */
static uint64_t cb_calls, cb_flops;
static void on_kernel(void *user, const rfl_kernel_stat *k) {
	(void)user;
	cb_calls++;
	cb_flops += k->flops[RFL_FP32];
}

static void test_groups_filters(void) {
	size_t n;
	char *b = load("resnet18-b1-train-seed-raw.csv", &n);
	static rfl_kernel_stat groups[4];
	rfl_reduce_desc d;
	uint64_t fl = 0, t = 0, cnt = 0;
	int i;
	memset(&d, 0, sizeof d);
	d.groups = groups, d.group_cap = 4;
	d.on_kernel = on_kernel;
	reduce_all_ways(b, n, &d, "groups");
	RT_EQ_INT(R0.group_count, 4);
	for (i = 0; i < 4; i++) fl += groups[i].flops[RFL_FP32], t += groups[i].time_ns, cnt += groups[i].invocations;
	fl += R0.other.flops[RFL_FP32], t += R0.other.time_ns, cnt += R0.other.invocations;
	RT_CHECK(R0.other.invocations > 0);
	RT_EQ_U64(fl, 10278929315ull); /* nothing dropped: groups + other = total */
	RT_EQ_U64(t, 2641696ull);
	RT_EQ_U64(cnt, 237);
	RT_CHECK(has_warning(&R0, RFL_WARN_GROUPS_FULL));
	/* callback: once per kernel, same sums (5 runs above + this one) */
	cb_calls = cb_flops = 0;
	RT_EQ_INT(reduce_mode(b, n, &d, 0, &R0), RFL_OK);
	RT_EQ_U64(cb_calls, 237);
	RT_EQ_U64(cb_flops, 10278929315ull);
	free(b);
	/* filters on the micro program: IDs 0-1 (add, mul); name "gemm" */
	b = load("micro-seed-raw.csv", &n);
	memset(&d, 0, sizeof d);
	d.use_ids = 1, d.id_first = 0, d.id_last = 1;
	RT_EQ_INT(reduce_mode(b, n, &d, 2, &R0), RFL_OK);
	RT_EQ_U64(R0.kernels, 2);
	RT_EQ_U64(R0.kernels_seen, 4);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2ull * 16777216 + 16777216);
	memset(&d, 0, sizeof d);
	d.filter = "gemm";
	RT_EQ_INT(reduce_mode(b, n, &d, 2, &R0), RFL_OK);
	RT_EQ_U64(R0.kernels, 1);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 2ull * 1074790400);
	/* top N */
	memset(&d, 0, sizeof d);
	d.top_n = 2;
	RT_EQ_INT(reduce_mode(b, n, &d, 0, &R0), RFL_OK);
	RT_EQ_INT(R0.top_count, 2);
	RT_CHECK(R0.top[0].time_ns >= R0.top[1].time_ns);
	/* machine warnings: a made-up machine with a tiny roof and a high clock */
	{
		rfl_machine m;
		memset(&m, 0, sizeof m);
		m.id = "tiny";
		m.peak_flops[RFL_FP32] = 1e12;      /* the SGEMM ran at ~35 TFLOP/s */
		m.bw_bytes_per_s[RFL_DRAM] = 1e12;
		m.boost_mhz = 2500;
		memset(&d, 0, sizeof d);
		d.machine = &m;
		free(b);
		b = load("alexnet-b1-train-full-raw.csv", &n);
		RT_EQ_INT(reduce_mode(b, n, &d, 0, &R0), RFL_OK);
		RT_CHECK(has_warning(&R0, RFL_WARN_ABOVE_ROOF));
		RT_CHECK(has_warning(&R0, RFL_WARN_LOW_CLOCK)); /* ~1.97 GHz vs 2.5 */
		m.peak_flops[RFL_FP32] = 1e15, m.bw_bytes_per_s[RFL_DRAM] = 1e14, m.boost_mhz = 1980;
		RT_EQ_INT(reduce_mode(b, n, &d, 0, &R0), RFL_OK);
		RT_CHECK(!has_warning(&R0, RFL_WARN_ABOVE_ROOF));
		RT_CHECK(!has_warning(&R0, RFL_WARN_LOW_CLOCK));
	}
	free(b);
}

static void test_saturation_and_misc(void) {
	/* 18e18 + 18e18 overflows uint64: saturated and flagged, never wrapped */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n"
						  "\"0\",\"k\",\"1\",\"18,000,000,000,000,000,000\",\"1\"\n"
						  "\"1\",\"k\",\"1\",\"18,000,000,000,000,000,000\",\"1\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], UINT64_MAX);
	RT_CHECK(R0.flags & RFL_REDUCE_SATURATED);
	RT_CHECK(has_warning(&R0, RFL_WARN_SATURATED));
	/* counts above 2^53 are exact in any spelling: 20 digits, or 19 with a
	   zero fraction (fuzz findings in tests/regress/number/), and a
	   fraction rounds half up */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n"
						  "\"0\",\"k\",\"1\",\"60740005549520000.00\",\"1\"\n"
						  "\"1\",\"k\",\"1\",\"12345678901234567891\",\"1\"\n"
						  "\"2\",\"k\",\"1\",\"9007199254740993.5\",\"1\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM],
			  60740005549520000ull + 12345678901234567891ull + 9007199254740994ull);
	/* 5,555,555,555,555,555.5 KiB = 55,555,555,555,555,555 x 1024 / 10 =
	   5,688,888,888,888,888,832 bytes: exact although m x 1024 > 2^64 */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"KiB\",\"inst\"\n"
						  "\"0\",\"k\",\"1\",\"5,555,555,555,555,555.5\",\"1\"\n", 0), RFL_OK);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 5688888888888888832ull);
	/* no FP counters at all: FLOPs unknown, warned */
	RT_EQ_INT(red("\"ID\",\"gpu__time_duration.sum\"\n\"\",\"ns\"\n\"0\",\"5\"\n", 0), RFL_OK);
	RT_CHECK(has_warning(&R0, RFL_WARN_NO_FP_COUNTERS));
	RT_EQ_INT(R0.flops_per_s == 0, 1);
	/* only ffma collected: a lower bound, said so */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"2\",\"3\"\n", 0), RFL_OK);
	RT_CHECK(has_warning(&R0, RFL_WARN_PARTIAL_COUNTERS));
	/* the last row without a newline; a blank line then ==PROF== at the end */
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"2\",\"3\"", 0), RFL_OK);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], 2);
	RT_EQ_INT(red(RAW_HDR "\"\",\"\",\"ns\",\"byte\",\"inst\"\n\"0\",\"k\",\"1\",\"2\",\"3\"\n\n==PROF== Disconnected\n", 0), RFL_OK);
	RT_EQ_U64(R0.kernels, 1);
	/* auto units on the real --print-units auto capture */
	{
		size_t n;
		char *b = load("micro-auto-units-details.csv", &n);
		rfl_reduce_desc d;
		memset(&d, 0, sizeof d);
		reduce_all_ways(b, n, &d, "auto-units");
		RT_CHECK(has_warning(&R0, RFL_WARN_AUTO_UNITS));
		RT_CHECK(R0.auto_units_rel_err > 1e-4); /* "4.26 Mbyte": 3 digits */
		/* 134.23 Mbyte read by the add kernel = 134,230,000 bytes */
		RT_EQ_U64(R0.top[0].bytes[RFL_DRAM], 134230000ull + 48810000ull);
		RT_EQ_U64(R0.top[0].time_ns, 62910ull); /* 62.91 us */
		free(b);
	}
	RT_STR(rfl_reduce_format_name(RFL_CSV_NCU_DETAILS), "ncu-details");
}

/* A generated raw page that exercises the 64-byte row walker against the
   byte-at-a-time path: doubled quotes and commas in names, unquoted and
   empty fields, n/a, CRLF on some rows, long rows of unused columns.
   The expected sums are accumulated here while writing the rows. */
static void test_walker_mix(void) {
	static char buf[1 << 20];
	size_t n = 0;
	int i, j;
	uint64_t want_t = 0, want_b = 0, want_f = 0;
	rfl_reduce_desc d;
	memset(&d, 0, sizeof d);
	n += (size_t)sprintf(buf + n, "==PROF== x\n\"ID\",\"Kernel Name\"");
	for (j = 0; j < 40; j++) n += (size_t)sprintf(buf + n, ",\"unused_%d\"", j);
	n += (size_t)sprintf(buf + n, ",\"gpu__time_duration.sum\",\"u2\",\"dram__bytes_read.sum\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"u3\"\n\"\",\"\"");
	for (j = 0; j < 40; j++) n += (size_t)sprintf(buf + n, ",\"\"");
	n += (size_t)sprintf(buf + n, ",\"ns\",\"\",\"byte\",\"inst\",\"\"\n");
	for (i = 0; i < 300; i++) {
		unsigned t = 1000u + (unsigned)i, by = 1000000u + 7u * (unsigned)i, f = (unsigned)i % 5;
		n += (size_t)sprintf(buf + n, "\"%d\",", i);
		if (i % 3 == 0) n += (size_t)sprintf(buf + n, "\"k<a, \"\"%d\"\">(int, float)\"", i % 7);
		else n += (size_t)sprintf(buf + n, "plain_kernel_%d", i % 4);
		for (j = 0; j < 40; j++) {
			if ((i + j) % 11 == 0) n += (size_t)sprintf(buf + n, ",");
			else if ((i + j) % 13 == 0) n += (size_t)sprintf(buf + n, ",%d", j);
			else if ((i + j) % 17 == 0) n += (size_t)sprintf(buf + n, ",\"a \"\"q\"\", b\"");
			else n += (size_t)sprintf(buf + n, ",\"%d,%03d\"", j, i % 1000);
		}
		n += (size_t)sprintf(buf + n, ",\"%u,%03u.0\",\"(1, 2)\",", t / 1000, t % 1000);
		if (i % 10 == 9) n += (size_t)sprintf(buf + n, "\"n/a\""); /* unknown bytes */
		else n += (size_t)sprintf(buf + n, "%u", by), want_b += by;
		n += (size_t)sprintf(buf + n, ",\"%u\",\"x\"%s", f, i % 4 == 1 ? "\r\n" : "\n");
		want_t += t, want_f += 2 * f;
	}
	RT_CHECK(n < sizeof buf);
	reduce_all_ways(buf, n, &d, "walker-mix");
	RT_EQ_U64(R0.kernels, 300);
	RT_EQ_U64(R0.total.time_ns, want_t);
	RT_EQ_U64(R0.total.flops[RFL_FP32], want_f);
	RT_EQ_U64(R0.total.bytes[RFL_DRAM], want_b);  /* n/a rows add nothing ... */
	RT_CHECK(!known(&R0.total, RFL_UNKNOWN_BYTES(RFL_DRAM))); /* ... and make it unknown */
	RT_CHECK(strcmp(R0.top[0].name, "plain_kernel_3") == 0 || strchr(R0.top[0].name, '"'));
	{
		int quoted = 0;
		for (i = 0; i < R0.top_count; i++)
			if (strstr(R0.top[i].name, "k<a, \"")) quoted++;
		RT_CHECK(quoted > 0); /* doubled quotes unescaped */
		for (i = 0; i < R0.top_count; i++) RT_CHECK(!strchr(R0.top[i].name, '\r'));
	}
}

/* ---- tensor cores: which kernels, estimates, and what the warnings say ----- */
/* Turn every header column starting with `prefix` into an unknown name. */
static void knock(char *b, const char *prefix) {
	char pat[96];
	char *s;
	snprintf(pat, sizeof pat, "\"%s", prefix);
	for (s = b; (s = strstr(s, pat)) != 0; s++) s[1] = 'x';
}
static void no_truncated_text(const rfl_reduce_result *r) {
	int i;
	for (i = 0; i < r->warning_count; i++) {
		size_t n = strlen(r->warnings[i].text);
		if (n + 1 >= RFL_REDUCE_WARN_TEXT) printf("  cut: %s\n", r->warnings[i].text);
		RT_CHECK(n + 1 < RFL_REDUCE_WARN_TEXT);
	}
}
static void test_tensor_kernels(void) {
	/* Names from the H100 captures. Precision: the tensor counter that was
	   non-zero for that kernel; FLOPs per tensor-pipe instruction: counted
	   FLOPs / sm__inst_executed_pipe_tensor of the same kernel (2048 for
	   every sm80 TF32 kernel; 2^31 / 65,536 = 32768 for micro-tc's three). */
	static const struct { const char *name; int tc; rfl_prec prec; double per; } names[] = {
		{"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x32x64_"
		 "stage5_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel__5x_cudnn",
		 1, RFL_TF32_TENSOR, 2048},
		{"void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x128_32x3_nn_align4>(T1::Params)",
		 1, RFL_TF32_TENSOR, 2048},
		{"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x128x32_warpgroupsize1x1x1_execute_"
		 "segment_k_off_kernel__5x_cublas", 1, RFL_TF32_TENSOR, 32768},
		{"nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT", 1, RFL_BF16_TENSOR, 32768},
		{"nvjet_sm90_hsh_128x64_64x8_1x2_h_bz_NNT", 1, RFL_FP16_TENSOR, 32768},
		/* the FP16 capture: an sm90 kernel on mma.sync (2048 measured), a
		   CUTLASS m16n8k16 GEMM (4096 measured) */
		{"sm90_xmma_fprop_image_first_layer_f16f16_f32_f16_nhwckrsc_nhwc_hmma_k64c4r7s7_"
		 "stride2x2_tile16x64x64_tensor1688_execute_kernel_kernel__5x_cudnn", 1,
		 RFL_FP16_TENSOR, 2048},
		{"void cutlass::Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_256x128_32x3_nn_align8>"
		 "(T1::Params)", 1, RFL_FP16_TENSOR, 4096},
		/* FP32 kernels of the TF32-off captures, some with tensor-pipe counts */
		{"sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3_"
		 "warpsize1x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn", 0, RFL_FP32, 0},
		{"void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(T1::Params)", 0,
		 RFL_FP32, 0},
		{"void engines_precompiled::nchwToNhwcKernel<float, float, float, 0, 1, 2>("
		 "engines_precompiled::nchw2nhwc_params_t<T3>, const T1 *, T2 *)", 0, RFL_FP32, 0},
		{"void at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<float>, "
		 "std::array<char *, 3>>(int, T2, T3)", 0, RFL_FP32, 0},
		{"void winograd_nonfused::winogradForwardData9x9_5x5<float, float>("
		 "winograd_nonfused::WinogradDataParams<T1, T2>)", 0, RFL_FP32, 0},
	};
	rfl_reduce_desc d;
	size_t n, i;
	char *b;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		rfl_prec p = RFL_FP32;
		double sync = 0, wg = 0;
		int tc = rfl__tc_kernel(names[i].name, 9, &p, &sync, &wg);
		if (!tc != !names[i].tc) printf("  %s: tensor-core %d\n", names[i].name, tc);
		RT_EQ_INT(!tc, !names[i].tc);
		if (tc) {
			RT_EQ_INT(p, names[i].prec);
			RT_NEAR(tc == 2 ? wg : sync, names[i].per, 0);
		}
	}
	memset(&d, 0, sizeof d);

	/* The reports' A100 situation, made from the ResNet-18 TF32 capture:
	   only the SASS counters (tensor FLOP and tensor-pipe columns knocked
	   out). The 28 kernels with non-zero tensor counters in the capture
	   (counted with Python's csv module) are named as missing. */
	b = load("resnet18-b1-train-tf32-full-raw.csv", &n);
	knock(b, "sm__ops_path_tensor_op_");
	knock(b, "sm__inst_executed_pipe_tensor");
	RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
	RT_CHECK(has_warning(&R1, RFL_WARN_TENSOR_UNCOUNTED));
	RT_CHECK(!has_warning(&R1, RFL_WARN_NO_TENSOR_COUNTERS));
	for (i = 0; i < (size_t)R1.warning_count; i++)
		if (R1.warnings[i].code == RFL_WARN_TENSOR_UNCOUNTED)
			RT_CHECK(strncmp(R1.warnings[i].text, "28 tensor-core kernel(s)", 24) == 0);
	RT_CHECK(!rfl_work_known(&R1.total.work, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR)));
	no_truncated_text(&R1);
	free(b);

	/* Instruction counts only: each named kernel estimated by its shape.
	   Truth: the capture's own counters, 83,886,080 + 6,388,973,568. */
	b = load("resnet18-b1-train-tf32-full-raw.csv", &n);
	knock(b, "sm__ops_path_tensor_op_");
	RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
	RT_CHECK(R1.flags & RFL_REDUCE_TENSOR_ESTIMATED);
	RT_CHECK(has_warning(&R1, RFL_WARN_TENSOR_ESTIMATED));
	RT_NEAR((double)R1.total.flops[RFL_TF32_TENSOR], 83886080.0 + 6388973568.0, 0.01);
	RT_EQ_U64(R1.total.flops[RFL_FP16_TENSOR], 0);
	no_truncated_text(&R1);
	free(b);

	/* AlexNet, TF32 off: the tensor pipe ran only in non-matrix kernels, so
	   an estimate from instructions gives no tensor FLOPs at all (one
	   factor for every instruction made 10.7 GFLOP up). */
	b = load("alexnet-b1-train-full-raw.csv", &n);
	knock(b, "sm__ops_path_tensor_op_");
	RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
	RT_EQ_U64(rfl_reduce_tensor_flops(&R1.total), 0);
	RT_CHECK(rfl_work_known(&R1.total.work, RFL_UNKNOWN_FLOPS(RFL_TF32_TENSOR)));
	RT_CHECK(!(R1.flags & RFL_REDUCE_TENSOR_ESTIMATED));
	RT_CHECK(!has_warning(&R1, RFL_WARN_TENSOR_UNCOUNTED));
	free(b);

	/* The seed metric set on FP32 ResNet-18: no tensor counter, no
	   tensor-core name: the note that says what the counters cannot see */
	b = load("resnet18-b1-train-seed-raw.csv", &n);
	RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
	RT_CHECK(has_warning(&R1, RFL_WARN_NO_TENSOR_COUNTERS));
	RT_CHECK(!has_warning(&R1, RFL_WARN_TENSOR_UNCOUNTED));
	no_truncated_text(&R1);
	free(b);

	/* every fixture's warnings fit their buffer */
	{
		static const char *files[] = {"micro-seed-raw.csv", "micro-tc-full-raw.csv",
									  "alexnet-b1-train-full-raw.csv",
									  "resnet50-b8-infer-tf32-full-raw.csv",
									  "resnet50-b8-infer-full-raw.csv",
									  "micro-roofline-sections-raw.csv",
									  "micro-auto-units-details.csv"};
		for (i = 0; i < sizeof files / sizeof files[0]; i++) {
			b = load(files[i], &n);
			RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
			no_truncated_text(&R1);
			free(b);
		}
	}
}

/* ---- the autocast captures (dev/capture/run-amp.sh, CAPTURES.md) -------- */
/* Expected values: the CSV columns summed with Python's csv module (the
   base tensor counters; FP32 = fadd + fmul + 2 ffma; DRAM = read + write). */
static void test_amp_captures(void) {
	static const struct {
		const char *file;
		uint64_t kernels, fp32, dram, time_ns;
		rfl_prec prec;
		uint64_t tensor;   /* hgmma + hmma base counters */
		double est_lo, est_hi; /* estimate / tensor, without the FLOP counters */
	} caps[] = {
		{"resnet50-b8-infer-fp16-full-raw.csv", 297, 786177984ull, 980813312ull, 1945664ull,
		 RFL_FP16_TENSOR, 44220547072ull + 30882660352ull, 0.85, 1.15},
		{"resnet50-b8-infer-bf16-full-raw.csv", 350, 605398912ull, 985550080ull, 2146272ull,
		 RFL_BF16_TENSOR, 49589256192ull + 42366664704ull, 0.85, 1.15},
		{"resnet18-b1-train-fp16-full-raw.csv", 400, 765488987ull, 603721984ull, 2138400ull,
		 RFL_FP16_TENSOR, 6245318656ull + 8248098816ull, 0.85, 1.15},
		{"resnet50-b8-infer-readme-raw.csv", 233, 828039680ull, 1826323200ull, 2182496ull,
		 RFL_TF32_TENSOR, 33420214272ull + 40256929792ull, 0.95, 1.05},
	};
	rfl_reduce_desc d;
	size_t n, i;
	char *b;
	memset(&d, 0, sizeof d);
	for (i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		b = load(caps[i].file, &n);
		reduce_all_ways(b, n, &d, caps[i].file);
		RT_EQ_U64(R0.kernels, caps[i].kernels);
		RT_EQ_U64(R0.total.flops[RFL_FP32], caps[i].fp32);
		RT_EQ_U64(R0.total.bytes[RFL_DRAM], caps[i].dram);
		RT_EQ_U64(R0.total.time_ns, caps[i].time_ns);
		/* hmma_src_fp16 = its _dst_fp32 (+ _dst_fp16 0) here: counted once */
		RT_EQ_U64(R0.total.flops[caps[i].prec], caps[i].tensor);
		RT_EQ_U64(rfl_reduce_tensor_flops(&R0.total), caps[i].tensor);
		RT_CHECK(!has_warning(&R0, RFL_WARN_TENSOR_UNCOUNTED));
		/* without the base counters: each family's breakdowns give the same */
		knock(b, "sm__ops_path_tensor_op_hmma_src_fp16.sum\"");
		knock(b, "sm__ops_path_tensor_op_hgmma_src_fp16.sum\"");
		knock(b, "sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32.sum\"");
		knock(b, "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum\"");
		knock(b, "sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32.sum\"");
		knock(b, "sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32.sum\"");
		RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
		RT_EQ_U64(rfl_reduce_tensor_flops(&R1.total), caps[i].tensor);
		/* without any tensor FLOP counter: estimated from instructions by
		   each kernel's name (measured 0.90, 0.92, 0.95, 1.00) */
		knock(b, "sm__ops_path_tensor_op_");
		RT_EQ_INT(reduce_mode(b, n, &d, 0, &R1), RFL_OK);
		RT_CHECK(R1.flags & RFL_REDUCE_TENSOR_ESTIMATED);
		RT_CHECK((double)R1.total.flops[caps[i].prec] >= caps[i].est_lo * (double)caps[i].tensor);
		RT_CHECK((double)R1.total.flops[caps[i].prec] <= caps[i].est_hi * (double)caps[i].tensor);
		no_truncated_text(&R1);
		free(b);
	}
	/* The A100 case captured for real: TF32 on, the seed metrics plus the
	   tensor-pipe instruction count. Same step as the full TF32 capture
	   (identical FP32 counts, 4,525,102,955), whose tensor counters read
	   83,886,080 + 6,388,973,568: the estimate is within 1% of them. */
	b = load("resnet18-b1-train-tf32-seed-raw.csv", &n);
	reduce_all_ways(b, n, &d, "resnet18-tf32-seed");
	RT_EQ_U64(R0.kernels, 295);
	RT_EQ_U64(R0.total.flops[RFL_FP32], 4525102955ull);
	RT_CHECK(has_warning(&R0, RFL_WARN_TENSOR_ESTIMATED));
	RT_NEAR((double)R0.total.flops[RFL_TF32_TENSOR], 83886080.0 + 6388973568.0, 0.01);
	free(b);
}

/* The SSE number reader (walker levels 1 and 2) against the scalar one
   (level 0): whatever rfl__num16 accepts, rfl__num_scan reads the same.
   Hand-derived values first, then random fields with junk after them
   (rfl__num16 loads 16 bytes whatever the length). */
static void test_num16(void) {
#ifdef RFL__AVX2
	static const struct { const char *s; char g, dm; int ok; uint64_t m; int f; } hand[] = {
		{"1,970,899,334.25", ',', '.', 1, 197089933425ull, 2}, /* sm__cycles_elapsed.avg.per_second */
		{"27.595.520", '.', ',', 1, 27595520ull, 0},          /* the European bytes of issue 4 */
		{"65,77", '.', ',', 1, 6577ull, 2},
		{"0", ',', '.', 1, 0, 0},
		{"0", 0, 0, 1, 0, 0},
		{"733,184", ',', '.', 1, 733184ull, 0},
		{"999,999,999,999", ',', '.', 1, 999999999999ull, 0},
		{"12.", ',', '.', 1, 12ull, 0},
		{"1.2345678", ',', '.', 1, 12345678ull, 7},
		{"1.23456789", ',', '.', 0, 0, 0},  /* 8 decimals: scalar's */
		{"1234", ',', '.', 0, 0, 0},        /* ungrouped: scalar's */
		{"1,23", ',', '.', 0, 0, 0},
		{",123", ',', '.', 0, 0, 0},
		{"1,,234", ',', '.', 0, 0, 0},
		{"1,234.5.6", ',', '.', 0, 0, 0},
		{"1,234", 0, 0, 0, 0, 0},           /* convention unknown */
		{"", ',', '.', 0, 0, 0},
		{"-5", ',', '.', 0, 0, 0},
		{"1,234,567,890,123", ',', '.', 0, 0, 0}, /* 17 bytes */
	};
	static const char gs[3] = {0, ',', '.'}, dms[3] = {0, '.', ','};
	char buf[40];
	size_t i, n, accepted = 0, valid = 0, valid_ok = 0, differ = 0;
	int c;
	if (rfl__cpu_simd() < 1) return; /* no SSE4.1 here: level 0 only */
	for (i = 0; i < sizeof hand / sizeof hand[0]; i++) {
		uint64_t m = 99;
		int f = 99, ok;
		memset(buf, '7', sizeof buf);
		n = strlen(hand[i].s);
		memcpy(buf, hand[i].s, n);
		ok = n <= 16 && rfl__num16(buf, (unsigned)n, hand[i].g, hand[i].dm, &m, &f);
		if (!RT_CHECK(ok == hand[i].ok && (!ok || (m == hand[i].m && f == hand[i].f))))
			printf("  num16 case \"%s\"\n", hand[i].s);
	}
	for (i = 0; i < 300000; i++) {
		uint64_t m1 = 0, m2 = 0;
		int f1 = 0, f2 = 0, ok1, ok2, gen = (int)next_rand(2);
		size_t k;
		c = (int)next_rand(3);
		for (k = 0; k < sizeof buf; k++) buf[k] = "0123456789,.,.-x 9"[next_rand(18)];
		if (gen && c) { /* a valid grouped number: lead, groups, decimals */
			size_t lead = 1 + next_rand(3), groups = next_rand(4), dec = next_rand(9);
			n = 0;
			for (k = 0; k < lead; k++) buf[n++] = (char)('0' + next_rand(10));
			for (k = 0; k < groups * 4; k++) buf[n++] = k % 4 == 0 ? gs[c] : (char)('0' + next_rand(10));
			if (dec) {
				buf[n++] = dms[c];
				for (k = 1; k < dec; k++) buf[n++] = (char)('0' + next_rand(10));
			}
		} else
			n = next_rand(17);
		if (n > 16) continue;
		ok1 = rfl__num16(buf, (unsigned)n, gs[c], dms[c], &m1, &f1);
		ok2 = rfl__num_scan(buf, n, gs[c], dms[c], &m2, &f2);
		if (ok1) {
			accepted++;
			if (!(ok2 && m1 == m2 && f1 == f2) && !differ++)
				printf("  num16 and num_scan differ on \"%.*s\" (group '%c')\n", (int)n, buf,
					   gs[c] ? gs[c] : '0');
		}
		if (gen && c) {
			/* every grouped layout of up to 7 decimals is num16's */
			valid++;
			valid_ok += (size_t)ok1;
		}
	}
	RT_EQ_U64((uint64_t)differ, 0);
	RT_CHECK(accepted > 50000); /* the comparison above ran often */
	RT_EQ_U64((uint64_t)valid_ok, (uint64_t)valid);
#endif
}

/* The block masks of each wide fill against the portable one, on random
   bytes of the characters that matter, every carry-in and batch length
   (the AVX-512 fill works 8 blocks per step: lane boundaries included). */
static void test_fills(void) {
#ifdef RFL__AVX2
	static unsigned char buf[RFL__NB * 64];
	static rfl__blks a, w;
	int it, lvl, top = rfl__cpu_simd(), bad = 0, runs = 0;
	for (lvl = 1; lvl <= top; lvl++)
		for (it = 0; it < 3000; it++) {
			int nb = 1 + (int)next_rand(RFL__NB), i;
			size_t j;
			for (j = 0; j < sizeof buf; j++) buf[j] = (unsigned char)"\",\n\r\"x,,xxx"[next_rand(11)];
			a.inside_carry = next_rand(2) ? ~(uint64_t)0 : 0;
			a.prev_cq = next_rand(2), a.prev_ok = next_rand(2);
			w.inside_carry = a.inside_carry, w.prev_cq = a.prev_cq, w.prev_ok = a.prev_ok;
			rfl__blk_fill(&a, buf, nb);
			if (lvl == 2) rfl__blk_fill_avx512(&w, buf, nb);
			else rfl__blk_fill_avx2(&w, buf, nb);
			runs++;
			for (i = 0; i < nb; i++)
				if (a.sep[i] != w.sep[i] || a.ends[i] != w.ends[i] || a.hard[i] != w.hard[i]) break;
			if ((i < nb || a.inside_carry != w.inside_carry || a.prev_cq != w.prev_cq ||
				 a.prev_ok != w.prev_ok) && !bad++)
				printf("  fill level %d differs from the portable one (%d blocks, block %d)\n", lvl, nb, i);
		}
	RT_EQ_INT(bad, 0);
	RT_CHECK(runs == 3000 * (top > 0 ? top : 0));
#endif
}

/* The device's name while streaming: the device__attribute_display_name
   column of the first kernel row, typed here from the files (grep); none
   on a details page or from nvprof. Every chunking gives it (same_result). */
static void test_device_names(void) {
	static const struct { const char *file, *device; } t[] = {
		{"alexnet-b1-train-full-raw.csv", "NVIDIA H100 80GB HBM3"},
		{"h200-alexnet-b1-train-full-raw.csv", "NVIDIA H200"},
		{"h200-resnet18-b1-train-full-raw.csv", "NVIDIA H200"},
		{"micro-roofline-sections-raw.csv", "NVIDIA H100 80GB HBM3"},
		{"resnet50-b8-infer-bf16-full-raw.csv", "NVIDIA H100 80GB HBM3"},
		{"micro-seed-details.csv", ""}, {"nvprof-metrics.csv", ""}, {"nvprof-trace.csv", ""}};
	char long_csv[1024], big[300];
	size_t i, len;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		char *b = load(t[i].file, &len);
		reduce_all_ways(b, len, 0, t[i].file);
		RT_STR(R0.device, t[i].device);
		if (strcmp(R0.device, t[i].device)) printf("     in %s\n", t[i].file);
		free(b);
	}
	/* quoted with a comma; a second row's name is not the device's */
	reduce_all_ways("\"ID\",\"Kernel Name\",\"device__attribute_display_name\",\"gpu__time_duration.sum\"\n"
					"\"\",\"\",\"\",\"ns\"\n\"0\",\"k\",\"Board, \"\"X\"\"\",\"10\"\n\"1\",\"k\",\"Other\",\"5\"\n",
					139, 0, "quoted device");
	RT_STR(R0.device, "Board, \"X\"");
	RT_EQ_INT((int)R0.kernels, 2);
	/* longer than the carry: no error, the name unknown ("") */
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	len = (size_t)snprintf(long_csv, sizeof long_csv,
						   "\"ID\",\"device__attribute_display_name\",\"gpu__time_duration.sum\"\n"
						   "\"\",\"\",\"ns\"\n\"0\",\"%s\",\"10\"\n", big);
	reduce_all_ways(long_csv, len, 0, "long device");
	RT_STR(R0.device, "");
}

int main(void) {
	test_device_names();
	test_num16();
	test_fills();
	test_walker_mix();
	test_tensor_kernels();
	test_amp_captures();
	test_fixtures();
	test_nvprof();
	test_transforms();
	test_locale_and_units();
	test_errors();
	test_groups_filters();
	test_saturation_and_misc();
	return rt_done();
}
