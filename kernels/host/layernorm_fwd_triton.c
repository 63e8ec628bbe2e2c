/* layernorm_fwd_triton: _layer_norm_fwd_kernel (the Triton tutorial's layer norm), grid
 * (Seq, H), three passes over the row in BLOCK_SIZE tiles with per-lane accumulators.
 * Parameters: stride_x_N, stride_x_hn, stride_x_hd, stride_y_N, stride_y_hn, stride_y_hd,
 * stride_w_hn, stride_w_hd, N, BLOCK_SIZE, eps (the _hd strides are unused, as in the
 * kernel).  Regions: X, W, Y.  The store is y.to(X.dtype.element_ty): exact for binary32
 * tensors, RNE to bfloat16 for the io contract's bfloat16 tensors. */
#include "tl.h"

enum { P_SXN, P_SXH, P_SXD, P_SYN, P_SYH, P_SYD, P_SWH, P_SWD, P_N, P_BLOCK, P_EPS };
enum { R_X, R_W, R_Y };

static int layer_norm_fwd(const td_abi_launch *L) {
    int64_t sxN = TL_I(L, P_SXN), sxH = TL_I(L, P_SXH), syN = TL_I(L, P_SYN), syH = TL_I(L, P_SYH);
    int64_t swH = TL_I(L, P_SWH), n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    float *t;
    TL_ALLOC(L, t, B);
    float *acc = t;
    for (uint32_t seq = 0; seq < L->grid[0]; seq++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t X = seq * sxN + h * sxH, Y = seq * syN + h * syH, W = h * swH;
            for (int64_t j = 0; j < B; j++) acc[j] = 0.0f;
            for (int64_t off = 0; off < n; off += B)
                for (int64_t j = 0; j < B; j++) acc[j] += off + j < n ? tl_load(L, R_X, X + off + j) : 0.0f;
            float mean = tl_sum(acc, B) / (float)n;
            for (int64_t j = 0; j < B; j++) acc[j] = 0.0f;
            for (int64_t off = 0; off < n; off += B)
                for (int64_t j = 0; j < B; j++) {
                    float x = off + j < n ? tl_load(L, R_X, X + off + j) : 0.0f;
                    x = off + j < n ? x - mean : 0.0f;
                    acc[j] += x * x;
                }
            float var = tl_sum(acc, B) / (float)n;
            float rstd = 1.0f / sqrtf(var + eps);
            for (int64_t off = 0; off < n; off += B)
                for (int64_t j = 0; j < B; j++) {
                    if (!(off + j < n)) continue;
                    float w = tl_load(L, R_W, W + off + j), x = tl_load(L, R_X, X + off + j);
                    float x_hat = (x - mean) * rstd;
                    tl_store(L, R_Y, Y + off + j, x_hat * w, store);
                }
        }
    free(t);
    return 0;
}

TD_KERNEL(td_k_lnfwd_summary) = {"layernorm_fwd_triton.layernorm_fwd_triton_output_summary", "triton", TD_ABI_HOST,
                                 NULL, NULL, NULL, 11, 3, layer_norm_fwd, NULL};
TD_KERNEL(td_k_lnfwd_io) = {"layernorm_fwd_triton.layernorm_fwd_triton_io_correctness", "triton", TD_ABI_HOST,
                            "store=bf16:rne:inf", NULL, NULL, 11, 3, layer_norm_fwd, NULL};
