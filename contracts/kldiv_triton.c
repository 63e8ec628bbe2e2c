/* kldiv_triton: Liger's KL-divergence kernels in the kldiv_triton source (catalogue
 * part 2, src lines 5878-5990): four compute-facing branch theorems and the streamed
 * rounding face of the default forward.
 *
 *   kldiv_backward_default_compute_correct:      input[pid, i] = target[pid, i] * (0.0 - 1)
 *   kldiv_backward_log_target_compute_correct:   input[pid, i] = 0.0 - exp(target[pid, i])
 *   kldiv_forward_default_none_compute_correct:  loss[pid, i] = gt * (log(gt) - y)
 *   kldiv_forward_log_target_none_compute_correct: loss[pid, i] = exp(gt) * (gt - y)
 *     (writeIf i < n_cols at linearOffset pid out_stride i; hBS: 0 < BLOCK_SIZE, hLen:
 *     n_cols <= BLOCK_SIZE, hLenPos: 0 < n_cols, hOutInj)
 *   kldiv_forward_default_none_io_correctness (R): StreamEmitMasked2DKernelIO_2 ⊨[R]
 *     klStreamSpec: out[t, j] = gt * (log(gt) - y) at column t*BLOCK_SIZE + j < n_cols for
 *     T = cdiv(n_cols, BLOCK_SIZE) steps; read/write at pid * stride + t*BLOCK_SIZE + j;
 *     hBS, hly: loss != y, hlg: loss != gt.
 *
 * Checked against bench/tritonbench_g/kldiv_triton (.py and the Lean file): the [named]
 * specs are the kernel's expressions; unlike kldiv_ops this default forward has NO eps
 * clamp, and the backward writes the gradient into input_ptr (an output buffer the kernel
 * never reads).  The four compute theorems are stated for the single-chunk regime (hLen);
 * the io theorem for any number of chunks (the launches draw n_cols up to 4096 with small
 * blocks: multi-step streams and tails).
 *
 * ⊨[R]: R rounds the stored value to the output's format; the loss region is binary32,
 * so R is the binary32 store (cast slot "store", fp32:rne:inf) and the lane's tolerance
 * is the kernel's error bound plus what that cast of the exact value moves.
 *
 * Error model, in the kernel's order: t * -1 exact (tolerance 0), -exp(t) exp's budget,
 * log budget + one subtraction + one product, exp budget + one subtraction + one product.
 * Special values: Lean's log is total (log 0 = 0) and the catalogue leaves gt = 0 open;
 * the binary32 kernel computes 0 * (log 0 - y) = 0 * -inf = NaN.  The generator draws
 * probability targets with exact zeros in some cases and the oracle follows the kernel
 * there (the MPFR reference evaluates the same IEEE special case); every other target
 * is a positive probability, tiny ones and subnormals included.  Log-space inputs keep
 * exp finite (t <= 88.5; gt <= 80 with |y| <= 1000).
 */
#include "reduce_common.h"

enum { PB_ISTRIDE, PB_TSTRIDE, PB_NCOLS, PB_BLOCK, NPB }; /* backward */
enum { RB_IN, RB_T, NRB };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK, NPF }; /* forward */
enum { RF_Y, RF_GT, RF_LOSS, NRF };
enum { C_STORE };

static const rc_kl_layout BWD_DEFAULT = {1, {PB_TSTRIDE, -1}, {RB_T, -1}, {RC_KL_T_ANY, 0}, PB_ISTRIDE, RB_IN,
                                         PB_NCOLS, PB_BLOCK, 1, 1};
static const rc_kl_layout BWD_LOG = {1, {PB_TSTRIDE, -1}, {RB_T, -1}, {RC_KL_T_LOG, 0}, PB_ISTRIDE, RB_IN,
                                     PB_NCOLS, PB_BLOCK, 1, 1};
static const rc_kl_layout FWD_DEFAULT = {2, {PF_YSTRIDE, PF_GTSTRIDE}, {RF_Y, RF_GT}, {RC_KL_Y, RC_KL_GT_PROB},
                                         PF_LSTRIDE, RF_LOSS, PF_NCOLS, PF_BLOCK, 1, 1};
