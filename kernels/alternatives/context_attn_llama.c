/* Alternatives for context_attn_llama (alt_ctx_pc.h): LightLLM's prefill attention with a
 * prompt cache, K/V rows gathered through Req_to_tokens; base-2 weights (the host folds
 * log2 e into sm_scale, the kernel takes exp2).  The port runs FlashAttention-2 over KV
 * blocks of BLOCK_N with exp2f and one division acc / l; these:
 *   alt_kv2_rev_ex2   blocks of 2 keys from the last block to the first (the running max
 *                     moves at other keys, so P is cast to fp16 at other scales), exp2 as
 *                     PTX ex2.approx (a few ulps: the "any" math model's cuda member),
 *                     each q.k an FMA chain, out = acc * (1/l).
 *   alt_twopass_exp2  one block holding the whole causal row: the row max first, then
 *                     every weight 2^(s_j - max) and its fp16 P at the final max (the
 *                     two-pass softmax, no rescaling at all), exp2f, acc * (1/l).
 * Both are admissible: the contract fixes the real value sum_j 2^(s_j) V_j / sum_j 2^(s_j)
 * with P cast to fp16 kernel-side at whatever scale the blocking gives it.
 * Parameters: sm_scale, the fourteen strides, H, BLOCK_DMODEL, BLOCK_M, BLOCK_N (+ NT). */
#include "alt_ctx_pc.h"

enum { NP = 20, NR = 9 };
static int kv2(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_llama, 0, 2, 1, alt_ex2_approx};
    return acp_run(L, &A);
}
/* C = INT32_MAX: every causal row (at most B_Seqlen keys) is one block */
static int twopass(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_llama, 0, INT32_MAX, 0, exp2f};
    return acp_run(L, &A);
}

#define G "context_attn_llama.context_attn_llama_surface_compute_correct_general"
#define IO "context_attn_llama.context_attn_llama_io_correctness"
TD_KERNEL(td_a_ctx_llama_kv2) = {G, "alt_kv2_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, kv2, NULL};
TD_KERNEL(td_a_ctx_llama_2p) = {G, "alt_twopass_exp2", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, twopass, NULL};
TD_KERNEL(td_a_ctx_llama_io_kv2) = {IO, "alt_kv2_rev_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, kv2,
                                    NULL};
TD_KERNEL(td_a_ctx_llama_io_2p) = {IO, "alt_twopass_exp2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                   twopass, NULL};
