/* attention_forward_triton on CUDA: _attn_fwd, one block per program, a thread per query
 * row (at_sage_kernel in attn_online_tlc.cuh).  Q, K, V, Out fp16. */
#include "attn_online_tlc.cuh"

/* closed form: stride_qz stride_qh Z H BLOCK_M BLOCK_N numKVBlocks HEAD_DIM BLOCK_DMODEL HEAD_ACTIVE STAGE */
static int launch_cf(const td_abi_launch *L) {
    at_sage_dev g = {TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 3), TLC_I(L, 5) * TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 4),
                     TLC_I(L, 5), TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), 0, 0};
    return at_sage_launch<__half, __half>(L, g, "attention_forward_triton _attn_fwd");
}
/* IO: stride_qz stride_qh Z H HEAD_DIM BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks */
static int launch_io(const td_abi_launch *L) {
    at_sage_dev g = {TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 3), TLC_I(L, 6) * TLC_I(L, 10), TLC_I(L, 4), TLC_I(L, 5),
                     TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), 0, 0};
    return at_sage_launch<__half, __half>(L, g, "attention_forward_triton _attn_fwd");
}

#define AFT_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_kc_attention_forward_triton_cf) = {"attention_forward_triton.attention_forward_triton_closed_form_correct",
                                                "triton", TD_ABI_CUDA, AFT_CASTS, NULL, NULL, 11, 6, launch_cf, NULL};
TD_KERNEL(td_kc_attention_forward_triton_io) = {"attention_forward_triton.attention_forward_triton_io_correctness",
                                                "triton", TD_ABI_CUDA, AFT_CASTS, NULL, NULL, 11, 6, launch_io, NULL};
