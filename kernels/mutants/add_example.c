/* add_example mutants: realistic bugs the checker must flag. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

/* The mask compares with <= instead of <: the lane at offset n is written. */
static int add_mask_off_by_one(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (!(off <= n)) continue;
            tl_store(L, R_OUT, off, tl_load(L, R_X, off) + tl_load(L, R_Y, off), tl_f32());
        }
    return 0;
}

/* The last program is never launched: grid = n / BLOCK instead of cdiv(n, BLOCK). */
static int add_last_program_skipped(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    uint32_t programs = (uint32_t)(n / B);
    for (uint32_t pid = 0; pid < programs && pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, tl_load(L, R_X, off) + tl_load(L, R_Y, off), tl_f32());
        }
    return 0;
}

/* offsets = pid * BLOCK_SIZE + arange formed in int32, as Triton types a program id:
 * past 2^31 elements the offset wraps negative, the mask (offset < n_elements) still
 * holds, and the access is an illegal address (tl_fault).  Only the large tier
 * (`--large`, contracts/gen_large.h) reaches it: ordinary cases have n <= 2^14. */
static int add_offset_int32(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * B), active = n - base < B ? n - base : B;
        if (active > 0 && tl_fault(L, R_OUT, base, active, 1, pid)) return 1;
        for (int64_t j = 0; j < B; j++) {
            int64_t off = tl_i32(base + j);
            if (off < n) tl_store(L, R_OUT, off, tl_load(L, R_X, off) + tl_load(L, R_Y, off), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_m_add_example_mask) = {"add_example.add_kernel_correctness", "mut_mask_off_by_one", TD_ABI_HOST, NULL,
                                    NULL, "mask uses <= n_elements: the lane past the end is written", 2, 3,
                                    add_mask_off_by_one, NULL};
TD_KERNEL(td_m_add_example_grid) = {"add_example.add_kernel_correctness", "mut_last_program_skipped", TD_ABI_HOST,
                                    NULL, NULL, "grid = n / BLOCK: the tail program never runs", 2, 3,
                                    add_last_program_skipped, NULL};
TD_KERNEL(td_m_add_example_i32) = {"add_example.add_kernel_correctness", "mut_large_offset_int32", TD_ABI_HOST, NULL,
                                   NULL, "pid * BLOCK_SIZE + j formed in int32 (wraps beyond 2^31 elements)", 2, 3,
                                   add_offset_int32, NULL};
