/* index_select_bwd mutants: the scatter's bugs. */
#include "../host/index_select_tl.h"

enum { P_NROWS, P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_GSRC, R_IDX, R_GOUT };

enum { BUG_ACCUMULATE, BUG_INDEX_IGNORED, BUG_TAIL_BLOCK_SKIPPED };

static int scatter_variant(const td_abi_launch *L, int bug) {
    int64_t nidx = TL_I(L, P_NIDX), ncols = TL_I(L, P_NCOLS), s0 = TL_I(L, P_S0), s1 = TL_I(L, P_S1);
    int64_t bsi = TL_I(L, P_BSI), bsc = TL_I(L, P_BSC);
    uint32_t programs0 = L->grid[0];
    if (bug == BUG_TAIL_BLOCK_SKIPPED && nidx % bsi) programs0--; /* grid = num_indices // BSI */
    for (uint32_t pid0 = 0; pid0 < programs0; pid0++)
        for (uint32_t pid1 = 0; pid1 < L->grid[1]; pid1++)
            for (int64_t j = 0; j < bsi * bsc; j++) {
                int64_t r = (int64_t)pid0 * bsi + j / bsc, col = (int64_t)pid1 * bsc + j % bsc;
                if (r >= nidx || col >= ncols) continue;
                int64_t row = bug == BUG_INDEX_IGNORED ? r : tl_load_int(L, R_IDX, r);
                float g = tl_load(L, R_GOUT, r * s0 + col * s1);
                if (bug == BUG_ACCUMULATE) g += tl_load(L, R_GSRC, row * s0 + col * s1);
                tl_store(L, R_GSRC, row * s0 + col * s1, g, tl_f32());
            }
    return 0;
}

/* The original's grad_output offset grad_output_indices[:, None] * stride0 +
 * cols[None, :] * stride1 is int32 arithmetic (indices from tl.program_id and
 * tl.arange, stride0 an int32 argument below 2^31); grad_source's is int64 (rows
 * loaded from the int64 index tensor).  A wrapped read outside the buffer is an illegal
 * address (tl_fault). */
static int offset_int32(const td_abi_launch *L) { return is_copy_rows_i32(L, P_NIDX, R_GOUT, R_GSRC, R_IDX, 1); }

/* index_add instead of index_copy: adds to grad_source's previous contents, which the
 * contract does not zero (the "index add" the kernel's comment names) */
static int accumulate(const td_abi_launch *L) { return scatter_variant(L, BUG_ACCUMULATE); }
/* grad_output row r stored at grad_source row r: the index tensor never read */
static int index_ignored(const td_abi_launch *L) { return scatter_variant(L, BUG_INDEX_IGNORED); }
/* grid computed with floor division: the tail block of indices is never scattered */
static int tail_skipped(const td_abi_launch *L) { return scatter_variant(L, BUG_TAIL_BLOCK_SKIPPED); }

#define ISB "index_select_bwd.index_select_cat_bwd_kernel_correctness"
TD_KERNEL(td_m_isb_accumulate) = {ISB, "mut_accumulate", TD_ABI_HOST, NULL, NULL,
                                  "grad_source += grad_output (index_add) instead of a store", 7, 3, accumulate, NULL};
TD_KERNEL(td_m_isb_index_ignored) = {ISB, "mut_index_ignored", TD_ABI_HOST, NULL, NULL,
                                     "stored at row r instead of row index[r]", 7, 3, index_ignored, NULL};
TD_KERNEL(td_m_isb_tail_skipped) = {ISB, "mut_tail_block_skipped", TD_ABI_HOST, NULL, NULL,
                                    "grid = num_indices // BSI: the tail block of indices skipped", 7, 3, tail_skipped,
                                    NULL};
TD_KERNEL(td_m_isb_offset_int32) = {ISB, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                    "grad_output_indices * stride0 formed in int32 (wraps beyond 2^31 elements)", 7, 3,
                                    offset_int32, NULL};
