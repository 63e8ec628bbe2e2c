/* triton_attention: the old Triton tutorial's fused attention (v1) (catalogue part 2).
 *
 * Covered here: triton_attention_bwd_preprocess_genuine_output_summary_general
 *   lowering exists AND Realizes_without_Rounding of both stores of _bwd_preprocess:
 *   NewDO[r, d] = DO[r, d] / L[r]                           at r*D_HEAD + d   (bwdPreprocessNewDOSpecG)
 *   Delta[r]    = sum_{d < D_HEAD} Out[r, d] * (DO[r, d] / L[r])   at r      (bwdPreprocessDeltaSpecG)
 *   r = pid*BLOCK_M + i (i < BLOCK_M), every load and store unmasked; hND: NewDO != Delta,
 *   hOutInj: the NewDO tile offsets injective (they are: r*D_HEAD + d with d < D_HEAD).
 * (The forward, forward IO and backward-gradient theorems of the file are not covered yet.)
 *
 * Checked against bench/tritonbench_g/triton_attention/triton_attention.py (_bwd_preprocess)
 * and TritonAttention.lean (triton_attention_bwd_preprocess, the two SpecG definitions): the
 * program loads its BLOCK_M x D_HEAD tiles of Out and DO and BLOCK_M entries of L, converts
 * them to binary32, divides do by its row's L, stores that as NewDO and the row sums of
 * o * do as Delta.  The reading matches the kernel.  In the launcher (the tutorial's
 * backward) Out and DO are fp16 (the forward's output and its gradient), L binary32 (the
 * forward's l), NewDO = empty_like(do) (fp16), Delta = empty_like(l) (binary32).
 *
 * Rounding.  The theorem is over the reals; the kernel's one conversion, the NewDO store to
 * fp16, is a declared cast ("store" fp16:rne:inf).  Error model, any admissible
 * implementation:
 *   n_d   = RN(DO_d / L)              u|n_d| (IEEE division; the backend's division budget where the
 *                                      shadow charges an approximate one)
 *   NewDO = the fp16 store of n_d     judged against the cast's admissible interval
 *   Delta = sum_d RN(O_d * n_d) in any order (tl.sum's tree, FMA allowed)   u per product +
 *           gamma_{D_HEAD-1} sum |O_d n_d|;  or, the algebraically equal form an implementation may
 *           write, RN(sum_d RN(O_d DO_d) / L) (one division after the sum): N(either) of the two.
 * No other tolerance.
 *
 * Special values (TD_SV_REAL): L > 0 (a softmax row sum: the forward's l >= 1; drawn in
 * [2^-4, 2^12], Lean's x/0 = 0 never arises), finite fp16 Out and DO: every output finite.
 *
 * Generator: BLOCK_M and D_HEAD powers of two (1..64 and 1..128), 1..8 programs, Out / DO from
 * the value menu in fp16 (large, tiny, ties, special values included), L near 1, up to a
 * context's length, or small, and the total kept below ~2^14 lanes.
 */
#include <math.h>

#include "gen.h"

enum { P_BM, P_DH, NP };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA, NR };
enum { C_STORE, NC };

#define TA_P(c, k) ((c)->p[(k)].i)
#define TA_BOUND 1000.0 /* |Out|, |DO| (fp16) */

#define TD_SPEC_FILE "triton_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_pre[NP] = {{"BLOCK_M", TD_P_INT}, {"D_HEAD", TD_P_INT}};
static const td_region_decl regions_pre[NR] = {{"Out", TD_F16, TD_R_IN},
                                               {"DO", TD_F16, TD_R_IN},
                                               {"L", TD_F32, TD_R_IN},
                                               {"NewDO", TD_F16, TD_R_OUT},
                                               {"Delta", TD_F32, TD_R_OUT}};
static const td_cast_decl casts_pre[NC] = {
    {"store", "fp16:rne:inf", "NewDO store: do / denom into empty_like(do), fp16 (the theorem: real)"}};

