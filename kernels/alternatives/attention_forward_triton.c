/* Alternatives for attention_forward_triton (SageAttention-style _attn_fwd, non-causal;
 * the spec in alt_a_sage.h):
 *   alt_kv3_rev_ex2   blocks of 3 keys whatever BLOCK_N is, right to left, exp2 as the
 *                     ex2.approx model: P is cast to fp16 at other running maxima than
 *                     the port's, the block P.V products are other partial sums.
 *   alt_kv1           one key per block (a rescale at every key), exp2f.
 *   alt_rowsum_fp16_p the port with l_ij = tl.sum(p.to(fp16)) (was the mutant
 *                     mut_rowsum_fp16_p): the row sum adds the same fp16 weights the dot
 *                     takes; under hfp16 (R.round .fp16 = id) that rounding is the
 *                     identity, and its size (u16 per weight, at a scale that every KV
 *                     blocking puts elsewhere) is that of the P rounding itself
 *                     (attn_online_common.h, "Admissible blockings").
 * Parameters: closed form stride_qz stride_qh Z H BLOCK_M BLOCK_N numKVBlocks HEAD_DIM
 * BLOCK_DMODEL HEAD_ACTIVE STAGE; IO stride_qz stride_qh Z H HEAD_DIM BLOCK_M BLOCK_N
 * BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks.  Regions Q K V Q_scale K_scale Out. */
#include "../host/attn_online_tl.h"
#include "alt_a_sage.h"

static sga_geo aft_geo(const td_abi_launch *L, int io) {
    if (io)
        return (sga_geo){TL_I(L, 0), TL_I(L, 1), TL_I(L, 3), TL_I(L, 6) * TL_I(L, 10), TL_I(L, 4), TL_I(L, 5),
                         TL_I(L, 6), TL_I(L, 8), 0, 0};
    return (sga_geo){TL_I(L, 0), TL_I(L, 1), TL_I(L, 3), TL_I(L, 5) * TL_I(L, 6), TL_I(L, 7), TL_I(L, 4),
                     TL_I(L, 5), TL_I(L, 9), 0, 0};
}
static const sga_alt A3 = {3, 1, alt_ex2_approx}, A1 = {1, 0, exp2f};
static int cf3(const td_abi_launch *L) { sga_geo g = aft_geo(L, 0); return sga_run(L, &g, &A3); }
static int io3(const td_abi_launch *L) { sga_geo g = aft_geo(L, 1); return sga_run(L, &g, &A3); }
static int cf1(const td_abi_launch *L) { sga_geo g = aft_geo(L, 0); return sga_run(L, &g, &A1); }
static int io1(const td_abi_launch *L) { sga_geo g = aft_geo(L, 1); return sga_run(L, &g, &A1); }

#define AFT_CF "attention_forward_triton.attention_forward_triton_closed_form_correct"
#define AFT_IO "attention_forward_triton.attention_forward_triton_io_correctness"
TD_KERNEL(td_a_aft_cf_kv3) = {AFT_CF, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 11, 6, cf3, NULL};
TD_KERNEL(td_a_aft_io_kv3) = {AFT_IO, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 11, 6, io3, NULL};
TD_KERNEL(td_a_aft_cf_kv1) = {AFT_CF, "alt_kv1", TD_ABI_HOST, NULL, NULL, NULL, 11, 6, cf1, NULL};
TD_KERNEL(td_a_aft_io_kv1) = {AFT_IO, "alt_kv1", TD_ABI_HOST, NULL, NULL, NULL, 11, 6, io1, NULL};
static int cf_rs16(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 0, SG_MUT_ROWSUM_P16); }
TD_KERNEL(td_a_aft_cf_rs16) = {AFT_CF, "alt_rowsum_fp16_p", TD_ABI_HOST,
                               "p=fp16:rne:inf;pv=fp16:rne:inf;store=fp16:rne:inf", NULL, NULL, 11, 6, cf_rs16, NULL};
