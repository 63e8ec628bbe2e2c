/* add_value mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK, P_VALUE };
enum { R_X, R_OUT };

/* The sum is formed in binary64 and stored by truncation (a store that rounds toward
 * zero instead of to nearest): up to one ulp off instead of half. */
static int puzzle1_store_rtz(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    td_profile rtz = {TD_F32, TD_RTZ, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            double s = (double)tl_load(L, R_X, off) + L->params[P_VALUE].r;
            uint32_t bits = (uint32_t)td_encode_f64(rtz, s);
            memcpy((float *)TL_BASE(L, R_OUT) + off, &bits, 4);
        }
    return 0;
}

TD_KERNEL(td_m_add_value_rtz) = {"add_value.puzzle1_kernel_correctness", "mut_store_rtz", TD_ABI_HOST, NULL, NULL,
                                 "sum rounded toward zero on the store", 3, 2, puzzle1_store_rtz, NULL};
TD_KERNEL(td_m_add_value_io_rtz) = {"add_value.puzzle1_kernel_io_correctness", "mut_store_rtz", TD_ABI_HOST,
                                    "store=fp32:rne:inf", NULL, "sum rounded toward zero on the store", 3, 2,
                                    puzzle1_store_rtz, NULL};
