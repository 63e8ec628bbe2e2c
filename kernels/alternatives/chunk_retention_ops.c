/* chunk_retention_ops, alternatives: correct kernels written differently.
 *
 * alt_wide_chunk (cro_fwd_h): chunks of 4 BT steps (not the kernel's BT): the state
 *   carried between wide chunks; every stored state (h[t] at step t*BT, ht at the end)
 *   computed inside its wide chunk as exp2f(m b_b) h_c + sum_s exp2f((b-1-s) b_b) k_s v_s,
 *   the terms summed from the latest step back (the order an any-order tl.dot may take).
 *   Admissible: the chunked scan with any chunk size, any order, decays by exp2.
 * alt_stepwise (cro_bwd_dh): the reverse step recurrence F = fmaf(g, F, (q scale) do)
 *   from the last step down, g = 1 - exp2f(-5 - i_h) in binary32, dh[t] = g F at step
 *   (t+1) BT (0 past the end).  Admissible: the sequential scan with FMA, decays as
 *   products.
 */
#include "tl.h"

enum { P_SQK_H, P_SQK_T, P_SQK_D, P_SVO_H, P_SVO_T, P_SVO_D, P_SH_H, P_SH_T, P_H, P_T, P_K, P_V, P_BT, P_BK, P_BV,
       P_NT, P_USE_INIT, P_STORE_FINAL };
enum { R_K, R_V, R_H, R_H0, R_HT };

static float kv(const td_abi_launch *L, int64_t bh, int64_t s, int64_t k, int64_t v) {
    if (s >= TL_I(L, P_T)) return 0.0f;
    return tl_load(L, R_K, bh * TL_I(L, P_SQK_H) + s * TL_I(L, P_SQK_T) + k * TL_I(L, P_SQK_D)) *
           tl_load(L, R_V, bh * TL_I(L, P_SVO_H) + s * TL_I(L, P_SVO_T) + v * TL_I(L, P_SVO_D));
}
/* the state after step b, inside the wide chunk starting at w with carried state hc */
static float at(const td_abi_launch *L, float bb, float hc, int64_t w, int64_t b, int64_t bh, int64_t k, int64_t v) {
    float loc = 0.0f;
    for (int64_t s = b - 1; s >= w; s--) loc += exp2f((float)(b - 1 - s) * bb) * kv(L, bh, s, k, v);
    return fmaf(exp2f((float)(b - w) * bb), hc, loc);
}
static int wide_chunk(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), K = TL_I(L, P_K), V = TL_I(L, P_V), BT = TL_I(L, P_BT), NT = TL_I(L, P_NT);
    int64_t W = 4 * BT, n_end = (NT - 1) * BT + (T % BT ? T % BT : BT);
    for (int64_t bh = 0; bh < (int64_t)L->grid[2]; bh++) {
        float bb = log2f(1.0f - exp2f((float)(-5 - bh % TL_I(L, P_H))));
        for (int64_t k = 0; k < K; k++)
            for (int64_t v = 0; v < V; v++) {
                float hc = TL_I(L, P_USE_INIT) ? tl_load(L, R_H0, bh * K * V + k * V + v) : 0.0f;
                for (int64_t w = 0; w <= n_end; w += W) {
                    for (int64_t t = (w + BT - 1) / BT; t < NT && t * BT < w + W; t++)
                        tl_store(L, R_H, bh * TL_I(L, P_SH_H) + t * K * V + k * TL_I(L, P_SH_T) + v,
                                 at(L, bb, hc, w, t * BT, bh, k, v), tl_f32());
                    if (n_end >= w && n_end <= w + W && TL_I(L, P_STORE_FINAL))
                        tl_store(L, R_HT, bh * K * V + k * V + v, at(L, bb, hc, w, n_end, bh, k, v), tl_f32());
                    hc = at(L, bb, hc, w, w + W, bh, k, v);
                }
            }
    }
    return 0;
}

enum { PO_SQK_H, PO_SQK_T, PO_SQK_D, PO_SVO_H, PO_SVO_T, PO_SVO_D, PO_SH_H, PO_SH_T, PO_SCALE, PO_H, PO_T, PO_K,
       PO_V, PO_BT, PO_BK, PO_BV, PO_NT };
enum { RO_Q, RO_DO, RO_DH };

static int stepwise(const td_abi_launch *L) {
    int64_t T = TL_I(L, PO_T), K = TL_I(L, PO_K), V = TL_I(L, PO_V), BT = TL_I(L, PO_BT), NT = TL_I(L, PO_NT);
    float scale = TL_R(L, PO_SCALE);
    for (int64_t bh = 0; bh < (int64_t)L->grid[2]; bh++) {
        float g = 1.0f - exp2f((float)(-5 - bh % TL_I(L, PO_H)));
        for (int64_t k = 0; k < K; k++)
            for (int64_t v = 0; v < V; v++) {
                float F = 0.0f;
                for (int64_t s = NT * BT; s >= BT; s--) {
                    if (s % BT == 0)
                        tl_store(L, RO_DH, bh * TL_I(L, PO_SH_H) + (s / BT - 1) * K * V + k * TL_I(L, PO_SH_T) + v, g * F,
                                 tl_f32());
                    int64_t j = s - 1;
                    if (j >= BT && j < T) {
                        float q = tl_load(L, RO_Q, bh * TL_I(L, PO_SQK_H) + j * TL_I(L, PO_SQK_T) + k * TL_I(L, PO_SQK_D));
                        float d = tl_load(L, RO_DO, bh * TL_I(L, PO_SVO_H) + j * TL_I(L, PO_SVO_T) + v * TL_I(L, PO_SVO_D));
                        F = fmaf(g, F, (q * scale) * d);
                    }
                }
            }
    }
    return 0;
}

TD_KERNEL(td_a_cro_fwd_wide) = {"chunk_retention_ops.cro_fwd_h_exec_genuine", "alt_wide_chunk", TD_ABI_HOST, NULL,
                                NULL, NULL, 18, 5, wide_chunk, NULL};
TD_KERNEL(td_a_cro_bwd_step) = {"chunk_retention_ops.cro_bwd_dh_exec_genuine", "alt_stepwise", TD_ABI_HOST, NULL,
                                NULL, NULL, 17, 3, stepwise, NULL};
