/* kldiv_ops: Liger's KL-divergence kernels, the reduction = 'none' forward branches and
 * both backward branches (catalogue part 1, src lines 5736-5876).  Eight theorems, four
 * launches: each branch has a compute-facing statement and a MaskedKernelIO face.
 *
 *   kldiv_backward_default_{compute_correct,correctness}:      new_grads[pid, j] = t * (0.0 - 1)
 *   kldiv_backward_log_target_{compute_correct,correctness}:   new_grads[pid, j] = 0.0 - exp(t)
 *   kldiv_forward_default_none_{compute_correct,correctness}:  loss[pid, j] = gt * (log(max(gt, eps)) - y)
 *   kldiv_forward_log_target_none_{compute_correct,correctness}: loss[pid, j] = exp(gt) * (gt - y)
 *   read = pid * in_stride + j, write = pid * out_stride + j (linearOffset), mask j < n_cols;
 *   the compute faces add hOutInj (the output offsets injective).
 *
 * Checked against bench/tritonbench_g/kldiv_ops (.py and KldivOps.lean): the [named]
 * readings defaultSpec = -target, logTargetSpec = -exp(target), forwardDefaultSpec =
 * gt*(log(max(gt, eps)) - y), forwardLogTargetSpec = exp(gt)*(gt - y) are the kernel's
 * expressions.  KldivOps.lean models each branch as a ONE-BLOCK SLICE (one BLOCK_SIZE
 * iteration of `for i in range(0, n_cols, BLOCK_SIZE)`, lanes i : Fin BLOCK_SIZE): the
 * theorems speak about the Triton program exactly when the loop runs once, so the
 * launches keep n_cols <= BLOCK_SIZE (the host's BLOCK = min(16384, next_pow2(V)) does
 * for V <= 16384); the streamed loop is covered by kldiv_triton's io theorem.
 *
 * Error model, in the kernel's order: t * -1 is exact (tolerance 0); -exp(t) is exp's
 * budget (negation exact); the default forward is max (exact), log (budget), one
 * subtraction and one product; the log-target forward exp (budget), one subtraction,
 * one product.
 * Special values: inputs are finite; eps > 0 (the host passes 1e-10), so
 * log(max(gt, eps)) is finite and gt = 0 gives exactly 0 * finite = 0; log-space
 * targets keep exp finite (t <= 88.5 backward, gt <= 80 forward with |y| <= 1000).
 * n_cols = 0 (an empty row: nothing written) is drawn; strides 0 (broadcast input rows)
 * and padded rows are drawn.
 */
#include "reduce_common.h"

enum { PB_TSTRIDE, PB_GSTRIDE, PB_NCOLS, PB_BLOCK, NPB };                     /* backward */
enum { RB_T, RB_G, NRB };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK, PF_EPS, NPF }; /* forward (eps: default only) */
enum { RF_Y, RF_GT, RF_LOSS, NRF };

static const rc_kl_layout BWD_DEFAULT = {1, {PB_TSTRIDE, -1}, {RB_T, -1}, {RC_KL_T_ANY, 0}, PB_GSTRIDE, RB_G,
                                         PB_NCOLS, PB_BLOCK, 1, 0};
static const rc_kl_layout BWD_LOG = {1, {PB_TSTRIDE, -1}, {RB_T, -1}, {RC_KL_T_LOG, 0}, PB_GSTRIDE, RB_G,
                                     PB_NCOLS, PB_BLOCK, 1, 0};
static const rc_kl_layout FWD_DEFAULT = {2, {PF_YSTRIDE, PF_GTSTRIDE}, {RF_Y, RF_GT}, {RC_KL_Y, RC_KL_GT_PROB},
                                         PF_LSTRIDE, RF_LOSS, PF_NCOLS, PF_BLOCK, 1, 0};
static const rc_kl_layout FWD_LOG = {2, {PF_YSTRIDE, PF_GTSTRIDE}, {RF_Y, RF_GT}, {RC_KL_Y, RC_KL_GT_LOG},
                                     PF_LSTRIDE, RF_LOSS, PF_NCOLS, PF_BLOCK, 1, 0};

