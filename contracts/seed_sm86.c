/* seed_sm86: the SM86 streaming causal attention of seed 003
 * (Realization.Nvidia.SM86.StreamingAttentionSM86), its numerics ported to C and CUDA C.
 *
 *   seed_sm86.streaming_attention_forward_grouped
 *       streamingAttentionForwardGrouped{,Ordered}SM86: causal softmax(Q K^T s) V of every
 *       query head h with the K/V head h / groups (GQA, contiguous groups), and each
 *       row's base-2 log-sum-exp.
 *
 * The seed's numerics (one warp per 16 query rows, one tile of keys at a time, up to
 * and including the diagonal tile; the "register" forward):
 *   Q [heads][T][W], K [kvHeads][T][W], V^T [kvHeads][W][T] (the register kernel) or V
 *   rows [kvHeads][T][W] (the "rows" variants): binary16;
 *   S = Q K^T        HMMA.16816.F32: binary16 products (exact in binary32), binary32
 *                    accumulation over the head width in k-slice order from +0;
 *   mask             on the diagonal tile only, S = -inf where key > query (the
 *                    diagonal kept): top-left causal, key 0 in every row's first tile;
 *   t = S c          FMUL, c = RN32(s / ln 2) a binary32 runtime parameter (c > 0, so
 *                    -inf c = -inf);
 *   m' = max(m, rowmax(t))   FMNMX (exact), m from -inf;
 *   alpha = EX2(m - m'), P = EX2(t - m')   (alpha = EX2(-inf) = 0 on the first tile);
 *   l_q = l_q alpha + the 16 P of quad lane q's columns, in column order: each lane
 *                    keeps a PARTIAL row sum over its own columns (c / 2 mod 4 = q)
 *                    across all tiles; P unrounded;
 *   O = O alpha; O += RN16(P) V   P packed to binary16 (F2FP, RN) for the product only;
 *   epilogue         l = (l_0 + l_1) + (l_2 + l_3) (SHFL xor 1, then xor 2);
 *                    O = O * RCP(l), stored binary16 (RN) token-major [T][heads W];
 *                    LSE2 = m + LG2(l), binary32 [heads][T].
 *   Grid: order 0 (T/B, kvHeads, groups); order 1 (kvHeads, groups, T/B) with tile =
 *   tiles - 1 - z ("heavy first"); h = kvHead * groups + g.
 * Admission (streamingAttentionGroupedSM86Admitted): kvHeads, heads, seq != 0, seq a
 * multiple of the tile, heads a multiple of kvHeads, heads <= 65535, heads*64*seq*4 <
 * 2^32; checked here as hypotheses (there are no tail masks: a partial tile would be
 * read out of bounds).
 *
 * Port choices (said here because they are not the seed's literal SASS):
 *   - the tile B (queries per block and keys per tile) and the head width W are
 *     parameters (16, 32 or 64; the seed fixes both at 64) so that cases stay small;
 *     per element the arithmetic is the seed's: a quad lane's partial sum covers the
 *     columns with (c / 2) mod 4 = q of each tile, k-slices are 16 wide;
 *   - HMMA accumulation is modelled as IEEE binary32 additions in k order (the host
 *     and CUDA ports add sequentially); a tensor core's internal accumulation is not
 *     IEEE (Fasi et al. 2021; Khattak & Mikaitis 2025) and would need a calibrated
 *     per-step constant the oracle does not have;
 *   - MUFU.EX2/RCP/LG2 are approximations (ex2/rcp/lg2.approx.ftz) the oracle's math
 *     models do not cover (budget.c refuses "cuda-approx"); the ports call exp2f, an
 *     IEEE reciprocal 1/x and log2f, charged the backend's budgets (libm: measured
 *     exhaustively; cuda: the Programming Guide's table).  EX2's flush of results below
 *     2^-126 is not ported (such a P rounds to 0 in binary16 anyway).
 *
 * Error model (the spec is the kernel's algorithm, tile by tile): dots of exact
 * products, sequential (gamma_{W-1}); t one rounding; alpha and P exp2 of a rounded
 * difference (the exp2 budget); each quad lane's partial sum a sequential sum of
 * l_q alpha and its P (masked P are exact zeros); RN16(P) as an interval-aware cast
 * (exact where the kernel's P cannot straddle a binary16 rounding boundary, one
 * binary16 ulp where it can: the flip term); O alpha and the P16 V products summed in
 * k order; the butterfly's three additions; 1/l, O r, the binary16 store as a cast;
 * LSE2 = m + log2(l) (one addition, the log2 budget).  The exact reference keeps the
 * casts: o = sum RN16(p_j) v_j / l with p_j relative to the running maximum of its tile
 * (the online form, as the kernel rounds it), so the bias of the binary16 P is
 * predicted, not tolerated.
 *
 * Special values: IEEE.  Inputs are finite binary16; c > 0; every row keeps key 0, so
 * l >= 1.  The binary16 store of O may overflow to inf where the cast-modelled value
 * is near 65520 (V near the binary16 maximum): the cast's own overflow, accepted with
 * the right sign where the model says the kernel's O may reach it.
 */
