/* parallel_attention, alternatives: correct kernels written differently.
 *
 * alt_direct (both theorems): every lane as the closed form, the keys from the far end
 *   back, each score's dot product in reverse order with FMA, o and z accumulated one key
 *   at a time with FMA (o: s * (s * v), another association of s^2 v), ds as
 *   (dot + dz) * scale on every key.  Admissible: other orders and associations.
 */
#include "tl.h"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV };
enum { RF_Q, RF_K, RF_V, RF_O, RF_Z };

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int fwd_direct(const td_abi_launch *L) {
    int64_t T = TL_I(L, PF_T), K = TL_I(L, PF_K), V = TL_I(L, PF_V), BK = TL_I(L, PF_BK);
    int64_t NK = cdiv(K, BK), BH = L->grid[2], sqh = TL_I(L, PF_SQK_H), sqt = TL_I(L, PF_SQK_T), sqd = TL_I(L, PF_SQK_D);
    float scale = TL_R(L, PF_SCALE);
    for (int64_t bh = 0; bh < BH; bh++)
        for (int64_t ik = 0; ik < NK; ik++)
            for (int64_t i = 0; i < T; i++) {
                for (int64_t v = -1; v < V; v++) { /* v = -1: z */
                    float acc = 0.0f;
                    for (int64_t t = i; t >= 0; t--) {
                        float s = 0.0f;
                        for (int64_t x = (ik + 1) * BK - 1; x >= ik * BK; x--)
                            if (x < K) s = fmaf(tl_load(L, RF_Q, bh * sqh + i * sqt + x * sqd) * scale,
                                                tl_load(L, RF_K, bh * sqh + t * sqt + x * sqd), s);
                        acc = v < 0 ? fmaf(s, s, acc)
                                    : fmaf(s, s * tl_load(L, RF_V, bh * TL_I(L, PF_SVO_H) + t * TL_I(L, PF_SVO_T) + v), acc);
                    }
                    if (v < 0) tl_store(L, RF_Z, (bh + BH * ik) * T + i, acc, tl_f32());
                    else tl_store(L, RF_O, (bh + BH * ik) * TL_I(L, PF_SVO_H) + i * TL_I(L, PF_SVO_T) + v, acc, tl_f32());
                }
            }
    return 0;
}

enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV };
enum { RB_Q, RB_K, RB_V, RB_DO, RB_DZ, RB_DK, RB_DV };

static float dotw(const td_abi_launch *L, int ra, int64_t oa, int rb, int64_t ob, int64_t lo, int64_t hi) {
    float d = 0.0f;
    for (int64_t x = hi - 1; x >= lo; x--) d = fmaf(tl_load(L, ra, oa + x), tl_load(L, rb, ob + x), d);
    return d;
}
static int bwd_direct(const td_abi_launch *L) {
    int64_t T = TL_I(L, PB_T), BTL = TL_I(L, PB_BTL), BH = TL_I(L, PB_B) * TL_I(L, PB_H), bh = TL_I(L, PB_IBH);
    int64_t K = TL_I(L, PB_K), V = TL_I(L, PB_V), BK = TL_I(L, PB_BK), BV = TL_I(L, PB_BV), ik = TL_I(L, PB_IK), iv = TL_I(L, PB_IV);
    int64_t qb = bh * TL_I(L, PB_SQK_H), vb = bh * TL_I(L, PB_SVO_H), sqt = TL_I(L, PB_SQK_T), svt = TL_I(L, PB_SVO_T);
    int64_t k1 = (ik + 1) * BK < K ? (ik + 1) * BK : K, v1 = (iv + 1) * BV < V ? (iv + 1) * BV : V;
    float scale = TL_R(L, PB_SCALE);
    for (int64_t r = 0; r < BTL; r++) {
        int64_t i = TL_I(L, PB_IC) * BTL + r;
        if (i >= T) continue;
        for (int64_t e = ik * BK; e < k1; e++) { /* dk[i, e] */
            float acc = 0.0f;
            for (int64_t t = T - 1; t >= i; t--) {
                float s = dotw(L, RB_K, qb + i * sqt, RB_Q, qb + t * sqt, ik * BK, k1) * scale;
                float d = dotw(L, RB_V, vb + i * svt, RB_DO, vb + t * svt, iv * BV, v1);
                float ds = (iv == 0 ? d + tl_load(L, RB_DZ, bh * T + t) : d) * scale;
                acc = fmaf(2.0f * ds * s, tl_load(L, RB_Q, qb + t * sqt + e), acc);
            }
            tl_store(L, RB_DK, (bh + BH * iv) * TL_I(L, PB_SQK_H) + i * sqt + e, acc, tl_f32());
        }
        for (int64_t p = iv * BV; p < v1; p++) { /* dv[i, p] */
            float acc = 0.0f;
            for (int64_t t = T - 1; t >= i; t--) {
                float s = dotw(L, RB_K, qb + i * sqt, RB_Q, qb + t * sqt, ik * BK, k1) * scale;
                acc = fmaf(s, s * tl_load(L, RB_DO, vb + t * svt + p), acc);
            }
            tl_store(L, RB_DV, (bh + BH * ik) * TL_I(L, PB_SVO_H) + i * svt + p, acc, tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_pa_fwd_direct) = {"parallel_attention.pa_fwd_o_exec_genuine", "alt_direct", TD_ABI_HOST, NULL, NULL,
                                 NULL, 16, 5, fwd_direct, NULL};
TD_KERNEL(td_a_pa_bwd_direct) = {"parallel_attention.pa_bwd_dkv_exec_genuine", "alt_direct", TD_ABI_HOST, NULL, NULL,
                                 NULL, 21, 7, bwd_direct, NULL};
