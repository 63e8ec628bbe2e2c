/* The int32-offset row copy shared by index_select_cat's gather and index_select_bwd's
 * scatter mutants (see tl.h for the Triton-on-CPU conventions). */
#ifndef TD_INDEX_SELECT_TL_H
#define TD_INDEX_SELECT_TL_H

#include "tl.h"

/* Program (pid0, pid1) moves the [BSI, BSC] tile of rows r = pid0 * BSI + i <
 * num_indices, columns c = pid1 * BSC + k < num_cols, between row r of region `dense`
 * and row index[r] (region `idx`) of region `via`, both at (stride0, stride1): a gather
 * (scatter 0) reads `via` and writes `dense`, a scatter reads `dense` and writes `via`.
 * Parameters p .. p + 5 are num_indices, num_cols, stride0, stride1, BSI, BSC (both
 * kernels' order).  dense's offset r * stride0 + c * stride1 is formed in int32, as the
 * originals form it (indices from tl.program_id and tl.arange, strides int32 arguments
 * below 2^31); via's is int64 (rows loaded from the int64 index tensor).  A wrapped row
 * outside `dense` is an illegal address (tl_fault): the launch fails. */
static inline int is_copy_rows_i32(const td_abi_launch *L, int p, int dense, int via, int idx, int scatter) {
    int64_t nidx = TL_I(L, p), ncols = TL_I(L, p + 1), s0 = TL_I(L, p + 2), s1 = TL_I(L, p + 3);
    int64_t bsi = TL_I(L, p + 4), bsc = TL_I(L, p + 5);
    for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (int64_t i = 0; i < bsi; i++) {
                int64_t r = (int64_t)pid0 * bsi + i, c0 = (int64_t)pid1 * bsc, n = ncols - c0 < bsc ? ncols - c0 : bsc;
                if (r >= nidx || n <= 0) continue;
                int64_t base = tl_i32(r * tl_i32(s0)), row = tl_load_int(L, idx, r);
                if (tl_fault(L, dense, tl_i32(base + tl_i32(c0 * tl_i32(s1))), n, s1, pid0)) return 1;
                for (int64_t col = c0; col < c0 + n; col++) {
                    int64_t d = tl_i32(base + tl_i32(col * tl_i32(s1))), v = row * s0 + col * s1;
                    if (scatter) tl_store(L, via, v, tl_load(L, dense, d), tl_f32());
                    else tl_store(L, dense, d, tl_load(L, via, v), tl_f32());
                }
            }
    return 0;
}

#endif
