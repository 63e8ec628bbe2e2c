/* apply_penalty.apply_penalty_correctness  (catalogue part 1)
 *
 *   applyPenaltyIO Logits presence_penalty freqency_penalty repetition_penalty p_token_ids
 *     p_token_counts p_cumsum_seq_len stride_logit_b stride_logit_s BLOCK_P
 *     ⊨ fun _ _ g₁ g₂ g₃ _ _ _ cnts xs j => penaltyValuePure g₁ g₂ g₃ cnts xs j
 *   MetaScatterMasked2DKernelIO₁: fbuf1..3 = presence, freqency, repetition (per-batch
 *   scalars at pid0); m1 = cumsum[pid0], m2 = cumsum[pid0+1]; ids[j] = token_ids[m1+j],
 *   cnts[j] = token_counts[m1+j]; read = write = pid0*stride_logit_b + ids[j] (Logits IN
 *   PLACE); mask: m1 + j < m2, j < BLOCK_P; guarded by WriteInj (distinct active ids).
 *
 * The [named] spec, checked: penaltyValuePure g₁ g₂ g₃ cnts xs j = TiledOptimizer.lionPenalty
 * (xs j) (cnts j) g₃ g₂ g₁, and VeriTile/Triton/Math/Optimizer.lean defines
 * lionPenalty logit count rep freq pres = (logit > 0 ? logit / rep : logit * rep)
 * − count*freq − pres; so with g₁ = presence, g₂ = freqency, g₃ = repetition the value is
 * (x > 0 ? x / rep : x * rep) − cnt*freq − presence.  The Triton kernel
 * (bench/tritonbench_g/apply_penalty/apply_penalty.py) computes exactly that:
 * tl.where(x > 0, x / rep, x * rep), then − count * freq, then − presence, and stores at
 * the same Logits cell; a negative logit is MULTIPLIED by rep (made more negative), a
 * positive one divided, and x = 0 goes to the multiply branch (0).  Only the ids listed
 * in the window [cumsum[b], cumsum[b+1]) of row b are touched; every other Logits cell
 * keeps its value.  stride_logit_s does not enter any offset (Logits is contiguous in the
 * wrapper); it is passed as 1.
 *
 * Generator: nb rows; a window length per row from td_gen_ragged (0, 1, BLOCK_P − 1,
 * BLOCK_P and random, at most BLOCK_P: the wrapper takes BLOCK_P >= the longest window),
 * cumsum its prefix sums, the id buffer sized exactly to the total; the ids of a window
 * distinct (td_gen_slots into [0, vocab): the first and last vocabulary ids, a whole-row
 * permutation); counts >= 1 (a token listed occurred), mostly small, sometimes 2^20;
 * repetition in [1/4, 4] (1.0 and the test's 1.2..1.3 favoured), freqency and presence in
 * [−2, 2] with 0 favoured; logits from every finite menu with |x| <= 2^100.
 *
 * Error model (every admissible evaluation): the branch x > 0 compares exact inputs, so it
 * is certain; x/rep or x*rep is one binary32 operation (u|result|, the division under the
 * backend's division budget: div.rn, div.full or x*(1/rep)); cnt*freq one product (cnt is
 * an integer <= 2^20, exact in binary32); then two subtractions (u|result| each).  The
 * penalties may be subtracted as written, ((r − cf) − p), or grouped, (r − (cf + p)):
 * both forms go to N(either), so the bound is the larger of the two; FMA contraction of
 * r − cnt*freq is one rounding fewer and within the same bound.
 */
#include "gen.h"
#include "gen_far.h"
#include "gen_meta.h"

enum { P_STRIDE_B, P_STRIDE_S, P_BLOCK, NP };
enum { R_LOGITS, R_PRES, R_FREQ, R_REP, R_IDS, R_CNTS, R_CUMSUM, NR };

#define TD_SPEC_FILE "apply_penalty.spec.h"
#include "spec_instantiate.h"

#define AP_MAX_ROWS 6
#define AP_LOGIT_BOUND 0x1p100

static const td_param_decl params[NP] = {
    {"stride_logit_b", TD_P_INT}, {"stride_logit_s", TD_P_INT}, {"BLOCK_P", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"Logits", TD_F32, TD_R_INOUT},        {"presence_penalty", TD_F32, TD_R_IN},
    {"freqency_penalty", TD_F32, TD_R_IN}, {"repetition_penalty", TD_F32, TD_R_IN},
    {"p_token_ids", TD_I32, TD_R_META},    {"p_token_counts", TD_I32, TD_R_META},
    {"p_cumsum_seq_len", TD_I32, TD_R_META}};