#ifndef TD_SPEC_PASS
#include "attn_common.h"

enum { P_T, P_HEADS, P_KVHEADS, P_W, P_B, P_ORDER, P_VROWS, P_C, NP };
enum { R_Q, R_K, R_V, R_O, R_LSE, NR };
enum { C_P, C_STORE };

#define SM_MAX_T 64
#define SM_TAG_P16 1
#define SM_TAG_A 2
#define SM_TAG_L 3
#define SM_TAG_M 4

typedef struct sm_geo {
    int64_t T, heads, kvh, groups, W, B, order, vrows, tiles;
    double c;
} sm_geo;

static void sm_geo_get(const td_case *c, sm_geo *g) {
    g->T = c->p[P_T].i, g->heads = c->p[P_HEADS].i, g->kvh = c->p[P_KVHEADS].i, g->W = c->p[P_W].i;
    g->B = c->p[P_B].i, g->order = c->p[P_ORDER].i, g->vrows = c->p[P_VROWS].i, g->c = c->p[P_C].r;
    g->groups = g->kvh > 0 ? g->heads / g->kvh : 0;
    g->tiles = g->B > 0 ? g->T / g->B : 0;
}

static inline size_t sm_q(const sm_geo *g, int64_t h, int64_t i, int64_t d) { return (size_t)((h * g->T + i) * g->W + d); }
static inline size_t sm_k(const sm_geo *g, int64_t kv, int64_t j, int64_t d) { return (size_t)((kv * g->T + j) * g->W + d); }
static inline size_t sm_v(const sm_geo *g, int64_t kv, int64_t j, int64_t d) {
    return g->vrows ? (size_t)((kv * g->T + j) * g->W + d) : (size_t)((kv * g->W + d) * g->T + j);
}
/* quad lane of a tile column: the m16n8k16 accumulator layout, column 8 nt + 2 q + b */
static inline int64_t sm_quad(int64_t col) { return (col / 2) % 4; }

