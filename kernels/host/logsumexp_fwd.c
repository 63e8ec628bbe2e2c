/* logsumexp_fwd: per-block partial log-sum-exp, optionally scaled.  Grid (rows,
 * cdiv(D, B)); program (i_n, i_d) stores one scalar at z[i_n * cdiv(D, B) + i_d].
 * Parameters: D, B, HAS_SCALE, scale.  Regions: x, z. */
#include "softmax_tl.h"

enum { P_D, P_B, P_HAS_SCALE, P_SCALE };
enum { R_X, R_Z };

static int logsumexp_fwd_kernel(const td_abi_launch *L) {
    int64_t D = TL_I(L, P_D), B = TL_I(L, P_B), ND = (D + B - 1) / B;
    int has_scale = TL_I(L, P_HAS_SCALE) != 0;
    float scale = TL_R(L, P_SCALE);
    float *t;
    TL_ALLOC(L, t, B);
    for (uint32_t in = 0; in < L->grid[0]; in++)
        for (uint32_t id = 0; id < L->grid[1]; id++) {
            int64_t lo = (int64_t)id * B;
            /* b_x = tl.load(x + i_n*D + o_d, mask=o_d < D, other=-inf) */
            for (int64_t j = 0; j < B; j++) t[j] = lo + j < D ? tl_load(L, R_X, (int64_t)in * D + lo + j) : -INFINITY;
            if (has_scale)
                for (int64_t j = 0; j < B; j++) t[j] = t[j] * scale;
            float m = tl_max(t, B);
            for (int64_t j = 0; j < B; j++) t[j] = expf(t[j] - m);
            float z = logf(tl_sum(t, B)) + m;
            tl_store(L, R_Z, (int64_t)in * ND + id, z, tl_f32());
        }
    free(t);
    return 0;
}

TD_KERNEL(td_k_logsumexp_fwd) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                 NULL, 4, 2, logsumexp_fwd_kernel, NULL};
