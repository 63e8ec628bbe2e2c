/* context_attn_bloom mutants: the kernel with one bug switched on. */
#include "../host/context_attn_bloom_tl.h"

enum { NP = 20, NR = 9 };
static int bel_no_prompt(const td_abi_launch *L) { return context_attn_bloom_program(L, CP_BUG_BEL_NO_PROMPT); }
static int causal_no_prompt(const td_abi_launch *L) { return context_attn_bloom_program(L, CP_BUG_CAUSAL_NO_PROMPT); }
static int no_alpha(const td_abi_launch *L) { return context_attn_bloom_program(L, CP_BUG_ACC_SCALE_NO_ALPHA); }

#define G "context_attn_bloom.context_attn_bloom_surface_compute_correct_general"
#define IO "context_attn_bloom.context_attn_bloom_io_correctness"
TD_KERNEL(td_m_bloom_causal) = {G, "mut_causal_without_prompt", TD_ABI_HOST, NULL, NULL,
                                "causal mask offs_m >= key, the prompt-cache offset forgotten", NP - 1, NR,
                                causal_no_prompt, NULL};
TD_KERNEL(td_m_bloom_alpha) = {G, "mut_acc_scale_without_alpha", TD_ABI_HOST, NULL, NULL,
                               "acc_scale = l_i / l_i_new: the old accumulator is not rescaled to the new max", NP - 1,
                               NR, no_alpha, NULL};
TD_KERNEL(td_m_bloom_io_bel) = {IO, "mut_block_end_without_prompt", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                "block_end_loc = min((start_m + 1) * BLOCK_M, seq): the prompt-cache keys are cut", NP,
                                NR, bel_no_prompt, NULL};
TD_KERNEL(td_m_bloom_io_alpha) = {IO, "mut_acc_scale_without_alpha", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "acc_scale = l_i / l_i_new: the old accumulator is not rescaled to the new max", NP,
                                  NR, no_alpha, NULL};
static int q_offset_int32(const td_abi_launch *L) { return context_attn_bloom_program(L, CP_BUG_Q_OFFSET_INT32); }
TD_KERNEL(td_m_bloom_q_int32) = {G, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                 "Q's offset (start + offs_m) * stride_qbs + cur_head * stride_qh formed in int32 "
                                 "(wraps beyond 2^31 elements)",
                                 NP - 1, NR, q_offset_int32, NULL};
TD_KERNEL(td_m_bloom_io_q_int32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                    "Q's offset (start + offs_m) * stride_qbs + cur_head * stride_qh formed in int32 "
                                    "(wraps beyond 2^31 elements)",
                                    NP, NR, q_offset_int32, NULL};
