/* The spec of contracts/ksoftmax_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "softmax_common.spec.h"

static NUM SPEC(ksoftmax)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t K = c->p[P_K].i, D = c->p[P_DEPTH].i;
    sm_row r = sm_row_plain(R_X, (uint64_t)(l->idx[0] * c->p[P_SXM].i + l->idx[1] * c->p[P_SXN].i), 1, K < D ? K : D,
                            (uint64_t)(l->idx[0] * c->grid[1] + l->idx[1]));
    return SPEC(sm_softmax)(cx, c, &r, l->idx[2]);
}


/* Intent: torch.softmax over each row's K entries (the kernel's tile covers DEPTH). */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = sm_row_plain(R_X, (uint64_t)(l->idx[0] * c->p[P_SXM].i + l->idx[1] * c->p[P_SXN].i), 1, c->p[P_K].i,
                            (uint64_t)(l->idx[0] * c->grid[1] + l->idx[1]));
    return SPEC(sm_intent_softmax)(cx, c, r, l->idx[2]);
}
