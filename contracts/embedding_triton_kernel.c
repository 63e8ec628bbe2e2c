/* embedding_triton_kernel: four contracts of one vocabulary-parallel embedding lookup
 * (catalogue part 1).
 *
 *   embedding_kernel_output_summary  the launched kernel (hOne: BLOCK_NN = 1) realises
 *     out[t, d] = (vob_start ≤ ids[t] < vob_end) ? weight[(ids[t] − vob_start)*stride_weight_seq + d] : 0
 *     for every store-active (t, d): t = pid*BLOCK_N + r < n_ctx, d < hiden_size, r < BLOCK_N,
 *     d < BLOCK_DMODEL; hOutInj: idx ↦ (pid*BLOCK_N + r)*stride_out_seq + d injective on
 *     [BLOCK_N, BLOCK_DMODEL]; input_ids ≠ out, weight ≠ out.
 *   embedding_body_io_correctness(R)  GatherTileKernelIO bodyIO: ONE iteration of the
 *     kernel's `for start_nn in range(0, BLOCK_N, BLOCK_NN)` (embedding_body_slice), rows
 *     pid*BLOCK_N + start_nn + r, r < BLOCK_NN; the same value; hOutInj per program on
 *     [BLOCK_NN, BLOCK_DMODEL]; the R twin ⊨[R, .real].
 *   embedding_kernel_whole_io_correctnessR  wholeIO: the launched kernel with BLOCK_NN = 1
 *     (no BLOCK_NN parameter), ⊨[R, .real].
 *
 * Checked against the kernel (bench/tritonbench_g/embedding_triton_kernel/, the .py) and the
 * Lean (embeddingSpecFull, bodyIO, wholeIO): the token id row is loaded with
 * other = vob_end_id, so a lane past n_ctx is out of vocabulary and loads nothing; an id
 * outside [vob_start, vob_end) (this shard of a vocabulary split over devices) loads
 * other = 0.0 and STORES 0 (the store mask is n_ctx ∧ d < hiden_size, not the id mask):
 * an out-of-shard row is written with zeros, not skipped.  There is no padding index in
 * this kernel (the vocabulary window plays that role).  The write mask clips columns at
 * BLOCK_DMODEL and hiden_size both (the wrapper's BLOCK_DMODEL = next_pow2(hiden_size)
 * makes the first the larger; the generator also draws a smaller one, which the
 * contract allows: columns past BLOCK_DMODEL are then outside the write set).
 * hOutInj is a real restriction: with more than one row per tile it needs
 * stride_out_seq ≥ BLOCK_DMODEL, so the generator pads the output rows to BLOCK_DMODEL
 * unless the tile has one row (the wrapper's BLOCK_NN = 1 body, or BLOCK_N = 1).
 * The body contracts take start_nn as a loop value: a multiple of BLOCK_NN with
 * start_nn + BLOCK_NN ≤ BLOCK_N (so two programs never write one row).
 *
 * Ids: td_gen_indices inside the shard (repeats, all equal, vob_start and vob_end − 1
 * planted), then some replaced by out-of-shard ids (0, vob_start − 1, vob_end, larger).
 *
 * Error model: none; an output is a copy of a binary32 weight element or 0, bit-exact for
 * every implementation (tolerance 0).  R.round .real on a binary32 output is the binary32
 * store (slot "store", fp32:rne:inf); the value stored is already binary32, so the cast
 * costs nothing and the R twins are bit-exact as well.
 */
#include "gen.h"
#include "gen_meta.h"
#include "gen_far.h"

#include <float.h>

enum { P_VSTART, P_VEND, P_SW, P_SO, P_NCTX, P_HIDDEN, P_BD, P_BN, P_BNN, P_START_NN, NP_MAX };
enum { R_WEIGHT, R_IDS, R_OUT, NR };
enum { C_STORE };
#define EMB_MAX_CTX 256
#define NP_WHOLE P_BNN      /* wholeIO: no BLOCK_NN (fixed to 1) */
#define NP_SUMMARY P_START_NN
#define NP_BODY NP_MAX

/* the launch's tile rows and the slice a program writes: [first, first + rows) of its BLOCK_N */
static int64_t emb_bnn(const td_case *c) { return c->k->nparams > P_BNN ? c->p[P_BNN].i : 1; }
static int emb_is_body(const td_case *c) { return c->k->nparams > P_START_NN; }

