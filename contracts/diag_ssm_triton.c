/* diag_ssm_triton: the real diagonal SSM scan, forward and backward (catalogue part 1,
 * src lines 3626-3727).
 *
 *   diag_ssm_forward_kernel_output_summary (hOutInj) (x != y): the lowering exists and
 *     y[t, i] = lambda[i % dim] * y[t-1, i] + x[t, i], y[-1] = s[i].
 *   diag_ssm_forward_io_correctness (0 < length) (BLOCK_SIZE <= batch*dim) (x != y),
 *     StreamEmitMasked2DKernelIO_3 |=[R]: out(t)[j] = diagSsmStreamState(s, lambda, x, t+1)
 *     = lambda^(t+1) s + sum_{u<=t} lambda^(t-u) x[u]; read s at p0*BS + j, lambda at
 *     (p0*BS + j) % dim, x and y at t*(batch*dim) + p0*BS + j, mask p0*BS + j < batch*dim.
 *   diag_ssm_backward_io_correctness (the same, non-alias hypotheses): reverse-time
 *     g_t = grad_y[t] + lambda g_{t+1}; grad_x[t] = g_t; grad_lambda = sum_t g_t y[t-1]
 *     (y[-1] = s); grad_s = lambda g_0, the last two stored once (at t = 0).
 *
 * Checked against bench/tritonbench_g/diag_ssm_triton (the .py, real versions; the
 * complex kernels are not in the catalogue): the forward `s = s * Lambda + x` per step,
 * stored to y; the backward from t = length-1 down: grad_s = grad_y + grad_s; grad_x =
 * grad_s; grad_Lambda += grad_s * s_prev (s_prev = y[t-1], s at t = 0); grad_s *=
 * Lambda; after the loop grad_s and grad_Lambda stored per element (grad_lambda is
 * [batch, dim], not reduced over the batch in the kernel, as the catalogue notes).
 * The backward's y is an input (the forward's output, given).  The IO's outDType is
 * unspecified: the default store of the binary32 state into binary32 is exact.
 *
 * Error model: the scans by oracle/lrec.h (3u per step of the magnitude state,
 * sequential, FMA, chunked with the carry; eta (3 + max M) for underflow); lambda
 * and x exact inputs; grad_lambda a sum of length products of carried values in any
 * order (gamma_{length-1}); grad_s one rounded product.  Decays per case: sigmoid,
 * exp of a log-space decay in [-8, 0], exactly 1, near 0, 1 + up to 2^-9 (amplifying),
 * negative (-sigmoid), or mixed per element.
 * Special values: finite inputs |x| <= 8, |lambda| <= 1 + 2^-9, length <= 4095: finite.
 */
#include "gen.h"
#include "gen_large.h"

#include <stdlib.h>

enum { P_LEN, P_BATCH, P_DIM, P_BS, NP };
enum { R_S, R_X, R_LAMBDA, R_Y, NR };
enum { RB_S, RB_LAMBDA, RB_Y, RB_GS, RB_GX, RB_GL, RB_GY, NRB };

#define TD_SPEC_FILE "diag_ssm_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"length", TD_P_INT}, {"batch_size", TD_P_INT}, {"dim", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"s_ptr", TD_F32, TD_R_IN}, {"x_ptr", TD_F32, TD_R_IN}, {"lambda_ptr", TD_F32, TD_R_IN}, {"y_ptr", TD_F32, TD_R_OUT}};
static const td_region_decl regions_b[NRB] = {
    {"s_ptr", TD_F32, TD_R_IN},       {"lambda_ptr", TD_F32, TD_R_IN},      {"y_ptr", TD_F32, TD_R_IN},
    {"grad_s_ptr", TD_F32, TD_R_OUT}, {"grad_x_ptr", TD_F32, TD_R_OUT},     {"grad_lambda_ptr", TD_F32, TD_R_OUT},
    {"grad_y_ptr", TD_F32, TD_R_IN}};

