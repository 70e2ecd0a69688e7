/* hw_specs.h - the roofline.h hardware table: data only.

   One X-macro list, RFL_HW_TABLE(X), yields both the enum of machine IDs
   (RFL_HW_<ID>) and the const table (see roofline.h). Include roofline.h, not
   this file; define RFL_NO_HW_TABLE to leave the table out.

   Row: X(ENUM_ID, "id", "display name", "aliases", KIND,
          fp64, fp64_tensor, fp32, tf32_tensor, fp16, fp16_tensor,
          bf16_tensor, fp8_tensor, int8_tensor,        -- TFLOP/s (int8: TOPS)
          dram_gbps, l2_gbps, l1_gbps,                  -- GB/s (1e9 B/s)
          mem_gib, l2_mib, units, boost_mhz, tdp_w,
          "source")
   - Every peak is DENSE. Where a vendor quotes "with sparsity", the figure
     here is half of it and the source says so.
   - 0 means the machine has no such unit (its roof is never drawn) or the
     number is not published (bandwidth, sizes).
   - fp16 is FP16/BF16 on the vector units (non-tensor).
   - tensor figures are for FP32 accumulate where the vendor distinguishes
     (GeForce: half the FP16-accumulate rate).
   - mem_gib: device memory as marketed ("80GB" HBM is 80 GiB); for CPUs 0.
   - units: SMs (NVIDIA), CUs (AMD), cores (CPU), TensorCores/chips (TPU,
     Gaudi: matrix engines), GPU cores (Apple).
   - CPUs: peaks from the formula of rfl_machine_from_cpu (sockets x cores x
     GHz x SIMD lanes x FMA pipes x 2; bandwidth sockets x channels x MT/s x
     8 B), the inputs named in the source.
   Aliases are comma-separated; lookup ignores case, '-', '_', ' ' and '.'. */
#ifndef RFL_HW_SPECS_H
#define RFL_HW_SPECS_H

#define RFL_HW_TABLE(X) \
X(V100_SXM2, "v100-sxm2", "NVIDIA Tesla V100 SXM2 16/32GB", "v100,v100-sxm2-16gb,v100-sxm2-32gb,tesla-v100", GPU, \
  7.8, 0, 15.7, 0, 31.4, 125, 0, 0, 0, \
  900, 0, 0, 32, 6, 80, 1530, 300, \
  "NVIDIA Tesla V100 datasheet (2018): SXM2 7.8/15.7/125 TFLOPS, 900 GB/s HBM2; V100 whitepaper: 80 SMs, 6 MB L2; FP16 vector = 2x FP32") \
X(A100_SXM4_40GB, "a100-sxm4-40gb", "NVIDIA A100 SXM4 40GB", "a100,a100-40gb,a100-sxm4,a100-sxm", GPU, \
  9.7, 19.5, 19.5, 156, 78, 312, 312, 0, 624, \
  1555, 0, 0, 40, 40, 108, 1410, 400, \
  "NVIDIA A100 datasheet (2021): FP64 9.7, FP64 TC 19.5, FP32 19.5, TF32 156, FP16/BF16 TC 312, INT8 624 dense (sparse 312/624/1248 halved); 1555 GB/s HBM2; A100 whitepaper: 108 SMs, 40 MB L2, FP16 vector 78") \
X(H100_SXM, "h100-sxm", "NVIDIA H100 SXM5 80GB", "h100,h100-sxm5,h100-80gb,h100-sxm5-80gb", GPU, \
  34, 67, 67, 494.7, 133.8, 989.4, 989.4, 1978.9, 1978.9, \
  3350, 0, 0, 80, 50, 132, 1980, 700, \
  "NVIDIA H100 datasheet (2023): FP64 34, FP64 TC 67, FP32 67; TF32 989, BF16/FP16 1979, FP8/INT8 3958 with sparsity, halved here; 3.35 TB/s HBM3; H100 whitepaper: 132 SMs, 50 MB L2") \
X(XEON_E5_2697_V2_2S, "xeon-e5-2697v2-2s", "2x Intel Xeon E5-2697 v2 (Ivy Bridge EP)", "e5-2697v2,e5-2697-v2,2x-e5-2697v2", CPU, \
  0.5184, 0, 1.0368, 0, 0, 0, 0, 0, 0, \
  119.4, 0, 0, 0, 30, 24, 2700, 260, \
  "Intel ARK E5-2697 v2: 12 cores, 2.7 GHz, AVX (256-bit, separate add+mul: 16 FP32 FLOP/cycle), 4x DDR3-1866; formula: 2 sockets x 12 x 2.7 GHz x 8 lanes x 2 = 1036.8 GFLOP/s; 2 x 4 x 1866 MT/s x 8 B = 119.4 GB/s")

#endif /* RFL_HW_SPECS_H */
