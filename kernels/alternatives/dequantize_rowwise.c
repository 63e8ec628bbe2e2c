/* dequantize_rowwise, alternative alt_scale_first: a correct kernel written the other
 * common way, the row factor max_val * inv_127 formed once per row and each code
 * multiplied by it (x * (max_val * inv_127)): another association of the same product,
 * one rounding fewer per element and a different one per row. */
#include "../host/tl.h"

enum { P_INV, P_N, P_BLOCK, P_P2 };
enum { R_X, R_STATE, R_OUT };

static int scale_first(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2);
    td_profile store = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float f = tl_load(L, R_STATE, pid) * TL_R(L, P_INV);
        int64_t n = B < P2 ? B : P2;
        for (int64_t j = 0; j < n; j++) {
            int64_t off = (int64_t)pid * B + j;
            tl_store(L, R_OUT, off, tl_load(L, R_X, off) * f, store);
        }
    }
    return 0;
}

TD_KERNEL(td_a_dequantize_rowwise) = {"dequantize_rowwise.dequantize_rowwise_correctness", "alt_scale_first",
                                      TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 4, 3, scale_first, NULL};
