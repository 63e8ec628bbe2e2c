/* sin_kernel, alternative: sin evaluated in binary64, rounded once.
 *
 * alt_f64: out = (float)sin((double)x): the double-precision sine (under 1 ulp of
 * binary64) rounded to binary32, within half an ulp plus 2^-29 ulp of the real sine:
 * more accurate than sinf (libm, measured 0.5x ulp) or CUDA's sinf (2 ulp), so within
 * every budget a sin may have.  A kernel that promotes to double for accuracy does this.
 */
#include "alt_common.h"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

static int sin_f64(const td_abi_launch *L) {
    for (int64_t i = 0; i < TL_I(L, P_N); i++) tl_store(L, R_OUT, i, (float)sin((double)tl_load(L, R_X, i)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_sin_kernel_f64) = {"sin_kernel.kernel_function_correctness", "alt_f64", TD_ABI_HOST, NULL, NULL, NULL,
                                  2, 2, sin_f64, NULL};
