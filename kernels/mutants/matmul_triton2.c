/* matmul_triton2 mutants. */
#include "../host/matmul_tl.h"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

enum { BUG_LD_B, BUG_NO_COL_MASK };

static int mutant(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), GM = TL_I(L, P_GM);
    int64_t BK = TL_I(L, P_BK), K = BK * TL_I(L, P_NKB);
    /* BUG_LD_B: b_ptrs advance along K by N (B assumed a contiguous [K, N] array) */
    int64_t sbk = bug == BUG_LD_B ? N : TL_I(L, P_SBK);
    int64_t *arow, *bcol;
    float *acc;
    TL_ALLOC(L, arow, BM);
    TL_ALLOC(L, bcol, BN);
    TL_ALLOC(L, acc, BM * BN);
    int rc = 0;
    for (uint32_t pid = 0; pid < L->grid[0] && !rc; pid++) {
        int64_t pm, pn;
        mmh_swizzle(pid, M, N, BM, BN, GM, 1, &pm, &pn);
        for (int64_t i = 0; i < BM; i++) arow[i] = (pm * BM + i) * TL_I(L, P_SAM);
        for (int64_t j = 0; j < BN; j++) bcol[j] = (pn * BN + j) * TL_I(L, P_SBN);
        memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
        mmh_loop m = {R_A, R_B, BM, BN, BK, (K + BK - 1) / BK, K, arow, bcol, TL_I(L, P_SAK), sbk, 0};
        if (bug == BUG_LD_B && (int64_t)TL_LEN(L, R_B) <= (K - 1) * sbk + bcol[BN - 1]) {
            /* the wrong stride walks off the end of B: on a GPU, an illegal address */
            snprintf(L->err, L->errlen, "illegal memory access: B read past its end");
            rc = 1;
            break;
        }
        rc = mmh_kloop(L, &m, acc);
        for (int64_t i = 0; i < BM && !rc; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j;
                int64_t off = row * TL_I(L, P_SCM) + col * TL_I(L, P_SCN);
                int keep = bug == BUG_NO_COL_MASK ? row < M : (row < M && col < N);
                if (keep && off < (int64_t)TL_LEN(L, R_C)) tl_store(L, R_C, off, acc[i * BN + j], tl_f32());
            }
    }
    free(arow);
    free(bcol);
    free(acc);
    return rc;
}

static int mut_ld_b(const td_abi_launch *L) { return mutant(L, BUG_LD_B); }
static int mut_col_mask(const td_abi_launch *L) { return mutant(L, BUG_NO_COL_MASK); }

#define MT2_SUM "matmul_triton2.matmul_triton2_output_summary_general"
#define MT2_IO "matmul_triton2.matmul_triton2_io_correctness"
#define LD_B "B's K step taken as N (B assumed contiguous [K, N]): wrong leading dimension"
#define COLM "store mask keeps offs_cm < M only: columns past N of a partial tile are written"
TD_KERNEL(td_m_matmul_triton2_sum_ldb) = {MT2_SUM, "mut_wrong_ld_b", TD_ABI_HOST, NULL, NULL, LD_B, 13, 3, mut_ld_b};
TD_KERNEL(td_m_matmul_triton2_io_ldb) = {MT2_IO, "mut_wrong_ld_b", TD_ABI_HOST, NULL, NULL, LD_B, 13, 3, mut_ld_b};
TD_KERNEL(td_m_matmul_triton2_sum_colm) = {MT2_SUM, "mut_no_col_mask", TD_ABI_HOST, NULL, NULL, COLM, 13, 3,
                                           mut_col_mask};
TD_KERNEL(td_m_matmul_triton2_io_colm) = {MT2_IO, "mut_no_col_mask", TD_ABI_HOST, NULL, NULL, COLM, 13, 3,
                                          mut_col_mask};
