/* decay_cumsum: fla's log2 decay kernels of GLA (catalogue part 1, src lines 3316-3447).
 *
 *   fwd_decay_cumsum_io_correctness (R) (G GO) (s_qk_h s_qk_t s_qk_d B H T) (scale) (BT BK DK)
 *     (hne : G != GO) (hBK : BK <= DK): fwdDecayCumsumKernelIO ⊨[R] fwdDecayStreamSpec,
 *     StreamEmitMasked3DKernelIO_1 with T := BT steps, B1 = C = BK lanes:
 *     read1 = write = p2*s_qk_h + p1*BT*DK + p0*BK + j + t*DK, mask1 = writeMask:
 *     p0*BK + j < DK; fwdDecayStreamSpec t j = 1.44269504 * sum_{u <= t} g[u, j].
 *   prepare_qg_kg_io_correctness (R) (7 region distinctness) (hBK) (hBT : 0 < BT):
 *     prepareQgKgKernelIO ⊨[R] prepStreamSpec: qg[t, j] = q * exp(g ln 2) * scale,
 *     kg[t, j] = k * exp((g[BT-1, j] - g[t, j]) ln 2); the same windows; G's readMask also
 *     holds at t = BT-1 (the kernel's unmasked last_decay load).
 *   bwd_decay_global_cumsum_io_correctness (R) (19 region distinctness) (hBK) (hBT):
 *     bwdDecayCumsumKernelIO ⊨[R] bwdDecayStreamSpec, outputs (dq_inter, dk_inter, dg):
 *     dq_inner + dq_inter * 2^g, dk_inner + dk_inter * 2^(g[BT-1] - g), and
 *     dg[t] = sum_{t <= u < BT} (dq[u] q[u] - dk[u] k[u]) (a reversed inclusive scan);
 *     dq_inter, dk_inter are read and written in place (TD_R_INOUT).
 *   decay_cumsum_backward_closed_output_summary_general: the same three closed forms
 *     (bwdDQInterClosed, bwdDKInterClosed, bwdDGClosed), Realizes_without_Rounding: the
 *     bwd launch judged without the store cast.
 *
 * Checked against the kernels (bench/tritonbench_g/decay_cumsum/decay_cumsum.py and
 * DecayCumsum.lean): program (i_k, i_c, i_bh); rows DK apart (the pointers advance by DK,
 * not s_qk_t); s_qk_t, s_qk_d, B, H, T received and unused, scale used by prepare_qg_kg
 * only.  fwd: cum_decay starts at 0 in every program, `cum_decay += _g * inv_ln2` THEN the
 * store: inclusive and chunk-local (no state crosses chunks, by design).  inv_ln2 =
 * 1.44269504 is a constexpr: the kernel multiplies by RN32(1.44269504), the Lean's constant
 * is the decimal (the spec charges the literal's rounding).  prepare: q *= exp2(g) * scale,
 * k *= exp2(last_decay - g), last_decay the chunk's row BT-1 loaded without a mask.  bwd:
 * rows BT-1 down to 0, last_g = the first row visited (BT-1), `cum_grad_dg += dq*q - dk*k`
 * THEN the store: the suffix sum including row t.  All checked.  The .py's launchers pass
 * s_qk_h = H*T*DK and grid (DK // BK, T // BT, B*H): with H > 1 that head stride runs past
 * a [B, H, T, DK] tensor (the kernel indexes heads by i_bh * s_qk_h over B*H programs), and
 * DK // BK drops a tail; the contracts take s_qk_h and the grid as the IO states them:
 * s_qk_h >= T*DK and cdiv(DK, BK) programs along K with the masked tail.
 *
 * Launch: grid (cdiv(DK, BK), T / BT, B*H) over regions of shape [B*H, T, DK] with rows of
 * DK contiguous and head stride s_qk_h >= T*DK (padded too), so the windows of all programs
 * are disjoint: the launch's write set is injective (the IO is per program; the
 * distinctness hypotheses hold as distinct regions always do here).  R.round .real of a
 * binary32 output is the binary32 store.
 *
 * Values: fwd's g is a log-space decay g = ln a, a in (0, 1] (logsigmoid of a gate, as GLA
 * feeds it): 0 (a = 1, exact), tiny, moderate, very negative (a near 0: down to -30), mixed
 * per element or per case.  prepare / bwd take g as fwd produces it: the chunk-local
 * cumulative log2 decay (non-increasing, down to -43 per step), so 2^g and 2^(g[BT-1] - g)
 * lie in [0, 1], and underflow for decays near 0 (the linear-space mutants' ground).
 *
 * Error model: fwd: c = RN32(1.44269504) (u relative), then either c * (prefix sum) or the
 * prefix sum of RN32(g_u c): gamma_t sum |g_u| (any order) plus one product rounding per
 * term or one at the end.  prepare: exp2's budget for the backend, two products in either
 * association.  bwd: exp2's budget, the products, and the suffix sum of the 2(BT - t)
 * products dq q and -dk k in any order (acc_end: gamma_{2(BT-t)-1} over the leaves), FMA
 * contraction covered.  Then R's store cast (interval-aware, half an ulp of binary32).
 * Special values: finite by the domains above (TD_SV_REAL).
 */
