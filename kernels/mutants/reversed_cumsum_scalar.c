/* reversed_cumsum_scalar mutants: the bugs reversed scans ship. */
#include <stdlib.h>

#include "../host/tl.h"

enum { P_T, P_BT };
enum { R_S, R_O };

enum { RCSS_EXCLUSIVE, RCSS_NO_CARRY, RCSS_CARRY_LATE, RCSS_OFF_I32 };

/* One program per row as the correct kernel, with one bug:
 *   EXCLUSIVE:  o = b_z - cumsum(b_s) (b_s not added back): the exclusive reversed scan where
 *               the inclusive one is specified (off by one step);
 *   NO_CARRY:   b_z reset per chunk (b_z = tl.sum(b_s)): the state not carried across chunks;
 *   CARRY_LATE: b_z updated after the chunk's store: the carry of the later chunks only
 *               (taken from the wrong chunk);
 *   OFF_I32:    s + i_bh * T with i_bh an int32 program id: past 2^31 elements the row
 *               offset wraps negative, an illegal address (tl_fault); only the large tier
 *               (`--large`, td_rows_large) has B*H*T > 2^31. */
static int rcss_bug(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, P_T), BT = TL_I(L, P_BT);
    float *b_s = malloc((size_t)BT * 2 * sizeof *b_s);
    if (!b_s) return 1;
    float *b_c = b_s + BT;
    for (uint32_t bh = 0; bh < L->grid[0]; bh++) {
        float b_z = 0.0f;
        int64_t row = bug == RCSS_OFF_I32 ? tl_i32((int64_t)bh * T) : (int64_t)bh * T;
        /* both ends of the row: one that straddles 2^31 wraps between them */
        if (bug == RCSS_OFF_I32 && T > 0 &&
            (tl_fault(L, R_S, row, 1, 1, bh) || tl_fault(L, R_S, tl_i32(row + T - 1), 1, 1, bh))) {
            free(b_s);
            return 1;
        }
        for (int64_t it = (T + BT - 1) / BT - 1; it >= 0; it--) {
            for (int64_t i = 0; i < BT; i++) {
                int64_t t = it * BT + i;
                b_s[i] = t < T ? tl_load(L, R_S, row + t) : 0.0f;
            }
            float b_zz = tl_sum(b_s, BT);
            if (bug == RCSS_NO_CARRY) b_z = b_zz;
            else if (bug != RCSS_CARRY_LATE) b_z += b_zz;
            float run = 0.0f;
            for (int64_t i = 0; i < BT; i++) b_c[i] = run += b_s[i];
            for (int64_t i = 0; i < BT; i++) {
                float o = bug == RCSS_EXCLUSIVE ? b_z - b_c[i] : b_s[i] - b_c[i] + b_z;
                if (it * BT + i < T) tl_store(L, R_O, row + it * BT + i, o, tl_f32());
            }
            if (bug == RCSS_CARRY_LATE) b_z += b_zz;
        }
    }
    free(b_s);
    return 0;
}
static int rcss_exclusive(const td_abi_launch *L) { return rcss_bug(L, RCSS_EXCLUSIVE); }
static int rcss_no_carry(const td_abi_launch *L) { return rcss_bug(L, RCSS_NO_CARRY); }
static int rcss_carry_late(const td_abi_launch *L) { return rcss_bug(L, RCSS_CARRY_LATE); }
static int rcss_off_i32(const td_abi_launch *L) { return rcss_bug(L, RCSS_OFF_I32); }

/* store slice bugs: the row base i_bh * BT instead of i_bh * T (the chunk size taken for
 * the row length); the tail chunk skipped (a grid of T // BT chunks) */
static int rcss_store_bug(const td_abi_launch *L, int row_bt) {
    int64_t T = TL_I(L, P_T), BT = TL_I(L, P_BT);
    int64_t rs = row_bt ? BT : T;
    for (uint32_t bh = 0; bh < L->grid[0]; bh++)
        for (uint32_t it = 0; it < L->grid[1]; it++)
            for (int64_t i = 0; i < BT; i++) {
                int64_t t = (int64_t)it * BT + i;
                if (!row_bt && (int64_t)(it + 1) * BT > T) break;
                if (t < T && (int64_t)bh * rs + t < (int64_t)L->grid[0] * T)
                    tl_store(L, R_O, (int64_t)bh * rs + t, tl_load(L, R_S, (int64_t)bh * rs + t), tl_f32());
            }
    return 0;
}
static int rcss_store_row_bt(const td_abi_launch *L) { return rcss_store_bug(L, 1); }
static int rcss_store_no_tail(const td_abi_launch *L) { return rcss_store_bug(L, 0); }

#define RCSS_ID "reversed_cumsum_scalar.reversed_cumsum_scalar_output_summary_general"
#define RCSS_ST "reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctness"
#define RCSS_STR "reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctnessR"
TD_KERNEL(td_m_rcss_excl) = {RCSS_ID, "mut_exclusive", TD_ABI_HOST, NULL, NULL,
                             "exclusive reversed scan (b_s not added back) where inclusive is specified", 2, 2,
                             rcss_exclusive, NULL};
TD_KERNEL(td_m_rcss_nocarry) = {RCSS_ID, "mut_no_carry", TD_ABI_HOST, NULL, NULL,
                                "b_z reset per chunk: the suffix total not carried across chunks", 2, 2, rcss_no_carry,
                                NULL};
TD_KERNEL(td_m_rcss_late) = {RCSS_ID, "mut_carry_late", TD_ABI_HOST, NULL, NULL,
                             "b_z updated after the store: the carry misses the current chunk", 2, 2, rcss_carry_late,
                             NULL};
TD_KERNEL(td_m_rcss_st_row) = {RCSS_ST, "mut_row_stride_bt", TD_ABI_HOST, NULL, NULL, "row base i_bh*BT instead of i_bh*T",
                               2, 2, rcss_store_row_bt, NULL};
TD_KERNEL(td_m_rcss_st_tail) = {RCSS_ST, "mut_tail_skipped", TD_ABI_HOST, NULL, NULL, "the partial last chunk not stored",
                                2, 2, rcss_store_no_tail, NULL};
TD_KERNEL(td_m_rcss_str_row) = {RCSS_STR, "mut_row_stride_bt", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                "row base i_bh*BT instead of i_bh*T", 2, 2, rcss_store_row_bt, NULL};
TD_KERNEL(td_m_rcss_str_tail) = {RCSS_STR, "mut_tail_skipped", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                 "the partial last chunk not stored", 2, 2, rcss_store_no_tail, NULL};
TD_KERNEL(td_m_rcss_i32) = {RCSS_ID, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                            "s + i_bh * T in int32 (i_bh an int32 program id): the row offset wraps past 2^31", 2, 2,
                            rcss_off_i32, NULL};
