/* context_attn_mistral: LightLLM's prefill attention with a sliding window (_fwd_kernel),
 * grid (batch, head, cdiv(max_input_len, BLOCK_M)), kv_group_num = 1 (the contract's
 * instantiation).  The two contracts order the parameters differently:
 *   genuine: sm_scale rs hs BLK DM sw;   IO: sm_scale rs hs sw BLK DM NT. */
#include "context_attn_mistral_tl.h"

static int fwd_g(const td_abi_launch *L) {
    return context_attn_mistral_program(L, (pix){G_SM, G_RS, G_HS, G_BLK, G_DM, G_SW}, 0);
}
static int fwd_io(const td_abi_launch *L) {
    return context_attn_mistral_program(L, (pix){I_SM, I_RS, I_HS, I_BLK, I_DM, I_SW}, 0);
}

TD_KERNEL(td_k_ctx_mistral) = {"context_attn_mistral.context_attn_mistral_genuine_output_summary_general", "triton",
                               TD_ABI_HOST, NULL, NULL, NULL, G_NP, NR, fwd_g, NULL};
TD_KERNEL(td_k_ctx_mistral_io) = {"context_attn_mistral.context_attn_mistral_io_correctness", "triton", TD_ABI_HOST,
                                  "store=fp16:rne:inf", NULL, NULL, I_NP, NR, fwd_io, NULL};
