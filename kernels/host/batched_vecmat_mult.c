/* batched_vecmat_mult: batched_vecmat_kernel: program (m_index, n_index); per K block
 * a [BM, BK] tile of A and a [BN, BM, BK] tile of B, the elementwise binary32 products,
 * tl.sum(axis=2) (pairwise tree over BK), transposed and added to the binary32
 * accumulator; unmasked store.  Parameters: _dim_m dim_n BLOCK_M BLOCK_N BLOCK_K
 * numKBlocks.  Regions: A [dim_m, K], B [dim_m, dim_n, K], output [dim_m, dim_n]. */
#include "matmul_tl.h"

enum { P_DM, P_DN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_OUT };

/* off_i32: the offsets formed in int32 as the original's tiles are (program ids and
 * dim_n, dim_k int32): past 2^31 elements B's row offset wraps negative, an illegal
 * address (tl_fault) */
int td_batched_vecmat_program(const td_abi_launch *L, int swap_mn, int64_t k_blocks, int off_i32);
int td_batched_vecmat_program(const td_abi_launch *L, int swap_mn, int64_t k_blocks, int off_i32) {
    int64_t dm = TL_I(L, P_DM), dn = TL_I(L, P_DN), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), BK = TL_I(L, P_BK);
    int64_t K = BK * TL_I(L, P_NKB);
    float *prod, *vecmat;
    TL_ALLOC(L, prod, BK);
    TL_ALLOC(L, vecmat, BM * BN);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            memset(vecmat, 0, (size_t)(BM * BN) * sizeof *vecmat);
            for (int64_t kb = 0; kb < k_blocks; kb++)
                for (int64_t j = 0; j < BN; j++)     /* b_tile rows: n */
                    for (int64_t i = 0; i < BM; i++) { /* b_tile columns: m */
                        int64_t m = p0 * BM + i, n = p1 * BN + j;
                        int64_t brow = swap_mn ? n * dn + m : m * dn + n; /* the bug model swaps m and n */
                        if (swap_mn && (n >= dm || m >= dn)) {
                            free(prod);
                            free(vecmat);
                            snprintf(L->err, L->errlen, "illegal memory access: B read past its end");
                            return 1;
                        }
                        for (int64_t e = 0; e < BK; e++) {
                            int64_t k = kb * BK + e, a = m * K + k, b = brow * K + k;
                            if (off_i32) {
                                a = tl_i32(a), b = tl_i32(b);
                                if (tl_fault(L, R_A, a, 1, 1, p0) || tl_fault(L, R_B, b, 1, 1, p0)) {
                                    free(prod);
                                    free(vecmat);
                                    return 1;
                                }
                            }
                            prod[e] = tl_load(L, R_A, a) * tl_load(L, R_B, b);
                        }
                        vecmat[i * BN + j] += tl_sum(prod, BK); /* vecmat += trans(sum(a * b, axis=2)) */
                    }
            for (int64_t i = 0; i < BM; i++)
                for (int64_t j = 0; j < BN; j++)
                    tl_store(L, R_OUT, off_i32 ? tl_i32((p0 * BM + i) * dn + p1 * BN + j) : (p0 * BM + i) * dn + p1 * BN + j,
                             vecmat[i * BN + j], tl_f32());
        }
    free(prod);
    free(vecmat);
    return 0;
}

static int batched_vecmat_kernel(const td_abi_launch *L) {
    return td_batched_vecmat_program(L, 0, TL_I(L, P_NKB), 0); /* k_blocks = dim_k // block_k */
}

TD_KERNEL(td_k_batched_vecmat_cf) = {"batched_vecmat_mult.batched_vecmat_closed_form_correct", "triton", TD_ABI_HOST,
                                     NULL, NULL, NULL, 6, 3, batched_vecmat_kernel, NULL};
TD_KERNEL(td_k_batched_vecmat_io) = {"batched_vecmat_mult.batched_vecmat_io_correctness", "triton", TD_ABI_HOST, NULL,
                                     NULL, NULL, 6, 3, batched_vecmat_kernel, NULL};
