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
#include "gen_far.h"
#include "gen_meta.h"

#include <float.h>
#include <string.h>

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

/* ---- offsets beyond 2^31 (gen_far.h), the far hooks of both kernels ----
 * One stride pair addresses both tensors, so a far stride0 moves both: the tensor read
 * or written at the program's own rows r (the gather's output, the scatter's
 * grad_output) keeps rows r < R = min(num_indices, TD_FAR_MAX_ROWS), the one addressed
 * through index[r] keeps Rs = min(its rows, TD_FAR_MAX_ROWS) rows, and the first R index
 * values are re-ranked into those (is_far_rerank).  A row-major layout only: a
 * column-major one has stride0 = 1 (its rows interleave, nothing to move apart). */

/* Rewrites index[0..n) (n <= TD_FAR_MAX_ROWS) by rank: the k-th smallest distinct value
 * becomes k + off, off = rows - d (d distinct values) when the largest was the last row
 * old_rows - 1 (the last row stays the last), else 0: repeats stay repeats, distinct
 * values distinct, a permutation a permutation.  src[k] = the old row that row k now
 * stands for (-1: none).  Needs d <= rows. */
static inline void is_far_rerank(td_case *c, int idx, int64_t n, int64_t old_rows, int64_t rows, int64_t *src) {
    int64_t v[TD_FAR_MAX_ROWS], d = 0;
    for (int64_t r = 0; r < n; r++) { /* the distinct values, sorted (insertion: n <= 4) */
        int64_t x = td_geti(c, idx, (size_t)r), k = d;
        int dup = 0;
        for (int64_t q = 0; q < d; q++) dup |= v[q] == x;
        if (dup) continue;
        while (k > 0 && v[k - 1] > x) v[k] = v[k - 1], k--;
        v[k] = x, d++;
    }
    int64_t off = d && v[d - 1] == old_rows - 1 ? rows - d : 0;
    for (int64_t k = 0; k < rows; k++) src[k] = k >= off && k - off < d ? v[k - off] : -1;
    for (int64_t r = 0; r < n; r++) {
        int64_t x = td_geti(c, idx, (size_t)r), k = 0;
        while (v[k] != x) k++;
        td_seti(c, idx, (size_t)r, k + off);
    }
}

/* Rebuilds regions regs[0..n) as sparse maps of rows[i] rows of w elements at row stride
 * `to`, row k a copy of old row map[i][k] (map[i] NULL: row k itself; -1: zeros) at
 * stride `from`.  All or nothing: 0, or -1 with every region as it was. */
static inline int is_far_move(td_case *c, int n, const int *regs, const int64_t *rows, const int64_t *const *map,
                              int64_t w, int64_t from, int64_t to) {
    td_region old[3];
    for (int i = 0; i < n; i++) {
        old[i] = c->r[regs[i]];
        c->r[regs[i]].data = NULL, c->r[regs[i]].mapped = 0, c->r[regs[i]].len = 0;
        if (!td_case_alloc_sparse(c, regs[i], (size_t)((rows[i] - 1) * to + w))) {
            for (int k = 0; k <= i; k++) {
                if (k < i) td_region_release(&c->r[regs[k]]);
                c->r[regs[k]] = old[k];
            }
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        size_t eb = td_fmt_get(old[i].fmt)->bytes;
        for (int64_t k = 0; k < rows[i]; k++) {
            int64_t o = map[i] ? map[i][k] : k;
            if (o >= 0)
                memcpy((uint8_t *)c->r[regs[i]].data + (size_t)(k * to) * eb,
                       (const uint8_t *)old[i].data + (size_t)(o * from) * eb, (size_t)w * eb);
        }
        td_region_release(&old[i]);
    }
    return 0;
}

/* The index classes of a far case, anew: its index values are the re-ranked ones
 * (repeats for a gather; a permutation of the rows for a scatter's distinct indices). */
static inline void is_far_idx_classes(td_case *c, int idx, int64_t n, int64_t rows, int scatter) {
    int lo = 0, hi = 0, rep = 0;
    c->classes &= ~(TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_IDX_REPEATS) | TD_BC(TD_BC_IDX_PERMUTATION));
    for (int64_t r = 0; r < n; r++) {
        int64_t x = td_geti(c, idx, (size_t)r);
        lo |= x == 0, hi |= x == rows - 1;
        for (int64_t q = 0; q < r; q++) rep |= td_geti(c, idx, (size_t)q) == x;
    }
    if (lo && hi) c->classes |= TD_BC(TD_BC_IDX_FIRST_LAST);
    if (!scatter && rep) c->classes |= TD_BC(TD_BC_IDX_REPEATS);
    if (scatter && n == rows) c->classes |= TD_BC(TD_BC_IDX_PERMUTATION);
}

/* The far hook of both kernels (see above): `own` is the tensor at the program's rows r,
 * `via` the one at rows index[r] (old_rows rows; < 0: as many as its length holds at
 * the case's strides), idx the index tensor, scatter as for is_far_idx_classes.  After a
 * move, s holds the new num_indices R and stride0 (td_far_stride over R rows: own's row
 * R - 1 starts past 2^31), the grid is set, and the return is via's rows Rs; 0: no
 * move, the case as it was. */
static inline int64_t is_far(td_producer *p, td_case *c, is_shape *s, int own, int via, int idx, int64_t old_rows,
                             int scatter) {
    int64_t R = s->n_idx < TD_FAR_MAX_ROWS ? s->n_idx : TD_FAR_MAX_ROWS, w = (s->n_cols - 1) * s->s1 + 1;
    if (R < 2 || s->s1 < 1 || s->s0 < s->n_cols * s->s1) return 0; /* one row, or column-major */
    if (old_rows < 0) old_rows = ((int64_t)c->r[via].len - w) / s->s0 + 1;
    int64_t Rs = old_rows < TD_FAR_MAX_ROWS ? old_rows : TD_FAR_MAX_ROWS;
    int64_t old_idx[TD_FAR_MAX_ROWS], src[TD_FAR_MAX_ROWS];
    for (int64_t r = 0; r < R; r++) old_idx[r] = td_geti(c, idx, (size_t)r);
    is_far_rerank(c, idx, R, old_rows, Rs, src);
    int64_t S = td_far_stride(p, R, w);
    const int regs[2] = {own, via};
    const int64_t rows[2] = {R, Rs}, *const map[2] = {NULL, src};
    if (is_far_move(c, 2, regs, rows, map, w, s->s0, S)) {
        for (int64_t r = 0; r < R; r++) td_seti(c, idx, (size_t)r, old_idx[r]); /* as it was */
        return 0;
    }
    s->n_idx = R, s->s0 = S;
    is_set_grid(c, s);
    is_far_idx_classes(c, idx, R, Rs, scatter);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return Rs;
}

/* The elements of region reg all finite (a sparse region: its touched pages only). */
static inline int is_finite_region(const td_case *c, int reg) { return td_region_abs_le(c, reg, DBL_MAX); }

#endif
