/* fast_rope_embedding  (catalogue part 1; Unsloth's `_rope_embedding`, ROPE_GROUP_SIZE = 4)
 *
 *   fast_rope_embedding_io_correctness: InPlaceMaskedTileKernelIO (ropeFirstIO + ropeSecondIO)
 *     Q[i]          := q1[i]*cos[i] - q2[i]*sin[i]      (ropeFirstSpecOf)
 *     Q[i + hd/2]   := q2[i]*cos[i] + q1[i]*sin[i]      (ropeSecondSpecOf)
 *     readMain1 = p0*Q_row_stride + p1*4*head_dim + i, readMain2 = readMain1 + head_dim/2,
 *     readAux = (p0 mod seqlen)*cos|sin_row_stride + i, mask i < head_dim/2,
 *     writeMask i < head_dim/2 && p1*4 < n_heads
 *   rope_embedding_output_summary_general: the surface `rope_embedding_surface` (the
 *     transcription of the whole kernel, head loop included) lowers for Q and K forward and
 *     QGrad and KGrad backward; value facts for each half of the forward surfaces.
 *
 * What was checked against the original (bench/tritonbench_g/fast_rope_embedding/: the .py
 * and FastRopeEmbedding.lean, both [named] specs):
 *   - ropeFirstSpec / ropeSecondSpec are the kernel's `Q1*cos1 - Q2*sin1` and
 *     `Q2*cos1 + Q1*sin1` with cos1/sin1 loaded at row (row_position % seqlen), columns
 *     i < head_dim//2 (the same columns for both halves: the table holds head_dim/2 values).
 *   - The slice theorems address only head p1*4 of each group; the kernel (the surface)
 *     loops k over [p1*4, min(p1*4 + 4, n_heads)).  The write set here is the surface's:
 *     every head of every group, both halves.  Each slice's lanes are a subset with the same
 *     formula, so the contract tested is the slices' formulas over the whole surface.
 *   - The slices are stated separately because the second half reads the first half, which
 *     the first slice overwrites; the kernel loads Q1 and Q2 before it stores either, so the
 *     composed result is the rotation of the initial contents (what the spec reads).  A
 *     kernel that stores the first half before loading the second is a bug (a mutant).
 *   - BACKWARD_PASS negates sin1 (surface line `sin1 = -sin1`): x0*c + x1*s, x1*c - x0*s.
 *     The summary states values for the forward surfaces only; the backward surfaces'
 *     values (QGrad, KGrad) follow from the same transcription and are checked too.
 *   - Arithmetic is over R in the catalogue (`.to(sin1.dtype)` erased): binary32 here, Q,
 *     K and the tables in binary32 (the case where Unsloth computes RoPE in float32).
 * Error model (every admissible implementation; rope_common.spec.h): per lane
 *   |err| <= e(x0*c) + e(x1*s) + u*(|r| + e(x0*c) + e(x1*s)) + subnormal terms,
 * e(p) = the exact rounding error of the binary32 product of two exact inputs (0 where a
 * product is fused into an FMA), u = 2^-24 for the one rounded sum.  No atol/rtol.
 * Special values: |Q| <= 2^100, |cos|, |sin| <= 1 and table padding from the menu: every
 * intermediate is finite (TD_SV_REAL). */
#include "rope_unsloth_common.h"

enum { P_QS, P_CS, P_SS, P_SEQ, P_HD, P_NH, P_BLOCK, NP };
enum { R_Q, R_COS1, R_SIN1, NR_IO };             /* io_correctness: Q, cos, sin */
enum { R_QS, R_K, R_QGRAD, R_KGRAD, R_COS, R_SIN, NR_SUM }; /* output_summary_general */

