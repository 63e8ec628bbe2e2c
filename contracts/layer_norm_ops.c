/* layer_norm_ops: the proof slices of _layer_norm_fwd_1pass_kernel / _layer_norm_bwd_kernel
 * (catalogue part 2, src lines 6296-6524).  Eight contracts, each a conjunction of
 * Realizes_without_Rounding facts (or two MaskedTileKernelIO₁ stores) about one or more
 * slice kernels run from the same initial state s.  Each is modelled as ONE launch whose
 * write set is exactly the outputs its conjuncts speak about; the host kernel runs the
 * slices' Triton programs as consecutive launches over the grid, ordered so that no
 * slice reads what an earlier one wrote (so every slice sees s, as the theorems say).
 *
 * Forward store slices (layer_norm_ops_bwd_row_vector_store_slice and the scalar
 * mean/rstd slices; VeriTile LayerNormOps.lean):
 *   fwd_plain_bias: Y[pid*stride_y_row + i] = ValuePre[same] (i < N, i : Fin BLOCK_N),
 *                   Mean[pid] = MeanPre[pid], Rstd[pid] = RstdPre[pid]
 *   fwd_rms_bias:   Y and Rstd likewise
 *   fwd_residual_bias: RESIDUAL_OUT[pid*stride_res_out_row + i] = ResidualPre[same], Y, Mean, Rstd
 *   scalar_stores(_R): Mean[pid] = MeanPre[pid], Rstd[pid] = RstdPre[pid] (⊨ / ⊨[R, .real])
 * All copies: bit-exact (tolerance 0).  R.round .real is the kernel's binary32 store
 * (slot "store", fp32:rne:inf): a binary32 value stored as binary32 is itself.  Their
 * worst err/tol is therefore 0 (every error is 0 against a tolerance of 0): there is
 * no bound to sharpen, and any changed bit is a disagreement.
 *
 * Backward (the same file's slices):
 *   c1_reduction:  C1[pid] = sum_{i < min(N,BLOCK_N)} xhat_i * (w_i * dy_i) / N      (tl.sum: tree)
 *   c2_reduction:  C2[pid] = sum w_i * dy_i / N                                       (tree)
 *   rms_dx_from_c1:      DX[pid*sdx + i] = (w_i*dy_i - xhat_i*C1[pid]) * Rstd[pid]
 *   plain_dx_from_c1_c2: DX[pid*sdx + i] = (w_i*dy_i - (xhat_i*C1[pid] + C2[pid])) * Rstd[pid]
 *   rms_one_row (DW only): DW[pid*N + i] = dy_i * (x_i * Rstd[pid])
 *   plain_bias_one_row (DW, DB): DW[pid*N + i] = dy_i * ((x_i - Mean[pid]) * Rstd[pid]), DB[pid*N + i] = dy_i
 *   residual_add:  DX[pid*sdx + i] = DRESIDUAL_IN[pid*sdri + i] = DXBase[pid*sdx + i] + DRESIDUAL[pid*sdr + i]
 * where xhat_i = Xhat[pid*stride_xhat_row + i], dy_i = DY[pid*stride_dy_row + i],
 * x_i = X[pid*stride_x_row + i], w_i = W[i].  The DX slices read C1 / C2 from the initial
 * state, and the reductions write them: C1 and C2 are in-out regions whose initial
 * contents are the supplied c1 / c2 (the generator makes them the row's true c1 / c2,
 * rounded, or free values), and the launch runs one_row, then the DX slice, then the
 * reductions.  The catalogue's "likely" readings of bwdC1ReductionSpec, bwdC2ReductionSpec,
 * bwdRmsDXFromC1Spec, bwdPlainDXFromC1C2Spec, bwdRmsDWSpec, bwdPlainBiasDWSpec,
 * bwdBiasDBSpec match the Lean definitions, with two precisions: the reductions run over
 * the BLOCK_N tile (columns i < min(N, BLOCK_N)) and divide by N, and W's masked lanes
 * are undefined in Lean (s.undef) but multiply a masked dy = 0 and a masked xhat = 0,
 * so they never matter (the kernels load them as 0).
 *
 * Error model: each operation one binary32 rounding in the order written above; the
 * reductions are Triton tree sums (ceil(log2 min(N,BLOCK_N)) roundings on any path: the
 * non-zero leaves are a prefix), then one division by N.  Values: rows from the family's
 * generator (constant, shifted, dominant ...), statistics and xhat either consistent
 * with the row (rounded) or free, so the DX cancellation wdy - (xhat*c1 + c2) is real.
 * Special values: N >= 1 (Lean's x/0 = 0 is avoided); every input finite and bounded so
 * that every intermediate is finite (the specs are over the reals).
 */
#include <float.h>

#include "gen_far.h"
#include "layernorm_common.h"

/* fwd_plain_bias */
enum { FP_SY, FP_N, FP_BLOCK, NFP };
enum { FP_VALUEPRE, FP_MEANPRE, FP_RSTDPRE, FP_Y, FP_MEAN, FP_RSTD, NFPR };
/* fwd_rms_bias */
enum { FR_VALUEPRE, FR_RSTDPRE, FR_Y, FR_RSTD, NFRR };
/* fwd_residual_bias */
enum { FX_SRES, FX_SY, FX_N, FX_BLOCK, NFX };
enum { FX_RESPRE, FX_VALUEPRE, FX_MEANPRE, FX_RSTDPRE, FX_RESOUT, FX_Y, FX_MEAN, FX_RSTD, NFXR };
/* bwd rms / plain: the same six parameters */
enum { BP_SXHAT, BP_SDY, BP_SX, BP_SDX, BP_N, BP_BLOCK, NBP };
enum { BR_X, BR_XHAT, BR_W, BR_DY, BR_RSTD, BR_C1, BR_DX, BR_DW, NBRR };
enum { BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2, NBBR };
/* bwd residual add */
enum { BA_SDX, BA_SDRES, BA_SDRESIN, BA_N, BA_BLOCK, NBA };
enum { BA_DXBASE, BA_DRES, BA_DX, BA_DRESIN, NBAR };
/* scalar stores */
enum { SS_MEANPRE, SS_MEAN, SS_RSTDPRE, SS_RSTD, NSSR };
enum { C_STORE };

