/* rope_backward_transform mutants: the rotary bugs this family ships (rope_liger.h). */
#include "../host/rope_liger.h"

static int m_sign(const td_abi_launch *L) { return lg_launch(L, 1, LG_WRONG_SIGN); }
static int m_inter(const td_abi_launch *L) { return lg_launch(L, 1, LG_INTERLEAVED); }
static int m_swap(const td_abi_launch *L) { return lg_launch(L, 1, LG_SWAP); }
static int m_nqh(const td_abi_launch *L) { return lg_launch(L, 1, LG_K_WITH_NQH); }
static int m_i32(const td_abi_launch *L) { return lg_launch(L, 1, LG_OFFSET_I32); }

#define ID "rope_backward_transform.rope_backward_python_backward_output_summary_general"
TD_KERNEL(td_m_rope_btf_sign) = {ID, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL,
                               "second half rotated with the wrong sign", 13, 4, m_sign, NULL};
TD_KERNEL(td_m_rope_btf_inter) = {ID, "mut_interleaved", TD_ABI_HOST, NULL, NULL,
                                "interleaved pairs (2i, 2i+1) instead of the half-split (i, i + hd/2)", 13, 4, m_inter,
                                NULL};
TD_KERNEL(td_m_rope_btf_swap) = {ID, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "cos and sin swapped", 13, 4,
                               m_swap, NULL};
TD_KERNEL(td_m_rope_btf_nqh) = {ID, "mut_k_heads_n_qh", TD_ABI_HOST, NULL, NULL,
                              "k's head mask uses n_qh: k heads beyond n_kh rotated (grouped-query)", 13, 4, m_nqh,
                              NULL};
TD_KERNEL(td_m_rope_btf_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                              "(pid % sl) * cos_row_stride and sin's formed in int32 (wraps beyond 2^31 elements)",
                              13, 4, m_i32, NULL};
