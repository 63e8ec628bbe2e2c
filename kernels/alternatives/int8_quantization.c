/* int8_quantization, alternative alt_roundf: the reciprocal of the block scale formed
 * once (x * (1/scale) instead of x / scale) and v rounded half away from zero exactly
 * (the rounding library's td_q_encode_f32 TD_Q_HALF_AWAY, saturating: roundf's rule,
 * no binary32 addition of 0.5); a zero scale stores 0 explicitly. */
#include "../host/tl.h"

enum { P_L, P_C, P_BLK, P_SSTRIDE, P_PRESCALE };
enum { R_X, R_SPRE, R_XI8, R_SCALE };

static int roundf_kernel(const td_abi_launch *L) {
    int64_t Ln = TL_I(L, P_L), C = TL_I(L, P_C), BLK = TL_I(L, P_BLK), ss = TL_I(L, P_SSTRIDE);
    float pre = TL_R(L, P_PRESCALE);
    int8_t *out = (int8_t *)TL_BASE(L, R_XI8);
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t k = 0; k < L->grid[0]; k++) {
            float scale = tl_load(L, R_SPRE, (int64_t)b * ss + k), r = scale != 0 ? 1.0f / scale : 0.0f;
            int64_t rows = Ln - (int64_t)k * BLK < BLK ? Ln - (int64_t)k * BLK : BLK;
            for (int64_t e = 0; e < rows * C; e++) {
                int64_t o = (int64_t)b * Ln * C + (int64_t)k * BLK * C + e;
                out[o] = (int8_t)td_q_decode(TD_Q_I8, td_q_encode_f32(pre * tl_load(L, R_X, o) * r, TD_Q_I8,
                                                                      TD_Q_HALF_AWAY, TD_Q_SAT));
            }
            tl_store(L, R_SCALE, (int64_t)b * ss + k, scale, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_per_block_int8) = {"int8_quantization.per_block_int8_correctness", "alt_roundf", TD_ABI_HOST,
                                  "store=int8:rtz:sat", NULL, NULL, 5, 4, roundf_kernel, NULL};
