/* rmsnorm_triton mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int tail_dropped(const td_abi_launch *L) { return rn_stream_program(L, 0, RN_BUG_TAIL_DROPPED); }
static int no_eps(const td_abi_launch *L) { return rn_stream_program(L, 0, RN_BUG_NO_EPS); }
static int f16_acc(const td_abi_launch *L) { return rn_stream_program(L, 0, RN_BUG_F16_ACC); }
static int offset_i32(const td_abi_launch *L) { return rn_stream_program(L, 0, RN_BUG_OFFSET_I32); }

TD_KERNEL(td_m_rmsnorm_triton_tail) = {
    "rmsnorm_triton.rmsnorm_full_output_summary", "mut_tail_block_dropped", TD_ABI_HOST, NULL, NULL,
    "the variance loop runs range(0, N_SIZE // BLOCK * BLOCK, BLOCK): the tail block is not summed", 10, 3,
    tail_dropped, NULL};
TD_KERNEL(td_m_rmsnorm_triton_no_eps) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "mut_rsqrt_without_eps",
                                         TD_ABI_HOST, NULL, NULL, "rstd = rsqrt(var): eps is never added", 10, 3,
                                         no_eps, NULL};
TD_KERNEL(td_m_rmsnorm_triton_f16) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "mut_f16_accumulation",
                                      TD_ABI_HOST, NULL, NULL,
                                      "the var tile is binary16 (tl.zeros(..., x.dtype)): every partial sum rounded "
                                      "to fp16",
                                      10, 3, f16_acc, NULL};
#define OFFSET_I32_WHY "offs_m = pid_batch * stride_x_batch + pid_m * stride_x_m formed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_rmsnorm_triton_sum_i32) = {"rmsnorm_triton.rmsnorm_full_output_summary", "mut_offset_int32",
                                          TD_ABI_HOST, NULL, NULL, OFFSET_I32_WHY, 10, 3, offset_i32, NULL};
TD_KERNEL(td_m_rmsnorm_triton_io_i32) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "mut_offset_int32",
                                         TD_ABI_HOST, NULL, NULL, OFFSET_I32_WHY, 10, 3, offset_i32, NULL};
