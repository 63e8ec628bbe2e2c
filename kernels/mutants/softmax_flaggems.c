/* softmax_flaggems mutants. */
#include "../host/softmax_tl.h"

enum { PI_N, PI_TILE };
enum { PN_N, PN_K, PN_TILE_N, PN_TILE_K };
enum { PB_M, PB_N, PB_TILE_M, PB_TILE_N };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

/* Inner forward: the normaliser accumulated in binary16. */
static int inner_fp16_sum(const td_abi_launch *L) {
    int64_t N = TL_I(L, PI_N), T = TL_I(L, PI_TILE);
    float *t;
    TL_ALLOC(L, t, T);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, RF_IN, (int64_t)pid * N, 1, N, T, -INFINITY, t);
        float m = tl_max(t, T);
        for (int64_t i = 0; i < T; i++) t[i] = expf(t[i] - m);
        float z = sm_sum_f16(t, T);
        for (int64_t i = 0; i < T && i < N; i++) tl_store(L, RF_OUT, (int64_t)pid * N + i, t[i] / z, tl_f32());
    }
    free(t);
    return 0;
}

/* Inner forward: the row offset pid_m * N formed in int32 (FlagGems' offset = pid_m * N +
 * n_offsets, both int32 for N < 2^31): a far case's wrapped offset faults the launch. */
static int inner_offset_int32(const td_abi_launch *L) {
    return sm_rows_one_tile(L, RF_OUT, RF_IN, TL_I(L, PI_N), TL_I(L, PI_TILE), 1);
}

/* Inner forward: rows addressed at pid * TILE_N (the row length taken to be the tile's). */
static int inner_row_stride_tile(const td_abi_launch *L) {
    int64_t N = TL_I(L, PI_N), T = TL_I(L, PI_TILE), len = (int64_t)TL_LEN(L, RF_OUT);
    float *t;
    TL_ALLOC(L, t, T);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = (int64_t)pid * T, n = N;
        if (base + (n < T ? n : T) > (int64_t)TL_LEN(L, RF_IN)) n = 0; /* stay inside the allocation */
        sm_load_tile(L, RF_IN, base, 1, n, T, -INFINITY, t);
        sm_tile_softmax(t, T);
        for (int64_t i = 0; i < T && i < n && base + i < len; i++) tl_store(L, RF_OUT, base + i, t[i], tl_f32());
    }
    free(t);
    return 0;
}

/* Non-inner forward: the max and the normaliser reduced along axis 1 (over the tile's
 * K columns) instead of axis 0 (over n). */
static int non_inner_wrong_axis(const td_abi_launch *L) {
    int64_t N = TL_I(L, PN_N), K = TL_I(L, PN_K), TN = TL_I(L, PN_TILE_N), TK = TL_I(L, PN_TILE_K);
    float *row;
    TL_ALLOC(L, row, TK);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t n = 0; n < TN; n++) {
                int64_t base = (int64_t)p0 * N * K + n * K + (int64_t)p1 * TK;
                sm_load_tile(L, RF_IN, base, 1, n < N ? TK : 0, TK, -INFINITY, row);
                sm_tile_softmax(row, TK);
                for (int64_t kk = 0; kk < TK && n < N; kk++) tl_store(L, RF_OUT, base + kk, row[kk], tl_f32());
            }
    free(row);
    return 0;
}

/* Backward with the scale or the product wrong: mode 0 scale = tl.sum(out_grad) (the
 * log-softmax VJP's scale), mode 1 in_grad = out * out_grad - scale. */
static void vjp_bad(const td_abi_launch *L, int64_t base, int64_t stride, int64_t n, int64_t B, int mode) {
    float *o = calloc((size_t)B, sizeof *o), *g = calloc((size_t)B, sizeof *g), *p = calloc((size_t)B, sizeof *p);
    if (o && g && p) {
        sm_load_tile(L, RB_OUT, base, stride, n, B, 0.0f, o);
        sm_load_tile(L, RB_OG, base, stride, n, B, 0.0f, g);
        for (int64_t j = 0; j < B; j++) p[j] = mode == 0 ? g[j] : o[j] * g[j];
        float scale = tl_sum(p, B);
        for (int64_t j = 0; j < B && j < n; j++)
            tl_store(L, RB_IG, base + j * stride, mode == 0 ? o[j] * (g[j] - scale) : o[j] * g[j] - scale, tl_f32());
    }
    free(o), free(g), free(p);
}

static int bwd_inner_scale_of_grad(const td_abi_launch *L) {
    int64_t M = TL_I(L, PB_M), N = TL_I(L, PB_N), TM = TL_I(L, PB_TILE_M), TN = TL_I(L, PB_TILE_N);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t r = 0; r < TM; r++) {
            int64_t m = (int64_t)pid * TM + r;
            vjp_bad(L, m * N, 1, m < M ? N : 0, TN, 0);
        }
    return 0;
}

static int bwd_non_inner_scale_unscaled(const td_abi_launch *L) {
    int64_t N = TL_I(L, PN_N), K = TL_I(L, PN_K), TN = TL_I(L, PN_TILE_N), TK = TL_I(L, PN_TILE_K);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t kk = 0; kk < TK; kk++) {
                int64_t k = (int64_t)p1 * TK + kk;
                vjp_bad(L, (int64_t)p0 * N * K + k, K, k < K ? N : 0, TN, 1);
            }
    return 0;
}

TD_KERNEL(td_m_flaggems_inner_cc_f16) = {"softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct",
                                         "mut_fp16_sum", TD_ABI_HOST, NULL, NULL,
                                         "the normaliser tl.sum accumulated in binary16", 2, 2, inner_fp16_sum, NULL};
TD_KERNEL(td_m_flaggems_inner_io_stride) = {"softmax_flaggems.softmax_kernel_inner_one_tile_correctness",
                                            "mut_row_stride_tile", TD_ABI_HOST, NULL, NULL,
                                            "rows addressed at pid * TILE_N instead of pid * N", 2, 2,
                                            inner_row_stride_tile, NULL};
TD_KERNEL(td_m_flaggems_inner_io_i32) = {"softmax_flaggems.softmax_kernel_inner_one_tile_correctness",
                                         "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                         "pid_m * N computed in int32 (wraps beyond 2^31 elements)", 2, 2,
                                         inner_offset_int32, NULL};
TD_KERNEL(td_m_flaggems_non_inner_axis) = {"softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct",
                                           "mut_reduce_axis_1", TD_ABI_HOST, NULL, NULL,
                                           "max and sum reduced along the K axis of the tile instead of N", 4, 2,
                                           non_inner_wrong_axis, NULL};
TD_KERNEL(td_m_flaggems_bwd_inner_scale) = {
    "softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct", "mut_scale_sum_of_grad", TD_ABI_HOST,
    NULL, NULL, "scale = sum(out_grad) (the log-softmax VJP's) instead of sum(out * out_grad)", 4, 3,
    bwd_inner_scale_of_grad, NULL};
TD_KERNEL(td_m_flaggems_bwd_non_inner_prod) = {
    "softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct", "mut_scale_not_multiplied",
    TD_ABI_HOST, NULL, NULL, "in_grad = out * out_grad - scale (scale not multiplied by out)", 4, 3,
    bwd_non_inner_scale_unscaled, NULL};
