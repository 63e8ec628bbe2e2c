/* The spec of contracts/mean_reduction.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(mean)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[P_N].i, BN = c->p[P_BN].i, m = l->idx[0];
    int64_t lanes = N < BN ? N : BN;
    NACC outer;
    N(acc_init)(cx, &outer, TD_ORDER_TREE, 0); /* tl.sum(_mean, axis=1) */
    for (int64_t j = 0; j < lanes; j++) {
        NACC lane;
        N(acc_init)(cx, &lane, TD_ORDER_SEQ, 0); /* _mean += a, step by step */
        for (int64_t col = j; col < N; col += BN) N(acc_add)(cx, &lane, N(in)(cx, c, R_X, (uint64_t)(m * N + col)));
        N(acc_add)(cx, &outer, N(acc_end)(cx, &lane));
    }
    return N(div)(cx, N(acc_end)(cx, &outer), N(exact)(cx, (double)N));
}
static NUM SPEC(mean_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mean)(cx, c, l), C_STORE);
}


/* Intent: torch.mean(x, dim=1) of x[M, N] (PyTorch documentation): the mean of each row's
 * N entries, in any order and by any algorithm; the io twin stores it once. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[P_N].i, m = l->idx[0];
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < N; j++) N(acc_add)(cx, &acc, N(in)(cx, c, R_X, (uint64_t)(m * N + j)));
    return N(mean)(cx, N(acc_end)(cx, &acc), (long)N);
}
static NUM SPEC(intent_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(intent)(cx, c, l), C_STORE);
}
