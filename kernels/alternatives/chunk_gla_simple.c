/* chunk_gla_simple, alternative: the row-wise recurrent-free form with other orders.
 *
 * alt_rows_exp2: each output row t computed on its own (no [BT, BT] score tile): the
 * dot products q_t . h and q_t . k_s with FMA from the last key down, the gate as
 * exp2f((g_t - g_s) * log2 e) (what compiled tl.exp does), the values summed from s = t
 * down to the chunk start with FMA, the inter term q_t . h exp(g_t) added last.
 * Admissible: any order and FMA for every sum, exp evaluated through exp2 (the math
 * model's budget), the same roundings otherwise (contracts/chunk_gla_simple.c). */
#include "tl.h"

static const float LOG2E = 1.44269504088896340736f;

static float dot_rev(const td_abi_launch *L, int ra, int64_t oa, int rb, int64_t ob, int64_t sb, int64_t K) {
    float a = 0.0f;
    for (int64_t e = K - 1; e >= 0; e--) a = fmaf(tl_load(L, ra, oa + e), tl_load(L, rb, ob + e * sb), a);
    return a;
}

static int rows(const td_abi_launch *L) {
    int64_t skh = TL_I(L, 0), skt = TL_I(L, 1), svh = TL_I(L, 2), svt = TL_I(L, 3), shh = TL_I(L, 4), sht = TL_I(L, 5);
    int64_t T = TL_I(L, 7), K = TL_I(L, 8), V = TL_I(L, 9), BT = TL_I(L, 10);
    float scale = TL_R(L, 6);
    for (int64_t bh = 0; bh < (int64_t)L->grid[2]; bh++)
        for (int64_t t = 0; t < T; t++) {
            int64_t cs = t / BT * BT;
            float gt = tl_load(L, 4, bh * T + t);
            for (int64_t v = 0; v < V; v++) {
                float acc = 0.0f;
                for (int64_t s = t; s >= cs; s--) {
                    float qk = dot_rev(L, 0, bh * skh + t * skt, 1, bh * skh + s * skt, 1, K);
                    float w = exp2f((gt - tl_load(L, 4, bh * T + s)) * LOG2E);
                    acc = fmaf(qk * w, tl_load(L, 2, bh * svh + s * svt + v), acc);
                }
                float qh = dot_rev(L, 0, bh * skh + t * skt, 3, bh * shh + t / BT * K * V + v, sht, K);
                acc = fmaf(qh, exp2f(gt * LOG2E), acc);
                tl_store(L, 5, bh * svh + t * svt + v, acc * scale, tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_a_cgs_summary) = {"chunk_gla_simple.chunk_gla_simple_output_summary_general", "alt_rows_exp2",
                               TD_ABI_HOST, NULL, NULL, NULL, 13, 6, rows, NULL};
TD_KERNEL(td_a_cgs_io) = {"chunk_gla_simple.chunk_gla_simple_io_correctness", "alt_rows_exp2", TD_ABI_HOST, NULL,
                          NULL, NULL, 13, 6, rows, NULL};
