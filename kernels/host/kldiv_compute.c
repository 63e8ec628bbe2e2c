/* kldiv_compute: output = x * tl.log(x / y), masked, binary32 (the C library's logf).
 * Parameters: n_elements, BLOCK_SIZE.  Regions: x_ptr, y_ptr, output_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

static int kldivergence_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (!(off < n)) continue;
            float x = tl_load(L, R_X, off), y = tl_load(L, R_Y, off);
            tl_store(L, R_OUT, off, x * logf(x / y), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_kldiv_compute) = {"kldiv_compute.kldivergence_kernel_correctness", "triton", TD_ABI_HOST, NULL, "libm",
                                 NULL, 2, 3, kldivergence_kernel, NULL};
