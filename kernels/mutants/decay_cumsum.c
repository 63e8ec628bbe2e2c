/* decay_cumsum mutants: the bugs cumulative-decay kernels ship. */
#include <math.h>

#include "../host/tl.h"

enum { P_SQH, P_SQT, P_SQD, P_B, P_H, P_T, P_SCALE, P_BT, P_BK, P_DK };
enum { R_G, R_GO };

enum { DC_EXCLUSIVE, DC_LINEAR, DC_GLOBAL, DC_NATURAL, DC_OFFSET_I32 };

/* The correct program with one bug:
 *   EXCLUSIVE: the store before the update: the decay of the step itself left out (off by one);
 *   LINEAR:    the cumulative decay as a product of decays a = exp(g) in linear space, then
 *              log2: the product underflows to 0 for decays near 0 (log2 0 = -inf);
 *   GLOBAL:    the state not reset per chunk: the cumulative sum runs from the head's first
 *              row (the carried state taken from the earlier chunks);
 *   NATURAL:   inv_ln2 left out (natural-log decays where log2 is specified);
 *   OFFSET_I32: g + i_bh * s_qk_h (g_o too) formed in int32, i_bh = program_id and s_qk_h
 *              an int32 argument: beyond 2^31 elements the head's base wraps (a device
 *              fault when it leaves the buffer, another head's rows when not). */
static int dc_bug(const td_abi_launch *L, int bug) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK), DK = TL_I(L, P_DK);
    const float inv_ln2 = 1.44269504f;
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t j = 0; j < BK; j++) {
                    if ((int64_t)ik * BK + j >= DK) continue;
                    int64_t base = bug == DC_OFFSET_I32 ? tl_i32((int64_t)bh * tl_i32(SQH)) : bh * SQH;
                    int64_t p = base + (int64_t)ic * BT * DK + (int64_t)ik * BK + j;
                    if (tl_fault(L, R_G, p, BT, DK, ik) || tl_fault(L, R_GO, p, BT, DK, ik)) return 1;
                    float cum = 0.0f, prod = 1.0f;
                    if (bug == DC_GLOBAL)
                        for (int64_t q = bh * SQH + (int64_t)ik * BK + j; q < p; q += DK)
                            cum += tl_load(L, R_G, q) * inv_ln2;
                    for (int64_t i = 0; i < BT; i++, p += DK) {
                        float g = tl_load(L, R_G, p), before = cum;
                        cum += bug == DC_NATURAL ? g : g * inv_ln2;
                        prod *= expf(g);
                        float o = bug == DC_EXCLUSIVE ? before : bug == DC_LINEAR ? log2f(prod) : cum;
                        tl_store(L, R_GO, p, o, tl_f32());
                    }
                }
    return 0;
}
static int dc_exclusive(const td_abi_launch *L) { return dc_bug(L, DC_EXCLUSIVE); }
static int dc_linear(const td_abi_launch *L) { return dc_bug(L, DC_LINEAR); }
static int dc_global(const td_abi_launch *L) { return dc_bug(L, DC_GLOBAL); }
static int dc_natural(const td_abi_launch *L) { return dc_bug(L, DC_NATURAL); }
static int dc_offset_i32(const td_abi_launch *L) { return dc_bug(L, DC_OFFSET_I32); }

#define DC_FWD "decay_cumsum.fwd_decay_cumsum_io_correctness"
TD_KERNEL(td_m_dc_fwd_excl) = {DC_FWD, "mut_exclusive", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                               "store before the update: the step's own decay left out", 10, 2, dc_exclusive, NULL};
TD_KERNEL(td_m_dc_fwd_linear) = {DC_FWD, "mut_linear_space", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                 "cumulative decay as a product of exp(g) then log2: underflows", 10, 2, dc_linear,
                                 NULL};
TD_KERNEL(td_m_dc_fwd_global) = {DC_FWD, "mut_not_reset_per_chunk", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                 "state carried in from the earlier chunks (global, not chunk-local)", 10, 2,
                                 dc_global, NULL};
