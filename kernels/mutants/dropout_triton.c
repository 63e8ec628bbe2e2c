/* dropout_triton mutants. */
#include "../host/tl.h"

enum { P_N, P_P, P_BLOCK };
enum { R_X, R_KEEP, R_OUT };

static int dropout_variant(const td_abi_launch *L, int multiply, int invert) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float p = TL_R(L, P_P);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float x = tl_load(L, R_X, off);
            int keep = (tl_load_int(L, R_KEEP, off) != 0) != invert;
            float scaled = multiply ? x * (1.0f - p) : x / (1.0f - p);
            tl_store(L, R_OUT, off, keep ? scaled : 0.0f, tl_f32());
        }
    return 0;
}

/* Kept values scaled by (1 - p) instead of divided by it (inference-style scaling). */
static int dropout_scale_multiplied(const td_abi_launch *L) { return dropout_variant(L, 1, 0); }
/* The mask read as a DROP mask: kept lanes zeroed, dropped lanes scaled. */
static int dropout_mask_inverted(const td_abi_launch *L) { return dropout_variant(L, 0, 1); }

TD_KERNEL(td_m_dropout_triton_mul) = {"dropout_triton.dropout_kernel_correctness", "mut_scale_multiplied", TD_ABI_HOST,
                                      NULL, NULL, "kept lanes x * (1 - p) instead of x / (1 - p)", 3, 3,
                                      dropout_scale_multiplied, NULL};
TD_KERNEL(td_m_dropout_triton_inv) = {"dropout_triton.dropout_kernel_correctness", "mut_keep_mask_inverted",
                                      TD_ABI_HOST, NULL, NULL, "x_keep read as a drop mask", 3, 3,
                                      dropout_mask_inverted, NULL};
