/* fast_ce_loss: unsloth's fast cross entropy, forward and chunked forward
 * (catalogue part 1, src lines 3903-3964).
 *
 *   cross_entropy_forward_correctness: fastCeForwardIO logits loss logsumexp labels VOCAB_SIZE
 *     logits_row_stride BLOCK_SIZE SOFTCAP LOGIT_SCALE DO_LOGIT_SCALING ⊨ fun _ _ lab xs g =>
 *     (fceLseLocal V B LOGIT_SCALE DO xs, fceLossLocal V B LOGIT_SCALE DO lab xs g)
 *     MetaGatherMasked2DKernelIO_2x2: label slot labels[pid0]; read = pid0*stride + j,
 *     mask = j < VOCAB_SIZE; gather at pid0*stride + lab when lab != -100;
 *     out1 = logsumexp[pid0], out2 = loss[pid0].  hV: 0 < V, hB: 0 < BLOCK_SIZE.
 *   chunked_cross_entropy_forward_output_summary (BLOCK_SIZE = n + 1, chunk 0 only, hchunk:
 *     pid1 = 0, h_tail: 0 < V): logsumexp[pid0*N_CHUNKS + pid1] = fastCeLseSpec over chunk 0,
 *     loss[pid0] = -1 * fceLabelLogit (the scaled label logit).
 *
 * Checked against bench/tritonbench_g/fast_ce_loss (.py and FastCeLoss.lean).
 * fceLseLocal = log sum_{j < B, j < V} exp(s(x_j)), s(x) = LOGIT_SCALE*x when
 * DO_LOGIT_SCALING (the kernel's stable c + log sum exp(s(x) - c) collapses to it);
 * fceLossLocal = 0 for lab = -100, else lse - s(x_lab): the reading is right.  Only the
 * first BLOCK_SIZE lanes of a row are reduced (the host picks BLOCK >= V; the
 * generator also draws V > BLOCK, where the kernel's lse covers the first BLOCK
 * columns while the label may lie beyond them).  Softcapping is fixed off by both
 * theorems: SOFTCAP is passed and unused.
 *
 * Chunked: the kernel stores BOTH outputs under `if chunk_idx == 0` (TritonBench's
 * version; unsloth stores every chunk's logsumexp), so a launch over N_CHUNKS chunks
 * writes logsumexp[row*N_CHUNKS] and loss[row] only: every other logsumexp cell must
 * keep the sentinel.  N_CHUNKS is drawn around cdiv(V, BLOCK) (programs past the
 * vocabulary are fully masked: their NaN log-sum-exp is never stored).
 * Spec reading that differs from the Lean statement: FastCeLoss.lean carries the
 * chunked kernel's label through the Nat channel, where `label_idx != -100` is dead
 * (its module doc says so), so the theorem reads loss = -s(x[label]) for every label;
 * the Triton kernel stores 0.0 for label -100.  The oracle follows the kernel: an
 * ignored row's partial loss is 0 (labels -100 are generated, as the host passes them).
 *
 * Error model (reduce_common.h): the max-shifted log-sum-exp as the kernel evaluates
 * it (tl.max, tl.sum tree, exp/log budgets; scaled logits through the 1-Lipschitz
 * bound), loss = lse - RN32(LOGIT_SCALE*x_lab) (one more rounding); -1.0*x is exact.
 * Labels are int64 (torch), read `.to(tl.int32)`; they are -100 or in [0, V) (a torch
 * cross entropy's labels; any other value gathers outside the row).
 * Special values: LOGIT_SCALE > 0 when scaling (masked lanes hold -inf*LOGIT_SCALE);
 * |logits| <= 2^40.
 */
#include "gen_far.h"
#include "reduce_common.h"

enum { P_V, P_STRIDE, P_BLOCK, P_SOFTCAP, P_SCALE, P_DO_SCALE, NP };
enum { PC_V, PC_NCHUNKS, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE, PC_N, NPC };
enum { R_LOGITS, R_LOSS, R_LSE, R_LABELS, NR };

#define FCE_BOUND 0x1p40

#define TD_SPEC_FILE "fast_ce_loss.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"VOCAB_SIZE", TD_P_INT}, {"logits_row_stride", TD_P_INT},
                                         {"BLOCK_SIZE", TD_P_INT}, {"SOFTCAP", TD_P_REAL},
                                         {"LOGIT_SCALE", TD_P_REAL}, {"DO_LOGIT_SCALING", TD_P_BOOL}};
