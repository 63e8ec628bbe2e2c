/* matrix_transpose.kernel_correctness  (catalogue part 2)
 *
 *   (hOutInj : Function.Injective (fun idx : TileIndex [D_HEAD, SIZE_M] =>
 *                                    outAddr out_stridex out_stridey idx)) :
 *   transposeIO M Out matrix_stridex matrix_stridey out_stridex out_stridey SIZE_M D_HEAD
 *       ⊨ fun _ _ xs j => xs j
 *   Masked2DKernelIO₁, B = D_HEAD * SIZE_M, mask = True,
 *   lane j = (d, m) = (j / SIZE_M, j % SIZE_M) (Lane2D.decode, row-major over [D_HEAD, SIZE_M]),
 *   read  = matrixAddr idx = m * matrix_stridex + d * matrix_stridey,
 *   write = outAddr idx    = d * out_stridex + m * out_stridey
 *
 * Kernel (bench/tritonbench_g/matrix_transpose/matrix_transpose.py): a single program
 * (the wrapper launches grid (1,): every program would write the same cells) loads the
 * SIZE_M x D_HEAD tile at M + m * stridex + d * stridey, and stores tl.trans of it to
 * Out + d * out_stridex + m * out_stridey.  SIZE_M and D_HEAD are constexpr aranges:
 * powers of two.  The wrapper's tensors are float16 (matrix randn fp16, out zeros fp16),
 * so both regions are binary16 here; the contract erases the dtype and the transpose
 * moves values unchanged: bit-exact (tolerance 0).  All transposition lives in the
 * windows, which the write set and the spec's read address transcribe.
 *
 * Generator: input layouts row-major, column-major, padded, broadcast (a stride 0:
 * reads need no injectivity) and arbitrary small strides; output strides from the two
 * mixed-radix families (row-major / column-major, padded, "strides larger than the
 * row") and arbitrary small pairs kept only when the explicit hOutInj check (all
 * D_HEAD * SIZE_M addresses distinct) accepts them.
 */
#include "gen.h"
#include "gen_far.h"

#include <stdlib.h>

enum { P_MSX, P_MSY, P_OSX, P_OSY, P_SIZE_M, P_D_HEAD, NP };
enum { R_M, R_OUT, NR };

#define TD_SPEC_FILE "matrix_transpose.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"matrix_stridex", TD_P_INT}, {"matrix_stridey", TD_P_INT},
                                         {"out_stridex", TD_P_INT},    {"out_stridey", TD_P_INT},
                                         {"SIZE_M", TD_P_INT},         {"D_HEAD", TD_P_INT}};
