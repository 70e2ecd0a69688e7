/* test_hw.c - the hardware table (hw_specs.h) against datasheet figures typed
   here by hand, its structure (every row complete, every name unique and
   findable), the reports' short names, suggestions for unknown names, the
   device names that vendors' tools print (each resolved to the row a reader
   picks by hand, or not found when the table lacks that memory size or form
   factor) and which of a tool's machines a profile belongs to, the
   sparse-figure traps, and the CPU rows against rfl_machine_from_cpu fed
   with the vendors' inputs (cores, clock, SIMD width, channels, MT/s).
   Expected values come from the datasheets named beside them, never from
   the table itself. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#define RFL_NO_CHART /* the table needs no chart; keeps this test independent */
#include "roofline.h"
#include "rfl_test.h"

#define T 1e12
#define G 1e9
#define GIB 1073741824.0

static const rfl_machine *find(const char *name) {
	const rfl_machine *m = 0;
	if (rfl_hw_find(name, &m) != RFL_OK) {
		printf("     lookup of '%s' failed\n", name);
		return 0;
	}
	return m;
}

/* ---- (a) datasheet figures, typed independently ------------------------- */
enum { PEAK, BW, MEM };
typedef struct {
	const char *name; /* looked up by a short or full name */
	int what;         /* PEAK: peak_flops[idx]; BW: bw[idx]; MEM: bytes */
	int idx;
	double want;
} sheet;

static const sheet sheets[] = {
	/* the reports' machines (context/what-users-do.md) */
	{"v100", PEAK, RFL_FP32, 15.7 * T}, /* V100 datasheet 2018, SXM2 */
	{"v100", PEAK, RFL_FP64, 7.8 * T},
	{"v100", PEAK, RFL_FP16_TENSOR, 125 * T},
	{"v100", BW, RFL_DRAM, 900 * G},
	{"v100-pcie", PEAK, RFL_FP32, 14 * T}, /* V100 datasheet, PCIe */
	{"v100-pcie", PEAK, RFL_FP16_TENSOR, 112 * T},
	{"v100-pcie", BW, RFL_DRAM, 900 * G},
	{"p100-pcie", PEAK, RFL_FP32, 9.3 * T}, /* P100 datasheet 2016 */
	{"p100-pcie", BW, RFL_DRAM, 732 * G},
	{"p100-sxm2", PEAK, RFL_FP32, 10.6 * T},
	{"p100-sxm2", PEAK, RFL_FP64, 5.3 * T},
	{"t4", PEAK, RFL_FP32, 8.1 * T}, /* T4 datasheet 2019 */
	{"t4", PEAK, RFL_FP16_TENSOR, 65 * T},
	{"t4", PEAK, RFL_INT8_TENSOR, 130 * T},
	{"t4", BW, RFL_DRAM, 320 * G},
	{"a100", PEAK, RFL_FP32, 19.5 * T}, /* A100 datasheet 2021, 40GB SXM */
	{"a100", PEAK, RFL_FP64, 9.7 * T},
	{"a100", PEAK, RFL_FP64_TENSOR, 19.5 * T},
	{"a100", PEAK, RFL_TF32_TENSOR, 156 * T},
	{"a100", PEAK, RFL_BF16_TENSOR, 312 * T},
	{"a100", PEAK, RFL_INT8_TENSOR, 624 * T},
	{"a100", BW, RFL_DRAM, 1555 * G},
	{"a100", MEM, 0, 40 * GIB},
	{"a100-sxm4-80gb", PEAK, RFL_FP32, 19.5 * T},
	{"a100-sxm4-80gb", BW, RFL_DRAM, 2039 * G},
	{"a100-sxm4-80gb", MEM, 0, 80 * GIB},
	{"a100-pcie-80gb", PEAK, RFL_FP32, 19.5 * T},
	{"a100-pcie-80gb", BW, RFL_DRAM, 1935 * G},
	{"h100", PEAK, RFL_FP32, 67 * T}, /* H100 datasheet 2023, SXM */
	{"h100", PEAK, RFL_FP64, 34 * T},
	{"h100", PEAK, RFL_FP64_TENSOR, 67 * T},
	{"h100", BW, RFL_DRAM, 3350 * G},
	{"h100-pcie", PEAK, RFL_FP32, 51 * T}, /* H100 datasheet, PCIe */
	{"h100-pcie", PEAK, RFL_FP64, 26 * T},
	{"h100-pcie", BW, RFL_DRAM, 2000 * G},
	{"tpu-v4", PEAK, RFL_BF16_TENSOR, 275 * T}, /* Cloud TPU v4 docs */
	{"tpu-v4", BW, RFL_DRAM, 1200 * G},
	{"tpu-v4", MEM, 0, 32 * GIB},
	{"apple-a14", PEAK, RFL_FP16_TENSOR, 11 * T}, /* Neural Engine 11 TOPS */
	/* a spread of others */
	{"h200", BW, RFL_DRAM, 4800 * G}, /* H200 datasheet 2024 */
	{"h200", MEM, 0, 141 * GIB},
	{"h100-nvl", PEAK, RFL_FP32, 60 * T}, /* H100 NVL datasheet */
	{"h100-nvl", BW, RFL_DRAM, 3900 * G},
	{"b200", PEAK, RFL_FP8_TENSOR, 4500 * T}, /* HGX B200: 9 PF sparse / 2 */
	{"b200", PEAK, RFL_FP32, 75 * T},
	{"b200", BW, RFL_DRAM, 7700 * G},
	{"a10", PEAK, RFL_FP32, 31.2 * T}, /* A10 datasheet 2021 */
	{"a10", BW, RFL_DRAM, 600 * G},
	{"a30", PEAK, RFL_FP64_TENSOR, 10.3 * T}, /* A30 datasheet */
	{"a30", BW, RFL_DRAM, 933 * G},
	{"l4", PEAK, RFL_FP32, 30.3 * T}, /* L4 datasheet 2023 */
	{"l4", BW, RFL_DRAM, 300 * G},
	{"l40s", PEAK, RFL_FP32, 91.6 * T}, /* L40S datasheet */
	{"l40s", BW, RFL_DRAM, 864 * G},
	{"rtx3090", PEAK, RFL_FP32, 35.6 * T}, /* GA102 whitepaper */
	{"rtx3090", BW, RFL_DRAM, 936 * G},
	{"rtx4090", PEAK, RFL_FP32, 82.6 * T}, /* Ada whitepaper */
	{"rtx4090", BW, RFL_DRAM, 1008 * G},
	{"rtx5090", PEAK, RFL_FP32, 104.8 * T}, /* RTX Blackwell whitepaper */
	{"rtx5090", BW, RFL_DRAM, 1792 * G},
	{"jetson-agx-orin", PEAK, RFL_FP32, 5.3 * T}, /* Orin tech brief */
	{"jetson-agx-orin", BW, RFL_DRAM, 204.8 * G},
	{"orin-nano", BW, RFL_DRAM, 68 * G},
	{"mi100", PEAK, RFL_FP64, 11.5 * T}, /* MI100 datasheet 2020 */
	{"mi100", PEAK, RFL_FP16_TENSOR, 184.6 * T},
	{"mi210", PEAK, RFL_FP64_TENSOR, 45.3 * T}, /* MI210 datasheet */
	{"mi250x", PEAK, RFL_FP64, 47.9 * T}, /* MI250X datasheet */
	{"mi250x", PEAK, RFL_FP16_TENSOR, 383 * T},
	{"mi250x", BW, RFL_DRAM, 3276.8 * G},
	{"mi300x", PEAK, RFL_FP64_TENSOR, 163.4 * T}, /* MI300X datasheet */
	{"mi300x", BW, RFL_DRAM, 5300 * G},
	{"mi300x", MEM, 0, 192 * GIB},
	{"mi325x", BW, RFL_DRAM, 6000 * G},
	{"mi325x", MEM, 0, 256 * GIB},
	{"gaudi2", PEAK, RFL_BF16_TENSOR, 432 * T}, /* Intel Gaudi 2 */
	{"gaudi3", PEAK, RFL_BF16_TENSOR, 1835 * T}, /* Gaudi 3 whitepaper */
	{"gaudi3", BW, RFL_DRAM, 3670 * G},
	{"tpu-v5e", PEAK, RFL_BF16_TENSOR, 197 * T}, /* Cloud TPU docs */
	{"tpu-v5e", BW, RFL_DRAM, 819 * G},
	{"tpu-v5p", PEAK, RFL_BF16_TENSOR, 459 * T},
	{"tpu-v5p", BW, RFL_DRAM, 2765 * G},
	{"tpu-v6e", PEAK, RFL_BF16_TENSOR, 918 * T},
	{"tpu-v6e", BW, RFL_DRAM, 1640 * G},
	{"m1", PEAK, RFL_FP32, 2.6 * T}, /* Apple M1 press release */
	{"m1", BW, RFL_DRAM, 68.25 * G},
	{"m2", PEAK, RFL_FP32, 3.6 * T}, /* Apple M2 press release */
	{"m2", BW, RFL_DRAM, 100 * G},
	{"m4", BW, RFL_DRAM, 120 * G},
	{"m4", PEAK, RFL_INT8_TENSOR, 38 * T},
};

