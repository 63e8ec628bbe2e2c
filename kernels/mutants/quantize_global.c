/* quantize_global mutants: the bugs global int8 quantizers ship. */
#include "../host/tl.h"

enum { P_N, P_BLOCK, P_SCALE };
enum { R_X, R_INV, R_OUT };

/* trunc: `(127.0 * (x * absmax_inv)).to(tl.int8)` instead of llrint: truncation toward
 * zero (off by one above every .5).  divide: the absmax and its inverse confused,
 * x / absmax_inv instead of x * absmax_inv. */
static int qg_variant(const td_abi_launch *L, int trunc, int divide) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    td_profile store = {TD_I8, trunc ? TD_RTZ : TD_RNE, trunc ? TD_OVF_SAT : TD_OVF_WRAP, false};
    float inv = tl_load(L, R_INV, 0);
    for (int64_t off = 0; off < (int64_t)L->grid[0] * B; off++)
        if (off < n) {
            float x = tl_load(L, R_X, off);
            tl_store(L, R_OUT, off, 127.0f * (divide ? x / inv : x * inv), store);
        }
    return 0;
}
static int qg_trunc(const td_abi_launch *L) { return qg_variant(L, 1, 0); }
static int qg_divide(const td_abi_launch *L) { return qg_variant(L, 0, 1); }

TD_KERNEL(td_m_qg_trunc) = {"quantize_global.quantize_global_correctness", "mut_store_truncates", TD_ABI_HOST,
                            "store=int8:rne:wrap", NULL, "the value truncated to int8 (.to(tl.int8)) instead of llrint",
                            3, 3, qg_trunc, NULL};
TD_KERNEL(td_m_qg_divide) = {"quantize_global.quantize_global_correctness", "mut_divides_by_inverse", TD_ABI_HOST,
                             "store=int8:rne:wrap", NULL, "x divided by absmax_inv instead of multiplied", 3, 3,
                             qg_divide, NULL};
