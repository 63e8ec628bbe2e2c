/* The spec of contracts/seed_fa1.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_common.spec.h"

/* s_ij = RN(dot * scale), the dot over d < D in any order */
static NUM SPEC(fa1_score)(NCX *cx, const td_case *c, const fa1_geo *g, int64_t b, int64_t h, int64_t i, int64_t j) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t d = 0; d < g->D; d++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_Q, (size_t)fa1_off(g, T_Q, b, h, i, d)),
                                    N(in)(cx, c, R_K, (size_t)fa1_off(g, T_K, b, h, j, d))));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, g->scale));
}

/* The row's probabilities p_j (relative to the running maximum of their block), the
 * rescale factors alpha_n of blocks n >= 1 and the final l; memoised per row. */
static void SPEC(fa1_row)(NCX *cx, const td_case *c, const fa1_geo *g, int64_t b, int64_t h, int64_t i, NUM *alpha,
                          NUM *p, NUM *l, double *pm) {
    int64_t n = fa1_nvalid(g, i), nt = g->naive ? 1 : at_cdiv(n, g->Bk);
    uint64_t row = (uint64_t)(b * g->H + h);
    if (N(memo_get)(cx, at_key(FA1_TAG_L, row, (uint64_t)i, 0), l)) {
        for (int64_t t = 1; t < nt; t++) N(memo_get)(cx, at_key(FA1_TAG_A, row, (uint64_t)i, (uint64_t)t), &alpha[t]);
        for (int64_t j = 0; j < n; j++) N(memo_get)(cx, at_key(FA1_TAG_P, row, (uint64_t)i, (uint64_t)j), &p[j]);
        for (int64_t j = 0; g->naive && j < n; j++) {
            NUM t;
            pm[j] = N(memo_get)(cx, at_key(FA1_TAG_PM, row, (uint64_t)i, (uint64_t)j), &t) ? N(up)(cx, t) : 1.0;
        }
        return;
    }
    if (g->naive) {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        NUM m = N(exact)(cx, 0);
        double shi[FA1_MAX_S];
        for (int64_t j = 0; j < n; j++) {
            NUM sj = SPEC(fa1_score)(cx, c, g, b, h, i, j);
            m = j == 0 ? sj : N(max)(cx, m, sj);
            shi[j] = N(up)(cx, sj);
            p[j] = N(exp)(cx, sj);
            N(acc_add)(cx, &acc, p[j]);
        }
        *l = N(acc_end)(cx, &acc);
        /* a kernel may subtract the maximum (online or two-pass): its weights e^(s_j - m)
         * are at most these (1 + 2^-8 covers its exp's error); see fa1_lane */
        double mlo = n > 0 ? N(down)(cx, m) : 0.0;
        for (int64_t j = 0; j < n; j++) {
            pm[j] = (shi[j] - mlo >= 0 ? 1.0 : exp(shi[j] - mlo)) * (1 + 0x1p-8);
            N(memo_put)(cx, at_key(FA1_TAG_PM, row, (uint64_t)i, (uint64_t)j), N(exact)(cx, pm[j]));
        }
    } else {
        NUM m = N(exact)(cx, 0), lr = N(exact)(cx, 0);
        for (int64_t t = 0; t < nt; t++) {
            int64_t j0 = t * g->Bk, j1 = j0 + g->Bk < n ? j0 + g->Bk : n;
            for (int64_t j = j0; j < j1; j++) p[j] = SPEC(fa1_score)(cx, c, g, b, h, i, j); /* scores for now */
            NUM mb = p[j0];
            for (int64_t j = j0 + 1; j < j1; j++) mb = N(max)(cx, mb, p[j]);
            NUM mnew = t == 0 ? mb : N(max)(cx, m, mb);
            if (t > 0) alpha[t] = N(exp)(cx, N(sub)(cx, m, mnew));
            NACC acc;
            N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
            for (int64_t j = j0; j < j1; j++) {
                p[j] = N(exp)(cx, N(sub)(cx, p[j], mnew));
                N(acc_add)(cx, &acc, p[j]);
            }
            NUM rs = N(acc_end)(cx, &acc);
            lr = t == 0 ? rs : N(add)(cx, N(mul)(cx, alpha[t], lr), rs);
            m = mnew;
        }
        *l = lr;
    }
    for (int64_t t = 1; t < nt; t++) N(memo_put)(cx, at_key(FA1_TAG_A, row, (uint64_t)i, (uint64_t)t), alpha[t]);
    for (int64_t j = 0; j < n; j++) N(memo_put)(cx, at_key(FA1_TAG_P, row, (uint64_t)i, (uint64_t)j), p[j]);
    N(memo_put)(cx, at_key(FA1_TAG_L, row, (uint64_t)i, 0), *l);
}

/* The naive kernels' spec is e^(s_j) weights with no maximum subtracted; a kernel may
 * evaluate the same real value stably (two passes, or online over blocks of any size):
 * its numerator and denominator then live at the scale where the largest weight is 1,
 * where its subnormal weights, rescales and argument roundings err in ways the naive
 * evaluation (at scale e^m) does not show.  Errors E_num, E_den there move
 * out = num / den by at most (E_num + |out| E_den) / (den - E_den), den >= 1 - E_den
 * (the largest weight is e^0; its exp within 2^-8): td_sh_reblock_loc with the
 * argument terms (args = 1). */
