/* fused_activation on CUDA: one block per program; each lane loads x, bias[i % nw] and
 * in before it stores its own x cell (in place). */
#include "elementwise_tlc.cuh"

enum { P_NW, P_XNUMEL, P_BLOCK, P_MULT, P_SIGMOID };
enum { R_X, R_BIAS, R_IN };

__global__ void fused_add_mul_activation(float *x_ptr, const float *bias_ptr, const float *in_ptr, int64_t nw,
                                         int64_t xnumel, int64_t B, float multiplier, bool sigmoid) {
    int64_t xoffset = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t index = xoffset + j;
        if (index >= xnumel) continue;
        float tmp0 = x_ptr[index], tmp1 = bias_ptr[index % nw], tmp3 = in_ptr[index];
        float z = __fadd_rn(__fadd_rn(__fmul_rn(multiplier, tmp3), tmp0), tmp1);
        x_ptr[index] = sigmoid ? ew_sigmoid(z) : fmaxf(0.0f, z);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    fused_add_mul_activation<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, float), TLC_PTR(L, R_BIAS, const float), TLC_PTR(L, R_IN, const float), TLC_I(L, P_NW),
        TLC_I(L, P_XNUMEL), B, TLC_R(L, P_MULT), TLC_I(L, P_SIGMOID) != 0);
    return tlc_check(L, "fused_add_mul_activation_kernel");
}

TD_KERNEL(td_kc_fused_activation) = {"fused_activation.fused_add_mul_activation_kernel_correctness", "triton",
                                     TD_ABI_CUDA, NULL, "cuda", NULL, 5, 3, launch, NULL};
