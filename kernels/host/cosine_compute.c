/* cosine_compute: cos_func, b = tl.cos(a.to(float32)), masked (the C library's cosf).
 * Parameters: n_elements, BLOCK_SIZE.  Regions: a, b. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_A, R_B };

static int cos_func(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t offset = (int64_t)pid * B + j;
            if (offset < n) tl_store(L, R_B, offset, cosf(tl_load(L, R_A, offset)), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_cosine_compute) = {"cosine_compute.cos_func_correctness", "triton", TD_ABI_HOST, NULL, "libm", NULL, 2,
                                  2, cos_func, NULL};
