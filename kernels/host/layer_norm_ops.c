/* layer_norm_ops: the proof slices of _layer_norm_fwd_1pass_kernel and
 * _layer_norm_bwd_kernel (VeriTile LayerNormOps.lean), each a Triton program over one
 * row per program.  A contract that speaks about several slices is one launch running
 * the slices one after the other over the grid, ordered so that no slice reads what an
 * earlier one wrote (every slice sees the initial state, as the theorems say).
 * Masked loads of W have no `other` in Triton (undefined lanes); they are loaded as 0
 * here and only ever multiply masked zeros. */
#include "tl.h"

/* fwd_plain_bias / fwd_rms_bias */
enum { FP_SY, FP_N, FP_BLOCK };
enum { FP_VALUEPRE, FP_MEANPRE, FP_RSTDPRE, FP_Y, FP_MEAN, FP_RSTD };
enum { FR_VALUEPRE, FR_RSTDPRE, FR_Y, FR_RSTD };
/* fwd_residual_bias */
enum { FX_SRES, FX_SY, FX_N, FX_BLOCK };
enum { FX_RESPRE, FX_VALUEPRE, FX_MEANPRE, FX_RSTDPRE, FX_RESOUT, FX_Y, FX_MEAN, FX_RSTD };
/* backward */
enum { BP_SXHAT, BP_SDY, BP_SX, BP_SDX, BP_N, BP_BLOCK };
enum { BR_X, BR_XHAT, BR_W, BR_DY, BR_RSTD, BR_C1, BR_DX, BR_DW };
enum { BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2 };
/* residual add */
enum { BA_SDX, BA_SDRES, BA_SDRESIN, BA_N, BA_BLOCK };
enum { BA_DXBASE, BA_DRES, BA_DX, BA_DRESIN };
/* scalar stores */
enum { SS_MEANPRE, SS_MEAN, SS_RSTDPRE, SS_RSTD };

/* layer_norm_ops_bwd_row_vector_store_slice (= fwd_y_store_slice, fwd_residual_out_store_slice):
 * value = tl.load(ValuePre + row*stride + cols, mask); tl.store(Out + row*stride + cols, value, mask) */
static void row_vector_store(const td_abi_launch *L, int pre, int out, int64_t stride, int64_t n, int64_t B) {
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < B; j++)
            if (j < n) tl_store(L, out, row * stride + j, tl_load(L, pre, row * stride + j), tl_f32());
}
/* fwd_mean_store_slice / fwd_rstd_store_slice: tl.store(Out + row, tl.load(Pre + row)) */
static void scalar_store(const td_abi_launch *L, int pre, int out) {
    for (uint32_t row = 0; row < L->grid[0]; row++) tl_store(L, out, row, tl_load(L, pre, row), tl_f32());
}

static int fwd_plain(const td_abi_launch *L) {
    row_vector_store(L, FP_VALUEPRE, FP_Y, TL_I(L, FP_SY), TL_I(L, FP_N), TL_I(L, FP_BLOCK));
    scalar_store(L, FP_MEANPRE, FP_MEAN);
    scalar_store(L, FP_RSTDPRE, FP_RSTD);
    return 0;
}
static int fwd_rms(const td_abi_launch *L) {
    row_vector_store(L, FR_VALUEPRE, FR_Y, TL_I(L, FP_SY), TL_I(L, FP_N), TL_I(L, FP_BLOCK));
    scalar_store(L, FR_RSTDPRE, FR_RSTD);
    return 0;
}
static int fwd_residual(const td_abi_launch *L) {
    row_vector_store(L, FX_RESPRE, FX_RESOUT, TL_I(L, FX_SRES), TL_I(L, FX_N), TL_I(L, FX_BLOCK));
    row_vector_store(L, FX_VALUEPRE, FX_Y, TL_I(L, FX_SY), TL_I(L, FX_N), TL_I(L, FX_BLOCK));
    scalar_store(L, FX_MEANPRE, FX_MEAN);
    scalar_store(L, FX_RSTDPRE, FX_RSTD);
    return 0;
}
static int scalar_stores(const td_abi_launch *L) {
    scalar_store(L, SS_MEANPRE, SS_MEAN);
    scalar_store(L, SS_RSTDPRE, SS_RSTD);
    return 0;
}