static void test_datasheets(void) {
	size_t i, n = sizeof sheets / sizeof sheets[0];
	for (i = 0; i < n; i++) {
		const sheet *s = &sheets[i];
		const rfl_machine *m = find(s->name);
		double got;
		RT_CHECK(m != 0);
		if (!m) continue;
		got = s->what == PEAK ? m->peak_flops[s->idx]
			: s->what == BW   ? m->bw_bytes_per_s[s->idx]
							  : m->mem_bytes;
		RT_NEAR(got, s->want, 0.01);
		if (!(fabs(got - s->want) <= 0.01 * s->want))
			printf("     (%s, what %d, index %d)\n", s->name, s->what, s->idx);
	}
	/* the reports' ridge points: 15.7/0.9 = 17.44, 19.5/1.555 = 12.54 */
	RT_NEAR(rfl_ridge(find("v100"), RFL_FP32, RFL_DRAM), 17.444, 1e-3);
	RT_NEAR(rfl_ridge(find("a100"), RFL_FP32, RFL_DRAM), 12.540, 1e-3);
	/* H100 PCIe 51 / 2.0 = 25.5; TPU v4 bf16 275 / 1.2 = 229.2 */
	RT_NEAR(rfl_ridge(find("h100-pcie"), RFL_FP32, RFL_DRAM), 25.5, 1e-3);
	RT_NEAR(rfl_ridge(find("tpu-v4"), RFL_BF16_TENSOR, RFL_DRAM), 229.17, 1e-3);
}

