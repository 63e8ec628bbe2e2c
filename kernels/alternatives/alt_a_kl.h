/* Elementwise KL-divergence terms (Liger's _kldiv_kernel_forward / _backward, reduction
 * 'none') written with the math a compiled kernel really uses:
 *   aa_log_lg2(v)   log(v) = log2(v) * ln 2, both binary32 (the lg2-based log of
 *                   fast-math CUDA, __logf; here with the host's accurate log2f).
 *   the exp         aa_exp_tl (exp2 of the binary32 product) or aa_exp_approx
 *                   (ex2.approx.f32 model), see alt_a_num.h.
 * Formulas are the spec's: default  y_true * (log(max(y_true, eps)) - y),
 * log-target exp(y_true) * (y_true - y), backward -y_true / -exp(y_true). */
#ifndef TD_ALT_A_KL_H
#define TD_ALT_A_KL_H

#include "alt_a_num.h"

static inline float aa_log_lg2(float v) { return log2f(v) * AA_LN2; }

/* One KL term from (y, y_true, eps). */
typedef float (*aa_kl_term)(float y, float y_true, float eps);

static inline float aa_kl_default(float y, float y_true, float eps) {
    return y_true * (aa_log_lg2(fmaxf(y_true, eps)) - y);
}
static inline float aa_kl_default_noeps(float y, float y_true, float eps) {
    (void)eps;
    return y_true * (aa_log_lg2(y_true) - y);
}
static inline float aa_kl_log_exp2(float y, float y_true, float eps) {
    (void)eps;
    return aa_exp_tl(y_true) * (y_true - y);
}
static inline float aa_kl_log_ex2approx(float y, float y_true, float eps) {
    (void)eps;
    return aa_exp_approx(y_true) * (y_true - y);
}

#endif
