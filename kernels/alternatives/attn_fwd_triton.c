/* Alternatives for attn_fwd_triton (the causal two-stage SageAttention-style forward, V
 * converted to fp16 before the P.V product, a bf16 Out; keys n <= m; the spec in
 * alt_a_sage.h):
 *   alt_kv3_ex2   blocks of 3 keys whatever BLOCK_N and BLOCK_M are (the diagonal falls
 *                 elsewhere in a block; no separate diagonal stage), left to right, exp2
 *                 as the ex2.approx model.
 *   alt_kv1_rev   one key per block, right to left (the running max seen first at the
 *                 diagonal), exp2f.
 * Parameters: output summary stride_qz stride_qh H HEAD_DIM N_CTX BLOCK_M BLOCK_N
 * BLOCK_DMODEL HEAD_ACTIVE STAGE Z numKVBlocks; IO stride_qz stride_qh Z H N_CTX HEAD_DIM
 * BLOCK_M BLOCK_N BLOCK_DMODEL HEAD_ACTIVE STAGE numKVBlocks. */
#include "alt_a_sage.h"

static sga_geo geo(const td_abi_launch *L, int io) {
    if (io)
        return (sga_geo){TL_I(L, 0), TL_I(L, 1), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), TL_I(L, 6),
                         TL_I(L, 7), TL_I(L, 9), 1, 1};
    return (sga_geo){TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 4), TL_I(L, 3), TL_I(L, 5),
                     TL_I(L, 6), TL_I(L, 8), 1, 1};
}
static const sga_alt A3 = {3, 0, alt_ex2_approx}, A1 = {1, 1, exp2f};
static int os3(const td_abi_launch *L) { sga_geo g = geo(L, 0); return sga_run(L, &g, &A3); }
static int io3(const td_abi_launch *L) { sga_geo g = geo(L, 1); return sga_run(L, &g, &A3); }
static int os1(const td_abi_launch *L) { sga_geo g = geo(L, 0); return sga_run(L, &g, &A1); }
static int io1(const td_abi_launch *L) { sga_geo g = geo(L, 1); return sga_run(L, &g, &A1); }

#define OS "attn_fwd_triton.attn_fwd_triton_output_summary_general"
#define IO "attn_fwd_triton.attn_fwd_triton_io_correctness"
TD_KERNEL(td_a_attn_fwd_triton_os_kv3) = {OS, "alt_kv3_ex2", TD_ABI_HOST, NULL, NULL, NULL, 12, 6, os3, NULL};
TD_KERNEL(td_a_attn_fwd_triton_io_kv3) = {IO, "alt_kv3_ex2", TD_ABI_HOST, NULL, NULL, NULL, 12, 6, io3, NULL};
TD_KERNEL(td_a_attn_fwd_triton_os_kv1) = {OS, "alt_kv1_rev", TD_ABI_HOST, NULL, NULL, NULL, 12, 6, os1, NULL};
TD_KERNEL(td_a_attn_fwd_triton_io_kv1) = {IO, "alt_kv1_rev", TD_ABI_HOST, NULL, NULL, NULL, 12, 6, io1, NULL};