/* ---- (g) sparse and accumulate traps ---------------------------------- */
static void test_traps(void) {
	/* Datasheets print "with sparsity" figures; the dense one is half. */
	RT_NEAR(find("h100")->peak_flops[RFL_FP16_TENSOR], 989.4 * T, 0.01);  /* not 1979 */
	RT_NEAR(find("h100")->peak_flops[RFL_TF32_TENSOR], 494.7 * T, 0.01);  /* not 989 */
	RT_NEAR(find("h100")->peak_flops[RFL_FP8_TENSOR], 1978.9 * T, 0.01);  /* not 3958 */
	RT_NEAR(find("h100-pcie")->peak_flops[RFL_FP16_TENSOR], 756.5 * T, 0.01); /* 1513 */
	RT_NEAR(find("h200")->peak_flops[RFL_BF16_TENSOR], 989.4 * T, 0.01);
	RT_NEAR(find("a100")->peak_flops[RFL_FP16_TENSOR], 312 * T, 0.01);    /* not 624 */
	RT_NEAR(find("a10")->peak_flops[RFL_FP16_TENSOR], 125 * T, 0.01);     /* not 250 */
	RT_NEAR(find("a30")->peak_flops[RFL_FP16_TENSOR], 165 * T, 0.01);     /* not 330 */
	RT_NEAR(find("l4")->peak_flops[RFL_FP16_TENSOR], 121 * T, 0.01);      /* not 242 */
	RT_NEAR(find("l40s")->peak_flops[RFL_FP16_TENSOR], 362 * T, 0.01);    /* not 733 */
	RT_NEAR(find("b200")->peak_flops[RFL_BF16_TENSOR], 2250 * T, 0.01);   /* not 4500 */
	RT_NEAR(find("mi300x")->peak_flops[RFL_FP16_TENSOR], 1307.4 * T, 0.01); /* 2614.9 */
	RT_NEAR(find("jetson-agx-orin")->peak_flops[RFL_INT8_TENSOR], 85 * T, 0.01); /* 170 */
	/* GeForce: FP16 tensor with FP32 accumulate is half the FP16-accumulate
	   rate (Ada whitepaper: 4090 330.3 FP16-acc, 165.2 FP32-acc, dense). */
	RT_NEAR(find("rtx4090")->peak_flops[RFL_FP16_TENSOR], 165.2 * T, 0.01);
	RT_NEAR(find("rtx3090")->peak_flops[RFL_FP16_TENSOR], 71 * T, 0.01);  /* not 142 */
	RT_NEAR(find("rtx5090")->peak_flops[RFL_FP16_TENSOR], 209.5 * T, 0.01); /* not 419 */
	/* Volta has no TF32/BF16/FP8 unit: those roofs must not exist */
	RT_CHECK(find("v100")->peak_flops[RFL_TF32_TENSOR] == 0);
	RT_CHECK(find("v100")->peak_flops[RFL_BF16_TENSOR] == 0);
	RT_CHECK(find("t4")->peak_flops[RFL_FP8_TENSOR] == 0);
	RT_CHECK(find("p100")->peak_flops[RFL_FP16_TENSOR] == 0);
	/* Variants that differ only in board: V100 SXM2 15.7 vs PCIe 14;
	   H100 SXM HBM3 3350 vs PCIe HBM2e 2000 */
	RT_CHECK(find("v100")->peak_flops[RFL_FP32] > find("v100-pcie")->peak_flops[RFL_FP32]);
	RT_CHECK(find("h100")->bw_bytes_per_s[RFL_DRAM] > find("h100-pcie")->bw_bytes_per_s[RFL_DRAM]);
}

/* ---- CPU rows: the formula with the vendors' inputs ------------------- */
typedef struct {
	const char *name;
	rfl_cpu_desc d;
} cpu_case;

static void test_cpus(void) {
	/* rfl_cpu_desc: id, name, sockets, cores, ghz, simd_bits, fma_pipes,
	   fma, mem_channels, mts, bytes_per_transfer, fp16. Inputs from Intel
	   ARK / AMD product pages / Raspberry Pi product briefs. */
	static const cpu_case cases[] = {
		{"2x-e5-2697v2", {0, 0, 2, 12, 2.7, 256, 1, 1, 4, 1866, 8, 0}},
		{"2x-e5-2699v4", {0, 0, 2, 22, 2.2, 256, 2, 0, 4, 2400, 8, 0}},
		{"xeon-8380", {0, 0, 1, 40, 2.3, 512, 2, 0, 8, 3200, 8, 0}},
		{"xeon-8480+", {0, 0, 1, 56, 2.0, 512, 2, 0, 8, 4800, 8, 1}},
		{"epyc-7763", {0, 0, 1, 64, 2.45, 256, 2, 0, 8, 3200, 8, 0}},
		{"epyc-9654", {0, 0, 1, 96, 2.4, 256, 2, 0, 12, 4800, 8, 0}},
		{"rpi4", {0, 0, 1, 4, 1.5, 128, 1, 0, 1, 3200, 4, 0}},
		{"rpi5", {0, 0, 1, 4, 2.4, 128, 2, 0, 1, 4267, 4, 1}},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const rfl_machine *m = find(cases[i].name);
		rfl_machine f;
		RT_CHECK(m != 0);
		if (!m) continue;
		RT_EQ_INT(rfl_machine_from_cpu(&cases[i].d, &f), RFL_OK);
		RT_EQ_INT(m->kind, RFL_KIND_CPU);
		RT_NEAR(m->peak_flops[RFL_FP32], f.peak_flops[RFL_FP32], 1e-3);
		RT_NEAR(m->peak_flops[RFL_FP64], f.peak_flops[RFL_FP64], 1e-3);
		RT_NEAR(m->bw_bytes_per_s[RFL_DRAM], f.bw_bytes_per_s[RFL_DRAM], 1e-3);
		RT_NEAR(m->peak_flops[RFL_FP16], f.peak_flops[RFL_FP16], 1e-3);
		RT_EQ_INT(m->units, f.units);
	}
	/* hand-derived (the issue and the reports):
	   2 x 12 x 2.7 x 8 x 2 = 1036.8 GFLOP/s; 2 x 4 x 1866 x 8 = 119.4 GB/s
	   2 x 22 x 2.2 x 8 x 2 x 2 = 3097.6 GFLOP/s; 2 x 4 x 2400 x 8 = 153.6 GB/s
	   (one report's 387.2 GFLOP/s and 17.6 GB/s are wrong) */
	RT_NEAR(find("e5-2697v2")->peak_flops[RFL_FP32], 1036.8 * G, 1e-4);
	RT_NEAR(find("e5-2697v2")->bw_bytes_per_s[RFL_DRAM], 119.4 * G, 1e-3);
	RT_NEAR(find("e5-2699v4")->peak_flops[RFL_FP32], 3097.6 * G, 1e-4);
	RT_NEAR(find("e5-2699v4")->bw_bytes_per_s[RFL_DRAM], 153.6 * G, 1e-4);
	RT_CHECK(find("e5-2699v4")->peak_flops[RFL_FP32] > 2 * 387.2 * G);
	/* AMX on the 8480+: 56 cores x 2.0 GHz x 1024 BF16 FLOP/cycle */
	RT_NEAR(find("8480+")->peak_flops[RFL_BF16_TENSOR], 56 * 2.0e9 * 1024, 1e-4);
}