#define TD_SPEC_FILE "kldiv_ops.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_bwd[NPB] = {{"target_stride", TD_P_INT}, {"new_grads_stride", TD_P_INT},
                                              {"n_cols", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions_bwd[NRB] = {{"target_ptr", TD_F32, TD_R_IN}, {"new_grads_ptr", TD_F32, TD_R_OUT}};
static const td_param_decl params_fwd[NPF] = {{"y_stride", TD_P_INT}, {"gt_stride", TD_P_INT},
                                              {"loss_stride", TD_P_INT}, {"n_cols", TD_P_INT},
                                              {"BLOCK_SIZE", TD_P_INT}, {"eps", TD_P_REAL}};
static const td_region_decl regions_fwd[NRF] = {
    {"y_ptr", TD_F32, TD_R_IN}, {"gt_ptr", TD_F32, TD_R_IN}, {"loss_ptr", TD_F32, TD_R_OUT}};

static void gen_bwd_default(td_producer *p, td_case *c) { rc_kl_gen(p, c, &BWD_DEFAULT); }
static void gen_bwd_log(td_producer *p, td_case *c) { rc_kl_gen(p, c, &BWD_LOG); }
static void gen_fwd_log(td_producer *p, td_case *c) { rc_kl_gen(p, c, &FWD_LOG); }
static void gen_fwd_default(td_producer *p, td_case *c) {
    static const float eps[] = {1e-10f, 0x1p-149f, 1e-6f, 0.5f, 1.0f};
    rc_kl_gen(p, c, &FWD_DEFAULT);
    c->p[PF_EPS].r = eps[td_prod_u32(p, 0, 4)];
}
static void far_bwd_default(td_producer *p, td_case *c) { rc_kl_far(p, c, &BWD_DEFAULT); }
static void far_bwd_log(td_producer *p, td_case *c) { rc_kl_far(p, c, &BWD_LOG); }
static void far_fwd_default(td_producer *p, td_case *c) { rc_kl_far(p, c, &FWD_DEFAULT); }
static void far_fwd_log(td_producer *p, td_case *c) { rc_kl_far(p, c, &FWD_LOG); }
static const char *check_bwd_default(const td_case *c) { return rc_kl_check(c, &BWD_DEFAULT); }
static const char *check_bwd_log(const td_case *c) { return rc_kl_check(c, &BWD_LOG); }
static const char *check_fwd_log(const td_case *c) { return rc_kl_check(c, &FWD_LOG); }
static const char *check_fwd_default(const td_case *c) {
    const char *e = rc_real_param_check(c, PF_EPS);
    if (e) return e;
    if (!(c->p[PF_EPS].r > 0)) return "eps > 0 (log(max(gt, eps)) finite: Lean's log 0 = 0 is not binary32's)";
    return rc_kl_check(c, &FWD_DEFAULT);
}
static void writes_bwd(const td_case *c, td_wset *ws) { rc_kl_writes(c, ws, &BWD_DEFAULT); }
static void writes_fwd(const td_case *c, td_wset *ws) { rc_kl_writes(c, ws, &FWD_DEFAULT); }

/* Intents (docs/intent.md): torch.nn.functional.kl_div, reduction='none', both
 * log_target settings, and its autograd gradient (reduce_common.spec.h). */
static const td_intent i_bwd_default = {
    .operation = "the gradient of kl_div(y, target, reduction='none') with respect to y: -target",
    .definition = "PyTorch autograd of torch.nn.functional.kl_div (log_target=False), upstream gradient 1",
    TD_SPECS(intent_bwd_default),
};
static const td_intent i_bwd_log = {
    .operation = "the gradient of kl_div(y, target, reduction='none', log_target=True) with respect to y: "
                 "-exp(target)",
    .definition = "PyTorch autograd of torch.nn.functional.kl_div (log_target=True), upstream gradient 1",
    TD_SPECS(intent_bwd_log),
};
static const td_intent i_fwd_default = {
    .operation = "pointwise KL divergence target * (log target - y), 0 where target = 0",
    .definition = "torch.nn.functional.kl_div(y, target, reduction='none', log_target=False): "
                  "xlogy(target, target) - target * y",
    TD_SPECS(intent_fwd_default),
};
static const td_intent i_fwd_log = {
    .operation = "pointwise KL divergence exp(target) * (target - y) of a log-space target",
    .definition = "torch.nn.functional.kl_div(y, target, reduction='none', log_target=True)",
    TD_SPECS(intent_fwd_log),
};

/* one-block slices (n_cols <= BLOCK_SIZE): n = k BLOCK + 1 and a loop over tiles cannot occur */
#define KL_CLASSES                                                                                                 \
    ((TD_BCLASSES_TILED & ~(TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_MULTI_TILE))) | TD_BC(TD_BC_STRIDE_GT_ROW) |      \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31))
#define KL_BWD_DEFAULT                                                                                             \
    .file = "kldiv_ops", .family = "loss", .kind = "exact", .formula = "new_grads[pid, j] = target[pid, j] * (0.0 - 1)", \
    .nparams = NPB, .params = params_bwd, .nregions = NRB, .regions = regions_bwd, .sv = TD_SV_REAL,                 \
    .sv_note = "finite targets; n_cols <= BLOCK_SIZE (one-block slice)",                                            \
    .error_model = "target * -1 is exact (tolerance 0)", .classes = KL_CLASSES, .gen = gen_bwd_default,                \
    .far = far_bwd_default, .check = check_bwd_default, .writes = writes_bwd, TD_SPECS(bwd_default), .intent = &i_bwd_default
