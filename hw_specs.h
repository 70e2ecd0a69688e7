/* hw_specs.h - the roofline.h hardware table: data only.

   One X-macro list, RFL_HW_TABLE(X), yields both the enum of machine IDs
   (RFL_HW_<ID>) and the const table (see roofline.h). Include roofline.h, not
   this file; define RFL_NO_HW_TABLE to leave the table out, RFL_HW_NO_LINKS
   to leave out the GPU-to-GPU links (RFL_HW_LINKS, at the end).

   Row: X(ENUM_ID, "id", "display name", "aliases", KIND,
		  fp64, fp64_tensor, fp32, tf32_tensor, fp16, fp16_tensor,
		  bf16_tensor, fp8_tensor, int8_tensor,        -- TFLOP/s (int8: TOPS)
		  dram_gbps, l2_gbps, l1_gbps,                  -- GB/s (1e9 B/s)
		  mem_gib, l2_mib, units, boost_mhz, tdp_w,
		  "source", LINK)                               -- LINK: RFL_HW_LINKS
   - Every peak is DENSE. Where a vendor quotes "with sparsity", the figure
	 here is half of it and the source says so ("sparse/2").
   - 0 means the machine has no such unit (its roof is never drawn) or the
	 number is not published (bandwidth, sizes, clocks, power).
   - l2_gbps and l1_gbps are measured read bandwidths (no vendor publishes
	 them): a cited microbenchmark's, or rfl-gpu-bench's (docs/machines/).
	 l1 is the L1 / shared memory of all SMs together. 0: not measured.
   - fp16 is FP16/BF16 on the vector units (non-tensor). Where the vendor
	 gives no figure it is derived from the architecture's rate relative to
	 FP32 and the source says "derived".
   - tensor figures are for FP32 accumulate where the vendor distinguishes
	 (GeForce: half the FP16-accumulate rate).
   - mem_gib: device memory as marketed ("80GB" HBM is 80 GiB); Apple and
	 Raspberry Pi: the largest configuration; server CPUs: 0 (per system).
   - l2_mib: the last-level on-chip cache (L2 on NVIDIA; Infinity Cache on
	 MI300; SRAM on Gaudi; CMEM on TPU v4; L3 on CPUs, summed over sockets).
   - units: SMs (NVIDIA), CUs (AMD), cores (CPU, all sockets), TensorCores
	 (TPU), TPCs (Gaudi), GPU cores (Apple).
   - boost_mhz: GPU boost clock; for CPUs the clock the peak is computed at.
   - CPUs: peaks from the formula of rfl_machine_from_cpu (sockets x cores x
	 GHz x SIMD lanes x FMA pipes x 2; bandwidth sockets x channels x MT/s x
	 bytes per transfer), the inputs named in the source. The clock is the
	 nominal BASE clock (as the reports used), not the lower all-core AVX
	 clock: heavy AVX2/AVX-512 code may run 10-25% below these peaks.
   - Two documented exceptions to "FP32 > 0": TPUs (FP32 vector rate not
	 published) and Gaudi 2 (TPC vector rate not published).
   Aliases are comma-separated; lookup ignores case, '-', '_', ' ' and '.'.
   No id, name or alias may normalise to the same string as another's
   (tests/test_hw.c checks). Short names: v100 = V100 SXM2, a100 = A100 SXM4
   40GB, h100 = H100 SXM, p100 = P100 PCIe (the reports' P100, and the one
   Kaggle and Colab offer). */
#ifndef RFL_HW_SPECS_H
#define RFL_HW_SPECS_H

#define RFL_HW_TABLE(X) \
/* ---- NVIDIA data centre ------------------------------------------------ */ \
X(P100_SXM2, "p100-sxm2", "NVIDIA Tesla P100 SXM2 16GB", "p100-sxm,p100-nvlink,tesla-p100-sxm2", GPU, \
  5.3, 0, 10.6, 0, 21.2, 0, 0, 0, 0, \
  732, 0, 0, 16, 4, 56, 1480, 300, \
  "NVIDIA Tesla P100 datasheet (2016), NVLink: 5.3/10.6/21.2 TFLOPS FP64/FP32/FP16, 732 GB/s; Pascal whitepaper: 56 SMs, 4 MB L2", NVLINK1_DGX1) \
X(P100_PCIE, "p100-pcie", "NVIDIA Tesla P100 PCIe 16GB", "p100,p100-pcie-16gb,tesla-p100", GPU, \
  4.7, 0, 9.3, 0, 18.7, 0, 0, 0, 0, \
  732, 0, 0, 16, 4, 56, 1303, 250, \
  "NVIDIA Tesla P100 datasheet (2016), PCIe 16GB: 4.7/9.3/18.7 TFLOPS FP64/FP32/FP16, 732 GB/s HBM2; 56 SMs, 4 MB L2", PCIE3_DC) \
X(V100_SXM2, "v100-sxm2", "NVIDIA Tesla V100 SXM2 16/32GB", "v100,v100-sxm,v100-sxm2-16gb,v100-sxm2-32gb,tesla-v100", GPU, \
  7.8, 0, 15.7, 0, 31.4, 125, 0, 0, 0, \
  900, 2710, 15410, 32, 6, 80, 1530, 300, \
  "NVIDIA V100 datasheet (2018), SXM2: 7.8/15.7/125 TFLOPS FP64/FP32/tensor, 900 GB/s; whitepaper: 80 SMs, 6 MB L2; FP16 vector = 2x FP32; L2 2710, L1 15410 GB/s: the V100 PCIe's measured 2440, 13900 (te42kyfo/gpu-benches@1c36d50 gpu-cache/v100.txt) x 1530/1380 MHz boost", NVLINK2_DGX1) \
X(V100_PCIE, "v100-pcie", "NVIDIA Tesla V100 PCIe 16/32GB", "v100-pcie-16gb,v100-pcie-32gb,tesla-v100-pcie", GPU, \
  7, 0, 14, 0, 28, 112, 0, 0, 0, \
  900, 2440, 13900, 32, 6, 80, 1380, 250, \
  "NVIDIA V100 datasheet (2018), PCIe: 7/14/112 TFLOPS FP64/FP32/tensor, 900 GB/s HBM2; 80 SMs, 6 MB L2; FP16 vector = 2x FP32; L2 2440, L1 13900 GB/s measured: te42kyfo/gpu-benches@1c36d50 gpu-cache/v100.txt (1380 MHz; L2: 1.2-5.5 MB rows 2.41-2.45 TB/s, L1: 8-120 kB rows 13.7-13.9 TB/s)", PCIE3_DC) \
