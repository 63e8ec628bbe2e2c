/* attention_kernel_aligned mutants: the kernel with one bug switched on. */
#include "../host/attention_kernel_aligned_tl.h"

static int last_block(const td_abi_launch *L) { return attention_kernel_aligned_program(L, BUG_LAST_BLOCK); }
static int bias_scaled(const td_abi_launch *L) { return attention_kernel_aligned_program(L, BUG_BIAS_SCALED); }
static int l_not_rescaled(const td_abi_launch *L) { return attention_kernel_aligned_program(L, BUG_L_NOT_RESCALED); }

#define G "attention_kernel_aligned.attention_kernel_aligned_output_summary_general"
#define IO "attention_kernel_aligned.attention_kernel_aligned_io_correctness"
TD_KERNEL(td_m_aka_last) = {G, "mut_last_kv_block_dropped", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                            "K-loop range(lo, hi - BLOCK_N, BLOCK_N): the last KV block is dropped", NP, NR,
                            last_block, NULL};
TD_KERNEL(td_m_aka_bias) = {G, "mut_bias_scaled", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                            "bias multiplied by 1.44269504 as in attention_kernel (copy-paste)", NP, NR, bias_scaled, NULL};
TD_KERNEL(td_m_aka_io_last) = {IO, "mut_last_kv_block_dropped", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                               "K-loop range(lo, hi - BLOCK_N, BLOCK_N): the last KV block is dropped", NP, NR,
                               last_block, NULL};
TD_KERNEL(td_m_aka_io_l) = {IO, "mut_l_not_rescaled", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                            "running max moves but l_i is not multiplied by alpha", NP, NR, l_not_rescaled, NULL};

/* q_offset = off_hz * stride_qh in Triton's int32 (the original's arithmetic): wraps once
 * the last head sits 2^31 elements in (far cases) */
static int offset_int32(const td_abi_launch *L) { return attention_kernel_aligned_program(L, BUG_OFFSET_I32); }
TD_KERNEL(td_m_aka_i32) = {G, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                           "off_hz * stride_qh formed in int32 (wraps beyond 2^31 elements)", NP, NR, offset_int32,
                           NULL};
TD_KERNEL(td_m_aka_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                              "off_hz * stride_qh formed in int32 (wraps beyond 2^31 elements)", NP, NR, offset_int32,
                              NULL};
