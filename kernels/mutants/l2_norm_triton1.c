/* l2_norm_triton1 mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int mean(const td_abi_launch *L) { return rn_l2_fwd_program(L, RN_BUG_L2_MEAN); }
static int eps_outside(const td_abi_launch *L) { return rn_l2_fwd_program(L, RN_BUG_EPS_OUTSIDE); }

TD_KERNEL(td_m_l2_norm_triton1_mean) = {"l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness", "mut_mean_not_sum",
                                        TD_ABI_HOST, NULL, NULL,
                                        "var = tl.sum(xbar * xbar) / N: an RMS norm instead of the L2 norm", 4, 2,
                                        mean, NULL};
TD_KERNEL(td_m_l2_norm_triton1_eps) = {"l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness", "mut_eps_outside_sqrt",
                                       TD_ABI_HOST, NULL, NULL, "rstd = 1 / (tl.sqrt(var) + eps)", 4, 2, eps_outside, NULL};

/* row * stride_x_row formed in int32, as Triton forms it for an int32 stride: wraps beyond
 * 2^31 elements (offsets beyond 2^31, gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return rn_l2_fwd_program(L, RN_BUG_OFFSET_I32); }
TD_KERNEL(td_m_l2_norm_triton1_i32) = {"l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness", "mut_offset_int32",
                                       TD_ABI_HOST, NULL, NULL,
                                       "row * stride_x_row computed in int32 (wraps beyond 2^31)", 4, 2, offset_int32,
                                       NULL};
