/* matrix_reduction: load_reduce_kernel, one program: the [BLOCK_M, BLOCK_N] tile through a
 * block pointer (strides (stride_xm, stride_xn), no boundary check), tl.max(x, axis=1)
 * stored to y + arange(BLOCK_M) (stride_y unused, as in the source). */
#include "tl.h"

enum { P_SXM, P_SXN, P_SY, P_BM, P_BN };
enum { R_X, R_Y };

static int load_reduce_kernel(const td_abi_launch *L) {
    int64_t sxm = TL_I(L, P_SXM), sxn = TL_I(L, P_SXN), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *x;
    TL_ALLOC(L, x, BM * BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) x[i * BN + j] = tl_load(L, R_X, i * sxm + j * sxn);
        for (int64_t i = 0; i < BM; i++) tl_store(L, R_Y, i, tl_max(x + i * BN, BN), tl_f32());
    }
    free(x);
    return 0;
}

TD_KERNEL(td_k_matrix_reduce_summary) = {"matrix_reduction.load_reduce_kernel_output_summary", "triton", TD_ABI_HOST,
                                         NULL, NULL, NULL, 5, 2, load_reduce_kernel, NULL};
TD_KERNEL(td_k_matrix_reduce_io) = {"matrix_reduction.matrix_reduction_io_correctness", "triton", TD_ABI_HOST, NULL,
                                    NULL, NULL, 5, 2, load_reduce_kernel, NULL};
