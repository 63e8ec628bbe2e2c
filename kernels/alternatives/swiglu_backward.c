/* swiglu_backward, alternative: exp2-based sigmoid and FMA-contracted derivatives.
 *
 * alt_exp2_fma: s = (1 + exp2(-x log2 e))^-1 (compiled Triton's lowering of tl.sigmoid);
 *   dx = s * fma(x, 1 - s, 1) * y * dout     (the port: s * (1 + x*(1 - s)) * y * dout)
 *   dy = x * s * dout;  out = x * s * y when RECOMPUTE_OUTPUT.
 * Admissible: exp as exp2(x log2 e), a reciprocal for the division, FMA contraction of
 * 1 + x*(1-s).  Same cells (row < grid rows, col < ncols) in DX, DY (and OUT).
 */
#include "alt_common.h"

enum { P_SX, P_SY, P_SDOUT, P_SOUT, P_SDX, P_SDY, P_NCOLS, P_BLOCK, P_RECOMPUTE };
enum { R_X, R_Y, R_DOUT, R_OUT, R_DX, R_DY };

static int exp2_fma(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_NCOLS);
    int recompute = TL_I(L, P_RECOMPUTE) != 0;
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t col = 0; col < n; col++) {
            float x = tl_load(L, R_X, row * TL_I(L, P_SX) + col), y = tl_load(L, R_Y, row * TL_I(L, P_SY) + col);
            float dout = tl_load(L, R_DOUT, row * TL_I(L, P_SDOUT) + col);
            float s = alt_rcp(1.0f + alt_exp_via_exp2(-x));
            tl_store(L, R_DX, row * TL_I(L, P_SDX) + col, s * fmaf(x, 1.0f - s, 1.0f) * y * dout, tl_f32());
            tl_store(L, R_DY, row * TL_I(L, P_SDY) + col, x * s * dout, tl_f32());
            if (recompute) tl_store(L, R_OUT, row * TL_I(L, P_SOUT) + col, x * s * y, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_swiglu_backward_exp2) = {"swiglu_backward.swiglu_bwd_kernel_correctness", "alt_exp2_fma", TD_ABI_HOST,
                                        NULL, NULL, NULL, 9, 6, exp2_fma, NULL};