/* the backward contracts' region indices differ (rms / plain with bias): this table maps them */
typedef struct bwd_regs {
    int x, xhat, w, dy, dx, dw, db, mean, rstd, c1, c2, nregs;
} bwd_regs;
static const bwd_regs BR = {BR_X, BR_XHAT, BR_W, BR_DY, BR_DX, BR_DW, -1, -1, BR_RSTD, BR_C1, -1, NBRR};
static const bwd_regs BB = {BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2, NBBR};


static uint64_t c_width(const td_case *c, int p_n, int p_block) {
    uint64_t n = (uint64_t)c->p[p_n].i, B = (uint64_t)c->p[p_block].i;
    return n < B ? n : B;
}

/* outputs: 0 = C1, 1 = C2 (plain), then DX, DW, DB */
enum { O_C1, O_C2, O_DX, O_DW, O_DB };

#define TD_SPEC_FILE "layer_norm_ops.spec.h"
#include "spec_instantiate.h"

static const td_param_decl fp_params[NFP] = {{"stride_y_row", TD_P_INT}, {"N", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl fp_regions[NFPR] = {{"ValuePre", TD_F32, TD_R_IN}, {"MeanPre", TD_F32, TD_R_IN},
                                                {"RstdPre", TD_F32, TD_R_IN},  {"Y", TD_F32, TD_R_OUT},
                                                {"Mean", TD_F32, TD_R_OUT},    {"Rstd", TD_F32, TD_R_OUT}};
static const td_region_decl fr_regions[NFRR] = {{"ValuePre", TD_F32, TD_R_IN},
                                                {"RstdPre", TD_F32, TD_R_IN},
                                                {"Y", TD_F32, TD_R_OUT},
                                                {"Rstd", TD_F32, TD_R_OUT}};
static const td_param_decl fx_params[NFX] = {
    {"stride_res_out_row", TD_P_INT}, {"stride_y_row", TD_P_INT}, {"N", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl fx_regions[NFXR] = {
    {"ResidualPre", TD_F32, TD_R_IN},   {"ValuePre", TD_F32, TD_R_IN}, {"MeanPre", TD_F32, TD_R_IN},
    {"RstdPre", TD_F32, TD_R_IN},       {"RESIDUAL_OUT", TD_F32, TD_R_OUT}, {"Y", TD_F32, TD_R_OUT},
    {"Mean", TD_F32, TD_R_OUT},         {"Rstd", TD_F32, TD_R_OUT}};
static const td_param_decl bp_params[NBP] = {{"stride_xhat_row", TD_P_INT}, {"stride_dy_row", TD_P_INT},
                                             {"stride_x_row", TD_P_INT},    {"stride_dx_row", TD_P_INT},
                                             {"N", TD_P_INT},               {"BLOCK_N", TD_P_INT}};
static const td_region_decl br_regions[NBRR] = {{"X", TD_F32, TD_R_IN},    {"Xhat", TD_F32, TD_R_IN},
                                                {"W", TD_F32, TD_R_IN},    {"DY", TD_F32, TD_R_IN},
                                                {"Rstd", TD_F32, TD_R_IN}, {"C1", TD_F32, TD_R_INOUT},
                                                {"DX", TD_F32, TD_R_OUT},  {"DW", TD_F32, TD_R_OUT}};
static const td_region_decl bb_regions[NBBR] = {
    {"X", TD_F32, TD_R_IN},     {"Xhat", TD_F32, TD_R_IN}, {"W", TD_F32, TD_R_IN},     {"DY", TD_F32, TD_R_IN},
    {"DX", TD_F32, TD_R_OUT},   {"DW", TD_F32, TD_R_OUT},  {"DB", TD_F32, TD_R_OUT},   {"Mean", TD_F32, TD_R_IN},
    {"Rstd", TD_F32, TD_R_IN},  {"C1", TD_F32, TD_R_INOUT}, {"C2", TD_F32, TD_R_INOUT}};
static const td_param_decl ba_params[NBA] = {{"stride_dx_row", TD_P_INT},
                                             {"stride_dres_row", TD_P_INT},
                                             {"stride_dres_in_row", TD_P_INT},
                                             {"N", TD_P_INT},
                                             {"BLOCK_N", TD_P_INT}};
static const td_region_decl ba_regions[NBAR] = {{"DXBase", TD_F32, TD_R_IN},
                                                {"DRESIDUAL", TD_F32, TD_R_IN},
                                                {"DX", TD_F32, TD_R_OUT},
                                                {"DRESIDUAL_IN", TD_F32, TD_R_OUT}};
static const td_region_decl ss_regions[NSSR] = {{"MeanPre", TD_F32, TD_R_IN},
                                                {"Mean", TD_F32, TD_R_OUT},
                                                {"RstdPre", TD_F32, TD_R_IN},
                                                {"Rstd", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the stored statistic (a binary32 store)"}};

/* ---- shapes shared by the slices ---- */

/* N, BLOCK_N and the active width min(N, BLOCK_N); rows */
typedef struct ops_shape {
    uint64_t n, B, w, rows;
} ops_shape;

static void gen_shape(td_producer *p, td_case *c, ops_shape *s) {
    ln_gen_row_shape(p, 10, 1, &s->n, &s->B, &c->classes);
    s->w = s->n < s->B ? s->n : s->B;
    s->rows = ln_gen_rows(p, s->B, 8, 4096);
    c->grid[0] = (uint32_t)s->rows;
    if (s->rows > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}

/* a row stride for a region that is written (rows must not overlap) */
static uint64_t out_stride(td_producer *p, const ops_shape *s, uint64_t *classes) {
    uint64_t st = ln_gen_stride(p, s->w, s->rows, classes);
    return (s->rows > 1 && st < s->w) ? s->w : st;
}

static uint64_t rows_len(const ops_shape *s, uint64_t stride) { return (s->rows - 1) * stride + s->w; }

/* finite values for a copied region: the menu over the whole binary32 range, with
 * subnormals and signed zeros */
static void fill_copy(td_vgen *g, td_case *c, int reg) {
    for (size_t i = 0; i < c->r[reg].len; i++) {
        double v;
        switch (td_rng_below(&g->rng, 8)) {
        case 0: v = ldexp((double)(1 + td_rng_below(&g->rng, 1u << 23)), -149); break;
        case 1: v = (td_rng_next(&g->rng) & 1) ? -0.0 : 0.0; break;
        default: v = td_vgen_value(g, TD_F32); break;
        }
        td_set(c, reg, i, v);
    }
}

static const char *check_shape(const td_case *c, int p_n, int p_block) {
    if (c->p[p_block].i <= 0) return "BLOCK_N > 0 (a Triton constexpr block)";
    if (c->p[p_n].i <= 0) return "N > 0 (the generator's domain: N = 0 divides by zero)";
    if (c->grid[0] < 1) return "at least one program";
    return NULL;
}

/* every region in regs holds the rows (rows-1)*stride + w */
static const char *check_rows(const td_case *c, int reg, uint64_t stride, uint64_t w, const char *what) {
    if (c->r[reg].len < (c->grid[0] - 1) * stride + w) return what;
    return NULL;
}

/* (td_region_abs_le: of a far case's sparse region only the written pages are read) */
static const char *check_finite(const td_case *c, int nregs) {
    for (int r = 0; r < nregs; r++)
        if ((c->k->regions[r].role & TD_R_IN) && !td_region_abs_le(c, r, DBL_MAX)) return "every input holds real values";
    return NULL;
}

static void add_row_lanes(const td_case *c, td_wset *ws, uint32_t o, int reg, uint64_t stride, uint64_t w) {
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (uint64_t j = 0; j < w; j++) {
            td_olane l = {.o = o, .region = (uint32_t)reg, .off = pid * stride + j, .pid = {pid, 0, 0}, .j = j,
                          .idx = {pid, (int64_t)j}};
            td_wset_add(ws, &l);
        }
}
static void add_scalar_lanes(const td_case *c, td_wset *ws, uint32_t o, int reg) {
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        td_olane l = {.o = o, .region = (uint32_t)reg, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_wset_add(ws, &l);
    }
}

/* ---- fwd_plain_bias ---- */
static void gen_fp(td_producer *p, td_case *c) {
    ops_shape s;
    gen_shape(p, c, &s);
    uint64_t sy = out_stride(p, &s, &c->classes), slack = td_prod_bool(p) ? 3 : 0;
    c->p[FP_SY].i = (int64_t)sy;
    c->p[FP_N].i = (int64_t)s.n;
    c->p[FP_BLOCK].i = (int64_t)s.B;
    td_case_alloc(c, FP_VALUEPRE, rows_len(&s, sy) + slack);
    td_case_alloc(c, FP_Y, rows_len(&s, sy) + slack);
    for (int r = FP_MEANPRE; r <= FP_RSTDPRE; r++) td_case_alloc(c, r, s.rows + slack);
    for (int r = FP_MEAN; r <= FP_RSTD; r++) td_case_alloc(c, r, s.rows + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    for (int r = FP_VALUEPRE; r <= FP_RSTDPRE; r++) fill_copy(&g, c, r);
}
static const char *check_fp(const td_case *c) {
    const char *e = check_shape(c, FP_N, FP_BLOCK);
    if (e) return e;
    if (c->p[FP_SY].i < 0) return "stride_y_row : Nat";
    uint64_t w = c_width(c, FP_N, FP_BLOCK), sy = (uint64_t)c->p[FP_SY].i, rows = c->grid[0];
    if (rows > 1 && sy < w) return "Y rows of different programs do not overlap";
    if ((e = check_rows(c, FP_VALUEPRE, sy, w, "ValuePre holds every row read"))) return e;
    if ((e = check_rows(c, FP_Y, sy, w, "Y holds every row written"))) return e;
    for (int r = FP_MEANPRE; r <= FP_RSTDPRE; r++)
        if (c->r[r].len < rows) return "MeanPre / RstdPre hold one value per program";
    for (int r = FP_MEAN; r <= FP_RSTD; r++)
        if (c->r[r].len < rows) return "Mean / Rstd hold one cell per program";
    return check_finite(c, NFPR);
}
/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows at a stride_y_row near
 * 2^31, as a kernel forming row * stride_y_row in int32 gets wrong; ValuePre and Y share
 * it and move together (Y a sparse output); the per-program statistics stay. */
static void far_fp(td_producer *p, td_case *c) {
    static const int regs[] = {FP_VALUEPRE, FP_Y};
    td_far_rows(p, c, regs, 2, FP_SY, (int64_t)c_width(c, FP_N, FP_BLOCK));
}
static void writes_fp(const td_case *c, td_wset *ws) {
    add_row_lanes(c, ws, 0, FP_Y, (uint64_t)c->p[FP_SY].i, c_width(c, FP_N, FP_BLOCK));
    add_scalar_lanes(c, ws, 1, FP_MEAN);
    add_scalar_lanes(c, ws, 2, FP_RSTD);
}

/* ---- fwd_rms_bias (the same parameters) ---- */
static void gen_fr(td_producer *p, td_case *c) {
    ops_shape s;
    gen_shape(p, c, &s);
    uint64_t sy = out_stride(p, &s, &c->classes), slack = td_prod_bool(p) ? 3 : 0;
    c->p[FP_SY].i = (int64_t)sy;
    c->p[FP_N].i = (int64_t)s.n;
    c->p[FP_BLOCK].i = (int64_t)s.B;
    td_case_alloc(c, FR_VALUEPRE, rows_len(&s, sy) + slack);
    td_case_alloc(c, FR_Y, rows_len(&s, sy) + slack);
    td_case_alloc(c, FR_RSTDPRE, s.rows + slack);
    td_case_alloc(c, FR_RSTD, s.rows + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    fill_copy(&g, c, FR_VALUEPRE);
    fill_copy(&g, c, FR_RSTDPRE);
}
static const char *check_fr(const td_case *c) {
    const char *e = check_shape(c, FP_N, FP_BLOCK);
    if (e) return e;
    if (c->p[FP_SY].i < 0) return "stride_y_row : Nat";
    uint64_t w = c_width(c, FP_N, FP_BLOCK), sy = (uint64_t)c->p[FP_SY].i, rows = c->grid[0];
    if (rows > 1 && sy < w) return "Y rows of different programs do not overlap";
    if ((e = check_rows(c, FR_VALUEPRE, sy, w, "ValuePre holds every row read"))) return e;
    if ((e = check_rows(c, FR_Y, sy, w, "Y holds every row written"))) return e;
    if (c->r[FR_RSTDPRE].len < rows || c->r[FR_RSTD].len < rows) return "RstdPre / Rstd hold one cell per program";
    return check_finite(c, NFRR);
}
/* as far_fp */
static void far_fr(td_producer *p, td_case *c) {
    static const int regs[] = {FR_VALUEPRE, FR_Y};
    td_far_rows(p, c, regs, 2, FP_SY, (int64_t)c_width(c, FP_N, FP_BLOCK));
}
static void writes_fr(const td_case *c, td_wset *ws) {
    add_row_lanes(c, ws, 0, FR_Y, (uint64_t)c->p[FP_SY].i, c_width(c, FP_N, FP_BLOCK));
    add_scalar_lanes(c, ws, 1, FR_RSTD);
}

/* ---- fwd_residual_bias ---- */
static void gen_fx(td_producer *p, td_case *c) {
    ops_shape s;
    gen_shape(p, c, &s);
    uint64_t sres = out_stride(p, &s, &c->classes), sy = out_stride(p, &s, &c->classes);
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    c->p[FX_SRES].i = (int64_t)sres;
    c->p[FX_SY].i = (int64_t)sy;
    c->p[FX_N].i = (int64_t)s.n;
    c->p[FX_BLOCK].i = (int64_t)s.B;
    td_case_alloc(c, FX_RESPRE, rows_len(&s, sres) + slack);
    td_case_alloc(c, FX_RESOUT, rows_len(&s, sres) + slack);
    td_case_alloc(c, FX_VALUEPRE, rows_len(&s, sy) + slack);
    td_case_alloc(c, FX_Y, rows_len(&s, sy) + slack);
    for (int r = FX_MEANPRE; r <= FX_RSTDPRE; r++) td_case_alloc(c, r, s.rows + slack);
    for (int r = FX_MEAN; r <= FX_RSTD; r++) td_case_alloc(c, r, s.rows + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    for (int r = FX_RESPRE; r <= FX_RSTDPRE; r++) fill_copy(&g, c, r);
}
static const char *check_fx(const td_case *c) {
    const char *e = check_shape(c, FX_N, FX_BLOCK);
    if (e) return e;
    if (c->p[FX_SRES].i < 0 || c->p[FX_SY].i < 0) return "strides : Nat";
    uint64_t w = c_width(c, FX_N, FX_BLOCK), sy = (uint64_t)c->p[FX_SY].i, sres = (uint64_t)c->p[FX_SRES].i,
             rows = c->grid[0];
    if (rows > 1 && (sy < w || sres < w)) return "RESIDUAL_OUT / Y rows of different programs do not overlap";
    if ((e = check_rows(c, FX_RESPRE, sres, w, "ResidualPre holds every row read"))) return e;
    if ((e = check_rows(c, FX_RESOUT, sres, w, "RESIDUAL_OUT holds every row written"))) return e;
    if ((e = check_rows(c, FX_VALUEPRE, sy, w, "ValuePre holds every row read"))) return e;
    if ((e = check_rows(c, FX_Y, sy, w, "Y holds every row written"))) return e;
    for (int r = FX_MEANPRE; r <= FX_RSTDPRE; r++)
        if (c->r[r].len < rows) return "MeanPre / RstdPre hold one value per program";
    for (int r = FX_MEAN; r <= FX_RSTD; r++)
        if (c->r[r].len < rows) return "Mean / Rstd hold one cell per program";
    return check_finite(c, NFXR);
}
/* as far_fp over the Y rows (ValuePre, Y); the residual rows keep stride_res_out_row */
static void far_fx(td_producer *p, td_case *c) {
    static const int regs[] = {FX_VALUEPRE, FX_Y};
    td_far_rows(p, c, regs, 2, FX_SY, (int64_t)c_width(c, FX_N, FX_BLOCK));
}
static void writes_fx(const td_case *c, td_wset *ws) {
    uint64_t w = c_width(c, FX_N, FX_BLOCK);
    add_row_lanes(c, ws, 0, FX_RESOUT, (uint64_t)c->p[FX_SRES].i, w);
    add_row_lanes(c, ws, 1, FX_Y, (uint64_t)c->p[FX_SY].i, w);
    add_scalar_lanes(c, ws, 2, FX_MEAN);
    add_scalar_lanes(c, ws, 3, FX_RSTD);
}

static void gen_bwd(td_producer *p, td_case *c, const bwd_regs *R) {
    ops_shape s;
    gen_shape(p, c, &s);
    uint64_t sxh = ln_gen_stride(p, s.w, s.rows, &c->classes), sdy = ln_gen_stride(p, s.w, s.rows, &c->classes);
    uint64_t sx = ln_gen_stride(p, s.w, s.rows, &c->classes), sdx = out_stride(p, &s, &c->classes);
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    c->p[BP_SXHAT].i = (int64_t)sxh;
    c->p[BP_SDY].i = (int64_t)sdy;
    c->p[BP_SX].i = (int64_t)sx;
    c->p[BP_SDX].i = (int64_t)sdx;
    c->p[BP_N].i = (int64_t)s.n;
    c->p[BP_BLOCK].i = (int64_t)s.B;
    td_case_alloc(c, R->x, rows_len(&s, sx) + slack);
    td_case_alloc(c, R->xhat, rows_len(&s, sxh) + slack);
    td_case_alloc(c, R->dy, rows_len(&s, sdy) + slack);
    td_case_alloc(c, R->dx, rows_len(&s, sdx) + slack);
    td_case_alloc(c, R->w, s.w + slack);
    /* DW / DB: row pid at pid*N */
    td_case_alloc(c, R->dw, (s.rows - 1) * s.n + s.w + slack);
    if (R->db >= 0) td_case_alloc(c, R->db, (s.rows - 1) * s.n + s.w + slack);
    td_case_alloc(c, R->rstd, s.rows + slack);
    td_case_alloc(c, R->c1, s.rows + slack);
    if (R->mean >= 0) td_case_alloc(c, R->mean, s.rows + slack);
    if (R->c2 >= 0) td_case_alloc(c, R->c2, s.rows + slack);
    /* values: rows of X from the family's generator; W, DY from the menu (|.| <= 2^16);
     * the statistics, xhat and c1 / c2 consistent with the row (rounded) or free */
    ln_rows g;
    ln_rows_init(&g, p, c, 0x1p30);
    int consistent = td_prod_u32(p, 0, 3) != 0;
    ln_fill_menu(&g, c, R->x, 0x1p30);
    for (uint64_t r = 0; r < s.rows; r++) ln_fill_row(&g, c, R->x, r * sx, s.w);
    ln_fill_menu(&g, c, R->w, LN_WBOUND);
    ln_fill_menu(&g, c, R->dy, LN_WBOUND);
    ln_fill_menu(&g, c, R->xhat, 0x1p20);
    ln_fill_menu(&g, c, R->c1, 0x1p30);
    if (R->c2 >= 0) ln_fill_menu(&g, c, R->c2, 0x1p30);
    if (R->mean >= 0) ln_fill_menu(&g, c, R->mean, 0x1p30);
    for (size_t i = 0; i < c->r[R->rstd].len; i++)
        td_set(c, R->rstd, i, ln_round(TD_F32, fabs(td_vgen_value(&g.g, TD_F32)) + 0x1p-20, 0x1p20));
    td_rng *rg = &g.g.rng;
    for (uint64_t r = 0; r < s.rows && consistent; r++) {
        double mean, rstd, eps = ldexp(1.0, -(int)(10 + td_rng_below(rg, 30)));
        ln_ref_stats(c, R->x, r * sx, s.w, eps, &mean, &rstd);
        if (R->mean < 0) { /* RMS: rstd = 1/sqrt(mean(x^2) + eps) */
            long double q = 0;
            for (uint64_t j = 0; j < s.w; j++) q += (long double)td_get(c, R->x, r * sx + j) * td_get(c, R->x, r * sx + j);
            rstd = (double)(1 / sqrtl(q / (long double)s.n + eps));
            mean = 0;
        }
        td_set(c, R->rstd, r, ln_round(TD_F32, rstd, 0x1p20));
        if (R->mean >= 0) td_set(c, R->mean, r, ln_round(TD_F32, mean, 0x1p30));
        double m = R->mean >= 0 ? td_get(c, R->mean, r) : 0, rs = td_get(c, R->rstd, r);
        long double s1 = 0, s2 = 0;
        for (uint64_t j = 0; j < s.w; j++) {
            double xh = ln_round(TD_F32, ((double)td_get(c, R->x, r * sx + j) - m) * rs, 0x1p20);
            td_set(c, R->xhat, r * sxh + j, xh);
            double wdy = td_get(c, R->w, j) * td_get(c, R->dy, r * sdy + j);
            s1 += (long double)xh * wdy;
            s2 += wdy;
        }
        td_set(c, R->c1, r, ln_round(TD_F32, (double)(s1 / (long double)s.n), 0x1p30));
        if (R->c2 >= 0) td_set(c, R->c2, r, ln_round(TD_F32, (double)(s2 / (long double)s.n), 0x1p30));
    }
}
static void gen_br(td_producer *p, td_case *c) { gen_bwd(p, c, &BR); }
static void gen_bb(td_producer *p, td_case *c) { gen_bwd(p, c, &BB); }

static const char *check_bwd(const td_case *c, const bwd_regs *R) {
    const char *e = check_shape(c, BP_N, BP_BLOCK);
    if (e) return e;
    for (int k = BP_SXHAT; k <= BP_SDX; k++)
        if (c->p[k].i < 0) return "strides : Nat";
    uint64_t w = c_width(c, BP_N, BP_BLOCK), n = (uint64_t)c->p[BP_N].i, rows = c->grid[0];
    if (rows > 1 && (uint64_t)c->p[BP_SDX].i < w) return "DX rows of different programs do not overlap";
    if ((e = check_rows(c, R->x, (uint64_t)c->p[BP_SX].i, w, "X holds every row read"))) return e;
    if ((e = check_rows(c, R->xhat, (uint64_t)c->p[BP_SXHAT].i, w, "Xhat holds every row read"))) return e;
    if ((e = check_rows(c, R->dy, (uint64_t)c->p[BP_SDY].i, w, "DY holds every row read"))) return e;
    if ((e = check_rows(c, R->dx, (uint64_t)c->p[BP_SDX].i, w, "DX holds every row written"))) return e;
    if ((e = check_rows(c, R->dw, n, w, "DW holds pid*N + i"))) return e;
    if (R->db >= 0 && (e = check_rows(c, R->db, n, w, "DB holds pid*N + i"))) return e;
    if (c->r[R->w].len < w) return "W holds the columns read";
    if (c->r[R->rstd].len < rows || c->r[R->c1].len < rows || (R->mean >= 0 && c->r[R->mean].len < rows) ||
        (R->c2 >= 0 && c->r[R->c2].len < rows))
        return "Rstd, Mean, C1, C2 hold one value per program";
    /* hDWDX, hDWDB, hDBDX, hDBDW: distinct declared regions.  The domain: |X|, |Mean|,
     * |Xhat|, |C1|, |C2| <= 2^40 and |W|, |DY|, |Rstd| <= 2^20 keep every product and
     * every row sum finite (the specs are over the reals). */
    for (int r = 0; r < R->nregs; r++) {
        if (!(c->k->regions[r].role & TD_R_IN)) continue;
        double lim = (r == R->w || r == R->dy || r == R->rstd) ? 0x1p20 : 0x1p40;
        if (!td_region_abs_le(c, r, lim))
            return "inputs finite, |X|, |Mean|, |Xhat|, |C| <= 2^40, |W|, |DY|, |Rstd| <= 2^20";
    }
    return NULL;
}
static const char *check_br(const td_case *c) { return check_bwd(c, &BR); }
static const char *check_bb(const td_case *c) { return check_bwd(c, &BB); }

static void writes_bwd(const td_case *c, td_wset *ws, const bwd_regs *R) {
    uint64_t w = c_width(c, BP_N, BP_BLOCK), n = (uint64_t)c->p[BP_N].i;
    add_scalar_lanes(c, ws, O_C1, R->c1);
    if (R->c2 >= 0) add_scalar_lanes(c, ws, O_C2, R->c2);
    add_row_lanes(c, ws, O_DX, R->dx, (uint64_t)c->p[BP_SDX].i, w);
    add_row_lanes(c, ws, O_DW, R->dw, n, w);
    if (R->db >= 0) add_row_lanes(c, ws, O_DB, R->db, n, w);
}
static void writes_br(const td_case *c, td_wset *ws) { writes_bwd(c, ws, &BR); }
/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of X at a stride_x_row near
 * 2^31 (X += row_start * stride_x_row in int32 wraps); the other regions keep their
 * strides, the statistics and xhat of the rows kept stay consistent with them. */
static void far_bwd(td_producer *p, td_case *c, const bwd_regs *R) {
    td_far_rows(p, c, &R->x, 1, BP_SX, (int64_t)c_width(c, BP_N, BP_BLOCK));
}
static void far_br(td_producer *p, td_case *c) { far_bwd(p, c, &BR); }
static void far_bb(td_producer *p, td_case *c) { far_bwd(p, c, &BB); }
static void writes_bb(const td_case *c, td_wset *ws) { writes_bwd(c, ws, &BB); }

/* ---- residual add ---- */
static void gen_ba(td_producer *p, td_case *c) {
    ops_shape s;
    gen_shape(p, c, &s);
    uint64_t sdx = out_stride(p, &s, &c->classes), sdr = ln_gen_stride(p, s.w, s.rows, &c->classes),
             sdri = out_stride(p, &s, &c->classes), slack = td_prod_bool(p) ? 3 : 0;
    c->p[BA_SDX].i = (int64_t)sdx;
    c->p[BA_SDRES].i = (int64_t)sdr;
    c->p[BA_SDRESIN].i = (int64_t)sdri;
    c->p[BA_N].i = (int64_t)s.n;
    c->p[BA_BLOCK].i = (int64_t)s.B;
    td_case_alloc(c, BA_DXBASE, rows_len(&s, sdx) + slack);
    td_case_alloc(c, BA_DX, rows_len(&s, sdx) + slack);
    td_case_alloc(c, BA_DRES, rows_len(&s, sdr) + slack);
    td_case_alloc(c, BA_DRESIN, rows_len(&s, sdri) + slack);
    td_vgen g;
    /* |values| <= 2^126: the sum stays finite */
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, BA_DXBASE);
    td_vgen_fill(&g, c, BA_DRES);
}
static const char *check_ba(const td_case *c) {
    const char *e = check_shape(c, BA_N, BA_BLOCK);
    if (e) return e;
    for (int k = BA_SDX; k <= BA_SDRESIN; k++)
        if (c->p[k].i < 0) return "strides : Nat";
    uint64_t w = c_width(c, BA_N, BA_BLOCK), rows = c->grid[0];
    uint64_t sdx = (uint64_t)c->p[BA_SDX].i, sdr = (uint64_t)c->p[BA_SDRES].i, sdri = (uint64_t)c->p[BA_SDRESIN].i;
    if (rows > 1 && (sdx < w || sdri < w)) return "DX / DRESIDUAL_IN rows of different programs do not overlap";
    if ((e = check_rows(c, BA_DXBASE, sdx, w, "DXBase holds every row read"))) return e;
    if ((e = check_rows(c, BA_DX, sdx, w, "DX holds every row written"))) return e;
    if ((e = check_rows(c, BA_DRES, sdr, w, "DRESIDUAL holds every row read"))) return e;
    if ((e = check_rows(c, BA_DRESIN, sdri, w, "DRESIDUAL_IN holds every row written"))) return e;
    for (int r = BA_DXBASE; r <= BA_DRES; r++)
        if (!td_region_abs_le(c, r, 0x1p126)) return "DXBase, DRESIDUAL finite with |x| <= 2^126 (finite sums)";
    /* hDXDresIn, hDresInDX: distinct declared regions */
    return NULL;
}
/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of DRESIDUAL at a
 * stride_dres_row near 2^31 (DRESIDUAL += row_start * stride_dres_row in int32 wraps). */
static void far_ba(td_producer *p, td_case *c) {
    static const int regs[] = {BA_DRES};
    td_far_rows(p, c, regs, 1, BA_SDRES, (int64_t)c_width(c, BA_N, BA_BLOCK));
}
static void writes_ba(const td_case *c, td_wset *ws) {
    uint64_t w = c_width(c, BA_N, BA_BLOCK);
    add_row_lanes(c, ws, 0, BA_DX, (uint64_t)c->p[BA_SDX].i, w);
    add_row_lanes(c, ws, 1, BA_DRESIN, (uint64_t)c->p[BA_SDRESIN].i, w);
}

/* ---- scalar stores ---- */
static void gen_ss(td_producer *p, td_case *c) {
    uint64_t rows = td_prod_u32(p, 1, 64), slack = td_prod_bool(p) ? 2 : 0;
    if (rows == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE);
    c->grid[0] = (uint32_t)rows;
    for (int r = 0; r < NSSR; r++) td_case_alloc(c, r, rows + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    fill_copy(&g, c, SS_MEANPRE);
    fill_copy(&g, c, SS_RSTDPRE);
    c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}
static const char *check_ss(const td_case *c) {
    if (c->grid[0] < 1) return "at least one program";
    for (int r = 0; r < NSSR; r++)
        if (c->r[r].len < c->grid[0]) return "every region holds one cell per program";
    return check_finite(c, NSSR);
}
static void writes_ss(const td_case *c, td_wset *ws) {
    add_scalar_lanes(c, ws, 0, SS_MEAN);
    add_scalar_lanes(c, ws, 1, SS_RSTD);
}

#define OPS_ROWS_CLASSES (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW))
#define OPS_COMMON .file = "layer_norm_ops", .family = "layernorm", .sv = TD_SV_REAL

const td_contract td_c_lnops_fwd_plain = {
    .id = "layer_norm_ops.layer_norm_ops_fwd_plain_bias_all_outputs_compute_correct_general",
    .io_class = "ComputeCorrect (BlockState): y / mean / rstd store slices",
    .kind = "exact",
    .formula = "Y[pid*stride_y_row + i] = ValuePre[same] (i < N);  Mean[pid] = MeanPre[pid];  Rstd[pid] = RstdPre[pid]",
    .nparams = NFP, .params = fp_params, .nregions = NFPR, .regions = fp_regions,
    .sv_note = "supplied values are finite (the spec is over the reals)",
    .error_model = "copies: bit-exact (tolerance 0)",
    .classes = OPS_ROWS_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_fp, .far = far_fp, .check = check_fp,
    .writes = writes_fp,
    OPS_COMMON, TD_SPECS(fwd_plain),
};
const td_contract td_c_lnops_fwd_rms = {
    .id = "layer_norm_ops.layer_norm_ops_fwd_rms_bias_all_outputs_compute_correct_general",
    .io_class = "ComputeCorrect (BlockState): y / rstd store slices",
    .kind = "exact",
    .formula = "Y[pid*stride_y_row + i] = ValuePre[same] (i < N);  Rstd[pid] = RstdPre[pid]",
    .nparams = NFP, .params = fp_params, .nregions = NFRR, .regions = fr_regions,
    .sv_note = "supplied values are finite (the spec is over the reals)",
    .error_model = "copies: bit-exact (tolerance 0)",
    .classes = OPS_ROWS_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_fr, .far = far_fr, .check = check_fr,
    .writes = writes_fr,
    OPS_COMMON, TD_SPECS(fwd_rms),
};
const td_contract td_c_lnops_fwd_residual = {
    .id = "layer_norm_ops.layer_norm_ops_fwd_residual_bias_all_outputs_compute_correct_general",
    .io_class = "ComputeCorrect (BlockState): residual_out / y / mean / rstd store slices",
    .kind = "exact",
    .formula = "RESIDUAL_OUT[pid*s_res + i] = ResidualPre[same];  Y[pid*s_y + i] = ValuePre[same];  Mean, Rstd copied",
    .nparams = NFX, .params = fx_params, .nregions = NFXR, .regions = fx_regions,
    .sv_note = "supplied values are finite (the spec is over the reals)",
    .error_model = "copies: bit-exact (tolerance 0)",
    .classes = OPS_ROWS_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_fx, .far = far_fx, .check = check_fx,
    .writes = writes_fx,
    OPS_COMMON, TD_SPECS(fwd_residual),
};
const td_contract td_c_lnops_bwd_rms = {
    .id = "layer_norm_ops.layer_norm_ops_bwd_rms_core_outputs_compute_correct_general",
    .io_class = "ComputeCorrect (BlockState): c1 reduction, rms dx from c1, rms one-row dw",
    .kind = "exact",
    .formula = "C1[pid] = sum_i xhat_i*(w_i*dy_i) / N;  DX[pid*sdx+i] = (w_i*dy_i - xhat_i*C1_in[pid]) * Rstd[pid];  "
               "DW[pid*N+i] = dy_i * (x_i * Rstd[pid])",
    .nparams = NBP, .params = bp_params, .nregions = NBRR, .regions = br_regions,
    .sv_note = "N >= 1 (Lean's x/0 = 0 avoided); |X|, |Xhat|, |Mean|, |C| <= 2^40, |W|, |DY|, |Rstd| <= 2^20: every intermediate finite",
    .error_model = "binary32 in the slices' order; c1 a tree sum over min(N,BLOCK_N) terms then / N",
    .classes = OPS_ROWS_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_br, .far = far_br, .check = check_br,
    .writes = writes_br,
    OPS_COMMON, TD_SPECS(bwd_rms),
};
const td_contract td_c_lnops_bwd_plain = {
    .id = "layer_norm_ops.layer_norm_ops_bwd_plain_bias_core_outputs_compute_correct_general",
    .io_class = "ComputeCorrect (BlockState): c1 / c2 reductions, plain dx from c1 c2, one-row dw / db",
    .kind = "exact",
    .formula = "C1[pid] = sum xhat*(w*dy) / N;  C2[pid] = sum w*dy / N;  DX = (w*dy - (xhat*C1_in + C2_in)) * Rstd;  "
               "DW[pid*N+i] = dy_i * ((x_i - Mean) * Rstd);  DB[pid*N+i] = dy_i",
    .nparams = NBP, .params = bp_params, .nregions = NBBR, .regions = bb_regions,
    .sv_note = "N >= 1 (Lean's x/0 = 0 avoided); |X|, |Xhat|, |Mean|, |C| <= 2^40, |W|, |DY|, |Rstd| <= 2^20: every intermediate finite",
    .error_model = "binary32 in the slices' order; c1, c2 tree sums over min(N,BLOCK_N) terms then / N",
    .classes = OPS_ROWS_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_bb, .far = far_bb, .check = check_bb,
    .writes = writes_bb,
    OPS_COMMON, TD_SPECS(bwd_plain),
};
const td_contract td_c_lnops_bwd_residual_add = {
    .id = "layer_norm_ops.layer_norm_ops_bwd_residual_add_all_outputs_compute_correct_general",
    .io_class = "ComputeCorrect (BlockState): residual-add store slice",
    .kind = "exact",
    .formula = "DX[pid*sdx + i] = DRESIDUAL_IN[pid*sdri + i] = DXBase[pid*sdx + i] + DRESIDUAL[pid*sdr + i]",
    .nparams = NBA, .params = ba_params, .nregions = NBAR, .regions = ba_regions,
    .sv_note = "|inputs| <= 2^126: the sum is finite",
    .error_model = "one binary32 addition of exact operands: |RN32(a+b) - (a+b)|",
    .classes = OPS_ROWS_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_ba, .far = far_ba, .check = check_ba,
    .writes = writes_ba,
    OPS_COMMON, TD_SPECS(bwd_residual_add),
};

#define OPS_SS_COMMON                                                                                          \
    .io_class = "MaskedTileKernelIO_1 x2 (fwd_mean_storeIO, fwd_rstd_storeIO)", .nparams = 0, .params = NULL,   \
    .nregions = NSSR, .regions = ss_regions, .sv_note = "MeanPre / RstdPre hold finite values",               \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_VALUES_SPECIAL) |              \
               TD_BC(TD_BC_VALUES_LARGE),                                                                      \
    /* no far or large hook (offset-2^31): the original's stores Mean + row, Rstd + row (and */               \
    /* the loads of MeanPre, RstdPre at row) are at element row = tl.program_id(0), with no */                \
    /* stride and no size to scale it: the offset IS the program id, below 2^31 by the launch */              \
    /* itself (a grid axis holds at most 2^31 - 1 programs: CUDA's gridDim.x), so it fits in */               \
    /* int32 in every launch and no int32 arithmetic of the kernel can wrap (Triton widens the */             \
    /* pointer sum itself to 64 bits) */                                                                      \
    .gen = gen_ss, .check = check_ss, .writes = writes_ss, OPS_COMMON

const td_contract td_c_lnops_stores = {
    .id = "layer_norm_ops.layer_norm_ops_scalar_stores_io_correctness",
    .kind = "exact",
    .formula = "Mean[pid] = MeanPre[pid];  Rstd[pid] = RstdPre[pid]",
    .error_model = "copies: bit-exact (tolerance 0)",
    OPS_SS_COMMON, TD_SPECS(stores),
};
const td_contract td_c_lnops_stores_r = {
    .id = "layer_norm_ops.layer_norm_ops_scalar_stores_io_correctnessR",
    .kind = "rounding",
    .formula = "Mean[pid] = R.round(.real)(MeanPre[pid]);  Rstd likewise; R = the binary32 store",
    .error_model = "the store cast of an exact binary32 value: bit-exact against the profile (tolerance 0)",
    .ncasts = 1, .casts = casts,
    OPS_SS_COMMON, TD_SPECS(stores_r),
};
