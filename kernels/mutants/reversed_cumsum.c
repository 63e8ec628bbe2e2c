/* reversed_cumsum mutants: the bugs chunked reversed scans ship. */
#include <stdlib.h>

#include "../host/tl.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_S, R_Z };

enum { RCV_EXCLUSIVE, RCV_NO_CARRY, RCV_CARRY_EARLY, RCV_OFFSET_I32 };

static int64_t off3(const td_abi_launch *L, int64_t bh, int64_t t, int64_t col) {
    return bh * TL_I(L, P_SH) + t * TL_I(L, P_ST) + col * TL_I(L, P_SD);
}

/* The correct program with one bug:
 *   EXCLUSIVE:   m_s[i][k] = [i < k]: the exclusive reversed scan where inclusive is specified;
 *   NO_CARRY:    b_z never accumulated: the later chunks' total not carried;
 *   CARRY_EARLY: b_z += tl.sum(b_s) before the store: the carry taken one chunk early (the
 *                current chunk counted twice);
 *   OFFSET_I32:  s + i_bh * s_s_h (z too) formed in int32, i_bh = program_id and s_s_h an
 *                int32 argument: the head's base wraps beyond 2^31 elements (a device
 *                fault when it leaves the buffer, another head's data when not). */
static int rcv_bug(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    float *b_s = malloc((size_t)(BT * BS + BS) * sizeof *b_s);
    if (!b_s) return 1;
    float *b_z = b_s + BT * BS;
    for (uint32_t bh = 0; bh < L->grid[1]; bh++)
        for (uint32_t is = 0; is < L->grid[0]; is++) {
            int64_t base = bug == RCV_OFFSET_I32 ? tl_i32((int64_t)bh * tl_i32(TL_I(L, P_SH))) : bh * TL_I(L, P_SH);
            for (int64_t j = 0; j < BS; j++) b_z[j] = 0.0f;
            for (int64_t it = (T + BT - 1) / BT - 1; it >= 0; it--) {
                for (int64_t i = 0; i < BT; i++)
                    for (int64_t j = 0; j < BS; j++) {
                        int64_t t = it * BT + i, col = (int64_t)is * BS + j;
                        int on = t < T && col < S;
                        if (on && tl_fault(L, R_S, base + off3(L, 0, t, col), 1, 1, is)) return free(b_s), 1;
                        b_s[i * BS + j] = on ? tl_load(L, R_S, base + off3(L, 0, t, col)) : 0.0f;
                    }
                for (int64_t j = 0; j < BS && bug == RCV_CARRY_EARLY; j++)
                    for (int64_t i = 0; i < BT; i++) b_z[j] += b_s[i * BS + j];
                for (int64_t i = 0; i < BT; i++)
                    for (int64_t j = 0; j < BS; j++) {
                        float acc = 0.0f;
                        for (int64_t k = bug == RCV_EXCLUSIVE ? i + 1 : i; k < BT; k++) acc += b_s[k * BS + j];
                        int64_t t = it * BT + i, col = (int64_t)is * BS + j;
                        if (!(t < T && col < S)) continue;
                        if (tl_fault(L, R_Z, base + off3(L, 0, t, col), 1, 1, is)) return free(b_s), 1;
                        tl_store(L, R_Z, base + off3(L, 0, t, col), b_z[j] + acc, tl_f32());
                    }
                for (int64_t j = 0; j < BS && bug != RCV_NO_CARRY && bug != RCV_CARRY_EARLY; j++)
                    for (int64_t i = 0; i < BT; i++) b_z[j] += b_s[i * BS + j];
            }
        }
    free(b_s);
    return 0;
}
static int rcv_exclusive(const td_abi_launch *L) { return rcv_bug(L, RCV_EXCLUSIVE); }
static int rcv_no_carry(const td_abi_launch *L) { return rcv_bug(L, RCV_NO_CARRY); }
static int rcv_carry_early(const td_abi_launch *L) { return rcv_bug(L, RCV_CARRY_EARLY); }
static int rcv_offset_i32(const td_abi_launch *L) { return rcv_bug(L, RCV_OFFSET_I32); }

