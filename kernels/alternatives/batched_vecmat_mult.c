/* batched_vecmat_mult, alternative: one FMA chain per output element.
 *
 * alt_fma_chain: out[m, n] = sum_{k < K} A[m, k] * B[m, n, k], K = BLOCK_K * numKBlocks,
 * for every cell of the launch's tiles (m < grid[0]*BLOCK_M, n < grid[1]*BLOCK_N; the
 * store is unmasked).  Here acc = fma(A, B, acc) over k in order (binary32 operands,
 * one rounding per step); the port rounds each product, sums a pairwise tree per K block
 * and adds the blocks in order.  Admissible: an FMA-contracted association order of the
 * binary32 sum; same cells.
 */
#include "alt_common.h"

enum { P_DM, P_DN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_OUT };

static int fma_chain(const td_abi_launch *L) {
    int64_t dn = TL_I(L, P_DN), K = TL_I(L, P_BK) * TL_I(L, P_NKB);
    int64_t rows = (int64_t)L->grid[0] * TL_I(L, P_BM), cols = (int64_t)L->grid[1] * TL_I(L, P_BN);
    for (int64_t m = 0; m < rows; m++)
        for (int64_t n = 0; n < cols; n++) {
            alt_vec a = {R_A, m * K, 1}, b = {R_B, (m * dn + n) * K, 1};
            tl_store(L, R_OUT, m * dn + n, alt_dot(L, &a, &b, K, 0.0f, ALT_DOT_FMA_SEQ), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_batched_vecmat_cf) = {"batched_vecmat_mult.batched_vecmat_closed_form_correct", "alt_fma_chain",
                                     TD_ABI_HOST, NULL, NULL, NULL, 6, 3, fma_chain, NULL};
TD_KERNEL(td_a_batched_vecmat_io) = {"batched_vecmat_mult.batched_vecmat_io_correctness", "alt_fma_chain",
                                     TD_ABI_HOST, NULL, NULL, NULL, 6, 3, fma_chain, NULL};
