/* batched_vecmat_mult on CUDA: program (blockIdx.x, blockIdx.y), one thread per output
 * lane (m, n); per K block the BK binary32 products A[m, k] * B[m, n, k] (__fmul_rn)
 * summed by the pairwise tree of tl.sum, added to the accumulator (__fadd_rn). */
#include "matmul_tlc.cuh"

enum { P_DM, P_DN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_OUT };

__global__ void batched_vecmat_kernel(const float *A, const float *B, float *out, int64_t dn, int64_t BM, int64_t BN,
                                      int64_t BK, int64_t T) {
    int64_t K = BK * T;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t m = blockIdx.x * BM + l / BN, n = blockIdx.y * BN + l % BN;
        out[m * dn + n] = mmc_kloop(A, m * K, 1, B, (m * dn + n) * K, 1, K, (int)BK, T, 0.0f);
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BM = TLC_I(L, P_BM), BN = TLC_I(L, P_BN), BK = TLC_I(L, P_BK);
    if (mmc_check_bk(L, BK)) return 1;
    batched_vecmat_kernel<<<tlc_grid(L), tlc_threads(BM * BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_DN), BM, BN,
        BK, TLC_I(L, P_NKB));
    return tlc_check(L, "batched_vecmat_kernel");
}

TD_KERNEL(td_kc_batched_vecmat_cf) = {"batched_vecmat_mult.batched_vecmat_closed_form_correct", "triton",
                                      TD_ABI_CUDA, NULL, NULL, NULL, 6, 3, launch, NULL};
TD_KERNEL(td_kc_batched_vecmat_io) = {"batched_vecmat_mult.batched_vecmat_io_correctness", "triton", TD_ABI_CUDA,
                                      NULL, NULL, NULL, 6, 3, launch, NULL};