/* ---- (b) every row complete; structural sanity -------------------------- */
static int is_exempt_fp32(const rfl_machine *m) {
	/* documented in hw_specs.h: TPUs and Gaudi 2 publish no vector FP32 */
	return m->kind == RFL_KIND_TPU || strcmp(m->id, "gaudi2") == 0;
}

static void test_rows(void) {
	int i, p, n = rfl_hw_count();
	RT_CHECK(n >= 40); /* (f) */
	RT_EQ_INT(n, RFL_HW_COUNT);
	RT_STR(rfl_hw_get(RFL_HW_A100_SXM4_40GB)->id, "a100-sxm4-40gb");
	RT_STR(rfl_hw_get(RFL_HW_V100_SXM2)->id, "v100-sxm2");
	RT_STR(rfl_hw_get(RFL_HW_H100_SXM)->id, "h100-sxm");
	for (i = 0; i < n; i++) {
		const rfl_machine *m = rfl_hw_get(i);
		int ok = 1, kinds = 0;
		double best_tensor = 0;
		ok &= m->id && m->id[0] && m->name && m->name[0] && m->aliases != 0;
		/* a row that cites measured L2/L1 figures names its data too */
		ok &= m->source && strlen(m->source) >= 20 && strlen(m->source) <= 340;
		ok &= (unsigned)m->kind <= RFL_KIND_SOC;
		ok &= m->bw_bytes_per_s[RFL_DRAM] > 0;
		ok &= m->peak_flops[RFL_FP32] > 0 || is_exempt_fp32(m);
		for (p = 0; p < RFL_PREC_COUNT; p++) {
			double v = m->peak_flops[p];
			ok &= v >= 0 && v < 1e17; /* dense peaks: nothing near 100 PFLOP/s */
			if (p >= RFL_FP64_TENSOR && v > best_tensor) best_tensor = v;
			kinds += v > 0;
		}
		ok &= kinds >= 1;
		/* ids are lower case, no spaces: they are CLI keys */
		{
			const char *c;
			for (c = m->id; *c; c++) ok &= (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-';
		}
		/* ordering within one machine's units: TF32 <= FP16 tensor <= FP8/INT8
		   where present (a mis-halved field would break it) */
		if (m->peak_flops[RFL_TF32_TENSOR] > 0 && m->peak_flops[RFL_BF16_TENSOR] > 0)
			ok &= m->peak_flops[RFL_TF32_TENSOR] < m->peak_flops[RFL_BF16_TENSOR];
		if (m->peak_flops[RFL_FP8_TENSOR] > 0 && m->peak_flops[RFL_BF16_TENSOR] > 0)
			ok &= m->peak_flops[RFL_FP8_TENSOR] >= m->peak_flops[RFL_BF16_TENSOR];
		if (m->peak_flops[RFL_FP16_TENSOR] > 0 && m->peak_flops[RFL_FP16] > 0)
			ok &= m->peak_flops[RFL_FP16_TENSOR] > m->peak_flops[RFL_FP16];
		/* FP32 ridge in a plausible band (0.5 .. 200 FLOP/byte) */
		if (m->peak_flops[RFL_FP32] > 0) {
			double r = rfl_ridge(m, RFL_FP32, RFL_DRAM);
			ok &= r > 0.5 && r < 200;
		}
		(void)best_tensor;
		if (!RT_CHECK(ok)) printf("     row %d (%s) incomplete or implausible\n", i, m->id ? m->id : "?");
	}
}

/* ---- (h) measured L2 and L1 bandwidth, against the data they cite -------
   Each range is read off the cited file by hand (te42kyfo/gpu-benches at
   commit 1c36d50: the rows of the plateau named beside it), or is the
   machine file in docs/machines that rfl-gpu-bench wrote on the device. */
typedef struct {
	const char *id;
	rfl_level level;
	double lo, hi;    /* GB/s: the cited rows' least and greatest */
	const char *cite; /* the source string must name it */
} level_fig;

static const level_fig level_figs[] = {
	/* gpu-cache/v100.txt (1380 MHz: V100 PCIe): 1152..5540 kB rows */
	{"v100-pcie", RFL_L2, 2428.5, 2452.1, "gpu-cache/v100.txt"},
	/* same file, 8..120 kB rows: L1 */
	{"v100-pcie", RFL_L1, 13692.3, 13920.5, "gpu-cache/v100.txt"},
	/* gpu-l2-cache/h100_pcie.txt, 8192..33792 kB rows */
	{"h100-pcie", RFL_L2, 6874.1, 7034.2, "gpu-l2-cache/h100_pcie.txt"},
	/* gpu-cache/h100_pcie.txt, 8..204 kB rows */
	{"h100-pcie", RFL_L1, 24929.4, 25270.0, "gpu-cache/h100_pcie.txt"},
	/* gpu-l2-cache/h200.txt, 13312..28160 kB rows */
	{"h200-sxm", RFL_L2, 9739.7, 9834.6, "gpu-l2-cache/h200.txt"},
	/* gpu-l2-cache/mi100.txt, 4608..8448 kB rows */
	{"mi100", RFL_L2, 2716.9, 2726.3, "gpu-l2-cache/mi100.txt"},
	/* gpu-l2-cache/mi210.txt, 3072..4608 kB rows */
	{"mi210", RFL_L2, 5064.1, 5105.8, "gpu-l2-cache/mi210.txt"},
	/* issue 35.7: gpu-l2-cache/a100_80.txt, 2048..25600 kB rows; gpu-cache/a100_80.txt,
	   2..148 kB rows (L1); the 40GB is the same GA100 at the same 1410 MHz */
	{"a100-sxm4-80gb", RFL_L2, 5264.0, 5481.9, "gpu-l2-cache/a100_80.txt"},
	{"a100-sxm4-80gb", RFL_L1, 18707.5, 19299.3, "gpu-cache/a100_80.txt"},
	{"a100-sxm4-40gb", RFL_L2, 5264.0, 5481.9, "gpu-l2-cache/a100_80.txt"},
	{"a100-sxm4-40gb", RFL_L1, 18707.5, 19299.3, "gpu-cache/a100_80.txt"},
	/* V100 SXM2: the V100 PCIe rows above x 1530 / 1380 MHz (boost clocks) */
	{"v100-sxm2", RFL_L2, 2428.5 * 1530 / 1380, 2452.1 * 1530 / 1380, "gpu-cache/v100.txt"},
	{"v100-sxm2", RFL_L1, 13692.3 * 1530 / 1380, 13920.5 * 1530 / 1380, "gpu-cache/v100.txt"},
};

/* The measured object of a machine file in docs/machines. */
static int measured_bw(const char *file, rfl_level level, double *out) {
	static rfl_json_tok toks[RFL_MACHINE_FILE_TOKS];
	static char strs[1 << 16];
	rfl_machine_file mf;
	rfl_error e;
	size_t len;
	char *text = rt_load("docs/machines", file, &len);
	if (rfl_machine_file_parse(text, len, toks, RFL_MACHINE_FILE_TOKS, strs, sizeof strs, &mf, &e) !=
			RFL_OK || !mf.has_measured) {
		printf("     docs/machines/%s: %ld:%ld %s %s\n", file, (long)e.line, (long)e.col, e.where,
			   e.msg);
		return 0;
	}
	*out = mf.measured.bw_bytes_per_s[level];
	return 1;
}

static void test_levels(void) {
	size_t i;
	int n, k, known = 0;
	double v;
	for (i = 0; i < sizeof level_figs / sizeof level_figs[0]; i++) {
		const level_fig *f = &level_figs[i];
		const rfl_machine *m = find(f->id);
		if (!RT_CHECK(m != 0)) continue;
		v = m->bw_bytes_per_s[f->level] / G;
		if (!RT_CHECK(v >= f->lo * 0.995 && v <= f->hi * 1.005))
			printf("     %s %s: %g GB/s outside the cited %g..%g\n", f->id,
				   rfl_level_name(f->level), v, f->lo, f->hi);
		if (!RT_CHECK(strstr(m->source, f->cite) != 0)) printf("     %s cites no %s\n", f->id, f->cite);
	}
	/* our own runs: the table's figure is the machine file's, and says so */
	{
		static const struct { const char *id, *file; rfl_level level; } runs[] = {
			{"h100-sxm", "h100-sxm.json", RFL_L2},
			{"h100-sxm", "h100-sxm.json", RFL_L1},
			{"h200-sxm", "h200.json", RFL_L1},
		};
		for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
			const rfl_machine *m = find(runs[i].id);
			if (!RT_CHECK(m != 0 && measured_bw(runs[i].file, runs[i].level, &v))) continue;
			RT_NEAR(m->bw_bytes_per_s[runs[i].level], v, 0.005);
			RT_CHECK(strstr(m->source, runs[i].file) != 0);
		}
	}
	/* every row with a level cites it, and the levels are ordered */
	n = rfl_hw_count();
	for (k = 0; k < n; k++) {
		const rfl_machine *m = rfl_hw_get(k);
		double d = m->bw_bytes_per_s[RFL_DRAM], l2 = m->bw_bytes_per_s[RFL_L2],
			   l1 = m->bw_bytes_per_s[RFL_L1];
		if (l2 <= 0 && l1 <= 0) continue;
		known++;
		if (!RT_CHECK(strstr(m->source, "measured") != 0)) printf("     %s: an uncited level\n", m->id);
		if (l2 > 0 && !RT_CHECK(l2 > d)) printf("     %s: L2 below DRAM\n", m->id);
		if (l1 > 0 && !RT_CHECK(l1 > (l2 > 0 ? l2 : d))) printf("     %s: L1 below L2\n", m->id);
	}
	RT_CHECK(known >= 6);
}

