/* relu_triton_kernel on CUDA: every block computes its tile, only block 0 stores. */
#include "elementwise_tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

__global__ void relu_triton_relu_kernel(const float *x_ptr, float *out_ptr, int64_t N, int64_t B) {
    int64_t block_start = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = block_start + j;
        bool mask = off < N;
        float x = mask ? x_ptr[off] : 0.0f;
        float result = x >= 0 ? x : 0.0f;
        if (blockIdx.x == 0 && mask) out_ptr[off] = result;
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    relu_triton_relu_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "relu_kernel");
}

TD_KERNEL(td_kc_relu_triton_kernel) = {"relu_triton_kernel.relu_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                       NULL, 2, 2, launch, NULL};
