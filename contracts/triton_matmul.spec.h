/* The spec of contracts/triton_matmul.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(tm_cf)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_dot_2d)(cx, c, l, map_cf, &d2, NULL), C_STORE);
}
static NUM SPEC(tm_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_dot_2d)(cx, c, l, map_io, &d2, NULL), C_STORE);
}


/* The intent (docs/intent.md): torch.matmul (matmul_common.spec.h), rounded once to C's
 * format through the contract's own store cast: the fp8 output's overflow policy
 * (satfinite) is the format's as the contract declares it, not part of the operation. */
static NUM SPEC(tm_cf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_intent_2d)(cx, c, l, map_cf, &d2), C_STORE);
}
static NUM SPEC(tm_io_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_intent_2d)(cx, c, l, map_io, &d2), C_STORE);
}
