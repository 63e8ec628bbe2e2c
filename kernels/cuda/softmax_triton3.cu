/* softmax_triton3 on CUDA: the row softmax with an optional additive mask added after
 * the max subtraction; input, output and mask share row_stride. */
#include "softmax_tlc.cuh"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN, R_MASK };

static __global__ void softmax_kernel(float *out, const float *in, const float *mask, int64_t rs, int64_t n, int64_t B,
                                      int use_mask) {
    float *row = smc_smem, *r = smc_smem + B;
    int64_t pid = blockIdx.x;
    smc_load(row, in + pid * rs, 1, n, B, -INFINITY);
    smc_copy(r, row, B);
    float m = smc_reduce_max(r, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) row[j] = row[j] - m;
    __syncthreads();
    if (use_mask) {
        smc_load(r, mask + pid * rs, 1, n, B, 0.0f);
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x) row[j] = row[j] + r[j];
        __syncthreads();
    }
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) row[j] = expf(row[j]);
    __syncthreads();
    smc_copy(r, row, B);
    float s = smc_reduce_sum(r, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n) out[pid * rs + j] = row[j] / s;
}

static int run(const td_abi_launch *L, int use_mask) {
    int64_t B = TLC_I(L, P_BLOCK);
    size_t smem = 2 * (size_t)B * sizeof(float);
    if (smc_allow_smem(L, softmax_kernel, smem)) return 1;
    softmax_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, float), TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_MASK, const float),
        TLC_I(L, P_STRIDE), TLC_I(L, P_NCOLS), B, use_mask);
    return tlc_check(L, "softmax_kernel");
}
static int launch_nomask(const td_abi_launch *L) { return run(L, 0); }
static int launch_masked(const td_abi_launch *L) { return run(L, 1); }

TD_KERNEL(td_kc_softmax_triton3) = {"softmax_triton3.softmax_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                    NULL, 3, 3, launch_nomask, NULL};
TD_KERNEL(td_kc_softmax_triton3_masked) = {"softmax_triton3.softmax_kernel_masked_correctness", "triton", TD_ABI_CUDA,
                                           NULL, NULL, NULL, 3, 3, launch_masked, NULL};
