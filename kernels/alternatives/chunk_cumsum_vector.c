/* chunk_cumsum_vector, alternatives.
 *
 * Summary: Z[bh, t, d] = sum_{m <= t} S[bh, m, d] for t < min(T, BT), d < S.  The port is
 * the Triton kernel's lower-triangle dot (each output summed over q = 0..BT-1 in order).
 *   alt_column_seq:    one running binary32 sum per column, from t = 0 (torch.cumsum's CPU loop);
 *   alt_column_kogge:  the Kogge-Stone network over each column (log2 rounds, lane t adds t - 2^k).
 * Stores: Z = BC on the masked lanes.
 *   alt_column_order:  the same copy walked column by column, the programs in reverse.
 * Admissible: each prefix is a sum of exactly its terms in some association order; a copy
 * is a copy in any order.
 */
#include "alt_common.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_IN, R_Z };

#define CCV_OFF(bh, t, d) ((int64_t)(bh) * TL_I(L, P_SH) + (int64_t)(t) * TL_I(L, P_ST) + (int64_t)(d) * TL_I(L, P_SD))

static int column_scan(const td_abi_launch *L, int kogge) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT);
    int64_t n = T < BT ? T : BT;
    float *x, *tmp;
    TL_ALLOC(L, x, n);
    TL_ALLOC(L, tmp, n);
    for (uint32_t bh = 0; bh < L->grid[1]; bh++)
        for (int64_t d = 0; d < S; d++) {
            for (int64_t t = 0; t < n; t++) x[t] = tl_load(L, R_IN, CCV_OFF(bh, t, d));
            if (kogge)
                for (int64_t s = 1; s < n; s *= 2) {
                    memcpy(tmp, x, (size_t)n * sizeof *x);
                    for (int64_t t = s; t < n; t++) x[t] = tmp[t] + tmp[t - s];
                }
            else
                for (int64_t t = 1; t < n; t++) x[t] = x[t - 1] + x[t];
            for (int64_t t = 0; t < n; t++) tl_store(L, R_Z, CCV_OFF(bh, t, d), x[t], tl_f32());
        }
    free(x);
    free(tmp);
    return 0;
}
static int column_seq(const td_abi_launch *L) { return column_scan(L, 0); }
static int column_kogge(const td_abi_launch *L) { return column_scan(L, 1); }

static int column_order(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S);
    for (int64_t bh = (int64_t)L->grid[1] - 1; bh >= 0; bh--)
        for (int64_t d = S - 1; d >= 0; d--)
            for (int64_t t = 0; t < T; t++) tl_store(L, R_Z, CCV_OFF(bh, t, d), tl_load(L, R_IN, CCV_OFF(bh, t, d)), tl_f32());
    return 0;
}

#define CCV_SUM "chunk_cumsum_vector.chunk_cumsum_vector_output_summary_general"
#define CCV_ST "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness"
#define CCV_STR "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR"
TD_KERNEL(td_a_ccv_seq) = {CCV_SUM, "alt_column_seq", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, column_seq, NULL};
TD_KERNEL(td_a_ccv_kogge) = {CCV_SUM, "alt_column_kogge", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, column_kogge, NULL};
TD_KERNEL(td_a_ccv_st_col) = {CCV_ST, "alt_column_order", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, column_order, NULL};
TD_KERNEL(td_a_ccv_str_col) = {CCV_STR, "alt_column_order", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, column_order, NULL};
