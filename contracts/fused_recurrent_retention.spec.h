/* The spec of contracts/fused_recurrent_retention.c (vocabulary: contracts/spec.h; the
 * recurrence steps: oracle/lrec.h).  The states h_t[k, v] (forward, t = 0..T) and
 * dh_t[k, v] (backward, t = T..0) of a head are memoised per case by (head, step, k,
 * v) in the dense memo (oracle/sh_dense.h: an array read, not a hash, per state), so a
 * sequence of T steps costs O(T) per state, not per lane; while a lane is explained the
 * memo is off and every step of its chain is traced. */
#include "lrec.h"
#include "sh_dense.h"

#ifndef FRR_SPEC_KEYS
#define FRR_SPEC_KEYS
enum { FRR_TAG_H = 1, FRR_TAG_DH = 2, FRR_TAG_B = 5 };
static uint64_t frr_key(const td_case *c, int tag, int64_t bh, int64_t t, int64_t k, int64_t v) {
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i;
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * (T + 1) + t) * DK + k) * DV + v);
}
/* the states of a case: h at indices 0 .. NS-1 of the dense memo (oracle/sh_dense.h),
 * dh at NS .. 2 NS - 1, each at the key's own index */
static size_t frr_nstates(const td_case *c) {
    return (size_t)(c->p[P_B].i * c->p[P_H].i * (c->p[P_T].i + 1) * c->p[P_DK].i * c->p[P_DV].i);
}
static size_t frr_idx(const td_case *c, int tag, uint64_t key) {
    return (size_t)(key & ((1ull << 56) - 1)) + (tag == FRR_TAG_DH ? frr_nstates(c) : 0);
}
#endif

/* b_b = 1 - exp2(-5 - i_h * 1.0): the exponent is an exact small integer.  Memoised per
 * case by head (an exp2 and its budget: a quarter of the oracle when every lane and
 * every state it read computed it); a lane computes it before anything else, so the
 * lane flags the memo keeps with it are its own. */
static NUM SPEC(frr_decay)(NCX *cx, const td_case *c, int64_t bh) {
    int64_t ih = bh % c->p[P_H].i;
    uint64_t key = (uint64_t)FRR_TAG_B << 56 | (uint64_t)bh;
    NUM b;
    if (N(memo_get)(cx, key, &b)) return b;
    b = N(sub)(cx, N(exact)(cx, 1.0), N(exp2)(cx, N(exact)(cx, (double)(-5 - ih))));
    N(memo_put)(cx, key, b);
    return b;
}

/* h_m[k, v] = b h_{m-1} + k_{m-1}[k] v_{m-1}[v], h_0 = initial_state or 0; b = frr_decay(bh),
 * which the caller computes once for all the states it reads */
static NUM SPEC(frr_h)(NCX *cx, const td_case *c, NUM b, int64_t bh, int64_t k, int64_t v, int64_t m) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    uint64_t key;
    while (s > 0 && (key = frr_key(c, FRR_TAG_H, bh, s, k, v),
                     !N(dense_get)(cx, key, frr_idx(c, FRR_TAG_H, key), &h, mag)))
        s--;
    if (s == 0) {
        h = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * DK * DV + k * DV + v)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s; t < m; t++) {
        NUM kv = N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * sqk + k + t * DK)),
                        N(in)(cx, c, R_V, (size_t)(bh * svo + v + t * DV)));
        h = N(lrec_step)(cx, h, b, kv, mag);
        key = frr_key(c, FRR_TAG_H, bh, t + 1, k, v);
        N(dense_put)(cx, key, frr_idx(c, FRR_TAG_H, key), h, mag);
    }
    return h;
}

