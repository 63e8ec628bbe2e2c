/* attention_fwd_triton2: _attn_fwd on the CPU (at_sage_run in attn_online_tl.h): V goes
 * through v.to(tl.float16) before the fp16-output P.V dot; Out bfloat16. */
#include "attn_online_tl.h"

/* output summary: stride_qz stride_qh Z H BLOCK_M BLOCK_N numKVBlocks HEAD_DIM BLOCK_DMODEL HEAD_ACTIVE STAGE;
 * IO: stride_qz stride_qh Z H HEAD_DIM BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks */
int td_hk_attention_fwd_triton2(const td_abi_launch *L, int io, unsigned mut) {
    at_sage_cfg g;
    if (io)
        g = (at_sage_cfg){.sqz = TL_I(L, 0), .sqh = TL_I(L, 1), .H = TL_I(L, 3), .head_dim = TL_I(L, 4),
                          .bm = TL_I(L, 5), .bn = TL_I(L, 6), .bd = TL_I(L, 7), .head_active = TL_I(L, 8),
                          .stage = TL_I(L, 9), .n_ctx = TL_I(L, 6) * TL_I(L, 10)};
    else
        g = (at_sage_cfg){.sqz = TL_I(L, 0), .sqh = TL_I(L, 1), .H = TL_I(L, 3), .bm = TL_I(L, 4), .bn = TL_I(L, 5),
                          .n_ctx = TL_I(L, 5) * TL_I(L, 6), .head_dim = TL_I(L, 7), .bd = TL_I(L, 8),
                          .head_active = TL_I(L, 9), .stage = TL_I(L, 10)};
    g.v_to_f16 = 1;
    return at_sage_run(L, &g, mut);
}

static int launch_os(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 0, 0); }
static int launch_io(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, 0); }

#define AF2_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
TD_KERNEL(td_k_attention_fwd_triton2_os) = {"attention_fwd_triton2.attention_fwd_triton2_output_summary_general",
                                            "triton", TD_ABI_HOST, AF2_CASTS, NULL, NULL, 11, 6, launch_os, NULL};
TD_KERNEL(td_k_attention_fwd_triton2_io) = {"attention_fwd_triton2.attention_fwd_triton2_io_correctness", "triton",
                                            TD_ABI_HOST, AF2_CASTS, NULL, NULL, 11, 6, launch_io, NULL};
