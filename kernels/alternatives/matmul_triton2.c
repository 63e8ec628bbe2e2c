/* matmul_triton2, alternative: split-K over every output cell.
 *
 * alt_splitk: instead of the port's grouped [BM, BN] tiles with a pairwise tree per BK
 * step and the steps added in order, each cell (row < M, col < N) of C is computed on
 * its own (row-major over C), K = BK * numKBlocks cut into three slices, each slice an
 * FMA chain over its fp16 products, the slice partials added last slice first: what a
 * split-K GEMM with a workspace reduction does.  Admissible: the contract's C is the
 * real sum over k < K of the (exact) fp16 products accumulated in binary32, and any
 * association order with or without FMA is a binary32 evaluation of it; the written
 * cells (row < M & col < N at row*SCM + col*SCN) are the contract's write set.
 */
#include "alt_common.h"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static int splitk(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .K = TL_I(L, P_BK) * TL_I(L, P_NKB), .sam = TL_I(L, P_SAM),
                  .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                  .scn = TL_I(L, P_SCN), .ra = R_A, .rb = R_B, .rc = R_C, .store = tl_f32(),
                  .method = ALT_DOT_SPLITK};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_triton2_summary) = {"matmul_triton2.matmul_triton2_output_summary_general", "alt_splitk",
                                          TD_ABI_HOST, NULL, NULL, NULL, 13, 3, splitk, NULL};
TD_KERNEL(td_a_matmul_triton2_io) = {"matmul_triton2.matmul_triton2_io_correctness", "alt_splitk", TD_ABI_HOST, NULL,
                                     NULL, NULL, 13, 3, splitk, NULL};
