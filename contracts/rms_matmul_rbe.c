/* rms_matmul_rbe  (catalogue part 2): the RMS-norm prologue fused into a matmul
 * (bench/tritonbench_g/rms_matmul_rbe/rms_matmul_rbe.py, RmsMatmulRbe.lean).
 *
 *   rms_matmul_rbe_closed_form_correct  ComputeCorrect over TileIndex [BM, BN] of
 *     rms_matmul_rbe_surface: OUT[outOffset] = fp16(rmsSpec) writeIf row < M ∧ col < N;
 *     hK: K = BK * numKBlocks, hcn: son = 1, hbnle: BN <= som, hundef.
 *   rms_matmul_rbe_qkv_closed_form_correct  the surface of rms_matmul_rbe_qkv (the body
 *     inlined three times, shared X / RMS): Q, KOut, V = fp16(rmsSpec(X, QW|KW|VW, RMS));
 *     hK, hqn/hkn/hvn = 1, BN <= sqm/skm/svm, the 10 region distinctness hypotheses
 *     (separate buffers here).
 *
 * Named spec checked against RmsMatmulRbe.lean and the Python: rmsSpec = normSpec *
 * accPartial, normSpec = 1 / sqrt(sum_{t<numKBlocks} sum_{e<BK} X[b, m, t*BK+e]^2 / K +
 * EPS) and accPartial = sum of X * RMS * W over the same k; the Python kernel's x_sum +=
 * pow(x.to(f32), 2), x = x * rms_w, accumulator += tl.dot(x, w), x_mean = tl.sum(x_sum,
 * axis=1) / K + EPS, x_norm = tl.math.rsqrt(x_mean), the store of accumulator * x_norm
 * (the Lean surface spells the store's implicit fp16 cast); the loads are unmasked (rows
 * wrapped % M, columns % N), the store masked by row < M, col < N at the unwrapped
 * indices; RBE_EPILOGUE and THETA / start_token_position do nothing in the body (no
 * rotary is applied: the catalogue's "rotary part not covered"), USE_FP8 = False.  The
 * kernel's `x_ptrs` / `rms_w_ptrs` advance by BK per step and the loop runs cdiv(K, BK) =
 * numKBlocks times (hK), so the sums run over k < K exactly.  The statement's parameter
 * list (no start_token_position, THETA, USE_FP8) is the ABI's.
 *
 * Error model, formats, domain: contracts/rms_matmul_rbe_common.h.
 */
#include "rms_matmul_rbe_common.h"

enum { P_M, P_N, P_SXB, P_SXM, P_SXK, P_SWK, P_SWN, P_SRMS, P_SOB, P_SOM, P_SON, P_BM, P_BN, P_BK, P_NKB, P_K, P_EPS, NP };
enum { R_X, R_W, R_RMS, R_OUT, NR };
enum { Q_M, Q_N, Q_SXB, Q_SXM, Q_SXK, Q_SQWK, Q_SQWN, Q_SKWK, Q_SKWN, Q_SVWK, Q_SVWN, Q_SRMS, Q_SQB, Q_SQM, Q_SQN,
       Q_SKB, Q_SKM, Q_SKN, Q_SVB, Q_SVM, Q_SVN, Q_BM, Q_BN, Q_BK, Q_NKB, Q_K, Q_EPS, NPQ };
enum { RQ_X, RQ_QW, RQ_KW, RQ_VW, RQ_RMS, RQ_Q, RQ_K, RQ_V, NRQ };
enum { C_STORE };

static const rmr_idx ix_one = {1, P_M, P_N, P_SXB, P_SXM, P_SXK, P_SRMS, P_BM, P_BN, P_BK, P_NKB, P_K, P_EPS,
                               {P_SWK}, {P_SWN}, {P_SOB}, {P_SOM}, {P_SON}, R_X, R_RMS, {R_W}, {R_OUT}};
static const rmr_idx ix_qkv = {3,
                               Q_M, Q_N, Q_SXB, Q_SXM, Q_SXK, Q_SRMS, Q_BM, Q_BN, Q_BK, Q_NKB, Q_K, Q_EPS,
                               {Q_SQWK, Q_SKWK, Q_SVWK}, {Q_SQWN, Q_SKWN, Q_SVWN}, {Q_SQB, Q_SKB, Q_SVB},
                               {Q_SQM, Q_SKM, Q_SVM}, {Q_SQN, Q_SKN, Q_SVN},
                               RQ_X, RQ_RMS, {RQ_QW, RQ_KW, RQ_VW}, {RQ_Q, RQ_K, RQ_V}};

#define TD_SPEC_FILE "rms_matmul_rbe.spec.h"
#include "spec_instantiate.h"

