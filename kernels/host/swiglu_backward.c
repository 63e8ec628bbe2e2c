/* swiglu_backward: _swiglu_bwd_kernel, grid (rows, column blocks).
 * Parameters: stride_x_row, stride_y_row, stride_dout_row, stride_out_row, stride_dx_row,
 * stride_dy_row, ncols, BLOCK_N, RECOMPUTE_OUTPUT.  Regions: X, Y, DOUT, OUT, DX, DY. */
#include "elementwise_tl.h"

enum { P_SX, P_SY, P_SDOUT, P_SOUT, P_SDX, P_SDY, P_NCOLS, P_BLOCK, P_RECOMPUTE };
enum { R_X, R_Y, R_DOUT, R_OUT, R_DX, R_DY };

static int swiglu_bwd_kernel(const td_abi_launch *L) {
    int64_t sx = TL_I(L, P_SX), sy = TL_I(L, P_SY), sd = TL_I(L, P_SDOUT), so = TL_I(L, P_SOUT);
    int64_t sdx = TL_I(L, P_SDX), sdy = TL_I(L, P_SDY), ncols = TL_I(L, P_NCOLS), BN = TL_I(L, P_BLOCK);
    int recompute = TL_I(L, P_RECOMPUTE) != 0;
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++) {
            int64_t start_col = (int64_t)pid1 * BN;
            for (int64_t j = 0; j < BN; j++) {
                int64_t col = start_col + j;
                if (!(col < ncols)) continue;
                float x = tl_load(L, R_X, row * sx + col), y = tl_load(L, R_Y, row * sy + col);
                float dout = tl_load(L, R_DOUT, row * sd + col);
                float x_sigmoid = ew_sigmoid(x);
                float dx = x_sigmoid * (1.0f + x * (1.0f - x_sigmoid)) * y * dout;
                float dy = x * x_sigmoid * dout;
                tl_store(L, R_DX, row * sdx + col, dx, tl_f32());
                tl_store(L, R_DY, row * sdy + col, dy, tl_f32());
                if (recompute) tl_store(L, R_OUT, row * so + col, x * x_sigmoid * y, tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_k_swiglu_backward) = {"swiglu_backward.swiglu_bwd_kernel_correctness", "triton", TD_ABI_HOST, NULL, "libm",
                                   NULL, 9, 6, swiglu_bwd_kernel, NULL};
