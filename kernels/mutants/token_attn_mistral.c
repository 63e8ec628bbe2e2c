/* token_attn_mistral mutants: bugs decode-attention kernels ship, each injected into the
 * faithful program (kernels/host/token_attn_mistral_tl.h), for both contracts. */
#include "../host/token_attn_mistral_tl.h"

static int m_gqa(const td_abi_launch *L) { return tm_program(L, (tm_bugs){1, 0, 0, 0, 0}); }
static int m_shift(const td_abi_launch *L) { return tm_program(L, (tm_bugs){0, 1, 0, 0, 0}); }
static int m_start(const td_abi_launch *L) { return tm_program(L, (tm_bugs){0, 0, 1, 0, 0}); }
static int m_last(const td_abi_launch *L) { return tm_program(L, (tm_bugs){0, 0, 0, 1, 0}); }
static int m_int32(const td_abi_launch *L) { return tm_program(L, (tm_bugs){0, 0, 0, 0, 1}); }

TD_KERNEL(td_m_token_attn_mistral_gqa) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "mut_gqa_head", TD_ABI_HOST,
    NULL, NULL, "kv head = q head: the // kv_group_num of the GQA mapping forgotten", 14, 9, m_gqa, NULL};
TD_KERNEL(td_m_token_attn_mistral_shift) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "mut_cache_at_seqlen", TD_ABI_HOST,
    NULL, NULL, "the slot of window position ws + n + 1: the cache read at seqlen, not seqlen - 1", 14, 9, m_shift, NULL};
TD_KERNEL(td_m_token_attn_mistral_start) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "mut_start_from_next", TD_ABI_HOST,
    NULL, NULL, "att start location of sequence b read from B_Att_Start_Loc[b + 1]", 14, 9, m_start, NULL};
TD_KERNEL(td_m_token_attn_mistral_last) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "mut_last_block_unmasked", TD_ABI_HOST,
    NULL, NULL, "the last block's P, slot and V loads without their masks", 14, 9, m_last, NULL};
TD_KERNEL(td_m_token_attn_mistral_io_gqa) = {"token_attn_mistral.token_attn_mistral_io_correctness", "mut_gqa_head", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, "kv head = q head: the // kv_group_num of the GQA mapping forgotten", 15, 9, m_gqa, NULL};
TD_KERNEL(td_m_token_attn_mistral_io_shift) = {"token_attn_mistral.token_attn_mistral_io_correctness", "mut_cache_at_seqlen", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, "the slot of window position ws + n + 1: the cache read at seqlen, not seqlen - 1", 15, 9, m_shift, NULL};
TD_KERNEL(td_m_token_attn_mistral_io_start) = {"token_attn_mistral.token_attn_mistral_io_correctness", "mut_start_from_next", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, "att start location of sequence b read from B_Att_Start_Loc[b + 1]", 15, 9, m_start, NULL};
TD_KERNEL(td_m_token_attn_mistral_io_last) = {"token_attn_mistral.token_attn_mistral_io_correctness", "mut_last_block_unmasked", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, "the last block's P, slot and V loads without their masks", 15, 9, m_last, NULL};
TD_KERNEL(td_m_token_attn_mistral_int32) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "mut_offset_int32",
    TD_ABI_HOST, NULL, NULL, "P's offset cur_head * stride_ph + (att_start + n) * stride_pbs formed in int32 (wraps "
    "beyond 2^31 elements)", 14, 9, m_int32, NULL};
TD_KERNEL(td_m_token_attn_mistral_io_int32) = {"token_attn_mistral.token_attn_mistral_io_correctness", "mut_offset_int32",
    TD_ABI_HOST, "store=fp16:rne:inf", NULL, "P's offset cur_head * stride_ph + (att_start + n) * stride_pbs formed in "
    "int32 (wraps beyond 2^31 elements)", 15, 9, m_int32, NULL};