#define I(n) {n, TD_P_INT}
static const td_param_decl params[NP] = {I("M"),   I("N"),   I("sxb"), I("sxm"),  I("sxk"),  I("swk"),
                                         I("swn"), I("srms"), I("sob"), I("som"), I("son"),  I("BM"),
                                         I("BN"),  I("BK"),  I("numKBlocks"), I("K"), {"EPS", TD_P_REAL}};
static const td_param_decl params_qkv[NPQ] = {
    I("M"),   I("N"),   I("sxb"), I("sxm"), I("sxk"), I("sqwk"), I("sqwn"), I("skwk"), I("skwn"), I("svwk"),
    I("svwn"), I("srms"), I("sqb"), I("sqm"), I("sqn"), I("skb"),  I("skm"),  I("skn"),  I("svb"),  I("svm"),
    I("svn"), I("BM"),  I("BN"),  I("BK"),  I("numKBlocks"), I("K"), {"EPS", TD_P_REAL}};
#undef I
static const td_region_decl regions[NR] = {
    {"X", TD_F16, TD_R_IN}, {"W", TD_F16, TD_R_IN}, {"RMS", TD_F16, TD_R_IN}, {"OUT", TD_F16, TD_R_OUT}};
static const td_region_decl regions_qkv[NRQ] = {
    {"X", TD_F16, TD_R_IN},  {"QW", TD_F16, TD_R_IN},   {"KW", TD_F16, TD_R_IN}, {"VW", TD_F16, TD_R_IN},
    {"RMS", TD_F16, TD_R_IN}, {"Q", TD_F16, TD_R_OUT}, {"KOut", TD_F16, TD_R_OUT}, {"V", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "real.cast .fp16: the store of accumulator * x_norm into the fp16 output"}};

static void gen_one(td_producer *p, td_case *c) { td_rmr_gen(p, c, &ix_one); }
static void far_one(td_producer *p, td_case *c) { td_rmr_far(p, c, &ix_one); }
static void gen_qkv(td_producer *p, td_case *c) { td_rmr_gen(p, c, &ix_qkv); }
static void far_qkv(td_producer *p, td_case *c) { td_rmr_far(p, c, &ix_qkv); }
static const char *check_one(const td_case *c) { return td_rmr_check(c, &ix_one); }
static const char *check_qkv(const td_case *c) { return td_rmr_check(c, &ix_qkv); }
static void writes_one(const td_case *c, td_wset *ws) { td_rmr_writes(c, ws, &ix_one); }
static void writes_qkv(const td_case *c, td_wset *ws) { td_rmr_writes(c, ws, &ix_qkv); }

static const td_intent intent_one = {
    .operation = "RMS norm of each row of X over its K entries (weight RMS), times W: OUT = rmsnorm(X) @ W",
    .definition = "RMSNorm (Zhang & Sennrich 2019; torch.nn.RMSNorm) then torch.matmul; the kernel name's rotary "
                  "embedding is not part of the statement (no positions, RBE_EPILOGUE unused)",
    TD_SPECS(rmr_one_intent),
};
static const td_intent intent_qkv = {
    .operation =
        "RMS norm of each row of X over its K entries (weight RMS), times QW, KW and VW: Q, K, V = rmsnorm(X) @ W",
    .definition = "RMSNorm (Zhang & Sennrich 2019; torch.nn.RMSNorm) then torch.matmul; the kernel name's rotary "
                  "embedding is not part of the statement (no positions, RBE_EPILOGUE unused)",
    TD_SPECS(rmr_qkv_intent),
};

const td_contract td_c_rms_matmul_rbe = {
    .id = "rms_matmul_rbe.rms_matmul_rbe_closed_form_correct",
    .file = "rms_matmul_rbe",
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

const td_contract td_c_rms_matmul_rbe_qkv = {
    .id = "rms_matmul_rbe.rms_matmul_rbe_qkv_closed_form_correct",
    .file = "rms_matmul_rbe",
    .family = "matmul",
    .io_class = "ComputeCorrect over TileIndex [BM, BN], 3 outputs (Q, KOut, V)",
    .kind = "exact",
    .formula = "Q, KOut, V: " RMR_FORMULA " with W = QW, KW, VW",
    .nparams = NPQ,
    .params = params_qkv,
    .nregions = NRQ,
    .regions = regions_qkv,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = RMR_SV_NOTE,
    .error_model = RMR_ERROR_MODEL,
    .classes = RMR_CLASSES,
    .gen = gen_qkv,
    .far = far_qkv,
    .check = check_qkv,
    .writes = writes_qkv,
    TD_SPECS(rmr_qkv),
    .intent = &intent_qkv,
};
