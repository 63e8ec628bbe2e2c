/* dequantize_rowwise: one program per row, lanes j < P2 masked by j < BLOCK_SIZE,
 * out = max_val * x * inv_127 in binary32 (left to right), stored as float16.
 * Parameters: inv_127, n_elements, BLOCK_SIZE, P2.  Regions: x_ptr (int8), state_x,
 * output_ptr (fp16). */
#include "tl.h"

enum { P_INV, P_N, P_BLOCK, P_P2 };
enum { R_X, R_STATE, R_OUT };

static int dequantize_rowwise(const td_abi_launch *L) {
    int64_t B = TL_I(L, P_BLOCK), P2 = TL_I(L, P_P2);
    float inv_127 = TL_R(L, P_INV);
    td_profile store = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float max_val = tl_load(L, R_STATE, pid);
        for (int64_t j = 0; j < P2; j++) {
            if (!(j < B)) continue; /* row_mask */
            int64_t off = (int64_t)pid * B + j;
            float x = tl_load(L, R_X, off); /* int8 -> fp32, exact */
            tl_store(L, R_OUT, off, max_val * x * inv_127, store);
        }
    }
    return 0;
}

TD_KERNEL(td_k_dequantize_rowwise) = {"dequantize_rowwise.dequantize_rowwise_correctness", "triton", TD_ABI_HOST,
                                      "store=fp16:rne:inf", NULL, NULL, 4, 3, dequantize_rowwise, NULL};
