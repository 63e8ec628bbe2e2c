/* Alternatives for context_attn_fwd (alt_ctx_pc.h): base-2 weights (sm_scale carries
 * log2 e), so the exp is exp2.
 *   alt_kv3_exp2       blocks of 3 keys left to right, exp2f.
 *   alt_kv1_rev_ex2    one key per block right to left, exp2 as PTX ex2.approx (a few ulps).
 * Parameters: sm_scale, the fourteen strides, H, BLOCK_DMODEL, BLOCK_M, BLOCK_N (+ NT). */
#include "alt_ctx_pc.h"

enum { NP = 20, NR = 7 };
static int kv3(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_fwd, 0, 3, 0, exp2f};
    return acp_run(L, &A);
}
static int kv1(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_fwd, 0, 1, 1, alt_ex2_approx};
    return acp_run(L, &A);
}

#define G "context_attn_fwd.context_attn_fwd_surface_compute_correct_general"
#define IO "context_attn_fwd.context_attn_fwd_io_correctness"
TD_KERNEL(td_a_ctx_fwd_kv3) = {G, "alt_kv3_exp2", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, kv3, NULL};
TD_KERNEL(td_a_ctx_fwd_kv1) = {G, "alt_kv1_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, kv1, NULL};
TD_KERNEL(td_a_ctx_fwd_io_kv3) = {IO, "alt_kv3_exp2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, kv3, NULL};
TD_KERNEL(td_a_ctx_fwd_io_kv1) = {IO, "alt_kv1_rev_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, kv1,
                                  NULL};
