/* context_attn_bloom: LightLLM's BLOOM prefill attention with a prompt cache and a token
 * table (_fwd_kernel), grid (batch, head, cdiv(max_input_len, BLOCK_M)), kv_group_num = 1.
 * Parameters: sm_scale, the fourteen strides, head_dim, BLOCK_DMODEL, BLOCK_M, BLOCK_N
 * (+ NT for the IO contract, not a kernel argument). */
#include "context_attn_bloom_tl.h"

enum { NP = 20, NR = 9 };
static int fwd_kernel(const td_abi_launch *L) { return context_attn_bloom_program(L, 0); }

TD_KERNEL(td_k_ctx_bloom) = {"context_attn_bloom.context_attn_bloom_surface_compute_correct_general", "triton",
                             TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, fwd_kernel, NULL};
TD_KERNEL(td_k_ctx_bloom_io) = {"context_attn_bloom.context_attn_bloom_io_correctness", "triton", TD_ABI_HOST,
                                "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel, NULL};
