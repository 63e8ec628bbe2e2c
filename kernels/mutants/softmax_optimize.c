/* softmax_optimize mutants. */
#include "../host/softmax_tl.h"

enum { P1_N, P1_TILE };
enum { PF_M, PF_N, PF_TILE };
enum { R_OUT, R_IN };

/* One-tile: exp(x) / sum exp(x), the row max never subtracted. */
static int one_tile_no_max(const td_abi_launch *L) {
    int64_t N = TL_I(L, P1_N), T = TL_I(L, P1_TILE);
    float *t;
    TL_ALLOC(L, t, T);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * N, 1, N, T, -INFINITY, t);
        for (int64_t i = 0; i < T; i++) t[i] = expf(t[i]);
        float s = tl_sum(t, T);
        for (int64_t i = 0; i < T && i < N; i++) tl_store(L, R_OUT, (int64_t)pid * N + i, t[i] / s, tl_f32());
    }
    free(t);
    return 0;
}

/* One-tile: the row offset pid_m * N formed in int32 (the kernel's offset = pid_m * N +
 * n_offsets, both int32 for N < 2^31): a far case's wrapped offset faults the launch. */
static int one_tile_offset_int32(const td_abi_launch *L) {
    return sm_rows_one_tile(L, R_OUT, R_IN, TL_I(L, P1_N), TL_I(L, P1_TILE), 1);
}

/* One-tile: the store's mask dropped: lanes N .. TILE_N - 1 write 0 into the cells after
 * the row (the next row's, overwritten by the next program; after the last row, the
 * cells beyond it).  Writes past the region are clipped here (they would be out of
 * bounds on a device). */
static int one_tile_store_unmasked(const td_abi_launch *L) {
    int64_t N = TL_I(L, P1_N), T = TL_I(L, P1_TILE);
    float *t;
    TL_ALLOC(L, t, T);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * N, 1, N, T, -INFINITY, t);
        sm_tile_softmax(t, T);
        for (int64_t i = 0; i < T; i++)
            if ((int64_t)pid * N + i < (int64_t)TL_LEN(L, R_OUT))
                tl_store(L, R_OUT, (int64_t)pid * N + i, t[i], tl_f32());
    }
    free(t);
    return 0;
}

/* Full: the online recurrence with a bug: rescale 0 drops exp(m - new_m) (z += exp(x -
 * new_m) only); skip_tail 1 omits the first sweep's masked last tile. */
static int online_variant(const td_abi_launch *L, int rescale, int skip_tail) {
    int64_t N = TL_I(L, PF_N), T = TL_I(L, PF_TILE);
    float *m, *z, *t;
    TL_ALLOC(L, t, T);
    m = calloc((size_t)T, sizeof *m);
    z = calloc((size_t)T, sizeof *z);
    if (!m || !z) {
        free(t), free(m), free(z);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    int64_t prev = (N + T - 1) / T * T - T;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = (int64_t)pid * N;
        for (int64_t l = 0; l < T; l++) m[l] = -INFINITY, z[l] = 0.0f;
        for (int64_t s = 0; s < (skip_tail ? prev : N); s += T)
            for (int64_t l = 0; l < T; l++) {
                float x = s + l < N ? tl_load(L, R_IN, base + s + l) : -INFINITY;
                float nm = fmaxf(m[l], x);
                z[l] = rescale ? expf(m[l] - nm) * z[l] + expf(x - nm) : z[l] + expf(x - nm);
                m[l] = nm;
            }
        float fm = tl_max(m, T);
        for (int64_t l = 0; l < T; l++) t[l] = expf(m[l] - fm) * z[l];
        float Z = tl_sum(t, T);
        for (int64_t s = 0; s < N; s += T)
            for (int64_t l = 0; l < T && s + l < N; l++)
                tl_store(L, R_OUT, base + s + l, expf(tl_load(L, R_IN, base + s + l) - fm) / Z, tl_f32());
    }
    free(t), free(m), free(z);
    return 0;
}
static int online_no_rescale(const td_abi_launch *L) { return online_variant(L, 0, 0); }
static int online_tail_dropped(const td_abi_launch *L) { return online_variant(L, 1, 1); }
/* The original's offs = pid_m * N + n_offsets in int32 (pid and N int32): past 2^31
 * elements a row's base wraps negative, an illegal address (tl_fault; a fault anywhere
 * fails the launch, as on a device).  Only the large tier (`--large`) has M * N > 2^31;
 * ordinary cases hold at most 2^14 elements, where it is the port. */
static int online_offset_int32(const td_abi_launch *L) {
    int64_t N = TL_I(L, PF_N);
    if (tl_fault_rows_i32(L, R_IN, N, N)) return 1;
    return online_variant(L, 1, 0);
}

TD_KERNEL(td_m_softmax_optimize_summary_nomax) = {
    "softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary", "mut_no_max_subtraction", TD_ABI_HOST,
    NULL, NULL, "exp(x) / sum exp(x) without subtracting the row max", 2, 2, one_tile_no_max, NULL};
TD_KERNEL(td_m_softmax_optimize_io_unmasked) = {
    "softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness", "mut_store_mask_dropped", TD_ABI_HOST, NULL,
    NULL, "the output store without its mask: lanes N .. TILE_N - 1 written too", 2, 2, one_tile_store_unmasked, NULL};
TD_KERNEL(td_m_softmax_optimize_io_i32) = {
    "softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness", "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
    "pid_m * N computed in int32 (wraps beyond 2^31 elements)", 2, 2, one_tile_offset_int32, NULL};
TD_KERNEL(td_m_softmax_optimize_io_nomax) = {
    "softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness", "mut_no_max_subtraction", TD_ABI_HOST, NULL,
    NULL, "exp(x) / sum exp(x) without subtracting the row max", 2, 2, one_tile_no_max, NULL};
TD_KERNEL(td_m_softmax_optimize_full_norescale) = {
    "softmax_optimize.softmax_kernel_online_v2_output_summary", "mut_no_rescale", TD_ABI_HOST, NULL, NULL,
    "the running normaliser is not rescaled by exp(m - new_m) when the max grows", 3, 2, online_no_rescale, NULL};
TD_KERNEL(td_m_softmax_optimize_full_tail) = {
    "softmax_optimize.softmax_kernel_online_v2_output_summary", "mut_tail_tile_dropped", TD_ABI_HOST, NULL, NULL,
    "the first sweep skips the masked last tile (its columns miss the max and the normaliser)", 3, 2,
    online_tail_dropped, NULL};
TD_KERNEL(td_m_softmax_optimize_full_i32) = {
    "softmax_optimize.softmax_kernel_online_v2_output_summary", "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
    "pid_m * N + n_offsets in int32: a row's base wraps past 2^31", 3, 2, online_offset_int32, NULL};
