/* iv_dependent_matmul, alternative: blocks of 8 products summed by a tree, blocks
 * accumulated from the last down to the first, one output cell at a time.
 *
 * alt_block8: the port walks row-major programs of [BM, BN] tiles and adds a pairwise
 * tree over each BK step in increasing k.  Here each cell (row < M, col < N) takes the
 * fp16 products in blocks of 8 (another tile size than BK, which the generator varies
 * from 4 up), sums each block by a pairwise tree and accumulates the block sums from
 * the highest k down, then stores .to(float16) like the port.  Admissible: an
 * association order of the same binary32 sum over k < K = BK * numKBlocks; same cells
 * (row < M & col < N at SCM*row + SCN*col), same fp16 cast.
 */
#include "alt_common.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static int block8(const td_abi_launch *L) {
    alt_gemm g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .K = TL_I(L, P_BK) * TL_I(L, P_NKB), .sam = TL_I(L, P_SAM),
                  .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                  .scn = TL_I(L, P_SCN), .ra = R_A, .rb = R_B, .rc = R_C, .store = alt_f16(),
                  .method = ALT_DOT_BLOCK8};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_iv_dependent_matmul_cf) = {"iv_dependent_matmul.iv_dependent_matmul_closed_form_correct",
                                          "alt_block8", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 12, 3,
                                          block8, NULL};
TD_KERNEL(td_a_iv_dependent_matmul_io) = {"iv_dependent_matmul.iv_dependent_matmul_io_correctness", "alt_block8",
                                          TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 12, 3, block8, NULL};