static const td_param_decl params_chunked[NPC] = {
    {"VOCAB_SIZE", TD_P_INT}, {"N_CHUNKS", TD_P_INT},    {"logits_row_stride", TD_P_INT},
    {"SOFTCAP", TD_P_REAL},   {"LOGIT_SCALE", TD_P_REAL}, {"DO_LOGIT_SCALING", TD_P_BOOL},
    {"n", TD_P_INT}};
static const td_region_decl regions[NR] = {{"logits_ptr", TD_F32, TD_R_IN},
                                           {"loss_ptr", TD_F32, TD_R_OUT},
                                           {"logsumexp_ptr", TD_F32, TD_R_OUT},
                                           {"labels_ptr", TD_I64, TD_R_META}};

/* the parts both launches share: rows of logits, labels, scaling; returns n_rows */
static int64_t gen_rows(td_producer *p, td_case *c, int64_t V, int64_t B, int p_stride, int p_softcap, int p_scale,
                        int p_do, td_vgen *g) {
    int64_t max_rows = 4096 / V < 8 ? 4096 / V : 8;
    int64_t n_rows = td_prod_u32(p, 1, (uint32_t)(max_rows < 1 ? 1 : max_rows));
    int64_t stride = rc_row_stride(p, V, 1, &c->classes);
    td_vgen_init(g, p, c, TD_VM_ALL, FCE_BOUND);
    td_rng *r = &g->rng;
    int do_scale = (int)td_rng_below(r, 2);
    unsigned kk = (unsigned)td_rng_below(r, 4);
    double scale = kk == 0 ? 1.0 : kk == 1 ? 0.5 : 0.0;
    if (kk > 1) { /* two draws, sequenced (C leaves the order of a call's arguments open) */
        double m = 1.0 + td_rng_unit(r);
        scale = ldexp(m, (int)td_rng_below(r, 9) - 5);
    }
    c->p[p_stride].i = stride;
    c->p[p_softcap].r = td_rng_below(r, 2) ? 0.0 : 30.0;
    c->p[p_scale].r = (double)(float)scale;
    c->p[p_do].i = do_scale;
    td_case_alloc(c, R_LOGITS, rc_rows_len(n_rows, V, stride) + (td_rng_below(r, 2) ? 7 : 0));
    td_case_alloc(c, R_LABELS, (size_t)n_rows);
    for (int64_t i = 0; i < n_rows; i++)
        if (stride != 0 || i == 0) rc_fill_row(g, c, R_LOGITS, (size_t)(i * stride), (size_t)V, 1, FCE_BOUND);
    int all_ignored = td_rng_below(r, 12) == 0;
    if (all_ignored) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* every row's loss masked by the ignore index */
    for (int64_t i = 0; i < n_rows; i++) {
        int64_t lab = rc_label(r, 0, V, -100, all_ignored);
        td_seti(c, R_LABELS, (size_t)i, lab);
        if (lab == -100 || lab == V - 1 || lab >= B) c->classes |= TD_BC(TD_BC_META_EXTREME);
    }
    return n_rows;
}

static void gen(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 10);
    /* the host's BLOCK_SIZE = next_power_of_2(V) >= V, and now and then V > BLOCK */
    int64_t V = (int64_t)td_gen_count(p, (uint64_t)B, td_prod_u32(p, 0, 3) ? (uint64_t)B : (uint64_t)(4 * B),
                                      &c->classes);
    td_vgen g;
    int64_t n_rows = gen_rows(p, c, V, B, P_STRIDE, P_SOFTCAP, P_SCALE, P_DO_SCALE, &g);
    c->p[P_V].i = V;
    c->p[P_BLOCK].i = B;
    size_t slack = td_rng_below(&g.rng, 2) ? 3 : 0;
    td_case_alloc(c, R_LOSS, (size_t)n_rows + slack);
    td_case_alloc(c, R_LSE, (size_t)n_rows + slack);
    c->grid[0] = (uint32_t)n_rows;
    c->grid[1] = c->grid[2] = 1;
}

