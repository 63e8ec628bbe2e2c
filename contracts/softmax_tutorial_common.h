/* The contract softmax_kernel_correctness as softmax_triton1.c and softmax_triton2.c
 * state it: the two catalogue files hold the Triton tutorial's fused softmax token for
 * token and the same softmaxIO statement, so their parameters, regions, generator,
 * checker, write set, contract fields and spec live here; each file keeps its header
 * comment (the statement and its reading), its id and .file.  Such a file includes
 * this header only: it instantiates softmax_tutorial_common.spec.h itself.
 */
#include "gen_far.h"
#include "softmax_common.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK, NP };
enum { R_OUT, R_IN, NR };

#define TD_SPEC_FILE "softmax_tutorial_common.spec.h"
#include "spec_instantiate.h"
/* the batched verdict path (engine/harness.c judge_run): the spec lane after lane in one
 * loop (spec_instantiate.h); a lane's shadow is a division of its row's memoised term by
 * the memoised sum, so judge_lane's per-lane rules were a fifth of the oracle */
TD_SPEC_RUN_DEFINE(softmax_tut)

static const td_param_decl params[NP] = {
    {"input_row_stride", TD_P_INT}, {"output_row_stride", TD_P_INT}, {"n_cols", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"output_ptr", TD_F32, TD_R_OUT}, {"input_ptr", TD_F32, TD_R_IN}};

static void gen(td_producer *p, td_case *c) {
    sm_rows s;
    sm_gen_rows(p, c, &s, 0);
    c->p[P_IN_STRIDE].i = s.sin;
    c->p[P_OUT_STRIDE].i = s.sout;
    c->p[P_NCOLS].i = s.n;
    c->p[P_BLOCK].i = s.B;
    int64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0;
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    sm_alloc_fill_rows(&v, c, R_IN, &s, slack);
    td_case_alloc(c, R_OUT, (size_t)((s.R - 1) * s.sout + s.w + slack));
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS input rows at a row stride
 * near 2^31 over a sparse region, as a kernel that forms pid * input_row_stride in
 * int32 gets wrong; the output keeps its stride (its cells stay dense and checked). */
static void far(td_producer *p, td_case *c) {
    int64_t n = c->p[P_NCOLS].i, B = c->p[P_BLOCK].i, w = n < B ? n : B, R = c->grid[0];
    if (R < 2 || w <= 0) return; /* one row, or nothing read: no offset to move */
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_IN, R, w, c->p[P_IN_STRIDE].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[P_IN_STRIDE].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    return sm_rows_check(c, c->p[P_BLOCK].i, c->p[P_NCOLS].i, c->p[P_IN_STRIDE].i, c->p[P_OUT_STRIDE].i, R_IN,
                         R_OUT);
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t B = c->p[P_BLOCK].i, n = c->p[P_NCOLS].i, so = c->p[P_OUT_STRIDE].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n; j++) {
            td_olane l = {.region = R_OUT, .off = (uint64_t)(pid * so + j), .pid = {pid, 0, 0}, .j = (uint64_t)j,
                          .idx = {pid, j}};
            td_wset_add(ws, &l);
        }
}

/* Softmax needs every column of a row; the launch's one tile reads BLOCK_SIZE of them. */
static const char *row_gap(const td_case *c) {
    return c->p[P_NCOLS].i > c->p[P_BLOCK].i
               ? "n_cols > BLOCK_SIZE: the one tile reads BLOCK_SIZE of the row's n_cols columns"
               : NULL;
}

static const td_intent intent = {
    .operation = "softmax of each row over its n_cols columns",
    .definition = "torch.softmax(x, dim=-1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent),
    .gap = row_gap,
};

/* The contract's fields after its .id and .file */
#define SM_TUT_FIELDS                                                                                              \
    .family = "softmax", .io_class = "MaskedKernelIO_1 (softmaxIO)", .kind = "exact",                              \
    .formula = "out[pid*os + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(n_cols, BLOCK_SIZE), "   \
               "x = input[pid*is + .]",                                                                            \
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_REAL,                         \
    .sv_note = "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; n_cols = 0 writes nothing",     \
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",         \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) |                       \
               TD_BC(TD_BC_OFFSET_2_31),                                                                            \
    .gen = gen, .far = far,                                                                                         \
    .check = check, .writes = writes, TD_SPECS_RUN(softmax_tut), .intent = &intent
