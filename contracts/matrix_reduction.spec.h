/* The spec of contracts/matrix_reduction.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(rowmax)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t i = l->idx[0], sxm = c->p[P_SXM].i, sxn = c->p[P_SXN].i;
    uint64_t base = (uint64_t)(i * sxm);
    int64_t at = rc_first_max(c, R_X, base, (uint64_t)sxn, c->p[P_BN].i);
    return N(in)(cx, c, R_X, base + (uint64_t)(at * sxn));
}

