/* log_softmax: FlagGems' log-softmax over the middle dimension of [M, N, K]  (catalogue part 2)
 *
 *   log_softmax_kernel_correctness (hBN : 0 < BLOCK_N; hOutInj):
 *     logSoftmaxIO output_ptr input_ptr M N K BLOCK_M BLOCK_N ⊨ logSoftmaxOf (pure tile)
 *   log_softmax_backward_kernel_correctness (hOutInj):
 *     Masked2DKernelIO₂.Implements (logSoftmaxBackwardIO ...) ⊨ logSoftmaxBackwardOf
 *   B = BLOCK_M * BLOCK_N, lane j = tile cell (r, n) = (j / BLOCK_N, j % BLOCK_N); read =
 *   write = outOffset = (p0*BLOCK_M + r)*N*K + n*K + p1; mask: p0*BLOCK_M + r < M and n < N.
 *   hOutInj: outOffset injective over the WHOLE tile of a program.
 *
 * The Triton kernels (bench/tritonbench_g/log_softmax): grid (cdiv(M, BLOCK_M), K);
 * forward: load the [BLOCK_M, BLOCK_N] tile (other = -inf) .to(float32), subtract
 * tl.max(axis 1), exp, tl.sum(axis 1), then tl.log(numerator / denominator); backward:
 * masked loads without other, scale = tl.sum(out_grad, axis 1),
 * in_grad = out_grad - exp(out) * scale.  Checked against LogSoftmax.lean:
 * logSoftmaxOf is log(exp(x - rowmax) / sum exp(x - rowmax)) along axis 1 of the
 * ⊥-padded tile, i.e. over the n < min(N, BLOCK_N) columns of the tile (the catalogue's
 * "n' < N" is the whole row only when BLOCK_N >= N; the contract allows BLOCK_N < N,
 * the heuristic BLOCK_N = next_power_of_2(N) does not use it).  The catalogue writes
 * x - max - log(sum), the kernel log(e / sum): equal in the reals, and the error model
 * follows the kernel.  logSoftmaxBackwardOf sums out_grad over the tile row with the
 * masked lanes pinned to 0 (the undef = 0 of Masked2DKernelIO₂.Implements): the host
 * kernel's masked loads read 0.
 * hOutInj holds iff K >= 1 and (BLOCK_M = 1 or BLOCK_N <= N) (row r's lanes n >= N
 * would alias row r + 1); the generator makes that, the checker verifies it.
 *
 * Error models.  Forward: the family's tile softmax (softmax_common.h) up to e_i / s,
 * then the backend's log, whose error is the quotient's relative error plus the log
 * budget.  Backward: g - exp(o) * scale with scale a pairwise-tree sum of the row's
 * out_grad: each operation one rounding, exp its budget.
 *
 * Special values.  Forward: TD_SV_IEEE, and a numerical weakness of the kernel.
 * Taking log of the quotient means every element more than ~103.9 below its row max
 * has exp(x - max) / sum = 0 in binary32 and the kernel stores log(0) = -inf where the
 * real log-softmax is finite (and from ~87.3 below the max the quotient is subnormal,
 * losing relative precision); a stable log-softmax would store x - max - log(sum).
 * The policy follows the kernel: -inf is accepted on lanes where the model says the
 * quotient may be 0 (domain edge of log); every finite output is checked against the
 * bound, which charges the subnormal quotient's error.  Backward: TD_SV_REAL; the
 * generator keeps out <= 40 (log-probabilities are <= 0) and |out_grad| <= 2^20, so
 * exp(out) * scale is finite.
 */
#include "softmax_common.h"
#include "gen_far.h"

enum { P_M, P_N, P_K, P_BM, P_BN, NP };
enum { RF_OUT, RF_IN, NRF };
enum { RB_OUT, RB_OG, RB_IG, NRB };

#define TD_SPEC_FILE "log_softmax.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT}, {"N", TD_P_INT}, {"K", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions_f[NRF] = {{"output_ptr", TD_F32, TD_R_OUT}, {"input_ptr", TD_F32, TD_R_IN}};
static const td_region_decl regions_b[NRB] = {
    {"out_ptr", TD_F32, TD_R_IN}, {"out_grad_ptr", TD_F32, TD_R_IN}, {"in_grad_ptr", TD_F32, TD_R_OUT}};

/* The launch shape: BLOCK_N a power of two, BLOCK_M = 1 (any N) or N >= BLOCK_N (hOutInj),
 * K in 1 .. 6, rows so that a case holds ~2^14 lanes, grid (cdiv(M, BLOCK_M) [+1], K). */
