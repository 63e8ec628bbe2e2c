/* quantize_kv_copy, alternative alt_reciprocal: the whole token at once (heads and groups
 * in one loop, last to first, no tile); per group the absmax by a plain scan, the scale
 * m * (1/127) (the constant's reciprocal rounded once), each value multiplied by the
 * scale's reciprocal (formed once per group) and truncated with the rounding library's
 * quantization cast (td_q_encode_f32: NaN of a zero group -> 0).  One kernel for both
 * theorems. */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKG, P_SKD, P_SOBS, P_SOH, P_SOG, P_SOD, P_SSBS, P_SSH, P_SSG, P_G, P_BGN, P_BGD };
enum { R_K, R_DEST, R_OUT, R_OS };

static int reciprocal(const td_abi_launch *L) {
    int64_t G = TL_I(L, P_G), BGD = TL_I(L, P_BGD), H = L->grid[1];
    int8_t *out = (int8_t *)TL_BASE(L, R_OUT);
    float *os = (float *)TL_BASE(L, R_OS);
    for (int64_t t = (int64_t)L->grid[0] - 1; t >= 0; t--) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t hg = H * G - 1; hg >= 0; hg--) {
            int64_t h = hg / G, g = hg % G;
            int64_t kb = t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH) + g * TL_I(L, P_SKG);
            int64_t ob = dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + g * TL_I(L, P_SOG);
            float m = 0.0f;
            for (int64_t d = 0; d < BGD; d++) m = fmaxf(m, fabsf(tl_load(L, R_K, kb + d)));
            float scale = m * (1.0f / 127.0f), inv = 1.0f / scale;
            for (int64_t d = 0; d < BGD; d++)
                out[ob + d] = (int8_t)td_q_decode(
                    TD_Q_I8, td_q_encode_f32(tl_load(L, R_K, kb + d) * inv, TD_Q_I8, TD_Q_TRUNC, TD_Q_SAT));
            os[dest * TL_I(L, P_SSBS) + h * TL_I(L, P_SSH) + g] = scale;
        }
    }
    return 0;
}

TD_KERNEL(td_a_qkvc_summary) = {"quantize_kv_copy.destindex_copy_quantize_kv_group_output_summary_general",
                                "alt_reciprocal", TD_ABI_HOST, "store=int8:rtz:sat", NULL, NULL, 14, 4, reciprocal,
                                NULL};
TD_KERNEL(td_a_qkvc_io) = {"quantize_kv_copy.quantize_kv_copy_io_correctness", "alt_reciprocal", TD_ABI_HOST,
                           "store=int8:rtz:sat", NULL, NULL, 14, 4, reciprocal, NULL};
