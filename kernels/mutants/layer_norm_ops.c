/* layer_norm_ops mutants: one realistic slip per contract. */
#include "../host/tl.h"

enum { FP_SY, FP_N, FP_BLOCK };
enum { FP_VALUEPRE, FP_MEANPRE, FP_RSTDPRE, FP_Y, FP_MEAN, FP_RSTD };
enum { FR_VALUEPRE, FR_RSTDPRE, FR_Y, FR_RSTD };
enum { FX_SRES, FX_SY, FX_N, FX_BLOCK };
enum { FX_RESPRE, FX_VALUEPRE, FX_MEANPRE, FX_RSTDPRE, FX_RESOUT, FX_Y, FX_MEAN, FX_RSTD };
enum { BP_SXHAT, BP_SDY, BP_SX, BP_SDX, BP_N, BP_BLOCK };
enum { BR_X, BR_XHAT, BR_W, BR_DY, BR_RSTD, BR_C1, BR_DX, BR_DW };
enum { BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2 };
enum { BA_SDX, BA_SDRES, BA_SDRESIN, BA_N, BA_BLOCK };
enum { BA_DXBASE, BA_DRES, BA_DX, BA_DRESIN };
enum { SS_MEANPRE, SS_MEAN, SS_RSTDPRE, SS_RSTD };

static void scalar_store(const td_abi_launch *L, int pre, int out, td_profile p) {
    for (uint32_t row = 0; row < L->grid[0]; row++) tl_store(L, out, row, tl_load(L, pre, row), p);
}

/* fwd_plain: the Y mask written `cols <= N`: one lane past the row is stored (for the
 * last row, past the tile) */
static int fwd_plain_mask(const td_abi_launch *L) {
    int64_t sy = TL_I(L, FP_SY), n = TL_I(L, FP_N), B = TL_I(L, FP_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < B; j++)
            if (j <= n) tl_store(L, FP_Y, row * sy + j, tl_load(L, FP_VALUEPRE, row * sy + j), tl_f32());
    scalar_store(L, FP_MEANPRE, FP_MEAN, tl_f32());
    scalar_store(L, FP_RSTDPRE, FP_RSTD, tl_f32());
    return 0;
}

/* fwd_rms: y stored as bf16 values (an out_dtype=bfloat16 left on the real-valued Y) */
static int fwd_rms_bf16(const td_abi_launch *L) {
    int64_t sy = TL_I(L, FP_SY), n = TL_I(L, FP_N), B = TL_I(L, FP_BLOCK);
    td_profile bf = {TD_BF16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < B; j++)
            if (j < n) {
                float v = tl_load(L, FR_VALUEPRE, row * sy + j);
                float r = (float)td_decode(TD_BF16, td_encode_f32(bf, v));
                tl_store(L, FR_Y, row * sy + j, r, tl_f32());
            }
    scalar_store(L, FR_RSTDPRE, FR_RSTD, tl_f32());
    return 0;
}

/* fwd_residual: the Mean and Rstd store slices wired to each other's buffers */
static int fwd_residual_swapped(const td_abi_launch *L) {
    int64_t sres = TL_I(L, FX_SRES), sy = TL_I(L, FX_SY), n = TL_I(L, FX_N), B = TL_I(L, FX_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < B; j++) {
            if (!(j < n)) continue;
            tl_store(L, FX_RESOUT, row * sres + j, tl_load(L, FX_RESPRE, row * sres + j), tl_f32());
            tl_store(L, FX_Y, row * sy + j, tl_load(L, FX_VALUEPRE, row * sy + j), tl_f32());
        }
    scalar_store(L, FX_RSTDPRE, FX_MEAN, tl_f32());
    scalar_store(L, FX_MEANPRE, FX_RSTD, tl_f32());
    return 0;
}

/* ---- backward ---- */
typedef struct bwd_regs {
    int x, xhat, w, dy, dx, dw, db, mean, rstd, c1, c2;
} bwd_regs;
static const bwd_regs BR = {BR_X, BR_XHAT, BR_W, BR_DY, BR_DX, BR_DW, -1, -1, BR_RSTD, BR_C1, -1};
static const bwd_regs BB = {BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2};

enum { BUG_NONE, BUG_C1_OVER_BLOCK, BUG_DW_NO_RSTD, BUG_DX_C2_SIGN, BUG_DW_NO_MEAN };

static void load_row(const td_abi_launch *L, int reg, int64_t base, int64_t n, int64_t B, float *t) {
    for (int64_t j = 0; j < B; j++) t[j] = j < n ? tl_load(L, reg, base + j) : 0.0f;
}