#define TD_SPEC_FILE "embedding_triton_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP_MAX] = {
    {"vob_start_id", TD_P_INT},   {"vob_end_id", TD_P_INT}, {"stride_weight_seq", TD_P_INT},
    {"stride_out_seq", TD_P_INT}, {"n_ctx", TD_P_INT},      {"hiden_size", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT},   {"BLOCK_N", TD_P_INT},    {"BLOCK_NN", TD_P_INT},
    {"start_nn", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"weight", TD_F32, TD_R_IN}, {"input_ids", TD_I32, TD_R_META}, {"out", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp32:rne:inf", "R.round .real of the stored output (a binary32 store)"}};

/* The index classes of the final ids (after the out-of-shard replacements): the shard's
 * first and last rows both looked up, an in-shard id repeated. */
static void mark_ids(td_case *c, const int64_t *ids, int64_t n, int64_t vs, int64_t ve) {
    int lo = 0, hi = 0, rep = 0;
    for (int64_t t = 0; t < n; t++) {
        lo |= ids[t] == vs, hi |= ids[t] == ve - 1;
        for (int64_t q = 0; q < t && !rep; q++) rep = ids[q] == ids[t] && ids[t] >= vs && ids[t] < ve;
    }
    if (lo && hi) c->classes |= TD_BC(TD_BC_IDX_FIRST_LAST);
    if (rep) c->classes |= TD_BC(TD_BC_IDX_REPEATS);
}

/* ids: in-shard ids from td_gen_indices shifted by vob_start, some replaced by out-of-shard ones */
static void gen_ids(td_producer *p, td_rng *r, td_case *c, int64_t n, int64_t vs, int64_t ve) {
    int64_t ids[EMB_MAX_CTX];
    uint64_t idx_classes = 0; /* recomputed on the final ids below */
    td_gen_indices(p, r, ids, n, ve - vs, &idx_classes);
    static const unsigned w[] = {3, 2, 1};
    int oov = td_prod_pick(p, w, 3); /* none, a few, most */
    for (int64_t t = 0; t < n; t++) {
        ids[t] += vs;
        if (oov && td_rng_below(r, 4) < (oov == 1 ? 1u : 3u)) {
            switch (td_rng_below(r, 4)) {
            case 0: ids[t] = ve; break;
            case 1: ids[t] = vs > 0 ? vs - 1 : ve; break;
            case 2: ids[t] = 0 < vs ? 0 : ve + 1; break;
            default: ids[t] = ve + (int64_t)td_rng_below(r, 1000); break;
            }
            c->classes |= TD_BC(TD_BC_META_EXTREME);
        }
        td_seti(c, R_IDS, (size_t)t, ids[t]);
    }
    mark_ids(c, ids, n, vs, ve);
}

static void gen_blocks(td_producer *p, td_case *c, int64_t hidden) {
    int64_t bd = 1;
    while (bd < hidden) bd *= 2;                         /* next_power_of_2(hiden_size) */
    static const unsigned wd[] = {6, 1, 1};
    int k = td_prod_pick(p, wd, 3);
    if (k == 1 && bd > 1) bd /= 2;                       /* fewer columns than the row */
    if (k == 2) bd *= 2;                                 /* a wider tile than needed */
    c->p[P_BD].i = bd;
    int64_t bn = td_gen_pow2(p, 0, 6), bnn = 1, start = 0; /* the wrapper: BLOCK_N = 64, BLOCK_NN = 1 */
    if (emb_is_body(c)) bnn = td_gen_pow2(p, 0, 3);
    if (bnn > bn) bnn = bn;
    if (emb_is_body(c)) start = bnn * (int64_t)td_prod_u32(p, 0, (uint32_t)(bn / bnn - 1));
    c->p[P_BN].i = bn;
    if (c->k->nparams > P_BNN) c->p[P_BNN].i = bnn;
    if (emb_is_body(c)) c->p[P_START_NN].i = start;
}

static void gen(td_producer *p, td_case *c) {
    int64_t vs = td_prod_bool(p) ? 0 : (int64_t)td_prod_u32(p, 1, 20);
    int64_t ve = vs + (int64_t)td_prod_u32(p, 1, 64);
    int64_t hidden = (int64_t)td_prod_u32(p, 1, 96);
    c->p[P_VSTART].i = vs, c->p[P_VEND].i = ve, c->p[P_HIDDEN].i = hidden;
    gen_blocks(p, c, hidden);
    int64_t bn = c->p[P_BN].i, bd = c->p[P_BD].i, tile_rows = emb_is_body(c) ? emb_bnn(c) : bn;
    int64_t n = (int64_t)td_gen_count(p, (uint64_t)bn, EMB_MAX_CTX, &c->classes);
    int64_t pad_w = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 7) : 0;
    int64_t pad_o = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 7) : 0;
    int64_t row_o = tile_rows > 1 && bd > hidden ? bd : hidden; /* hOutInj */
    if (pad_w || pad_o || row_o > hidden) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[P_SW].i = hidden + pad_w, c->p[P_SO].i = row_o + pad_o, c->p[P_NCTX].i = n;
    c->grid[0] = (uint32_t)((n + bn - 1) / bn), c->grid[1] = c->grid[2] = 1;
    td_case_alloc(c, R_WEIGHT, (size_t)((ve - vs - 1) * (hidden + pad_w) + hidden));
    td_case_alloc(c, R_IDS, (size_t)n);
    td_case_alloc(c, R_OUT, (size_t)((n - 1) * (row_o + pad_o) + hidden));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_WEIGHT);
    gen_ids(p, &g.rng, c, n, vs, ve);
}

