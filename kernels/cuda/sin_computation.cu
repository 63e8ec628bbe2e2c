/* sin_computation on CUDA: sinf (full-precision CUDA math), one block per program. */
#include "elementwise_tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_IN, R_OUT };

__global__ void sin_computation_sin_kernel(const float *in_ptr0, float *out_ptr, int64_t n, int64_t B) {
    int64_t block_start = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (block_start + j < n) out_ptr[block_start + j] = sinf(in_ptr0[block_start + j]);
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    sin_computation_sin_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "sin_kernel");
}

TD_KERNEL(td_kc_sin_computation) = {"sin_computation.sin_kernel_correctness", "triton", TD_ABI_CUDA, NULL, "cuda", NULL,
                                    2, 2, launch, NULL};
