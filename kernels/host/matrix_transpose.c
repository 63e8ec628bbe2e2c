/* matrix_transpose: `kernel`, one program: load the SIZE_M x D_HEAD tile, store its
 * transpose.  Parameters: matrix_stridex, matrix_stridey, out_stridex, out_stridey,
 * SIZE_M, D_HEAD.  Regions: M, Out (float16). */
#include "tl.h"

enum { P_MSX, P_MSY, P_OSX, P_OSY, P_SIZE_M, P_D_HEAD };
enum { R_M, R_OUT };

static int transpose_kernel(const td_abi_launch *L) {
    int64_t msx = TL_I(L, P_MSX), msy = TL_I(L, P_MSY), osx = TL_I(L, P_OSX), osy = TL_I(L, P_OSY);
    int64_t SM = TL_I(L, P_SIZE_M), DH = TL_I(L, P_D_HEAD);
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false}; /* the store into Out's dtype */
    float *matrix;
    TL_ALLOC(L, matrix, SM * DH);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t m = 0; m < SM; m++) /* matrix = tl.load(M + m[:, None] * stridex + d[None, :] * stridey) */
            for (int64_t d = 0; d < DH; d++) matrix[m * DH + d] = tl_load(L, R_M, m * msx + d * msy);
        for (int64_t d = 0; d < DH; d++) /* tl.store(Out + d[:, None] * out_stridex + m[None, :] * out_stridey, trans) */
            for (int64_t m = 0; m < SM; m++) tl_store(L, R_OUT, d * osx + m * osy, matrix[m * DH + d], st);
    }
    free(matrix);
    return 0;
}

TD_KERNEL(td_k_matrix_transpose) = {"matrix_transpose.kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 6, 2,
                                    transpose_kernel, NULL};
