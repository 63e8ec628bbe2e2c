/* chunk_linear_attn, alternative: the recurrent (token-by-token) form.
 *
 * alt_recurrent: each state lane (e, p) is carried token by token, s = fmaf(k_t[e],
 * v_t[p], s) (backward: s = fmaf(q_t[e] * scale, do_t[p], s) from the last token
 * down), and stored when the scan reaches a chunk boundary: h[t] after t*BT tokens,
 * dh[t] after the tokens of chunks t+1 .. NT-1.  No chunk-level tl.dot: every product
 * goes straight into the carried state.  Admissible: each state is one sum of the
 * same leaves in another order, with FMA (contracts/chunk_linear_attn.c). */
#include "tl.h"

static int run(const td_abi_launch *L, int bwd) {
    int o = bwd ? 9 : 8;
    int64_t sqkh = TL_I(L, 0), sqkt = TL_I(L, 1), sqkd = TL_I(L, 2), svoh = TL_I(L, 3), svot = TL_I(L, 4);
    int64_t svod = TL_I(L, 5), shh = TL_I(L, 6), sht = TL_I(L, 7), T = TL_I(L, o), K = TL_I(L, o + 1);
    int64_t V = TL_I(L, o + 2), BT = TL_I(L, o + 3), NT = TL_I(L, o + 6);
    float scale = bwd ? TL_R(L, 8) : 1.0f;
    for (int64_t bh = 0; bh < (int64_t)L->grid[2]; bh++)
        for (int64_t e = 0; e < K; e++)
            for (int64_t p = 0; p < V; p++) {
                float s = !bwd && TL_I(L, 15) ? tl_load(L, 3, bh * K * V + e * V + p) : 0.0f;
                for (int64_t n = 0; n < NT * BT; n++) {
                    int64_t tok = bwd ? NT * BT - 1 - n : n;
                    if (!bwd && tok % BT == 0) tl_store(L, 2, bh * shh + tok / BT * K * V + e * sht + p, s, tl_f32());
                    if (tok < T) {
                        float x = tl_load(L, 0, bh * sqkh + tok * sqkt + e * sqkd);
                        s = fmaf(bwd ? x * scale : x, tl_load(L, 1, bh * svoh + tok * svot + p * svod), s);
                    }
                    if (bwd && tok % BT == 0 && tok > 0) tl_store(L, 2, bh * shh + (tok / BT - 1) * K * V + e * sht + p, s, tl_f32());
                }
                if (bwd) tl_store(L, 2, bh * shh + (NT - 1) * K * V + e * sht + p, 0.0f, tl_f32());
                if (!bwd && TL_I(L, 16)) tl_store(L, 4, bh * K * V + e * V + p, s, tl_f32());
            }
    return 0;
}
static int fwd(const td_abi_launch *L) { return run(L, 0); }
static int bwd(const td_abi_launch *L) { return run(L, 1); }

TD_KERNEL(td_a_cla_fwd_h) = {"chunk_linear_attn.cla_fwd_h_exec_genuine", "alt_recurrent", TD_ABI_HOST, NULL, NULL,
                             NULL, 17, 5, fwd, NULL};
TD_KERNEL(td_a_cla_bwd_dh) = {"chunk_linear_attn.cla_bwd_dh_exec_genuine", "alt_recurrent", TD_ABI_HOST, NULL, NULL,
                              NULL, 16, 3, bwd, NULL};
