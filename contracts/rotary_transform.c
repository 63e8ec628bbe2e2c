/* rotary_transform  (catalogue part 2): flash-attn's rotary_kernel
 * (bench/tritonbench_g/rotary_transform/rotary_transform.py, RotaryTransform.lean).
 *
 *   rotary_transform_python_output_summary_general  ComputeCorrect over Fin BLOCK_HALF
 *     (o0, o1) of rotary_kernel_o0o1_row: per program (pid0, pid1 = batch, pid2 = head),
 *     OUT[outOffset i] = rotaryO0Spec = x0*cos - x1*sin, OUT[out1Offset i] =
 *     rotaryO1Spec = x0*sin + x1*cos, writeIf pid0*BLOCK_M < seqlen ∧ i < rdh;
 *     hOutInj, hOut1Inj, hStrideHd: stride_out_headdim != 0, hHalfBound: BLOCK_HALF <= rdh.
 *   rotary_transform_meta_implements  rotaryMetaIO ... IS_VARLEN ⊨ rotaryMetaF:
 *     MetaGroupedMasked2DKernelIO, grid (pid0, pid1 = batch), head HEAD_IDX, CU_SEQLENS
 *     windows pid1 and pid1 + 1 (varlen start and end); hStrideHd, hHalfBound.
 *
 * Named specs checked against RotaryTransform.lean and the Python kernel:
 * rotaryO0Spec/O1Spec and rotaryMetaF are the non-interleaved, non-conjugate branch of
 * rotary_kernel for ONE row per program, rm = pid0 * BLOCK_M (rotary_kernel_o0o1_row /
 * rotary_meta_row: `rm = pid_m * BLOCK_M`, no arange over BLOCK_M).  The Python kernel
 * writes BLOCK_M rows; the statements speak of the first only, so the kernel judged here
 * is the row slice the theorems are about, and every other cell of OUT must stay
 * untouched.  The table row is rm + SEQLEN_OFFSETS (the scalar offset: the statements fix
 * IS_SEQLEN_OFFSETS_TENSOR = false), masked by rm_cs < seqlen_ro with other = 1.0 / 0.0,
 * exactly as in the Python source; x loads and both stores are masked by rm < seqlen and
 * j < rdh (always true under hHalfBound).  With IS_VARLEN the Lean IO reads cu_seqlens at
 * pid1 and pid1 + 1, bases X/OUT at start * stride_seqlen (stride_batch unused) and masks
 * with the difference: as in the Python prologue.  The first statement's surface
 * parameters (rotary_dim, CACHE_KEY_SEQLEN, the surf strides, BLOCK_K, the four flags, the
 * CU_SEQLENS / SEQLEN_OFFSETS regions) appear only in its toAlgorithm conjunct, not in the
 * kernel it judges, so the contract's parameters are the row kernel's (the ABI passes
 * them in this order).
 *
 * Error model, generator and domain: contracts/rotary_row_common.h.  Special values:
 * finite inputs, |values| <= 2^60: every product and sum is finite.
 */
#include "rotary_row_common.h"

enum { P_SO, P_SEQLEN, P_RDH, P_SRO, P_SOB, P_SOS, P_SOH, P_SOD, P_SXB, P_SXS, P_SXH, P_SXD, P_BM, P_BH, NP };
enum { M_HEAD, M_SO, M_SEQLEN, M_RDH, M_SRO, M_SOB, M_SOS, M_SOH, M_SOD, M_SXB, M_SXS, M_SXH, M_SXD, M_BM, M_BH,
       M_VARLEN, NPM };
enum { R_OUT, R_X, R_COS, R_SIN, R_CU, NRM };
#define NR 4 /* the first statement: OUT X COS SIN */

static const rr_idx ix_g = {P_SO, -1, -1, R_OUT, R_X, R_COS, R_SIN, -1};
static const rr_idx ix_m = {M_SO, M_HEAD, M_VARLEN, R_OUT, R_X, R_COS, R_SIN, R_CU};

