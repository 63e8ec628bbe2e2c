/* Numerical building blocks of the alternative kernels of the softmax, cross-entropy,
 * KL-divergence, attention and normalisation families (kernels/alternatives/).
 *
 * An alternative is a CORRECT kernel written differently from our port, the way real
 * kernels differ: its evaluation order, its exp, its division.  Each building block
 * here is one such admissible choice, all in binary32 (the project compiles kernels
 * with -ffp-contract=off, so an expression rounds as written; fmaf is an explicit FMA):
 *
 *   aa_exp_tl        exp(x) as exp2(x * log2 e), the product rounded to binary32: how
 *                    Triton lowers tl.exp (a binary32 multiply, then exp2).  Host exp2f.
 *   aa_ex2_approx    a model of PTX ex2.approx.f32, the instruction that exp2 becomes in
 *                    compiled Triton: a binary32 value up to 2 ulps from the exact 2^t (so
 *                    inside the PTX ISA's "2 ulp from the correctly rounded result", and
 *                    the CUDA guide's exp2f bound under --use_fast_math; __expf's
 *                    2 + floor(1.16|x|) ulps is that plus the multiply by log2 e).  The
 *                    neighbour is a fixed hash of t's bits (about 20% of results land 2 ulps
 *                    from RN(2^t), 60% 1 ulp), so a case replays; subnormals are kept (the
 *                    non-.ftz form).
 *   aa_exp_approx    aa_ex2_approx(x * log2 e): the whole of compiled tl.exp / __expf.
 *   aa_sum_seq       a left-to-right sum (one thread walking the row: what a CUDA C loop
 *                    or a Triton program whose threads own many elements does).
 *   aa_sum_split     the row cut into `parts` contiguous pieces, each summed left to
 *                    right, the partial sums combined last-to-first (split-row / split-K
 *                    with another combine order).
 *   aa_sum_pairs     a tree over consecutive pairs (stride-1 butterfly) - another tree
 *                    shape than tl_sum's halving one.
 */
#ifndef TD_ALT_A_NUM_H
#define TD_ALT_A_NUM_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tl.h"

/* log2(e) rounded to binary32 (0x3FB8AA3B), the constant Triton multiplies by. */
#define AA_LOG2E 1.44269502162933349609375f
/* ln(2) rounded to binary32 (0x3F317218), for log(x) = log2(x) * ln 2. */
#define AA_LN2 0.693147182464599609375f

static inline uint32_t aa_bits(float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

/* exp as Triton lowers tl.exp: t = x * log2e rounded to binary32, then 2^t. */
static inline float aa_exp_tl(float x) {
    float t = x * AA_LOG2E;
    return exp2f(t);
}

/* A model of ex2.approx.f32: returns a binary32 value within 2 ulps of 2^t (ulp of
 * the exact result; 2^-149 below the normal range).  The exact value is taken in
 * binary64 (2^t for binary32 t is exact-enough there: exp2 of double is within 1 ulp of
 * binary64, 2^-29 of a binary32 ulp); the offset k in -2..2 comes from a hash of t so
 * the kernel is deterministic; k is shrunk until the result is within 2 ulps. */
static inline float aa_ex2_approx(float t) {
    if (isnan(t)) return t;
    if (t == -INFINITY) return 0.0f;
    if (t == INFINITY) return INFINITY;
    double e = exp2((double)t);
    float r = (float)e;
    if (isinf(r) || r == 0.0f) return r; /* beyond the range: the instruction saturates the same way */
    uint32_t h = aa_bits(t) * 2654435761u;
    int k = (int)((h >> 16) % 5u) - 2;
    int ex;
    frexp(e, &ex);
    double ulp = ldexp(1.0, (ex - 24) < -149 ? -149 : ex - 24);
    for (; k != 0; k += k > 0 ? -1 : 1) {
        float c = r;
        for (int i = 0; i < (k > 0 ? k : -k); i++) c = nextafterf(c, k > 0 ? INFINITY : 0.0f);
        if (fabs((double)c - e) <= 2.0 * ulp && isfinite(c)) return c;
    }
    return r;
}

/* Compiled tl.exp on NVIDIA: the binary32 multiply by log2 e, then ex2.approx.f32. */
static inline float aa_exp_approx(float x) { return aa_ex2_approx(x * AA_LOG2E); }

static inline float aa_sum_seq(const float *x, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; i++) s = s + x[i];
    return s;
}

static inline float aa_sum_split(const float *x, int64_t n, int64_t parts) {
    if (parts < 1) parts = 1;
    int64_t len = (n + parts - 1) / parts;
    float tot = 0.0f;
    for (int64_t p = parts - 1; p >= 0; p--) {
        int64_t lo = p * len, hi = lo + len < n ? lo + len : n;
        if (lo >= n) continue;
        tot = tot + aa_sum_seq(x + lo, hi - lo);
    }
    return tot;
}

/* Pairwise over neighbours: level by level, x[2i] + x[2i+1], an odd tail carried up.
 * Works in the scratch array w (n floats). */
static inline float aa_sum_pairs(const float *x, int64_t n, float *w) {
    if (n <= 0) return 0.0f;
    memcpy(w, x, (size_t)n * sizeof *w);
    while (n > 1) {
        int64_t h = 0;
        for (int64_t i = 0; i + 1 < n; i += 2) w[h++] = w[i] + w[i + 1];
        if (n & 1) w[h++] = w[n - 1];
        n = h;
    }
    return w[0];
}

/* The binary16 value nearest a binary32 one (RNE, IEEE overflow). */
static inline float aa_f16(float x) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, x));
}

#endif
