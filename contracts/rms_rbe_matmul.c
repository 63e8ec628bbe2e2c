/* rms_rbe_matmul  (catalogue part 2): the same RMS-norm-fused matmul in another file
 * (bench/tritonbench_g/rms_rbe_matmul/rms_rbe_matmul.py, RmsRbeMatmul.lean), which also
 * holds a separate rbe_triton kernel (not this statement: the catalogue's "separate
 * rbe_triton kernel not covered"; it is rbe_triton_transform's contract).
 *
 *   rms_matmul_rbe_closed_form_correct  ComputeCorrect over TileIndex [BM, BN] of
 *     rms_matmul_rbe_surface: OUT[outOffset] = fp16(rmsSpec) writeIf row < M ∧ col < N;
 *     hK: K = BK * numKBlocks, hcn: son = 1, hbnle: BN <= som, hundef.
 *
 * Checked: RmsRbeMatmul.lean's rms_matmul_rbe_surface, normSpec, accPartial, rmsSpec,
 * outOffset and active are rms_matmul_rbe's (the same transcription of the same Python
 * kernel: x_sum += pow(x, 2), x * rms_w, tl.dot, tl.sum(x_sum) / K + EPS, rsqrt, the
 * masked fp16 store; RBE_EPILOGUE applies nothing; USE_FP8 = False); the reading is
 * contracts/rms_matmul_rbe.c's.
 *
 * Error model, formats, domain: contracts/rms_matmul_rbe_common.h.
 */
#include "rms_matmul_rbe_common.h"

enum { P_M, P_N, P_SXB, P_SXM, P_SXK, P_SWK, P_SWN, P_SRMS, P_SOB, P_SOM, P_SON, P_BM, P_BN, P_BK, P_NKB, P_K, P_EPS, NP };
enum { R_X, R_W, R_RMS, R_OUT, NR };
enum { C_STORE };

static const rmr_idx ix_one = {1, P_M, P_N, P_SXB, P_SXM, P_SXK, P_SRMS, P_BM, P_BN, P_BK, P_NKB, P_K, P_EPS,
                               {P_SWK}, {P_SWN}, {P_SOB}, {P_SOM}, {P_SON}, R_X, R_RMS, {R_W}, {R_OUT}};
#define TD_SPEC_FILE "rms_rbe_matmul.spec.h"
#include "spec_instantiate.h"

#define I(n) {n, TD_P_INT}
static const td_param_decl params[NP] = {I("M"),   I("N"),   I("sxb"), I("sxm"),  I("sxk"),  I("swk"),
                                         I("swn"), I("srms"), I("sob"), I("som"), I("son"),  I("BM"),
                                         I("BN"),  I("BK"),  I("numKBlocks"), I("K"), {"EPS", TD_P_REAL}};
#undef I
static const td_region_decl regions[NR] = {
    {"X", TD_F16, TD_R_IN}, {"W", TD_F16, TD_R_IN}, {"RMS", TD_F16, TD_R_IN}, {"OUT", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "real.cast .fp16: the store of accumulator * x_norm into the fp16 output"}};

static void gen_one(td_producer *p, td_case *c) { td_rmr_gen(p, c, &ix_one); }
static void far_one(td_producer *p, td_case *c) { td_rmr_far(p, c, &ix_one); }
static const char *check_one(const td_case *c) { return td_rmr_check(c, &ix_one); }
static void writes_one(const td_case *c, td_wset *ws) { td_rmr_writes(c, ws, &ix_one); }

static const td_intent intent_one = {
    .operation = "RMS norm of each row of X over its K entries (weight RMS), times W: OUT = rmsnorm(X) @ W",
    .definition = "RMSNorm (Zhang & Sennrich 2019; torch.nn.RMSNorm) then torch.matmul; the kernel name's rotary "
                  "embedding is not part of the statement (no positions, RBE_EPILOGUE unused)",
    TD_SPECS(rmr_one_intent),
};

const td_contract td_c_rms_rbe_matmul = {
    .id = "rms_rbe_matmul.rms_matmul_rbe_closed_form_correct",
    .file = "rms_rbe_matmul",
    .family = "matmul",
    .io_class = "ComputeCorrect over TileIndex [BM, BN], grid (batch, cdiv(M, BM) * cdiv(N, BN))",
    .kind = "exact",
    .formula = RMR_FORMULA,
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = RMR_SV_NOTE,
    .error_model = RMR_ERROR_MODEL,
    .classes = RMR_CLASSES,
    .gen = gen_one,
    .far = far_one,
    .check = check_one,
    .writes = writes_one,
    TD_SPECS(rmr_one),
    .intent = &intent_one,
};
