/* matrix_reduction, alternative: row maxima from the last column down.
 *
 * alt_seq_rev: y[i] = max_{j < BLOCK_N} x[i*stride_xm + j*stride_xn] for i < BLOCK_M,
 * as a running fmax from j = BLOCK_N-1 down to 0 (every program stores the same tile's
 * maxima, as the kernel's programs do); the port reduces each row by a pairwise tree.
 * Admissible: max is exact in any order.
 */
#include "alt_common.h"

enum { P_SXM, P_SXN, P_SY, P_BM, P_BN };
enum { R_X, R_Y };

static int seq_rev(const td_abi_launch *L) {
    int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < BM; i++) {
            float m = -INFINITY;
            for (int64_t j = BN - 1; j >= 0; j--) m = fmaxf(m, tl_load(L, R_X, i * TL_I(L, P_SXM) + j * TL_I(L, P_SXN)));
            tl_store(L, R_Y, i, m, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_matrix_reduce_summary) = {"matrix_reduction.load_reduce_kernel_output_summary", "alt_seq_rev",
                                         TD_ABI_HOST, NULL, NULL, NULL, 5, 2, seq_rev, NULL};
TD_KERNEL(td_a_matrix_reduce_io) = {"matrix_reduction.matrix_reduction_io_correctness", "alt_seq_rev", TD_ABI_HOST,
                                    NULL, NULL, NULL, 5, 2, seq_rev, NULL};
