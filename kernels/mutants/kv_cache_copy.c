/* kv_cache_copy mutants.  A read or store that would leave its allocation is dropped
 * (on a GPU it hits another tensor; the host keeps the half inside the caches). */
#include "../host/tl.h"

enum {
    P_SPLIT, P_SKT, P_SKH, P_SKD, P_SVT, P_SVH, P_SVD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SVCB, P_SVCH, P_SVCS, P_SVCD,
    P_SBTS, P_SBTB, P_BS, P_HD, P_X
};
enum { R_K, R_V, R_KC, R_VC, R_BT, R_LEN };

static float ld(const td_abi_launch *L, int reg, int64_t off) {
    return off >= 0 && off < (int64_t)TL_LEN(L, reg) ? tl_load(L, reg, off) : 0.0f;
}
static void st(const td_abi_launch *L, int reg, int64_t off, float v) {
    if (off >= 0 && off < (int64_t)TL_LEN(L, reg)) tl_store(L, reg, off, v, tl_f32());
}

/* mode 0: the caches written at position context_length instead of context_length - 1;
 * mode 1: no head-dim mask (the Python loop's HEAD_DIM % KCACHE_X == 0 assumption): a
 *         partial last split stores its padded lanes;
 * mode 2: the V store offset with the split-local lane j (range_x) instead of
 *         SPLIT_X*KCACHE_X + j: every split lands on split 0's dims;
 * mode 3: cur_seq_idx * stride_kt and cur_seq_idx * stride_vt formed in int32 (Triton's
 *         default for an int32 program id and stride): beyond 2^31 elements a load
 *         wraps (an illegal address on a GPU: tl_fault) or reads another sequence. */
static int kvc_far_fault(const td_abi_launch *L, uint32_t b, uint32_t h, int64_t *kb, int64_t *vb) {
    int64_t X = TL_I(L, P_X), d0 = TL_I(L, P_SPLIT) * X, w = TL_I(L, P_HD) - d0;
    w = w < 0 ? 0 : w > X ? X : w;
    *kb = tl_i32((int64_t)b * tl_i32(TL_I(L, P_SKT))) + h * TL_I(L, P_SKH);
    *vb = tl_i32((int64_t)b * tl_i32(TL_I(L, P_SVT))) + h * TL_I(L, P_SVH);
    return tl_fault(L, R_K, *kb + d0 * TL_I(L, P_SKD), w, TL_I(L, P_SKD), b) ||
           tl_fault(L, R_V, *vb + d0 * TL_I(L, P_SVD), w, TL_I(L, P_SVD), b);
}
static int kvc_mut(const td_abi_launch *L, int mode) {
    int64_t X = TL_I(L, P_X), split = TL_I(L, P_SPLIT), bs = TL_I(L, P_BS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t past = tl_load_int(L, R_LEN, b) - (mode == 0 ? 0 : 1), slot = past % bs;
            int64_t cell = b * TL_I(L, P_SBTS) + (past / bs) * TL_I(L, P_SBTB);
            int64_t blk = cell < (int64_t)TL_LEN(L, R_BT) ? tl_load_int(L, R_BT, cell) : 0;
            int64_t kb = b * TL_I(L, P_SKT) + h * TL_I(L, P_SKH), vb = b * TL_I(L, P_SVT) + h * TL_I(L, P_SVH);
            if (mode == 3 && kvc_far_fault(L, b, h, &kb, &vb)) return 1;
            for (int64_t j = 0; j < X; j++) {
                int64_t d = split * X + j, dv = mode == 2 ? j : d;
                if (d >= TL_I(L, P_HD) && mode != 1) continue;
                float k = ld(L, R_K, kb + d * TL_I(L, P_SKD));
                float v = ld(L, R_V, vb + d * TL_I(L, P_SVD));
                st(L, R_KC, blk * TL_I(L, P_SKCB) + h * TL_I(L, P_SKCH) + split * TL_I(L, P_SKCX) + slot * TL_I(L, P_SKCS) + j, k);
                st(L, R_VC, blk * TL_I(L, P_SVCB) + h * TL_I(L, P_SVCH) + slot * TL_I(L, P_SVCS) + dv * TL_I(L, P_SVCD), v);
            }
        }
    return 0;
}
static int kvc_pos_seqlen(const td_abi_launch *L) { return kvc_mut(L, 0); }
static int kvc_no_dim_mask(const td_abi_launch *L) { return kvc_mut(L, 1); }
static int kvc_v_range_x(const td_abi_launch *L) { return kvc_mut(L, 2); }
static int kvc_offset_int32(const td_abi_launch *L) { return kvc_mut(L, 3); }

#define KVC "kv_cache_copy.kv_cache_copy_correctness"
TD_KERNEL(td_m_kvc_pos_seqlen) = {KVC, "mut_pos_seqlen", TD_ABI_HOST, NULL, NULL,
                                  "caches written at position context_length instead of context_length - 1", 20, 6,
                                  kvc_pos_seqlen, NULL};
TD_KERNEL(td_m_kvc_no_dim_mask) = {KVC, "mut_no_dim_mask", TD_ABI_HOST, NULL, NULL,
                                   "no d < HEAD_DIM mask: a partial split's padded lanes stored", 20, 6,
                                   kvc_no_dim_mask, NULL};
TD_KERNEL(td_m_kvc_v_range_x) = {KVC, "mut_v_range_x", TD_ABI_HOST, NULL, NULL,
                                 "V cache offset uses the split-local lane (range_x)", 20, 6, kvc_v_range_x, NULL};
TD_KERNEL(td_m_kvc_offset_int32) = {KVC, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                    "cur_seq_idx * stride_kt / stride_vt computed in int32 (wraps beyond 2^31 "
                                    "elements)", 20, 6, kvc_offset_int32, NULL};
