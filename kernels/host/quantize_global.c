/* quantize_global: out = llrint(127.0 * (x * absmax_inv)) stored into int8, masked 1-D
 * launch.  llrint rounds half to even (to int64); the int8 store keeps the low byte.
 * Parameters: n_elements, BLOCK_SIZE, scale127 (the statement's; the kernel's literal
 * is 127.0).  Regions: x_ptr, absmax_inv_ptr, output_ptr (int8). */
#include "tl.h"

enum { P_N, P_BLOCK, P_SCALE };
enum { R_X, R_INV, R_OUT };

static int quantize_global(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    td_profile store = {TD_I8, TD_RNE, TD_OVF_WRAP, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        float absmax_inv = tl_load(L, R_INV, 0);
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, R_OUT, off, 127.0f * (tl_load(L, R_X, off) * absmax_inv), store);
        }
    }
    return 0;
}

TD_KERNEL(td_k_quantize_global) = {"quantize_global.quantize_global_correctness", "triton", TD_ABI_HOST,
                                   "store=int8:rne:wrap", NULL, NULL, 3, 3, quantize_global, NULL};
