/* l2_norm_bwd.l2_norm_bwd_kernel_correctness  (catalogue part 2, src lines 6135-6152)
 *
 *   l2BwdIO X DY DX stride_x_row N eps BLOCK_N ⊨ fun xs dys i => l2BwdSpec N BLOCK_N eps xs dys i
 *   MaskedKernelIO_2: read1 = read2 = write = pid * stride_x_row (+ j), mask j < N,
 *   B = BLOCK_N; no hypotheses.
 *
 * Checked against bench/tritonbench_g/l2_norm_bwd (.py and L2NormBwd.lean, and
 * VeriTile/Triton/Math/L2Norm.lean): l2BwdSpec = TiledL2Norm.l2NormBwd of the masked
 * tiles, dy_i * rstd - (sum_j dy_j x_j) * (1 / (var + eps)) * rstd * x_i with var =
 * sum_j x_j^2 (not a mean), rstd = 1 / sqrt(var + eps), sums over the lanes j < BLOCK_N
 * with j < N.  The catalogue's reading sums over j < N: the same when N <= BLOCK_N (the
 * wrapper's BLOCK_N = next_power_of_2(N)); N > BLOCK_N is drawn sometimes and the spec
 * is Lean's (the tile's prefix).  The kernel evaluates exactly that expression: var =
 * tl.sum(x * x), rstd = 1 / tl.sqrt(var + eps), dx = dy * rstd - tl.sum(dy * x) *
 * (1 / (var + eps)) * rstd * x, left to right.
 *
 * Error model (rmsnorm_common.h, SPEC(rn_l2_bwd)): the squares and the products dy*x
 * summed by tl.sum's tree (the dot product may cancel: its bound keeps gamma * sum |dy x|),
 * var + eps, sqrt, 1 / (both), 1 / (var + eps), then ((D * q) * rstd) * x and
 * dy * rstd, and the final subtraction, which cancels when dy is parallel to x (drawn:
 * dy = 2^k x per row): there the bound is relative to the terms, not to dx.
 *
 * Domain and special values: eps >= 2^-40 (up to 2^13) and |x|, |dy| <= 2^24: then
 * 1 / (var + eps) <= 2^40 is finite for a zero row and ((D * q) * rstd) <= |dy|_2 /
 * (var + eps) stays finite (Cauchy-Schwarz); at eps <= 0 binary32 gives 1/0 = inf and
 * 0 * inf = NaN where Lean's inverse gives 0.  N = 0 writes nothing.
 */
#include "rmsnorm_common.h"

enum { P_STRIDE, P_N, P_EPS, P_B, NP };
enum { R_X, R_DY, R_DX, NR };

static const rn_l2_layout LAYOUT = {P_STRIDE, P_N, P_B, P_EPS, R_X, R_DY, R_DX};

#define TD_SPEC_FILE "l2_norm_bwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_x_row", TD_P_INT}, {"N", TD_P_INT}, {"eps", TD_P_REAL}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"X", TD_F32, TD_R_IN}, {"DY", TD_F32, TD_R_IN}, {"DX", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) { rn_l2_gen(p, c, &LAYOUT); }
static const char *check(const td_case *c) { return rn_l2_check(c, &LAYOUT); }
static void writes(const td_case *c, td_wset *ws) { rn_l2_writes(c, ws, &LAYOUT); }
static void far(td_producer *p, td_case *c) { rn_l2_far(p, c, &LAYOUT); }

/* The L2 norm of a row needs all N entries; a tile of BLOCK_N < N lanes reads a prefix. */
static const char *l2_gap(const td_case *c) {
    return c->p[P_N].i > c->p[P_B].i ? "N > BLOCK_N: the one tile reads BLOCK_N of the row's N columns" : NULL;
}
static const td_intent intent_bwd = {
    .operation = "the gradient of the L2 norm of each row over its N columns: dy * r - x * r^3 * sum(dy * x), r = 1 / "
                 "sqrt(sum x^2 + eps)",
    .definition = "flash-linear-attention l2norm (fla/modules/l2norm.py), the kernels' library: y = x / sqrt(sum_k "
                  "x_k^2 + eps) over the row (eps inside the root, no division by N)",
    TD_SPECS(l2_bwd_intent),
    .gap = l2_gap,
};

const td_contract td_c_l2_norm_bwd = {
    .id = "l2_norm_bwd.l2_norm_bwd_kernel_correctness",
    .file = "l2_norm_bwd",
    .family = "normalization",
    .io_class = "MaskedKernelIO_2 (l2BwdIO)",
    .kind = "exact",
    .formula = "DX[..j] = DY[..j] * rstd - (sum_k DY[..k] X[..k]) * (1 / (var + eps)) * rstd * X[..j], var = sum_k "
               "X[..k]^2, rstd = 1 / sqrt(var + eps), k < min(N, BLOCK_N)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "eps >= 2^-40 and |x|, |dy| <= 2^24: every intermediate finite (the theorem allows eps <= 0, where "
               "binary32 gives 0 * inf = NaN); N = 0 writes nothing",
    .error_model = "tl.sum trees of RN(x*x) and RN(dy*x), + eps, sqrt, 1 /, 1 / (var + eps), then "
                   "dy*rstd - ((D*q)*rstd)*x in the kernel's order",
    .classes = RN_CLASSES_L2 | TD_BC(TD_BC_OFFSET_2_31),
    .far = far,
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(l2_bwd),
    .intent = &intent_bwd,
};
