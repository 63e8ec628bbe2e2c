/* seed_sm86: the SM86 streaming causal attention forward (seed 003) on the host, block
 * by block of its grid and query row by query row (kernels/host/attn_tl.h: smh_forward).
 * binary16 Q/K/V, binary32 sums, base-2 scores, RN16(P) for P V only, binary16 O,
 * base-2 log-sum-exp; exp2f / 1.0f/l / log2f stand for MUFU.EX2 / RCP / LG2. */
#include "attn_tl.h"

static int forward(const td_abi_launch *L) { return smh_forward(L, SMH_CORRECT); }

TD_KERNEL(td_k_seed_sm86_forward) = {"seed_sm86.streaming_attention_forward_grouped", "sm86", TD_ABI_HOST,
                                     "p=fp16:rne:inf;store=fp16:rne:inf", "libm", NULL, 8, 5, forward};
