/* matrix_vector_multip, alternatives: GEMV as an FMA chain and as split-row partials.
 *
 * C[n] = sum_{m < M} A[n*stride_an + m*stride_am] * B[m*stride_bm] for n < N.  The port
 * keeps a [BLOCK_N, BLOCK_M] accumulator (lane j sums m = j, j+BLOCK_M, ... in order)
 * and reduces it with a pairwise tree.
 *   alt_fma_chain: acc = fma(a_m, b_m, acc) for m = 0 .. M-1: the cuBLAS-style GEMV
 *                  inner loop (one thread per row);
 *   alt_splitk:    the row cut into three slices, each an FMA chain, the partials added
 *                  last slice first (a split-row GEMV with a second reduction pass).
 * Admissible: both are association orders (with FMA) of the binary32 sum; the written
 * cells are n < N at n*stride_cn, as the masked store of the port.
 */
#include "alt_common.h"

enum { P_N, P_M, P_SAN, P_SAM, P_SBM, P_SCN, P_BN, P_BM };
enum { R_A, R_B, R_C };

static int gemv(const td_abi_launch *L, int method) {
    int64_t N = TL_I(L, P_N), M = TL_I(L, P_M);
    for (int64_t n = 0; n < N; n++) {
        alt_vec a = {R_A, n * TL_I(L, P_SAN), TL_I(L, P_SAM)}, b = {R_B, 0, TL_I(L, P_SBM)};
        tl_store(L, R_C, n * TL_I(L, P_SCN), alt_dot(L, &a, &b, M, 0.0f, method), tl_f32());
    }
    return 0;
}
static int fma_chain(const td_abi_launch *L) { return gemv(L, ALT_DOT_FMA_SEQ); }
static int splitk(const td_abi_launch *L) { return gemv(L, ALT_DOT_SPLITK); }

TD_KERNEL(td_a_mv_summary_fma) = {"matrix_vector_multip.mv_kernel_output_summary_general", "alt_fma_chain",
                                  TD_ABI_HOST, NULL, NULL, NULL, 8, 3, fma_chain, NULL};
TD_KERNEL(td_a_mv_io_fma) = {"matrix_vector_multip.mv_one_block_io_correctness", "alt_fma_chain", TD_ABI_HOST, NULL,
                             NULL, NULL, 8, 3, fma_chain, NULL};
TD_KERNEL(td_a_mv_summary_split) = {"matrix_vector_multip.mv_kernel_output_summary_general", "alt_splitk",
                                    TD_ABI_HOST, NULL, NULL, NULL, 8, 3, splitk, NULL};
TD_KERNEL(td_a_mv_io_split) = {"matrix_vector_multip.mv_one_block_io_correctness", "alt_splitk", TD_ABI_HOST, NULL,
                               NULL, NULL, 8, 3, splitk, NULL};
