/* cosine_compute on CUDA: cosf (full-precision CUDA math), one block per program. */
#include "elementwise_tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_A, R_B };

__global__ void cosine_compute_cos_func(const float *a, float *b, int64_t n, int64_t B) {
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t offset = (int64_t)blockIdx.x * B + j;
        if (offset < n) b[offset] = cosf(a[offset]);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    cosine_compute_cos_func<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, float), TLC_I(L, P_N), B);
    return tlc_check(L, "cos_func");
}

TD_KERNEL(td_kc_cosine_compute) = {"cosine_compute.cos_func_correctness", "triton", TD_ABI_CUDA, NULL, "cuda", NULL, 2,
                                   2, launch, NULL};
