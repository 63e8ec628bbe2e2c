/* Alternative for ksoftmax_triton.ksoftmax_forward_plain_correctness (xformers' fused
 * softmax, plain forward: row X[m*sxm + n*sxn + k], k < K, in a tile of DEPTH lanes).
 *
 *   alt_online32_exp2  single-pass online softmax in chunks of 32 (running max, running
 *                 sum rescaled when the max grows), every exp as exp2f(x * log2 e) with
 *                 the product rounded to binary32 (Triton's lowering of tl.exp), and
 *                 the final quotient as num * (1/denom).  Admissible: the online
 *                 normaliser, the exp2-based exp, reciprocal-multiply.
 * Parameters: stride_ym, stride_yn, stride_xm, stride_xn, K, DEPTH.  Regions: Y, X. */
#include "alt_a_softmax.h"

enum { P_SYM, P_SYN, P_SXM, P_SXN, P_K, P_DEPTH };
enum { R_Y, R_X };

static int ks_online(const td_abi_launch *L) {
    int64_t sym = TL_I(L, P_SYM), syn = TL_I(L, P_SYN), sxm = TL_I(L, P_SXM), sxn = TL_I(L, P_SXN);
    int64_t K = TL_I(L, P_K), D = TL_I(L, P_DEPTH), w = K < D ? K : D;
    float *x;
    TL_ALLOC(L, x, w);
    for (uint32_t m = 0; m < L->grid[0]; m++)
        for (uint32_t n = 0; n < L->grid[1]; n++) {
            for (int64_t k = 0; k < w; k++) x[k] = tl_load(L, R_X, (int64_t)m * sxm + (int64_t)n * sxn + k);
            aa_sm_online(x, w, 32, aa_exp_tl, AA_RCP);
            for (int64_t k = 0; k < w; k++) tl_store(L, R_Y, (int64_t)m * sym + (int64_t)n * syn + k, x[k], tl_f32());
        }
    free(x);
    return 0;
}

TD_KERNEL(td_a_ksoftmax_online32_exp2) = {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "alt_online32_exp2",
                                          TD_ABI_HOST, NULL, NULL, NULL, 6, 2, ks_online, NULL};
