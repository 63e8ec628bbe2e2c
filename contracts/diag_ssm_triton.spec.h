/* The spec of contracts/diag_ssm_triton.c (vocabulary: contracts/spec.h; the scans:
 * oracle/lrec.h).  The forward states y_t and backward states g_t of a lane are
 * memoised per case by (step, lane); explained lanes replay every step. */
#include "lrec.h"

#ifndef DSSM_SPEC_KEYS
#define DSSM_SPEC_KEYS
static uint64_t dssm_key(const td_case *c, int tag, int64_t t, int64_t col) {
    int64_t n = c->p[P_BATCH].i * c->p[P_DIM].i;
    return ((uint64_t)tag << 56) | (uint64_t)((t + 1) * n + col);
}
/* A large case (gen_large.h, rows of time steps): x, grad_y and y read 0 at the steps
 * outside its windows, so the recurrence crosses each such gap as h <- lambda^k h
 * (dssm_gap).  Step t is a window's (every step of an ordinary case): */
static int dssm_in_win(const td_case *c, int64_t t) { return td_large_row_next(c, (uint64_t)t) == (uint64_t)t; }
/* the first step of the gap holding step t (not a window's): the end of the window before it, or 0 */
static int64_t dssm_gap_lo(const td_case *c, int64_t t) {
    int64_t lo = 0;
    for (int w = 0; w < c->nwin; w++)
        if (c->win[w].hi <= (uint64_t)t) lo = (int64_t)c->win[w].hi;
    return lo;
}
/* the step after the gap holding step t: the next window's first, at most cap */
static int64_t dssm_gap_end(const td_case *c, int64_t t, int64_t cap) {
    uint64_t r = td_large_row_next(c, (uint64_t)t);
    return r < (uint64_t)cap ? (int64_t)r : cap;
}
/* the evaluation format's unit roundoff and half its smallest subnormal (lrec.h's u and
 * eta, the shadow's); the reference pass charges nothing */
static inline void td_sh_dssm_ueta(td_shcx *cx, double *u, double *eta) { *u = cx->u, *eta = cx->eta; }
static inline void td_mp_dssm_ueta(td_mpcx *cx, double *u, double *eta) { (void)cx, *u = *eta = 0; }
#endif

/* h across k >= 1 steps whose input reads 0: h <- lambda^k h in one step of the spec.
 * A kernel takes the k steps, each at most TD_LREC_ROUNDINGS = 3 relative perturbations
 * of size u (oracle/lrec.h's count for the sequential, FMA and chunked forms; b = 0 adds
 * nothing) and, where a product underflows, an absolute eta (3 + max M) (lrec.h: the
 * chunk's running product of decays times the carried state included).  With M >=
 * |kernel h| on entry and g = (1 + u)^(3k) - 1 (the perturbations compounded, not to
 * first order: 3ku reaches 6 at k = 2^25):
 *   |kernel h_k - lambda^k h| <= |lambda|^k ek_h + g |lambda|^k M + k eta (3 + max M) (1 + g),
 * the first term propagated by the multiplication by lambda^k (computed by squaring: its
 * roundings charged on top, more than the kernel makes), the rest by N(widen); the
 * magnitude state becomes (1 + g) |lambda|^k M + that underflow term.  |lambda| = 1
 * exactly: every product of the kernel is exact (h or -h at each step), nothing charged. */
static NUM SPEC(dssm_gap)(NCX *cx, NUM h, NUM lam, double lamv, int64_t k, double mag[2]) {
    if (fabs(lamv) == 1) return lamv < 0 && (k & 1) ? N(neg)(cx, h) : h;
    NUM P = N(exact)(cx, 1.0), sq = lam;
    for (int64_t e = k; e; e >>= 1) {
        if (e & 1) P = N(mul)(cx, P, sq);
        if (e > 1) sq = N(mul)(cx, sq, sq);
    }
    double u, eta;
    N(dssm_ueta)(cx, &u, &eta);
    double g = expm1(3.0 * (double)k * log1p(u)) * (1 + 0x1p-40), lk = pow(fabs(lamv), (double)k) * (1 + 0x1p-40);
    double under = (double)k * eta * (3 + mag[1]) * (1 + g);
    h = N(widen)(cx, N(mul)(cx, h, P), g * lk * mag[0] + under,
                 "k zero-input steps (a large case's gap): ((1+u)^3k - 1) |lambda|^k M + k eta (3 + max M) (1+u)^3k");
    mag[0] = (1 + g) * lk * mag[0] + under;
    mag[1] = fmax(mag[1], mag[0]);
    return h;
}

