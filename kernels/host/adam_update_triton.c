/* adam_update_triton: the Lion update of update_fn_kernel, in place on p and exp_avg.
 * Parameters: lr, wd, beta1, beta2, n_elements, BLOCK_SIZE.  Regions: p, grad, exp_avg. */
#include "tl.h"

enum { P_LR, P_WD, P_B1, P_B2, P_N, P_BLOCK };
enum { R_P, R_GRAD, R_M };

static int update_fn_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float lr = TL_R(L, P_LR), wd = TL_R(L, P_WD), b1 = TL_R(L, P_B1), b2 = TL_R(L, P_B2);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float p = tl_load(L, R_P, off), grad = tl_load(L, R_GRAD, off), m = tl_load(L, R_M, off);
            p = p * (1.0f - lr * wd);
            float diff = m - grad;
            float update = diff * b1 + grad;
            float can_update = update != 0.0f ? 1.0f : 0.0f;
            float update_sign = update > 0.0f ? -lr : lr;
            p = p + update_sign * can_update;
            m = diff * b2 + grad;
            tl_store(L, R_P, off, p, tl_f32());
            tl_store(L, R_M, off, m, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_adam_update) = {"adam_update_triton.update_fn_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                               NULL, 6, 3, update_fn_kernel, NULL};
