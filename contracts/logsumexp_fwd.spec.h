/* The spec of contracts/logsumexp_fwd.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "softmax_common.spec.h"

static NUM SPEC(lse)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t D = c->p[P_D].i, B = c->p[P_B].i, lo = l->idx[1] * B;
    if (lo >= D) { /* every lane masked: Lean 0, binary32 NaN */
        SM_DOMAIN(cx);
        return N(exact)(cx, 0.0);
    }
    int64_t n = D - lo < B ? D - lo : B;
    sm_row r = sm_row_plain(R_X, (uint64_t)(l->idx[0] * D + lo), 1, n, (uint64_t)(l->idx[0] * cdiv(D, B) + l->idx[1]));
    if (c->p[P_HAS_SCALE].i) {
        r.has_scale = 1;
        r.scale = c->p[P_SCALE].r;
        if (n < B && !(r.scale > 0)) SM_DOMAIN(cx); /* masked lanes: -inf * scale = +inf or NaN */
    }
    NUM m = SPEC(sm_max)(cx, c, &r);
    return N(add)(cx, N(log)(cx, SPEC(sm_sum)(cx, c, &r, m)), m);
}


/* The intent (docs/intent.md): torch.logsumexp(scale * x, dim=-1) of row idx[0] over
 * its D entries (D >= 1: lse_gap).  Its rows' memo keys sit above every contract row id
 * (bit 48). */
static NUM SPEC(lse_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t D = c->p[P_D].i;
    sm_row r = sm_row_plain(R_X, (uint64_t)(l->idx[0] * D), 1, D, ((uint64_t)1 << 48) | (uint64_t)l->idx[0]);
    if (c->p[P_HAS_SCALE].i) r.has_scale = 1, r.scale = c->p[P_SCALE].r;
    NUM m = SPEC(sm_max)(cx, c, &r);
    return N(add)(cx, N(log)(cx, SPEC(sm_sum)(cx, c, &r, m)), m);
}
