/* matmul_tma, alternative: the block product as FMA chains.
 *
 * alt_fma_chain: one program, c[i, j] = sum_{e < BLOCK_K} a[i, e] * b[e, j] over the
 * [BLOCK_M, BLOCK_N] block; here each cell is acc = fma(a, b, acc) over e (exact fp16
 * products, one rounding per step) where the port sums a pairwise tree; then the same
 * store (binary32, or .to(float16) when C is fp16).  Admissible: an association order
 * of the binary32 sum; same cells i*stride_cm + j*stride_cn, same cast.
 */
#include "alt_common.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK };
enum { R_A, R_B, R_C };

static int fma_chain(const td_abi_launch *L) {
    td_profile st = TL_FMT(L, R_C) == TD_F16 ? alt_f16() : tl_f32();
    alt_gemm g = {.M = TL_I(L, P_BM), .N = TL_I(L, P_BN), .K = TL_I(L, P_BK), .sam = TL_I(L, P_SAM),
                  .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                  .scn = TL_I(L, P_SCN), .ra = R_A, .rb = R_B, .rc = R_C, .store = st, .method = ALT_DOT_FMA_SEQ};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_tma_f32_cf) = {"matmul_tma.matmul_tma_f32_closed_form_correct", "alt_fma_chain", TD_ABI_HOST,
                                     NULL, NULL, NULL, 12, 3, fma_chain, NULL};
TD_KERNEL(td_a_matmul_tma_f16_cf) = {"matmul_tma.matmul_tma_f16_closed_form_correct", "alt_fma_chain", TD_ABI_HOST,
                                     "store=fp16:rne:inf", NULL, NULL, 12, 3, fma_chain, NULL};
TD_KERNEL(td_a_matmul_tma_f32_io) = {"matmul_tma.matmul_tma_f32_io_correctness", "alt_fma_chain", TD_ABI_HOST, NULL,
                                     NULL, NULL, 12, 3, fma_chain, NULL};
TD_KERNEL(td_a_matmul_tma_f16_io) = {"matmul_tma.matmul_tma_f16_io_correctnessR", "alt_fma_chain", TD_ABI_HOST,
                                     "store=fp16:rne:inf", NULL, NULL, 12, 3, fma_chain, NULL};