/* ---- backward ---- */
typedef struct bwd_regs {
    int x, xhat, w, dy, dx, dw, db, mean, rstd, c1, c2;
} bwd_regs;
static const bwd_regs BR = {BR_X, BR_XHAT, BR_W, BR_DY, BR_DX, BR_DW, -1, -1, BR_RSTD, BR_C1, -1};
static const bwd_regs BB = {BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2};

/* the tiles of one row: masked loads, other = 0 */
static void load_row(const td_abi_launch *L, int reg, int64_t base, int64_t n, int64_t B, float *t) {
    for (int64_t j = 0; j < B; j++) t[j] = j < n ? tl_load(L, reg, base + j) : 0.0f;
}

/* layer_norm_ops_bwd_rms_one_row / _plain_bias_one_row: xhat, wdy, dw (, db), c1 (, c2),
 * dx; stores DX, DW (, DB) */
static void one_row(const td_abi_launch *L, const bwd_regs *R, float *t) {
    int64_t sx = TL_I(L, BP_SX), sdy = TL_I(L, BP_SDY), sdx = TL_I(L, BP_SDX), n = TL_I(L, BP_N), B = TL_I(L, BP_BLOCK);
    float *x = t, *dy = t + B, *w = t + 2 * B, *xhat = t + 3 * B, *wdy = t + 4 * B, *p1 = t + 5 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        load_row(L, R->x, row * sx, n, B, x);
        load_row(L, R->dy, row * sdy, n, B, dy);
        float mean = R->mean >= 0 ? tl_load(L, R->mean, row) : 0.0f;
        float rstd = tl_load(L, R->rstd, row);
        load_row(L, R->w, 0, n, B, w);
        for (int64_t j = 0; j < B; j++) {
            xhat[j] = R->mean >= 0 ? (x[j] - mean) * rstd : x[j] * rstd;
            if (!(j < n)) xhat[j] = 0.0f; /* tl.where(mask, xhat, 0.0) */
            wdy[j] = w[j] * dy[j];
            p1[j] = xhat[j] * wdy[j];
        }
        float c1 = tl_sum(p1, B) / (float)n;
        float c2 = R->c2 >= 0 ? tl_sum(wdy, B) / (float)n : 0.0f;
        for (int64_t j = 0; j < B; j++) {
            if (!(j < n)) continue;
            float dx = R->c2 >= 0 ? (wdy[j] - (xhat[j] * c1 + c2)) * rstd : (wdy[j] - xhat[j] * c1) * rstd;
            tl_store(L, R->dx, row * sdx + j, dx, tl_f32());
            tl_store(L, R->dw, row * n + j, dy[j] * xhat[j], tl_f32());
            if (R->db >= 0) tl_store(L, R->db, row * n + j, dy[j], tl_f32());
        }
    }
}

/* rms_dx_from_c1 / plain_dx_from_c1_c2: dx = (wdy - xhat*c1 [+ c2]) * rstd from the stored C1 (C2) */
static void dx_from_c(const td_abi_launch *L, const bwd_regs *R, float *t) {
    int64_t sxh = TL_I(L, BP_SXHAT), sdy = TL_I(L, BP_SDY), sdx = TL_I(L, BP_SDX), n = TL_I(L, BP_N),
            B = TL_I(L, BP_BLOCK);
    float *xhat = t, *w = t + B, *dy = t + 2 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        load_row(L, R->xhat, row * sxh, n, B, xhat);
        load_row(L, R->w, 0, n, B, w);
        load_row(L, R->dy, row * sdy, n, B, dy);
        float rstd = tl_load(L, R->rstd, row), c1 = tl_load(L, R->c1, row);
        float c2 = R->c2 >= 0 ? tl_load(L, R->c2, row) : 0.0f;
        for (int64_t j = 0; j < B; j++) {
            if (!(j < n)) continue;
            float wdy = w[j] * dy[j];
            float dx = R->c2 >= 0 ? (wdy - (xhat[j] * c1 + c2)) * rstd : (wdy - xhat[j] * c1) * rstd;
            tl_store(L, R->dx, row * sdx + j, dx, tl_f32());
        }
    }
}

