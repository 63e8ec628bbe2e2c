/* l2_norm_bwd mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int no_rstd(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_BUG_BWD_NO_RSTD); }
static int off_by_one(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_BUG_MASK_OFF_BY_ONE); }

TD_KERNEL(td_m_l2_norm_bwd_rstd) = {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "mut_missing_rstd", TD_ABI_HOST, NULL,
                                    NULL,
                                    "dx = dy * rstd - tl.sum(dy * x) * (1 / (var + eps)) * x: the correction term "
                                    "lacks one rstd factor",
                                    4, 3, no_rstd, NULL};
TD_KERNEL(td_m_l2_norm_bwd_mask) = {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "mut_mask_off_by_one", TD_ABI_HOST,
                                    NULL, NULL, "the store mask is cols <= N: column N of the row written", 4, 3,
                                    off_by_one, NULL};

/* row * stride_x_row formed in int32, as Triton forms it for an int32 stride: wraps beyond
 * 2^31 elements (offsets beyond 2^31, gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_BUG_OFFSET_I32); }
TD_KERNEL(td_m_l2_norm_bwd_i32) = {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "mut_offset_int32", TD_ABI_HOST, NULL,
                                   NULL, "row * stride_x_row computed in int32 (wraps beyond 2^31)", 4, 3,
                                   offset_int32, NULL};