/* dh_t[k, v] = (q_t[k] scale) do_t[v] + b dh_{t+1}, dh_T = 0 (dStateClosed(t)); b as in frr_h */
static NUM SPEC(frr_dh)(NCX *cx, const td_case *c, NUM b, int64_t bh, int64_t k, int64_t v, int64_t t0) {
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, s = t0;
    NUM h;
    double mag[2] = {0, 0};
    uint64_t key;
    while (s < T && (key = frr_key(c, FRR_TAG_DH, bh, s, k, v),
                     !N(dense_get)(cx, key, frr_idx(c, FRR_TAG_DH, key), &h, mag)))
        s++;
    if (s == T) {
        h = N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    NUM scale = N(exact)(cx, c->p[P_SCALE].r);
    for (int64_t t = s - 1; t >= t0; t--) {
        NUM qs = N(mul)(cx, N(in)(cx, c, R_Q, (size_t)(bh * sqk + k + t * DK)), scale);
        NUM qd = N(mul)(cx, qs, N(in)(cx, c, R_DO, (size_t)(bh * svo + v + t * DV)));
        h = N(lrec_step)(cx, h, b, qd, mag);
        key = frr_key(c, FRR_TAG_DH, bh, t, k, v);
        N(dense_put)(cx, key, frr_idx(c, FRR_TAG_DH, key), h, mag);
    }
    return h;
}

/* sum over the tile's active k (or v) lanes of state * x, any order */
static NUM SPEC(frr_o)(NCX *cx, const td_case *c, const td_olane *l, int over_k) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    int64_t sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i, bh = l->pid[2], t = l->t, fixed = l->idx[2];
    NUM scale = N(exact)(cx, c->p[P_SCALE].r), b = SPEC(frr_decay)(cx, c, bh); /* once for the tile's states */
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
            term = N(mul)(cx, SPEC(frr_h)(cx, c, b, bh, k, v, t + 1),
                          N(mul)(cx, N(in)(cx, c, R_Q, (size_t)(bh * sqk + k + t * DK)), scale));
            break;
        case O_DQ: /* h_{t+1}[k, v] * do_t[v] */
            term = N(mul)(cx, SPEC(frr_h)(cx, c, b, bh, k, v, t + 1), N(in)(cx, c, R_DO, (size_t)(bh * svo + v + t * DV)));
            break;
        case O_DK: /* dh_t[k, v] * v_t[v] */
            term = N(mul)(cx, SPEC(frr_dh)(cx, c, b, bh, k, v, t), N(in)(cx, c, R_V, (size_t)(bh * svo + v + t * DV)));
            break;
        default: /* O_DV: dh_t[k, v] * k_t[k] */
            term = N(mul)(cx, SPEC(frr_dh)(cx, c, b, bh, k, v, t), N(in)(cx, c, R_K, (size_t)(bh * sqk + k + t * DK)));
            break;
        }
        N(acc_add)(cx, &acc, term);
    }
    NUM s = N(acc_end)(cx, &acc);
    return l->o == O_DQ ? N(mul)(cx, s, scale) : s;
}

static NUM SPEC(frr_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], k = l->idx[1], v = l->idx[2];
    N(dense_begin)(cx, 2 * frr_nstates(c));
    switch (l->o) {
    case O_HSEED:
    case O_HOUT:
    case O_HT: return SPEC(frr_h)(cx, c, SPEC(frr_decay)(cx, c, bh), bh, k, v, l->t);
    case O_DHOUT: {
        NUM b = SPEC(frr_decay)(cx, c, bh);
        return N(mul)(cx, b, SPEC(frr_dh)(cx, c, b, bh, k, v, l->t));
    }
    case O_O:
    case O_DV: return SPEC(frr_o)(cx, c, l, 1); /* sums over the tile's k lanes */
    default: return SPEC(frr_o)(cx, c, l, 0);   /* O_DQ, O_DK: over its v lanes */
    }
}

static NUM SPEC(frr_seed)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, RS_H0, l->off); }

/* ---- the intent: RetNet's recurrent retention (Sun et al. 2023, eq. (4) / Alg.
 * "recurrent"), per head h of H: S_n = gamma S_{n-1} + k_n^T v_n, o_n = (scale q_n) S_n,
 * gamma = 1 - 2^(-5-h) exactly (the paper's per-head decays), S_{-1} = initial_state or
 * 0; the backward is the gradient of sum_n <do_n, o_n> by reverse mode.  Memo tags 3 and
 * 4 (the contract's are FRR_TAG_H, FRR_TAG_DH). */
