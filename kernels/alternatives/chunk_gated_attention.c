/* chunk_gated_attention, alternatives.
 *
 * alt_tree_tokens (the bundle): the cumsum of each row as a pairwise tree over the
 * chunk's prefix (tl_sum), not a dot against the triangular mask; each state step adds
 * the chunk's gated products into the already decayed state one token at a time, from
 * the chunk's last row down, with FMA, the gates as exp2f(x * log2 e).  Admissible: the
 * cumsum and every state step are sums in any order, FMA, exp through exp2
 * (contracts/chunk_gated_attention.c).
 *
 * alt_flat: no tiles: one loop over the whole [B*H, KSize, VSize] state (v outer, k
 * inner: the transposed traversal), each element copied once through memcpy (bits
 * kept).  Admissible: a copy has one correct value per lane, whatever the traversal. */
#include "tl.h"

static int flat(const td_abi_launch *L) {
    int64_t it = TL_I(L, 0), shh = TL_I(L, 1), sht = TL_I(L, 2), shd = TL_I(L, 3), K = TL_I(L, 4), V = TL_I(L, 5);
    const float *bh = TL_BASE(L, 0), *bhf = TL_BASE(L, 2);
    float *h = TL_BASE(L, 1), *ht = TL_BASE(L, 3);
    for (int64_t b = 0; b < (int64_t)L->grid[2]; b++)
        for (int64_t v = 0; v < V; v++)
            for (int64_t k = 0; k < K; k++) {
                int64_t off = b * shh + it * K * V + k * sht + v * shd, fo = (b * K + k) * V + v;
                memcpy(h + off, bh + off, sizeof(float));
                memcpy(ht + fo, bhf + fo, sizeof(float));
            }
    return 0;
}

static const float LOG2E = 1.44269504088896340736f;

static void cum_tree(const td_abi_launch *L, float *buf) {
    int64_t ssh = TL_I(L, 1), sst = TL_I(L, 2), ssd = TL_I(L, 3), T = TL_I(L, 4), S = TL_I(L, 5), BT = TL_I(L, 6);
    for (int64_t b = 0; b < (int64_t)L->grid[2]; b++)
        for (int64_t d = 0; d < S; d++)
            for (int64_t t = 0; t < T; t++) {
                int64_t cs = t / BT * BT;
                for (int64_t r = cs; r <= t; r++) buf[r - cs] = tl_load(L, 0, b * ssh + r * sst + d * ssd);
                tl_store(L, 1, b * ssh + t * sst + d * ssd, tl_sum(buf, t - cs + 1), tl_f32());
            }
}

static int tree_tokens(const td_abi_launch *L) {
    int64_t BT = TL_I(L, 6), m = TL_I(L, 8), skh = TL_I(L, 9), svh = TL_I(L, 12), K = TL_I(L, 15), V = TL_I(L, 16);
    int gatek = (int)TL_I(L, 19);
    float *buf;
    TL_ALLOC(L, buf, BT);
    cum_tree(L, buf);
    free(buf);
    for (int64_t b = 0; b < (int64_t)L->grid[2]; b++)
        for (int64_t k = 0; k < K; k++)
            for (int64_t v = 0; v < V; v++) {
                int64_t off = b * K * V + k * V + v, x = gatek ? k : v, D = gatek ? K : V, gh = gatek ? skh : svh;
                float h = TL_I(L, 0) ? tl_load(L, 5, off) : 0.0f;
                for (int64_t j = 0; j <= m; j++) {
                    if (j == m) tl_store(L, 6, off, h, tl_f32());
                    float gn = tl_load(L, 4, b * gh + (j * BT + BT - 1) * D + x);
                    h = h * exp2f(gn * LOG2E);
                    for (int64_t t = (j + 1) * BT - 1; t >= j * BT; t--) {
                        float w = exp2f((gn - tl_load(L, 4, b * gh + t * D + x)) * LOG2E);
                        float kk = tl_load(L, 2, b * skh + t * K + k), vv = tl_load(L, 3, b * svh + t * V + v);
                        h = gatek ? fmaf(kk * w, vv, h) : fmaf(kk, vv * w, h);
                    }
                }
                tl_store(L, 7, off, h, tl_f32());
            }
    return 0;
}
TD_KERNEL(td_a_cga_bundle) = {"chunk_gated_attention.chunk_gated_attention_cum_slice_output_summary_general",
                              "alt_tree_tokens", TD_ABI_HOST, NULL, NULL, NULL, 20, 8, tree_tokens, NULL};

TD_KERNEL(td_a_cga_stores) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness", "alt_flat",
                              TD_ABI_HOST, NULL, NULL, NULL, 8, 4, flat, NULL};
TD_KERNEL(td_a_cga_stores_r) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR",
                                "alt_flat", TD_ABI_HOST, NULL, NULL, NULL, 8, 4, flat, NULL};
