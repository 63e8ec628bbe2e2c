/* bmm_optimized, alternative: split-K per output cell, batch by batch.
 *
 * alt_splitk: O[b] = A[b] B[b] for b < grid[2] (A [M, K], B [K, N], O [M, N], row-major,
 * batches contiguous); each cell (row < M, col < N) sums its K binary32 products in
 * three slices, each an FMA chain, the partials added last slice first.  The port
 * rounds every product, sums a pairwise tree per TILE_K step (masked lanes 0) and adds
 * the steps in order.  Admissible: tl.dot(allow_tf32=False) is the binary32 dot product
 * in an unspecified order; same cells (row < M & col < N).
 */
#include "alt_common.h"

enum { P_M, P_N, P_K, P_TM, P_TN, P_TK, P_GM };
enum { R_A, R_B, R_O };

static int splitk(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K);
    for (uint32_t b = 0; b < L->grid[2]; b++)
        for (int64_t row = 0; row < M; row++)
            for (int64_t col = 0; col < N; col++) {
                alt_vec a = {R_A, b * M * K + row * K, 1}, bv = {R_B, b * K * N + col, N};
                tl_store(L, R_O, b * M * N + row * N + col, alt_dot(L, &a, &bv, K, 0.0f, ALT_DOT_SPLITK), tl_f32());
            }
    return 0;
}

TD_KERNEL(td_a_bmm_o_exec_genuine) = {"bmm_optimized.bmm_o_exec_genuine", "alt_splitk", TD_ABI_HOST, NULL, NULL, NULL,
                                      7, 3, splitk, NULL};