#define KL_BWD_LOG                                                                                                  \
    .file = "kldiv_ops", .family = "loss", .kind = "exact", .formula = "new_grads[pid, j] = 0.0 - exp(target[pid, j])", \
    .nparams = NPB, .params = params_bwd, .nregions = NRB, .regions = regions_bwd, .sv = TD_SV_REAL,                 \
    .sv_note = "targets <= 88.5 (exp finite); n_cols <= BLOCK_SIZE (one-block slice)",                              \
    .error_model = "exp's budget; the negation is exact", .classes = KL_CLASSES, .gen = gen_bwd_log,                   \
    .far = far_bwd_log, .check = check_bwd_log, .writes = writes_bwd, TD_SPECS(bwd_log), .intent = &i_bwd_log
#define KL_FWD_DEFAULT                                                                                              \
    .file = "kldiv_ops", .family = "loss", .kind = "exact",                                                         \
    .formula = "loss[pid, j] = gt * (log(max(gt, eps)) - y)", .nparams = NPF, .params = params_fwd,                 \
    .nregions = NRF, .regions = regions_fwd, .sv = TD_SV_REAL,                                                      \
    .sv_note = "eps > 0: log(max(gt, eps)) finite, gt = 0 -> exactly 0; n_cols <= BLOCK_SIZE (one-block slice)",     \
    .error_model = "max exact, log budget, one subtraction, one product", .classes = KL_CLASSES,                   \
    .gen = gen_fwd_default, .far = far_fwd_default, .check = check_fwd_default, .writes = writes_fwd, TD_SPECS(fwd_default), .intent = &i_fwd_default
#define KL_FWD_LOG                                                                                                  \
    .file = "kldiv_ops", .family = "loss", .kind = "exact", .formula = "loss[pid, j] = exp(gt) * (gt - y)",         \
    .nparams = NPF - 1, .params = params_fwd, .nregions = NRF, .regions = regions_fwd, .sv = TD_SV_REAL,            \
    .sv_note = "gt in [-120, 80], |y| <= 1000: exp(gt) * (gt - y) finite; n_cols <= BLOCK_SIZE (one-block slice)",  \
    .error_model = "exp budget, one subtraction, one product", .classes = KL_CLASSES, .gen = gen_fwd_log,              \
    .far = far_fwd_log, .check = check_fwd_log, .writes = writes_fwd, TD_SPECS(fwd_log), .intent = &i_fwd_log

const td_contract td_c_kldiv_ops_bwd_default_cc = {
    .id = "kldiv_ops.kldiv_backward_default_compute_correct",
    .io_class = "Realizes_without_Rounding (writeIf i < n_cols at linearOffset)",
    KL_BWD_DEFAULT,
};
const td_contract td_c_kldiv_ops_bwd_default_io = {
    .id = "kldiv_ops.kldiv_backward_default_correctness",
    .io_class = "MaskedKernelIO_1 (kldivBackwardDefaultIO)",
    KL_BWD_DEFAULT,
};
const td_contract td_c_kldiv_ops_bwd_log_cc = {
    .id = "kldiv_ops.kldiv_backward_log_target_compute_correct",
    .io_class = "Realizes_without_Rounding (writeIf i < n_cols at linearOffset)",
    KL_BWD_LOG,
};
const td_contract td_c_kldiv_ops_bwd_log_io = {
    .id = "kldiv_ops.kldiv_backward_log_target_correctness",
    .io_class = "MaskedKernelIO_1 (kldivBackwardLogTargetIO)",
    KL_BWD_LOG,
};
const td_contract td_c_kldiv_ops_fwd_default_cc = {
    .id = "kldiv_ops.kldiv_forward_default_none_compute_correct",
    .io_class = "Realizes_without_Rounding (writeIf i < n_cols at linearOffset)",
    KL_FWD_DEFAULT,
};
const td_contract td_c_kldiv_ops_fwd_default_io = {
    .id = "kldiv_ops.kldiv_forward_default_none_correctness",
    .io_class = "MaskedKernelIO_2 (kldivForwardDefaultIO)",
    KL_FWD_DEFAULT,
};
const td_contract td_c_kldiv_ops_fwd_log_cc = {
    .id = "kldiv_ops.kldiv_forward_log_target_none_compute_correct",
    .io_class = "Realizes_without_Rounding (writeIf i < n_cols at linearOffset)",
    KL_FWD_LOG,
};
const td_contract td_c_kldiv_ops_fwd_log_io = {
    .id = "kldiv_ops.kldiv_forward_log_target_none_correctness",
    .io_class = "MaskedKernelIO_2 (kldivForwardLogTargetIO)",
    KL_FWD_LOG,
};
