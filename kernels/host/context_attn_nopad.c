/* context_attn_nopad: LightLLM's prefill attention (_fwd_kernel) over packed
 * variable-length sequences, grid (batch, head, cdiv(max_input_len, BLOCK_M)).
 * Parameters: sm_scale, rs, hs, BLK (= BLOCK_M = BLOCK_N), DM (+ NT for the IO contract,
 * not a kernel argument).  Q, K, V, Out share the layout (rs, hs, 1). */
#include "context_attn_nopad_tl.h"

static int fwd_kernel(const td_abi_launch *L) { return context_attn_nopad_program(L, 0); }

TD_KERNEL(td_k_ctx_nopad) = {"context_attn_nopad.context_attn_nopad_output_summary_general", "triton", TD_ABI_HOST,
                             NULL, NULL, NULL, NP - 1, NR, fwd_kernel, NULL};
TD_KERNEL(td_k_ctx_nopad_io) = {"context_attn_nopad.context_attn_nopad_io_correctness", "triton", TD_ABI_HOST,
                                "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel, NULL};
