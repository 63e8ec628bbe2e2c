/* log_softmax mutants. */
#include "../host/softmax_tl.h"

enum { P_M, P_N, P_K, P_BM, P_BN };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

/* Forward; nomax: log(exp(x) / sum exp(x)) (overflows once x > 88.7); stride_nk: rows
 * addressed at m*N instead of m*N*K (the K factor of the row stride dropped). */
static int fwd_variant(const td_abi_launch *L, int nomax, int stride_nk) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *t;
    TL_ALLOC(L, t, BN);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) {
                int64_t m = (int64_t)p0 * BM + r, base = (stride_nk ? m * N : m * N * K) + p1;
                sm_load_tile(L, RF_IN, base, K, m < M ? N : 0, BN, -INFINITY, t);
                float mx = nomax ? 0.0f : tl_max(t, BN);
                for (int64_t n = 0; n < BN; n++) t[n] = expf(t[n] - mx);
                float s = tl_sum(t, BN);
                for (int64_t n = 0; n < BN && n < N && m < M; n++)
                    tl_store(L, RF_OUT, base + n * K, logf(t[n] / s), tl_f32());
            }
    free(t);
    return 0;
}
static int fwd_no_max(const td_abi_launch *L) { return fwd_variant(L, 1, 0); }
static int fwd_row_stride(const td_abi_launch *L) { return fwd_variant(L, 0, 1); }

/* Forward with the row offset m_offset * N * K formed in int32 (FlagGems' offset, int32 in
 * Triton for N, K < 2^31): a far case's wrapped offset faults the launch
 * (contracts/gen_far.h). */
static int fwd_offset_int32(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    int64_t w = N < BN ? N : BN;
    float *t;
    TL_ALLOC(L, t, BN);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) {
                int64_t m = (int64_t)p0 * BM + r;
                int64_t base = tl_i32(tl_i32(tl_i32(m * tl_i32(N)) * tl_i32(K)) + p1);
                if (m < M && w > 0 && (tl_fault(L, RF_IN, base, w, K, p0) || tl_fault(L, RF_OUT, base, w, K, p0))) {
                    free(t);
                    return 1;
                }
                sm_load_tile(L, RF_IN, base, K, m < M ? N : 0, BN, -INFINITY, t);
                float mx = tl_max(t, BN);
                for (int64_t n = 0; n < BN; n++) t[n] = expf(t[n] - mx);
                float s = tl_sum(t, BN);
                for (int64_t n = 0; n < BN && n < N && m < M; n++)
                    tl_store(L, RF_OUT, base + n * K, logf(t[n] / s), tl_f32());
            }
    free(t);
    return 0;
}

/* Backward with the softmax VJP's product: g - out * scale (out taken as
 * probabilities, exp forgotten). */
static int bwd_exp_forgotten(const td_abi_launch *L) {
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
                    tl_store(L, RB_IG, base + n * K, g[n] - o[n] * scale, tl_f32());
            }
    free(g);
    free(o);
    return 0;
}

TD_KERNEL(td_m_log_softmax_nomax) = {"log_softmax.log_softmax_kernel_correctness", "mut_no_max_subtraction",
                                     TD_ABI_HOST, NULL, NULL, "log(exp(x) / sum exp(x)) without the row max", 5, 2,
                                     fwd_no_max, NULL};
TD_KERNEL(td_m_log_softmax_stride) = {"log_softmax.log_softmax_kernel_correctness", "mut_row_stride_without_K",
                                      TD_ABI_HOST, NULL, NULL,
                                      "rows addressed at m*N + n*K + k (the K of m*N*K dropped)",
                                      5, 2, fwd_row_stride, NULL};
TD_KERNEL(td_m_log_softmax_bwd_noexp) = {"log_softmax.log_softmax_backward_kernel_correctness", "mut_exp_forgotten",
                                         TD_ABI_HOST, NULL, NULL,
                                         "in_grad = out_grad - out * scale (the softmax VJP's product, exp(out) "
                                         "forgotten)",
                                         5, 3, bwd_exp_forgotten, NULL};
TD_KERNEL(td_m_log_softmax_i32) = {"log_softmax.log_softmax_kernel_correctness", "mut_offset_int32", TD_ABI_HOST,
                                   NULL, NULL, "m_offset * N * K computed in int32 (wraps beyond 2^31 elements)", 5, 2,
                                   fwd_offset_int32, NULL};
