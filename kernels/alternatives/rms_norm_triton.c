/* Alternative for rms_norm_triton.rms_norm_kernel_correctness (y = (x * rrms) * w,
 * rrms = 1 / sqrt(sum_{j<w} x_j^2 / N + eps), the tile's first w = min(N, BLOCK_SIZE)
 * columns, strided rows and columns).
 *
 *   alt_fma_seq   the sum of squares as one sequential FMA chain, s = fmaf(x_j, x_j, s)
 *                 (each square never rounded on its own: what a contracted CUDA loop
 *                 does), then the same rrms and scaling.  Admissible: FMA contraction,
 *                 any summation order.
 * Parameters: y_stride_r, y_stride_c, x_stride_r, x_stride_c, N, BLOCK_SIZE, eps.
 * Regions: Y, X, W. */
#include "alt_a_norm.h"

enum { P_YSR, P_YSC, P_XSR, P_XSC, P_N, P_B, P_EPS };
enum { R_Y, R_X, R_W };

static int rnt_fma_seq(const td_abi_launch *L) {
    int64_t ysr = TL_I(L, P_YSR), ysc = TL_I(L, P_YSC), xsr = TL_I(L, P_XSR), xsc = TL_I(L, P_XSC);
    int64_t N = TL_I(L, P_N), B = TL_I(L, P_B), w = N < B ? N : B;
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float s = 0.0f;
        for (int64_t j = 0; j < w; j++) {
            float x = tl_load(L, R_X, (int64_t)pid * xsr + j * xsc);
            s = fmaf(x, x, s);
        }
        float rrms = 1.0f / sqrtf(s / (float)N + eps);
        for (int64_t j = 0; j < w; j++) {
            float x = tl_load(L, R_X, (int64_t)pid * xsr + j * xsc);
            tl_store(L, R_Y, (int64_t)pid * ysr + j * ysc, (x * rrms) * tl_load(L, R_W, j), store);
        }
    }
    return 0;
}

TD_KERNEL(td_a_rms_norm_triton_fma_seq) = {"rms_norm_triton.rms_norm_kernel_correctness", "alt_fma_seq", TD_ABI_HOST,
                                           NULL, NULL, NULL, 7, 3, rnt_fma_seq, NULL};
