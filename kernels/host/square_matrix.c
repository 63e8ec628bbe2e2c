/* square_matrix: square_kernel, one program per row.
 * Parameters: input_row_stride, output_row_stride, n_cols, BLOCK_SIZE.
 * Regions: output_ptr, input_ptr. */
#include "tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

static int square_kernel(const td_abi_launch *L) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), n_cols = TL_I(L, P_NCOLS);
    int64_t B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t row_idx = 0; row_idx < L->grid[0]; row_idx++) {
        int64_t row_start = (int64_t)row_idx * in_st;
        for (int64_t j = 0; j < B; j++) /* tl.load(..., mask=col_offsets < n_cols, other=-inf) */
            row[j] = j < n_cols ? tl_load(L, R_IN, row_start + j) : -INFINITY;
        int64_t out_start = (int64_t)row_idx * out_st;
        for (int64_t j = 0; j < B; j++)
            if (j < n_cols) tl_store(L, R_OUT, out_start + j, row[j] * row[j], tl_f32());
    }
    free(row);
    return 0;
}

TD_KERNEL(td_k_square_matrix) = {"square_matrix.square_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 4,
                                 2, square_kernel, NULL};
