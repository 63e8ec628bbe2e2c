/* destindex_copy_kv1: program t loads the [BLOCK_HEAD, BLOCK_DMODEL] tile of token t
 * (masked to head_num x head_dim) and stores it at cache row Dest_loc[t]. */
#include "tl.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_HDIM, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT };

static int destindex_copy_kv1(const td_abi_launch *L) {
    int64_t H = TL_I(L, P_HEADS), D = TL_I(L, P_HDIM), BD = TL_I(L, P_BD), BH = TL_I(L, P_BH);
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t h = 0; h < BH; h++)
            for (int64_t d = 0; d < BD; d++) {
                if (!(h < H && d < D)) continue; /* mask (other=0.0 never stored) */
                float k = tl_load(L, R_K, t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD));
                tl_store(L, R_OUT, dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD), k, tl_f32());
            }
    }
    return 0;
}

TD_KERNEL(td_k_destindex_copy_kv1) = {"destindex_copy_kv1.fwd_kernel_destindex_copy_kv_correctness", "triton",
                                      TD_ABI_HOST, NULL, NULL, NULL, 10, 3, destindex_copy_kv1, NULL};