/* Offsets beyond 2^31: the shard keeps its first R = min(vob_end - vob_start, 4) rows,
 * moved to a far stride_weight_seq (td_far_restride: (id - vob_start) * stride, the
 * product the kernel forms from its int32 id); in-shard ids past them fold onto them
 * (the first token the launch stores reads the farthest row), out-of-shard ids stay
 * outside [vob_start, vob_start + R).  out keeps its layout. */
static void far(td_producer *p, td_case *c) {
    int64_t vs = c->p[P_VSTART].i, ve = c->p[P_VEND].i, hidden = c->p[P_HIDDEN].i, n = c->p[P_NCTX].i;
    int64_t R = ve - vs < TD_FAR_MAX_ROWS ? ve - vs : TD_FAR_MAX_ROWS;
    if (R == 3) R = 2; /* row R-1 odd: its int32 product wraps negative for either stride td_far_stride draws */
    int64_t t0 = emb_is_body(c) ? c->p[P_START_NN].i : 0; /* the body stores rows start_nn .. */
    if (R < 2 || t0 >= n) return;                            /* (none when start_nn >= n_ctx) */
    int64_t s = td_far_stride(p, R, hidden);
    if (td_far_restride(c, R_WEIGHT, R, hidden, c->p[P_SW].i, s)) return;
    for (int64_t t = 0; t < n; t++) {
        int64_t id = td_geti(c, R_IDS, (size_t)t);
        if (id >= vs && id < ve) td_seti(c, R_IDS, (size_t)t, vs + (id - vs) % R);
    }
    td_seti(c, R_IDS, (size_t)t0, vs + R - 1);
    c->p[P_VEND].i = vs + R, c->p[P_SW].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check_blocks(const td_case *c) {
    int64_t bn = c->p[P_BN].i, bd = c->p[P_BD].i, bnn = emb_bnn(c);
    if (bn <= 0 || bd <= 0 || bnn <= 0) return "BLOCK_N, BLOCK_DMODEL, BLOCK_NN > 0 (Triton blocks)";
    if (c->k->nparams == NP_SUMMARY && bnn != 1) return "hOne: BLOCK_NN = 1";
    if (emb_is_body(c)) {
        int64_t s = c->p[P_START_NN].i;
        if (s < 0 || s % bnn || s + bnn > bn)
            return "start_nn a loop value: BLOCK_NN | start_nn, start_nn + BLOCK_NN <= BLOCK_N";
    }
    int64_t tile_rows = emb_is_body(c) ? bnn : bn;
    if (tile_rows > 1 && c->p[P_SO].i < bd) return "hOutInj: (r, d) -> r*stride_out_seq + d injective on the tile";
    return NULL;
}

static const char *check(const td_case *c) {
    int64_t vs = c->p[P_VSTART].i, ve = c->p[P_VEND].i, sw = c->p[P_SW].i, so = c->p[P_SO].i;
    int64_t n = c->p[P_NCTX].i, hidden = c->p[P_HIDDEN].i, bd = c->p[P_BD].i;
    if (vs < 0 || ve < vs || n < 0 || hidden < 1 || sw < 0 || so < 0) return "Nat parameters (hiden_size >= 1)";
    const char *e = check_blocks(c);
    if (e) return e;
    if ((int64_t)c->grid[0] * c->p[P_BN].i < n || c->grid[1] != 1 || c->grid[2] != 1)
        return "grid = (cdiv(n_ctx, BLOCK_N),)";
    int64_t cols = hidden < bd ? hidden : bd;
    if ((int64_t)c->r[R_IDS].len < n) return "input_ids holds n_ctx ids";
    if (n > 0 && (n - 1) * so + cols > (int64_t)c->r[R_OUT].len) return "out holds every written cell";
    for (int64_t t = 0; t < n; t++) {
        int64_t id = td_geti(c, R_IDS, (size_t)t);
        if (id < 0) return "input_ids : Nat";
        if (id >= vs && id < ve && (id - vs) * sw + cols > (int64_t)c->r[R_WEIGHT].len)
            return "in-shard reads inside weight";
    }
    if (!td_region_abs_le(c, R_WEIGHT, DBL_MAX)) return "domain: finite weights"; /* a far one: its written pages */
    return NULL;
}

/* storeActive: row t < n_ctx, column d < hiden_size and < BLOCK_DMODEL */
static void writes(const td_case *c, td_wset *ws) {
    int64_t n = c->p[P_NCTX].i, hidden = c->p[P_HIDDEN].i, bd = c->p[P_BD].i, bn = c->p[P_BN].i;
    int64_t so = c->p[P_SO].i, cols = hidden < bd ? hidden : bd;
    int64_t first = emb_is_body(c) ? c->p[P_START_NN].i : 0, rows = emb_is_body(c) ? emb_bnn(c) : bn;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t r = 0; r < rows; r++) {
            int64_t t = (int64_t)pid * bn + first + r;
            if (t >= n) break;
            for (int64_t d = 0; d < cols; d++) {
                td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(t * so + d), .pid = {pid, 0, 0},
                              .j = (uint64_t)(r * bd + d), .idx = {t, d, td_geti(c, R_IDS, (size_t)t)}};
                td_wset_add(ws, &l);
            }
        }
}

