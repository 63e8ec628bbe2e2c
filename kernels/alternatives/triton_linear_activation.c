/* triton_linear_activation, alternative: bias-seeded FMA chain, activations rewritten.
 *
 * alt_fma_rcp: each cell (m < M, n < N) is acc = bias[n] (when HAS_BIAS), then
 * acc = fma(a_k, b_k, acc) over k < K = BLOCK_K * numKBlocks (the port: bias, then a
 * pairwise tree per BK step added in order).  The activations are written as other
 * kernels write them:
 *   gelu      x * 0.5 * (1 + erf(x * (1/sqrt 2))): multiply by the rounded reciprocal
 *             instead of dividing by sqrt 2 (the port: x / 1.41421356f);
 *   fast_gelu the cubic as x * (1 + c * x*x) with the inner sum an FMA:
 *             fma(c * x * x, x, x), then 0.5 * x * (1 + tanh(sqrt(2/pi) * that));
 *   tanh, relu as the kernel (tanhf; max(0, x)).
 * ACT_INPUTS (when SHOULD_SAVE_ACT_INPUTS) receives the pre-activation value at the same
 * cells.  Admissible: an association order of the binary32 GEMM with FMA, a/b as
 * a*(1/b), and another binary32 evaluation order of the activation's polynomial; the
 * math functions are the same library's.  Cells and casts are the port's.
 */
#include "alt_common.h"

enum { P_M, P_N, P_SMO, P_SNO, P_SAIM, P_SAIN, P_SAM, P_SAK, P_SBN, P_SBK, P_BM, P_GM, P_BN, P_BK, P_NKB, P_HB,
       P_SAVE, P_ACT };
enum { R_C, R_ACT, R_A, R_B, R_BIAS };
enum { ACT_NONE = 0, ACT_TANH, ACT_GELU, ACT_FAST_GELU, ACT_RELU };

static float act_alt(int act, float x) {
    switch (act) {
    case ACT_TANH: return tanhf(x);
    case ACT_GELU: return x * 0.5f * (1.0f + erff(x * 0.70710678118654752440f));
    case ACT_FAST_GELU: {
        const float k = 0.797884560802865355879892f, c = 0.044715f;
        float inner = fmaf(c * x * x, x, x); /* x + c x^3 */
        return 0.5f * x * (1.0f + tanhf(k * inner));
    }
    case ACT_RELU: return fmaxf(x, 0.0f);
    default: return x;
    }
}

static int fma_rcp(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_BK) * TL_I(L, P_NKB);
    int act = (int)TL_I(L, P_ACT), save = TL_I(L, P_SAVE) != 0, has_bias = TL_I(L, P_HB) != 0;
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++) {
            alt_vec a = {R_A, m * TL_I(L, P_SAM), TL_I(L, P_SAK)}, b = {R_B, n * TL_I(L, P_SBN), TL_I(L, P_SBK)};
            float lin = alt_dot(L, &a, &b, K, has_bias ? tl_load(L, R_BIAS, n) : 0.0f, ALT_DOT_FMA_SEQ);
            if (save) tl_store(L, R_ACT, m * TL_I(L, P_SAIM) + n * TL_I(L, P_SAIN), lin, tl_f32());
            tl_store(L, R_C, m * TL_I(L, P_SMO) + n * TL_I(L, P_SNO), act_alt(act, lin), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_tla_summary) = {"triton_linear_activation.triton_linear_activation_output_summary_general",
                               "alt_fma_rcp", TD_ABI_HOST, NULL, "libm", NULL, 18, 5, fma_rcp, NULL};
TD_KERNEL(td_a_tla_io) = {"triton_linear_activation.triton_linear_activation_io_correctness", "alt_fma_rcp",
                          TD_ABI_HOST, NULL, "libm", NULL, 18, 5, fma_rcp, NULL};
