/* The spec of contracts/rmsnorm_fused.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "rmsnorm_common.spec.h"

static NUM SPEC(fused_sum)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_fused)(cx, c, l, &LAYOUT, 0);
}
static NUM SPEC(fused_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_fused)(cx, c, l, &LAYOUT, 1);
}


/* Intents (rmsnorm_common.spec.h): RMS norm of each row over its N columns. */
static NUM SPEC(intent_sum)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_fused_intent)(cx, c, l, &LAYOUT, 0);
}
static NUM SPEC(intent_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_fused_intent)(cx, c, l, &LAYOUT, 1);
}
