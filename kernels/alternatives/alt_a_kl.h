/* Elementwise KL-divergence terms (Liger's _kldiv_kernel_forward / _backward, reduction
 * 'none') written with the math a compiled kernel really uses:
 *   aa_log_lg2(v)   log(v) = log2(v) * ln 2, both binary32 (the lg2-based log of
 *                   fast-math CUDA, __logf; here with the host's accurate log2f).
 *   the exp         aa_exp_tl (exp2 of the binary32 product) or aa_exp_approx
 *                   (ex2.approx.f32 model), see alt_a_num.h.
 *   aa_log_lg2approx(v)  log(v) as compiled Triton lowers tl.log: a model of PTX
 *                   lg2.approx.f32 (absolute error up to 2^-22 for v in (0.5, 2), relative
 *                   2^-22 elsewhere: PTX ISA 9.1, 9.7.3) times RN32(ln 2) in binary32.
 *                   The model returns a binary32 value moved from log2(v) by 0, +-0.475
 *                   or +-0.95 of that bound (a hash of v's bits picks which, so a case
 *                   replays); near v = 1, where log2 v is tiny, the absolute bound is
 *                   many ulps of the result, so a bound that charged only ulps would fail.
 * Formulas are the spec's: default  y_true * (log(max(y_true, eps)) - y),
 * log-target exp(y_true) * (y_true - y), backward -y_true / -exp(y_true). */
#ifndef TD_ALT_A_KL_H
#define TD_ALT_A_KL_H

#include "alt_a_num.h"

static inline float aa_log_lg2(float v) { return log2f(v) * AA_LN2; }

static inline float aa_lg2_approx(float v) {
    if (!(v > 0.0f) || isinf(v)) return log2f(v); /* NaN, < 0 -> NaN; 0 -> -inf; inf -> inf */
    double e = log2((double)v), bound = v > 0.5f && v < 2.0f ? 0x1p-22 : 0x1p-22 * fabs(e);
    int k = (int)(((aa_bits(v) * 2246822519u) >> 24) % 5u) - 2;
    float c = (float)(e + 0.475 * k * bound);
    return fabs((double)c - e) <= bound ? c : (float)e;
}
static inline float aa_log_lg2approx(float v) { return aa_lg2_approx(v) * AA_LN2; }

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
