/* The error bound of a linear recurrence h_t = a_t * h_{t-1} + b_t, step by step.
 *
 * Why a function of its own: the ordinary ops (td_sh_mul then td_sh_add, or
 * td_sh_fma) already give a sound bound for the SEQUENTIAL scan -- each step
 * propagates |a| ek_h + |h| ek_a + ek_b and adds u |a h| (+ u |a h + b|) -- but they
 * charge each rounding relative to the current value |h_t|, and an admissible kernel
 * need not evaluate the scan sequentially: a chunked form (the state carried between
 * chunks, each chunk's decays as a running product A = a_{c+1} ... a_t, h_t = A h_c +
 * the chunk's own scan from 0) rounds partial sums whose magnitudes are not |h_t| but
 * up to the sum of the magnitudes of the decayed terms.  td_sh_lrec_step charges every
 * step relative to the MAGNITUDE STATE
 *     M_t = |a_t| M_{t-1} + |b_t|    (kernel magnitudes: value + es + ek),
 * M_t >= sum_s |a_{s+1} ... a_t| |b_s| + |a_1 ... a_t| |h_0|, and so covers every
 * evaluation in which each term b_s (and h_0) reaches h_t through at most
 * TD_LREC_ROUNDINGS relative perturbations of size u per step it spans (first order;
 * the decays' own errors ek_a are propagated exactly as in a product):
 *   - the sequential scan, a*h then + b: 2 roundings per step;
 *   - the same with an FMA: 1;
 *   - the chunked scan with the state carried between chunks, any chunk size C:
 *     a term inside its own chunk goes through that chunk's scan (2 per step); the
 *     carried state h_c through the running product of the chunk's decays (n - 1
 *     roundings over n steps), one multiplication and one addition: n + 1 <= 2n for
 *     n >= 1; whole chunks passed: C + 1 <= 2C;
 *   - decays computed by exp(g) or exp2(g log2 e): their error is the spec's (the
 *     math model's budget, in ek_a), propagated here.
 * TD_LREC_ROUNDINGS = 3 keeps one rounding per step of margin over these counts (a
 * chunked form that also rescales its chunk-local sums once per step).  A kernel
 * outside these forms (e.g. an any-order tree over all T terms of the closed form)
 * is not covered: the contract says so in its error model.
 *
 * Tightness: the charge per step is 3u M_t, so over T steps of a state of steady
 * magnitude the bound is about 3 T u M relative to M: a state reset, a decay applied
 * twice, an fp16 state (2^-11 per step) or a missing rescale moves the value by far
 * more (tests/test_lrec.c measures both sides).
 *
 * The reference (td_mp_lrec_step) is the exact a h + b; the magnitude state is the
 * shadow's alone (the MPFR pass leaves it untouched). */
#ifndef TD_LREC_H
#define TD_LREC_H

#include "mp.h"
#include "shadow.h"
#include "nocov.h"

TD_NOCOV_BEGIN

#define TD_LREC_ROUNDINGS 3

/* The magnitude state of an initial value h0: mag[0] = M_0 >= |kernel h0|, |exact h0|;
 * mag[1] = the largest M so far (see the underflow term of td_sh_lrec_step). */
static inline void td_sh_lrec_init(td_shcx *cx, td_sh h0, double mag[2]) { mag[0] = mag[1] = td_sh_hi(cx, h0) + h0.es; }
static inline void td_mp_lrec_init(td_mpcx *cx, td_mp h0, double mag[2]) {
    (void)cx;
    (void)h0;
    mag[0] = mag[1] = 0;
}
/* h' = a h + b; mag holds (M_{t-1}, max M) on entry and (M_t, max M) on return.
 * Traced as "lrec step" (propagated |a| ek_h + |h| ek_a + ek_b, local 3u M_t + the
 * underflow term), so `explain` shows every step's terms.
 * Underflow: a product that underflows costs an absolute eta (half the smallest
 * subnormal) instead of a relative u.  The sequential scan rounds one product per
 * step; the chunked form also rounds the running product A of the decays, whose
 * absolute error (eta per step, decayed like the state) is multiplied by the carried
 * state |h_c| <= max M, and its fma's: eta (3 + max M) per step covers both. */
td_sh td_sh_lrec_step(td_shcx *cx, td_sh h, td_sh a, td_sh b, double mag[2]);
static inline td_mp td_mp_lrec_step(td_mpcx *cx, td_mp h, td_mp a, td_mp b, double mag[2]) {
    (void)mag;
    return td_mp_fma(cx, a, h, b);
}

/* A per-case memo of a recurrence's states (td_sh_memo_get / td_mp_memo_get) that keeps
 * the magnitude state with the shadow's value (under key ^ 2^63) */
static inline int td_sh_lrec_memo_get(td_shcx *cx, uint64_t key, td_sh *h, double mag[2]) {
    td_sh m0, m1;
    if (!td_sh_memo_get(cx, key, h) || !td_sh_memo_get(cx, key ^ (1ull << 63), &m0) ||
        !td_sh_memo_get(cx, key ^ (1ull << 62), &m1))
        return 0;
    mag[0] = m0.v, mag[1] = m1.v;
    return 1;
}
static inline void td_sh_lrec_memo_put(td_shcx *cx, uint64_t key, td_sh h, const double mag[2]) {
    td_sh_memo_put(cx, key, h);
    td_sh_memo_put(cx, key ^ (1ull << 63), td_sh_exact(cx, mag[0]));
    td_sh_memo_put(cx, key ^ (1ull << 62), td_sh_exact(cx, mag[1]));
}
static inline int td_mp_lrec_memo_get(td_mpcx *cx, uint64_t key, td_mp *h, double mag[2]) {
    (void)mag;
    return td_mp_memo_get(cx, key, h);
}
static inline void td_mp_lrec_memo_put(td_mpcx *cx, uint64_t key, td_mp h, const double mag[2]) {
    (void)mag;
    td_mp_memo_put(cx, key, h);
}

/* The widening for a kernel that sums the terms of a chunk of up to n steps in ANY
 * order (tl.dot over the chunk, a tree over its decayed terms; chunk_retention's
 * h = d_b h + k^T (v * d_i)).  Such a chunk takes a term b_s to the chunk's end through
 * its product with the decay power (1 rounding), the chunk's dot product (any order:
 * up to C - 1 additions, Higham ASNA sec. 4.2) and the addition to the carried, decayed
 * state (1): C + 1 relative perturbations where td_sh_lrec_step's per-step charge gives
 * the term TD_LREC_ROUNDINGS = 3 at its own step (the carried state's 2 per later chunk
 * stay within the 3 per later step).  The shortfall, C + 1 - 3 <= n - 2 with C <= n the
 * steps so far, is charged on the magnitude state mag[0] = M >= sum_s |decayed b_s|:
 * (n - 2)^+ u (1 + u) M.  The decay powers' own errors (exp2(n log2 g) or repeated
 * products) are the spec's per-step decay errors, propagated by td_sh_lrec_step.
 * The reference is h (td_mp_lrec_any). */
td_sh td_sh_lrec_any(td_shcx *cx, td_sh h, const double mag[2], int64_t n);
static inline td_mp td_mp_lrec_any(td_mpcx *cx, td_mp h, const double mag[2], int64_t n) {
    (void)cx, (void)mag, (void)n;
    return h;
}

TD_NOCOV_END
#endif
