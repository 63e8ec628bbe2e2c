/* The layer-norm family's shared generator and spec helpers (fast_layernorm,
 * layer_norm_liger, layer_norm_ops, layernorm_fwd_triton, fused_layernorm_triton,
 * layer_norm_welfold).
 *
 * A contract file includes this header at its top (the generator helpers, below); its
 * spec file includes layernorm_common.spec.h (the spec helpers, compiled once per
 * number type like the rest of the spec).
 *
 * Values.  A layer norm is hard where its statistics are ill-conditioned, so the row
 * generator mixes, per row:
 *   - menu rows: the project's value menu (small, wide exponents, ties, specials,
 *     large, integers);
 *   - constant rows (variance 0: rstd is then 1/sqrt(eps), and the kernel's variance
 *     is the square of its mean's rounding error, which the bound must carry);
 *   - shifted rows c + noise with |c| up to 2^14 and noise 2^-6..2^-22 of |c| (the
 *     cancellation in x - mean; a one-pass E[x^2] - mean^2 variance fails here);
 *   - one dominant element (2^8..2^24 times the rest);
 *   - all equal but one element.
 * eps comes from both ends of its range (1e-12 .. 0.5) and the library defaults.
 * The checkers accept |x| <= 2^40 (every square and row sum of squares finite in
 * binary32: the specs are over the reals); the generator draws |x| <= 2^24, since
 * beyond that a constant row's variance (0) cannot even be certified by the shadow's
 * binary64 evaluation against eps = 1e-12 (its own rounding error, n u64 |x|, squared
 * exceeds eps) and the lane would be left unchecked.
 *
 * Where the statistics are ill-conditioned in binary32 (a constant or shifted row whose
 * mean error E, squared into the variance, exceeds var + eps: e.g. a constant row of
 * 4e4 over 880 columns with eps = 2e-4, where the kernel's rstd is set by its own
 * rounding and not by eps), the symmetric rsqrt rule would see an argument interval
 * reaching 0; ln_rsqrt_floor (below) uses the kernel argument's floor eps instead, so
 * the bound stays finite (as large as the error can really be, up to rstd itself).
 * Lanes the model still cannot bound (the shadow's own binary64 error above eps, at
 * |x| near 2^24 with eps = 1e-12) are counted as "unbounded" by `tilediff run`; a
 * non-finite output there is still a disagreement under the real-valued policy. */
#ifndef TD_LAYERNORM_COMMON_GEN
#define TD_LAYERNORM_COMMON_GEN

#include <math.h>
#include <string.h>

#include "gen.h"
#include "gen_large.h"

/* |row values| the generator draws (see the header) */
#define LN_XBOUND 0x1p24
/* the checkers' domain: |x| <= 2^40 keeps every square and every sum of up to 2^13
 * squares finite in binary32 (the specs are over the reals) */
#define LN_XDOMAIN 0x1p40
/* |weights|, |biases| bound */
#define LN_WBOUND 0x1p16

/* eps: tiny (1e-12 .. 1e-9), the library defaults, the middle, large (1e-3 .. 0.5). */
static inline double ln_gen_eps(td_producer *p) {
    static const unsigned w[] = {2, 3, 2, 2};
    static const float dflt[] = {1e-5f, 1e-6f, 1e-12f, 1e-5f};
    switch (td_prod_pick(p, w, 4)) {
    case 0: return td_gen_real(p, 1e-12, 1e-9);
    case 1: return dflt[td_prod_u32(p, 0, 3)];
    case 2: return td_gen_real(p, 1e-9, 1e-3);
    default: return td_gen_real(p, 1e-3, 0.5);
    }
}

/* value of format f nearest to x (saturating), within the bound */
static inline double ln_round(td_fmt f, double x, double bound) {
    if (!(fabs(x) <= bound)) x = copysign(bound, x);
    td_profile pr = {f, TD_RNE, TD_OVF_SAT, false};
    double v = td_decode(f, td_encode_f64(pr, x));
    if (fabs(v) > bound) v = td_decode(f, td_encode_f64((td_profile){f, TD_RTZ, TD_OVF_SAT, false}, x));
    return isfinite(v) ? v : 0;
}

