/* quantize_copy_kv, alternative alt_reciprocal: tokens and heads visited last to first,
 * no tile; per head the absmax by a plain scan, the scale as m * (1/127) (the constant's
 * reciprocal, rounded once) cast to fp16, then each value multiplied by the reciprocal of
 * that scale (formed once per head) and truncated with the rounding library's
 * quantization cast (td_q_encode_f32: NaN of a zero head -> 0, saturating).  One kernel
 * for both theorems. */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_SSBS, P_SSH, P_SSD, P_HEADS, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT, R_OS };

static int reciprocal(const td_abi_launch *L) {
    int64_t H = TL_I(L, P_HEADS), D = TL_I(L, P_BD);
    td_profile half = {TD_F16, TD_RNE, TD_OVF_INF, false};
    int8_t *out = (int8_t *)TL_BASE(L, R_OUT);
    for (int64_t t = (int64_t)L->grid[0] - 1; t >= 0; t--) {
        int64_t dest = tl_load_int(L, R_DEST, t), kb = t * TL_I(L, P_SKBS);
        for (int64_t h = H - 1; h >= 0; h--) {
            const int64_t row = kb + h * TL_I(L, P_SKH);
            float m = 0.0f;
            for (int64_t d = 0; d < D; d++) m = fmaxf(m, fabsf(tl_load(L, R_K, row + d * TL_I(L, P_SKD))));
            float scale = (float)td_decode(TD_F16, td_encode_f32(half, m * (1.0f / 127.0f)));
            float inv = 1.0f / scale;
            for (int64_t d = 0; d < D; d++) {
                float x = tl_load(L, R_K, row + d * TL_I(L, P_SKD));
                out[dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD)] =
                    (int8_t)td_q_decode(TD_Q_I8, td_q_encode_f32(x * inv, TD_Q_I8, TD_Q_TRUNC, TD_Q_SAT));
            }
            tl_store(L, R_OS, dest * TL_I(L, P_SSBS) + h * TL_I(L, P_SSH), scale, half);
        }
    }
    return 0;
}

TD_KERNEL(td_a_qckv_summary) = {"quantize_copy_kv.destindex_copy_quantize_kv_output_summary_general",
                                "alt_reciprocal", TD_ABI_HOST, "store=int8:rtz:sat;scale=fp16:rne:inf", NULL, NULL,
                                12, 4, reciprocal, NULL};
TD_KERNEL(td_a_qckv_io) = {"quantize_copy_kv.quantize_copy_kv_io_correctness", "alt_reciprocal", TD_ABI_HOST,
                           "store=int8:rtz:sat;scale=fp16:rne:inf", NULL, NULL, 12, 4, reciprocal, NULL};
