/* One query row of an online-softmax attention, written independently of the ports'
 * tile programs, with the choices a kernel author is free to make where the contract
 * (the catalogue's closed form over the reals, hfp16: R.round .fp16 = id) fixes only
 * out = sum_j 2^(s_j) v_j / sum_j 2^(s_j) (or e^(s_j)):
 *   - the KV block size C (any positive number of keys, unrelated to BLOCK_N: the
 *     running max moves at other keys, so each p is cast to fp16 at another scale);
 *   - the order of the blocks (left to right, or right to left);
 *   - the running sum added sequentially, acc * alpha + P.V fused (one FMA);
 *   - P cast to fp16 before the P.V products, and each block's P.V rounded to fp16
 *     (tl.dot(..., out_dtype=fp16)), where the port does: the same roundings at the
 *     scales this blocking gives them;
 *   - out = acc * (1 / l).
 * Scores come in already formed (the caller's dot and scales); masked keys are
 * skipped (the kernels' exp2(-inf) = 0). */
#ifndef TD_ALT_A_ATTN_H
#define TD_ALT_A_ATTN_H

#include "alt_a_softmax.h"
#include "alt_common.h"

typedef struct aat_row {
    int64_t n;           /* keys 0 .. n-1 */
    const float *s;      /* their scores, in the exp's base */
    const uint8_t *keep; /* NULL: every key kept */
    int64_t C;           /* keys per block */
    int reverse;         /* blocks from the last to the first */
    int p16, pv16;       /* P to fp16 before the P.V products; each block's P.V to fp16 */
    aa_expfn ex;
} aat_row;

static inline float aat_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(alt_f16(), x)); }

/* o[0..D) = the row's output; v[j*D + d] the values as the P.V product takes them;
 * p: scratch of C floats; *pm, *pl (when not NULL): the final running max and sum */
static inline void aat_row_run2(const aat_row *R, const float *v, int64_t D, float *o, float *p, float *pm, float *pl) {
    float m = -INFINITY, l = 0.0f;
    int started = 0;
    int64_t nb = (R->n + R->C - 1) / R->C;
    for (int64_t d = 0; d < D; d++) o[d] = 0.0f;
    for (int64_t bi = 0; bi < nb; bi++) {
        int64_t b = R->reverse ? nb - 1 - bi : bi, lo = b * R->C, hi = lo + R->C < R->n ? lo + R->C : R->n;
        float bm = -INFINITY;
        int any = 0;
        for (int64_t j = lo; j < hi; j++)
            if (!R->keep || R->keep[j]) bm = any && bm >= R->s[j] ? bm : R->s[j], any = 1;
        if (!any) continue;
        float mn = started && m > bm ? m : bm;
        float alpha = started ? R->ex(m - mn) : 0.0f;
        float ls = 0.0f;
        for (int64_t j = lo; j < hi; j++) {
            p[j - lo] = (!R->keep || R->keep[j]) ? R->ex(R->s[j] - mn) : 0.0f;
            ls += p[j - lo];
            if (R->p16) p[j - lo] = aat_f16(p[j - lo]);
        }
        l = started ? l * alpha + ls : ls;
        for (int64_t d = 0; d < D; d++) {
            float pv = 0.0f;
            for (int64_t j = lo; j < hi; j++) pv = fmaf(p[j - lo], v[j * D + d], pv);
            if (R->pv16) pv = aat_f16(pv);
            o[d] = started ? fmaf(o[d], alpha, pv) : pv;
        }
        m = mn;
        started = 1;
    }
    float r = started ? 1.0f / l : 0.0f;
    for (int64_t d = 0; d < D; d++) o[d] = o[d] * r;
    if (pm) *pm = m;
    if (pl) *pl = l;
}
static inline void aat_row_run(const aat_row *R, const float *v, int64_t D, float *o, float *p) {
    aat_row_run2(R, v, D, o, p, NULL, NULL);
}

#endif
