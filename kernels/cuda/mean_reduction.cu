/* mean_reduction on CUDA: mean_dim_kernel, one block per BLOCK_M rows: the
 * [BLOCK_M, BLOCK_N] binary32 accumulator in shared memory (each lane summed over the
 * column steps in order), each row's lanes reduced by the tl.sum tree, / N, a masked store
 * in Mean's format (binary32 or binary16, round to nearest even). */
#include "reduce_tlc.cuh"

enum { P_M, P_N, P_BM, P_BN };
enum { R_X, R_MEAN };

template <typename T> __device__ inline float mean_load(const T *p, int64_t i);
template <> __device__ inline float mean_load<float>(const float *p, int64_t i) { return p[i]; }
template <> __device__ inline float mean_load<__half>(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ inline void mean_store(float *p, int64_t i, float v) { p[i] = v; }
__device__ inline void mean_store(__half *p, int64_t i, float v) { p[i] = __float2half_rn(v); }

template <typename T>
__global__ void mean_dim_kernel(const T *X, T *Mean, int64_t M, int64_t N, int64_t BM, int64_t BN) {
    RTLC_SMEM(smem);
    float *acc = (float *)smem;
    int64_t pid = blockIdx.x;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t i = l / BN, j = l % BN, row = pid * BM + i;
        float s = 0.0f;
        for (int64_t off = 0; off < N; off += BN) {
            int64_t col = off + j;
            s = __fadd_rn(s, (row < M && col < N) ? mean_load(X, row * N + col) : 0.0f);
        }
        acc[l] = s;
    }
    for (int64_t i = 0; i < BM; i++) {
        float sum = rtlc_tree_sum(acc + i * BN, BN);
        int64_t row = pid * BM + i;
        if (threadIdx.x == 0 && row < M) mean_store(Mean, row, __fdiv_rn(sum, (float)N));
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BM = TLC_I(L, P_BM), BN = TLC_I(L, P_BN);
    size_t smem = (size_t)(BM * BN) * sizeof(float);
    cudaStream_t st = (cudaStream_t)L->stream;
    if (L->regions[R_MEAN].fmt == TD_ABI_F16)
        mean_dim_kernel<__half><<<tlc_grid(L), tlc_threads(BM * BN), smem, st>>>(
            TLC_PTR(L, R_X, const __half), TLC_PTR(L, R_MEAN, __half), TLC_I(L, P_M), TLC_I(L, P_N), BM, BN);
    else
        mean_dim_kernel<float><<<tlc_grid(L), tlc_threads(BM * BN), smem, st>>>(
            TLC_PTR(L, R_X, const float), TLC_PTR(L, R_MEAN, float), TLC_I(L, P_M), TLC_I(L, P_N), BM, BN);
    return tlc_check(L, "mean_dim_kernel");
}

TD_KERNEL(td_kc_mean_summary) = {"mean_reduction.mean_dim_kernel_output_summary", "triton", TD_ABI_CUDA, NULL, NULL,
                                 NULL, 4, 2, launch, NULL};
TD_KERNEL(td_kc_mean_io) = {"mean_reduction.mean_dim_kernel_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 4,
                            2, launch, NULL};
