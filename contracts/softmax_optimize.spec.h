/* The spec of contracts/softmax_optimize.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "softmax_common.spec.h"

static NUM SPEC(opt_one_tile)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[P1_N].i, T = c->p[P1_TILE].i;
    sm_row r = sm_row_plain(R_IN, (uint64_t)(l->idx[0] * N), 1, N < T ? N : T, (uint64_t)l->idx[0]);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}

/* Z = tl.sum_l exp(m[l] - M) * z[l] after the online sweep of the row (memoised). */
static NUM SPEC(opt_online_z)(NCX *cx, const td_case *c, const sm_row *r, int64_t T, NUM M) {
    NUM Z;
    if (N(memo_get)(cx, r->key | SM_TAG_ZF, &Z)) return Z;
    int64_t N = r->n, lanes = N < T ? N : T;
    if (N < T) SM_DOMAIN(cx); /* lanes l >= N: exp(-inf - -inf) = NaN in binary32 */
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    for (int64_t l = 0; l < lanes; l++) {
        NUM x = SPEC(sm_elem)(cx, c, r, l);
        NUM m = x, z = N(exp)(cx, N(sub)(cx, x, x)); /* exp(-inf - x) * 0 + exp(x - x) */
        for (int64_t t = 1; t < (N + T - 1) / T; t++) {
            int64_t col = t * T + l;
            if (col < N) {
                x = SPEC(sm_elem)(cx, c, r, col);
                NUM nm = N(max)(cx, m, x);
                z = N(add)(cx, N(mul)(cx, N(exp)(cx, N(sub)(cx, m, nm)), z), N(exp)(cx, N(sub)(cx, x, nm)));
                m = nm;
            } else /* masked lane of the last tile: exp(m - m) * z + exp(-inf - m) */
                z = N(mul)(cx, N(exp)(cx, N(sub)(cx, m, m)), z);
        }
        N(acc_add)(cx, &acc, N(mul)(cx, N(exp)(cx, N(sub)(cx, m, M)), z));
    }
    Z = N(acc_end)(cx, &acc);
    N(memo_put)(cx, r->key | SM_TAG_ZF, Z);
    return Z;
}

static NUM SPEC(opt_full)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PF_N].i, T = c->p[PF_TILE].i;
    sm_row r = sm_row_plain(R_IN, (uint64_t)(l->idx[0] * N), 1, N, (uint64_t)l->idx[0]);
    NUM M = SPEC(sm_max)(cx, c, &r);
    NUM Z = SPEC(opt_online_z)(cx, c, &r, T, M);
    return N(div)(cx, N(exp)(cx, N(sub)(cx, SPEC(sm_elem)(cx, c, &r, l->idx[1]), M)), Z);
}


/* Intent: torch.softmax(x, dim=-1) of each row over its N entries. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l, int64_t N) {
    sm_row r = sm_row_plain(R_IN, (uint64_t)(l->idx[0] * N), 1, N, (uint64_t)l->idx[0]);
    return SPEC(sm_intent_softmax)(cx, c, r, l->idx[1]);
}
static NUM SPEC(intent_one_tile)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(intent)(cx, c, l, c->p[P1_N].i);
}
static NUM SPEC(intent_full)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(intent)(cx, c, l, c->p[PF_N].i);
}
