/* The spec of contracts/fused_recurrent_retention.c (vocabulary: contracts/spec.h; the
 * recurrence steps: oracle/lrec.h).  The states h_t[k, v] (forward, t = 0..T) and
 * dh_t[k, v] (backward, t = T..0) of a head are memoised per case by (head, step, k,
 * v), so a sequence of T steps costs O(T) per state, not per lane; while a lane is
 * explained the memo is off and every step of its chain is traced. */
#include "lrec.h"

#ifndef FRR_SPEC_KEYS
#define FRR_SPEC_KEYS
enum { FRR_TAG_H = 1, FRR_TAG_DH = 2 };
static uint64_t frr_key(const td_case *c, int tag, int64_t bh, int64_t t, int64_t k, int64_t v) {
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i;
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * (T + 1) + t) * DK + k) * DV + v);
}
#endif

/* b_b = 1 - exp2(-5 - i_h * 1.0): the exponent is an exact small integer */
static NUM SPEC(frr_decay)(NCX *cx, const td_case *c, int64_t bh) {
    int64_t ih = bh % c->p[P_H].i;
    return N(sub)(cx, N(exact)(cx, 1.0), N(exp2)(cx, N(exact)(cx, (double)(-5 - ih))));
}

/* h_m[k, v] = b h_{m-1} + k_{m-1}[k] v_{m-1}[v], h_0 = initial_state or 0 */
static NUM SPEC(frr_h)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t m) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s > 0 && !N(lrec_memo_get)(cx, frr_key(c, FRR_TAG_H, bh, s, k, v), &h, mag)) s--;
    if (s == 0) {
        h = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * DK * DV + k * DV + v)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    NUM b = SPEC(frr_decay)(cx, c, bh);
    for (int64_t t = s; t < m; t++) {
        NUM kv = N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * sqk + k + t * DK)),
                        N(in)(cx, c, R_V, (size_t)(bh * svo + v + t * DV)));
        h = N(lrec_step)(cx, h, b, kv, mag);
        N(lrec_memo_put)(cx, frr_key(c, FRR_TAG_H, bh, t + 1, k, v), h, mag);
    }
    return h;
}

/* dh_t[k, v] = (q_t[k] scale) do_t[v] + b dh_{t+1}, dh_T = 0 (dStateClosed(t)) */
static NUM SPEC(frr_dh)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t t0) {
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, s = t0;
    NUM h;
    double mag[2] = {0, 0};
    while (s < T && !N(lrec_memo_get)(cx, frr_key(c, FRR_TAG_DH, bh, s, k, v), &h, mag)) s++;
    if (s == T) {
        h = N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    NUM b = SPEC(frr_decay)(cx, c, bh), scale = N(exact)(cx, c->p[P_SCALE].r);
    for (int64_t t = s - 1; t >= t0; t--) {
        NUM qs = N(mul)(cx, N(in)(cx, c, R_Q, (size_t)(bh * sqk + k + t * DK)), scale);
        NUM qd = N(mul)(cx, qs, N(in)(cx, c, R_DO, (size_t)(bh * svo + v + t * DV)));
        h = N(lrec_step)(cx, h, b, qd, mag);
        N(lrec_memo_put)(cx, frr_key(c, FRR_TAG_DH, bh, t, k, v), h, mag);
    }
    return h;
}

/* sum over the tile's active k (or v) lanes of state * x, any order */
static NUM SPEC(frr_o)(NCX *cx, const td_case *c, const td_olane *l, int over_k) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    int64_t sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, bh = l->pid[2], t = l->t, fixed = l->idx[2];
    NUM scale = N(exact)(cx, c->p[P_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    int64_t n = over_k ? BK : BV, lo = over_k ? (int64_t)l->pid[1] * BK : (int64_t)l->pid[0] * BV;
    for (int64_t j = 0; j < n; j++) {
        int64_t x = lo + j;
        if (x >= (over_k ? DK : DV)) continue; /* masked: h and the load are 0 */
        int64_t k = over_k ? x : fixed, v = over_k ? fixed : x;
        NUM term;
        switch (l->o) {
        case O_O: /* h_{t+1}[k, v] * (q_t[k] * scale) */
            term = N(mul)(cx, SPEC(frr_h)(cx, c, bh, k, v, t + 1),
                          N(mul)(cx, N(in)(cx, c, R_Q, (size_t)(bh * sqk + k + t * DK)), scale));
            break;
        case O_DQ: /* h_{t+1}[k, v] * do_t[v] */
            term = N(mul)(cx, SPEC(frr_h)(cx, c, bh, k, v, t + 1), N(in)(cx, c, R_DO, (size_t)(bh * svo + v + t * DV)));
            break;
        case O_DK: /* dh_t[k, v] * v_t[v] */
            term = N(mul)(cx, SPEC(frr_dh)(cx, c, bh, k, v, t), N(in)(cx, c, R_V, (size_t)(bh * svo + v + t * DV)));
            break;
        default: /* O_DV: dh_t[k, v] * k_t[k] */
            term = N(mul)(cx, SPEC(frr_dh)(cx, c, bh, k, v, t), N(in)(cx, c, R_K, (size_t)(bh * sqk + k + t * DK)));
            break;
        }
        N(acc_add)(cx, &acc, term);
    }
    NUM s = N(acc_end)(cx, &acc);
    return l->o == O_DQ ? N(mul)(cx, s, scale) : s;
}

static NUM SPEC(frr_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], k = l->idx[1], v = l->idx[2];
    switch (l->o) {
    case O_HSEED:
    case O_HOUT:
    case O_HT: return SPEC(frr_h)(cx, c, bh, k, v, l->t);
    case O_DHOUT: return N(mul)(cx, SPEC(frr_decay)(cx, c, bh), SPEC(frr_dh)(cx, c, bh, k, v, l->t));
    case O_O:
    case O_DV: return SPEC(frr_o)(cx, c, l, 1); /* sums over the tile's k lanes */
    default: return SPEC(frr_o)(cx, c, l, 0);   /* O_DQ, O_DK: over its v lanes */
    }
}

static NUM SPEC(frr_seed)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, RS_H0, l->off); }
