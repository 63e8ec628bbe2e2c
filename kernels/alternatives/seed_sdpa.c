/* Alternative for seed_sdpa.scaled_dot_product_f32 (accy's scaled-dot-product attention:
 * dst[b,q,v] = sum_k softmax_k(scale * q.k) value[b,k,v], scale = RN32(1/sqrt(qk))).
 *
 *   alt_online8_fma  one pass per (b, q) instead of three per (b, q, v): each score's
 *                 dot product an FMA chain (acc = fmaf(q_h, k_h, acc)), the keys in
 *                 blocks of 8 with a running max, a running denominator and a running
 *                 output row, all rescaled by exp(m_old - m_new) when the max grows
 *                 (FlashAttention's recurrence), then dst = o_v * (1/den).  Admissible: FMA,
 *                 online softmax with another block shape, reciprocal-multiply.
 * The (b, q, v) covered are those of the launch grid: v < min(value, grid.x * tx), ...
 * Parameters: batch, queries, keys, qk, value, tx, ty, tz.
 * Regions: dst, query, key, value. */
#include "alt_a_num.h"

enum { P_BATCH, P_QUERIES, P_KEYS, P_QK, P_VALUE, P_TX, P_TY, P_TZ };
enum { R_DST, R_QUERY, R_KEY, R_VALUE };

static int64_t sdpa_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* one (b, q) row: online softmax over the keys in blocks of 8, o[0..V) the output */
static void sdpa_row(const td_abi_launch *L, int64_t b, int64_t q, float scale, float *o, float *s) {
    int64_t K = TL_I(L, P_KEYS), H = TL_I(L, P_QK), V = TL_I(L, P_VALUE), Q = TL_I(L, P_QUERIES);
    float m = -INFINITY, den = 0.0f;
    for (int64_t v = 0; v < V; v++) o[v] = 0.0f;
    for (int64_t k0 = 0; k0 < K; k0 += 8) {
        int64_t n = sdpa_min(8, K - k0);
        float bm = -INFINITY;
        for (int64_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int64_t h = 0; h < H; h++)
                acc = fmaf(tl_load(L, R_QUERY, (b * Q + q) * H + h), tl_load(L, R_KEY, (b * K + k0 + j) * H + h), acc);
            s[j] = acc * scale;
            bm = s[j] > bm ? s[j] : bm;
        }
        float mn = bm > m ? bm : m, alpha = m == mn ? 1.0f : expf(m - mn);
        den = den * alpha;
        for (int64_t v = 0; v < V; v++) o[v] = o[v] * alpha;
        for (int64_t j = 0; j < n; j++) {
            float p = expf(s[j] - mn);
            den = den + p;
            for (int64_t v = 0; v < V; v++) o[v] = fmaf(p, tl_load(L, R_VALUE, (b * K + k0 + j) * V + v), o[v]);
        }
        m = mn;
    }
    float r = 1.0f / den;
    for (int64_t v = 0; v < V; v++) o[v] = o[v] * r;
}

static int sdpa_online(const td_abi_launch *L) {
    int64_t Bt = TL_I(L, P_BATCH), Q = TL_I(L, P_QUERIES), H = TL_I(L, P_QK), V = TL_I(L, P_VALUE);
    int64_t nb = sdpa_min(Bt, (int64_t)L->grid[2] * TL_I(L, P_TZ)), nq = sdpa_min(Q, (int64_t)L->grid[1] * TL_I(L, P_TY));
    int64_t nv = sdpa_min(V, (int64_t)L->grid[0] * TL_I(L, P_TX));
    float scale = (float)(1.0 / sqrt((double)H));
    float *o, s[8];
    TL_ALLOC(L, o, V);
    for (int64_t b = 0; b < nb; b++)
        for (int64_t q = 0; q < nq; q++) {
            sdpa_row(L, b, q, scale, o, s);
            for (int64_t v = 0; v < nv; v++) tl_store(L, R_DST, (b * Q + q) * V + v, o[v], tl_f32());
        }
    free(o);
    return 0;
}

TD_KERNEL(td_a_seed_sdpa_online8_fma) = {"seed_sdpa.scaled_dot_product_f32", "alt_online8_fma", TD_ABI_HOST, NULL,
                                         NULL, NULL, 8, 4, sdpa_online, NULL};
