/* vector_addition_custom: `_add_kernel`, program by program.
 * Parameters (contract order): size, BLOCK.  Regions: A, B, C. */
#include "tl.h"

enum { P_SIZE, P_BLOCK };
enum { R_A, R_B, R_C };

static int add_kernel(const td_abi_launch *L) {
    int64_t size = TL_I(L, P_SIZE), B = TL_I(L, P_BLOCK);
    for (uint32_t prog_id = 0; prog_id < L->grid[0]; prog_id++)
        for (int64_t j = 0; j < B; j++) {
            int64_t offs = (int64_t)prog_id * B + j;
            if (!(offs < size)) continue; /* mask = offs < size, on both loads and the store */
            tl_store(L, R_C, offs, tl_load(L, R_A, offs) + tl_load(L, R_B, offs), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_vector_addition_custom) = {"vector_addition_custom.add_kernel_correctness", "triton", TD_ABI_HOST, NULL,
                                          NULL, NULL, 2, 3, add_kernel, NULL};
