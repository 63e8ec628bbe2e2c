/* softmax_optimize: softmax_kernel_online_v2 (the online softmax: per-lane running max
 * and normaliser over the row's tiles, a cross-lane reduction, a second sweep) and
 * the Lean file's one-tile specialisation softmax_kernel_online_v2_one_tile.
 * One-tile parameters: N, TILE_N; full: M, N, TILE_N.  Regions: output_ptr, input_ptr. */
#include "softmax_tl.h"

enum { P1_N, P1_TILE };
enum { PF_M, PF_N, PF_TILE };
enum { R_OUT, R_IN };

static int one_tile(const td_abi_launch *L) {
    return sm_rows_one_tile(L, R_OUT, R_IN, TL_I(L, P1_N), TL_I(L, P1_TILE), 0);
}

/* One step of the recurrence on lane state (m, z) with a loaded value x. */
static inline void online_step(float *m, float *z, float x) {
    float nm = fmaxf(*m, x); /* tl.maximum */
    float nz = expf(*m - nm) * *z + expf(x - nm);
    *m = nm;
    *z = nz;
}

static int online_v2(const td_abi_launch *L) {
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
    int64_t prev = (N + T - 1) / T * T - T; /* prev_multiple_of(N, TILE_N) */
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = (int64_t)pid * N;
        for (int64_t l = 0; l < T; l++) m[l] = -INFINITY, z[l] = 0.0f;
        for (int64_t s = 0; s < prev; s += T) /* full tiles, unmasked */
            for (int64_t l = 0; l < T; l++) online_step(&m[l], &z[l], tl_load(L, R_IN, base + s + l));
        for (int64_t s = prev; s < N; s += T) /* the last tile, masked */
            for (int64_t l = 0; l < T; l++)
                online_step(&m[l], &z[l], s + l < N ? tl_load(L, R_IN, base + s + l) : -INFINITY);
        float fm = tl_max(m, T);
        for (int64_t l = 0; l < T; l++) t[l] = expf(m[l] - fm) * z[l];
        float Z = tl_sum(t, T);
        for (int64_t s = 0; s < N; s += T) /* second sweep (full tiles, then the masked last one) */
            for (int64_t l = 0; l < T && s + l < N; l++)
                tl_store(L, R_OUT, base + s + l, expf(tl_load(L, R_IN, base + s + l) - fm) / Z, tl_f32());
    }
    free(t), free(m), free(z);
    return 0;
}

TD_KERNEL(td_k_softmax_optimize_summary) = {"softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary",
                                            "triton", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, one_tile, NULL};
TD_KERNEL(td_k_softmax_optimize_io) = {"softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness", "triton",
                                       TD_ABI_HOST, NULL, NULL, NULL, 2, 2, one_tile, NULL};
TD_KERNEL(td_k_softmax_optimize_full) = {"softmax_optimize.softmax_kernel_online_v2_output_summary", "triton",
                                         TD_ABI_HOST, NULL, NULL, NULL, 3, 2, online_v2, NULL};
