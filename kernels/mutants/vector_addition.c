/* vector_addition mutants: realistic bugs the checker must flag. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

/* block_start = pid instead of pid * BLOCK_SIZE: programs overlap by BLOCK - 1 lanes
 * and the elements past grid + BLOCK - 1 are never written. */
static int add_block_start_unscaled(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid + j;
            if (off < n) tl_store(L, R_OUT, off, tl_load(L, R_X, off) + tl_load(L, R_Y, off), tl_f32());
        }
    return 0;
}

/* Copy-paste slip: y is loaded through x_ptr, so the kernel computes x + x. */
static int add_operand_duplicated(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, tl_load(L, R_X, off) + tl_load(L, R_X, off), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_vector_addition_start) = {"vector_addition.add_kernel_correctness", "mut_block_start_unscaled",
                                         TD_ABI_HOST, NULL, NULL,
                                         "block_start = pid (the * BLOCK_SIZE is missing)", 2, 3,
                                         add_block_start_unscaled, NULL};
TD_KERNEL(td_m_vector_addition_xx) = {"vector_addition.add_kernel_correctness", "mut_operand_duplicated", TD_ABI_HOST,
                                      NULL, NULL, "y loaded from x_ptr: output = x + x", 2, 3, add_operand_duplicated, NULL};
