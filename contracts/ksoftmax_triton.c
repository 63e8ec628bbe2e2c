/* ksoftmax_triton.ksoftmax_forward_plain_correctness  (catalogue part 2)
 *
 *   ksoftmaxIO Y X stride_ym stride_yn stride_xm stride_xn K DEPTH ⊨
 *       fun _ _ xs k => ksoftmaxSpec K DEPTH xs k                    (hD : 0 < DEPTH)
 *   Masked2DKernelIO₁, grid (m, n): read = m*stride_xm + n*stride_xn + j,
 *   write = m*stride_ym + n*stride_yn + j, mask j < K, B = DEPTH.
 *
 * The Triton kernel (bench/tritonbench_g/ksoftmax_triton, xformers' fused softmax):
 * _softmax with LOG = False, MASK_TYPE = None, CAUSAL = False and a binary32 Y
 * (IS_FP16 = False): the plain forward branch the Lean file transcribes as
 * ksoftmax_forward_plain.  Program (m, n) loads the row at X + m*stride_xm + n*stride_xn
 * (other = -inf), z = x - tl.max(x), num = exp(z), y = num / tl.sum(num), store j < K.
 * ksoftmaxSpec (KsoftmaxTriton.lean) is the ⊥-padded tile softmax: reduceMax, exp,
 * reduceSum, division, i.e. the catalogue's reading over w = min(K, DEPTH) lanes (the
 * host's DEPTH = next_power_of_2(K) makes it all K; the contract allows DEPTH < K, and
 * then the kernel reduces and writes the first DEPTH lanes only).
 *
 * Error model: the family's tile softmax (softmax_common.h).
 *
 * Special values (TD_SV_REAL): exp(x - max) <= 1, the sum >= 1; K = 0 writes
 * nothing.  Input strides may be 0 or below the row (rows read twice); the output
 * strides are a row-major [m, n, w] or transposed [n, m, w] layout with gaps, so
 * distinct programs write distinct cells.
 */
#include "gen_far.h"
#include "softmax_common.h"

enum { P_SYM, P_SYN, P_SXM, P_SXN, P_K, P_DEPTH, NP };
enum { R_Y, R_X, NR };

#define TD_SPEC_FILE "ksoftmax_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"stride_ym", TD_P_INT}, {"stride_yn", TD_P_INT}, {"stride_xm", TD_P_INT},
                                         {"stride_xn", TD_P_INT}, {"K", TD_P_INT},         {"DEPTH", TD_P_INT}};
static const td_region_decl regions[NR] = {{"Y", TD_F32, TD_R_OUT}, {"X", TD_F32, TD_R_IN}};