enum ln_rowmode { LN_ROW_MENU, LN_ROW_CONST, LN_ROW_SHIFTED, LN_ROW_DOMINANT, LN_ROW_ONE_OFF, LN_ROW_MIXED };

typedef struct ln_rows {
    td_vgen g;
    int mode;     /* enum ln_rowmode for every row, or LN_ROW_MIXED (drawn per row) */
    double bound;
} ln_rows;

/* Picks the case's row mode and value menu (two producer choices and a seed). */
static inline void ln_rows_init(ln_rows *r, td_producer *p, td_case *c, double bound) {
    static const unsigned w[] = {5, 2, 3, 2, 1, 3};
    r->mode = td_prod_pick(p, w, 6);
    r->bound = bound;
    /* the menu without TD_V_CONST (constant rows are a row mode of their own) */
    td_vgen_init(&r->g, p, c, TD_VM_ALL & ~TD_VM(TD_V_CONST), bound);
    if (r->mode != LN_ROW_MENU) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

static inline double ln_uniform(td_rng *g, double lo, double hi) { return lo + (hi - lo) * td_rng_unit(g); }

/* Fills the n elements base, base+1, ... of region reg as one row. */
static inline void ln_fill_row(ln_rows *r, td_case *c, int reg, uint64_t base, uint64_t n) {
    td_fmt f = c->r[reg].fmt;
    td_rng *g = &r->g.rng;
    int mode = r->mode;
    if (mode == LN_ROW_MIXED) mode = (int)td_rng_below(g, LN_ROW_MIXED);
    double sign = (td_rng_next(g) & 1) ? -1 : 1;
    switch (mode) {
    case LN_ROW_CONST: {
        double v = td_vgen_value(&r->g, f);
        for (uint64_t j = 0; j < n; j++) td_set(c, reg, base + j, v);
        return;
    }
    case LN_ROW_SHIFTED: {
        double center = 1 + td_rng_unit(g); /* mantissa, then exponent: sequenced */
        center = sign * ldexp(center, (int)td_rng_below(g, 19) - 4);
        double noise = fabs(center) * ldexp(1.0, -(int)(6 + td_rng_below(g, 17)));
        for (uint64_t j = 0; j < n; j++)
            td_set(c, reg, base + j, ln_round(f, center + noise * ln_uniform(g, -1, 1), r->bound));
        return;
    }
    case LN_ROW_DOMINANT: {
        double scale = ldexp(1.0, (int)td_rng_below(g, 21) - 10);
        uint64_t at = td_rng_below(g, n);
        for (uint64_t j = 0; j < n; j++) td_set(c, reg, base + j, ln_round(f, scale * ln_uniform(g, -1, 1), r->bound));
        td_set(c, reg, base + at, ln_round(f, sign * scale * ldexp(1.0, 8 + (int)td_rng_below(g, 17)), r->bound));
        return;
    }
    case LN_ROW_ONE_OFF: {
        double v = td_vgen_value(&r->g, f), o = td_vgen_value(&r->g, f);
        for (uint64_t j = 0; j < n; j++) td_set(c, reg, base + j, v);
        td_set(c, reg, base + td_rng_below(g, n), o);
        return;
    }
    default:
        td_vgen_fill_as(&r->g, c, reg, base, n, f);
        return;
    }
}

/* Fills elements [0, len) of region reg with menu values (weights, biases, the cells a
 * correct kernel never reads). */
static inline void ln_fill_menu(ln_rows *r, td_case *c, int reg, double bound) {
    double keep = r->g.bound;
    r->g.bound = bound;
    td_vgen_fill(&r->g, c, reg);
    r->g.bound = keep;
}

/* A row stride for rows of `width` elements: the width itself, or larger (padding
 * between rows; marks TD_BC_STRIDE_GT_ROW).  One row: any stride, 0 included. */
static inline uint64_t ln_gen_stride(td_producer *p, uint64_t width, uint64_t rows, uint64_t *classes) {
    uint64_t s;
    switch (td_prod_u32(p, 0, 3)) {
    case 0:
    case 1: s = width; break;
    case 2: s = width + td_prod_u32(p, 1, 17); break;
    default: s = rows == 1 ? 0 : 2 * width + 3; break;
    }
    if (s > width) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return s;
}

/* n_cols and BLOCK for a row-per-program kernel whose tile covers the row: BLOCK a
 * power of two up to 2^max_log2, n from td_gen_count (1, B-1, B, B >= 4n, ...) and,
 * when allow_over, sometimes n > BLOCK (the tile then covers the first BLOCK
 * columns: what the contract's tile-based spec says). */
static inline void ln_gen_row_shape(td_producer *p, int max_log2, int allow_over, uint64_t *n, uint64_t *B,
                                    uint64_t *classes) {
    *B = td_gen_pow2(p, 0, max_log2);
    *n = td_gen_count(p, *B, *B, classes);
    if (allow_over && td_prod_u32(p, 0, 15) == 0) {
        *n = *B + td_prod_u32(p, 1, 2 * (uint32_t)*B);
        /* the row now runs past the tile: its tail classes are those of the new n */
        uint64_t r = *n % *B;
        if (r) *classes |= TD_BC(TD_BC_TAIL);
        if (r == 1) *classes |= TD_BC(TD_BC_TAIL_ABOVE);
        if (r && r == *B - 1) *classes |= TD_BC(TD_BC_TAIL_BELOW);
        if (!r) *classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
    }
}

/* Rows per case: up to max_rows, and at most `work` elements of tile in total. */
static inline uint64_t ln_gen_rows(td_producer *p, uint64_t tile, uint64_t max_rows, uint64_t work) {
    uint64_t m = work / (tile ? tile : 1);
    if (m > max_rows) m = max_rows;
    if (m < 1) m = 1;
    return td_prod_u32(p, 1, (uint32_t)m);
}

/* Mean and rstd = 1/sqrt(var + eps) of n values, as a binary64 reference for the
 * generators of the slices that take supplied statistics (rounded by the caller). */
static inline void ln_ref_stats(const td_case *c, int reg, uint64_t base, uint64_t n, double eps, double *mean,
                                double *rstd) {
    long double s = 0, v = 0;
    for (uint64_t j = 0; j < n; j++) s += td_get(c, reg, base + j);
    long double m = n ? s / (long double)n : 0;
    for (uint64_t j = 0; j < n; j++) {
        long double d = td_get(c, reg, base + j) - m;
        v += d * d;
    }
    *mean = (double)m;
    *rstd = (double)(1 / sqrtl((n ? v / (long double)n : 0) + eps));
}


/* ---- rsqrt of a variance plus eps: the kernel's argument has a floor ----
 * The family's rstd is rsqrt(var + eps) (or 1 / sqrt(var + eps)), where var is a sum
 * of squares (or a Welford M2) divided by n.  In the kernel's arithmetic that is >= 0
 * (squares, sums and quotients of non-negative binary32 values stay non-negative, FMA
 * contraction included), so the kernel's argument RN(var_k + eps) is >= eps (RN is
 * monotone and eps is representable); the exact argument var* + eps is >= eps too.
 * The shadow's intervals are symmetric: when the variance's error bound E exceeds
 * var* + eps (a constant row, var* = 0, whose kernel variance is its mean's rounding
 * error squared), the ordinary rule sees an argument interval reaching 0 and gives up.
 * With the floor lo, the kernel's argument lies in [lk, x* + E] with
 * lk = max(lo, x* - E), so
 *     |rsqrt(k) - rsqrt(x*)| <= min(E / (2 lk^(3/2)), lk^(-1/2))     (mean value theorem;
 *                                                                       both lie in (0, lk^(-1/2)])
 * plus the function's own error at a result of magnitude <= lk^(-1/2): the backend's
 * rsqrt budget (budget.h's formula), or for 1 / sqrt as two correctly rounded
 * operations |RN(1/RN(sqrt k)) - k^(-1/2)| <= k^(-1/2) * 2u / (1 - u).  Where the
 * ordinary rule's interval stays above lo it is used unchanged.  The MPFR side is the
 * plain function (the floor only narrows the kernel's interval). */
static inline td_sh td_sh_ln_rsqrt_floor(td_shcx *cx, td_sh a, double lo, int two_ops) {
    uint32_t flags = cx->lane_flags;
    td_sh r = two_ops ? td_sh_div(cx, td_sh_exact(cx, 1.0), td_sh_sqrt(cx, a)) : td_sh_rsqrt(cx, a);
    double la = a.v - a.es;
    if (!(la - a.ek < lo) || !(lo > 0)) return r;
    const td_fn_budget *fs = &cx->math->fn[TD_FN_SQRT], *fd = &cx->math->fn[TD_FN_DIV], *fr = &cx->math->fn[TD_FN_RSQRT];
    if (two_ops && !(fs->correctly_rounded && fd->correctly_rounded)) return r; /* no floor rule for approximate ops */
    cx->lane_flags = flags; /* the ordinary rule's "unbounded" does not apply */
    double lk = fmax(lo, la - a.ek), lkp = fmax(lo, la - a.ep);
    double mk = td_up(1.0 / sqrt(lk)) * (1 + 0x1p-50), mkp = td_up(1.0 / sqrt(lkp)) * (1 + 0x1p-50);
    double P = fmin(td_up(a.ek / (2 * lk * sqrt(lk))), mk), Pp = fmin(td_up(a.ep / (2 * lkp * sqrt(lkp))), mkp);
    double loc;
    if (two_ops) loc = td_up(mk * 2 * cx->u / (1 - cx->u));
    else if (fr->correctly_rounded) loc = td_up(cx->u * mk + cx->eta);
    else {
        double ulp = 2 * cx->u * mk + cx->ulp_min, ax = fabs(a.v) + a.es + a.ek;
        loc = td_up(fr->ulps * ulp + fr->ulps_per_absx * ax * ulp + fr->rel * mk + fr->abs);
    }
    r.ek = td_up(P + loc);
    r.ep = fmin(r.ek, td_up(Pp + loc));
    r.fl = 0;
    TD_SH_TRACE(cx, "rsqrt floor", r, P, loc, 0, "kernel argument >= eps (a non-negative variance plus eps)");
    return r;
}
static inline td_mp td_mp_ln_rsqrt_floor(td_mpcx *cx, td_mp a, double lo, int two_ops) {
    (void)lo;
    return two_ops ? td_mp_div(cx, td_mp_exact(cx, 1.0), td_mp_sqrt(cx, a)) : td_mp_rsqrt(cx, a);
}

/* ---- the Inductor-generated kernels (fused_layernorm_triton, layer_norm_welfold) ----
 * Their contracts share two shapes:
 *   - the output summary: grid = xnumel programs (XBLOCK = 1, x0 = program_id(0)), one
 *     reduction block (hLe: rnumel <= RBLOCK), x row-major [xnumel, rnumel], w and b of
 *     rnumel, mean and rstd one cell per row, Y like x;
 *   - the normalize slice (Scalar2Tile3KernelIO): grid (rows, chunks), lane i of chunk
 *     p1 is column p1*RBLOCK + i (masked < rnumel), mean / rstd supplied per row.
 * The region and parameter indices differ between the files: this table maps them. */
typedef struct ln_ind_map {
    int p_xnumel, p_rnumel, p_xblock, p_rblock; /* p_xnumel, p_xblock < 0 for the normalize slice */
    int mean, rstd, x, w, b, y;
} ln_ind_map;

static inline void ln_ind_fill(td_producer *p, td_case *c, const ln_ind_map *m, uint64_t rows, uint64_t rnumel) {
    ln_rows g;
    ln_rows_init(&g, p, c, LN_XBOUND);
    ln_fill_menu(&g, c, m->x, LN_XBOUND);
    for (uint64_t r = 0; r < rows; r++) ln_fill_row(&g, c, m->x, r * rnumel, rnumel);
    ln_fill_menu(&g, c, m->w, LN_WBOUND);
    ln_fill_menu(&g, c, m->b, LN_WBOUND);
    if (c->k->regions[m->mean].role == TD_R_IN) {
        /* supplied statistics: the row's own (rounded), or free values */
        int consistent = td_prod_u32(p, 0, 3) != 0;
        ln_fill_menu(&g, c, m->mean, LN_XBOUND);
        for (size_t i = 0; i < c->r[m->rstd].len; i++)
            td_set(c, m->rstd, i, ln_round(TD_F32, fabs(td_vgen_value(&g.g, TD_F32)) + 0x1p-20, 0x1p20));
        for (uint64_t r = 0; r < rows && consistent; r++) {
            double mean, rstd;
            ln_ref_stats(c, m->x, r * rnumel, rnumel, 1e-5, &mean, &rstd);
            td_set(c, m->mean, r, ln_round(TD_F32, mean, LN_XBOUND));
            td_set(c, m->rstd, r, ln_round(TD_F32, rstd, 0x1p20));
        }
    }
}

/* the output summary's case */
static inline void ln_ind_gen_summary(td_producer *p, td_case *c, const ln_ind_map *m) {
    uint64_t RB = td_gen_pow2(p, 0, 10);
    uint64_t rnumel = td_gen_count(p, RB, RB, &c->classes);
    uint64_t rows = ln_gen_rows(p, RB, 8, 2048);
    c->p[m->p_xnumel].i = (int64_t)rows;
    c->p[m->p_rnumel].i = (int64_t)rnumel;
    c->p[m->p_xblock].i = 1;
    c->p[m->p_rblock].i = (int64_t)RB;
    c->grid[0] = (uint32_t)rows;
    if (rows > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    td_case_alloc(c, m->x, rows * rnumel + slack);
    td_case_alloc(c, m->y, rows * rnumel + slack);
    td_case_alloc(c, m->w, rnumel + slack);
    td_case_alloc(c, m->b, rnumel + slack);
    td_case_alloc(c, m->mean, rows + slack);
    td_case_alloc(c, m->rstd, rows + slack);
    ln_ind_fill(p, c, m, rows, rnumel);
}

static inline const char *ln_ind_check_summary(const td_case *c, const ln_ind_map *m) {
    int64_t xn = c->p[m->p_xnumel].i, rn = c->p[m->p_rnumel].i, xb = c->p[m->p_xblock].i, rb = c->p[m->p_rblock].i;
    if (rb <= 0) return "RBLOCK > 0 (a Triton constexpr block)";
    if (xb != 1) return "XBLOCK = 1 (both autotune configs; the slices take x0 = program_id(0))";
    if (rn <= 0) return "rnumel > 0 (the generator's domain: rnumel = 0 divides by zero)";
    if (rn > rb) return "hLe: rnumel <= RBLOCK";
    if (xn < 1 || c->grid[0] != (uint64_t)xn) return "the grid has xnumel programs (cdiv(xnumel, XBLOCK))";
    uint64_t rows = (uint64_t)xn, r = (uint64_t)rn;
    if (c->r[m->x].len < rows * r || c->r[m->y].len < rows * r) return "x and Y hold xnumel rows of rnumel";
    if (c->r[m->w].len < r || c->r[m->b].len < r) return "w and b hold rnumel values";
    if (c->r[m->mean].len < rows || c->r[m->rstd].len < rows) return "mean and rstd hold one cell per row";
    /* (a large case: its window rows; every other element reads 0) */
    for (uint64_t i = td_large_next(c, m->x, 0); i < c->r[m->x].len; i = td_large_next(c, m->x, i + 1))
        if (!(fabs(td_get(c, m->x, (size_t)i)) <= LN_XDOMAIN)) return "|x| <= 2^40 (finite sums of squares)";
    /* the hypotheses on distinct regions hold by construction */
    return NULL;
}

/* outputs: 0 mean, 1 rstd, 2 Y.  A large case: the rows of its windows; the others only
 * counted. */
static inline void ln_ind_writes_summary(const td_case *c, td_wset *ws, const ln_ind_map *m) {
    uint64_t rn = (uint64_t)c->p[m->p_rnumel].i, seen = 0;
    for (uint32_t pid = (uint32_t)td_large_row_next(c, 0); pid < c->grid[0];
         pid = (uint32_t)td_large_row_next(c, (uint64_t)pid + 1), seen++) {
        td_olane a = {.o = 0, .region = (uint32_t)m->mean, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_olane b = {.o = 1, .region = (uint32_t)m->rstd, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_wset_add(ws, &a);
        td_wset_add(ws, &b);
        for (uint64_t i = 0; i < rn; i++) {
            td_olane l = {.o = 2, .region = (uint32_t)m->y, .off = i + rn * pid, .pid = {pid, 0, 0}, .j = i,
                          .idx = {pid, (int64_t)i}};
            td_wset_add(ws, &l);
        }
    }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (rn + 2);
}

/* the normalize slice's case: several chunks per row, sometimes a surplus (fully masked) one */
static inline void ln_ind_gen_norm(td_producer *p, td_case *c, const ln_ind_map *m) {
    uint64_t RB = td_gen_pow2(p, 0, 9);
    uint64_t rnumel = td_gen_count(p, RB, 1024, &c->classes);
    uint64_t rows = ln_gen_rows(p, rnumel, 8, 2048);
    uint64_t chunks = (rnumel + RB - 1) / RB;
    if (td_prod_u32(p, 0, 7) == 0) chunks++, c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    c->p[m->p_rnumel].i = (int64_t)rnumel;
    c->p[m->p_rblock].i = (int64_t)RB;
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = (uint32_t)chunks;
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    td_case_alloc(c, m->x, rows * rnumel + slack);
    td_case_alloc(c, m->y, rows * rnumel + slack);
    td_case_alloc(c, m->w, rnumel + slack);
    td_case_alloc(c, m->b, rnumel + slack);
    td_case_alloc(c, m->mean, rows + slack);
    td_case_alloc(c, m->rstd, rows + slack);
    ln_ind_fill(p, c, m, rows, rnumel);
}

static inline const char *ln_ind_check_norm(const td_case *c, const ln_ind_map *m) {
    int64_t rn = c->p[m->p_rnumel].i, rb = c->p[m->p_rblock].i;
    if (rb <= 0) return "RBLOCK > 0 (a Triton constexpr block)";
    if (rn < 0) return "rnumel : Nat";
    uint64_t rows = c->grid[0], r = (uint64_t)rn;
    if (rows < 1 || c->grid[1] < 1) return "a (rows, chunks) grid";
    if (c->r[m->x].len < rows * r || c->r[m->y].len < rows * r) return "x and out hold the rows read and written";
    if (c->r[m->w].len < r || c->r[m->b].len < r) return "w and b hold rnumel values";
    if (c->r[m->mean].len < rows || c->r[m->rstd].len < rows) return "the scalar buffers hold swin(p0) = p0";
    for (int reg = 0; reg < c->k->nregions; reg++) /* (a large region: its window rows, the rest reads 0) */
        if (c->k->regions[reg].role == TD_R_IN)
            for (uint64_t i = td_large_next(c, reg, 0); i < c->r[reg].len; i = td_large_next(c, reg, i + 1))
                if (!(fabs(td_get(c, reg, (size_t)i)) <= LN_XDOMAIN)) return "inputs finite with |v| <= 2^40";
    return NULL;
}

static inline void ln_ind_writes_norm(const td_case *c, td_wset *ws, const ln_ind_map *m) {
    uint64_t rn = (uint64_t)c->p[m->p_rnumel].i, RB = (uint64_t)c->p[m->p_rblock].i, seen = 0;
    for (uint32_t p0 = (uint32_t)td_large_row_next(c, 0); p0 < c->grid[0];
         p0 = (uint32_t)td_large_row_next(c, (uint64_t)p0 + 1), seen++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint64_t i = 0; i < RB; i++) {
                uint64_t col = p1 * RB + i;
                if (!(col < rn)) break; /* mask: p1*RBLOCK + i < rnumel */
                td_olane l = {.o = 0, .region = (uint32_t)m->y, .off = col + rn * p0, .pid = {p0, p1, 0}, .j = i,
                              .idx = {p0, (int64_t)col}};
                td_wset_add(ws, &l);
            }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * rn;
}

/* Region reg lengthened to n elements, the new ones zero (w and b of a widened row).
 * 0, or -1 with the region unchanged. */
static inline int ln_ind_widen(td_case *c, int reg, uint64_t n) {
    td_region old = c->r[reg];
    if (old.len >= n) return 0;
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    if (!td_case_alloc(c, reg, n)) {
        c->r[reg] = old;
        return -1;
    }
    memcpy(c->r[reg].data, old.data, old.len * td_fmt_get(old.fmt)->bytes);
    td_region_release(&old);
    return 0;
}

/* The large tier (gen_large.h, td_rows_large) of both shapes: more than 2^31 / rnumel
 * rows, so r1 + rnumel * x0 passes 2^31 (x0 an int32 program id, xnumel and rnumel
 * unannotated ints: nothing bounds xnumel * rnumel; Lean's are Nat).  Row-block x0 is
 * rnumel of x and Y and one cell of mean and rstd; w and b are shared.  A row of fewer
 * than TD_ROWS_LARGE_MIN_LEN columns is widened to that many (x's and w, b's new
 * columns zero; the summary's RBLOCK grows to keep hLe, the slice's chunks to cover
 * the row, keeping a surplus chunk).  The slice's supplied statistics repeat the drawn
 * rows' (free values where the row was widened: the generator draws such too). */
static inline void ln_ind_large(td_producer *p, td_case *c, const ln_ind_map *m) {
    int summary = m->p_xnumel >= 0, in = c->k->regions[m->mean].role == TD_R_IN;
    uint64_t rn0 = (uint64_t)c->p[m->p_rnumel].i, RB = (uint64_t)c->p[m->p_rblock].i, rn = rn0;
    if (rn < TD_ROWS_LARGE_MIN_LEN) rn = TD_ROWS_LARGE_MIN_LEN;
    if (summary && RB < rn) RB = rn; /* (a power of two: rn is 64 here, or RB was >= rn0) */
    if (ln_ind_widen(c, m->w, rn) != 0 || ln_ind_widen(c, m->b, rn) != 0) return;
    td_rows_region rr[4] = {{m->x, rn, rn0}, {m->y, rn, 0}, {m->mean, 1, in ? 1 : 0}, {m->rstd, 1, in ? 1 : 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, 4, &R) != 0) return;
    c->p[m->p_rnumel].i = (int64_t)rn;
    c->p[m->p_rblock].i = (int64_t)RB;
    if (summary) c->p[m->p_xnumel].i = (int64_t)R;
    else c->grid[1] = (uint32_t)((rn + RB - 1) / RB + (c->grid[1] > (rn0 + RB - 1) / RB));
    c->grid[0] = (uint32_t)R;
    if (rn != rn0) c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_BLOCK_GT_N));
}
#endif
