/* vector_addition on CUDA: one block per program, masked add in binary32. */
#include "elementwise_tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

__global__ void vector_addition_add_kernel(const float *x, const float *y, float *out, int64_t n, int64_t B) {
    int64_t block_start = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = block_start + j;
        if (off < n) out[off] = __fadd_rn(x[off], y[off]);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    vector_addition_add_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "add_kernel");
}

TD_KERNEL(td_kc_vector_addition) = {"vector_addition.add_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                    2, 3, launch, NULL};
