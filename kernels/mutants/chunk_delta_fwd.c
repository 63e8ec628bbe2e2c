/* chunk_delta_fwd mutants (the programs are in ../host/chunk_delta_fwd.c): the bugs
 * chunked delta-rule kernels ship. */
#include "../host/chunk_delta_fwd_tl.h"
#include "far_i32.h"

static int store_run(const td_abi_launch *L, cdf_store_bug b) { return td_cdf_store_run(L, &b); }
static int no_vcheck(const td_abi_launch *L) { return store_run(L, (cdf_store_bug){.no_vcheck = 1}); }
static int slot_stride(const td_abi_launch *L) { return store_run(L, (cdf_store_bug){.slot_stride = 1}); }
static int fp16(const td_abi_launch *L) { return store_run(L, (cdf_store_bug){.fp16 = 1}); }

#define NO_VCHECK "boundary_check=(0,): the V tail's columns stored past V"
#define SLOT "the chunk slot at i_t*K*s_h_t instead of i_t*K*V (the padded row stride taken for V)"
#define FP16 "the chunk-start state stored through fp16 (fp16 state storage between chunks)"
TD_KERNEL(td_m_cdf_store_vcheck) = {CDF_STORE, "mut_no_v_boundary_check", TD_ABI_HOST, NULL, NULL, NO_VCHECK, 7, 2, no_vcheck, NULL};
TD_KERNEL(td_m_cdf_store_r_vcheck) = {CDF_STORE_R, "mut_no_v_boundary_check", TD_ABI_HOST, NULL, NULL, NO_VCHECK, 7, 2, no_vcheck, NULL};
TD_KERNEL(td_m_cdf_store_slot) = {CDF_STORE, "mut_slot_stride", TD_ABI_HOST, NULL, NULL, SLOT, 7, 2, slot_stride, NULL};
TD_KERNEL(td_m_cdf_store_r_slot) = {CDF_STORE_R, "mut_slot_stride", TD_ABI_HOST, NULL, NULL, SLOT, 7, 2, slot_stride, NULL};
TD_KERNEL(td_m_cdf_store_fp16) = {CDF_STORE, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, FP16, 7, 2, fp16, NULL};
TD_KERNEL(td_m_cdf_store_r_fp16) = {CDF_STORE_R, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, FP16, 7, 2, fp16, NULL};

static int run(const td_abi_launch *L, cdf_bug b) { return td_cdf_run(L, &b); }
/* k's head base i_bh * s_qk_h formed in int32 (region 0, parameter 2) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 2)) ? 1 : run(L, (cdf_bug){0}); }
static int store_after(const td_abi_launch *L) { return run(L, (cdf_bug){.store_after = 1}); }
static int no_carry(const td_abi_launch *L) { return run(L, (cdf_bug){.no_carry = 1}); }
static int fp16_dot(const td_abi_launch *L) { return run(L, (cdf_bug){.fp16_dot = 1}); }
static int raw_v(const td_abi_launch *L) { return run(L, (cdf_bug){.raw_v = 1}); }
TD_KERNEL(td_m_cdf_store_after) = {CDF_EXEC, "mut_h_stored_after_update", TD_ABI_HOST, NULL, NULL,
                                   "h[i_t] stored after the chunk's update: the state of the wrong chunk", 19, 7,
                                   store_after, NULL};
TD_KERNEL(td_m_cdf_no_carry) = {CDF_EXEC, "mut_state_not_carried", TD_ABI_HOST, NULL, NULL,
                                "b_h += b_h_cumsum dropped: the state not carried across chunks", 19, 7, no_carry, NULL};
TD_KERNEL(td_m_cdf_fp16_dot) = {CDF_EXEC, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                                "the state cast to fp16 for the correction dot (b_h.to(fp16 k.dtype))", 19, 7, fp16_dot,
                                NULL};
TD_KERNEL(td_m_cdf_raw_v) = {CDF_EXEC, "mut_uncorrected_v", TD_ABI_HOST, NULL, NULL,
                             "b_h_cumsum accumulated with the uncorrected v (the delta correction dropped)", 19, 7, raw_v,
                             NULL};
TD_KERNEL(td_m_cdf_i32) = {CDF_EXEC, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "i_bh * s_qk_h formed in int32 (k's head base wraps beyond 2^31 elements)", 19, 7,
                           offset_i32, NULL};
