/* destindex_copy_kv1, alternative: one thread per flat (token, head, dim) element, the
 * elements visited last first and the value moved as raw bits (a byte copy, as a
 * memcpy-style CUDA scatter does).  A copy is exact whatever the order or the way the
 * bits travel, so this is admissible; it checks the harness does not depend on the
 * port's program order or on a float round trip. */
#include "alt_common.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_HDIM, P_BD, P_BH };
enum { R_K, R_DEST, R_OUT };

static int kv1_flat_rev(const td_abi_launch *L) {
    int64_t H = TL_I(L, P_HEADS), D = TL_I(L, P_HDIM), n = (int64_t)L->grid[0] * H * D;
    const float *k = TL_BASE(L, R_K);
    float *o = TL_BASE(L, R_OUT);
    for (int64_t e = n - 1; e >= 0; e--) {
        int64_t t = e / (H * D), h = e / D % H, d = e % D;
        int64_t dest = ((const int64_t *)TL_BASE(L, R_DEST))[t];
        memcpy(o + dest * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD),
               k + t * TL_I(L, P_SKBS) + h * TL_I(L, P_SKH) + d * TL_I(L, P_SKD), sizeof(float));
    }
    return 0;
}

TD_KERNEL(td_a_dkv1_flat_rev) = {"destindex_copy_kv1.fwd_kernel_destindex_copy_kv_correctness", "alt_flat_rev",
                                 TD_ABI_HOST, NULL, NULL, NULL, 10, 3, kv1_flat_rev, NULL};
