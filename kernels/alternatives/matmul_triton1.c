/* matmul_triton1, alternative: one binary32 FMA chain per output cell.
 *
 * alt_fma_chain: the 1-D grid's programs write the cells of rows < (grid / cdiv(NS, N)) * M
 * and columns < NS (Z row stride NS, X row stride K = BLOCK_K * numKBlocks, Y rows NS
 * apart); each cell here is acc = fma(x_k, y_k, acc) over k < K, the binary32 inputs
 * multiplied inside the FMA (one rounding per step), where the port rounds every product
 * and sums each BK tile by a pairwise tree.  Admissible: an FMA-contracted association
 * order of the contract's binary32 dot product (tl.dot with allow_tf32=False: no operand
 * rounding), same cells.
 */
#include "alt_common.h"

enum { P_NS, P_M, P_BK, P_N, P_NKB };
enum { R_X, R_Y, R_Z };

static int fma_chain(const td_abi_launch *L) {
    int64_t NS = TL_I(L, P_NS), M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_BK) * TL_I(L, P_NKB);
    int64_t nnb = (NS + N - 1) / N, rows = (int64_t)L->grid[0] / nnb * M;
    alt_gemm g = {.M = rows, .N = NS, .K = K, .sam = K, .sak = 1, .sbk = NS, .sbn = 1, .scm = NS, .scn = 1,
                  .ra = R_X, .rb = R_Y, .rc = R_Z, .store = tl_f32(), .method = ALT_DOT_FMA_SEQ};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_triton1_cf) = {"matmul_triton1.matmul_triton1_closed_form_correct", "alt_fma_chain", TD_ABI_HOST,
                                     NULL, NULL, NULL, 5, 3, fma_chain, NULL};
TD_KERNEL(td_a_matmul_triton1_io) = {"matmul_triton1.matmul_triton1_io_correctness", "alt_fma_chain", TD_ABI_HOST,
                                     NULL, NULL, NULL, 5, 3, fma_chain, NULL};
