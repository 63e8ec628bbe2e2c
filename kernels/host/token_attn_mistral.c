/* token_attn_mistral: LightLLM's Mistral _fwd_kernel_token_att2
 * (kernels/host/token_attn_mistral_tl.h), one program for both contracts. */
#include "token_attn_mistral_tl.h"

static int token_att2(const td_abi_launch *L) { return tm_program(L, (tm_bugs){0, 0, 0, 0, 0}); }

TD_KERNEL(td_k_token_attn_mistral) = {"token_attn_mistral.token_attn_mistral_output_summary_general", "triton",
                                      TD_ABI_HOST, NULL, NULL, NULL, 14, 9, token_att2, NULL};
TD_KERNEL(td_k_token_attn_mistral_io) = {"token_attn_mistral.token_attn_mistral_io_correctness", "triton",
                                         TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 15, 9, token_att2, NULL};