static double decay(td_rng *r, int k) {
    if (k == 6) k = (int)td_rng_below(r, 6);
    double z = td_rng_unit(r);
    switch (k) {
    case 0: return (float)(1 / (1 + exp(-(12 * z - 6))));
    case 1: return (float)exp(-8 * z);
    case 2: return 1;
    case 3: return (float)(1e-6 * z);
    case 4: return (float)(1 + 0x1p-9 * z);
    default: return -(float)(1 / (1 + exp(-(12 * z - 6))));
    }
}

/* Shape: batch*dim lanes (dim 1..24, batch 1..4) in blocks of BS <= batch*dim (hBS);
 * length from the boundary list, or in one case in 16 2048..4095 steps over <= 8 lanes. */
static void gen_common(td_producer *p, td_case *c, int nreg, const int *regs_n, int r_lambda, int r_s) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t dim = td_prod_u32(p, 1, long_seq ? 4 : 24), B = td_prod_u32(p, 1, long_seq ? 2 : 4), n = B * dim;
    int64_t BS = td_gen_pow2(p, 0, 6);
    while (BS > n) BS /= 2;
    static const uint32_t Ts[] = {1, 2, 3, 15, 16, 17, 64};
    uint32_t ti = td_prod_u32(p, 0, 6), tl = td_prod_u32(p, 2048, 4095);
    int64_t T = long_seq ? tl : Ts[ti];
    c->p[P_LEN].i = T, c->p[P_BATCH].i = B, c->p[P_DIM].i = dim, c->p[P_BS].i = BS;
    c->grid[0] = (uint32_t)((n + BS - 1) / BS), c->grid[1] = c->grid[2] = 1;
    for (int i = 0; i < nreg; i++) { /* regs_n: 0 [n], 1 [T, n], 2 [dim]; 3 / 4 outputs [n] / [T, n] + slack */
        int64_t len = regs_n[i] == 0 || regs_n[i] == 3 ? n : regs_n[i] == 2 ? dim : T * n;
        td_case_alloc(c, i, (size_t)(len + (regs_n[i] >= 3 ? 3 : 0)));
    }
    int dk = (int)td_prod_u32(p, 0, 6);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    for (int i = 0; i < nreg; i++)
        if (c->k->regions[i].role == TD_R_IN && i != r_lambda) td_vgen_fill(&g, c, i);
    for (int64_t d = 0; d < dim; d++) td_set(c, r_lambda, (size_t)d, decay(&g.rng, dk));
    (void)r_s;
    td_gen_mark_shape((uint64_t)n, (uint64_t)BS, c->grid[0], &c->classes);
    c->classes |= (T > 1 ? TD_BC(TD_BC_MULTI_TILE) : TD_BC(TD_BC_SEQ_SINGLE)) |
                  (dk == 2 || dk == 3 ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}
static const int fwd_n[NR] = {0, 1, 2, 4}; /* y: [T, n] + slack */
static const int bwd_n[NRB] = {0, 2, 1, 3, 4, 3, 1};
static void gen(td_producer *p, td_case *c) { gen_common(p, c, NR, fwd_n, R_LAMBDA, R_S); }
static void gen_b(td_producer *p, td_case *c) { gen_common(p, c, NRB, bwd_n, RB_LAMBDA, RB_S); }

