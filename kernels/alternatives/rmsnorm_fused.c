/* Alternatives for rmsnorm_fused (rms_norm_fwd_fused: y = (x * rstd) * w,
 * rstd = 1 / sqrt(sum_j x_j^2 / N + eps) over the whole row of N columns).
 *
 *   alt_split4_rsqrtapprox (summary and io)  the row's squares summed in 4 contiguous
 *                 parts (split-row), each left to right, the parts combined last to
 *                 first; rstd by the rsqrt.approx.f32 model (relative error <= 2^-22.9,
 *                 PTX ISA).  Admissible: split-row partial sums in another combine
 *                 order, the GPU approximate rsqrt.
 * Parameters: stride, N, BLOCK_SIZE, eps.  Regions: X, Y, W. */
#include "alt_a_norm.h"

enum { P_STRIDE, P_N, P_B, P_EPS };
enum { R_X, R_Y, R_W };

static int rnf_split4(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    float *sq;
    TL_ALLOC(L, sq, N);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        for (int64_t c = 0; c < N; c++) {
            float x = tl_load(L, R_X, base + c);
            sq[c] = x * x;
        }
        float rstd = aa_rsqrt_approx(aa_sum_split(sq, N, 4) / (float)N + eps);
        for (int64_t c = 0; c < N; c++)
            tl_store(L, R_Y, base + c, (tl_load(L, R_X, base + c) * rstd) * tl_load(L, R_W, c), store);
    }
    free(sq);
    return 0;
}

TD_KERNEL(td_a_rmsnorm_fused_summary_split4) = {"rmsnorm_fused.rms_norm_fwd_fused_output_summary",
                                                "alt_split4_rsqrtapprox", TD_ABI_HOST, NULL, NULL, NULL, 4, 3,
                                                rnf_split4, NULL};
TD_KERNEL(td_a_rmsnorm_fused_io_split4) = {"rmsnorm_fused.rms_norm_fwd_fused_io_correctness",
                                           "alt_split4_rsqrtapprox", TD_ABI_HOST, NULL, NULL, NULL, 4, 3, rnf_split4,
                                           NULL};
