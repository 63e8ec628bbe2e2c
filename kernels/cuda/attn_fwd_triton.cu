/* attn_fwd_triton on CUDA: the two-stage causal _attn_fwd (at_sage_kernel, causal,
 * v.to(tl.float16)).  Q, K, V, Out bfloat16. */
#include "attn_online_tlc.cuh"

/* output summary: stride_qz stride_qh H HEAD_DIM N_CTX BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE Z numKVBlocks */
static int launch_os(const td_abi_launch *L) {
    at_sage_dev g = {TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 4), TLC_I(L, 3), TLC_I(L, 5),
                     TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), 1, 1};
    return at_sage_launch<__nv_bfloat16, __nv_bfloat16>(L, g, "attn_fwd_triton _attn_fwd");
}
/* IO: stride_qz stride_qh Z H N_CTX HEAD_DIM BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks */
static int launch_io(const td_abi_launch *L) {
    at_sage_dev g = {TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6),
                     TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), 1, 1};
    return at_sage_launch<__nv_bfloat16, __nv_bfloat16>(L, g, "attn_fwd_triton _attn_fwd");
}

#define AFTR_CASTS "p=fp16:rne:inf;v=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
TD_KERNEL(td_kc_attn_fwd_triton_os) = {"attn_fwd_triton.attn_fwd_triton_output_summary_general", "triton",
                                       TD_ABI_CUDA, AFTR_CASTS, NULL, NULL, 12, 6, launch_os, NULL};
TD_KERNEL(td_kc_attn_fwd_triton_io) = {"attn_fwd_triton.attn_fwd_triton_io_correctness", "triton", TD_ABI_CUDA,
                                       AFTR_CASTS, NULL, NULL, 12, 6, launch_io, NULL};
