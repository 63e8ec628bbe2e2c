/* destindex_copy mutants: copy-paste bugs between the two streams of an MLA cache.
 * A stray store that would leave the allocation is dropped (on a GPU it lands in
 * another tensor; the host keeps the half inside the cache). */
#include "../host/tl.h"

enum {
    P_SKN_BS, P_SKN_H, P_SKN_D, P_SKR_BS, P_SKR_H, P_SKR_D, P_SON_BS, P_SON_H, P_SON_D, P_SOR_BS, P_SOR_H, P_SOR_D,
    P_HN, P_HR, P_BDN, P_BDR
};
enum { R_KN, R_KR, R_DEST, R_ON, R_OR };

static void put(const td_abi_launch *L, int reg, int64_t off, float v) {
    if (off >= 0 && off < (int64_t)TL_LEN(L, reg)) tl_store(L, reg, off, v, tl_f32());
}

/* mode 0: the rope row addressed with the nope cache's row stride (stride_o_nope_bs);
 * mode 1: the nope tile walked with the rope block (offs_d_rope used for both): lanes
 *         past BLOCK_DMODEL_ROPE left unwritten, or lanes past BLOCK_DMODEL_NOPE read
 *         and written;
 * mode 2: cur_index * stride_kv_nope_bs formed in int32 (Triton's default for an int32
 *         program id and stride): beyond 2^31 elements the token's nope load wraps (an
 *         illegal address on a GPU: tl_fault) or reads another token. */
static int dcopy_mut(const td_abi_launch *L, int mode) {
    int64_t bdn = mode == 1 ? TL_I(L, P_BDR) : TL_I(L, P_BDN);
    int64_t rope_bs = mode == 0 ? TL_I(L, P_SON_BS) : TL_I(L, P_SOR_BS);
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t), kbase = t * TL_I(L, P_SKN_BS);
        if (mode == 2) {
            kbase = tl_i32((int64_t)t * tl_i32(TL_I(L, P_SKN_BS)));
            if (tl_fault(L, R_KN, kbase, bdn, TL_I(L, P_SKN_D), t)) return 1;
        }
        for (int64_t j = 0; j < bdn; j++) {
            int64_t src = kbase + j * TL_I(L, P_SKN_D);
            float v = src < (int64_t)TL_LEN(L, R_KN) ? tl_load(L, R_KN, src) : 0.0f;
            put(L, R_ON, dest * TL_I(L, P_SON_BS) + j * TL_I(L, P_SON_D), v);
        }
        for (int64_t j = 0; j < TL_I(L, P_BDR); j++)
            put(L, R_OR, dest * rope_bs + j * TL_I(L, P_SOR_D),
                tl_load(L, R_KR, t * TL_I(L, P_SKR_BS) + j * TL_I(L, P_SKR_D)));
    }
    return 0;
}
static int dcopy_rope_stride(const td_abi_launch *L) { return dcopy_mut(L, 0); }
static int dcopy_nope_block(const td_abi_launch *L) { return dcopy_mut(L, 1); }
static int dcopy_offset_int32(const td_abi_launch *L) { return dcopy_mut(L, 2); }

TD_KERNEL(td_m_dcopy_rope_stride) = {"destindex_copy.destindex_copy_correctness", "mut_rope_row_stride", TD_ABI_HOST,
                                     NULL, NULL, "rope cache row addressed with the nope cache's row stride", 16, 5,
                                     dcopy_rope_stride, NULL};
TD_KERNEL(td_m_dcopy_nope_block) = {"destindex_copy.destindex_copy_correctness", "mut_nope_rope_block", TD_ABI_HOST,
                                    NULL, NULL, "nope tile walked with BLOCK_DMODEL_ROPE", 16, 5, dcopy_nope_block,
                                    NULL};
TD_KERNEL(td_m_dcopy_offset_int32) = {"destindex_copy.destindex_copy_correctness", "mut_offset_int32", TD_ABI_HOST,
                                      NULL, NULL, "cur_index * stride_kv_nope_bs computed in int32 (wraps beyond 2^31 "
                                      "elements)", 16, 5, dcopy_offset_int32, NULL};
