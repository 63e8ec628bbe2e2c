/* context_attn_fwd on CUDA: _fwd_kernel_int8kv, K and V the batch's own [b, h, s, d]
 * caches (the kernel in ctx_pc_tlc.cuh, shared with context_attn_llama). */
#include "ctx_pc_tlc.cuh"

enum { NP = 20, NR = 7 };
static int launch(const td_abi_launch *L) {
    cpc_lay t = {0, 4, 8, 0, 0, 0, 6}; /* K (4..7), V (8..11) as (b, h, s, d); plen region 6 */
    return cpc_launch(L, t);
}

TD_KERNEL(td_kc_ctx_fwd) = {"context_attn_fwd.context_attn_fwd_surface_compute_correct_general", "triton", TD_ABI_CUDA,
                            NULL, NULL, NULL, NP - 1, NR, launch, NULL};
TD_KERNEL(td_kc_ctx_fwd_io) = {"context_attn_fwd.context_attn_fwd_io_correctness", "triton", TD_ABI_CUDA,
                               "store=fp16:rne:inf", NULL, NULL, NP, NR, launch, NULL};
