/* quantize_copy_kv (lightllm _fwd_kernel_destindex_copy_quantize_kv): program t loads
 * token t's [BLOCK_HEAD, BLOCK_DMODEL] tile (heads masked h < head_num, other=0.0), takes
 * each head's absmax (tl.max of tl.abs, axis=1), the scale (max / 127.).to(float16), the
 * values (src / scale).to(int8) (truncation toward zero; 0 / 0 = NaN converts to 0) and
 * stores both at cache row Dest_loc[t], head-masked.
 * Parameters: stride_k_bs/h/d, stride_o_bs/h/d, stride_os_bs/h/d, head_num, BLOCK_DMODEL,
 * BLOCK_HEAD.  Regions: K, Dest_loc, Out (int8), Out_scale (fp16). */
#include "tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT, R_OS };

static int quantize_copy_kv(const td_abi_launch *L) {
    int64_t H = TL_I(L, P_HEADS), BD = TL_I(L, P_BD), BH = TL_I(L, P_BH);
    td_profile store = {TD_I8, TD_RTZ, TD_OVF_SAT, false}, half = {TD_F16, TD_RNE, TD_OVF_INF, false};
    float *src;
    TL_ALLOC(L, src, BH * BD);
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t h = 0; h < BH; h++)
            for (int64_t d = 0; d < BD; d++)
                src[h * BD + d] = h < H ? tl_load(L, R_K, t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD))
                                        : 0.0f;
        for (int64_t h = 0; h < BH; h++) {
            float m = 0.0f;
            for (int64_t d = 0; d < BD; d++) m = fmaxf(m, fabsf(src[h * BD + d]));
            float scale = (float)td_decode(TD_F16, td_encode_f32(half, m / 127.0f)); /* .to(tl.float16) */
            if (!(h < H)) continue; /* store mask */
            for (int64_t d = 0; d < BD; d++)
                tl_store(L, R_OUT, dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD),
                         src[h * BD + d] / scale, store);
            tl_store(L, R_OS, dest * TL_I(L, P_SSBS) + h * TL_I(L, P_SSH), scale, half);
        }
    }
    free(src);
    return 0;
}

#define QCKV_S "quantize_copy_kv.destindex_copy_quantize_kv_output_summary_general"
#define QCKV_I "quantize_copy_kv.quantize_copy_kv_io_correctness"
#define QCKV_CASTS "store=int8:rtz:sat;scale=fp16:rne:inf"
TD_KERNEL(td_k_qckv_summary) = {QCKV_S, "triton", TD_ABI_HOST, QCKV_CASTS, NULL, NULL, 12, 4, quantize_copy_kv, NULL};
TD_KERNEL(td_k_qckv_io) = {QCKV_I, "triton", TD_ABI_HOST, QCKV_CASTS, NULL, NULL, 12, 4, quantize_copy_kv, NULL};
