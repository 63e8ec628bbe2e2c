/* swiglu_fwd mutants. */
#include "../host/elementwise_tl.h"

enum { P_SX, P_SY, P_SOUT, P_NCOLS, P_BLOCK };
enum { R_X, R_Y, R_OUT };

/* Y read with X's row stride (the chunk view's stride assumed for both halves). */
static int swiglu_fwd_y_stride(const td_abi_launch *L) {
    int64_t sx = TL_I(L, P_SX), so = TL_I(L, P_SOUT), ncols = TL_I(L, P_NCOLS), BN = TL_I(L, P_BLOCK);
    int64_t ylen = (int64_t)TL_LEN(L, R_Y);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t col = (int64_t)pid1 * BN + j;
                if (col >= ncols) continue;
                float x = tl_load(L, R_X, row * sx + col);
                float y = row * sx + col < ylen ? tl_load(L, R_Y, row * sx + col) : 0.0f; /* (inside the region) */
                tl_store(L, R_OUT, row * so + col, x * ew_sigmoid(x) * y, tl_f32());
            }
    return 0;
}

/* start_col ignores program_id(1): every column block recomputes block 0. */
static int swiglu_fwd_col_block_ignored(const td_abi_launch *L) {
    int64_t sx = TL_I(L, P_SX), sy = TL_I(L, P_SY), so = TL_I(L, P_SOUT), ncols = TL_I(L, P_NCOLS);
    int64_t BN = TL_I(L, P_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (int64_t j = 0; j < BN && j < ncols; j++) {
                float x = tl_load(L, R_X, row * sx + j), y = tl_load(L, R_Y, row * sy + j);
                tl_store(L, R_OUT, row * so + j, x * ew_sigmoid(x) * y, tl_f32());
            }
    return 0;
}

/* X += row * stride_x_row and Y += row * stride_y_row in int32, as the original forms
 * them (tl.program_id(0) and an int argument below 2^31 are int32): beyond 2^31
 * elements the offset wraps, an illegal address on a GPU (tl_fault) or another row. */
static int swiglu_fwd_offset_int32(const td_abi_launch *L) {
    int64_t sx = TL_I(L, P_SX), sy = TL_I(L, P_SY), so = TL_I(L, P_SOUT), ncols = TL_I(L, P_NCOLS);
    int64_t BN = TL_I(L, P_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t xb = tl_i32((int64_t)row * tl_i32(sx)), yb = tl_i32((int64_t)row * tl_i32(sy));
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++) {
            int64_t start_col = (int64_t)pid1 * BN, n = ncols - start_col < BN ? ncols - start_col : BN;
            if (tl_fault(L, R_X, xb + start_col, n, 1, row) || tl_fault(L, R_Y, yb + start_col, n, 1, row)) return 1;
            for (int64_t j = 0; j < n; j++) {
                int64_t col = start_col + j;
                float x = tl_load(L, R_X, xb + col), y = tl_load(L, R_Y, yb + col);
                tl_store(L, R_OUT, row * so + col, x * ew_sigmoid(x) * y, tl_f32());
            }
        }
    }
    return 0;
}

TD_KERNEL(td_m_swiglu_fwd_ystride) = {"swiglu_fwd.swiglu_fwd_kernel_correctness", "mut_y_read_with_x_stride",
                                      TD_ABI_HOST, NULL, "libm", "Y addressed with stride_x_row", 5, 3,
                                      swiglu_fwd_y_stride, NULL};
TD_KERNEL(td_m_swiglu_fwd_colblock) = {"swiglu_fwd.swiglu_fwd_kernel_correctness", "mut_column_block_ignored",
                                       TD_ABI_HOST, NULL, "libm", "start_col = 0 for every program_id(1)", 5, 3,
                                       swiglu_fwd_col_block_ignored, NULL};
TD_KERNEL(td_m_swiglu_fwd_i32) = {"swiglu_fwd.swiglu_fwd_kernel_correctness", "mut_offset_int32", TD_ABI_HOST, NULL,
                                  "libm", "row * stride_x_row and row * stride_y_row computed in int32 (wraps beyond "
                                  "2^31 elements)",
                                  5, 3, swiglu_fwd_offset_int32, NULL};
