/* int8_matmul_quantization, alternatives.
 *
 * quantize, alt_reciprocal: one sequential pass for the row's absmax (fmaxf), the
 * reciprocal r = 127 / a_max formed once per row and every element quantized as
 * (int)(x * r) (C's truncation toward zero), a zero row stored as 0; the scale
 * a_max / 127 stored as fp16.  Admissible: x * (127 / a_max) is one of the quotient's
 * forms (two binary32 roundings), truncated as .to(tl.int8) does.
 *
 * matmul, alt_int64_scale_product: the integer dot in int64 (exact; int32 would give
 * the same under hOvf), converted to binary32, times the product of the two scales
 * formed first: acc * (a_scale * b_scale), the other association, stored as fp16.
 */
#include "tl.h"

enum { Q_M, Q_K, Q_SFM, Q_SFK, Q_SAM, Q_SAK, Q_SASM, Q_BM };
enum { Q_RFPA, Q_RA, Q_RAS };

static int q_reciprocal(const td_abi_launch *L) {
    int64_t K = TL_I(L, Q_K), rows = (int64_t)L->grid[0] * TL_I(L, Q_BM);
    td_profile f16 = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (int64_t row = 0; row < rows; row++) {
        float m = 0.0f;
        for (int64_t k = 0; k < K; k++) m = fmaxf(m, fabsf(tl_load(L, Q_RFPA, row * TL_I(L, Q_SFM) + k * TL_I(L, Q_SFK))));
        float r = m > 0.0f ? 127.0f / m : 0.0f;
        for (int64_t k = 0; k < K; k++) {
            float q = tl_load(L, Q_RFPA, row * TL_I(L, Q_SFM) + k * TL_I(L, Q_SFK)) * r;
            ((int8_t *)TL_BASE(L, Q_RA))[row * TL_I(L, Q_SAM) + k * TL_I(L, Q_SAK)] = (int8_t)(int)q;
        }
        int64_t pid = row / TL_I(L, Q_BM), i = row % TL_I(L, Q_BM);
        tl_store(L, Q_RAS, pid * TL_I(L, Q_BM) * TL_I(L, Q_SASM) + i, m / 127.0f, f16);
    }
    return 0;
}

enum { MI_M, MI_N, MI_K, MI_SAM, MI_SAK, MI_SASM, MI_SBK, MI_SBN, MI_SBSN, MI_SCM, MI_SCN };
enum { MI_RA, MI_RAS, MI_RB, MI_RBS, MI_RC };

static int mi_int64(const td_abi_launch *L) {
    int64_t M = TL_I(L, MI_M), N = TL_I(L, MI_N), K = TL_I(L, MI_K);
    td_profile f16 = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (int64_t col = 0; col < N; col++)
        for (int64_t row = 0; row < M; row++) {
            int64_t acc = 0;
            for (int64_t k = 0; k < K; k++)
                acc += tl_load_int(L, MI_RA, row * TL_I(L, MI_SAM) + k * TL_I(L, MI_SAK)) *
                       tl_load_int(L, MI_RB, k * TL_I(L, MI_SBK) + col * TL_I(L, MI_SBN));
            float s = tl_load(L, MI_RAS, row * TL_I(L, MI_SASM)) * tl_load(L, MI_RBS, col * TL_I(L, MI_SBSN));
            tl_store(L, MI_RC, row * TL_I(L, MI_SCM) + col * TL_I(L, MI_SCN), (float)acc * s, f16);
        }
    return 0;
}

TD_KERNEL(td_a_int8_matmul_quantization_quantize) = {
    "int8_matmul_quantization.int8_matmul_quantization_quantize_exec_genuine", "alt_reciprocal", TD_ABI_HOST,
    "store=int8:rtz:sat;scale=fp16:rne:inf", NULL, NULL, 10, 3, q_reciprocal, NULL};
TD_KERNEL(td_a_int8_matmul_quantization_matmul) = {
    "int8_matmul_quantization.int8_matmul_quantization_matmul_exec_genuine", "alt_int64_scale_product", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, NULL, 16, 5, mi_int64, NULL};
