/* rms_norm_triton mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int no_eps(const td_abi_launch *L) { return rn_rms_norm_program(L, RN_BUG_NO_EPS); }
static int padded(const td_abi_launch *L) { return rn_rms_norm_program(L, RN_BUG_PADDED_COUNT); }
static int offset_int32(const td_abi_launch *L) { return rn_rms_norm_program(L, RN_BUG_OFFSET_I32); }

TD_KERNEL(td_m_rms_norm_triton_eps) = {"rms_norm_triton.rms_norm_kernel_correctness", "mut_sqrt_without_eps",
                                       TD_ABI_HOST, NULL, NULL, "rrms = 1 / tl.sqrt(var): eps is never added", 7, 3,
                                       no_eps, NULL};
TD_KERNEL(td_m_rms_norm_triton_pad) = {"rms_norm_triton.rms_norm_kernel_correctness", "mut_padded_count",
                                       TD_ABI_HOST, NULL, NULL,
                                       "var = tl.sum(x * x) / BLOCK_SIZE: the padded tile's count instead of N", 7, 3,
                                       padded, NULL};
TD_KERNEL(td_m_rms_norm_triton_i32) = {"rms_norm_triton.rms_norm_kernel_correctness", "mut_offset_int32",
                                       TD_ABI_HOST, NULL, NULL,
                                       "pid * x_stride_r computed in int32 (wraps beyond 2^31 elements)", 7, 3,
                                       offset_int32, NULL};
