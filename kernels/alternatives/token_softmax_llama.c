/* Alternative for token_softmax_llama.token_softmax_llama_correctness
 * (kernels/alternatives/token_softmax_common.h).
 *
 *   alt_twopass_seq_ex2approx  two passes over the active row only: the max, then
 *                 e_j = exp(x_j - m) with the ex2.approx model after the multiply by
 *                 log2 e (compiled Triton / --use_fast_math), summed left to right,
 *                 then e_j * (1/s).  Admissible: any sum order, the approximate exp,
 *                 reciprocal-multiply. */
#include "token_softmax_common.h"

static void row(float *x, int64_t n, float *w) { aa_sm_twopass(x, n, aa_exp_approx, AA_SUM_SEQ, AA_RCP, w); }
static int run(const td_abi_launch *L) { return ats_run(L, row); }

TD_KERNEL(td_a_token_softmax_llama_seq) = {"token_softmax_llama.token_softmax_llama_correctness",
                                           "alt_twopass_seq_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, 5, 4, run, NULL};