#define EMB_COMMON                                                                                              \
    .file = "embedding_triton_kernel", .family = "gather", .params = params, .nregions = NR, .regions = regions, \
    .sv = TD_SV_REAL, .sv_note = "finite weights; a copy or 0, so no special value arises",                     \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_REPEATS) |                     \
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_OFFSET_2_31),               \
    .gen = gen, .far = far, .check = check, .writes = writes
#define EMB_FORMULA "out[t, d] = vob_start <= ids[t] < vob_end ? weight[(ids[t] - vob_start)*stride_weight_seq + d] : 0"

const td_contract td_c_embedding_output_summary = {
    .id = "embedding_triton_kernel.embedding_kernel_output_summary",
    .io_class = "correct_target (the launched kernel, BLOCK_NN = 1)",
    .kind = "exact",
    .formula = EMB_FORMULA,
    .nparams = NP_SUMMARY,
    .error_model = "a copy of a binary32 weight or the constant 0: bit-exact (tolerance 0)",
    EMB_COMMON,
    TD_SPECS(embedding),
};
const td_contract td_c_embedding_body_io = {
    .id = "embedding_triton_kernel.embedding_body_io_correctness",
    .io_class = "GatherTileKernelIO (bodyIO: one loop slice start_nn)",
    .kind = "exact",
    .formula = EMB_FORMULA ", rows pid*BLOCK_N + start_nn + r, r < BLOCK_NN",
    .nparams = NP_BODY,
    .error_model = "a copy of a binary32 weight or the constant 0: bit-exact (tolerance 0)",
    EMB_COMMON,
    TD_SPECS(embedding),
};
const td_contract td_c_embedding_body_io_r = {
    .id = "embedding_triton_kernel.embedding_body_io_correctnessR",
    .io_class = "GatherTileKernelIO (bodyIO: one loop slice start_nn), |=[R, .real]",
    .kind = "rounding",
    .formula = "R.round(.real)(" EMB_FORMULA "), one loop slice; R = the binary32 store",
    .nparams = NP_BODY,
    .ncasts = 1,
    .casts = casts,
    .error_model = "an exact binary32 value through the identical binary32 store: bit-exact (tolerance 0)",
    EMB_COMMON,
    TD_SPECS(embedding_r),
};
const td_contract td_c_embedding_whole_io_r = {
    .id = "embedding_triton_kernel.embedding_kernel_whole_io_correctnessR",
    .io_class = "GatherTileKernelIO (wholeIO: the launched kernel, BLOCK_NN = 1), |=[R, .real]",
    .kind = "rounding",
    .formula = "R.round(.real)(" EMB_FORMULA "); R = the binary32 store",
    .nparams = NP_WHOLE,
    .ncasts = 1,
    .casts = casts,
    .error_model = "an exact binary32 value through the identical binary32 store: bit-exact (tolerance 0)",
    EMB_COMMON,
    TD_SPECS(embedding_r),
};
