/* rotary_emb mutants: the rotary bugs this family ships (rotary_emb.h). */
#include "../host/rotary_emb.h"

static int m_sign(const td_abi_launch *L) { return re_launch(L, REB_WRONG_SIGN); }
static int m_split(const td_abi_launch *L) { return re_launch(L, REB_HALF_SPLIT); }
static int m_swap(const td_abi_launch *L) { return re_launch(L, REB_SWAP); }
static int m_chunk(const td_abi_launch *L) { return re_launch(L, REB_CHUNK_POS); }
static int m_i32(const td_abi_launch *L) { return re_launch(L, REB_OFFSET_I32); }

#define RE_ID "rotary_emb.rotary_emb_kernel_correctness"
TD_KERNEL(td_m_rotary_emb_sign) = {RE_ID, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL,
                                   "rotated by -angle: the sin terms with the wrong sign", 17, 4, m_sign, NULL};
TD_KERNEL(td_m_rotary_emb_split) = {RE_ID, "mut_half_split", TD_ABI_HOST, NULL, NULL,
                                    "half-split pairs (i, i + d/2) instead of the interleaved (2i, 2i+1)", 17, 4,
                                    m_split, NULL};
TD_KERNEL(td_m_rotary_emb_swap) = {RE_ID, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "Cos and Sin swapped", 17, 4,
                                   m_swap, NULL};
TD_KERNEL(td_m_rotary_emb_chunk) = {RE_ID, "mut_chunk_position", TD_ABI_HOST, NULL, NULL,
                                    "table row = index inside the BLOCK_SEQ chunk: the second chunk's offset ignored",
                                    17, 4, m_chunk, NULL};
TD_KERNEL(td_m_rotary_emb_i32) = {RE_ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                  "cur_seq_range * stride_cosbs (and sin's) formed in int32 (wraps beyond 2^31 elements)",
                                  17, 4, m_i32, NULL};
