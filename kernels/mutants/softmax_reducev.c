/* softmax_reducev mutants: the kernel with one bug switched on. */
#include "../host/softmax_reducev_tl.h"

static int sum_not_rescaled(const td_abi_launch *L) { return softmax_reducev_program(L, BUG_SUM_NOT_RESCALED); }
static int no_max(const td_abi_launch *L) { return softmax_reducev_program(L, BUG_NO_MAX); }
static int offset_int32(const td_abi_launch *L) { return softmax_reducev_program(L, BUG_OFFSET_INT32); }

#define G "softmax_reducev.softmax_reducev_genuine_output_compute_correct_general"
#define IO "softmax_reducev.softmax_reducev_io_correctness"
TD_KERNEL(td_m_srv_sum) = {G, "mut_sum_not_rescaled", TD_ABI_HOST, NULL, NULL,
                           "running max moves but e_sum is not rescaled by old_scale", NP, NR, sum_not_rescaled, NULL};
TD_KERNEL(td_m_srv_nomax) = {G, "mut_no_max_subtraction", TD_ABI_HOST, NULL, NULL,
                             "p = exp(qk): softmax without max subtraction (overflows past 88.7)", NP, NR, no_max, NULL};
TD_KERNEL(td_m_srv_io_sum) = {IO, "mut_sum_not_rescaled", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                              "running max moves but e_sum is not rescaled by old_scale", NP - 1, NR, sum_not_rescaled, NULL};
TD_KERNEL(td_m_srv_io_nomax) = {IO, "mut_no_max_subtraction", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                "p = exp(qk): softmax without max subtraction (overflows past 88.7)", NP - 1, NR,
                                no_max, NULL};
TD_KERNEL(td_m_srv_int32) = {G, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "Logics' offset cur_head * stride_logic_h + (start + n) * stride_logic_bs formed in int32 "
                             "(wraps beyond 2^31 elements)",
                             NP, NR, offset_int32, NULL};
TD_KERNEL(td_m_srv_io_int32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                "Logics' offset cur_head * stride_logic_h + (start + n) * stride_logic_bs formed in "
                                "int32 (wraps beyond 2^31 elements)",
                                NP - 1, NR, offset_int32, NULL};
