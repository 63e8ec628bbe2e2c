/* The spec of contracts/quantize_copy_kv.c (vocabulary: contracts/spec.h). */
#include "kvquant_common.spec.h"

/* lane (t, h, d) of out1, or head (t, h) of out2: the head's scale fp16(m / 127) (memo
 * per head), the value trunc_int8(K[t, h, d] / that scale) */
static NUM SPEC(qckv_lane)(NCX *cx, const td_case *c, const td_olane *l, int store) {
    const td_pval *q = c->p;
    int64_t t = l->idx[0], h = l->idx[1], base = t * q[P_SKBS].i + h * q[P_SKH].i;
    double m = kvq_rowmax(c, R_K, base, q[P_SKD].i, q[P_BD].i);
    NUM s;
    uint64_t key = (uint64_t)(t * q[P_BH].i + h) + 1;
    if (!N(memo_get)(cx, key, &s)) {
        s = SPEC(kvq_scale)(cx, m, C_SCALE);
        N(memo_put)(cx, key, s);
    }
    if (l->o == 1) return s;
    NUM x = N(in)(cx, c, R_K, (uint64_t)(base + l->idx[2] * q[P_SKD].i));
    return SPEC(kvq_value)(cx, x, s, m, store);
}
static NUM SPEC(qckv)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(qckv_lane)(cx, c, l, C_STORE); }

/* Intent: the same scale, the value rounded to nearest (the quantization formula) where
 * the kernel's .to(tl.int8) truncates. */
static NUM SPEC(qckv_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(qckv_lane)(cx, c, l, C_IROUND);
}
