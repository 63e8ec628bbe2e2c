/* Alternatives for triton_softmax.softmax_kernel_correctness (the fused row softmax over
 * w = min(n_cols, BLOCK_SIZE) columns of each row).
 *
 *   alt_online8_rcp  single pass, chunks of 8 columns, running max and running sum
 *                    rescaled by exp(m_old - m_new), exp as exp2f of the rounded
 *                    product x * log2 e (Triton's lowering of tl.exp), then
 *                    e_j * (1/s).  Admissible: online normaliser, exp2-based exp,
 *                    reciprocal-multiply.
 *   alt_seq_ex2approx  two passes, the exps by the ex2.approx model (compiled tl.exp on
 *                    NVIDIA, alt_a_num.h) summed left to right, then e_j / s.
 *                    Admissible: the approximate exp of compiled Triton, a sequential
 *                    sum (one thread per row).
 * Parameters: input_row_stride, output_row_stride, n_cols, BLOCK_SIZE.
 * Regions: output_ptr, input_ptr. */
#include "alt_a_softmax.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

static int tsm_rows(const td_abi_launch *L, int online) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t w = n < B ? n : B;
    float *x, *tmp;
    TL_ALLOC(L, x, 2 * w);
    tmp = x + w;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t j = 0; j < w; j++) x[j] = tl_load(L, R_IN, (int64_t)pid * is + j);
        if (online) aa_sm_online(x, w, 8, aa_exp_tl, AA_RCP);
        else aa_sm_twopass(x, w, aa_exp_approx, AA_SUM_SEQ, AA_DIV, tmp);
        for (int64_t j = 0; j < w; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, x[j], tl_f32());
    }
    free(x);
    return 0;
}

static int tsm_online(const td_abi_launch *L) { return tsm_rows(L, 1); }
static int tsm_seq(const td_abi_launch *L) { return tsm_rows(L, 0); }

TD_KERNEL(td_a_triton_softmax_online8) = {"triton_softmax.softmax_kernel_correctness", "alt_online8_rcp",
                                          TD_ABI_HOST, NULL, NULL, NULL, 4, 2, tsm_online, NULL};
TD_KERNEL(td_a_triton_softmax_seq) = {"triton_softmax.softmax_kernel_correctness", "alt_seq_ex2approx", TD_ABI_HOST,
                                      NULL, NULL, NULL, 4, 2, tsm_seq, NULL};
