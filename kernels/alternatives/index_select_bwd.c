/* index_select_bwd, alternative: the scatter driven by the destination.
 *
 * alt_inverse_map: builds the inverse of the index map (destination row -> source row
 * of grad_output, or none) and then walks grad_source's rows in order, column-major
 * inside a row block, writing only the rows some index names.  This is how a
 * "gather formulation of a scatter" kernel (one program per destination row, no
 * write conflicts by construction) computes it.  Admissible: the indices are distinct
 * (the contract's write injectivity), so every destination cell gets exactly one value
 * whatever the order; rows no index names are left alone as the contract requires.
 */
#include "alt_common.h"

enum { P_NROWS, P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_GSRC, R_IDX, R_GOUT };

static int scatter_by_destination(const td_abi_launch *L) {
    int64_t nrows = TL_I(L, P_NROWS), nidx = TL_I(L, P_NIDX), ncols = TL_I(L, P_NCOLS);
    int64_t s0 = TL_I(L, P_S0), s1 = TL_I(L, P_S1);
    int64_t *src_of = malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof *src_of);
    if (!src_of) {
        snprintf(L->err, L->errlen, "alt_inverse_map: out of memory");
        return 1;
    }
    for (int64_t d = 0; d < nrows; d++) src_of[d] = -1;
    for (int64_t r = 0; r < nidx; r++) src_of[tl_load_int(L, R_IDX, r)] = r;
    for (int64_t col = 0; col < ncols; col++)
        for (int64_t d = 0; d < nrows; d++)
            if (src_of[d] >= 0)
                tl_store(L, R_GSRC, d * s0 + col * s1, tl_load(L, R_GOUT, src_of[d] * s0 + col * s1), tl_f32());
    free(src_of);
    return 0;
}

TD_KERNEL(td_a_index_select_bwd) = {"index_select_bwd.index_select_cat_bwd_kernel_correctness", "alt_inverse_map",
                                    TD_ABI_HOST, NULL, NULL, NULL, 7, 3, scatter_by_destination, NULL};
