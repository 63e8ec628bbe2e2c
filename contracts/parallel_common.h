/* The launch helpers parallel_attention.c and parallel_retention_attention.c share (the
 * two files' kernels address q/k and v/o the same way): the block sizes' checks, the
 * [T, D] or transposed layouts, a region's span.  Parameter indices come as arguments. */
#ifndef TD_PARALLEL_COMMON_H
#define TD_PARALLEL_COMMON_H

#include "gen.h"

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

#endif
