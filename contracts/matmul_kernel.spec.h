/* The spec of contracts/matmul_kernel.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(mk)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BK = c->p[P_BK].i, T = c->p[P_T].i;
    return N(cast)(cx, SPEC(mm_kloop)(cx, c, R_A, l->idx[0], 1, R_B, l->idx[1], LD, BK * T, BK, T, NULL), C_STORE);
}


/* The intent (docs/intent.md): torch.matmul over the launch's K = BLOCK_K * numKBlocks
 * (matmul_common.spec.h), rounded once to C's fp16 by the audit. */
static NUM SPEC(mk_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_dot)(cx, c, R_A, l->idx[0], 1, R_B, l->idx[1], LD, c->p[P_BK].i * c->p[P_T].i);
}
