/* fused_recurrent_hgrn: HGRN's gated linear recurrence, forward and backward fused over
 * time (catalogue part 2, src lines 4881-4968).
 *
 *   fused_recurrent_hgrn_output_summary_general (0 < BD) (hPrev: BHPrev = the carried
 *     state) (DHPrev = hgrnBwdCarry(i_t + 1) for (5), DHPrev = 0 at T - 1 for (6)):
 *     the surfaces lower; O[t] = hgrnStateClosed(t + 1), h_{t+1} = g_t h_t + x_t
 *     (h_0 = h0 or 0); DX[t] = DHPrev + DO = hgrnBwdDx(t) = do_t + g_{t+1} dx_{t+1};
 *     DG[t] = dx_t * b_o, b_o = O[t - 1] (t > 0), h0 (t = 0, USE_INITIAL_STATE) or 0.
 *   fused_recurrent_hgrn_bwd_dx_io_correctness, MaskedTileShapedKernelIO_2:
 *     DX[o] = DHPrev[o] + DO[o] at (p1*T + i_t)*D + p0*BD + i, mask p0*BD + i < D.
 *
 * Reading checked against bench/tritonbench_g/fused_recurrent_hgrn (the .py and
 * FusedRecurrentHgrn.lean): the catalogue's summary says h_t = exp(g_t) h_{t-1} + x_t,
 * but the kernel multiplies by the loaded g itself (`b_h = b_g * b_h + b_x`), and so
 * does the Lean (hgrnStateClosed is a product of gVal, the raw G element): g is the
 * decay, already in linear space (HGRN's caller passes the gate's value, e.g. a
 * sigmoid, or exp of a log-space gate).  The contract follows the kernel and the Lean.
 * The grid is (cdiv(D, BD), B*H) for both kernels; x, g, o, dx, dg, do are [B*H, T, D],
 * h0, ht [B*H, D].  The backward reads O, the forward's output: in the full launch
 * (forward then backward on every program, what tilediff runs) DG's b_o is the forward
 * state h_t, whose kernel error the spec carries.  BHPrev and DHPrev are the
 * hypotheses' carried states (the kernels' registers in a full launch): scratch.  The
 * summary's lanes are every row t (the Lean slices are at i_t; a full launch writes
 * all rows, i_t's among them).
 *
 * Error model: both scans are oracle/lrec.h's td_sh_lrec_step (3u per step relative to
 * the magnitude state; sequential, FMA, chunked with the state carried); g is an exact
 * input; DG one rounded product of two carried values; DX = DHPrev + DO one rounding.
 * Gates: per case sigmoid gates, exp of log-space decays in [-8, 0], exactly 1, near 0
 * (<= 1e-6), amplifying (1 + up to 2^-9), or each element from any of these.
 * Special values: finite inputs |x| <= 8; with gates <= 1 + 2^-9 over <= 4095 steps the
 * state stays below 8 * 4095 * e^8, far inside binary32.
 */
#include "gen.h"
#include "gen_large.h"

enum { P_USE_INIT, P_STORE_FINAL, P_IT, P_T, P_D, P_BD, NP };
enum { R_X, R_G, R_O, R_H0, R_HT, R_DX, R_DG, R_DO, R_BHPREV, R_DHPREV, NR };
enum { O_O, O_HT, O_DX, O_DG }; /* the summary's output channels */
enum { PD_IT, PD_T, PD_D, PD_BD, NPD };
enum { RD_DHPREV, RD_DO, RD_DX, NRD };

#define TD_SPEC_FILE "fused_recurrent_hgrn.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"USE_INITIAL_STATE", TD_P_BOOL}, {"STORE_FINAL_STATE", TD_P_BOOL},
                                         {"i_t", TD_P_INT}, {"T", TD_P_INT}, {"D", TD_P_INT}, {"BD", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"X", TD_F32, TD_R_IN},  {"G", TD_F32, TD_R_IN},  {"O", TD_F32, TD_R_OUT},      {"H0", TD_F32, TD_R_IN},
    {"Ht", TD_F32, TD_R_OUT}, {"DX", TD_F32, TD_R_OUT}, {"DG", TD_F32, TD_R_OUT},    {"DO", TD_F32, TD_R_IN},
    {"BHPrev", TD_F32, TD_R_SCRATCH}, {"DHPrev", TD_F32, TD_R_SCRATCH}};
