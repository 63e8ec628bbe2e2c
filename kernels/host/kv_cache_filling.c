/* kv_cache_filling:
 *   fill_kv: fill_k_cache_tile then fill_v_cache_tile: program b reads its block id
 *     BlockOffsets[b*stride_boff + KV_BLOCK_IDX] and stores the [BLOCK_H, BLOCK_D(V)] tile
 *     of token SIDX, masked to num_heads x head_dim(_v), at slot BIDX of that block;
 *   fill_meta: fill_quant_meta_store_slice: program b stores MetaPre[i] (i < num_heads)
 *     at [block, BIDX, i, SZD] of MetaOut. */
#include "tl.h"

enum {
    P_SIDX, P_BIDX, P_KVB, P_NH, P_HD, P_HDV, P_SKSS, P_SKSH, P_SKSD, P_SVSS, P_SVSH, P_SVSD, P_SKCN, P_SKCB, P_SKCH,
    P_SKCD, P_SVCN, P_SVCB, P_SVCH, P_SVCD, P_SBOFF, P_BLOCK, P_BD, P_BDV, P_BH
};
enum { R_KS, R_VS, R_KC, R_VC, R_QSTART, R_QLEN, R_KVLEN, R_BO };
enum { PM_BIDX, PM_KVB, PM_SZD, PM_SMN, PM_SMB, PM_SMH, PM_SMD, PM_SBOFF, PM_NH, PM_BH };
enum { RM_PRE, RM_OUT, RM_BO };

/* one tile kernel: states rs (strides ps..ps+2) to cache rc (strides pc..pc+3) */
static void fill_tile(const td_abi_launch *L, int rs, int rc, int ps, int pc, int64_t D, int64_t BD) {
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        int64_t blk = tl_load_int(L, R_BO, b * TL_I(L, P_SBOFF) + TL_I(L, P_KVB));
        for (int64_t h = 0; h < TL_I(L, P_BH); h++)
            for (int64_t d = 0; d < BD; d++) {
                if (!(h < TL_I(L, P_NH) && d < D)) continue; /* mask */
                float k = tl_load(L, rs, TL_I(L, P_SIDX) * TL_I(L, ps) + h * TL_I(L, ps + 1) + d * TL_I(L, ps + 2));
                tl_store(L, rc, blk * TL_I(L, pc) + TL_I(L, P_BIDX) * TL_I(L, pc + 1) + h * TL_I(L, pc + 2) + d * TL_I(L, pc + 3),
                         k, tl_f32());
            }
    }
}

static int fill_kv(const td_abi_launch *L) {
    fill_tile(L, R_KS, R_KC, P_SKSS, P_SKCN, TL_I(L, P_HD), TL_I(L, P_BD));
    if (TL_I(L, P_BDV) > 0) fill_tile(L, R_VS, R_VC, P_SVSS, P_SVCN, TL_I(L, P_HDV), TL_I(L, P_BDV));
    return 0;
}

static int fill_meta(const td_abi_launch *L) {
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        int64_t blk = tl_load_int(L, RM_BO, b * TL_I(L, PM_SBOFF) + TL_I(L, PM_KVB));
        for (int64_t i = 0; i < TL_I(L, PM_BH); i++)
            if (i < TL_I(L, PM_NH))
                tl_store(L, RM_OUT,
                         blk * TL_I(L, PM_SMN) + TL_I(L, PM_BIDX) * TL_I(L, PM_SMB) + i * TL_I(L, PM_SMH) +
                             TL_I(L, PM_SZD) * TL_I(L, PM_SMD),
                         tl_load(L, RM_PRE, i), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_k_fill_kv) = {"kv_cache_filling.fill_kv_cache_output_summary_general", "triton", TD_ABI_HOST, NULL, NULL,
                           NULL, 25, 8, fill_kv, NULL};
TD_KERNEL(td_k_fill_meta) = {"kv_cache_filling.fill_quant_meta_store_io_correctness", "triton", TD_ABI_HOST, NULL,
                             NULL, NULL, 10, 3, fill_meta, NULL};
