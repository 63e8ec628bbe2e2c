/* fast_rope_embedding mutants: the rotary bugs this family ships (rope_unsloth.h), each on
 * the io contract (Q forward) and the two on the layout/table also on the summary (four
 * launches, backward included). */
#include "../host/rope_unsloth.h"

static ru_args fm_args(const td_abi_launch *L, int ntgt) {
    ru_args a = {TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), 4, TL_I(L, 6), ntgt, ntgt + 1};
    return a;
}
static int fm_io(const td_abi_launch *L, ru_bug bug) {
    static const int bwd[1] = {0};
    ru_args a = fm_args(L, 1);
    return ru_launch(L, &a, 1, bwd, bug);
}
static int fm_sum(const td_abi_launch *L, ru_bug bug) {
    static const int bwd[4] = {0, 0, 1, 1};
    ru_args a = fm_args(L, 4);
    return ru_launch(L, &a, 4, bwd, bug);
}
static int io_sign(const td_abi_launch *L) { return fm_io(L, RU_WRONG_SIGN); }
static int io_inter(const td_abi_launch *L) { return fm_io(L, RU_INTERLEAVED); }
static int io_swap(const td_abi_launch *L) { return fm_io(L, RU_SWAP_COS_SIN); }
static int io_wrap(const td_abi_launch *L) { return fm_io(L, RU_WRAP_TABLE); }
static int sum_sign(const td_abi_launch *L) { return fm_sum(L, RU_WRONG_SIGN); }
static int sum_wrap(const td_abi_launch *L) { return fm_sum(L, RU_WRAP_TABLE); }

static int io_i32(const td_abi_launch *L) { return fm_io(L, RU_OFFSET_I32); }
static int sum_i32(const td_abi_launch *L) { return fm_sum(L, RU_OFFSET_I32); }

#define FRE_IO "fast_rope_embedding.fast_rope_embedding_io_correctness"
#define FRE_SUM "fast_rope_embedding.rope_embedding_output_summary_general"
TD_KERNEL(td_m_fre_io_sign) = {FRE_IO, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL,
                               "second half rotated with the wrong sign: q2*cos - q1*sin", 7, 3, io_sign, NULL};
TD_KERNEL(td_m_fre_io_inter) = {FRE_IO, "mut_interleaved", TD_ABI_HOST, NULL, NULL,
                                "interleaved pairs (2i, 2i+1) instead of the half-split (i, i + hd/2)", 7, 3,
                                io_inter, NULL};
TD_KERNEL(td_m_fre_io_swap) = {FRE_IO, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "cos and sin tables swapped",
                               7, 3, io_swap, NULL};
TD_KERNEL(td_m_fre_io_wrap) = {FRE_IO, "mut_position_wraps_at_cache", TD_ABI_HOST, NULL, NULL,
                               "position = row mod (rows of the cos cache), not row mod seqlen", 7, 3, io_wrap, NULL};
TD_KERNEL(td_m_fre_sum_sign) = {FRE_SUM, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL,
                                "second half rotated with the wrong sign (forward and backward)", 7, 6, sum_sign,
                                NULL};
TD_KERNEL(td_m_fre_sum_wrap) = {FRE_SUM, "mut_position_wraps_at_cache", TD_ABI_HOST, NULL, NULL,
                                "position = row mod (rows of the cos cache), not row mod seqlen", 7, 6, sum_wrap, NULL};
#define I32_WHY "(row % seqlen) * cos_row_stride and sin's formed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_fre_io_i32) = {FRE_IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32_WHY, 7, 3, io_i32, NULL};
TD_KERNEL(td_m_fre_sum_i32) = {FRE_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32_WHY, 7, 6, sum_i32, NULL};
