/* The spec of contracts/kldiv_ops.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

/* lane (row, j): the input element of region r at row * stride + j */
static NUM SPEC(at)(NCX *cx, const td_case *c, const td_olane *l, int reg, int p_stride) {
    return N(in)(cx, c, reg, (uint64_t)(l->idx[0] * c->p[p_stride].i + l->idx[1]));
}
static NUM SPEC(bwd_default)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, SPEC(at)(cx, c, l, RB_T, PB_TSTRIDE), N(exact)(cx, -1.0)); /* target * -1 */
}
static NUM SPEC(bwd_log)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(neg)(cx, N(exp)(cx, SPEC(at)(cx, c, l, RB_T, PB_TSTRIDE))); /* -tl.exp(target) */
}
static NUM SPEC(fwd_default)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM y = SPEC(at)(cx, c, l, RF_Y, PF_YSTRIDE), gt = SPEC(at)(cx, c, l, RF_GT, PF_GTSTRIDE);
    NUM lg = N(log)(cx, N(max)(cx, gt, N(exact)(cx, c->p[PF_EPS].r)));
    return N(mul)(cx, gt, N(sub)(cx, lg, y));
}
static NUM SPEC(fwd_log)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM y = SPEC(at)(cx, c, l, RF_Y, PF_YSTRIDE), gt = SPEC(at)(cx, c, l, RF_GT, PF_GTSTRIDE);
    return N(mul)(cx, N(exp)(cx, gt), N(sub)(cx, gt, y));
}


/* intents (docs/intent.md): reduce_common.spec.h's rc_intent_kl and its gradient */
static NUM SPEC(intent_bwd_default)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rc_intent_kl_grad)(cx, SPEC(at)(cx, c, l, RB_T, PB_TSTRIDE), 0);
}
static NUM SPEC(intent_bwd_log)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rc_intent_kl_grad)(cx, SPEC(at)(cx, c, l, RB_T, PB_TSTRIDE), 1);
}
static NUM SPEC(intent_fwd_default)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rc_intent_kl)(cx, SPEC(at)(cx, c, l, RF_Y, PF_YSTRIDE), SPEC(at)(cx, c, l, RF_GT, PF_GTSTRIDE), 0);
}
static NUM SPEC(intent_fwd_log)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rc_intent_kl)(cx, SPEC(at)(cx, c, l, RF_Y, PF_YSTRIDE), SPEC(at)(cx, c, l, RF_GT, PF_GTSTRIDE), 1);
}
