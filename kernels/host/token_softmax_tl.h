/* LightLLM's _fwd_kernel_token_softmax on the CPU, shared by the host kernels of
 * token_softmax_llama and token_softmax_bloom (the same Triton kernel in two catalogue
 * files) and by their mutants.  Grid (batch, head); program (b, h) loads BLOCK_SIZE
 * lanes of Logics at h*stride_logic_h + (start + j)*stride_logic_bs masked by
 * j < seqlen (other -inf), takes the tile softmax (softmax_tl.h: tl.max, expf,
 * tl.sum's tree, one division) and stores the lanes j < seqlen to Prob_Out.
 * Parameters: stride_logic_h, stride_logic_bs, stride_prob_h, stride_prob_bs,
 * BLOCK_SIZE.  Regions: Logics, B_Start_Loc, B_Seqlen, Prob_Out. */
#ifndef TD_TOKEN_SOFTMAX_TL_H
#define TD_TOKEN_SOFTMAX_TL_H

#include "softmax_tl.h"

enum { TS_SLH, TS_SLBS, TS_SPH, TS_SPBS, TS_BS };
enum { TS_LOGICS, TS_START, TS_SEQLEN, TS_PROB };

/* The bugs the mutants inject (0 for the faithful kernel). */
typedef struct ts_bugs {
    int pad_other_zero; /* padded lanes loaded as 0 instead of -inf: they enter the max and the sum */
    int start_next;     /* start location of sequence b read from B_Start_Loc[b + 1] */
    int store_all;      /* the store's mask forgotten: all BLOCK_SIZE lanes written */
    int offset_int32;   /* the load's offset formed in int32 (Triton's type for pid, start and strides below
                           2^31): past 2^31 elements it wraps (tl_i32) to an illegal address (tl_fault) */
} ts_bugs;

/* A mutant may address cells a correct kernel never touches; on a GPU it would read
 * whatever lies there.  Here such reads see -inf and such stores are dropped when they
 * fall outside the region, so the mutant stays memory-safe and is caught by its values
 * or by the write-set check, never by a crash of the host process. */
static inline int ts_in(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && (uint64_t)off < L->regions[reg].len;
}

static inline int ts_program(const td_abi_launch *L, ts_bugs bug) {
    int64_t slh = TL_I(L, TS_SLH), slbs = TL_I(L, TS_SLBS), sph = TL_I(L, TS_SPH), spbs = TL_I(L, TS_SPBS);
    int64_t BS = TL_I(L, TS_BS), nb = L->grid[0];
    float *x;
    TL_ALLOC(L, x, BS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t len = tl_load_int(L, TS_SEQLEN, b);
            int64_t sb = bug.start_next && b + 1 < nb ? b + 1 : b;
            int64_t st = tl_load_int(L, TS_START, sb);
            for (int64_t j = 0; j < BS; j++) {
                int64_t off = h * slh + (st + j) * slbs;
                if (bug.offset_int32 && j < len) {
                    off = tl_i32(h * tl_i32(slh) + (st + j) * tl_i32(slbs));
                    if (tl_fault(L, TS_LOGICS, off, 1, 1, b)) {
                        free(x);
                        return 1;
                    }
                }
                x[j] = j < len && ts_in(L, TS_LOGICS, off) ? tl_load(L, TS_LOGICS, off)
                       : bug.pad_other_zero && j >= len   ? 0.0f
                                                          : -INFINITY;
            }
            sm_tile_softmax(x, BS);
            for (int64_t j = 0; j < BS; j++) {
                int64_t off = h * sph + (st + j) * spbs;
                if ((j < len || bug.store_all) && ts_in(L, TS_PROB, off)) tl_store(L, TS_PROB, off, x[j], tl_f32());
            }
        }
    free(x);
    return 0;
}

#endif
