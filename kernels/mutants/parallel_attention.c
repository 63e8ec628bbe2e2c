/* parallel_attention mutants (the programs are in ../host/parallel_attention.c): the bugs
 * blocked causal (rebased) attention kernels ship. */
#include "../host/parallel_attention_tl.h"

static int fwd_strict(const td_abi_launch *L) { return td_pa_fwd_run(L, &(pa_bug){.mask_strict = 1}); }
static int fwd_nosq(const td_abi_launch *L) { return td_pa_fwd_run(L, &(pa_bug){.no_square = 1}); }
static int fwd_i32(const td_abi_launch *L) { return td_pa_fwd_run(L, &(pa_bug){.offset_i32 = 1}); }
static int bwd_dz_all(const td_abi_launch *L) { return td_pa_bwd_run(L, &(pa_bug){.dz_all = 1}); }
static int bwd_skip(const td_abi_launch *L) { return td_pa_bwd_run(L, &(pa_bug){.skip_far = 1}); }
static int bwd_strict(const td_abi_launch *L) { return td_pa_bwd_run(L, &(pa_bug){.mask_strict = 1}); }

TD_KERNEL(td_m_pa_fwd_strict) = {PA_FWD, "mut_mask_strict", TD_ABI_HOST, NULL, NULL,
                                 "the diagonal mask o_q > o_k: each query's own key dropped", 16, 5, fwd_strict, NULL};
TD_KERNEL(td_m_pa_fwd_nosq) = {PA_FWD, "mut_score_not_squared", TD_ABI_HOST, NULL, NULL,
                               "the score not squared (b_s * b_s left out)", 16, 5, fwd_nosq, NULL};
TD_KERNEL(td_m_pa_bwd_dz_all) = {PA_BWD, "mut_dz_every_block", TD_ABI_HOST, NULL, NULL,
                                 "dz added on every V block, not only i_v = 0 (counted NV times after the host's sum)", 21,
                                 7, bwd_dz_all, NULL};
TD_KERNEL(td_m_pa_bwd_skip) = {PA_BWD, "mut_loop_off_by_one", TD_ABI_HOST, NULL, NULL,
                               "the descending loop starts one block low: the farthest key block skipped", 21, 7,
                               bwd_skip, NULL};
TD_KERNEL(td_m_pa_bwd_strict) = {PA_BWD, "mut_mask_strict", TD_ABI_HOST, NULL, NULL,
                                 "the diagonal mask o_k < o_q: each key's own query dropped", 21, 7, bwd_strict, NULL};
TD_KERNEL(td_m_pa_fwd_i32) = {PA_FWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                              "q + i_bh * s_qk_h computed in int32 (wraps beyond 2^31 elements)", 16, 5, fwd_i32, NULL};
