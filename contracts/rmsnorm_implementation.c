/* rmsnorm_implementation  (catalogue part 2, src lines 9010-9068)
 *
 *   rmsnorm_implementation_output_summary: Realizes_without_Rounding, writeIf True for
 *     i : Fin N_SIZE at outColOffset s sob som sok i = p0*sob + p1*som + i*sok, expected
 *     rmsnormWeightedYFullNSpec = x[i] * (sqrt(sum_{k < N_SIZE} x[k]^2 / N_SIZE + eps))^-1
 *     * rms_w[i*stride_rms_w];  hBlockPos: 0 < BLOCK_N_SIZE, hStrideOutKPos: 0 < stride_out_k,
 *     hXOutNe, hWOutNe (no hNpos: N_SIZE = 0 writes nothing).
 *   rmsnorm_implementation_io_correctness (R): StreamEmitMasked2DKernelIO_2
 *     (rmsnormImplementationKernelIO) ⊨[R] rmsImplStreamSpec = xs t j / sqrt(sum x^2 / N + eps)
 *     * ws t j over T = cdiv(N, B) steps, read1 = p0*sxb + p1*sxm + (t*B + j)*sxk, read2 =
 *     (t*B + j)*srw, write = p0*sob + p1*som + (t*B + j)*sok, masks t*B + j < N.
 *
 * Checked against bench/tritonbench_g/rmsnorm_implementation (.py and
 * RmsnormImplementation.lean): the readings are the kernel's.  The program (pid_batch,
 * pid_m) folds var += xf*xf over the column blocks (a [BLOCK_N_SIZE] binary32 tile from
 * tl.zeros, masked lanes 0.), var = tl.sum(var) / N_SIZE, std = tl.sqrt(var + eps), and
 * a second loop stores (x / std) * rms_w.  Lean writes x * std^-1; the reals are equal
 * and the error model follows the kernel's division.
 *
 * Error model (rmsnorm_common.h): the blocked sum of squares in the kernel's order, one
 * division by N (exact in binary32), + eps, sqrt (correctly rounded), x / std, * w.
 *
 * ⊨[R]: outDType is .real (unrounded); the project reads R as the rounding of the
 * kernel's store into the output's element format (add_value.c).  The io launches are
 * bfloat16 in and out (out = empty_like(x) of a bf16 activation, the Llama setting):
 * the binary32 value (x / std) * rms_w is stored with Triton's fp32 -> bf16 conversion,
 * round to nearest even (cast slot "store", bf16:rne:inf); the contract claims
 * out = RNbf16(exact value).  The summary launches are binary32 (R = identity).
 *
 * Domain and special values: eps a binary32 constexpr > 0 (2^-149 .. 2^13); |x|, |w|
 * <= 2^40; all-zero rows give exactly 0 / sqrt(eps) = 0.  N_SIZE = 0 writes nothing (the
 * kernel's var = 0/0 = NaN is never stored).  Layouts and sizes as rmsnorm_triton's.
 */
#include "rmsnorm_common.h"

enum { P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS, NP };
enum { R_X, R_W, R_O, NR };
enum { C_STORE };

static const rn_stream_layout LAYOUT = {P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS,
                                        R_X,   R_W,   R_O,   0};

#define TD_SPEC_FILE "rmsnorm_implementation.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_x_batch", TD_P_INT},   {"stride_x_m", TD_P_INT},   {"stride_x_k", TD_P_INT},
    {"stride_rms_w", TD_P_INT},     {"stride_out_batch", TD_P_INT}, {"stride_out_m", TD_P_INT},
    {"stride_out_k", TD_P_INT},     {"N_SIZE", TD_P_INT},       {"BLOCK_N_SIZE", TD_P_INT},
    {"eps", TD_P_REAL}};
static const td_region_decl regions_f32[NR] = {
    {"x_ptr", TD_F32, TD_R_IN}, {"rms_w_ptr", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};
static const td_region_decl regions_bf16[NR] = {
    {"x_ptr", TD_BF16, TD_R_IN}, {"rms_w_ptr", TD_BF16, TD_R_IN}, {"out_ptr", TD_BF16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "bf16:rne:inf", "R.round of the stored output (binary32 -> bfloat16 store)"}};

static void gen(td_producer *p, td_case *c) { rn_stream_gen(p, c, &LAYOUT); }
static void far(td_producer *p, td_case *c) { rn_stream_far(p, c, &LAYOUT); }
static const char *check(const td_case *c) { return rn_stream_check(c, &LAYOUT); }
static void writes(const td_case *c, td_wset *ws) { rn_stream_writes(c, ws, &LAYOUT); }

#define RMSNORM_IMPL_COMMON                                                                                       \
    .file = "rmsnorm_implementation", .family = "normalization", .nparams = NP, .params = params,                 \
    .nregions = NR, .sv = TD_SV_REAL,                                                                              \
    .sv_note = "eps > 0 binary32, |x|, |w| <= 2^40: every intermediate finite; zero rows give exactly 0; N_SIZE = " \
               "0 writes nothing",                                                                                 \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) |                        \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen, .far = far, .check = check, .writes = writes

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

const td_contract td_c_rmsnorm_implementation_summary = {
    .id = "rmsnorm_implementation.rmsnorm_implementation_output_summary",
    .io_class = "Realizes_without_Rounding (writeIf True at outColOffset s sob som sok i)",
    .kind = "exact",
    .formula = "out[p0*sob + p1*som + i*sok] = x[i] / sqrt(sum_{k<N} x[k]^2 / N + eps) * w[i*srw], binary32",
    .regions = regions_f32,
    .error_model = "per-lane sequential folds of RN(x*x), tl.sum's tree, / N, + eps, sqrt, x / std, * w",
    RMSNORM_IMPL_COMMON,
    TD_SPECS(impl_sum),
    .intent = &intent_sum_,
};
const td_contract td_c_rmsnorm_implementation_io = {
    .id = "rmsnorm_implementation.rmsnorm_implementation_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_2 (rmsnormImplementationKernelIO)",
    .kind = "rounding",
    .formula = "out[p0*sob + p1*som + i*sok] = R.round(x[i] / sqrt(sum x^2 / N + eps) * w[i*srw]), bfloat16, R = the "
               "bfloat16 store",
    .regions = regions_bf16,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the binary32 value as in the summary, then the bfloat16 store cast of the exact value",
    RMSNORM_IMPL_COMMON,
    TD_SPECS(impl_io),
    .intent = &intent_io_,
};
