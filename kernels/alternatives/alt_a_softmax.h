/* Row softmax written three other ways than our ports' tile softmax (tl_max, expf,
 * tl_sum's halving tree, one division), for the alternatives of the softmax,
 * cross-entropy and attention families.  All of them compute the spec
 * exp(x_i - max) / sum_j exp(x_j - max) over the n active elements of a row:
 *
 *   aa_sm_twopass   pass 1 the max, pass 2 e_j = exp(x_j - m) and their sum in a
 *                   chosen order, then out = e_j / s or e_j * (1/s).
 *   aa_sm_online    one pass over chunks of C elements keeping a running max m and a
 *                   running sum s rescaled by exp(m_old - m_new) whenever the max grows
 *                   (the "online softmax" of Milakov & Gimelshein, as FlashAttention and
 *                   FlagGems' online kernels do); then out = exp(x_j - m) / s.
 * The exp is a parameter: expf (libm), aa_exp_tl (exp2 of the rounded product) or
 * aa_exp_approx (ex2.approx model). */
#ifndef TD_ALT_A_SOFTMAX_H
#define TD_ALT_A_SOFTMAX_H

#include "alt_a_num.h"

typedef float (*aa_expfn)(float);
typedef enum { AA_SUM_SEQ, AA_SUM_TREE, AA_SUM_PAIRS, AA_SUM_SPLIT4 } aa_sumord;
typedef enum { AA_DIV, AA_RCP } aa_divkind;

static inline float aa_max_seq(const float *x, int64_t n) {
    float m = -INFINITY;
    for (int64_t i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    return m;
}

/* Sum of x[0..n) in the chosen order; w is scratch of n floats. */
static inline float aa_sum(const float *x, int64_t n, aa_sumord o, float *w) {
    switch (o) {
    case AA_SUM_SEQ: return aa_sum_seq(x, n);
    case AA_SUM_TREE: return tl_sum(x, n);
    case AA_SUM_PAIRS: return aa_sum_pairs(x, n, w);
    case AA_SUM_SPLIT4: return aa_sum_split(x, n, 4);
    }
    return NAN;
}

static inline float aa_quot(float e, float s, aa_divkind d) { return d == AA_DIV ? e / s : e * (1.0f / s); }

/* In place over x[0..n): x = softmax(x).  w: scratch of n floats. */
static inline void aa_sm_twopass(float *x, int64_t n, aa_expfn ex, aa_sumord o, aa_divkind d, float *w) {
    if (n <= 0) return;
    float m = aa_max_seq(x, n);
    for (int64_t j = 0; j < n; j++) x[j] = ex(x[j] - m);
    float s = aa_sum(x, n, o, w);
    for (int64_t j = 0; j < n; j++) x[j] = aa_quot(x[j], s, d);
}

/* The running (max, sum) after one pass in chunks of C, each chunk's exps summed left to
 * right and added to the rescaled running sum. */
static inline void aa_online_ms(const float *x, int64_t n, int64_t C, aa_expfn ex, float *pm, float *ps) {
    float m = -INFINITY, s = 0.0f;
    for (int64_t lo = 0; lo < n; lo += C) {
        int64_t hi = lo + C < n ? lo + C : n;
        float cm = aa_max_seq(x + lo, hi - lo);
        float mn = cm > m ? cm : m;
        if (mn == -INFINITY) continue; /* nothing but -inf so far: nothing to add */
        float part = 0.0f;
        for (int64_t j = lo; j < hi; j++) part = part + ex(x[j] - mn);
        s = (m == mn ? s : s * ex(m - mn)) + part;
        m = mn;
    }
    *pm = m;
    *ps = s;
}

static inline void aa_sm_online(float *x, int64_t n, int64_t C, aa_expfn ex, aa_divkind d) {
    if (n <= 0) return;
    float m, s;
    aa_online_ms(x, n, C, ex, &m, &s);
    for (int64_t j = 0; j < n; j++) x[j] = aa_quot(ex(x[j] - m), s, d);
}

#endif
