/* Alternatives for softmax_flaggems (FlagGems' one-tile softmax kernels).
 *
 *   inner forward, alt_seq_rcp   (both inner contracts) two passes over the row's
 *                 w = min(N, TILE_N) elements: sequential max, e_j = expf(x_j - m),
 *                 a left-to-right sum, out = e_j * (1/s).  Admissible: any sum order,
 *                 reciprocal-multiply.
 *   non-inner forward, alt_online4_ex2approx  the column (stride K) normalised online
 *                 in chunks of 4 rows, every exp the ex2.approx.f32 model after the
 *                 binary32 multiply by log2 e (compiled tl.exp).  Admissible: online
 *                 normaliser, the compiled exp.
 *   inner / non-inner backward, alt_fma_dot  in_grad = out * (out_grad - s) with
 *                 s = sum_j out_j * out_grad_j accumulated as a sequential FMA chain
 *                 (s = fmaf(o_j, g_j, s): one rounding per term, as a contracted CUDA
 *                 loop does), not a rounded product then a tree.  Admissible: FMA, any
 *                 order.
 * Parameter and region layouts as in kernels/host/softmax_flaggems.c. */
#include "alt_a_softmax.h"

enum { PI_N, PI_TILE };
enum { PN_N, PN_K, PN_TILE_N, PN_TILE_K };
enum { PB_M, PB_N, PB_TILE_M, PB_TILE_N };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

static int fg_inner(const td_abi_launch *L) {
    int64_t N = TL_I(L, PI_N), T = TL_I(L, PI_TILE), w = N < T ? N : T;
    float *x;
    TL_ALLOC(L, x, w);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < w; i++) x[i] = tl_load(L, RF_IN, (int64_t)pid * N + i);
        aa_sm_twopass(x, w, expf, AA_SUM_SEQ, AA_RCP, NULL);
        for (int64_t i = 0; i < w; i++) tl_store(L, RF_OUT, (int64_t)pid * N + i, x[i], tl_f32());
    }
    free(x);
    return 0;
}

static int fg_non_inner(const td_abi_launch *L) {
    int64_t N = TL_I(L, PN_N), K = TL_I(L, PN_K), TN = TL_I(L, PN_TILE_N), TK = TL_I(L, PN_TILE_K);
    int64_t w = N < TN ? N : TN;
    float *x;
    TL_ALLOC(L, x, w);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t kk = 0; kk < TK; kk++) {
                int64_t k = (int64_t)p1 * TK + kk, base = (int64_t)p0 * N * K + k;
                if (k >= K) continue;
                for (int64_t n = 0; n < w; n++) x[n] = tl_load(L, RF_IN, base + n * K);
                aa_sm_online(x, w, 4, aa_exp_approx, AA_DIV);
                for (int64_t n = 0; n < w; n++) tl_store(L, RF_OUT, base + n * K, x[n], tl_f32());
            }
    free(x);
    return 0;
}

/* One reduced row: n elements at base + j * stride. */
static void fg_vjp_row(const td_abi_launch *L, int64_t base, int64_t stride, int64_t n) {
    float s = 0.0f;
    for (int64_t j = 0; j < n; j++) s = fmaf(tl_load(L, RB_OUT, base + j * stride), tl_load(L, RB_OG, base + j * stride), s);
    for (int64_t j = 0; j < n; j++) {
        float o = tl_load(L, RB_OUT, base + j * stride), g = tl_load(L, RB_OG, base + j * stride);
        tl_store(L, RB_IG, base + j * stride, o * (g - s), tl_f32());
    }
}

static int fg_bwd_inner(const td_abi_launch *L) {
    int64_t M = TL_I(L, PB_M), N = TL_I(L, PB_N), TM = TL_I(L, PB_TILE_M), TN = TL_I(L, PB_TILE_N);
    int64_t w = N < TN ? N : TN;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t r = 0; r < TM; r++) {
            int64_t m = (int64_t)pid * TM + r;
            if (m < M) fg_vjp_row(L, m * N, 1, w);
        }
    return 0;
}

static int fg_bwd_non_inner(const td_abi_launch *L) {
    int64_t N = TL_I(L, PN_N), K = TL_I(L, PN_K), TN = TL_I(L, PN_TILE_N), TK = TL_I(L, PN_TILE_K);
    int64_t w = N < TN ? N : TN;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t kk = 0; kk < TK; kk++) {
                int64_t k = (int64_t)p1 * TK + kk;
                if (k < K) fg_vjp_row(L, (int64_t)p0 * N * K + k, K, w);
            }
    return 0;
}

TD_KERNEL(td_a_flaggems_inner_cc_seq_rcp) = {"softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct",
                                             "alt_seq_rcp", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, fg_inner, NULL};
TD_KERNEL(td_a_flaggems_inner_io_seq_rcp) = {"softmax_flaggems.softmax_kernel_inner_one_tile_correctness",
                                             "alt_seq_rcp", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, fg_inner, NULL};
TD_KERNEL(td_a_flaggems_non_inner_online4) = {"softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct",
                                              "alt_online4_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, 4, 2,
                                              fg_non_inner, NULL};
TD_KERNEL(td_a_flaggems_bwd_inner_fma) = {"softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct",
                                          "alt_fma_dot", TD_ABI_HOST, NULL, NULL, NULL, 4, 3, fg_bwd_inner, NULL};
TD_KERNEL(td_a_flaggems_bwd_non_inner_fma) = {
    "softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct", "alt_fma_dot", TD_ABI_HOST, NULL,
    NULL, NULL, 4, 3, fg_bwd_non_inner, NULL};
