/* The spec half of contracts/softmax_tutorial_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

#include "softmax_common.spec.h"
static NUM SPEC(softmax_tut)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t B = c->p[P_BLOCK].i, n = c->p[P_NCOLS].i;
    sm_row r = sm_row_plain(R_IN, (uint64_t)(l->idx[0] * c->p[P_IN_STRIDE].i), 1, n < B ? n : B, (uint64_t)l->idx[0]);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}


/* The intent: softmax of each row over its n_cols columns, as torch.softmax(x, dim=-1)
 * documents it: exp(x_i) / sum_j exp(x_j) (shift invariant: the max shift changes no
 * real value).  The shadow's bound is any admissible evaluation's (any order, online or
 * two-pass, exp or exp2).  Its memo keys carry bit 50 of the row id: never the contract's. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = sm_row_plain(R_IN, (uint64_t)(l->idx[0] * c->p[P_IN_STRIDE].i), 1, c->p[P_NCOLS].i,
                            (uint64_t)l->idx[0] | 1ull << 50);
    r.order = TD_ORDER_ANY;
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}
