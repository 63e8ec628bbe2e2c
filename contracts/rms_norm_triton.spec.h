/* The spec of contracts/rms_norm_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "rmsnorm_common.spec.h"

static NUM SPEC(rms_norm)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t pid = l->idx[0], j = l->idx[1];
    int64_t N = c->p[P_N].i, B = c->p[P_B].i, L = N < B ? N : B, xsc = c->p[P_XSC].i;
    uint64_t xb = (uint64_t)(pid * c->p[P_XSR].i);
    NUM rrms;
    if (!N(memo_get)(cx, rn_key(RN_TAG_RSTD, (uint64_t)pid), &rrms)) {
        NUM S = SPEC(rn_sumprod)(cx, c, R_X, xb, xsc, R_X, xb, xsc, 1, L, B);
        NUM var = N(div)(cx, S, N(exact)(cx, (double)N));
        rrms = N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, N(add)(cx, var, N(exact)(cx, c->p[P_EPS].r))));
        N(memo_put)(cx, rn_key(RN_TAG_RSTD, (uint64_t)pid), rrms);
    }
    NUM x = N(in)(cx, c, R_X, (uint64_t)((int64_t)xb + j * xsc)), w = N(in)(cx, c, R_W, (uint64_t)j);
    return N(mul)(cx, N(mul)(cx, x, rrms), w);
}


/* The intent (rmsnorm_common.spec.h): RMS norm of each row over its N columns. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t pid = l->idx[0], j = l->idx[1], xsc = c->p[P_XSC].i;
    uint64_t xb = (uint64_t)(pid * c->p[P_XSR].i);
    NUM x = N(in)(cx, c, R_X, (uint64_t)((int64_t)xb + j * xsc)), w = N(in)(cx, c, R_W, (uint64_t)j);
    return SPEC(rn_intent)(cx, c, R_X, xb, xsc, c->p[P_N].i, x, w, c->p[P_EPS].r, (uint64_t)pid);
}