/* the per-row penalty scalars: the values real samplers use, and free ones */
static double draw_penalty(td_producer *p, int which) {
    static const unsigned w[] = {2, 3, 3};
    int k = td_prod_pick(p, w, 3);
    if (which == R_REP) return k == 0 ? 1.0 : k == 1 ? td_gen_real(p, 1.0, 2.0) : td_gen_real(p, 0.25, 4.0);
    return k == 0 ? 0.0 : k == 1 ? td_gen_real(p, 0.0, 1.0) : td_gen_real(p, -2.0, 2.0);
}

static int32_t draw_count(td_producer *p) {
    static const unsigned w[] = {5, 2, 1};
    switch (td_prod_pick(p, w, 3)) {
    case 0: return (int32_t)td_prod_u32(p, 1, 5);
    case 1: return (int32_t)td_prod_u32(p, 1, 1000);
    default: return 1 << 20;
    }
}

static void gen_windows(td_producer *p, td_rng *r, td_case *c, int nb, int64_t vocab, int64_t B) {
    int64_t lens[AP_MAX_ROWS], starts[AP_MAX_ROWS + 1];
    int64_t max_len = B < vocab ? B : vocab;
    int64_t total = td_gen_ragged(p, r, lens, starts, nb, 0, max_len, B, &c->classes);
    td_case_alloc(c, R_CUMSUM, (size_t)nb + 1);
    for (int b = 0; b <= nb; b++) td_seti(c, R_CUMSUM, (size_t)b, starts[b]);
    td_case_alloc(c, R_IDS, (size_t)(total > 0 ? total : 1));
    td_case_alloc(c, R_CNTS, (size_t)(total > 0 ? total : 1));
    int64_t ids[512];
    for (int b = 0; b < nb; b++) {
        td_gen_slots(p, r, ids, lens[b], vocab, &c->classes);
        for (int64_t j = 0; j < lens[b]; j++) {
            td_seti(c, R_IDS, (size_t)(starts[b] + j), ids[j]);
            int32_t cnt = draw_count(p);
            td_seti(c, R_CNTS, (size_t)(starts[b] + j), cnt);
        }
    }
}

static void gen(td_producer *p, td_case *c) {
    int nb = (int)td_prod_u32(p, 1, AP_MAX_ROWS);
    int64_t B = td_gen_pow2(p, 0, 9); /* the wrapper uses 512 or 1024 */
    static const unsigned wv[] = {2, 2, 3};
    int pick = td_prod_pick(p, wv, 3);
    int64_t vocab = pick == 0 ? B : pick == 1 ? (int64_t)td_prod_u32(p, 1, 8) : (int64_t)td_prod_u32(p, 1, 300);
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[P_STRIDE_B].i = vocab + pad, c->p[P_STRIDE_S].i = 1, c->p[P_BLOCK].i = B;
    c->grid[0] = (uint32_t)nb, c->grid[1] = c->grid[2] = 1;
    if (nb == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    c->classes |= TD_BC(TD_BC_INPLACE);
    td_case_alloc(c, R_LOGITS, (size_t)((nb - 1) * (vocab + pad) + vocab));
    for (int r = R_PRES; r <= R_REP; r++) {
        td_case_alloc(c, r, (size_t)nb);
        for (int b = 0; b < nb; b++) {
            double v = draw_penalty(p, r);
            td_set(c, r, (size_t)b, v);
        }
    }
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, AP_LOGIT_BOUND);
    td_vgen_fill(&g, c, R_LOGITS);
    gen_windows(p, &g.rng, c, nb, vocab, B);
}

static const char *check_window(const td_case *c, int64_t b, int64_t vocab) {
    int64_t m1 = td_geti(c, R_CUMSUM, (size_t)b), m2 = td_geti(c, R_CUMSUM, (size_t)b + 1);
    if (m1 < 0 || m2 < m1) return "p_cumsum_seq_len : Nat, nondecreasing";
    if ((size_t)m2 > c->r[R_IDS].len || (size_t)m2 > c->r[R_CNTS].len) return "windows inside the id/count buffers";
    if (m2 - m1 > c->p[P_BLOCK].i) return "window length <= BLOCK_P (the wrapper's BLOCK_P >= max length)";
    for (int64_t k = m1; k < m2; k++) {
        int64_t id = td_geti(c, R_IDS, (size_t)k), cnt = td_geti(c, R_CNTS, (size_t)k);
        if (id < 0 || id >= vocab) return "token ids within the row (< vocab <= stride_logit_b)";
        if (cnt < 0 || cnt > (1 << 24)) return "token counts : Nat, exact in binary32 (<= 2^24)";
        for (int64_t q = m1; q < k; q++)
            if (td_geti(c, R_IDS, (size_t)q) == id) return "WriteInj: distinct token ids in a window";
    }
    return NULL;
}