/* ---- (c) names: unique after normalising, and each finds its machine ---- */
static size_t norm(const char *s, size_t len, char *out, size_t cap) {
	size_t i, n = 0;
	for (i = 0; i < len && s[i] && n + 1 < cap; i++) {
		char c = s[i];
		if (c == '-' || c == '_' || c == ' ' || c == '.') continue;
		out[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	out[n] = 0;
	return n;
}

typedef struct {
	char key[64];
	int machine;
} name_entry;

static void test_names(void) {
	static name_entry all[1024];
	int n = 0, i, j, nm = rfl_hw_count();
	for (i = 0; i < nm; i++) {
		const rfl_machine *m = rfl_hw_get(i);
		const char *a = m->aliases;
		norm(m->id, (size_t)-1, all[n].key, 64), all[n++].machine = i;
		norm(m->name, (size_t)-1, all[n].key, 64), all[n++].machine = i;
		while (*a) {
			size_t l = strcspn(a, ",");
			RT_CHECK(l > 0 && l < 48); /* no empty or overlong alias */
			if (n < 1024 && norm(a, l, all[n].key, 64) > 0) all[n++].machine = i;
			a += l + (a[l] == ',');
		}
	}
	/* no normalised name belongs to two machines, nor twice to one */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strcmp(all[i].key, all[j].key) == 0) {
				RT_CHECK(0);
				printf("     '%s' names both %s and %s\n", all[i].key,
					   rfl_hw_get(all[i].machine)->id, rfl_hw_get(all[j].machine)->id);
			}
	/* every id, name and alias finds its own machine */
	for (i = 0; i < nm; i++) {
		const rfl_machine *m = rfl_hw_get(i), *f = 0;
		const char *a = m->aliases;
		char one[64];
		RT_CHECK(rfl_hw_find(m->id, &f) == RFL_OK && f == m);
		RT_CHECK(rfl_hw_find(m->name, &f) == RFL_OK && f == m);
		while (*a) {
			size_t l = strcspn(a, ",");
			memcpy(one, a, l < 63 ? l : 63);
			one[l < 63 ? l : 63] = 0;
			if (!RT_CHECK(rfl_hw_find(one, &f) == RFL_OK && f == m))
				printf("     alias '%s' of %s\n", one, m->id);
			a += l + (a[l] == ',');
		}
	}
}

/* ---- (d) the reports' short names ---------------------------------------- */
static void test_short_names(void) {
	static const char *const pairs[][2] = {
		{"v100", "v100-sxm2"},          {"V100", "v100-sxm2"},
		{"a100", "a100-sxm4-40gb"},     {"h100", "h100-sxm"},
		{"t4", "t4"},                   {"h200", "h200-sxm"},
		{"l4", "l4"},                   {"mi300x", "mi300x"},
		{"MI250X", "mi250x"},           {"tpu-v4", "tpu-v4"},
		{"TPUv4", "tpu-v4"},            {"v100-pcie", "v100-pcie"},
		{"a100-sxm4-80gb", "a100-sxm4-80gb"}, {"a100-pcie-80gb", "a100-pcie-80gb"},
		{"A100 80GB PCIe", "a100-pcie-80gb"}, {"h100-pcie", "h100-pcie"},
		{"p100-pcie", "p100-pcie"},     {"p100", "p100-pcie"},
		{"p100_sxm2", "p100-sxm2"},     {"rtx4090", "rtx-4090"},
		{"RTX 3090", "rtx-3090"},       {"m1", "apple-m1"},
		{"rpi5", "raspberry-pi-5"},     {"raspberry-pi-5", "raspberry-pi-5"},
		{"Raspberry Pi 4", "raspberry-pi-4"}, {"epyc-9654", "epyc-9654"},
		{"2x-e5-2699v4", "xeon-e5-2699v4-2s"}, {"2x E5-2697 v2", "xeon-e5-2697v2-2s"},
		{"a14", "apple-a14"},           {"gaudi3", "gaudi3"},
		{"tpu-v5e", "tpu-v5e"},         {"b200", "b200"},
		{"orin-nano", "jetson-orin-nano"}, {"h100-nvl", "h100-nvl"},
	};
	size_t i;
	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		const rfl_machine *m = 0;
		RT_EQ_INT(rfl_hw_find(pairs[i][0], &m), RFL_OK);
		if (m) RT_STR(m->id, pairs[i][1]);
	}
}

