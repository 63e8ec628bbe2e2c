/* context_attn_llama on CUDA: _fwd_kernel with the prompt cache and the token table
 * (the kernel in ctx_pc_tlc.cuh, shared with context_attn_fwd). */
#include "ctx_pc_tlc.cuh"

enum { NP = 20, NR = 9 };
static int launch(const td_abi_launch *L) {
    cpc_lay t = {1, 6, 9, 4, 6, 7, 8}; /* table (4, 5), K (6..8), V (9..11); Req_to_tokens, B_req_idx, plen */
    return cpc_launch(L, t);
}

TD_KERNEL(td_kc_ctx_llama) = {"context_attn_llama.context_attn_llama_surface_compute_correct_general", "triton",
                              TD_ABI_CUDA, NULL, NULL, NULL, NP - 1, NR, launch, NULL};
TD_KERNEL(td_kc_ctx_llama_io) = {"context_attn_llama.context_attn_llama_io_correctness", "triton", TD_ABI_CUDA,
                                 "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
