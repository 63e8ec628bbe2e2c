/* max_reduction, alternatives: sequential maxima.
 *
 *   max_kernel_1 (alt_seq): each program's block max, mid[pid] = max over
 *     i < BLOCK with pid*BLOCK + i < M, as a sequential running fmax from the block's
 *     first lane; the port reduces a -inf padded tile by a pairwise tree.
 *   max_kernel (alt_seq): value and index along dim N (lanes n < min(N, BLOCK_N), the
 *     kernel's single block) of inp[m, n, k] for m < M, k < grid axis 1, as a running
 *     maximum that moves only on a strictly greater value: the first index of the
 *     maximum, which is what tl.max(..., return_indices=True) with tie-break-left returns.
 * Admissible: max is exact in every order (no rounding), and the strict comparison
 * keeps the first maximum as the contract's index requires.
 */
#include "alt_common.h"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_MID };
enum { P_M, P_N, P_K, P_BM, P_BN };
enum { R_INP, R_VAL, R_IDX };

static int max1_seq(const td_abi_launch *L) {
    int64_t M = TL_I(L, P1_M), B = TL_I(L, P1_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float m = -INFINITY;
        for (int64_t off = (int64_t)pid * B; off < (int64_t)(pid + 1) * B && off < M; off++)
            m = fmaxf(m, tl_load(L, R1_INP, off));
        tl_store(L, R1_MID, pid, m, tl_f32());
    }
    return 0;
}

static int max_dim_seq(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K);
    int64_t n_end = N < TL_I(L, P_BN) ? N : TL_I(L, P_BN);
    for (int64_t m = 0; m < M; m++)
        for (uint32_t k = 0; k < L->grid[1]; k++) {
            float best = -INFINITY;
            int64_t at = 0;
            for (int64_t n = 0; n < n_end; n++) {
                float v = tl_load(L, R_INP, m * N * K + n * K + k);
                if (v > best) best = v, at = n;
            }
            tl_store(L, R_VAL, m * K + k, best, tl_f32());
            ((int64_t *)TL_BASE(L, R_IDX))[m * K + k] = at;
        }
    return 0;
}

TD_KERNEL(td_a_max_kernel_1_seq) = {"max_reduction.max_kernel_1_io_correctness", "alt_seq", TD_ABI_HOST, NULL, NULL,
                                    NULL, 2, 2, max1_seq, NULL};
TD_KERNEL(td_a_max_kernel_seq) = {"max_reduction.max_kernel_output_summary", "alt_seq", TD_ABI_HOST, NULL, NULL, NULL,
                                  5, 3, max_dim_seq, NULL};
