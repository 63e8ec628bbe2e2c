/* The spec half of contracts/matmul_leakyrelu_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

#include "matmul_common.spec.h"
static NUM SPEC(leaky_mm)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_leaky)(cx, SPEC(mm_dot_2d)(cx, c, l, map, &d2, NULL)), C_STORE);
}


/* The intent (docs/intent.md): leaky_relu(torch.matmul(A, B), 0.01) (matmul_common.spec.h),
 * rounded once to C's format by the audit. */
static NUM SPEC(leaky_mm_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_leaky)(cx, SPEC(mm_intent_2d)(cx, c, l, map, &d2));
}
