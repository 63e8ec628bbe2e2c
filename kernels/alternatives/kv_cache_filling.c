/* kv_cache_filling, alternatives.
 * alt_v_first (fill_kv): the V tile before the K tile, programs last first, each tile
 *   walked dim-major (d outer, heads inner) over exactly num_heads x head_dim(_v) lanes
 *   (no padded block, no mask); a copy is exact in any order, so admissible.
 * alt_heads_rev (fill_meta): heads last first, the block's base address computed once
 *   per program; admissible for the same reason. */
#include "alt_common.h"

enum {
    P_SIDX, P_BIDX, P_KVB, P_NH, P_HD, P_HDV, P_SKSS, P_SKSH, P_SKSD, P_SVSS, P_SVSH, P_SVSD, P_SKCN, P_SKCB, P_SKCH,
    P_SKCD, P_SVCN, P_SVCB, P_SVCH, P_SVCD, P_SBOFF, P_BLOCK, P_BD, P_BDV, P_BH
};
enum { R_KS, R_VS, R_KC, R_VC, R_QSTART, R_QLEN, R_KVLEN, R_BO };
enum { PM_BIDX, PM_KVB, PM_SZD, PM_SMN, PM_SMB, PM_SMH, PM_SMD, PM_SBOFF, PM_NH, PM_BH };
enum { RM_PRE, RM_OUT, RM_BO };

static void tile_dim_major(const td_abi_launch *L, int rs, int rc, int ps, int pc, int64_t D) {
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--) {
        int64_t base = tl_load_int(L, R_BO, b * TL_I(L, P_SBOFF) + TL_I(L, P_KVB)) * TL_I(L, pc) +
                       TL_I(L, P_BIDX) * TL_I(L, pc + 1);
        for (int64_t d = 0; d < D; d++)
            for (int64_t h = 0; h < TL_I(L, P_NH); h++)
                tl_store(L, rc, base + h * TL_I(L, pc + 2) + d * TL_I(L, pc + 3),
                         tl_load(L, rs, TL_I(L, P_SIDX) * TL_I(L, ps) + h * TL_I(L, ps + 1) + d * TL_I(L, ps + 2)),
                         tl_f32());
    }
}
static int fill_v_first(const td_abi_launch *L) {
    tile_dim_major(L, R_VS, R_VC, P_SVSS, P_SVCN, TL_I(L, P_HDV));
    tile_dim_major(L, R_KS, R_KC, P_SKSS, P_SKCN, TL_I(L, P_HD));
    return 0;
}

static int meta_heads_rev(const td_abi_launch *L) {
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        int64_t base = tl_load_int(L, RM_BO, b * TL_I(L, PM_SBOFF) + TL_I(L, PM_KVB)) * TL_I(L, PM_SMN) +
                       TL_I(L, PM_BIDX) * TL_I(L, PM_SMB) + TL_I(L, PM_SZD) * TL_I(L, PM_SMD);
        for (int64_t i = TL_I(L, PM_NH) - 1; i >= 0; i--)
            tl_store(L, RM_OUT, base + i * TL_I(L, PM_SMH), tl_load(L, RM_PRE, i), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_a_fill_v_first) = {"kv_cache_filling.fill_kv_cache_output_summary_general", "alt_v_first", TD_ABI_HOST,
                                NULL, NULL, NULL, 25, 8, fill_v_first, NULL};
TD_KERNEL(td_a_meta_heads_rev) = {"kv_cache_filling.fill_quant_meta_store_io_correctness", "alt_heads_rev",
                                  TD_ABI_HOST, NULL, NULL, NULL, 10, 3, meta_heads_rev, NULL};
