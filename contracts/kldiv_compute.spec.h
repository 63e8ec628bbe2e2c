/* The spec of contracts/kldiv_compute.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(kl)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM x = N(in)(cx, c, R_X, l->off), y = N(in)(cx, c, R_Y, l->off);
    return N(mul)(cx, x, N(log)(cx, N(div)(cx, x, y)));
}


/* The intent (docs/intent.md): x * log(x / y) is the pointwise KL divergence of the
 * probabilities x from y, torch.nn.functional.kl_div(log(y), x, reduction='none')
 * = xlogy(x, x) - x * log(y): rc_intent_kl with the input log(y) (exact here). */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM x = N(in)(cx, c, R_X, l->off), y = N(in)(cx, c, R_Y, l->off);
    return SPEC(rc_intent_kl)(cx, N(log)(cx, y), x, 0);
}
