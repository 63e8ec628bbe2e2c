/* rope_embedding mutants: the rotary bugs this family ships (rope_unsloth.h). */
#include "../host/rope_unsloth.h"

static ru_args rm_args(const td_abi_launch *L, int ntgt) {
    ru_args a = {TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), TL_I(L, 6), TL_I(L, 7),
                 ntgt, ntgt + 1};
    return a;
}
static int rm_io(const td_abi_launch *L, ru_bug bug) {
    int bwd[1] = {(int)TL_I(L, 8)};
    ru_args a = rm_args(L, 1);
    return ru_launch(L, &a, 1, bwd, bug);
}
static int rm_sum(const td_abi_launch *L, ru_bug bug) {
    static const int bwd[2] = {0, 1};
    ru_args a = rm_args(L, 2);
    return ru_launch(L, &a, 2, bwd, bug);
}
static int io_sign(const td_abi_launch *L) { return rm_io(L, RU_WRONG_SIGN); }
static int io_inter(const td_abi_launch *L) { return rm_io(L, RU_INTERLEAVED); }
static int io_swap(const td_abi_launch *L) { return rm_io(L, RU_SWAP_COS_SIN); }
static int io_wrap(const td_abi_launch *L) { return rm_io(L, RU_WRAP_TABLE); }
static int sum_inter(const td_abi_launch *L) { return rm_sum(L, RU_INTERLEAVED); }
static int sum_swap(const td_abi_launch *L) { return rm_sum(L, RU_SWAP_COS_SIN); }

static int io_i32(const td_abi_launch *L) { return rm_io(L, RU_OFFSET_I32); }
static int sum_i32(const td_abi_launch *L) { return rm_sum(L, RU_OFFSET_I32); }

#define RE_IO "rope_embedding.rope_embedding_io_correctness"
#define RE_SUM "rope_embedding.rope_embedding_forward_backward_summary_general"
TD_KERNEL(td_m_re_io_sign) = {RE_IO, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL,
                              "second half rotated with the wrong sign", 9, 3, io_sign, NULL};
TD_KERNEL(td_m_re_io_inter) = {RE_IO, "mut_interleaved", TD_ABI_HOST, NULL, NULL,
                               "interleaved pairs (2i, 2i+1) instead of the half-split (i, i + hd/2)", 9, 3, io_inter,
                               NULL};
TD_KERNEL(td_m_re_io_swap) = {RE_IO, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "cos and sin tables swapped", 9,
                              3, io_swap, NULL};
TD_KERNEL(td_m_re_io_wrap) = {RE_IO, "mut_position_wraps_at_cache", TD_ABI_HOST, NULL, NULL,
                              "position = row mod (rows of the cos cache), not row mod seqlen", 9, 3, io_wrap, NULL};
TD_KERNEL(td_m_re_sum_inter) = {RE_SUM, "mut_interleaved", TD_ABI_HOST, NULL, NULL,
                                "interleaved pairs instead of the half-split (forward and backward)", 8, 4, sum_inter,
                                NULL};
TD_KERNEL(td_m_re_sum_swap) = {RE_SUM, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL,
                               "cos and sin tables swapped (forward and backward)", 8, 4, sum_swap, NULL};
#define I32_WHY "(row % seqlen) * cos_row_stride and sin's formed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_re_io_i32) = {RE_IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32_WHY, 9, 3, io_i32, NULL};
TD_KERNEL(td_m_re_sum_i32) = {RE_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32_WHY, 8, 4, sum_i32, NULL};
