/* quantize_copy_kv mutants: the bugs int8 KV-cache quantizers ship.
 * mode 0: the quotient rounded half to even (llrint / tl.extra...rint) where .to(int8)
 *         truncates;
 * mode 1: the absmax without tl.abs (tl.max(src)): a head whose largest magnitude is
 *         negative gets a smaller (or negative) scale;
 * mode 2: the value divided by the binary32 scale, only the stored scale cast to fp16
 *         (the .to(tl.float16) moved to the store);
 * mode 3: the scale stored at the token's own row t instead of Dest_loc[t]. */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT, R_OS };

static int qckv_mut(const td_abi_launch *L, int mode) {
    int64_t H = TL_I(L, P_HEADS), BD = TL_I(L, P_BD);
    td_profile store = {TD_I8, mode == 0 ? TD_RNE : TD_RTZ, TD_OVF_SAT, false}, half = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t), kb = t * TL_I(L, P_SKBS);
        for (int64_t h = 0; h < H; h++) {
            float m = mode == 1 ? -INFINITY : 0.0f;
            for (int64_t d = 0; d < BD; d++) {
                float x = tl_load(L, R_K, kb + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD));
                m = fmaxf(m, mode == 1 ? x : fabsf(x));
            }
            float s32 = m / 127.0f, scale = (float)td_decode(TD_F16, td_encode_f32(half, s32));
            for (int64_t d = 0; d < BD; d++) {
                float x = tl_load(L, R_K, kb + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD));
                tl_store(L, R_OUT, dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD),
                         x / (mode == 2 ? s32 : scale), store);
            }
            int64_t so = (mode == 3 ? (int64_t)t : dest) * TL_I(L, P_SSBS) + h * TL_I(L, P_SSH);
            if (so >= 0 && (uint64_t)so < TL_LEN(L, R_OS)) tl_store(L, R_OS, so, scale, half);
        }
    }
    return 0;
}
static int qckv_round_even(const td_abi_launch *L) { return qckv_mut(L, 0); }
static int qckv_max_no_abs(const td_abi_launch *L) { return qckv_mut(L, 1); }
static int qckv_scale_unrounded(const td_abi_launch *L) { return qckv_mut(L, 2); }
static int qckv_scale_row_t(const td_abi_launch *L) { return qckv_mut(L, 3); }

#define QCKV_S "quantize_copy_kv.destindex_copy_quantize_kv_output_summary_general"
#define QCKV_I "quantize_copy_kv.quantize_copy_kv_io_correctness"
#define QCKV_CASTS "store=int8:rtz:sat;scale=fp16:rne:inf"
TD_KERNEL(td_m_qckv_s_round_even) = {QCKV_S, "mut_round_half_even", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the quotient rounded half to even, not truncated", 12, 4, qckv_round_even, NULL};
TD_KERNEL(td_m_qckv_s_no_abs) = {QCKV_S, "mut_max_no_abs", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the head's max taken without tl.abs", 12, 4, qckv_max_no_abs, NULL};
TD_KERNEL(td_m_qckv_s_unrounded) = {QCKV_S, "mut_scale_unrounded", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the value divided by the binary32 scale (fp16 cast only at the store)", 12, 4, qckv_scale_unrounded, NULL};
TD_KERNEL(td_m_qckv_s_row_t) = {QCKV_S, "mut_scale_row_t", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the scale stored at row t, not Dest_loc[t]", 12, 4, qckv_scale_row_t, NULL};
TD_KERNEL(td_m_qckv_i_round_even) = {QCKV_I, "mut_round_half_even", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the quotient rounded half to even, not truncated", 12, 4, qckv_round_even, NULL};
TD_KERNEL(td_m_qckv_i_no_abs) = {QCKV_I, "mut_max_no_abs", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the head's max taken without tl.abs", 12, 4, qckv_max_no_abs, NULL};
TD_KERNEL(td_m_qckv_i_unrounded) = {QCKV_I, "mut_scale_unrounded", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the value divided by the binary32 scale (fp16 cast only at the store)", 12, 4, qckv_scale_unrounded, NULL};
TD_KERNEL(td_m_qckv_i_row_t) = {QCKV_I, "mut_scale_row_t", TD_ABI_HOST, QCKV_CASTS, NULL,
    "the scale stored at row t, not Dest_loc[t]", 12, 4, qckv_scale_row_t, NULL};
