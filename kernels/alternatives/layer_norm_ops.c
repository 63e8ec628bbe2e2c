/* Alternatives for two slices of layer_norm_ops (contracts/layer_norm_ops.c): the forward
 * store slices with bias (plain and RMS) and the plain-with-bias backward core.
 *
 *   alt_rev_tiles4   (fwd_plain_bias, fwd_rms_bias) the copies done the other way round:
 *                 the scalar statistics stored first, then the rows from the last program
 *                 to the first, each row moved in tiles of 4 columns (not BLOCK_N) from
 *                 its last tile down.  Admissible: a copy has no arithmetic, and the
 *                 contract fixes only which cell gets which value (i < min(N, BLOCK_N)),
 *                 not the order of the stores or the tile width.  Bit-exact expected.
 *   alt_fma_seq_rcpn (bwd_plain_bias_core_outputs) one pass per row: DB = dy,
 *                 DW = dy * ((x - mean) * rstd) as the spec groups it; DX from the
 *                 supplied C1 / C2 with xhat*c1 + c2 as one FMA; then the new C1 as one
 *                 FMA chain of xhat_i * RN(w_i*dy_i) from the last column to the first,
 *                 C2 the RN(w_i*dy_i) summed left to right, both divided by N as a
 *                 multiply by RN(1/N).  C1 and C2 of a row are written only after that
 *                 row's DX has read them (every slice sees the initial state).
 *                 Admissible: any sum order, FMA contraction, a/b as a*(1/b).
 * Masked lanes (i >= min(N, BLOCK_N)) are neither loaded nor stored. */
#include "tl.h"

enum { FP_SY, FP_N, FP_BLOCK };
enum { FP_VALUEPRE, FP_MEANPRE, FP_RSTDPRE, FP_Y, FP_MEAN, FP_RSTD };
enum { FR_VALUEPRE, FR_RSTDPRE, FR_Y, FR_RSTD };
enum { BP_SXHAT, BP_SDY, BP_SX, BP_SDX, BP_N, BP_BLOCK };
enum { BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2 };
enum { FX_SRES, FX_SY, FX_N, FX_BLOCK };
enum { FX_RESPRE, FX_VALUEPRE, FX_MEANPRE, FX_RSTDPRE, FX_RESOUT, FX_Y, FX_MEAN, FX_RSTD };
enum { BR_X, BR_XHAT, BR_W, BR_DY, BR_RSTD, BR_C1, BR_DX, BR_DW };
enum { BA_SDX, BA_SDRES, BA_SDRESIN, BA_N, BA_BLOCK };
enum { BA_DXBASE, BA_DRES, BA_DX, BA_DRESIN };

static int64_t lno_width(int64_t n, int64_t B) { return n < B ? n : B; }

/* Out[row*stride + j] = Pre[same] for j < w, rows last to first, tiles of 4 from the right */
static void lno_copy_rows_rev(const td_abi_launch *L, int pre, int out, int64_t stride, int64_t w) {
    for (int64_t row = (int64_t)L->grid[0] - 1; row >= 0; row--)
        for (int64_t t0 = (w - 1) / 4 * 4; w > 0 && t0 >= 0; t0 -= 4) {
            float tile[4];
            int64_t n = w - t0 < 4 ? w - t0 : 4;
            for (int64_t e = 0; e < n; e++) tile[e] = tl_load(L, pre, row * stride + t0 + e);
            for (int64_t e = n - 1; e >= 0; e--) tl_store(L, out, row * stride + t0 + e, tile[e], tl_f32());
        }
}
static void lno_copy_scalars_rev(const td_abi_launch *L, int pre, int out) {
    for (int64_t row = (int64_t)L->grid[0] - 1; row >= 0; row--) tl_store(L, out, row, tl_load(L, pre, row), tl_f32());
}

