/* apply_penalty, alternative: the penalties grouped, an FMA and a reciprocal.
 *
 * alt_fused: for each listed token, logit = (x > 0 ? x * (1/rep) : x * rep)
 *   - fmaf(cnt, freq, presence), i.e. the two penalties combined first with one FMA
 *   (what vLLM-style samplers write as logits -= freq*cnt + presence), the division by
 *   rep replaced by the product with its reciprocal computed once per row (what
 *   compilers emit under fast-math), and the rows walked last to first, each window
 *   in reverse.  Admissible: a*(1/b) for a/b is within the division budget of the
 *   contract's model, the grouped form is N(either)'s second form (an FMA rounds once
 *   where the grouped sum rounds twice), and the windows' ids are distinct, so the
 *   order of the in-place updates does not matter.
 */
#include "alt_common.h"

enum { P_STRIDE_B, P_STRIDE_S, P_BLOCK };
enum { R_LOGITS, R_PRES, R_FREQ, R_REP, R_IDS, R_CNTS, R_CUMSUM };

static int penalty_fused(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), sb = TL_I(L, P_STRIDE_B);
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--) {
        float rep = tl_load(L, R_REP, b), inv_rep = 1.0f / rep;
        float freq = tl_load(L, R_FREQ, b), pres = tl_load(L, R_PRES, b);
        int64_t start = tl_load_int(L, R_CUMSUM, b), end = tl_load_int(L, R_CUMSUM, b + 1);
        if (end - start > B) end = start + B;
        for (int64_t k = end - 1; k >= start; k--) {
            int64_t cell = b * sb + tl_load_int(L, R_IDS, k);
            float x = tl_load(L, R_LOGITS, cell);
            float scaled = x > 0 ? x * inv_rep : x * rep;
            tl_store(L, R_LOGITS, cell, scaled - fmaf((float)tl_load_int(L, R_CNTS, k), freq, pres), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_apply_penalty) = {"apply_penalty.apply_penalty_correctness", "alt_fused", TD_ABI_HOST, NULL, NULL, NULL,
                                 3, 7, penalty_fused, NULL};
