/* The spec of contracts/matmul_triton1.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(mt1)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BK = c->p[P_BK].i, T = c->p[P_NKB].i;
    return SPEC(mm_kloop)(cx, c, R_X, l->idx[0], 1, R_Y, l->idx[1], c->p[P_NS].i, BK * T, BK, T, NULL);
}


/* The intent (docs/intent.md): torch.matmul over K = BLOCK_K * numKBlocks (matmul_common.spec.h). */
static NUM SPEC(mt1_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_dot)(cx, c, R_X, l->idx[0], 1, R_Y, l->idx[1], c->p[P_NS].i, c->p[P_BK].i * c->p[P_NKB].i);
}