static void gen_pre(td_producer *p, td_case *c) {
    int64_t bm = (int64_t)td_gen_pow2(p, 0, 6), dh = (int64_t)td_gen_pow2(p, 0, 7);
    int64_t gmax = (1 << 14) / (bm * dh);
    int64_t G = td_prod_u32(p, 0, 2) == 0 ? 1 : td_prod_u32(p, 1, (uint32_t)(gmax < 8 ? (gmax < 1 ? 1 : gmax) : 8));
    TA_P(c, P_BM) = bm, TA_P(c, P_DH) = dh;
    c->grid[0] = (uint32_t)G;
    td_gen_mark_shape((uint64_t)(G * bm), (uint64_t)bm, (uint64_t)G, &c->classes);
    if (dh > 1) c->classes &= ~TD_BC(TD_BC_SINGLE_LANE);
    size_t rows = (size_t)(G * bm);
    td_case_alloc(c, R_OUT, rows * (size_t)dh);
    td_case_alloc(c, R_DO, rows * (size_t)dh);
    td_case_alloc(c, R_L, rows);
    td_case_alloc(c, R_NEWDO, rows * (size_t)dh + td_prod_u32(p, 0, 3));
    td_case_alloc(c, R_DELTA, rows + td_prod_u32(p, 0, 3));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, TA_BOUND);
    td_vgen_fill(&g, c, R_OUT);
    td_vgen_fill(&g, c, R_DO);
    int lmode = (int)td_prod_u32(p, 0, 2);
    for (size_t r = 0; r < rows; r++) {
        double u = td_rng_unit(&g.rng), x;
        switch (lmode) {
        case 0: x = 1.0 + u; break;                  /* one dominant key */
        case 1: x = ldexp(1.0 + u, (int)(12 * u)); break; /* up to a context's length */
        default: x = ldexp(1.0 + u, -4 + (int)(16 * u)); break;
        }
        volatile float xf = (float)x; /* rounded to binary32 */
        td_set(c, R_L, r, xf);
    }
}

static const char *check_pre(const td_case *c) {
    int64_t bm = TA_P(c, P_BM), dh = TA_P(c, P_DH), G = (int64_t)c->grid[0];
    if (bm <= 0 || dh <= 0 || G <= 0) return "a launch: BLOCK_M, D_HEAD and the grid positive";
    size_t rows = (size_t)(G * bm);
    if (c->r[R_OUT].len < rows * (size_t)dh || c->r[R_DO].len < rows * (size_t)dh)
        return "Out and DO hold every program's tile (loads unmasked)";
    if (c->r[R_L].len < rows) return "L holds every program's rows";
    if (c->r[R_NEWDO].len < rows * (size_t)dh || c->r[R_DELTA].len < rows) return "NewDO, Delta hold every store";
    for (size_t r = 0; r < rows; r++) {
        double l = td_get(c, R_L, r);
        if (!(l > 0x1p-5 && l < 0x1p13)) return "domain: 2^-5 < L < 2^13 (a softmax row sum; no x/0)";
    }
    for (size_t i = 0; i < rows * (size_t)dh; i++)
        if (!(fabs(td_get(c, R_OUT, i)) <= TA_BOUND) || !(fabs(td_get(c, R_DO, i)) <= TA_BOUND))
            return "domain: |Out|, |DO| <= 1000 (finite outputs)";
    return NULL;
}

/* NewDO (o = 0) at r*D_HEAD + d, Delta (o = 1) at r; r = pid*BLOCK_M + i */
static void writes_pre(const td_case *c, td_wset *ws) {
    int64_t bm = TA_P(c, P_BM), dh = TA_P(c, P_DH);
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t i = 0; i < bm; i++) {
            int64_t r = (int64_t)pid * bm + i;
            for (int64_t d = 0; d < dh; d++) {
                td_olane l = {.o = 0, .region = R_NEWDO, .off = (uint64_t)(r * dh + d), .pid = {pid, 0, 0},
                              .j = (uint64_t)(i * dh + d), .idx = {r, d}};
                td_wset_add(ws, &l);
            }
            td_olane l = {.o = 1, .region = R_DELTA, .off = (uint64_t)r, .pid = {pid, 0, 0}, .j = (uint64_t)i,
                          .idx = {r, 0}};
            td_wset_add(ws, &l);
        }
}

const td_contract td_c_triton_attention_bwd_pre = {
    .id = "triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general",
    .file = "triton_attention",
    .family = "attention",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_M, D_HEAD] (NewDO) and Fin BLOCK_M (Delta) + lowering",
    .kind = "exact",
    .formula = "NewDO[r,d] = DO[r,d] / L[r];  Delta[r] = sum_d Out[r,d] * (DO[r,d] / L[r])",
    .nparams = NP,
    .params = params_pre,
    .nregions = NR,
    .regions = regions_pre,
    .ncasts = NC,
    .casts = casts_pre,
    .sv = TD_SV_REAL,
    .sv_note = "L > 0 (a softmax row sum, drawn in (2^-5, 2^13)): no division by zero; finite inputs, finite outputs",
    .error_model = "one division per lane (u or the backend's budget); Delta: u per product, gamma_{D_HEAD-1} over "
                   "the row in any order, or the sum of Out*DO divided once (N(either)); NewDO fp16 store cast",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL),
    .gen = gen_pre,
    .check = check_pre,
    .writes = writes_pre,
    TD_SPECS(ta_pre),
};
