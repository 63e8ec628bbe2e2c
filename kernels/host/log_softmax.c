/* log_softmax: FlagGems' log-softmax over the middle dimension N of an [M, N, K] tensor
 * and its backward.  Grid (cdiv(M, BLOCK_M), K); program (p0, p1) owns the
 * [BLOCK_M, BLOCK_N] tile (p0*BLOCK_M + r, n) at (p0*BLOCK_M + r)*N*K + n*K + p1.
 * Parameters: M, N, K, BLOCK_M, BLOCK_N.  Regions: forward output_ptr, input_ptr;
 * backward out_ptr, out_grad_ptr, in_grad_ptr (masked loads without other read 0). */
#include "softmax_tl.h"

enum { P_M, P_N, P_K, P_BM, P_BN };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

static int log_softmax_kernel(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *t;
    TL_ALLOC(L, t, BN);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) { /* row r of the tile: the axis-1 reductions */
                int64_t m = (int64_t)p0 * BM + r, base = m * N * K + p1;
                sm_load_tile(L, RF_IN, base, K, m < M ? N : 0, BN, -INFINITY, t);
                float mx = tl_max(t, BN);
                for (int64_t n = 0; n < BN; n++) t[n] = expf(t[n] - mx);
                float s = tl_sum(t, BN);
                for (int64_t n = 0; n < BN; n++) t[n] = logf(t[n] / s);
                for (int64_t n = 0; n < BN && n < N && m < M; n++) tl_store(L, RF_OUT, base + n * K, t[n], tl_f32());
            }
    free(t);
    return 0;
}

static int log_softmax_backward_kernel(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *g, *o;
    TL_ALLOC(L, g, BN);
    o = calloc((size_t)(BN > 0 ? BN : 1), sizeof *o);
    if (!o) {
        free(g);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) {
                int64_t m = (int64_t)p0 * BM + r, base = m * N * K + p1, n_act = m < M ? N : 0;
                sm_load_tile(L, RB_OUT, base, K, n_act, BN, 0.0f, o);
                sm_load_tile(L, RB_OG, base, K, n_act, BN, 0.0f, g);
                float scale = tl_sum(g, BN);
                for (int64_t n = 0; n < BN && n < n_act; n++)
                    tl_store(L, RB_IG, base + n * K, g[n] - expf(o[n]) * scale, tl_f32());
            }
    free(g);
    free(o);
    return 0;
}

TD_KERNEL(td_k_log_softmax) = {"log_softmax.log_softmax_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                               5, 2, log_softmax_kernel, NULL};
TD_KERNEL(td_k_log_softmax_bwd) = {"log_softmax.log_softmax_backward_kernel_correctness", "triton", TD_ABI_HOST, NULL,
                                   NULL, NULL, 5, 3, log_softmax_backward_kernel, NULL};
