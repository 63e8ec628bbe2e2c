/* rowwise_quantization_triton on CUDA: one block per row; the row absmax by a shared
 * reduction, out = (int8) llrint(127 * (x / max)) (__float2ll_rn: half to even; NaN of a
 * zero row converts to an integer whose low byte the store keeps), max as float16. */
#include <cuda_fp16.h>

#include "tlc.cuh"

enum { P_N, P_BLOCK, P_P2 };
enum { R_X, R_INERT, R_OUT, R_MAXS };

static __global__ void quantize_rowwise_kernel(const float *x, int8_t *out, __half *maxs, int64_t B, int64_t P2) {
    __shared__ float red[256];
    int64_t base = (int64_t)blockIdx.x * B, n = B < P2 ? B : P2;
    float m = 0.0f;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) m = fmaxf(m, fabsf(x[base + j]));
    red[threadIdx.x] = m;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    float max_val = red[0];
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
        float v = __fmul_rn(127.0f, __fdiv_rn(x[base + j], max_val));
        long long q = v != v ? 0 : __float2ll_rn(v); /* PTX cvt: NaN -> 0 */
        out[base + j] = (int8_t)(unsigned char)(q & 0xff);
    }
    if (threadIdx.x == 0) maxs[blockIdx.x] = __float2half_rn(max_val);
}

static int launch(const td_abi_launch *L) {
    int64_t P2 = TLC_I(L, P_P2);
    unsigned t = P2 >= 256 ? 256u : 32u;
    while (t < 256u && t < (unsigned)P2) t *= 2; /* a power of two for the tree */
    quantize_rowwise_kernel<<<tlc_grid(L), t, 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_OUT, int8_t), TLC_PTR(L, R_MAXS, __half), TLC_I(L, P_BLOCK), P2);
    return tlc_check(L, "quantize_rowwise_kernel");
}

TD_KERNEL(td_kc_quantize_rowwise) = {"rowwise_quantization_triton.quantize_rowwise_correctness", "triton",
                                     TD_ABI_CUDA, "store=int8:rne:wrap;maxs=fp16:rne:inf", NULL, NULL, 3, 4, launch,
                                     NULL};