static NUM SPEC(fa1_naive_any)(NCX *cx, const td_case *c, const fa1_geo *g, int64_t b, int64_t h, int64_t d, int64_t n,
                               const double *pm, NUM out) {
    double smag = 0, lmag = 0, vmax = 0;
    for (int64_t j = 0; j < n; j++) {
        double v = fabs(td_get(c, R_V, (size_t)fa1_off(g, T_V, b, h, j, d)));
        smag += pm[j] * v, lmag += pm[j];
        vmax = v > vmax ? v : vmax;
    }
    double en = N(reblock_loc)(cx, (long)n, smag, vmax, 0, 1, 0, 1);
    double ed = N(reblock_loc)(cx, (long)n, lmag, 1.0, 0, 1, 0, 1);
    double den = (1 - 0x1p-8) - ed;
    double e = den > 0 ? (en + N(hi)(cx, out) * ed) / den * (1 + 0x1p-40) : INFINITY;
    return N(widen)(cx, out, e, "a stable (max-subtracting) evaluation of the naive spec");
}

static NUM SPEC(fa1_lane)(NCX *cx, const td_case *c, const td_olane *ol, int naive_layout, int naive, int causal) {
    fa1_geo g;
    fa1_geo_get(c, naive_layout, naive, causal, &g);
    int64_t b = ol->idx[0], h = ol->idx[1], i = ol->idx[2], d = ol->idx[3];
    NUM alpha[FA1_MAX_S], p[FA1_MAX_S], l;
    double pm[FA1_MAX_S];
    SPEC(fa1_row)(cx, c, &g, b, h, i, alpha, p, &l, pm);
    int64_t n = fa1_nvalid(&g, i), nt = naive ? 1 : at_cdiv(n, g.Bk), blk = naive ? n : g.Bk;
    NUM o = N(exact)(cx, 0);
    for (int64_t t = 0; t < nt; t++) {
        int64_t j0 = t * blk, j1 = j0 + blk < n ? j0 + blk : n;
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t j = j0; j < j1; j++)
            N(acc_add)(cx, &acc, N(mul)(cx, p[j], N(in)(cx, c, R_V, (size_t)fa1_off(&g, T_V, b, h, j, d))));
        NUM pv = N(acc_end)(cx, &acc);
        o = t == 0 ? pv : N(add)(cx, N(mul)(cx, alpha[t], o), pv);
    }
    NUM out = N(div)(cx, o, l);
    return naive ? SPEC(fa1_naive_any)(cx, c, &g, b, h, d, n, pm, out) : out;
}

static NUM SPEC(fa1_online)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa1_lane)(cx, c, l, 0, 0, 0); }
static NUM SPEC(fa1_online_causal)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fa1_lane)(cx, c, l, 0, 0, 1);
}
static NUM SPEC(fa1_naive)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa1_lane)(cx, c, l, 1, 1, 0); }
static NUM SPEC(fa1_naive_causal)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fa1_lane)(cx, c, l, 1, 1, 1);
}


/* The intent (docs/intent.md): torch.nn.functional.scaled_dot_product_attention(Q, K, V,
 * is_causal, scale) of the lane's (b, h) slice, exact (attn_common.spec.h); the causal
 * mask keeps key j <= query i (torch's top-left tril), fa1_nvalid's keys. */
static NUM SPEC(fa1_intent_lane)(NCX *cx, const td_case *c, const td_olane *ol, int naive_layout, int causal) {
    fa1_geo g;
    fa1_geo_get(c, naive_layout, naive_layout, causal, &g);
    int64_t b = ol->idx[0], h = ol->idx[1], i = ol->idx[2], d = ol->idx[3];
    at_irow R = {.q_reg = R_Q, .k_reg = R_K, .v_reg = R_V, .q0 = fa1_off(&g, T_Q, b, h, i, 0), .qe = g.st[T_Q][3],
                 .k0 = fa1_off(&g, T_K, b, h, 0, 0), .kj = g.st[T_K][2], .ke = g.st[T_K][3],
                 .v0 = fa1_off(&g, T_V, b, h, 0, d), .vj = g.st[T_V][2], .nd = g.D, .nkeys = fa1_nvalid(&g, i),
                 .scale = g.scale, .row = (uint64_t)((b * g.H + h) * g.Sq + i)};
    return SPEC(at_intent_lane)(cx, c, &R);
}
static NUM SPEC(fa1_online_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fa1_intent_lane)(cx, c, l, 0, 0);
}
static NUM SPEC(fa1_online_causal_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fa1_intent_lane)(cx, c, l, 0, 1);
}
static NUM SPEC(fa1_naive_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fa1_intent_lane)(cx, c, l, 1, 0);
}
static NUM SPEC(fa1_naive_causal_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fa1_intent_lane)(cx, c, l, 1, 1);
}
