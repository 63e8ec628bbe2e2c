/* rmsnorm_fused  (catalogue part 2, src lines 8925-8965)
 *
 *   rms_norm_fwd_fused_output_summary: Realizes_without_Rounding, writeIf i < N at
 *     yOffset s stride i = pid*stride + i, expected rmsnormSpec = x[i] * (sqrt(sum_{j < N}
 *     x[j]^2 / N + eps))^-1 * W[i];  hNpos: 0 < N, hNle: N <= BLOCK_SIZE, hOutInj.
 *   rms_norm_fwd_fused_io_correctness (R): StreamEmitMasked2DKernelIO_2
 *     (rmsnormFusedKernelIO, outDType := .real) ⊨[R] rmsFusedStreamSpec, T = 1,
 *     read1 = write = p0*stride + j, read2 = j, masks j < N;  hNpos, hNle.
 *
 * Checked against bench/tritonbench_g/rmsnorm_fused (.py and RmsnormFused.lean): the
 * readings are the kernel's (TiledRMSNorm.rmsAffine; rmsFusedStreamSumSq is the same sum
 * over the single step).  The program `row` folds _var += x * x (tl.zeros tile, masked
 * lanes 0.0 by other= and tl.where) over range(0, N, BLOCK_SIZE) -- one step under hNle --
 * then var = tl.sum(_var) / N, rstd = 1 / tl.sqrt(var + eps), and stores
 * y = (x * rstd) * w.  X and Y share `stride`.
 *
 * Error model (rmsnorm_common.h): the N squares RN(x*x) summed by tl.sum's tree (one
 * tile: ceil(log2 N) roundings on any path), / N, + eps, sqrt and 1 / (both correctly
 * rounded on both backends), then (x * rstd) * w.
 *
 * ⊨[R]: outDType := .real, an unrounded store in Lean; the project reads R as the
 * rounding of the kernel's store into the output's element format (add_value.c).  The
 * module's tests run binary32 (TritonLlamaRMSNorm with float32 x), so Y is binary32 and R
 * is the binary32 store (cast slot "store", fp32:rne:inf): the contract claims
 * Y = RN32(exact value), which the kernel's binary32 y meets within the model's bound
 * carried through the cast.
 *
 * Domain and special values: eps a binary32 kernel scalar > 0 (2^-149 .. 2^13); |x|, |w|
 * <= 2^40; zero rows give exactly 0.  BLOCK_SIZE up to 2^13 (the wrapper's
 * MAX_FUSED_SIZE = 65536 / 4 is 2^14), N <= min(BLOCK_SIZE, 2048); rows one stride apart
 * (padded strides drawn).
 */
#include "rmsnorm_common.h"

enum { P_STRIDE, P_N, P_B, P_EPS, NP };
enum { R_X, R_Y, R_W, NR };
enum { C_STORE };

static const rn_fused_layout LAYOUT = {P_STRIDE, P_N, P_B, P_EPS, R_X, R_Y, R_W, 13};

#define TD_SPEC_FILE "rmsnorm_fused.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride", TD_P_INT}, {"N", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}, {"eps", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"X", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_OUT}, {"W", TD_F32, TD_R_IN}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the stored y (a binary32 store)"}};

static void gen(td_producer *p, td_case *c) { rn_fused_gen(p, c, &LAYOUT); }
static const char *check(const td_case *c) { return rn_fused_check(c, &LAYOUT); }
static void writes(const td_case *c, td_wset *ws) { rn_fused_writes(c, ws, &LAYOUT); }
static void far(td_producer *p, td_case *c) { rn_fused_far(p, c, &LAYOUT); }

#define RMSNORM_FUSED_COMMON                                                                                      \
    .file = "rmsnorm_fused", .family = "normalization", .nparams = NP, .params = params, .nregions = NR,          \
    .regions = regions, .sv = TD_SV_REAL,                                                                          \
    .sv_note = "eps > 0 binary32, |x|, |w| <= 2^40: every intermediate finite; zero rows give exactly 0",          \
    .classes = RN_CLASSES_ONE_TILE | TD_BC(TD_BC_OFFSET_2_31), .gen = gen, .far = far, .check = check, .writes = writes

static const td_intent intent_sum_ = {
    .operation = "RMS norm of each row over its N columns: x / sqrt(mean(x^2) + eps) * w",
    .definition = "torch.nn.RMSNorm (PyTorch documentation; Zhang and Sennrich 2019)",
    TD_SPECS(intent_sum),
};
static const td_intent intent_io_ = {
    .operation = "RMS norm of each row over its N columns: x / sqrt(mean(x^2) + eps) * w",
    .definition = "torch.nn.RMSNorm (PyTorch documentation; Zhang and Sennrich 2019)",
    TD_SPECS(intent_io),
};

const td_contract td_c_rmsnorm_fused_summary = {
    .id = "rmsnorm_fused.rms_norm_fwd_fused_output_summary",
    .io_class = "Realizes_without_Rounding (writeIf i < N at yOffset s stride i)",
    .kind = "exact",
    .formula = "Y[pid*stride + i] = X[pid*stride + i] / sqrt(sum_{j<N} X[pid*stride + j]^2 / N + eps) * W[i]",
    .error_model = "tl.sum's tree of RN(x*x), / N, + eps, sqrt, 1 /, (x * rstd) * w",
    RMSNORM_FUSED_COMMON,
    TD_SPECS(fused_sum),
    .intent = &intent_sum_,
};
const td_contract td_c_rmsnorm_fused_io = {
    .id = "rmsnorm_fused.rms_norm_fwd_fused_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_2 (rmsnormFusedKernelIO, outDType .real)",
    .kind = "rounding",
    .formula = "Y[pid*stride + j] = R.round(X[pid*stride + j] / sqrt(sum_{j'<N} X^2 / N + eps) * W[j]), R = the "
               "binary32 store",
    .ncasts = 1,
    .casts = casts,
    .error_model = "the binary32 y as in the summary, then the binary32 store cast of the exact value",
    RMSNORM_FUSED_COMMON,
    TD_SPECS(fused_io),
    .intent = &intent_io_,
};
