/* context_attn_fwd: LightLLM's PPL prefill attention with a prompt cache
 * (_fwd_kernel_int8kv, K and V the batch's own [b, h, s, d] caches), grid
 * (cdiv(max_input_len, BLOCK_M), batch * H, 1), kv_group_num = 1.  Parameters: sm_scale,
 * the fourteen strides, H, BLOCK_DMODEL, BLOCK_M, BLOCK_N (+ NT for the IO contract).
 * The program is context_attn_llama's with the cache addressing (ctx_pc_tl.h). */
#include "ctx_pc_tl.h"

enum { NP = 20, NR = 7 };
static int fwd_kernel(const td_abi_launch *L) { return ctxpc_deferred_program(L, &ctxpc_fwd, 0); }

TD_KERNEL(td_k_ctx_fwd) = {"context_attn_fwd.context_attn_fwd_surface_compute_correct_general", "triton", TD_ABI_HOST,
                           NULL, NULL, NULL, NP - 1, NR, fwd_kernel, NULL};
TD_KERNEL(td_k_ctx_fwd_io) = {"context_attn_fwd.context_attn_fwd_io_correctness", "triton", TD_ABI_HOST,
                              "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel, NULL};
