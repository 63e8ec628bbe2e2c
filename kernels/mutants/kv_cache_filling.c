/* kv_cache_filling mutants.  A read or store that would leave its allocation is dropped
 * (on a GPU it hits another tensor; the host keeps the half inside the cache). */
#include "../host/tl.h"

enum {
    P_SIDX, P_BIDX, P_KVB, P_NH, P_HD, P_HDV, P_SKSS, P_SKSH, P_SKSD, P_SVSS, P_SVSH, P_SVSD, P_SKCN, P_SKCB, P_SKCH,
    P_SKCD, P_SVCN, P_SVCB, P_SVCH, P_SVCD, P_SBOFF, P_BLOCK, P_BD, P_BDV, P_BH
};
enum { R_KS, R_VS, R_KC, R_VC, R_QSTART, R_QLEN, R_KVLEN, R_BO };
enum { PM_BIDX, PM_KVB, PM_SZD, PM_SMN, PM_SMB, PM_SMH, PM_SMD, PM_SBOFF, PM_NH, PM_BH };
enum { RM_PRE, RM_OUT, RM_BO };

static int64_t ld_int(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && off < (int64_t)TL_LEN(L, reg) ? tl_load_int(L, reg, off) : 0;
}
static float ld(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && off < (int64_t)TL_LEN(L, reg) ? tl_load(L, reg, off) : 0.0f;
}
static void st(const td_abi_launch *L, int reg, int64_t off, float v) {
    if (off >= 0 && off < (int64_t)TL_LEN(L, reg)) tl_store(L, reg, off, v, tl_f32());
}

/* fill_kv, mode 0: the V tile masked with the K head_dim (a copy-paste of `mask` for
 *   `maskv`): lanes past head_dim_v written, or lanes below it left alone;
 * mode 1: the block-table row stride dropped: BlockOffsets[b + KV_BLOCK_IDX];
 * mode 2: sidx * stride_kss (stride_vss) formed in int32 (an int32 token index and
 *   stride: Triton's default): beyond 2^31 elements the load wraps (an illegal address
 *   on a GPU: tl_fault, the launch fails) or reads another token. */
static int tile_mut(const td_abi_launch *L, int rs, int rc, int ps, int pc, int64_t D, int64_t BD, int mode) {
    int64_t sb = TL_I(L, P_SIDX) * TL_I(L, ps);
    if (mode == 2) sb = tl_i32(TL_I(L, P_SIDX) * tl_i32(TL_I(L, ps)));
    if (mode == 2 && D > 0 && TL_I(L, P_NH) > 0 && tl_fault(L, rs, sb, D < BD ? D : BD, TL_I(L, ps + 2), 0)) return 1;
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        int64_t blk = ld_int(L, R_BO, (mode == 1 ? b : b * TL_I(L, P_SBOFF)) + TL_I(L, P_KVB));
        for (int64_t h = 0; h < TL_I(L, P_NH) && h < TL_I(L, P_BH); h++)
            for (int64_t d = 0; d < BD && d < D; d++)
                st(L, rc, blk * TL_I(L, pc) + TL_I(L, P_BIDX) * TL_I(L, pc + 1) + h * TL_I(L, pc + 2) + d * TL_I(L, pc + 3),
                   ld(L, rs, sb + h * TL_I(L, ps + 1) + d * TL_I(L, ps + 2)));
    }
    return 0;
}
static int fill_kv_mut(const td_abi_launch *L, int mode) {
    if (tile_mut(L, R_KS, R_KC, P_SKSS, P_SKCN, TL_I(L, P_HD), TL_I(L, P_BD), mode)) return 1;
    int64_t dv = mode == 0 ? TL_I(L, P_HD) : TL_I(L, P_HDV);
    if (TL_I(L, P_BDV) > 0) return tile_mut(L, R_VS, R_VC, P_SVSS, P_SVCN, dv, TL_I(L, P_BDV), mode);
    return 0;
}
static int fill_v_mask_hd(const td_abi_launch *L) { return fill_kv_mut(L, 0); }
static int fill_boff_dropped(const td_abi_launch *L) { return fill_kv_mut(L, 1); }
static int fill_offset_int32(const td_abi_launch *L) { return fill_kv_mut(L, 2); }

/* fill_meta, mode 0: SZD ignored (the zero point stored over the scale slot);
 * mode 1: mask i <= num_heads: one head past the last written. */
static int meta_mut(const td_abi_launch *L, int mode) {
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        int64_t blk = tl_load_int(L, RM_BO, b * TL_I(L, PM_SBOFF) + TL_I(L, PM_KVB));
        for (int64_t i = 0; i < TL_I(L, PM_BH); i++)
            if (mode == 1 ? i <= TL_I(L, PM_NH) : i < TL_I(L, PM_NH))
                st(L, RM_OUT,
                   blk * TL_I(L, PM_SMN) + TL_I(L, PM_BIDX) * TL_I(L, PM_SMB) + i * TL_I(L, PM_SMH) +
                       (mode == 0 ? 0 : TL_I(L, PM_SZD)) * TL_I(L, PM_SMD),
                   ld(L, RM_PRE, i));
    }
    return 0;
}
static int meta_szd_ignored(const td_abi_launch *L) { return meta_mut(L, 0); }
static int meta_mask_le(const td_abi_launch *L) { return meta_mut(L, 1); }

#define FK "kv_cache_filling.fill_kv_cache_output_summary_general"
#define FM "kv_cache_filling.fill_quant_meta_store_io_correctness"
TD_KERNEL(td_m_fill_v_mask_hd) = {FK, "mut_v_mask_head_dim", TD_ABI_HOST, NULL, NULL,
                                  "V tile masked with head_dim instead of head_dim_v", 25, 8, fill_v_mask_hd, NULL};
TD_KERNEL(td_m_fill_boff_dropped) = {FK, "mut_boff_dropped", TD_ABI_HOST, NULL, NULL,
                                     "block id read at BlockOffsets[b + KV_BLOCK_IDX] (row stride dropped)", 25, 8,
                                     fill_boff_dropped, NULL};
TD_KERNEL(td_m_meta_szd_ignored) = {FM, "mut_szd_ignored", TD_ABI_HOST, NULL, NULL,
                                    "SZD ignored: zero point stored over the scale", 10, 3, meta_szd_ignored, NULL};
TD_KERNEL(td_m_meta_mask_le) = {FM, "mut_mask_le", TD_ABI_HOST, NULL, NULL,
                                "mask i <= num_heads: one head past the last stored", 10, 3, meta_mask_le, NULL};
TD_KERNEL(td_m_fill_offset_int32) = {FK, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                    "sidx * stride_kss / stride_vss computed in int32 (wraps beyond 2^31 elements)",
                                    25, 8, fill_offset_int32, NULL};
