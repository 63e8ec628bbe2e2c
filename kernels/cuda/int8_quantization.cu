/* int8_quantization on CUDA: one block per (row block, batch); v = (preScale * x) / scale
 * (IEEE division), v += +-0.5, then the truncating saturating int8 conversion
 * (__float2int_rz clamped; NaN of a zero block converts to 0). */
#include "tlc.cuh"

enum { P_L, P_C, P_BLK, P_SSTRIDE, P_PRESCALE };
enum { R_X, R_SPRE, R_XI8, R_SCALE };

static __global__ void per_block_int8_kernel(const float *X, const float *scale_pre, int8_t *xi8, float *scale_out,
                                             int64_t L, int64_t C, int64_t BLK, int64_t ss, float pre) {
    int64_t k = blockIdx.x, b = blockIdx.y;
    float scale = scale_pre[b * ss + k];
    int64_t rows = L - k * BLK < BLK ? L - k * BLK : BLK;
    for (int64_t e = threadIdx.x; e < rows * C; e += blockDim.x) {
        int64_t o = b * L * C + k * BLK * C + e;
        float v = __fdiv_rn(__fmul_rn(pre, X[o]), scale);
        v = __fadd_rn(v, v >= 0 ? 0.5f : -0.5f);
        int q = v != v ? 0 : __float2int_rz(v);
        xi8[o] = (int8_t)(q > 127 ? 127 : q < -128 ? -128 : q);
    }
    if (threadIdx.x == 0) scale_out[b * ss + k] = scale;
}

static int launch(const td_abi_launch *L) {
    int64_t C = TLC_I(L, P_C), BLK = TLC_I(L, P_BLK);
    per_block_int8_kernel<<<tlc_grid(L), tlc_threads(BLK * C), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_SPRE, const float), TLC_PTR(L, R_XI8, int8_t),
        TLC_PTR(L, R_SCALE, float), TLC_I(L, P_L), C, BLK, TLC_I(L, P_SSTRIDE), TLC_R(L, P_PRESCALE));
    return tlc_check(L, "per_block_int8_kernel");
}

TD_KERNEL(td_kc_per_block_int8) = {"int8_quantization.per_block_int8_correctness", "triton", TD_ABI_CUDA,
                                   "store=int8:rtz:sat", NULL, NULL, 5, 4, launch, NULL};
