/* rfl-gpu-bench - measured ceilings of one NVIDIA GPU, as a machine file.

   Measures read bandwidth from DRAM, from L2 and from L1 (shared memory),
   and the FP64, FP32 and FP16 vector peaks (chains of fused multiply-adds),
   and the tensor peaks through cuBLAS (FP16, BF16, TF32 GEMM; FP8 through
   cublasLt where the GPU has it). Prints a machine file: the JSON that
   `rfl-hw NAME --json` prints (given with --table FILE) with a "measured"
   object added, read back by every tool's --hw-file. Without --table the
   measured figures are the machine's own.

   Built by `make gpu-bench` only where nvcc exists (never in CI):
       build/rfl-hw h100-sxm --json > t.json
       build/rfl-gpu-bench --table t.json > docs/machines/h100-sxm.json

   Conventions as rfl-probe's: GB = 1e9 bytes, a multiply-add is 2 FLOPs,
   the best of several timed runs after a warm-up (a ceiling is what the
   machine can reach). */
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) ck((x), #x, __LINE__)
static void ck(cudaError_t e, const char *what, int line) {
    if (e == cudaSuccess) return;
    fprintf(stderr, "rfl-gpu-bench:%d: %s: %s\n", line, what, cudaGetErrorString(e));
    exit(1);
}

enum { REPS = 10 };
static int g_sms;

/* Sink: a value no run produces, so the compiler keeps every load and FMA. */
__device__ float g_sink;

/* ---- memory ------------------------------------------------------------ */

/* DRAM: one pass over a buffer far larger than L2, 16-byte loads. */
__global__ void k_read_dram(const float4 *p, size_t n) {
    float4 a = make_float4(0, 0, 0, 0);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = __ldcs(p + i); /* streaming: don't keep it in L2 */
        a.x += v.x, a.y += v.y, a.z += v.z, a.w += v.w;
    }
    if (a.x + a.y + a.z + a.w == -1.0f) g_sink = a.x;
}

/* L2: passes over a buffer that fits the L2, loads that skip L1 (ld.cg). */
__global__ void k_read_l2(const float4 *p, size_t n, int passes) {
    float4 a = make_float4(0, 0, 0, 0);
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int r = 0; r < passes; r++)
        for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
            float4 v = __ldcg(p + i);
            a.x += v.x, a.y += v.y, a.z += v.z, a.w += v.w;
        }
    if (a.x + a.y + a.z + a.w == -1.0f) g_sink = a.x;
}

/* L1: shared memory, 16-byte loads, each warp's 32 loads on distinct
   consecutive addresses (no bank conflict). SMEM_F4 float4 per block. */
enum { SMEM_F4 = 2048, SMEM_ITERS = 4096 };
__global__ void k_read_smem(float seed) {
    __shared__ float4 s[SMEM_F4];
    float4 a = make_float4(0, 0, 0, 0), b = a;
    for (int i = threadIdx.x; i < SMEM_F4; i += blockDim.x)
        s[i] = make_float4(seed * i, seed, seed + i, seed - i);
    __syncthreads();
    int t = threadIdx.x;
#pragma unroll 8
    for (int k = 0; k < SMEM_ITERS; k += 2) {
        float4 v = s[(t + k * 32) & (SMEM_F4 - 1)];
        float4 w = s[(t + k * 32 + 32) & (SMEM_F4 - 1)];
        a.x += v.x, a.y += v.y, a.z += v.z, a.w += v.w;
        b.x += w.x, b.y += w.y, b.z += w.z, b.w += w.w;
    }
    if (a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w == -1.0f) g_sink = a.x;
}

/* ---- vector FMA peaks ---------------------------------------------------- */

enum { CHAINS = 8, FMA_ITERS = 4096 };
template <typename T> __device__ T fma_t(T a, T b, T c);
template <> __device__ float fma_t(float a, float b, float c) { return fmaf(a, b, c); }
template <> __device__ double fma_t(double a, double b, double c) { return fma(a, b, c); }
template <> __device__ __half2 fma_t(__half2 a, __half2 b, __half2 c) { return __hfma2(a, b, c); }

template <typename T> __device__ float to_f(T v) { return (float)v; }
template <> __device__ float to_f(__half2 v) { return __low2float(v) + __high2float(v); }

