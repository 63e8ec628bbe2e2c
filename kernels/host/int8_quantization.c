/* int8_quantization (per_block_int8_store_slice: SageAttention's per-block kernels with
 * the scale read from ScalePre): grid (cdiv(L, BLK), batches), a [BLK, C] tile per
 * program, rows masked by offs_m < L; v = (preScale * x) / scale; v += 0.5 * (v >= 0 ?
 * 1 : -1); XInt8 = v.to(int8) (truncation, saturating; NaN -> 0); Scale = scale.
 * Parameters: L, C, BLK, scale_stride, preScale.  Regions: X, ScalePre, XInt8, Scale. */
#include "tl.h"

enum { P_L, P_C, P_BLK, P_SSTRIDE, P_PRESCALE };
enum { R_X, R_SPRE, R_XI8, R_SCALE };

static int per_block_int8(const td_abi_launch *L) {
    int64_t Ln = TL_I(L, P_L), C = TL_I(L, P_C), BLK = TL_I(L, P_BLK), ss = TL_I(L, P_SSTRIDE);
    float pre = TL_R(L, P_PRESCALE);
    td_profile store = {TD_I8, TD_RTZ, TD_OVF_SAT, false};
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t k = 0; k < L->grid[0]; k++) {
            int64_t x_offset = (int64_t)b * Ln * C;
            float scale = tl_load(L, R_SPRE, (int64_t)b * ss + k);
            for (int64_t m = 0; m < BLK; m++) {
                int64_t offs_m = (int64_t)k * BLK + m;
                if (!(offs_m < Ln)) continue;
                for (int64_t kk = 0; kk < C; kk++) {
                    int64_t off = x_offset + offs_m * C + kk;
                    float v = (pre * tl_load(L, R_X, off)) / scale;
                    v += 0.5f * (v >= 0 ? 1.0f : -1.0f);
                    tl_store(L, R_XI8, off, v, store);
                }
            }
            tl_store(L, R_SCALE, (int64_t)b * ss + k, scale, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_per_block_int8) = {"int8_quantization.per_block_int8_correctness", "triton", TD_ABI_HOST,
                                  "store=int8:rtz:sat", NULL, NULL, 5, 4, per_block_int8, NULL};
