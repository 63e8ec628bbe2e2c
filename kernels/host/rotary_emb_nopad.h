/* ColossalAI's rotary_embedding_kernel and fused_rotary_embedding_kernel_v2 on the CPU,
 * shared by the host kernel and the mutants.  The launch arguments are the contract's
 * surf_* parameters (0..11) and, for v2, the cache parameters (35..41); parameter 42
 * (FUSED_V2) says which of the two launches the wrapper makes.
 *   nopad (program (head, token block)): for each token of the BLOCK_TOKENS tile below
 *     q_total_tokens, load q0, q1 and the token's cos, sin row (sin with the cos
 *     strides), store q0*c - q1*s and q0*s + q1*c; the first head of each KV group does
 *     the same for K's head pid0 / KV_GROUP_NUM.
 *   v2 (program (head, token); heads >= Q_HEAD_NUM return): rotate q and k of (head,
 *     token); the rotated k goes to the cache slot of the token's last position. */
#ifndef TD_ROTARY_EMB_NOPAD_H
#define TD_ROTARY_EMB_NOPAD_H

#include "tl.h"

enum { NP_QTS, NP_QHS, NP_KTS, NP_KHS, NP_HDS, NP_CTS, NP_CS, NP_T, NP_QH, NP_G, NP_HD, NP_BT };
enum { NP_CB = 35, NP_CH, NP_CBS, NP_CD, NP_BTS, NP_BTB, NP_BSZ, NP_V2 };
enum { NR_Q, NR_K, NR_COS, NR_SIN, NR_KVC, NR_BT, NR_CL };

typedef enum np_bug {
    NPB_OK = 0,
    NPB_WRONG_SIGN,  /* rotated by -angle */
    NPB_INTERLEAVED, /* pairs (2i, 2i+1) instead of (i, i + HEAD_DIM/2) */
    NPB_SWAP,        /* cos and sin swapped */
    NPB_CHUNK_POS,   /* cos/sin row = token index inside its BLOCK_TOKENS chunk (chunk offset ignored) */
    NPB_SLOT_AT_LEN, /* v2: the cache written at position len, not len - 1 */
    NPB_OFFSET_I32   /* token * cos_token_stride formed in int32 (wraps beyond 2^31 elements) */
} np_bug;

/* rotates the pair at (o0, o1) of region src by table row crow; stores into (dst, d0, d1) */
static inline void np_rot(const td_abi_launch *L, int src, int64_t o0, int64_t o1, int dst, int64_t d0, int64_t d1,
                          int64_t crow, int64_t i, np_bug bug) {
    int64_t co = crow * TL_I(L, NP_CTS) + i * TL_I(L, NP_CS);
    float x0 = tl_load(L, src, o0), x1 = tl_load(L, src, o1);
    float c = tl_load(L, bug == NPB_SWAP ? NR_SIN : NR_COS, co), s = tl_load(L, bug == NPB_SWAP ? NR_COS : NR_SIN, co);
    if (bug == NPB_WRONG_SIGN) s = -s;
    tl_store(L, dst, d0, x0 * c - x1 * s, tl_f32());
    tl_store(L, dst, d1, x0 * s + x1 * c, tl_f32());
}

static inline int np_launch(const td_abi_launch *L, np_bug bug) {
    int64_t half = TL_I(L, NP_HD) / 2, hds = TL_I(L, NP_HDS), T = TL_I(L, NP_T), QH = TL_I(L, NP_QH);
    int64_t G = TL_I(L, NP_G), BT = TL_I(L, NP_BT), v2 = TL_I(L, NP_V2);
    for (uint32_t h = 0; h < L->grid[0]; h++)
        for (uint32_t tb = 0; tb < L->grid[1]; tb++) {
            if (v2 && h >= QH) continue;
            for (int64_t tt = 0; tt < (v2 ? 1 : BT); tt++) {
                int64_t t = v2 ? (int64_t)tb : (int64_t)tb * BT + tt, crow = bug == NPB_CHUNK_POS && !v2 ? tt : t;
                if (t >= T) continue;
                if (bug == NPB_OFFSET_I32 && tl_fault(L, NR_COS, tl_i32(crow * tl_i32(TL_I(L, NP_CTS))), 1, 1, h)) return 1;
                for (int64_t i = 0; i < half; i++) {
                    int64_t a = bug == NPB_INTERLEAVED ? 2 * i : i, b = bug == NPB_INTERLEAVED ? 2 * i + 1 : i + half;
                    int64_t q = t * TL_I(L, NP_QTS) + h * TL_I(L, NP_QHS);
                    np_rot(L, NR_Q, q + a * hds, q + b * hds, NR_Q, q + a * hds, q + b * hds, crow, i, bug);
                    if (!v2 && h % G == 0) {
                        int64_t k = t * TL_I(L, NP_KTS) + (h / G) * TL_I(L, NP_KHS);
                        np_rot(L, NR_K, k + a * hds, k + b * hds, NR_K, k + a * hds, k + b * hds, crow, i, bug);
                    }
                    if (v2) {
                        int64_t past = tl_load_int(L, NR_CL, t) - (bug == NPB_SLOT_AT_LEN ? 0 : 1), bsz = TL_I(L, NP_BSZ);
                        int64_t blk = tl_load_int(L, NR_BT, t * TL_I(L, NP_BTS) + (past / bsz) * TL_I(L, NP_BTB));
                        int64_t base = blk * TL_I(L, NP_CB) + h * TL_I(L, NP_CH) + (past % bsz) * TL_I(L, NP_CBS);
                        int64_t k = t * TL_I(L, NP_KTS) + h * TL_I(L, NP_KHS), cd = TL_I(L, NP_CD);
                        np_rot(L, NR_K, k + a * hds, k + b * hds, NR_KVC, base + a * cd, base + b * cd, crow, i, bug);
                    }
                }
            }
        }
    return 0;
}

#endif
