/* index_select_cat mutants: the gather's two address computations, each wrong once. */
#include "../host/index_select_tl.h"

enum { P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_OUT, R_SRC, R_IDX };

enum { BUG_INDEX_IGNORED, BUG_LAST_INDEX_MASKED, BUG_SRC_STRIDE1 };

static int gather_variant(const td_abi_launch *L, int bug) {
    int64_t nidx = TL_I(L, P_NIDX), ncols = TL_I(L, P_NCOLS), s0 = TL_I(L, P_S0), s1 = TL_I(L, P_S1);
    int64_t bsi = TL_I(L, P_BSI), bsc = TL_I(L, P_BSC);
    for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (int64_t j = 0; j < bsi * bsc; j++) {
                int64_t r = (int64_t)pid0 * bsi + j / bsc, col = (int64_t)pid1 * bsc + j % bsc;
                if (r >= nidx - (bug == BUG_LAST_INDEX_MASKED) || col >= ncols) continue;
                int64_t row = bug == BUG_INDEX_IGNORED ? r : tl_load_int(L, R_IDX, r);
                int64_t src = row * s0 + col * (bug == BUG_SRC_STRIDE1 ? 1 : s1);
                if (src >= (int64_t)TL_LEN(L, R_SRC)) continue; /* no read past the source (row r may not exist) */
                tl_store(L, R_OUT, r * s0 + col * s1, tl_load(L, R_SRC, src), tl_f32());
            }
    return 0;
}

/* The original's output offset indices[:, None] * stride0 + cols[None, :] * stride1 is
 * int32 arithmetic (indices from tl.program_id and tl.arange, stride0 an int32 argument
 * below 2^31); the source offset is int64 (rows loaded from the int64 index tensor).  A
 * wrapped output row outside the buffer is an illegal address (tl_fault). */
static int offset_int32(const td_abi_launch *L) { return is_copy_rows_i32(L, P_NIDX, R_OUT, R_SRC, R_IDX, 0); }

/* the output row r copied from source row r where the source has it: the index tensor never read */
static int index_ignored(const td_abi_launch *L) { return gather_variant(L, BUG_INDEX_IGNORED); }
/* mask `indices < num_indices - 1`: the last index's row never gathered */
static int last_masked(const td_abi_launch *L) { return gather_variant(L, BUG_LAST_INDEX_MASKED); }
/* source assumed contiguous along columns (stride 1) while the output uses stride1 */
static int src_stride1(const td_abi_launch *L) { return gather_variant(L, BUG_SRC_STRIDE1); }

#define ISC "index_select_cat.index_select_cat_fwd_kernel_correctness"
TD_KERNEL(td_m_isc_index_ignored) = {ISC, "mut_index_ignored", TD_ABI_HOST, NULL, NULL,
                                     "row r gathered instead of row index[r]", 6, 3, index_ignored, NULL};
TD_KERNEL(td_m_isc_last_masked) = {ISC, "mut_last_index_masked", TD_ABI_HOST, NULL, NULL,
                                   "mask indices < num_indices - 1: last row skipped", 6, 3, last_masked, NULL};
TD_KERNEL(td_m_isc_src_stride1) = {ISC, "mut_src_col_stride_1", TD_ABI_HOST, NULL, NULL,
                                   "source column stride taken as 1 instead of stride1", 6, 3, src_stride1, NULL};
TD_KERNEL(td_m_isc_offset_int32) = {ISC, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                    "indices * stride0 of the output formed in int32 (wraps beyond 2^31 elements)", 6, 3,
                                    offset_int32, NULL};