static int bwd_with(const td_abi_launch *L, const bwd_regs *R, int bug) {
    int64_t sxh = TL_I(L, BP_SXHAT), sx = TL_I(L, BP_SX), sdy = TL_I(L, BP_SDY), sdx = TL_I(L, BP_SDX);
    int64_t n = TL_I(L, BP_N), B = TL_I(L, BP_BLOCK);
    float *t;
    TL_ALLOC(L, t, 4 * B);
    float *x = t, *dy = t + B, *w = t + 2 * B, *p = t + 3 * B;
    /* one_row: DW (, DB) */
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        load_row(L, R->x, row * sx, n, B, x);
        load_row(L, R->dy, row * sdy, n, B, dy);
        float mean = R->mean >= 0 ? tl_load(L, R->mean, row) : 0.0f, rstd = tl_load(L, R->rstd, row);
        for (int64_t j = 0; j < B && j < n; j++) {
            float xhat = R->mean >= 0 && bug != BUG_DW_NO_MEAN ? (x[j] - mean) * rstd : x[j] * rstd;
            if (bug == BUG_DW_NO_RSTD) xhat = x[j]; /* dw = dy * x: the normalisation forgotten */
            tl_store(L, R->dw, row * n + j, dy[j] * xhat, tl_f32());
            if (R->db >= 0) tl_store(L, R->db, row * n + j, dy[j], tl_f32());
        }
    }
    /* dx from the stored C1 (C2) */
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        load_row(L, R->xhat, row * sxh, n, B, x);
        load_row(L, R->w, 0, n, B, w);
        load_row(L, R->dy, row * sdy, n, B, dy);
        float rstd = tl_load(L, R->rstd, row), c1 = tl_load(L, R->c1, row);
        float c2 = R->c2 >= 0 ? tl_load(L, R->c2, row) : 0.0f;
        for (int64_t j = 0; j < B && j < n; j++) {
            float wdy = w[j] * dy[j];
            float dx = R->c2 < 0 ? (wdy - x[j] * c1) * rstd
                       : bug == BUG_DX_C2_SIGN ? (wdy - (x[j] * c1 - c2)) * rstd /* c2 with the wrong sign */
                                               : (wdy - (x[j] * c1 + c2)) * rstd;
            tl_store(L, R->dx, row * sdx + j, dx, tl_f32());
        }
    }
    /* the reductions */
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        load_row(L, R->xhat, row * sxh, n, B, x);
        load_row(L, R->w, 0, n, B, w);
        load_row(L, R->dy, row * sdy, n, B, dy);
        for (int64_t j = 0; j < B; j++) p[j] = x[j] * (w[j] * dy[j]);
        /* c1 averaged over the tile width */
        tl_store(L, R->c1, row, tl_sum(p, B) / (float)(bug == BUG_C1_OVER_BLOCK ? B : n), tl_f32());
        if (R->c2 >= 0) {
            for (int64_t j = 0; j < B; j++) p[j] = w[j] * dy[j];
            tl_store(L, R->c2, row, tl_sum(p, B) / (float)n, tl_f32());
        }
    }
    free(t);
    return 0;
}
static int bwd_rms_c1_over_block(const td_abi_launch *L) { return bwd_with(L, &BR, BUG_C1_OVER_BLOCK); }
static int bwd_rms_dw_no_rstd(const td_abi_launch *L) { return bwd_with(L, &BR, BUG_DW_NO_RSTD); }
static int bwd_plain_c2_sign(const td_abi_launch *L) { return bwd_with(L, &BB, BUG_DX_C2_SIGN); }
static int bwd_plain_dw_no_mean(const td_abi_launch *L) { return bwd_with(L, &BB, BUG_DW_NO_MEAN); }

/* residual add: DX stored before the residual gradient is added (only DRESIDUAL_IN gets the sum) */
static int bwd_residual_dx_early(const td_abi_launch *L) {
    int64_t sdx = TL_I(L, BA_SDX), sdr = TL_I(L, BA_SDRES), sdri = TL_I(L, BA_SDRESIN), n = TL_I(L, BA_N),
            B = TL_I(L, BA_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < B && j < n; j++) {
            float dx = tl_load(L, BA_DXBASE, row * sdx + j);
            tl_store(L, BA_DX, row * sdx + j, dx, tl_f32());
            tl_store(L, BA_DRESIN, row * sdri + j, dx + tl_load(L, BA_DRES, row * sdr + j), tl_f32());
        }
    return 0;
}

/* scalar stores: Mean and Rstd buffers swapped */
static int stores_swapped(const td_abi_launch *L) {
    scalar_store(L, SS_RSTDPRE, SS_MEAN, tl_f32());
    scalar_store(L, SS_MEANPRE, SS_RSTD, tl_f32());
    return 0;
}
/* scalar stores R: the statistics kept in bfloat16 on the way (rounded to 8 bits) */
static int stores_bf16(const td_abi_launch *L) {
    td_profile bf = {TD_BF16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        tl_store(L, SS_MEAN, row, (float)td_decode(TD_BF16, td_encode_f32(bf, tl_load(L, SS_MEANPRE, row))), tl_f32());
        tl_store(L, SS_RSTD, row, (float)td_decode(TD_BF16, td_encode_f32(bf, tl_load(L, SS_RSTDPRE, row))), tl_f32());
    }
    return 0;
}

