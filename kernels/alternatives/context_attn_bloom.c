/* Alternatives for context_attn_bloom (alt_ctx_pc.h): natural-exp weights; the port
 * normalises every block (FlashAttention-1), these once at the end (FlashAttention-2).
 *   alt_fa2_kv3_exp    blocks of 3 keys left to right, expf.
 *   alt_fa2_kv1_rev_tl one key per block right to left, exp as Triton lowers tl.exp
 *                      (exp2 of the rounded x log2 e).
 * Parameters: sm_scale, the fourteen strides, head_dim, BLOCK_DMODEL, BLOCK_M, BLOCK_N (+ NT). */
#include "../host/context_attn_bloom_tl.h"
#include "alt_a_num.h"
#include "alt_ctx_pc.h"

enum { NP = 20, NR = 9 };
static int kv3(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_bloom, 1, 3, 0, expf};
    return acp_run(L, &A);
}
static int kv1(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_bloom, 1, 1, 1, aa_exp_tl};
    return acp_run(L, &A);
}

#define G "context_attn_bloom.context_attn_bloom_surface_compute_correct_general"
#define IO "context_attn_bloom.context_attn_bloom_io_correctness"
TD_KERNEL(td_a_ctx_bloom_kv3) = {G, "alt_fa2_kv3_exp", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, kv3, NULL};
TD_KERNEL(td_a_ctx_bloom_kv1) = {G, "alt_fa2_kv1_rev_tl", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, kv1, NULL};
TD_KERNEL(td_a_ctx_bloom_io_kv3) = {IO, "alt_fa2_kv3_exp", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, kv3,
                                    NULL};
TD_KERNEL(td_a_ctx_bloom_io_kv1) = {IO, "alt_fa2_kv1_rev_tl", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                    kv1, NULL};
