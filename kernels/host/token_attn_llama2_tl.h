/* LightLLM's _fwd_kernel_token_att1 (token_attn_llama2) on the CPU, shared by the host
 * kernel and its mutants.  Grid (batch, head, block); program (b, h, s) returns at once
 * when s*BLOCK_N >= seqlen, else for each lane n = s*BLOCK_N + i it gathers the token
 * slot B_Loc[b*sblb + (mil - seqlen + n)*sbls] (masked < mil, other 0), the K row of
 * KV head h // kv_group_num (masked alike, other 0), att = tl.sum(q * k) * sm_scale,
 * and stores lanes n < seqlen at h*att_stride_h + (start + n)*att_stride_bs.
 * Parameters: sm_scale, max_input_len, the ten strides, kv_group_num, BLOCK_DMODEL,
 * BLOCK_N.  Regions: Q, K, B_Loc, B_Start_Loc, B_Seqlen, Att_Out. */
#ifndef TD_TOKEN_ATTN_LLAMA2_TL_H
#define TD_TOKEN_ATTN_LLAMA2_TL_H

#include "tl.h"

enum { L2_SCALE, L2_MIL, L2_SBLB, L2_SBLS, L2_SQBS, L2_SQH, L2_SQD, L2_SKBS, L2_SKH, L2_SKD, L2_ASH, L2_ASBS,
       L2_KVG, L2_BD, L2_BN };
enum { L2_Q, L2_K, L2_BLOC, L2_START, L2_SEQLEN, L2_ATT };

typedef struct l2_bugs {
    int gqa_same_head;  /* kv head = q head (the // kv_group_num forgotten) */
    int loc_shift;      /* B_Loc column mil - seqlen + 1 + n: the cache read at seqlen, not seqlen - 1 */
    int start_next;     /* start location of sequence b read from B_Start_Loc[b + 1] */
    int last_unmasked;  /* the last block's loads and store without their mask */
    int offset_int32;   /* Q's offset b*stride_qbs + h*stride_qh + d*stride_qd formed in int32 (Triton's
                           type for pids and strides below 2^31): past 2^31 it wraps (tl_i32) */
} l2_bugs;

/* Mutants may address cells a correct kernel never touches; here such reads give 0 and
 * such stores are dropped, so a mutant is caught by its values or the write-set check,
 * never by a crash of the host process. */
static inline int l2_in(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && (uint64_t)off < L->regions[reg].len;
}

static inline float l2_score(const td_abi_launch *L, int64_t b, int64_t h, int64_t col, float *prod, l2_bugs bug) {
    int64_t BD = TL_I(L, L2_BD), kvh = bug.gqa_same_head ? h : h / TL_I(L, L2_KVG);
    int64_t bl = b * TL_I(L, L2_SBLB) + col * TL_I(L, L2_SBLS);
    int64_t loc = l2_in(L, L2_BLOC, bl) ? tl_load_int(L, L2_BLOC, bl) : 0;
    for (int64_t d = 0; d < BD; d++) {
        int64_t qo = b * TL_I(L, L2_SQBS) + h * TL_I(L, L2_SQH) + d * TL_I(L, L2_SQD);
        if (bug.offset_int32)
            qo = tl_i32(b * tl_i32(TL_I(L, L2_SQBS)) + h * tl_i32(TL_I(L, L2_SQH)) + d * tl_i32(TL_I(L, L2_SQD)));
        int64_t ko = loc * TL_I(L, L2_SKBS) + kvh * TL_I(L, L2_SKH) + d * TL_I(L, L2_SKD);
        prod[d] = tl_load(L, L2_Q, qo) * (l2_in(L, L2_K, ko) ? tl_load(L, L2_K, ko) : 0.0f);
    }
    return tl_sum(prod, BD) * TL_R(L, L2_SCALE);
}

static inline int l2_program(const td_abi_launch *L, l2_bugs bug) {
    int64_t BN = TL_I(L, L2_BN), mil = TL_I(L, L2_MIL), nb = L->grid[0];
    float *prod;
    TL_ALLOC(L, prod, TL_I(L, L2_BD));
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (uint32_t s = 0; s < L->grid[2]; s++) {
                int64_t len = tl_load_int(L, L2_SEQLEN, b);
                int64_t st = tl_load_int(L, L2_START, bug.start_next && b + 1 < nb ? b + 1 : b);
                if (s * BN >= len) continue; /* block_mask */
                int last = (s + 1) * BN >= len;
                for (int64_t i = 0; i < BN; i++) {
                    int64_t n = s * BN + i, col = mil - len + n + (bug.loc_shift ? 1 : 0);
                    int live = col < mil || (bug.last_unmasked && last);
                    if (!live) continue; /* masked lanes: loads give 0, the store is skipped */
                    if (bug.offset_int32 &&
                        tl_fault(L, L2_Q, tl_i32(b * tl_i32(TL_I(L, L2_SQBS)) + h * tl_i32(TL_I(L, L2_SQH))),
                                 TL_I(L, L2_BD), tl_i32(TL_I(L, L2_SQD)), b)) {
                        free(prod); /* the wrapped q row lies outside Q: an illegal address on a GPU */
                        return 1;
                    }
                    int64_t off = h * TL_I(L, L2_ASH) + (st + n) * TL_I(L, L2_ASBS);
                    float v = l2_score(L, b, h, col, prod, bug);
                    if (l2_in(L, L2_ATT, off)) tl_store(L, L2_ATT, off, v, tl_f32());
                }
            }
    free(prod);
    return 0;
}

#endif
