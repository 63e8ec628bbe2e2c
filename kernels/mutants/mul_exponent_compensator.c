/* mul_exponent_compensator mutants. */
#include "../host/tl.h"

enum { P_BLOCK };
enum { R_SRC, R_DST };

static int mul_tiles(const td_abi_launch *L, uint32_t programs, float compensator) {
    int64_t B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < programs; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t idx = (int64_t)pid * B + j;
            tl_store(L, R_DST, idx, tl_load(L, R_SRC, idx) * compensator, tl_f32());
        }
    return 0;
}

/* The bias taken as 16 instead of fp16's 15: 2^(127 - 16), every output halved. */
static int mec_exponent_off_by_one(const td_abi_launch *L) { return mul_tiles(L, L->grid[0], 0x1p111f); }

/* The last program returns early (a grid loop bound off by one): its tile is never written. */
static int mec_last_program_skipped(const td_abi_launch *L) {
    return mul_tiles(L, L->grid[0] ? L->grid[0] - 1 : 0, 0x1p112f);
}

/* idxs = pid * BLOCK_SIZE + arange formed in int32, as Triton types a program id: past
 * 2^31 elements a program's offset wraps negative and, with no mask, its load of src is
 * an illegal address (tl_fault).  Only the large tier (`--large`) reaches it: ordinary
 * launches have grid * BLOCK_SIZE <= 2^14 elements. */
static int mec_offset_int32(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK);
    /* a launch's programs run together: one wrapped address fails the launch (checked first) */
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        if (tl_fault(L, R_SRC, tl_i32((int64_t)pid * B), B, 1, pid)) return 1;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * B);
        for (int64_t j = 0; j < B; j++) {
            int64_t idx = tl_i32(base + j);
            tl_store(L, R_DST, idx, tl_load(L, R_SRC, idx) * 0x1p112f, tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_m_mec_exponent) = {"mul_exponent_compensator.mul_kernel_correctness", "mut_exponent_off_by_one",
                                TD_ABI_HOST, NULL, NULL, "the compensator is 2^(127-16), not 2^(127-15)", 1, 2,
                                mec_exponent_off_by_one, NULL};
TD_KERNEL(td_m_mec_last_program) = {"mul_exponent_compensator.mul_kernel_correctness", "mut_last_program_skipped",
                                    TD_ABI_HOST, NULL, NULL, "the last program's tile is never written", 1, 2,
                                    mec_last_program_skipped, NULL};
TD_KERNEL(td_m_mec_i32) = {"mul_exponent_compensator.mul_kernel_correctness", "mut_large_offset_int32", TD_ABI_HOST,
                           NULL, NULL, "pid * BLOCK_SIZE + arange formed in int32 (wraps beyond 2^31 elements)", 1, 2,
                           mec_offset_int32, NULL};
