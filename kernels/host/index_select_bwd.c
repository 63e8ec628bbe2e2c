/* index_select_bwd: index_select_cat_bwd_kernel (a scatter with tl.store), program by
 * program on a 2-D grid.  Parameters: num_rows, num_indices, num_cols, stride0, stride1,
 * BLOCK_SIZE_INDEX, BLOCK_SIZE_COL.  Regions: grad_source_ptr, index_ptr (int64),
 * grad_output_ptr. */
#include "tl.h"

enum { P_NROWS, P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_GSRC, R_IDX, R_GOUT };

/* One program: the [BSI, BSC] tile of grad_output, stored at rows index[...] of grad_source. */
static void program(const td_abi_launch *L, uint32_t pid0, uint32_t pid1) {
    int64_t nidx = TL_I(L, P_NIDX), ncols = TL_I(L, P_NCOLS), s0 = TL_I(L, P_S0), s1 = TL_I(L, P_S1);
    int64_t bsi = TL_I(L, P_BSI), bsc = TL_I(L, P_BSC);
    for (int64_t i = 0; i < bsi; i++) {
        int64_t r = (int64_t)pid0 * bsi + i; /* grad_output_indices */
        if (r >= nidx) continue;
        int64_t dst_row = tl_load_int(L, R_IDX, r); /* grad_source_indices */
        for (int64_t k = 0; k < bsc; k++) {
            int64_t col = (int64_t)pid1 * bsc + k;
            if (col >= ncols) continue; /* grad_output_mask */
            float g = tl_load(L, R_GOUT, r * s0 + col * s1);
            tl_store(L, R_GSRC, dst_row * s0 + col * s1, g, tl_f32());
        }
    }
}

static int index_select_cat_bwd_kernel(const td_abi_launch *L) {
    for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++) program(L, pid0, pid1);
    return 0;
}

TD_KERNEL(td_k_index_select_bwd) = {"index_select_bwd.index_select_cat_bwd_kernel_correctness", "triton", TD_ABI_HOST,
                                    NULL, NULL, NULL, 7, 3, index_select_cat_bwd_kernel, NULL};
