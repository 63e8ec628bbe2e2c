/* vector_addition_custom mutants. */
#include "../host/tl.h"

enum { P_SIZE, P_BLOCK };
enum { R_A, R_B, R_C };

/* The store's mask is offs <= size: the lane just past the end is written. */
static int add_mask_off_by_one(const td_abi_launch *L) {
    int64_t size = TL_I(L, P_SIZE), B = TL_I(L, P_BLOCK);
    int64_t len = (int64_t)TL_LEN(L, R_C);
    for (uint32_t prog_id = 0; prog_id < L->grid[0]; prog_id++)
        for (int64_t j = 0; j < B; j++) {
            int64_t offs = (int64_t)prog_id * B + j;
            if (!(offs <= size) || offs >= len) continue; /* (stays inside the allocation) */
            float a = offs < size ? tl_load(L, R_A, offs) : 0.0f, b = offs < size ? tl_load(L, R_B, offs) : 0.0f;
            tl_store(L, R_C, offs, a + b, tl_f32());
        }
    return 0;
}

/* The grid is size / BLOCK (floor): the tail program never runs. */
static int add_tail_program_skipped(const td_abi_launch *L) {
    int64_t size = TL_I(L, P_SIZE), B = TL_I(L, P_BLOCK);
    int64_t programs = size / B;
    for (int64_t prog_id = 0; prog_id < programs && prog_id < (int64_t)L->grid[0]; prog_id++)
        for (int64_t j = 0; j < B; j++) {
            int64_t offs = prog_id * B + j;
            if (offs < size) tl_store(L, R_C, offs, tl_load(L, R_A, offs) + tl_load(L, R_B, offs), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_vector_addition_custom_mask) = {"vector_addition_custom.add_kernel_correctness", "mut_mask_off_by_one",
                                               TD_ABI_HOST, NULL, NULL,
                                               "store mask offs <= size: the lane past the end is written", 2, 3,
                                               add_mask_off_by_one, NULL};
TD_KERNEL(td_m_vector_addition_custom_tail) = {"vector_addition_custom.add_kernel_correctness",
                                               "mut_tail_program_skipped", TD_ABI_HOST, NULL, NULL,
                                               "grid = size / BLOCK: the partial last block is never computed", 2,
                                               3, add_tail_program_skipped, NULL};