#define TD_SPEC_FILE "rotary_transform.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_g[NP] = {RR_ROW_PARAMS};
static const td_param_decl params_m[NPM] = {{"HEAD_IDX", TD_P_INT}, RR_ROW_PARAMS, {"IS_VARLEN", TD_P_BOOL}};
static const td_region_decl regions[NRM] = {{"OUT", TD_F32, TD_R_OUT},
                                            {"X", TD_F32, TD_R_IN},
                                            {"COS", TD_F32, TD_R_IN},
                                            {"SIN", TD_F32, TD_R_IN},
                                            {"CU_SEQLENS", TD_I32, TD_R_META}};

static void gen_g(td_producer *p, td_case *c) { td_rr_gen(p, c, &ix_g); }
static void gen_m(td_producer *p, td_case *c) { td_rr_gen(p, c, &ix_m); }
static void far_g(td_producer *p, td_case *c) { td_rr_far(p, c, &ix_g); }
static void far_m(td_producer *p, td_case *c) { td_rr_far(p, c, &ix_m); }
static const char *check_g(const td_case *c) { return td_rr_check(c, &ix_g); }
static const char *check_m(const td_case *c) { return td_rr_check(c, &ix_m); }
static void writes_g(const td_case *c, td_wset *ws) { td_rr_writes(c, ws, &ix_g); }
static void writes_m(const td_case *c, td_wset *ws) { td_rr_writes(c, ws, &ix_m); }

/* ---- intents (docs/intent.md; rotary_row_common.h) ---- */
static void intent_writes_g(const td_case *c, td_wset *ws) { td_rr_intent_writes(c, ws, &ix_g); }
static void intent_writes_m(const td_case *c, td_wset *ws) { td_rr_intent_writes(c, ws, &ix_m); }
static const char *intent_gap_g(const td_case *c) { return td_rr_intent_gap(c, &ix_g); }
static const char *intent_gap_m(const td_case *c) { return td_rr_intent_gap(c, &ix_m); }
static const td_intent i_g = {.operation = RR_INTENT_OP, .definition = RR_INTENT_DEF, TD_SPECS(rotary_g_intent),
                              .gap = intent_gap_g, .writes = intent_writes_g};
static const td_intent i_m = {.operation = RR_INTENT_OP " (head HEAD_IDX; IS_VARLEN: the sequences of cu_seqlens)",
                              .definition = RR_INTENT_DEF, TD_SPECS(rotary_m_intent), .gap = intent_gap_m,
                              .writes = intent_writes_m};

const td_contract td_c_rotary_transform_g = {
    .id = "rotary_transform.rotary_transform_python_output_summary_general",
    .file = "rotary_transform",
    .family = "rotary",
    .io_class = "ComputeCorrect over Fin BLOCK_HALF (o0, o1), grid (row blocks, batch, heads)",
    .kind = "exact",
    .formula = RR_FORMULA,
    .nparams = NP,
    .params = params_g,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = RR_SV_NOTE,
    .error_model = RR_ERROR_MODEL,
    .classes = RR_CLASSES,
    .gen = gen_g,
    .far = far_g,
    .check = check_g,
    .writes = writes_g,
    TD_SPECS(rotary_g),
    .intent = &i_g,
};

const td_contract td_c_rotary_transform_meta = {
    .id = "rotary_transform.rotary_transform_meta_implements",
    .file = "rotary_transform",
    .family = "rotary",
    .io_class = "MetaGroupedMasked2DKernelIO (rotaryMetaIO), CU_SEQLENS windows pid1, pid1 + 1",
    .kind = "exact",
    .formula = RR_FORMULA " (head HEAD_IDX; IS_VARLEN: rows of cu_seqlens[b] .. cu_seqlens[b+1])",
    .nparams = NPM,
    .params = params_m,
    .nregions = NRM,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = RR_SV_NOTE,
    .error_model = RR_ERROR_MODEL,
    .classes = RR_CLASSES_VARLEN,
    .gen = gen_m,
    .far = far_m,
    .check = check_m,
    .writes = writes_m,
    TD_SPECS(rotary_m),
    .intent = &i_m,
};
