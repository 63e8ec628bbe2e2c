/* LightLLM's Mistral _fwd_kernel_token_att2 (token_attn_mistral) on the CPU, shared by
 * the host kernel and its mutants.  Program (b, h): ws = max(seqlen - sliding_window, 0);
 * for each block of BLOCK_N positions n < att_seqlen: p = Prob[h*sph + (att_start + n)]
 * masked n < att_seqlen, the slot Req_to_tokens[req*srtb + ws + n] and the V row of KV
 * head h // kv_group_num masked ws + n < seqlen (other 0); acc += tl.sum(p * v); the
 * fp16 store of acc.  Parameters: the ten strides, kv_group_num, sliding_window,
 * BLOCK_DMODEL, BLOCK_N (+ T, unused).  Regions: Prob, V, Out, Req_to_tokens, B_req_idx,
 * B_Start_Loc (unused), B_Seqlen, B_Att_Start_Loc, B_Att_Seqlen. */
#ifndef TD_TOKEN_ATTN_MISTRAL_TL_H
#define TD_TOKEN_ATTN_MISTRAL_TL_H

#include "attn2_tl.h"

enum { TM_SRTB, TM_SRTS, TM_SPH, TM_SPBS, TM_SVBS, TM_SVH, TM_SVD, TM_SOBS, TM_SOH, TM_SOD, TM_KVG, TM_SW, TM_BD,
       TM_BN };
enum { TM_PROB, TM_V, TM_OUT, TM_REQ, TM_REQIDX, TM_START, TM_SEQLEN, TM_ASTART, TM_ASEQLEN };

typedef struct tm_bugs {
    int gqa_same_head; /* kv head = q head */
    int loc_shift;     /* the slot of position ws + n + 1: the cache read at seqlen, not seqlen - 1 */
    int start_next;    /* att start of sequence b read from B_Att_Start_Loc[b + 1] */
    int last_unmasked; /* the last block's loads without their masks */
    int offset_int32;  /* P's offset h*stride_ph + (att_start + n)*stride_pbs formed in int32 (Triton's type for
                          pids, loaded starts and strides below 2^31): past 2^31 it wraps (tl_i32) */
} tm_bugs;

/* mutants may address cells a correct kernel never touches: reads there give 0 */
static inline float tm_ld(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && (uint64_t)off < L->regions[reg].len ? tl_load(L, reg, off) : 0.0f;
}
static inline int64_t tm_ldi(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && (uint64_t)off < L->regions[reg].len ? tl_load_int(L, reg, off) : 0;
}

/* one block of BLOCK_N positions; 1 when a wrapped offset leaves Prob (offset_int32: an
 * illegal address on a GPU, tl_fault) */
static inline int tm_block(const td_abi_launch *L, int64_t b, int64_t h, int64_t s0, float *acc, float *pv,
                           int64_t *vloc, float *prod, tm_bugs bug) {
    int64_t BN = TL_I(L, TM_BN), BD = TL_I(L, TM_BD), nb = L->grid[0];
    int64_t len = tl_load_int(L, TM_SEQLEN, b), att = tl_load_int(L, TM_ASEQLEN, b);
    int64_t ast = tl_load_int(L, TM_ASTART, bug.start_next && b + 1 < nb ? b + 1 : b);
    int64_t req = tl_load_int(L, TM_REQIDX, b), sw = TL_I(L, TM_SW), ws = len > sw ? len - sw : 0;
    int64_t kvh = bug.gqa_same_head ? h : h / TL_I(L, TM_KVG);
    int nomask = bug.last_unmasked && s0 + BN >= att;
    for (int64_t j = 0; j < BN; j++) {
        int64_t n = s0 + j, pos = ws + n + (bug.loc_shift ? 1 : 0);
        int64_t po = h * TL_I(L, TM_SPH) + (ast + n) * TL_I(L, TM_SPBS);
        if (bug.offset_int32 && n < att) {
            po = tl_i32(h * tl_i32(TL_I(L, TM_SPH)) + (ast + n) * tl_i32(TL_I(L, TM_SPBS)));
            if (tl_fault(L, TM_PROB, po, 1, 1, (uint32_t)b)) return 1;
        }
        pv[j] = n < att || nomask ? tm_ld(L, TM_PROB, po) : 0.0f;
        int live = ws + n < len || nomask;
        vloc[j] = live ? tm_ldi(L, TM_REQ, req * TL_I(L, TM_SRTB) + pos * TL_I(L, TM_SRTS)) : -1;
    }
    for (int64_t d = 0; d < BD; d++) {
        for (int64_t j = 0; j < BN; j++) {
            float v = vloc[j] >= 0 ? tm_ld(L, TM_V, vloc[j] * TL_I(L, TM_SVBS) + kvh * TL_I(L, TM_SVH) +
                                                        d * TL_I(L, TM_SVD))
                                   : 0.0f;
            prod[j] = pv[j] * v;
        }
        acc[d] += tl_sum(prod, BN);
    }
    return 0;
}

static inline int tm_program(const td_abi_launch *L, tm_bugs bug) {
    int64_t BN = TL_I(L, TM_BN), BD = TL_I(L, TM_BD);
    float *acc, *pv, *prod;
    int64_t *vloc;
    TL_ALLOC(L, acc, BD);
    TL_ALLOC(L, pv, BN);
    TL_ALLOC(L, prod, BN);
    TL_ALLOC(L, vloc, BN);
    td_profile st = attn2_store_prof(L, TM_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            for (int64_t d = 0; d < BD; d++) acc[d] = 0.0f;
            int64_t att = tl_load_int(L, TM_ASEQLEN, b);
            for (int64_t s0 = 0; s0 < att; s0 += BN)
                if (tm_block(L, b, h, s0, acc, pv, vloc, prod, bug)) {
                    free(acc), free(pv), free(prod), free(vloc);
                    return 1;
                }
            for (int64_t d = 0; d < BD; d++)
                tl_store(L, TM_OUT, b * TL_I(L, TM_SOBS) + h * TL_I(L, TM_SOH) + d * TL_I(L, TM_SOD), acc[d], st);
        }
    free(acc), free(pv), free(prod), free(vloc);
    return 0;
}

#endif
