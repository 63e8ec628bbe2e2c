/* decay_cumsum (fla fwd_decay_cumsum) on the CPU.
 * Parameters: s_qk_h, s_qk_t, s_qk_d, B, H, T, scale, BT, BK, DK.  Regions: g, g_o.
 * Program (i_k, i_c, i_bh): cum_decay = 0; for each of the BT rows of the chunk,
 * cum_decay += g * inv_ln2 (inv_ln2 the constexpr 1.44269504, held in binary32), stored. */
#include <math.h>

#include "tl.h"

enum { P_SQH, P_SQT, P_SQD, P_B, P_H, P_T, P_SCALE, P_BT, P_BK, P_DK };
enum { R_G, R_GO };

static int fwd_decay_cumsum(const td_abi_launch *L) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK), DK = TL_I(L, P_DK);
    const float inv_ln2 = 1.44269504f;
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t j = 0; j < BK; j++) {
                    if ((int64_t)ik * BK + j >= DK) continue; /* mask: the lane is never loaded or stored */
                    int64_t p = bh * SQH + (int64_t)ic * BT * DK + (int64_t)ik * BK + j;
                    float cum = 0.0f;
                    for (int64_t i = 0; i < BT; i++, p += DK) {
                        cum += tl_load(L, R_G, p) * inv_ln2;
                        tl_store(L, R_GO, p, cum, tl_f32());
                    }
                }
    return 0;
}

TD_KERNEL(td_k_decay_cumsum_fwd) = {"decay_cumsum.fwd_decay_cumsum_io_correctness", "triton", TD_ABI_HOST,
                                    "store=fp32:rne:inf", NULL, NULL, 10, 2, fwd_decay_cumsum, NULL};

enum { R_PQ, R_PK, R_PG, R_PQG, R_PKG };

/* prepare_qg_kg: last_decay = the chunk's last g row, loaded unmasked (all BK lanes);
 * per row q *= exp2(g) * scale, k *= exp2(last_decay - g), both stored masked. */
static int prepare_qg_kg(const td_abi_launch *L) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK), DK = TL_I(L, P_DK);
    float scale = TL_R(L, P_SCALE);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t j = 0; j < BK; j++) {
                    int64_t p = bh * SQH + (int64_t)ic * BT * DK + (int64_t)ik * BK + j;
                    float last = tl_load(L, R_PG, p + (BT - 1) * DK); /* unmasked, as the kernel */
                    if ((int64_t)ik * BK + j >= DK) continue;
                    for (int64_t i = 0; i < BT; i++, p += DK) {
                        float g = tl_load(L, R_PG, p);
                        float q = tl_load(L, R_PQ, p) * (exp2f(g) * scale);
                        float k = tl_load(L, R_PK, p) * exp2f(last - g);
                        tl_store(L, R_PKG, p, k, tl_f32());
                        tl_store(L, R_PQG, p, q, tl_f32());
                    }
                }
    return 0;
}

enum { R_DQI, R_DQT, R_DKI, R_DKT, R_BQ, R_BK, R_BG, R_DG };

/* bwd_decay_global_cumsum: rows from BT-1 down to 0 (last_g = the first row visited);
 * dq = dq_inner + dq_inter * exp2(g), dk = dk_inner + dk_inter * exp2(last_g - g), both
 * stored in place; cum_grad_dg += dq*q - dk*k, stored. */
static int bwd_decay_global_cumsum(const td_abi_launch *L) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK), DK = TL_I(L, P_DK);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t j = 0; j < BK; j++) {
                    if ((int64_t)ik * BK + j >= DK) continue;
                    int64_t p = bh * SQH + ((int64_t)ic * BT + BT - 1) * DK + (int64_t)ik * BK + j;
                    float cum = 0.0f, last_g = 0.0f;
                    for (int64_t r = BT - 1; r >= 0; r--, p -= DK) {
                        float g = tl_load(L, R_BG, p);
                        if (r == BT - 1) last_g = g;
                        float dq = tl_load(L, R_DQI, p) + tl_load(L, R_DQT, p) * exp2f(g);
                        tl_store(L, R_DQT, p, dq, tl_f32());
                        float dk = tl_load(L, R_DKI, p) + tl_load(L, R_DKT, p) * exp2f(last_g - g);
                        tl_store(L, R_DKT, p, dk, tl_f32());
                        cum += dq * tl_load(L, R_BQ, p) - dk * tl_load(L, R_BK, p);
                        tl_store(L, R_DG, p, cum, tl_f32());
                    }
                }
    return 0;
}

TD_KERNEL(td_k_decay_cumsum_prep) = {"decay_cumsum.prepare_qg_kg_io_correctness", "triton", TD_ABI_HOST,
                                     "store=fp32:rne:inf", NULL, NULL, 10, 5, prepare_qg_kg, NULL};
TD_KERNEL(td_k_decay_cumsum_bwd) = {"decay_cumsum.bwd_decay_global_cumsum_io_correctness", "triton", TD_ABI_HOST,
                                    "store=fp32:rne:inf", NULL, NULL, 10, 8, bwd_decay_global_cumsum, NULL};
TD_KERNEL(td_k_decay_cumsum_bwd_closed) = {"decay_cumsum.decay_cumsum_backward_closed_output_summary_general", "triton",
                                           TD_ABI_HOST, NULL, NULL, NULL, 10, 8, bwd_decay_global_cumsum, NULL};
