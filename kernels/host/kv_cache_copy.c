/* kv_cache_copy: program (b, h) stores the x-split SPLIT_X of token b's key and value
 * head h (lanes d = SPLIT_X*KCACHE_X + j < HEAD_DIM) at the last slot of sequence b's
 * paged caches (position context_lengths[b] - 1). */
#include "tl.h"

enum {
    P_SPLIT, P_SKT, P_SKH, P_SKD, P_SVT, P_SVH, P_SVD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SVCB, P_SVCH, P_SVCS, P_SVCD,
    P_SBTS, P_SBTB, P_BS, P_HD, P_X
};
enum { R_K, R_V, R_KC, R_VC, R_BT, R_LEN };

static int kv_cache_copy(const td_abi_launch *L) {
    int64_t X = TL_I(L, P_X), split = TL_I(L, P_SPLIT), bs = TL_I(L, P_BS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t past = tl_load_int(L, R_LEN, b) - 1;
            int64_t blk = tl_load_int(L, R_BT, b * TL_I(L, P_SBTS) + (past / bs) * TL_I(L, P_SBTB)), slot = past % bs;
            for (int64_t j = 0; j < X; j++) {
                int64_t d = split * X + j;
                if (d >= TL_I(L, P_HD)) continue; /* mask */
                float k = tl_load(L, R_K, b * TL_I(L, P_SKT) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD));
                float v = tl_load(L, R_V, b * TL_I(L, P_SVT) + h * TL_I(L, P_SVH) + d * TL_I(L, P_SVD));
                tl_store(L, R_KC,
                         blk * TL_I(L, P_SKCB) + h * TL_I(L, P_SKCH) + split * TL_I(L, P_SKCX) + slot * TL_I(L, P_SKCS) + j,
                         k, tl_f32());
                tl_store(L, R_VC, blk * TL_I(L, P_SVCB) + h * TL_I(L, P_SVCH) + slot * TL_I(L, P_SVCS) + d * TL_I(L, P_SVCD),
                         v, tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_k_kv_cache_copy) = {"kv_cache_copy.kv_cache_copy_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 20,
                                 6, kv_cache_copy, NULL};
