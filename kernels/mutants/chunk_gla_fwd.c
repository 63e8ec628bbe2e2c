/* chunk_gla_fwd mutants (the program itself is in ../host/chunk_gla_fwd.c): the bugs
 * chunked gated-attention output stages ship. */
#include "../host/chunk_gla_fwd_tl.h"
#include "far_i32.h"

static int run(const td_abi_launch *L, cgf_bug b) { return td_cgf_run(L, &b); }
/* q's head base i_bh * s_k_h formed in int32 (region 0, parameter 0) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : run(L, (cgf_bug){0}); }
static int strict_mask(const td_abi_launch *L) { return run(L, (cgf_bug){.strict_mask = 1}); }
static int state_chunk0(const td_abi_launch *L) { return run(L, (cgf_bug){.state_chunk0 = 1}); }
static int scale_twice(const td_abi_launch *L) { return run(L, (cgf_bug){.scale_twice = 1}); }

TD_KERNEL(td_m_cgf_strict) = {CGF_ID, "mut_strict_causal_mask", TD_ABI_HOST, NULL, NULL,
                              "where(i > j, A, 0): the diagonal of A dropped", 13, 6, strict_mask, NULL};
TD_KERNEL(td_m_cgf_chunk0) = {CGF_ID, "mut_state_chunk0", TD_ABI_HOST, NULL, NULL,
                              "h read without the i_t*K*V offset: every chunk uses the state carried into chunk 0",
                              13, 6, state_chunk0, NULL};
TD_KERNEL(td_m_cgf_scale2) = {CGF_ID, "mut_scale_twice", TD_ABI_HOST, NULL, NULL,
                              "o = (b_o + A v) * scale: the pre-scaled q term and A scaled again", 13, 6, scale_twice,
                              NULL};
TD_KERNEL(td_m_cgf_i32) = {CGF_ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "i_bh * s_k_h formed in int32 (q's head base wraps beyond 2^31 elements)", 13, 6,
                           offset_i32, NULL};
