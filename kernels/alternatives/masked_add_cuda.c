/* masked_add_cuda, alternative: the axpy as one FMA.
 *
 * alt_fma: grad[i] = fma(p[i], alpha, grad[i]) wherever i < n and !p_mask[i]; the port
 * rounds p*alpha, then the sum (grad += p * alpha as written, -ffp-contract=off).  nvcc
 * and Triton contract a*b + c into an FMA by default, so this is what the compiled
 * kernel does on a GPU.  Admissible: FMA contraction (one rounding instead of two) of
 * the contract's grad + p*alpha; same lanes.
 */
#include "alt_common.h"

enum { P_N, P_ALPHA, P_BLOCK };
enum { R_GRAD, R_P, R_MASK };

static int axpy_fma(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N);
    float alpha = TL_R(L, P_ALPHA);
    for (int64_t i = 0; i < n; i++)
        if (!tl_load_int(L, R_MASK, i))
            tl_store(L, R_GRAD, i, fmaf(tl_load(L, R_P, i), alpha, tl_load(L, R_GRAD, i)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_masked_add_fma) = {"masked_add_cuda.masked_add_kernel_correctness", "alt_fma", TD_ABI_HOST, NULL, NULL,
                                  NULL, 3, 3, axpy_fma, NULL};
