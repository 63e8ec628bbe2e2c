/* kcache_copy_triton mutants: the paged-cache addressing bugs.  A read or store that
 * would leave its allocation is dropped (on a GPU it hits another tensor; the host keeps
 * the half inside KCache). */
#include "../host/tl.h"

enum { P_SPLIT, P_SKT, P_SKH, P_SKD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SBTS, P_SBTB, P_BS, P_X };
enum { R_K, R_KC, R_BT, R_LEN };

/* mode 0: the cache written at position seq_len instead of seq_len - 1 (the decode
 *         path's shift forgotten): the next slot, or the next block's first slot;
 * mode 1: the x-split stride ignored (the [blocks, heads, block_size, head_dim] layout
 *         assumed): every split written over split 0's chunk;
 * mode 2: cur_token_idx * stride_kt formed in int32 (Triton's default for an int32
 *         program id and stride): beyond 2^31 elements the key's load wraps (an
 *         illegal address on a GPU: tl_fault) or reads another token. */
static int kc_mut(const td_abi_launch *L, int mode) {
    int64_t X = TL_I(L, P_X), split = TL_I(L, P_SPLIT), bs = TL_I(L, P_BS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t past = tl_load_int(L, R_LEN, b) - (mode == 0 ? 0 : 1);
            int64_t cell = b * TL_I(L, P_SBTS) + (past / bs) * TL_I(L, P_SBTB);
            int64_t blk = cell < (int64_t)TL_LEN(L, R_BT) ? tl_load_int(L, R_BT, cell) : 0;
            int64_t kb = b * TL_I(L, P_SKT) + h * TL_I(L, P_SKH) + split * X * TL_I(L, P_SKD);
            if (mode == 2) {
                kb = tl_i32((int64_t)b * tl_i32(TL_I(L, P_SKT))) + h * TL_I(L, P_SKH) + split * X * TL_I(L, P_SKD);
                if (tl_fault(L, R_K, kb, X, TL_I(L, P_SKD), b)) return 1;
            }
            int64_t base = blk * TL_I(L, P_SKCB) + h * TL_I(L, P_SKCH) + (mode == 1 ? 0 : split * TL_I(L, P_SKCX)) +
                           (past % bs) * TL_I(L, P_SKCS);
            for (int64_t j = 0; j < X; j++)
                if (base + j >= 0 && base + j < (int64_t)TL_LEN(L, R_KC))
                    tl_store(L, R_KC, base + j,
                             tl_load(L, R_K, kb + j * TL_I(L, P_SKD)), tl_f32());
        }
    return 0;
}
static int kc_pos_seqlen(const td_abi_launch *L) { return kc_mut(L, 0); }
static int kc_no_split_stride(const td_abi_launch *L) { return kc_mut(L, 1); }
static int kc_offset_int32(const td_abi_launch *L) { return kc_mut(L, 2); }

#define KC "kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness"
TD_KERNEL(td_m_kc_pos_seqlen) = {KC, "mut_pos_seqlen", TD_ABI_HOST, NULL, NULL,
                                 "cache written at position seq_len instead of seq_len - 1", 12, 4, kc_pos_seqlen, NULL};
TD_KERNEL(td_m_kc_no_split_stride) = {KC, "mut_no_split_stride", TD_ABI_HOST, NULL, NULL,
                                      "x-split stride ignored: split SPLIT_X written at split 0", 12, 4,
                                      kc_no_split_stride, NULL};
TD_KERNEL(td_m_kc_offset_int32) = {KC, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                   "cur_token_idx * stride_kt computed in int32 (wraps beyond 2^31 elements)", 12, 4,
                                   kc_offset_int32, NULL};
