/* Alternatives for softmax_triton1.softmax_kernel_correctness (the tutorial's fused row
 * softmax over w = min(n_cols, BLOCK_SIZE) columns of each row).
 *
 *   alt_seq_rcp    two passes, the exps summed left to right (one thread per row, as a
 *                  CUDA C loop does) instead of a halving tree, and out = e_j * (1/s)
 *                  instead of e_j / s.  Admissible: a sum in any order, a/b as a*(1/b).
 *   alt_ex2approx  exp(d) computed as compiled Triton does on NVIDIA: d * log2 e rounded
 *                  to binary32, then ex2.approx.f32 (modelled as any value within 2 ulps
 *                  of 2^t, alt_a_num.h); sum a pairwise tree over neighbours.
 *                  Admissible: the exp of compiled tl.exp, another tree shape.
 * Parameters: input_row_stride, output_row_stride, n_cols, BLOCK_SIZE.
 * Regions: output_ptr, input_ptr. */
#include "alt_a_softmax.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

static int st1_rows(const td_abi_launch *L, aa_expfn ex, aa_sumord o, aa_divkind d) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t w = n < B ? n : B;
    float *x, *tmp;
    TL_ALLOC(L, x, 2 * w);
    tmp = x + w;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t j = 0; j < w; j++) x[j] = tl_load(L, R_IN, (int64_t)pid * is + j);
        aa_sm_twopass(x, w, ex, o, d, tmp);
        for (int64_t j = 0; j < w; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, x[j], tl_f32());
    }
    free(x);
    return 0;
}

static int st1_seq_rcp(const td_abi_launch *L) { return st1_rows(L, expf, AA_SUM_SEQ, AA_RCP); }
static int st1_ex2approx(const td_abi_launch *L) { return st1_rows(L, aa_exp_approx, AA_SUM_PAIRS, AA_DIV); }

TD_KERNEL(td_a_softmax_triton1_seq_rcp) = {"softmax_triton1.softmax_kernel_correctness", "alt_seq_rcp", TD_ABI_HOST,
                                           NULL, NULL, NULL, 4, 2, st1_seq_rcp, NULL};
TD_KERNEL(td_a_softmax_triton1_ex2approx) = {"softmax_triton1.softmax_kernel_correctness", "alt_ex2approx",
                                             TD_ABI_HOST, NULL, NULL, NULL, 4, 2, st1_ex2approx, NULL};
