/* quantize_kv_copy (lightllm's groupwise _fwd_kernel_destindex_copy_quantize_kv): program
 * (t, head) loads the [BLOCK_GROUP_NUM, BLOCK_GROUP_DIM] tile of token t's head (groups
 * masked g < group_size, other=0.0; d unscaled: unit stride), each group's absmax, the
 * scale (max / 127.0) in Out_scale's dtype (binary32 here), the values
 * (src / scale).to(int8) (truncation; NaN of a zero group -> 0), stored at cache row
 * Dest_loc[t] with the scales (Out_scale + ... + offs_g, g < group_size).
 * Parameters: stride_k_bs/h/g/d, stride_o_bs/h/g/d, stride_os_bs/h/g, group_size,
 * BLOCK_GROUP_NUM, BLOCK_GROUP_DIM.  Regions: K, Dest_loc, Out (int8), Out_scale (fp32). */
#include "tl.h"

enum { P_SKBS, P_SKH, P_SKG, P_SKD, P_SOBS, P_SOH, P_SOG, P_SOD, P_SSBS, P_SSH, P_SSG, P_G, P_BGN, P_BGD };
enum { R_K, R_DEST, R_OUT, R_OS };

static int quantize_kv_copy(const td_abi_launch *L) {
    int64_t G = TL_I(L, P_G), BGN = TL_I(L, P_BGN), BGD = TL_I(L, P_BGD);
    td_profile store = {TD_I8, TD_RTZ, TD_OVF_SAT, false};
    float *src;
    TL_ALLOC(L, src, BGN * BGD);
    for (uint32_t t = 0; t < L->grid[0]; t++)
        for (uint32_t head = 0; head < L->grid[1]; head++) {
            int64_t dest = tl_load_int(L, R_DEST, t), kb = t * TL_I(L, P_SKBS) + head * TL_I(L, P_SKH);
            int64_t ob = dest * TL_I(L, P_SOBS) + head * TL_I(L, P_SOH), sb = dest * TL_I(L, P_SSBS) + head * TL_I(L, P_SSH);
            for (int64_t g = 0; g < BGN; g++)
                for (int64_t d = 0; d < BGD; d++) src[g * BGD + d] = g < G ? tl_load(L, R_K, kb + g * TL_I(L, P_SKG) + d) : 0.0f;
            for (int64_t g = 0; g < BGN; g++) {
                float m = 0.0f;
                for (int64_t d = 0; d < BGD; d++) m = fmaxf(m, fabsf(src[g * BGD + d]));
                float scale = m / 127.0f; /* .to(Out_scale.dtype.element_ty): binary32 */
                if (!(g < G)) continue;   /* store masks */
                for (int64_t d = 0; d < BGD; d++) tl_store(L, R_OUT, ob + g * TL_I(L, P_SOG) + d, src[g * BGD + d] / scale, store);
                tl_store(L, R_OS, sb + g, scale, tl_f32());
            }
        }
    free(src);
    return 0;
}

#define QKVC_S "quantize_kv_copy.destindex_copy_quantize_kv_group_output_summary_general"
#define QKVC_I "quantize_kv_copy.quantize_kv_copy_io_correctness"
TD_KERNEL(td_k_qkvc_summary) = {QKVC_S, "triton", TD_ABI_HOST, "store=int8:rtz:sat", NULL, NULL, 14, 4,
                                quantize_kv_copy, NULL};
TD_KERNEL(td_k_qkvc_io) = {QKVC_I, "triton", TD_ABI_HOST, "store=int8:rtz:sat", NULL, NULL, 14, 4, quantize_kv_copy,
                           NULL};