TD_KERNEL(td_m_dc_fwd_natural) = {DC_FWD, "mut_natural_log", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                  "inv_ln2 left out", 10, 2, dc_natural, NULL};
TD_KERNEL(td_m_dc_fwd_i32) = {DC_FWD, "mut_offset_int32", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                              "g + i_bh * s_qk_h formed in int32 (wraps beyond 2^31 elements)", 10, 2, dc_offset_i32,
                              NULL};

enum { R_PQ, R_PK, R_PG, R_PQG, R_PKG };

/* prepare_qg_kg with one bug:
 *   LINEAR: kg's decay ratio in linear space, exp2(last) / exp2(g): both underflow to 0 for
 *           decays near 0 (0/0 = NaN) where exp2(last - g) is a fine number;
 *   LASTROW: last_decay read one row early (row BT-2 of the chunk: the decay at the wrong step). */
static int prep_bug(const td_abi_launch *L, int linear) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK), DK = TL_I(L, P_DK);
    float scale = TL_R(L, P_SCALE);
    int64_t lastrow = linear || BT < 2 ? BT - 1 : BT - 2;
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t j = 0; j < BK; j++) {
                    if ((int64_t)ik * BK + j >= DK) continue;
                    int64_t p = bh * SQH + (int64_t)ic * BT * DK + (int64_t)ik * BK + j;
                    float last = tl_load(L, R_PG, p + lastrow * DK);
                    for (int64_t i = 0; i < BT; i++, p += DK) {
                        float g = tl_load(L, R_PG, p);
                        float ratio = linear ? exp2f(last) / exp2f(g) : exp2f(last - g);
                        tl_store(L, R_PKG, p, tl_load(L, R_PK, p) * ratio, tl_f32());
                        tl_store(L, R_PQG, p, tl_load(L, R_PQ, p) * (exp2f(g) * scale), tl_f32());
                    }
                }
    return 0;
}
static int prep_linear(const td_abi_launch *L) { return prep_bug(L, 1); }
static int prep_lastrow(const td_abi_launch *L) { return prep_bug(L, 0); }

enum { R_DQI, R_DQT, R_DKI, R_DKT, R_BQ, R_BK, R_BG, R_DG };
enum { BWD_FORWARD, BWD_DOUBLE_DECAY, BWD_LINEAR, BWD_OFFSET_I32 };

/* bwd_decay_global_cumsum with one bug:
 *   FORWARD:      dg accumulated in the forward direction (a prefix over rows 0..t, the
 *                 backward pass's dh scan run the wrong way);
 *   DOUBLE_DECAY: dq_inter decayed twice (dq_inter * exp2(g) * exp2(g): once too often);
 *   LINEAR:       dk's decay as exp2(last_g) * exp2(-g): exp2(-g) overflows to inf for decays
 *                 near 0 while exp2(last_g) underflows (inf * 0 = NaN);
 *   OFFSET_I32:   i_bh * s_qk_h formed in int32 (program_id times an int32 argument), the
 *                 base of every region: beyond 2^31 elements it wraps (a device fault when
 *                 it leaves the buffer, another head's rows when not). */
