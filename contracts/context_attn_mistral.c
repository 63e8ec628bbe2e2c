/* context_attn_mistral: LightLLM's prefill attention with a sliding window (Mistral),
 * bench/tritonbench_g/context_attn_mistral/context_attn_mistral.py (_fwd_kernel),
 * catalogue part 1, src lines 3037-3092.
 *
 *   context_attn_mistral_genuine_output_summary_general  Realizes_without_Rounding, layout
 *     (rs, hs, 1), kv_group_num = 1, BLOCK_M = BLOCK_N = BLK:
 *     Out[(start + gi)*rs + pid1*hs + d] (writeIf gi < seqlen) = mistralGenuineOutValueG
 *       = Σ_{j < S} exp(score_j) V_masked[j, d] / Σ_{j < S} exp(score_j),  S = (pid2 + 1)*BLK,
 *     score_j = sm_scale * q_gi·k_j on cells mistralActive(gi, sw, j) := j <= gi ∧ gi ∸ sw < j,
 *     and the finite sentinel -1e9 elsewhere; hBLK, hDM > 0, hDMrs: DM <= rs.
 *   context_attn_mistral_io_correctness  contextAttnMistralIO ... sw BLK DM NT ⊨[R] ...IOSpec:
 *     the same reads and writes as context_attn_nopad's IO (meta (seqlen, start), T = NT,
 *     pre pid2 < NT ∧ seqlen <= NT*BLK), the sliding-window causal attention; .real out.
 *
 * What was checked, and the readings that differ:
 *  1. The window.  The kernel tests (start_n + offs_n) > (offs_m - sliding_window) on int32,
 *     so for a row gi < sw the bound is negative and key 0 is live: row gi attends keys
 *     max(0, gi - sw + 1) .. gi.  The Lean predicate uses Nat subtraction, gi ∸ sw < j,
 *     which excludes key 0 for every row gi <= sw (row 0 would attend nothing and average
 *     the sentinel-weighted V).  The catalogue's reading, "causal sliding-window (width sw)",
 *     and the Triton program agree with each other and not with the Lean spelling; tilediff
 *     checks the kernel's int32 semantics (see the report).
 *  2. The sentinel.  Lean keeps -1e9 as a real score, weight e^(-1e9 - m) > 0, "so the
 *     denominator is always positive".  In binary32 (and below the reference's exponent
 *     range: e^-1e9 = 2^-1.44e9) that weight is exactly 0, so a KV block that holds no live
 *     key of a row has l_ij = 0, and the kernel's two guards act: m_ij == -1e9 becomes 0,
 *     and l_new == 0 becomes 1e-9.  A row whose window starts past the first KV block (its
 *     j0 = gi - sw + 1 >= BLK) therefore reaches its first live block with
 *     (m_i, l_i, acc) = (0, RN32(1e-9), 0).  The spec models this declared behaviour of the
 *     kernel (docs/contracts.md: the generator avoids the case or the spec models the
 *     kernel's declared behaviour): masked weights are 0, and the guard's 1e-9 enters l.
 *     The consequence is a deviation from the real-valued contract of a factor
 *     l / (l + 1e-9*e^(-max(0, m))) for such rows: negligible when the row's scores reach
 *     0, but a row whose scores are all below about -20 loses most of its mass (the
 *     kernel's numerical bug; reported, not hidden by a tolerance).  Measured: with the
 *     guard taken out of the spec, 45 of 300 generated cases disagree, e.g. sw = 1,
 *     BLK = 1 (each row attends only itself, so Out = V exactly), a row with score -28:
 *     the kernel stores -0.00036 where V = -861.5, because exp(-28) < 1e-9.
 *  3. sw = 0 leaves every row without a live key: the Lean value is the sentinel average,
 *     the kernel stores 0.  The generator keeps sw >= 1 (every row attends its own token).
 *
 * The spec is the kernel's normalised online softmax (attn2_common.h, a2c_out, with the
 * window), equal to the contract's value in exact arithmetic up to the items above; the
 * error model is the kernel's evaluation as for context_attn_nopad: exact fp16 products
 * summed in binary32, scaled, exp budgets, tl.sum trees (masked lanes exact zeros), the
 * rescale arithmetic, P cast to fp16 (kernel-side), the P·V sums, the fp16 store
 * (kernel-side for the genuine contract; R.round .real = the declared fp16:rne:inf store
 * for the IO contract).
 *
 * Generator: the launch shapes of context_attn_nopad (attn2_ctx_gen) and windows that
 * favour the boundaries: 1 (a row attends only itself), BLK - 1, BLK, BLK + 1 (the window
 * edge inside / at / past a KV block), small, and wide (no effect).
 */
#include "attn2_common.h"

/* genuine: sm_scale rs hs BLK DM sw;  IO: sm_scale rs hs sw BLK DM NT */
enum { G_SM, G_RS, G_HS, G_BLK, G_DM, G_SW, G_NP };
enum { I_SM, I_RS, I_HS, I_SW, I_BLK, I_DM, I_NT, I_NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
enum { C_STORE };

static const attn2_ctx_idx ix_g = {G_SM, G_RS, G_HS, G_BLK, G_DM, -1, R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT};
static const attn2_ctx_idx ix_io = {I_SM, I_RS, I_HS, I_BLK, I_DM, I_NT, R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT};

#define TD_SPEC_FILE "context_attn_mistral.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_g[G_NP] = {{"sm_scale", TD_P_REAL}, {"rs", TD_P_INT}, {"hs", TD_P_INT},
                                             {"BLK", TD_P_INT},       {"DM", TD_P_INT}, {"sw", TD_P_INT}};
