/* context_attn_nopad: LightLLM's prefill attention over packed variable-length
 * sequences (bench/tritonbench_g/context_attn_nopad/context_attn_nopad.py, _fwd_kernel),
 * catalogue part 1, src lines 3094-3150.
 *
 *   context_attn_nopad_output_summary_general  Realizes_without_Rounding, surface at the
 *     shared layout (rs, hs, 1), BLOCK_M = BLOCK_N = BLK, BLOCK_DMODEL = DM:
 *     Out[(start + pid2*BLK + i)*rs + pid1*hs + d] (writeIf pid2*BLK + i < seqlen)
 *       = ctxNopadGenuineOutValueG = Σ_{j <= gi} exp(sm_scale*raw_j) V[j, d] / Σ_{j <= gi} exp(sm_scale*raw_j),
 *     raw_j = Σ_e Q[start + gi, pid1, e] K_masked[start + j, pid1, e], gi = pid2*BLK + i,
 *     keys j < (pid2 + 1)*BLK, K/V masked to 0 past seqlen; hBLK, hDM > 0, hDMrs: DM <= rs.
 *   context_attn_nopad_io_correctness  contextAttnNopadIO ... NT ⊨[R] contextAttnNopadIOSpec
 *     StreamMetaMasked3DKernelIO₃, meta (m0 = seqlen, m1 = start) of batch pid0, T = NT,
 *     pre pid2 < NT ∧ m0 <= NT*BLK, the same reads/writes, the same causal softmax over the
 *     legal window [0, NT*BLK) (causality cuts it to j <= gi); outDType .real.
 *
 * Checked in ContextAttnNopad.lean (contextAttnNopadExactFoldMG, contextAttnNopadIOSpec):
 * the named readings are the causal softmax above.  For an active row gi < seqlen, every
 * causal key j <= gi < seqlen is inside the sequence, so the K/V load masks never act on
 * it, and every KV block t <= pid2 holds a live key (t*BLK <= gi): no row meets an empty
 * block.  The IO spec's window NT*BLK only adds keys the causal mask removes.
 *
 * The kernel normalises as it goes (p_scale = beta / l_new, acc_scale = l_i/l_new*alpha,
 * acc = acc*acc_scale + p.to(fp16) @ v) and stores acc without a final division.  The
 * spec is that online algorithm (attn2_common.h, a2c_out), equal to the closed form in
 * exact arithmetic (so the MPFR value is the contract's), and through the shadow the
 * error model of the kernel's evaluation: the fp16 products of q·k are exact and summed in
 * binary32 along the head dim, scaled by sm_scale; exp budgets; tl.sum's tree over BLK
 * lanes (masked lanes exact zeros); the rescale arithmetic; P cast to fp16 before P·V (a
 * kernel-side rounding: the contract is real-valued, the interval rule of attn2_common.h);
 * the dot's binary32 sum; the store.
 *
 * Formats: Q, K, V and Out fp16 (the Python test; LightLLM's prefill).  The genuine
 * contract is real-valued ("real (no rounding)"), so the fp16 store is a kernel-side
 * rounding; the IO contract's R.round .real is that store (slot "store", fp16:rne:inf),
 * so its reference is RN16 of the exact value and the interval-aware cast decides each
 * lane (a lane whose bound does not straddle an fp16 rounding boundary must be exact).
 *
 * Generator: packed sequences with tails relative to BLK, one-token and empty ones,
 * gaps, another storage order than the batch; surplus programs (pid2 past the sequence:
 * block_mask = 0, nothing stored); token-major or head-major layouts with padded strides;
 * sm_scale 1/sqrt(DM), powers of two, or up to 16 (near one-hot rows); scores up to a few
 * hundred (a naive exp overflows); values kept so the output stays inside fp16.
 */
#include "attn2_common.h"

enum { P_SM, P_RS, P_HS, P_BLK, P_DM, P_NT, NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
enum { C_STORE };

static const attn2_ctx_idx ix_g = {P_SM, P_RS, P_HS, P_BLK, P_DM, -1, R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT};
static const attn2_ctx_idx ix_io = {P_SM, P_RS, P_HS, P_BLK, P_DM, P_NT, R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT};

#define TD_SPEC_FILE "context_attn_nopad.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"sm_scale", TD_P_REAL}, {"rs", TD_P_INT},  {"hs", TD_P_INT},
                                         {"BLK", TD_P_INT},       {"DM", TD_P_INT},  {"NT", TD_P_INT}};
