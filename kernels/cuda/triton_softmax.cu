/* triton_softmax on CUDA: softmax_kernel, one block per row (masked load with -inf,
 * max, exp, sum, division, masked store). */
#include "softmax_tlc.cuh"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

static __global__ void tsm_kernel(float *out, const float *in, int64_t is, int64_t os, int64_t n, int64_t B) {
    float *row = smc_smem, *scratch = smc_smem + B;
    int64_t pid = blockIdx.x;
    smc_load(row, in + pid * is, 1, n, B, -INFINITY);
    smc_tile_softmax(row, scratch, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n) out[pid * os + j] = row[j];
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    size_t smem = 2 * (size_t)B * sizeof(float);
    if (smc_allow_smem(L, tsm_kernel, smem)) return 1;
    tsm_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, float), TLC_PTR(L, R_IN, const float), TLC_I(L, P_IN_STRIDE), TLC_I(L, P_OUT_STRIDE),
        TLC_I(L, P_NCOLS), B);
    return tlc_check(L, "triton_softmax.softmax_kernel");
}

TD_KERNEL(td_kc_triton_softmax) = {"triton_softmax.softmax_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                   NULL, 4, 2, launch, NULL};
