/* int4_matmul, alternative: dequantize the weight first, then an FMA-chain GEMV.
 *
 * alt_dequant_then_fma: for each column col < N, the whole weight column
 * w[k] = (float)(q - zp) * bs (one binary32 product, as the kernel's) is formed for
 * k < K; each row < M then sums fmaf(a[row, k], w[k], acc) from k = K-1 down to 0.
 * Admissible: the contract's weight rounding, then a binary32 dot product in another
 * order with FMA contraction (Higham, ASNA 3.1).
 */
#include "tl.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_SBSK, P_SBSN, P_SBZK, P_SBZN, P_GS };
enum { R_A, R_C, R_BS, R_B, R_BZP };

static int dequant_fma(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), gs = TL_I(L, P_GS);
    float *w;
    TL_ALLOC(L, w, K);
    for (int64_t col = 0; col < N; col++) {
        for (int64_t k = 0; k < K; k++) {
            uint32_t b = (uint32_t)tl_load_int(L, R_B, k / 8 * TL_I(L, P_SBK) + col * TL_I(L, P_SBN));
            uint32_t z = (uint32_t)tl_load_int(L, R_BZP, k / gs * TL_I(L, P_SBZK) + col / 8 * TL_I(L, P_SBZN));
            int d = (int)((b >> (4 * (k % 8))) & 15u) - (int)((z >> (4 * (col % 8))) & 15u);
            w[k] = (float)d * tl_load(L, R_BS, k / gs * TL_I(L, P_SBSK) + col * TL_I(L, P_SBSN));
        }
        for (int64_t row = 0; row < M; row++) {
            float acc = 0.0f;
            for (int64_t k = K - 1; k >= 0; k--)
                acc = fmaf(tl_load(L, R_A, row * TL_I(L, P_SAM) + k * TL_I(L, P_SAK)), w[k], acc);
            tl_store(L, R_C, TL_I(L, P_SCM) * row + TL_I(L, P_SCN) * col, acc, tl_f32());
        }
    }
    free(w);
    return 0;
}

TD_KERNEL(td_a_int4_matmul) = {"int4_matmul.int4_matmul_exec_genuine", "alt_dequant_then_fma", TD_ABI_HOST, NULL,
                               NULL, NULL, 19, 5, dequant_fma, NULL};
