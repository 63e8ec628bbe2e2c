/* quantize_kv_transform on CUDA: one block per token (grid = (seq_len,)), a thread per
 * head: the absmax over the head_dim real dims, the scale max / 127 (binary32, Out_scale's
 * dtype), the values (x / scale) truncated toward zero (__float2int_rz: PTX cvt.rzi, NaN of
 * a zero head -> 0) and saturated to int8, stored at cache row Dest_loc[t]. */
#include "tlc.cuh"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_HDIM, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT, R_OS };

static __global__ void quantize_kv_transform_kernel(const float *K, const int64_t *dest_loc, int8_t *Out, float *Os,
                                                    int64_t skbs, int64_t skh, int64_t skd, int64_t sobs,
                                                    int64_t soh, int64_t sod, int64_t ssbs, int64_t ssh, int64_t H,
                                                    int64_t D) {
    int64_t t = blockIdx.x, dest = dest_loc[t];
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) {
        const float *row = K + t * skbs + h * skh;
        float m = 0.0f;
        for (int64_t d = 0; d < D; d++) m = fmaxf(m, fabsf(row[d * skd]));
        float scale = m / 127.0f;
        for (int64_t d = 0; d < D; d++) {
            int q = __float2int_rz(row[d * skd] / scale);
            Out[dest * sobs + h * soh + d * sod] = (int8_t)(q > 127 ? 127 : q < -128 ? -128 : q);
        }
        Os[dest * ssbs + h * ssh] = scale;
    }
}

static int launch(const td_abi_launch *L) {
    quantize_kv_transform_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, P_BH)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_K, const float), TLC_PTR(L, R_DEST, const int64_t), TLC_PTR(L, R_OUT, int8_t),
        TLC_PTR(L, R_OS, float), TLC_I(L, P_SKBS), TLC_I(L, P_SKH), TLC_I(L, P_SKD), TLC_I(L, P_SOBS),
        TLC_I(L, P_SOH), TLC_I(L, P_SOD), TLC_I(L, P_SSBS), TLC_I(L, P_SSH), TLC_I(L, P_HEADS), TLC_I(L, P_HDIM));
    return tlc_check(L, "quantize_kv_transform");
}

TD_KERNEL(td_kc_qkvt_summary) = {"quantize_kv_transform.destindex_copy_quantize_kv_transform_output_summary_general",
                                 "triton", TD_ABI_CUDA, "store=int8:rtz:sat", NULL, NULL, 13, 4, launch, NULL};
TD_KERNEL(td_kc_qkvt_io) = {"quantize_kv_transform.quantize_kv_transform_io_correctness", "triton", TD_ABI_CUDA,
                            "store=int8:rtz:sat", NULL, NULL, 13, 4, launch, NULL};
