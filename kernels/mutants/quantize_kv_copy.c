/* quantize_kv_copy mutants: the bugs groupwise int8 KV-cache quantizers ship.
 * mode 0: the quotient rounded half to even where .to(int8) truncates;
 * mode 1: one scale per head (the absmax over all of the head's groups: the scale taken
 *         over the wrong axis), stored for every group;
 * mode 2: the scales stored at the token's own row t instead of Dest_loc[t] (the values
 *         at Dest_loc[t]);
 * mode 3: cur_index * stride_k_bs formed in int32 (Triton's default for an int32
 *         program id and stride): beyond 2^31 elements the token's loads wrap (an
 *         illegal address on a GPU: tl_fault) or read another token. */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKG, P_SKD, P_SOBS, P_SOH, P_SOG, P_SOD, P_SSBS, P_SSH, P_SSG, P_G, P_BGN, P_BGD };
enum { R_K, R_DEST, R_OUT, R_OS };

static int qkvc_mut(const td_abi_launch *L, int mode) {
    int64_t G = TL_I(L, P_G), BGD = TL_I(L, P_BGD);
    td_profile store = {TD_I8, mode == 0 ? TD_RNE : TD_RTZ, TD_OVF_SAT, false};
    for (uint32_t t = 0; t < L->grid[0]; t++)
        for (uint32_t head = 0; head < L->grid[1]; head++) {
            int64_t dest = tl_load_int(L, R_DEST, t), kb = t * TL_I(L, P_SKBS) + head * TL_I(L, P_SKH);
            if (mode == 3) {
                kb = tl_i32((int64_t)t * tl_i32(TL_I(L, P_SKBS))) + head * TL_I(L, P_SKH);
                int64_t w = G > 0 ? (G - 1) * TL_I(L, P_SKG) + BGD : 0;
                if (tl_fault(L, R_K, kb, w, 1, t)) return 1;
            }
            int64_t ob = dest * TL_I(L, P_SOBS) + head * TL_I(L, P_SOH);
            int64_t sb = (mode == 2 ? (int64_t)t : dest) * TL_I(L, P_SSBS) + head * TL_I(L, P_SSH);
            float hm = 0.0f;
            for (int64_t g = 0; g < G; g++)
                for (int64_t d = 0; d < BGD; d++) hm = fmaxf(hm, fabsf(tl_load(L, R_K, kb + g * TL_I(L, P_SKG) + d)));
            for (int64_t g = 0; g < G; g++) {
                float m = 0.0f;
                for (int64_t d = 0; d < BGD; d++) m = fmaxf(m, fabsf(tl_load(L, R_K, kb + g * TL_I(L, P_SKG) + d)));
                float scale = (mode == 1 ? hm : m) / 127.0f;
                for (int64_t d = 0; d < BGD; d++)
                    tl_store(L, R_OUT, ob + g * TL_I(L, P_SOG) + d, tl_load(L, R_K, kb + g * TL_I(L, P_SKG) + d) / scale,
                             store);
                if (sb + g >= 0 && (uint64_t)(sb + g) < TL_LEN(L, R_OS)) tl_store(L, R_OS, sb + g, scale, tl_f32());
            }
        }
    return 0;
}
static int qkvc_round_even(const td_abi_launch *L) { return qkvc_mut(L, 0); }
static int qkvc_scale_per_head(const td_abi_launch *L) { return qkvc_mut(L, 1); }
static int qkvc_scale_row_t(const td_abi_launch *L) { return qkvc_mut(L, 2); }
static int qkvc_offset_int32(const td_abi_launch *L) { return qkvc_mut(L, 3); }

#define QKVC_S "quantize_kv_copy.destindex_copy_quantize_kv_group_output_summary_general"
#define QKVC_I "quantize_kv_copy.quantize_kv_copy_io_correctness"
TD_KERNEL(td_m_qkvc_s_round_even) = {QKVC_S, "mut_round_half_even", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "the quotient rounded half to even, not truncated", 14, 4, qkvc_round_even, NULL};
TD_KERNEL(td_m_qkvc_s_per_head) = {QKVC_S, "mut_scale_per_head", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "one scale per head (absmax over every group), not per group", 14, 4, qkvc_scale_per_head, NULL};
TD_KERNEL(td_m_qkvc_s_row_t) = {QKVC_S, "mut_scale_row_t", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "the scales stored at row t, not Dest_loc[t]", 14, 4, qkvc_scale_row_t, NULL};
TD_KERNEL(td_m_qkvc_i_round_even) = {QKVC_I, "mut_round_half_even", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "the quotient rounded half to even, not truncated", 14, 4, qkvc_round_even, NULL};
TD_KERNEL(td_m_qkvc_i_per_head) = {QKVC_I, "mut_scale_per_head", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "one scale per head (absmax over every group), not per group", 14, 4, qkvc_scale_per_head, NULL};
TD_KERNEL(td_m_qkvc_i_row_t) = {QKVC_I, "mut_scale_row_t", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "the scales stored at row t, not Dest_loc[t]", 14, 4, qkvc_scale_row_t, NULL};
TD_KERNEL(td_m_qkvc_s_offset_int32) = {QKVC_S, "mut_offset_int32", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "cur_index * stride_k_bs computed in int32 (wraps beyond 2^31 elements)", 14, 4, qkvc_offset_int32, NULL};
TD_KERNEL(td_m_qkvc_i_offset_int32) = {QKVC_I, "mut_offset_int32", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "cur_index * stride_k_bs computed in int32 (wraps beyond 2^31 elements)", 14, 4, qkvc_offset_int32, NULL};