template <typename T> __global__ void k_fma(T b, T c) {
    T a[CHAINS];
#pragma unroll
    for (int j = 0; j < CHAINS; j++) a[j] = b;
    for (int i = 0; i < FMA_ITERS; i++)
#pragma unroll
        for (int j = 0; j < CHAINS; j++) a[j] = fma_t(a[j], b, c);
    float s = 0;
#pragma unroll
    for (int j = 0; j < CHAINS; j++) s += to_f(a[j]);
    if (s == -1.0f) g_sink = s;
}

/* ---- timing --------------------------------------------------------------- */

struct timer {
    cudaEvent_t a, b;
    timer() { CK(cudaEventCreate(&a)), CK(cudaEventCreate(&b)); }
    ~timer() { cudaEventDestroy(a), cudaEventDestroy(b); }
    void start() { CK(cudaEventRecord(a)); }
    double stop() {
        float ms;
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        return ms * 1e-3;
    }
};

/* Best of REPS after one warm-up: the amount (bytes or FLOPs) per second. */
#define BEST(amount, launch)                                                                       \
    ({                                                                                             \
        timer tm;                                                                                  \
        double best = 1e30;                                                                        \
        for (int rep = 0; rep <= REPS; rep++) {                                                    \
            tm.start();                                                                            \
            launch;                                                                                \
            double s = tm.stop();                                                                  \
            CK(cudaGetLastError());                                                                \
            if (rep > 0 && s < best) best = s;                                                     \
        }                                                                                          \
        (double)(amount) / best;                                                                   \
    })

__global__ void k_fill(float *p, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (float)((i * 2654435761u) % 1000) * 1e-3f - 0.5f;
}

static double bw_dram(void) {
    size_t bytes = (size_t)4 << 30, n = bytes / 16; /* 4 GiB: 80 x the largest L2 */
    float4 *p;
    CK(cudaMalloc(&p, bytes));
    k_fill<<<g_sms * 8, 256>>>((float *)p, bytes / 4);
    double r = BEST(bytes, (k_read_dram<<<g_sms * 8, 512>>>(p, n)));
    CK(cudaFree(p));
    return r;
}

/* The best over buffers of an eighth, a quarter and half the L2 (a split
   L2, as on A100 and H100, may hold a line in both halves). */
static double bw_l2(size_t l2_bytes) {
    double best = 0;
    for (int div = 8; div >= 2; div /= 2) {
        size_t bytes = l2_bytes / div, n = bytes / 16;
        int passes = 200;
        float4 *p;
        CK(cudaMalloc(&p, bytes));
        k_fill<<<g_sms * 8, 256>>>((float *)p, bytes / 4);
        double r = BEST((double)bytes * passes, (k_read_l2<<<g_sms * 8, 512>>>(p, n, passes)));
        CK(cudaFree(p));
        fprintf(stderr, "L2 read, %zu bytes: %.0f GB/s\n", bytes, r / 1e9);
        if (r > best) best = r;
    }
    return best;
}

static double bw_smem(void) {
    int blocks = g_sms * 8, threads = 256;
    double bytes = (double)blocks * threads * SMEM_ITERS * 16;
    return BEST(bytes, (k_read_smem<<<blocks, threads>>>(1e-7f)));
}

template <typename T> static double peak_fma(T b, T c, int lanes) {
    int blocks = g_sms * 16, threads = 256;
    double flops = 2.0 * lanes * CHAINS * FMA_ITERS * (double)blocks * threads;
    return BEST(flops, (k_fma<T><<<blocks, threads>>>(b, c)));
}

/* ---- tensor peaks: cuBLAS GEMM, square, M = N = K ------------------------- */

enum { GEMM_N = 8192 };

static void *dev_random(size_t bytes) {
    void *p;
    CK(cudaMalloc(&p, bytes));
    k_fill<<<g_sms * 8, 256>>>((float *)p, bytes / 4); /* bit patterns: finite in every type */
    return p;
}

