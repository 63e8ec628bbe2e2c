/* The spec of contracts/fused_recurrent_hgrn.c (vocabulary: contracts/spec.h; the
 * scans: oracle/lrec.h).  The states h_t[d] (t = 0..T) and dx_t[d] (t = T-1..0) of a
 * head are memoised per case by (head, step, d); while a lane is explained the memo
 * is off and every step of its chain is traced. */
#include "lrec.h"

#ifndef HGRN_SPEC_KEYS
#define HGRN_SPEC_KEYS
static uint64_t hgrn_key(const td_case *c, int tag, int64_t bh, int64_t t, int64_t d) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i;
    return ((uint64_t)tag << 56) | (uint64_t)((bh * (T + 1) + t) * D + d);
}
#endif

/* h_m[d] = g_{m-1} h_{m-1} + x_{m-1}, h_0 = h0 or 0 (hgrnStateClosed(m)) */
static NUM SPEC(hgrn_h)(NCX *cx, const td_case *c, int64_t bh, int64_t d, int64_t m) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s > 0 && !N(lrec_memo_get)(cx, hgrn_key(c, 1, bh, s, d), &h, mag)) s--;
    if (s == 0) {
        h = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * D + d)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s; t < m; t++) {
        size_t o = (size_t)((bh * T + t) * D + d);
        h = N(lrec_step)(cx, h, N(in)(cx, c, R_G, o), N(in)(cx, c, R_X, o), mag);
        N(lrec_memo_put)(cx, hgrn_key(c, 1, bh, t + 1, d), h, mag);
    }
    return h;
}

/* dx_t[d] = do_t + g_{t+1} dx_{t+1}, dx_{T-1} = do_{T-1} (hgrnBwdDx(t)) */
static NUM SPEC(hgrn_dx)(NCX *cx, const td_case *c, int64_t bh, int64_t d, int64_t t0) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i, s = t0;
    NUM h;
    double mag[2] = {0, 0};
    while (s < T && !N(lrec_memo_get)(cx, hgrn_key(c, 2, bh, s, d), &h, mag)) s++;
    if (s == T) {
        h = N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s - 1; t >= t0; t--) {
        size_t o = (size_t)((bh * T + t) * D + d);
        /* the decay of step t + 1 (b_dh *= b_g after step t + 1's store); none at T - 1 */
        NUM g = t + 1 < T ? N(in)(cx, c, R_G, o + (size_t)D) : N(exact)(cx, 0.0);
        h = N(lrec_step)(cx, h, g, N(in)(cx, c, R_DO, o), mag);
        N(lrec_memo_put)(cx, hgrn_key(c, 2, bh, t, d), h, mag);
    }
    return h;
}

static NUM SPEC(hgrn_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], d = l->idx[1], t = l->idx[2];
    switch (l->o) {
    case O_O: return SPEC(hgrn_h)(cx, c, bh, d, t + 1);
    case O_HT: return SPEC(hgrn_h)(cx, c, bh, d, t);
    case O_DX: return SPEC(hgrn_dx)(cx, c, bh, d, t);
    default: return N(mul)(cx, SPEC(hgrn_dx)(cx, c, bh, d, t), SPEC(hgrn_h)(cx, c, bh, d, t)); /* DG: dx_t * b_o */
    }
}

static NUM SPEC(hgrn_dx_step)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(add)(cx, N(in)(cx, c, RD_DHPREV, l->off), N(in)(cx, c, RD_DO, l->off));
}

/* ---- the intent: HGRN's recurrence as flash-linear-attention's reference defines the
 * operator fused_recurrent_hgrn(x, g) (naive_recurrent_hgrn): g is the LOG forget gate,
 * h_t = exp(g_t) h_{t-1} + x_t, o_t = h_t, h_{-1} = h0 or 0 (HGRN, Qin et al. 2023,
 * h_t = lambda_t h_{t-1} + (1 - lambda_t) c_t, with lambda_t = exp(g_t) and x_t the gated
 * input); the backward is the gradient of sum_t <do_t, o_t> by reverse mode.  Memo tags
 * 3 and 4 (the contract's are 1 and 2). */
static NUM SPEC(hgrn_intent_h)(NCX *cx, const td_case *c, int64_t bh, int64_t d, int64_t m) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i, s = m; /* m states applied: h after step m - 1 */
    NUM h;
    double mag[2] = {0, 0};
    while (s > 0 && !N(lrec_memo_get)(cx, hgrn_key(c, 3, bh, s, d), &h, mag)) s--;
    if (s == 0) {
        h = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * D + d)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s; t < m; t++) {
        size_t o = (size_t)((bh * T + t) * D + d);
        h = N(lrec_step)(cx, h, N(exp)(cx, N(in)(cx, c, R_G, o)), N(in)(cx, c, R_X, o), mag);
        N(lrec_memo_put)(cx, hgrn_key(c, 3, bh, t + 1, d), h, mag);
    }
    return h;
}
/* dL/dh_t = do_t + exp(g_{t+1}) dL/dh_{t+1}, dL/dh_{T-1} = do_{T-1} */
static NUM SPEC(hgrn_intent_adj)(NCX *cx, const td_case *c, int64_t bh, int64_t d, int64_t t0) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i, s = t0;
    NUM a;
    double mag[2] = {0, 0};
    while (s < T && !N(lrec_memo_get)(cx, hgrn_key(c, 4, bh, s, d), &a, mag)) s++;
    if (s == T) {
        a = N(exact)(cx, 0.0);
        N(lrec_init)(cx, a, mag);
    }
    for (int64_t t = s - 1; t >= t0; t--) {
        size_t o = (size_t)((bh * T + t) * D + d);
        NUM gate = t + 1 < T ? N(exp)(cx, N(in)(cx, c, R_G, o + (size_t)D)) : N(exact)(cx, 0.0);
        a = N(lrec_step)(cx, a, gate, N(in)(cx, c, R_DO, o), mag);
        N(lrec_memo_put)(cx, hgrn_key(c, 4, bh, t, d), a, mag);
    }
    return a;
}
/* O[t] = h_t, Ht = h_{T-1}; dx_t = dL/dh_t; dg_t = dL/dh_t * exp(g_t) * h_{t-1} */
static NUM SPEC(hgrn_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], d = l->idx[1], t = l->idx[2], T = c->p[P_T].i, D = c->p[P_D].i;
    switch (l->o) {
    case O_O: return SPEC(hgrn_intent_h)(cx, c, bh, d, t + 1);
    case O_HT: return SPEC(hgrn_intent_h)(cx, c, bh, d, t);
    case O_DX: return SPEC(hgrn_intent_adj)(cx, c, bh, d, t);
    default: {
        NUM eg = N(exp)(cx, N(in)(cx, c, R_G, (size_t)((bh * T + t) * D + d)));
        return N(mul)(cx, N(mul)(cx, SPEC(hgrn_intent_adj)(cx, c, bh, d, t), eg), SPEC(hgrn_intent_h)(cx, c, bh, d, t));
    }
    }
}
