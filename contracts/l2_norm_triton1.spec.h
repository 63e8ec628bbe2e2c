/* The spec of contracts/l2_norm_triton1.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "rmsnorm_common.spec.h"

static NUM SPEC(l2_fwd)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rn_l2_fwd)(cx, c, l, &LAYOUT); }

static NUM SPEC(l2_fwd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_l2_intent_fwd)(cx, c, l, &LAYOUT);
}