#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"seq", TD_P_INT},  {"heads", TD_P_INT},       {"kv_heads", TD_P_INT},
                                         {"head_width", TD_P_INT}, {"tile", TD_P_INT},  {"order", TD_P_INT},
                                         {"v_rows", TD_P_BOOL}, {"c", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"q", TD_F16, TD_R_IN},
                                           {"k", TD_F16, TD_R_IN},
                                           {"v", TD_F16, TD_R_IN},
                                           {"o", TD_F16, TD_R_OUT},
                                           {"lse", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[2] = {
    {"p", "fp16:rne:inf", "F2FP: P packed to binary16 for O += P V (the row sum keeps binary32 P)"},
    {"store", "fp16:rne:inf", "F2FP: the output O = O * RCP(l) packed to binary16"}};

static void gen(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 4, 6), W = td_gen_pow2(p, 4, 6);
    int64_t tiles = td_prod_u32(p, 1, 4);
    while (tiles * B > SM_MAX_T) tiles--;
    int64_t T = tiles * B;
    int64_t kvh = td_prod_u32(p, 1, 3), groups = td_prod_u32(p, 1, 3);
    /* work: heads * T * W output lanes, each over about T/2 keys */
    while (kvh * groups * T * W * T > (1 << 17) && groups > 1) groups--;
    while (kvh * groups * T * W * T > (1 << 17) && kvh > 1) kvh--;
    while (kvh * groups * T * W * T > (1 << 17) && W > 16) W /= 2;
    int64_t heads = kvh * groups;
    int64_t order = td_prod_bool(p), vrows = td_prod_bool(p);
    td_gen_mark_shape((uint64_t)T, (uint64_t)B, (uint64_t)tiles, &c->classes);
    if (groups > 1 || kvh > 1) c->classes |= TD_BC(TD_BC_META_EXTREME);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 4);
    td_rng *r = &g.rng;
    /* c = RN32(s / ln 2): the natural score scale s is 1/sqrt(W) usually */
    double s;
    switch (td_rng_below(r, 6)) {
    case 0: s = 1.0; break;
    case 1: s = at_unif(r, 0.01, 2); break;
    default: s = 1.0 / sqrt((double)W); break;
    }
    double cc = (double)(float)(s / 0.69314718055994530942);
    c->p[P_T].i = T, c->p[P_HEADS].i = heads, c->p[P_KVHEADS].i = kvh, c->p[P_W].i = W, c->p[P_B].i = B;
    c->p[P_ORDER].i = order, c->p[P_VROWS].i = vrows, c->p[P_C].r = cc;
    if (order == 0) c->grid[0] = (uint32_t)tiles, c->grid[1] = (uint32_t)kvh, c->grid[2] = (uint32_t)groups;
    else c->grid[0] = (uint32_t)kvh, c->grid[1] = (uint32_t)groups, c->grid[2] = (uint32_t)tiles;
    sm_geo geo;
    sm_geo_get(c, &geo);
    td_case_alloc(c, R_Q, (size_t)(heads * T * W));
    td_case_alloc(c, R_K, (size_t)(kvh * T * W));
    td_case_alloc(c, R_V, (size_t)(kvh * T * W));
    td_case_alloc(c, R_O, (size_t)(T * heads * W));
    td_case_alloc(c, R_LSE, (size_t)(heads * T));
    /* landscapes per K/V head in base-2 score units (t = c * q . k), every query head of
     * the group drawn against the group's keys */
    at_land_opts lo = {AT_LM_ALL, -100, 400, 4, TD_F16};
    if (td_rng_below(r, 6) == 0) lo.sig_hi = 4000, lo.sig_lo = 1000; /* |t| ~ 10^3: the |t|-proportional errors */
    double *qa = at_calloc((size_t)(T * W), sizeof *qa), *ka = at_calloc((size_t)(T * W), sizeof *ka);
    double *va = at_calloc((size_t)(T * W), sizeof *va);
    unsigned vk = (1u << AT_V_MENU) | (1u << AT_V_DISTINCT) | (1u << AT_V_CONST);
    int vmax = td_rng_below(r, 8) == 0; /* V near the binary16 maximum: the store may overflow */
    for (int64_t kv = 0; kv < kvh; kv++) {
        for (int64_t gg = 0; gg < groups; gg++) {
            int64_t h = kv * groups + gg;
            at_fill_qk(&g, qa, T, ka, T, W, cc, &lo, &c->classes);
            for (int64_t i = 0; i < T; i++)
                for (int64_t d = 0; d < W; d++) td_set(c, R_Q, sm_q(&geo, h, i, d), qa[i * W + d]);
            if (gg == 0) /* the group's keys: the first query head's landscape */
                for (int64_t j = 0; j < T; j++)
                    for (int64_t d = 0; d < W; d++) td_set(c, R_K, sm_k(&geo, kv, j, d), ka[j * W + d]);
        }
        at_fill_v(&g, va, T, W, TD_F16, 1024, vk);
        if (vmax)
            for (int64_t e = 0; e < T * W; e++) va[e] = at_rep(TD_F16, (td_rng_below(r, 4) ? 1 : -1) * at_unif(r, 60000, 65504));
        for (int64_t j = 0; j < T; j++)
            for (int64_t d = 0; d < W; d++) td_set(c, R_V, sm_v(&geo, kv, j, d), va[j * W + d]);
    }
    if (vmax) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    free(qa);
    free(ka);
    free(va);
}

