/* The spec of contracts/quantize_kv_transform.c (vocabulary: contracts/spec.h). */
#include "kvquant_common.spec.h"

/* lane (t, h, d) of out1, or head (t, h) of out2: the head's scale m / 127 over its
 * head_dim dims (memo per head), the value trunc_int8(K[t, h, d] / scale) */
static NUM SPEC(qkvt_lane)(NCX *cx, const td_case *c, const td_olane *l, int store) {
    const td_pval *q = c->p;
    int64_t t = l->idx[0], h = l->idx[1], base = t * q[P_SKBS].i + h * q[P_SKH].i;
    double m = kvq_rowmax(c, R_K, base, q[P_SKD].i, q[P_HDIM].i);
    NUM s;
    uint64_t key = (uint64_t)(t * q[P_BH].i + h) + 1;
    if (!N(memo_get)(cx, key, &s)) {
        s = SPEC(kvq_scale)(cx, m, -1);
        N(memo_put)(cx, key, s);
    }
    if (l->o == 1) return s;
    NUM x = N(in)(cx, c, R_K, (uint64_t)(base + l->idx[2] * q[P_SKD].i));
    return SPEC(kvq_value)(cx, x, s, m, store);
}
static NUM SPEC(qkvt)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(qkvt_lane)(cx, c, l, C_STORE); }

/* Intent: the same scale, the value rounded to nearest (the quantization formula) where
 * the kernel's .to(tl.int8) truncates. */
static NUM SPEC(qkvt_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(qkvt_lane)(cx, c, l, C_IROUND);
}
