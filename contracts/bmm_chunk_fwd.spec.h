/* The spec of contracts/bmm_chunk_fwd.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(bcf)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BK = c->p[P_BK].i, T = c->p[P_NKB].i;
    return SPEC(mm_kloop)(cx, c, R_A, l->idx[0], c->p[P_SAK].i, R_B, l->idx[1], c->p[P_SBK].i, BK * T, BK, T, NULL);
}

/* The intent: Mamba2's chunked C B^T as its reference defines it (mamba_ssm
 * ops/triton/ssd_bmm.py, its reference bmm_chunk_ref: a torch.einsum of a and b cut
 * into chunks of chunk_size rows): Out[b, c, h, m, n] = sum over the K =
 * BK * numKBlocks columns k of A[b, c*cs + m, h, k] * B[b, c*cs + n, h, k], any order.
 * The operand rows are named from the program (b = pid1, c, h from pid2) and (m, n). */
static NUM SPEC(bcf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t cs = c->p[P_CS].i, G = c->p[P_G].i, b = l->pid[1], ch = l->pid[2] / G, h = l->pid[2] % G;
    int64_t m = l->idx[2], n = l->idx[3];
    int64_t a0 = b * c->p[P_SAB].i + (ch * cs + m) * c->p[P_SAS].i + h * c->p[P_SAH].i;
    int64_t b0 = b * c->p[P_SBB].i + (ch * cs + n) * c->p[P_SBS].i + h * c->p[P_SBH].i;
    return SPEC(mm_intent_dot)(cx, c, R_A, a0, c->p[P_SAK].i, R_B, b0, c->p[P_SBK].i, c->p[P_BK].i * c->p[P_NKB].i);
}
