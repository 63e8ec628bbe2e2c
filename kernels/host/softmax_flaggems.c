/* softmax_flaggems: FlagGems' softmax kernels, the ONE_TILE_PER_CTA branches.
 *   inner forward     (N, TILE_N; output_ptr, input_ptr): row pid at pid * N
 *   non-inner forward (N, K, TILE_N, TILE_K; output_ptr, input_ptr): grid (M, K / TILE_K),
 *                     tile [TILE_N, TILE_K] at pid0*N*K + n*K + pid1*TILE_K + c, reduced over n
 *   inner backward    (M, N, TILE_M, TILE_N; out_ptr, out_grad_ptr, in_grad_ptr): rows
 *                     pid*TILE_M + r, reduced over the row
 *   non-inner backward (N, K, TILE_N, TILE_K; out_ptr, out_grad_ptr, in_grad_ptr)
 * The backward loads are masked without `other`: masked lanes read 0 here (Triton's
 * predicated load into a zeroed register). */
#include "softmax_tl.h"

enum { PI_N, PI_TILE };
enum { PN_N, PN_K, PN_TILE_N, PN_TILE_K };
enum { PB_M, PB_N, PB_TILE_M, PB_TILE_N };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

static int inner_one_tile(const td_abi_launch *L) {
    return sm_rows_one_tile(L, RF_OUT, RF_IN, TL_I(L, PI_N), TL_I(L, PI_TILE), 0);
}

static int non_inner_one_tile(const td_abi_launch *L) {
    int64_t N = TL_I(L, PN_N), K = TL_I(L, PN_K), TN = TL_I(L, PN_TILE_N), TK = TL_I(L, PN_TILE_K);
    float *col;
    TL_ALLOC(L, col, TN);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t kk = 0; kk < TK; kk++) { /* column kk of the tile: tl.max / tl.sum over axis 0 */
                int64_t k = (int64_t)p1 * TK + kk, base = (int64_t)p0 * N * K + k;
                int live = k < K;
                sm_load_tile(L, RF_IN, base, K, live ? N : 0, TN, -INFINITY, col);
                sm_tile_softmax(col, TN);
                for (int64_t n = 0; n < TN && n < N && live; n++) tl_store(L, RF_OUT, base + n * K, col[n], tl_f32());
            }
    free(col);
    return 0;
}

/* out * (out_grad - tl.sum(out * out_grad)) over one reduced row of B lanes, n active,
 * elements at base + j * stride. */
static int vjp_row(const td_abi_launch *L, int64_t base, int64_t stride, int64_t n, int64_t B, float *o, float *g,
                   float *p) {
    sm_load_tile(L, RB_OUT, base, stride, n, B, 0.0f, o);
    sm_load_tile(L, RB_OG, base, stride, n, B, 0.0f, g);
    for (int64_t j = 0; j < B; j++) p[j] = o[j] * g[j];
    float scale = tl_sum(p, B);
    for (int64_t j = 0; j < B && j < n; j++) tl_store(L, RB_IG, base + j * stride, o[j] * (g[j] - scale), tl_f32());
    return 0;
}

static int alloc3(const td_abi_launch *L, int64_t B, float **o, float **g, float **p) {
    *o = calloc((size_t)(B > 0 ? B : 1), sizeof **o);
    *g = calloc((size_t)(B > 0 ? B : 1), sizeof **g);
    *p = calloc((size_t)(B > 0 ? B : 1), sizeof **p);
    if (*o && *g && *p) return 0;
    free(*o), free(*g), free(*p);
    snprintf(L->err, L->errlen, "out of memory for a tile of %lld lanes", (long long)B);
    return 1;
}

static int bwd_inner_one_tile(const td_abi_launch *L) {
    int64_t M = TL_I(L, PB_M), N = TL_I(L, PB_N), TM = TL_I(L, PB_TILE_M), TN = TL_I(L, PB_TILE_N);
    float *o, *g, *p;
    if (alloc3(L, TN, &o, &g, &p)) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t r = 0; r < TM; r++) { /* row r of the [TILE_M, TILE_N] tile; rows >= M fully masked */
            int64_t m = (int64_t)pid * TM + r;
            vjp_row(L, m * N, 1, m < M ? N : 0, TN, o, g, p);
        }
    free(o), free(g), free(p);
    return 0;
}

static int bwd_non_inner_one_tile(const td_abi_launch *L) {
    int64_t N = TL_I(L, PN_N), K = TL_I(L, PN_K), TN = TL_I(L, PN_TILE_N), TK = TL_I(L, PN_TILE_K);
    float *o, *g, *p;
    if (alloc3(L, TN, &o, &g, &p)) return 1;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t kk = 0; kk < TK; kk++) {
                int64_t k = (int64_t)p1 * TK + kk;
                vjp_row(L, (int64_t)p0 * N * K + k, K, k < K ? N : 0, TN, o, g, p);
            }
    free(o), free(g), free(p);
    return 0;
}

TD_KERNEL(td_k_flaggems_inner_cc) = {"softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct", "triton",
                                     TD_ABI_HOST, NULL, NULL, NULL, 2, 2, inner_one_tile, NULL};
TD_KERNEL(td_k_flaggems_inner_io) = {"softmax_flaggems.softmax_kernel_inner_one_tile_correctness", "triton",
                                     TD_ABI_HOST, NULL, NULL, NULL, 2, 2, inner_one_tile, NULL};
TD_KERNEL(td_k_flaggems_non_inner) = {"softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct", "triton",
                                      TD_ABI_HOST, NULL, NULL, NULL, 4, 2, non_inner_one_tile, NULL};
TD_KERNEL(td_k_flaggems_bwd_inner) = {"softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct",
                                      "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 3, bwd_inner_one_tile, NULL};
TD_KERNEL(td_k_flaggems_bwd_non_inner) = {
    "softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct", "triton", TD_ABI_HOST, NULL, NULL,
    NULL, 4, 3, bwd_non_inner_one_tile, NULL};
