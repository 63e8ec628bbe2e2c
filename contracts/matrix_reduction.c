/* matrix_reduction (catalogue part 2, src lines 7452-7485)
 *
 *   load_reduce_kernel_output_summary: Realizes_without_Rounding (load_reduce_kernel x y
 *     stride_xm stride_xn stride_y BLOCK_M BLOCK_N), write i -> y[i] for i < BLOCK_M,
 *     expected matrixReduceSpec = max_{j < BLOCK_N} x[i*stride_xm + j*stride_xn]
 *   matrix_reduction_io_correctness: MaskedTileKernelIO_1 (matrixReduceIO), shape
 *     [BLOCK_M, BLOCK_N], read = xOffset = r*stride_xm + c*stride_xn, write = idx.1 (the row),
 *     mask True, writeMask idx.2 = 0; hBN: 0 < BLOCK_N: y[i] = max of row i of the tile.
 *
 * Checked against bench/tritonbench_g/matrix_reduction (.py and MatrixReduction.lean):
 * one program loads the whole [BLOCK_M, BLOCK_N] tile through make_block_ptr (shape =
 * block shape, no boundary) and stores tl.max(x, axis=1) to y + arange(BLOCK_M);
 * stride_y is accepted and unused (the store is contiguous), as both readings say.
 * Layouts drawn: row-major (padded rows), column-major (stride_xm = 1), broadcast rows
 * (stride_xm = 0), broadcast columns (stride_xn = 0: all-equal rows), strided; stride_y
 * is 1 or not (it must not matter).
 *
 * Error model: a maximum is one of its inputs: exact, tolerance 0.  Every lane of the
 * tile is valid (no masking), so no empty reduction; inputs are finite binary32 values
 * of any magnitude, all-negative rows and repeated maxima drawn.  BLOCK_M, BLOCK_N are
 * powers of two (tl.arange / block shapes), the output_summary's BLOCK_N = 0 therefore
 * never arises.
 */
#include <float.h>

#include "reduce_common.h"

enum { P_SXM, P_SXN, P_SY, P_BM, P_BN, NP };
enum { R_X, R_Y, NR };