X(T4, "t4", "NVIDIA T4 16GB", "tesla-t4,nvidia-t4", GPU, \
  0.253, 0, 8.1, 0, 16.2, 65, 0, 0, 130, \
  320, 0, 0, 16, 4, 40, 1590, 70, \
  "NVIDIA T4 datasheet (2019): FP32 8.1, FP16/FP32 mixed tensor 65, INT8 130 TOPS, 320 GB/s; Turing whitepaper: 40 SMs; FP64 1/32, FP16 2x FP32 derived", PCIE3_DC) \
X(A100_SXM4_40GB, "a100-sxm4-40gb", "NVIDIA A100 SXM4 40GB", "a100,a100-40gb,a100-sxm4,a100-sxm", GPU, \
  9.7, 19.5, 19.5, 156, 78, 312, 312, 0, 624, \
  1555, 5420, 19100, 40, 40, 108, 1410, 400, \
  "NVIDIA A100 datasheet (2021): sparse TF32/FP16/INT8 312/624/1248 halved; 1555 GB/s; whitepaper: 108 SMs, 40 MB L2, FP16 vector 78; L2 5420, L1 19100 GB/s measured on the 80GB (same GA100): te42kyfo/gpu-benches@1c36d50 gpu-l2-cache/a100_80.txt, gpu-cache/a100_80.txt", NVLINK3_HGX) \
X(A100_SXM4_80GB, "a100-sxm4-80gb", "NVIDIA A100 SXM4 80GB", "a100-80gb,a100-sxm-80gb,a100-80gb-sxm", GPU, \
  9.7, 19.5, 19.5, 156, 78, 312, 312, 0, 624, \
  2039, 5420, 19100, 80, 40, 108, 1410, 400, \
  "NVIDIA A100 datasheet (2021), 80GB SXM: as 40GB (sparse figures halved), 2039 GB/s HBM2e; whitepaper: 108 SMs, 40 MB L2, FP16 vector 78; L2 5420, L1 19100 GB/s measured: medians of te42kyfo/gpu-benches@1c36d50 gpu-l2-cache/a100_80.txt, gpu-cache/a100_80.txt", NVLINK3_HGX) \
X(A100_PCIE_80GB, "a100-pcie-80gb", "NVIDIA A100 PCIe 80GB", "a100-pcie,a100-80gb-pcie", GPU, \
  9.7, 19.5, 19.5, 156, 78, 312, 312, 0, 624, \
  1935, 0, 0, 80, 40, 108, 1410, 300, \
  "NVIDIA A100 datasheet (2021), 80GB PCIe: 19.5 FP32, 312 FP16 TC (624 sparse halved), 1935 GB/s HBM2e, 300 W; whitepaper: 108 SMs", PCIE4_DC) \
X(A10, "a10", "NVIDIA A10 24GB", "nvidia-a10,a10-24gb", GPU, \
  0.488, 0, 31.2, 62.5, 31.2, 125, 125, 0, 250, \
  600, 0, 0, 24, 6, 72, 1695, 150, \
  "NVIDIA A10 datasheet (2021): TF32 62.5, BF16/FP16 125, INT8 250 (sparse halved), 600 GB/s GDDR6; FP64 1/64, FP16 vector 1x FP32 (GA10x) derived", PCIE4_DC) \
X(A30, "a30", "NVIDIA A30 24GB", "nvidia-a30,a30-24gb", GPU, \
  5.2, 10.3, 10.3, 82, 41.3, 165, 165, 0, 330, \
  933, 0, 0, 24, 24, 56, 1440, 165, \
  "NVIDIA A30 datasheet (2021): FP64 5.2, FP64 TC 10.3, TF32 82, FP16 165, INT8 330 (sparse halved), 933 GB/s; FP16 vector 4x FP32 (GA100) derived", PCIE4_DC) \
X(H100_SXM, "h100-sxm", "NVIDIA H100 SXM5 80GB", "h100,h100-sxm5,h100-80gb,h100-sxm5-80gb", GPU, \
  34, 67, 67, 494.7, 133.8, 989.4, 989.4, 1978.9, 1978.9, \
  3350, 7280, 32250, 80, 50, 132, 1980, 700, \
  "NVIDIA H100 datasheet (2023): 34/67/67 FP64/FP64 TC/FP32; TF32 989, FP16 1979, FP8 3958 sparse halved; 3.35 TB/s HBM3; whitepaper: 132 SMs, 50 MB L2; L2 7280, L1 (shared memory) 32250 GB/s measured, docs/machines/h100-sxm.json (rfl-gpu-bench)", NVLINK4_HGX) \
X(H100_PCIE, "h100-pcie", "NVIDIA H100 PCIe 80GB", "h100-pcie-80gb,h100-pcie5", GPU, \
  26, 51, 51, 378, 102, 756.5, 756.5, 1513, 1513, \
  2000, 6950, 25250, 80, 50, 114, 1755, 350, \
  "NVIDIA H100 datasheet (2023), PCIe: 26/51/51 FP64/FP64 TC/FP32; TF32 756, FP16 1513, FP8 3026 sparse halved; 2 TB/s HBM2e; FP16 vector 2x derived; L2 6950, L1 25250 GB/s measured: te42kyfo/gpu-benches@1c36d50 gpu-l2-cache/h100_pcie.txt (15 MB row 6946 GB/s) and gpu-cache/h100_pcie.txt (8-204 kB rows 25.1-25.3 TB/s)", PCIE5_DC) \
X(H100_NVL, "h100-nvl", "NVIDIA H100 NVL 94GB (per GPU)", "h100-nvl-94gb", GPU, \
  30, 60, 60, 417.5, 120, 835.5, 835.5, 1670.5, 1670.5, \
  3900, 0, 0, 94, 50, 132, 1785, 400, \
  "NVIDIA H100 NVL datasheet (2024), per GPU: 30/60/60 FP64/FP64 TC/FP32; TF32 835, FP16 1671, FP8 3341 sparse halved; 3.9 TB/s; FP16 vector 2x derived", NVLINK4_NVL_PAIR) \
X(H200_SXM, "h200-sxm", "NVIDIA H200 SXM 141GB", "h200,h200-141gb,h200-sxm5", GPU, \
  34, 67, 67, 494.7, 133.8, 989.4, 989.4, 1978.9, 1978.9, \
  4800, 9770, 32520, 141, 50, 132, 1980, 700, \
  "NVIDIA H200 datasheet (2024): compute as H100 SXM (TF32 989, FP16 1979, FP8 3958 sparse halved); 141 GB HBM3e at 4.8 TB/s; 700 W; L2 9770 GB/s measured: te42kyfo/gpu-benches@1c36d50 gpu-l2-cache/h200.txt (16.5 MB row 9765 GB/s); L1 (shared memory) 32520 GB/s measured, docs/machines/h200.json (rfl-gpu-bench)", NVLINK4_HGX) \
