/* Alternative for token_softmax_bloom.token_softmax_bloom_correctness
 * (kernels/alternatives/token_softmax_common.h).
 *
 *   alt_online16_exp2  single-pass online softmax in chunks of 16 (running max, the
 *                 running sum rescaled by exp(m_old - m_new) when the max grows), each
 *                 exp as exp2f(x * log2 e) with the product rounded to binary32
 *                 (Triton's lowering of tl.exp), then one division.  Admissible: the
 *                 online normaliser, another block size, the exp2-based exp. */
#include "token_softmax_common.h"

static void row(float *x, int64_t n, float *w) {
    (void)w;
    aa_sm_online(x, n, 16, aa_exp_tl, AA_DIV);
}
static int run(const td_abi_launch *L) { return ats_run(L, row); }

TD_KERNEL(td_a_token_softmax_bloom_online) = {"token_softmax_bloom.token_softmax_bloom_correctness",
                                              "alt_online16_exp2", TD_ABI_HOST, NULL, NULL, NULL, 5, 4, run, NULL};
