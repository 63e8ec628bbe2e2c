/* masked_add_cuda on CUDA: grad += p * alpha where the mask bit is false, in place. */
#include "elementwise_tlc.cuh"

enum { P_N, P_ALPHA, P_BLOCK };
enum { R_GRAD, R_P, R_MASK };

__global__ void masked_add_cuda_kernel(float *grad_ptr, const float *p_ptr, const uint8_t *p_mask_ptr, int64_t n,
                                       float alpha, int64_t B) {
    int64_t block_start = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = block_start + j;
        if (off >= n || p_mask_ptr[off]) continue; /* mask & ~p_mask */
        grad_ptr[off] = __fadd_rn(grad_ptr[off], __fmul_rn(p_ptr[off], alpha));
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    masked_add_cuda_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_GRAD, float), TLC_PTR(L, R_P, const float), TLC_PTR(L, R_MASK, const uint8_t), TLC_I(L, P_N),
        TLC_R(L, P_ALPHA), B);
    return tlc_check(L, "masked_add_kernel");
}

TD_KERNEL(td_kc_masked_add_cuda) = {"masked_add_cuda.masked_add_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                    NULL, 3, 3, launch, NULL};