X(B200, "b200", "NVIDIA B200 180GB (HGX)", "b200-sxm,hgx-b200,dgx-b200", GPU, \
  37, 37, 75, 1100, 150, 2250, 2250, 4500, 4500, \
  7700, 0, 0, 180, 0, 148, 0, 1000, \
  "NVIDIA HGX B200 spec (2025), per GPU: FP64 37, FP32 75; TF32 2.2, FP16 4.5, FP8/INT8 9 PF sparse halved; 7.7 TB/s HBM3e; FP16 vector 2x derived", NVLINK5_HGX) \
/* ---- NVIDIA workstation, consumer, edge ---------------------------------- */ \
X(L4, "l4", "NVIDIA L4 24GB", "nvidia-l4,l4-24gb", GPU, \
  0.473, 0, 30.3, 60, 30.3, 121, 121, 242.5, 242.5, \
  300, 0, 0, 24, 48, 58, 2040, 72, \
  "NVIDIA L4 datasheet (2023): FP32 30.3; TF32 120, FP16 242, FP8/INT8 485 sparse halved; 300 GB/s; Ada whitepaper; FP64 1/64, FP16 vector 1x derived", PCIE4_DC) \
X(L40S, "l40s", "NVIDIA L40S 48GB", "nvidia-l40s,l40s-48gb", GPU, \
  1.431, 0, 91.6, 183, 91.6, 362.05, 362.05, 733, 733, \
  864, 0, 0, 48, 96, 142, 2520, 350, \
  "NVIDIA L40S datasheet (2023): FP32 91.6; TF32 366, FP16 733, FP8/INT8 1466 sparse halved; 864 GB/s; FP64 1/64, FP16 vector 1x derived", PCIE4_DC) \
X(RTX_3090, "rtx-3090", "NVIDIA GeForce RTX 3090 24GB", "geforce-rtx-3090,3090", GPU, \
  0.556, 0, 35.6, 35.6, 35.6, 71, 71, 0, 284, \
  936, 0, 0, 24, 6, 82, 1695, 350, \
  "NVIDIA Ampere GA102 whitepaper (2020), RTX 3090: FP16/BF16 tensor FP32-acc 71 (142 w/ FP16 acc), TF32 35.6, INT8 284 dense; 936 GB/s; FP64 1/64", PCIE4_WS) \
X(RTX_4090, "rtx-4090", "NVIDIA GeForce RTX 4090 24GB", "geforce-rtx-4090,4090", GPU, \
  1.29, 0, 82.6, 82.6, 82.6, 165.2, 165.2, 330.3, 660.6, \
  1008, 0, 0, 24, 72, 128, 2520, 450, \
  "NVIDIA Ada whitepaper (2022), RTX 4090: FP16 tensor FP32-acc 165.2 (330.3 w/ FP16 acc), FP8 330.3, INT8 660.6 dense; 1008 GB/s; FP64 1/64", PCIE4_WS) \
X(RTX_5090, "rtx-5090", "NVIDIA GeForce RTX 5090 32GB", "geforce-rtx-5090,5090", GPU, \
  1.637, 0, 104.8, 104.8, 104.8, 209.5, 209.5, 419, 838, \
  1792, 0, 0, 32, 96, 170, 2407, 575, \
  "NVIDIA RTX Blackwell whitepaper (2025), RTX 5090: FP16 tensor FP32-acc 209.5 (419 FP16-acc), FP8 419, INT8 838 dense; 1792 GB/s GDDR7; FP64 1/64", PCIE5_WS) \
X(JETSON_AGX_ORIN, "jetson-agx-orin", "NVIDIA Jetson AGX Orin 64GB (GPU)", "agx-orin,orin-agx,jetson-agx-orin-64gb", SOC, \
  0.083, 0, 5.32, 21.25, 5.32, 42.5, 42.5, 0, 85, \
  204.8, 0, 0, 64, 4, 16, 1300, 60, \
  "NVIDIA Jetson AGX Orin tech brief (2022): GPU 2048 cores 1.3 GHz = 5.3 FP32; 170 sparse INT8 TOPS halved; FP16 = INT8/2, TF32 = FP16/2, FP64 1/64 derived", NONE) \
X(JETSON_ORIN_NANO, "jetson-orin-nano", "NVIDIA Jetson Orin Nano 8GB (GPU, 15 W)", "orin-nano,jetson-orin-nano-8gb", SOC, \
  0.02, 0, 1.28, 5, 1.28, 10, 10, 0, 20, \
  68, 0, 0, 8, 0, 8, 625, 15, \
  "NVIDIA Jetson Orin Nano datasheet (2023): 1024 cores 625 MHz = 1.28 FP32; 40 sparse INT8 TOPS halved; 68 GB/s; FP16 = INT8/2 derived", NONE) \
X(JETSON_ORIN_NANO_SUPER, "jetson-orin-nano-super", "NVIDIA Jetson Orin Nano Super 8GB (GPU, 25 W)", "orin-nano-super", SOC, \
  0.033, 0, 2.09, 8.4, 2.09, 16.75, 16.75, 0, 33.5, \
  102, 0, 0, 8, 0, 8, 1020, 25, \
  "NVIDIA Jetson Orin Nano Super datasheet (2024): 1024 cores 1020 MHz = 2.09 FP32; 67 sparse INT8 TOPS halved; 102 GB/s; FP16 = INT8/2 derived", NONE) \
/* ---- AMD ---------------------------------------------------------------- */ \
X(MI100, "mi100", "AMD Instinct MI100 32GB", "instinct-mi100,amd-mi100", GPU, \
  11.5, 0, 23.1, 0, 46.1, 184.6, 92.3, 0, 184.6, \
  1228.8, 2720, 0, 32, 8, 120, 1502, 300, \
  "AMD Instinct MI100 datasheet (2020): FP64 11.5, FP32 23.1, FP16 matrix 184.6, BF16 92.3, INT8 184.6; FP32 matrix 46.1 (no TF32); 1.23 TB/s; L2 2720 GB/s measured: te42kyfo/gpu-benches@1c36d50 gpu-l2-cache/mi100.txt (4.5-8.3 MB rows 2.71-2.73 TB/s)", UNKNOWN_AMD) \
