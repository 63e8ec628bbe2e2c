/* kldiv_compute on CUDA: output = x * log(x / y), one block per program. */
#include "tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

__global__ void kldivergence_kernel(const float *x_ptr, const float *y_ptr, float *out, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = base + j;
        if (off < n) {
            float x = x_ptr[off], y = y_ptr[off];
            out[off] = __fmul_rn(x, logf(__fdiv_rn(x, y)));
        }
    }
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    kldivergence_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "kldivergence_kernel");
}

TD_KERNEL(td_kc_kldiv_compute) = {"kldiv_compute.kldivergence_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                  NULL, 2, 3, launch, NULL};
