/* swiglu_fwd: _swiglu_fwd_kernel, grid (rows, column blocks).
 * Parameters: stride_x_row, stride_y_row, stride_out_row, ncols, BLOCK_N.
 * Regions: X, Y, OUT. */
#include "elementwise_tl.h"

enum { P_SX, P_SY, P_SOUT, P_NCOLS, P_BLOCK };
enum { R_X, R_Y, R_OUT };

static int swiglu_fwd_kernel(const td_abi_launch *L) {
    int64_t sx = TL_I(L, P_SX), sy = TL_I(L, P_SY), so = TL_I(L, P_SOUT), ncols = TL_I(L, P_NCOLS);
    int64_t BN = TL_I(L, P_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++) {
            int64_t start_col = (int64_t)pid1 * BN;
            for (int64_t j = 0; j < BN; j++) {
                int64_t col = start_col + j;
                if (!(col < ncols)) continue;
                float x = tl_load(L, R_X, row * sx + col), y = tl_load(L, R_Y, row * sy + col);
                tl_store(L, R_OUT, row * so + col, x * ew_sigmoid(x) * y, tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_k_swiglu_fwd) = {"swiglu_fwd.swiglu_fwd_kernel_correctness", "triton", TD_ABI_HOST, NULL, "libm", NULL, 5,
                              3, swiglu_fwd_kernel, NULL};
