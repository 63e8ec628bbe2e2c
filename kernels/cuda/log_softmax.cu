/* log_softmax on CUDA: grid (cdiv(M, BLOCK_M), K), one block per program; the
 * [BLOCK_M, BLOCK_N] tile is reduced one row at a time along axis 1.  The backward
 * loads are masked without other: masked lanes read 0. */
#include "softmax_tlc.cuh"

enum { P_M, P_N, P_K, P_BM, P_BN };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

static __global__ void log_softmax_kernel(float *out, const float *in, int64_t M, int64_t N, int64_t K, int64_t BM,
                                          int64_t BN) {
    float *t = smc_smem, *r = smc_smem + BN;
    for (int64_t row = 0; row < BM; row++) {
        int64_t m = (int64_t)blockIdx.x * BM + row, base = m * N * K + blockIdx.y;
        smc_load(t, in + base, K, m < M ? N : 0, BN, -INFINITY);
        smc_copy(r, t, BN);
        float mx = smc_reduce_max(r, BN);
        for (int64_t n = threadIdx.x; n < BN; n += blockDim.x) t[n] = expf(t[n] - mx);
        __syncthreads();
        smc_copy(r, t, BN);
        float s = smc_reduce_sum(r, BN);
        for (int64_t n = threadIdx.x; n < BN; n += blockDim.x)
            if (n < N && m < M) out[base + n * K] = logf(t[n] / s);
        __syncthreads();
    }
}

static __global__ void log_softmax_backward_kernel(const float *o_ptr, const float *g_ptr, float *ig, int64_t M,
                                                   int64_t N, int64_t K, int64_t BM, int64_t BN) {
    float *o = smc_smem, *g = smc_smem + BN, *r = smc_smem + 2 * BN;
    for (int64_t row = 0; row < BM; row++) {
        int64_t m = (int64_t)blockIdx.x * BM + row, base = m * N * K + blockIdx.y, n_act = m < M ? N : 0;
        smc_load(o, o_ptr + base, K, n_act, BN, 0.0f);
        smc_load(g, g_ptr + base, K, n_act, BN, 0.0f);
        smc_copy(r, g, BN);
        float scale = smc_reduce_sum(r, BN);
        for (int64_t n = threadIdx.x; n < BN; n += blockDim.x)
            if (n < n_act) ig[base + n * K] = g[n] - expf(o[n]) * scale;
        __syncthreads();
    }
}

static int launch_fwd(const td_abi_launch *L) {
    int64_t BN = TLC_I(L, P_BN);
    size_t smem = 2 * (size_t)BN * sizeof(float);
    if (smc_allow_smem(L, log_softmax_kernel, smem)) return 1;
    log_softmax_kernel<<<tlc_grid(L), tlc_threads(BN), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RF_OUT, float), TLC_PTR(L, RF_IN, const float), TLC_I(L, P_M), TLC_I(L, P_N), TLC_I(L, P_K),
        TLC_I(L, P_BM), BN);
    return tlc_check(L, "log_softmax_kernel");
}

static int launch_bwd(const td_abi_launch *L) {
    int64_t BN = TLC_I(L, P_BN);
    size_t smem = 3 * (size_t)BN * sizeof(float);
    if (smc_allow_smem(L, log_softmax_backward_kernel, smem)) return 1;
    log_softmax_backward_kernel<<<tlc_grid(L), tlc_threads(BN), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RB_OUT, const float), TLC_PTR(L, RB_OG, const float), TLC_PTR(L, RB_IG, float), TLC_I(L, P_M),
        TLC_I(L, P_N), TLC_I(L, P_K), TLC_I(L, P_BM), BN);
    return tlc_check(L, "log_softmax_backward_kernel");
}

TD_KERNEL(td_kc_log_softmax) = {"log_softmax.log_softmax_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                5, 2, launch_fwd, NULL};
TD_KERNEL(td_kc_log_softmax_bwd) = {"log_softmax.log_softmax_backward_kernel_correctness", "triton", TD_ABI_CUDA, NULL,
                                    NULL, NULL, 5, 3, launch_bwd, NULL};
