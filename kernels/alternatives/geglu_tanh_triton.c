/* geglu_tanh_triton, alternative: tanh from exponentials, FMA in the polynomial.
 *
 * alt_exp_tanh (forward and backward; one program per row, cols < min(n_cols, BLOCK_SIZE)
 * at row*stride + col, as the kernels):
 *   inner = sqrt(2/pi) * fma(c1 * a*a, a, a)            (the port: a + c1 * a^3, two
 *                                                        roundings after a*a*a)
 *   tanh(z) = sign(z) * (1 - 2 / (exp(2|z|) + 1))        for |z| >= 0.5, exp as
 *                                                        exp2(x log2 e) (Triton's lowering)
 *           = expm1(2z) / (expm1(2z) + 2)                for |z| <  0.5
 * (musl's and many CUDA kernels' tanhf structure: no cancellation near 0, a few ulp in
 * binary32: the relative error of exp2(x log2 e), up to |x log2 e| 2^-24 ln 2, is damped
 * by 2/(E+1) where E is large; inside the budget a kernel's tanh has: CUDA tanhf 2 ulp,
 * tanh.approx 2^-10.987 relative), geglu = 0.5 * a * (1 + t); backward with the
 * derivative's terms as in the kernel but 1 - t^2 as fma(-t, t, 1).  Admissible: the
 * same reals, FMA contraction, a tanh within the admissible tanh budget.  The port uses
 * tanhf.
 */
#include "alt_common.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

/* the kernel's one masked tile per row: cols < n_cols within BLOCK_SIZE */
static int64_t row_lanes(const td_abi_launch *L) {
    return TL_I(L, P_NCOLS) < TL_I(L, P_BLOCK) ? TL_I(L, P_NCOLS) : TL_I(L, P_BLOCK);
}

static const float k_s2pi = 0.7978845608028654f, k_c1 = 0.044715f, k_c3 = 3 * 0.044715f;

static float tanh_exp(float z) {
    float az = fabsf(z);
    if (az < 0.5f) {
        float e = expm1f(2.0f * z);
        return e / (e + 2.0f);
    }
    float t = 1.0f - 2.0f / (alt_exp_via_exp2(2.0f * az) + 1.0f);
    return z < 0 ? -t : t;
}
static float gelu_t(float a) { return tanh_exp(k_s2pi * fmaf(k_c1 * a * a, a, a)); }

static int fwd(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n = row_lanes(L);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < n; j++) {
            float a = tl_load(L, R_A, row * stride + j), b = tl_load(L, R_B, row * stride + j);
            tl_store(L, R_C, row * stride + j, 0.5f * a * (1.0f + gelu_t(a)) * b, tl_f32());
        }
    return 0;
}

static int bwd(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n = row_lanes(L);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < n; j++) {
            int64_t o = row * stride + j;
            float dc = tl_load(L, R_DC, o), a = tl_load(L, R_BA, o), b = tl_load(L, R_BB, o);
            float t = gelu_t(a);
            float db = dc * (0.5f * a * (1.0f + t));
            float term2 = 0.5f * a * fmaf(-t, t, 1.0f) * (k_s2pi * fmaf(k_c3 * a, a, 1.0f));
            float da = dc * b * (0.5f * (1.0f + t) + term2);
            tl_store(L, R_BA, o, da, tl_f32()); /* a and b are read before either is written */
            tl_store(L, R_BB, o, db, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_geglu_tanh_fwd) = {"geglu_tanh_triton.geglu_tanh_forward_kernel_correctness", "alt_exp_tanh",
                                  TD_ABI_HOST, NULL, NULL, NULL, 3, 3, fwd, NULL};
TD_KERNEL(td_a_geglu_tanh_bwd) = {"geglu_tanh_triton.geglu_tanh_backward_kernel_correctness", "alt_exp_tanh",
                                  TD_ABI_HOST, NULL, NULL, NULL, 3, 3, bwd, NULL};