static const td_param_decl params_dx[NPD] = {{"i_t", TD_P_INT}, {"T", TD_P_INT}, {"D", TD_P_INT}, {"BD", TD_P_INT}};
static const td_region_decl regions_dx[NRD] = {
    {"DHPrev", TD_F32, TD_R_IN}, {"DO", TD_F32, TD_R_IN}, {"DX", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* one gate of class k (5: each element its own class) */
static double gate(td_rng *r, int k) {
    if (k == 5) k = (int)td_rng_below(r, 5);
    double z = td_rng_unit(r);
    switch (k) {
    case 0: return (float)(1 / (1 + exp(-(12 * z - 6)))); /* sigmoid gate */
    case 1: return (float)exp(-8 * z);                     /* exp of a log-space decay */
    case 2: return 1;
    case 3: return (float)(1e-6 * z);
    default: return (float)(1 + 0x1p-9 * z); /* a gate that amplifies */
    }
}

/* Shape: D 1..40, BD a power of two 1..64, B*H 1..3, T from the boundary list; one
 * case in 16 a long sequence of 2048..4095 steps on one head of width <= 4. */
static void gen(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t D = td_prod_u32(p, 1, long_seq ? 4 : 40), BD = td_gen_pow2(p, 0, 6), BH = td_prod_u32(p, 1, 3);
    static const uint32_t Ts[] = {1, 2, 3, 15, 16, 17, 64};
    uint32_t ti = td_prod_u32(p, 0, 6), tl = td_prod_u32(p, 2048, 4095);
    int64_t T = long_seq ? tl : Ts[ti];
    if (long_seq) BH = 1;
    c->p[P_USE_INIT].i = td_prod_bool(p);
    c->p[P_STORE_FINAL].i = td_prod_bool(p);
    c->p[P_IT].i = td_prod_u32(p, 0, (uint32_t)(T - 1));
    c->p[P_T].i = T, c->p[P_D].i = D, c->p[P_BD].i = BD;
    c->grid[0] = (uint32_t)cdiv(D, BD), c->grid[1] = (uint32_t)BH, c->grid[2] = 1;
    int gk = (int)td_prod_u32(p, 0, 5);
    size_t n = (size_t)(BH * T * D), nh = (size_t)(BH * D);
    for (int r = 0; r < NR; r++)
        td_case_alloc(c, r, (r == R_H0 || r == R_HT || r == R_BHPREV) ? nh + (r == R_HT) * 3 : n + 3 * (r == R_O || r == R_DX || r == R_DG));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, R_X);
    td_vgen_fill(&g, c, R_DO);
    td_vgen_fill(&g, c, R_H0);
    for (size_t i = 0; i < n; i++) td_set(c, R_G, i, gate(&g.rng, gk));
    c->classes |= (T > 1 ? TD_BC(TD_BC_MULTI_TILE) : TD_BC(TD_BC_SEQ_SINGLE)) |
                  (T >= 15 && T <= 17 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (D % BD ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) | (BD >= 4 * D ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (c->grid[0] * c->grid[1] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (gk == 2 || gk == 3 ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

static const char *check_tiles(const td_case *c, int64_t T, int64_t D, int64_t BD, int64_t it) {
    if (BD <= 0) return "hBD: 0 < BD";
    if (BD & (BD - 1)) return "BD is a power of two (tl.arange)";
    if (T <= 0 || D <= 0) return "T, D > 0";
    if (it < 0 || it >= T) return "i_t < T (a time row of the launch)";
    if (c->grid[0] != (uint32_t)cdiv(D, BD) || c->grid[1] == 0 || c->grid[2] != 1) return "grid = (cdiv(D, BD), B*H)";
    return NULL;
}

static const char *check(const td_case *c) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i;
    const char *e = check_tiles(c, T, D, c->p[P_BD].i, c->p[P_IT].i);
    if (e) return e;
    size_t n = (size_t)c->grid[1] * (size_t)(T * D), nh = (size_t)c->grid[1] * (size_t)D;
    for (int r = 0; r < NR; r++)
        if (c->r[r].len < ((r == R_H0 || r == R_HT || r == R_BHPREV) ? nh : n)) return "regions hold [B*H, T, D] / [B*H, D]";
    /* (a large case: its window rows; every other gate reads 0) */
    for (uint64_t i = td_large_next(c, R_G, 0); i < n; i = td_large_next(c, R_G, i + 1))
        if (!isfinite(td_get(c, R_G, (size_t)i)) || fabs(td_get(c, R_G, (size_t)i)) > 1 + 0x1p-9)
            return "gates finite, |g| <= 1 + 2^-9";
    return NULL;
}

/* A large case: the heads (i_bh) of its windows; the other heads' lanes only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, D = c->p[P_D].i, BD = c->p[P_BD].i;
    uint64_t seen = 0;
    for (uint32_t p1 = (uint32_t)td_large_row_next(c, 0); p1 < c->grid[1];
         p1 = (uint32_t)td_large_row_next(c, (uint64_t)p1 + 1), seen++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < BD; i++) {
                int64_t d = p0 * BD + i;
                if (d >= D) continue;
                for (int64_t t = 0; t < T; t++) {
                    static const int regs[3] = {R_O, R_DX, R_DG};
                    static const uint32_t chans[3] = {O_O, O_DX, O_DG};
                    for (int q = 0; q < 3; q++) {
                        td_olane l = {.o = chans[q], .region = (uint32_t)regs[q], .off = (uint64_t)((p1 * T + t) * D + d),
                                      .pid = {p0, p1, 0}, .t = (uint32_t)t, .j = (uint64_t)i, .idx = {p1, d, t, 0}};
                        td_wset_add(ws, &l);
                    }
                }
                if (c->p[P_STORE_FINAL].i) {
                    td_olane l = {.o = O_HT, .region = R_HT, .off = (uint64_t)(p1 * D + d), .pid = {p0, p1, 0},
                                  .t = (uint32_t)T, .j = (uint64_t)i, .idx = {p1, d, T, 0}};
                    td_wset_add(ws, &l);
                }
            }
    if (c->nwin) ws->dropped += (c->grid[1] - seen) * (uint64_t)D * (uint64_t)(3 * T + (c->p[P_STORE_FINAL].i != 0));
}

/* The large tier (gen_large.h, td_rows_large) of both launches: more than 2^31 / (T*D)
 * heads (B*H), so i_bh * T * D passes 2^31 (i_bh an int32 program id, T and D
 * constexprs: nothing in the signature bounds B*H*T*D; Lean's are Nat).  Row-block
 * i_bh is [T, D] of the sequence regions and [D] of the state ones (heads of the
 * summary's H0, Ht, BHPrev; none in bwd_dx).  A head of fewer than
 * TD_ROWS_LARGE_MIN_LEN elements is lengthened in time (T, i_t kept), the new steps
 * zero (gates 0 are gates). */
static void hgrn_large(td_producer *p, td_case *c, int p_t, int p_d, int nr, int dx) {
    int64_t T0 = c->p[p_t].i, D = c->p[p_d].i, T = T0;
    if (T * D < TD_ROWS_LARGE_MIN_LEN) T = (TD_ROWS_LARGE_MIN_LEN + D - 1) / D;
    td_rows_region rr[NR];
    for (int r = 0; r < nr; r++) {
        int state = !dx && (r == R_H0 || r == R_HT || r == R_BHPREV);
        uint64_t len = (uint64_t)(state ? D : T * D), len0 = (uint64_t)(state ? D : T0 * D);
        rr[r] = (td_rows_region){r, len, c->k->regions[r].role == TD_R_IN ? len0 : 0};
    }
    uint64_t R;
    if (td_rows_large(p, c, c->grid[1], rr, nr, &R) != 0) return;
    c->p[p_t].i = T;
    c->grid[1] = (uint32_t)R;
    if (T != T0) c->classes &= ~(TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE));
    if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}
static void large(td_producer *p, td_case *c) { hgrn_large(p, c, P_T, P_D, NR, 0); }
static void large_dx(td_producer *p, td_case *c) { hgrn_large(p, c, PD_T, PD_D, NRD, 1); }

/* ---- bwd_dx: one backward time step ---- */
static void gen_dx(td_producer *p, td_case *c) {
    int64_t D = td_prod_u32(p, 1, 300), BD = td_gen_pow2(p, 0, 7), BH = td_prod_u32(p, 1, 4), T = td_prod_u32(p, 1, 9);
    c->p[PD_IT].i = td_prod_u32(p, 0, (uint32_t)(T - 1));
    c->p[PD_T].i = T, c->p[PD_D].i = D, c->p[PD_BD].i = BD;
    c->grid[0] = (uint32_t)cdiv(D, BD), c->grid[1] = (uint32_t)BH, c->grid[2] = 1;
    for (int r = 0; r < NRD; r++) td_case_alloc(c, r, (size_t)(BH * T * D) + 3); /* slack: a stray lane lands in a cell */
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p120);
    td_vgen_fill(&g, c, RD_DHPREV);
    td_vgen_fill(&g, c, RD_DO);
    td_gen_mark_shape((uint64_t)D, (uint64_t)BD, c->grid[0] * c->grid[1], &c->classes);
    c->classes |= c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
    c->classes |= c->menu == TD_V_LARGE ? TD_BC(TD_BC_VALUES_LARGE) : 0;
}
static const char *check_dx(const td_case *c) {
    int64_t T = c->p[PD_T].i, D = c->p[PD_D].i;
    const char *e = check_tiles(c, T, D, c->p[PD_BD].i, c->p[PD_IT].i);
    if (e) return e;
    for (int r = 0; r < NRD; r++)
        if (c->r[r].len < (size_t)c->grid[1] * (size_t)(T * D)) return "regions hold [B*H, T, D]";
    return NULL;
}
static void writes_dx(const td_case *c, td_wset *ws) {
    int64_t T = c->p[PD_T].i, D = c->p[PD_D].i, BD = c->p[PD_BD].i, it = c->p[PD_IT].i;
    uint64_t seen = 0; /* (a large case: the heads of its windows; the others only counted) */
    for (uint64_t p1 = td_large_row_next(c, 0); p1 < c->grid[1]; p1 = td_large_row_next(c, p1 + 1), seen++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < BD && p0 * BD + i < D; i++) {
                td_olane l = {.region = RD_DX, .off = (p1 * (uint64_t)T + (uint64_t)it) * (uint64_t)D + p0 * BD + i,
                              .pid = {p0, (uint32_t)p1, 0}, .j = (uint64_t)i};
                td_wset_add(ws, &l);
            }
    if (c->nwin) ws->dropped += (c->grid[1] - seen) * (uint64_t)D;
}

/* The intent (contracts/fused_recurrent_hgrn.spec.h): flash-linear-attention's
 * operator, whose g is the log of the forget gate (its HGRN layer passes log(lambda)):
 * the kernel's linear-space gate differs from it wherever a gate meets a nonzero state. */
static const td_intent intent = {
    .operation = "HGRN's gated recurrence h_t = exp(g_t) * h_{t-1} + x_t (g the log forget gate), o_t = h_t, "
                 "h_{-1} = h0 or 0, final state h_{T-1}; dx, dg the gradient of sum_t <do_t, o_t>",
    .definition = "flash-linear-attention's naive_recurrent_hgrn (fla/ops/hgrn/naive.py), the reference of "
                  "fused_recurrent_hgrn(x, g); HGRN, Qin et al. 2023, eq. h_t = lambda_t h_{t-1} + (1 - lambda_t) c_t "
                  "with lambda_t = exp(g_t)",
    TD_SPECS(hgrn_intent),
};

const td_contract td_c_fused_recurrent_hgrn_summary = {
    .id = "fused_recurrent_hgrn.fused_recurrent_hgrn_output_summary_general",
    .file = "fused_recurrent_hgrn",
    .family = "recurrence",
    .io_class = "Realizes_without_Rounding bundle (output, bwd dx, bwd dg step slices) + lowering",
    .kind = "exact",
    .formula = "h_{t+1} = g_t h_t + x_t, O[t] = h_{t+1}; dx_t = do_t + g_{t+1} dx_{t+1}; DG[t] = dx_t h_t",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, gates <= 1 + 2^-9: every state stays finite",
    .error_model = "both scans by oracle/lrec.h (3u per step of the magnitude state; sequential, FMA, chunked with "
                   "the carry), DG one rounded product",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |
               TD_BC(TD_BC_VALUES_SPECIAL),
    /* no .far: every region is addressed by i_bh * T * D + t * D + d (sizes only, shared with the
     * outputs): an offset >= 2^31 needs dense outputs of 2^31 elements: the large tier's (`large`) */
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(hgrn_summary),
    .intent = &intent,
};

const td_contract td_c_fused_recurrent_hgrn_bwd_dx = {
    .id = "fused_recurrent_hgrn.fused_recurrent_hgrn_bwd_dx_io_correctness",
    .file = "fused_recurrent_hgrn",
    .family = "recurrence",
    .io_class = "MaskedTileShapedKernelIO_2 (bwdDxIO)",
    .kind = "exact",
    .formula = "DX[(p1*T + i_t)*D + p0*BD + i] = DHPrev[same] + DO[same]  (mask p0*BD + i < D)",
    .nparams = NPD,
    .params = params_dx,
    .nregions = NRD,
    .regions = regions_dx,
    .sv = TD_SV_IEEE,
    .sv_note = "|x| <= 2^120: the sum is finite",
    .error_model = "one binary32 addition: half an ulp of the sum (exact when representable)",
    .classes = TD_BCLASSES_TILED,
    /* no .far: every region is addressed by i_bh * T * D + t * D + d (sizes only, shared with the
     * outputs): an offset >= 2^31 needs dense outputs of 2^31 elements: the large tier's (`large`) */
    .gen = gen_dx,
    .large = large_dx,
    .check = check_dx,
    .writes = writes_dx,
    TD_SPECS(hgrn_dx_step),
};
