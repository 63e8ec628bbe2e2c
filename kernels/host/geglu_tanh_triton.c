/* geglu_tanh_triton: _geglu_tanh_forward_kernel and _geglu_tanh_backward_kernel, one
 * program per row.  Parameters: stride, n_cols, BLOCK_SIZE.  Regions: forward A, B, C;
 * backward DC, A, B (A and B overwritten in place).  tanh: the C library's tanhf. */
#include "tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

/* The kernels' literals as Triton hands them to binary32 arithmetic. */
static const float sqrt_2_over_pi = (float)0.7978845608028654, c1 = (float)0.044715, c3 = (float)(3 * 0.044715);

static float gelu_tanh_result(float a) {
    float a_cubed = a * a * a;
    float tanh_arg = sqrt_2_over_pi * (a + c1 * a_cubed);
    return tanhf(tanh_arg);
}

static int geglu_tanh_forward_kernel(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t program_id = 0; program_id < L->grid[0]; program_id++) {
        int64_t row = (int64_t)program_id * stride;
        for (int64_t j = 0; j < B; j++) {
            if (!(j < n_cols)) continue;
            float a = tl_load(L, R_A, row + j), b = tl_load(L, R_B, row + j);
            float geglu_a = 0.5f * a * (1.0f + gelu_tanh_result(a));
            tl_store(L, R_C, row + j, geglu_a * b, tl_f32());
        }
    }
    return 0;
}

static int geglu_tanh_backward_kernel(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *dc, *a, *b;
    TL_ALLOC(L, dc, B);
    TL_ALLOC(L, a, B);
    TL_ALLOC(L, b, B);
    for (uint32_t program_id = 0; program_id < L->grid[0]; program_id++) {
        int64_t row = (int64_t)program_id * stride;
        for (int64_t j = 0; j < B; j++) { /* masked loads, other = 0 */
            int m = j < n_cols;
            dc[j] = m ? tl_load(L, R_DC, row + j) : 0.0f;
            a[j] = m ? tl_load(L, R_BA, row + j) : 0.0f;
            b[j] = m ? tl_load(L, R_BB, row + j) : 0.0f;
        }
        for (int64_t j = 0; j < B; j++) {
            float t = gelu_tanh_result(a[j]);
            float geglu_a = 0.5f * a[j] * (1.0f + t);
            float db = dc[j] * geglu_a;
            float term1 = 0.5f * (1.0f + t);
            float tanh_sq = t * t;
            float term2 = 0.5f * a[j] * (1.0f - tanh_sq) * (sqrt_2_over_pi * (1.0f + c3 * a[j] * a[j]));
            float da = dc[j] * b[j] * (term1 + term2);
            a[j] = da, b[j] = db;
        }
        for (int64_t j = 0; j < B; j++)
            if (j < n_cols) tl_store(L, R_BA, row + j, a[j], tl_f32());
        for (int64_t j = 0; j < B; j++)
            if (j < n_cols) tl_store(L, R_BB, row + j, b[j], tl_f32());
    }
    free(dc), free(a), free(b);
    return 0;
}

TD_KERNEL(td_k_geglu_tanh_fwd) = {"geglu_tanh_triton.geglu_tanh_forward_kernel_correctness", "triton", TD_ABI_HOST,
                                  NULL, "libm", NULL, 3, 3, geglu_tanh_forward_kernel, NULL};
TD_KERNEL(td_k_geglu_tanh_bwd) = {"geglu_tanh_triton.geglu_tanh_backward_kernel_correctness", "triton", TD_ABI_HOST,
                                  NULL, "libm", NULL, 3, 3, geglu_tanh_backward_kernel, NULL};
