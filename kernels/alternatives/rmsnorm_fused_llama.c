/* Alternative for rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary
 * (_rms_norm_fwd_fused: y = ((x * rstd) * w).to(float16), rstd = 1/sqrt(mean(x^2) + eps)).
 *
 *   alt_lanes64_fma  the sum of squares accumulated in 64 per-lane FMA accumulators
 *                 (acc[c % 64] = fmaf(x_c, x_c, acc[c % 64]): a BLOCK of 64 whatever the
 *                 port's BLOCK_SIZE, the column tiles in order), the lanes then summed by
 *                 a neighbour-pair tree; y = (x * rstd) * w rounded to binary16.
 *                 Admissible: another block size and tree shape, FMA contraction.
 * Parameters: stride, N, BLOCK_SIZE, eps.  Regions: X, Y, W. */
#include "alt_a_norm.h"

enum { P_STRIDE, P_N, P_B, P_EPS };
enum { R_X, R_Y, R_W };

static int rnl_lanes64(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS), acc[64], tmp[64];
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        memset(acc, 0, sizeof acc);
        for (int64_t c = 0; c < N; c++) {
            float x = tl_load(L, R_X, base + c);
            acc[c % 64] = fmaf(x, x, acc[c % 64]);
        }
        float rstd = 1.0f / sqrtf(aa_sum_pairs(acc, 64, tmp) / (float)N + eps);
        for (int64_t c = 0; c < N; c++)
            tl_store(L, R_Y, base + c, aa_f16((tl_load(L, R_X, base + c) * rstd) * tl_load(L, R_W, c)), store);
    }
    return 0;
}

TD_KERNEL(td_a_rmsnorm_fused_llama_lanes64) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary",
                                               "alt_lanes64_fma", TD_ABI_HOST, NULL, NULL, NULL, 4, 3, rnl_lanes64,
                                               NULL};
