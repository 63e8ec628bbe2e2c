/* dequantize_rowwise on CUDA: one block per row, out = max_val * x * inv_127 (binary32,
 * left to right, no contraction), stored as float16 (round to nearest). */
#include <cuda_fp16.h>

#include "tlc.cuh"

enum { P_INV, P_N, P_BLOCK, P_P2 };
enum { R_X, R_STATE, R_OUT };

static __global__ void dequantize_rowwise_kernel(const int8_t *x, const float *state, __half *out, float inv_127,
                                                 int64_t B, int64_t P2) {
    int64_t pid = blockIdx.x;
    float max_val = state[pid];
    for (int64_t j = threadIdx.x; j < P2; j += blockDim.x)
        if (j < B) {
            int64_t off = pid * B + j;
            out[off] = __float2half_rn(__fmul_rn(__fmul_rn(max_val, (float)x[off]), inv_127));
        }
}

static int launch(const td_abi_launch *L) {
    int64_t P2 = TLC_I(L, P_P2);
    dequantize_rowwise_kernel<<<tlc_grid(L), tlc_threads(P2), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const int8_t), TLC_PTR(L, R_STATE, const float), TLC_PTR(L, R_OUT, __half), TLC_R(L, P_INV),
        TLC_I(L, P_BLOCK), P2);
    return tlc_check(L, "dequantize_rowwise_kernel");
}

TD_KERNEL(td_kc_dequantize_rowwise) = {"dequantize_rowwise.dequantize_rowwise_correctness", "triton", TD_ABI_CUDA,
                                       "store=fp16:rne:inf", NULL, NULL, 4, 3, launch, NULL};
