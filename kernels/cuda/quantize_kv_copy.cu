/* quantize_kv_copy on CUDA: one block per (token, head) (grid = (seq_len, head_num)), a
 * thread per group: the group's absmax over its BLOCK_GROUP_DIM contiguous dims, the scale
 * max / 127 (binary32, Out_scale's dtype), the values (x / scale) truncated toward zero
 * (__float2int_rz: PTX cvt.rzi, NaN of a zero group -> 0) and saturated to int8, stored at
 * cache row Dest_loc[t] with the scales (unit group stride, as the kernel's offs_g). */
#include "tlc.cuh"

enum { P_SKBS, P_SKH, P_SKG, P_SKD, P_SOBS, P_SOH, P_SOG, P_SOD, P_SSBS, P_SSH, P_SSG, P_G, P_BGN, P_BGD };
enum { R_K, R_DEST, R_OUT, R_OS };

static __global__ void quantize_kv_copy_kernel(const float *K, const int64_t *dest_loc, int8_t *Out, float *Os,
                                               int64_t skbs, int64_t skh, int64_t skg, int64_t sobs, int64_t soh,
                                               int64_t sog, int64_t ssbs, int64_t ssh, int64_t G, int64_t BGD) {
    int64_t t = blockIdx.x, head = blockIdx.y, dest = dest_loc[t];
    for (int64_t g = threadIdx.x; g < G; g += blockDim.x) {
        const float *row = K + t * skbs + head * skh + g * skg;
        float m = 0.0f;
        for (int64_t d = 0; d < BGD; d++) m = fmaxf(m, fabsf(row[d]));
        float scale = m / 127.0f;
        for (int64_t d = 0; d < BGD; d++) {
            int q = __float2int_rz(row[d] / scale);
            Out[dest * sobs + head * soh + g * sog + d] = (int8_t)(q > 127 ? 127 : q < -128 ? -128 : q);
        }
        Os[dest * ssbs + head * ssh + g] = scale;
    }
}

static int launch(const td_abi_launch *L) {
    quantize_kv_copy_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, P_BGN)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_K, const float), TLC_PTR(L, R_DEST, const int64_t), TLC_PTR(L, R_OUT, int8_t),
        TLC_PTR(L, R_OS, float), TLC_I(L, P_SKBS), TLC_I(L, P_SKH), TLC_I(L, P_SKG), TLC_I(L, P_SOBS),
        TLC_I(L, P_SOH), TLC_I(L, P_SOG), TLC_I(L, P_SSBS), TLC_I(L, P_SSH), TLC_I(L, P_G), TLC_I(L, P_BGD));
    return tlc_check(L, "quantize_kv_copy");
}

TD_KERNEL(td_kc_qkvc_summary) = {"quantize_kv_copy.destindex_copy_quantize_kv_group_output_summary_general",
                                 "triton", TD_ABI_CUDA, "store=int8:rtz:sat", NULL, NULL, 14, 4, launch, NULL};
TD_KERNEL(td_kc_qkvc_io) = {"quantize_kv_copy.quantize_kv_copy_io_correctness", "triton", TD_ABI_CUDA,
                            "store=int8:rtz:sat", NULL, NULL, 14, 4, launch, NULL};