static const char *check(const td_case *c) {
    int64_t nb = c->grid[0], sb = c->p[P_STRIDE_B].i;
    if (c->p[P_BLOCK].i <= 0) return "BLOCK_P > 0";
    if (nb < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (batch,)";
    int64_t vocab = (int64_t)c->r[R_LOGITS].len - (nb - 1) * sb;
    if (vocab < 1 || vocab > sb) return "Logits holds batch rows of stride_logit_b >= vocab";
    if (c->r[R_CUMSUM].len < (size_t)nb + 1) return "p_cumsum_seq_len holds batch + 1 entries";
    for (int r = R_PRES; r <= R_REP; r++)
        if (c->r[r].len < (size_t)nb) return "one penalty per batch row";
    for (int64_t b = 0; b < nb; b++) {
        const char *e = check_window(c, b, vocab);
        if (e) return e;
        double rep = td_get(c, R_REP, (size_t)b), fr = td_get(c, R_FREQ, (size_t)b), pr = td_get(c, R_PRES, (size_t)b);
        if (!(rep >= 0.25 && rep <= 4)) return "domain: repetition_penalty in [1/4, 4] (x/rep, x*rep finite)";
        if (!(fabs(fr) <= 2 && fabs(pr) <= 2)) return "domain: |freqency|, |presence| <= 2";
    }
    /* of a far (sparse) Logits only the written pages: the rest reads as zero */
    if (!td_region_abs_le(c, R_LOGITS, AP_LOGIT_BOUND)) return "domain: |Logits| <= 2^100";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t B = c->p[P_BLOCK].i, sb = c->p[P_STRIDE_B].i;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t m1 = td_geti(c, R_CUMSUM, b), m2 = td_geti(c, R_CUMSUM, (size_t)b + 1);
        for (int64_t j = 0; j < B && m1 + j < m2; j++) {
            int64_t id = td_geti(c, R_IDS, (size_t)(m1 + j));
            td_olane l = {.o = 0, .region = R_LOGITS, .off = (uint64_t)(b * sb + id), .pid = {b, 0, 0},
                          .j = (uint64_t)j, .idx = {b, m1 + j, id}};
            td_wset_add(ws, &l);
        }
    }
}
/* Offsets beyond 2^31 (gen_far.h): Logits is read and written in place at
 * pid0 * stride_logit_b + id, which the Triton kernel forms in int32 (program_id times an
 * int32 stride).  td_far_rows keeps up to TD_FAR_MAX_ROWS rows (the windows, penalties and
 * prefix sums of the rows dropped stay in their buffers, unread; their Logits cells stay
 * after the last row, which check then counts in its vocab) and moves Logits' rows
 * of vocab cells to a stride near 2^31 as a sparse IN-OUT region (engine/harness.c,
 * "sparse in-out regions": the cells off the listed ids must keep their contents). */
static void far(td_producer *p, td_case *c) {
    uint32_t nb = c->grid[0], R = 1;
    int64_t sb = c->p[P_STRIDE_B].i, vocab = (int64_t)c->r[R_LOGITS].len - ((int64_t)nb - 1) * sb;
    /* row 0 and the rows with a listed id right after it: a row whose window is empty
     * addresses no cell, so at any offset it would test nothing */
    while (R < nb && R < TD_FAR_MAX_ROWS && td_geti(c, R_CUMSUM, R + 1) > td_geti(c, R_CUMSUM, R)) R++;
    if (R < 2) return;
    const int regs[] = {R_LOGITS};
    c->grid[0] = R;
    if (!td_far_rows(p, c, regs, 1, P_STRIDE_B, vocab)) c->grid[0] = nb; /* not moved: as decoded */
}

const td_contract td_c_apply_penalty = {
    .id = "apply_penalty.apply_penalty_correctness",
    .file = "apply_penalty",
    .family = "gather",
    .io_class = "MetaScatterMasked2DKernelIO_1 (applyPenaltyIO, Logits in place)",
    .kind = "exact",
    .formula = "Logits[b, id] = (x > 0 ? x / rep[b] : x * rep[b]) - cnt * freq[b] - presence[b], "
               "for the ids of window [cumsum[b], cumsum[b+1])",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|x| <= 2^100, rep in [1/4, 4], |freq|, |presence| <= 2, counts <= 2^20: every value finite, "
               "no division by 0",
    .error_model = "x/rep or x*rep (one op; the division under the backend's budget), cnt*freq, two subtractions "
                   "as written or grouped (either)",
    .classes = TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_STRIDE_GT_ROW) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_SEQ_EMPTY) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) |
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    /* no large hook: not a flat launch (lanes are token ids scattered in row pid0 * stride_logit_b, the ids of
     * row b found through the prefix sum p_cumsum_seq_len); 2^31 logits in rows of vocab needs a prefix sum
     * consistent over 2^31 / vocab rows, which the tier's zero-reading stretches break (it would decrease). */
    TD_SPECS(apply_penalty),
};