#include "gen.h"
#include "gen_far.h"

enum { P_SQH, P_SQT, P_SQD, P_B, P_H, P_T, P_SCALE, P_BT, P_BK, P_DK, NP };
enum { R_G, R_GO, NR };                                           /* fwd_decay_cumsum */
enum { R_PQ, R_PK, R_PG, R_PQG, R_PKG, NR_PREP };                 /* prepare_qg_kg */
enum { R_DQI, R_DQT, R_DKI, R_DKT, R_BQ, R_BK, R_BG, R_DG, NR_BWD }; /* bwd_decay_global_cumsum */
enum { C_STORE };

#define TD_SPEC_FILE "decay_cumsum.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT},
                                         {"B", TD_P_INT},      {"H", TD_P_INT},      {"T", TD_P_INT},
                                         {"scale", TD_P_REAL}, {"BT", TD_P_INT},     {"BK", TD_P_INT},
                                         {"DK", TD_P_INT}};
static const td_region_decl regions[NR] = {{"g", TD_F32, TD_R_IN}, {"g_o", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the binary32 store into g_o"}};

#define DC_MAX_BT 1024
#define DC_G_MIN (-30.0)

/* one log-space decay: 0 (decay 1), tiny, logsigmoid of a gate, or near-0 decay */
static double dc_logdecay(td_rng *r, int mode) {
    int m = mode < 4 ? mode : (int)td_rng_below(r, 4);
    double x;
    switch (m) {
    case 0: return 0.0;
    case 1: x = -1e-6 * td_rng_unit(r); break;
    case 2: x = 16 * td_rng_unit(r) - 8; x = -log1p(exp(-x)); break; /* logsigmoid(x), x in [-8, 8] */
    default: x = DC_G_MIN + 20 * td_rng_unit(r); break;               /* a in [e^-30, e^-10] */
    }
    return (double)(float)x;
}

/* The launch shape shared by the three kernels: BT steps per chunk (1 case in 32 a long chunk
 * of up to 1024 steps, one program of one lane: a dg or g_o lane costs O(BT) in the spec), BK lanes, DK with a tail, NT chunks, B*H heads, a
 * padded head stride.  Allocates every region with `slack` extra elements (prepare_qg_kg's
 * unmasked last-row load reads BK lanes past a tail).  Returns the value mode. */
static int dc_shape(td_producer *p, td_case *c, int nregs, size_t slack) {
    int longrow = td_prod_u32(p, 0, 31) == 0; /* 1 case in 32: one long chunk */
    int64_t BT = longrow ? td_prod_u32(p, 65, DC_MAX_BT) : td_prod_u32(p, 1, 64);
    int64_t BK = td_gen_pow2(p, 0, longrow ? 0 : 3);
    int64_t DK = BK * td_prod_u32(p, 1, longrow ? 1 : 3) + td_prod_u32(p, 0, (uint32_t)(BK - 1));
    int64_t NT = longrow ? 1 : td_prod_u32(p, 1, 3), BH = longrow ? 1 : td_prod_u32(p, 1, 2);
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0, T = NT * BT;
    int mode = (int)td_prod_u32(p, 0, 4);
    c->p[P_SQH].i = T * DK + pad, c->p[P_SQT].i = DK, c->p[P_SQD].i = 1;
    c->p[P_B].i = 1, c->p[P_H].i = BH, c->p[P_T].i = T, c->p[P_SCALE].r = 1.0;
    c->p[P_BT].i = BT, c->p[P_BK].i = BK, c->p[P_DK].i = DK;
    int64_t nk = (DK + BK - 1) / BK;
    c->grid[0] = (uint32_t)nk, c->grid[1] = (uint32_t)NT, c->grid[2] = (uint32_t)BH;
    size_t len = (size_t)(BH * c->p[P_SQH].i) + slack;
    for (int r = 0; r < nregs; r++) td_case_alloc(c, r, len);
    if (BT == 1) c->classes |= TD_BC(TD_BC_SEQ_SINGLE);
    if (BT == 1 && DK == 1 && NT == 1 && BH == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (nk == 1 && NT == 1 && BH == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (NT > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    c->classes |= TD_BC(DK % BK ? TD_BC_TAIL : TD_BC_EXACT_MULTIPLE);
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (mode == 4) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL); /* decays at 1 and near 0 in one row */
    return mode;
}

static void gen(td_producer *p, td_case *c) {
    int mode = dc_shape(p, c, NR, 0);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM(TD_V_SMALL), 1.0); /* only its seeded rng is used */
    for (size_t k = 0; k < c->r[R_G].len; k++) td_set(c, R_G, k, dc_logdecay(&g.rng, mode));
}

/* g of prepare_qg_kg / bwd: what fwd_decay_cumsum produces, the chunk-local cumulative
 * log2 decay (binary32 running sums of log2 a <= 0: non-increasing along the chunk) */
static void dc_fill_cumdecay(td_case *c, td_rng *r, int mode, int reg) {
    int64_t BT = c->p[P_BT].i, DK = c->p[P_DK].i, SQH = c->p[P_SQH].i;
    for (size_t k = 0; k < c->r[reg].len; k++) td_set(c, reg, k, 0.0); /* padding, slack */
    for (int64_t bh = 0; bh < (int64_t)c->grid[2]; bh++)
        for (int64_t ic = 0; ic < (int64_t)c->grid[1]; ic++)
            for (int64_t d = 0; d < DK; d++) {
                float cum = 0.0f;
                for (int64_t t = 0; t < BT; t++) {
                    cum += (float)(dc_logdecay(r, mode) * 1.4426950408889634);
                    td_set(c, reg, (size_t)(bh * SQH + (ic * BT + t) * DK + d), cum);
                }
            }
}

static void gen_prep(td_producer *p, td_case *c) {
    int mode = dc_shape(p, c, NR_PREP, 16) /* 16 >= BK (<= 8) */;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p20);
    td_vgen_fill(&g, c, R_PQ);
    td_vgen_fill(&g, c, R_PK);
    dc_fill_cumdecay(c, &g.rng, mode, R_PG);
    c->p[P_SCALE].r = td_vgen_value(&g, TD_F32);
}

static void gen_bwd(td_producer *p, td_case *c) {
    int mode = dc_shape(p, c, NR_BWD, 0);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p20);
    static const int vals[6] = {R_DQI, R_DQT, R_DKI, R_DKT, R_BQ, R_BK};
    for (int r = 0; r < 6; r++) td_vgen_fill(&g, c, vals[r]);
    dc_fill_cumdecay(c, &g.rng, mode, R_BG);
}

/* the elements the launch addresses: up to the last head's last row (a far s_qk_h leaves
 * no padding after the last head) */
static size_t dc_extent(const td_case *c) {
    return (size_t)(((int64_t)c->grid[2] - 1) * c->p[P_SQH].i + c->p[P_T].i * c->p[P_DK].i);
}

/* Offsets beyond 2^31 (gen_far.h): the B*H heads (grid axis 2, at most 2 here) of every
 * region at a head stride s_qk_h near 2^31, as the kernels forming i_bh * s_qk_h in int32
 * (program_id times an int32 stride: Triton's default) get wrong.  Inputs and outputs
 * share s_qk_h, so all move: inputs as sparse read-only regions, outputs as sparse
 * outputs (engine/harness.c judges them over the pages of their write sets).  A head's
 * rows (T*DK elements) fit under s_qk_h >= T*DK; the slack after the last head (padding,
 * prepare's 16) is kept.  bwd's dq_inter and dk_inter, read and written in place, move
 * as sparse in-out regions (engine/harness.c, "sparse in-out regions"). */
static void dc_far(td_producer *p, td_case *c, int nregs) {
    td_far_reg r[NR_BWD];
    int64_t w = c->p[P_T].i * c->p[P_DK].i, R = c->grid[2] < TD_FAR_MAX_ROWS ? c->grid[2] : TD_FAR_MAX_ROWS;
    for (int k = 0; k < nregs; k++) r[k] = (td_far_reg){k, P_SQH, w};
    if (td_far_heads(p, c, 2, R, r, nregs)) c->p[P_H].i = R;
}
static void far_fwd(td_producer *p, td_case *c) { dc_far(p, c, NR); }
static void far_prep(td_producer *p, td_case *c) { dc_far(p, c, NR_PREP); }
static void far_bwd(td_producer *p, td_case *c) { dc_far(p, c, NR_BWD); }

static const char *dc_check_shape(const td_case *c, int nregs) {
    int64_t BT = c->p[P_BT].i, BK = c->p[P_BK].i, DK = c->p[P_DK].i, T = c->p[P_T].i, SQH = c->p[P_SQH].i;
    if (BK < 1 || (BK & (BK - 1))) return "BK : constexpr (tl.arange: a power of two)";
    if (BK > DK) return "hBK : BK <= DK";
    if (BT < 1 || BT > DC_MAX_BT || T < BT || T % BT) return "T a multiple of BT (the grid's chunks are whole; BT <= 1024)";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r) return "scale : binary32";
    if (c->grid[0] != (uint32_t)((DK + BK - 1) / BK) || c->grid[1] != (uint32_t)(T / BT) || c->grid[2] < 1)
        return "grid (cdiv(DK, BK), T / BT, B*H)";
    if (SQH < T * DK) return "s_qk_h >= T*DK: the programs' windows disjoint (the launch's write set injective)";
    size_t need = dc_extent(c);
    for (int r = 0; r < nregs; r++)
        if (c->r[r].len < need) return "every window inside every region";
    return NULL;
}

