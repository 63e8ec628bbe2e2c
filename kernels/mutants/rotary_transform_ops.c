/* rotary_transform_ops mutants: the row slice with one bug switched on (kernels/host/rotary_row_tl.h),
 * the bugs rotary kernels really ship. */
#include "../host/rotary_row_tl.h"

#define G "rotary_transform_ops.rotary_transform_ops_output_summary_general"
#define M "rotary_transform_ops.rotary_transform_ops_meta_implements"
#define RR_MUTANT(tag, bug)                                                                                     \
    static int tag##_g(const td_abi_launch *L) { return rotary_row_program(L, &rrk_general, bug); }          \
    static int tag##_m(const td_abi_launch *L) { return rotary_row_program(L, &rrk_meta, bug); }
RR_MUTANT(sign, RR_BUG_SIGN)
RR_MUTANT(inter, RR_BUG_INTERLEAVED)
RR_MUTANT(nooff, RR_BUG_NO_OFFSET)
RR_MUTANT(swap, RR_BUG_COS_SIN)
RR_MUTANT(i32, RR_BUG_OFFSET_I32)

#define S_SIGN "the halves rotated with the wrong sign: o0 = x0*cos + x1*sin, o1 = x1*cos - x0*sin"
#define S_INTER "interleaved and half-split layouts confused: x0, x1 = x[2j], x[2j+1] on a half-split tensor"
#define S_NOOFF "SEQLEN_OFFSETS ignored: cos/sin read at table row rm instead of rm + offset"
#define S_SWAP "cos and sin swapped: cos read from SIN and sin from COS"
TD_KERNEL(td_m_rotary_transform_ops_g_sign) = {G, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL, S_SIGN, 14, 4, sign_g, NULL};
TD_KERNEL(td_m_rotary_transform_ops_g_inter) = {G, "mut_interleaved", TD_ABI_HOST, NULL, NULL, S_INTER, 14, 4, inter_g, NULL};
TD_KERNEL(td_m_rotary_transform_ops_g_nooff) = {G, "mut_offset_ignored", TD_ABI_HOST, NULL, NULL, S_NOOFF, 14, 4, nooff_g, NULL};
TD_KERNEL(td_m_rotary_transform_ops_g_swap) = {G, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, S_SWAP, 14, 4, swap_g, NULL};
TD_KERNEL(td_m_rotary_transform_ops_m_sign) = {M, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL, S_SIGN, 16, 5, sign_m, NULL};
TD_KERNEL(td_m_rotary_transform_ops_m_inter) = {M, "mut_interleaved", TD_ABI_HOST, NULL, NULL, S_INTER, 16, 5, inter_m, NULL};
TD_KERNEL(td_m_rotary_transform_ops_m_nooff) = {M, "mut_offset_ignored", TD_ABI_HOST, NULL, NULL, S_NOOFF, 16, 5, nooff_m, NULL};
TD_KERNEL(td_m_rotary_transform_ops_m_swap) = {M, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, S_SWAP, 16, 5, swap_m, NULL};

static int seq_end(const td_abi_launch *L) { return rotary_row_program(L, &rrk_meta, RR_BUG_SEQ_END); }
TD_KERNEL(td_m_rotary_transform_ops_m_seqend) = {M, "mut_varlen_last_row", TD_ABI_HOST, NULL, NULL,
                                 "varlen seqlen = cu_seqlens[b+1] - cu_seqlens[b] - 1: a sequence's last row block is "
                                 "dropped when it starts at its last token",
                                 16, 5, seq_end, NULL};
#define S_I32 "pid_batch * stride_x_batch formed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_rotary_transform_ops_g_i32) = {G, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, S_I32, 14, 4, i32_g, NULL};
TD_KERNEL(td_m_rotary_transform_ops_m_i32) = {M, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, S_I32, 16, 5, i32_m, NULL};
