/* The launch helpers parallel_attention.c and parallel_retention_attention.c share (the
 * two files' kernels address q/k and v/o the same way): the block sizes' checks, the
 * [T, D] or transposed layouts, a region's span.  Parameter indices come as arguments. */
#ifndef TD_PARALLEL_COMMON_H
#define TD_PARALLEL_COMMON_H

#include "gen.h"
#include "gen_far.h"

static inline int64_t par_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* row-major [T, D] rows of stride D (+pad, >= the block) or, where s_d may differ from 1,
 * transposed [D, T] */
static inline int par_layout(td_producer *p, td_case *c, int ph, int pt, int pd, int64_t T, int64_t D, int64_t BD, int trans_ok) {
    int trans = trans_ok && td_prod_u32(p, 0, 3) == 0, pad = td_prod_u32(p, 0, 3) == 0;
    int64_t row = (D > BD ? D : BD) + (pad ? td_prod_u32(p, 1, 3) : 0);
    c->p[pt].i = trans ? 1 : row;
    c->p[pd].i = trans ? T + (pad ? 1 : 0) : 1;
    c->p[ph].i = trans ? D * c->p[pd].i : T * row;
    return pad || row > D;
}

static inline size_t par_span(const td_case *c, int ph, int pt, int pd, int64_t heads, int64_t T, int64_t D) {
    return (size_t)((heads - 1) * c->p[ph].i + (T - 1) * c->p[pt].i + (D - 1) * c->p[pd].i + 1);
}

static inline const char *par_pow2(int64_t x) { return x > 0 && !(x & (x - 1)) ? NULL : "a block size is a power of two (tl.arange)"; }

static inline const char *par_check_shape(const td_case *c, int sh) {
    int64_t B = c->p[sh].i, H = c->p[sh + 1].i, T = c->p[sh + 2].i, K = c->p[sh + 3].i, V = c->p[sh + 4].i;
    int64_t BTL = c->p[sh + 5].i, BTS = c->p[sh + 6].i;
    for (int i = sh + 5; i <= sh + 8; i++)
        if (par_pow2(c->p[i].i)) return par_pow2(c->p[i].i);
    if (B <= 0 || H <= 0 || T <= 0 || K <= 0 || V <= 0) return "B, H, T, K, V > 0";
    if (BTL % BTS) return "hBTS: BTL % BTS = 0";
    return NULL;
}

/* Offsets beyond 2^31 of the backward dk/dv helpers (one invocation, the program scalars
 * as parameters, indices in x): q and k are read at i_bh * s_qk_h and dk written at
 * (i_bh + B*H*i_v) * s_qk_h, products the original forms in int32 from program ids.
 * Keeps R heads (H dividing them, td_far_bh_rows) with NV*R <= TD_FAR_MAX_ROWS slabs of
 * dk (nothing moves when NV > TD_FAR_MAX_ROWS or there is one slab), folds i_bh below R,
 * and moves q, k (R heads) and dk (NV*R slabs) to one far s_qk_h (td_far_slabs over the
 * slabs up to the one written, so dk's store starts past 2^31; a first slab, i_bh =
 * i_v = 0, becomes the last: i_bh = R - 1, i_v = NV - 1).  dk is a sparse output; v, do,
 * dv (and dz) keep theirs, their heads below R as they were. */
typedef struct par_bwd_ix {
    int ibh, iv, ih, sqk_h, sqk_t, b, h, t, k, v, bv; /* parameters */
    int q, kr, dk;                                    /* regions */
} par_bwd_ix;
static inline void par_bwd_far(td_producer *p, td_case *c, const par_bwd_ix *x) {
    int64_t H = c->p[x->h].i, BH = c->p[x->b].i * H, NV = par_cdiv(c->p[x->v].i, c->p[x->bv].i);
    if (NV > TD_FAR_MAX_ROWS) return;
    int64_t cap = TD_FAR_MAX_ROWS / NV, R = td_far_bh_rows(BH < cap ? BH : cap, &H);
    int64_t ibh = c->p[x->ibh].i % R, iv = c->p[x->iv].i;
    if (NV * R < 2) return;
    if (ibh + R * iv == 0) ibh = R - 1, iv = NV - 1;
    int64_t w = (c->p[x->t].i - 1) * c->p[x->sqk_t].i + c->p[x->k].i; /* a head's slab (s_qk_d = 1) */
    const int regs[3] = {x->q, x->kr, x->dk};
    const int64_t rows[3] = {R, R, NV * R};
    if (!td_far_slabs(p, c, 3, regs, rows, x->sqk_h, w, ibh + R * iv + 1)) return;
    if (c->p[x->ih].i == c->p[x->ibh].i % c->p[x->h].i) c->p[x->ih].i = ibh % H; /* i_h follows i_bh where it did */
    c->p[x->ibh].i = ibh, c->p[x->iv].i = iv, c->p[x->h].i = H, c->p[x->b].i = R / H;
}

#endif
