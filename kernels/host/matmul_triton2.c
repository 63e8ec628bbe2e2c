/* matmul_triton2: matmul_kernel with the grouped program order (pid_m = first_pid_m +
 * pid % group_size_m), unwrapped rows/columns, `accumulator += tl.dot(a, b)` over
 * cdiv(K, BK) steps with the K-tail masks, and the (row < M) & (col < N) store.
 * Parameters (contract order): M N BM BN GM SAM SAK SBK SBN SCM SCN BK numKBlocks.
 * Regions: A (fp16), B (fp16), C (binary32). */
#include "matmul_tl.h"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static int matmul_kernel(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), GM = TL_I(L, P_GM);
    int64_t BK = TL_I(L, P_BK), K = BK * TL_I(L, P_NKB);
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, acc, BM * BN);
    int rc = 0;
    for (uint32_t pid = 0; pid < L->grid[0] && !rc; pid++) {
        int64_t pm, pn;
        mmh_swizzle(pid, M, N, BM, BN, GM, 1, &pm, &pn);
        for (int64_t i = 0; i < BM; i++) arow[i] = (pm * BM + i) * TL_I(L, P_SAM);  /* offs_am (no wrap) */
        for (int64_t j = 0; j < BN; j++) bcol[j] = (pn * BN + j) * TL_I(L, P_SBN);  /* offs_bn */
        memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
        mmh_loop m = {R_A, R_B, BM, BN, BK, (K + BK - 1) / BK, K, arow, bcol, TL_I(L, P_SAK), TL_I(L, P_SBK), 0};
        rc = mmh_kloop(L, &m, acc);
        for (int64_t i = 0; i < BM && !rc; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j;
                if (row < M && col < N)
                    tl_store(L, R_C, row * TL_I(L, P_SCM) + col * TL_I(L, P_SCN), acc[i * BN + j], tl_f32());
            }
    }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

TD_KERNEL(td_k_matmul_triton2_summary) = {"matmul_triton2.matmul_triton2_output_summary_general", "triton",
                                          TD_ABI_HOST, NULL, NULL, NULL, 13, 3, matmul_kernel};
TD_KERNEL(td_k_matmul_triton2_io) = {"matmul_triton2.matmul_triton2_io_correctness", "triton", TD_ABI_HOST, NULL,
                                     NULL, NULL, 13, 3, matmul_kernel};
