/* Unsloth's `_rope_embedding` on the CPU (fast_rope_embedding, rope_embedding), shared by
 * the host kernels and the mutants (a mutant is this program with one bug switched on).
 *
 * Program (row, group): cos1/sin1 = the table row (row % seqlen), columns < head_dim/2
 * (masked, other = 0), sin1 negated for the backward pass; then for each head k of the
 * group (k < n_heads): load the tile's Q1 and Q2, store Q1*cos1 - Q2*sin1 and
 * Q2*cos1 + Q1*sin1 (binary32, no contraction: -ffp-contract=off). */
#ifndef TD_ROPE_UNSLOTH_H
#define TD_ROPE_UNSLOTH_H

#include "tl.h"

typedef enum ru_bug {
    RU_OK = 0,
    RU_WRONG_SIGN,   /* the rotation's sign flipped on the second half: Q2*cos - Q1*sin */
    RU_INTERLEAVED,  /* pairs (2i, 2i+1) instead of (i, i + head_dim/2) */
    RU_SWAP_COS_SIN, /* cos and sin tables swapped */
    RU_WRAP_TABLE,   /* position = row mod (rows in the cos table), not mod seqlen */
    RU_OFFSET_I32    /* (row % seqlen) * cos_row_stride (and sin's) formed in int32: wraps beyond 2^31 */
} ru_bug;

typedef struct ru_args {
    int64_t qs, cs, ss, seq, hd, nh, G, B;
    int reg_cos, reg_sin;
} ru_args;

/* 0, or 1 when the program faults (an int32 offset outside its table: RU_OFFSET_I32) */
static inline int ru_program(const td_abi_launch *L, const ru_args *a, int reg, int bwd, uint32_t row, uint32_t grp,
                              ru_bug bug, float *c1, float *s1, float *q1, float *q2) {
    int64_t half = a->hd / 2, pos = row % a->seq;
    int creg = bug == RU_SWAP_COS_SIN ? a->reg_sin : a->reg_cos, sreg = bug == RU_SWAP_COS_SIN ? a->reg_cos : a->reg_sin;
    if (bug == RU_WRAP_TABLE) pos = row % (int64_t)(TL_LEN(L, a->reg_cos) / (uint64_t)a->cs);
    int64_t cb = pos * a->cs, sb = pos * a->ss;
    if (bug == RU_OFFSET_I32) {
        cb = tl_i32(pos * tl_i32(a->cs)), sb = tl_i32(pos * tl_i32(a->ss));
        if (tl_fault(L, a->reg_cos, cb, half, 1, row) || tl_fault(L, a->reg_sin, sb, half, 1, row)) return 1;
    }
    for (int64_t i = 0; i < a->B; i++) {
        c1[i] = i < half ? tl_load(L, creg, cb + i) : 0.0f;
        s1[i] = i < half ? tl_load(L, sreg, sb + i) : 0.0f;
        if (bwd) s1[i] = -s1[i];
    }
    int64_t h0 = (int64_t)grp * a->G, h1 = h0 + a->G < a->nh ? h0 + a->G : a->nh;
    for (int64_t k = h0; k < h1; k++) {
        int64_t base = (int64_t)row * a->qs + k * a->hd;
        for (int64_t i = 0; i < a->B && i < half; i++) {
            int64_t o1 = bug == RU_INTERLEAVED ? base + 2 * i : base + i;
            int64_t o2 = bug == RU_INTERLEAVED ? base + 2 * i + 1 : base + i + half;
            q1[i] = tl_load(L, reg, o1);
            q2[i] = tl_load(L, reg, o2);
        }
        for (int64_t i = 0; i < a->B && i < half; i++) {
            int64_t o1 = bug == RU_INTERLEAVED ? base + 2 * i : base + i;
            int64_t o2 = bug == RU_INTERLEAVED ? base + 2 * i + 1 : base + i + half;
            float r1 = q1[i] * c1[i] - q2[i] * s1[i];
            float r2 = bug == RU_WRONG_SIGN ? q2[i] * c1[i] - q1[i] * s1[i] : q2[i] * c1[i] + q1[i] * s1[i];
            tl_store(L, reg, o1, r1, tl_f32());
            tl_store(L, reg, o2, r2, tl_f32());
        }
    }
    return 0;
}

/* The launches the autograd function makes: one per rotated region (bwd[t]: its pass),
 * the grid (rows, groups) program by program. */
static inline int ru_launch(const td_abi_launch *L, const ru_args *a, int ntgt, const int *bwd, ru_bug bug) {
    float *c1, *s1, *q1, *q2;
    TL_ALLOC(L, c1, a->B);
    TL_ALLOC(L, s1, a->B);
    TL_ALLOC(L, q1, a->B);
    TL_ALLOC(L, q2, a->B);
    int rc = 0;
    for (int t = 0; t < ntgt && !rc; t++)
        for (uint32_t row = 0; row < L->grid[0] && !rc; row++)
            for (uint32_t g = 0; g < L->grid[1] && !rc; g++)
                rc = ru_program(L, a, t, bwd[t], row, g, bug, c1, s1, q1, q2);
    free(c1), free(s1), free(q1), free(q2);
    return rc;
}

#endif
