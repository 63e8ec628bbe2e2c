/* masked_add_cuda: masked_add_kernel, in place on grad, program by program.
 * Parameters: n_elements, alpha, BLOCK_SIZE.  Regions: grad_ptr, p_ptr, p_mask_ptr (bool). */
#include "tl.h"

enum { P_N, P_ALPHA, P_BLOCK };
enum { R_GRAD, R_P, R_MASK };

static int masked_add_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float alpha = TL_R(L, P_ALPHA);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            int mask = off < n;
            int p_mask = mask ? tl_load_int(L, R_MASK, off) != 0 : 0; /* .to(tl.int1) */
            mask = mask && !p_mask;                                   /* mask & ~p_mask */
            if (!mask) continue;
            float p = tl_load(L, R_P, off), grad = tl_load(L, R_GRAD, off);
            grad += p * alpha;
            tl_store(L, R_GRAD, off, grad, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_masked_add_cuda) = {"masked_add_cuda.masked_add_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                   NULL, 3, 3, masked_add_kernel, NULL};
