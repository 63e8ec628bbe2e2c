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
