/* mean_reduction, alternatives: the row sum in other orders, the division as a
 * reciprocal multiply.
 *
 * mean[row] = (sum_{col < N} x[row*N + col]) / N for row < M, stored through Mean's
 * format (binary32, or binary16 round-to-nearest-even).  The port keeps BLOCK_N lane
 * accumulators over the column steps, reduces them by a pairwise tree and divides.
 *   alt_seq_rcp:  one sequential binary32 sum from col 0, then * (1/N) with 1/N rounded
 *                 once (the reciprocal multiply compilers emit for a division by an
 *                 invariant, and ATen's mean = sum * (1/N));
 *   alt_tree_div: one pairwise tree over the N values (larger half first), then / N.
 * Admissible: any association order of the binary32 sum; a/b as a*(1/b).  Same rows.
 */
#include "alt_common.h"

enum { P_M, P_N, P_BM, P_BN };
enum { R_X, R_MEAN };

static int mean(const td_abi_launch *L, int tree) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N);
    float *row;
    TL_ALLOC(L, row, N);
    for (int64_t r = 0; r < M; r++) {
        float s = 0.0f;
        for (int64_t c = 0; c < N; c++) row[c] = tl_load(L, R_X, r * N + c);
        if (tree) s = N > 0 ? alt_tree(row, N) : 0.0f;
        else
            for (int64_t c = 0; c < N; c++) s = s + row[c];
        tl_store(L, R_MEAN, r, tree ? s / (float)N : s * alt_rcp((float)N), alt_out(L, R_MEAN));
    }
    free(row);
    return 0;
}
static int seq_rcp(const td_abi_launch *L) { return mean(L, 0); }
static int tree_div(const td_abi_launch *L) { return mean(L, 1); }

TD_KERNEL(td_a_mean_summary_seq) = {"mean_reduction.mean_dim_kernel_output_summary", "alt_seq_rcp", TD_ABI_HOST, NULL,
                                    NULL, NULL, 4, 2, seq_rcp, NULL};
TD_KERNEL(td_a_mean_io_seq) = {"mean_reduction.mean_dim_kernel_io_correctness", "alt_seq_rcp", TD_ABI_HOST, NULL,
                               NULL, NULL, 4, 2, seq_rcp, NULL};
TD_KERNEL(td_a_mean_summary_tree) = {"mean_reduction.mean_dim_kernel_output_summary", "alt_tree_div", TD_ABI_HOST,
                                     NULL, NULL, NULL, 4, 2, tree_div, NULL};
TD_KERNEL(td_a_mean_io_tree) = {"mean_reduction.mean_dim_kernel_io_correctness", "alt_tree_div", TD_ABI_HOST, NULL,
                                NULL, NULL, 4, 2, tree_div, NULL};
