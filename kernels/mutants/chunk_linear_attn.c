/* chunk_linear_attn mutants (the programs are in ../host/chunk_linear_attn.c): the bugs
 * chunked state recurrences ship. */
#include "../host/chunk_linear_attn_tl.h"
#include "far_i32.h"

static int fwd(const td_abi_launch *L, cla_bug b) { return td_cla_fwd_run(L, &b); }
static int bwd(const td_abi_launch *L, cla_bug b) { return td_cla_bwd_run(L, &b); }
/* k's (q's) head base i_bh * s_qk_h formed in int32 (region 0, parameter 0) */
static int f_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : fwd(L, (cla_bug){0}); }
static int b_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : bwd(L, (cla_bug){0}); }
static int f_after(const td_abi_launch *L) { return fwd(L, (cla_bug){.store_after = 1}); }
static int f_nocarry(const td_abi_launch *L) { return fwd(L, (cla_bug){.no_carry = 1}); }
static int f_fp16(const td_abi_launch *L) { return fwd(L, (cla_bug){.fp16_state = 1}); }
static int b_after(const td_abi_launch *L) { return bwd(L, (cla_bug){.store_after = 1}); }
static int b_asc(const td_abi_launch *L) { return bwd(L, (cla_bug){.ascending = 1}); }
static int b_fp16(const td_abi_launch *L) { return bwd(L, (cla_bug){.fp16_state = 1}); }

#define AFTER "the state tile stored after the chunk's tl.dot (inclusive where the state before the chunk is specified)"
#define FP16 "the carried state tile kept in fp16 between chunks"
TD_KERNEL(td_m_cla_f_after) = {CLA_FWD, "mut_store_after_dot", TD_ABI_HOST, NULL, NULL, AFTER, 17, 5, f_after, NULL};
TD_KERNEL(td_m_cla_f_nocarry) = {CLA_FWD, "mut_state_not_carried", TD_ABI_HOST, NULL, NULL,
                                 "b_h = tl.dot(b_k, b_v) instead of +=: the state not carried across chunks", 17, 5,
                                 f_nocarry, NULL};
TD_KERNEL(td_m_cla_f_fp16) = {CLA_FWD, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, FP16, 17, 5, f_fp16, NULL};
TD_KERNEL(td_m_cla_b_after) = {CLA_BWD, "mut_store_after_dot", TD_ABI_HOST, NULL, NULL, AFTER, 16, 3, b_after, NULL};
TD_KERNEL(td_m_cla_b_asc) = {CLA_BWD, "mut_forward_direction", TD_ABI_HOST, NULL, NULL,
                             "dh accumulated with i_t ascending (range(NT) instead of range(NT-1, -1, -1))", 16, 3,
                             b_asc, NULL};
TD_KERNEL(td_m_cla_b_fp16) = {CLA_BWD, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, FP16, 16, 3, b_fp16, NULL};
#define I32 "i_bh * s_qk_h formed in int32 (the head base wraps beyond 2^31 elements)"
TD_KERNEL(td_m_cla_f_i32) = {CLA_FWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 17, 5, f_i32, NULL};
TD_KERNEL(td_m_cla_b_i32) = {CLA_BWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 16, 3, b_i32, NULL};
