/* softmax_triton3: the row softmax with an optional additive mask added after the
 * max subtraction; input, output and mask share row_stride.
 * Parameters: row_stride, n_cols, BLOCK_SIZE.  Regions: output_ptr, input_ptr, mask_ptr. */
#include "softmax_tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN, R_MASK };

static int softmax_kernel(const td_abi_launch *L, int use_mask) {
    int64_t rs = TL_I(L, P_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row, *mask;
    TL_ALLOC(L, row, B);
    mask = calloc((size_t)B, sizeof *mask);
    if (!mask) {
        free(row);
        snprintf(L->err, L->errlen, "out of memory for a tile of %lld lanes", (long long)B);
        return 1;
    }
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * rs, 1, n, B, -INFINITY, row);
        float m = tl_max(row, B);
        for (int64_t j = 0; j < B; j++) row[j] = row[j] - m;
        if (use_mask) {
            sm_load_tile(L, R_MASK, (int64_t)pid * rs, 1, n, B, 0.0f, mask);
            for (int64_t j = 0; j < B; j++) row[j] = row[j] + mask[j];
        }
        for (int64_t j = 0; j < B; j++) row[j] = expf(row[j]);
        float s = tl_sum(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * rs + j, row[j] / s, tl_f32());
    }
    free(row);
    free(mask);
    return 0;
}

static int softmax_nomask(const td_abi_launch *L) { return softmax_kernel(L, 0); }
static int softmax_masked(const td_abi_launch *L) { return softmax_kernel(L, 1); }

TD_KERNEL(td_k_softmax_triton3) = {"softmax_triton3.softmax_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                   NULL, 3, 3, softmax_nomask, NULL};
TD_KERNEL(td_k_softmax_triton3_masked) = {"softmax_triton3.softmax_kernel_masked_correctness", "triton", TD_ABI_HOST,
                                          NULL, NULL, NULL, 3, 3, softmax_masked, NULL};