static const char *check(const td_case *c) {
    sm_geo g;
    sm_geo_get(c, &g);
    if (g.kvh < 1 || g.heads < 1 || g.T < 1) return "admission: kvHeads, heads, seq != 0";
    if (g.B != 16 && g.B != 32 && g.B != 64) return "tile in {16, 32, 64} (the seed: 64)";
    if (g.W != 16 && g.W != 32 && g.W != 64) return "head_width in {16, 32, 64} (the seed: 64)";
    if (g.T % g.B) return "admission: seq a multiple of the tile (no tail masks)";
    if (g.heads % g.kvh) return "admission: heads a multiple of kvHeads";
    if (g.heads > 65535 || (uint64_t)g.heads * 64 * (uint64_t)g.T * 4 > 0xffffffffu)
        return "admission: heads <= 65535, heads*64*seq*4 < 2^32";
    if (g.T > SM_MAX_T) return "seq <= 64 (the sizes the generator draws)";
    if (g.order != 0 && g.order != 1) return "order 0 or 1";
    if (!(g.c > 0) || !isfinite(g.c) || (double)(float)g.c != g.c)
        return "c is a positive finite binary32 (the mask needs -inf * c = -inf)";
    uint32_t want[3] = {(uint32_t)g.tiles, (uint32_t)g.kvh, (uint32_t)g.groups};
    if (g.order == 1) want[0] = (uint32_t)g.kvh, want[1] = (uint32_t)g.groups, want[2] = (uint32_t)g.tiles;
    if (c->grid[0] != want[0] || c->grid[1] != want[1] || c->grid[2] != want[2])
        return "grid: order 0 (T/tile, kvHeads, groups), order 1 (kvHeads, groups, T/tile)";
    if (c->r[R_Q].len < (size_t)(g.heads * g.T * g.W) || c->r[R_K].len < (size_t)(g.kvh * g.T * g.W) ||
        c->r[R_V].len < (size_t)(g.kvh * g.T * g.W) || c->r[R_O].len < (size_t)(g.T * g.heads * g.W) ||
        c->r[R_LSE].len < (size_t)(g.heads * g.T))
        return "the planes hold their shapes";
    for (int t = R_Q; t <= R_V; t++)
        for (size_t e = 0; e < c->r[t].len; e++)
            if (!isfinite(td_get(c, t, e))) return "Q, K, V hold finite binary16 values";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    sm_geo g;
    sm_geo_get(c, &g);
    for (int64_t h = 0; h < g.heads; h++)
        for (int64_t i = 0; i < g.T; i++) {
            int64_t kv = h / g.groups, gg = h % g.groups, tile = i / g.B;
            uint32_t pid[3] = {(uint32_t)tile, (uint32_t)kv, (uint32_t)gg};
            if (g.order == 1) pid[0] = (uint32_t)kv, pid[1] = (uint32_t)gg, pid[2] = (uint32_t)(g.tiles - 1 - tile);
            for (int64_t d = 0; d < g.W; d++) {
                td_olane l = {.o = 0, .region = R_O, .off = (uint64_t)(i * g.heads * g.W + h * g.W + d),
                              .pid = {pid[0], pid[1], pid[2]}, .j = (uint64_t)((i % g.B) * g.W + d), .idx = {h, i, d}};
                td_wset_add(ws, &l);
            }
            td_olane l = {.o = 1, .region = R_LSE, .off = (uint64_t)(h * g.T + i), .pid = {pid[0], pid[1], pid[2]},
                          .j = (uint64_t)(i % g.B), .idx = {h, i, -1}};
            td_wset_add(ws, &l);
        }
}

const td_contract td_c_seed_sm86_forward = {
    .id = "seed_sm86.streaming_attention_forward_grouped",
    .file = "seed_sm86",
    .family = "attention-seeds",
    .io_class = "grid (T/tile, kvHeads, groups) or (kvHeads, groups, T/tile); causal streaming softmax, GQA",
    .kind = "rounding",
    .formula = "o[i, h W + d] = RN16(O / l), O = online sum of RN16(2^(t_ij - m)) V[h/groups, j, d], t_ij = RN32(c "
               "Q[h,i].K[h/groups,j]), j <= i; lse[h, i] = m + log2 l (base 2, scaled units)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 2,
    .casts = casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite binary16 inputs, c > 0, key 0 in every row (l >= 1); the binary16 store of O may overflow "
               "where V is near 65504",
    .error_model = "the streaming recurrence tile by tile: exact products, sequential binary32 sums, exp2 budgets, "
                   "quad-lane partial row sums, RN16(P) and the store as interval casts, 1/l, m + log2 l",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(sm86_forward),
};

#else
/* t_ij = RN(S c), S the binary32 sum of exact products in k order; -inf when masked */
static NUM SPEC(sm_t)(NCX *cx, const td_case *c, const sm_geo *g, int64_t h, int64_t i, int64_t j) {
    int64_t kv = h / g->groups;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t d = 0; d < g->W; d++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_Q, sm_q(g, h, i, d)), N(in)(cx, c, R_K, sm_k(g, kv, j, d))));
    return N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, g->c));
}

/* Row (h, i): RN16(P_j) for the keys j <= i, alpha of every tile after the first, the
 * butterflied l and the final running maximum m; memoised per row. */