X(MI210, "mi210", "AMD Instinct MI210 64GB", "instinct-mi210,amd-mi210", GPU, \
  22.6, 45.3, 22.6, 0, 45.3, 181, 181, 0, 181, \
  1638.4, 5080, 0, 64, 8, 104, 1700, 300, \
  "AMD Instinct MI210 datasheet (2022): FP64/FP32 vector 22.6, FP64/FP32 matrix 45.3, FP16/BF16/INT8 181; 1.6 TB/s; FP16 vector = packed FP32 rate; L2 5080 GB/s measured: te42kyfo/gpu-benches@1c36d50 gpu-l2-cache/mi210.txt (3-4.5 MB rows 5.06-5.11 TB/s)", UNKNOWN_AMD) \
X(MI250X, "mi250x", "AMD Instinct MI250X 128GB", "instinct-mi250x,amd-mi250x", GPU, \
  47.9, 95.7, 47.9, 0, 95.7, 383, 383, 0, 383, \
  3276.8, 0, 0, 128, 16, 220, 1700, 560, \
  "AMD Instinct MI250X datasheet (2021): FP64/FP32 vector 47.9, FP64/FP32 matrix 95.7, FP16/BF16/INT8 383; 3.2768 TB/s; FP16 vector = packed FP32", UNKNOWN_AMD) \
X(MI300X, "mi300x", "AMD Instinct MI300X 192GB", "instinct-mi300x,amd-mi300x", GPU, \
  81.7, 163.4, 163.4, 653.7, 163.4, 1307.4, 1307.4, 2614.9, 2614.9, \
  5300, 0, 0, 192, 256, 304, 2100, 750, \
  "AMD Instinct MI300X datasheet (2023): FP64 81.7/163.4, FP32 163.4; TF32 653.7, FP16 1307.4, FP8 2614.9 dense; 5.3 TB/s; 256 MB Infinity Cache", IF_MI300) \
X(MI325X, "mi325x", "AMD Instinct MI325X 256GB", "instinct-mi325x,amd-mi325x", GPU, \
  81.7, 163.4, 163.4, 653.7, 163.4, 1307.4, 1307.4, 2614.9, 2614.9, \
  6000, 0, 0, 256, 256, 304, 2100, 1000, \
  "AMD Instinct MI325X datasheet (2024): compute as MI300X (FP16 1307.4, FP8 2614.9 dense); 256 GB HBM3E at 6 TB/s; 1000 W", IF_MI300) \
/* ---- Intel Gaudi ---------------------------------------------------------- */ \
X(GAUDI2, "gaudi2", "Intel Gaudi 2 96GB", "intel-gaudi2,hl-225h", ACCEL, \
  0, 0, 0, 0, 0, 0, 432, 865, 0, \
  2460, 0, 0, 96, 48, 24, 0, 600, \
  "Intel Gaudi 2 brief (2022), Gaudi 3 whitepaper (2024): BF16 432, FP8 865 TFLOPS (MME), 2.46 TB/s, 48 MB SRAM, 24 TPCs, 600 W; TPC vector rate not published", UNKNOWN_GAUDI) \
X(GAUDI3, "gaudi3", "Intel Gaudi 3 128GB (OAM)", "intel-gaudi3,hl-325l", ACCEL, \
  0, 0, 14.35, 0, 28.7, 0, 1835, 1835, 0, \
  3670, 0, 0, 128, 96, 64, 0, 900, \
  "Intel Gaudi 3 whitepaper (2024): BF16/FP8 matrix 1835, BF16 vector 28.7, 3.67 TB/s, 96 MB SRAM, 64 TPCs; FP32 vector = BF16/2 (TPC guide) derived", UNKNOWN_GAUDI) \
/* ---- Google TPU (per chip) ------------------------------------------------ */ \
X(TPU_V4, "tpu-v4", "Google Cloud TPU v4 (per chip)", "google-tpu-v4,tpu4", TPU, \
  0, 0, 0, 0, 0, 0, 275, 0, 275, \
  1200, 0, 0, 32, 128, 2, 1050, 0, \
  "Google Cloud TPU v4 docs (2023): 275 TFLOPS bf16 / 275 TOPS int8, 32 GiB HBM2 at 1200 GB/s, 2 TensorCores; TPU v4 paper: 128 MiB CMEM", UNKNOWN_TPU) \
X(TPU_V5E, "tpu-v5e", "Google Cloud TPU v5e (per chip)", "tpu-v5-lite,tpu5e", TPU, \
  0, 0, 0, 0, 0, 0, 197, 0, 394, \
  819, 0, 0, 16, 0, 1, 0, 0, \
  "Google Cloud TPU v5e docs (2023): 197 TFLOPS bf16, 394 TOPS int8, 16 GiB HBM2 at 819 GB/s, 1 TensorCore per chip", UNKNOWN_TPU) \
X(TPU_V5P, "tpu-v5p", "Google Cloud TPU v5p (per chip)", "tpu5p", TPU, \
  0, 0, 0, 0, 0, 0, 459, 0, 918, \
  2765, 0, 0, 95, 0, 2, 0, 0, \
  "Google Cloud TPU v5p docs (2023): 459 TFLOPS bf16, 918 TOPS int8, 95 GiB HBM2e at 2765 GB/s, 2 TensorCores per chip", UNKNOWN_TPU) \
X(TPU_V6E, "tpu-v6e", "Google Cloud TPU v6e Trillium (per chip)", "trillium,tpu6e", TPU, \
  0, 0, 0, 0, 0, 0, 918, 0, 1836, \
  1640, 0, 0, 32, 0, 1, 0, 0, \
  "Google Cloud TPU v6e docs (2024): 918 TFLOPS bf16, 1836 TOPS int8, 32 GiB HBM at 1640 GB/s, 1 TensorCore per chip", UNKNOWN_TPU) \
/* ---- Apple (GPU peaks; the Neural Engine as fp16/int8 tensor) ------------ */ \
X(APPLE_A14, "apple-a14", "Apple A14 Bionic (4-core GPU)", "a14,a14-bionic", SOC, \
  0, 0, 1.31, 0, 1.31, 11, 0, 0, 0, \
  34.1, 0, 0, 6, 0, 4, 1278, 0, \
  "Apple A14 (2020): 16-core Neural Engine 11 TOPS; GPU 4 cores x 128 ALUs x 2 x 1.278 GHz derived (as M1); LPDDR4X-4266 64-bit = 34.1 GB/s", NONE) \
X(APPLE_M1, "apple-m1", "Apple M1 (8-core GPU)", "m1", SOC, \
  0, 0, 2.6, 0, 2.6, 11, 0, 0, 0, \
  68.25, 0, 0, 16, 0, 8, 1278, 0, \
  "Apple M1 press release (2020): GPU 2.6 TFLOPS, Neural Engine 11 TOPS; LPDDR4X-4266 128-bit = 68.25 GB/s; FP16 vector = FP32 rate", NONE) \