/* c1_reduction (with_xhat) / c2_reduction: tl.sum(xhat * (w * dy)) / N, tl.sum(w * dy) / N */
static void reduce_c(const td_abi_launch *L, const bwd_regs *R, int with_xhat, int out, float *t) {
    int64_t sxh = TL_I(L, BP_SXHAT), sdy = TL_I(L, BP_SDY), n = TL_I(L, BP_N), B = TL_I(L, BP_BLOCK);
    float *xhat = t, *w = t + B, *dy = t + 2 * B, *p = t + 3 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        if (with_xhat) load_row(L, R->xhat, row * sxh, n, B, xhat);
        load_row(L, R->w, 0, n, B, w);
        load_row(L, R->dy, row * sdy, n, B, dy);
        for (int64_t j = 0; j < B; j++) p[j] = with_xhat ? xhat[j] * (w[j] * dy[j]) : w[j] * dy[j];
        tl_store(L, out, row, tl_sum(p, B) / (float)n, tl_f32());
    }
}

static int bwd(const td_abi_launch *L, const bwd_regs *R) {
    int64_t B = TL_I(L, BP_BLOCK);
    float *t;
    TL_ALLOC(L, t, 6 * B);
    one_row(L, R, t);
    dx_from_c(L, R, t);
    reduce_c(L, R, 1, R->c1, t);
    if (R->c2 >= 0) reduce_c(L, R, 0, R->c2, t);
    free(t);
    return 0;
}
static int bwd_rms(const td_abi_launch *L) { return bwd(L, &BR); }
static int bwd_plain(const td_abi_launch *L) { return bwd(L, &BB); }

/* layer_norm_ops_bwd_residual_add_store_slice: out = dx + dres, stored to DRESIDUAL_IN and DX */
static int bwd_residual_add(const td_abi_launch *L) {
    int64_t sdx = TL_I(L, BA_SDX), sdr = TL_I(L, BA_SDRES), sdri = TL_I(L, BA_SDRESIN), n = TL_I(L, BA_N),
            B = TL_I(L, BA_BLOCK);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t j = 0; j < B; j++) {
            if (!(j < n)) continue;
            float out = tl_load(L, BA_DXBASE, row * sdx + j) + tl_load(L, BA_DRES, row * sdr + j);
            tl_store(L, BA_DRESIN, row * sdri + j, out, tl_f32());
            tl_store(L, BA_DX, row * sdx + j, out, tl_f32());
        }
    return 0;
}

#define OPS(t) "layer_norm_ops.layer_norm_ops_" t
TD_KERNEL(td_k_lnops_fwd_plain) = {OPS("fwd_plain_bias_all_outputs_compute_correct_general"), "triton", TD_ABI_HOST,
                                   NULL, NULL, NULL, 3, 6, fwd_plain, NULL};
TD_KERNEL(td_k_lnops_fwd_rms) = {OPS("fwd_rms_bias_all_outputs_compute_correct_general"), "triton", TD_ABI_HOST, NULL,
                                 NULL, NULL, 3, 4, fwd_rms, NULL};
TD_KERNEL(td_k_lnops_fwd_residual) = {OPS("fwd_residual_bias_all_outputs_compute_correct_general"), "triton",
                                      TD_ABI_HOST, NULL, NULL, NULL, 4, 8, fwd_residual, NULL};
TD_KERNEL(td_k_lnops_bwd_rms) = {OPS("bwd_rms_core_outputs_compute_correct_general"), "triton", TD_ABI_HOST, NULL,
                                 NULL, NULL, 6, 8, bwd_rms, NULL};
TD_KERNEL(td_k_lnops_bwd_plain) = {OPS("bwd_plain_bias_core_outputs_compute_correct_general"), "triton", TD_ABI_HOST,
                                   NULL, NULL, NULL, 6, 11, bwd_plain, NULL};
TD_KERNEL(td_k_lnops_bwd_residual_add) = {OPS("bwd_residual_add_all_outputs_compute_correct_general"), "triton",
                                          TD_ABI_HOST, NULL, NULL, NULL, 5, 4, bwd_residual_add, NULL};
TD_KERNEL(td_k_lnops_stores) = {OPS("scalar_stores_io_correctness"), "triton", TD_ABI_HOST, NULL, NULL, NULL, 0, 4,
                                scalar_stores, NULL};
TD_KERNEL(td_k_lnops_stores_r) = {OPS("scalar_stores_io_correctnessR"), "triton", TD_ABI_HOST, "store=fp32:rne:inf",
                                  NULL, NULL, 0, 4, scalar_stores, NULL};
