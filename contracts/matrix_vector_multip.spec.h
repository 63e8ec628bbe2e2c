/* The spec of contracts/matrix_vector_multip.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(mv)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BM = c->p[P_BM].i;
    return SPEC(mm_kloop)(cx, c, R_A, l->idx[0], c->p[P_SAM].i, R_B, 0, c->p[P_SBM].i, c->p[P_M].i, BM, 1, NULL);
}


/* The intent (docs/intent.md): torch.mv over all M columns (matmul_common.spec.h). */
static NUM SPEC(mv_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_dot)(cx, c, R_A, l->idx[0], c->p[P_SAM].i, R_B, 0, c->p[P_SBM].i, c->p[P_M].i);
}
