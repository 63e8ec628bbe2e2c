/* The spec of contracts/triton_argmax.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(a1)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t M = c->p[P1_M].i, B = c->p[P1_BLOCK].i, base = (int64_t)l->pid[0] * B;
    int64_t n = M - base < B ? M - base : B;
    int64_t at = n > 0 ? rc_first_max(c, R1_INP, (uint64_t)base, 1, n) : -1;
    if (l->o == 1) return N(exact)(cx, (double)(base + (at < 0 ? 0 : at)));
    if (at < 0) return N(exact)(cx, -INFINITY);
    return N(in)(cx, c, R1_INP, (uint64_t)(base + at));
}
static NUM SPEC(a2)(NCX *cx, const td_case *c, const td_olane *l) {
    (void)l;
    int64_t size = c->p[P2_SIZE].i, B = c->p[P2_BLOCK].i;
    int64_t at = rc_first_max(c, R2_VAL, 0, 1, size < B ? size : B);
    return N(exact)(cx, (double)td_geti(c, R2_IDX, (size_t)(at < 0 ? 0 : at)));
}
static NUM SPEC(ad)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PD_N].i, K = c->p[PD_K].i, m = l->idx[0], k = l->idx[1];
    return N(exact)(cx, (double)rc_first_max(c, RD_INP, (uint64_t)(m * N * K + k), (uint64_t)K, N));
}


/* Intent of argmax_kernel_dim: torch.argmax(x, dim=1) of x[M, N, K] (PyTorch
 * documentation: the index of the first maximal value along the dimension). */
static NUM SPEC(intent_dim)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PD_N].i, K = c->p[PD_K].i, m = l->idx[0], k = l->idx[1];
    uint64_t base = (uint64_t)(m * N * K + k);
    int64_t best = 0;
    for (int64_t j = 1; j < N; j++)
        if (td_get(c, RD_INP, base + (uint64_t)(j * K)) > td_get(c, RD_INP, base + (uint64_t)(best * K))) best = j;
    return N(exact)(cx, (double)best);
}

/* Intent of argmax_kernel_1 where its one program covers the whole input: torch.max(x)
 * and torch.argmax(x) of the M elements (PyTorch documentation: the maximum, and the
 * index of its first occurrence), written as a plain scan of all M elements. */
static NUM SPEC(intent_a1)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t M = c->p[P1_M].i, best = 0;
    for (int64_t j = 1; j < M; j++)
        if (td_get(c, R1_INP, (uint64_t)j) > td_get(c, R1_INP, (uint64_t)best)) best = j;
    if (l->o == 1) return N(exact)(cx, (double)best);
    return N(in)(cx, c, R1_INP, (uint64_t)best);
}
