/* mul_exponent_compensator on CUDA: dst = src * 2^112, one unmasked tile per block. */
#include "tlc.cuh"

enum { P_BLOCK };

__global__ void mul_exponent_kernel(const float *src, float *dst, int64_t B) {
    const float exponent_compensator = 0x1p112f; /* 2.0 ** (127 - 15) */
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) dst[base + j] = src[base + j] * exponent_compensator;
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    mul_exponent_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), B);
    return tlc_check(L, "mul_exponent_kernel");
}

TD_KERNEL(td_kc_mul_exponent_compensator) = {"mul_exponent_compensator.mul_kernel_correctness", "triton", TD_ABI_CUDA,
                                             NULL, NULL, NULL, 1, 2, launch, NULL};