/* store slice bugs: the column stride s_s_d dropped (col*1: right only for a d-contiguous
 * layout); the time mask against BT instead of T (rows past T of the last chunk written:
 * only inside the region, the rest skipped) */
static int rcv_store_bug(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    int64_t len = (int64_t)L->regions[R_Z].len;
    for (uint32_t it = 0; it < L->grid[2]; it++)
        for (uint32_t bh = 0; bh < L->grid[1]; bh++)
            for (uint32_t is = 0; is < L->grid[0]; is++)
                for (int64_t r = 0; r < BT; r++)
                    for (int64_t cc = 0; cc < BS; cc++) {
                        int64_t t = (int64_t)it * BT + r, col = (int64_t)is * BS + cc;
                        int64_t o = bug == 0 ? bh * TL_I(L, P_SH) + t * TL_I(L, P_ST) + col : off3(L, bh, t, col);
                        int ok = bug == 0 ? (t < T && col < S) : (col < S && o < len);
                        if (ok && o < len) tl_store(L, R_Z, o, tl_load(L, R_S, o), tl_f32());
                    }
    return 0;
}
static int rcv_store_no_sd(const td_abi_launch *L) { return rcv_store_bug(L, 0); }
static int rcv_store_mask_bt(const td_abi_launch *L) { return rcv_store_bug(L, 1); }

#define RCV_ID "reversed_cumsum.reversed_cumsum_output_summary_general"
#define RCV_ST "reversed_cumsum.reversed_cumsum_block_store_io_correctness"
#define RCV_STR "reversed_cumsum.reversed_cumsum_block_store_io_correctnessR"
TD_KERNEL(td_m_rcv_excl) = {RCV_ID, "mut_exclusive", TD_ABI_HOST, NULL, NULL,
                            "triangular mask i < k: exclusive reversed scan where inclusive is specified", 7, 2,
                            rcv_exclusive, NULL};
TD_KERNEL(td_m_rcv_nocarry) = {RCV_ID, "mut_no_carry", TD_ABI_HOST, NULL, NULL,
                               "b_z never accumulated: the later chunks' total not carried", 7, 2, rcv_no_carry, NULL};
TD_KERNEL(td_m_rcv_early) = {RCV_ID, "mut_carry_early", TD_ABI_HOST, NULL, NULL,
                             "b_z += tl.sum(b_s) before the store: the current chunk counted twice", 7, 2,
                             rcv_carry_early, NULL};
TD_KERNEL(td_m_rcv_i32) = {RCV_ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "s + i_bh * s_s_h formed in int32 (wraps beyond 2^31 elements)", 7, 2, rcv_offset_i32, NULL};
TD_KERNEL(td_m_rcv_st_sd) = {RCV_ST, "mut_no_col_stride", TD_ABI_HOST, NULL, NULL, "column offset without s_s_d", 7, 2,
                             rcv_store_no_sd, NULL};
TD_KERNEL(td_m_rcv_st_mask) = {RCV_ST, "mut_time_mask_bt", TD_ABI_HOST, NULL, NULL,
                               "time mask dropped: the last chunk's rows past T stored too", 7, 2, rcv_store_mask_bt,
                               NULL};
TD_KERNEL(td_m_rcv_str_sd) = {RCV_STR, "mut_no_col_stride", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                              "column offset without s_s_d", 7, 2, rcv_store_no_sd, NULL};
TD_KERNEL(td_m_rcv_str_mask) = {RCV_STR, "mut_time_mask_bt", TD_ABI_HOST, "store=fp32:rne:inf", NULL,
                                "time mask dropped: the last chunk's rows past T stored too", 7, 2, rcv_store_mask_bt,
                                NULL};
