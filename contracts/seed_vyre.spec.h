/* The spec of contracts/seed_vyre.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_common.spec.h" /* and sh_dot.h: N(acc_add_mul), N(acc_add)(acc, N(mul)(a, b)) bit for bit */

static NUM SPEC(vy_score)(NCX *cx, const td_case *c, const vy_geo *g, int64_t i, int64_t j) {
    if (vy_dot_class(c, g, i, j) == VY_DOT_INF) return N(exact)(cx, -80.0); /* bounded_score(+-inf) */
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t d = 0; d < g->D; d++)
        N(acc_add_mul)(cx, &acc, N(in)(cx, c, R_Q, (size_t)(i * g->D + d)), N(in)(cx, c, R_K, (size_t)(j * g->D + d)));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, g->scale));
}

/* exp(bounded_exp_arg(x)) for an x <= 0: x below -80 becomes -80 */
static NUM SPEC(vy_exp_bounded)(NCX *cx, NUM x) {
    NUM lo = N(exact)(cx, -80.0);
    return N(exp)(cx, N(sel)(cx, N(cmp)(cx, lo, x, '>'), lo, x));
}

/* Row i's recurrence over tiles of T keys: p_j (relative to its tile's m_new), the
 * rescale of every tile after the first, and positive_denominator(l); memoised per
 * (row, T). */
static void SPEC(vy_row)(NCX *cx, const td_case *c, const vy_geo *g, int64_t i, int64_t T, NUM *resc, NUM *p,
                         NUM *den) {
    int64_t nt = at_cdiv(g->S, T);
    unsigned salt = T == 1 ? 8 : 0;
    if (N(memo_get)(cx, at_key(VY_TAG_L + salt, (uint64_t)i, 0, 0), den)) {
        for (int64_t t = 1; t < nt; t++) N(memo_get)(cx, at_key(VY_TAG_R + salt, (uint64_t)i, (uint64_t)t, 0), &resc[t]);
        for (int64_t j = 0; j < g->S; j++) N(memo_get)(cx, at_key(VY_TAG_P + salt, (uint64_t)i, (uint64_t)j, 0), &p[j]);
        return;
    }
    NUM m = N(exact)(cx, 0), l = N(exact)(cx, 0);
    for (int64_t t = 0; t < nt; t++) {
        int64_t j0 = t * T, j1 = j0 + T < g->S ? j0 + T : g->S;
        for (int64_t j = j0; j < j1; j++) p[j] = SPEC(vy_score)(cx, c, g, i, j); /* scores for now */
        NUM tmax = p[j0];
        for (int64_t j = j0 + 1; j < j1; j++) tmax = N(max)(cx, tmax, p[j]);
        NUM mnew = t == 0 ? tmax : N(max)(cx, m, tmax);
        if (t > 0) resc[t] = SPEC(vy_exp_bounded)(cx, N(sub)(cx, m, mnew));
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
        for (int64_t j = j0; j < j1; j++) {
            p[j] = SPEC(vy_exp_bounded)(cx, N(sub)(cx, p[j], mnew));
            N(acc_add)(cx, &acc, p[j]);
        }
        NUM ts = N(acc_end)(cx, &acc);
        l = t == 0 ? ts : N(add)(cx, N(mul)(cx, resc[t], l), ts);
        m = mnew;
    }
    NUM mp = N(exact)(cx, VY_MINPOS);
    *den = N(sel)(cx, N(cmp)(cx, l, mp, '>'), l, mp); /* positive_denominator */
    for (int64_t t = 1; t < nt; t++) N(memo_put)(cx, at_key(VY_TAG_R + salt, (uint64_t)i, (uint64_t)t, 0), resc[t]);
    for (int64_t j = 0; j < g->S; j++) N(memo_put)(cx, at_key(VY_TAG_P + salt, (uint64_t)i, (uint64_t)j, 0), p[j]);
    N(memo_put)(cx, at_key(VY_TAG_L + salt, (uint64_t)i, 0, 0), *den);
}

static NUM SPEC(vy_lane)(NCX *cx, const td_case *c, const vy_geo *g, int64_t i, int64_t d, int64_t T) {
    NUM resc[VY_MAX_S], p[VY_MAX_S], den;
    SPEC(vy_row)(cx, c, g, i, T, resc, p, &den);
    NUM o = N(exact)(cx, 0);
    for (int64_t t = 0; t < at_cdiv(g->S, T); t++) {
        int64_t j0 = t * T, j1 = j0 + T < g->S ? j0 + T : g->S;
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
        for (int64_t j = j0; j < j1; j++) N(acc_add_mul)(cx, &acc, p[j], N(in)(cx, c, R_V, (size_t)(j * g->D + d)));
        NUM w = N(acc_end)(cx, &acc);
        o = t == 0 ? w : N(add)(cx, N(mul)(cx, resc[t], o), w);
    }
    NUM x = N(div)(cx, o, den);
    /* flush_tiny: |x| <= 2^-126 -> +0 */
    return N(sel)(cx, N(cmp)(cx, N(abs)(cx, x), N(exact)(cx, VY_MINPOS), '>'), x, N(exact)(cx, 0));
}

static NUM SPEC(vyre)(NCX *cx, const td_case *c, const td_olane *l) {
    vy_geo g;
    vy_geo_get(c, &g);
    NUM tiled = SPEC(vy_lane)(cx, c, &g, l->idx[0], l->idx[1], g.T);
    if (g.T == 1) return tiled;
    NUM scalar = SPEC(vy_lane)(cx, c, &g, l->idx[0], l->idx[1], 1);
    /* the exact value is the tiled recurrence's; a kernel may have run either (the
     * comparison state "first operand, exactly certain, kernel undecided": sel bounds
     * the kernel by the tiled bound or the distance to the T = 1 value plus its bound) */
    NB either = 1 | 2;
    return N(sel)(cx, either, tiled, scalar);
}


/* The intent (docs/intent.md): torch.nn.functional.scaled_dot_product_attention of the
 * one head, non-causal, default scale 1/sqrt(head_dim) exact (attn_common.spec.h). */
static NUM SPEC(vyre_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    vy_geo g;
    vy_geo_get(c, &g);
    int64_t i = l->idx[0], d = l->idx[1];
    at_irow R = {.q_reg = R_Q, .k_reg = R_K, .v_reg = R_V, .q0 = i * g.D, .qe = 1, .k0 = 0, .kj = g.D, .ke = 1,
                 .v0 = d, .vj = g.D, .nd = g.D, .nkeys = g.S, .rsq = g.D, .row = (uint64_t)i};
    return SPEC(at_intent_lane)(cx, c, &R);
}