static const td_region_decl regions[NR] = {{"Q", TD_F16, TD_R_IN},           {"K", TD_F16, TD_R_IN},
                                           {"V", TD_F16, TD_R_IN},           {"B_Start_Loc", TD_I32, TD_R_META},
                                           {"B_Seqlen", TD_I32, TD_R_META},   {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: the store of acc into the fp16 Out"}};

static void gen_g(td_producer *p, td_case *c) { attn2_ctx_gen(p, c, &ix_g); }
static void gen_io(td_producer *p, td_case *c) { attn2_ctx_gen(p, c, &ix_io); }
static void shape_g(td_producer *p, td_case *c, const td_shape *s) { attn2_ctx_gen_shape(p, c, &ix_g, s); }
static void shape_io(td_producer *p, td_case *c, const td_shape *s) { attn2_ctx_gen_shape(p, c, &ix_io, s); }
static const char *check_g(const td_case *c) { return attn2_ctx_check(c, &ix_g); }
static const char *check_io(const td_case *c) { return attn2_ctx_check(c, &ix_io); }
static void writes(const td_case *c, td_wset *ws) { attn2_ctx_writes(c, ws, &ix_g); }
static void far_g(td_producer *p, td_case *c) { attn2_ctx_far(p, c, &ix_g); }
static void far_io(td_producer *p, td_case *c) { attn2_ctx_far(p, c, &ix_io); }

#define NOPAD_CLASSES                                                                                          \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_FULLY_MASKED) |    \
     TD_BC(TD_BC_OFFSET_2_31))

/* ---- intents (docs/intent.md) ---- */
#define CAN_OP "causal scaled dot-product attention softmax(q k^T * sm_scale + causal mask) v of each token of each sequence over the sequence's tokens"
#define CAN_DEF "torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=sm_scale) of each sequence (PyTorch documentation), exact (no fp16 P)"
static const td_intent i_g = {.operation = CAN_OP, .definition = CAN_DEF, TD_SPECS(nopad_intent)};
static const td_intent i_io = {.operation = CAN_OP, .definition = CAN_DEF, TD_SPECS(nopad_io_intent)};

const td_contract td_c_ctx_nopad = {
    .id = "context_attn_nopad.context_attn_nopad_output_summary_general",
    .file = "context_attn_nopad",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (surface at layout (rs, hs, 1), BLOCK_M = BLOCK_N = BLK)",
    .kind = "exact",
    .formula = "Out[start+gi, h, d] = sum_{j<=gi} exp(sm*q_gi.k_j) V[j,d] / sum_{j<=gi} exp(sm*q_gi.k_j)   (fp16)",
    .nparams = NP - 1,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "every active row has a live key in every KV block it streams (causal, gi < seqlen); finite data, "
               "scores within a few hundred, output inside fp16",
    .error_model = "online softmax in the kernel's order: dot, scale, exp, tree sums, rescale, P cast to fp16 "
                   "(kernel-side), P.V sum, the fp16 store (kernel-side)",
    .classes = NOPAD_CLASSES,
    .gen = gen_g,
    .far = far_g,
    .gen_shape = shape_g,
    .check = check_g,
    .writes = writes,
    TD_SPECS(nopad),
    .intent = &i_g,
};

const td_contract td_c_ctx_nopad_io = {
    .id = "context_attn_nopad.context_attn_nopad_io_correctness",
    .file = "context_attn_nopad",
    .family = "attention",
    .io_class = "StreamMetaMasked3DKernelIO_3 (contextAttnNopadIO)",
    .kind = "rounding",
    .formula = "Out[start+gi, h, d] = R.round(.real)(causal softmax(sm*q.k) @ V), R = the fp16 store",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "every active row has a live key in every KV block it streams (causal, gi < seqlen); finite data, "
               "scores within a few hundred, output inside fp16",
    .error_model = "online softmax in the kernel's order: dot, scale, exp, tree sums, rescale, P cast to fp16 "
                   "(kernel-side), P.V sum; the declared fp16 store",
    .classes = NOPAD_CLASSES,
    .gen = gen_io,
    .far = far_io,
    .gen_shape = shape_io,
    .check = check_io,
    .writes = writes,
    TD_SPECS(nopad_io),
    .intent = &i_io,
};
