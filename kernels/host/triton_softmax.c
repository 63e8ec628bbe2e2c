/* triton_softmax: softmax_kernel of bench/tritonbench_g/triton_softmax, one program per
 * row: masked load (other = -inf), tl.max, tl.exp(row - max), tl.sum, division, masked
 * store.  Parameters: input_row_stride, output_row_stride, n_cols, BLOCK_SIZE.
 * Regions: output_ptr, input_ptr. */
#include "softmax_tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

static int softmax_kernel(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, -INFINITY, row);
        sm_tile_softmax(row, B); /* max, exp(row - max), tree sum, numerator / denominator */
        for (int64_t j = 0; j < B; j++)
            if (j < n) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j], tl_f32());
    }
    free(row);
    return 0;
}

TD_KERNEL(td_k_triton_softmax) = {"triton_softmax.softmax_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                  NULL, 4, 2, softmax_kernel, NULL};
