/* triton_conv2d_fwd, alternative: a direct convolution, cell by cell.
 *
 * alt_direct: for each output cell (b, oc, oh, ow) of the batch x out-channel x out_h x
 * out_w tensor (no programs, no tiles), one FMA chain acc = fma(x, w, acc) over the
 * group's input channels outermost, then the kernel rows and columns (torch's loop order
 * for a direct convolution), padding positions skipped instead of loaded as 0, the
 * operands rounded to fp16 first (the fp16 flag).  The port sums each BIN-channel block by
 * a pairwise tree and adds the blocks per (h, w) position.  Admissible: another
 * association of the same binary32 sum of the same products (exact fp16 products), FMA
 * included; the same cells, stored as binary32.
 */
#include "alt_common.h"

enum {
    P_B, P_CIN, P_IH, P_IW, P_COUT, P_OH, P_OW, P_IBS, P_IIFS, P_IHS, P_IWS, P_WOFS, P_WIFS, P_WHS, P_WWS, P_OBS,
    P_OOFS, P_OHS, P_OWS, P_KH, P_KW, P_SH, P_SW, P_PH, P_PW, P_G
};
enum { R_IN, R_W, R_OUT };

static float f16(float x) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, x));
}

/* the cell (b, oc, oh, ow): group g = oc / OGD */
static float cell(const td_abi_launch *L, int64_t b, int64_t oc, int64_t oh, int64_t ow) {
    int64_t IGD = TL_I(L, P_CIN) / TL_I(L, P_G), OGD = TL_I(L, P_COUT) / TL_I(L, P_G), g = oc / OGD;
    float acc = 0.0f;
    for (int64_t c = 0; c < IGD; c++)
        for (int64_t h = 0; h < TL_I(L, P_KH); h++) {
            int64_t ih = TL_I(L, P_SH) * oh + h - TL_I(L, P_PH);
            if (ih < 0 || ih >= TL_I(L, P_IH)) continue;
            for (int64_t w = 0; w < TL_I(L, P_KW); w++) {
                int64_t iw = TL_I(L, P_SW) * ow + w - TL_I(L, P_PW);
                if (iw < 0 || iw >= TL_I(L, P_IW)) continue;
                float x = f16(tl_load(L, R_IN, TL_I(L, P_IBS) * b + TL_I(L, P_IIFS) * (g * IGD + c) +
                                                   TL_I(L, P_IHS) * ih + TL_I(L, P_IWS) * iw));
                float y = f16(tl_load(L, R_W, TL_I(L, P_WOFS) * oc + TL_I(L, P_WIFS) * c + TL_I(L, P_WHS) * h +
                                                  TL_I(L, P_WWS) * w));
                acc = fmaf(x, y, acc);
            }
        }
    return acc;
}

static int direct(const td_abi_launch *L) {
    int64_t OGD = TL_I(L, P_COUT) / TL_I(L, P_G);
    for (int64_t b = 0; b < TL_I(L, P_B); b++)
        for (int64_t oc = 0; oc < TL_I(L, P_G) * OGD; oc++)
            for (int64_t oh = 0; oh < TL_I(L, P_OH); oh++)
                for (int64_t ow = 0; ow < TL_I(L, P_OW); ow++)
                    tl_store(L, R_OUT,
                             TL_I(L, P_OBS) * b + TL_I(L, P_OOFS) * oc + TL_I(L, P_OHS) * oh + TL_I(L, P_OWS) * ow,
                             cell(L, b, oc, oh, ow), tl_f32());
    return 0;
}

TD_KERNEL(td_a_triton_conv2d_fwd_cf) = {"triton_conv2d_fwd.conv2d_output_summary", "alt_direct", TD_ABI_HOST, NULL, NULL,
                                        NULL, 31, 3, direct, NULL};
TD_KERNEL(td_a_triton_conv2d_fwd_io) = {"triton_conv2d_fwd.triton_conv2d_fwd_io_correctness", "alt_direct",
                                        TD_ABI_HOST, NULL, NULL, NULL, 31, 3, direct, NULL};
