/* The spec of contracts/seed_sdpa.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_common.spec.h"

static NUM SPEC(sdpa_score)(NCX *cx, const td_case *c, const sdpa_geo *g, int64_t b, int64_t q, int64_t k) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t h = 0; h < g->qk; h++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_QUERY, (size_t)((b * g->queries + q) * g->qk + h)),
                                    N(in)(cx, c, R_KEY, (size_t)((b * g->keys + k) * g->qk + h))));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, g->scale));
}

/* the weights exp(s_k - m) / den of row (b, q), memoised */
static void SPEC(sdpa_weights)(NCX *cx, const td_case *c, const sdpa_geo *g, int64_t b, int64_t q, NUM *w) {
    uint64_t row = (uint64_t)(b * g->queries + q);
    NUM den;
    if (N(memo_get)(cx, at_key(SDPA_TAG_DEN, row, 0, 0), &den)) {
        for (int64_t k = 0; k < g->keys; k++) N(memo_get)(cx, at_key(SDPA_TAG_W, row, (uint64_t)k, 0), &w[k]);
        return;
    }
    NUM e[SDPA_MAX_KEYS];
    for (int64_t k = 0; k < g->keys; k++) e[k] = SPEC(sdpa_score)(cx, c, g, b, q, k);
    NUM m = e[0];
    for (int64_t k = 1; k < g->keys; k++) m = N(max)(cx, m, e[k]);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t k = 0; k < g->keys; k++) {
        e[k] = N(exp)(cx, N(sub)(cx, e[k], m));
        N(acc_add)(cx, &acc, e[k]);
    }
    den = N(acc_end)(cx, &acc);
    for (int64_t k = 0; k < g->keys; k++) {
        w[k] = N(div)(cx, e[k], den);
        N(memo_put)(cx, at_key(SDPA_TAG_W, row, (uint64_t)k, 0), w[k]);
    }
    N(memo_put)(cx, at_key(SDPA_TAG_DEN, row, 0, 0), den);
}

static NUM SPEC(sdpa)(NCX *cx, const td_case *c, const td_olane *l) {
    sdpa_geo g;
    sdpa_geo_get(c, &g);
    int64_t b = l->idx[0], q = l->idx[1], v = l->idx[2];
    NUM w[SDPA_MAX_KEYS];
    SPEC(sdpa_weights)(cx, c, &g, b, q, w);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t k = 0; k < g.keys; k++)
        N(acc_add)(cx, &acc, N(mul)(cx, w[k], N(in)(cx, c, R_VALUE, (size_t)((b * g.keys + k) * g.value + v))));
    return N(acc_end)(cx, &acc);
}


/* The intent (docs/intent.md): torch.nn.functional.scaled_dot_product_attention with its
 * default scale 1/sqrt(qk), exact (attn_common.spec.h); see seed_sdpa.c's intent note. */
static NUM SPEC(sdpa_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    sdpa_geo g;
    sdpa_geo_get(c, &g);
    int64_t b = l->idx[0], q = l->idx[1], v = l->idx[2];
    at_irow R = {.q_reg = R_QUERY, .k_reg = R_KEY, .v_reg = R_VALUE, .q0 = (b * g.queries + q) * g.qk, .qe = 1,
                 .k0 = b * g.keys * g.qk, .kj = g.qk, .ke = 1, .v0 = b * g.keys * g.value + v, .vj = g.value,
                 .nd = g.qk, .nkeys = g.keys, .rsq = g.qk, .row = (uint64_t)(b * g.queries + q)};
    return SPEC(at_intent_lane)(cx, c, &R);
}
