/* swiglu_fwd, alternative: silu as one division (PyTorch's form).
 *
 * alt_silu_div: out = (x / (1 + exp(-x))) * y, where the port computes x * sigmoid(x) * y
 * with sigmoid = 1 / (1 + exp(-x)): one division in place of a reciprocal and a
 * multiply (PyTorch's silu kernel is x / (1 + exp(-x))).  Admissible: the same real
 * x*sigmoid(x)*y, a/b for a*(1/b); same cells (row < grid rows, col < ncols).
 */
#include "alt_common.h"

enum { P_SX, P_SY, P_SOUT, P_NCOLS, P_BLOCK };
enum { R_X, R_Y, R_OUT };

static int silu_div(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_NCOLS);
    for (uint32_t row = 0; row < L->grid[0]; row++)
        for (int64_t col = 0; col < n; col++) {
            float x = tl_load(L, R_X, row * TL_I(L, P_SX) + col), y = tl_load(L, R_Y, row * TL_I(L, P_SY) + col);
            tl_store(L, R_OUT, row * TL_I(L, P_SOUT) + col, x / (1.0f + expf(-x)) * y, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_swiglu_fwd_div) = {"swiglu_fwd.swiglu_fwd_kernel_correctness", "alt_silu_div", TD_ABI_HOST, NULL,
                                  "libm", NULL, 5, 3, silu_div, NULL};
