/* Kernel classes (rfl_kclass_of): real kernel names from the captures in
   tests/data (and ../shared/fixtures/ncu, the same kernels), each with the
   class of what the kernel is: the library that launches it and the
   operation it runs, read from its name and from the module that launched
   it in the capture (tests/data/CAPTURES.md). The cases where the two
   rule tables this one replaced disagreed come first: cuDNN's fused SDPA
   and its split-KV combine are attention; cuDNN's implicit-GEMM, CUTLASS
   and split-K convolution kernels are convolutions, its batch-norm kernels
   norms; cuBLAS's nvjet kernels are GEMMs. */
#ifndef RFL_TEST_SHARED_IMPL /* tests/run.sh links one shared build */
#define ROOFLINE_IMPLEMENTATION
#endif
#include "roofline.h"
#include "rfl_test.h"

static const struct { const char *name; rfl_kclass cls; } cases[] = {
	/* cuDNN fused SDPA (flash) forward: attention, not a convolution,
	   in llm/llama-3.2-1b-prefill-b1-s512-bf16.csv */
	{"cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_c"
		 "ga1x1x1_kernel0_0",
	 RFL_KC_ATTENTION},
	/* cuDNN fused SDPA on the decode path (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x64_1x4x1_c"
		 "ga1x1x1_kernel0_0",
	 RFL_KC_ATTENTION},
	/* cuDNN SDPA split-KV combine, right after the decode SDPA kernel,
	   in llm/llama-3.2-1b-decode-b1-s512-bf16.csv */
	{"void cudnn::lean_reduction_kernel<0, 0, 0>(void *, float *, float *, float *, float "
		 "*, const float *, float *, float *, float *, float *, float *, unsigned int, unsigne"
		 "d int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigne"
		 "d int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigne"
		 "d int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigne"
		 "d int, bool)",
	 RFL_KC_ATTENTION},
	/* PyTorch memory-efficient attention (a CUTLASS kernel) (llm/gpt2-prefill-b1-s128-fp32.csv) */
	{"fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<floa"
		 "t, arch::Sm80, 1, 64, 64, 64, 1, 1>::Params)",
	 RFL_KC_ATTENTION},
	/* cuDNN implicit-GEMM convolution forward: a convolution, not attention,
	   in resnet50-b8-infer-readme-raw.csv */
	{"sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32_wa"
		 "rpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn",
	 RFL_KC_CONV},
	/* cuDNN convolution data gradient (h200-resnet18-b1-train-full-raw.csv) */
	{"sm80_xmma_dgrad_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3"
		 "_warpsize1x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn",
	 RFL_KC_CONV},
	/* cuDNN convolution weight gradient (h200-resnet18-b1-train-full-raw.csv) */
	{"sm80_xmma_wgrad_implicit_gemm_indexed_f32f32_f32f32_f32_nhwckrsc_nhwc_tilesize32x32x"
		 "8_stage3_warpsize1x2x1_g1_ffma_execute_kernel__5x_cudnn",
	 RFL_KC_CONV},
	/* cuDNN split-K reduction of a convolution (resnet18-b1-train-tf32-full-raw.csv) */
	{"void cutlass__5x_cudnn::Kernel<reduction::ReduceSplitK<cutlass__5x_cudnn::MatrixShap"
		 "e<4, 128>, cutlass__5x_cudnn::LinearCombination<float, 4, float, float, 0, 2>, reduc"
		 "tion::ReduceAdd<float, float, 4>, 4>>(T1::Params)",
	 RFL_KC_CONV},
	/* cuDNN CUTLASS convolution forward (resnet50-b8-infer-fp16-full-raw.csv) */
	{"void cutlass__5x_cudnn::Kernel<cutlass_tensorop_f16_s16816fprop_optimized_f16_128x12"
		 "8_32x5_nhwc_align8>(T1::Params)",
	 RFL_KC_CONV},
	/* cuDNN legacy implicit convolution (h200-resnet18-b1-train-full-raw.csv) */
	{"void implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, 0, 0, 1>(int, int"
		 ", int, const T1 *, int, T2 *, const T1 *, kernel_conv_params, unsigned long long, in"
		 "t, float, float, int, const T2 *, const T2 *, bool, bool, int, int)",
	 RFL_KC_CONV},
	/* Winograd transform of a convolution (alexnet-b1-train-full-raw.csv) */
	{"void winograd_nonfused::winogradForwardData9x9_5x5<float, float>(winograd_nonfused::"
		 "WinogradDataParams<T1, T2>)",
	 RFL_KC_CONV},
	/* cuDNN batch-norm forward (training) (h200-resnet18-b1-train-full-raw.csv) */
	{"void cudnn::bn_fw_tr_1C11_singleread<float, 512, 1, 1, 2, 0>(cudnn::bn_fw_tr_1C11_ar"
		 "gs<T1>)",
	 RFL_KC_NORM},
	/* cuDNN batch-norm backward (h200-resnet18-b1-train-full-raw.csv) */
	{"void cudnn::bn_bw_1C11_singleread<float, 512, 1, 1, 2, 0>(cudnn::bn_bw_1C11_args<T1>"
		 ")",
	 RFL_KC_NORM},
	/* PyTorch LayerNorm (llm/gpt2-decode-b1-s128-fp32.csv) */
	{"void at::<unnamed>::vectorized_layer_norm_kernel<float, float, 0>(int, T2, const T1 "
		 "*, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
	 RFL_KC_NORM},
	/* cuBLAS nvjet GEMM (fp16; a CNN's classifier layer) (resnet50-b8-infer-fp16-full-raw.csv) */
	{"nvjet_sm90_hsh_96x64_64x8_1x1_h_bz_NNN",
	 RFL_KC_GEMM},
	/* cuBLAS nvjet split-K GEMM (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"nvjet_sm90_tst_64x8_64x16_2x1_v_bz_splitK_TNT",
	 RFL_KC_GEMM},
	/* cuBLASLt split-K reduction of a GEMM (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bf"
		 "loat16, 0, float, __nv_bfloat16, __nv_bfloat16, 1, 0, 0, 0>(cublasLt::cublasSplitKPa"
		 "rams<T6>, const T4 *, const T10 *, T9 *, T5 *, const T6 *, const T6 *, const T11 *, "
		 "const T4 *, T11 *, void *, long, T6 *, int *, T6 *, T6 *, const T6 *, const T6 *, co"
		 "nst T6 *, const T6 *, const T6 *)",
	 RFL_KC_GEMM},
	/* cuBLAS xmma GEMM (micro-auto-units-details.csv) */
	{"sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_ali"
		 "gna4_alignc4_execute_kernel__5x_cublas",
	 RFL_KC_GEMM},
	/* cuBLAS GEMV (llm/gpt2-decode-b1-s128-fp32.csv) */
	{"void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, 0, 0, cu"
		 "blasGemvParamsEx<int, cublasGemvTensorStridedBatched<const float>, cublasGemvTensorS"
		 "tridedBatched<const float>, cublasGemvTensorStridedBatched<float>, float>>(T13, T6, "
		 "T6)",
	 RFL_KC_GEMM},
	/* cuBLAS small-matrix GEMV (h200-resnet18-b1-train-full-raw.csv) */
	{"std::enable_if<!T7, void>::type internal::kernel<int, int, float, float, float, floa"
		 "t, 0, 1, 0, 0, 8, 0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const fl"
		 "oat>, cublasGemvTensorStridedBatched<const float>, cublasGemvTensorStridedBatched<fl"
		 "oat>, float>>(T13)",
	 RFL_KC_GEMM},
	/* eager RMSNorm's mean (h200-resnet18-b1-train-full-raw.csv) */
	{"void at::reduce_kernel<512, 1, at::ReduceOp<float, at::MeanOps<float, float, float, "
		 "float>, unsigned int, float, 4, 4>>(T3)",
	 RFL_KC_MEAN},
	/* pow (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void at::vectorized_elementwise_kernel<4, void at::<unnamed>::pow_tensor_scalar_kern"
		 "el_impl<float, float>(at::TensorIteratorBase &, T2)::[lambda(float) (instance 1)], s"
		 "td::array<char *, 2>>(int, T2, T3)",
	 RFL_KC_POW},
	/* a copy (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void at::unrolled_elementwise_kernel<at::direct_copy_kernel_cuda(at::TensorIteratorB"
		 "ase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 7)]::opera"
		 "tor ()() const::[lambda(float) (instance 1)], std::array<char *, 2>, 4, TrivialOffse"
		 "tCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, memory::Load"
		 "WithCast<1>, memory::StoreWithCast<1>>(int, T1, T2, T4, T5, T6, T7)",
	 RFL_KC_COPY},
	/* a cast to bf16 (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void at::vectorized_elementwise_kernel<8, at::bfloat16_copy_kernel_cuda(at::TensorIt"
		 "eratorBase &)::[lambda(float) (instance 1)], std::array<char *, 2>>(int, T2, T3)",
	 RFL_KC_COPY},
	/* torch.cat (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void at::<unnamed>::CatArrayBatchedCopy_vectorized<at::<unnamed>::OpaqueType<4>, uns"
		 "igned int, 3, 128, 1, 16, 4>(char *, at::<unnamed>::CatArrInputTensorMetadata<T1, T2"
		 ", T4, T5>, at::<unnamed>::TensorSizeStride<T2, 4>, int, T2)",
	 RFL_KC_COPY},
	/* a layout transpose (h200-resnet18-b1-train-full-raw.csv) */
	{"void engines_precompiled::nchwToNhwcKernel<float, float, float, 0, 1, 0>(engines_pre"
		 "compiled::nchw2nhwc_params_t<T3>, const T1 *, T2 *)",
	 RFL_KC_COPY},
	/* token embedding lookup (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void at::<unnamed>::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, 2, ("
		 "int)-2>(cuda::TensorInfo<T1, T3>, cuda::TensorInfo<const T1, T3>, cuda::TensorInfo<c"
		 "onst T2, T3>, int, int, T3, long)",
	 RFL_KC_EMBEDDING},
	/* a gather (llm/gpt2-prefill-b1-s128-fp32.csv) */
	{"void at::vectorized_gather_kernel<16, long>(char *, char *, T2 *, int, long, long, l"
		 "ong, long, bool)",
	 RFL_KC_EMBEDDING},
	/* max pooling (alexnet-b1-train-full-raw.csv) */
	{"void at::<unnamed>::max_pool_forward_nchw<float, int>(T2, const T1 *, long, long, lo"
		 "ng, int, int, int, int, int, int, int, int, int, int, T1 *, long *)",
	 RFL_KC_POOL},
	/* adaptive average pooling (alexnet-b1-train-full-raw.csv) */
	{"void at::<unnamed>::adaptive_average_pool<float>(const T1 *, T1 *, int, int, int, in"
		 "t, long, long, long)",
	 RFL_KC_POOL},
	/* softmax (alexnet-b1-train-full-raw.csv) */
	{"void <unnamed>::softmax_warp_forward<float, float, float, 10, 1, 0>(T2 *, const T1 *"
		 ", int, int, int, const bool *, int, bool)",
	 RFL_KC_REDUCTION},
	/* the loss (alexnet-b1-train-full-raw.csv) */
	{"void at::<unnamed>::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(T1 *,"
		 " T1 *, const T1 *, const T3 *, const T1 *, bool, long, long, long, long)",
	 RFL_KC_REDUCTION},
	/* SiLU (llm/llama-3.2-1b-decode-b1-s512-bf16.csv) */
	{"void at::vectorized_elementwise_kernel<8, at::<unnamed>::silu_kernel(at::TensorItera"
		 "torBase &)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 6)]::o"
		 "perator ()() const::[lambda(c10::BFloat16) (instance 1)], std::array<char *, 2>>(int"
		 ", T2, T3)",
	 RFL_KC_ELEMENTWISE},
	/* a residual add (h200-resnet18-b1-train-full-raw.csv) */
	{"void at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<float>, std::array<cha"
		 "r *, 3>>(int, T2, T3)",
	 RFL_KC_ELEMENTWISE},
	/* the optimizer step (resnet18-b1-train-fp16-full-raw.csv) */
	{"void at::<unnamed>::multi_tensor_apply_kernel<at::<unnamed>::TensorListMetadata<2>, "
		 "at::<unnamed>::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(T1"
		 ", T2, T3...)",
	 RFL_KC_ELEMENTWISE},
};

