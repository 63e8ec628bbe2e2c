/* rmsnorm_fused_llama  (catalogue part 2, src lines 8966-9009)
 *
 *   rms_norm_fwd_fused_llama_output_summary: Realizes_without_Rounding, writeIf i < N at
 *     yOffset s stride i, expected MemCell.of .fp16 (FloatDType.real.cast .fp16 (some
 *     (rmsnormSpec s X W stride N BLOCK_SIZE eps i)));  hNpos, hNle, hOutInj.
 *   rms_norm_fwd_fused_llama_io_correctness (R): StreamEmitMasked2DKernelIO_2
 *     (rmsnormFusedLlamaKernelIO, outDType := .fp16) ⊨[R] rmsLlamaStreamSpec = xs t j *
 *     (sqrt(sum x^2 / N + eps))^-1 * ws t j, T = 1, read1 = write = p0*stride + j,
 *     read2 = j, masks j < N;  hNpos, hNle.
 *
 * Checked against bench/tritonbench_g/rmsnorm_fused_llama (.py and RmsnormFusedLlama.lean):
 * the readings are the kernel's.  The program is rmsnorm_fused's (_var += x * x without
 * the tl.where, other=0. suffices; rstd = 1 / tl.sqrt(var + eps); w loaded .to(fp32)),
 * except the store: tl.store(Y + cols, y.to(tl.float16)).  The catalogue asks whether the
 * normalised x is cast to fp16 before the weight: it is not; the single cast is of
 * y = x_hat * w, as the summary's spec says.
 *
 * The cast (slot "y_to_fp16", fp16:rne:inf): y.to(tl.float16) rounds the binary32 y to
 * binary16, round to nearest even (Triton's fp32 -> fp16 conversion on NVIDIA GPUs).
 * The summary's FloatDType.real.cast .fp16 is that conversion, which the
 * Realizes_without_Rounding model takes as the identity; tilediff reads it as the
 * rounding the kernel performs.  Summary launches: X, W, Y binary32 (Y = empty_like(x):
 * the fp16 value is widened exactly by the store), so the contract is
 * Y = RN16(rmsnormSpec).  ⊨[R] with outDType .fp16: R.round .fp16 is the same
 * conversion; io launches are binary16 in and out (the module's tests), the store of an
 * fp16 value into fp16 is exact: Y = RN16(exact value).
 *
 * Error model (rmsnorm_common.h): the N squares summed by tl.sum's tree, / N, + eps,
 * sqrt, 1 /, (x * rstd) * w, then the binary16 cast of the interval: a lane costs 0 unless
 * the kernel's binary32 error interval straddles a binary16 rounding boundary (then one
 * binary16 ulp).
 *
 * Domain and special values: eps > 0 (2^-149 .. 2^13); binary32 |x|, |w| <= 2^40, the
 * products may exceed 65504 and round to inf in binary16 (the exact value's cast is inf
 * too: the reference follows RN16); binary16 inputs any finite value.  BLOCK_SIZE up to
 * 2^14 (the wrapper forces 16384), N <= min(BLOCK_SIZE, 2048).
 */
#include "rmsnorm_common.h"

enum { P_STRIDE, P_N, P_B, P_EPS, NP };
enum { R_X, R_Y, R_W, NR };
enum { C_Y16 };

static const rn_fused_layout LAYOUT = {P_STRIDE, P_N, P_B, P_EPS, R_X, R_Y, R_W, 14};

#define TD_SPEC_FILE "rmsnorm_fused_llama.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride", TD_P_INT}, {"N", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}, {"eps", TD_P_REAL}};
static const td_region_decl regions_f32[NR] = {
    {"X", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_OUT}, {"W", TD_F32, TD_R_IN}};
static const td_region_decl regions_f16[NR] = {
    {"X", TD_F16, TD_R_IN}, {"Y", TD_F16, TD_R_OUT}, {"W", TD_F16, TD_R_IN}};
static const td_cast_decl casts[1] = {
    {"y_to_fp16", "fp16:rne:inf", "y.to(tl.float16) before the store (FloatDType.real.cast .fp16 / R.round .fp16)"}};

static void gen(td_producer *p, td_case *c) { rn_fused_gen(p, c, &LAYOUT); }
static const char *check(const td_case *c) { return rn_fused_check(c, &LAYOUT); }
static void writes(const td_case *c, td_wset *ws) { rn_fused_writes(c, ws, &LAYOUT); }
static void far(td_producer *p, td_case *c) { rn_fused_far(p, c, &LAYOUT); }

static const td_intent intent = {
    .operation = "RMS norm of each row over its N columns: x / sqrt(mean(x^2) + eps) * w, stored in fp16",
    .definition = "torch.nn.RMSNorm (PyTorch documentation; Zhang and Sennrich 2019)",
    TD_SPECS(intent),
};

#define RMSNORM_LLAMA_COMMON                                                                                      \
    .file = "rmsnorm_fused_llama", .family = "normalization", .kind = "rounding", .nparams = NP, .params = params, \
    .nregions = NR, .ncasts = 1, .casts = casts, .sv = TD_SV_IEEE,                                                 \
    .sv_note = "eps > 0 binary32; |x|, |w| <= 2^40 keep the binary32 value finite; a y beyond 65504 is inf in "    \
               "binary16, as RN16 of the exact value",                                                              \
    .error_model = "tl.sum's tree of RN(x*x), / N, + eps, sqrt, 1 /, (x * rstd) * w, then the binary16 cast",      \
    .classes = RN_CLASSES_ONE_TILE | TD_BC(TD_BC_OFFSET_2_31), .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(llama), .intent = &intent

const td_contract td_c_rmsnorm_fused_llama_summary = {
    .id = "rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary",
    .io_class = "Realizes_without_Rounding (writeIf i < N at yOffset s stride i, MemCell.of .fp16)",
    .formula = "Y[pid*stride + i] = fp16(X[..i] / sqrt(sum_{j<N} X^2 / N + eps) * W[i]), X, W, Y binary32",
    .regions = regions_f32,
    RMSNORM_LLAMA_COMMON,
};
const td_contract td_c_rmsnorm_fused_llama_io = {
    .id = "rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_2 (rmsnormFusedLlamaKernelIO, outDType .fp16)",
    .formula = "Y[pid*stride + j] = R.round(.fp16)(X[..j] / sqrt(sum X^2 / N + eps) * W[j]), binary16 in and out",
    .regions = regions_f16,
    RMSNORM_LLAMA_COMMON,
};
