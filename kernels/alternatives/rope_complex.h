/* RoPE written as a complex multiplication (the torch.view_as_complex formulation of
 * LLaMA's reference apply_rotary_emb): z = x0 + i*x1 times e^{+-i*theta} = c +- i*s,
 *   re = fmaf(x0, c, -(x1*s)),  im = fmaf(x1, c, x0*s)      (forward)
 * with one product of each pair fused into an FMA (what a CUDA compiler emits for
 * a*b - c*d).  Used by the alternatives of the rotary files; the caller walks programs and
 * heads in its own order.  Only tl.h: an alternative knows nothing of the oracle. */
#ifndef TD_ALT_ROPE_COMPLEX_H
#define TD_ALT_ROPE_COMPLEX_H

#include <math.h>

#include "tl.h"

/* rotates the pair at (o0, o1) of region reg in place by (c, s) (bwd: by (c, -s)) */
static inline void alt_rope_rotate(const td_abi_launch *L, int reg, int64_t o0, int64_t o1, float c, float s, int bwd) {
    float x0 = tl_load(L, reg, o0), x1 = tl_load(L, reg, o1);
    float sn = bwd ? -s : s;
    float re = fmaf(x0, c, -(x1 * sn)), im = fmaf(x1, c, x0 * sn);
    tl_store(L, reg, o1, im, tl_f32());
    tl_store(L, reg, o0, re, tl_f32());
}

#endif
