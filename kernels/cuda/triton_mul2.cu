/* triton_mul2 on CUDA: 2 * x, out of place and in place. */
#include "tlc.cuh"

enum { P_N, P_BLOCK };

__global__ void mul2_kernel(const float *in, float *out, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (base + j < n) out[base + j] = 2.0f * in[base + j];
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    mul2_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, P_N), B);
    return tlc_check(L, "mul2_kernel");
}

/* in place: each thread loads then stores its own lanes (no lane reads another's) */
static int launch_inplace(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    float *p = TLC_PTR(L, 0, float);
    mul2_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(p, p, TLC_I(L, P_N), B);
    return tlc_check(L, "mul2_inplace_kernel");
}

TD_KERNEL(td_kc_mul2) = {"triton_mul2.mul2_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch, NULL};
TD_KERNEL(td_kc_mul2_inplace) = {"triton_mul2.mul2_inplace_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                 2, 1, launch_inplace, NULL};