#define TD_SPEC_FILE "fast_rope_embedding.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"Q_row_stride", TD_P_INT}, {"cos_row_stride", TD_P_INT},
                                         {"sin_row_stride", TD_P_INT}, {"seqlen", TD_P_INT},
                                         {"head_dim", TD_P_INT}, {"n_heads", TD_P_INT},
                                         {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions_io[NR_IO] = {
    {"Q", TD_F32, TD_R_INOUT}, {"cos", TD_F32, TD_R_IN}, {"sin", TD_F32, TD_R_IN}};
static const td_region_decl regions_sum[NR_SUM] = {
    {"Q", TD_F32, TD_R_INOUT},     {"K", TD_F32, TD_R_INOUT}, {"QGrad", TD_F32, TD_R_INOUT},
    {"KGrad", TD_F32, TD_R_INOUT}, {"cos", TD_F32, TD_R_IN},  {"sin", TD_F32, TD_R_IN}};

static const ru_cfg cfg_io = {1, {0}, P_BLOCK, -1, -1};
static const ru_cfg cfg_sum = {4, {0, 0, 1, 1}, P_BLOCK, -1, -1};

static void gen_io(td_producer *p, td_case *c) { ru_gen(p, c, &cfg_io); }
static const char *check_io(const td_case *c) { return ru_check(c, &cfg_io); }
static void writes_io(const td_case *c, td_wset *ws) { ru_writes(c, ws, &cfg_io); }
static void gen_sum(td_producer *p, td_case *c) { ru_gen(p, c, &cfg_sum); }
static const char *check_sum(const td_case *c) { return ru_check(c, &cfg_sum); }
static void writes_sum(const td_case *c, td_wset *ws) { ru_writes(c, ws, &cfg_sum); }
static void far_io(td_producer *p, td_case *c) { ru_far(p, c, &cfg_io); }
static void far_sum(td_producer *p, td_case *c) { ru_far(p, c, &cfg_sum); }

#define FRE_MODEL "two binary32 products (exact rounding errors) + one rounded sum: any order, FMA or not"
#define FRE_SV "|Q| <= 2^100, tables in [-1, 1]: every intermediate is finite"

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const char *rope_gap(const td_case *c) { return rope_odd_gap(c->p[RU_HD].i); }
static const td_intent i_io = {
    .operation = "GPT-NeoX rotary embedding of Q in place (and its input gradient when BACKWARD_PASS): each head's pairs (i, i + head_dim/2) rotated by the angle of row mod seqlen",
    .definition = ROPE_DEF_NEOX_BWD,
    TD_SPECS(fast_rope_intent),
    .gap = rope_gap,
};
static const td_intent i_summary = {
    .operation = "GPT-NeoX rotary embedding of Q and K (forward) and its input gradient on QGrad and KGrad (backward), pairs (i, i + head_dim/2), angle of row mod seqlen",
    .definition = ROPE_DEF_NEOX_BWD,
    TD_SPECS(fast_rope_intent),
    .gap = rope_gap,
};

const td_contract td_c_fast_rope_io = {
    .id = "fast_rope_embedding.fast_rope_embedding_io_correctness",
    .file = "fast_rope_embedding",
    .family = "rotary",
    .io_class = "InPlaceMaskedTileKernelIO (ropeFirstIO + ropeSecondIO)",
    .kind = "exact",
    .formula = "Q[i] := q1*cos - q2*sin; Q[i+hd/2] := q2*cos + q1*sin (cos/sin row = row mod seqlen)",
    .nparams = NP,
    .params = params,
    .nregions = NR_IO,
    .regions = regions_io,
    .sv = TD_SV_REAL,
    .sv_note = FRE_SV,
    .error_model = FRE_MODEL,
    .classes = RU_CLASSES,
    .gen = gen_io,
    .far = far_io,
    .check = check_io,
    .writes = writes_io,
    TD_SPECS(fast_rope),
    .intent = &i_io,
};

const td_contract td_c_fast_rope_summary = {
    .id = "fast_rope_embedding.rope_embedding_output_summary_general",
    .file = "fast_rope_embedding",
    .family = "rotary",
    .io_class = "Realizes_without_Rounding bundle (surfaces: Q, K forward; QGrad, KGrad backward)",
    .kind = "exact",
    .formula = "fwd: x1*c - x2*s, x2*c + x1*s on Q, K; bwd: x1*c + x2*s, x2*c - x1*s on QGrad, KGrad",
    .nparams = NP,
    .params = params,
    .nregions = NR_SUM,
    .regions = regions_sum,
    .sv = TD_SV_REAL,
    .sv_note = FRE_SV,
    .error_model = FRE_MODEL,
    .classes = RU_CLASSES,
    .gen = gen_sum,
    .far = far_sum,
    .check = check_sum,
    .writes = writes_sum,
    TD_SPECS(fast_rope),
    .intent = &i_summary,
};