static const char *check_common(const td_case *c, int r_lambda, const int *regs_n, int nreg) {
    int64_t T = c->p[P_LEN].i, B = c->p[P_BATCH].i, dim = c->p[P_DIM].i, BS = c->p[P_BS].i, n = B * dim;
    if (T <= 0) return "hT: 0 < length";
    if (B <= 0 || dim <= 0 || BS <= 0 || (BS & (BS - 1))) return "batch_size, dim > 0, BLOCK_SIZE a power of two";
    if (BS > n) return "hBS: BLOCK_SIZE <= batch_size * dim";
    if (c->grid[0] != (uint32_t)((n + BS - 1) / BS) || c->grid[1] != 1 || c->grid[2] != 1) return "grid = cdiv(batch*dim, BS)";
    for (int i = 0; i < nreg; i++)
        if (c->r[i].len < (size_t)(regs_n[i] == 0 || regs_n[i] == 3 ? n : regs_n[i] == 2 ? dim : T * n))
            return "regions hold [batch*dim], [length, batch*dim], [dim]";
    for (int64_t d = 0; d < dim; d++) {
        double lam = fabs(td_get(c, r_lambda, (size_t)d));
        if (lam > 1 + 0x1p-9) return "|lambda| <= 1 + 2^-9 (the domain)";
        if (c->nwin && lam > 1) return "a large case: |lambda| <= 1 (its 2^31 / (batch*dim) steps keep the state finite)";
    }
    return NULL; /* (x, y, grad_y: any finite value; a large case's rows outside its windows read 0) */
}
static const char *check(const td_case *c) { return check_common(c, R_LAMBDA, fwd_n, NR); }
static const char *check_b(const td_case *c) { return check_common(c, RB_LAMBDA, bwd_n, NRB); }

/* every lane (t, col); a large case: the time steps t of its windows (td_large_row_next:
 * every t in an ordinary case), the other steps' lanes only counted */
static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i, BS = c->p[P_BS].i;
    uint64_t seen = 0;
    for (uint64_t t = td_large_row_next(c, 0); t < (uint64_t)T; t = td_large_row_next(c, t + 1), seen++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t j = 0; j < BS && p0 * BS + j < n; j++) {
                td_olane l = {.region = R_Y, .off = t * (uint64_t)n + (uint64_t)(p0 * BS + j), .pid = {p0, 0, 0},
                              .t = (uint32_t)t, .j = (uint64_t)j, .idx = {p0 * BS + j, (int64_t)t}};
                td_wset_add(ws, &l);
            }
    if (c->nwin) ws->dropped += ((uint64_t)T - seen) * (uint64_t)n;
}
static void writes_b(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i, BS = c->p[P_BS].i;
    uint64_t seen = 0;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (int64_t j = 0; j < BS && p0 * BS + j < n; j++) {
            int64_t col = p0 * BS + j;
            for (uint64_t t = td_large_row_next(c, 0); t < (uint64_t)T; t = td_large_row_next(c, t + 1), seen++) {
                td_olane l = {.o = 0, .region = RB_GX, .off = t * (uint64_t)n + (uint64_t)col, .pid = {p0, 0, 0},
                              .t = (uint32_t)t, .j = (uint64_t)j, .idx = {col, (int64_t)t}};
                td_wset_add(ws, &l);
            }
            td_olane gs = {.o = 1, .region = RB_GS, .off = (uint64_t)col, .pid = {p0, 0, 0}, .j = (uint64_t)j, .idx = {col, 0}};
            td_wset_add(ws, &gs);
            td_olane gl = {.o = 2, .region = RB_GL, .off = (uint64_t)col, .pid = {p0, 0, 0}, .j = (uint64_t)j, .idx = {col, 0}};
            td_wset_add(ws, &gl);
        }
    if (c->nwin) ws->dropped += (uint64_t)T * (uint64_t)n - seen; /* grad_x's steps outside the windows */
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / (batch*dim) time steps,
 * so t * batch_size * dim + col passes 2^31 (t, batch_size and dim int32 in the original,
 * which forms the offset in int32; nothing in the signature bounds their product, Lean's
 * are Nat).  The row-blocks are TIME STEPS -- rows of batch*dim of x and y (backward: y,
 * grad_y, grad_x) -- not programs: every program loops over all of them, and each
 * crosses element 2^31.  The windows are steps (the first, those around element 2^31,
 * the last, two drawn), every column of each judged; the other steps' inputs read 0, so
 * the recurrence runs through them as h <- lambda h (the spec crosses such a gap in one
 * step: diag_ssm_triton.spec.h, dssm_gap).  A row narrower than TD_ROWS_LARGE_MIN_LEN
 * is widened through batch_size (the new columns' x zero, their s repeating s[col mod
 * n0]: lambda stays per dim), BLOCK_SIZE 16..64 (the launch sweeps x once per program).
 * An amplifying lambda (|lambda| > 1) becomes +-1: over 2^25 steps its state would
 * overflow. */
