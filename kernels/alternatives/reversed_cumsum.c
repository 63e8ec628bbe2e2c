/* reversed_cumsum, alternatives.
 *
 * alt_total_minus_prefix: per (bh, column), the column's total minus the forward exclusive
 * prefix, z[t] = total - sum_{k < t} s[k] (one pass for the total, one running prefix): the
 * form fla's scalar sibling uses, algebraically equal to the suffix sum, no chunks.  It
 * must pass the summary's tolerance (the second form of revcumsum_common.spec.h).
 * alt_flat_copy (the store slices): every lane copied in one sweep over (bh, t, col). */
#include "../host/tl.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_S, R_Z };

static int64_t off3(const td_abi_launch *L, int64_t bh, int64_t t, int64_t col) {
    return bh * TL_I(L, P_SH) + t * TL_I(L, P_ST) + col * TL_I(L, P_SD);
}

static int total_minus_prefix(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S);
    for (int64_t bh = 0; bh < (int64_t)L->grid[1]; bh++)
        for (int64_t col = 0; col < S; col++) {
            float total = 0.0f, pre = 0.0f;
            for (int64_t t = 0; t < T; t++) total += tl_load(L, R_S, off3(L, bh, t, col));
            for (int64_t t = 0; t < T; t++) {
                float x = tl_load(L, R_S, off3(L, bh, t, col));
                tl_store(L, R_Z, off3(L, bh, t, col), total - pre, tl_f32());
                pre += x;
            }
        }
    return 0;
}

static int flat_copy(const td_abi_launch *L) {
    for (int64_t bh = 0; bh < (int64_t)L->grid[1]; bh++)
        for (int64_t t = 0; t < TL_I(L, P_T); t++)
            for (int64_t col = 0; col < TL_I(L, P_S); col++)
                tl_store(L, R_Z, off3(L, bh, t, col), tl_load(L, R_S, off3(L, bh, t, col)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_rcv_tmp) = {"reversed_cumsum.reversed_cumsum_output_summary_general", "alt_total_minus_prefix",
                           TD_ABI_HOST, NULL, NULL, NULL, 7, 2, total_minus_prefix, NULL};
TD_KERNEL(td_a_rcv_store_flat) = {"reversed_cumsum.reversed_cumsum_block_store_io_correctness", "alt_flat_copy",
                                  TD_ABI_HOST, NULL, NULL, NULL, 7, 2, flat_copy, NULL};
TD_KERNEL(td_a_rcv_store_r_flat) = {"reversed_cumsum.reversed_cumsum_block_store_io_correctnessR", "alt_flat_copy",
                                    TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 7, 2, flat_copy, NULL};
