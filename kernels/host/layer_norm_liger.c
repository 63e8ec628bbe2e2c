/* layer_norm_liger: _layer_norm_forward_kernel (one program per row, one BLOCK_SIZE
 * tile) and the scalar-store slices of its Mean / RSTD stores.
 * Forward parameters: Y_row_stride, X_row_stride, W_row_stride, B_row_stride,
 * Mean_row_stride, RSTD_row_stride, n_cols, BLOCK_SIZE, eps; regions Y, X, W, B, Mean, RSTD.
 * Store slices: parameters Mean_row_stride, RSTD_row_stride; regions MeanPre, Mean,
 * RSTDPre, RSTD.  tl.rsqrt is 1.0f / sqrtf (the host libm budget is measured for that). */
#include "tl.h"

enum { P_YS, P_XS, P_WS, P_BS, P_MS, P_RS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_MEAN, R_RSTD };
enum { PS_MS, PS_RS };
enum { RS_MEANPRE, RS_MEAN, RS_RSTDPRE, RS_RSTD };

static int layer_norm_forward(const td_abi_launch *L) {
    int64_t ys = TL_I(L, P_YS), xs = TL_I(L, P_XS), ms = TL_I(L, P_MS), rs = TL_I(L, P_RS);
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float eps = TL_R(L, P_EPS);
    float *t;
    TL_ALLOC(L, t, 4 * B);
    float *x = t, *w = t + B, *b = t + 2 * B, *sq = t + 3 * B;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        for (int64_t j = 0; j < B; j++) {
            int mask = j < n;
            x[j] = mask ? tl_load(L, R_X, row * xs + j) : 0.0f;
            w[j] = mask ? tl_load(L, R_W, j) : 0.0f;
            b[j] = mask ? tl_load(L, R_B, j) : 0.0f;
        }
        float mean = tl_sum(x, B) / (float)n;
        for (int64_t j = 0; j < B; j++) sq[j] = (x[j] - mean) * (x[j] - mean);
        float var = tl_sum(sq, B) / (float)n;
        float rstd = 1.0f / sqrtf(var + eps);
        tl_store(L, R_MEAN, row * ms, mean, tl_f32());
        tl_store(L, R_RSTD, row * rs, rstd, tl_f32());
        for (int64_t j = 0; j < B; j++)
            if (j < n) tl_store(L, R_Y, row * ys + j, (x[j] - mean) * rstd * w[j] + b[j], tl_f32());
    }
    free(t);
    return 0;
}

/* layer_norm_liger_forward_mean_store_slice and _rstd_store_slice, one program per row */
static int scalar_stores(const td_abi_launch *L) {
    int64_t ms = TL_I(L, PS_MS), rs = TL_I(L, PS_RS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        tl_store(L, RS_MEAN, pid * ms, tl_load(L, RS_MEANPRE, pid * ms), tl_f32());
        tl_store(L, RS_RSTD, pid * rs, tl_load(L, RS_RSTDPRE, pid * rs), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_k_liger_fwd) = {"layer_norm_liger.layer_norm_liger_forward_output_summary", "triton", TD_ABI_HOST, NULL,
                             "libm", NULL, 9, 6, layer_norm_forward, NULL};
TD_KERNEL(td_k_liger_stores) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctness", "triton",
                                TD_ABI_HOST, NULL, NULL, NULL, 2, 4, scalar_stores, NULL};
TD_KERNEL(td_k_liger_stores_r) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctnessR", "triton",
                                  TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 2, 4, scalar_stores, NULL};