/* ---- (e) unknown names suggest close ones ------------------------------- */
static void test_suggest(void) {
	/* query, what the first suggestion must be */
	static const char *const first[][2] = {
		{"a100-pcie-40gb", "a100-pcie-80gb"}, {"mi300", "mi300x"},
		{"epyc-9754", "epyc-9654"},           {"rpi3", "raspberry-pi-4"},
		{"v100-sxm3", "v100-sxm2"},           {"tpu-v3", "tpu-v4"},
		{"xeon-8280", "xeon-8380"},           {"gaudi", "gaudi2"},
	};
	char sug[256];
	size_t i;
	const rfl_machine *m;
	for (i = 0; i < sizeof first / sizeof first[0]; i++) {
		RT_EQ_INT(rfl_hw_find(first[i][0], &m), RFL_ERR_UNKNOWN_NAME);
		RT_EQ_INT(rfl_hw_suggest(first[i][0], 4, sug, sizeof sug), 4);
		if (!RT_CHECK(strncmp(sug, first[i][1], strlen(first[i][1])) == 0))
			printf("     '%s' suggested '%s'\n", first[i][0], sug);
	}
	/* a near miss lists its family among the first few */
	rfl_hw_suggest("rtx4080", 3, sug, sizeof sug);
	RT_CHECK(strstr(sug, "rtx-4090") != 0);
	rfl_hw_suggest("h100-sxm4", 3, sug, sizeof sug);
	RT_CHECK(strstr(sug, "h100-sxm") != 0);
	rfl_hw_suggest("tpuv5", 2, sug, sizeof sug);
	RT_CHECK(strstr(sug, "tpu-v5e") != 0 && strstr(sug, "tpu-v5p") != 0);
}