static void gen_chunked(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 9);
    int64_t V = (int64_t)td_gen_count(p, (uint64_t)B, (uint64_t)(8 * B), &c->classes);
    int64_t chunks = (V + B - 1) / B;
    switch (td_prod_u32(p, 0, 4)) {
    case 0: chunks += 1 + td_prod_u32(p, 0, 2); c->classes |= TD_BC(TD_BC_FULLY_MASKED); break; /* surplus */
    case 1: chunks = 1 + (chunks > 1 ? td_prod_u32(p, 0, (uint32_t)(chunks - 2)) : 0); break;  /* fewer */
    default: break;
    }
    td_vgen g;
    int64_t n_rows = gen_rows(p, c, V, B, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE, &g);
    c->p[PC_V].i = V;
    c->p[PC_NCHUNKS].i = chunks;
    c->p[PC_N].i = B - 1; /* BLOCK_SIZE = n + 1 */
    size_t slack = td_rng_below(&g.rng, 2) ? 3 : 0;
    td_case_alloc(c, R_LOSS, (size_t)n_rows + slack);
    td_case_alloc(c, R_LSE, (size_t)(n_rows * chunks) + slack);
    c->grid[0] = (uint32_t)n_rows;
    c->grid[1] = (uint32_t)chunks;
    c->grid[2] = 1;
}

static const char *check_common(const td_case *c, int64_t V, int64_t B, int p_stride, int p_softcap, int p_scale,
                                int p_do) {
    const char *e;
    if ((e = rc_real_param_check(c, p_softcap)) || (e = rc_real_param_check(c, p_scale))) return e;
    if (c->p[p_do].i && !(c->p[p_scale].r > 0))
        return "LOGIT_SCALE > 0 when DO_LOGIT_SCALING (masked lanes load -inf * LOGIT_SCALE)";
    if (V < 1) return "hV: 0 < VOCAB_SIZE";
    if (B < 1 || (B & (B - 1))) return "hB: 0 < BLOCK_SIZE (a power of two: tl.arange)";
    int64_t n_rows = c->grid[0], stride = c->p[p_stride].i;
    if (stride < 0 || c->r[R_LOGITS].len < rc_rows_len(n_rows, V, stride)) return "logits_ptr holds every row read";
    if (c->r[R_LABELS].len < (size_t)n_rows || c->r[R_LOSS].len < (size_t)n_rows) return "labels and loss per row";
    for (int64_t i = 0; i < n_rows; i++) {
        int64_t lab = td_geti(c, R_LABELS, (size_t)i);
        if (lab != -100 && (lab < 0 || lab >= V)) return "labels are -100 or a class in [0, VOCAB_SIZE)";
    }
    return NULL; /* hne: logsumexp_ptr != loss_ptr, distinct regions */
}

static const char *check(const td_case *c) {
    if (c->grid[1] != 1 || c->grid[2] != 1) return "grid = (n_rows,)";
    if (c->r[R_LSE].len < c->grid[0]) return "logsumexp per row";
    return check_common(c, c->p[P_V].i, c->p[P_BLOCK].i, P_STRIDE, P_SOFTCAP, P_SCALE, P_DO_SCALE);
}

static const char *check_chunked(const td_case *c) {
    int64_t chunks = c->p[PC_NCHUNKS].i;
    if (chunks < 1 || c->grid[1] != (uint64_t)chunks || c->grid[2] != 1) return "grid = (n_rows, N_CHUNKS)";
    if (c->r[R_LSE].len < (size_t)(c->grid[0] * (uint64_t)chunks)) return "logsumexp holds n_rows * N_CHUNKS";
    /* hchunk (pid1 = 0) and h_tail (0 < V) select the lanes of the write set */
    return check_common(c, c->p[PC_V].i, c->p[PC_N].i + 1, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE);
}

static void writes(const td_case *c, td_wset *ws) {
    for (uint32_t row = 0; row < c->grid[0]; row++) {
        td_olane a = {.o = 0, .region = R_LSE, .off = row, .pid = {row, 0, 0}, .idx = {row}};
        td_olane b = {.o = 1, .region = R_LOSS, .off = row, .pid = {row, 0, 0}, .idx = {row}};
        td_wset_add(ws, &a);
        td_wset_add(ws, &b);
    }
}

