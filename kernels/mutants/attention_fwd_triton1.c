/* attention_fwd_triton1 mutants: switches of the port (kernels/host/attention_fwd_triton1.c). */
#include "../host/tl.h"

int td_hk_attention_fwd_triton1(const td_abi_launch *L, unsigned mut);

static int carry_first(const td_abi_launch *L) { return td_hk_attention_fwd_triton1(L, 1u); }
static int no_carry(const td_abi_launch *L) { return td_hk_attention_fwd_triton1(L, 2u); }
static int raw_q(const td_abi_launch *L) { return td_hk_attention_fwd_triton1(L, 4u); }
static int head(const td_abi_launch *L) { return td_hk_attention_fwd_triton1(L, 8u); }
static int offset_i32(const td_abi_launch *L) { return td_hk_attention_fwd_triton1(L, 16u); }

#define OS "attention_fwd_triton1.attention_fwd_triton1_output_summary_general"
#define IO "attention_fwd_triton1.attention_fwd_triton1_io_correctness"
#define FIRST "carry updated before it is read: b_h += dot(k, v) ahead of b_o += dot(q, b_h) counts the chunk twice"
#define NOC "carry not carried: b_h reset at every chunk, the earlier chunks' K^T V lost"
#define RAWQ "recurrent term with the unscaled q: dot(q, b_h) misses the scale"
#define HEAD "head offset i_bh * s_hh (the carry's stride) for q, k, v and o"
#define I32 "i_bh * s_qh computed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_aft1_os_carry_first) = {OS, "mut_carry_before_read", TD_ABI_HOST, NULL, NULL, FIRST, 7, 5, carry_first, NULL};
TD_KERNEL(td_m_aft1_os_no_carry) = {OS, "mut_no_carry", TD_ABI_HOST, NULL, NULL, NOC, 7, 5, no_carry, NULL};
TD_KERNEL(td_m_aft1_os_raw_q) = {OS, "mut_recurrent_unscaled", TD_ABI_HOST, NULL, NULL, RAWQ, 7, 5, raw_q, NULL};
TD_KERNEL(td_m_aft1_os_head) = {OS, "mut_head_stride", TD_ABI_HOST, NULL, NULL, HEAD, 7, 5, head, NULL};
TD_KERNEL(td_m_aft1_io_carry_first) = {IO, "mut_carry_before_read", TD_ABI_HOST, NULL, NULL, FIRST, 7, 5, carry_first, NULL};
TD_KERNEL(td_m_aft1_io_no_carry) = {IO, "mut_no_carry", TD_ABI_HOST, NULL, NULL, NOC, 7, 5, no_carry, NULL};
TD_KERNEL(td_m_aft1_io_raw_q) = {IO, "mut_recurrent_unscaled", TD_ABI_HOST, NULL, NULL, RAWQ, 7, 5, raw_q, NULL};
TD_KERNEL(td_m_aft1_io_head) = {IO, "mut_head_stride", TD_ABI_HOST, NULL, NULL, HEAD, 7, 5, head, NULL};
/* the int32 head offset: one face carries it (the other's far cases are the same cases) */
TD_KERNEL(td_m_aft1_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 7, 5, offset_i32, NULL};
