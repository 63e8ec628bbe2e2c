/* dropout_triton on CUDA: where(x_keep, x / (1 - p), 0), one block per program. */
#include "elementwise_tlc.cuh"

enum { P_N, P_P, P_BLOCK };
enum { R_X, R_KEEP, R_OUT };

__global__ void dropout_triton_kernel(const float *x_ptr, const uint8_t *x_keep_ptr, float *output_ptr, int64_t n,
                                      float p, int64_t B) {
    int64_t block_start = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = block_start + j;
        if (off >= n) continue;
        float scaled = __fdiv_rn(x_ptr[off], __fsub_rn(1.0f, p));
        output_ptr[off] = x_keep_ptr[off] ? scaled : 0.0f;
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    dropout_triton_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_KEEP, const uint8_t), TLC_PTR(L, R_OUT, float), TLC_I(L, P_N),
        TLC_R(L, P_P), B);
    return tlc_check(L, "_dropout");
}

TD_KERNEL(td_kc_dropout_triton) = {"dropout_triton.dropout_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                   3, 3, launch, NULL};