static const td_region_decl regions[NR] = {{"M", TD_F16, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* hOutInj: the D_HEAD * SIZE_M output addresses are pairwise distinct. */
static int out_injective(int64_t osx, int64_t osy, int64_t SM, int64_t DH) {
    int64_t *a = malloc((size_t)(SM * DH) * sizeof *a);
    if (!a) abort();
    for (int64_t d = 0; d < DH; d++)
        for (int64_t m = 0; m < SM; m++) a[d * SM + m] = d * osx + m * osy;
    qsort(a, (size_t)(SM * DH), sizeof *a, cmp_i64);
    int ok = 1;
    for (int64_t i = 1; i < SM * DH && ok; i++) ok = a[i] != a[i - 1];
    free(a);
    return ok;
}

static void gen(td_producer *p, td_case *c) {
    int64_t SM = td_gen_pow2(p, 0, 6), DH = td_gen_pow2(p, 0, 6);
    int64_t msx, msy, osx, osy;
    switch (td_prod_u32(p, 0, 4)) {
    case 0: msx = DH, msy = 1; break;                                   /* row-major, the wrapper's */
    case 1: msx = 1, msy = SM; break;                                   /* column-major */
    case 2: msx = DH + td_prod_u32(p, 1, 9), msy = 1; break;            /* padded rows */
    case 3: msx = td_prod_u32(p, 0, 1) ? 0 : DH, msy = msx ? 0 : 1; break; /* broadcast along one axis */
    default: msx = td_prod_u32(p, 0, 9), msy = td_prod_u32(p, 0, 9); break;
    }
    switch (td_prod_u32(p, 0, 4)) {
    case 0: osx = SM, osy = 1; break; /* the wrapper's contiguous (D_HEAD, SIZE_M) out */
    case 1: osy = td_prod_u32(p, 1, 3), osx = (SM - 1) * osy + 1 + td_prod_u32(p, 0, 9); break;
    case 2: osx = td_prod_u32(p, 1, 3), osy = (DH - 1) * osx + 1 + td_prod_u32(p, 0, 9); break;
    default:
        osx = td_prod_u32(p, 0, 12), osy = td_prod_u32(p, 0, 12);
        if (!out_injective(osx, osy, SM, DH)) osx = SM, osy = 1;
        break;
    }
    if (osx > SM || osy > DH) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (msx == 0 || msy == 0) c->classes |= TD_BC(TD_BC_META_EXTREME);
    c->p[P_MSX].i = msx, c->p[P_MSY].i = msy, c->p[P_OSX].i = osx, c->p[P_OSY].i = osy;
    c->p[P_SIZE_M].i = SM, c->p[P_D_HEAD].i = DH;
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    td_gen_mark_shape((uint64_t)(SM * DH), (uint64_t)(SM * DH), 1, &c->classes);
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0;
    td_case_alloc(c, R_M, (size_t)((SM - 1) * msx + (DH - 1) * msy + 1 + (int64_t)slack));
    td_case_alloc(c, R_OUT, (size_t)((DH - 1) * osx + (SM - 1) * osy + 1 + (int64_t)slack));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 65504);
    td_vgen_fill(&g, c, R_M);
}

/* Offsets beyond 2^31 (gen_far.h): the tile's first rows (SIZE_M cut to 2 or 4, a power
 * of two as tl.arange needs; the smaller output tile stays injective) at a
 * matrix_stridex near 2^31 over a sparse region, as the kernel's m[:, None] *
 * matrix_stridex, int32 arithmetic in Triton, gets wrong.  Only a row-major M
 * (matrix_stridey = 1, matrix_stridex at least a row); Out stays dense. */
static void far(td_producer *p, td_case *c) {
    int64_t SM = c->p[P_SIZE_M].i, DH = c->p[P_D_HEAD].i, msx = c->p[P_MSX].i;
    int64_t R = SM < TD_FAR_MAX_ROWS ? SM : TD_FAR_MAX_ROWS;
    if (c->p[P_MSY].i != 1 || R < 2 || msx < DH) return;
    int64_t s = td_far_stride(p, R, DH);
    if (td_far_restride(c, R_M, R, DH, msx, s)) return;
    c->p[P_SIZE_M].i = R, c->p[P_MSX].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    int64_t SM = c->p[P_SIZE_M].i, DH = c->p[P_D_HEAD].i;
    int64_t msx = c->p[P_MSX].i, msy = c->p[P_MSY].i, osx = c->p[P_OSX].i, osy = c->p[P_OSY].i;
    if (SM <= 0 || DH <= 0 || (SM & (SM - 1)) || (DH & (DH - 1)))
        return "SIZE_M, D_HEAD: tl.arange extents (positive powers of two)";
    if (msx < 0 || msy < 0 || osx < 0 || osy < 0) return "strides : Nat";
    if (c->grid[0] != 1 || c->grid[1] != 1 || c->grid[2] != 1) return "one program (every program writes the same tile)";
    if ((int64_t)c->r[R_M].len < (SM - 1) * msx + (DH - 1) * msy + 1) return "M holds the read window";
    if ((int64_t)c->r[R_OUT].len < (DH - 1) * osx + (SM - 1) * osy + 1) return "Out holds the write window";
    if (!out_injective(osx, osy, SM, DH)) return "hOutInj: outAddr injective on [D_HEAD, SIZE_M]";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t SM = c->p[P_SIZE_M].i, DH = c->p[P_D_HEAD].i, osx = c->p[P_OSX].i, osy = c->p[P_OSY].i;
    for (int64_t j = 0; j < SM * DH; j++) {
        int64_t d = j / SM, m = j % SM; /* Lane2D.decode */
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(d * osx + m * osy), .j = (uint64_t)j, .idx = {d, m}};
        td_wset_add(ws, &l);
    }
}

/* Out[d, m] = M[m, d] of the SIZE_M x D_HEAD view of M (its strides) into the D_HEAD x
 * SIZE_M view of Out: a transpose moves values unchanged. */
static const td_intent intent = {
    .operation = "the transpose Out[d, m] = M[m, d] of the SIZE_M x D_HEAD strided view of M",
    .definition = "torch.transpose(x, 0, 1) / x.T (PyTorch documentation): out[j, i] = x[i, j], values unchanged",
    TD_SPECS(transpose),
};

const td_contract td_c_matrix_transpose = {
    .id = "matrix_transpose.kernel_correctness",
    .file = "matrix_transpose",
    .family = "elementwise",
    .io_class = "Masked2DKernelIO_1 (transposeIO, 2-D lane decode)",
    .kind = "exact",
    .formula = "Out[d*out_stridex + m*out_stridey] = M[m*matrix_stridex + d*matrix_stridey]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite fp16 values moved unchanged",
    .error_model = "a copy: bit-exact (tolerance 0)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(transpose),
    .intent = &intent,
};
