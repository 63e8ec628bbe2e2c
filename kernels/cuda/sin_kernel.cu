/* sin_kernel on CUDA: sinf (full-precision CUDA math, 2 ulp documented). */
#include "tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

__global__ void kernel_function(const float *x, float *out, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (base + j < n) out[base + j] = sinf(x[base + j]);
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    kernel_function<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "kernel_function");
}

TD_KERNEL(td_kc_sin_kernel) = {"sin_kernel.kernel_function_correctness", "triton", TD_ABI_CUDA, NULL, "cuda", NULL, 2,
                               2, launch, NULL};
