/* masked_add_cuda mutants. */
#include "../host/tl.h"

enum { P_N, P_ALPHA, P_BLOCK };
enum { R_GRAD, R_P, R_MASK };

static int masked_add_variant(const td_abi_launch *L, int ignore_mask, int invert_mask) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float alpha = TL_R(L, P_ALPHA);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            int p_mask = tl_load_int(L, R_MASK, off) != 0;
            if (!ignore_mask && (p_mask != invert_mask)) continue;
            float grad = tl_load(L, R_GRAD, off);
            grad += tl_load(L, R_P, off) * alpha;
            tl_store(L, R_GRAD, off, grad, tl_f32());
        }
    return 0;
}

/* `mask = mask & ~p_mask` forgotten: every in-range lane is updated. */
static int masked_add_mask_ignored(const td_abi_launch *L) { return masked_add_variant(L, 1, 0); }
/* `mask & p_mask`: the update goes to exactly the lanes that must stay untouched. */
static int masked_add_mask_inverted(const td_abi_launch *L) { return masked_add_variant(L, 0, 1); }

TD_KERNEL(td_m_masked_add_ignored) = {"masked_add_cuda.masked_add_kernel_correctness", "mut_p_mask_ignored",
                                      TD_ABI_HOST, NULL, NULL, "p_mask not applied: masked lanes updated too", 3, 3,
                                      masked_add_mask_ignored, NULL};
TD_KERNEL(td_m_masked_add_inverted) = {"masked_add_cuda.masked_add_kernel_correctness", "mut_p_mask_inverted",
                                       TD_ABI_HOST, NULL, NULL, "mask & p_mask instead of mask & ~p_mask", 3, 3,
                                       masked_add_mask_inverted, NULL};