static void test_names(void) {
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (rfl_kclass_of(cases[i].name) != cases[i].cls)
			printf("  kernel %.60s...: %s, expected %s\n", cases[i].name,
				   rfl_kclass_name(rfl_kclass_of(cases[i].name)), rfl_kclass_name(cases[i].cls));
		RT_EQ_INT(rfl_kclass_of(cases[i].name), cases[i].cls);
	}
	/* case does not matter; no name is "other" */
	RT_EQ_INT(rfl_kclass_of("SOFTMAX_WARP_FORWARD"), RFL_KC_REDUCTION);
	RT_EQ_INT(rfl_kclass_of(NULL), RFL_KC_OTHER);
	RT_EQ_INT(rfl_kclass_of(""), RFL_KC_OTHER);
	RT_EQ_INT(rfl_kclass_of("kernel0"), RFL_KC_OTHER);
}

static void test_names_and_types(void) {
	RT_STR(rfl_kclass_name(RFL_KC_CONV), "convolution");
	RT_STR(rfl_kclass_name(RFL_KC_ATTENTION), "attention");
	RT_STR(rfl_kclass_name(RFL_KC_OTHER), "other");
	RT_STR(rfl_kclass_name(RFL_KC_COUNT), "?");
	/* the layer types whose records these kernels run */
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_CONV), RFL_LT_CONV);
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_GEMM), RFL_LT_MATMUL);
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_ATTENTION), RFL_LT_MATMUL); /* attention records are matmuls */
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_MEAN), RFL_LT_REDUCTION);
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_POW), RFL_LT_ELEMENTWISE);
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_COPY), RFL_LT_DATA);
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_EMBEDDING), RFL_LT_EMBEDDING);
	RT_EQ_INT(rfl_kclass_ltype(RFL_KC_COUNT), RFL_LT_OTHER);
}

int main(void) {
	test_names();
	test_names_and_types();
	return rt_done();
}
