/* The spec of contracts/rmsnorm_fused_llama.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "rmsnorm_common.spec.h"

static NUM SPEC(llama)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rn_fused)(cx, c, l, &LAYOUT, 1); }


/* Intent (rmsnorm_common.spec.h): RMS norm of each row over its N columns, stored once. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_fused_intent)(cx, c, l, &LAYOUT, 1);
}
