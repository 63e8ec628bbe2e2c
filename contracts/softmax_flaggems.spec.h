/* The spec of contracts/softmax_flaggems.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "softmax_common.spec.h"

static NUM SPEC(fg_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PI_N].i, T = c->p[PI_TILE].i;
    sm_row r = sm_row_plain(RF_IN, (uint64_t)(l->idx[0] * N), 1, N < T ? N : T, (uint64_t)l->idx[0]);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}
/* the column (p0, k) of a non-inner tile: elements at p0*N*K + n*K + k */
static inline sm_row SPEC(fg_column)(const td_case *c, const td_olane *l, int reg) {
    int64_t N = c->p[PN_N].i, K = c->p[PN_K].i, TN = c->p[PN_TILE_N].i;
    return sm_row_plain(reg, (uint64_t)(l->idx[0] * N * K + l->idx[2]), K, N < TN ? N : TN,
                        (uint64_t)(l->idx[0] * K + l->idx[2]));
}
static NUM SPEC(fg_non_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(fg_column)(c, l, RF_IN);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}
/* out * (out_grad - tl.sum(out * out_grad)) at element i of the reduced row r */
static inline NUM SPEC(fg_vjp)(NCX *cx, const td_case *c, const sm_row *r, int64_t i) {
    NUM scale = SPEC(sm_dot)(cx, c, r, RB_OG);
    uint64_t off = r->base + (uint64_t)(i * r->stride);
    NUM o = N(in)(cx, c, RB_OUT, off), g = N(in)(cx, c, RB_OG, off);
    return N(mul)(cx, o, N(sub)(cx, g, scale));
}
static NUM SPEC(fg_bwd_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PB_N].i, TN = c->p[PB_TILE_N].i;
    sm_row r = sm_row_plain(RB_OUT, (uint64_t)(l->idx[0] * N), 1, N < TN ? N : TN, (uint64_t)l->idx[0]);
    return SPEC(fg_vjp)(cx, c, &r, l->idx[1]);
}
static NUM SPEC(fg_bwd_non_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(fg_column)(c, l, RB_OUT);
    return SPEC(fg_vjp)(cx, c, &r, l->idx[1]);
}


/* Intents over the whole reduced dimension: torch.softmax(x, dim) and its gradient as
 * PyTorch's autograd defines it, grad_in_i = out_i * (g_i - sum_j out_j g_j). */
static inline sm_row SPEC(fg_full)(sm_row r, int64_t n) {
    r.n = n;
    r.order = TD_ORDER_ANY;
    r.key |= 1ull << 58;
    return r;
}
static NUM SPEC(intent_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PI_N].i;
    sm_row r = sm_row_plain(RF_IN, (uint64_t)(l->idx[0] * N), 1, N, (uint64_t)l->idx[0]);
    return SPEC(sm_intent_softmax)(cx, c, r, l->idx[1]);
}
static NUM SPEC(intent_non_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(sm_intent_softmax)(cx, c, SPEC(fg_full)(SPEC(fg_column)(c, l, RF_IN), c->p[PN_N].i), l->idx[1]);
}
static NUM SPEC(intent_bwd_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t N = c->p[PB_N].i;
    sm_row r = SPEC(fg_full)(sm_row_plain(RB_OUT, (uint64_t)(l->idx[0] * N), 1, N, (uint64_t)l->idx[0]), N);
    return SPEC(fg_vjp)(cx, c, &r, l->idx[1]);
}
static NUM SPEC(intent_bwd_non_inner)(NCX *cx, const td_case *c, const td_olane *l) {
    sm_row r = SPEC(fg_full)(SPEC(fg_column)(c, l, RB_OUT), c->p[PN_N].i);
    return SPEC(fg_vjp)(cx, c, &r, l->idx[1]);
}
