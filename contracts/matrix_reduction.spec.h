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

/* The intent: torch.amax(x, dim=1) (PyTorch documentation: the maximum of each row) of the
 * BLOCK_M x BLOCK_N strided view of x; written as a plain running maximum, independently
 * of the contract's first-argmax helper. */
static NUM SPEC(rowmax_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t i = l->idx[0], sxm = c->p[P_SXM].i, sxn = c->p[P_SXN].i, n = c->p[P_BN].i;
    double best = -INFINITY;
    for (int64_t j = 0; j < n; j++) {
        double v = td_get(c, R_X, (uint64_t)(i * sxm + j * sxn));
        if (v > best) best = v;
    }
    return N(exact)(cx, best);
}
