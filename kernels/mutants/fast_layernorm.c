/* fast_layernorm mutants: the layer-norm slips the checker must flag. */
#include "../host/tl.h"

enum { P_YS, P_XS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_R, R_MU };

enum { BUG_UNBIASED, BUG_EPS_OUTSIDE, BUG_MEAN_OVER_BLOCK, BUG_OFFSET_I32 };

static int forward_with(const td_abi_launch *L, int bug) {
    int64_t ys = TL_I(L, P_YS), xs = TL_I(L, P_XS), n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float eps = TL_R(L, P_EPS);
    float *t;
    TL_ALLOC(L, t, 5 * B);
    float *x = t, *w = t + B, *b = t + 2 * B, *xx = t + 3 * B, *sq = t + 4 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t xb = row * xs; /* X += row_idx * X_row_stride */
        if (bug == BUG_OFFSET_I32) { /* ... in int32, as unsloth's kernel had it */
            xb = tl_i32((int64_t)row * tl_i32(xs));
            if (tl_fault(L, R_X, xb, n < B ? n : B, 1, row)) {
                free(t);
                return 1;
            }
        }
        for (int64_t j = 0; j < B; j++) {
            int mask = j < n;
            x[j] = mask ? tl_load(L, R_X, xb + j) : 0.0f;
            w[j] = mask ? tl_load(L, R_W, j) : 0.0f;
            b[j] = mask ? tl_load(L, R_B, j) : 0.0f;
        }
        /* the mean divided by the tile width instead of the row length */
        float mean = tl_sum(x, B) / (float)(bug == BUG_MEAN_OVER_BLOCK ? B : n);
        for (int64_t j = 0; j < B; j++) {
            xx[j] = x[j] - mean;
            sq[j] = xx[j] * xx[j];
        }
        /* Bessel's correction: the sample variance instead of the population one */
        float var = tl_sum(sq, B) / (float)(bug == BUG_UNBIASED ? n - 1 : n);
        /* eps added to the standard deviation instead of the variance */
        float inv_var = bug == BUG_EPS_OUTSIDE ? 1.0f / (sqrtf(var) + eps) : 1.0f / sqrtf(var + eps);
        tl_store(L, R_R, row, inv_var, tl_f32());
        tl_store(L, R_MU, row, mean, tl_f32());
        for (int64_t j = 0; j < B; j++)
            if (j < n) tl_store(L, R_Y, row * ys + j, (xx[j] * inv_var) * w[j] + b[j], tl_f32());
    }
    free(t);
    return 0;
}

static int unbiased(const td_abi_launch *L) { return forward_with(L, BUG_UNBIASED); }
static int eps_outside(const td_abi_launch *L) { return forward_with(L, BUG_EPS_OUTSIDE); }
static int mean_over_block(const td_abi_launch *L) { return forward_with(L, BUG_MEAN_OVER_BLOCK); }
/* the far tier's rows past 2^31 elements (contracts/gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return forward_with(L, BUG_OFFSET_I32); }

#define FL_ID "fast_layernorm.layernorm_forward_correctness"
TD_KERNEL(td_m_fast_layernorm_unbiased) = {FL_ID, "mut_var_unbiased", TD_ABI_HOST, NULL, "libm",
                                           "variance divided by n_cols - 1 (Bessel) instead of n_cols", 5, 6, unbiased, NULL};
TD_KERNEL(td_m_fast_layernorm_eps) = {FL_ID, "mut_eps_outside_sqrt", TD_ABI_HOST, NULL, "libm",
                                      "inv_var = 1 / (sqrt(var) + eps): eps added outside the square root", 5, 6,
                                      eps_outside, NULL};
TD_KERNEL(td_m_fast_layernorm_meanb) = {FL_ID, "mut_mean_over_block", TD_ABI_HOST, NULL, "libm",
                                        "mean divided by BLOCK_SIZE instead of n_cols", 5, 6, mean_over_block, NULL};
TD_KERNEL(td_m_fast_layernorm_i32) = {FL_ID, "mut_offset_int32", TD_ABI_HOST, NULL, "libm",
                                      "row_idx * X_row_stride computed in int32 (wraps beyond 2^31 elements)", 5, 6,
                                      offset_int32, NULL};
