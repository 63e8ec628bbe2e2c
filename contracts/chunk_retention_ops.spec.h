/* The spec of contracts/chunk_retention_ops.c (vocabulary: contracts/spec.h; recurrences:
 * oracle/lrec.h): the forward state (chunk_retention_common.spec.h) and the backward
 * kernel's per-chunk dh history. */
#include "chunk_retention_common.spec.h"

/* croDhCarry(NT-1-t), what the kernel stores as dh[t]: D_0 = 0, D_{c+1} = d_b D_c +
 * contrib(NT-1-c), contrib(u)[e, p] = sum_c (scale q[e, uBT+c]) (do[uBT+c, p] gamma^(c+1))
 * (masked lanes 0; d_b = gamma^BT, d_i never rebound).  Unrolled: dh[t] = sum over the
 * steps s >= (t+1)BT, s < T, of gamma^(s - (t+1)BT + 1) (scale q_s[e]) do_s[p] =
 * gamma F_{(t+1)BT}, F_j = gamma F_{j+1} + x_j, F_T = 0, x_j = (q_j scale) do_j: a reverse
 * linear recurrence over n = T - (t+1)BT steps (0 when (t+1)BT >= T: the last chunk,
 * and the surplus chunk's zeros).  Error model: x_j two roundings; td_sh_lrec_step per
 * step (3u M); td_sh_lrec_any(n): the chunk's tl.dot in any order with any chunk size
 * up to n; the final product by gamma one rounding plus its error; crt_uf: the term's
 * underflow in another association (q (do d_i)).  A term at chunk
 * offset c of a later chunk u carries exactly (u - t - 1)BT + c + 1 decay factors, the
 * steps the recurrence gives it plus the final gamma, so the decay powers' errors are the
 * per-step decay's, propagated (chunk_retention_common.spec.h).  Memoised per (head,
 * step, k, v); the intent (tag CRT_TAG_IDH) uses the exact gamma. */
static NUM SPEC(cro_carry)(NCX *cx, const td_case *c, const td_olane *l, int intent) {
    int64_t T = c->p[PO_T].i, K = c->p[PO_K].i, V = c->p[PO_V].i, BT = c->p[PO_BT].i, NT = c->p[PO_NT].i;
    int64_t bh = l->idx[0], k = l->idx[1], v = l->idx[2], n0 = (l->t + 1) * BT, ih = bh % c->p[PO_H].i;
    if (n0 >= T) return N(exact)(cx, 0.0);
    int tag = intent ? CRT_TAG_IDH : CRT_TAG_DH;
    NUM a = intent ? N(exact)(cx, 1.0 - ldexp(1.0, (int)(-5 - ih))) : SPEC(crt_decay)(cx, ih, 1);
    NUM F, scale = N(exact)(cx, c->p[PO_SCALE].r);
    double mag[2] = {0, 0};
    int64_t s = n0;
    while (s < T && !N(lrec_memo_get)(cx, crt_key(tag, bh, s, k, v, NT * BT, K, V), &F, mag)) s++;
    if (s == T) {
        F = N(exact)(cx, 0.0);
        N(lrec_init)(cx, F, mag);
    }
    for (int64_t j = s - 1; j >= n0; j--) {
        NUM q = N(in)(cx, c, RO_Q, (size_t)(bh * c->p[PO_SQK_H].i + j * c->p[PO_SQK_T].i + k * c->p[PO_SQK_D].i));
        NUM d = N(in)(cx, c, RO_DO, (size_t)(bh * c->p[PO_SVO_H].i + j * c->p[PO_SVO_T].i + v * c->p[PO_SVO_D].i));
        NUM x = SPEC(crt_uf)(cx, N(mul)(cx, N(mul)(cx, q, scale), d), q, d, c->p[PO_SCALE].r);
        F = N(lrec_step)(cx, F, a, x, mag);
        N(lrec_memo_put)(cx, crt_key(tag, bh, j, k, v, NT * BT, K, V), F, mag);
    }
    return N(mul)(cx, a, N(lrec_any)(cx, F, mag, T - n0));
}
static NUM SPEC(cro_dh)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(cro_carry)(cx, c, l, 0); }
static NUM SPEC(cro_dh_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(cro_carry)(cx, c, l, 1); }
