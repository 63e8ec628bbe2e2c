/* square_matrix mutants. */
#include "../host/tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

/* The output row is addressed with the INPUT row stride (the wrapper's x.stride(0)
 * passed twice): right only when both tensors have the same layout. */
static int square_output_stride_wrong(const td_abi_launch *L) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t len = (int64_t)TL_LEN(L, R_OUT);
    for (uint32_t r = 0; r < L->grid[0]; r++)
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            float x = tl_load(L, R_IN, (int64_t)r * in_st + j);
            int64_t o = (int64_t)r * in_st + j;
            if (o < len) tl_store(L, R_OUT, o, x * x, tl_f32()); /* (stays inside the allocation) */
        }
    return 0;
}

/* The store is masked by col_offsets < BLOCK_SIZE instead of < n_cols: the padding
 * lanes store (-inf)^2 = inf past the end of each row. */
static int square_store_mask_block(const td_abi_launch *L) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), n_cols = TL_I(L, P_NCOLS);
    int64_t B = TL_I(L, P_BLOCK), len = (int64_t)TL_LEN(L, R_OUT);
    for (uint32_t r = 0; r < L->grid[0]; r++)
        for (int64_t j = 0; j < B; j++) {
            float x = j < n_cols ? tl_load(L, R_IN, (int64_t)r * in_st + j) : -INFINITY;
            int64_t o = (int64_t)r * out_st + j;
            if (o < len) tl_store(L, R_OUT, o, x * x, tl_f32());
        }
    return 0;
}

/* row_idx * input_row_stride formed in int32 (Triton's default): beyond 2^31 elements
 * the row start wraps to an address outside the input, where the device faults. */
static int square_offset_int32(const td_abi_launch *L) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), n_cols = TL_I(L, P_NCOLS);
    int64_t B = TL_I(L, P_BLOCK), w = n_cols < B ? n_cols : B;
    for (uint32_t r = 0; r < L->grid[0]; r++) {
        int64_t start = tl_i32((int64_t)r * tl_i32(in_st));
        if (tl_fault(L, R_IN, start, w, 1, r)) return 1;
        for (int64_t j = 0; j < w; j++) {
            float x = tl_load(L, R_IN, start + j);
            tl_store(L, R_OUT, (int64_t)r * out_st + j, x * x, tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_m_square_matrix_stride) = {"square_matrix.square_kernel_correctness", "mut_output_stride_wrong",
                                        TD_ABI_HOST, NULL, NULL, "output rows addressed with input_row_stride", 4, 2,
                                        square_output_stride_wrong, NULL};
TD_KERNEL(td_m_square_matrix_mask) = {"square_matrix.square_kernel_correctness", "mut_store_mask_block", TD_ABI_HOST,
                                      NULL, NULL, "store mask col < BLOCK_SIZE: padding lanes store inf", 4, 2,
                                      square_store_mask_block, NULL};
TD_KERNEL(td_m_square_matrix_int32) = {"square_matrix.square_kernel_correctness", "mut_offset_int32", TD_ABI_HOST,
                                       NULL, NULL, "row_idx * input_row_stride formed in int32 (rows beyond 2^31 "
                                       "elements wrap)", 4, 2, square_offset_int32, NULL};
