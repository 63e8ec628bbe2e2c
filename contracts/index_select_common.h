/* The shape shared by index_select_cat (gather) and index_select_bwd (scatter):
 * GatherMasked2DKernelIO₁ with a 2-D grid (cdiv(num_indices, BSI), cdiv(num_cols, BSC)),
 * B = BSI * BSC lanes per program, lane j at row r = pid0*BSI + j/BSC and column
 * c = pid1*BSC + j%BSC, active when r < num_indices and c < num_cols.  Both tensors of
 * each kernel share the strides (stride0, stride1): the wrappers check it, the kernels
 * use one pair.  The layouts drawn are the ones a torch tensor can have: row-major
 * (stride1 = 1, or 2 for a column slice of a wider tensor; stride0 >= num_cols*stride1,
 * larger for a row slice), and column-major (stride0 = 1, stride1 >= the larger row
 * count), so every (r, c) < (rows, num_cols) has its own address in both tensors. */
#ifndef TD_INDEX_SELECT_COMMON_H
#define TD_INDEX_SELECT_COMMON_H

#include "gen.h"
#include "gen_meta.h"

#define IS_MAX_INDICES 48

typedef struct is_shape {
    int64_t n_idx, n_cols, bsi, bsc, s0, s1;
} is_shape;

/* Draws BSI, BSC, num_indices (>= 1), num_cols (>= 1); the caller picks the row count. */
static inline void is_draw_counts(td_producer *p, is_shape *s, uint64_t *classes) {
    s->bsi = td_gen_pow2(p, 0, 4);  /* the wrappers use 1 */
    s->bsc = td_gen_pow2(p, 0, 9);  /* the wrappers use 512 */
    s->n_idx = (int64_t)td_gen_count(p, (uint64_t)s->bsi, IS_MAX_INDICES, classes);
    s->n_cols = (int64_t)td_gen_count(p, (uint64_t)s->bsc, 300, classes);
}

/* Strides valid for tensors of up to `rows` rows and n_cols columns. */
static inline void is_draw_strides(td_producer *p, is_shape *s, int64_t rows, uint64_t *classes) {
    static const unsigned w[] = {4, 2, 1, 2};
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 9) : 0;
    switch (td_prod_pick(p, w, 4)) {
    case 0: s->s1 = 1, s->s0 = s->n_cols + pad; break;          /* row-major (a row slice when pad > 0) */
    case 1: s->s1 = 2, s->s0 = 2 * s->n_cols + pad; break;      /* every other column of a wider tensor */
    case 2: s->s1 = 1, s->s0 = s->n_cols; pad = 0; break;       /* contiguous */
    default: s->s0 = 1, s->s1 = rows + pad; break;              /* column-major (transposed) */
    }
    if (pad > 0 || s->s1 > 1) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Elements a tensor of `rows` rows needs under the shape's strides. */
static inline size_t is_len(const is_shape *s, int64_t rows) {
    return (size_t)((rows - 1) * s->s0 + (s->n_cols - 1) * s->s1 + 1);
}

static inline void is_set_grid(td_case *c, const is_shape *s) {
    c->grid[0] = (uint32_t)((s->n_idx + s->bsi - 1) / s->bsi);
    c->grid[1] = (uint32_t)((s->n_cols + s->bsc - 1) / s->bsc);
    c->grid[2] = 1;
}

/* The layout preconditions: positive blocks and strides, the grid, and that the two
 * strides keep (r, c) -> r*stride0 + c*stride1 injective for rows < `rows` (one of the
 * two layouts above). */
static inline const char *is_check_layout(const td_case *c, const is_shape *s, int64_t rows) {
    if (s->bsc <= 0) return "hBC: 0 < BLOCK_SIZE_COL";
    if (s->bsi <= 0) return "BLOCK_SIZE_INDEX > 0 (a Triton block)";
    if (s->n_idx < 0 || s->n_cols < 0) return "num_indices, num_cols : Nat";
    if (c->grid[0] != (uint32_t)((s->n_idx + s->bsi - 1) / s->bsi) ||
        c->grid[1] != (uint32_t)((s->n_cols + s->bsc - 1) / s->bsc) || c->grid[2] != 1)
        return "grid = (cdiv(num_indices, BSI), cdiv(num_cols, BSC))";
    int row_major = s->s1 >= 1 && s->s0 >= s->n_cols * s->s1;
    int col_major = s->s0 >= 1 && s->s1 >= rows * s->s0;
    if (!row_major && !col_major) return "layout: stride0 >= num_cols*stride1 or stride1 >= rows*stride0";
    return NULL;
}

/* The write set: one lane per active (pid0, pid1, j), at row r of the output (a gather)
 * or at row index[r] (scatter != 0), column c; idx = {r, c, index[r]}. */
static inline void is_writes(const td_case *c, const is_shape *s, td_wset *ws, int out, int idx_reg, int scatter) {
    for (uint32_t pid0 = 0; pid0 < c->grid[0]; pid0++)
        for (uint32_t pid1 = 0; pid1 < c->grid[1]; pid1++)
            for (int64_t j = 0; j < s->bsi * s->bsc; j++) {
                int64_t r = (int64_t)pid0 * s->bsi + j / s->bsc, col = (int64_t)pid1 * s->bsc + j % s->bsc;
                if (r >= s->n_idx || col >= s->n_cols) continue; /* writeMask */
                int64_t id = td_geti(c, idx_reg, (size_t)r), row = scatter ? id : r;
                td_olane l = {.o = 0, .region = (uint32_t)out, .off = (uint64_t)(row * s->s0 + col * s->s1),
                              .pid = {pid0, pid1, 0}, .j = (uint64_t)j, .idx = {r, col, id}};
                td_wset_add(ws, &l);
            }
}

#endif
