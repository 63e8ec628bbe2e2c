/* context_attn_llama: LightLLM's LLaMA prefill attention with a prompt cache and a token
 * table (_fwd_kernel), grid (cdiv(max_input_len, BLOCK_M), batch * H, 1),
 * kv_group_num = 1 (the contract's instantiation).  Parameters: sm_scale, the fourteen
 * strides, H, BLOCK_DMODEL, BLOCK_M, BLOCK_N (+ NT for the IO contract, not a kernel
 * argument).  The program is shared with context_attn_fwd (ctx_pc_tl.h). */
#include "ctx_pc_tl.h"

enum { NP = 20, NR = 9 };
static int fwd_kernel(const td_abi_launch *L) { return ctxpc_deferred_program(L, &ctxpc_llama, 0); }

TD_KERNEL(td_k_ctx_llama) = {"context_attn_llama.context_attn_llama_surface_compute_correct_general", "triton",
                             TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, fwd_kernel, NULL};
TD_KERNEL(td_k_ctx_llama_io) = {"context_attn_llama.context_attn_llama_io_correctness", "triton", TD_ABI_HOST,
                                "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel, NULL};