/* ---- (f) device names as the vendors' tools print them -------------------- */
/* The key of a name as rfl_hw_find compares it: normalised, a leading
   "nvidia" dropped. */
static void dev_key(const char *s, char *out, size_t cap) {
	norm(s, (size_t)-1, out, cap);
	if (strncmp(out, "nvidia", 6) == 0) memmove(out, out + 6, strlen(out + 6) + 1);
}

static void test_device_names(void) {
	/* real strings, where each was seen, and the row an engineer picks by
	   hand from the datasheet (memory size and form factor) */
	static const char *const real[][3] = {
		{"NVIDIA H100 80GB HBM3", "h100-sxm", "our ncu captures, tests/data/*-raw.csv"},
		{"NVIDIA H200", "h200-sxm", "our ncu captures, tests/data/h200-*-raw.csv"},
		{"Tesla V100-SXM2-16GB", "v100-sxm2", "nvidia-smi, NVIDIA/nvidia-docker#914"},
		{"NVIDIA A100 80GB PCIe", "a100-pcie-80gb", "nvidia-smi, NVIDIA/deepops#1215"},
		{"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb", "nvidia-smi -a, NVIDIA/CUDALibrarySamples#104"},
		{"A100-SXM-80GB", "a100-sxm4-80gb", "nvidia-smi 450, keyu-tian/SparK#8"},
		{"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb", "deviceQuery, bottlerocket-os/bottlerocket#3873"},
		{"A100-SXM4-40GB", "a100-sxm4-40gb", "nvidia-smi 450, pytorch/pytorch#45028"},
		{"NVIDIA H100 PCIe", "h100-pcie", "PyTorch, mistralai/mistral-inference#43"},
		{"NVIDIA H100 NVL", "h100-nvl", "nvidia-smi, akash-network/provider-configs#91"},
		{"NVIDIA B200", "b200", "nvidia-smi, NVIDIA/TensorRT-LLM#10278"},
		{"Tesla T4", "t4", "nvidia-smi -q, NVIDIA/nvidia-docker#1628"},
		{"Tesla P100-PCIE-16GB", "p100-pcie", "PyTorch, zzc0721/torch-performance-test-data#176"},
		{"NVIDIA GeForce RTX 3090", "rtx-3090", "PyTorch, pytorch/pytorch#75198"},
		{"NVIDIA GeForce RTX 4090", "rtx-4090", "PyTorch, akshaydudhane16/Burstormer#19"},
		{"AMD Instinct MI300X", "mi300x", "rocminfo, ROCm/legacy-rocm-build#4414"},
		{"Arcturus GL-XL [AMD Instinct MI100]", "mi100", "rocm-smi, easybuilders/easybuild-framework#3978"},
	};
	/* other memory sizes, form factors or chips than the table's rows: not
	   found, and the first suggestion is of the name's family */
	static const char *const other[][2] = {
		{"NVIDIA A100-PCIE-40GB", "a100-"},   /* zzc0721/torch-performance-test-data#108 */
		{"NVIDIA H200 NVL", "h200-sxm"},      /* NVIDIA/mig-parted#146 */
		{"NVIDIA A10G", "a10"},               /* zzc0721/torch-performance-test-data#126 */
		{"Tesla V100-SXM3-32GB", "v100-"},    /* Project-HAMi/HAMi#862 (DGX-2 board) */
		{"Tesla P100-PCIE-12GB", "p100-"},    /* 549 GB/s, not the 16GB's 732 */
		{"NVIDIA A800-SXM4-80GB", "a100-"},   /* dexmal/dexbotic#41: no A800 row (hence no family: edit distance) */
		{"AMD Instinct MI250X / MI250", "mi250x"}, /* either chip: amdgpu 0x740C */
		{"AMD Instinct MI300A", "mi300x"},
		{"NVIDIA H100", "h100-"},             /* no memory size: which H100? */
		{"NVIDIA A100", "a100-"},
		{"Orin", "jetson-"},                  /* CUDA's name on every Orin module */
	};
	char sug[256], a[96], b[96];
	size_t i;
	int j, k;
	const rfl_machine *m;
	for (i = 0; i < sizeof real / sizeof real[0]; i++) {
		m = 0;
		if (!RT_CHECK(rfl_hw_find(real[i][0], &m) == RFL_OK)) printf("     '%s' (%s)\n", real[i][0], real[i][2]);
		if (m) RT_STR(m->id, real[i][1]);
	}
	for (i = 0; i < sizeof other / sizeof other[0]; i++) {
		m = 0;
		if (!RT_CHECK(rfl_hw_find(other[i][0], &m) == RFL_ERR_UNKNOWN_NAME) && m)
			printf("     '%s' found %s\n", other[i][0], m->id);
		rfl_hw_suggest(other[i][0], 4, sug, sizeof sug);
		if (!RT_CHECK(strncmp(sug, other[i][1], strlen(other[i][1])) == 0))
			printf("     '%s' suggested '%s'\n", other[i][0], sug);
	}
	/* the family comes first: "NVIDIA H200" once suggested a10, a30, l40s, t4 */
	rfl_hw_suggest("NVIDIA H200 NVL", 4, sug, sizeof sug);
	RT_CHECK(strstr(sug, "a10") == 0 || strstr(sug, "h200-sxm") < strstr(sug, "a10"));
	rfl_hw_suggest("NVIDIA A100-PCIE-40GB", 3, sug, sizeof sug);
	RT_CHECK(strstr(sug, "a100-pcie-80gb") && strstr(sug, "a100-sxm4-40gb") && strstr(sug, "a100-sxm4-80gb"));
	/* every listed device name finds its own row; none is another row's
	   id, name, alias or device name */
#define DEV(E, name, src) {RFL_HW_##E, name},
	{
		static const struct { int row; const char *name; } dev[] = {RFL_HW_DEVICE_NAMES(DEV)};
#undef DEV
		int nd = (int)(sizeof dev / sizeof dev[0]);
		for (j = 0; j < nd; j++) {
			m = 0;
			if (!RT_CHECK(rfl_hw_find(dev[j].name, &m) == RFL_OK && m == rfl_hw_get(dev[j].row)))
				printf("     device name '%s'\n", dev[j].name);
			dev_key(dev[j].name, a, sizeof a);
			for (k = 0; k < rfl_hw_count(); k++) {
				const rfl_machine *o = rfl_hw_get(k);
				const char *al = o->aliases;
				char one[64];
				if (k == dev[j].row) continue;
				dev_key(o->id, b, sizeof b);
				RT_CHECK(strcmp(a, b) != 0);
				dev_key(o->name, b, sizeof b);
				RT_CHECK(strcmp(a, b) != 0);
				while (*al) {
					size_t l = strcspn(al, ",");
					memcpy(one, al, l < 63 ? l : 63);
					one[l < 63 ? l : 63] = 0;
					dev_key(one, b, sizeof b);
					if (!RT_CHECK(strcmp(a, b) != 0)) printf("     '%s' is an alias of %s\n", dev[j].name, o->id);
					al += l + (al[l] == ',');
				}
			}
			for (k = 0; k < nd; k++) {
				if (dev[k].row == dev[j].row) continue;
				dev_key(dev[k].name, b, sizeof b);
				RT_CHECK(strcmp(a, b) != 0);
			}
		}
	}
}

