/* The spec of contracts/chunk_gated_attention.c (vocabulary: contracts/spec.h): both
 * slices are copies, read = write address in the source region. */
static NUM SPEC(cga_copy)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, l->o == O_H ? R_BH : R_BHF, l->off);
}

/* ---- the bundle ---- */
#ifndef CGA_SPEC_KEYS
#define CGA_SPEC_KEYS
static uint64_t cga_key(const td_case *c, int64_t bh, int64_t j, int64_t k, int64_t v) {
    return (uint64_t)(((bh * 16 + j) * c->p[PB_K].i + k) * c->p[PB_V].i + v);
}
#endif

/* GCum[t, d]: S summed over the chunk's rows cs .. t, any order */
static NUM SPEC(cga_cum)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t d) {
    int64_t BT = c->p[PB_BT].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t s = t / BT * BT; s <= t; s++)
        N(acc_add)(cx, &acc, N(in)(cx, c, RB_SREG, (size_t)(bh * c->p[PB_SSH].i + s * c->p[PB_SST].i + d * c->p[PB_SSD].i)));
    return N(acc_end)(cx, &acc);
}

/* g at row t, channel x (K's layout under GATEK, V's otherwise; rows contiguous) */
static NUM SPEC(cga_g)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t x) {
    int gatek = (int)c->p[PB_GATEK].i;
    int64_t sh = gatek ? c->p[PB_SKH].i : c->p[PB_SVH].i, D = gatek ? c->p[PB_K].i : c->p[PB_V].i;
    return N(in)(cx, c, RB_G, (size_t)(bh * sh + t * D + x));
}

/* hClosed(j+1) from hClosed(j): one sum in any order of h exp(gn) and the chunk's gated products */
static NUM SPEC(cga_step)(NCX *cx, const td_case *c, NUM h, int64_t bh, int64_t j, int64_t k, int64_t v) {
    int gatek = (int)c->p[PB_GATEK].i;
    int64_t BT = c->p[PB_BT].i, x = gatek ? k : v;
    NUM gn = SPEC(cga_g)(cx, c, bh, j * BT + BT - 1, x);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0); /* the source: h * exp(gn) + tl.dot (documentation) */
    N(acc_add)(cx, &acc, N(mul)(cx, h, N(exp)(cx, gn)));
    for (int64_t t = j * BT; t < (j + 1) * BT; t++) {
        NUM kk = N(in)(cx, c, RB_K, (size_t)(bh * c->p[PB_SKH].i + t * c->p[PB_SKT].i + k));
        NUM vv = N(in)(cx, c, RB_V, (size_t)(bh * c->p[PB_SVH].i + t * c->p[PB_SVT].i + v));
        NUM w = N(exp)(cx, N(sub)(cx, gn, SPEC(cga_g)(cx, c, bh, t, x)));
        N(acc_add)(cx, &acc, gatek ? N(mul)(cx, N(mul)(cx, kk, w), vv) : N(mul)(cx, kk, N(mul)(cx, vv, w)));
    }
    return N(acc_end)(cx, &acc);
}

/* hClosed(j) for j = 0 .. m+1, memoised per (head, chunk, k, v) */
static NUM SPEC(cga_h)(NCX *cx, const td_case *c, int64_t bh, int64_t j, int64_t k, int64_t v) {
    int64_t K = c->p[PB_K].i, V = c->p[PB_V].i, s = j;
    NUM h;
    while (s > 0 && !N(memo_get)(cx, cga_key(c, bh, s, k, v), &h)) s--;
    if (s == 0) h = c->p[PB_USE_INIT].i ? N(in)(cx, c, RB_H0, (size_t)(bh * K * V + k * V + v)) : N(exact)(cx, 0.0);
    for (int64_t u = s; u < j; u++) {
        h = SPEC(cga_step)(cx, c, h, bh, u, k, v);
        N(memo_put)(cx, cga_key(c, bh, u + 1, k, v), h);
    }
    return h;
}

static NUM SPEC(cga_bundle)(NCX *cx, const td_case *c, const td_olane *l) {
    if (l->o == OB_GCUM) return SPEC(cga_cum)(cx, c, l->idx[0], l->idx[1], l->idx[2]);
    return SPEC(cga_h)(cx, c, l->idx[0], (int64_t)l->t, l->idx[1], l->idx[2]);
}
