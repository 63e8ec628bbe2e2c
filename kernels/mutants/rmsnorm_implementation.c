/* rmsnorm_implementation mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int eps_outside(const td_abi_launch *L) { return rn_stream_program(L, 1, RN_BUG_EPS_OUTSIDE); }
static int norm_tail(const td_abi_launch *L) { return rn_stream_program(L, 1, RN_BUG_NORM_TAIL_DROPPED); }
static int offset_i32(const td_abi_launch *L) { return rn_stream_program(L, 1, RN_BUG_OFFSET_I32); }

TD_KERNEL(td_m_rmsnorm_impl_eps) = {"rmsnorm_implementation.rmsnorm_implementation_output_summary",
                                    "mut_eps_outside_sqrt", TD_ABI_HOST, NULL, NULL,
                                    "std = tl.sqrt(var) + eps: eps added outside the square root", 10, 3, eps_outside, NULL};
TD_KERNEL(td_m_rmsnorm_impl_tail) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness",
                                     "mut_store_tail_dropped", TD_ABI_HOST, NULL, NULL,
                                     "the normalise loop runs range(0, N_SIZE // BLOCK * BLOCK, BLOCK): the tail "
                                     "block is never stored",
                                     10, 3, norm_tail, NULL};
#define OFFSET_I32_WHY "offs_m = pid_batch * stride_x_batch + pid_m * stride_x_m formed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_rmsnorm_impl_sum_i32) = {"rmsnorm_implementation.rmsnorm_implementation_output_summary",
                                        "mut_offset_int32", TD_ABI_HOST, NULL, NULL, OFFSET_I32_WHY, 10, 3,
                                        offset_i32, NULL};
TD_KERNEL(td_m_rmsnorm_impl_io_i32) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness",
                                       "mut_offset_int32", TD_ABI_HOST, NULL, NULL, OFFSET_I32_WHY, 10, 3,
                                       offset_i32, NULL};