#define TD_SPEC_FILE "matrix_reduction.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"stride_xm", TD_P_INT}, {"stride_xn", TD_P_INT}, {"stride_y", TD_P_INT},
                                         {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions[NR] = {{"x_ptr", TD_F32, TD_R_IN}, {"y_ptr", TD_F32, TD_R_OUT}};

static int64_t max3(int64_t a, int64_t b, int64_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

static void gen(td_producer *p, td_case *c) {
    int64_t BM = td_gen_pow2(p, 0, 6), BN = td_gen_pow2(p, 0, 8), sxm, sxn;
    int64_t pad = td_prod_u32(p, 0, 3);
    switch (td_prod_u32(p, 0, 5)) {
    case 0: sxm = 1; sxn = BM + pad; break;                      /* column-major */
    case 1: sxm = 0; sxn = 1; c->classes |= TD_BC(TD_BC_VALUES_SPECIAL); break; /* one row, broadcast */
    case 2: sxm = BN + pad; sxn = 0; c->classes |= TD_BC(TD_BC_VALUES_SPECIAL); break; /* all-equal rows */
    case 3: sxm = 2 * BN + pad; sxn = 2; break;                  /* strided */
    default: sxm = BN + pad; sxn = 1; break;                     /* row-major */
    }
    if (sxm > BN * (sxn ? sxn : 1)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[P_SXM].i = sxm;
    c->p[P_SXN].i = sxn;
    c->p[P_SY].i = td_prod_bool(p) ? 1 : 1 + td_prod_u32(p, 1, 4);
    c->p[P_BM].i = BM;
    c->p[P_BN].i = BN;
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    /* the tile, and room for the rows read through other stride orders (a view into a
     * larger tensor: the mutants that misuse the strides read inside it) */
    int64_t len = max3((BM - 1) * sxm + (BN - 1) * sxn, (BM - 1) * sxn + (BN - 1) * sxm, (BM - 1) * sxm + BN - 1) + 1;
    td_case_alloc(c, R_X, (size_t)len);
    td_case_alloc(c, R_Y, (size_t)BM + (td_prod_bool(p) ? (size_t)BM : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    rc_fill_max(&g, c, R_X);
    if (BM == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

/* Offsets beyond 2^31 (gen_far.h): at most TD_FAR_MAX_ROWS rows of the tile (BLOCK_M
 * cut to a smaller power of two) at a stride_xm near 2^31 over a sparse x (stride_xn
 * kept), as a tile offset r * stride_xm formed in int32 gets wrong.  The original's
 * make_block_ptr widens the strides to int64, so no int32-offset mutant here. */
static void far(td_producer *p, td_case *c) {
    int64_t BM = c->p[P_BM].i, BN = c->p[P_BN].i, sxn = c->p[P_SXN].i;
    if (BM < 2) return; /* one row: no row offset to move */
    int64_t R = BM < TD_FAR_MAX_ROWS ? BM : TD_FAR_MAX_ROWS, w = (BN - 1) * sxn + 1;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_X, R, w, c->p[P_SXM].i, s)) return;
    c->p[P_BM].i = R;
    c->p[P_SXM].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    int64_t BM = c->p[P_BM].i, BN = c->p[P_BN].i, sxm = c->p[P_SXM].i, sxn = c->p[P_SXN].i;
    if (!(BN > 0)) return "hBN: 0 < BLOCK_N";
    if (BM <= 0 || (BM & (BM - 1)) || (BN & (BN - 1))) return "BLOCK_M, BLOCK_N powers of two (block shapes)";
    if (sxm < 0 || sxn < 0 || c->p[P_SY].i < 0) return "strides : Nat";
    if (c->r[R_X].len < (size_t)((BM - 1) * sxm + (BN - 1) * sxn + 1)) return "x_ptr holds the tile";
    if (c->r[R_Y].len < (size_t)BM) return "y_ptr holds BLOCK_M";
    if (c->grid[0] != 1 || c->grid[1] != 1 || c->grid[2] != 1) return "one program (grid (1,))";
    /* |v| <= DBL_MAX: finite; td_region_abs_le scans only the written pages of a sparse x */
    if (!td_region_abs_le(c, R_X, DBL_MAX)) return "x holds real (finite) values";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    for (int64_t i = 0; i < c->p[P_BM].i; i++) {
        td_olane l = {.o = 0, .region = R_Y, .off = (uint64_t)i, .j = (uint64_t)(i * c->p[P_BN].i), .idx = {i}};
        td_wset_add(ws, &l);
    }
}

#define MATRIX_COMMON                                                                                              \
    .file = "matrix_reduction", .family = "reduction", .kind = "exact",                                            \
    .formula = "y[i] = max_{j < BLOCK_N} x[i*stride_xm + j*stride_xn], i < BLOCK_M", .nparams = NP,                \
    .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_REAL,                                         \
    .sv_note = "no masking: every reduction is over BLOCK_N >= 1 finite values",                                   \
    .error_model = "a maximum is one of its inputs: exact (tolerance 0)",                                           \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_STRIDE_GT_ROW) |                  \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),                  \
    .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(rowmax), .intent = &intent

static const td_intent intent = {
    .operation = "the maximum of each of the BLOCK_M rows of x over its BLOCK_N columns",
    .definition = "torch.amax(x, dim=1) (PyTorch documentation: the maximum of each row)",
    TD_SPECS(rowmax_intent),
};

const td_contract td_c_matrix_reduce_summary = {
    .id = "matrix_reduction.load_reduce_kernel_output_summary",
    .io_class = "Realizes_without_Rounding (write i -> y[i], i < BLOCK_M)",
    MATRIX_COMMON,
};
const td_contract td_c_matrix_reduce_io = {
    .id = "matrix_reduction.matrix_reduction_io_correctness",
    .io_class = "MaskedTileKernelIO_1 (matrixReduceIO, writeMask idx.2 = 0)",
    MATRIX_COMMON,
};