static const char *check(const td_case *c) {
    const char *why = dc_check_shape(c, NR);
    int64_t TD = c->p[P_T].i * c->p[P_DK].i; /* the heads' rows: what the launch reads (a far case: sparse) */
    for (int64_t bh = 0; bh < (int64_t)c->grid[2] && !why; bh++)
        for (int64_t k = 0; k < TD && !why; k++) {
            double v = td_get(c, R_G, (size_t)(bh * c->p[P_SQH].i + k));
            if (!(v <= 0 && v >= DC_G_MIN)) why = "g a log-space decay in [-30, 0] (the generator's domain)";
        }
    return why;
}

/* g of prepare_qg_kg / bwd: a cumulative log2 decay, <= 0 and non-increasing along each chunk
 * (so exp2(g) and exp2(g[BT-1] - g) lie in [0, 1]); the other inputs |x| <= 2^20 */
static const char *dc_check_cum(const td_case *c, int greg, const int *vals, int nvals) {
    int64_t BT = c->p[P_BT].i, DK = c->p[P_DK].i, SQH = c->p[P_SQH].i;
    for (int64_t bh = 0; bh < (int64_t)c->grid[2]; bh++)
        for (int64_t ic = 0; ic < (int64_t)c->grid[1]; ic++)
            for (int64_t d = 0; d < DK; d++)
                for (int64_t t = 0; t < BT; t++) {
                    size_t o = (size_t)(bh * SQH + (ic * BT + t) * DK + d);
                    double g = td_get(c, greg, o), prev = t ? td_get(c, greg, o - (size_t)DK) : 0.0;
                    if (!(g <= prev && g >= DC_G_MIN * 1.5 * (double)BT))
                        return "g a cumulative log2 decay: <= 0, non-increasing along the chunk";
                    for (int v = 0; v < nvals; v++)
                        if (!(fabs(td_get(c, vals[v], o)) <= 0x1p20)) return "|inputs| <= 2^20 (finite sums)";
                }
    return NULL;
}

