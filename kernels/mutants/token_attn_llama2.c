/* token_attn_llama2 mutants: bugs decode-attention kernels ship, each injected into the
 * faithful program (kernels/host/token_attn_llama2_tl.h), for both contracts. */
#include "../host/token_attn_llama2_tl.h"

static int gqa(const td_abi_launch *L) { return l2_program(L, (l2_bugs){1, 0, 0, 0, 0}); }
static int shift(const td_abi_launch *L) { return l2_program(L, (l2_bugs){0, 1, 0, 0, 0}); }
static int start(const td_abi_launch *L) { return l2_program(L, (l2_bugs){0, 0, 1, 0, 0}); }
static int unmasked(const td_abi_launch *L) { return l2_program(L, (l2_bugs){0, 0, 0, 1, 0}); }
static int offset_int32(const td_abi_launch *L) { return l2_program(L, (l2_bugs){0, 0, 0, 0, 1}); }

TD_KERNEL(td_m_token_attn_llama2_gqa) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "mut_gqa_head", TD_ABI_HOST, NULL,
    NULL, "kv head = q head: the // kv_group_num of the GQA mapping forgotten", 15, 6, gqa, NULL};
TD_KERNEL(td_m_token_attn_llama2_shift) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "mut_cache_at_seqlen", TD_ABI_HOST, NULL,
    NULL, "B_Loc column mil - seqlen + 1 + n: the cache read at position seqlen, not seqlen - 1", 15, 6, shift, NULL};
TD_KERNEL(td_m_token_attn_llama2_start) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "mut_start_from_next", TD_ABI_HOST, NULL,
    NULL, "start location of sequence b read from B_Start_Loc[b + 1]", 15, 6, start, NULL};
TD_KERNEL(td_m_token_attn_llama2_last) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "mut_last_block_unmasked", TD_ABI_HOST, NULL,
    NULL, "the last block's B_Loc/K loads and its store without their mask", 15, 6, unmasked, NULL};
TD_KERNEL(td_m_token_attn_llama2_io_gqa) = {"token_attn_llama2.token_attn_llama2_io_correctness", "mut_gqa_head", TD_ABI_HOST, NULL,
    NULL, "kv head = q head: the // kv_group_num of the GQA mapping forgotten", 15, 6, gqa, NULL};
TD_KERNEL(td_m_token_attn_llama2_io_shift) = {"token_attn_llama2.token_attn_llama2_io_correctness", "mut_cache_at_seqlen", TD_ABI_HOST, NULL,
    NULL, "B_Loc column mil - seqlen + 1 + n: the cache read at position seqlen, not seqlen - 1", 15, 6, shift, NULL};
TD_KERNEL(td_m_token_attn_llama2_io_start) = {"token_attn_llama2.token_attn_llama2_io_correctness", "mut_start_from_next", TD_ABI_HOST, NULL,
    NULL, "start location of sequence b read from B_Start_Loc[b + 1]", 15, 6, start, NULL};
TD_KERNEL(td_m_token_attn_llama2_io_last) = {"token_attn_llama2.token_attn_llama2_io_correctness", "mut_last_block_unmasked", TD_ABI_HOST, NULL,
    NULL, "the last block's B_Loc/K loads and its store without their mask", 15, 6, unmasked, NULL};
TD_KERNEL(td_m_token_attn_llama2_int32) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "mut_offset_int32",
    TD_ABI_HOST, NULL, NULL, "Q's offset cur_batch * stride_qbs + cur_head * stride_qh formed in int32 (wraps beyond "
    "2^31 elements)", 15, 6, offset_int32, NULL};
TD_KERNEL(td_m_token_attn_llama2_io_int32) = {"token_attn_llama2.token_attn_llama2_io_correctness", "mut_offset_int32",
    TD_ABI_HOST, NULL, NULL, "Q's offset cur_batch * stride_qbs + cur_head * stride_qh formed in int32 (wraps beyond "
    "2^31 elements)", 15, 6, offset_int32, NULL};
