/* dropout_triton: _dropout with an explicit keep mask, program by program.
 * Parameters: n_elements, p, BLOCK_SIZE.  Regions: x_ptr, x_keep_ptr (bool), output_ptr. */
#include "tl.h"

enum { P_N, P_P, P_BLOCK };
enum { R_X, R_KEEP, R_OUT };

static int dropout_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float p = TL_R(L, P_P);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (!(off < n)) continue;
            float x = tl_load(L, R_X, off);
            int64_t x_keep = tl_load_int(L, R_KEEP, off);
            float scaled = x / (1.0f - p); /* evaluated for every lane, as tl.where does */
            tl_store(L, R_OUT, off, x_keep ? scaled : 0.0f, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_dropout_triton) = {"dropout_triton.dropout_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                  3, 3, dropout_kernel, NULL};
