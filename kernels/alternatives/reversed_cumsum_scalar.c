/* reversed_cumsum_scalar, alternative alt_seq_scan: a different admissible evaluation,
 * one sequential reversed scan per row (acc += s[t], o[t] = acc from t = T-1 down to 0),
 * no chunks and no prefix subtraction.  Must pass the summary contract's tolerance. */
#include "../host/tl.h"

enum { P_T, P_BT };
enum { R_S, R_O };

static int seq_scan(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T);
    for (uint32_t bh = 0; bh < L->grid[0]; bh++) {
        float acc = 0.0f;
        for (int64_t t = T - 1; t >= 0; t--) {
            acc += tl_load(L, R_S, (int64_t)bh * T + t);
            tl_store(L, R_O, (int64_t)bh * T + t, acc, tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_rcss_seq) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_output_summary_general", "alt_seq_scan",
                            TD_ABI_HOST, NULL, NULL, NULL, 2, 2, seq_scan, NULL};

/* the store slices, alternative alt_flat_copy: the rows copied as one flat range, the
 * chunk programs ignored (the same lanes, another traversal) */
static int flat_copy(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_T) * (int64_t)L->grid[0];
    for (int64_t k = n - 1; k >= 0; k--) tl_store(L, R_O, k, tl_load(L, R_S, k), tl_f32());
    return 0;
}
TD_KERNEL(td_a_rcss_store_flat) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctness",
                                   "alt_flat_copy", TD_ABI_HOST, NULL, NULL, NULL, 2, 2, flat_copy, NULL};
TD_KERNEL(td_a_rcss_store_r_flat) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctnessR",
                                     "alt_flat_copy", TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 2, 2, flat_copy,
                                     NULL};
