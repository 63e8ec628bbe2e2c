/* Alternatives for fast_rms_layernorm (Unsloth's RMS norm, plain and Gemma: inv_var =
 * rsqrt(sum_{j<w} x_j^2 / n_cols + eps) stored in r, Y = (x * inv_var) * W, Gemma
 * (x * inv_var) * (W + 1); one tile of w = min(n_cols, BLOCK_SIZE) columns).
 *
 *   plain, alt_pairs_rsqrtapprox  the squares summed by a neighbour-pair tree, inv_var
 *                 by the rsqrt.approx.f32 model (relative error <= 2^-22.9, PTX ISA).
 *   gemma, alt_seq_fma  the squares summed left to right; normed * (W + 1) evaluated as
 *                 fmaf(normed, W, normed): the exact normed*(W+1) rounded once (the
 *                 spec's value with fewer roundings than the port's two).  Admissible:
 *                 any order, FMA contraction of a*b + a.
 * Plain parameters: Y_row_stride, X_row_stride, W_row_stride, r_row_stride, n_cols,
 * BLOCK_SIZE, eps; Gemma: Y_row_stride, X_row_stride, r_row_stride, n_cols, BLOCK_SIZE,
 * eps.  Regions: Y, X, W, r. */
#include "alt_a_norm.h"

enum { R_Y, R_X, R_W, R_R };

static int frl_rows(const td_abi_launch *L, int gemma) {
    int k = 0;
    int64_t ysr = TL_I(L, k++), xsr = TL_I(L, k++), wsr = gemma ? 1 : TL_I(L, k++), rsr = TL_I(L, k++);
    int64_t n = TL_I(L, k++), B = TL_I(L, k++), w = n < B ? n : B;
    float eps = TL_R(L, k);
    td_profile ys = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false}, rs = {TL_FMT(L, R_R), TD_RNE, TD_OVF_INF, false};
    float *sq, *tmp;
    TL_ALLOC(L, sq, 2 * w);
    tmp = sq + w;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        for (int64_t j = 0; j < w; j++) {
            float x = tl_load(L, R_X, (int64_t)row * xsr + j);
            sq[j] = x * x;
        }
        float inv_var = gemma ? 1.0f / sqrtf(aa_sum_seq(sq, w) / (float)n + eps)
                              : aa_rsqrt_approx(aa_sum_pairs(sq, w, tmp) / (float)n + eps);
        tl_store(L, R_R, (int64_t)row * rsr, inv_var, rs);
        for (int64_t j = 0; j < w; j++) {
            float normed = tl_load(L, R_X, (int64_t)row * xsr + j) * inv_var, wt = tl_load(L, R_W, j * wsr);
            tl_store(L, R_Y, (int64_t)row * ysr + j, gemma ? fmaf(normed, wt, normed) : normed * wt, ys);
        }
    }
    free(sq);
    return 0;
}

static int frl_plain(const td_abi_launch *L) { return frl_rows(L, 0); }
static int frl_gemma(const td_abi_launch *L) { return frl_rows(L, 1); }

TD_KERNEL(td_a_fast_rms_pairs_rsqrtapprox) = {"fast_rms_layernorm.rms_layernorm_forward_correctness",
                                              "alt_pairs_rsqrtapprox", TD_ABI_HOST, NULL, NULL, NULL, 7, 4, frl_plain,
                                              NULL};
TD_KERNEL(td_a_fast_rms_gemma_seq_fma) = {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness",
                                          "alt_seq_fma", TD_ABI_HOST, NULL, NULL, NULL, 6, 4, frl_gemma, NULL};
