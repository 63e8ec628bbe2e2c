/* vector_addition: the Triton tutorial's add_kernel, program by program.
 * Parameters (contract order): n_elements, BLOCK_SIZE.  Regions: x_ptr, y_ptr, output_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

static int add_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t block_start = (int64_t)pid * B;
        for (int64_t j = 0; j < B; j++) {
            int64_t off = block_start + j; /* offsets = block_start + arange(0, BLOCK_SIZE) */
            if (!(off < n)) continue;      /* mask = offsets < n_elements */
            float x = tl_load(L, R_X, off), y = tl_load(L, R_Y, off);
            tl_store(L, R_OUT, off, x + y, tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_k_vector_addition) = {"vector_addition.add_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                   2, 3, add_kernel, NULL};