static void dssm_large(td_producer *p, td_case *c, const int *rows, int nrows, const int *cols, int ncols, int r_lambda) {
    int64_t dim = c->p[P_DIM].i, n0 = c->p[P_BATCH].i * dim;
    int64_t B = n0 >= TD_ROWS_LARGE_MIN_LEN ? c->p[P_BATCH].i : (TD_ROWS_LARGE_MIN_LEN + dim - 1) / dim, n = B * dim;
    int64_t BS = td_gen_pow2(p, 4, 6);
    td_rows_region rr[3];
    for (int k = 0; k < nrows; k++)
        rr[k] = (td_rows_region){rows[k], (uint64_t)n, c->k->regions[rows[k]].role == TD_R_IN ? (uint64_t)n0 : 0};
    uint64_t R;
    if (td_rows_large(p, c, (uint64_t)c->p[P_LEN].i, rr, nrows, &R) != 0) return;
    for (int k = 0; k < ncols && n != n0; k++) { /* the [batch*dim] regions widened */
        int in = c->k->regions[cols[k]].role == TD_R_IN;
        double *old = in ? malloc((size_t)n0 * sizeof *old) : NULL;
        if (in && !old) abort(); /* (out of memory, as td_case_alloc) */
        for (int64_t i = 0; in && i < n0; i++) old[i] = td_get(c, cols[k], (size_t)i);
        td_case_alloc(c, cols[k], (size_t)n + (in ? 0 : 3));
        for (int64_t i = 0; in && i < n; i++) td_set(c, cols[k], (size_t)i, old[i % n0]);
        free(old);
    }
    for (int64_t d = 0; d < dim; d++) {
        double lam = td_get(c, r_lambda, (size_t)d);
        if (fabs(lam) > 1) td_set(c, r_lambda, (size_t)d, lam > 0 ? 1.0 : -1.0);
    }
    c->p[P_LEN].i = (int64_t)R, c->p[P_BATCH].i = B, c->p[P_BS].i = BS;
    c->grid[0] = (uint32_t)((n + BS - 1) / BS);
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |
                    TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_SEQ_SINGLE));
    td_gen_mark_shape((uint64_t)n, (uint64_t)BS, c->grid[0], &c->classes);
}
static const int fwd_rows[] = {R_X, R_Y}, fwd_cols[] = {R_S};
static const int bwd_rows[] = {RB_Y, RB_GX, RB_GY}, bwd_cols[] = {RB_S, RB_GS, RB_GL};
static void large(td_producer *p, td_case *c) { dssm_large(p, c, fwd_rows, 2, fwd_cols, 1, R_LAMBDA); }
static void large_b(td_producer *p, td_case *c) { dssm_large(p, c, bwd_rows, 3, bwd_cols, 3, RB_LAMBDA); }

/* The intents (contracts/diag_ssm_triton.spec.h): the operation as its definition
 * states it, for audit and certify --against intent. */
