/* matmul_kernel, alternative: split-K per cell before the fp16 store.
 *
 * alt_splitk: the fixed-layout kernel (4096 x 4096 row-major A, B, C) writes the cells
 * of rows < grid[0]*BM and columns < grid[1]*BN; each cell here sums its K = BK*T fp16
 * products in three FMA-chain slices added last slice first, then .to(float16).  The
 * port adds a pairwise tree per BK tile to the accumulator in order.  Admissible: an
 * association order of the binary32 sum (exact fp16 products), same cells, same cast.
 */
#include "alt_common.h"

enum { P_BM, P_BN, P_BK, P_T };
enum { R_C, R_A, R_B };
#define LD 4096

static int splitk(const td_abi_launch *L) {
    alt_gemm g = {.M = (int64_t)L->grid[0] * TL_I(L, P_BM), .N = (int64_t)L->grid[1] * TL_I(L, P_BN),
                  .K = TL_I(L, P_BK) * TL_I(L, P_T), .sam = LD, .sak = 1, .sbk = LD, .sbn = 1, .scm = LD, .scn = 1,
                  .ra = R_A, .rb = R_B, .rc = R_C, .store = alt_f16(), .method = ALT_DOT_SPLITK};
    return alt_gemm_run(L, &g);
}

TD_KERNEL(td_a_matmul_kernel_cf) = {"matmul_kernel.matmul_kernel_closed_form_correct", "alt_splitk", TD_ABI_HOST,
                                    "store=fp16:rne:inf", NULL, NULL, 4, 3, splitk, NULL};
TD_KERNEL(td_a_matmul_kernel_io) = {"matmul_kernel.matmul_kernel_io_correctness", "alt_splitk", TD_ABI_HOST,
                                    "store=fp16:rne:inf", NULL, NULL, 4, 3, splitk, NULL};
