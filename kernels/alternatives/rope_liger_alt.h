/* Alternative for Liger's rope (rope_transform, rope_backward_transform): k before q,
 * heads from the last, each half-split pair rotated as a complex product with FMA
 * (rope_complex.h), one pair at a time (no tiles). */
#ifndef TD_ALT_ROPE_LIGER_H
#define TD_ALT_ROPE_LIGER_H

#include "rope_complex.h"

static inline int alt_liger(const td_abi_launch *L, int bwd) {
    int64_t cs = TL_I(L, 2), ss = TL_I(L, 3), sl = TL_I(L, 4), hd = TL_I(L, 8), half = hd / 2;
    for (int w = 1; w >= 0; w--) {
        int64_t rs = TL_I(L, w), H = TL_I(L, w ? 7 : 6);
        for (uint32_t row = 0; row < L->grid[0]; row++)
            for (int64_t h = H - 1; h >= 0; h--)
                for (int64_t i = 0; i < half; i++) {
                    int64_t o0 = row * rs + h * hd + i, cr = row % sl;
                    alt_rope_rotate(L, w, o0, o0 + half, tl_load(L, 2, cr * cs + i), tl_load(L, 3, cr * ss + i), bwd);
                }
    }
    return 0;
}

#endif
