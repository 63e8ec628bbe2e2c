/* Launch shapes shared by the elementwise contracts (vector_addition*, relu_triton_kernel,
 * sin_computation, cosine_compute, fused_activation, dropout_triton, masked_add_cuda: the
 * flat 1-D launch; square_matrix, geglu_tanh_triton, swiglu_triton, swiglu_fwd,
 * swiglu_backward: row-strided launches).  Included by contract files only, in their
 * non-spec part.
 *
 * Flat launch: lane (pid, j) addresses pid * BLOCK + j, mask pid * BLOCK + j < n.
 * gen.h's td_flat_shape always launches cdiv(n, BLOCK) programs and n >= 1; the Triton
 * wrappers of this family also launch an EMPTY tensor (vector_addition_custom's test
 * adds two empty vectors: grid 0) and SURPLUS programs (sin_computation launches
 * n_elements programs of 4 lanes, so all but the first cdiv(n, 4) are fully masked).
 *
 * Row launch: program (row, colblock) = (pid0, pid1) handles columns pid1 * BLOCK + j,
 * mask pid1 * BLOCK + j < ncols, and addresses row * stride + column in every region
 * (one stride per region).  The 1-D row kernels (square_matrix, geglu, swiglu_triton)
 * are the grid[1] = 1 case: their mask is j < n_cols and columns j >= BLOCK are never
 * touched (geglu's wrapper fixes BLOCK = 128 whatever n_cols is).  Strides are chosen
 * so that the write addresses are injective: stride >= the active width
 * min(colblocks * BLOCK, ncols) whenever there is more than one row. */
#ifndef TD_ELEMENTWISE_COMMON_H
#define TD_ELEMENTWISE_COMMON_H

#include "gen.h"
#include "gen_far.h"

/* ---- the flat 1-D launch ---- */
enum { EW_EMPTY = 1u, EW_SURPLUS = 2u };

/* BLOCK a power of two up to 2^max_log2_block, n by td_gen_count0 (0 allowed with
 * EW_EMPTY), grid cdiv(n, BLOCK) or, with EW_SURPLUS, sometimes more programs (a few
 * extra, or one per element as sin_computation's wrapper launches).  Every region in
 * regs holds n elements plus sometimes some slack. */
static inline void ew_flat_shape(td_producer *p, td_case *c, int p_n, int p_block, int max_log2_block,
                                 uint64_t max_n, const int *regs, int nregs, unsigned opts) {
    uint64_t B = td_gen_pow2(p, 0, max_log2_block);
    uint64_t n = td_gen_count0(p, B, max_n, &c->classes, (opts & EW_EMPTY) != 0);
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)B) : 0;
    uint64_t programs = (n + B - 1) / B;
    if ((opts & EW_SURPLUS) && td_prod_bool(p)) {
        /* a few extra programs, or one program per element (capped to keep cases small) */
        uint64_t more = td_prod_bool(p) || n * B > (1u << 18) ? td_prod_u32(p, 1, 3) : (n > programs ? n - programs : 1);
        programs += more;
        c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* whole programs masked off */
        if (programs > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
        c->classes &= ~TD_BC(TD_BC_ONE_PROGRAM);
    }
    if (n == 0 && td_prod_bool(p)) programs = 1; /* an empty tensor on one (fully masked) program */
    c->p[p_n].i = (int64_t)n;
    c->p[p_block].i = (int64_t)B;
    c->grid[0] = (uint32_t)programs;
    for (int r = 0; r < nregs; r++) td_case_alloc(c, regs[r], n + slack);
}

#define EW_BCLASSES_FLAT (TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED))

/* ---- row launches ---- */
typedef struct ew_rows {
    int64_t rows;     /* grid[0] */
    int64_t ncols;    /* n_cols / ncols */
    int64_t B;        /* BLOCK */
    int64_t cblocks;  /* grid[1] (1 for the 1-D row kernels) */
    int64_t active;   /* columns any lane writes: min(cblocks * B, ncols) */
} ew_rows;

/* Shape of a row launch.  two_d: a grid of (rows, column blocks), else one program per
 * row.  1-D: ncols from td_gen_count around BLOCK (mostly BLOCK/2 < ncols <= BLOCK as
 * next_power_of_2 wrappers give, also ncols > BLOCK: columns past BLOCK untouched).
 * 2-D: ncols around multiples of BLOCK, cdiv(ncols, BLOCK) column blocks, sometimes one
 * surplus (fully masked) block.  rows * active stays below max_lanes. */
