/* kcache_copy_triton, alternative: the cache slot of each sequence computed once
 * (block-table row read as a pointer, position len - 1 split by a div/mod pair), then
 * heads walked last first and each x-chunk moved with one memcpy (the x lanes are
 * contiguous).  A copy is exact whatever the order, so this is admissible. */
#include "alt_common.h"

enum { P_SPLIT, P_SKT, P_SKH, P_SKD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SBTS, P_SBTB, P_BS, P_X };
enum { R_K, R_KC, R_BT, R_LEN };

static int kc_memcpy(const td_abi_launch *L) {
    const int64_t *bt = TL_BASE(L, R_BT), *len = TL_BASE(L, R_LEN);
    const float *k = TL_BASE(L, R_K);
    float *kc = TL_BASE(L, R_KC);
    int64_t X = TL_I(L, P_X), split = TL_I(L, P_SPLIT);
    lldiv_t pos;
    for (uint32_t b = 0; b < L->grid[0]; b++) {
        pos = lldiv((long long)(len[b] - 1), (long long)TL_I(L, P_BS));
        int64_t blk = (bt + b * TL_I(L, P_SBTS))[pos.quot * TL_I(L, P_SBTB)];
        float *dst = kc + blk * TL_I(L, P_SKCB) + split * TL_I(L, P_SKCX) + pos.rem * TL_I(L, P_SKCS);
        for (int64_t h = (int64_t)L->grid[1] - 1; h >= 0; h--) {
            float chunk[16];
            for (int64_t j = 0; j < X; j++) chunk[j] = k[b * TL_I(L, P_SKT) + h * TL_I(L, P_SKH) + (split * X + j) * TL_I(L, P_SKD)];
            memcpy(dst + h * TL_I(L, P_SKCH), chunk, (size_t)X * sizeof(float));
        }
    }
    return 0;
}

TD_KERNEL(td_a_kc_memcpy) = {"kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness", "alt_memcpy", TD_ABI_HOST, NULL,
                             NULL, NULL, 12, 4, kc_memcpy, NULL};
