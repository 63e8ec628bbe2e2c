/* fast_layernorm: layernorm_forward (Unsloth), one program per row, one BLOCK_SIZE tile.
 * Parameters: Y_row_stride, X_row_stride, n_cols, BLOCK_SIZE, eps.
 * Regions: Y, X, W, bias, r, mu.
 * tl.math.rsqrt is 1.0f / sqrtf (the host's libm budget for rsqrt is measured for
 * exactly that). */
#include "tl.h"

enum { P_YS, P_XS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_R, R_MU };

static int layernorm_forward(const td_abi_launch *L) {
    int64_t ys = TL_I(L, P_YS), xs = TL_I(L, P_XS), n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float eps = TL_R(L, P_EPS);
    float *t;
    TL_ALLOC(L, t, 5 * B);
    float *x = t, *w = t + B, *b = t + 2 * B, *xx = t + 3 * B, *sq = t + 4 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        for (int64_t j = 0; j < B; j++) {
            int mask = j < n;
            x[j] = mask ? tl_load(L, R_X, row * xs + j) : 0.0f;
            w[j] = mask ? tl_load(L, R_W, j) : 0.0f;
            b[j] = mask ? tl_load(L, R_B, j) : 0.0f;
        }
        float mean = tl_sum(x, B) / (float)n;
        for (int64_t j = 0; j < B; j++) {
            xx[j] = x[j] - mean;
            sq[j] = xx[j] * xx[j];
        }
        float var = tl_sum(sq, B) / (float)n;
        float inv_var = 1.0f / sqrtf(var + eps);
        tl_store(L, R_R, row, inv_var, tl_f32());
        tl_store(L, R_MU, row, mean, tl_f32());
        for (int64_t j = 0; j < B; j++)
            if (j < n) tl_store(L, R_Y, row * ys + j, (xx[j] * inv_var) * w[j] + b[j], tl_f32());
    }
    free(t);
    return 0;
}

TD_KERNEL(td_k_fast_layernorm_fwd) = {"fast_layernorm.layernorm_forward_correctness", "triton", TD_ABI_HOST, NULL,
                                      "libm", NULL, 5, 6, layernorm_forward, NULL};
