/* rmsnorm_fused mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int off_by_one(const td_abi_launch *L) { return rn_fused_program(L, 0, RN_BUG_MASK_OFF_BY_ONE); }
static int n_minus_1(const td_abi_launch *L) { return rn_fused_program(L, 0, RN_BUG_N_MINUS_1); }

TD_KERNEL(td_m_rmsnorm_fused_mask) = {"rmsnorm_fused.rms_norm_fwd_fused_output_summary", "mut_mask_off_by_one",
                                      TD_ABI_HOST, NULL, NULL,
                                      "cols <= N: column N is loaded into the variance and stored", 4, 3, off_by_one, NULL};
TD_KERNEL(td_m_rmsnorm_fused_nm1) = {"rmsnorm_fused.rms_norm_fwd_fused_io_correctness", "mut_variance_n_minus_1",
                                     TD_ABI_HOST, NULL, NULL, "var = tl.sum(_var) / (N - 1) (the unbiased count)", 4, 3,
                                     n_minus_1, NULL};

/* row * stride formed in int32, as Triton forms it for an int32 stride: wraps beyond 2^31
 * elements (offsets beyond 2^31, gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return rn_fused_program(L, 0, RN_BUG_OFFSET_I32); }
TD_KERNEL(td_m_rmsnorm_fused_i32) = {"rmsnorm_fused.rms_norm_fwd_fused_output_summary", "mut_offset_int32", TD_ABI_HOST,
                                     NULL, NULL, "row * stride computed in int32 (wraps beyond 2^31)", 4, 3,
                                     offset_int32, NULL};
TD_KERNEL(td_m_rmsnorm_fused_io_i32) = {"rmsnorm_fused.rms_norm_fwd_fused_io_correctness", "mut_offset_int32",
                                        TD_ABI_HOST, NULL, NULL, "row * stride computed in int32 (wraps beyond 2^31)",
                                        4, 3, offset_int32, NULL};