static const char *check_prep(const td_case *c) {
    static const int vals[2] = {R_PQ, R_PK};
    const char *why = dc_check_shape(c, NR_PREP);
    if (!why && c->r[R_PG].len < dc_extent(c) + (size_t)c->p[P_BK].i)
        why = "the unmasked last_decay load (BK lanes of the chunk's last row) inside g";
    if (!why && !(fabs(c->p[P_SCALE].r) <= 0x1p20 && (double)(float)c->p[P_SCALE].r == c->p[P_SCALE].r))
        why = "scale : binary32, |scale| <= 2^20";
    return why ? why : dc_check_cum(c, R_PG, vals, 2);
}

static const char *check_bwd(const td_case *c) {
    static const int vals[6] = {R_DQI, R_DQT, R_DKI, R_DKT, R_BQ, R_BK};
    const char *why = dc_check_shape(c, NR_BWD);
    return why ? why : dc_check_cum(c, R_BG, vals, 6);
}

/* lane (i_k, i_c, i_bh, t, j) of each output o, j < BK with i_k*BK + j < DK; idx[0] = its
 * row-0 offset in the chunk, idx[1] = t */
static void dc_writes(const td_case *c, td_wset *ws, const int *outs, int nouts) {
    int64_t BT = c->p[P_BT].i, BK = c->p[P_BK].i, DK = c->p[P_DK].i, SQH = c->p[P_SQH].i;
    for (uint32_t bh = 0; bh < c->grid[2]; bh++)
        for (uint32_t ic = 0; ic < c->grid[1]; ic++)
            for (uint32_t ik = 0; ik < c->grid[0]; ik++)
                for (int64_t t = 0; t < BT; t++)
                    for (int64_t j = 0; j < BK && (int64_t)ik * BK + j < DK; j++) {
                        int64_t base = bh * SQH + (int64_t)ic * BT * DK + (int64_t)ik * BK + j;
                        for (int o = 0; o < nouts; o++) {
                            td_olane l = {.o = (uint32_t)o, .region = (uint32_t)outs[o], .off = (uint64_t)(base + t * DK),
                                          .pid = {ik, ic, bh}, .t = (uint32_t)t, .j = (uint64_t)j, .idx = {base, t}};
                            td_wset_add(ws, &l);
                        }
                    }
}
static void writes(const td_case *c, td_wset *ws) {
    static const int outs[1] = {R_GO};
    dc_writes(c, ws, outs, 1);
}
static void writes_prep(const td_case *c, td_wset *ws) {
    static const int outs[2] = {R_PQG, R_PKG};
    dc_writes(c, ws, outs, 2);
}
static void writes_bwd(const td_case *c, td_wset *ws) {
    static const int outs[3] = {R_DQT, R_DKT, R_DG};
    dc_writes(c, ws, outs, 3);
}

