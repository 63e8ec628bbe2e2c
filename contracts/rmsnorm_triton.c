/* rmsnorm_triton  (catalogue part 2, src lines 9069-9109)
 *
 *   rmsnorm_full_output_summary: Realizes_without_Rounding, writeIf True for k : Fin N at
 *     outOff s sob som sok k = p0*sob + p1*som + k*sok, expected rmsSpecFull
 *     = x[k] * rsqrt((sum_{k' < N} x[k']^2) / N + eps) * w[k*srw];
 *     hB: 0 < B, hNpos: 0 < N, hox: o != x, how: o != w, hsok: 0 < sok.
 *   rmsnorm_full_io_correctness (R): StreamEmitMasked2DKernelIO_2 (rmsnormKernelIO) ⊨[R]
 *     rmsStreamSpec N B eps xs ws t j = xs t j * (sqrt(rmsStreamSumSq / N + eps))^-1 * ws t j,
 *     T = cdiv(N, B) steps, read1 = p0*sxb + p1*sxm + (t*B + j)*sxk, read2 = (t*B + j)*srw,
 *     write = p0*sob + p1*som + (t*B + j)*sok, masks t*B + j < N;  hB, hox, how, hsok (no hNpos).
 *
 * Checked against bench/tritonbench_g/rmsnorm_triton (.py and RmsnormTriton.lean): the
 * readings are the kernel's.  The program (p0, p1) = (pid_batch, pid_m) folds
 * var += libdevice.pow(x, 2) over the column blocks (a [B] binary32 tile from
 * tl.zeros, masked lanes load 0.0), var = tl.sum(var) / N_SIZE, rstd =
 * tl.math.rsqrt(var + eps), then a second loop stores (x * rstd) * rms_w.  rmsStreamSumSq
 * is the same double sum re-blocked.  The catalogue's k ranges over every column, so
 * both theorems have the same write set; the io theorem allows N = 0 (nothing written).
 *
 * Error model (rmsnorm_common.h): the blocked sum of squares in the kernel's order
 * (each lane's sequential fold, then tl.sum's tree; pow(x, 2) = RN(x*x) as libdevice's
 * __nv_powif computes it), one division by N (exact in binary32), one addition of eps,
 * rsqrt charged the backend's budget (host: 1.0f / sqrtf, 1.491 ulp measured; CUDA:
 * rsqrtf, 2.5 ulp), then the two products in the kernel's grouping (x * rstd) * w.
 *
 * ⊨[R]: rmsnormKernelIO leaves outDType at .real, and the project reads R as the
 * rounding of the kernel's store into the output's element format (add_value.c).  The
 * wrapper allocates out = empty_like(x) and the Python tests run binary16 x and rms_w,
 * so the io launches are binary16 in and out: the binary32 value (x * rstd) * rms_w is
 * stored with Triton's fp32 -> fp16 conversion, round to nearest even (cast slot
 * "store", fp16:rne:inf), and the contract claims out = RN16(exact value).  The summary
 * launches are binary32 in and out (the store is exact: R = identity).
 *
 * Domain and special values: eps a binary32 constexpr > 0 (2^-149 .. 2^13); |x|, |w|
 * <= 2^40 (binary16: <= 65504) so no sum of squares overflows; all-zero rows give
 * exactly 0 (x = 0 times a finite rstd).  N = 0 (io only) writes nothing; the kernel's
 * var = 0/0 = NaN is then never stored.  Layouts: row-major, padded, strided,
 * transposed outputs; inputs also broadcast (stride 0 batches, or sxk = 0: a row of one
 * repeated element); srw in {0, 1, 2}.  Sizes: B = 2^0 .. 2^10, N <= 1024, batch * M * N
 * <= 2048 (the MPFR pass recomputes a row's sum per lane).
 */
#include "rmsnorm_common.h"

enum { P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS, NP };
enum { R_X, R_W, R_O, NR };
enum { C_STORE };

static const rn_stream_layout L_SUM = {P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS,
                                       R_X,   R_W,   R_O,   1};
static const rn_stream_layout L_IO = {P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS,
                                      R_X,   R_W,   R_O,   0};

#define TD_SPEC_FILE "rmsnorm_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"sxb", TD_P_INT}, {"sxm", TD_P_INT}, {"sxk", TD_P_INT}, {"srw", TD_P_INT},
                                         {"sob", TD_P_INT}, {"som", TD_P_INT}, {"sok", TD_P_INT}, {"N", TD_P_INT},
                                         {"B", TD_P_INT},   {"eps", TD_P_REAL}};
static const td_region_decl regions_f32[NR] = {{"x", TD_F32, TD_R_IN}, {"w", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}};
static const td_region_decl regions_f16[NR] = {{"x", TD_F16, TD_R_IN}, {"w", TD_F16, TD_R_IN}, {"o", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "R.round of the stored output (binary32 -> binary16 store)"}};

static void gen_sum(td_producer *p, td_case *c) { rn_stream_gen(p, c, &L_SUM); }
static void gen_io(td_producer *p, td_case *c) { rn_stream_gen(p, c, &L_IO); }
static void far_sum(td_producer *p, td_case *c) { rn_stream_far(p, c, &L_SUM); }
static void far_io(td_producer *p, td_case *c) { rn_stream_far(p, c, &L_IO); }
static const char *check_sum(const td_case *c) { return rn_stream_check(c, &L_SUM); }
static const char *check_io(const td_case *c) { return rn_stream_check(c, &L_IO); }
static void writes(const td_case *c, td_wset *ws) { rn_stream_writes(c, ws, &L_SUM); }

#define RMSNORM_TRITON_COMMON                                                                                      \
    .file = "rmsnorm_triton", .family = "normalization", .nparams = NP, .params = params, .nregions = NR,          \
    .sv = TD_SV_REAL,                                                                                               \
    .sv_note = "eps > 0 binary32, |x|, |w| <= 2^40: every intermediate finite; zero rows give exactly 0; N = 0 "    \
               "(io) writes nothing",                                                                               \
    .writes = writes

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

const td_contract td_c_rmsnorm_triton_summary = {
    .id = "rmsnorm_triton.rmsnorm_full_output_summary",
    .io_class = "Realizes_without_Rounding (writeIf True at outOff s sob som sok k)",
    .kind = "exact",
    .formula = "o[p0*sob + p1*som + k*sok] = x[k] * rsqrt(sum_{k'<N} x[k']^2 / N + eps) * w[k*srw], binary32",
    .regions = regions_f32,
    .error_model = "per-lane sequential folds of RN(x*x), tl.sum's tree, / N, + eps, rsqrt budget, (x*rstd)*w",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_sum,
    .far = far_sum,
    .check = check_sum,
    RMSNORM_TRITON_COMMON,
    TD_SPECS(rms_sum),
    .intent = &intent_sum_,
};
const td_contract td_c_rmsnorm_triton_io = {
    .id = "rmsnorm_triton.rmsnorm_full_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_2 (rmsnormKernelIO)",
    .kind = "rounding",
    .formula = "o[p0*sob + p1*som + k*sok] = R.round(x[k] * rsqrt(sum x^2 / N + eps) * w[k*srw]), binary16, R = the "
               "binary16 store",
    .regions = regions_f16,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the binary32 value as in the summary, then the binary16 store cast of the exact value",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_io,
    .far = far_io,
    .check = check_io,
    RMSNORM_TRITON_COMMON,
    TD_SPECS(rms_io),
    .intent = &intent_io_,
};
