/* softmax_triton1.softmax_kernel_correctness  (catalogue part 2)
 *
 *   softmaxIO output_ptr input_ptr input_row_stride output_row_stride n_cols BLOCK_SIZE
 *     ⊨ fun xs i => softmaxSpec n_cols BLOCK_SIZE xs i            (hB : 0 < BLOCK_SIZE)
 *   MaskedKernelIO₁: read = pid * input_row_stride, write = pid * output_row_stride,
 *   mask j < n_cols, B = BLOCK_SIZE.
 *
 * The Triton kernel (bench/tritonbench_g/softmax_triton1, the Triton tutorial's fused
 * softmax): program pid loads its row's BLOCK_SIZE lanes with other = -inf, subtracts
 * tl.max, takes tl.exp, divides by tl.sum and stores the lanes j < n_cols.
 * The named spec softmaxSpec (SoftmaxTriton1.lean) builds the tile with the masked
 * lanes as ⊥, reduceMax, exp(row - max), reduceSum, division: exactly the catalogue's
 * reading exp(x_i - max)/sum_j exp(x_j - max), over the lanes j < n_cols of the TILE.
 * The catalogue's "j < n_cols" is only the whole row when n_cols <= BLOCK_SIZE; the
 * contract allows n_cols > BLOCK_SIZE, and then the kernel (and the Lean spec) reduce
 * and write the first BLOCK_SIZE columns only: the spec here is over w = min(n_cols,
 * BLOCK_SIZE) columns, and the generator makes such rows.
 *
 * Error model: the family's tile softmax (softmax_common.h): exact max, one
 * subtraction, exp, a pairwise-tree sum of w terms (ceil(log2 w) additions per term),
 * one division.
 *
 * Special values (TD_SV_REAL): d_j <= 0 so exp never overflows, and the sum is at
 * least the max lane's exp(0) = 1, so the kernel never divides by 0 and every output
 * is finite.  n_cols = 0 writes nothing (the kernel's NaN row is never stored).  Input
 * rows may overlap (input_row_stride 0 or below the row): the spec reads the cells.
 */
#ifndef TD_SPEC_PASS
#include "softmax_common.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK, NP };
enum { R_OUT, R_IN, NR };

#include "spec_instantiate.h"

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

const td_contract td_c_softmax_triton1 = {
    .id = "softmax_triton1.softmax_kernel_correctness",
    .file = "softmax_triton1",
    .family = "softmax",
    .io_class = "MaskedKernelIO_1 (softmaxIO)",
    .kind = "exact",
    .formula = "out[pid*os + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(n_cols, BLOCK_SIZE), "
               "x = input[pid*is + .]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; n_cols = 0 writes nothing",
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(softmax_t1),
};

#else
#include "softmax_common.h"
static NUM SPEC(softmax_t1)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t B = c->p[P_BLOCK].i, n = c->p[P_NCOLS].i;
    sm_row r = sm_row_plain(R_IN, (uint64_t)(l->idx[0] * c->p[P_IN_STRIDE].i), 1, n < B ? n : B, (uint64_t)l->idx[0]);
    return SPEC(sm_softmax)(cx, c, &r, l->idx[1]);
}
#endif
