/* The spec of contracts/chunk_retention.c (vocabulary: contracts/spec.h): the forward
 * state (chunk_retention_common.spec.h) and the backward kernel's single dh block. */
#include "chunk_retention_common.spec.h"

/* crhDhOut(x, y) = d_b * sum_{t < NT} sum_{r < BT} (do[tBT + x, i_v BT + r] d_i[x])
 * v[tBT + r, i_v BT + y] (crhBContrib: the kernel's scrambled contraction, both operands
 * [BT, BT] blocks of the (T, V) parents, masked lanes 0), d_i[x] = gamma^(x+1), d_b =
 * gamma^BT.  Error: each term two roundings (do * d_i, then * v) and d_i's (crt_decay),
 * the NT*BT-term sum in any order (gamma_{n-1}), d_b's error and one rounding of the
 * final product; crt_uf: a term's underflow in another association ((do v) d_i). */
static NUM SPEC(crh_dh)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[PB_T].i, V = c->p[PB_V].i, BT = c->p[PB_BT].i, NT = c->p[PB_NT].i;
    int64_t bh = l->pid[2], iv = l->pid[1], x = l->idx[1], y = l->idx[2], ih = bh % c->p[PB_H].i;
    int64_t sh = c->p[PB_SVO_H].i, st = c->p[PB_SVO_T].i, sd = c->p[PB_SVO_D].i;
    NUM di = SPEC(crt_decay)(cx, ih, x + 1);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = 0; t < NT; t++)
        for (int64_t r = 0; r < BT; r++) {
            if (t * BT + x >= T || iv * BT + r >= V || t * BT + r >= T || iv * BT + y >= V) continue;
            NUM d = N(in)(cx, c, RB_DO, (size_t)(bh * sh + (t * BT + x) * st + (iv * BT + r) * sd));
            NUM w = N(in)(cx, c, RB_V, (size_t)(bh * sh + (t * BT + r) * st + (iv * BT + y) * sd));
            N(acc_add)(cx, &acc, SPEC(crt_uf)(cx, N(mul)(cx, N(mul)(cx, d, di), w), d, w, 1.0));
        }
    return N(mul)(cx, N(acc_end)(cx, &acc), SPEC(crt_decay)(cx, ih, BT));
}
