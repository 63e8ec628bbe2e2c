/* Alternatives for LightLLM's token softmax (token_softmax_llama, token_softmax_bloom:
 * the same statement).  Each gathers the active row of program (b, h) -- the
 * min(B_Seqlen[b], BLOCK_SIZE) logits at h*stride_logic_h + (B_Start_Loc[b] + j) *
 * stride_logic_bs -- with no padded lanes at all, applies a row softmax from
 * alt_a_softmax.h and stores it.  Parameters: stride_logic_h, stride_logic_bs,
 * stride_prob_h, stride_prob_bs, BLOCK_SIZE.  Regions: Logics, B_Start_Loc, B_Seqlen,
 * Prob_Out. */
#ifndef TD_ALT_TOKEN_SOFTMAX_H
#define TD_ALT_TOKEN_SOFTMAX_H

#include "alt_a_softmax.h"

typedef void (*ats_rowfn)(float *x, int64_t n, float *w);

static inline int ats_run(const td_abi_launch *L, ats_rowfn f) {
    int64_t slh = TL_I(L, 0), slbs = TL_I(L, 1), sph = TL_I(L, 2), spbs = TL_I(L, 3), BS = TL_I(L, 4);
    float *x, *w;
    TL_ALLOC(L, x, BS);
    TL_ALLOC(L, w, BS);
    for (uint32_t h = 0; h < L->grid[1]; h++) /* heads outermost: another program order */
        for (uint32_t b = 0; b < L->grid[0]; b++) {
            int64_t len = tl_load_int(L, 2, b), st = tl_load_int(L, 1, b), n = len < BS ? len : BS;
            for (int64_t j = 0; j < n; j++) x[j] = tl_load(L, 0, h * slh + (st + j) * slbs);
            f(x, n, w);
            for (int64_t j = 0; j < n; j++) tl_store(L, 3, h * sph + (st + j) * spbs, x[j], tl_f32());
        }
    free(x), free(w);
    return 0;
}

#endif
