/* rope_embedding  (catalogue part 2; Unsloth's `_rope_embedding` with a ROPE_GROUP_SIZE parameter)
 *
 *   rope_embedding_io_correctness: InPlaceMaskedTileKernelIO x4 (fwd_firstIO, fwd_secondIO,
 *     bwd_firstIO, bwd_secondIO) on main = Q, aux = cos, sin:
 *       fwd first q1*c - q2*s, fwd second q2*c + q1*s, bwd first q1*c + q2*s, bwd second q2*c - q1*s
 *     readMain1 = p0*Q_row_stride + p1*ROPE_GROUP_SIZE*head_dim + i, readMain2 = readMain1 + head_dim/2,
 *     readAux = (p0 mod seqlen)*cos|sin_row_stride + i; mask i < head_dim/2;
 *     writeMask i < head_dim/2 && p1*ROPE_GROUP_SIZE < n_heads
 *   rope_embedding_forward_backward_summary_general: ComputeCorrect over Fin BLOCK_SIZE x4 for
 *     the forward on Q (state sQ) and the backward on dY (state sDY), + 2 lowerings.
 *
 * Checked against the original (bench/tritonbench_g/rope_embedding/: the .py and
 * RopeEmbedding.lean): the four IO slices are the kernel's two stores with BACKWARD_PASS
 * false / true (`sin1 = -sin1`); the slices address head p1*G of each group while the
 * kernel loops k over [p1*G, min(p1*G + G, n_heads)): the write set is the kernel's (every
 * head, both halves), each slice's lanes a subset with the same formula.  The kernel loads
 * Q1 and Q2 before storing either, so both halves are functions of the initial contents
 * (the composition the slices leave open holds for the kernel; the spec reads the
 * snapshot).  BACKWARD_PASS is a constexpr of the kernel, not a catalogue parameter: the
 * io contract takes it as its last parameter (the four IO classes are its two values x
 * two halves); the summary contract runs the forward on Q and the backward on dY, the two
 * states of its statement.  Everything else: see fast_rope_embedding.c (the same kernel with
 * G = 4), including the error model:
 *   |err| <= e(x0*c) + e(x1*s) + u*(|r| + e(x0*c) + e(x1*s)) + subnormal terms,
 * e(p) the exact rounding error of the binary32 product (0 if fused), u = 2^-24. */
#include "rope_unsloth_common.h"

enum { P_QS, P_CS, P_SS, P_SEQ, P_HD, P_NH, P_GROUP, P_BLOCK, P_BWD, NP_IO };
enum { NP_SUM = P_BWD };
enum { R_Q, R_COS1, R_SIN1, NR_IO };          /* io_correctness: Q, cos, sin */
enum { R_QS, R_DY, R_COS, R_SIN, NR_SUM };    /* forward_backward_summary_general */

#define TD_SPEC_FILE "rope_embedding.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP_IO] = {
    {"Q_row_stride", TD_P_INT}, {"cos_row_stride", TD_P_INT}, {"sin_row_stride", TD_P_INT},
    {"seqlen", TD_P_INT},       {"head_dim", TD_P_INT},       {"n_heads", TD_P_INT},
    {"ROPE_GROUP_SIZE", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT},  {"BACKWARD_PASS", TD_P_BOOL}};
static const td_region_decl regions_io[NR_IO] = {
    {"Q", TD_F32, TD_R_INOUT}, {"cos", TD_F32, TD_R_IN}, {"sin", TD_F32, TD_R_IN}};
static const td_region_decl regions_sum[NR_SUM] = {
    {"Q", TD_F32, TD_R_INOUT}, {"dY", TD_F32, TD_R_INOUT}, {"cos", TD_F32, TD_R_IN}, {"sin", TD_F32, TD_R_IN}};

static const ru_cfg cfg_io = {1, {-1}, P_BLOCK, P_GROUP, P_BWD};
static const ru_cfg cfg_sum = {2, {0, 1}, P_BLOCK, P_GROUP, -1};

static void gen_io(td_producer *p, td_case *c) { ru_gen(p, c, &cfg_io); }
static const char *check_io(const td_case *c) { return ru_check(c, &cfg_io); }
static void writes_io(const td_case *c, td_wset *ws) { ru_writes(c, ws, &cfg_io); }
static void gen_sum(td_producer *p, td_case *c) { ru_gen(p, c, &cfg_sum); }
static const char *check_sum(const td_case *c) { return ru_check(c, &cfg_sum); }
static void writes_sum(const td_case *c, td_wset *ws) { ru_writes(c, ws, &cfg_sum); }
static void far_io(td_producer *p, td_case *c) { ru_far(p, c, &cfg_io); }
static void far_sum(td_producer *p, td_case *c) { ru_far(p, c, &cfg_sum); }

#define RE_MODEL "two binary32 products (exact rounding errors) + one rounded sum: any order, FMA or not"
#define RE_SV "|Q| <= 2^100, tables in [-1, 1]: every intermediate is finite"

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const char *rope_gap(const td_case *c) { return rope_odd_gap(c->p[RU_HD].i); }
static const td_intent i_io = {
    .operation = "GPT-NeoX rotary embedding of Q in place (its input gradient when BACKWARD_PASS): pairs (i, i + head_dim/2), angle of row mod seqlen",
    .definition = ROPE_DEF_NEOX_BWD,
    TD_SPECS(rope_emb_intent),
    .gap = rope_gap,
};
static const td_intent i_summary = {
    .operation = "GPT-NeoX rotary embedding of Q and its input gradient on dY: pairs (i, i + head_dim/2), angle of row mod seqlen",
    .definition = ROPE_DEF_NEOX_BWD,
    TD_SPECS(rope_emb_intent),
    .gap = rope_gap,
};

const td_contract td_c_rope_emb_io = {
    .id = "rope_embedding.rope_embedding_io_correctness",
    .file = "rope_embedding",
    .family = "rotary",
    .io_class = "InPlaceMaskedTileKernelIO x4 (fwd_firstIO, fwd_secondIO, bwd_firstIO, bwd_secondIO)",
    .kind = "exact",
    .formula = "fwd: q1*c - q2*s, q2*c + q1*s; bwd: q1*c + q2*s, q2*c - q1*s (row mod seqlen)",
    .nparams = NP_IO,
    .params = params,
    .nregions = NR_IO,
    .regions = regions_io,
    .sv = TD_SV_REAL,
    .sv_note = RE_SV,
    .error_model = RE_MODEL,
    .classes = RU_CLASSES,
    .gen = gen_io,
    .far = far_io,
    .check = check_io,
    .writes = writes_io,
    TD_SPECS(rope_emb),
    .intent = &i_io,
};

const td_contract td_c_rope_emb_summary = {
    .id = "rope_embedding.rope_embedding_forward_backward_summary_general",
    .file = "rope_embedding",
    .family = "rotary",
    .io_class = "ComputeCorrect over Fin BLOCK_SIZE x4 (forward on Q, backward on dY) + 2 lowerings",
    .kind = "exact",
    .formula = "Q: q1*c - q2*s, q2*c + q1*s; dY: d1*c + d2*s, d2*c - d1*s (row mod seqlen)",
    .nparams = NP_SUM,
    .params = params,
    .nregions = NR_SUM,
    .regions = regions_sum,
    .sv = TD_SV_REAL,
    .sv_note = RE_SV,
    .error_model = RE_MODEL,
    .classes = RU_CLASSES,
    .gen = gen_sum,
    .far = far_sum,
    .check = check_sum,
    .writes = writes_sum,
    TD_SPECS(rope_emb),
    .intent = &i_summary,
};