static const td_param_decl params_io[I_NP] = {{"sm_scale", TD_P_REAL}, {"rs", TD_P_INT}, {"hs", TD_P_INT},
                                              {"sw", TD_P_INT},       {"BLK", TD_P_INT}, {"DM", TD_P_INT},
                                              {"NT", TD_P_INT}};
static const td_region_decl regions[NR] = {{"Q", TD_F16, TD_R_IN},           {"K", TD_F16, TD_R_IN},
                                           {"V", TD_F16, TD_R_IN},           {"B_Start_Loc", TD_I32, TD_R_META},
                                           {"B_Seqlen", TD_I32, TD_R_META},   {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round .real: the store of acc into the fp16 Out"}};

static int64_t gen_sw(td_producer *p, td_case *c, int64_t BLK) {
    int64_t sw;
    switch (td_prod_u32(p, 0, 5)) {
    case 0: sw = 1; break;
    case 1: sw = BLK > 1 ? BLK - 1 : 1; break;
    case 2: sw = BLK; break;
    case 3: sw = BLK + 1; break;
    case 4: sw = (int64_t)td_prod_u32(p, 1, 8); break;
    default: sw = (int64_t)td_prod_u32(p, 1, 80); break;
    }
    c->classes |= TD_BC(TD_BC_META_EXTREME);
    return sw;
}
static void gen_g(td_producer *p, td_case *c) {
    attn2_ctx_gen(p, c, &ix_g);
    c->p[G_SW].i = gen_sw(p, c, c->p[G_BLK].i);
}
static void gen_io(td_producer *p, td_case *c) {
    attn2_ctx_gen(p, c, &ix_io);
    c->p[I_SW].i = gen_sw(p, c, c->p[I_BLK].i);
}
static const char *check_sw(int64_t sw) {
    return sw >= 1 ? NULL : "sw >= 1 (the generator's domain: with sw = 0 no row attends any key, see the header)";
}
static const char *check_g(const td_case *c) {
    const char *e = attn2_ctx_check(c, &ix_g);
    return e ? e : check_sw(c->p[G_SW].i);
}
static const char *check_io(const td_case *c) {
    const char *e = attn2_ctx_check(c, &ix_io);
    return e ? e : check_sw(c->p[I_SW].i);
}
static void writes_g(const td_case *c, td_wset *ws) { attn2_ctx_writes(c, ws, &ix_g); }
static void writes_io(const td_case *c, td_wset *ws) { attn2_ctx_writes(c, ws, &ix_io); }
static void far_g(td_producer *p, td_case *c) { attn2_ctx_far(p, c, &ix_g); }
static void far_io(td_producer *p, td_case *c) { attn2_ctx_far(p, c, &ix_io); }

#define MISTRAL_CLASSES                                                                                        \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_FULLY_MASKED) |    \
     TD_BC(TD_BC_OFFSET_2_31))
#define MISTRAL_SV                                                                                             \
    "sw >= 1: every active row attends its own token; masked (-1e9) weights are binary32's exact 0 and the "   \
    "kernel's guards (m_ij == -1e9 -> 0, l == 0 -> 1e-9) are modelled for rows whose window starts past a KV block"

/* ---- intents (docs/intent.md) ---- */
#define CAM_OP "sliding-window causal attention softmax(q k^T * sm_scale + mask) v of each token gi of each sequence over its keys gi - sw < j <= gi"
#define CAM_DEF "Mistral 7B (Jiang et al. 2023) sliding-window attention: torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = causal band of width sw, scale=sm_scale) (PyTorch documentation), exact (no fp16 P)"
static const td_intent i_g = {.operation = CAM_OP, .definition = CAM_DEF, TD_SPECS(mistral_intent)};
static const td_intent i_io = {.operation = CAM_OP, .definition = CAM_DEF, TD_SPECS(mistral_io_intent)};

const td_contract td_c_ctx_mistral = {
    .id = "context_attn_mistral.context_attn_mistral_genuine_output_summary_general",
    .file = "context_attn_mistral",
    .family = "attention",
    .io_class = "Realizes_without_Rounding (surface at layout (rs, hs, 1), BLOCK_M = BLOCK_N = BLK)",
    .kind = "exact",
    .formula = "Out[start+gi, h, d] = sliding-window causal softmax(sm*q.k) @ V over keys max(0, gi-sw+1) .. gi (fp16)",
    .nparams = G_NP,
    .params = params_g,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = MISTRAL_SV,
    .error_model = "online softmax in the kernel's order with the window; P cast to fp16 and the fp16 store "
                   "(kernel-side roundings)",
    .classes = MISTRAL_CLASSES,
    .gen = gen_g,
    .far = far_g,
    .check = check_g,
    .writes = writes_g,
    TD_SPECS(mistral),
    .intent = &i_g,
};

const td_contract td_c_ctx_mistral_io = {
    .id = "context_attn_mistral.context_attn_mistral_io_correctness",
    .file = "context_attn_mistral",
    .family = "attention",
    .io_class = "StreamMetaMasked3DKernelIO_3 (contextAttnMistralIO)",
    .kind = "rounding",
    .formula = "Out[start+gi, h, d] = R.round(.real)(sliding-window causal softmax @ V), R = the fp16 store",
    .nparams = I_NP,
    .params = params_io,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = MISTRAL_SV,
    .error_model = "online softmax in the kernel's order with the window; P cast to fp16 (kernel-side); the "
                   "declared fp16 store",
    .classes = MISTRAL_CLASSES,
    .gen = gen_io,
    .far = far_io,
    .check = check_io,
    .writes = writes_io,
    TD_SPECS(mistral_io),
    .intent = &i_io,
};
