/* Alternatives for attention_score (the attention mass of each key: Out[n] = sum over the
 * rows r kept by the window 0 <= r - n + swo < sws of 2^(sm_scale*log2e*(q_r . k_n) - M[r])),
 * written independently of the port's tile program:
 *
 *   alt_rev_fma_ex2  one output column at a time (no key tiles, no query tiles): the kept
 *                    rows as a key range [n - swo, n - swo + sws) intersected with
 *                    [0, ROUND_CTX), walked from the last row to the first; the dot as an
 *                    FMA chain over the head lanes from the last lane down; the exponent
 *                    fused, fmaf(s, qk_scale, -M[r]) (one rounding); exp2 as ex2.approx at
 *                    the edge of its documented 2 ulp; the terms added sequentially.
 *   alt_pair_scale   the scale applied as (s * sm_scale) * log2e (two roundings, the other
 *                    association of the spec's product), exp2 correctly rounded, the
 *                    column's terms summed in blocks of 3 rows (a partial per block, added to the total).
 * Both store Out (fp16) with the port's profile.  Parameters and regions: the port's. */
#include "alt_common.h"

enum { P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SOZ, P_SOH, P_SON,
       P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_SWO, P_SWS, P_BN, P_BD, P_SM };
enum { R_Q, R_K, R_M, R_OUT };

typedef struct asa_geo {
    int64_t qo, ko, mo;
} asa_geo;

static asa_geo asa_head(const td_abi_launch *L, int64_t hz) {
    const int64_t H = TL_I(L, P_H), z = hz / H, h = hz % H, hk = h / (H / TL_I(L, P_HKV));
    asa_geo g = {z * TL_I(L, P_SQZ) + h * TL_I(L, P_SQH), z * TL_I(L, P_SKZ) + hk * TL_I(L, P_SKH),
                 hz * TL_I(L, P_ROUND)};
    return g;
}

/* the score of (row r, key n) as an FMA chain from the last head lane down */
static float asa_dot_rev(const td_abi_launch *L, const asa_geo *g, int64_t r, int64_t n) {
    float s = 0.0f;
    for (int64_t d = TL_I(L, P_BD) - 1; d >= 0; d--)
        s = fmaf(tl_load(L, R_Q, g->qo + r * TL_I(L, P_SQM) + d * TL_I(L, P_SQK)),
                 tl_load(L, R_K, g->ko + d * TL_I(L, P_SKK) + n * TL_I(L, P_SKN)), s);
    return s;
}
static float asa_dot(const td_abi_launch *L, const asa_geo *g, int64_t r, int64_t n) {
    float s = 0.0f;
    for (int64_t d = 0; d < TL_I(L, P_BD); d++)
        s += tl_load(L, R_Q, g->qo + r * TL_I(L, P_SQM) + d * TL_I(L, P_SQK)) *
             tl_load(L, R_K, g->ko + d * TL_I(L, P_SKK) + n * TL_I(L, P_SKN));
    return s;
}

/* the kept rows of column n: r - n + swo in [0, sws) and r in [0, ROUND_CTX) */
static void asa_rows(const td_abi_launch *L, int64_t n, int64_t *lo, int64_t *hi) {
    *lo = n - TL_I(L, P_SWO);
    *hi = *lo + TL_I(L, P_SWS);
    if (*lo < 0) *lo = 0;
    if (*hi > TL_I(L, P_ROUND)) *hi = TL_I(L, P_ROUND);
}

static int asa_run(const td_abi_launch *L, int variant) {
    const float qks = TL_R(L, P_SM) * 1.4426950408889634f;
    for (int64_t hz = 0; hz < (int64_t)L->grid[1]; hz++) {
        asa_geo g = asa_head(L, hz);
        int64_t oo = hz / TL_I(L, P_H) * TL_I(L, P_SOZ) + hz % TL_I(L, P_H) * TL_I(L, P_SOH);
        for (int64_t n = 0; n < TL_I(L, P_NKV); n++) {
            int64_t lo, hi;
            asa_rows(L, n, &lo, &hi);
            float o = 0.0f, part = 0.0f;
            for (int64_t i = 0; i < hi - lo; i++) {
                if (variant == 0) {
                    int64_t r = hi - 1 - i;
                    o += alt_ex2_approx(fmaf(asa_dot_rev(L, &g, r, n), qks, -tl_load(L, R_M, g.mo + r)));
                    continue;
                }
                int64_t r = lo + i;
                float x = asa_dot(L, &g, r, n) * TL_R(L, P_SM);
                x = x * 1.4426950408889634f;
                part += (float)exp2((double)(x - tl_load(L, R_M, g.mo + r)));
                if (i % 3 == 2 || r == hi - 1) o += part, part = 0.0f;
            }
            tl_store(L, R_OUT, oo + n, o, alt_f16());
        }
    }
    return 0;
}
static int rev(const td_abi_launch *L) { return asa_run(L, 0); }
static int pair(const td_abi_launch *L) { return asa_run(L, 1); }

#define OS "attention_score.attention_score_python_case1_output_summary_general"
#define IO "attention_score.attention_score_case1_io_correctness"
TD_KERNEL(td_a_attention_score_os_rev) = {OS, "alt_rev_fma_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 22, 4,
                                          rev, NULL};
TD_KERNEL(td_a_attention_score_io_rev) = {IO, "alt_rev_fma_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 22, 4,
                                          rev, NULL};
TD_KERNEL(td_a_attention_score_os_pair) = {OS, "alt_pair_scale", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 22, 4,
                                           pair, NULL};
TD_KERNEL(td_a_attention_score_io_pair) = {IO, "alt_pair_scale", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 22,
                                           4, pair, NULL};