X(APPLE_M2, "apple-m2", "Apple M2 (10-core GPU)", "m2", SOC, \
  0, 0, 3.6, 0, 3.6, 15.8, 0, 0, 0, \
  100, 0, 0, 24, 0, 10, 1398, 0, \
  "Apple M2 press release (2022): GPU 3.6 TFLOPS, Neural Engine 15.8 TOPS, 100 GB/s LPDDR5, up to 24 GB; FP16 vector = FP32 rate", NONE) \
X(APPLE_M3, "apple-m3", "Apple M3 (10-core GPU)", "m3", SOC, \
  0, 0, 3.58, 0, 3.58, 18, 0, 0, 0, \
  100, 0, 0, 24, 0, 10, 1398, 0, \
  "Apple M3 press release (2023): Neural Engine 18 TOPS, 100 GB/s; GPU 10 cores x 128 ALUs x 2 x 1.398 GHz = 3.58 TFLOPS derived (not published)", NONE) \
X(APPLE_M4, "apple-m4", "Apple M4 (10-core GPU)", "m4", SOC, \
  0, 0, 3.76, 0, 3.76, 0, 0, 0, 38, \
  120, 0, 0, 32, 0, 10, 1470, 0, \
  "Apple M4 press release (2024): Neural Engine 38 TOPS (INT8), 120 GB/s LPDDR5X; GPU 10 x 128 ALUs x 2 x 1.47 GHz = 3.76 TFLOPS derived", NONE) \
/* ---- CPUs (formula of rfl_machine_from_cpu; base clock) ----------------- */ \
X(XEON_E5_2697_V2_2S, "xeon-e5-2697v2-2s", "2x Intel Xeon E5-2697 v2 (Ivy Bridge EP)", "e5-2697v2,2x-e5-2697v2,xeon-e5-2697v2", CPU, \
  0.5184, 0, 1.0368, 0, 0, 0, 0, 0, 0, \
  119.4, 0, 0, 0, 60, 24, 2700, 260, \
  "Intel ARK E5-2697 v2: 2 x 12 cores x 2.7 GHz x AVX 8 lanes x 2 (add+mul) = 1036.8 GFLOP/s; 2 x 4 ch x DDR3-1866 x 8 B = 119.4 GB/s", NONE) \
X(XEON_E5_2699_V4_2S, "xeon-e5-2699v4-2s", "2x Intel Xeon E5-2699 v4 (Broadwell EP)", "e5-2699v4,2x-e5-2699v4,xeon-e5-2699v4", CPU, \
  1.5488, 0, 3.0976, 0, 0, 0, 0, 0, 0, \
  153.6, 0, 0, 0, 110, 44, 2200, 290, \
  "Intel ARK E5-2699 v4: 2 x 22 cores x 2.2 GHz x AVX2 8 lanes x 2 FMA x 2 = 3097.6 GFLOP/s; 2 x 4 ch x DDR4-2400 x 8 B = 153.6 GB/s", NONE) \
X(XEON_8380, "xeon-8380", "Intel Xeon Platinum 8380 (1 socket)", "xeon-platinum-8380,8380", CPU, \
  2.944, 0, 5.888, 0, 0, 0, 0, 0, 0, \
  204.8, 0, 0, 0, 60, 40, 2300, 270, \
  "Intel ARK Xeon Platinum 8380: 40 cores x 2.3 GHz base x AVX-512 16 lanes x 2 FMA x 2 = 5888 GFLOP/s; 8 ch x DDR4-3200 x 8 B = 204.8 GB/s", NONE) \
X(XEON_8480P, "xeon-8480plus", "Intel Xeon Platinum 8480+ (1 socket)", "xeon-platinum-8480+,xeon-8480+,8480+", CPU, \
  3.584, 0, 7.168, 0, 14.336, 0, 114.688, 0, 229.376, \
  307.2, 0, 0, 0, 105, 56, 2000, 350, \
  "Intel ARK 8480+: 56 x 2.0 GHz x AVX-512 16 x 2 FMA x 2 = 7168 GFLOP/s; AMX 1024 BF16/2048 INT8 ops/cycle/core; 8 ch DDR5-4800 = 307.2 GB/s", NONE) \
X(EPYC_7763, "epyc-7763", "AMD EPYC 7763 (1 socket)", "amd-epyc-7763,7763", CPU, \
  2.5088, 0, 5.0176, 0, 0, 0, 0, 0, 0, \
  204.8, 0, 0, 0, 256, 64, 2450, 280, \
  "AMD EPYC 7763 (Zen 3): 64 cores x 2.45 GHz base x AVX2 8 lanes x 2 FMA x 2 = 5017.6 GFLOP/s; 8 ch x DDR4-3200 x 8 B = 204.8 GB/s", NONE) \
X(EPYC_9654, "epyc-9654", "AMD EPYC 9654 (1 socket)", "amd-epyc-9654,9654", CPU, \
  3.6864, 0, 7.3728, 0, 0, 0, 0, 0, 0, \
  460.8, 0, 0, 0, 384, 96, 2400, 360, \
  "AMD EPYC 9654 (Zen 4, AVX-512 on 2x256-bit FMA): 96 x 2.4 GHz x 8 x 2 x 2 = 7372.8 GFLOP/s; 12 ch x DDR5-4800 x 8 B = 460.8 GB/s", NONE) \
X(RPI4, "raspberry-pi-4", "Raspberry Pi 4 Model B (BCM2711)", "rpi4,pi4,raspberry-pi-4b", CPU, \
  0.024, 0, 0.048, 0, 0, 0, 0, 0, 0, \
  12.8, 0, 0, 8, 1, 4, 1500, 0, \
  "Raspberry Pi 4 product brief: 4x Cortex-A72 1.5 GHz x NEON 4 lanes x 1 FMA x 2 = 48 GFLOP/s; LPDDR4-3200 32-bit x 4 B = 12.8 GB/s", NONE) \
X(RPI5, "raspberry-pi-5", "Raspberry Pi 5 (BCM2712)", "rpi5,pi5", CPU, \
  0.0768, 0, 0.1536, 0, 0.3072, 0, 0, 0, 0, \
  17.07, 0, 0, 16, 2, 4, 2400, 0, \
  "Raspberry Pi 5 product brief: 4x Cortex-A76 2.4 GHz x NEON 4 lanes x 2 FMA x 2 = 153.6 GFLOP/s, FP16 2x; LPDDR4X-4267 32-bit = 17.07 GB/s", NONE)

