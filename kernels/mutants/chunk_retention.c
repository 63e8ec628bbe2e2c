/* chunk_retention mutants (the programs are in ../host/chunk_retention.c): the bugs
 * chunked retention kernels ship. */
#include "../host/chunk_retention_tl.h"
#include "far_i32.h"

int td_crh_bwd_run(const td_abi_launch *L, int bug);

static int run(const td_abi_launch *L, crt_bug b) { return td_crt_fwd_run(L, &b); }
/* k's head base i_bh * s_qk_h formed in int32 (wraps beyond 2^31 elements) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : run(L, (crt_bug){0}); }
static int no_carry(const td_abi_launch *L) { return run(L, (crt_bug){.no_carry = 1}); }
static int no_ragged(const td_abi_launch *L) { return run(L, (crt_bug){.no_ragged = 1}); }
static int fp16_state(const td_abi_launch *L) { return run(L, (crt_bug){.fp16_state = 1}); }
static int store_after(const td_abi_launch *L) { return run(L, (crt_bug){.store_after = 1}); }
static int di_axis(const td_abi_launch *L) { return td_crh_bwd_run(L, 1); }
static int no_db(const td_abi_launch *L) { return td_crh_bwd_run(L, 2); }
static int skip0(const td_abi_launch *L) { return td_crh_bwd_run(L, 3); }

TD_KERNEL(td_m_crh_no_carry) = {CRH_FWD, "mut_state_not_carried", TD_ABI_HOST, NULL, NULL,
                                "the state reset at every chunk (h = dot(k, v d_i), d_b h dropped)", 18, 5, no_carry, NULL};
TD_KERNEL(td_m_crh_no_ragged) = {CRH_FWD, "mut_ragged_decay", TD_ABI_HOST, NULL, NULL,
                                 "the ragged last chunk keeps BT's d_b and d_i (decays at the wrong steps)", 18, 5,
                                 no_ragged, NULL};
TD_KERNEL(td_m_crh_fp16) = {CRH_FWD, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                            "the state kept in fp16 between chunks", 18, 5, fp16_state, NULL};
TD_KERNEL(td_m_crh_store_after) = {CRH_FWD, "mut_store_after_update", TD_ABI_HOST, NULL, NULL,
                                   "h[t] stored after chunk t's update (off by one chunk)", 18, 5, store_after, NULL};
TD_KERNEL(td_m_crh_di_axis) = {CRH_BWD, "mut_d_i_axis", TD_ABI_HOST, NULL, NULL,
                               "d_i broadcast along the contraction (d_i[None, :], not d_i[:, None])", 11, 3, di_axis, NULL};
TD_KERNEL(td_m_crh_no_db) = {CRH_BWD, "mut_no_final_decay", TD_ABI_HOST, NULL, NULL,
                             "the final b_dh *= d_b left out", 11, 3, no_db, NULL};
TD_KERNEL(td_m_crh_skip0) = {CRH_BWD, "mut_loop_off_by_one", TD_ABI_HOST, NULL, NULL,
                             "the reverse loop range(NT - 1, 0, -1): chunk 0 never accumulated", 11, 3, skip0, NULL};
TD_KERNEL(td_m_crh_i32) = {CRH_FWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                          "i_bh * s_qk_h formed in int32 (k's head base wraps beyond 2^31 elements)", 18, 5,
                          offset_i32, NULL};
