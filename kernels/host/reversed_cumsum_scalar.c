/* reversed_cumsum_scalar (fla chunk_global_reversed_cumsum_scalar_kernel) on the CPU.
 * Parameters: T, BT.  Regions: s, o (the summary) / BO, O (the store slices).
 * One program per row i_bh: the chunks from the last to the first, b_z += tl.sum(b_s)
 * (a tree), then o = b_s - tl.cumsum(b_s) + b_z (tl.cumsum as a running sum here). */
#include <stdlib.h>

#include "tl.h"

enum { P_T, P_BT };
enum { R_S, R_O };

static int rcss_kernel(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), BT = TL_I(L, P_BT);
    float *b_s = malloc((size_t)BT * 2 * sizeof *b_s);
    if (!b_s) return 1;
    float *b_c = b_s + BT;
    for (uint32_t bh = 0; bh < L->grid[0]; bh++) {
        float b_z = 0.0f;
        for (int64_t it = (T + BT - 1) / BT - 1; it >= 0; it--) {
            for (int64_t i = 0; i < BT; i++) {
                int64_t t = it * BT + i;
                b_s[i] = t < T ? tl_load(L, R_S, (int64_t)bh * T + t) : 0.0f; /* boundary_check: zero */
            }
            b_z += tl_sum(b_s, BT);
            float run = 0.0f;
            for (int64_t i = 0; i < BT; i++) b_c[i] = run += b_s[i];
            for (int64_t i = 0; i < BT; i++)
                if (it * BT + i < T) tl_store(L, R_O, (int64_t)bh * T + it * BT + i, b_s[i] - b_c[i] + b_z, tl_f32());
        }
    }
    free(b_s);
    return 0;
}

/* the store slice: program (i_bh, i_t) copies its chunk of BO to O */
static int rcss_store(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), BT = TL_I(L, P_BT);
    for (uint32_t bh = 0; bh < L->grid[0]; bh++)
        for (uint32_t it = 0; it < L->grid[1]; it++)
            for (int64_t i = 0; i < BT; i++) {
                int64_t t = (int64_t)it * BT + i;
                if (t < T) tl_store(L, R_O, (int64_t)bh * T + t, tl_load(L, R_S, (int64_t)bh * T + t), tl_f32());
            }
    return 0;
}

TD_KERNEL(td_k_rcss) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_output_summary_general", "triton", TD_ABI_HOST,
                        NULL, NULL, NULL, 2, 2, rcss_kernel, NULL};
TD_KERNEL(td_k_rcss_store) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctness", "triton",
                              TD_ABI_HOST, NULL, NULL, NULL, 2, 2, rcss_store, NULL};
TD_KERNEL(td_k_rcss_store_r) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctnessR", "triton",
                                TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 2, 2, rcss_store, NULL};
