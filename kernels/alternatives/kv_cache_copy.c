/* kv_cache_copy, alternative: all V lanes of the launch first, then all K lanes, each
 * pass over (sequence, head) last first, the slot's block and offset found once per
 * sequence with lldiv, the lane count min(KCACHE_X, HEAD_DIM - SPLIT_X*KCACHE_X)
 * computed up front instead of a per-lane mask.  A copy is exact in any order, so this
 * is admissible. */
#include "alt_common.h"

enum {
    P_SPLIT, P_SKT, P_SKH, P_SKD, P_SVT, P_SVH, P_SVD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SVCB, P_SVCH, P_SVCS, P_SVCD,
    P_SBTS, P_SBTB, P_BS, P_HD, P_X
};
enum { R_K, R_V, R_KC, R_VC, R_BT, R_LEN };

static void pass(const td_abi_launch *L, int v) {
    int64_t X = TL_I(L, P_X), d0 = TL_I(L, P_SPLIT) * X, w = TL_I(L, P_HD) - d0;
    w = w > X ? X : w;
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--) {
        lldiv_t pos = lldiv((long long)(tl_load_int(L, R_LEN, b) - 1), (long long)TL_I(L, P_BS));
        int64_t blk = tl_load_int(L, R_BT, b * TL_I(L, P_SBTS) + pos.quot * TL_I(L, P_SBTB));
        for (int64_t h = (int64_t)L->grid[1] - 1; h >= 0; h--)
            for (int64_t j = 0; j < w; j++) {
                int64_t d = d0 + j;
                if (v)
                    tl_store(L, R_VC, blk * TL_I(L, P_SVCB) + h * TL_I(L, P_SVCH) + pos.rem * TL_I(L, P_SVCS) + d * TL_I(L, P_SVCD),
                             tl_load(L, R_V, b * TL_I(L, P_SVT) + h * TL_I(L, P_SVH) + d * TL_I(L, P_SVD)), tl_f32());
                else
                    tl_store(L, R_KC,
                             blk * TL_I(L, P_SKCB) + h * TL_I(L, P_SKCH) + TL_I(L, P_SPLIT) * TL_I(L, P_SKCX) +
                                 pos.rem * TL_I(L, P_SKCS) + j,
                             tl_load(L, R_K, b * TL_I(L, P_SKT) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD)), tl_f32());
            }
    }
}
static int kvc_two_pass(const td_abi_launch *L) {
    pass(L, 1);
    pass(L, 0);
    return 0;
}

TD_KERNEL(td_a_kvc_two_pass) = {"kv_cache_copy.kv_cache_copy_correctness", "alt_two_pass", TD_ABI_HOST, NULL, NULL,
                                NULL, 20, 6, kvc_two_pass, NULL};