/* Device names: what the vendors' tools print for each machine (nvidia-smi's
   name, ncu's device__attribute_display_name and CUDA's device name are one
   string; rocm-smi's card series, rocminfo's marketing name and HIP's device
   name another), each with where it was seen. rfl_hw_find matches them as it
   matches ids (case, ' ', '-', '_' and '.' ignored), with a leading "NVIDIA"
   optional on either side (drivers before R470 printed "A100-SXM4-40GB").
   Only names that pin one row: a memory size or form factor the table lacks
   ("NVIDIA A100-PCIE-40GB", "NVIDIA H200 NVL", "Orin") is not listed and not
   found. A machine may have several names.
   Row: X(ENUM_ID, "name as printed", "where it was seen") */
#define RFL_HW_DEVICE_NAMES(X) \
X(P100_SXM2, "Tesla P100-SXM2-16GB", "nvidia-smi and CUDA prop.name in public code (find_string)") \
X(P100_PCIE, "Tesla P100-PCIE-16GB", "PyTorch device name, github.com/zzc0721/torch-performance-test-data/issues/176") \
X(V100_SXM2, "Tesla V100-SXM2-16GB", "nvidia-smi -a, github.com/NVIDIA/nvidia-docker/issues/914; tests/data nvprof captures") \
X(V100_SXM2, "Tesla V100-SXM2-32GB", "NVIDIA driver device list 0x1DB5, public code (find_string)") \
X(V100_PCIE, "Tesla V100-PCIE-16GB", "PyTorch collect_env, public code (find_string)") \
X(V100_PCIE, "Tesla V100-PCIE-32GB", "PyTorch collect_env GPU 0, public code (find_string)") \
X(T4, "Tesla T4", "nvidia-smi -q, github.com/NVIDIA/nvidia-docker/issues/1628; github.com/METR/vivaria/issues/694") \
X(A100_SXM4_40GB, "NVIDIA A100-SXM4-40GB", "deviceQuery, github.com/bottlerocket-os/bottlerocket/pull/3873; nvidia-smi 580, bottlerocket-core-kit/pull/834") \
X(A100_SXM4_80GB, "NVIDIA A100-SXM4-80GB", "nvidia-smi -a driver 470, github.com/NVIDIA/CUDALibrarySamples/issues/104") \
X(A100_SXM4_80GB, "A100-SXM-80GB", "nvidia-smi driver 450 (the first 80GB boards), github.com/keyu-tian/SparK/issues/8") \
X(A100_PCIE_80GB, "NVIDIA A100 80GB PCIe", "nvidia-smi 510, 300 W, 81920MiB, github.com/NVIDIA/deepops/issues/1215 (cut to \"NVIDIA A100 80G...\"); RunPod GPU type ids") \
X(A10, "NVIDIA A10", "nvidia-smi tables in public code (find_string '0  NVIDIA A10 '); lspci GA102GL [A10], github.com/easydiffusion/torchruntime/issues/13") \
X(A30, "NVIDIA A30", "nvidia-smi tables in public code (find_string '0  NVIDIA A30 ')") \
X(H100_SXM, "NVIDIA H100 80GB HBM3", "our ncu captures (tests/data); nvidia-smi 550, github.com/NVIDIA/nccl/issues/1264") \
X(H100_PCIE, "NVIDIA H100 PCIe", "PyTorch warning, github.com/mistralai/mistral-inference/pull/43; github.com/zzc0721/torch-performance-test-data/issues/95") \
X(H100_NVL, "NVIDIA H100 NVL", "nvidia-smi --query-gpu=name, github.com/akash-network/provider-configs/pull/91") \
X(H200_SXM, "NVIDIA H200", "our ncu captures (tests/data/h200-*); nvidia-smi -q, device 0x2335, github.com/NVIDIA/mig-parted/issues/120") \
X(B200, "NVIDIA B200", "nvidia-smi 580, 183359MiB, github.com/NVIDIA/TensorRT-LLM/issues/10278; CUDA name, github.com/pytorch/ao/pull/4002") \
X(L4, "NVIDIA L4", "nvidia-smi tables in public code (find_string '0  NVIDIA L4 ')") \
X(L40S, "NVIDIA L40S", "RunPod GPU type ids (public code, find_string)") \
X(RTX_3090, "NVIDIA GeForce RTX 3090", "torch.cuda.get_device_name, github.com/pytorch/pytorch/issues/75198") \
X(RTX_4090, "NVIDIA GeForce RTX 4090", "PyTorch warning, github.com/akshaydudhane16/Burstormer/issues/19") \
X(RTX_5090, "NVIDIA GeForce RTX 5090", "RunPod GPU type ids (public code, find_string)") \
X(MI100, "AMD Instinct MI100", "rocminfo Marketing Name in public code (find_string); none before ROCm 6, github.com/ROCm/legacy-rocm-build/issues/1778") \
X(MI100, "Arcturus GL-XL [AMD Instinct MI100]", "rocm-smi --showproductname card series, github.com/easybuilders/easybuild-framework/pull/3978") \
X(MI210, "AMD Instinct MI210", "rocminfo Marketing Name in public code (find_string)") \
X(MI250X, "AMD Instinct MI250X", "amdgpu device 0x7408 name in public code (find_string); ROCm support table") \
X(MI300X, "AMD Instinct MI300X", "rocminfo Marketing Name, github.com/ROCm/legacy-rocm-build/issues/4414") \
X(MI325X, "AMD Instinct MI325X", "OpenCL board name and HIP device name in public code (find_string)") \
X(MI325X, "AMD Instinct MI325X VF", "the SR-IOV function of a cloud VM, public code (find_string)")

/* GPU-to-GPU links: one row per kind of node, shared by the machines whose
   last column names it. What a tensor-parallel step pays for its
   all-reduces (rfl_allreduce_time).
   Row: L(LINK_ID, KIND, gen, lanes, gbps, latency_ns, gpus_per_node,
		  "source",
		  ar_base_ns, ar_step_ns, ar_busbw_gbps, ar_eager_ns, ar_gpus,
		  "all-reduce fit source")
   - KIND: NVLINK, PCIE, INFINITY_FABRIC, NONE (one device: a CPU, a
	 system on a chip, a board) or UNKNOWN (not in this table yet: never
	 read as "no link").
   - gen: NVLink or PCIe generation; lanes: NVLinks (or fabric links) per
	 GPU, PCIe lanes. 0 = unknown.
   - gbps: per GPU, per direction, GB/s (1e9 B/s): half the bidirectional
	 figure vendors print ("900 GB/s" NVLink 4 is 450 each way).
   - latency_ns: one step of a ring (what one hop costs a small message):
	 NCCL's own figure for the link (src/graph/tuning.cc, hwLat, ring, LL
	 protocol), not a datasheet's; 0 = unknown.
   - gpus_per_node: the usual node (HGX / DGX baseboards: 8). PCIe cards:
	 ASSUMED 8 in a data-centre server, 4 in a workstation; NVLink bridges
	 on PCIe cards (A100 / H100 PCIe pairs, RTX 3090) are not assumed: a
	 machine file describes such a pair.
   - ar_*: the all-reduce fitted on our measurements (dev/capture/
	 fit_links.py): t = base + 2 (n - 1) step + 2 (n - 1) / n x bytes /
	 busbw inside a CUDA graph, eager launches eager_ns more; ar_gpus is
	 the most GPUs measured. 0 0 0 0 0: not measured, rfl_allreduce_time
	 uses latency_ns and gbps (the datasheet: a lower bound on the time). */