static const rc_kl_layout FWD_LOG = {2, {PF_YSTRIDE, PF_GTSTRIDE}, {RF_Y, RF_GT}, {RC_KL_Y, RC_KL_GT_LOG},
                                     PF_LSTRIDE, RF_LOSS, PF_NCOLS, PF_BLOCK, 1, 1};
static const rc_kl_layout FWD_STREAM = {2, {PF_YSTRIDE, PF_GTSTRIDE}, {RF_Y, RF_GT}, {RC_KL_Y, RC_KL_GT_PROB},
                                        PF_LSTRIDE, RF_LOSS, PF_NCOLS, PF_BLOCK, 0, 0};

#define TD_SPEC_FILE "kldiv_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_bwd[NPB] = {{"input_stride", TD_P_INT}, {"target_stride", TD_P_INT},
                                              {"n_cols", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions_bwd[NRB] = {{"input_ptr", TD_F32, TD_R_OUT}, {"target_ptr", TD_F32, TD_R_IN}};
static const td_param_decl params_fwd[NPF] = {{"y_stride", TD_P_INT}, {"gt_stride", TD_P_INT},
                                              {"loss_stride", TD_P_INT}, {"n_cols", TD_P_INT},
                                              {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions_fwd[NRF] = {
    {"y_ptr", TD_F32, TD_R_IN}, {"gt_ptr", TD_F32, TD_R_IN}, {"loss_ptr", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round of the stored loss (a binary32 store)"}};

static void gen_bwd_default(td_producer *p, td_case *c) { rc_kl_gen(p, c, &BWD_DEFAULT); }
static void gen_bwd_log(td_producer *p, td_case *c) { rc_kl_gen(p, c, &BWD_LOG); }
static void gen_fwd_default(td_producer *p, td_case *c) { rc_kl_gen(p, c, &FWD_DEFAULT); }
static void gen_fwd_log(td_producer *p, td_case *c) { rc_kl_gen(p, c, &FWD_LOG); }
static void gen_fwd_stream(td_producer *p, td_case *c) { rc_kl_gen(p, c, &FWD_STREAM); }
static void far_bwd_default(td_producer *p, td_case *c) { rc_kl_far(p, c, &BWD_DEFAULT); }
static void far_bwd_log(td_producer *p, td_case *c) { rc_kl_far(p, c, &BWD_LOG); }
static void far_fwd_default(td_producer *p, td_case *c) { rc_kl_far(p, c, &FWD_DEFAULT); }
static void far_fwd_log(td_producer *p, td_case *c) { rc_kl_far(p, c, &FWD_LOG); }
static void far_fwd_stream(td_producer *p, td_case *c) { rc_kl_far(p, c, &FWD_STREAM); }
static const char *check_bwd_default(const td_case *c) { return rc_kl_check(c, &BWD_DEFAULT); }
static const char *check_bwd_log(const td_case *c) { return rc_kl_check(c, &BWD_LOG); }
static const char *check_fwd_default(const td_case *c) { return rc_kl_check(c, &FWD_DEFAULT); }
static const char *check_fwd_log(const td_case *c) { return rc_kl_check(c, &FWD_LOG); }
static const char *check_fwd_stream(const td_case *c) { return rc_kl_check(c, &FWD_STREAM); }
static void writes_bwd(const td_case *c, td_wset *ws) { rc_kl_writes(c, ws, &BWD_DEFAULT); }
static void writes_fwd(const td_case *c, td_wset *ws) { rc_kl_writes(c, ws, &FWD_DEFAULT); }

#define KLT_COMMON                                                                                                 \
    .file = "kldiv_triton", .family = "loss", .sv = TD_SV_REAL,                                                    \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31)
/* the four compute theorems are one-block slices (hLen: n_cols <= BLOCK_SIZE): no
 * n = k BLOCK + 1 and no loop over tiles */
#define KLT_COMMON_ONE_BLOCK                                                                                       \
    .file = "kldiv_triton", .family = "loss", .sv = TD_SV_REAL,                                                    \
    .classes = (TD_BCLASSES_TILED & ~(TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_MULTI_TILE))) | TD_BC(TD_BC_STRIDE_GT_ROW) |   \
               TD_BC(TD_BC_OFFSET_2_31)
#define KLT_BWD .nparams = NPB, .params = params_bwd, .nregions = NRB, .regions = regions_bwd, .writes = writes_bwd
#define KLT_FWD .nparams = NPF, .params = params_fwd, .nregions = NRF, .regions = regions_fwd, .writes = writes_fwd

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

const td_contract td_c_kldiv_triton_bwd_default = {
    .id = "kldiv_triton.kldiv_backward_default_compute_correct",
    .io_class = "ComputeCorrect (writeIf i < n_cols into input_ptr)",
    .kind = "exact",
    .formula = "input[pid, i] = target[pid, i] * (0.0 - 1)",
    .sv_note = "finite targets; 0 < n_cols <= BLOCK_SIZE",
    .error_model = "target * -1 is exact (tolerance 0)",
    .gen = gen_bwd_default,
    .far = far_bwd_default,
    .check = check_bwd_default,
    KLT_BWD,
    KLT_COMMON_ONE_BLOCK,
    TD_SPECS(bwd_default),
    .intent = &i_bwd_default,
};
const td_contract td_c_kldiv_triton_bwd_log = {
    .id = "kldiv_triton.kldiv_backward_log_target_compute_correct",
    .io_class = "ComputeCorrect (writeIf i < n_cols into input_ptr)",
    .kind = "exact",
    .formula = "input[pid, i] = 0.0 - exp(target[pid, i])",
    .sv_note = "targets <= 88.5 (exp finite); 0 < n_cols <= BLOCK_SIZE",
    .error_model = "exp's budget; the negation is exact",
    .gen = gen_bwd_log,
    .far = far_bwd_log,
    .check = check_bwd_log,
    KLT_BWD,
    KLT_COMMON_ONE_BLOCK,
    TD_SPECS(bwd_log),
    .intent = &i_bwd_log,
};
const td_contract td_c_kldiv_triton_fwd_default = {
    .id = "kldiv_triton.kldiv_forward_default_none_compute_correct",
    .io_class = "ComputeCorrect (writeIf i < n_cols at linearOffset)",
    .kind = "exact",
    .formula = "loss[pid, i] = gt * (log(gt) - y)",
    .sv_note = "gt >= 0; gt = 0 -> the kernel's NaN (0 * log 0), not Lean's 0; 0 < n_cols <= BLOCK_SIZE",
    .error_model = "log budget, one subtraction, one product",
    .gen = gen_fwd_default,
    .far = far_fwd_default,
    .check = check_fwd_default,
    KLT_FWD,
    KLT_COMMON_ONE_BLOCK,
    TD_SPECS(fwd_default),
    .intent = &i_fwd_default,
};
const td_contract td_c_kldiv_triton_fwd_log = {
    .id = "kldiv_triton.kldiv_forward_log_target_none_compute_correct",
    .io_class = "ComputeCorrect (writeIf i < n_cols at linearOffset)",
    .kind = "exact",
    .formula = "loss[pid, i] = exp(gt) * (gt - y)",
    .sv_note = "gt in [-120, 80], |y| <= 1000: finite; 0 < n_cols <= BLOCK_SIZE",
    .error_model = "exp budget, one subtraction, one product",
    .gen = gen_fwd_log,
    .far = far_fwd_log,
    .check = check_fwd_log,
    KLT_FWD,
    KLT_COMMON_ONE_BLOCK,
    TD_SPECS(fwd_log),
    .intent = &i_fwd_log,
};
const td_contract td_c_kldiv_triton_fwd_stream = {
    .id = "kldiv_triton.kldiv_forward_default_none_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_2 (kldivForwardDefaultNoneIO)",
    .kind = "rounding",
    .formula = "out[pid, t*B + j] = R.round(gt * (log(gt) - y)), t < cdiv(n_cols, B), R = the binary32 store",
    .sv_note = "gt >= 0; gt = 0 -> the kernel's NaN (0 * log 0), not Lean's 0; any n_cols (streamed)",
    .error_model = "log budget, one subtraction, one product, then the binary32 store cast of the exact value",
    .ncasts = 1,
    .casts = casts,
    .gen = gen_fwd_stream,
    .far = far_fwd_stream,
    .check = check_fwd_stream,
    KLT_FWD,
    KLT_COMMON | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_FULLY_MASKED),
    TD_SPECS(fwd_stream),
    .intent = &i_fwd_default,
};
