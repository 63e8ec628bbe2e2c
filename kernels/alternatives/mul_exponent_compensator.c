/* mul_exponent_compensator, alternatives: the scaling by 2^112 written the other ways a
 * kernel author may write it (the port multiplies by the constexpr 2.0 ** (127 - 15)).
 *
 * alt_ldexp: ldexpf(x, 112), the exponent field moved (what a kernel using
 *   tl.math.ldexp / frexp-style exponent arithmetic computes);
 * alt_div:   x / 2^-112, one correctly rounded division by the reciprocal power of two.
 * Both are exact on the contract's domain (|x| < 2^16 finite: the product is a normal
 * binary32 number, contracts/mul_exponent_compensator.c), as the port is.  Admissible.
 */
#include <math.h>

#include "alt_common.h"

enum { P_BLOCK };
enum { R_SRC, R_DST };

static int scale(const td_abi_launch *L, int by_division) {
    int64_t B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t idx = (int64_t)pid * B + j;
            float x = tl_load(L, R_SRC, idx);
            tl_store(L, R_DST, idx, by_division ? x / 0x1p-112f : ldexpf(x, 112), tl_f32());
        }
    return 0;
}
static int by_ldexp(const td_abi_launch *L) { return scale(L, 0); }
static int by_div(const td_abi_launch *L) { return scale(L, 1); }

TD_KERNEL(td_a_mec_ldexp) = {"mul_exponent_compensator.mul_kernel_correctness", "alt_ldexp", TD_ABI_HOST, NULL, NULL,
                             NULL, 1, 2, by_ldexp, NULL};
TD_KERNEL(td_a_mec_div) = {"mul_exponent_compensator.mul_kernel_correctness", "alt_div", TD_ABI_HOST, NULL, NULL, NULL,
                           1, 2, by_div, NULL};
