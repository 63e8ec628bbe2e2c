/* sin_computation mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_IN, R_OUT };

/* sin(x) computed as cos(x - pi/2) with pi/2 rounded to binary32: the subtraction
 * rounds away the low bits of x and the constant is off by 4.4e-8, so the result is
 * wrong by many ulps near the zeros of sin and for large |x|. */
static int sin_via_shifted_cos(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    const float half_pi = 1.57079637f;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, cosf(tl_load(L, R_IN, off) - half_pi), tl_f32());
        }
    return 0;
}

/* block_start = pid: programs overlap instead of tiling.  The wrapper's one-program-
 * per-element grid hides it (every element is still written, by several programs);
 * an exact cdiv(n, BLOCK) grid leaves the elements past grid + BLOCK - 1 unwritten. */
static int sin_block_start_unscaled(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid + j;
            if (off < n) tl_store(L, R_OUT, off, sinf(tl_load(L, R_IN, off)), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_sin_computation_cos) = {"sin_computation.sin_kernel_correctness", "mut_sin_via_shifted_cos",
                                       TD_ABI_HOST, NULL, "libm", "sin(x) = cos(x - (float)(pi/2))", 2, 2,
                                       sin_via_shifted_cos, NULL};
TD_KERNEL(td_m_sin_computation_start) = {"sin_computation.sin_kernel_correctness", "mut_block_start_unscaled",
                                         TD_ABI_HOST, NULL, "libm", "block_start = pid (the * BLOCK_SIZE is missing)",
                                         2, 2, sin_block_start_unscaled, NULL};
