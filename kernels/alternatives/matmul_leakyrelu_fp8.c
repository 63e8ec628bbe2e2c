/* matmul_leakyrelu_fp8, alternative: the K sum from the last term down.
 *
 * alt_reverse: each cell (row < M, col < N) sums its products one rounding each from
 * k = K-1 down to 0 (K = BK*numKBlocks) with no FMA; the port adds a pairwise tree per
 * BK tile in increasing k.  Then leaky_relu and .to(float16) as in the kernel.
 * Admissible: one more association order of the binary32 sum; same cells, same cast.
 */
#include "alt_common.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GROUP, P_NKB };
enum { R_A, R_B, R_C };

static float leaky(float x) { return x >= 0.0f ? x : 0.01f * x; }

static int reverse(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .K = TL_I(L, P_BK) * TL_I(L, P_NKB), .sam = TL_I(L, P_SAM),
                  .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                  .scn = TL_I(L, P_SCN), .ra = R_A, .rb = R_B, .rc = R_C, .store = alt_f16(),
                  .method = ALT_DOT_REV, .epi = leaky};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_leakyrelu_fp8_cf) = {"matmul_leakyrelu_fp8.matmul_leakyrelu_fp8_closed_form_correct",
                                           "alt_reverse", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 13, 3,
                                           reverse, NULL};
TD_KERNEL(td_a_matmul_leakyrelu_fp8_io) = {"matmul_leakyrelu_fp8.matmul_leakyrelu_fp8_io_correctness", "alt_reverse",
                                           TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 13, 3, reverse, NULL};
