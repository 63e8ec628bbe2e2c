/* Alternative for layer_norm_liger.layer_norm_liger_forward_output_summary (Liger's
 * layer-norm forward: Y, Mean, RSTD per row).  As in fast_layernorm, the contract's
 * spec keeps the padded lanes: mean = sum_{j<w} x_j / n_cols, var = (sum_{j<w}
 * (x_j - mean)^2 + (BLOCK - w) mean^2) / n_cols (a masked lane holds 0 - mean), so the
 * alternative keeps those quantities and evaluates them differently:
 *
 *   alt_pairs_rsqrtapprox  both BLOCK-lane sums by a tree over neighbouring pairs (not
 *                 tl.sum's halving tree), the divisions by n_cols as multiplies by
 *                 1/n_cols, rstd by the rsqrt.approx.f32 model (relative error <=
 *                 2^-22.9, the PTX ISA's bound: what tl.rsqrt compiles to), y =
 *                 ((x - mean) * rstd) * W + B.  Admissible: another tree shape,
 *                 reciprocal-multiply, the GPU approximate rsqrt.
 * Parameters: Y_row_stride, X_row_stride, W_row_stride, B_row_stride, Mean_row_stride,
 * RSTD_row_stride, n_cols, BLOCK_SIZE, eps.  Regions: Y, X, W, B, Mean, RSTD. */
#include "alt_a_norm.h"

enum { P_YS, P_XS, P_WS, P_BS, P_MS, P_RS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_MEAN, R_RSTD };

static int lnl_pairs(const td_abi_launch *L) {
    int64_t ys = TL_I(L, P_YS), xs = TL_I(L, P_XS), ms = TL_I(L, P_MS), rs = TL_I(L, P_RS);
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK), w = n < B ? n : B;
    float eps = TL_R(L, P_EPS), rn = 1.0f / (float)n;
    float *x, *sq, *tmp;
    TL_ALLOC(L, x, 3 * B);
    sq = x + B;
    tmp = x + 2 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        for (int64_t j = 0; j < B; j++) x[j] = j < w ? tl_load(L, R_X, row * xs + j) : 0.0f;
        float mean = aa_sum_pairs(x, B, tmp) * rn;
        for (int64_t j = 0; j < B; j++) sq[j] = (x[j] - mean) * (x[j] - mean);
        float rstd = aa_rsqrt_approx(aa_sum_pairs(sq, B, tmp) * rn + eps);
        tl_store(L, R_MEAN, row * ms, mean, tl_f32());
        tl_store(L, R_RSTD, row * rs, rstd, tl_f32());
        for (int64_t j = 0; j < w; j++)
            tl_store(L, R_Y, row * ys + j, ((x[j] - mean) * rstd) * tl_load(L, R_W, j) + tl_load(L, R_B, j),
                     tl_f32());
    }
    free(x);
    return 0;
}

TD_KERNEL(td_a_layer_norm_liger_pairs) = {"layer_norm_liger.layer_norm_liger_forward_output_summary",
                                          "alt_pairs_rsqrtapprox", TD_ABI_HOST, NULL, NULL, NULL, 9, 6, lnl_pairs,
                                          NULL};