static void gen(td_producer *p, td_case *c) {
    int64_t D = td_gen_pow2(p, 0, 12);
    int64_t K = sm_gen_cols(p, D, 2 * D + 3, 1, &c->classes), w = K < D ? K : D;
    if (K > D) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    int64_t rows = sm_max_rows(w, 24), gm = td_prod_u32(p, 1, 4), gn = td_prod_u32(p, 1, 6);
    while (gm * gn > rows && gn > 1) gn--;
    while (gm * gn > rows && gm > 1) gm--;
    c->grid[0] = (uint32_t)gm;
    c->grid[1] = (uint32_t)gn;
    if (gm * gn == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    /* output: row-major [m, n, .] or transposed [n, m, .], rows of W >= w cells */
    int64_t W = w + (td_prod_bool(p) ? 0 : td_prod_u32(p, 1, 8)), gap = td_prod_bool(p) ? 0 : td_prod_u32(p, 1, 8);
    if (W > w) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    int64_t sym, syn;
    if (td_prod_u32(p, 0, 3)) syn = W, sym = gn * W + gap;
    else sym = W, syn = gm * W + gap;
    /* input: the realistic [m, n, K] layout, an arbitrary one, or broadcast rows */
    int64_t sxm, sxn;
    switch (td_prod_u32(p, 0, 3)) {
    case 0: sxn = K, sxm = gn * K; break;
    case 1: sxn = sm_gen_stride(p, K, 1, &c->classes), sxm = sm_gen_stride(p, K, 1, &c->classes); break;
    case 2: sxn = 0, sxm = K + td_prod_u32(p, 0, 4); break;
    default: sxn = K + td_prod_u32(p, 0, 4), sxm = 0; break;
    }
    c->p[P_SYM].i = sym, c->p[P_SYN].i = syn, c->p[P_SXM].i = sxm, c->p[P_SXN].i = sxn;
    c->p[P_K].i = K, c->p[P_DEPTH].i = D;
    int64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0;
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    td_case_alloc(c, R_X, (size_t)((gm - 1) * sxm + (gn - 1) * sxn + K + slack));
    sm_fill_all(&v, c, R_X);
    for (int64_t m = 0; m < gm; m++)
        for (int64_t n = 0; n < gn; n++) sm_fill_row(&v, c, R_X, (uint64_t)(m * sxm + n * sxn), 1, w);
    td_case_alloc(c, R_Y, (size_t)((gm - 1) * sym + (gn - 1) * syn + w + slack));
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS programs along m (grid (R, 1):
 * n = 0 only) reading rows at a stride_xm near 2^31 over a sparse X, as a kernel that
 * forms m * stride_xm in int32 gets wrong (xformers' X + m*stride_xm + n*stride_xn);
 * Y keeps its layout (row m at m*stride_ym, disjoint for either of its layouts). */
static void far(td_producer *p, td_case *c) {
    int64_t K = c->p[P_K].i, D = c->p[P_DEPTH].i, w = K < D ? K : D, R = c->grid[0];
    if (R < 2 || w <= 0) return; /* one row along m, or nothing read */
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_X, R, w, c->p[P_SXM].i, s)) return;
    c->grid[0] = (uint32_t)R, c->grid[1] = 1;
    c->p[P_SXM].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    int64_t sym = c->p[P_SYM].i, syn = c->p[P_SYN].i, sxm = c->p[P_SXM].i, sxn = c->p[P_SXN].i;
    int64_t K = c->p[P_K].i, D = c->p[P_DEPTH].i, gm = c->grid[0], gn = c->grid[1];
    if (D <= 0) return "hD: 0 < DEPTH";
    if (K < 0 || sym < 0 || syn < 0 || sxm < 0 || sxn < 0) return "the strides and K are Nat";
    int64_t w = K < D ? K : D;
    if (w == 0) return NULL;
    if ((gm - 1) * sxm + (gn - 1) * sxn + w > (int64_t)c->r[R_X].len) return "X holds every active lane's read";
    if ((gm - 1) * sym + (gn - 1) * syn + w > (int64_t)c->r[R_Y].len) return "Y holds every active lane's write";
    /* distinct programs write distinct cells: one of the two layouts the generator uses */
    int rowmajor = (gn == 1 || syn >= w) && (gm == 1 || sym >= (gn - 1) * syn + w);
    int transposed = (gm == 1 || sym >= w) && (gn == 1 || syn >= (gm - 1) * sym + w);
    if (!rowmajor && !transposed) return "distinct programs write distinct cells (disjoint output rows)";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t sym = c->p[P_SYM].i, syn = c->p[P_SYN].i, K = c->p[P_K].i, D = c->p[P_DEPTH].i;
    for (uint32_t m = 0; m < c->grid[0]; m++)
        for (uint32_t n = 0; n < c->grid[1]; n++)
            for (int64_t j = 0; j < D && j < K; j++) {
                td_olane l = {.region = R_Y, .off = (uint64_t)(m * sym + n * syn + j), .pid = {m, n, 0},
                              .j = (uint64_t)j, .idx = {m, n, j}};
                td_wset_add(ws, &l);
            }
}

static const td_intent intent = {
    .operation = "softmax of each row over its K entries",
    .definition = "torch.softmax(x, dim=-1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent),
};

const td_contract td_c_ksoftmax = {
    .id = "ksoftmax_triton.ksoftmax_forward_plain_correctness",
    .file = "ksoftmax_triton",
    .family = "softmax",
    .io_class = "Masked2DKernelIO_1 (ksoftmaxIO), grid (m, n)",
    .kind = "exact",
    .formula = "Y[m*sym + n*syn + k] = exp(x[k] - max_j x[j]) / sum_j exp(x[j] - max), j < min(K, DEPTH), "
               "x = X[m*sxm + n*sxn + .]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; K = 0 writes nothing",
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(ksoftmax),
    .intent = &intent,
};