/* y_m = lambda y_{m-1} + x_m, y_{-1} = s (m = -1 .. length-1); regions by the caller */
static NUM SPEC(dssm_y)(NCX *cx, const td_case *c, int rs, int rl, int rx, int64_t col, int64_t m) {
    int64_t n = c->p[P_BATCH].i * c->p[P_DIM].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    /* (the memo holds window steps only: a gap is passed over whole) */
    while (s >= 0 && !(dssm_in_win(c, s) && N(lrec_memo_get)(cx, dssm_key(c, 1, s, col), &h, mag)))
        s = dssm_in_win(c, s) ? s - 1 : dssm_gap_lo(c, s) - 1;
    if (s < 0) {
        h = N(in)(cx, c, rs, (size_t)col);
        N(lrec_init)(cx, h, mag);
    }
    size_t li = (size_t)(col % c->p[P_DIM].i);
    NUM lam = N(in)(cx, c, rl, li);
    for (int64_t t = s + 1; t <= m;) {
        if (!dssm_in_win(c, t)) { /* zero inputs up to the next window (or m) */
            int64_t e = dssm_gap_end(c, t, m + 1);
            h = SPEC(dssm_gap)(cx, h, lam, td_get(c, rl, li), e - t, mag);
            t = e;
            continue;
        }
        h = N(lrec_step)(cx, h, lam, N(in)(cx, c, rx, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 1, t, col), h, mag);
        t++;
    }
    return h;
}

static NUM SPEC(dssm_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(dssm_y)(cx, c, R_S, R_LAMBDA, R_X, l->idx[0], l->idx[1]);
}

/* g_t = grad_y[t] + lambda g_{t+1}, g_length = 0 */
static NUM SPEC(dssm_g)(NCX *cx, const td_case *c, int64_t col, int64_t t0) {
    int64_t T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i, s = t0;
    NUM h;
    double mag[2] = {0, 0};
    while (s < T && !(dssm_in_win(c, s) && N(lrec_memo_get)(cx, dssm_key(c, 2, s, col), &h, mag)))
        s = dssm_in_win(c, s) ? s + 1 : dssm_gap_end(c, s, T);
    if (s == T) {
        h = N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    size_t li = (size_t)(col % c->p[P_DIM].i);
    NUM lam = N(in)(cx, c, RB_LAMBDA, li);
    for (int64_t t = s - 1; t >= t0;) {
        if (!dssm_in_win(c, t)) { /* zero grad_y down to the window before (or t0) */
            int64_t lo = dssm_gap_lo(c, t) > t0 ? dssm_gap_lo(c, t) : t0;
            h = SPEC(dssm_gap)(cx, h, lam, td_get(c, RB_LAMBDA, li), t - lo + 1, mag);
            t = lo - 1;
            continue;
        }
        h = N(lrec_step)(cx, h, lam, N(in)(cx, c, RB_GY, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 2, t, col), h, mag);
        t--;
    }
    return h;
}

static NUM SPEC(dssm_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t col = l->idx[0], T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i;
    if (l->o == 0) return SPEC(dssm_g)(cx, c, col, l->idx[1]);
    if (l->o == 1) return N(mul)(cx, SPEC(dssm_g)(cx, c, col, 0), N(in)(cx, c, RB_LAMBDA, (size_t)(col % c->p[P_DIM].i)));
    NACC acc; /* grad_lambda = sum_t g_t * y[t-1], y[-1] = s */
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t t = T - 1; t >= 0; t--) {
        if (t > 0 && !dssm_in_win(c, t - 1)) { /* y[t-1] reads 0: the term is an exact 0 (no rounding) */
            t = dssm_gap_lo(c, t - 1) + 1;
            continue;
        }
        NUM prev = t > 0 ? N(in)(cx, c, RB_Y, (size_t)((t - 1) * n + col)) : N(in)(cx, c, RB_S, (size_t)col);
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(dssm_g)(cx, c, col, t), prev));
    }
    return N(acc_end)(cx, &acc);
}

/* ---- the intent: a diagonal linear SSM (S4D / LRU's real diagonal recurrence with
 * identity readout, y_t = h_t), h_t = lambda (.) h_{t-1} + x_t, h_{-1} = s, and the
 * gradient of sum_t <grad_y_t, y_t> by reverse-mode (autograd) through it.  Written
 * from the definition with memo keys of its own (tags 3, 4; the contract's are 1, 2). */
