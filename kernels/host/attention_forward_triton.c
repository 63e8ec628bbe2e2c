/* attention_forward_triton: _attn_fwd on the CPU (at_sage_run in attn_online_tl.h), with
 * the parameter layout of each theorem.  Q, K, V fp16; Out fp16. */
#include "attn_online_tl.h"

/* closed form: stride_qz stride_qh Z H BLOCK_M BLOCK_N numKVBlocks HEAD_DIM BLOCK_DMODEL HEAD_ACTIVE STAGE */
static void cfg_cf(const td_abi_launch *L, at_sage_cfg *g) {
    *g = (at_sage_cfg){.sqz = TL_I(L, 0), .sqh = TL_I(L, 1), .H = TL_I(L, 3), .bm = TL_I(L, 4), .bn = TL_I(L, 5),
                       .n_ctx = TL_I(L, 5) * TL_I(L, 6), .head_dim = TL_I(L, 7), .bd = TL_I(L, 8),
                       .head_active = TL_I(L, 9), .stage = TL_I(L, 10)};
}
/* IO: stride_qz stride_qh Z H HEAD_DIM BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks */
static void cfg_io(const td_abi_launch *L, at_sage_cfg *g) {
    *g = (at_sage_cfg){.sqz = TL_I(L, 0), .sqh = TL_I(L, 1), .H = TL_I(L, 3), .head_dim = TL_I(L, 4),
                       .bm = TL_I(L, 5), .bn = TL_I(L, 6), .bd = TL_I(L, 7), .head_active = TL_I(L, 8),
                       .stage = TL_I(L, 9), .n_ctx = TL_I(L, 6) * TL_I(L, 10)};
}

int td_hk_attention_forward_triton(const td_abi_launch *L, int io, unsigned mut) {
    at_sage_cfg g;
    if (io) cfg_io(L, &g);
    else cfg_cf(L, &g);
    return at_sage_run(L, &g, mut);
}

static int launch_cf(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 0, 0); }
static int launch_io(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 1, 0); }

#define AFT_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_k_attention_forward_triton_cf) = {"attention_forward_triton.attention_forward_triton_closed_form_correct",
                                               "triton", TD_ABI_HOST, AFT_CASTS, NULL, NULL, 11, 6, launch_cf, NULL};
TD_KERNEL(td_k_attention_forward_triton_io) = {"attention_forward_triton.attention_forward_triton_io_correctness",
                                               "triton", TD_ABI_HOST, AFT_CASTS, NULL, NULL, 11, 6, launch_io, NULL};
