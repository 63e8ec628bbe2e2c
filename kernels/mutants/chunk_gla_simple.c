/* chunk_gla_simple mutants (the program itself is in ../host/chunk_gla_simple.c): the
 * bugs chunked gated-attention output stages ship. */
#include "../host/chunk_gla_simple_tl.h"
#include "far_i32.h"

static int run(const td_abi_launch *L, cgs_bug b) { return td_cgs_run(L, &b); }
/* q's head base i_bh * s_k_h formed in int32 (region 0, parameter 0) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : run(L, (cgs_bug){0}); }
static int strict_mask(const td_abi_launch *L) { return run(L, (cgs_bug){.strict_mask = 1}); }
static int decay_swapped(const td_abi_launch *L) { return run(L, (cgs_bug){.decay_swapped = 1}); }
static int state_chunk0(const td_abi_launch *L) { return run(L, (cgs_bug){.state_chunk0 = 1}); }

#define STRICT "causal mask o_i[:, None] > o_i[None, :]: the diagonal term s = t dropped"
#define SWAP "decay exp(g_s - g_t) (b_g[None, :] - b_g[:, None]): the gate's sign flipped"
#define CHUNK0 "h read without the i_t*K*V offset: every chunk uses the state carried into chunk 0"
TD_KERNEL(td_m_cgs_strict) = {CGS_SUM, "mut_strict_causal_mask", TD_ABI_HOST, NULL, NULL, STRICT, 13, 6, strict_mask, NULL};
TD_KERNEL(td_m_cgs_io_strict) = {CGS_IO, "mut_strict_causal_mask", TD_ABI_HOST, NULL, NULL, STRICT, 13, 6, strict_mask, NULL};
TD_KERNEL(td_m_cgs_swap) = {CGS_SUM, "mut_decay_swapped", TD_ABI_HOST, NULL, NULL, SWAP, 13, 6, decay_swapped, NULL};
TD_KERNEL(td_m_cgs_io_swap) = {CGS_IO, "mut_decay_swapped", TD_ABI_HOST, NULL, NULL, SWAP, 13, 6, decay_swapped, NULL};
TD_KERNEL(td_m_cgs_chunk0) = {CGS_SUM, "mut_state_chunk0", TD_ABI_HOST, NULL, NULL, CHUNK0, 13, 6, state_chunk0, NULL};
TD_KERNEL(td_m_cgs_io_chunk0) = {CGS_IO, "mut_state_chunk0", TD_ABI_HOST, NULL, NULL, CHUNK0, 13, 6, state_chunk0, NULL};
#define I32 "i_bh * s_k_h formed in int32 (q's head base wraps beyond 2^31 elements)"
TD_KERNEL(td_m_cgs_i32) = {CGS_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 13, 6, offset_i32, NULL};
TD_KERNEL(td_m_cgs_io_i32) = {CGS_IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 13, 6, offset_i32, NULL};