static void SPEC(sm_row)(NCX *cx, const td_case *c, const sm_geo *g, int64_t h, int64_t i, NUM *p16, NUM *alpha,
                         NUM *l, NUM *m) {
    int64_t nt = i / g->B + 1;
    uint64_t row = (uint64_t)(h * g->T + i);
    if (N(memo_get)(cx, at_key(SM_TAG_L, row, 0, 0), l)) {
        N(memo_get)(cx, at_key(SM_TAG_M, row, 0, 0), m);
        for (int64_t t = 1; t < nt; t++) N(memo_get)(cx, at_key(SM_TAG_A, row, (uint64_t)t, 0), &alpha[t]);
        for (int64_t j = 0; j <= i; j++) N(memo_get)(cx, at_key(SM_TAG_P16, row, (uint64_t)j, 0), &p16[j]);
        return;
    }
    NUM lq[4], mm = N(exact)(cx, 0);
    int have[4] = {0, 0, 0, 0};
    NUM pr[SM_MAX_T];
    for (int64_t t = 0; t < nt; t++) {
        int64_t j0 = t * g->B, j1 = t == nt - 1 ? i + 1 : j0 + g->B; /* the diagonal tile keeps keys <= i */
        for (int64_t j = j0; j < j1; j++) pr[j] = SPEC(sm_t)(cx, c, g, h, i, j);
        NUM rmax = pr[j0];
        for (int64_t j = j0 + 1; j < j1; j++) rmax = N(max)(cx, rmax, pr[j]);
        NUM mn = t == 0 ? rmax : N(max)(cx, mm, rmax);
        if (t > 0) alpha[t] = N(exp2)(cx, N(sub)(cx, mm, mn));
        for (int64_t j = j0; j < j1; j++) {
            pr[j] = N(exp2)(cx, N(sub)(cx, pr[j], mn));
            p16[j] = N(cast)(cx, pr[j], C_P);
        }
        for (int q = 0; q < 4; q++) { /* l_q = l_q alpha + this lane's P, in column order */
            NACC acc;
            N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
            int terms = 0;
            if (t > 0 && have[q]) N(acc_add)(cx, &acc, N(mul)(cx, lq[q], alpha[t])), terms++;
            for (int64_t j = j0; j < j1; j++)
                if (sm_quad(j - j0) == q) N(acc_add)(cx, &acc, pr[j]), terms++;
            if (terms) lq[q] = N(acc_end)(cx, &acc), have[q] = 1;
            else N(acc_end)(cx, &acc); /* l_q is still exactly 0 */
        }
        mm = mn;
    }
    for (int q = 0; q < 4; q++)
        if (!have[q]) lq[q] = N(exact)(cx, 0);
    *l = N(add)(cx, N(add)(cx, lq[0], lq[1]), N(add)(cx, lq[2], lq[3]));
    *m = mm;
    for (int64_t t = 1; t < nt; t++) N(memo_put)(cx, at_key(SM_TAG_A, row, (uint64_t)t, 0), alpha[t]);
    for (int64_t j = 0; j <= i; j++) N(memo_put)(cx, at_key(SM_TAG_P16, row, (uint64_t)j, 0), p16[j]);
    N(memo_put)(cx, at_key(SM_TAG_M, row, 0, 0), *m);
    N(memo_put)(cx, at_key(SM_TAG_L, row, 0, 0), *l);
}

static NUM SPEC(sm86_forward)(NCX *cx, const td_case *c, const td_olane *ol) {
    sm_geo g;
    sm_geo_get(c, &g);
    int64_t h = ol->idx[0], i = ol->idx[1], d = ol->idx[2], kv = h / g.groups;
    NUM p16[SM_MAX_T], alpha[SM_MAX_T], l, m;
    SPEC(sm_row)(cx, c, &g, h, i, p16, alpha, &l, &m);
    if (ol->o == 1) return N(add)(cx, m, N(log2)(cx, l)); /* LSE2 = m + LG2(l) */
    int64_t nt = i / g.B + 1;
    NUM o = N(exact)(cx, 0);
    for (int64_t t = 0; t < nt; t++) {
        int64_t j0 = t * g.B, j1 = t == nt - 1 ? i + 1 : j0 + g.B;
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
        if (t > 0) N(acc_add)(cx, &acc, N(mul)(cx, o, alpha[t])); /* O = O alpha, then += P16 V */
        for (int64_t j = j0; j < j1; j++) N(acc_add)(cx, &acc, N(mul)(cx, p16[j], N(in)(cx, c, R_V, sm_v(&g, kv, j, d))));
        o = N(acc_end)(cx, &acc);
    }
    NUM r = N(div)(cx, N(exact)(cx, 1.0), l); /* RCP(l) */
    return N(cast)(cx, N(mul)(cx, o, r), C_STORE);
}
#endif