#define RFL_HW_LINKS(L) \
L(UNKNOWN_AMD, UNKNOWN, 0, 0, 0, 0, 0, \
  "not in this table yet: Infinity Fabric bridges between 2 to 4 cards (MI100, MI210) or on the MI250X baseboard", \
  0, 0, 0, 0, 0, "") \
L(UNKNOWN_GAUDI, UNKNOWN, 0, 0, 0, 0, 0, \
  "not in this table yet: Gaudi cards talk over their on-chip RoCE Ethernet ports", 0, 0, 0, 0, 0, "") \
L(UNKNOWN_TPU, UNKNOWN, 0, 0, 0, 0, 0, \
  "not in this table yet: TPU chips talk over their inter-chip interconnect (ICI)", 0, 0, 0, 0, 0, "") \
L(NONE, NONE, 0, 0, 0, 0, 1, "one device: no GPU-to-GPU link", 0, 0, 0, 0, 0, "") \
L(NVLINK1_DGX1, NVLINK, 1, 4, 80, 470, 8, \
  "P100 SXM2: 4 NVLink 1 links, 80 GB/s each way (Dell EMC Ready Solutions for AI reference guide v1.0 p.17, 'NVLink Uni-direction Bandwidth 80'); 8 GPUs in a DGX-1 (hybrid cube mesh, not all-to-all); latency: NCCL src/graph/tuning.cc hwLat NVLink ring LL 0.47 us", \
  0, 0, 0, 0, 0, "") \
L(NVLINK2_DGX1, NVLINK, 2, 6, 150, 470, 8, \
  "V100 SXM2: 6 NVLink 2 links x 25 GB/s each way = 150 (V100 datasheet 300 GB/s both ways; Dell EMC Ready Solutions for AI reference guide v1.0 p.17); 8 GPUs in a DGX-1 (hybrid cube mesh); latency: NCCL tuning.cc hwLat NVLink ring LL 0.47 us", \
  0, 0, 0, 0, 0, "") \
L(NVLINK3_HGX, NVLINK, 3, 12, 300, 470, 8, \
  "A100 SXM4: 12 NVLink 3 links, 600 GB/s both ways (nvidia.com/de-de/data-center/nvlink/; A100 whitepaper); 8 GPUs on an HGX / DGX A100 through 6 NVSwitches; latency: NCCL tuning.cc hwLat NVLink ring LL 0.47 us", \
  35250, 1700, 183.7, 0, 8, \
  "fitted by dev/capture/check_published.py --fit-link on NeMo's published Llama-2-7B batch-1 latencies on 2, 4 and 8 A100 SXM4 (TensorRT-LLM; tests/data/forecast/published.json, use fit): the all-reduce as that engine paid it; busbw: the H200 fit's share of its link") \
L(NVLINK4_HGX, NVLINK, 4, 18, 450, 470, 8, \
  "H100 / H200 SXM: 18 NVLink 4 links, 900 GB/s both ways, 450 each way (H100 and H200 datasheets); 8 GPUs on an HGX H100 / H200 through 4 NVSwitches; latency: NCCL tuning.cc hwLat NVLink ring LL 0.47 us", \
  8541, 924, 275.5, 50910, 4, \
  "fitted by dev/capture/fit_links.py on tests/data/forecast/h200x4-tp{2,4}{,-run1}.json (NCCL 2.28.9 all-reduce, bf16, 2 and 4 GPUs of a 4 x H200 SXM host, NVLink multicast off): 100 rows, median error 9.7%, at most 41% at 1-4 MiB; 16 held-out rows median 12.3%, at most 43%; H100 SXM shares the fabric, not measured; 8 GPUs extrapolated") \
L(NVLINK4_NVL_PAIR, NVLINK, 4, 0, 300, 470, 2, \
  "H100 NVL: a pair of PCIe cards joined by NVLink bridges, 600 GB/s both ways (H100 datasheet, NVL column); latency: NCCL tuning.cc hwLat NVLink ring LL 0.47 us", \
  0, 0, 0, 0, 0, "") \
L(NVLINK5_HGX, NVLINK, 5, 18, 900, 470, 8, \
  "B200: 18 NVLink 5 links, 1.8 TB/s both ways (HGX B200 spec; docs.vultr.com HGX B200 hardware overview: NV18 between every pair); 8 GPUs on an HGX B200; latency: NCCL tuning.cc hwLat NVLink ring LL 0.47 us", \
  0, 0, 0, 0, 0, "") \
L(PCIE3_DC, PCIE, 3, 16, 16, 1000, 8, \
  "PCIe 3.0 x16: 32 GB/s both ways, 16 each way (V100 PCIe datasheet, interconnect 32 GB/s); 8 cards in a server ASSUMED; latency: NCCL tuning.cc hwLat PCI ring LL 1.0 us", \
  0, 0, 0, 0, 0, "") \
L(PCIE4_DC, PCIE, 4, 16, 32, 1000, 8, \
  "PCIe 4.0 x16: 64 GB/s both ways, 32 each way (L40S datasheet, 'PCIe Gen4 x16: 64GB/s bidirectional'); 8 cards in a server ASSUMED, no NVLink bridge; latency: NCCL tuning.cc hwLat PCI ring LL 1.0 us", \
  0, 0, 0, 0, 0, "") \
L(PCIE5_DC, PCIE, 5, 16, 64, 1000, 8, \
  "PCIe 5.0 x16: 128 GB/s both ways, 64 each way (H100 datasheet, PCIe Gen5 128 GB/s); 8 cards in a server ASSUMED, no NVLink bridge; latency: NCCL tuning.cc hwLat PCI ring LL 1.0 us", \
  0, 0, 0, 0, 0, "") \
