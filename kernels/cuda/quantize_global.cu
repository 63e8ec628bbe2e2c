/* quantize_global on CUDA: out = (int8) llrint(127 * (x * absmax_inv)), one block per
 * program; __float2ll_rn is cvt.rni.s64.f32 (half to even), the int8 store truncates. */
#include "tlc.cuh"

enum { P_N, P_BLOCK, P_SCALE };
enum { R_X, R_INV, R_OUT };

static __global__ void quantize_global_kernel(const float *x, const float *absmax_inv, int8_t *out, int64_t n,
                                              int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    float inv = absmax_inv[0];
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (base + j < n) {
            long long q = __float2ll_rn(__fmul_rn(127.0f, __fmul_rn(x[base + j], inv)));
            out[base + j] = (int8_t)(unsigned char)(q & 0xff);
        }
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    quantize_global_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_INV, const float), TLC_PTR(L, R_OUT, int8_t), TLC_I(L, P_N), B);
    return tlc_check(L, "quantize_global_kernel");
}

TD_KERNEL(td_kc_quantize_global) = {"quantize_global.quantize_global_correctness", "triton", TD_ABI_CUDA,
                                    "store=int8:rne:wrap", NULL, NULL, 3, 3, launch, NULL};
