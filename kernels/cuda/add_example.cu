/* add_example on CUDA: one block per program, masked vector add in binary32. */
#include "tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

__global__ void add_kernel(const float *x, const float *y, float *out, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = base + j;
        if (off < n) out[off] = x[off] + y[off];
    }
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    add_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "add_kernel");
}

TD_KERNEL(td_kc_add_example) = {"add_example.add_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 2, 3,
                                launch};
