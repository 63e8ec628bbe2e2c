/* destindex_copy, alternative: the rope stream first, then the nope stream, each as one
 * flat loop over (token, dim) from the last element down, the values moved as raw bits.
 * A copy is exact in any order, so this is admissible. */
#include "alt_common.h"

enum {
    P_SKN_BS, P_SKN_H, P_SKN_D, P_SKR_BS, P_SKR_H, P_SKR_D, P_SON_BS, P_SON_H, P_SON_D, P_SOR_BS, P_SOR_H, P_SOR_D,
    P_HN, P_HR, P_BDN, P_BDR
};
enum { R_KN, R_KR, R_DEST, R_ON, R_OR };

static void scatter(const td_abi_launch *L, int in, int out, int pin, int pout, int64_t B) {
    const float *k = TL_BASE(L, in);
    float *o = TL_BASE(L, out);
    const int64_t *dest = TL_BASE(L, R_DEST);
    for (int64_t e = (int64_t)L->grid[0] * B - 1; e >= 0; e--) {
        int64_t t = e / B, j = e % B;
        memcpy(o + dest[t] * TL_I(L, pout) + j * TL_I(L, pout + 2), k + t * TL_I(L, pin) + j * TL_I(L, pin + 2),
               sizeof(float));
    }
}
static int dcopy_streams_rev(const td_abi_launch *L) {
    scatter(L, R_KR, R_OR, P_SKR_BS, P_SOR_BS, TL_I(L, P_BDR));
    scatter(L, R_KN, R_ON, P_SKN_BS, P_SON_BS, TL_I(L, P_BDN));
    return 0;
}

TD_KERNEL(td_a_dcopy_streams_rev) = {"destindex_copy.destindex_copy_correctness", "alt_streams_rev", TD_ABI_HOST, NULL,
                                     NULL, NULL, 16, 5, dcopy_streams_rev, NULL};
