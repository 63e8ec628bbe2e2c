/* The spec of contracts/iv_dependent_matmul.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(ivdm)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_dot_2d)(cx, c, l, map, &d2, NULL), C_STORE);
}


/* The intent (docs/intent.md): torch.matmul (matmul_common.spec.h), rounded once to C's format. */
static NUM SPEC(ivdm_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(mm_intent_2d)(cx, c, l, map, &d2); }
