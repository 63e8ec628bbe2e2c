/* destindex_copy: program t copies the nope and rope rows of token t (head 0, whole
 * blocks, no mask) to cache row Dest_loc[t] of O_nope and O_rope. */
#include "tl.h"

enum {
    P_SKN_BS, P_SKN_H, P_SKN_D, P_SKR_BS, P_SKR_H, P_SKR_D, P_SON_BS, P_SON_H, P_SON_D, P_SOR_BS, P_SOR_H, P_SOR_D,
    P_HN, P_HR, P_BDN, P_BDR
};
enum { R_KN, R_KR, R_DEST, R_ON, R_OR };

static int destindex_copy(const td_abi_launch *L) {
    for (uint32_t t = 0; t < L->grid[0]; t++) {
        int64_t dest = tl_load_int(L, R_DEST, t);
        for (int64_t j = 0; j < TL_I(L, P_BDN); j++)
            tl_store(L, R_ON, dest * TL_I(L, P_SON_BS) + j * TL_I(L, P_SON_D),
                     tl_load(L, R_KN, t * TL_I(L, P_SKN_BS) + j * TL_I(L, P_SKN_D)), tl_f32());
        for (int64_t j = 0; j < TL_I(L, P_BDR); j++)
            tl_store(L, R_OR, dest * TL_I(L, P_SOR_BS) + j * TL_I(L, P_SOR_D),
                     tl_load(L, R_KR, t * TL_I(L, P_SKR_BS) + j * TL_I(L, P_SKR_D)), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_k_destindex_copy) = {"destindex_copy.destindex_copy_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                  16, 5, destindex_copy, NULL};