static NUM SPEC(frr_intent_gamma)(NCX *cx, const td_case *c, int64_t bh) {
    return N(exact)(cx, 1.0 - ldexp(1.0, (int)(-5 - bh % c->p[P_H].i))); /* exact: H < 48 */
}
/* S after m steps (m = 0: the initial state) */
static NUM SPEC(frr_intent_S)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t m) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, s = m;
    NUM S;
    double mag[2] = {0, 0};
    while (s > 0 && !N(lrec_memo_get)(cx, frr_key(c, 3, bh, s, k, v), &S, mag)) s--;
    if (s == 0) {
        S = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)((bh * DK + k) * DV + v)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, S, mag);
    }
    NUM gamma = SPEC(frr_intent_gamma)(cx, c, bh);
    for (int64_t n = s; n < m; n++) {
        NUM kv = N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * c->p[P_SQK].i + n * DK + k)),
                        N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVO].i + n * DV + v)));
        S = N(lrec_step)(cx, S, gamma, kv, mag);
        N(lrec_memo_put)(cx, frr_key(c, 3, bh, n + 1, k, v), S, mag);
    }
    return S;
}
/* G_n = dL/dS (the state after step n) = scale q_n do_n^T + gamma G_{n+1}, G_T = 0 */
static NUM SPEC(frr_intent_G)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t n0) {
    int64_t T = c->p[P_T].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i, s = n0;
    NUM G;
    double mag[2] = {0, 0};
    while (s < T && !N(lrec_memo_get)(cx, frr_key(c, 4, bh, s, k, v), &G, mag)) s++;
    if (s == T) {
        G = N(exact)(cx, 0.0);
        N(lrec_init)(cx, G, mag);
    }
    NUM gamma = SPEC(frr_intent_gamma)(cx, c, bh), scale = N(exact)(cx, c->p[P_SCALE].r);
    for (int64_t n = s - 1; n >= n0; n--) {
        NUM qd = N(mul)(cx, N(mul)(cx, scale, N(in)(cx, c, R_Q, (size_t)(bh * c->p[P_SQK].i + n * DK + k))),
                        N(in)(cx, c, R_DO, (size_t)(bh * c->p[P_SVO].i + n * DV + v)));
        G = N(lrec_step)(cx, G, gamma, qd, mag);
        N(lrec_memo_put)(cx, frr_key(c, 4, bh, n, k, v), G, mag);
    }
    return G;
}
/* a sum over all DK keys (over_k) or all DV values of the lane's step n, any order:
 * o_n[v] = sum_k S_n[k,v] scale q_n[k]; dq_n[k] = scale sum_v S_n[k,v] do_n[v];
 * dk_n[k] = sum_v G_n[k,v] v_n[v]; dv_n[v] = sum_k G_n[k,v] k_n[k] */
static NUM SPEC(frr_intent_sum)(NCX *cx, const td_case *c, int64_t bh, int o, int64_t fixed, int64_t n) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i, sqk = c->p[P_SQK].i, svo = c->p[P_SVO].i;
    int over_k = o == O_O || o == O_DV;
    NUM scale = N(exact)(cx, c->p[P_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t x = 0; x < (over_k ? DK : DV); x++) {
        int64_t k = over_k ? x : fixed, v = over_k ? fixed : x;
        NUM qk = N(in)(cx, c, R_Q, (size_t)(bh * sqk + n * DK + k)), kk = N(in)(cx, c, R_K, (size_t)(bh * sqk + n * DK + k));
        NUM vv = N(in)(cx, c, R_V, (size_t)(bh * svo + n * DV + v)), dd = N(in)(cx, c, R_DO, (size_t)(bh * svo + n * DV + v));
        NUM term = o == O_O    ? N(mul)(cx, SPEC(frr_intent_S)(cx, c, bh, k, v, n + 1), N(mul)(cx, scale, qk))
                   : o == O_DQ ? N(mul)(cx, SPEC(frr_intent_S)(cx, c, bh, k, v, n + 1), dd)
                   : o == O_DK ? N(mul)(cx, SPEC(frr_intent_G)(cx, c, bh, k, v, n), vv)
                               : N(mul)(cx, SPEC(frr_intent_G)(cx, c, bh, k, v, n), kk);
        N(acc_add)(cx, &acc, term);
    }
    NUM s = N(acc_end)(cx, &acc);
    return o == O_DQ ? N(mul)(cx, scale, s) : s;
}
/* the state lanes: HSeed, HOut, final_state the state after l->t steps; DHOut the
 * gradient of sum_{n >= m} <do_n, o_n> with respect to the state after m steps,
 * gamma G_m (G_m: dL/dS after step m) */
static NUM SPEC(frr_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], a = l->idx[1], b = l->idx[2];
    switch (l->o) {
    case O_HSEED:
    case O_HOUT:
    case O_HT: return SPEC(frr_intent_S)(cx, c, bh, a, b, l->t);
    case O_DHOUT: return N(mul)(cx, SPEC(frr_intent_gamma)(cx, c, bh), SPEC(frr_intent_G)(cx, c, bh, a, b, l->t));
    default: return SPEC(frr_intent_sum)(cx, c, bh, (int)l->o, b, l->t);
    }
}
