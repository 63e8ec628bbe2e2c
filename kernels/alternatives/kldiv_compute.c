/* Alternative for kldiv_compute.kldivergence_kernel_correctness (out = x * log(x / y)).
 *
 *   alt_lg2       x * log(x / y) with log(v) = log2(v) * ln 2 in binary32 (the lg2-based
 *                 log of fast-math code, with the host's accurate log2f), the programs
 *                 walked from the last to the first.  Admissible: log through log2 (two
 *                 documented roundings, log2f and the multiply by ln 2); program order.
 *                 Not x * (1/y): for |y| < 2^-128 the reciprocal overflows and the kernel
 *                 would store inf where x/y is finite (a real bug of reciprocal-multiply
 *                 on subnormal divisors, which an earlier version of this file had).
 * Parameters: n_elements, BLOCK_SIZE.  Regions: x_ptr, y_ptr, output_ptr. */
#include "alt_a_kl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

static int kl_lg2(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    /* element order: program by program in reverse, as a grid may run */
    for (int64_t pid = (int64_t)L->grid[0] - 1; pid >= 0; pid--)
        for (int64_t j = 0; j < B && pid * B + j < n; j++) {
            int64_t off = pid * B + j;
            float x = tl_load(L, R_X, off), y = tl_load(L, R_Y, off);
            tl_store(L, R_OUT, off, x * aa_log_lg2(x / y), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_kldiv_compute_lg2) = {"kldiv_compute.kldivergence_kernel_correctness", "alt_lg2", TD_ABI_HOST,
                                     NULL, NULL, NULL, 2, 3, kl_lg2, NULL};
