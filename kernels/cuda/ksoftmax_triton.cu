/* ksoftmax_triton on CUDA: the plain forward branch, one block per (m, n) program. */
#include "softmax_tlc.cuh"

enum { P_SYM, P_SYN, P_SXM, P_SXN, P_K, P_DEPTH };
enum { R_Y, R_X };

static __global__ void softmax_plain(float *Y, const float *X, int64_t sym, int64_t syn, int64_t sxm, int64_t sxn,
                                     int64_t K, int64_t D) {
    float *x = smc_smem, *r = smc_smem + D;
    int64_t m = blockIdx.x, n = blockIdx.y;
    smc_load(x, X + m * sxm + n * sxn, 1, K, D, -INFINITY);
    smc_tile_softmax(x, r, D);
    for (int64_t k = threadIdx.x; k < D; k += blockDim.x)
        if (k < K) Y[m * sym + n * syn + k] = x[k];
}

static int launch(const td_abi_launch *L) {
    int64_t D = TLC_I(L, P_DEPTH);
    size_t smem = 2 * (size_t)D * sizeof(float);
    if (smc_allow_smem(L, softmax_plain, smem)) return 1;
    softmax_plain<<<tlc_grid(L), tlc_threads(D), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, float), TLC_PTR(L, R_X, const float), TLC_I(L, P_SYM), TLC_I(L, P_SYN), TLC_I(L, P_SXM),
        TLC_I(L, P_SXN), TLC_I(L, P_K), D);
    return tlc_check(L, "_softmax");
}

TD_KERNEL(td_kc_ksoftmax) = {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                             NULL, 6, 2, launch, NULL};