static NUM SPEC(dssm_intent_h)(NCX *cx, const td_case *c, int64_t col, int64_t m) {
    int64_t n = c->p[P_BATCH].i * c->p[P_DIM].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s >= 0 && !(dssm_in_win(c, s) && N(lrec_memo_get)(cx, dssm_key(c, 3, s, col), &h, mag)))
        s = dssm_in_win(c, s) ? s - 1 : dssm_gap_lo(c, s) - 1;
    if (s < 0) { /* h_{-1} = s */
        h = N(in)(cx, c, R_S, (size_t)col);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s + 1; t <= m;) {
        size_t li = (size_t)(col % c->p[P_DIM].i);
        NUM lam = N(in)(cx, c, R_LAMBDA, li); /* lambda broadcast over the batch */
        if (!dssm_in_win(c, t)) { /* a large case's x reads 0 up to its next window */
            int64_t e = dssm_gap_end(c, t, m + 1);
            h = SPEC(dssm_gap)(cx, h, lam, td_get(c, R_LAMBDA, li), e - t, mag);
            t = e;
            continue;
        }
        h = N(lrec_step)(cx, h, lam, N(in)(cx, c, R_X, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 3, t, col), h, mag);
        t++;
    }
    return h;
}
static NUM SPEC(dssm_intent_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(dssm_intent_h)(cx, c, l->idx[0], l->idx[1]);
}
/* dL/dh_t = grad_y_t + lambda dL/dh_{t+1} (h_t feeds y_t and h_{t+1}); dL/dh_length = 0 */
static NUM SPEC(dssm_intent_adj)(NCX *cx, const td_case *c, int64_t col, int64_t t0) {
    int64_t T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i, s = t0;
    NUM a;
    double mag[2] = {0, 0};
    while (s < T && !(dssm_in_win(c, s) && N(lrec_memo_get)(cx, dssm_key(c, 4, s, col), &a, mag)))
        s = dssm_in_win(c, s) ? s + 1 : dssm_gap_end(c, s, T);
    if (s == T) {
        a = N(exact)(cx, 0.0);
        N(lrec_init)(cx, a, mag);
    }
    for (int64_t t = s - 1; t >= t0;) {
        size_t li = (size_t)(col % c->p[P_DIM].i);
        NUM lam = N(in)(cx, c, RB_LAMBDA, li);
        if (!dssm_in_win(c, t)) { /* a large case's grad_y reads 0 down to its window before */
            int64_t lo = dssm_gap_lo(c, t) > t0 ? dssm_gap_lo(c, t) : t0;
            a = SPEC(dssm_gap)(cx, a, lam, td_get(c, RB_LAMBDA, li), t - lo + 1, mag);
            t = lo - 1;
            continue;
        }
        a = N(lrec_step)(cx, a, lam, N(in)(cx, c, RB_GY, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 4, t, col), a, mag);
        t--;
    }
    return a;
}
/* grad_x_t = dL/dh_t; grad_s = dL/dh_{-1} = lambda dL/dh_0; the gradient of lambda's
 * element for this (batch, dim) lane: sum_t dL/dh_t h_{t-1}, h the saved forward output y
 * (y_{-1} = s); autograd sums it over the batch (partial when batch_size > 1). */
static NUM SPEC(dssm_intent_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t col = l->idx[0], T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i;
    if (l->o == 0) return SPEC(dssm_intent_adj)(cx, c, col, l->idx[1]);
    NUM lam = N(in)(cx, c, RB_LAMBDA, (size_t)(col % c->p[P_DIM].i));
    if (l->o == 1) return N(mul)(cx, lam, SPEC(dssm_intent_adj)(cx, c, col, 0));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = 0; t < T; t++) {
        if (t > 0 && !dssm_in_win(c, t - 1)) { /* y[t-1] reads 0 (a large case): exact 0 terms */
            t = dssm_gap_end(c, t - 1, T);
            continue;
        }
        NUM prev = t == 0 ? N(in)(cx, c, RB_S, (size_t)col) : N(in)(cx, c, RB_Y, (size_t)((t - 1) * n + col));
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(dssm_intent_adj)(cx, c, col, t), prev));
    }
    return N(acc_end)(cx, &acc);
}
