/* The matmul4 (GPTQ int4 GEMM) alternative shared by matmul_dequantize and
 * matmul_dequantize_int4: alt_diff_scale_fma.  The weight in the algebraically equal
 * form (q - z) * s (the integer difference exact, one binary32 product: inside the
 * bound of the kernel's q*s - z*s, which charges two products and a subtraction), the
 * column dequantized first, then per row an FMA chain over k from K - 1 down to 0.
 * Admissible: another form of bDequant within its derived bound and a binary32 dot in
 * another order with FMA contraction. */
#ifndef TD_G4_ALT_H
#define TD_G4_ALT_H

#include "tl.h"

enum { G4A_M, G4A_N, G4A_K, G4A_SAM, G4A_SAK, G4A_SBK, G4A_SBN, G4A_SCM, G4A_SCN, G4A_SSG, G4A_SSN, G4A_SZG,
       G4A_SZN, G4A_GS, G4A_NOG };
enum { G4A_RA, G4A_RC, G4A_RS, G4A_RB, G4A_RZ };

static inline int g4_alt_diff_scale_fma(const td_abi_launch *L) {
    int64_t M = TL_I(L, G4A_M), N = TL_I(L, G4A_N), K = TL_I(L, G4A_K), gs = TL_I(L, G4A_GS);
    float *w;
    TL_ALLOC(L, w, K);
    for (int64_t col = 0; col < N; col++) {
        for (int64_t k = 0; k < K; k++) {
            int64_t g = TL_I(L, G4A_NOG) ? 0 : k / gs;
            uint32_t b = (uint32_t)tl_load_int(L, G4A_RB, k / 8 * TL_I(L, G4A_SBK) + col * TL_I(L, G4A_SBN));
            uint32_t z = (uint32_t)tl_load_int(L, G4A_RZ, g * TL_I(L, G4A_SZG) + col / 8 * TL_I(L, G4A_SZN));
            int d = (int)((b >> (4 * (k % 8))) & 15u) - (int)((z >> (4 * (col % 8))) & 15u);
            w[k] = (float)d * tl_load(L, G4A_RS, g * TL_I(L, G4A_SSG) + col * TL_I(L, G4A_SSN));
        }
        for (int64_t row = 0; row < M; row++) {
            float acc = 0.0f;
            for (int64_t k = K - 1; k >= 0; k--)
                acc = fmaf(tl_load(L, G4A_RA, row * TL_I(L, G4A_SAM) + k * TL_I(L, G4A_SAK)), w[k], acc);
            tl_store(L, G4A_RC, TL_I(L, G4A_SCM) * row + TL_I(L, G4A_SCN) * col, acc, tl_f32());
        }
    }
    free(w);
    return 0;
}

#endif /* TD_G4_ALT_H */
