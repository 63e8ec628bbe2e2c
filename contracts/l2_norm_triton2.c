/* l2_norm_triton2  (catalogue part 2, src lines 6170-6205)
 *
 *   l2_norm_fwd_1pass_kernel_correctness: l2FwdIO X Y stride_x_row N eps BLOCK_N ⊨
 *     fun xs i => l2FwdSpec N BLOCK_N eps xs i   (MaskedKernelIO_1, read = write =
 *     pid * stride_x_row, mask j < N, B = BLOCK_N)
 *   l2_norm_bwd_kernel_correctness: l2BwdIO X DY DX stride_x_row N eps BLOCK_N ⊨
 *     fun xs dys i => l2BwdSpec N BLOCK_N eps xs dys i   (MaskedKernelIO_2, read1 = read2
 *     = write = pid * stride_x_row)
 *   No hypotheses.
 *
 * Checked against bench/tritonbench_g/l2_norm_triton2 (.py and L2NormTriton2.lean):
 * _l2_norm_fwd_1pass_kernel is l2_norm_triton1's program and l2FwdSpec its l2NormSpec
 * (TiledL2Norm.l2Norm of the masked tile); _l2_norm_bwd_kernel is l2_norm_bwd's program
 * and l2BwdSpec its spec (TiledL2Norm.l2NormBwd).  Both sum over the lanes j < BLOCK_N
 * with j < N (the catalogue's "sum over j < N" when N <= BLOCK_N; N > BLOCK_N is drawn
 * sometimes, the spec is Lean's).  See l2_norm_triton1.c and l2_norm_bwd.c for the
 * readings, the error models (rmsnorm_common.h) and the domains: forward eps > 0
 * (2^-149 .. 2^13), |x| <= 2^40; backward eps >= 2^-40, |x|, |dy| <= 2^24 (no binary32
 * overflow in ((sum dy*x) / (var + eps)) * rstd); the theorems allow eps <= 0, where
 * binary32 gives 0 * inf = NaN on a zero row.
 */
#include "rmsnorm_common.h"

enum { P_STRIDE, P_N, P_EPS, P_B, NP };
enum { RF_X, RF_Y, NRF };         /* forward */
enum { RB_X, RB_DY, RB_DX, NRB }; /* backward */

static const rn_l2_layout FWD = {P_STRIDE, P_N, P_B, P_EPS, RF_X, -1, RF_Y};
static const rn_l2_layout BWD = {P_STRIDE, P_N, P_B, P_EPS, RB_X, RB_DY, RB_DX};

#define TD_SPEC_FILE "l2_norm_triton2.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_x_row", TD_P_INT}, {"N", TD_P_INT}, {"eps", TD_P_REAL}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions_fwd[NRF] = {{"X", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_OUT}};
static const td_region_decl regions_bwd[NRB] = {
    {"X", TD_F32, TD_R_IN}, {"DY", TD_F32, TD_R_IN}, {"DX", TD_F32, TD_R_OUT}};

static void gen_fwd(td_producer *p, td_case *c) { rn_l2_gen(p, c, &FWD); }
static void gen_bwd(td_producer *p, td_case *c) { rn_l2_gen(p, c, &BWD); }
static const char *check_fwd(const td_case *c) { return rn_l2_check(c, &FWD); }
static const char *check_bwd(const td_case *c) { return rn_l2_check(c, &BWD); }
static void writes_fwd(const td_case *c, td_wset *ws) { rn_l2_writes(c, ws, &FWD); }
static void writes_bwd(const td_case *c, td_wset *ws) { rn_l2_writes(c, ws, &BWD); }
static void far_fwd(td_producer *p, td_case *c) { rn_l2_far(p, c, &FWD); }
static void far_bwd(td_producer *p, td_case *c) { rn_l2_far(p, c, &BWD); }

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
static const td_intent intent_bwd = {
    .operation = "the gradient of the L2 norm of each row over its N columns: dy * r - x * r^3 * sum(dy * x), r = 1 / "
                 "sqrt(sum x^2 + eps)",
    .definition = "flash-linear-attention l2norm (fla/modules/l2norm.py), the kernels' library: y = x / sqrt(sum_k "
                  "x_k^2 + eps) over the row (eps inside the root, no division by N)",
    TD_SPECS(l2_bwd_intent),
    .gap = l2_gap,
};

const td_contract td_c_l2_norm_triton2_fwd = {
    .id = "l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness",
    .file = "l2_norm_triton2",
    .family = "normalization",
    .io_class = "MaskedKernelIO_1 (l2FwdIO)",
    .kind = "exact",
    .formula = "Y[pid*stride + j] = X[pid*stride + j] / sqrt(sum_{k < min(N, BLOCK_N)} X[pid*stride + k]^2 + eps)",
    .nparams = NP,
    .params = params,
    .nregions = NRF,
    .regions = regions_fwd,
    .sv = TD_SV_REAL,
    .sv_note = "eps > 0 (2^-149 .. 2^13; the theorem allows eps <= 0, where binary32 gives 0 * inf = NaN on a zero "
               "row); |x| <= 2^40; zero rows give exactly 0; N = 0 writes nothing",
    .error_model = "tl.sum's tree of the min(N, B) squares RN(x*x), + eps, sqrt, 1 /, x * rstd",
    .classes = RN_CLASSES_L2 | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_fwd,
    .far = far_fwd,
    .check = check_fwd,
    .writes = writes_fwd,
    TD_SPECS(l2_fwd),
    .intent = &intent_fwd,
};
const td_contract td_c_l2_norm_triton2_bwd = {
    .id = "l2_norm_triton2.l2_norm_bwd_kernel_correctness",
    .file = "l2_norm_triton2",
    .family = "normalization",
    .io_class = "MaskedKernelIO_2 (l2BwdIO)",
    .kind = "exact",
    .formula = "DX[..j] = DY[..j] * rstd - (sum_k DY[..k] X[..k]) * (1 / (var + eps)) * rstd * X[..j], var = sum_k "
               "X[..k]^2, rstd = 1 / sqrt(var + eps), k < min(N, BLOCK_N)",
    .nparams = NP,
    .params = params,
    .nregions = NRB,
    .regions = regions_bwd,
    .sv = TD_SV_REAL,
    .sv_note = "eps >= 2^-40 and |x|, |dy| <= 2^24: every intermediate finite (the theorem allows eps <= 0, where "
               "binary32 gives 0 * inf = NaN); N = 0 writes nothing",
    .error_model = "tl.sum trees of RN(x*x) and RN(dy*x), + eps, sqrt, 1 /, 1 / (var + eps), then "
                   "dy*rstd - ((D*q)*rstd)*x in the kernel's order",
    .classes = RN_CLASSES_L2 | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_bwd,
    .far = far_bwd,
    .check = check_bwd,
    .writes = writes_bwd,
    TD_SPECS(l2_bwd),
    .intent = &intent_bwd,
};
