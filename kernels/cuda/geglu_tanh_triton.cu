/* geglu_tanh_triton on CUDA: one block per row; tanhf (CUDA full precision, as
 * libdevice's tanh), every operation an explicit _rn intrinsic so nothing is contracted. */
#include "elementwise_tlc.cuh"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_A, R_B, R_C };
enum { R_DC = 0, R_BA = 1, R_BB = 2 };

static __device__ __forceinline__ float geglu_t(float a) {
    const float c0 = (float)0.7978845608028654, c1 = (float)0.044715;
    float a_cubed = __fmul_rn(__fmul_rn(a, a), a);
    return tanhf(__fmul_rn(c0, __fadd_rn(a, __fmul_rn(c1, a_cubed))));
}

__global__ void geglu_tanh_forward(const float *A, const float *Bp, float *C, int64_t stride, int64_t n_cols,
                                   int64_t B) {
    int64_t row = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n_cols) {
            float a = A[row + j];
            float geglu_a = __fmul_rn(__fmul_rn(0.5f, a), __fadd_rn(1.0f, geglu_t(a)));
            C[row + j] = __fmul_rn(geglu_a, Bp[row + j]);
        }
}

__global__ void geglu_tanh_backward(const float *DC, float *A, float *Bp, int64_t stride, int64_t n_cols, int64_t B) {
    const float c0 = (float)0.7978845608028654, c3 = (float)(3 * 0.044715);
    int64_t row = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n_cols) {
            float dc = DC[row + j], a = A[row + j], b = Bp[row + j];
            float t = geglu_t(a), half_a = __fmul_rn(0.5f, a);
            float db = __fmul_rn(dc, __fmul_rn(half_a, __fadd_rn(1.0f, t)));
            float term1 = __fmul_rn(0.5f, __fadd_rn(1.0f, t));
            float poly = __fadd_rn(1.0f, __fmul_rn(__fmul_rn(c3, a), a));
            float term2 = __fmul_rn(__fmul_rn(half_a, __fsub_rn(1.0f, __fmul_rn(t, t))), __fmul_rn(c0, poly));
            A[row + j] = __fmul_rn(__fmul_rn(dc, b), __fadd_rn(term1, term2));
            Bp[row + j] = db;
        }
}

static int launch_fwd(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    geglu_tanh_forward<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, const float), TLC_PTR(L, R_C, float), TLC_I(L, P_STRIDE),
        TLC_I(L, P_NCOLS), B);
    return tlc_check(L, "_geglu_tanh_forward_kernel");
}

static int launch_bwd(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    geglu_tanh_backward<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_DC, const float), TLC_PTR(L, R_BA, float), TLC_PTR(L, R_BB, float), TLC_I(L, P_STRIDE),
        TLC_I(L, P_NCOLS), B);
    return tlc_check(L, "_geglu_tanh_backward_kernel");
}

TD_KERNEL(td_kc_geglu_tanh_fwd) = {"geglu_tanh_triton.geglu_tanh_forward_kernel_correctness", "triton", TD_ABI_CUDA,
                                   NULL, "cuda", NULL, 3, 3, launch_fwd, NULL};
TD_KERNEL(td_kc_geglu_tanh_bwd) = {"geglu_tanh_triton.geglu_tanh_backward_kernel_correctness", "triton", TD_ABI_CUDA,
                                   NULL, "cuda", NULL, 3, 3, launch_bwd, NULL};