static const char *dssm_bwd_partial(const td_case *c) {
    return c->p[P_BATCH].i > 1 ? "batch_size > 1: grad_lambda per (batch, dim) element, which the host sums over "
                                 "the batch (grad_lambda.sum(dim=0))"
                               : NULL;
}
static const td_intent intent_fwd = {
    .operation = "the diagonal linear SSM h_t = lambda * h_{t-1} + x_t (lambda broadcast over the batch), "
                 "h_{-1} = s, y_t = h_t",
    .definition = "a real diagonal state-space recurrence with identity readout (S4D, Gu et al. 2022; LRU, Orvieto "
                  "et al. 2023, with B = C = I)",
    TD_SPECS(dssm_intent_fwd),
};
static const td_intent intent_bwd = {
    .operation = "the gradient of sum_t <grad_y_t, y_t> through the diagonal SSM with respect to x, s and lambda, "
                 "y the saved forward output",
    .definition = "reverse-mode differentiation (autograd) of h_t = lambda * h_{t-1} + x_t, y_t = h_t (S4D / LRU "
                  "real diagonal recurrence)",
    TD_SPECS(dssm_intent_bwd),
    .partial = dssm_bwd_partial,
};

#define DSSM_COMMON                                                                                               \
    .file = "diag_ssm_triton", .family = "recurrence", .nparams = NP, .params = params, .sv = TD_SV_REAL,         \
    .sv_note = "finite inputs |x| <= 8, |lambda| <= 1 + 2^-9: the states stay finite",                             \
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |                    \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_MULTI_TILE) | \
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_VALUES_SPECIAL)

const td_contract td_c_diag_ssm_fwd_summary = {
    .id = "diag_ssm_triton.diag_ssm_forward_kernel_output_summary",
    .io_class = "correct_target predicate + lowering",
    .kind = "exact",
    .formula = "y[t, i] = lambda[i % dim] * y[t-1, i] + x[t, i], y[-1] = s[i]",
    .nregions = NR, .regions = regions,
    .error_model = "the scan by oracle/lrec.h (3u per step of the magnitude state; sequential, FMA, chunked)",
    /* no .far: offsets t * batch_size * dim + col (sizes only, shared with the output): an offset
     * >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of time steps) */
    DSSM_COMMON, .gen = gen, .large = large, .check = check, .writes = writes, TD_SPECS(dssm_fwd),
    .intent = &intent_fwd,
};
const td_contract td_c_diag_ssm_fwd_io = {
    .id = "diag_ssm_triton.diag_ssm_forward_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_3 (diagSsmForwardKernelIO)",
    .kind = "rounding",
    .formula = "out(t)[j] = diagSsmStreamState(s[j], lambda[j % dim], x[.][j], t+1)  (binary32 store exact)",
    .nregions = NR, .regions = regions,
    .error_model = "the scan by oracle/lrec.h (3u per step of the magnitude state; sequential, FMA, chunked)",
    /* no .far: offsets t * batch_size * dim + col (sizes only, shared with the output): an offset
     * >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of time steps) */
    DSSM_COMMON, .gen = gen, .large = large, .check = check, .writes = writes, TD_SPECS(dssm_fwd),
    .intent = &intent_fwd,
};
const td_contract td_c_diag_ssm_bwd_io = {
    .id = "diag_ssm_triton.diag_ssm_backward_io_correctness",
    .io_class = "StreamGroupedEmitMasked3DKernelIO (diagSsmBackwardKernelIO)",
    .kind = "rounding",
    .formula = "g_t = grad_y[t] + lambda g_{t+1}; grad_x[t] = g_t; grad_lambda = sum_t g_t y[t-1] (y[-1] = s); "
               "grad_s = lambda g_0",
    .nregions = NRB, .regions = regions_b,
    .error_model = "the reverse scan by oracle/lrec.h; grad_lambda a sum in any order (gamma_{length-1}); "
                   "grad_s one rounded product",
    /* no .far: offsets t * batch_size * dim + col (sizes only, shared with the output): an offset
     * >= 2^31 needs a dense output of 2^31 elements: the large tier's (`large`, rows of time steps) */
    DSSM_COMMON, .gen = gen_b, .large = large_b, .check = check_b, .writes = writes_b, TD_SPECS(dssm_bwd),
    .intent = &intent_bwd,
};
