/* context_attn_fwd mutants: the kernel with one bug switched on. */
#include "../host/ctx_pc_tl.h"

enum { NP = 20, NR = 7 };
static int bel_no_prompt(const td_abi_launch *L) { return ctxpc_deferred_program(L, &ctxpc_fwd, CP_BUG_BEL_NO_PROMPT); }
static int last_partial(const td_abi_launch *L) { return ctxpc_deferred_program(L, &ctxpc_fwd, CP_BUG_LAST_PARTIAL); }
static int causal_no_prompt(const td_abi_launch *L) {
    return ctxpc_deferred_program(L, &ctxpc_fwd, CP_BUG_CAUSAL_NO_PROMPT);
}
static int kv_no_batch(const td_abi_launch *L) { return ctxpc_deferred_program(L, &ctxpc_fwd, CP_BUG_KV_NO_BATCH); }

#define G "context_attn_fwd.context_attn_fwd_surface_compute_correct_general"
#define IO "context_attn_fwd.context_attn_fwd_io_correctness"
TD_KERNEL(td_m_fwd_bel) = {G, "mut_block_end_without_prompt", TD_ABI_HOST, NULL, NULL,
                           "block_end_loc = min(block_start + BLOCK_M, seq): the prompt-cache keys are cut", NP - 1, NR,
                           bel_no_prompt, NULL};
TD_KERNEL(td_m_fwd_kvb) = {G, "mut_kv_cache_without_batch", TD_ABI_HOST, NULL, NULL,
                           "K/V offsets without cur_batch * stride_kb: every batch attends to batch 0's cache", NP - 1,
                           NR, kv_no_batch, NULL};
TD_KERNEL(td_m_fwd_io_partial) = {IO, "mut_last_partial_kv_block", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "K-loop to block_end_loc // BLOCK_N * BLOCK_N: the last partial KV block is dropped",
                                  NP, NR, last_partial, NULL};
TD_KERNEL(td_m_fwd_io_causal) = {IO, "mut_causal_without_prompt", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                 "causal mask offs_m >= key, the prompt-cache offset forgotten", NP, NR,
                                 causal_no_prompt, NULL};
static int q_offset_int32(const td_abi_launch *L) {
    return ctxpc_deferred_program(L, &ctxpc_fwd, CP_BUG_Q_OFFSET_INT32);
}
TD_KERNEL(td_m_fwd_q_int32) = {G, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "Q's offset (start + offs_m) * stride_qbs + cur_head * stride_qh formed in int32 "
                               "(wraps beyond 2^31 elements)",
                               NP - 1, NR, q_offset_int32, NULL};
TD_KERNEL(td_m_fwd_io_q_int32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "Q's offset (start + offs_m) * stride_qbs + cur_head * stride_qh formed in int32 "
                                  "(wraps beyond 2^31 elements)",
                                  NP, NR, q_offset_int32, NULL};
