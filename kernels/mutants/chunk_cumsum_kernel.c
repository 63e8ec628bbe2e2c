/* chunk_cumsum_kernel mutants: the carry between chunks is where chunked scans break. */
#include "../host/tl.h"

enum { P_T, P_BT };
enum { R_S, R_O };

/* OFF_I32: s + i_bh * T with i_bh an int32 program id: past 2^31 elements the row
 * offset wraps negative and the access is an illegal address (tl_fault).  Only the
 * large tier (`--large`, td_rows_large) has B*H*T > 2^31. */
enum { NO_CARRY, LAST_CHUNK_CARRY, EXCLUSIVE, F16_CARRY, OFF_I32 };
static int ccs_bug(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, P_T), BT = TL_I(L, P_BT);
    td_profile store = {TL_FMT(L, R_O), TD_RNE, TD_OVF_INF, false};
    td_profile half = {TD_F16, TD_RNE, TD_OVF_INF, false};
    float *b_s, *b_c;
    TL_ALLOC(L, b_s, BT);
    TL_ALLOC(L, b_c, BT);
    for (uint32_t i_bh = 0; i_bh < L->grid[0]; i_bh++) {
        float b_z = 0.0f;
        int64_t row = bug == OFF_I32 ? tl_i32((int64_t)i_bh * T) : (int64_t)i_bh * T;
        /* both ends of the row: one that straddles 2^31 wraps between them */
        if (bug == OFF_I32 && T > 0 && (tl_fault(L, R_S, row, 1, 1, i_bh) || tl_fault(L, R_S, tl_i32(row + T - 1), 1, 1, i_bh))) {
            free(b_s);
            free(b_c);
            return 1;
        }
        for (int64_t i_t = 0; i_t < (T + BT - 1) / BT; i_t++) {
            float run = 0.0f;
            for (int64_t j = 0; j < BT; j++) {
                int64_t t = i_t * BT + j;
                b_s[j] = t < T ? tl_load(L, R_S, row + t) : 0.0f;
                run += b_s[j];
                /* EXCLUSIVE: the chunk's scan excludes the lane itself (cumsum - b_s) */
                b_c[j] = bug == EXCLUSIVE ? run - b_s[j] : run;
            }
            float b_zz = tl_sum(b_s, BT);
            for (int64_t j = 0; j < BT; j++) {
                int64_t t = i_t * BT + j;
                if (t < T) tl_store(L, R_O, row + t, b_c[j] + b_z, store);
            }
            switch (bug) {
            case NO_CARRY: break;                       /* b_z never updated: every chunk restarts at 0 */
            case LAST_CHUNK_CARRY: b_z = b_zz; break;   /* b_z = tl.sum(b_s): the previous chunk's total only */
            case F16_CARRY: /* the carry kept in a binary16 buffer between chunks */
                b_z = (float)td_decode(TD_F16, td_encode_f32(half, b_z + b_zz));
                break;
            default: b_z += b_zz;
            }
        }
    }
    free(b_s);
    free(b_c);
    return 0;
}
static int ccs_no_carry(const td_abi_launch *L) { return ccs_bug(L, NO_CARRY); }
static int ccs_last_chunk(const td_abi_launch *L) { return ccs_bug(L, LAST_CHUNK_CARRY); }
static int ccs_exclusive(const td_abi_launch *L) { return ccs_bug(L, EXCLUSIVE); }
static int ccs_f16_carry(const td_abi_launch *L) { return ccs_bug(L, F16_CARRY); }
static int ccs_off_i32(const td_abi_launch *L) { return ccs_bug(L, OFF_I32); }

#define CCS_SUM "chunk_cumsum_kernel.chunk_cumsum_scalar_output_summary_general"
#define CCS_IO "chunk_cumsum_kernel.chunk_cumsum_scalar_io_correctness"
TD_KERNEL(td_m_ccs_sum_nocarry) = {CCS_SUM, "mut_carry_not_carried", TD_ABI_HOST, NULL, NULL,
                                   "b_z is never updated: the state is reset at every chunk", 2, 2, ccs_no_carry, NULL};
TD_KERNEL(td_m_ccs_sum_last) = {CCS_SUM, "mut_carry_last_chunk", TD_ABI_HOST, NULL, NULL,
                                "b_z = tl.sum(b_s): the carry is the previous chunk's total, not the running one", 2, 2,
                                ccs_last_chunk, NULL};
TD_KERNEL(td_m_ccs_sum_excl) = {CCS_SUM, "mut_exclusive", TD_ABI_HOST, NULL, NULL,
                                "exclusive scan where the contract is inclusive (off by one lane)", 2, 2, ccs_exclusive,
                                NULL};
TD_KERNEL(td_m_ccs_sum_f16) = {CCS_SUM, "mut_f16_carry", TD_ABI_HOST, NULL, NULL,
                               "the carry b_z stored in binary16 between chunks", 2, 2, ccs_f16_carry, NULL};
TD_KERNEL(td_m_ccs_io_nocarry) = {CCS_IO, "mut_carry_not_carried", TD_ABI_HOST, NULL, NULL,
                                  "b_z is never updated: the state is reset at every chunk", 2, 2, ccs_no_carry, NULL};
TD_KERNEL(td_m_ccs_io_last) = {CCS_IO, "mut_carry_last_chunk", TD_ABI_HOST, NULL, NULL,
                               "b_z = tl.sum(b_s): the carry is the previous chunk's total, not the running one", 2, 2,
                               ccs_last_chunk, NULL};
TD_KERNEL(td_m_ccs_io_excl) = {CCS_IO, "mut_exclusive", TD_ABI_HOST, NULL, NULL,
                               "exclusive scan where the contract is inclusive (off by one lane)", 2, 2, ccs_exclusive,
                               NULL};
#define CCS_I32 "s + i_bh * T in int32 (i_bh an int32 program id): the row offset wraps past 2^31"
TD_KERNEL(td_m_ccs_sum_i32) = {CCS_SUM, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, CCS_I32, 2, 2, ccs_off_i32,
                               NULL};
TD_KERNEL(td_m_ccs_io_i32) = {CCS_IO, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, CCS_I32, 2, 2, ccs_off_i32,
                              NULL};
