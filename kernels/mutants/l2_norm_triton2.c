/* l2_norm_triton2 mutants (the programs are rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int f16_acc(const td_abi_launch *L) { return rn_l2_fwd_program(L, RN_BUG_F16_ACC); }
static int no_qinv(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_BUG_BWD_NO_QINV); }

TD_KERNEL(td_m_l2_norm_triton2_f16) = {"l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness", "mut_f16_accumulation",
                                       TD_ABI_HOST, NULL, NULL,
                                       "the squares accumulated in a binary16 register: every partial sum rounded to "
                                       "fp16",
                                       4, 2, f16_acc, NULL};
TD_KERNEL(td_m_l2_norm_triton2_qinv) = {"l2_norm_triton2.l2_norm_bwd_kernel_correctness", "mut_missing_inv_var",
                                        TD_ABI_HOST, NULL, NULL,
                                        "dx = dy * rstd - tl.sum(dy * x) * rstd * x: the 1 / (var + eps) factor "
                                        "dropped",
                                        4, 3, no_qinv, NULL};

/* row * stride_x_row formed in int32, as Triton forms it for an int32 stride: wraps beyond
 * 2^31 elements (offsets beyond 2^31, gen_far.h) */
static int offset_int32_fwd(const td_abi_launch *L) { return rn_l2_fwd_program(L, RN_BUG_OFFSET_I32); }
static int offset_int32_bwd(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_BUG_OFFSET_I32); }
TD_KERNEL(td_m_l2_norm_triton2_fwd_i32) = {"l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness", "mut_offset_int32",
                                           TD_ABI_HOST, NULL, NULL,
                                           "row * stride_x_row computed in int32 (wraps beyond 2^31)", 4, 2,
                                           offset_int32_fwd, NULL};
TD_KERNEL(td_m_l2_norm_triton2_bwd_i32) = {"l2_norm_triton2.l2_norm_bwd_kernel_correctness", "mut_offset_int32",
                                           TD_ABI_HOST, NULL, NULL,
                                           "row * stride_x_row computed in int32 (wraps beyond 2^31)", 4, 3,
                                           offset_int32_bwd, NULL};
