/* matmul_dequantize, alternatives.
 *
 * dequantize, alt_lut16: per (group, column) a 16-entry table v[q] = (q - zp) * s of
 * every weight nibble's value (each entry one binary32 product of the exact integer
 * difference and the scale, built once per group as lookup-table dequantizers do),
 * then the whole weight matrix written column by column from the table, the nibbles
 * taken from the unsigned word by logical shifts.  Admissible: each output is one
 * correctly rounded product of the exact nibble difference and its group's scale.
 */
#include "tl.h"

enum { DQ_K, DQ_N, DQ_GS, DQ_SBK, DQ_SBN, DQ_SBSK, DQ_SBSN, DQ_SBZK, DQ_SBZN, DQ_SFK, DQ_SFN };
enum { DQ_RB, DQ_RS, DQ_RZ, DQ_RF };

static int dq_lut16(const td_abi_launch *L) {
    int64_t K = TL_I(L, DQ_K), N = TL_I(L, DQ_N), gs = TL_I(L, DQ_GS);
    float lut[16];
    for (int64_t n = 0; n < N; n++)
        for (int64_t g = 0; g * gs < K; g++) {
            uint32_t z = (uint32_t)tl_load_int(L, DQ_RZ, g * TL_I(L, DQ_SBZK) + n / 8 * TL_I(L, DQ_SBZN));
            float s = tl_load(L, DQ_RS, g * TL_I(L, DQ_SBSK) + n * TL_I(L, DQ_SBSN));
            int zq = (int)((z >> (4 * (n % 8))) & 15u);
            for (int q = 0; q < 16; q++) lut[q] = (float)(q - zq) * s;
            for (int64_t k = g * gs; k < K && k < (g + 1) * gs; k++) {
                uint32_t w = (uint32_t)tl_load_int(L, DQ_RB, k / 8 * TL_I(L, DQ_SBK) + n * TL_I(L, DQ_SBN));
                tl_store(L, DQ_RF, k * TL_I(L, DQ_SFK) + n * TL_I(L, DQ_SFN), lut[(w >> (4 * (k % 8))) & 15u],
                         tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_a_matmul_dequantize_dequantize) = {"matmul_dequantize.matmul_dequantize_dequantize_exec_genuine",
                                                "alt_lut16", TD_ABI_HOST, NULL, NULL, NULL, 13, 4, dq_lut16, NULL};

/* matmul, alt_dequant_fp16_then_fma: the weight column dequantized first into an fp16
 * buffer (the s1 path's dequantize-then-mm, one fp16 rounding of the exact
 * (q - zp) * bs, as the kernel's .to(fp16)), then per row an FMA chain over k from
 * K - 1 down to 0 in binary32 (products of fp16 values are exact, so the FMA changes
 * only the addition's rounding), stored as fp16.  Admissible: the contract's weight
 * rounding, a binary32 dot in another order, the fp16 store. */
enum { MQ_M, MQ_N, MQ_K, MQ_SAM, MQ_SAK, MQ_SBK, MQ_SBN, MQ_SCM, MQ_SCN, MQ_SBSK, MQ_SBSN, MQ_SBZK, MQ_SBZN, MQ_GS };
enum { MQ_RA, MQ_RC, MQ_RBS, MQ_RB, MQ_RBZP };

static int mm_dequant_fma(const td_abi_launch *L) {
    int64_t M = TL_I(L, MQ_M), N = TL_I(L, MQ_N), K = TL_I(L, MQ_K), gs = TL_I(L, MQ_GS);
    td_profile f16 = {TD_F16, TD_RNE, TD_OVF_INF, false};
    float *w;
    TL_ALLOC(L, w, K);
    for (int64_t col = 0; col < N; col++) {
        for (int64_t k = 0; k < K; k++) {
            uint32_t b = (uint32_t)tl_load_int(L, MQ_RB, k / 8 * TL_I(L, MQ_SBK) + col * TL_I(L, MQ_SBN));
            uint32_t z = (uint32_t)tl_load_int(L, MQ_RBZP, k / gs * TL_I(L, MQ_SBZK) + col / 8 * TL_I(L, MQ_SBZN));
            int d = (int)((b >> (4 * (k % 8))) & 15u) - (int)((z >> (4 * (col % 8))) & 15u);
            float s = tl_load(L, MQ_RBS, k / gs * TL_I(L, MQ_SBSK) + col * TL_I(L, MQ_SBSN));
            w[k] = (float)td_decode(TD_F16, td_encode_f32(f16, (float)d * s));
        }
        for (int64_t row = 0; row < M; row++) {
            float acc = 0.0f;
            for (int64_t k = K - 1; k >= 0; k--)
                acc = fmaf(tl_load(L, MQ_RA, row * TL_I(L, MQ_SAM) + k * TL_I(L, MQ_SAK)), w[k], acc);
            tl_store(L, MQ_RC, TL_I(L, MQ_SCM) * row + TL_I(L, MQ_SCN) * col, acc, f16);
        }
    }
    free(w);
    return 0;
}

TD_KERNEL(td_a_matmul_dequantize_matmul) = {"matmul_dequantize.matmul_dequantize_matmul_exec_genuine",
                                            "alt_dequant_fp16_then_fma", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                            NULL, 19, 5, mm_dequant_fma, NULL};

/* matmul4: alt_diff_scale_fma (kernels/alternatives/g4_alt.h). */
#include "g4_alt.h"

TD_KERNEL(td_a_matmul_dequantize_matmul4) = {"matmul_dequantize.matmul_dequantize_matmul4_exec_genuine",
                                             "alt_diff_scale_fma", TD_ABI_HOST, NULL, NULL, NULL, 19, 5,
                                             g4_alt_diff_scale_fma, NULL};
