/* swiglu_backward mutants. */
#include "../host/elementwise_tl.h"

enum { P_SX, P_SY, P_SDOUT, P_SOUT, P_SDX, P_SDY, P_NCOLS, P_BLOCK, P_RECOMPUTE };
enum { R_X, R_Y, R_DOUT, R_OUT, R_DX, R_DY };

/* i32: X += row * stride_x_row (and Y, DOUT) in int32, as the original forms them
 * (tl.program_id(0) and an int argument below 2^31 are int32): beyond 2^31 elements
 * the offset wraps, an illegal address on a GPU (tl_fault) or another row. */
static int bwd_variant(const td_abi_launch *L, int always_out, int dx_without_sigmoid, int i32) {
    int64_t sx = TL_I(L, P_SX), sy = TL_I(L, P_SY), sd = TL_I(L, P_SDOUT), so = TL_I(L, P_SOUT);
    int64_t sdx = TL_I(L, P_SDX), sdy = TL_I(L, P_SDY), ncols = TL_I(L, P_NCOLS), BN = TL_I(L, P_BLOCK);
    int recompute = TL_I(L, P_RECOMPUTE) != 0 || always_out;
    int64_t outlen = (int64_t)TL_LEN(L, R_OUT);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t xb = (int64_t)row * sx, yb = (int64_t)row * sy, db = (int64_t)row * sd;
        if (i32) {
            xb = tl_i32((int64_t)row * tl_i32(sx)), yb = tl_i32((int64_t)row * tl_i32(sy));
            db = tl_i32((int64_t)row * tl_i32(sd));
            int64_t n = (int64_t)L->grid[1] * BN < ncols ? (int64_t)L->grid[1] * BN : ncols;
            if (tl_fault(L, R_X, xb, n, 1, row) || tl_fault(L, R_Y, yb, n, 1, row) || tl_fault(L, R_DOUT, db, n, 1, row))
                return 1;
        }
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t col = (int64_t)pid1 * BN + j;
                if (col >= ncols) continue;
                float x = tl_load(L, R_X, xb + col), y = tl_load(L, R_Y, yb + col);
                float dout = tl_load(L, R_DOUT, db + col), s = ew_sigmoid(x);
                float dx = (dx_without_sigmoid ? 1.0f : s) * (1.0f + x * (1.0f - s)) * y * dout;
                tl_store(L, R_DX, row * sdx + col, dx, tl_f32());
                tl_store(L, R_DY, row * sdy + col, x * s * dout, tl_f32());
                if (recompute && row * so + col < outlen) tl_store(L, R_OUT, row * so + col, x * s * y, tl_f32());
            }
    }
    return 0;
}

/* OUT stored whatever RECOMPUTE_OUTPUT says (the constexpr guard lost). */
static int bwd_out_always(const td_abi_launch *L) { return bwd_variant(L, 1, 0, 0); }
/* dx without its sigmoid factor: (1 + x * (1 - sig)) * y * dout. */
static int bwd_dx_missing_sigmoid(const td_abi_launch *L) { return bwd_variant(L, 0, 1, 0); }
static int bwd_offset_int32(const td_abi_launch *L) { return bwd_variant(L, 0, 0, 1); }

TD_KERNEL(td_m_swiglu_backward_out) = {"swiglu_backward.swiglu_bwd_kernel_correctness", "mut_out_stored_always",
                                       TD_ABI_HOST, NULL, "libm", "OUT stored even when RECOMPUTE_OUTPUT is false", 9,
                                       6, bwd_out_always, NULL};
TD_KERNEL(td_m_swiglu_backward_dx) = {"swiglu_backward.swiglu_bwd_kernel_correctness", "mut_dx_missing_sigmoid",
                                      TD_ABI_HOST, NULL, "libm", "dx = (1 + x * (1 - sig)) * y * dout (sig factor lost)",
                                      9, 6, bwd_dx_missing_sigmoid, NULL};
TD_KERNEL(td_m_swiglu_backward_i32) = {"swiglu_backward.swiglu_bwd_kernel_correctness", "mut_offset_int32",
                                       TD_ABI_HOST, NULL, "libm",
                                       "row * stride_x_row (y, dout) computed in int32 (wraps beyond 2^31 elements)", 9,
                                       6, bwd_offset_int32, NULL};