L(PCIE4_WS, PCIE, 4, 16, 32, 1000, 4, \
  "PCIe 4.0 x16: 32 GB/s each way (PCIe 4.0 spec; as L40S datasheet); 4 cards in a workstation ASSUMED, no NVLink bridge (RTX 3090: 56.25 GB/s each way with one, GA102 whitepaper); GeForce peer-to-peer may be off (slower); latency: NCCL tuning.cc hwLat PCI ring LL 1.0 us", \
  0, 0, 0, 0, 0, "") \
L(PCIE5_WS, PCIE, 5, 16, 64, 1000, 4, \
  "PCIe 5.0 x16: 64 GB/s each way (PCIe 5.0 spec; as H100 PCIe datasheet); 4 cards in a workstation ASSUMED; GeForce peer-to-peer may be off (slower); latency: NCCL tuning.cc hwLat PCI ring LL 1.0 us", \
  0, 0, 0, 0, 0, "") \
L(IF_MI300, INFINITY_FABRIC, 0, 7, 448, 0, 8, \
  "MI300X / MI325X: 7 Infinity Fabric (xGMI) links x 128 GB/s both ways = 896 GB/s, 448 each way (AMD MI300X datasheet, peak Infinity Fabric link bandwidth 896 GB/s); 8 GPUs fully connected on the OAM platform; latency not published", \
  0, 0, 0, 0, 0, "")


/* Forecast terms: what real kernels achieve, per machine family, fitted on
   our own measurements (rfl_llm_forecast; dev/capture/fit_forecast.py
   prints these rows and checks them: tests/steps/forecast_fit.sh).
   Row: F(FAMILY_ID, "family", "machine id measured", dram_frac, kernel_ns,
		  kernels_per_layer, tf32_frac, fp16_frac, bf16_frac, fp8_frac,
		  dequant_tflops, dequant_int8_tflops, "source")
   - dram_frac: achieved share of the datasheet DRAM bandwidth by a decode
	 step's kernels (weight-streaming matmuls, cache reads).
   - kernel_ns: fixed cost of one kernel of a fused step replayed as a CUDA
	 graph (launch, ramp and tail), kernels_per_layer of them a layer: the
	 "fused" implementation of dev/capture/forecast_model.py.
   - *_frac: achieved share of that type's dense tensor peak in a prefill
	 (its GEMMs in tiles and waves; bf16 fitted; fp16, tf32, fp8 scaled
	 by their large matmuls' share of peak over bf16's; int8 takes fp8's,
	 assumed).
   - dequant_tflops: the rate a weight-only int4 matmul runs its math at
	 while dequantizing (tinygemm).
   - dequant_int8_tflops: the same for int8 weights, from a fused W8A16
	 kernel (dev/capture/int8_wo.py: dequantized in registers; PyTorch's
	 own int8 weight-only kernel runs slower than dequantize-then-bf16).
   A machine of no row's family takes the row whose measured machine has
   the nearest DRAM bandwidth, and its forecast says "assumed from". */
#define RFL_HW_FORECASTS(F) \
F(HOPPER_H100, "Hopper H100", "h100-sxm", 0.764, 2865, 20, 0.630, 0.643, 0.628, 0.563, 26.0, 196.6, \
  "fitted by dev/capture/fit_forecast.py on tests/data/forecast/h100-{decode-fused,prefill-fused,peaks,quant-matmul,int8-wo}.json (H100 SXM, bf16, torch 2.11, CUDA graphs)") \
F(HOPPER_H200, "Hopper H200", "h200-sxm", 0.662, 2188, 20, 0.630, 0.643, 0.628, 0.563, 26.0, 196.6, \
  "fitted by dev/capture/fit_forecast.py on tests/data/forecast/h200x4-tp1.json (decode_fused, one H200 SXM of a 4-GPU host); tensor fractions and dequantization (int4, int8) assumed from the H100 row")

/* The LLM forecast's eager and graphs runtimes (rfl_llm_forecast): transformers'
   own decode step (SDPA, static cache), fitted by dev/capture/fit_hf_steps.py
   on Llama-3.1-8B (tests/data/step/llm-steps-h200-run{1,2}.json.gz), checked
   on Qwen3-8B. Row: H(ID, "family", "measured machine id", kernel_ns (a
   kernel in a CUDA graph), att_frac (share of DRAM bandwidth of repeat_kv's
   copies and SDPA over the whole static cache), host_op_ns (CPU time of an
   eager op)) */
#define RFL_HW_HF_FORECASTS(H) \
H(HOPPER_H200, "Hopper H200", "h200-sxm", 2040, 0.360, 14500)

/* The step forecast's terms (rfl_step_forecast): what eager PyTorch's
   kernels and host reach on one architecture family, fitted by
   dev/capture/fit_step.py on our measured zoo steps. The architecture
   itself (SMs, clock, peaks, L2) comes from each machine's row; a machine
   of no family here takes the nearest by DRAM bandwidth ("assumed from").
   Row: S(ID, "family", "measured machine id", kernel_ns (GPU fixed cost of
   a kernel), tensor_eff, tf32_eff, simt_eff (share of an SM's 16-bit
   tensor, TF32 tensor, FP32 peak a 128x128 tile reaches), dram_frac,
   bwd_frac (share of DRAM bandwidth of a memory-bound kernel; of max pool
   backward and broadcasts), norm_frac (batch norm training's blocks, one a
   channel: share of DRAM bandwidth / SMs each, at 4 B an element), dw_frac
   (PyTorch's depthwise convolutions: share of FP32 peak), host_op_ns (CPU time of
   one eager op: forward op, autograd node or optimizer call),
   host_kernel_ns (per kernel launched), host_param_ns (per parameter
   tensor: zero_grad and the optimizer's loops), host_step_us (per step),
   overlap (share of the shorter of host and GPU that does not overlap
   the longer), host_ref_ns (what dev/capture/host_op.py measures on the
   measured machine's host: a machine file's "host" op_s scales the host
   terms by op_s / host_ref), "source") */
#define RFL_HW_STEP_FORECASTS(S) \
S(HOPPER_H200, "Hopper H200", "h200-sxm", 2287, 0.479, 0.999, 0.710, 0.608, 0.409, 0.1200, 0.0326, 21856, 6782, 77925, 6.5, 0.064, 15100, \
  "fitted by dev/capture/fit_step.py on tests/data/step/steps-h200-run2.json.gz (eager PyTorch steps of the zoo on one H200 SXM); held-out models: GPU time median error 9.4%, 83.3% within 25%; wall time median 13.3%, 75.8% within 25%; host_ref: capture's host-micro-h200-run2.json, autograd chain_100 (forward 10.5 us an op, backward 19.7 us a node), averaged as host_op.py does")

#endif /* RFL_HW_SPECS_H */
/* Part of roofline.h, MIT licence: see the end of roofline.h. */
