/* int8_dequant_matmul, alternative: split-K integer GEMV per cell, bias added exactly.
 *
 * alt_splitk_exact_bias: each output cell (row < M, col < N) sums A[row, k] * B[k, col]
 * in two K halves, each in int64 from its last k down, adds the halves (second first),
 * converts the int32 value to binary32, scales it as the kernel writes it
 * (w * (x * (acc * divfactor))), rounds to fp16, and with has_bias adds the fp16 bias
 * exactly (binary64) before the one fp16 rounding of the store.  Admissible: the
 * integer sum is exact in any order (hOvf), the epilogue is the contract's.
 */
#include "tl.h"

enum { P_M, P_N, P_K, P_DIV, P_HASB, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN };
enum { R_A, R_B, R_C, R_BIAS, R_SX, R_SW };

static int64_t half_dot(const td_abi_launch *L, int64_t row, int64_t col, int64_t lo, int64_t hi) {
    int64_t s = 0;
    for (int64_t k = hi - 1; k >= lo; k--)
        s += tl_load_int(L, R_A, row * TL_I(L, P_SAM) + k * TL_I(L, P_SAK)) *
             tl_load_int(L, R_B, k * TL_I(L, P_SBK) + col * TL_I(L, P_SBN));
    return s;
}

static int splitk(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K);
    td_profile f16 = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (int64_t row = 0; row < M; row++)
        for (int64_t col = 0; col < N; col++) {
            int64_t acc = half_dot(L, row, col, K / 2, K) + half_dot(L, row, col, 0, K / 2);
            float x = tl_load(L, R_SX, row), w = tl_load(L, R_SW, col);
            float v = w * (x * ((float)(int32_t)acc * TL_R(L, P_DIV)));
            if (TL_I(L, P_HASB)) {
                double h = td_decode(TD_F16, td_encode_f32(f16, v));
                v = (float)(h + (double)tl_load(L, R_BIAS, col)); /* exact: two fp16 values */
            }
            tl_store(L, R_C, row * TL_I(L, P_SCM) + col * TL_I(L, P_SCN), v, f16);
        }
    return 0;
}

TD_KERNEL(td_a_int8_dequant_matmul) = {"int8_dequant_matmul.int8_dequant_matmul_exec_genuine",
                                       "alt_splitk_exact_bias", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 16, 6,
                                       splitk, NULL};
