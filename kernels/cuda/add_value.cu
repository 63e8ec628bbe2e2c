/* add_value on CUDA: out = x + value (binary32 scalar), one block per program. */
#include "tlc.cuh"

enum { P_N, P_BLOCK, P_VALUE };
enum { R_X, R_OUT };

__global__ void puzzle1_kernel(const float *x, float *out, int64_t n, int64_t B, float value) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (base + j < n) out[base + j] = x[base + j] + value;
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    puzzle1_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B, TLC_R(L, P_VALUE));
    return tlc_check(L, "puzzle1_kernel");
}

TD_KERNEL(td_kc_add_value) = {"add_value.puzzle1_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 3, 2,
                              launch, NULL};
TD_KERNEL(td_kc_add_value_io) = {"add_value.puzzle1_kernel_io_correctness", "triton", TD_ABI_CUDA, "store=fp32:rne:inf",
                                 NULL, NULL, 3, 2, launch, NULL};
