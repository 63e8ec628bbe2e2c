/* triton_linear_activation mutants (the program itself is in ../host/triton_linear_activation.c). */
#include "../host/matmul_tl.h"

enum { TLA_OK = 0, TLA_SAVE_AFTER_ACT, TLA_BIAS_BY_ROW, TLA_A_OFF_I32 };
int td_tla_program(const td_abi_launch *L, int bug);

/* the ACT_INPUTS store placed after the activation: the saved value is activated */
static int save_after_act(const td_abi_launch *L) { return td_tla_program(L, TLA_SAVE_AFTER_ACT); }
/* bias = tl.load(bias + m_offs, ...): the bias indexed by the row */
static int bias_by_row(const td_abi_launch *L) { return td_tla_program(L, TLA_BIAS_BY_ROW); }
/* A + m_offs[:, None] * a_m_stride formed in int32 (Triton's type for an int32 stride):
 * A's row offsets wrap beyond 2^31 elements */
static int a_off_i32(const td_abi_launch *L) { return td_tla_program(L, TLA_A_OFF_I32); }

#define SUM "triton_linear_activation.triton_linear_activation_output_summary_general"
#define IO "triton_linear_activation.triton_linear_activation_io_correctness"
#define SA "ACT_INPUTS stored after the activation instead of before"
#define BR "bias loaded at m_offs (by row) instead of n_offs"
TD_KERNEL(td_m_tla_sum_sa) = {SUM, "mut_save_after_activation", TD_ABI_HOST, NULL, "libm", SA, 18, 5, save_after_act, NULL};
TD_KERNEL(td_m_tla_io_sa) = {IO, "mut_save_after_activation", TD_ABI_HOST, NULL, "libm", SA, 18, 5, save_after_act, NULL};
TD_KERNEL(td_m_tla_sum_br) = {SUM, "mut_bias_by_row", TD_ABI_HOST, NULL, "libm", BR, 18, 5, bias_by_row, NULL};
TD_KERNEL(td_m_tla_io_br) = {IO, "mut_bias_by_row", TD_ABI_HOST, NULL, "libm", BR, 18, 5, bias_by_row, NULL};
#define AI32 "m_offs[:, None] * a_m_stride formed in int32 (A's row offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_tla_sum_i32) = {SUM, "mut_offset_int32", TD_ABI_HOST, NULL, "libm", AI32, 18, 5, a_off_i32, NULL};
TD_KERNEL(td_m_tla_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, NULL, "libm", AI32, 18, 5, a_off_i32, NULL};
