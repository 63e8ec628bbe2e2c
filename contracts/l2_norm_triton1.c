/* l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness  (catalogue part 2, src lines 6153-6169)
 *
 *   l2NormIO X Y stride_x_row N eps BLOCK_N ⊨ fun xs i => l2NormSpec N BLOCK_N eps xs i
 *   MaskedKernelIO_1: read = write = pid * stride_x_row (+ j), mask j < N, B = BLOCK_N;
 *   no hypotheses.
 *
 * Checked against bench/tritonbench_g/l2_norm_triton1 (.py and L2NormTriton1.lean, and
 * VeriTile/Triton/Math/L2Norm.lean): l2NormSpec = TiledL2Norm.l2Norm of the masked tile,
 * x_i * (1 / sqrt(sum_j x_j^2 + eps)) with the sum over the lanes j < BLOCK_N with j < N
 * (masked lanes enter as 0), not divided by N: an L2 norm.  The catalogue's reading
 * (sum over j < N) is the same when N <= BLOCK_N (the wrapper's BLOCK_N =
 * next_power_of_2(N)); the theorem has no such hypothesis, so N > BLOCK_N is drawn
 * sometimes: the kernel and Lean then normalise the tile's prefix, which is what the
 * spec says.  The kernel: x = tl.load(X + cols, mask=cols < N, other=0.0).to(fp32); xbar
 * = tl.where(cols < N, x, 0.0); var = tl.sum(xbar * xbar); rstd = 1 / tl.sqrt(var + eps);
 * Y = x * rstd, masked.
 *
 * Error model (rmsnorm_common.h): the min(N, BLOCK_N) squares RN(x*x) summed by tl.sum's
 * tree, + eps, sqrt and 1 / (correctly rounded on both backends), x * rstd: with the
 * positive sum the bound is relative, ~ (ceil(log2 min(N, B)) + 4.5) u of |y| plus the
 * underflow terms of subnormal squares.
 *
 * Domain and special values: the theorem allows any real eps; the launches keep eps > 0
 * (2^-149 .. 2^13): at eps <= 0 a zero row gives 1/sqrt(0) = inf and 0 * inf = NaN in
 * binary32 where Lean's sqrt/inverse give 0.  |x| <= 2^40; zero rows give exactly 0.
 * N = 0 writes nothing.
 */
#include "rmsnorm_common.h"

enum { P_STRIDE, P_N, P_EPS, P_B, NP };
enum { R_X, R_Y, NR };

static const rn_l2_layout LAYOUT = {P_STRIDE, P_N, P_B, P_EPS, R_X, -1, R_Y};

#define TD_SPEC_FILE "l2_norm_triton1.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_x_row", TD_P_INT}, {"N", TD_P_INT}, {"eps", TD_P_REAL}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions[NR] = {{"X", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) { rn_l2_gen(p, c, &LAYOUT); }
static const char *check(const td_case *c) { return rn_l2_check(c, &LAYOUT); }
static void writes(const td_case *c, td_wset *ws) { rn_l2_writes(c, ws, &LAYOUT); }
static void far(td_producer *p, td_case *c) { rn_l2_far(p, c, &LAYOUT); }

/* The L2 norm of a row needs all N entries; a tile of BLOCK_N < N lanes reads a prefix. */
static const char *l2_gap(const td_case *c) {
    return c->p[P_N].i > c->p[P_B].i ? "N > BLOCK_N: the one tile reads BLOCK_N of the row's N columns" : NULL;
}
static const td_intent intent_fwd = {
    .operation = "L2 norm of each row over its N columns: x / sqrt(sum x^2 + eps)",
    .definition = "flash-linear-attention l2norm (fla/modules/l2norm.py), the kernels' library: y = x / sqrt(sum_k "
                  "x_k^2 + eps) over the row (eps inside the root, no division by N)",
    TD_SPECS(l2_fwd_intent),
    .gap = l2_gap,
};

const td_contract td_c_l2_norm_triton1_fwd = {
    .id = "l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness",
    .file = "l2_norm_triton1",
    .family = "normalization",
    .io_class = "MaskedKernelIO_1 (l2NormIO)",
    .kind = "exact",
    .formula = "Y[pid*stride + j] = X[pid*stride + j] / sqrt(sum_{k < min(N, BLOCK_N)} X[pid*stride + k]^2 + eps)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "eps > 0 (2^-149 .. 2^13; the theorem allows eps <= 0, where binary32 gives 0 * inf = NaN on a zero "
               "row); |x| <= 2^40; zero rows give exactly 0; N = 0 writes nothing",
    .error_model = "tl.sum's tree of the min(N, B) squares RN(x*x), + eps, sqrt, 1 /, x * rstd",
    .classes = RN_CLASSES_L2 | TD_BC(TD_BC_OFFSET_2_31),
    .far = far,
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(l2_fwd),
    .intent = &intent_fwd,
};
