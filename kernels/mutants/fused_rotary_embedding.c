/* fused_rotary_embedding mutants (fused_rotary_embedding.h): rotary bugs on the q slice,
 * paged-cache indexing bugs on the v slice. */
#include "../host/fused_rotary_embedding.h"

static int q_sign(const td_abi_launch *L) { return fr_q(L, FR_WRONG_SIGN); }
static int q_inter(const td_abi_launch *L) { return fr_q(L, FR_INTERLEAVED); }
static int q_swap(const td_abi_launch *L) { return fr_q(L, FR_SWAP); }
static int v_len(const td_abi_launch *L) { return fr_v(L, FR_SLOT_AT_LEN); }
static int v_next(const td_abi_launch *L) { return fr_v(L, FR_NEXT_TABLE); }
static int v_edge(const td_abi_launch *L) { return fr_v(L, FR_BLOCK_EDGE); }
static int q_i32(const td_abi_launch *L) { return fr_q(L, FR_OFFSET_I32); }
static int v_i32(const td_abi_launch *L) { return fr_v(L, FR_OFFSET_I32); }

#define FQ "fused_rotary_embedding.decoding_fused_rotary_embedding_q_correctness"
#define FV "fused_rotary_embedding.decoding_fused_rotary_embedding_vcache_chain_correctness"
TD_KERNEL(td_m_frq_sign) = {FQ, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL, "rotated by -angle (sin negated)", 6, 3,
                            q_sign, NULL};
TD_KERNEL(td_m_frq_inter) = {FQ, "mut_interleaved", TD_ABI_HOST, NULL, NULL,
                             "interleaved pairs (2j, 2j+1) instead of the half-split (j, j + HALF_DIM)", 6, 3, q_inter,
                             NULL};
TD_KERNEL(td_m_frq_swap) = {FQ, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "cos and sin swapped", 6, 3, q_swap,
                            NULL};
TD_KERNEL(td_m_frv_len) = {FV, "mut_slot_at_seq_len", TD_ABI_HOST, NULL, NULL,
                           "cache written at position context_length instead of context_length - 1", 12, 4, v_len,
                           NULL};
TD_KERNEL(td_m_frv_next) = {FV, "mut_next_token_table", TD_ABI_HOST, NULL, NULL,
                            "block table row of token t+1 used for token t", 12, 4, v_next, NULL};
TD_KERNEL(td_m_frv_edge) = {FV, "mut_block_edge", TD_ABI_HOST, NULL, NULL,
                            "block index context_length / block_size: wrong block when the length is a multiple", 12, 4,
                            v_edge, NULL};
TD_KERNEL(td_m_frq_i32) = {FQ, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "cur_token_idx * cos_token_stride formed in int32 (wraps beyond 2^31 elements)", 6, 3, q_i32,
                           NULL};
TD_KERNEL(td_m_frv_i32) = {FV, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "cur_token_idx * k_token_stride formed in int32 (wraps beyond 2^31 elements)", 12, 4, v_i32,
                           NULL};
