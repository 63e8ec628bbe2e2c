/* quantize_kv_transform (lightllm _fwd_kernel_destindex_copy_quantize_kv with head_dim):
 * program t loads token t's [BLOCK_HEAD, BLOCK_DMODEL] tile masked h < head_num and
 * d < head_dim (other=0.0), each head's absmax, the scale (max / 127.) in Out_scale's dtype
 * (binary32 here), the values (src / scale).to(int8) (truncation; NaN of a zero head -> 0),
 * stored at cache row Dest_loc[t] (values masked in both axes, scales h < head_num).
 * Parameters: stride_k_bs/h/d, stride_o_bs/h/d, stride_os_bs/h/d, head_num, head_dim,
 * BLOCK_DMODEL, BLOCK_HEAD.  Regions: K, Dest_loc, Out (int8), Out_scale (fp32). */
#include "tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_HDIM, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT, R_OS };

static int quantize_kv_transform(const td_abi_launch *L) {
    int64_t H = TL_I(L, P_HEADS), D = TL_I(L, P_HDIM), BD = TL_I(L, P_BD), BH = TL_I(L, P_BH);
    td_profile store = {TD_I8, TD_RTZ, TD_OVF_SAT, false};
    float *src;
    TL_ALLOC(L, src, BH * BD);
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t h = 0; h < BH; h++)
            for (int64_t d = 0; d < BD; d++)
                src[h * BD + d] = h < H && d < D
                                      ? tl_load(L, R_K, t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD))
                                      : 0.0f;
        for (int64_t h = 0; h < BH; h++) {
            float m = 0.0f;
            for (int64_t d = 0; d < BD; d++) m = fmaxf(m, fabsf(src[h * BD + d]));
            float scale = m / 127.0f; /* .to(Out_scale.dtype.element_ty): binary32 */
            if (!(h < H)) continue;
            for (int64_t d = 0; d < D; d++) /* store mask d < head_dim */
                tl_store(L, R_OUT, dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD),
                         src[h * BD + d] / scale, store);
            tl_store(L, R_OS, dest * TL_I(L, P_SSBS) + h * TL_I(L, P_SSH), scale, tl_f32());
        }
    }
    free(src);
    return 0;
}

#define QKVT_S "quantize_kv_transform.destindex_copy_quantize_kv_transform_output_summary_general"
#define QKVT_I "quantize_kv_transform.quantize_kv_transform_io_correctness"
TD_KERNEL(td_k_qkvt_summary) = {QKVT_S, "triton", TD_ABI_HOST, "store=int8:rtz:sat", NULL, NULL, 13, 4,
                                quantize_kv_transform, NULL};
TD_KERNEL(td_k_qkvt_io) = {QKVT_I, "triton", TD_ABI_HOST, "store=int8:rtz:sat", NULL, NULL, 13, 4,
                           quantize_kv_transform, NULL};
