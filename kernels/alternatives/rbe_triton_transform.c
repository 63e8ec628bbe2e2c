/* rbe_triton_transform, alternative alt_inv_freq: the frequencies as a Hugging Face-style
 * rotary embedding computes them, inv_freq = exp2f(-e * log2f(THETA)) and f = pos *
 * inv_freq (a reciprocal power and a product instead of pow and a division), the
 * rotation as a complex product with explicit FMAs, one output row at a time with the
 * columns in reverse.  Admissible: every step is one the contract's model charges
 * (contracts/rbe_triton_transform.c: exp2 / log2 budgets, a*(1/b), FMA contraction). */
#include <math.h>

#include "tl.h"

enum { P_M, P_K, P_SXB, P_SXM, P_SXN, P_SOB, P_SOM, P_SON, P_START, P_THETA, P_DIM, P_BSM, P_BSK };

static int inv_freq(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), K = TL_I(L, P_K), dim = TL_I(L, P_DIM);
    float lt = log2f(TL_R(L, P_THETA));
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (int64_t row = 0; row < M; row++) {
            int64_t xo = b * TL_I(L, P_SXB) + row * TL_I(L, P_SXM), oo = b * TL_I(L, P_SOB) + row * TL_I(L, P_SOM);
            float pos = (float)(TL_I(L, P_START) + row);
            for (int64_t col = (K - 1) & ~(int64_t)1; col >= 0; col -= 2) {
                float e = (float)(col % dim) / (float)dim;
                float f = pos * exp2f(-(e * lt));
                float c = cosf(f), s = sinf(f);
                float re = tl_load(L, 0, xo + col * TL_I(L, P_SXN));
                float im = col + 1 < K ? tl_load(L, 0, xo + col * TL_I(L, P_SXN) + 1) : 0.0f;
                tl_store(L, 1, oo + col * TL_I(L, P_SON), fmaf(re, c, -(im * s)), tl_f32());
                if (col + 1 < K) tl_store(L, 1, oo + col * TL_I(L, P_SON) + 1, fmaf(im, c, re * s), tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_a_rbe_triton_transform) = {"rbe_triton_transform.rbe_triton_transform_output_summary_general",
                                        "alt_inv_freq", TD_ABI_HOST, NULL, NULL, NULL, 13, 2, inv_freq, NULL};
