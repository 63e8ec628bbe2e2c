/* masked_select on CUDA: out[prefix_sum[i] - 1] = inp[i] where select_mask[i]. */
#include "elementwise_tlc.cuh"

enum { P_N, P_BLOCK };
enum { R_INP, R_MASK, R_PSUM, R_OUT };

__global__ void masked_select_cuda(const float *inp, const uint8_t *select_mask, const int64_t *prefix_sum, float *out,
                                   int64_t n, int64_t B) {
    int64_t block_start = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = block_start + j;
        if (off >= n || !select_mask[off]) continue;
        out[prefix_sum[off] - 1] = inp[off];
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    masked_select_cuda<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_INP, const float), TLC_PTR(L, R_MASK, const uint8_t), TLC_PTR(L, R_PSUM, const int64_t),
        TLC_PTR(L, R_OUT, float), TLC_I(L, P_N), B);
    return tlc_check(L, "masked_select_kernel");
}

TD_KERNEL(td_kc_masked_select) = {"masked_select.masked_select_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                  NULL, 2, 4, launch, NULL};