static const td_intent intent = {
    .operation = "chunk-local cumulative sum of log decays in base 2 along the time steps of each chunk",
    .definition = "torch.cumsum(g.view(B, H, T // BT, BT, DK) / math.log(2), dim=3) (fla chunk-local decay)",
    TD_SPECS(dc_fwd_intent),
};

const td_contract td_c_decay_cumsum_fwd = {
    .id = "decay_cumsum.fwd_decay_cumsum_io_correctness",
    .file = "decay_cumsum",
    .family = "scan",
    .io_class = "StreamEmitMasked3DKernelIO_1 (fwdDecayCumsumKernelIO) ⊨[R]; grid (cdiv(DK, BK), T/BT, B*H)",
    .kind = "rounding",
    .formula = "g_o[bh*s_qk_h + (c*BT + t)*DK + d] = R.round(1.44269504 * sum_{u <= t} g[bh*s_qk_h + (c*BT + u)*DK + d])",
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .ncasts = 1, .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "log-space decays g in [-30, 0], BT <= 1024: every partial sum is finite",
    .error_model = "the literal's rounding, a prefix sum in any order of g or of RN(g*c), the binary32 store",
    .classes = TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .far = far_fwd,
    .gen = gen, .check = check, .writes = writes,
    TD_SPECS(dc_fwd),
    .intent = &intent,
};

