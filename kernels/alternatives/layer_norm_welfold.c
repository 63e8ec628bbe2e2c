/* Alternative for layer_norm_welfold.layer_norm_welfold_output_summary_general
 * (Inductor's two-pass "no_welford" layer norm: mean, rstd with eps = 1e-5, y).
 *
 *   alt_welford   the statistics by Welford's sequential update over the row (one
 *                 thread per row) instead of two RBLOCK-lane passes and trees: mean and
 *                 M2, var = M2 / rnumel, rstd = 1 / sqrt(var + 1e-5), y as the port's
 *                 ((x - mean) * rstd) * w + b.  Admissible: Welford is the other
 *                 standard variance algorithm; the spec is the mathematical mean and
 *                 biased variance.
 *   alt_twopass_seq  the port's two passes, but each sum left to right over the row
 *                 (one thread per row) instead of RBLOCK per-lane accumulators and a tree,
 *                 and the divisions by rnumel as multiplies by 1/rnumel.  Admissible: any
 *                 summation order, reciprocal-multiply.
 * Parameters: xnumel, rnumel, XBLOCK, RBLOCK.  Regions: in_out_ptr0 (mean),
 * in_out_ptr1 (rstd), in_ptr0 (x), in_ptr1 (w), in_ptr2 (b), out_ptr0 (y). */
#include "alt_a_norm.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0 };

static int lnw_row(const td_abi_launch *L, int welford) {
    int64_t n = TL_I(L, P_RNUMEL);
    float *x;
    TL_ALLOC(L, x, n);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++) {
        for (int64_t r = 0; r < n; r++) x[r] = tl_load(L, R_IN0, r + n * x0);
        float mean, m2, var;
        if (welford) {
            aa_welford_seq(x, n, &mean, &m2);
            var = m2 / (float)n;
        } else {
            aa_twopass(x, n, &mean, &var);
        }
        float rstd = 1.0f / sqrtf(var + 1e-05f);
        tl_store(L, R_IO0, x0, mean, tl_f32());
        tl_store(L, R_IO1, x0, rstd, tl_f32());
        for (int64_t r = 0; r < n; r++)
            tl_store(L, R_OUT0, r + n * x0, ((x[r] - mean) * rstd) * tl_load(L, R_IN1, r) + tl_load(L, R_IN2, r),
                     tl_f32());
    }
    free(x);
    return 0;
}

static int lnw_welford(const td_abi_launch *L) { return lnw_row(L, 1); }
static int lnw_twopass(const td_abi_launch *L) { return lnw_row(L, 0); }

TD_KERNEL(td_a_layer_norm_welfold_welford) = {"layer_norm_welfold.layer_norm_welfold_output_summary_general",
                                              "alt_welford", TD_ABI_HOST, NULL, NULL, NULL, 4, 6, lnw_welford, NULL};
TD_KERNEL(td_a_layer_norm_welfold_twopass) = {"layer_norm_welfold.layer_norm_welfold_output_summary_general",
                                              "alt_twopass_seq", TD_ABI_HOST, NULL, NULL, NULL, 4, 6, lnw_twopass, NULL};

/* Alternative for layer_norm_welfold.layer_norm_welfold_normalize_io_correctness (the
 * normalize slice alone, mean and rstd supplied per row: params rnumel, RBLOCK; regions
 * in_out_ptr0 (mean), in_out_ptr1 (rstd), in_ptr0 (x), in_ptr1 (w), in_ptr2 (b),
 * out_ptr0 (y)):
 *
 *   alt_fma_rowpass  one pass per row over the columns the grid covers (col < rnumel and
 *                 col < grid[1] * RBLOCK), instead of one program per (row, RBLOCK
 *                 chunk), and y = fmaf((x - mean) * rstd, w, b): the scale-and-shift
 *                 contracted into one FMA, as nvcc / ptxas do by default.  Admissible:
 *                 FMA contraction; the cells written are the contract's. */
enum { PN_RNUMEL, PN_RBLOCK };

static int lnw_norm_fma(const td_abi_launch *L) {
    int64_t n = TL_I(L, PN_RNUMEL), covered = (int64_t)L->grid[1] * TL_I(L, PN_RBLOCK);
    int64_t cols = n < covered ? n : covered;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        float mean = tl_load(L, R_IO0, row), rstd = tl_load(L, R_IO1, row);
        for (int64_t c = 0; c < cols; c++) {
            float xhat = (tl_load(L, R_IN0, c + n * row) - mean) * rstd;
            tl_store(L, R_OUT0, c + n * row, fmaf(xhat, tl_load(L, R_IN1, c), tl_load(L, R_IN2, c)), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_welfold_normalize_fma) = {"layer_norm_welfold.layer_norm_welfold_normalize_io_correctness",
                                         "alt_fma_rowpass", TD_ABI_HOST, NULL, NULL, NULL, 2, 6, lnw_norm_fma, NULL};