/* ---- (g) a profile's device among a tool's machines ---------------------- */
static void test_match(void) {
	const rfl_machine *a40 = find("a100-sxm4-40gb"), *a80 = find("a100-sxm4-80gb");
	const rfl_machine *hs = find("h100-sxm"), *hp = find("h100-pcie"), *v = find("v100");
	const rfl_machine *l1[2], *l2[2], *l3[3], *found = 0;
	rfl_machine file;
	l1[0] = a40, l1[1] = a80;
	l2[0] = a80, l2[1] = a40;
	/* the exact machine, whatever the order of --hw */
	RT_EQ_INT(rfl_hw_match("NVIDIA A100-SXM4-80GB", l1, 2, &found), 1);
	RT_CHECK(found == a80);
	RT_EQ_INT(rfl_hw_match("NVIDIA A100-SXM4-80GB", l2, 2, &found), 0);
	/* an 80GB profile with only the 40GB machine: not among them, and the
	   table's own machine comes back to be added */
	RT_EQ_INT(rfl_hw_match("NVIDIA A100-SXM4-80GB", &a40, 1, &found), -1);
	RT_CHECK(found == a80);
	/* an H100 PCIe profile never lands on the H100 SXM panel */
	l3[0] = v, l3[1] = hs, l3[2] = a40;
	RT_EQ_INT(rfl_hw_match("NVIDIA H100 PCIe", l3, 3, &found), -1);
	RT_CHECK(found == hp);
	RT_EQ_INT(rfl_hw_match("NVIDIA H100 80GB HBM3", l3, 3, &found), 1);
	/* a device the table lacks: nothing found, nothing matched */
	RT_EQ_INT(rfl_hw_match("NVIDIA A100-PCIE-40GB", l1, 2, &found), -1);
	RT_CHECK(found == 0);
	RT_EQ_INT(rfl_hw_match("", l1, 2, &found), -1);
	RT_EQ_INT(rfl_hw_match(0, l1, 2, 0), -1);
	/* a machine file (a copy, not the table's pointer) of the same row */
	file = *hp;
	l3[2] = &file;
	RT_EQ_INT(rfl_hw_match("NVIDIA H100 PCIe", l3, 3, &found), 2);
	/* a machine file of a device the table lacks, named after it */
	memset(&file, 0, sizeof file);
	file.id = "a100-pcie-40gb";
	file.name = "NVIDIA A100-PCIE-40GB";
	RT_EQ_INT(rfl_hw_match("NVIDIA A100-PCIE-40GB", l3, 3, &found), 2);
	RT_CHECK(found == 0);
	RT_STR(RFL_HW_DEVICE_MISMATCH, "device_mismatch");
}

int main(void) {
	test_datasheets();
	test_traps();
	test_cpus();
	test_rows();
	test_levels();
	test_names();
	test_short_names();
	test_suggest();
	test_device_names();
	test_match();
	return rt_done();
}
