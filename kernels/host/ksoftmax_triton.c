/* ksoftmax_triton: xformers' fused softmax, the plain forward branch (LOG = False, no
 * additive mask, not causal, binary32 output).  Grid (m, n); program (m, n) owns the
 * row X[m*stride_xm + n*stride_xn + k], k < K, in a tile of DEPTH lanes.
 * Parameters: stride_ym, stride_yn, stride_xm, stride_xn, K, DEPTH.  Regions: Y, X. */
#include "softmax_tl.h"

enum { P_SYM, P_SYN, P_SXM, P_SXN, P_K, P_DEPTH };
enum { R_Y, R_X };

static int softmax_plain(const td_abi_launch *L) {
    int64_t sym = TL_I(L, P_SYM), syn = TL_I(L, P_SYN), sxm = TL_I(L, P_SXM), sxn = TL_I(L, P_SXN);
    int64_t K = TL_I(L, P_K), D = TL_I(L, P_DEPTH);
    float *x;
    TL_ALLOC(L, x, D);
    for (uint32_t m = 0; m < L->grid[0]; m++)
        for (uint32_t n = 0; n < L->grid[1]; n++) {
            sm_load_tile(L, R_X, (int64_t)m * sxm + (int64_t)n * sxn, 1, K, D, -INFINITY, x);
            float mx = tl_max(x, D);
            for (int64_t k = 0; k < D; k++) x[k] = x[k] - mx; /* z */
            for (int64_t k = 0; k < D; k++) x[k] = expf(x[k]); /* num */
            float denom = tl_sum(x, D);
            for (int64_t k = 0; k < D && k < K; k++)
                tl_store(L, R_Y, (int64_t)m * sym + (int64_t)n * syn + k, x[k] / denom, tl_f32());
        }
    free(x);
    return 0;
}

TD_KERNEL(td_k_ksoftmax) = {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                            NULL, 6, 2, softmax_plain, NULL};
