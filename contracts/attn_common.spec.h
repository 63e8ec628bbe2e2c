/* The spec half of attn_common.h: the seeds' intent, compiled once per number type (each
 * seed's spec file includes it; no include guard, as spec_instantiate.h reads it twice).
 *
 * One output lane of torch.nn.functional.scaled_dot_product_attention (PyTorch
 * documentation): softmax(q k^T * scale + mask) v, the mask keeping keys 0 .. nkeys-1
 * (is_causal=True: key j <= query i, the caller's nkeys).  Every value exact: the dot in
 * any order, no intermediate rounding, natural base; the row's max m and weight sum l
 * and each key's weight e^(s_j - m) memoised under the intent's own tags (AT_TAG_I*). */
#include "sh_dot.h" /* N(acc_add_mul) */

static inline NUM SPEC(at_iscore)(NCX *cx, const td_case *c, const at_irow *R, int64_t j) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < R->nd; e++)
        N(acc_add_mul)(cx, &acc, N(in)(cx, c, R->q_reg, (size_t)(R->q0 + e * R->qe)),
                                    N(in)(cx, c, R->k_reg, (size_t)(R->k0 + j * R->kj + e * R->ke)));
    NUM sc = R->rsq > 0 ? N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, N(exact)(cx, (double)R->rsq)))
                        : N(exact)(cx, R->scale);
    if (R->base2) sc = N(mul)(cx, sc, N(log)(cx, N(exact)(cx, 2.0)));
    return N(mul)(cx, N(acc_end)(cx, &acc), sc);
}

static inline void SPEC(at_irow_stats)(NCX *cx, const td_case *c, const at_irow *R, NUM *m, NUM *ls) {
    if (N(memo_get)(cx, at_key(AT_TAG_IM, R->row, 0, 0), m) && N(memo_get)(cx, at_key(AT_TAG_IL, R->row, 0, 0), ls))
        return;
    *m = SPEC(at_iscore)(cx, c, R, 0);
    for (int64_t j = 1; j < R->nkeys; j++) *m = N(max)(cx, *m, SPEC(at_iscore)(cx, c, R, j));
    NACC l;
    N(acc_init)(cx, &l, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < R->nkeys; j++) {
        NUM p = N(exp)(cx, N(sub)(cx, SPEC(at_iscore)(cx, c, R, j), *m));
        N(acc_add)(cx, &l, p);
        N(memo_put)(cx, at_key(AT_TAG_IP, R->row, (uint64_t)j, 0), p);
    }
    *ls = N(acc_end)(cx, &l);
    N(memo_put)(cx, at_key(AT_TAG_IM, R->row, 0, 0), *m);
    N(memo_put)(cx, at_key(AT_TAG_IL, R->row, 0, 0), *ls);
}

/* sum_j e^(s_j - m) v_j / sum_j e^(s_j - m): the row's softmax times v (nkeys >= 1) */
static inline NUM SPEC(at_intent_lane)(NCX *cx, const td_case *c, const at_irow *R) {
    NUM m, ls;
    SPEC(at_irow_stats)(cx, c, R, &m, &ls);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < R->nkeys; j++) {
        NUM p;
        if (!N(memo_get)(cx, at_key(AT_TAG_IP, R->row, (uint64_t)j, 0), &p))
            p = N(exp)(cx, N(sub)(cx, SPEC(at_iscore)(cx, c, R, j), m));
        N(acc_add_mul)(cx, &acc, p, N(in)(cx, c, R->v_reg, (size_t)(R->v0 + j * R->vj)));
    }
    return N(div)(cx, N(acc_end)(cx, &acc), ls);
}

/* the row's base-2 log-sum-exp in base-2 score units, log2 sum_j e^(s_j) = (m + ln l) / ln 2
 * (the LSE2 = m + log2 l flash kernels store) */
static inline NUM SPEC(at_intent_lse2)(NCX *cx, const td_case *c, const at_irow *R) {
    NUM m, ls;
    SPEC(at_irow_stats)(cx, c, R, &m, &ls);
    return N(div)(cx, N(add)(cx, m, N(log)(cx, ls)), N(log)(cx, N(exact)(cx, 2.0)));
}
