/* parallel_retention_attention mutants (the programs are in
 * ../host/parallel_retention_attention.c): the bugs blocked causal kernels ship. */
#include "../host/parallel_retention_attention_tl.h"
#include "far_i32.h"

/* q's head base i_bh * s_qk_h formed in int32 (region 0, parameter 0) */
static int fwd_i32(const td_abi_launch *L) {
    return far_i32_fault(L, 2, 0, TL_I(L, 0)) ? 1 : td_pra_fwd_run(L, &(pra_bug){0});
}
static int fwd_strict(const td_abi_launch *L) { return td_pra_fwd_run(L, &(pra_bug){.mask_strict = 1}); }
static int fwd_no_decay(const td_abi_launch *L) { return td_pra_fwd_run(L, &(pra_bug){.no_blk_decay = 1}); }
static int bwd_strict(const td_abi_launch *L) { return td_pra_bwd_run(L, &(pra_bug){.mask_strict = 1}); }
static int bwd_skip(const td_abi_launch *L) { return td_pra_bwd_run(L, &(pra_bug){.skip_far = 1}); }

TD_KERNEL(td_m_pra_fwd_strict) = {PRA_FWD, "mut_mask_strict", TD_ABI_HOST, NULL, NULL,
                                  "the diagonal mask o_q > o_k: each query's own key dropped", 16, 4, fwd_strict, NULL};
TD_KERNEL(td_m_pra_fwd_no_decay) = {PRA_FWD, "mut_no_block_decay", TD_ABI_HOST, NULL, NULL,
                                    "b_o not decayed by 2^(b_b BTS) between the streamed blocks", 16, 4, fwd_no_decay, NULL};
TD_KERNEL(td_m_pra_bwd_strict) = {PRA_BWD, "mut_mask_strict", TD_ABI_HOST, NULL, NULL,
                                  "the diagonal mask o_k < o_q: each key's own query dropped", 21, 6, bwd_strict, NULL};
TD_KERNEL(td_m_pra_bwd_skip) = {PRA_BWD, "mut_loop_off_by_one", TD_ABI_HOST, NULL, NULL,
                                "the descending loop starts one block low: the farthest key block skipped", 21, 6,
                                bwd_skip, NULL};
TD_KERNEL(td_m_pra_fwd_i32) = {PRA_FWD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "i_bh * s_qk_h formed in int32 (q's head base wraps beyond 2^31 elements)", 16, 4,
                               fwd_i32, NULL};