static int bwd_bug(const td_abi_launch *L, int bug) {
    int64_t SQH = TL_I(L, P_SQH), BT = TL_I(L, P_BT), BK = TL_I(L, P_BK), DK = TL_I(L, P_DK);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t ic = 0; ic < L->grid[1]; ic++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t j = 0; j < BK; j++) {
                    if ((int64_t)ik * BK + j >= DK) continue;
                    int64_t base = bug == BWD_OFFSET_I32 ? tl_i32((int64_t)bh * tl_i32(SQH)) : bh * SQH;
                    int64_t p0 = base + (int64_t)ic * BT * DK + (int64_t)ik * BK + j;
                    for (int reg = R_DQI; reg <= R_DG; reg++)
                        if (tl_fault(L, reg, p0, BT, DK, ik)) return 1;
                    float last_g = tl_load(L, R_BG, p0 + (BT - 1) * DK), cum = 0.0f;
                    for (int64_t s = 0; s < BT; s++) {
                        int64_t r = bug == BWD_FORWARD ? s : BT - 1 - s, p = p0 + r * DK;
                        float g = tl_load(L, R_BG, p), e = exp2f(g);
                        float dq = tl_load(L, R_DQI, p) + tl_load(L, R_DQT, p) * (bug == BWD_DOUBLE_DECAY ? e * e : e);
                        float ek = bug == BWD_LINEAR ? exp2f(last_g) * exp2f(-g) : exp2f(last_g - g);
                        float dk = tl_load(L, R_DKI, p) + tl_load(L, R_DKT, p) * ek;
                        cum += dq * tl_load(L, R_BQ, p) - dk * tl_load(L, R_BK, p);
                        tl_store(L, R_DQT, p, dq, tl_f32());
                        tl_store(L, R_DKT, p, dk, tl_f32());
                        tl_store(L, R_DG, p, cum, tl_f32());
                    }
                }
    return 0;
}
static int bwd_forward(const td_abi_launch *L) { return bwd_bug(L, BWD_FORWARD); }
static int bwd_double(const td_abi_launch *L) { return bwd_bug(L, BWD_DOUBLE_DECAY); }
static int bwd_linear(const td_abi_launch *L) { return bwd_bug(L, BWD_LINEAR); }
static int bwd_offset_i32(const td_abi_launch *L) { return bwd_bug(L, BWD_OFFSET_I32); }

#define DC_PREP "decay_cumsum.prepare_qg_kg_io_correctness"
#define DC_BWD "decay_cumsum.bwd_decay_global_cumsum_io_correctness"
#define DC_BWDC "decay_cumsum.decay_cumsum_backward_closed_output_summary_general"
TD_KERNEL(td_m_dc_prep_linear) = {DC_PREP, "mut_linear_space", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                  "kg's ratio exp2(last)/exp2(g): underflows to 0/0", 10, 5, prep_linear, NULL};
TD_KERNEL(td_m_dc_prep_lastrow) = {DC_PREP, "mut_last_row_early", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                   "last_decay read at row BT-2", 10, 5, prep_lastrow, NULL};
TD_KERNEL(td_m_dc_bwd_fwd) = {DC_BWD, "mut_forward_scan", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                              "dg accumulated in the forward direction", 10, 8, bwd_forward, NULL};
TD_KERNEL(td_m_dc_bwd_double) = {DC_BWD, "mut_double_decay", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                 "dq_inter decayed twice", 10, 8, bwd_double, NULL};
TD_KERNEL(td_m_dc_bwd_linear) = {DC_BWD, "mut_linear_space", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                 "dk's decay exp2(last_g) * exp2(-g): inf * 0", 10, 8, bwd_linear, NULL};
TD_KERNEL(td_m_dc_bwdc_fwd) = {DC_BWDC, "mut_forward_scan", TD_ABI_HOST, NULL, NULL,
                               "dg accumulated in the forward direction", 10, 8, bwd_forward, NULL};
TD_KERNEL(td_m_dc_bwdc_double) = {DC_BWDC, "mut_double_decay", TD_ABI_HOST, NULL, NULL, "dq_inter decayed twice", 10,
                                  8, bwd_double, NULL};
TD_KERNEL(td_m_dc_bwdc_linear) = {DC_BWDC, "mut_linear_space", TD_ABI_HOST, NULL, NULL,
                                  "dk's decay exp2(last_g) * exp2(-g): inf * 0", 10, 8, bwd_linear, NULL};
TD_KERNEL(td_m_dc_bwd_i32) = {DC_BWD, "mut_offset_int32", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                              "i_bh * s_qk_h computed in int32 (wraps beyond 2^31)", 10, 8, bwd_offset_i32, NULL};
TD_KERNEL(td_m_dc_bwdc_i32) = {DC_BWDC, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "i_bh * s_qk_h computed in int32 (wraps beyond 2^31)", 10, 8, bwd_offset_i32, NULL};
