/* fused_activation, alternatives: the affine part as an FMA; sigmoid two ways.
 *
 * x[i] = act(multiplier * in[i] + x[i] + bias[i % num_weights]) in place, i < xnumel;
 * act = sigmoid (ACTIVATION_SIGMOID) or relu.  The port: two roundings for
 * multiplier*in + x, sigmoid = 1 / (1 + expf(-a)).
 *   alt_fma:  a = fma(multiplier, in, x) + bias (the contraction nvcc/Triton emit);
 *             sigmoid = 1 / (1 + expf(-a)); relu = fmax(a, 0).
 *   alt_exp2: a as alt_fma; sigmoid = (1 + exp2(-a * log2 e))^-1 as a reciprocal, the
 *             way compiled Triton lowers tl.sigmoid's exp (ex2 after a multiply by log2 e;
 *             the host's exp2f in place of ex2.approx).
 * Admissible: FMA contraction; exp as exp2(x log2 e), whose extra error is the rounding
 * of x*log2e (relative |x log2 e| * 2^-24 * ln 2 on the exponential) plus exp2's own;
 * a reciprocal instead of a division.  Same lanes.
 */
#include "alt_common.h"

enum { P_NW, P_XNUMEL, P_BLOCK, P_MULT, P_SIGMOID };
enum { R_X, R_BIAS, R_IN };

static int fused(const td_abi_launch *L, int exp2_form) {
    int64_t nw = TL_I(L, P_NW), n = TL_I(L, P_XNUMEL);
    float mult = TL_R(L, P_MULT);
    int sigmoid = TL_I(L, P_SIGMOID) != 0;
    for (int64_t i = 0; i < n; i++) {
        float a = fmaf(mult, tl_load(L, R_IN, i), tl_load(L, R_X, i)) + tl_load(L, R_BIAS, i % nw);
        float e = exp2_form ? alt_exp_via_exp2(-a) : expf(-a);
        float y = !sigmoid ? fmaxf(a, 0.0f) : exp2_form ? alt_rcp(1.0f + e) : 1.0f / (1.0f + e);
        tl_store(L, R_X, i, y, tl_f32());
    }
    return 0;
}
static int fused_fma(const td_abi_launch *L) { return fused(L, 0); }
static int fused_exp2(const td_abi_launch *L) { return fused(L, 1); }

TD_KERNEL(td_a_fused_activation_fma) = {"fused_activation.fused_add_mul_activation_kernel_correctness", "alt_fma",
                                        TD_ABI_HOST, NULL, "libm", NULL, 5, 3, fused_fma, NULL};
TD_KERNEL(td_a_fused_activation_exp2) = {"fused_activation.fused_add_mul_activation_kernel_correctness", "alt_exp2",
                                         TD_ABI_HOST, NULL, NULL, NULL, 5, 3, fused_exp2, NULL};