static inline ew_rows ew_rows_shape(td_producer *p, td_case *c, int two_d, int max_log2_block, int64_t max_cols,
                                    int64_t max_rows, int64_t max_lanes) {
    ew_rows s;
    s.B = td_gen_pow2(p, 0, max_log2_block);
    uint64_t cap = two_d ? (uint64_t)max_cols : (uint64_t)(2 * s.B + 1 < max_cols ? 2 * s.B + 1 : max_cols);
    s.ncols = (int64_t)td_gen_count(p, (uint64_t)s.B, cap, &c->classes);
    s.cblocks = two_d ? (s.ncols + s.B - 1) / s.B : 1;
    if (two_d && td_prod_u32(p, 0, 5) == 0) {
        s.cblocks++; /* a surplus column block: fully masked */
        c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    }
    s.active = s.cblocks * s.B < s.ncols ? s.cblocks * s.B : s.ncols;
    int64_t maxr = max_lanes / (s.active > 0 ? s.active : 1);
    if (maxr > max_rows) maxr = max_rows;
    if (maxr < 1) maxr = 1;
    static const unsigned w[3] = {3, 2, 5};
    switch (td_prod_pick(p, w, 3)) {
    case 0: s.rows = 1; break;
    case 1: s.rows = maxr < 2 ? 1 : 2; break;
    default: s.rows = (int64_t)td_prod_u32(p, 1, (uint32_t)maxr); break;
    }
    /* td_gen_count marked ONE_PROGRAM / MULTI_TILE for the columns; the grid is rows x cblocks */
    c->classes &= ~(TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_SINGLE_LANE));
    if (s.rows * s.cblocks == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    else c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (s.rows == 1 && s.active == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    c->grid[0] = (uint32_t)s.rows;
    c->grid[1] = (uint32_t)s.cblocks;
    return s;
}

/* A row stride for a region: contiguous (ncols), a chunk view (2 * ncols: x and y of
 * swiglu's xy.chunk(2) share one buffer), padding, the tightest injective stride (the
 * active width), and anything at all for a single row (pid 0 never multiplies it). */
static inline int64_t ew_row_stride(td_producer *p, td_case *c, const ew_rows *s) {
    int64_t st;
    switch (td_prod_u32(p, 0, 5)) {
    case 0: st = s->ncols; break;
    case 1: st = 2 * s->ncols; break;
    case 2: st = s->ncols + (int64_t)td_prod_u32(p, 1, 64); break;
    case 3: st = s->active; break;
    case 4: st = s->rows == 1 ? (int64_t)td_prod_u32(p, 0, 3) : s->ncols; break;
    default: st = s->ncols + (int64_t)td_prod_u32(p, 1, (uint32_t)s->ncols); break;
    }
    if (s->rows > 1 && st < s->active) st = s->active;
    if (st > s->ncols && s->rows > 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return st;
}

/* Elements a row-strided region needs: every row's ncols cells, plus slack. */
static inline size_t ew_row_len(td_producer *p, const ew_rows *s, int64_t stride) {
    size_t len = (size_t)((s->rows - 1) * stride + s->ncols);
    return len + (td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0);
}

/* Preconditions every row launch shares: BLOCK > 0, the grid is (rows, cblocks), each
 * region's windows lie inside it, and the write windows are injective. */
static inline const char *ew_rows_check(const td_case *c, int64_t ncols, int64_t B, int nregs, const int *regs,
                                        const int64_t *strides, int nouts) {
    if (B <= 0) return "0 < BLOCK (a Triton constexpr block)";
    if (ncols < 0) return "n_cols : Nat";
    int64_t rows = c->grid[0], cb = c->grid[1];
    int64_t active = cb * B < ncols ? cb * B : ncols;
    for (int r = 0; r < nregs; r++) {
        if (strides[r] < 0) return "row strides : Nat";
        if (rows > 0 && active > 0 && (int64_t)c->r[regs[r]].len < (rows - 1) * strides[r] + active)
            return "every row window pid0 * stride + [0, active columns) lies inside its region";
        if (r < nouts && rows > 1 && strides[r] < active)
            return "write windows injective: an output row stride >= the active width";
    }
    return NULL;
}

/* One lane per active (pid0, pid1, j) and output o < nouts: region outs[o], offset
 * pid0 * strides[o] + column; idx = {row, column}. */
static inline void ew_rows_writes(const td_case *c, td_wset *ws, int64_t ncols, int64_t B, int nouts, const int *outs,
                                  const int64_t *strides) {
    for (uint32_t r = 0; r < c->grid[0]; r++)
        for (uint32_t cb = 0; cb < c->grid[1]; cb++)
            for (int64_t j = 0; j < B; j++) {
                int64_t col = (int64_t)cb * B + j;
                if (col >= ncols) break; /* mask: pid1 * BLOCK + j < ncols */
                for (int o = 0; o < nouts; o++) {
                    td_olane l = {.o = (uint32_t)o, .region = (uint32_t)outs[o],
                                  .off = (uint64_t)((int64_t)r * strides[o] + col), .pid = {r, cb, 0},
                                  .j = (uint64_t)j, .idx = {r, col}};
                    td_wset_add(ws, &l);
                }
            }
}

/* Offsets beyond 2^31 (gen_far.h) for a row launch: up to TD_FAR_MAX_ROWS rows of each
 * read-only region regs[k] (stride parameter pstride[k]) at one row stride near 2^31
 * over a sparse mapping, as a kernel forming pid0 * stride in int32 gets wrong; the
 * outputs keep their strides (their cells stay dense and checked).  An input left in
 * place (no address space) still holds its first rows.  ncols, B: the launch's columns
 * and BLOCK.  1 when moved. */
static inline int ew_rows_far(td_producer *p, td_case *c, int64_t ncols, int64_t B, int nin, const int *regs,
                              const int *pstride) {
    int64_t R = c->grid[0], moved = 0;
    int64_t active = (int64_t)c->grid[1] * B < ncols ? (int64_t)c->grid[1] * B : ncols;
    if (R < 2 || active <= 0) return 0; /* one row, or nothing read */
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, active);
    for (int k = 0; k < nin; k++)
        if (!td_far_restride(c, regs[k], R, active, c->p[pstride[k]].i, s)) c->p[pstride[k]].i = s, moved++;
    if (!moved) return 0;
    c->grid[0] = (uint32_t)R;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
    return 1;
}

/* the 2-D row launches (surplus column blocks are fully masked) and the 1-D ones */
#define EW_BCLASSES_ROWS (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED))
#define EW_BCLASSES_ROWS1D (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW))

#endif
