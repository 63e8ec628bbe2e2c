/* The spec of contracts/matmul_tma.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(tma_f32)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BK = c->p[P_BK].i;
    return SPEC(mm_kloop)(cx, c, R_A, l->idx[0], c->p[P_SAK].i, R_B, l->idx[1], c->p[P_SBK].i, BK, BK, 1, NULL);
}
static NUM SPEC(tma_f16)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(tma_f32)(cx, c, l), C_STORE);
}


/* The intent (docs/intent.md): torch.matmul of A[M, K] and B[K, N] (the block pointers'
 * shapes), over all K (matmul_common.spec.h); its write set is all M x N cells. */
static NUM SPEC(tma_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_dot)(cx, c, R_A, l->idx[0], c->p[P_SAK].i, R_B, l->idx[1], c->p[P_SBK].i, c->p[P_K].i);
}
