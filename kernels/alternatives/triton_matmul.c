/* triton_matmul, alternative: one FMA chain per cell before the fp16 / e4m3 store.
 *
 * alt_fma_chain: each cell (row < M, col < N) of C is one FMA chain
 * acc = fma(a_k, b_k, acc) over k < K (K masked by the loop bound BLOCK_K*numKBlocks as
 * in the kernel), then the same narrowing store as the port (.to(float16), or
 * .to(float8e4nv) round-to-nearest-even saturating).  The port instead sums each BK tile
 * by a pairwise tree and adds the tiles in order.  Admissible: every association order
 * of the binary32 sum is a binary32 evaluation of the contract's real sum; the store
 * cast is the contract's cast slot unchanged.  This is the issue-12 case "one FMA chain
 * over all terms before an fp16 store": where the real value lies near a rounding
 * boundary of fp16 the two kernels may store neighbouring fp16 values, and both are correct.
 */
#include "alt_common.h"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB };
enum { R_A, R_B, R_C };

static td_profile store_of(const td_abi_launch *L) {
    if (TL_FMT(L, R_C) == TD_E4M3FN) return (td_profile){TD_E4M3FN, TD_RNE, TD_OVF_SAT, false};
    return alt_f16();
}
static int64_t kmin(int64_t K, int64_t BK, int64_t T) { return K < BK * T ? K : BK * T; }

static int chain_cf(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, PC_M), .N = TL_I(L, PC_N), .K = kmin(TL_I(L, PC_K), TL_I(L, PC_BK), TL_I(L, PC_NKB)),
                  .sam = TL_I(L, PC_SAM), .sak = TL_I(L, PC_SAK), .sbk = TL_I(L, PC_SBK), .sbn = TL_I(L, PC_SBN),
                  .scm = TL_I(L, PC_SCM), .scn = TL_I(L, PC_SCN), .ra = R_A, .rb = R_B, .rc = R_C,
                  .store = store_of(L), .method = ALT_DOT_FMA_SEQ};
    return alt_gemm_run(L, &g);
}
static int chain_io(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, PI_M), .N = TL_I(L, PI_N), .K = kmin(TL_I(L, PI_K), TL_I(L, PI_BK), TL_I(L, PI_NKB)),
                  .sam = TL_I(L, PI_SAM), .sak = TL_I(L, PI_SAK), .sbk = TL_I(L, PI_SBK), .sbn = TL_I(L, PI_SBN),
                  .scm = TL_I(L, PI_SCM), .scn = TL_I(L, PI_SCN), .ra = R_A, .rb = R_B, .rc = R_C,
                  .store = store_of(L), .method = ALT_DOT_FMA_SEQ};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_triton_matmul_f16_cf) = {"triton_matmul.triton_matmul_f16_closed_form_correct", "alt_fma_chain",
                                        TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 14, 3, chain_cf, NULL};
TD_KERNEL(td_a_triton_matmul_f8_cf) = {"triton_matmul.triton_matmul_f8_closed_form_correct", "alt_fma_chain",
                                       TD_ABI_HOST, "store=e4m3fn:rne:sat", NULL, NULL, 14, 3, chain_cf, NULL};
TD_KERNEL(td_a_triton_matmul_f16_io) = {"triton_matmul.triton_matmul_f16_io_correctness", "alt_fma_chain",
                                        TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 14, 3, chain_io, NULL};
TD_KERNEL(td_a_triton_matmul_f8_io) = {"triton_matmul.triton_matmul_f8_io_correctness", "alt_fma_chain", TD_ABI_HOST,
                                       "store=e4m3fn:rne:sat", NULL, NULL, 14, 3, chain_io, NULL};
