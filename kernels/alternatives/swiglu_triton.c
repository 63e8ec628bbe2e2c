/* swiglu_triton (Liger), alternatives: sigmoid through exp2 and a reciprocal; the
 * backward's derivative with an FMA.
 *
 *   alt_exp2 (forward): c = a * s * b with s = (1 + exp2(-a log2 e))^-1, the lowering
 *            of tl.sigmoid in compiled Triton (ex2 after a multiply by log2 e, then a
 *            reciprocal); the port: 1 / (1 + expf(-a)).
 *   alt_fma (backward): s = 1 / (1 + expf(-a)), silu = a*s, db = dc*silu,
 *            da = dc * fma(silu, 1 - s, s) * b (the port: silu*(1-s) + s, two roundings).
 * Admissible: exp as exp2(x log2 e) (the rounding of x log2 e costs a relative
 * |x log2 e| 2^-24 ln 2), a reciprocal instead of a division, FMA contraction.  Same
 * lanes (cols < min(n_cols, BLOCK_SIZE) of each row program), a and b read before the in-place stores.
 */
#include "alt_common.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

/* the kernel's one masked tile per row: cols < n_cols within BLOCK_SIZE */
static int64_t row_lanes(const td_abi_launch *L) {
    return TL_I(L, P_NCOLS) < TL_I(L, P_BLOCK) ? TL_I(L, P_NCOLS) : TL_I(L, P_BLOCK);
}

static int fwd_exp2(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n = row_lanes(L);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < n; j++) {
            int64_t o = row * stride + j;
            float a = tl_load(L, R_A, o), s = alt_rcp(1.0f + alt_exp_via_exp2(-a));
            tl_store(L, R_C, o, a * s * tl_load(L, R_B, o), tl_f32());
        }
    return 0;
}

static int bwd_fma(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n = row_lanes(L);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < n; j++) {
            int64_t o = row * stride + j;
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o);
            float s = 1.0f / (1.0f + expf(-a)), silu = a * s;
            float da = dc * fmaf(silu, 1.0f - s, s) * b;
            tl_store(L, R_BA, o, da, tl_f32());
            tl_store(L, R_BB, o, dc * silu, tl_f32());
        }
    return 0;
}

/* alt_ptx_edge (forward): s = div.full(1, 1 + ex2.approx(RN(-a log2 e))) with both
 * instructions emulated at 2 ulp from their correctly rounded result (alt_common.h):
 * the sigmoid compiled Triton runs, at the worst error NVIDIA documents for it. */
static int fwd_ptx_edge(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n = row_lanes(L);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < n; j++) {
            int64_t o = row * stride + j;
            float a = tl_load(L, R_A, o), s = alt_div_full(1.0f, 1.0f + alt_exp_ptx(-a));
            tl_store(L, R_C, o, a * s * tl_load(L, R_B, o), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_swiglu_triton_fwd) = {"swiglu_triton.swiglu_forward_kernel_correctness", "alt_exp2", TD_ABI_HOST, NULL,
                                     NULL, NULL, 3, 3, fwd_exp2, NULL};
TD_KERNEL(td_a_swiglu_triton_bwd) = {"swiglu_triton.swiglu_backward_kernel_correctness", "alt_fma", TD_ABI_HOST, NULL,
                                     "libm", NULL, 3, 3, bwd_fma, NULL};
TD_KERNEL(td_a_swiglu_triton_fwd_ptx) = {"swiglu_triton.swiglu_forward_kernel_correctness", "alt_ptx_edge",
                                         TD_ABI_HOST, NULL, NULL, NULL, 3, 3, fwd_ptx_edge, NULL};
