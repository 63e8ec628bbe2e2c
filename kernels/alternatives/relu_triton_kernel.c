/* relu_triton_kernel, alternative: relu as a maximum.
 *
 * alt_fmax: out = fmax(x, 0) (tl.maximum(x, 0.0), PyTorch's clamp_min) where the port
 * writes where(x >= 0, x, 0); only program 0's lanes (i < min(BLOCK, N)) are stored, as
 * in the kernel.  The two agree on every finite and infinite x; for x = -0 fmax may give
 * +0 where the port keeps -0: relu(-0) is 0 either way (the spec does not tell the
 * zeros apart).  Admissible.
 */
#include "alt_common.h"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

static int relu_fmax(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N) < TL_I(L, P_BLOCK) ? TL_I(L, P_N) : TL_I(L, P_BLOCK);
    for (int64_t i = 0; i < n; i++) tl_store(L, R_OUT, i, fmaxf(tl_load(L, R_X, i), 0.0f), tl_f32());
    return 0;
}

TD_KERNEL(td_a_relu_fmax) = {"relu_triton_kernel.relu_kernel_correctness", "alt_fmax", TD_ABI_HOST, NULL, NULL, NULL,
                             2, 2, relu_fmax, NULL};
