/* Alternative kernels of the RMS-prologue matmul (rms_matmul_rbe, its QKV wrapper,
 * rms_rbe_matmul), written as another author would: one output element at a time, the
 * sum of squares in three interleaved partial sums (k mod 3) added at the end, x * rms_w
 * promoted to binary32 (no fp16 rounding of the scaled activation), the dot as one FMA
 * chain from k = K-1 down to 0, the mean as sum * (1/K), and the normalisation as a
 * division by sqrtf(mean + EPS) rather than a product with its rsqrt.  Every step is an
 * admissible implementation of the contract (contracts/rms_matmul_rbe_common.h). */
#ifndef TD_RMS_MATMUL_RBE_ALT_H
#define TD_RMS_MATMUL_RBE_ALT_H

#include <math.h>

#include "../host/rms_matmul_rbe_tl.h"

static inline float alt_rmr_norm_den(const td_abi_launch *L, const rmrk_layout *k, int64_t b, int64_t m) {
    int64_t K = TL_I(L, k->p_k);
    float part[3] = {0.0f, 0.0f, 0.0f};
    for (int64_t kk = 0; kk < K; kk++) {
        float x = tl_load(L, k->r_x, b * TL_I(L, k->p_sxb) + m * TL_I(L, k->p_sxm) + kk * TL_I(L, k->p_sxk));
        part[kk % 3] = fmaf(x, x, part[kk % 3]);
    }
    float inv_k = 1.0f / (float)K;
    return sqrtf((part[2] + part[1] + part[0]) * inv_k + TL_R(L, k->p_eps));
}

static inline int alt_rmr_run(const td_abi_launch *L, const rmrk_layout *k) {
    int64_t M = TL_I(L, k->p_m), N = TL_I(L, k->p_n), K = TL_I(L, k->p_k);
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--)
        for (int64_t m = 0; m < M; m++) {
            float den = alt_rmr_norm_den(L, k, b, m);
            int64_t x0 = b * TL_I(L, k->p_sxb) + m * TL_I(L, k->p_sxm);
            for (int o = 0; o < k->nout; o++)
                for (int64_t n = N - 1; n >= 0; n--) {
                    float acc = 0.0f;
                    for (int64_t kk = K - 1; kk >= 0; kk--) {
                        float xr = tl_load(L, k->r_x, x0 + kk * TL_I(L, k->p_sxk)) *
                                   tl_load(L, k->r_rms, kk * TL_I(L, k->p_srms));
                        float w = tl_load(L, k->r_w[o], kk * TL_I(L, k->p_swk[o]) + n * TL_I(L, k->p_swn[o]));
                        acc = fmaf(xr, w, acc);
                    }
                    int64_t off = b * TL_I(L, k->p_sob[o]) + m * TL_I(L, k->p_som[o]) + n * TL_I(L, k->p_son[o]);
                    tl_store(L, k->r_out[o], off, acc / den, attn2_store_prof(L, k->r_out[o]));
                }
        }
    return 0;
}

#endif
