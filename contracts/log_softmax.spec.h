/* The spec of contracts/log_softmax.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "softmax_common.spec.h"

/* the reduced row (m, k): elements m*N*K + n*K + k, n < min(N, BLOCK_N) */
static inline sm_row SPEC(ls_row)(const td_case *c, const td_olane *l, int reg) {
    int64_t N = c->p[P_N].i, K = c->p[P_K].i, BN = c->p[P_BN].i;
    return sm_row_plain(reg, (uint64_t)(l->idx[0] * N * K + l->idx[2]), K, N < BN ? N : BN,
                        (uint64_t)(l->idx[0] * K + l->idx[2]));
}
static NUM SPEC(log_softmax_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(ls_row)(c, l, RF_IN);
    return N(log)(cx, SPEC(sm_softmax)(cx, c, &r, l->idx[1]));
}
static NUM SPEC(log_softmax_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(ls_row)(c, l, RB_OG);
    NUM scale = SPEC(sm_rowsum)(cx, c, &r);
    uint64_t off = r.base + (uint64_t)(l->idx[1] * r.stride);
    NUM g = N(in)(cx, c, RB_OG, off), o = N(in)(cx, c, RB_OUT, off);
    return N(sub)(cx, g, N(mul)(cx, N(exp)(cx, o), scale));
}


/* Intents, over all N entries of the reduced dimension (x of shape [M, N, K], dim = 1):
 * torch.log_softmax (log(exp(x_i) / sum_j exp(x_j))) and its gradient as PyTorch's
 * autograd defines it for log_softmax, grad_in_i = g_i - exp(out_i) * sum_j g_j. */
static NUM SPEC(intent_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(ls_row)(c, l, RF_IN);
    r.n = c->p[P_N].i;
    return N(log)(cx, SPEC(sm_intent_softmax)(cx, c, r, l->idx[1]));
}
static NUM SPEC(intent_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(ls_row)(c, l, RB_OG);
    r.n = c->p[P_N].i;
    r.order = TD_ORDER_ANY;
    r.key |= 1ull << 58;
    NUM scale = SPEC(sm_rowsum)(cx, c, &r);
    uint64_t off = r.base + (uint64_t)(l->idx[1] * r.stride);
    NUM g = N(in)(cx, c, RB_OG, off), o = N(in)(cx, c, RB_OUT, off);
    return N(sub)(cx, g, N(mul)(cx, N(exp)(cx, o), scale));
}
