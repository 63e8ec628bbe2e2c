/* chunk_gla_fwd, alternative: row-wise, other association and order.
 *
 * alt_rows_exp2: each output row t on its own; the intra terms A v summed first, from
 * s = t down to the chunk start, with FMA; then the inter terms from the last key
 * down, each gated query formed as q * (scale * exp2(g log2 e)) (another association
 * of the three-factor product, exp through exp2 as compiled tl.exp does), added with
 * FMA.  Admissible: any order and FMA for the output sum, the product's association
 * and exp2 (contracts/chunk_gla_fwd.c). */
#include "tl.h"

static const float LOG2E = 1.44269504088896340736f;

static int rows(const td_abi_launch *L) {
    int64_t skh = TL_I(L, 0), skt = TL_I(L, 1), svh = TL_I(L, 2), svt = TL_I(L, 3), shh = TL_I(L, 4), sht = TL_I(L, 5);
    int64_t T = TL_I(L, 7), K = TL_I(L, 8), V = TL_I(L, 9), BT = TL_I(L, 10);
    float scale = TL_R(L, 6);
    for (int64_t bh = 0; bh < (int64_t)L->grid[2]; bh++)
        for (int64_t t = 0; t < T; t++)
            for (int64_t v = 0; v < V; v++) {
                int64_t cs = t / BT * BT;
                float acc = 0.0f;
                for (int64_t s = t; s >= cs; s--)
                    acc = fmaf(tl_load(L, 5, bh * T * BT + t * BT + (s - cs)), tl_load(L, 1, bh * svh + s * svt + v), acc);
                for (int64_t e = K - 1; e >= 0; e--) {
                    int64_t qo = bh * skh + t * skt + e;
                    float w = scale * exp2f(tl_load(L, 2, qo) * LOG2E);
                    acc = fmaf(tl_load(L, 0, qo) * w, tl_load(L, 3, bh * shh + t / BT * K * V + e * sht + v), acc);
                }
                tl_store(L, 4, bh * svh + t * svt + v, acc, tl_f32());
            }
    return 0;
}

TD_KERNEL(td_a_cgf_o) = {"chunk_gla_fwd.chunk_gla_fwd_o_exec_genuine", "alt_rows_exp2", TD_ABI_HOST, NULL, NULL,
                         NULL, 13, 6, rows, NULL};
