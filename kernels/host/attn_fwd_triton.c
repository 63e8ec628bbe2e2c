/* attn_fwd_triton: the two-stage causal _attn_fwd on the CPU (at_sage_run, causal = 1,
 * v.to(tl.float16) before the fp16-output P.V dot).  Q, K, V bfloat16; Out bfloat16. */
#include "attn_online_tl.h"

/* output summary: stride_qz stride_qh H HEAD_DIM N_CTX BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE Z numKVBlocks;
 * IO: stride_qz stride_qh Z H N_CTX HEAD_DIM BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks */
int td_hk_attn_fwd_triton(const td_abi_launch *L, int io, unsigned mut) {
    at_sage_cfg g;
    if (io)
        g = (at_sage_cfg){.sqz = TL_I(L, 0), .sqh = TL_I(L, 1), .H = TL_I(L, 3), .n_ctx = TL_I(L, 4),
                          .head_dim = TL_I(L, 5), .bm = TL_I(L, 6), .bn = TL_I(L, 7), .bd = TL_I(L, 8),
                          .head_active = TL_I(L, 9), .stage = TL_I(L, 10)};
    else
        g = (at_sage_cfg){.sqz = TL_I(L, 0), .sqh = TL_I(L, 1), .H = TL_I(L, 2), .head_dim = TL_I(L, 3),
                          .n_ctx = TL_I(L, 4), .bm = TL_I(L, 5), .bn = TL_I(L, 6), .bd = TL_I(L, 7),
                          .head_active = TL_I(L, 8), .stage = TL_I(L, 9)};
    g.causal = 1;
    g.v_to_f16 = 1;
    return at_sage_run(L, &g, mut);
}

static int launch_os(const td_abi_launch *L) { return td_hk_attn_fwd_triton(L, 0, 0); }
static int launch_io(const td_abi_launch *L) { return td_hk_attn_fwd_triton(L, 1, 0); }

#define AFTR_CASTS "p=fp16:rne:inf;v=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
TD_KERNEL(td_k_attn_fwd_triton_os) = {"attn_fwd_triton.attn_fwd_triton_output_summary_general", "triton",
                                      TD_ABI_HOST, AFTR_CASTS, NULL, NULL, 12, 6, launch_os, NULL};
TD_KERNEL(td_k_attn_fwd_triton_io) = {"attn_fwd_triton.attn_fwd_triton_io_correctness", "triton", TD_ABI_HOST,
                                      AFTR_CASTS, NULL, NULL, 12, 6, launch_io, NULL};
