/* swiglu_triton: Liger's _swiglu_forward_kernel and _swiglu_backward_kernel, one
 * program per row.  Parameters: stride, n_cols, BLOCK_SIZE.
 * Regions: forward A, B, C; backward DC, A, B (A and B overwritten in place). */
#include "elementwise_tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

static int swiglu_forward_kernel(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    for (uint32_t program_id = 0; program_id < L->grid[0]; program_id++) {
        int64_t row = (int64_t)program_id * stride;
        for (int64_t j = 0; j < B; j++) {
            if (!(j < n_cols)) continue;
            float a = tl_load(L, R_A, row + j), b = tl_load(L, R_B, row + j);
            float silu = a * ew_sigmoid(a); /* silu(x) = x * tl.sigmoid(x) */
            tl_store(L, R_C, row + j, silu * b, tl_f32());
        }
    }
    return 0;
}

static int swiglu_backward_kernel(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), n_cols = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *dc, *a, *b;
    TL_ALLOC(L, dc, B);
    TL_ALLOC(L, a, B);
    TL_ALLOC(L, b, B);
    for (uint32_t program_id = 0; program_id < L->grid[0]; program_id++) {
        int64_t row = (int64_t)program_id * stride;
        for (int64_t j = 0; j < B; j++) { /* the three masked loads (other = 0) */
            int m = j < n_cols;
            dc[j] = m ? tl_load(L, R_DC, row + j) : 0.0f;
            a[j] = m ? tl_load(L, R_BA, row + j) : 0.0f;
            b[j] = m ? tl_load(L, R_BB, row + j) : 0.0f;
        }
        for (int64_t j = 0; j < B; j++) {
            float sig_a = ew_sigmoid(a[j]);
            float silu_a = a[j] * sig_a;
            float db = dc[j] * silu_a;
            float da = dc[j] * (silu_a * (1.0f - sig_a) + sig_a) * b[j];
            a[j] = da, b[j] = db;
        }
        for (int64_t j = 0; j < B; j++) /* tl.store(a_ptr, da); tl.store(b_ptr, db) */
            if (j < n_cols) tl_store(L, R_BA, row + j, a[j], tl_f32());
        for (int64_t j = 0; j < B; j++)
            if (j < n_cols) tl_store(L, R_BB, row + j, b[j], tl_f32());
    }
    free(dc), free(a), free(b);
    return 0;
}

TD_KERNEL(td_k_swiglu_triton_fwd) = {"swiglu_triton.swiglu_forward_kernel_correctness", "triton", TD_ABI_HOST, NULL,
                                     "libm", NULL, 3, 3, swiglu_forward_kernel, NULL};
TD_KERNEL(td_k_swiglu_triton_bwd) = {"swiglu_triton.swiglu_backward_kernel_correctness", "triton", TD_ABI_HOST, NULL,
                                     "libm", NULL, 3, 3, swiglu_backward_kernel, NULL};
