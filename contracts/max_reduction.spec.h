/* The spec of contracts/max_reduction.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(max1)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t M = c->p[P1_M].i, B = c->p[P1_BLOCK].i, base = (int64_t)l->pid[0] * B;
    int64_t n = M - base < B ? M - base : B;
    if (n <= 0) return N(exact)(cx, -INFINITY); /* fully masked: tl.max of -inf lanes */
    return N(in)(cx, c, R1_INP, (uint64_t)(base + rc_first_max(c, R1_INP, (uint64_t)base, 1, n)));
}
static NUM SPEC(maxk)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[P_N].i, K = c->p[P_K].i, BN = c->p[P_BN].i, m = l->idx[0], k = l->idx[1];
    int64_t n = N < BN ? N : BN;
    uint64_t base = (uint64_t)(m * N * K + k);
    int64_t at = rc_first_max(c, R_INP, base, (uint64_t)K, n);
    if (l->o == 1) return N(exact)(cx, (double)(at < 0 ? 0 : at));
    if (at < 0) return N(exact)(cx, -INFINITY);
    return N(in)(cx, c, R_INP, base + (uint64_t)(at * K));
}


/* The intent of max_kernel: torch.max(x, dim=1) on x of shape [M, N, K] (PyTorch
 * documentation: the maximum of each row over its N entries and the index of the first
 * maximal one), over all N entries. */
static NUM SPEC(maxk_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[P_N].i, K = c->p[P_K].i, m = l->idx[0], k = l->idx[1];
    uint64_t base = (uint64_t)(m * N * K + k);
    int64_t at = rc_first_max(c, R_INP, base, (uint64_t)K, N);
    if (l->o == 1) return N(exact)(cx, (double)at);
    return N(in)(cx, c, R_INP, base + (uint64_t)(at * K));
}
