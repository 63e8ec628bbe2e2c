/* sin_computation: sin_kernel, output = tl.sin(x), masked, binary32 (the C library's sinf).
 * Parameters: n_elements, BLOCK_SIZE.  Regions: in_ptr0, out_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_IN, R_OUT };

static int sin_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t block_start = (int64_t)pid * B;
        for (int64_t j = 0; j < B; j++) {
            int64_t off = block_start + j;
            if (off < n) tl_store(L, R_OUT, off, sinf(tl_load(L, R_IN, off)), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_k_sin_computation) = {"sin_computation.sin_kernel_correctness", "triton", TD_ABI_HOST, NULL, "libm", NULL,
                                   2, 2, sin_kernel, NULL};