static int lno_fwd_plain_rev(const td_abi_launch *L) {
    lno_copy_scalars_rev(L, FP_RSTDPRE, FP_RSTD);
    lno_copy_scalars_rev(L, FP_MEANPRE, FP_MEAN);
    lno_copy_rows_rev(L, FP_VALUEPRE, FP_Y, TL_I(L, FP_SY), lno_width(TL_I(L, FP_N), TL_I(L, FP_BLOCK)));
    return 0;
}
static int lno_fwd_rms_rev(const td_abi_launch *L) {
    lno_copy_scalars_rev(L, FR_RSTDPRE, FR_RSTD);
    lno_copy_rows_rev(L, FR_VALUEPRE, FR_Y, TL_I(L, FP_SY), lno_width(TL_I(L, FP_N), TL_I(L, FP_BLOCK)));
    return 0;
}

static int lno_bwd_plain_fma(const td_abi_launch *L) {
    int64_t sxh = TL_I(L, BP_SXHAT), sdy = TL_I(L, BP_SDY), sx = TL_I(L, BP_SX), sdx = TL_I(L, BP_SDX);
    int64_t n = TL_I(L, BP_N), w = lno_width(n, TL_I(L, BP_BLOCK));
    float rn = 1.0f / (float)n;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        float mean = tl_load(L, BB_MEAN, row), rstd = tl_load(L, BB_RSTD, row);
        float c1in = tl_load(L, BB_C1, row), c2in = tl_load(L, BB_C2, row);
        for (int64_t i = 0; i < w; i++) {
            float dy = tl_load(L, BB_DY, row * sdy + i), x = tl_load(L, BB_X, row * sx + i);
            float wdy = tl_load(L, BB_W, i) * dy, xhat = tl_load(L, BB_XHAT, row * sxh + i);
            tl_store(L, BB_DB, row * n + i, dy, tl_f32());
            tl_store(L, BB_DW, row * n + i, dy * ((x - mean) * rstd), tl_f32());
            tl_store(L, BB_DX, row * sdx + i, (wdy - fmaf(xhat, c1in, c2in)) * rstd, tl_f32());
        }
        float c1 = 0.0f, c2 = 0.0f;
        for (int64_t i = w - 1; i >= 0; i--)
            c1 = fmaf(tl_load(L, BB_XHAT, row * sxh + i), tl_load(L, BB_W, i) * tl_load(L, BB_DY, row * sdy + i), c1);
        for (int64_t i = 0; i < w; i++) c2 = c2 + tl_load(L, BB_W, i) * tl_load(L, BB_DY, row * sdy + i);
        tl_store(L, BB_C1, row, c1 * rn, tl_f32());
        tl_store(L, BB_C2, row, c2 * rn, tl_f32());
    }
    return 0;
}

#define LNO(t) "layer_norm_ops.layer_norm_ops_" t
TD_KERNEL(td_a_lnops_fwd_plain_rev) = {LNO("fwd_plain_bias_all_outputs_compute_correct_general"), "alt_rev_tiles4",
                                       TD_ABI_HOST, NULL, NULL, NULL, 3, 6, lno_fwd_plain_rev, NULL};
TD_KERNEL(td_a_lnops_fwd_rms_rev) = {LNO("fwd_rms_bias_all_outputs_compute_correct_general"), "alt_rev_tiles4",
                                     TD_ABI_HOST, NULL, NULL, NULL, 3, 4, lno_fwd_rms_rev, NULL};
TD_KERNEL(td_a_lnops_bwd_plain_fma) = {LNO("bwd_plain_bias_core_outputs_compute_correct_general"), "alt_fma_seq_rcpn",
                                       TD_ABI_HOST, NULL, NULL, NULL, 6, 11, lno_bwd_plain_fma, NULL};

