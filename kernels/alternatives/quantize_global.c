/* quantize_global, alternative alt_scale_first: the factor 127 * absmax_inv formed once
 * (one binary32 product), each element multiplied by it and rounded half to even with
 * the rounding library's quantization cast (numfmt.h td_q_encode_f32, wrap): another
 * association of the same product, another rounding path to the same integers. */
#include "../host/tl.h"

enum { P_N, P_BLOCK, P_SCALE };
enum { R_X, R_INV, R_OUT };

static int scale_first(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N);
    float s = 127.0f * tl_load(L, R_INV, 0);
    int8_t *out = (int8_t *)TL_BASE(L, R_OUT);
    for (int64_t i = 0; i < n; i++)
        out[i] = (int8_t)td_q_decode(TD_Q_I8, td_q_encode_f32(tl_load(L, R_X, i) * s, TD_Q_I8, TD_Q_HALF_EVEN, TD_Q_WRAP));
    return 0;
}

TD_KERNEL(td_a_quantize_global) = {"quantize_global.quantize_global_correctness", "alt_scale_first", TD_ABI_HOST,
                                   "store=int8:rne:wrap", NULL, NULL, 3, 3, scale_first, NULL};