static void writes_chunked(const td_case *c, td_wset *ws) {
    uint64_t chunks = (uint64_t)c->p[PC_NCHUNKS].i;
    for (uint32_t row = 0; row < c->grid[0]; row++) { /* the programs with pid1 = 0 */
        td_olane a = {.o = 0, .region = R_LSE, .off = row * chunks, .pid = {row, 0, 0}, .idx = {row}};
        td_olane b = {.o = 1, .region = R_LOSS, .off = row, .pid = {row, 0, 0}, .idx = {row}};
        td_wset_add(ws, &a);
        td_wset_add(ws, &b);
    }
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of logits (VOCAB_SIZE
 * wide: the label's gather may read past the tile, the chunks cover the row) at a
 * logits_row_stride near 2^31 over a sparse region, as unsloth's kernels formed
 * row_idx * logits_row_stride in int32 before they cast to int64; labels and outputs
 * follow the rows kept (the chunked launch keeps its N_CHUNKS programs per row). */
static void far_rows(td_producer *p, td_case *c, int p_v, int p_stride) {
    int64_t R = c->grid[0], V = c->p[p_v].i;
    if (R < 2 || V <= 0) return;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, V);
    if (td_far_restride(c, R_LOGITS, R, V, c->p[p_stride].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[p_stride].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}
static void far(td_producer *p, td_case *c) { far_rows(p, c, P_V, P_STRIDE); }
static void far_chunked(td_producer *p, td_case *c) { far_rows(p, c, PC_V, PC_STRIDE); }

#define FCE_COMMON                                                                                                \
    .file = "fast_ce_loss", .family = "loss", .kind = "exact", .nregions = NR, .regions = regions,               \
    .sv = TD_SV_REAL,                                                                                             \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_FULLY_MASKED)

/* The operation needs the whole row: a launch whose one tile is narrower than the
 * vocabulary reduces its first BLOCK_SIZE columns only. */
static const char *fce_gap(const td_case *c) {
    return c->p[P_V].i > c->p[P_BLOCK].i ? "VOCAB_SIZE > BLOCK_SIZE: the one tile reads BLOCK_SIZE of the row's "
                                           "VOCAB_SIZE columns"
                                         : NULL;
}
/* The chunked kernel gets no intent: its loss is -s(x[label]), a partial to which the
 * host adds the log-sum-exp of all chunks, on every case. */
static const td_intent fce_intent = {
    .operation = "cross-entropy of each row over its VOCAB_SIZE classes (ignore_index -100), with its log-sum-exp",
    .definition = "torch.nn.functional.cross_entropy(logits * LOGIT_SCALE if DO_LOGIT_SCALING, labels, "
                  "ignore_index=-100, reduction='none') and torch.logsumexp (PyTorch documentation)",
    TD_SPECS(fce_intent),
    .gap = fce_gap,
};

const td_contract td_c_fast_ce_forward = {
    .id = "fast_ce_loss.cross_entropy_forward_correctness",
    .io_class = "MetaGatherMasked2DKernelIO_2x2 (fastCeForwardIO)",
    .formula = "logsumexp[r] = log sum_{j < min(B, V)} exp(s(x[r,j])); loss[r] = lab == -100 ? 0 : "
               "logsumexp[r] - s(x[r,lab]), s(x) = LOGIT_SCALE*x if DO_LOGIT_SCALING",
    .nparams = NP,
    .params = params,
    .sv_note = "labels -100 or in [0, V): an ignored row's loss is exactly 0; LOGIT_SCALE > 0 when scaling; "
               "|logits| <= 2^40 (rows far above 88.7 drawn)",
    .error_model = "max-shifted log-sum-exp (tl.sum tree, exp/log budgets, scaled inputs by the Lipschitz bound), "
                   "then one subtraction",
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    FCE_COMMON | TD_BC(TD_BC_OFFSET_2_31),
    TD_SPECS(fce),
    .intent = &fce_intent,
};

const td_contract td_c_fast_ce_chunked = {
    .id = "fast_ce_loss.chunked_cross_entropy_forward_output_summary",
    .io_class = "Realizes_without_Rounding x2 (chunk 0: logsumexp and partial loss)",
    .formula = "logsumexp[r*N_CHUNKS] = log sum_{j < min(n+1, V)} exp(s(x[r,j])); loss[r] = lab == -100 ? 0 : "
               "-s(x[r,lab])",
    .nparams = NPC,
    .params = params_chunked,
    .sv_note = "only chunk 0 stores; surplus chunks are fully masked and store nothing; label -100 -> 0 (the "
               "kernel's branch, dead in the Lean model); LOGIT_SCALE > 0 when scaling; |logits| <= 2^40",
    .error_model = "max-shifted log-sum-exp over chunk 0 (tl.sum tree, exp/log budgets); -1.0*x is exact",
    .gen = gen_chunked,
    .far = far_chunked,
    .check = check_chunked,
    .writes = writes_chunked,
    FCE_COMMON | TD_BC(TD_BC_OFFSET_2_31),
    TD_SPECS(fce_chunked),
};
