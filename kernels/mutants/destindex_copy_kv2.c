/* destindex_copy_kv2 mutants.  A stray store that would leave the allocation is dropped
 * (on a GPU it lands in another tensor; the host keeps the half inside Out). */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT };

/* mode 0: the head mask dropped: the padded heads h in [head_num, BLOCK_HEAD) store the
 *         load's other=0.0 into the next heads' (or rows') cells;
 * mode 1: the slot taken from the next token's entry (Dest_loc[t+1], the last token
 *         keeping its own): an off-by-one in the index pointer;
 * mode 2: t * stride_k_bs formed in int32 (tl_i32): beyond 2^31 elements the token's
 *         load wraps (an illegal address on a GPU: tl_fault) or reads another token. */
static int kv2_mut(const td_abi_launch *L, int mode) {
    int64_t H = TL_I(L, P_HEADS), BD = TL_I(L, P_BD), BH = TL_I(L, P_BH);
    int64_t len = (int64_t)TL_LEN(L, R_OUT);
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t kbase = (int64_t)t * TL_I(L, P_SKBS);
        if (mode == 2) {
            kbase = tl_i32((int64_t)t * tl_i32(TL_I(L, P_SKBS)));
            int64_t w = H > 0 && BD > 0 ? (H - 1) * TL_I(L, P_SKH) + (BD - 1) * TL_I(L, P_SKD) + 1 : 0;
            if (tl_fault(L, R_K, kbase, w, 1, t)) return 1;
        }
        int64_t dest = tl_load_int(L, R_DEST, mode == 1 && t + 1 < L->grid[0] ? t + 1 : t);
        for (int64_t h = 0; h < BH && (mode == 0 || h < H); h++)
            for (int64_t d = 0; d < BD; d++) {
                float k = h < H ? tl_load(L, R_K, kbase + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD)) : 0.0f;
                int64_t off = dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD);
                if (off >= 0 && off < len) tl_store(L, R_OUT, off, k, tl_f32());
            }
    }
    return 0;
}
static int kv2_no_head_mask(const td_abi_launch *L) { return kv2_mut(L, 0); }
static int kv2_dest_next(const td_abi_launch *L) { return kv2_mut(L, 1); }
static int kv2_offset_int32(const td_abi_launch *L) { return kv2_mut(L, 2); }

#define KV2 "destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness"
TD_KERNEL(td_m_dkv2_no_head_mask) = {KV2, "mut_no_head_mask", TD_ABI_HOST, NULL, NULL,
                                     "store unmasked: padded heads past head_num written with 0", 9, 3,
                                     kv2_no_head_mask, NULL};
TD_KERNEL(td_m_dkv2_dest_next) = {KV2, "mut_dest_next", TD_ABI_HOST, NULL, NULL,
                                  "token t stored at Dest_loc[t+1]", 9, 3, kv2_dest_next, NULL};
TD_KERNEL(td_m_dkv2_offset_int32) = {KV2, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                     "t * stride_k_bs computed in int32 (wraps beyond 2^31 elements)", 9, 3,
                                     kv2_offset_int32, NULL};
