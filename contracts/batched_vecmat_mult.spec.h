/* The spec of contracts/batched_vecmat_mult.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(bvm)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BK = c->p[P_BK].i, T = c->p[P_NKB].i;
    return SPEC(mm_kloop)(cx, c, R_A, l->idx[0], 1, R_B, l->idx[1], 1, BK * T, BK, T, NULL);
}


/* The intent (docs/intent.md): out[m, n] = A[m] . B[m, n] over K = BLOCK_K * numKBlocks,
 * torch.bmm(A[:, None, :], B.transpose(1, 2)) (matmul_common.spec.h). */
static NUM SPEC(bvm_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(mm_intent_dot)(cx, c, R_A, l->idx[0], 1, R_B, l->idx[1], 1, c->p[P_BK].i * c->p[P_NKB].i);
}
