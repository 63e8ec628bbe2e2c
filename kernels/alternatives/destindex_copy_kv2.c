/* destindex_copy_kv2, alternative: tokens walked last first, and each token's heads
 * copied dim-major (d outer, h inner: the loop order of a kernel that vectorises over
 * heads).  A copy is exact in any order, so this is admissible. */
#include "alt_common.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT };

static int kv2_dim_major(const td_abi_launch *L) {
    for (int64_t t = (int64_t)L->grid[0] - 1; t >= 0; t--) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t d = 0; d < TL_I(L, P_BD); d++)
            for (int64_t h = 0; h < TL_I(L, P_HEADS); h++)
                tl_store(L, R_OUT, dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD),
                         tl_load(L, R_K, t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD)), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_a_dkv2_dim_major) = {"destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness", "alt_dim_major",
                                  TD_ABI_HOST, NULL, NULL, NULL, 9, 3, kv2_dim_major, NULL};
