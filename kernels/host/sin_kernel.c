/* sin_kernel: output = tl.math.sin(x), masked, binary32 (the C library's sinf).
 * Parameters: n_elements, BLOCK_SIZE.  Regions: x_ptr, output_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

static int kernel_function(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, sinf(tl_load(L, R_X, off)), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_sin_kernel) = {"sin_kernel.kernel_function_correctness", "triton", TD_ABI_HOST, NULL, "libm", NULL, 2, 2,
                              kernel_function, NULL};
