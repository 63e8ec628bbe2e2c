/* The L2-norm alternatives (l2_norm_triton1, l2_norm_triton2, l2_norm_bwd): one program
 * per row, the row's lanes j < min(N, BLOCK_N) (the kernels' single masked tile).
 *
 *   forward  y = x * rstd, rstd = 1/sqrt(sum x^2 + eps)
 *     alt_fma_div:   the sum of squares as one FMA chain acc = fma(x, x, acc), and
 *                    y = x / sqrt(var + eps) (a division instead of the multiply by a
 *                    rounded reciprocal square root);
 *     alt_tree_rsqrt: the squares rounded, summed by a pairwise tree over the n lanes
 *                    (larger half first; the port's tree runs over the BLOCK_N padded
 *                    lanes), rstd = 1/sqrt, y = x * rstd.
 *   backward dx = dy*rstd - (sum dy x) * (1/(var + eps)) * rstd * x
 *     alt_fma_div:   both sums as FMA chains, c = (sum dy x) / (var + eps) * rstd (one
 *                    division where the kernel multiplies by 1/(var+eps)), and
 *                    dx = fma(-c, x, dy * rstd).
 * Admissible: association orders of the binary32 sums with or without FMA, a/b for
 * a*(1/b) and back, FMA contraction of the final update.  Stores through the output's
 * format, round to nearest even, like the port.
 */
#ifndef TD_ALT_L2_NORM_H
#define TD_ALT_L2_NORM_H

#include "alt_common.h"

enum { AL2_STRIDE, AL2_N, AL2_EPS, AL2_B };
enum { AL2_X, AL2_Y };
enum { AL2B_X, AL2B_DY, AL2B_DX };

static inline int64_t al2_lanes(const td_abi_launch *L) {
    return TL_I(L, AL2_N) < TL_I(L, AL2_B) ? TL_I(L, AL2_N) : TL_I(L, AL2_B);
}

static inline int al2_fwd(const td_abi_launch *L, int tree) {
    int64_t n = al2_lanes(L), stride = TL_I(L, AL2_STRIDE);
    float eps = TL_R(L, AL2_EPS), *sq;
    TL_ALLOC(L, sq, n);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        float var = 0.0f;
        for (int64_t j = 0; j < n; j++) {
            float x = tl_load(L, AL2_X, base + j);
            if (tree) sq[j] = x * x;
            else var = fmaf(x, x, var);
        }
        if (tree && n > 0) var = alt_tree(sq, n);
        float root = sqrtf(var + eps), rstd = 1.0f / root;
        for (int64_t j = 0; j < n; j++) {
            float x = tl_load(L, AL2_X, base + j);
            tl_store(L, AL2_Y, base + j, tree ? x * rstd : x / root, alt_out(L, AL2_Y));
        }
    }
    free(sq);
    return 0;
}

static inline int al2_bwd(const td_abi_launch *L) {
    int64_t n = al2_lanes(L), stride = TL_I(L, AL2_STRIDE);
    float eps = TL_R(L, AL2_EPS);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        float var = 0.0f, dot = 0.0f;
        for (int64_t j = 0; j < n; j++) {
            float x = tl_load(L, AL2B_X, base + j), dy = tl_load(L, AL2B_DY, base + j);
            var = fmaf(x, x, var);
            dot = fmaf(dy, x, dot);
        }
        float q = var + eps, rstd = 1.0f / sqrtf(q), c = dot / q * rstd;
        for (int64_t j = 0; j < n; j++) {
            float x = tl_load(L, AL2B_X, base + j), dy = tl_load(L, AL2B_DY, base + j);
            tl_store(L, AL2B_DX, base + j, fmaf(-c, x, dy * rstd), alt_out(L, AL2B_DX));
        }
    }
    return 0;
}

#endif
