/* swiglu_triton on CUDA: one block per row; the backward loads a lane's three values
 * before it stores either result (in place on A and B). */
#include "elementwise_tlc.cuh"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

__global__ void swiglu_triton_forward(const float *a_ptr, const float *b_ptr, float *c_ptr, int64_t stride,
                                      int64_t n_cols, int64_t B) {
    int64_t row = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n_cols) {
            float a = a_ptr[row + j];
            c_ptr[row + j] = __fmul_rn(__fmul_rn(a, ew_sigmoid(a)), b_ptr[row + j]);
        }
}

__global__ void swiglu_triton_backward(const float *dc_ptr, float *a_ptr, float *b_ptr, int64_t stride,
                                       int64_t n_cols, int64_t B) {
    int64_t row = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n_cols) {
            float dc = dc_ptr[row + j], a = a_ptr[row + j], b = b_ptr[row + j];
            float sig = ew_sigmoid(a), silu = __fmul_rn(a, sig);
            float db = __fmul_rn(dc, silu);
            float inner = __fadd_rn(__fmul_rn(silu, __fsub_rn(1.0f, sig)), sig);
            a_ptr[row + j] = __fmul_rn(__fmul_rn(dc, inner), b);
            b_ptr[row + j] = db;
        }
}

static int launch_fwd(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    swiglu_triton_forward<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, const float), TLC_PTR(L, R_C, float), TLC_I(L, P_STRIDE),
        TLC_I(L, P_NCOLS), B);
    return tlc_check(L, "_swiglu_forward_kernel");
}

static int launch_bwd(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    swiglu_triton_backward<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_DC, const float), TLC_PTR(L, R_BA, float), TLC_PTR(L, R_BB, float), TLC_I(L, P_STRIDE),
        TLC_I(L, P_NCOLS), B);
    return tlc_check(L, "_swiglu_backward_kernel");
}

TD_KERNEL(td_kc_swiglu_triton_fwd) = {"swiglu_triton.swiglu_forward_kernel_correctness", "triton", TD_ABI_CUDA, NULL,
                                      "cuda", NULL, 3, 3, launch_fwd, NULL};
TD_KERNEL(td_kc_swiglu_triton_bwd) = {"swiglu_triton.swiglu_backward_kernel_correctness", "triton", TD_ABI_CUDA, NULL,
                                      "cuda", NULL, 3, 3, launch_bwd, NULL};
