/* Liger's `_triton_rope` on the CPU (rope_transform, rope_backward_transform), shared by
 * the host kernels and the mutants (a mutant is this program with one bug switched on).
 * Program `row`: cos_row/sin_row (row mod sl; columns < hd/2 of the pad_hd/2 tile, other
 * 0); the four [pad_n_*h, pad_hd/2] tiles q1, q2, k1, k2 (masked, other 0) are loaded,
 * then the rotated tiles stored (forward or backward), q before k. */
#ifndef TD_ROPE_LIGER_H
#define TD_ROPE_LIGER_H

#include <stdlib.h>

#include "tl.h"

enum { LG_QS, LG_KS, LG_CS, LG_SS, LG_SL, LG_BS, LG_NQH, LG_NKH, LG_HD, LG_PQH, LG_PKH, LG_PHD };

typedef enum lg_bug {
    LG_OK = 0,
    LG_WRONG_SIGN,   /* the pass's sign flipped on the second half only */
    LG_INTERLEAVED,  /* pairs (2i, 2i+1) instead of (i, i + hd/2) */
    LG_SWAP,         /* cos and sin swapped */
    LG_K_WITH_NQH,   /* k's head mask uses n_qh: extra k heads rotated (GQA) */
    LG_OFFSET_I32    /* cos_row_idx * cos_row_stride (and sin's) formed in int32: wraps beyond 2^31 */
} lg_bug;

/* one [pad_h, pad_hd/2] tile pair of region reg: load both halves, then store */
static inline void lg_tile(const td_abi_launch *L, int reg, int64_t base, int64_t H, int64_t pad_h, const float *c,
                           const float *s, int bwd, lg_bug bug, float *x1, float *x2) {
    int64_t hd = TL_I(L, LG_HD), half = hd / 2, ph = TL_I(L, LG_PHD) / 2;
    for (int64_t h = 0; h < pad_h; h++)
        for (int64_t i = 0; i < ph; i++) {
            /* (the GQA mutant's extra heads stay inside the region: a bug, not a crash) */
            int on = h < H && i < half && (uint64_t)(base + h * hd + hd) <= TL_LEN(L, reg);
            int64_t o1 = base + h * hd + (bug == LG_INTERLEAVED ? 2 * i : i);
            int64_t o2 = base + h * hd + (bug == LG_INTERLEAVED ? 2 * i + 1 : i + half);
            x1[h * ph + i] = on ? tl_load(L, reg, o1) : 0.0f;
            x2[h * ph + i] = on ? tl_load(L, reg, o2) : 0.0f;
        }
    for (int64_t h = 0; h < H && h < pad_h && (uint64_t)(base + h * hd + hd) <= TL_LEN(L, reg); h++)
        for (int64_t i = 0; i < half && i < ph; i++) {
            float a = x1[h * ph + i], b = x2[h * ph + i];
            float r1 = bwd ? a * c[i] + b * s[i] : a * c[i] - b * s[i];
            float r2 = (bwd ^ (bug == LG_WRONG_SIGN)) ? b * c[i] - a * s[i] : b * c[i] + a * s[i];
            tl_store(L, reg, base + h * hd + (bug == LG_INTERLEAVED ? 2 * i : i), r1, tl_f32());
            tl_store(L, reg, base + h * hd + (bug == LG_INTERLEAVED ? 2 * i + 1 : i + half), r2, tl_f32());
        }
}

static inline int lg_launch(const td_abi_launch *L, int bwd, lg_bug bug) {
    int64_t hd = TL_I(L, LG_HD), half = hd / 2, ph = TL_I(L, LG_PHD) / 2, sl = TL_I(L, LG_SL);
    int64_t pq = TL_I(L, LG_PQH), pk = TL_I(L, LG_PKH), pmax = pq > pk ? pq : pk;
    float *c, *s, *x1, *x2;
    TL_ALLOC(L, c, ph);
    TL_ALLOC(L, s, ph);
    TL_ALLOC(L, x1, pmax * ph);
    TL_ALLOC(L, x2, pmax * ph);
    int rc = bug == LG_SWAP ? 3 : 2, rs = bug == LG_SWAP ? 2 : 3;
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t cr = row % sl, cb = cr * TL_I(L, LG_CS), sb = cr * TL_I(L, LG_SS);
        if (bug == LG_OFFSET_I32) {
            cb = tl_i32(cr * tl_i32(TL_I(L, LG_CS))), sb = tl_i32(cr * tl_i32(TL_I(L, LG_SS)));
            if (tl_fault(L, 2, cb, half, 1, row) || tl_fault(L, 3, sb, half, 1, row)) {
                free(c), free(s), free(x1), free(x2);
                return 1;
            }
        }
        for (int64_t i = 0; i < ph; i++) {
            c[i] = i < half ? tl_load(L, rc, cb + i) : 0.0f;
            s[i] = i < half ? tl_load(L, rs, sb + i) : 0.0f;
        }
        int64_t nk = bug == LG_K_WITH_NQH ? TL_I(L, LG_NQH) : TL_I(L, LG_NKH);
        lg_tile(L, 0, row * TL_I(L, LG_QS), TL_I(L, LG_NQH), pq, c, s, bwd, bug, x1, x2);
        lg_tile(L, 1, row * TL_I(L, LG_KS), nk, bug == LG_K_WITH_NQH ? pmax : pk, c, s, bwd, bug, x1, x2);
    }
    free(c), free(s), free(x1), free(x2);
    return 0;
}

#endif
