/* destindex_copy_kv1 mutants: the bugs a KV scatter really ships.  A stray store that
 * would leave the allocation is dropped here (on a GPU it lands in another tensor; the
 * host mutant keeps the half of the bug that stays inside Out, which is what the
 * harness's sentinel check sees). */
#include "../host/tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_HDIM, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT };

/* mode 0: the head_dim mask dropped (kv2's store under kv1's padded BLOCK_DMODEL): the
 *         padded lanes store the load's other=0.0 past the head's last dim;
 * mode 1: the Dest_loc indirection skipped: token t written to cache row t;
 * mode 2: Dest_loc (int64) read through an int32 pointer: the slot of token t is the
 *         low or high half of entry t/2;
 * mode 3: t * stride_k_bs formed in int32 (tl_i32): beyond 2^31 elements the token's
 *         load wraps (an illegal address on a GPU: tl_fault) or reads another token. */
static int kv1_mut(const td_abi_launch *L, int mode) {
    int64_t H = TL_I(L, P_HEADS), D = TL_I(L, P_HDIM), BD = TL_I(L, P_BD), BH = TL_I(L, P_BH);
    int64_t len = (int64_t)TL_LEN(L, R_OUT);
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t kbase = (int64_t)t * TL_I(L, P_SKBS);
        if (mode == 3) {
            kbase = tl_i32((int64_t)t * tl_i32(TL_I(L, P_SKBS)));
            int64_t w = H > 0 && D > 0 ? (H - 1) * TL_I(L, P_SKH) + (D - 1) * TL_I(L, P_SKD) + 1 : 0;
            if (tl_fault(L, R_K, kbase, w, 1, t)) return 1;
        }
        int64_t dest = mode == 1 ? t : mode == 2 ? ((const int32_t *)TL_BASE(L, R_DEST))[t] : tl_load_int(L, R_DEST, t);
        for (int64_t h = 0; h < BH && h < H; h++)
            for (int64_t d = 0; d < BD; d++) {
                if (d >= D && mode != 0) continue;
                float k = d < D ? tl_load(L, R_K, kbase + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD)) : 0.0f;
                int64_t off = dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD);
                if (off >= 0 && off < len) tl_store(L, R_OUT, off, k, tl_f32());
            }
    }
    return 0;
}
static int kv1_no_dim_mask(const td_abi_launch *L) { return kv1_mut(L, 0); }
static int kv1_dest_pid(const td_abi_launch *L) { return kv1_mut(L, 1); }
static int kv1_dest_int32(const td_abi_launch *L) { return kv1_mut(L, 2); }
static int kv1_offset_int32(const td_abi_launch *L) { return kv1_mut(L, 3); }

#define KV1 "destindex_copy_kv1.fwd_kernel_destindex_copy_kv_correctness"
TD_KERNEL(td_m_dkv1_no_dim_mask) = {KV1, "mut_no_dim_mask", TD_ABI_HOST, NULL, NULL,
                                    "store masked by head_num only: padded dims past head_dim written", 10, 3,
                                    kv1_no_dim_mask, NULL};
TD_KERNEL(td_m_dkv1_dest_pid) = {KV1, "mut_dest_pid", TD_ABI_HOST, NULL, NULL,
                                 "Dest_loc ignored: token t written to cache row t", 10, 3, kv1_dest_pid, NULL};
TD_KERNEL(td_m_dkv1_dest_int32) = {KV1, "mut_dest_int32", TD_ABI_HOST, NULL, NULL,
                                   "int64 Dest_loc read as int32: wrong slot from token 1 on", 10, 3, kv1_dest_int32,
                                   NULL};
TD_KERNEL(td_m_dkv1_offset_int32) = {KV1, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                     "t * stride_k_bs computed in int32 (wraps beyond 2^31 elements)", 10, 3,
                                     kv1_offset_int32, NULL};