/* One GEMM type through cublasGemmEx; 0 when cuBLAS refuses it. */
static double peak_gemm(cublasHandle_t h, cudaDataType ab, cudaDataType cd, cublasComputeType_t ct,
                        size_t esize) {
    size_t n = GEMM_N;
    void *a = dev_random(n * n * esize), *b = dev_random(n * n * esize), *c = dev_random(n * n * 4);
    float one = 1, zero = 0;
    double r = 0;
    int k = (int)n;
#define GEMM() cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, k, k, k, &one, a, ab, k, b, ab, k, &zero, \
                            c, cd, k, ct, CUBLAS_GEMM_DEFAULT)
    if (GEMM() == CUBLAS_STATUS_SUCCESS) r = BEST(2.0 * n * n * n, GEMM());
#undef GEMM
    CK(cudaDeviceSynchronize());
    cudaFree(a), cudaFree(b), cudaFree(c);
    return r;
}

/* FP8 (E4M3 x E4M3, FP32 accumulate, BF16 out): cublasLt, A transposed
   (the layout FP8 GEMMs require). 0 where the GPU or library lacks it. */
static double peak_fp8(void) {
    size_t n = GEMM_N, ws_bytes = (size_t)64 << 20;
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t op = 0;
    cublasLtMatrixLayout_t la = 0, lb = 0, lc = 0;
    cublasLtMatmulPreference_t pref = 0;
    cublasLtMatmulHeuristicResult_t heur;
    cublasOperation_t tr = CUBLAS_OP_T, nt = CUBLAS_OP_N;
    int found = 0;
    float one = 1, zero = 0;
    double r = 0;
    if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) return 0;
    void *a = dev_random(n * n), *b = dev_random(n * n), *c = dev_random(n * n * 2), *ws;
    CK(cudaMalloc(&ws, ws_bytes));
    if (cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) == CUBLAS_STATUS_SUCCESS &&
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &tr, sizeof tr) == 0 &&
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof nt) == 0 &&
        cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, n, n, n) == 0 &&
        cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, n, n, n) == 0 &&
        cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, n, n, n) == 0 &&
        cublasLtMatmulPreferenceCreate(&pref) == 0 &&
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &ws_bytes, sizeof ws_bytes) == 0 &&
        cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &heur, &found) == 0 &&
        found > 0)
        r = BEST(2.0 * n * n * n, cublasLtMatmul(lt, op, &one, a, la, b, lb, &zero, c, lc, c, lc,
                                                  &heur.algo, ws, ws_bytes, 0));
    CK(cudaDeviceSynchronize());
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (la) cublasLtMatrixLayoutDestroy(la);
    if (lb) cublasLtMatrixLayoutDestroy(lb);
    if (lc) cublasLtMatrixLayoutDestroy(lc);
    if (op) cublasLtMatmulDescDestroy(op);
    cublasLtDestroy(lt);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(ws);
    return r;
}

/* ---- output ---------------------------------------------------------------- */

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    char *s;
    long n;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1 << 20) ||
        fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "rfl-gpu-bench: %s: cannot read (a machine file: rfl-hw NAME --json)\n",
                path);
        exit(1);
    }
    s = (char *)malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) exit(1);
    s[n] = 0;
    fclose(f);
    return s;
}

struct result {
    double fp64, fp32, fp16, tf32_t, fp16_t, bf16_t, fp8_t, dram, l2, l1;
};

static void num(const char *key, double v, int last) {
    if (v > 0) printf("      \"%s\": %.4g%s\n", key, v, last ? "" : ",");
    else printf("      \"%s\": null%s\n", key, last ? "" : ",");
}

static void ceilings(const result *r, const char *in) {
    printf("%s\"peak_flops\": {\n", in);
    num("fp64", r->fp64, 0), num("fp32", r->fp32, 0), num("tf32_tensor", r->tf32_t, 0);
    num("fp16", r->fp16, 0), num("fp16_tensor", r->fp16_t, 0), num("bf16_tensor", r->bf16_t, 0);
    num("fp8_tensor", r->fp8_t, 1);
    printf("%s},\n%s\"mem_bw\": {\n", in, in);
    num("dram", r->dram, 0), num("l2", r->l2, 0), num("l1", r->l1, 1);
    printf("%s},\n", in);
}

/* The table's machine (text of rfl-hw NAME --json) with "measured" added
   before its closing brace; without one, a machine of measured figures. */
