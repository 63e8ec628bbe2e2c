/* matmul_leakyrelu, alternative: an FMA chain per cell and leaky_relu as a maximum.
 *
 * alt_fma_max: each cell (row < M, col < N) is one FMA chain over k < K = BK*numKBlocks
 * (the port: pairwise tree per BK tile, tiles added in order), and leaky_relu(x) is
 * written max(x, 0.01*x) instead of where(x >= 0, x, 0.01*x): for every finite x both
 * give the same binary32 value (x >= 0: x >= 0.01x; x < 0: 0.01x > x, and 0.01f*x is
 * the same rounded product in both).  Admissible: another association order of the
 * binary32 sum, with FMA; same cells and the same .to(float16) store.
 */
#include "alt_common.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GROUP, P_NKB };
enum { R_A, R_B, R_C };

static float leaky_max(float x) { return fmaxf(x, 0.01f * x); }

static int fma_max(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .K = TL_I(L, P_BK) * TL_I(L, P_NKB), .sam = TL_I(L, P_SAM),
                  .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                  .scn = TL_I(L, P_SCN), .ra = R_A, .rb = R_B, .rc = R_C, .store = alt_f16(),
                  .method = ALT_DOT_FMA_SEQ, .epi = leaky_max};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_leakyrelu_cf) = {"matmul_leakyrelu.matmul_leakyrelu_closed_form_correct", "alt_fma_max",
                                       TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 13, 3, fma_max, NULL};
TD_KERNEL(td_a_matmul_leakyrelu_io) = {"matmul_leakyrelu.matmul_leakyrelu_io_correctness", "alt_fma_max",
                                       TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 13, 3, fma_max, NULL};