#define OPS(t) "layer_norm_ops.layer_norm_ops_" t
TD_KERNEL(td_m_lnops_fwd_plain_mask) = {OPS("fwd_plain_bias_all_outputs_compute_correct_general"),
                                        "mut_mask_off_by_one", TD_ABI_HOST, NULL, NULL,
                                        "Y store mask cols <= N: one lane past each row written", 3, 6, fwd_plain_mask, NULL};
TD_KERNEL(td_m_lnops_fwd_rms_bf16) = {OPS("fwd_rms_bias_all_outputs_compute_correct_general"), "mut_y_bf16",
                                      TD_ABI_HOST, NULL, NULL, "y rounded to bfloat16 before the store", 3, 4,
                                      fwd_rms_bf16, NULL};
TD_KERNEL(td_m_lnops_fwd_residual_swap) = {OPS("fwd_residual_bias_all_outputs_compute_correct_general"),
                                           "mut_mean_rstd_swapped", TD_ABI_HOST, NULL, NULL,
                                           "Mean and Rstd stores wired to each other's buffers", 4, 8,
                                           fwd_residual_swapped, NULL};
TD_KERNEL(td_m_lnops_bwd_rms_c1) = {OPS("bwd_rms_core_outputs_compute_correct_general"), "mut_c1_over_block",
                                    TD_ABI_HOST, NULL, NULL, "c1 = sum / BLOCK_N instead of / N", 6, 8,
                                    bwd_rms_c1_over_block, NULL};
TD_KERNEL(td_m_lnops_bwd_rms_dw) = {OPS("bwd_rms_core_outputs_compute_correct_general"), "mut_dw_without_rstd",
                                    TD_ABI_HOST, NULL, NULL, "dw = dy * x: rstd left out of xhat", 6, 8,
                                    bwd_rms_dw_no_rstd, NULL};
TD_KERNEL(td_m_lnops_bwd_plain_c2) = {OPS("bwd_plain_bias_core_outputs_compute_correct_general"), "mut_dx_c2_sign",
                                      TD_ABI_HOST, NULL, NULL, "dx = (wdy - (xhat*c1 - c2)) * rstd", 6, 11,
                                      bwd_plain_c2_sign, NULL};
TD_KERNEL(td_m_lnops_bwd_plain_dw) = {OPS("bwd_plain_bias_core_outputs_compute_correct_general"),
                                      "mut_dw_mean_not_subtracted", TD_ABI_HOST, NULL, NULL,
                                      "dw = dy * (x * rstd): the RMS branch's xhat in the plain kernel", 6, 11,
                                      bwd_plain_dw_no_mean, NULL};
TD_KERNEL(td_m_lnops_bwd_residual) = {OPS("bwd_residual_add_all_outputs_compute_correct_general"), "mut_dx_before_dres",
                                      TD_ABI_HOST, NULL, NULL, "DX stored before dres is added", 5, 4,
                                      bwd_residual_dx_early, NULL};
TD_KERNEL(td_m_lnops_stores_swap) = {OPS("scalar_stores_io_correctness"), "mut_mean_rstd_swapped", TD_ABI_HOST, NULL,
                                     NULL, "Mean and Rstd buffers swapped", 0, 4, stores_swapped, NULL};
TD_KERNEL(td_m_lnops_stores_bf16) = {OPS("scalar_stores_io_correctnessR"), "mut_stats_bf16", TD_ABI_HOST,
                                     "store=fp32:rne:inf", NULL, "statistics rounded to bfloat16 on the way", 0, 4,
                                     stores_bf16, NULL};

/* fwd_plain: the row offset row * stride_y_row formed in int32 (tl_i32), as Triton forms
 * it for an int32 stride: below 2^31 elements the port; beyond, the offset wraps to a
 * negative one (a device fault) or into another row. */
static int fwd_plain_offset_int32(const td_abi_launch *L) {
    int64_t sy = TL_I(L, FP_SY), n = TL_I(L, FP_N), B = TL_I(L, FP_BLOCK), w = n < B ? n : B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = tl_i32((int64_t)row * tl_i32(sy));
        if (tl_fault(L, FP_VALUEPRE, base, w, 1, row) || tl_fault(L, FP_Y, base, w, 1, row)) return 1;
        for (int64_t j = 0; j < w; j++) tl_store(L, FP_Y, base + j, tl_load(L, FP_VALUEPRE, base + j), tl_f32());
    }
    scalar_store(L, FP_MEANPRE, FP_MEAN, tl_f32());
    scalar_store(L, FP_RSTDPRE, FP_RSTD, tl_f32());
    return 0;
}
TD_KERNEL(td_m_lnops_fwd_plain_i32) = {"layer_norm_ops.layer_norm_ops_fwd_plain_bias_all_outputs_compute_correct_general",
                                       "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                       "row * stride_y_row computed in int32 (wraps beyond 2^31)", 3, 6,
                                       fwd_plain_offset_int32, NULL};
