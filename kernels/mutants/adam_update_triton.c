/* adam_update_triton mutants. */
#include "../host/tl.h"

enum { P_LR, P_WD, P_B1, P_B2, P_N, P_BLOCK };
enum { R_P, R_GRAD, R_M };

/* In-place read-after-write: the momentum is stored first and the parameter update
 * then re-reads exp_avg, so the sign is taken of the NEW momentum's interpolation. */
static int lion_momentum_first(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float lr = TL_R(L, P_LR), wd = TL_R(L, P_WD), b1 = TL_R(L, P_B1), b2 = TL_R(L, P_B2);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float grad = tl_load(L, R_GRAD, off), m = tl_load(L, R_M, off);
            tl_store(L, R_M, off, (m - grad) * b2 + grad, tl_f32());
            float p = tl_load(L, R_P, off) * (1.0f - lr * wd);
            float update = (tl_load(L, R_M, off) - grad) * b1 + grad;
            p = p + (update > 0.0f ? -lr : lr) * (update != 0.0f ? 1.0f : 0.0f);
            tl_store(L, R_P, off, p, tl_f32());
        }
    return 0;
}

/* sign(0) taken as +1 (update >= 0), the classic `tl.where(update >= 0, ...)` slip. */
static int lion_sign_of_zero(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float lr = TL_R(L, P_LR), wd = TL_R(L, P_WD), b1 = TL_R(L, P_B1), b2 = TL_R(L, P_B2);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float p = tl_load(L, R_P, off), grad = tl_load(L, R_GRAD, off), m = tl_load(L, R_M, off);
            p = p * (1.0f - lr * wd);
            float diff = m - grad, update = diff * b1 + grad;
            p = p + (update >= 0.0f ? -lr : lr);
            tl_store(L, R_P, off, p, tl_f32());
            tl_store(L, R_M, off, diff * b2 + grad, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_adam_raw) = {"adam_update_triton.update_fn_kernel_correctness", "mut_momentum_stored_first", TD_ABI_HOST,
                            NULL, NULL, "exp_avg stored before the parameter update re-reads it (read after write)", 6,
                            3, lion_momentum_first, NULL};
TD_KERNEL(td_m_adam_sign0) = {"adam_update_triton.update_fn_kernel_correctness", "mut_sign_of_zero", TD_ABI_HOST, NULL,
                              NULL, "a zero update still steps by -lr (sign(0) = 1)", 6, 3, lion_sign_of_zero, NULL};
