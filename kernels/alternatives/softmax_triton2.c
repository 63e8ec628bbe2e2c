/* Alternatives for softmax_triton2.softmax_kernel_correctness (the same fused row
 * softmax as softmax_triton1 over w = min(n_cols, BLOCK_SIZE) columns).
 *
 *   alt_online16  single-pass online softmax: chunks of 16 columns, a running max and a
 *                 running sum rescaled by exp(m_old - m_new) when the max grows (each
 *                 chunk's exps added left to right), then exp(x_j - m) / s.
 *                 Admissible: the online (rescaled) normaliser the issue lists.
 *   alt_exp2_split  two passes, exp(d) = exp2f(d * log2 e) with the product rounded to
 *                 binary32 (Triton's lowering of tl.exp, host exp2f), the sum split into
 *                 4 contiguous parts combined last to first, then e_j * (1/s).
 * Parameters: input_row_stride, output_row_stride, n_cols, BLOCK_SIZE.
 * Regions: output_ptr, input_ptr. */
#include "alt_a_softmax.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

static int st2_rows(const td_abi_launch *L, int online) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t w = n < B ? n : B;
    float *x, *tmp;
    TL_ALLOC(L, x, 2 * w);
    tmp = x + w;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t j = 0; j < w; j++) x[j] = tl_load(L, R_IN, (int64_t)pid * is + j);
        if (online) aa_sm_online(x, w, 16, expf, AA_DIV);
        else aa_sm_twopass(x, w, aa_exp_tl, AA_SUM_SPLIT4, AA_RCP, tmp);
        for (int64_t j = 0; j < w; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, x[j], tl_f32());
    }
    free(x);
    return 0;
}

static int st2_online(const td_abi_launch *L) { return st2_rows(L, 1); }
static int st2_exp2(const td_abi_launch *L) { return st2_rows(L, 0); }

TD_KERNEL(td_a_softmax_triton2_online16) = {"softmax_triton2.softmax_kernel_correctness", "alt_online16", TD_ABI_HOST,
                                            NULL, NULL, NULL, 4, 2, st2_online, NULL};
TD_KERNEL(td_a_softmax_triton2_exp2_split) = {"softmax_triton2.softmax_kernel_correctness", "alt_exp2_split",
                                              TD_ABI_HOST, NULL, NULL, NULL, 4, 2, st2_exp2, NULL};
