/* quantize_kv_transform mutants: the bugs padded int8 KV-cache quantizers ship.
 * mode 0: the quotient rounded half to even where .to(int8) truncates;
 * mode 1: the load masked by head_num only (kv_copy's mask under a padded BLOCK_DMODEL):
 *         the absmax runs over the padded dims, which read the elements past head_dim
 *         (the next head's dims, or beyond the row; a read past K's allocation gives 0);
 * mode 2: the value store masked by head_num only: the padded dims store their q (0)
 *         past the head's last dim (a store past Out's allocation is dropped). */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_HDIM, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT, R_OS };

static float qkvt_load(const td_abi_launch *L, int64_t off) {
    return off >= 0 && (uint64_t)off < TL_LEN(L, R_K) ? tl_load(L, R_K, off) : 0.0f;
}

static int qkvt_mut(const td_abi_launch *L, int mode) {
    int64_t H = TL_I(L, P_HEADS), D = TL_I(L, P_HDIM), BD = TL_I(L, P_BD);
    td_profile store = {TD_I8, mode == 0 ? TD_RNE : TD_RTZ, TD_OVF_SAT, false};
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t h = 0; h < H; h++) {
            int64_t row = t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH), dl = mode == 1 ? BD : D;
            float m = 0.0f;
            for (int64_t d = 0; d < dl; d++) m = fmaxf(m, fabsf(qkvt_load(L, row + d * TL_I(L, P_SKD))));
            float scale = m / 127.0f;
            for (int64_t d = 0; d < (mode == 2 ? BD : D); d++) {
                float x = d < D ? tl_load(L, R_K, row + d * TL_I(L, P_SKD)) : 0.0f;
                int64_t o = dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD);
                if (o >= 0 && (uint64_t)o < TL_LEN(L, R_OUT)) tl_store(L, R_OUT, o, x / scale, store);
            }
            tl_store(L, R_OS, dest * TL_I(L, P_SSBS) + h * TL_I(L, P_SSH), scale, tl_f32());
        }
    }
    return 0;
}
static int qkvt_round_even(const td_abi_launch *L) { return qkvt_mut(L, 0); }
static int qkvt_absmax_padding(const td_abi_launch *L) { return qkvt_mut(L, 1); }
static int qkvt_store_padding(const td_abi_launch *L) { return qkvt_mut(L, 2); }

#define QKVT_S "quantize_kv_transform.destindex_copy_quantize_kv_transform_output_summary_general"
#define QKVT_I "quantize_kv_transform.quantize_kv_transform_io_correctness"
TD_KERNEL(td_m_qkvt_s_round_even) = {QKVT_S, "mut_round_half_even", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "the quotient rounded half to even, not truncated", 13, 4, qkvt_round_even, NULL};
TD_KERNEL(td_m_qkvt_s_absmax_pad) = {QKVT_S, "mut_absmax_padding", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "load not masked by head_dim: the absmax runs over the padded dims", 13, 4, qkvt_absmax_padding, NULL};
TD_KERNEL(td_m_qkvt_s_store_pad) = {QKVT_S, "mut_store_padding", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "value store not masked by head_dim: padded dims written", 13, 4, qkvt_store_padding, NULL};
TD_KERNEL(td_m_qkvt_i_round_even) = {QKVT_I, "mut_round_half_even", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "the quotient rounded half to even, not truncated", 13, 4, qkvt_round_even, NULL};
TD_KERNEL(td_m_qkvt_i_absmax_pad) = {QKVT_I, "mut_absmax_padding", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "load not masked by head_dim: the absmax runs over the padded dims", 13, 4, qkvt_absmax_padding, NULL};
TD_KERNEL(td_m_qkvt_i_store_pad) = {QKVT_I, "mut_store_padding", TD_ABI_HOST, "store=int8:rtz:sat", NULL,
    "value store not masked by head_dim: padded dims written", 13, 4, qkvt_store_padding, NULL};
