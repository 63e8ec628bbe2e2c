/* The spec of contracts/matmul_triton2.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(mt2)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_dot_2d)(cx, c, l, map, &d2, NULL);
}


/* The intent (docs/intent.md): torch.matmul (matmul_common.spec.h). */
static NUM SPEC(mt2_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(mm_intent_2d)(cx, c, l, map, &d2); }
