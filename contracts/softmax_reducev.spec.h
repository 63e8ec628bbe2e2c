/* The spec of contracts/softmax_reducev.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

/* Running max after block t, old_scale of block t (t >= 1), p_j, e_sum after block t:
 * per (program, block) quantities, memoised in the shadow. */
static NUM SPEC(srv_logit)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t j) {
    int64_t st = td_geti(c, R_START, (size_t)b);
    return N(in)(cx, c, R_LOGICS, (size_t)(h * c->p[P_SLH].i + (st + j) * c->p[P_SLB].i));
}
static NUM SPEC(srv_max)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t t) {
    uint64_t key = attn2_key(TAG_MAX, (uint64_t)(b * c->grid[1] + h), (uint64_t)t, 0);
    NUM m;
    if (N(memo_get)(cx, key, &m)) return m;
    int64_t BN = c->p[P_BN].i;
    m = SPEC(srv_logit)(cx, c, b, h, t * BN);
    for (int64_t j = 1; j < BN; j++) m = N(max)(cx, m, SPEC(srv_logit)(cx, c, b, h, t * BN + j)); /* tl.max */
    if (t > 0) m = N(max)(cx, m, SPEC(srv_max)(cx, c, b, h, t - 1));
    N(memo_put)(cx, key, m);
    return m;
}
static NUM SPEC(srv_scale)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t t) {
    uint64_t key = attn2_key(TAG_SCALE, (uint64_t)(b * c->grid[1] + h), (uint64_t)t, 0);
    NUM s;
    if (N(memo_get)(cx, key, &s)) return s;
    s = N(exp)(cx, N(sub)(cx, SPEC(srv_max)(cx, c, b, h, t - 1), SPEC(srv_max)(cx, c, b, h, t)));
    N(memo_put)(cx, key, s);
    return s;
}
static NUM SPEC(srv_p)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t j) {
    uint64_t key = attn2_key(TAG_P, (uint64_t)(b * c->grid[1] + h), (uint64_t)j, 0);
    NUM p;
    if (N(memo_get)(cx, key, &p)) return p;
    int64_t t = j / c->p[P_BN].i;
    p = N(exp)(cx, N(sub)(cx, SPEC(srv_logit)(cx, c, b, h, j), SPEC(srv_max)(cx, c, b, h, t)));
    N(memo_put)(cx, key, p);
    return p;
}
static NUM SPEC(srv_esum)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t t) {
    uint64_t key = attn2_key(TAG_SUM, (uint64_t)(b * c->grid[1] + h), (uint64_t)t, 0);
    NUM e;
    if (N(memo_get)(cx, key, &e)) return e;
    int64_t BN = c->p[P_BN].i;
    NACC s;
    N(acc_init)(cx, &s, TD_ORDER_TREE, 0);
    for (int64_t j = 0; j < BN; j++) N(acc_add)(cx, &s, SPEC(srv_p)(cx, c, b, h, t * BN + j));
    e = N(acc_end)(cx, &s); /* tl.sum(p, 0) */
    if (t > 0) /* e_sum * old_scale + tl.sum(p) (the first block: 0 * 0 + sum, exact) */
        e = N(add)(cx, N(mul)(cx, SPEC(srv_esum)(cx, c, b, h, t - 1), SPEC(srv_scale)(cx, c, b, h, t)), e);
    N(memo_put)(cx, key, e);
    return e;
}
static NUM SPEC(srv)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2], BN = c->p[P_BN].i, mil = c->p[P_MIL].i;
    int64_t L = td_geti(c, R_SEQLEN, (size_t)b), T = L / BN;
    NUM acc = N(exact)(cx, 0.0);
    for (int64_t t = 0; t < T; t++) {
        NACC s;
        N(acc_init)(cx, &s, TD_ORDER_TREE, 0);
        for (int64_t j = t * BN; j < (t + 1) * BN; j++) {
            int64_t loc = td_geti(c, R_BLOC, (size_t)(b * c->p[P_SB].i + (mil - L + j) * c->p[P_SS].i));
            NUM v = N(in)(cx, c, R_V, (size_t)(loc * c->p[P_SVBS].i + h * c->p[P_SVH].i + d * c->p[P_SVD].i));
            N(acc_add)(cx, &s, N(mul)(cx, SPEC(srv_p)(cx, c, b, h, j), v)); /* p[:, None] * v */
        }
        NUM pv = N(acc_end)(cx, &s);
        acc = t == 0 ? pv : N(add)(cx, N(mul)(cx, acc, SPEC(srv_scale)(cx, c, b, h, t)), pv);
    }
    return N(div)(cx, acc, SPEC(srv_esum)(cx, c, b, h, T - 1));
}
static NUM SPEC(srv_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(srv)(cx, c, l), C_STORE);
}


/* The intent (docs/intent.md): softmax over the sequence's L logits of head h, times
 * the V rows its BLoc row gathers, exact (two passes, no memo). */
static NUM SPEC(srv_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2], mil = c->p[P_MIL].i;
    int64_t L = td_geti(c, R_SEQLEN, (size_t)b);
    NUM m = SPEC(srv_logit)(cx, c, b, h, 0);
    for (int64_t j = 1; j < L; j++) m = N(max)(cx, m, SPEC(srv_logit)(cx, c, b, h, j));
    NACC s, acc;
    N(acc_init)(cx, &s, TD_ORDER_ANY, 0);
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < L; j++) {
        int64_t loc = td_geti(c, R_BLOC, (size_t)(b * c->p[P_SB].i + (mil - L + j) * c->p[P_SS].i));
        NUM p = N(exp)(cx, N(sub)(cx, SPEC(srv_logit)(cx, c, b, h, j), m));
        N(acc_add)(cx, &s, p);
        N(acc_add)(cx, &acc, N(mul)(cx, p, N(in)(cx, c, R_V, (size_t)(loc * c->p[P_SVBS].i + h * c->p[P_SVH].i + d * c->p[P_SVD].i))));
    }
    return N(div)(cx, N(acc_end)(cx, &acc), N(acc_end)(cx, &s));
}