static const td_region_decl regions_prep[NR_PREP] = {{"q", TD_F32, TD_R_IN},
                                                     {"k", TD_F32, TD_R_IN},
                                                     {"g", TD_F32, TD_R_IN},
                                                     {"qg", TD_F32, TD_R_OUT},
                                                     {"kg", TD_F32, TD_R_OUT}};
static const td_region_decl regions_bwd[NR_BWD] = {
    {"dq_inner", TD_F32, TD_R_IN}, {"dq_inter", TD_F32, TD_R_INOUT}, {"dk_inner", TD_F32, TD_R_IN},
    {"dk_inter", TD_F32, TD_R_INOUT}, {"q", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN},
    {"g", TD_F32, TD_R_IN}, {"dg", TD_F32, TD_R_OUT}};

#define DC_CLASSES2                                                                                           \
    (TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE) |  \
     TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | \
     TD_BC(TD_BC_VALUES_LARGE))

const td_contract td_c_decay_cumsum_prep = {
    .id = "decay_cumsum.prepare_qg_kg_io_correctness",
    .file = "decay_cumsum",
    .family = "scan",
    .io_class = "StreamGroupedEmitMasked3DKernelIO (prepareQgKgKernelIO) ⊨[R]; grid (cdiv(DK, BK), T/BT, B*H)",
    .kind = "rounding",
    .formula = "qg[t] = R.round(q[t] * exp2(g[t]) * scale); kg[t] = R.round(k[t] * exp2(g[BT-1] - g[t]))",
    .nparams = NP, .params = params, .nregions = NR_PREP, .regions = regions_prep, .ncasts = 1, .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "g a cumulative log2 decay (<= 0, non-increasing): both exp2 in [0, 1]; |q|, |k|, |scale| <= 2^20",
    .error_model = "exp2's budget, two products in either association, the binary32 store",
    .classes = DC_CLASSES2 | TD_BC(TD_BC_OFFSET_2_31),
    .far = far_prep,
    .gen = gen_prep, .check = check_prep, .writes = writes_prep,
    TD_SPECS(dc_prep),
};

#define DC_BWD_COMMON                                                                                         \
    .file = "decay_cumsum", .family = "scan", .nparams = NP, .params = params, .nregions = NR_BWD,             \
    .regions = regions_bwd, .sv = TD_SV_REAL,                                                                  \
    .sv_note = "g a cumulative log2 decay: exp2 factors in [0, 1]; inputs |x| <= 2^20: every sum finite",      \
    .classes = DC_CLASSES2 | TD_BC(TD_BC_OFFSET_2_31), .far = far_bwd, .gen = gen_bwd, .check = check_bwd,      \
    .writes = writes_bwd

const td_contract td_c_decay_cumsum_bwd = {
    .id = "decay_cumsum.bwd_decay_global_cumsum_io_correctness",
    .io_class = "StreamGroupedEmitMasked3DKernelIO (bwdDecayCumsumKernelIO) ⊨[R]; grid (cdiv(DK, BK), T/BT, B*H)",
    .kind = "rounding",
    .formula = "dq_inter[t] = dq_inner + dq_inter*exp2(g); dk_inter[t] = dk_inner + dk_inter*exp2(g[BT-1]-g); "
               "dg[t] = sum_{u>=t} (dq q - dk k); each R.round",
    .ncasts = 1, .casts = casts,
    .error_model = "exp2's budget, the products, the suffix sum of 2(BT-t) products in any order, the store",
    DC_BWD_COMMON,
    TD_SPECS(dc_bwd),
};

const td_contract td_c_decay_cumsum_bwd_closed = {
    .id = "decay_cumsum.decay_cumsum_backward_closed_output_summary_general",
    .io_class = "Realizes_without_Rounding bundle (bwdDQInterClosed, bwdDKInterClosed, bwdDGClosed); the launch",
    .kind = "exact",
    .formula = "dq_inter[t] = dq_inner + dq_inter*exp2(g); dk_inter[t] = dk_inner + dk_inter*exp2(g[BT-1]-g); "
               "dg[t] = sum_{u>=t} (dq q - dk k)",
    .error_model = "exp2's budget, the products, the suffix sum of 2(BT-t) products in any order",
    DC_BWD_COMMON,
    TD_SPECS(dc_bwd_exact),
};
