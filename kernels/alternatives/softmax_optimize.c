/* Alternatives for softmax_optimize (softmax_kernel_online_v2 and its one-tile form).
 *
 *   one-tile summary / io, alt_pairs_exp2  two passes over w = min(N, TILE_N): exp as
 *                 exp2f of the binary32 product x * log2 e, the exps summed by a
 *                 neighbour-pair tree, a division.  Admissible: the exp2 lowering,
 *                 another tree shape.
 *   full, alt_twopass_seq   the port is online (per-lane running (m, z) over tiles, then a
 *                 cross-lane merge); this kernel is the plain two-pass softmax over the
 *                 whole row of N: sequential max, exps summed left to right, a division.
 *   full, alt_online_rowwise  one running (m, z) for the whole row, updated element by
 *                 element (z = z * exp(m - m') + exp(x - m')), no per-lane states, then
 *                 exp(x - m) * (1/z).  Admissible: online normaliser of another shape,
 *                 reciprocal-multiply.
 * Parameters: one tile N, TILE_N; full M, N, TILE_N.  Regions: output_ptr, input_ptr. */
#include "alt_a_softmax.h"

enum { P1_N, P1_TILE };
enum { PF_M, PF_N, PF_TILE };
enum { R_OUT, R_IN };

static int so_rows(const td_abi_launch *L, int64_t N, int64_t w, int kind) {
    float *x, *tmp;
    TL_ALLOC(L, x, 2 * w);
    tmp = x + w;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < w; i++) x[i] = tl_load(L, R_IN, (int64_t)pid * N + i);
        if (kind == 0) aa_sm_twopass(x, w, aa_exp_tl, AA_SUM_PAIRS, AA_DIV, tmp);
        else if (kind == 1) aa_sm_twopass(x, w, expf, AA_SUM_SEQ, AA_DIV, tmp);
        else aa_sm_online(x, w, 1, expf, AA_RCP);
        for (int64_t i = 0; i < w; i++) tl_store(L, R_OUT, (int64_t)pid * N + i, x[i], tl_f32());
    }
    free(x);
    return 0;
}

static int so_one_tile(const td_abi_launch *L) {
    int64_t N = TL_I(L, P1_N), T = TL_I(L, P1_TILE);
    return so_rows(L, N, N < T ? N : T, 0);
}
static int so_full_twopass(const td_abi_launch *L) { return so_rows(L, TL_I(L, PF_N), TL_I(L, PF_N), 1); }
static int so_full_online(const td_abi_launch *L) { return so_rows(L, TL_I(L, PF_N), TL_I(L, PF_N), 2); }

TD_KERNEL(td_a_softmax_optimize_summary_pairs) = {"softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary",
                                                  "alt_pairs_exp2", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, so_one_tile,
                                                  NULL};
TD_KERNEL(td_a_softmax_optimize_io_pairs) = {"softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness",
                                             "alt_pairs_exp2", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, so_one_tile, NULL};
TD_KERNEL(td_a_softmax_optimize_full_twopass) = {"softmax_optimize.softmax_kernel_online_v2_output_summary",
                                                 "alt_twopass_seq", TD_ABI_HOST, NULL, NULL, NULL, 3, 2,
                                                 so_full_twopass, NULL};
TD_KERNEL(td_a_softmax_optimize_full_online) = {"softmax_optimize.softmax_kernel_online_v2_output_summary",
                                                "alt_online_rowwise", TD_ABI_HOST, NULL, NULL, NULL, 3, 2,
                                                so_full_online, NULL};
