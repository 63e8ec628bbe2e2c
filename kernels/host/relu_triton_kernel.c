/* relu_triton_kernel: relu_kernel, program by program; only program 0 stores.
 * Parameters (contract order): N, block_size.  Regions: x_ptr, out_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

static int relu_kernel(const td_abi_launch *L) {
    int64_t N = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float *result;
    TL_ALLOC(L, result, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t block_start = (int64_t)pid * B;
        for (int64_t j = 0; j < B; j++) {
            int64_t off = block_start + j;
            float x = off < N ? tl_load(L, R_X, off) : 0.0f; /* masked load */
            result[j] = x >= 0 ? x : 0.0f;                   /* tl.where(x >= 0, x, 0.0) */
        }
        if (pid == 0) /* if pid == 0: tl.store(out_ptr + offsets, result, mask=mask) */
            for (int64_t j = 0; j < B; j++)
                if (block_start + j < N) tl_store(L, R_OUT, block_start + j, result[j], tl_f32());
    }
    free(result);
    return 0;
}

TD_KERNEL(td_k_relu_triton_kernel) = {"relu_triton_kernel.relu_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                      NULL, 2, 2, relu_kernel, NULL};
