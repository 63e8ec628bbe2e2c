/* Alternative for fast_layernorm.layernorm_forward_correctness (Unsloth's layernorm
 * forward: Y = (x - mean) * rstd * W + b, r = rstd, mu = mean, one row per program).
 * The contract's spec keeps the kernel's padded lanes: mean = sum_{j<w} x_j / n_cols and
 * var = (sum_{j<w} (x_j - mean)^2 + (BLOCK - w) * mean^2) / n_cols, w = min(n_cols, BLOCK)
 * (a masked lane of the centered tile is 0 - mean; see the contract's header).  So
 * Welford (whose mean is over w) would implement another function; this alternative
 * keeps the spec's quantities and changes how they are evaluated:
 *
 *   alt_seq_fma   both tile sums left to right over the BLOCK lanes (one thread walking
 *                 the tile) instead of tl.sum's tree, and the affine step as one FMA:
 *                 y = fmaf(xhat, W, b) with xhat = (x - mean) * rstd.  Admissible: any
 *                 sum order, FMA contraction of xhat*W + b.
 * Parameters: Y_row_stride, X_row_stride, n_cols, BLOCK_SIZE, eps.
 * Regions: Y, X, W, bias, r, mu. */
#include "alt_a_norm.h"

enum { P_YS, P_XS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_R, R_MU };

static int fln_seq_fma(const td_abi_launch *L) {
    int64_t ys = TL_I(L, P_YS), xs = TL_I(L, P_XS), n = TL_I(L, P_N), B = TL_I(L, P_BLOCK), w = n < B ? n : B;
    float eps = TL_R(L, P_EPS);
    float *x;
    TL_ALLOC(L, x, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        for (int64_t j = 0; j < B; j++) x[j] = j < w ? tl_load(L, R_X, row * xs + j) : 0.0f;
        float mean = aa_sum_seq(x, B) / (float)n, q = 0.0f;
        for (int64_t j = 0; j < B; j++) q = q + (x[j] - mean) * (x[j] - mean);
        float rstd = 1.0f / sqrtf(q / (float)n + eps);
        tl_store(L, R_R, row, rstd, tl_f32());
        tl_store(L, R_MU, row, mean, tl_f32());
        for (int64_t j = 0; j < w; j++)
            tl_store(L, R_Y, row * ys + j, fmaf((x[j] - mean) * rstd, tl_load(L, R_W, j), tl_load(L, R_B, j)),
                     tl_f32());
    }
    free(x);
    return 0;
}

TD_KERNEL(td_a_fast_layernorm_seq_fma) = {"fast_layernorm.layernorm_forward_correctness", "alt_seq_fma", TD_ABI_HOST,
                                          NULL, NULL, NULL, 5, 6, fln_seq_fma, NULL};
