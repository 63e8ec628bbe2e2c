/* Alternative for fused_layernorm_triton.fused_layernorm_triton_output_summary_general
 * (Inductor's Welford layer norm: mean (out_ptr0), rstd (in_out_ptr0) with eps = 1e-5,
 * y = ((x - mean) * rstd) * w + b (out_ptr1)).
 *
 *   alt_twopass_rcp  the port reduces with per-lane Welford states merged by a tree;
 *                 this kernel is the plain two-pass algorithm: mean = sum(x) * (1/n), then
 *                 var = sum((x - mean)^2) * (1/n), both sums left to right, and
 *                 y = fmaf((x - mean) * rstd, w, b).  Admissible: two-pass variance (the
 *                 issue: "Welford and two-pass variance"), reciprocal-multiply, FMA.
 *   alt_welford_seq  Welford too, but one sequential update over the whole row
 *                 (mean += d / k, M2 += d * (x - mean)) instead of RBLOCK per-lane states
 *                 merged by a tree; y as alt_twopass_rcp.  Admissible: Welford in another
 *                 order, FMA.
 * Parameters: xnumel, rnumel, XBLOCK, RBLOCK.  Regions: in_out_ptr0 (rstd), in_ptr0 (x),
 * in_ptr1 (w), in_ptr2 (b), out_ptr0 (mean), out_ptr1 (y). */
#include "alt_a_norm.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK };
enum { R_IO0, R_IN0, R_IN1, R_IN2, R_OUT0, R_OUT1 };

static int fln_row(const td_abi_launch *L, int welford) {
    int64_t n = TL_I(L, P_RNUMEL);
    float *x;
    TL_ALLOC(L, x, n);
    for (uint32_t x0 = 0; x0 < L->grid[0]; x0++) {
        for (int64_t r = 0; r < n; r++) x[r] = tl_load(L, R_IN0, r + n * x0);
        float mean, var;
        if (welford) {
            aa_welford_seq(x, n, &mean, &var);
            var = var / (float)n;
        } else {
            aa_twopass(x, n, &mean, &var);
        }
        float rstd = 1.0f / sqrtf(var + 1e-05f);
        tl_store(L, R_OUT0, x0, mean, tl_f32());
        tl_store(L, R_IO0, x0, rstd, tl_f32());
        for (int64_t r = 0; r < n; r++)
            tl_store(L, R_OUT1, r + n * x0, fmaf((x[r] - mean) * rstd, tl_load(L, R_IN1, r), tl_load(L, R_IN2, r)),
                     tl_f32());
    }
    free(x);
    return 0;
}

static int fln_twopass(const td_abi_launch *L) { return fln_row(L, 0); }
static int fln_welford(const td_abi_launch *L) { return fln_row(L, 1); }

TD_KERNEL(td_a_fused_layernorm_twopass) = {"fused_layernorm_triton.fused_layernorm_triton_output_summary_general",
                                           "alt_twopass_rcp", TD_ABI_HOST, NULL, NULL, NULL, 4, 6, fln_twopass, NULL};
TD_KERNEL(td_a_fused_layernorm_welford_seq) = {"fused_layernorm_triton.fused_layernorm_triton_output_summary_general",
                                              "alt_welford_seq", TD_ABI_HOST, NULL, NULL, NULL, 4, 6, fln_welford, NULL};

/* Alternative for fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness
 * (the normalize slice alone: params rnumel, RBLOCK; regions out_ptr0 (mean, read),
 * in_out_ptr0 (rstd, read), in_ptr0 (x), in_ptr1 (w), in_ptr2 (b), out_ptr1 (y)):
 *
 *   alt_fma_colmajor  column by column (w[c], b[c] loaded once, every row then), as a
 *                 kernel parallel over the hidden dimension walks it, the rows from the
 *                 last to the first; y = fmaf((x - mean) * rstd, w, b).  Admissible:
 *                 FMA contraction; the order of independent stores is free; the cells
 *                 written are the contract's (col < rnumel, col < grid[1] * RBLOCK). */
enum { PN_RNUMEL, PN_RBLOCK };
enum { RN_MEAN, RN_RSTD, RN_X, RN_W, RN_B, RN_Y };

static int fln_norm_colmajor(const td_abi_launch *L) {
    int64_t n = TL_I(L, PN_RNUMEL), covered = (int64_t)L->grid[1] * TL_I(L, PN_RBLOCK);
    int64_t cols = n < covered ? n : covered;
    for (int64_t c = 0; c < cols; c++) {
        float w = tl_load(L, RN_W, c), b = tl_load(L, RN_B, c);
        for (int64_t row = (int64_t)L->grid[0] - 1; row >= 0; row--) {
            float xhat = (tl_load(L, RN_X, c + n * row) - tl_load(L, RN_MEAN, row)) * tl_load(L, RN_RSTD, row);
            tl_store(L, RN_Y, c + n * row, fmaf(xhat, w, b), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_fused_ln_normalize_colmajor) = {"fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness",
                                               "alt_fma_colmajor", TD_ABI_HOST, NULL, NULL, NULL, 2, 6,
                                               fln_norm_colmajor, NULL};
