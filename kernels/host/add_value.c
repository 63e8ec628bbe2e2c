/* add_value (Triton puzzle 1): out = x + value, masked, binary32.
 * Parameters: N, BLOCK_SIZE, value.  Regions: x_ptr, output_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK, P_VALUE };
enum { R_X, R_OUT };

static int puzzle1_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float value = TL_R(L, P_VALUE);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, tl_load(L, R_X, off) + value, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_add_value) = {"add_value.puzzle1_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 3, 2,
                             puzzle1_kernel, NULL};
TD_KERNEL(td_k_add_value_io) = {"add_value.puzzle1_kernel_io_correctness", "triton", TD_ABI_HOST, "store=fp32:rne:inf",
                                NULL, NULL, 3, 2, puzzle1_kernel, NULL};
