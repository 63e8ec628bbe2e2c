/* chunk_retention_ops mutants (the programs are in ../host/chunk_retention.c and
 * ../host/chunk_retention_ops.c): the bugs chunked retention kernels ship. */
#include "../host/chunk_retention_tl.h"
#include "far_i32.h"

int td_cro_bwd_run(const td_abi_launch *L, int bug);

static int run(const td_abi_launch *L, crt_bug b) { return td_crt_fwd_run(L, &b); }
/* k's head base i_bh * s_qk_h formed in int32 (wraps beyond 2^31 elements) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : run(L, (crt_bug){0}); }
static int no_carry(const td_abi_launch *L) { return run(L, (crt_bug){.no_carry = 1}); }
static int fp16_state(const td_abi_launch *L) { return run(L, (crt_bug){.fp16_state = 1}); }
static int store_after(const td_abi_launch *L) { return td_cro_bwd_run(L, 1); }
static int bwd_forward(const td_abi_launch *L) { return td_cro_bwd_run(L, 2); }
static int no_decay(const td_abi_launch *L) { return td_cro_bwd_run(L, 3); }

TD_KERNEL(td_m_cro_no_carry) = {CRO_FWD, "mut_state_not_carried", TD_ABI_HOST, NULL, NULL,
                                "the state reset at every chunk (h = dot(k, v d_i), d_b h dropped)", 18, 5, no_carry, NULL};
TD_KERNEL(td_m_cro_fp16) = {CRO_FWD, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                            "the state kept in fp16 between chunks", 18, 5, fp16_state, NULL};
TD_KERNEL(td_m_cro_store_after) = {CRO_BWD, "mut_store_after_update", TD_ABI_HOST, NULL, NULL,
                                   "dh[i_t] stored after chunk i_t's update (inclusive where exclusive is specified)",
                                   17, 3, store_after, NULL};
TD_KERNEL(td_m_cro_bwd_forward) = {CRO_BWD, "mut_bwd_forward_direction", TD_ABI_HOST, NULL, NULL,
                                   "dh accumulated from chunk 0 upwards instead of from NT - 1 down", 17, 3,
                                   bwd_forward, NULL};
TD_KERNEL(td_m_cro_no_decay) = {CRO_BWD, "mut_no_chunk_decay", TD_ABI_HOST, NULL, NULL,
                                "the carried dh not decayed between chunks (d_b = 1)", 17, 3, no_decay, NULL};
TD_KERNEL(td_m_cro_i32) = {CRO_FWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                          "i_bh * s_qk_h formed in int32 (k's head base wraps beyond 2^31 elements)", 18, 5,
                          offset_i32, NULL};
