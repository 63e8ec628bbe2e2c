/* decay_cumsum, alternative alt_scan_then_scale: per lane, an inclusive prefix sum of the
 * raw g by a two-level blocked scan (blocks of 8 steps summed, block offsets carried), and
 * ONE multiply by inv_ln2 at the end: the Lean's closed form 1.44269504 * sum g, another
 * association than the kernel's running sum of g * inv_ln2.  Must pass. */
#include <math.h>

#include "../host/tl.h"

enum { P_SQH, P_SQT, P_SQD, P_B, P_H, P_T, P_SCALE, P_BT, P_BK, P_DK };
enum { R_G, R_GO };

static int scan_then_scale(const td_abi_launch *L) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), DK = TL_I(L, P_DK);
    const float inv_ln2 = 1.44269504f;
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (int64_t d = 0; d < DK; d++) {
                int64_t p0 = bh * SQH + (int64_t)ic * BT * DK + d;
                float carry = 0.0f;
                for (int64_t b0 = 0; b0 < BT; b0 += 8) {
                    float local = 0.0f;
                    for (int64_t i = b0; i < BT && i < b0 + 8; i++) {
                        local += tl_load(L, R_G, p0 + i * DK);
                        tl_store(L, R_GO, p0 + i * DK, (carry + local) * inv_ln2, tl_f32());
                    }
                    carry += local;
                }
            }
    return 0;
}

TD_KERNEL(td_a_decay_cumsum_fwd) = {"decay_cumsum.fwd_decay_cumsum_io_correctness", "alt_scan_then_scale", TD_ABI_HOST,
                                    "store=fp32:rne:inf", NULL, NULL, 10, 2, scan_then_scale, NULL};

enum { R_PQ, R_PK, R_PG, R_PQG, R_PKG };

/* prepare_qg_kg, alt_assoc: (q * exp2(g)) * scale (the other association), the last row's
 * g read per lane with the mask, rows visited from the last to the first. */
static int prep_assoc(const td_abi_launch *L) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), DK = TL_I(L, P_DK);
    float scale = TL_R(L, P_SCALE);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (int64_t d = 0; d < DK; d++) {
                int64_t p0 = bh * SQH + (int64_t)ic * BT * DK + d;
                float last = tl_load(L, R_PG, p0 + (BT - 1) * DK);
                for (int64_t i = BT - 1; i >= 0; i--) {
                    float g = tl_load(L, R_PG, p0 + i * DK);
                    tl_store(L, R_PQG, p0 + i * DK, (tl_load(L, R_PQ, p0 + i * DK) * exp2f(g)) * scale, tl_f32());
                    tl_store(L, R_PKG, p0 + i * DK, tl_load(L, R_PK, p0 + i * DK) * exp2f(last - g), tl_f32());
                }
            }
    return 0;
}

enum { R_DQI, R_DQT, R_DKI, R_DKT, R_BQ, R_BK, R_BG, R_DG };

/* bwd_decay_global_cumsum, alt_two_sums: dg as two separate suffix sums, sum dq*q minus
 * sum dk*k, subtracted at each step (another association of the same leaves); dq, dk with
 * fmaf (FMA contraction, as a compiler may emit). */
static int bwd_two_sums(const td_abi_launch *L) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), DK = TL_I(L, P_DK);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (int64_t d = 0; d < DK; d++) {
                int64_t p0 = bh * SQH + (int64_t)ic * BT * DK + d;
                float last = tl_load(L, R_BG, p0 + (BT - 1) * DK), sq = 0.0f, sk = 0.0f;
                for (int64_t r = BT - 1; r >= 0; r--) {
                    int64_t p = p0 + r * DK;
                    float g = tl_load(L, R_BG, p);
                    float dq = fmaf(tl_load(L, R_DQT, p), exp2f(g), tl_load(L, R_DQI, p));
                    float dk = fmaf(tl_load(L, R_DKT, p), exp2f(last - g), tl_load(L, R_DKI, p));
                    sq += dq * tl_load(L, R_BQ, p);
                    sk += dk * tl_load(L, R_BK, p);
                    tl_store(L, R_DQT, p, dq, tl_f32());
                    tl_store(L, R_DKT, p, dk, tl_f32());
                    tl_store(L, R_DG, p, sq - sk, tl_f32());
                }
            }
    return 0;
}

TD_KERNEL(td_a_decay_cumsum_prep) = {"decay_cumsum.prepare_qg_kg_io_correctness", "alt_assoc", TD_ABI_HOST,
                                     "store=fp32:rne:inf", NULL, NULL, 10, 5, prep_assoc, NULL};
TD_KERNEL(td_a_decay_cumsum_bwd) = {"decay_cumsum.bwd_decay_global_cumsum_io_correctness", "alt_two_sums", TD_ABI_HOST,
                                    "store=fp32:rne:inf", NULL, NULL, 10, 8, bwd_two_sums, NULL};
TD_KERNEL(td_a_decay_cumsum_bwd_closed) = {"decay_cumsum.decay_cumsum_backward_closed_output_summary_general",
                                           "alt_two_sums", TD_ABI_HOST, NULL, NULL, NULL, 10, 8, bwd_two_sums, NULL};
