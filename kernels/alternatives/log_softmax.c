/* Alternatives for log_softmax (FlagGems' log-softmax over the middle dimension N of an
 * [M, N, K] tensor, and its backward).  Row (m, p1): elements m*N*K + n*K + p1,
 * n < w = min(N, BLOCK_N).
 *
 *   forward, alt_stable_online  one online pass in chunks of 8 (running max m, running sum
 *                 s rescaled when m grows), then out = (x_n - m) - log(s): the stable
 *                 form the catalogue writes (x - max - log sum), where the port takes
 *                 log(e_n / s).  Equal in the reals; this one never stores log(0) = -inf
 *                 for an element far below the max.  Admissible: online normaliser, the
 *                 catalogue's own formula.
 *   backward, alt_seq_exp2  scale = sum_n out_grad_n left to right (not a tree), and
 *                 in_grad = out_grad - exp(out) * scale with exp as exp2f of the binary32
 *                 product out * log2 e (Triton's lowering of tl.exp).
 * Parameters: M, N, K, BLOCK_M, BLOCK_N.  Regions: forward output_ptr, input_ptr;
 * backward out_ptr, out_grad_ptr, in_grad_ptr. */
#include "alt_a_softmax.h"

enum { P_M, P_N, P_K, P_BM, P_BN };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

static int ls_fwd(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    int64_t w = N < BN ? N : BN;
    float *x;
    TL_ALLOC(L, x, w);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) {
                int64_t m = (int64_t)p0 * BM + r, base = m * N * K + p1;
                if (m >= M) continue;
                for (int64_t n = 0; n < w; n++) x[n] = tl_load(L, RF_IN, base + n * K);
                float mx, s;
                aa_online_ms(x, w, 8, expf, &mx, &s);
                float ls = logf(s);
                for (int64_t n = 0; n < w; n++) tl_store(L, RF_OUT, base + n * K, (x[n] - mx) - ls, tl_f32());
            }
    free(x);
    return 0;
}

static int ls_bwd(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    int64_t w = N < BN ? N : BN;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) {
                int64_t m = (int64_t)p0 * BM + r, base = m * N * K + p1;
                if (m >= M) continue;
                float scale = 0.0f;
                for (int64_t n = 0; n < w; n++) scale = scale + tl_load(L, RB_OG, base + n * K);
                for (int64_t n = 0; n < w; n++) {
                    float g = tl_load(L, RB_OG, base + n * K), o = tl_load(L, RB_OUT, base + n * K);
                    tl_store(L, RB_IG, base + n * K, g - aa_exp_tl(o) * scale, tl_f32());
                }
            }
    return 0;
}

TD_KERNEL(td_a_log_softmax_stable_online) = {"log_softmax.log_softmax_kernel_correctness", "alt_stable_online",
                                             TD_ABI_HOST, NULL, NULL, NULL, 5, 2, ls_fwd, NULL};
TD_KERNEL(td_a_log_softmax_bwd_seq_exp2) = {"log_softmax.log_softmax_backward_kernel_correctness", "alt_seq_exp2",
                                            TD_ABI_HOST, NULL, NULL, NULL, 5, 3, ls_bwd, NULL};
