/* bmm_chunk_fwd mutants (the program itself is in ../host/bmm_chunk_fwd.c). */
#include "../host/matmul_tl.h"

int td_bmm_chunk_fwd_program(const td_abi_launch *L, int b_no_head, int chunk_no_cs);
int td_bmm_chunk_fwd_program_ex(const td_abi_launch *L, int b_no_head, int chunk_no_cs, int a_i32);
/* a_ptr += pid_b * stride_a_batch + ... in int32 (Triton's default): batches beyond 2^31
 * elements wrap */
static int a_i32(const td_abi_launch *L) { return td_bmm_chunk_fwd_program_ex(L, 0, 0, 1); }

/* b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen: the
 * `+ pid_h * stride_b_head` term dropped, every group reads group 0's B */
static int b_no_head(const td_abi_launch *L) { return td_bmm_chunk_fwd_program(L, 1, 0); }
/* a_ptr / b_ptr += pid_c * stride_seqlen: the chunk offset without * chunk_size */
static int chunk_offset(const td_abi_launch *L) { return td_bmm_chunk_fwd_program(L, 0, 1); }

#define SUM "bmm_chunk_fwd.bmm_chunk_fwd_output_summary_general"
#define IO "bmm_chunk_fwd.bmm_chunk_fwd_io_correctness"
#define BH "B's head offset (pid_h * stride_b_head) dropped"
#define CO "the chunk's start row taken as pid_c instead of pid_c * chunk_size"
TD_KERNEL(td_m_bmm_chunk_fwd_sum_bh) = {SUM, "mut_b_head_offset", TD_ABI_HOST, NULL, NULL, BH, 19, 3, b_no_head, NULL};
TD_KERNEL(td_m_bmm_chunk_fwd_io_bh) = {IO, "mut_b_head_offset", TD_ABI_HOST, NULL, NULL, BH, 19, 3, b_no_head, NULL};
TD_KERNEL(td_m_bmm_chunk_fwd_sum_co) = {SUM, "mut_chunk_offset", TD_ABI_HOST, NULL, NULL, CO, 19, 3, chunk_offset, NULL};
TD_KERNEL(td_m_bmm_chunk_fwd_io_co) = {IO, "mut_chunk_offset", TD_ABI_HOST, NULL, NULL, CO, 19, 3, chunk_offset, NULL};
#define AI32 "pid_b * stride_a_batch (+ the chunk and head offsets) formed in int32 (A's batch offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_bmm_chunk_fwd_sum_i32) = {SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 19, 3, a_i32, NULL};
TD_KERNEL(td_m_bmm_chunk_fwd_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 19, 3, a_i32, NULL};
