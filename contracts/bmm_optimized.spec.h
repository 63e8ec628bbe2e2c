/* The spec of contracts/bmm_optimized.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(bmm_o)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t K = c->p[P_K].i, TK = c->p[P_TK].i;
    return SPEC(mm_kloop)(cx, c, R_A, l->idx[0], 1, R_B, l->idx[1], c->p[P_N].i, K, TK, mm_cdiv(K, TK), NULL);
}


/* The intent (docs/intent.md): torch.bmm over all K (matmul_common.spec.h). */
static NUM SPEC(bmm_o_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_dot)(cx, c, R_A, l->idx[0], 1, R_B, l->idx[1], c->p[P_N].i, c->p[P_K].i);
}
