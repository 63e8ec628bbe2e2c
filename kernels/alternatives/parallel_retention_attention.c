/* parallel_retention_attention, alternatives: correct kernels written differently.
 *
 * alt_direct (both theorems): every lane as the closed form, key by key from the lane's
 *   own position outwards, the decay kept as a running product w *= g of the binary32
 *   g = 1 - exp2f(-5 - i_h) (no log2 / exp2 of n b_b), each key's dot product in
 *   reverse order with FMA, the decayed terms accumulated one key at a time.
 *   Admissible: another summation order and association, decay powers as products.
 */
#include "tl.h"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV };
enum { RF_Q, RF_K, RF_V, RF_O };

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int fwd_direct(const td_abi_launch *L) {
    int64_t T = TL_I(L, PF_T), K = TL_I(L, PF_K), V = TL_I(L, PF_V), BK = TL_I(L, PF_BK);
    int64_t NK = cdiv(K, BK), BH = L->grid[2], sqh = TL_I(L, PF_SQK_H), sqt = TL_I(L, PF_SQK_T), sqd = TL_I(L, PF_SQK_D);
    float scale = TL_R(L, PF_SCALE);
    for (int64_t bh = 0; bh < BH; bh++) {
        float g = 1.0f - exp2f((float)(-5 - bh % TL_I(L, PF_H)));
        for (int64_t ik = 0; ik < NK; ik++)
            for (int64_t i = 0; i < T; i++)
                for (int64_t v = 0; v < V; v++) {
                    float o = 0.0f, w = 1.0f;
                    for (int64_t t = i; t >= 0; t--, w *= g) {
                        float s = 0.0f;
                        for (int64_t x = (ik + 1) * BK - 1; x >= ik * BK; x--)
                            if (x < K) s = fmaf(tl_load(L, RF_Q, bh * sqh + i * sqt + x * sqd) * scale,
                                                tl_load(L, RF_K, bh * sqh + t * sqt + x * sqd), s);
                        o = fmaf(s * w, tl_load(L, RF_V, bh * TL_I(L, PF_SVO_H) + t * TL_I(L, PF_SVO_T) + v), o);
                    }
                    tl_store(L, RF_O, (bh + BH * ik) * TL_I(L, PF_SVO_H) + i * TL_I(L, PF_SVO_T) + v, o, tl_f32());
                }
    }
    return 0;
}

enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV };
enum { RB_Q, RB_K, RB_V, RB_DO, RB_DK, RB_DV };

/* dk (o = 0) or dv (o = 1) at (row i, column col): keys t >= i, the contraction window [lo, hi) */
static float bwd_lane(const td_abi_launch *L, int o, int64_t i, int64_t col, int64_t lo, int64_t hi, float g) {
    int64_t T = TL_I(L, PB_T), bh = TL_I(L, PB_IBH), qb = bh * TL_I(L, PB_SQK_H), vb = bh * TL_I(L, PB_SVO_H);
    int64_t sqt = TL_I(L, PB_SQK_T), svt = TL_I(L, PB_SVO_T);
    float acc = 0.0f, w = 1.0f;
    for (int64_t t = i; t < T; t++, w *= g) {
        float d = 0.0f;
        for (int64_t x = hi - 1; x >= lo; x--)
            d = o == 0 ? fmaf(tl_load(L, RB_V, vb + i * svt + x), tl_load(L, RB_DO, vb + t * svt + x), d)
                       : fmaf(tl_load(L, RB_K, qb + i * sqt + x), tl_load(L, RB_Q, qb + t * sqt + x), d);
        float f = o == 0 ? tl_load(L, RB_Q, qb + t * sqt + col) : tl_load(L, RB_DO, vb + t * svt + col);
        acc = fmaf(d * w, f, acc);
    }
    return acc * TL_R(L, PB_SCALE);
}
static int bwd_direct(const td_abi_launch *L) {
    int64_t T = TL_I(L, PB_T), BTL = TL_I(L, PB_BTL), BH = TL_I(L, PB_B) * TL_I(L, PB_H), bh = TL_I(L, PB_IBH);
    float g = 1.0f - exp2f((float)(-5 - TL_I(L, PB_IH)));
    for (int o = 0; o < 2; o++) {
        int64_t Bc = o ? TL_I(L, PB_BV) : TL_I(L, PB_BK), D = o ? TL_I(L, PB_V) : TL_I(L, PB_K);
        int64_t ib = o ? TL_I(L, PB_IV) : TL_I(L, PB_IK), other = o ? TL_I(L, PB_IK) : TL_I(L, PB_IV);
        int64_t Bx = o ? TL_I(L, PB_BK) : TL_I(L, PB_BV), Dx = o ? TL_I(L, PB_K) : TL_I(L, PB_V);
        int64_t lo = other * Bx, hi = (other + 1) * Bx < Dx ? (other + 1) * Bx : Dx;
        int64_t base = (bh + BH * other) * (o ? TL_I(L, PB_SVO_H) : TL_I(L, PB_SQK_H)), st = o ? TL_I(L, PB_SVO_T) : TL_I(L, PB_SQK_T);
        for (int64_t r = 0; r < BTL; r++)
            for (int64_t c = 0; c < Bc; c++) {
                int64_t i = TL_I(L, PB_IC) * BTL + r, col = ib * Bc + c;
                if (i < T && col < D) tl_store(L, o ? RB_DV : RB_DK, base + i * st + col, bwd_lane(L, o, i, col, lo, hi, g), tl_f32());
            }
    }
    return 0;
}

TD_KERNEL(td_a_pra_fwd_direct) = {"parallel_retention_attention.pra_fwd_o_exec_genuine", "alt_direct", TD_ABI_HOST,
                                  NULL, NULL, NULL, 16, 4, fwd_direct, NULL};
TD_KERNEL(td_a_pra_bwd_direct) = {"parallel_retention_attention.pra_bwd_dkv_exec_genuine", "alt_direct", TD_ABI_HOST,
                                  NULL, NULL, NULL, 21, 6, bwd_direct, NULL};
