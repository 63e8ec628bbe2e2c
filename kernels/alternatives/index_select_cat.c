/* index_select_cat, alternative: row-at-a-time gather with memcpy-like column runs.
 *
 * alt_row_loop: a CUDA-style "one warp per output row" kernel written as a flat loop
 * over output rows (no 2-D program grid, no BSI/BSC tiling), each row copied in
 * reverse column order.  Admissible: the contract fixes only what each output cell
 * holds; tile shape and store order are free for a gather (no cell is written twice).
 */
#include "alt_common.h"

enum { P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_OUT, R_SRC, R_IDX };

static int gather_rows(const td_abi_launch *L) {
    int64_t nidx = TL_I(L, P_NIDX), ncols = TL_I(L, P_NCOLS), s0 = TL_I(L, P_S0), s1 = TL_I(L, P_S1);
    for (int64_t r = 0; r < nidx; r++) {
        const int64_t row = tl_load_int(L, R_IDX, r);
        for (int64_t col = ncols - 1; col >= 0; col--)
            tl_store(L, R_OUT, r * s0 + col * s1, tl_load(L, R_SRC, row * s0 + col * s1), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_a_index_select_cat) = {"index_select_cat.index_select_cat_fwd_kernel_correctness", "alt_row_loop",
                                    TD_ABI_HOST, NULL, NULL, NULL, 6, 3, gather_rows, NULL};
