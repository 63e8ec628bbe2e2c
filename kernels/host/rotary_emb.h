/* lightllm's `_rotary_kernel` on the CPU, shared by the host kernel and the mutants (a
 * mutant is this program with one bug switched on).  Program (h, s): tokens
 * [s*BLOCK_SEQ, +BLOCK_SEQ) < max_total_len, heads [h*BLOCK_HEAD, +BLOCK_HEAD) < HEAD_Q
 * (Q) / HEAD_K (K), pairs (2i, 2i+1) for i < BLOCK_DMODEL/2: the tile's q0, q1, cos0,
 * sin0 (column 2i), cos1, sin1 (column 2i+1) are loaded, then
 * out0 = q0*cos0 - q1*sin0 and out1 = q0*sin1 + q1*cos1 stored; then the same for K. */
#ifndef TD_ROTARY_EMB_H
#define TD_ROTARY_EMB_H

#include "tl.h"

enum { RE_QBS, RE_QH, RE_QD, RE_KBS, RE_KH, RE_KD, RE_CBS, RE_CD, RE_SBS, RE_SD, RE_TOTAL, RE_HQ, RE_HK, RE_BH, RE_BS,
       RE_BD, RE_BHALF };

typedef enum re_bug {
    REB_OK = 0,
    REB_WRONG_SIGN,  /* rotated by -angle: q0*c + q1*s, q1*c - q0*s */
    REB_HALF_SPLIT,  /* pairs (i, i + BLOCK_DMODEL/2) instead of the interleaved (2i, 2i+1) */
    REB_SWAP,        /* Cos and Sin swapped */
    REB_CHUNK_POS,   /* table row = token index inside its BLOCK_SEQ chunk: the chunk offset ignored */
    REB_OFFSET_I32   /* token * stride_cosbs (and sin's) formed in int32: wraps beyond 2^31 */
} re_bug;

/* 0, or 1 when the program faults (an int32 table offset outside its table) */
static inline int re_rotate(const td_abi_launch *L, int reg, int64_t bs, int64_t hs, int64_t ds, int64_t H, uint32_t hb,
                             uint32_t sb, re_bug bug) {
    int64_t T = TL_I(L, RE_TOTAL), BH = TL_I(L, RE_BH), BS = TL_I(L, RE_BS), half = TL_I(L, RE_BHALF);
    int64_t cbs = TL_I(L, RE_CBS), cd = TL_I(L, RE_CD), sbs = TL_I(L, RE_SBS), sd = TL_I(L, RE_SD);
    int rc = bug == REB_SWAP ? 3 : 2, rs = bug == REB_SWAP ? 2 : 3;
    for (int64_t t = (int64_t)sb * BS; t < (int64_t)sb * BS + BS && t < T; t++)
        for (int64_t h = (int64_t)hb * BH; h < (int64_t)hb * BH + BH && h < H; h++)
            for (int64_t i = 0; i < half; i++) {
                int64_t d0 = bug == REB_HALF_SPLIT ? i : 2 * i, d1 = bug == REB_HALF_SPLIT ? i + half : 2 * i + 1;
                int64_t row = bug == REB_CHUNK_POS ? t - (int64_t)sb * BS : t;
                int64_t o0 = t * bs + h * hs + d0 * ds, o1 = t * bs + h * hs + d1 * ds;
                int64_t cb = row * cbs, sbase = row * sbs;
                if (bug == REB_OFFSET_I32) {
                    cb = tl_i32(row * tl_i32(cbs)), sbase = tl_i32(row * tl_i32(sbs));
                    if (tl_fault(L, rc, cb, 2 * half, cd, sb) || tl_fault(L, rs, sbase, 2 * half, sd, sb)) return 1;
                }
                float q0 = tl_load(L, reg, o0), q1 = tl_load(L, reg, o1);
                float c0 = tl_load(L, rc, cb + 2 * i * cd), s0 = tl_load(L, rs, sbase + 2 * i * sd);
                float c1 = tl_load(L, rc, cb + (2 * i + 1) * cd), s1 = tl_load(L, rs, sbase + (2 * i + 1) * sd);
                if (bug == REB_WRONG_SIGN) s0 = -s0, s1 = -s1;
                tl_store(L, reg, o0, q0 * c0 - q1 * s0, tl_f32());
                tl_store(L, reg, o1, q0 * s1 + q1 * c1, tl_f32());
            }
    return 0;
}

static inline int re_launch(const td_abi_launch *L, re_bug bug) {
    for (uint32_t hb = 0; hb < L->grid[0]; hb++)
        for (uint32_t sb = 0; sb < L->grid[1]; sb++) {
            if (re_rotate(L, 0, TL_I(L, RE_QBS), TL_I(L, RE_QH), TL_I(L, RE_QD), TL_I(L, RE_HQ), hb, sb, bug) ||
                re_rotate(L, 1, TL_I(L, RE_KBS), TL_I(L, RE_KH), TL_I(L, RE_KD), TL_I(L, RE_HK), hb, sb, bug))
                return 1;
        }
    return 0;
}

#endif
