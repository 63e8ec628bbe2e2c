/* Row statistics for the layer-norm and RMS-norm alternatives, each an admissible way
 * to evaluate mean, variance and 1/sqrt that differs from our ports (tl_sum trees of x
 * and of (x - mean)^2, 1.0f / sqrtf):
 *
 *   aa_welford_seq    Welford's update element by element: d = x - mean,
 *                     mean += d / k, M2 += d * (x - mean).  (Admissible: the issue
 *                     lists Welford; E[x^2] - E[x]^2 is NOT admissible and is not here.)
 *   aa_welford_chunks Welford per chunk of C elements, chunks merged left to right with
 *                     Chan et al.'s pairwise update (what welford_combine does):
 *                     delta = mb - ma, mean = ma + delta * (nb / n),
 *                     M2 = M2a + M2b + delta^2 * na * (nb / n).
 *   aa_twopass        mean = sum(x) * (1/n) then var = sum((x - mean)^2) * (1/n), both
 *                     sums left to right, the divisions as reciprocal-multiplies.
 *   aa_rsqrt_approx   a model of PTX rsqrt.approx.f32 (what tl.rsqrt / libdevice rsqrt
 *                     compile to under fast math): any binary32 value whose relative
 *                     error from 1/sqrt(v) is at most 2^-22.9 (the PTX ISA's bound), the
 *                     choice among the neighbours a fixed hash of v. */
#ifndef TD_ALT_A_NORM_H
#define TD_ALT_A_NORM_H

#include "alt_a_num.h"

static inline void aa_welford_seq(const float *x, int64_t n, float *mean, float *m2) {
    float mu = 0.0f, M2 = 0.0f;
    for (int64_t k = 0; k < n; k++) {
        float d = x[k] - mu;
        mu = mu + d / (float)(k + 1);
        M2 = M2 + d * (x[k] - mu);
    }
    *mean = mu;
    *m2 = M2;
}

static inline void aa_welford_chunks(const float *x, int64_t n, int64_t C, float *mean, float *m2) {
    float ma = 0.0f, Ma = 0.0f, na = 0.0f;
    for (int64_t lo = 0; lo < n; lo += C) {
        int64_t len = n - lo < C ? n - lo : C;
        float mb, Mb, nb = (float)len;
        aa_welford_seq(x + lo, len, &mb, &Mb);
        float nn = na + nb, delta = mb - ma, f = nb / nn;
        ma = ma + delta * f;
        Ma = Ma + Mb + delta * delta * na * f;
        na = nn;
    }
    *mean = ma;
    *m2 = Ma;
}

/* mean and the biased variance (sum of squared deviations / n) */
static inline void aa_twopass(const float *x, int64_t n, float *mean, float *var) {
    float rn = 1.0f / (float)n, s = 0.0f;
    for (int64_t k = 0; k < n; k++) s = s + x[k];
    float mu = s * rn, q = 0.0f;
    for (int64_t k = 0; k < n; k++) q = q + (x[k] - mu) * (x[k] - mu);
    *mean = mu;
    *var = q * rn;
}

static inline float aa_rsqrt_approx(float v) {
    if (!(v > 0.0f) || isinf(v)) return 1.0f / sqrtf(v); /* 0 -> inf, inf -> 0, <0 / NaN -> NaN */
    double e = 1.0 / sqrt((double)v), bound = e * exp2(-22.9);
    float r = (float)e;
    uint32_t h = aa_bits(v) * 2246822519u;
    int k = (int)((h >> 20) % 3u) - 1;
    float c = k == 0 ? r : nextafterf(r, k > 0 ? INFINITY : 0.0f);
    return fabs((double)c - e) <= bound ? c : r;
}

/* The launch of the RMS-norm tutorial kernels (rmsnorm_triton, rmsnorm_implementation):
 * parameters sxb, sxm, sxk, srw, sob, som, sok, N, BLOCK_SIZE, eps; regions x, w, out;
 * program (p0, p1) normalises row (batch p0, m p1), its N elements at stride sxk.  A
 * variant supplies the row statistic the kernel divides or multiplies by (stat: std or
 * 1/std from the row x[0..n), with `scratch` n floats of its own) and how an element is
 * scaled (apply: x, the statistic and w[k] to the value stored through out's format,
 * round to nearest even: the contract's "store" cast). */
typedef float (*aa_rms_stat)(const float *x, float *scratch, int64_t n, float eps);
typedef float (*aa_rms_apply)(float x, float stat, float w);
enum { AA_RMS_SXB, AA_RMS_SXM, AA_RMS_SXK, AA_RMS_SRW, AA_RMS_SOB, AA_RMS_SOM, AA_RMS_SOK, AA_RMS_N, AA_RMS_B,
       AA_RMS_EPS };
enum { AA_RMS_X, AA_RMS_W, AA_RMS_O };

static inline int aa_rms_rows(const td_abi_launch *L, aa_rms_stat stat, aa_rms_apply apply) {
    int64_t sxk = TL_I(L, AA_RMS_SXK), srw = TL_I(L, AA_RMS_SRW), sok = TL_I(L, AA_RMS_SOK), N = TL_I(L, AA_RMS_N);
    float eps = TL_R(L, AA_RMS_EPS), *x, *scratch;
    td_profile store = {TL_FMT(L, AA_RMS_O), TD_RNE, TD_OVF_INF, false};
    TL_ALLOC(L, x, 2 * N);
    scratch = x + N;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t xb = (int64_t)p0 * TL_I(L, AA_RMS_SXB) + (int64_t)p1 * TL_I(L, AA_RMS_SXM);
            int64_t ob = (int64_t)p0 * TL_I(L, AA_RMS_SOB) + (int64_t)p1 * TL_I(L, AA_RMS_SOM);
            for (int64_t k = 0; k < N; k++) x[k] = tl_load(L, AA_RMS_X, xb + k * sxk);
            float r = stat(x, scratch, N, eps);
            for (int64_t k = 0; k < N; k++)
                tl_store(L, AA_RMS_O, ob + k * sok, apply(x[k], r, tl_load(L, AA_RMS_W, k * srw)), store);
        }
    free(x);
    return 0;
}

#endif
