/* The spec of contracts/chunk_gla_simple.c (vocabulary: contracts/spec.h): glaOutput at
 * lane idx = (bh, t, v).  The decayed scores (q_t . k_s) exp(g_t - g_s) do not depend on
 * v: memoised per (bh, t, s), so a case costs O(T BT K + T V BT) operations. */

#ifndef CGS_SPEC_KEYS
#define CGS_SPEC_KEYS
static uint64_t cgs_key(const td_case *c, int64_t bh, int64_t t, int64_t s) {
    int64_t T = c->p[P_T].i;
    return (uint64_t)((bh * T + t) * T + s);
}
#endif

/* sum_e a[ra + e] * b[rb + e * sb] over e < K, any order */
static NUM SPEC(cgs_dot)(NCX *cx, const td_case *c, int ra, size_t oa, int rb, size_t ob, size_t sb) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < c->p[P_K].i; e++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, ra, oa + (size_t)e), N(in)(cx, c, rb, ob + (size_t)e * sb)));
    return N(acc_end)(cx, &acc);
}

/* (q_t . k_s) exp(g_t - g_s), s <= t in t's chunk */
static NUM SPEC(cgs_score)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t s) {
    NUM r;
    uint64_t key = cgs_key(c, bh, t, s);
    if (N(memo_get)(cx, key, &r)) return r;
    int64_t skh = c->p[P_SKH].i, skt = c->p[P_SKT].i, T = c->p[P_T].i;
    NUM qk = SPEC(cgs_dot)(cx, c, R_Q, (size_t)(bh * skh + t * skt), R_K, (size_t)(bh * skh + s * skt), 1);
    NUM gt = N(in)(cx, c, R_G, (size_t)(bh * T + t)), gs = N(in)(cx, c, R_G, (size_t)(bh * T + s));
    r = N(mul)(cx, qk, N(exp)(cx, N(sub)(cx, gt, gs)));
    N(memo_put)(cx, key, r);
    return r;
}

static NUM SPEC(cgs_out)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = (int64_t)l->idx[0], t = (int64_t)l->idx[1], v = (int64_t)l->idx[2];
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BT = c->p[P_BT].i;
    int64_t skh = c->p[P_SKH].i, skt = c->p[P_SKT].i, svh = c->p[P_SVH].i, svt = c->p[P_SVT].i;
    int64_t cs = t / BT * BT;
    size_t hoff = (size_t)(bh * c->p[P_SHH].i + t / BT * K * V + v);
    NUM qh = SPEC(cgs_dot)(cx, c, R_Q, (size_t)(bh * skh + t * skt), R_H, hoff, (size_t)c->p[P_SHT].i);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &acc, N(mul)(cx, qh, N(exp)(cx, N(in)(cx, c, R_G, (size_t)(bh * T + t)))));
    for (int64_t s = cs; s <= t; s++)
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cgs_score)(cx, c, bh, t, s), N(in)(cx, c, R_V, (size_t)(bh * svh + s * svt + v))));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, c->p[P_SCALE].r));
}
