/* The spec of contracts/quantize_kv_copy.c (vocabulary: contracts/spec.h). */
#include "kvquant_common.spec.h"

/* lane (t, h, g, d) of out1, or group (t, h, g) of out2: the group's scale m / 127 (memo per
 * group), the value trunc_int8(K[t, h, g, d] / scale) */
static NUM SPEC(qkvc_lane)(NCX *cx, const td_case *c, const td_olane *l, int store) {
    const td_pval *q = c->p;
    int64_t t = l->idx[0], h = l->idx[1], g = l->idx[2];
    int64_t base = t * q[P_SKBS].i + h * q[P_SKH].i + g * q[P_SKG].i;
    double m = kvq_rowmax(c, R_K, base, 1, q[P_BGD].i);
    NUM s;
    uint64_t key = (uint64_t)((t * (int64_t)c->grid[1] + h) * q[P_BGN].i + g) + 1;
    if (!N(memo_get)(cx, key, &s)) {
        s = SPEC(kvq_scale)(cx, m, -1);
        N(memo_put)(cx, key, s);
    }
    if (l->o == 1) return s;
    return SPEC(kvq_value)(cx, N(in)(cx, c, R_K, (uint64_t)(base + l->idx[3])), s, m, store);
}
static NUM SPEC(qkvc)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(qkvc_lane)(cx, c, l, C_STORE); }

/* Intent: the same scale, the value rounded to nearest (the quantization formula) where
 * the kernel's .to(tl.int8) truncates. */
static NUM SPEC(qkvc_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(qkvc_lane)(cx, c, l, C_IROUND);
}
