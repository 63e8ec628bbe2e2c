/* chunk_delta_fwd, alternatives.
 *
 * alt_subchunk (exec): the chunk's rows processed in inner chunks of BT/2 (the
 * kernel's BC < BT regime: every inner chunk corrected with the SAME chunk-start
 * state, their k^T v_new summed into b_h_cumsum before b_h += b_h_cumsum), each
 * corrected value accumulated from v by FMA (x = fmaf(-d, h, x), keys from the last
 * down), each cumsum cell by FMA over the rows from the last down.  Admissible: the
 * spec's two sums in other orders, with FMA.
 *
 * alt_rowcopy (state store): each head's K x V state written one whole row at a time
 * (memcpy of V floats per row k < K), as a kernel with BK = 1, BV >= V would do, the
 * heads in reverse order.  Admissible: the theorem fixes only what lands where.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

enum { P_USE_INIT, P_STORE_FINAL, P_SQKH, P_SQKT, P_SQKD, P_SVOH, P_SVOT, P_SVOD, P_SHH, P_SHT, P_H, P_T, P_K, P_V,
       P_BT, P_BC, P_BK, P_BV, P_NT };
enum { R_K, R_V, R_D, R_VNEW, R_H, R_H0, R_HT };

/* one column p of one head: h[BK], cum[BK], bv[BT] */
static void column(const td_abi_launch *L, int64_t bh, int64_t p, float *h, float *cum, float *bv) {
    int64_t T = TL_I(L, P_T), K = TL_I(L, P_K), V = TL_I(L, P_V), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK);
    int64_t NT = TL_I(L, P_NT), sqkh = TL_I(L, P_SQKH), sqkt = TL_I(L, P_SQKT), sqkd = TL_I(L, P_SQKD);
    int64_t svoh = TL_I(L, P_SVOH), svot = TL_I(L, P_SVOT), svod = TL_I(L, P_SVOD);
    int64_t sub = BT > 1 ? BT / 2 : 1;
    for (int64_t e = 0; e < BK; e++) h[e] = TL_I(L, P_USE_INIT) ? tl_load(L, R_H0, bh * K * V + e * V + p) : 0.0f;
    for (int64_t it = 0; it < NT; it++) {
        for (int64_t e = 0; e < BK; e++)
            tl_store(L, R_H, bh * TL_I(L, P_SHH) + it * K * V + e * TL_I(L, P_SHT) + p, h[e], tl_f32());
        for (int64_t e = 0; e < BK; e++) cum[e] = 0.0f;
        for (int64_t r0 = 0; r0 < BT; r0 += sub) {
            int64_t r1 = r0 + sub < BT ? r0 + sub : BT;
            for (int64_t r = r0; r < r1; r++) {
                int64_t t = it * BT + r, off = bh * svoh + t * svot + p * svod;
                float x = tl_load(L, R_V, off);
                for (int64_t e = BK - 1; e >= 0; e--) x = fmaf(-tl_load(L, R_D, bh * sqkh + t * sqkt + e * sqkd), h[e], x);
                bv[r] = x;
                tl_store(L, R_VNEW, off, x, tl_f32());
            }
            for (int64_t e = 0; e < BK; e++) {
                float part = 0.0f;
                for (int64_t r = r1 - 1; r >= r0; r--) part = fmaf(tl_load(L, R_K, bh * sqkh + e * sqkd + (it * BT + r) * sqkt), bv[r], part);
                cum[e] += part;
            }
        }
        for (int64_t e = 0; e < BK; e++) h[e] += cum[e];
    }
    if (TL_I(L, P_STORE_FINAL))
        for (int64_t e = 0; e < BK; e++) tl_store(L, R_HT, bh * K * V + e * V + p, h[e], tl_f32());
    (void)T;
}

static int alt_subchunk(const td_abi_launch *L) {
    int64_t V = TL_I(L, P_V), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK);
    float *h = malloc((size_t)(2 * BK + BT) * sizeof(float));
    if (!h) return 1;
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (int64_t p = 0; p < V; p++) column(L, bh, p, h, h + BK, h + 2 * BK);
    free(h);
    return 0;
}

enum { PS_IT, PS_SHH, PS_SHT, PS_K, PS_V, PS_BK, PS_BV };

static int alt_rowcopy(const td_abi_launch *L) {
    int64_t K = TL_I(L, PS_K), V = TL_I(L, PS_V), sht = TL_I(L, PS_SHT), shh = TL_I(L, PS_SHH), it = TL_I(L, PS_IT);
    const float *src = (const float *)L->regions[0].base;
    float *dst = (float *)L->regions[1].base;
    for (int64_t bh = (int64_t)L->grid[2] - 1; bh >= 0; bh--)
        for (int64_t k = 0; k < K; k++) {
            int64_t off = bh * shh + it * K * V + k * sht;
            memcpy(dst + off, src + off, (size_t)V * sizeof(float));
        }
    return 0;
}

TD_KERNEL(td_a_cdf_exec) = {"chunk_delta_fwd.chunk_delta_fwd_exec_genuine", "alt_subchunk", TD_ABI_HOST, NULL, NULL,
                            NULL, 19, 7, alt_subchunk, NULL};
TD_KERNEL(td_a_cdf_store) = {"chunk_delta_fwd.chunk_delta_h_state_store_io_correctness", "alt_rowcopy", TD_ABI_HOST,
                             NULL, NULL, NULL, 7, 2, alt_rowcopy, NULL};
TD_KERNEL(td_a_cdf_store_r) = {"chunk_delta_fwd.chunk_delta_h_state_store_io_correctnessR", "alt_rowcopy",
                               TD_ABI_HOST, NULL, NULL, NULL, 7, 2, alt_rowcopy, NULL};