/* Three more slices (each had only the port):
 *
 *   alt_fused_t8  (fwd_residual_bias) one pass per row, the rows even-numbered first then
 *                 odd-numbered: Rstd and Mean of the row stored first, then RESIDUAL_OUT
 *                 and Y together, column by column, in tiles of 8 (not BLOCK_N).
 *                 Admissible: copies have no arithmetic; the contract fixes which cell gets
 *                 which value, not the store order, the interleaving or the tile width.
 *   alt_fma_split4 (bwd_rms_core_outputs) DW = dy * (x * rstd) as the spec groups it;
 *                 DX = fma(-xhat, C1_in, w*dy) * rstd (the subtraction contracted with the
 *                 product); C1 as four strided partial sums (column i into part i % 4, as
 *                 a 4-wide vectorised loop keeps them), each an FMA chain of
 *                 xhat_i * RN(w_i*dy_i), combined as (p0 + p1) + (p2 + p3), then / N.
 *                 C1 is written after the row's DX has read the initial C1.
 *                 Admissible: any sum order or split, FMA contraction.
 *   alt_halves_rcpn (bwd_rms_core_outputs) C1 as a recursive halving tree (each range
 *                 split at its midpoint) of RN(xhat_i * RN(w_i*dy_i)), unfused, then times
 *                 RN(1/N); DX and DW as the spec writes them, the columns from the last to
 *                 the first.  Admissible: a tree of another shape than tl.sum's, a/b as
 *                 a*(1/b).
 *   alt_swap_rev4 (bwd_residual_add) out = DRESIDUAL + DXBase (the operands swapped: IEEE
 *                 addition commutes bit for bit), DX stored before DRESIDUAL_IN, rows from
 *                 the last to the first in tiles of 4 columns from the row's right end.
 *                 Admissible: one rounding of the same exact sum; store order and tiling
 *                 are free. */
static void lno_res_row_fused(const td_abi_launch *L, int64_t row, int64_t w) {
    int64_t sres = TL_I(L, FX_SRES), sy = TL_I(L, FX_SY);
    tl_store(L, FX_RSTD, row, tl_load(L, FX_RSTDPRE, row), tl_f32());
    tl_store(L, FX_MEAN, row, tl_load(L, FX_MEANPRE, row), tl_f32());
    for (int64_t t0 = 0; t0 < w; t0 += 8)
        for (int64_t i = t0; i < t0 + 8 && i < w; i++) {
            tl_store(L, FX_RESOUT, row * sres + i, tl_load(L, FX_RESPRE, row * sres + i), tl_f32());
            tl_store(L, FX_Y, row * sy + i, tl_load(L, FX_VALUEPRE, row * sy + i), tl_f32());
        }
}
static int lno_fwd_residual_fused(const td_abi_launch *L) {
    int64_t w = lno_width(TL_I(L, FX_N), TL_I(L, FX_BLOCK)), rows = (int64_t)L->grid[0];
    for (int64_t row = 0; row < rows; row += 2) lno_res_row_fused(L, row, w);
    for (int64_t row = 1; row < rows; row += 2) lno_res_row_fused(L, row, w);
    return 0;
}

static float lno_rms_c1_split4(const td_abi_launch *L, int64_t row, int64_t w) {
    int64_t sxh = TL_I(L, BP_SXHAT), sdy = TL_I(L, BP_SDY);
    float p[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t i = 0; i < w; i++) {
        float wdy = tl_load(L, BR_W, i) * tl_load(L, BR_DY, row * sdy + i);
        p[i % 4] = fmaf(tl_load(L, BR_XHAT, row * sxh + i), wdy, p[i % 4]);
    }
    return (p[0] + p[1]) + (p[2] + p[3]);
}
static int lno_bwd_rms_fma(const td_abi_launch *L) {
    int64_t sxh = TL_I(L, BP_SXHAT), sdy = TL_I(L, BP_SDY), sx = TL_I(L, BP_SX), sdx = TL_I(L, BP_SDX);
    int64_t n = TL_I(L, BP_N), w = lno_width(n, TL_I(L, BP_BLOCK));
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        float rstd = tl_load(L, BR_RSTD, row), c1in = tl_load(L, BR_C1, row);
        for (int64_t i = 0; i < w; i++) {
            float dy = tl_load(L, BR_DY, row * sdy + i), wdy = tl_load(L, BR_W, i) * dy;
            float xhat = tl_load(L, BR_XHAT, row * sxh + i);
            tl_store(L, BR_DW, row * n + i, dy * (tl_load(L, BR_X, row * sx + i) * rstd), tl_f32());
            tl_store(L, BR_DX, row * sdx + i, fmaf(-xhat, c1in, wdy) * rstd, tl_f32());
        }
        tl_store(L, BR_C1, row, lno_rms_c1_split4(L, row, w) / (float)n, tl_f32());
    }
    return 0;
}

