/* attention_fwd_triton2 on CUDA: _attn_fwd (at_sage_kernel), v.to(tl.float16) before the
 * fp16-output P.V dot.  Q, K, V fp16; Out bfloat16. */
#include "attn_online_tlc.cuh"

/* output summary: stride_qz stride_qh Z H BLOCK_M BLOCK_N numKVBlocks HEAD_DIM BLOCK_DMODEL HEAD_ACTIVE STAGE */
static int launch_os(const td_abi_launch *L) {
    at_sage_dev g = {TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 3), TLC_I(L, 5) * TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 4),
                     TLC_I(L, 5), TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), 0, 1};
    return at_sage_launch<__half, __nv_bfloat16>(L, g, "attention_fwd_triton2 _attn_fwd");
}
/* IO: stride_qz stride_qh Z H HEAD_DIM BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks */
static int launch_io(const td_abi_launch *L) {
    at_sage_dev g = {TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 3), TLC_I(L, 6) * TLC_I(L, 10), TLC_I(L, 4), TLC_I(L, 5),
                     TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), 0, 1};
    return at_sage_launch<__half, __nv_bfloat16>(L, g, "attention_fwd_triton2 _attn_fwd");
}

#define AF2_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
TD_KERNEL(td_kc_attention_fwd_triton2_os) = {"attention_fwd_triton2.attention_fwd_triton2_output_summary_general",
                                             "triton", TD_ABI_CUDA, AF2_CASTS, NULL, NULL, 11, 6, launch_os, NULL};
TD_KERNEL(td_kc_attention_fwd_triton2_io) = {"attention_fwd_triton2.attention_fwd_triton2_io_correctness", "triton",
                                             TD_ABI_CUDA, AF2_CASTS, NULL, NULL, 11, 6, launch_io, NULL};
