/* mean_reduction: mean_dim_kernel, one program per BLOCK_M rows: a [BLOCK_M, BLOCK_N]
 * binary32 accumulator over the column steps, tl.sum(axis=1) as a tree, / N, a masked store
 * through Mean's format (binary32, or binary16 rounded to nearest even). */
#include "tl.h"

enum { P_M, P_N, P_BM, P_BN };
enum { R_X, R_MEAN };

static int mean_dim_kernel(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    td_profile store = {TL_FMT(L, R_MEAN), TD_RNE, TD_OVF_INF, false};
    float *acc;
    TL_ALLOC(L, acc, BM * BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        memset(acc, 0, (size_t)(BM * BN) * sizeof *acc); /* tl.zeros([BLOCK_M, BLOCK_N]) */
        for (int64_t off = 0; off < N; off += BN)
            for (int64_t i = 0; i < BM; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t row = (int64_t)pid * BM + i, col = off + j;
                    float a = (row < M && col < N) ? tl_load(L, R_X, row * N + col) : 0.0f; /* other=0.0 */
                    acc[i * BN + j] += a;
                }
        for (int64_t i = 0; i < BM; i++) {
            int64_t row = (int64_t)pid * BM + i;
            float mean = tl_sum(acc + i * BN, BN) / (float)N;
            if (row < M) tl_store(L, R_MEAN, row, mean, store); /* row_mask */
        }
    }
    free(acc);
    return 0;
}

TD_KERNEL(td_k_mean_summary) = {"mean_reduction.mean_dim_kernel_output_summary", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                4, 2, mean_dim_kernel, NULL};
TD_KERNEL(td_k_mean_io) = {"mean_reduction.mean_dim_kernel_io_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 4,
                           2, mean_dim_kernel, NULL};