static int64_t gen_shape(td_producer *p, td_case *c) {
    int64_t BN = td_gen_pow2(p, 0, 12), BM, N;
    if (td_prod_bool(p)) {
        BM = 1;
        N = sm_gen_cols(p, BN, 2 * BN + 3, 1, &c->classes);
    } else {
        BM = td_gen_pow2(p, 1, BN >= 256 ? 2 : 5);
        N = BN + (td_prod_bool(p) ? 0 : td_prod_u32(p, 1, (uint32_t)BN));
        if (N > BN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    }
    int64_t K = td_prod_u32(p, 1, 6), w = N < BN ? N : BN;
    int64_t M = td_prod_u32(p, 1, (uint32_t)sm_max_rows(w * K, 24));
    int64_t progs = (M + BM - 1) / BM + (td_prod_u32(p, 0, 7) == 0); /* sometimes a surplus program */
    c->p[P_M].i = M, c->p[P_N].i = N, c->p[P_K].i = K, c->p[P_BM].i = BM, c->p[P_BN].i = BN;
    c->grid[0] = (uint32_t)progs;
    c->grid[1] = (uint32_t)K;
    if (M % BM) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* masked rows in the last program */
    if (progs * K == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    return M * N * K + (td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0);
}

static void gen_fwd(td_producer *p, td_case *c) {
    int64_t len = gen_shape(p, c);
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, BN = c->p[P_BN].i;
    /* fewer rows spread beyond exp's range than the family's default mix (menu values up
     * to 60, fewer dominant-element and spread rows): their lanes store -inf, which the
     * policy accepts unchecked, so they should not crowd out the checkable rows */
    static const unsigned w[SM_P_COUNT] = {8, 3, 1, 2, 1, 2};
    sm_vals v;
    sm_vals_init_w(&v, p, c, 60, w);
    td_case_alloc(c, RF_IN, (size_t)len);
    sm_fill_all(&v, c, RF_IN);
    for (int64_t m = 0; m < M; m++)
        for (int64_t k = 0; k < K; k++) sm_fill_row(&v, c, RF_IN, (uint64_t)(m * N * K + k), K, N < BN ? N : BN);
    td_case_alloc(c, RF_OUT, (size_t)len);
}

/* out: log-probabilities (0 down to -1, -30 or -200: exp underflows to 0 there) or menu
 * values up to 40; out_grad from the menu up to 2^20. */
static void gen_bwd(td_producer *p, td_case *c) {
    int64_t len = gen_shape(p, c);
    td_case_alloc(c, RB_OUT, (size_t)len);
    td_case_alloc(c, RB_OG, (size_t)len);
    td_case_alloc(c, RB_IG, (size_t)len);
    static const double spread[3] = {1, 30, 200};
    int kind = td_prod_u32(p, 0, 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, kind == 3 ? 40 : 0x1p20);
    for (size_t i = 0; i < c->r[RB_OUT].len; i++)
        td_set(c, RB_OUT, i, kind == 3 ? td_vgen_value(&g, TD_F32) : sm_f32(-spread[kind] * td_rng_unit(&g.rng)));
    g.bound = 0x1p20;
    td_vgen_fill(&g, c, RB_OG);
}

static const char *check_common(const td_case *c, int nregs) {
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    if (M < 0 || N < 0 || K < 0 || BM < 0 || BN < 0) return "M, N, K, BLOCK_M, BLOCK_N : Nat";
    if (BM * BN > 1 && (K == 0 || (BM > 1 && BN > N)))
        return "hOutInj: outOffset injective on the BLOCK_M x BLOCK_N tile (K >= 1, BLOCK_M = 1 or BLOCK_N <= N)";
    if ((int64_t)c->grid[1] > K) return "grid[1] <= K (program p1 is the K index)";
    for (int r = 0; r < nregs; r++)
        if (M * N * K > (int64_t)c->r[r].len) return "the regions hold the M x N x K tensor";
    return NULL;
}
static const char *check_fwd(const td_case *c) {
    if (c->p[P_BN].i <= 0) return "hBN: 0 < BLOCK_N";
    return check_common(c, NRF);
}
static const char *check_bwd(const td_case *c) { return check_common(c, NRB); }

static void writes_reg(const td_case *c, td_wset *ws, int reg) {
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t r = 0; r < BM; r++) {
                int64_t m = (int64_t)p0 * BM + r;
                if (m >= M) break;
                for (int64_t n = 0; n < BN && n < N; n++) {
                    td_olane l = {.region = (uint32_t)reg, .off = (uint64_t)(m * N * K + n * K + p1),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(r * BN + n), .idx = {m, n, p1}};
                    td_wset_add(ws, &l);
                }
            }
}
static void writes_fwd(const td_case *c, td_wset *ws) { writes_reg(c, ws, RF_OUT); }
static void writes_bwd(const td_case *c, td_wset *ws) { writes_reg(c, ws, RB_IG); }

static const td_intent intent_fwd = {
    .operation = "log-softmax over the N entries of dim 1 of x[M, N, K]",
    .definition = "torch.log_softmax(x, dim=1) (PyTorch documentation): x_i - log sum_j exp(x_j)",
    TD_SPECS(intent_fwd),
};
static const td_intent intent_bwd = {
    .operation = "the gradient of log-softmax over the N entries of dim 1: g - exp(out) * sum(g)",
    .definition = "the derivative of torch.log_softmax (PyTorch autograd: grad_in = g - exp(out) * g.sum(dim))",
    TD_SPECS(intent_bwd),
};

/* Offsets beyond 2^31 (gen_far.h): row m sits at m * N * K (no stride parameter) and
 * the regions hold the whole M x N x K tensor, so a far case keeps up to
 * TD_FAR_MAX_ROWS - 1 rows and enlarges N, the reduced length, until row 1 (or the last)
 * starts 2^31 elements or more in, as FlagGems' m_offset * N * K (int32 in Triton)
 * gets wrong: the tile reads BLOCK_N columns of N, so BLOCK_N first becomes the largest
 * power of two <= N (then <= the new N: hOutInj holds), and the columns n < BLOCK_N of
 * each row move (td_far_reslab: every region at once, the output a sparse output; the
 * rest of a row reads as zero and is never read). */
static void far_rows(td_producer *p, td_case *c, const int *regs, int n) {
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, BM = c->p[P_BM].i, t = c->p[P_BN].i;
    if (M < 2 || N <= 0 || K <= 0 || BM <= 0 || t <= 0 || (int64_t)c->grid[1] != K) return;
    int64_t R = M < TD_FAR_MAX_ROWS - 1 ? M : TD_FAR_MAX_ROWS - 1; /* 3 whole rows: <= 24 GiB reserved */
    while (t > N) t /= 2;
    int64_t s = td_far_stride(p, R, t * K), N2 = (s + K - 1) / K; /* the row N2 * K >= s */
    if (td_far_reslab(c, regs, n, M, R, t * K, N * K, N2 * K)) return;
    c->p[P_M].i = R, c->p[P_N].i = N2, c->p[P_BN].i = t;
    c->grid[0] = (uint32_t)((R + BM - 1) / BM);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | (R % BM ? TD_BC(TD_BC_FULLY_MASKED) : 0);
}
static void far_fwd(td_producer *p, td_case *c) {
    static const int regs[NRF] = {RF_OUT, RF_IN};
    far_rows(p, c, regs, NRF);
}
static void far_bwd(td_producer *p, td_case *c) {
    static const int regs[NRB] = {RB_OUT, RB_OG, RB_IG};
    far_rows(p, c, regs, NRB);
}

const td_contract td_c_log_softmax = {
    .id = "log_softmax.log_softmax_kernel_correctness",
    .file = "log_softmax",
    .family = "softmax",
    .io_class = "Masked2DKernelIO_1 (logSoftmaxIO), grid (cdiv(M, BLOCK_M), K)",
    .kind = "exact",
    .formula = "out[m,n,k] = log(exp(x[m,n,k] - max_n' x[m,n',k]) / sum_n' exp(x[m,n',k] - max)), "
               "n' < min(N, BLOCK_N)",
    .nparams = NP,
    .params = params,
    .nregions = NRF,
    .regions = regions_f,
    .sv = TD_SV_IEEE,
    .sv_note = "the kernel takes log of the quotient: x - max < -103.9 gives exp(.)/sum = 0 and log(0) = -inf "
               "(the real value is finite); accepted where the model's quotient may be 0",
    .error_model = "tile softmax as the kernel evaluates it (exact max, sub, exp, pairwise-tree sum, div), then log",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_fwd,
    .far = far_fwd,
    .check = check_fwd,
    .writes = writes_fwd,
    TD_SPECS(log_softmax_fwd),
    .intent = &intent_fwd,
};

const td_contract td_c_log_softmax_bwd = {
    .id = "log_softmax.log_softmax_backward_kernel_correctness",
    .file = "log_softmax",
    .family = "softmax",
    .io_class = "Masked2DKernelIO_2 Implements (logSoftmaxBackwardIO), grid (cdiv(M, BLOCK_M), K)",
    .kind = "exact",
    .formula = "in_grad[m,n,k] = out_grad[m,n,k] - exp(out[m,n,k]) * sum_n' out_grad[m,n',k], n' < min(N, BLOCK_N)",
    .nparams = NP,
    .params = params,
    .nregions = NRB,
    .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = "out <= 40, |out_grad| <= 2^20: every intermediate finite; masked lanes load 0 (undef = 0)",
    .error_model = "pairwise-tree sum of the row's out_grad, exp, mul, sub: each one binary32 rounding or budget",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_bwd,
    .far = far_bwd,
    .check = check_bwd,
    .writes = writes_bwd,
    TD_SPECS(log_softmax_bwd),
    .intent = &intent_bwd,
};
