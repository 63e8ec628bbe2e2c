/* rotary_emb_nopad mutants: rotary bugs on both launches, the cache slot off by one on v2
 * (rotary_emb_nopad.h). */
#include "../host/rotary_emb_nopad.h"

static int m_sign(const td_abi_launch *L) { return np_launch(L, NPB_WRONG_SIGN); }
static int m_inter(const td_abi_launch *L) { return np_launch(L, NPB_INTERLEAVED); }
static int m_swap(const td_abi_launch *L) { return np_launch(L, NPB_SWAP); }
static int m_chunk(const td_abi_launch *L) { return np_launch(L, NPB_CHUNK_POS); }
static int m_slot(const td_abi_launch *L) { return np_launch(L, NPB_SLOT_AT_LEN); }
static int m_i32(const td_abi_launch *L) { return np_launch(L, NPB_OFFSET_I32); }

#define ID "rotary_emb_nopad.rotary_emb_nopad_output_summary_general"
TD_KERNEL(td_m_nopad_sign) = {ID, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL, "rotated by -angle (sin negated)", 43, 7,
                              m_sign, NULL};
TD_KERNEL(td_m_nopad_inter) = {ID, "mut_interleaved", TD_ABI_HOST, NULL, NULL,
                               "interleaved pairs (2i, 2i+1) instead of the half-split (i, i + HEAD_DIM/2)", 43, 7,
                               m_inter, NULL};
TD_KERNEL(td_m_nopad_swap) = {ID, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "cos and sin swapped", 43, 7, m_swap,
                              NULL};
TD_KERNEL(td_m_nopad_chunk) = {ID, "mut_chunk_position", TD_ABI_HOST, NULL, NULL,
                               "cos/sin row = index inside the BLOCK_TOKENS chunk: the second chunk's offset ignored",
                               43, 7, m_chunk, NULL};
TD_KERNEL(td_m_nopad_slot) = {ID, "mut_slot_at_seq_len", TD_ABI_HOST, NULL, NULL,
                              "v2: rotated key written at position len instead of len - 1", 43, 7, m_slot, NULL};
TD_KERNEL(td_m_nopad_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "cur_token_range * cos_token_stride formed in int32 (wraps beyond 2^31 elements)", 43, 7,
                             m_i32, NULL};
