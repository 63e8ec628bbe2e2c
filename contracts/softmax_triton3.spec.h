/* The spec of contracts/softmax_triton3.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "softmax_common.spec.h"

static inline sm_row SPEC(t3_row)(const td_case *c, const td_olane *l, int masked) {
    int64_t B = c->p[P_BLOCK].i, n = c->p[P_NCOLS].i;
    uint64_t base = (uint64_t)(l->idx[0] * c->p[P_STRIDE].i);
    sm_row r = sm_row_plain(R_IN, base, 1, n < B ? n : B, (uint64_t)l->idx[0]);
    if (masked) {
        r.mreg = R_MASK;
        r.mbase = base;
    }
    return r;
}
static NUM SPEC(softmax_t3)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(t3_row)(c, l, 0);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}
static NUM SPEC(softmax_t3_masked)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(t3_row)(c, l, 1);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}


/* Intents: torch.softmax(x, dim=-1) and torch.softmax(x + mask, dim=-1) of each row over
 * its n_cols columns. */
static NUM SPEC(intent_t3)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(t3_row)(c, l, 0);
    r.n = c->p[P_NCOLS].i;
    return SPEC(sm_intent_softmax)(cx, c, r, l->idx[1]);
}
static NUM SPEC(intent_t3_masked)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(t3_row)(c, l, 1);
    r.n = c->p[P_NCOLS].i;
    return SPEC(sm_intent_softmax)(cx, c, r, l->idx[1]);
}
