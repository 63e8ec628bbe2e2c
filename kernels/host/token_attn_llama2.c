/* token_attn_llama2: LightLLM's _fwd_kernel_token_att1 (kernels/host/token_attn_llama2_tl.h),
 * one program for both contracts (the IO contract's R is the binary32 value held). */
#include "token_attn_llama2_tl.h"

static int token_att1(const td_abi_launch *L) { return l2_program(L, (l2_bugs){0, 0, 0, 0, 0}); }

TD_KERNEL(td_k_token_attn_llama2) = {"token_attn_llama2.token_attn_llama2_output_summary_general", "triton",
                                     TD_ABI_HOST, NULL, NULL, NULL, 15, 6, token_att1, NULL};
TD_KERNEL(td_k_token_attn_llama2_io) = {"token_attn_llama2.token_attn_llama2_io_correctness", "triton", TD_ABI_HOST,
                                        NULL, NULL, NULL, 15, 6, token_att1, NULL};