static float lno_rms_c1_halves(const td_abi_launch *L, int64_t row, int64_t lo, int64_t hi) {
    if (hi - lo == 1) {
        float wdy = tl_load(L, BR_W, lo) * tl_load(L, BR_DY, row * TL_I(L, BP_SDY) + lo);
        return tl_load(L, BR_XHAT, row * TL_I(L, BP_SXHAT) + lo) * wdy;
    }
    int64_t mid = lo + (hi - lo) / 2;
    return lno_rms_c1_halves(L, row, lo, mid) + lno_rms_c1_halves(L, row, mid, hi);
}
static int lno_bwd_rms_halves(const td_abi_launch *L) {
    int64_t sxh = TL_I(L, BP_SXHAT), sdy = TL_I(L, BP_SDY), sx = TL_I(L, BP_SX), sdx = TL_I(L, BP_SDX);
    int64_t n = TL_I(L, BP_N), w = lno_width(n, TL_I(L, BP_BLOCK));
    float rn = 1.0f / (float)n;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        float rstd = tl_load(L, BR_RSTD, row), c1in = tl_load(L, BR_C1, row);
        for (int64_t i = w - 1; i >= 0; i--) {
            float dy = tl_load(L, BR_DY, row * sdy + i), wdy = tl_load(L, BR_W, i) * dy;
            float xc = tl_load(L, BR_XHAT, row * sxh + i) * c1in;
            tl_store(L, BR_DX, row * sdx + i, (wdy - xc) * rstd, tl_f32());
            tl_store(L, BR_DW, row * n + i, dy * (tl_load(L, BR_X, row * sx + i) * rstd), tl_f32());
        }
        if (w > 0) tl_store(L, BR_C1, row, lno_rms_c1_halves(L, row, 0, w) * rn, tl_f32());
    }
    return 0;
}

static int lno_bwd_residual_add_rev(const td_abi_launch *L) {
    int64_t sdx = TL_I(L, BA_SDX), sdr = TL_I(L, BA_SDRES), sdri = TL_I(L, BA_SDRESIN);
    int64_t w = lno_width(TL_I(L, BA_N), TL_I(L, BA_BLOCK));
    for (int64_t row = (int64_t)L->grid[0] - 1; row >= 0; row--)
        for (int64_t t0 = (w - 1) / 4 * 4; w > 0 && t0 >= 0; t0 -= 4)
            for (int64_t i = t0; i < t0 + 4 && i < w; i++) {
                float out = tl_load(L, BA_DRES, row * sdr + i) + tl_load(L, BA_DXBASE, row * sdx + i);
                tl_store(L, BA_DX, row * sdx + i, out, tl_f32());
                tl_store(L, BA_DRESIN, row * sdri + i, out, tl_f32());
            }
    return 0;
}

TD_KERNEL(td_a_lnops_fwd_residual_fused) = {LNO("fwd_residual_bias_all_outputs_compute_correct_general"),
                                            "alt_fused_t8", TD_ABI_HOST, NULL, NULL, NULL, 4, 8,
                                            lno_fwd_residual_fused, NULL};
TD_KERNEL(td_a_lnops_bwd_rms_fma) = {LNO("bwd_rms_core_outputs_compute_correct_general"), "alt_fma_split4",
                                     TD_ABI_HOST, NULL, NULL, NULL, 6, 8, lno_bwd_rms_fma, NULL};
TD_KERNEL(td_a_lnops_bwd_rms_halves) = {LNO("bwd_rms_core_outputs_compute_correct_general"), "alt_halves_rcpn",
                                        TD_ABI_HOST, NULL, NULL, NULL, 6, 8, lno_bwd_rms_halves, NULL};
TD_KERNEL(td_a_lnops_bwd_residual_add_rev) = {LNO("bwd_residual_add_all_outputs_compute_correct_general"),
                                              "alt_swap_rev4", TD_ABI_HOST, NULL, NULL, NULL, 5, 4,
                                              lno_bwd_residual_add_rev, NULL};
