/* index_select_cat: index_select_cat_fwd_kernel, program by program on a 2-D grid.
 * Parameters: num_indices, num_cols, stride0, stride1, BLOCK_SIZE_INDEX, BLOCK_SIZE_COL.
 * Regions: output_ptr, source_ptr, index_ptr (int64). */
#include "tl.h"

enum { P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_OUT, R_SRC, R_IDX };

/* One program: rows = index[indices] (masked), then the [BSI, BSC] tile. */
static void program(const td_abi_launch *L, uint32_t pid0, uint32_t pid1) {
    int64_t nidx = TL_I(L, P_NIDX), ncols = TL_I(L, P_NCOLS), s0 = TL_I(L, P_S0), s1 = TL_I(L, P_S1);
    int64_t bsi = TL_I(L, P_BSI), bsc = TL_I(L, P_BSC);
    for (int64_t i = 0; i < bsi; i++) {
        int64_t index = (int64_t)pid0 * bsi + i;
        if (index >= nidx) continue; /* mask = indices < num_indices */
        int64_t row = tl_load_int(L, R_IDX, index);
        for (int64_t k = 0; k < bsc; k++) {
            int64_t col = (int64_t)pid1 * bsc + k;
            if (col >= ncols) continue;
            float v = tl_load(L, R_SRC, row * s0 + col * s1);
            tl_store(L, R_OUT, index * s0 + col * s1, v, tl_f32());
        }
    }
}

static int index_select_cat_fwd_kernel(const td_abi_launch *L) {
    for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++) program(L, pid0, pid1);
    return 0;
}

TD_KERNEL(td_k_index_select_cat) = {"index_select_cat.index_select_cat_fwd_kernel_correctness", "triton", TD_ABI_HOST,
                                    NULL, NULL, NULL, 6, 3, index_select_cat_fwd_kernel, NULL};
