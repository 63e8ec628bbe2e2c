/* matrix_reduction mutants. */
#include "../host/tl.h"

enum { P_SXM, P_SXN, P_SY, P_BM, P_BN };
enum { R_X, R_Y };

/* bug 1: the column stride ignored (rows assumed contiguous: x[i*stride_xm + j]);
 * bug 2: the block pointer built with strides=(stride_xn, stride_xm) */
static int reduce_bug(const td_abi_launch *L, int bug) {
    int64_t sxm = TL_I(L, P_SXM), sxn = TL_I(L, P_SXN), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *x;
    TL_ALLOC(L, x, BN);
    for (int64_t i = 0; i < BM; i++) {
        /* a row read past x (swapped strides on a far tile: j * stride_xm near 2^31 per
         * column) faults as on a device instead of reading outside the region */
        if (bug == 1 ? tl_fault(L, R_X, i * sxm, BN, 1, 0) : tl_fault(L, R_X, i * sxn, BN, sxm, 0)) {
            free(x);
            return 1;
        }
        for (int64_t j = 0; j < BN; j++)
            x[j] = tl_load(L, R_X, bug == 1 ? i * sxm + j : i * sxn + j * sxm);
        tl_store(L, R_Y, i, tl_max(x, BN), tl_f32());
    }
    free(x);
    return 0;
}
static int reduce_contiguous(const td_abi_launch *L) { return reduce_bug(L, 1); }
static int reduce_swapped(const td_abi_launch *L) { return reduce_bug(L, 2); }

TD_KERNEL(td_m_matrix_reduce_contig) = {"matrix_reduction.load_reduce_kernel_output_summary", "mut_stride_xn_ignored",
                                        TD_ABI_HOST, NULL, NULL, "x read as x[i*stride_xm + j]: stride_xn ignored", 5,
                                        2, reduce_contiguous, NULL};
TD_KERNEL(td_m_matrix_reduce_swapped) = {"matrix_reduction.matrix_reduction_io_correctness", "mut_strides_swapped",
                                         TD_ABI_HOST, NULL, NULL, "make_block_ptr(strides=(stride_xn, stride_xm))", 5,
                                         2, reduce_swapped, NULL};
