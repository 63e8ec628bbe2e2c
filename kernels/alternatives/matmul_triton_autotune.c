/* matmul_triton_autotune, alternative: split-K per output cell.
 *
 * alt_splitk: each cell (row < M, col < N) computes its sum over k < K (bounded by the
 * loop's BLOCK_K*numKBlocks) in three slices, each an FMA chain, the slice partials added
 * last first (a split-K reduction); the port sums a pairwise tree per BK tile and adds
 * the tiles in order.  leaky_relu when ACTIVATION, .to(float16), as the kernel.
 * Admissible: another association order of the contract's binary32 sum; same cells
 * and the same cast.
 */
#include "alt_common.h"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K, PC_ACT };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB, PI_ACT };
enum { R_A, R_B, R_C };

static float leaky(float x) { return x >= 0.0f ? x : 0.01f * x; }
static int64_t kmin(int64_t K, int64_t BK, int64_t T) { return K < BK * T ? K : BK * T; }

static int splitk_cf(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, PC_M), .N = TL_I(L, PC_N), .K = kmin(TL_I(L, PC_K), TL_I(L, PC_BK), TL_I(L, PC_NKB)),
                  .sam = TL_I(L, PC_SAM), .sak = TL_I(L, PC_SAK), .sbk = TL_I(L, PC_SBK), .sbn = TL_I(L, PC_SBN),
                  .scm = TL_I(L, PC_SCM), .scn = TL_I(L, PC_SCN), .ra = R_A, .rb = R_B, .rc = R_C,
                  .store = alt_f16(), .method = ALT_DOT_SPLITK, .epi = TL_I(L, PC_ACT) ? leaky : NULL};
    return alt_gemm_run(L, &g);
}
static int splitk_io(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, PI_M), .N = TL_I(L, PI_N), .K = kmin(TL_I(L, PI_K), TL_I(L, PI_BK), TL_I(L, PI_NKB)),
                  .sam = TL_I(L, PI_SAM), .sak = TL_I(L, PI_SAK), .sbk = TL_I(L, PI_SBK), .sbn = TL_I(L, PI_SBN),
                  .scm = TL_I(L, PI_SCM), .scn = TL_I(L, PI_SCN), .ra = R_A, .rb = R_B, .rc = R_C,
                  .store = alt_f16(), .method = ALT_DOT_SPLITK, .epi = TL_I(L, PI_ACT) ? leaky : NULL};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_autotune_cf) = {"matmul_triton_autotune.matmul_autotune_closed_form_correct", "alt_splitk",
                                      TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 15, 3, splitk_cf, NULL};
TD_KERNEL(td_a_matmul_autotune_io) = {"matmul_triton_autotune.matmul_autotune_io_correctness", "alt_splitk",
                                      TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 15, 3, splitk_io, NULL};
