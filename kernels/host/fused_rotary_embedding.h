/* ColossalAI's decoding_fused_rotary_embedding_kernel on the CPU, the two slices the
 * catalogue states (the q rotation; the v store into the paged cache), shared by the host
 * kernels and the mutants (a mutant is a slice with one bug switched on).
 * Grid (q_head_num, q_total_tokens), program (head, token). */
#ifndef TD_FUSED_ROTARY_EMBEDDING_H
#define TD_FUSED_ROTARY_EMBEDDING_H

#include "tl.h"

typedef enum fr_bug {
    FR_OK = 0,
    FR_WRONG_SIGN,  /* rotated by -angle */
    FR_INTERLEAVED, /* pairs (2j, 2j+1) instead of (j, j + HALF_DIM) */
    FR_SWAP,        /* cos and sin swapped */
    FR_SLOT_AT_LEN, /* the cache written at position context_length, not context_length - 1 */
    FR_NEXT_TABLE,  /* the block table row of token t+1 (mod tokens) */
    FR_BLOCK_EDGE,  /* block index context_length / block_size (slot still (len-1) % block_size) */
    FR_OFFSET_I32   /* cur_token_idx * cos_token_stride (q) / * k_token_stride (v) formed in int32 */
} fr_bug;

/* q: load q0, q1 (HALF_DIM lanes each), cos, sin of the token; store both halves */
static inline int fr_q(const td_abi_launch *L, fr_bug bug) {
    int64_t qts = TL_I(L, 0), qhs = TL_I(L, 1), hds = TL_I(L, 2), cts = TL_I(L, 3), cst = TL_I(L, 4), half = TL_I(L, 5);
    for (uint32_t h = 0; h < L->grid[0]; h++)
        for (uint32_t t = 0; t < L->grid[1]; t++)
            for (int64_t j = 0; j < half; j++) {
                int64_t d0 = bug == FR_INTERLEAVED ? 2 * j : j, d1 = bug == FR_INTERLEAVED ? 2 * j + 1 : j + half;
                int64_t o0 = t * qts + h * qhs + d0 * hds, o1 = t * qts + h * qhs + d1 * hds, cs = t * cts + j * cst;
                if (bug == FR_OFFSET_I32) {
                    cs = tl_i32(tl_i32((int64_t)t * tl_i32(cts)) + j * cst);
                    if (tl_fault(L, 1, cs, 1, 1, h) || tl_fault(L, 2, cs, 1, 1, h)) return 1;
                }
                float q0 = tl_load(L, 0, o0), q1 = tl_load(L, 0, o1);
                float c = tl_load(L, bug == FR_SWAP ? 2 : 1, cs), s = tl_load(L, bug == FR_SWAP ? 1 : 2, cs);
                if (bug == FR_WRONG_SIGN) s = -s;
                tl_store(L, 0, o0, q0 * c - q1 * s, tl_f32());
                tl_store(L, 0, o1, q0 * s + q1 * c, tl_f32());
            }
    return 0;
}

/* v into the cache: programs with head % KV_GROUP_NUM == 0 copy v[token, head/G, :] to the
 * slot of the token's last position (chained metadata: length, then block table) */
static inline int fr_v(const td_abi_launch *L, fr_bug bug) {
    int64_t G = TL_I(L, 0), kts = TL_I(L, 1), khs = TL_I(L, 2), hds = TL_I(L, 3), vcb = TL_I(L, 4), vch = TL_I(L, 5);
    int64_t vcs = TL_I(L, 6), vcd = TL_I(L, 7), bts = TL_I(L, 8), btb = TL_I(L, 9), bsz = TL_I(L, 10), D = TL_I(L, 11);
    for (uint32_t h = 0; h < L->grid[0]; h++)
        for (uint32_t t = 0; t < L->grid[1]; t++) {
            if (h % G != 0) continue;
            int64_t kh = h / G, past = tl_load_int(L, 3, t) - (bug == FR_SLOT_AT_LEN ? 0 : 1);
            int64_t row = bug == FR_NEXT_TABLE ? (t + 1) % L->grid[1] : t;
            int64_t blk_idx = bug == FR_BLOCK_EDGE ? (past + 1) / bsz : past / bsz;
            int64_t blk = tl_load_int(L, 2, row * bts + blk_idx * btb), vb = t * kts + kh * khs;
            if (bug == FR_OFFSET_I32) {
                vb = tl_i32(tl_i32((int64_t)t * tl_i32(kts)) + kh * khs);
                if (tl_fault(L, 0, vb, D, hds, h)) return 1;
            }
            for (int64_t d = 0; d < D; d++)
                tl_store(L, 1, blk * vcb + kh * vch + (past % bsz) * vcs + d * vcd,
                         tl_load(L, 0, vb + d * hds), tl_f32());
        }
    return 0;
}

#endif
