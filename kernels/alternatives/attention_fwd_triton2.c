/* Alternatives for attention_fwd_triton2 (as attention_forward_triton, V converted to fp16
 * before the P.V product, a bf16 Out; the spec in alt_a_sage.h):
 *   alt_kv5_rev   blocks of 5 keys whatever BLOCK_N is, right to left, exp2f.
 *   alt_pv_fp32_out     the port with tl.dot(p, v) in its default fp32 out_dtype (was the
 *                 mutant mut_pv_dot_fp32_out): the contract (hfp16: R.round .fp16 = id) has
 *                 no rounding of the block product; skipping it computes the contract's
 *                 value more closely, as FlashAttention-2-style kernels do.
 *   alt_rowsum_fp16_p   the port with l_ij = tl.sum(p.to(fp16)) (was the mutant
 *                 mut_rowsum_fp16_p): the row sum adds the same fp16 weights the dot takes;
 *                 under hfp16 that rounding is the identity, and its size (u16 per weight,
 *                 at a scale no check can pin down, since every KV blocking puts it
 *                 elsewhere) is that of the P rounding itself (attn_online_common.h).
 * Parameters: output summary stride_qz stride_qh Z H BLOCK_M BLOCK_N numKVBlocks HEAD_DIM
 * BLOCK_DMODEL HEAD_ACTIVE STAGE; IO stride_qz stride_qh Z H HEAD_DIM BLOCK_M BLOCK_N
 * BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks. */
#include "../host/attn_online_tl.h"
#include "alt_a_sage.h"

static sga_geo af2_geo(const td_abi_launch *L, int io) {
    if (io)
        return (sga_geo){TL_I(L, 0), TL_I(L, 1), TL_I(L, 3), TL_I(L, 6) * TL_I(L, 10), TL_I(L, 4), TL_I(L, 5),
                         TL_I(L, 6), TL_I(L, 8), 0, 1};
    return (sga_geo){TL_I(L, 0), TL_I(L, 1), TL_I(L, 3), TL_I(L, 5) * TL_I(L, 6), TL_I(L, 7), TL_I(L, 4),
                     TL_I(L, 5), TL_I(L, 9), 0, 1};
}
static const sga_alt A5 = {5, 1, exp2f};
static int os5(const td_abi_launch *L) { sga_geo g = af2_geo(L, 0); return sga_run(L, &g, &A5); }
static int io5(const td_abi_launch *L) { sga_geo g = af2_geo(L, 1); return sga_run(L, &g, &A5); }

TD_KERNEL(td_a_af2_os_kv5) = {"attention_fwd_triton2.attention_fwd_triton2_output_summary_general", "alt_kv5_rev",
                              TD_ABI_HOST, NULL, NULL, NULL, 11, 6, os5, NULL};
TD_KERNEL(td_a_af2_io_kv5) = {"attention_fwd_triton2.attention_fwd_triton2_io_correctness", "alt_kv5_rev",
                              TD_ABI_HOST, NULL, NULL, NULL, 11, 6, io5, NULL};
static int io_pv32(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_PV_FP32); }
static int io_rs16(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_ROWSUM_P16); }
#define AF2_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
TD_KERNEL(td_a_af2_io_pv32) = {"attention_fwd_triton2.attention_fwd_triton2_io_correctness", "alt_pv_fp32_out",
                               TD_ABI_HOST, AF2_CASTS, NULL, NULL, 11, 6, io_pv32, NULL};
TD_KERNEL(td_a_af2_io_rs16) = {"attention_fwd_triton2.attention_fwd_triton2_io_correctness", "alt_rowsum_fp16_p",
                               TD_ABI_HOST, AF2_CASTS, NULL, NULL, 11, 6, io_rs16, NULL};
