/* rowwise_quantization_triton, alternative alt_reciprocal: the row's absmax by a plain
 * scan, the factor 127 / absmax formed once per row and each element multiplied by it
 * (a reciprocal-multiply scale), rounded half to even with the rounding library's
 * quantization cast (td_q_encode_f32, wrap); a zero row stores 0 explicitly. */
#include "../host/tl.h"

enum { P_N, P_BLOCK, P_P2 };
enum { R_X, R_INERT, R_OUT, R_MAXS };

static int reciprocal(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2), n = B < P2 ? B : P2;
    td_profile maxs = {TD_F16, TD_RNE, TD_OVF_INF, false};
    int8_t *out = (int8_t *)TL_BASE(L, R_OUT);
    for (uint32_t r = 0; r < L->grid[0]; r++) {
        float m = 0.0f;
        for (int64_t j = 0; j < n; j++) m = fmaxf(m, fabsf(tl_load(L, R_X, (int64_t)r * B + j)));
        float f = m > 0 ? 127.0f / m : 0.0f;
        for (int64_t j = 0; j < n; j++) {
            int64_t off = (int64_t)r * B + j;
            out[off] = (int8_t)td_q_decode(TD_Q_I8, td_q_encode_f32(tl_load(L, R_X, off) * f, TD_Q_I8,
                                                                    TD_Q_HALF_EVEN, TD_Q_WRAP));
        }
        tl_store(L, R_MAXS, r, m, maxs);
    }
    return 0;
}

TD_KERNEL(td_a_quantize_rowwise) = {"rowwise_quantization_triton.quantize_rowwise_correctness", "alt_reciprocal",
                                    TD_ABI_HOST, "store=int8:rne:wrap;maxs=fp16:rne:inf", NULL, NULL, 3, 4, reciprocal,
                                    NULL};
