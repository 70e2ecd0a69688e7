/* fuzz_llm_join.c - the LLM join's kernel classifier and join on arbitrary
   kernel streams (the CSV reader under it has its own harness,
   fuzz_reduce.c). Input: 3 config bytes, then 26 bytes per kernel.
	 c[0] model: bit 0 llama-3.2-1b else gpt2; bit 1 prefill; bit 2 a
		  machine (H100) for the classifier, else none; bit 3 logits all
	 c[1] seq (x 16)
	 c[2] batch (0 = 1)
   Kernel: 1 byte name (index into real kernel names and odd ones), 8 bytes
   time_ns, 8 bytes tensor FLOPs, 8 bytes DRAM bytes, 1 byte unknown bits.
   Properties: no crash or UB; the kinds account for every kernel (counts
   and, unless saturated, times sum to the total); the join returns OK or
   an error code; warning texts are NUL-terminated, at most one of each
   code; a warning fires only with its evidence (padded_mma: tensor FLOPs
   >= 2x useful; launch_bound: known time); kernels after finish are
   ignored. */
#define ROOFLINE_IMPLEMENTATION
#define RFL_NO_CHART
#include "roofline.h"
#include "fuzz_util.h"

static const char *const names[] = {
	"void at::<unnamed>::vectorized_layer_norm_kernel<float, float, 0>",
	"nvjet_sm90_tst_64x8_64x16_2x1_v_bz_splitK_TNT",
	"void cublasLt::splitKreduce_kernel<32, 16, int, float>",
	"fmha_cutlassF_f32_aligned_64x64_rf_sm80",
	"cudnn_generated_fort_native_sdpa_sm90_flash_fprop",
	"void at::reduce_kernel<512, 1, at::ReduceOp<float, at::MeanOps<float>>>",
	"void at::vectorized_elementwise_kernel<4, pow_tensor_scalar_kernel_impl>",
	"void at::unrolled_elementwise_kernel<at::direct_copy_kernel_cuda>",
	"void at::<unnamed>::indexSelectSmallIndex<c10::BFloat16>",
	"void at::<unnamed>::CatArrayBatchedCopy<at::<unnamed>::OpaqueType<2>>",
	"void at::vectorized_elementwise_kernel<8, at::silu_kernel>",
	"rms_norm",
	"",
	"GEMM",
	"FLASHfmha",
	"\xff\xfe\x01 gemv"};
#define NNAMES (sizeof names / sizeof names[0])

static rfl_layer recs[RFL_LLM_NET_LAYERS(16)]; /* llama-3.2-1b: 16 layers, gpt2: 12 */
static char rec_names[RFL_LLM_NET_NAMES(16)];
static rfl_llm_classifier cl;
static rfl_join jn;
static rfl_kernel_stat ks;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	fz_in in;
	const rfl_machine *h100 = NULL;
	rfl_llm_config cfg;
	rfl_llm_step_desc d;
	rfl_net net;
	rfl_cost_desc cd;
	rfl_result r;
	uint8_t c0;
	uint64_t kernels = 0, time_sum = 0, k_sum = 0, t_sum = 0;
	int sat = 0, k, w, seen[RFL_WARN_COUNT_];
	fz_init(&in, data, size);
	c0 = fz_u8(&in);
	memset(&d, 0, sizeof d);
	d.phase = (c0 & 2) ? RFL_LLM_PREFILL : RFL_LLM_DECODE;
	d.seq = (uint64_t)fz_u8(&in) * 16u + 1u;
	d.batch = fz_u8(&in);
	d.logits_all = (c0 >> 3) & 1;
	FZ_CHECK(rfl_llm_find((c0 & 1) ? "llama-3.2-1b" : "gpt2", &cfg) == RFL_OK);
	d.math = (c0 & 1) ? RFL_DTYPE_BF16 : RFL_DTYPE_FP32;
	FZ_CHECK(rfl_hw_find("h100", &h100) == RFL_OK);
	rfl_llm_classify_init(&cl, (c0 & 4) ? h100 : NULL);
	rfl_join_init(&jn, RFL_GROUP_KIND, (c0 & 4) ? h100 : NULL);
	while (fz_left(&in) >= 26) {
		memset(&ks, 0, sizeof ks);
		snprintf(ks.name, sizeof ks.name, "%s", names[fz_u8(&in) % NNAMES]);
		ks.id = kernels;
		ks.time_ns = fz_u64(&in);
		ks.flops[RFL_BF16_TENSOR] = fz_u64(&in);
		ks.bytes[RFL_DRAM] = fz_u64(&in);
		ks.work.unknown = fz_u8(&in) & (RFL_UNKNOWN_TIME | RFL_UNKNOWN_BYTES(RFL_DRAM));
		if (time_sum > UINT64_MAX - ks.time_ns) sat = 1;
		time_sum += ks.time_ns;
		rfl_llm_classify_kernel(&cl, &ks);
		rfl_join_kernel(&jn, &ks);
		kernels++;
	}
	rfl_llm_classify_finish(&cl);
	rfl_llm_classify_kernel(&cl, &ks); /* ignored after finish */
	for (k = 0; k < RFL_LLM_KIND_COUNT; k++) {
		k_sum += cl.kinds[k].kernels;
		t_sum += cl.kinds[k].time_ns; /* may wrap only when saturated */
	}
	FZ_CHECK(cl.total.kernels == kernels && k_sum == kernels);
	if (!sat) FZ_CHECK(cl.total.time_ns == time_sum && t_sum == time_sum);
	rfl_net_init(&net, recs, RFL_LLM_NET_LAYERS(16), rec_names, sizeof rec_names);
	r = rfl_llm_build(&net, &cfg, &d);
	if (r == RFL_OK) r = rfl_llm_cost_desc(&cfg, &d, &cd);
	if (r == RFL_OK) {
		static rfl_workload wl; /* the step's records as one value */
		rfl_workload_of_net(&wl, &net, &cd);
		r = rfl_join_compute(&jn, &wl, h100);
	}
	FZ_CHECK(r >= RFL_OK && r < RFL_ERR_COUNT_);
	if (r != RFL_OK) return 0;
	FZ_CHECK(jn.warning_count >= 0 && jn.warning_count <= RFL_JOIN_WARNINGS);
	memset(seen, 0, sizeof seen);
	for (w = 0; w < jn.warning_count; w++) {
		rfl_warn code = jn.warnings[w].code;
		FZ_CHECK(code == RFL_WARN_PADDED_MMA || code == RFL_WARN_LAUNCH_BOUND);
		FZ_CHECK(!seen[code]++);
		FZ_CHECK(memchr(jn.warnings[w].text, 0, sizeof jn.warnings[w].text) != NULL);
		if (code == RFL_WARN_PADDED_MMA)
			FZ_CHECK(jn.executed_tensor_flops >= RFL_LLM_PADDED_RATIO * jn.useful_flops);
		if (code == RFL_WARN_LAUNCH_BOUND) FZ_CHECK(!(cl.unknown & RFL_UNKNOWN_TIME));
	}
	return 0;
}
