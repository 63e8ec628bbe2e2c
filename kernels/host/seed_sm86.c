/* seed_sm86: the SM86 streaming causal attention forward (seed 003) on the host, block
 * by block of its grid and query row by query row (kernels/host/attn_tl.h: smh_forward).
 * binary16 Q/K/V, binary32 sums, base-2 scores, RN16(P) for P V only, binary16 O,
 * base-2 log-sum-exp; exp2f / 1.0f/l / log2f stand for MUFU.EX2 / RCP / LG2. */
#include "attn_tl.h"

static int forward(const td_abi_launch *L) { return smh_forward(L, SMH_CORRECT); }

TD_KERNEL(td_k_seed_sm86_forward) = {"seed_sm86.streaming_attention_forward_grouped", "sm86", TD_ABI_HOST,
                                     "p=fp16:rne:inf;store=fp16:rne:inf", "libm", NULL, 8, 5, forward, NULL};

/* the backward launches (kernels/host/attn_tl.h: sqh_query, skh_key, srh_reduce) */
static int query_pass(const td_abi_launch *L) { return sqh_query(L, SBH_CORRECT); }
static int key_pass(const td_abi_launch *L) { return skh_key(L, SBH_CORRECT); }
static int reduce_grouped(const td_abi_launch *L) { return srh_reduce(L, SBH_CORRECT); }

TD_KERNEL(td_k_seed_sm86_query) = {"seed_sm86.streaming_attention_query_pass", "sm86", TD_ABI_HOST, "ds=fp16:rne:inf",
                                   "libm", NULL, 8, 8, query_pass, NULL};
TD_KERNEL(td_k_seed_sm86_key) = {"seed_sm86.streaming_attention_key_pass", "sm86", TD_ABI_HOST,
                                 "ds=fp16:rne:inf;p=fp16:rne:inf", "libm", NULL, 7, 8, key_pass, NULL};
TD_KERNEL(td_k_seed_sm86_reduce) = {"seed_sm86.reduce_grouped_gradient", "sm86", TD_ABI_HOST, NULL, "libm", NULL, 4, 2,
                                    reduce_grouped, NULL};