static void print_machine(const char *table, const result *r, const cudaDeviceProp *p, int sm_mhz,
                          int driver, int runtime) {
    char src[512];
    snprintf(src, sizeof src,
             "rfl-gpu-bench on %s (%d SMs, %d MHz max SM clock, CUDA driver %d.%d, runtime "
             "%d.%d): read bandwidth DRAM (4 GiB, ld.cs), L2 (best of 1/8, 1/4, 1/2 of the L2, "
             "ld.cg), L1 (shared memory, 16-byte loads); FP64/FP32/FP16x2 FMA chains; tensor by "
             "cuBLAS %dx%dx%d GEMM (FP8: cublasLt E4M3); best of %d after a warm-up",
             p->name, p->multiProcessorCount, sm_mhz, driver / 1000, driver % 1000 / 10,
             runtime / 1000, runtime % 1000 / 10, GEMM_N, GEMM_N, GEMM_N, REPS);
    if (table) {
        size_t n = strlen(table);
        while (n > 0 && (table[n - 1] == '\n' || table[n - 1] == ' ')) n--;
        if (n == 0 || table[n - 1] != '}') {
            fprintf(stderr, "rfl-gpu-bench: --table: not one machine's JSON "
                            "(rfl-hw NAME --json)\n");
            exit(1);
        }
        n--;
        while (n > 0 && (table[n - 1] == '\n' || table[n - 1] == ' ')) n--;
        printf("%.*s,\n", (int)n, table);
    } else {
        printf("{\n  \"name\": \"%s\",\n  \"kind\": \"gpu\",\n", p->name);
        ceilings(r, "  ");
        printf("  \"l2_bytes\": %d,\n  \"units\": %d,\n", p->l2CacheSize, p->multiProcessorCount);
        printf("  \"source\": \"measured, no datasheet: %s\",\n", src);
    }
    printf("  \"measured\": {\n");
    ceilings(r, "    ");
    printf("    \"source\": \"%s\"\n  }\n}\n", src);
}

int main(int argc, char **argv) {
    const char *table = 0;
    cudaDeviceProp p;
    cublasHandle_t h;
    result r;
    int sm_khz = 0, driver = 0, runtime = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--table") && i + 1 < argc) table = read_all(argv[++i]);
        else {
            fprintf(stderr, "usage: rfl-gpu-bench [--table FILE]  (FILE: rfl-hw NAME --json)\n");
            return 2;
        }
    }
    CK(cudaGetDeviceProperties(&p, 0));
    CK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0));
    cudaDriverGetVersion(&driver), cudaRuntimeGetVersion(&runtime);
    g_sms = p.multiProcessorCount;
    memset(&r, 0, sizeof r);
    r.dram = bw_dram();
    r.l2 = bw_l2((size_t)p.l2CacheSize);
    r.l1 = bw_smem();
    r.fp32 = peak_fma<float>(1.0000001f, 1e-7f, 1);
    r.fp64 = peak_fma<double>(1.0000001, 1e-7, 1);
    r.fp16 = peak_fma<__half2>(__float2half2_rn(1.0f), __float2half2_rn(1e-3f), 2);
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "rfl-gpu-bench: cuBLAS did not start: no tensor figures\n");
    } else {
        cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
        r.fp16_t = peak_gemm(h, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2);
        r.bf16_t = peak_gemm(h, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2);
        r.tf32_t = peak_gemm(h, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4);
        cublasDestroy(h);
        if (p.major * 10 + p.minor >= 89) r.fp8_t = peak_fp8();
    }
    fprintf(stderr,
            "%s: DRAM %.0f GB/s, L2 %.0f GB/s, L1 %.0f GB/s; FP64 %.1f, FP32 %.1f, FP16 %.1f, "
            "TF32 TC %.0f, FP16 TC %.0f, BF16 TC %.0f, FP8 TC %.0f TFLOP/s\n",
            p.name, r.dram / 1e9, r.l2 / 1e9, r.l1 / 1e9, r.fp64 / 1e12, r.fp32 / 1e12,
            r.fp16 / 1e12, r.tf32_t / 1e12, r.fp16_t / 1e12, r.bf16_t / 1e12, r.fp8_t / 1e12);
    print_machine(table, &r, &p, sm_khz / 1000, driver, runtime);
    return 0;
}
