/* chunk_retention, alternatives: correct kernels written differently.
 *
 * alt_stepwise (crh_fwd_h): the state as the step recurrence h = fmaf(g, h, k v), g =
 *   1 - exp2f(-5 - i_h) in binary32 (the decay powers as repeated products, no log2 /
 *   exp2 of n b_b), one time step at a time, h[t] stored when step t*BT is reached.
 *   Admissible: the sequential scan with FMA, gamma^n as a product.
 * alt_factored (crh_bwd_dh): d_i[x] and d_b folded into one factor g^(x + 1 + BT)
 *   (repeated products), applied once to the plain sum of do[x, r] v[r, y], summed from
 *   chunk 0 up and r from the last lane down, with FMA.  Admissible: the same terms in
 *   another order, the decays as products.
 */
#include "tl.h"

enum { P_SQK_H, P_SQK_T, P_SQK_D, P_SVO_H, P_SVO_T, P_SVO_D, P_SH_H, P_SH_T, P_H, P_T, P_K, P_V, P_BT, P_BK, P_BV,
       P_NT, P_USE_INIT, P_STORE_FINAL };
enum { R_K, R_V, R_H, R_H0, R_HT };

static int stepwise(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), K = TL_I(L, P_K), V = TL_I(L, P_V), BT = TL_I(L, P_BT), NT = TL_I(L, P_NT);
    int64_t BH = L->grid[2], len = T % BT ? T % BT : BT, n_end = (NT - 1) * BT + len;
    for (int64_t bh = 0; bh < BH; bh++) {
        float g = 1.0f - exp2f((float)(-5 - bh % TL_I(L, P_H)));
        for (int64_t k = 0; k < K; k++)
            for (int64_t v = 0; v < V; v++) {
                float h = TL_I(L, P_USE_INIT) ? tl_load(L, R_H0, bh * K * V + k * V + v) : 0.0f;
                for (int64_t s = 0; s < n_end; s++) {
                    if (s % BT == 0)
                        tl_store(L, R_H, bh * TL_I(L, P_SH_H) + (s / BT) * K * V + k * TL_I(L, P_SH_T) + v, h, tl_f32());
                    float x = 0.0f;
                    if (s < T)
                        x = tl_load(L, R_K, bh * TL_I(L, P_SQK_H) + s * TL_I(L, P_SQK_T) + k * TL_I(L, P_SQK_D)) *
                            tl_load(L, R_V, bh * TL_I(L, P_SVO_H) + s * TL_I(L, P_SVO_T) + v * TL_I(L, P_SVO_D));
                    h = fmaf(g, h, x);
                }
                if (TL_I(L, P_STORE_FINAL)) tl_store(L, R_HT, bh * K * V + k * V + v, h, tl_f32());
            }
    }
    return 0;
}

enum { PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SH_H, PB_SH_T, PB_H, PB_T, PB_K, PB_V, PB_BT, PB_NT };
enum { RB_V, RB_DO, RB_DH };

static float ldt(const td_abi_launch *L, int reg, int64_t bh, int64_t s, int64_t col) {
    if (s >= TL_I(L, PB_T) || col >= TL_I(L, PB_V)) return 0.0f;
    return tl_load(L, reg, bh * TL_I(L, PB_SVO_H) + s * TL_I(L, PB_SVO_T) + col * TL_I(L, PB_SVO_D));
}
static int factored(const td_abi_launch *L) {
    int64_t K = TL_I(L, PB_K), V = TL_I(L, PB_V), BT = TL_I(L, PB_BT), NT = TL_I(L, PB_NT);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++) {
        float g = 1.0f - exp2f((float)(-5 - (int64_t)p2 % TL_I(L, PB_H)));
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t x = 0; x < BT && p1 * BT + x < K; x++)
                    for (int64_t y = 0; y < BT && y < V; y++) {
                        float acc = 0.0f, f = g;
                        for (int64_t t = 0; t < NT; t++)
                            for (int64_t r = BT - 1; r >= 0; r--)
                                acc = fmaf(ldt(L, RB_DO, p2, t * BT + x, p1 * BT + r), ldt(L, RB_V, p2, t * BT + r, p1 * BT + y), acc);
                        for (int64_t i = 1; i < x + 1 + BT; i++) f *= g;
                        tl_store(L, RB_DH, p2 * TL_I(L, PB_SH_H) + p0 * K * V + (p1 * BT + x) * TL_I(L, PB_SH_T) + y,
                                 acc * f, tl_f32());
                    }
    }
    return 0;
}

TD_KERNEL(td_a_crh_fwd_step) = {"chunk_retention.crh_fwd_h_exec_genuine", "alt_stepwise", TD_ABI_HOST, NULL, NULL,
                                NULL, 18, 5, stepwise, NULL};
TD_KERNEL(td_a_crh_bwd_fact) = {"chunk_retention.crh_bwd_dh_exec_genuine", "alt_factored", TD_ABI_HOST, NULL, NULL,
                                NULL, 11, 3, factored, NULL};
