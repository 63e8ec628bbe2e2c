/* The spec of contracts/fast_rms_layernorm.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "rmsnorm_common.spec.h"

/* lane o = 0: Y[row, j];  o = 1: r[row] */
static inline NUM SPEC(fr)(NCX *cx, const td_case *c, const td_olane *l, const fr_layout *y) {
    int64_t row = l->idx[0], j = l->idx[1];
    int64_t n = c->p[y->n].i, B = c->p[y->b].i, L = n < B ? n : B;
    uint64_t xb = (uint64_t)(row * c->p[y->xsr].i);
    NUM inv;
    if (!N(memo_get)(cx, rn_key(RN_TAG_RSTD, (uint64_t)row), &inv)) {
        NUM S = SPEC(rn_sumprod)(cx, c, R_X, xb, 1, R_X, xb, 1, 1, L, B);
        NUM var = N(div)(cx, S, N(exact)(cx, (double)n)); /* n_cols = 0: 0.0 / 0 = NaN, as the kernel */
        inv = N(rsqrt)(cx, N(add)(cx, var, N(exact)(cx, c->p[y->eps].r)));
        N(memo_put)(cx, rn_key(RN_TAG_RSTD, (uint64_t)row), inv);
    }
    if (l->o == 1) return inv;
    NUM normed = N(mul)(cx, N(in)(cx, c, R_X, xb + (uint64_t)j), inv);
    if (y->gemma) return N(mul)(cx, normed, N(add)(cx, N(in)(cx, c, R_W, (uint64_t)j), N(exact)(cx, 1.0)));
    return N(mul)(cx, normed, N(in)(cx, c, R_W, (uint64_t)(j * c->p[y->wsr].i)));
}
static NUM SPEC(plain)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fr)(cx, c, l, &PLAIN); }
static NUM SPEC(gemma)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fr)(cx, c, l, &GEMMA); }

/* The intents: RMSNorm (Zhang & Sennrich 2019, "Root Mean Square Layer Normalization";
 * torch.nn.RMSNorm): y = x / sqrt(mean(x^2) + eps) * w over the row's n_cols entries, and
 * Gemma's variant y = x / sqrt(mean(x^2) + eps) * (1 + w) (Gemma, HF GemmaRMSNorm).  The
 * r lane is the row's 1 / sqrt(mean(x^2) + eps) itself: rn_intent of x = 1, w = 1. */
static inline NUM SPEC(fr_intent)(NCX *cx, const td_case *c, const td_olane *l, const fr_layout *y) {
    int64_t row = l->idx[0], j = l->idx[1];
    uint64_t xb = (uint64_t)(row * c->p[y->xsr].i);
    int64_t n = c->p[y->n].i;
    double eps = c->p[y->eps].r;
    if (l->o == 1)
        return SPEC(rn_intent)(cx, c, R_X, xb, 1, n, N(exact)(cx, 1.0), N(exact)(cx, 1.0), eps, (uint64_t)row);
    NUM x = N(in)(cx, c, R_X, xb + (uint64_t)j);
    NUM w = y->gemma ? N(add)(cx, N(exact)(cx, 1.0), N(in)(cx, c, R_W, (uint64_t)j))
                     : N(in)(cx, c, R_W, (uint64_t)(j * c->p[y->wsr].i));
    return SPEC(rn_intent)(cx, c, R_X, xb, 1, n, x, w, eps, (uint64_t)row);
}
static NUM SPEC(plain_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fr_intent)(cx, c, l, &PLAIN);
}
static NUM SPEC(gemma_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(fr_intent)(cx, c, l, &GEMMA);
}
