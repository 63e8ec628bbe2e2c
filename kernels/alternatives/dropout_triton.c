/* dropout_triton, alternative: scaling by the reciprocal, as PyTorch does.
 *
 * alt_rcp_mul: out = keep ? x * scale : 0 with scale = 1 / (1 - p) rounded once to
 * binary32 (PyTorch's fused dropout multiplies by the precomputed 1/(1-p)); the port
 * divides x / (1 - p) per lane.  Admissible: a/b as a * (1/b) (two roundings where the
 * division has one); same lanes (i < n_elements).
 */
#include "alt_common.h"

enum { P_N, P_P, P_BLOCK };
enum { R_X, R_KEEP, R_OUT };

static int rcp_mul(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N);
    float scale = alt_rcp(1.0f - TL_R(L, P_P));
    for (int64_t i = 0; i < n; i++)
        tl_store(L, R_OUT, i, tl_load_int(L, R_KEEP, i) ? tl_load(L, R_X, i) * scale : 0.0f, tl_f32());
    return 0;
}

TD_KERNEL(td_a_dropout_rcp) = {"dropout_triton.dropout_kernel_correctness", "alt_rcp_mul", TD_ABI_HOST, NULL, NULL,
                               NULL, 3, 3, rcp_mul, NULL};
