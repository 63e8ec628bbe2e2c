/* adam_update_triton (a Lion update), alternative: the catalogue's own formulas.
 *
 * alt_catalogue: lionParam and lionMomentum written as VeriTile's Optimizer.lean states
 * them, not in the port's factored form:
 *     c  = b1*m + (1-b1)*g;     p' = (1 - lr*wd)*p - lr*sign(c)   (sign 0 = 0)
 *     m' = b2*m + (1-b2)*g
 * each operation one binary32 rounding (the port: diff = m - g; update = diff*b1 + g;
 * m' = diff*b2 + g).  Admissible: the same real expressions evaluated in binary32 in the
 * order the specification writes them; a kernel author reading the spec writes exactly
 * this (optax / lion-pytorch use b2*m + (1-b2)*g).  The sign of c may differ from the
 * port's where the real c is within both evaluations' error of 0; p' then differs by
 * 2*lr, which the bound must allow wherever either evaluation may cross 0.
 */
#include "alt_common.h"

enum { P_LR, P_WD, P_B1, P_B2, P_N, P_BLOCK };
enum { R_P, R_GRAD, R_M };

static int catalogue(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N);
    float lr = TL_R(L, P_LR), wd = TL_R(L, P_WD), b1 = TL_R(L, P_B1), b2 = TL_R(L, P_B2);
    for (int64_t i = 0; i < n; i++) {
        float p = tl_load(L, R_P, i), g = tl_load(L, R_GRAD, i), m = tl_load(L, R_M, i);
        float c = b1 * m + (1.0f - b1) * g;
        float sign = c > 0.0f ? 1.0f : c < 0.0f ? -1.0f : 0.0f;
        tl_store(L, R_P, i, (1.0f - lr * wd) * p - lr * sign, tl_f32());
        tl_store(L, R_M, i, b2 * m + (1.0f - b2) * g, tl_f32());
    }
    return 0;
}

TD_KERNEL(td_a_adam_update_catalogue) = {"adam_update_triton.update_fn_kernel_correctness", "alt_catalogue",
                                         TD_ABI_HOST, NULL, NULL, NULL, 6, 3, catalogue, NULL};
