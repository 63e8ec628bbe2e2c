/* Helpers shared by the RMS-norm and L2-norm contracts (rmsnorm_triton,
 * rmsnorm_implementation, rmsnorm_fused, rmsnorm_fused_llama, rms_norm_triton,
 * fast_rms_layernorm, l2_norm_triton1, l2_norm_triton2, l2_norm_bwd).
 *
 * A contract file includes this header at its top (generator helpers, layouts,
 * checkers and write sets, rn_*); its spec file includes rmsnorm_common.spec.h (the
 * NUM-generic spec helpers, compiled once per number type like its own spec).
 *
 * The sum of squares (and the backward's sum of products dy*x), as every kernel of the
 * family evaluates it (SPEC(rn_sumprod)):
 *   - a BLOCK-lane binary32 accumulator tile starts at 0.0 (tl.zeros) or is the
 *     product tile itself (one-tile kernels: tl.sum(x * x));
 *   - lane j adds the product of column t*BLOCK + j at loop step t: a sequential fold
 *     of ceil((n - j) / BLOCK) correctly rounded products; its first addition is to
 *     an exact 0.0, so a lane of T terms rounds T - 1 times (TD_ORDER_SEQ).  Masked
 *     steps add an exact 0 (other=0.0) and round nothing;
 *   - tl.sum reduces the BLOCK lanes by its pairwise tree.  The lanes that ever held a
 *     column are the prefix j < min(n, BLOCK); the others are exact zeros, and adding
 *     an exact zero does not round, so a lane's partial sum meets ceil(log2 min(n, B))
 *     roundings: TD_ORDER_TREE over the non-empty lanes is the kernel's tree (lane 0's
 *     ancestor at height h adds a non-empty right half iff 2^(h-1) < min(n, B)).
 * The products are x*x (or pow(x, 2): libdevice's __nv_powif(x, 2) is repeated
 * squaring, 1.0f * (x*x) in its PTX: the correctly rounded square) and dy*x, each
 * one binary32 rounding of exact operands: the shadow knows each product's rounding
 * error exactly, and the accumulation adds gamma_k(u) * sum|terms| with k the longest
 * chain above (Higham, ASNA 4.2 / 4.3 for pairwise summation).  The squares are
 * positive, so sum|terms| is the sum itself: the bound is relative, ~ (T - 1 +
 * ceil(log2 min(n, B))) u of the sum; the dot product of the backward may cancel and
 * keeps the absolute form.
 *
 * Per-row quantities (the sum, rstd, the backward's dot product and 1/(var+eps)) are
 * memoised in the shadow, keyed by rn_key(tag, row); the MPFR pass recomputes them
 * (its sums are mpfr_sum, correctly rounded).
 */
#ifndef TD_RMSNORM_COMMON_H
#define TD_RMSNORM_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"
#include "gen_far.h"
#include "spec.h"

/* memo key of a per-row quantity: tag (what), row (linear program index) */
static inline uint64_t rn_key(unsigned tag, uint64_t row) { return ((uint64_t)tag << 56) ^ row; }
enum { RN_TAG_RSTD = 1, RN_TAG_SUM, RN_TAG_DOT };

/* The value domains.  Forward kernels: |x|, |w| <= 2^40 in binary32, so that a row of
 * at most 2048 squares sums below 2^91 and no intermediate overflows (the spec is over
 * the reals; a binary32 sum of squares overflows for |x| > 2^63.9, where a kernel's
 * rstd becomes 0: a limitation of every kernel of the family, outside the domain).
 * The L2 backward: |x|, |dy| <= 2^24 with eps >= 2^-40 keeps
 * ((sum dy*x) * 1/(var+eps)) * rstd <= |dy|_2 / (var + eps) finite (Cauchy-Schwarz). */
#define RN_BOUND_F32 0x1p40
#define RN_BOUND_BWD 0x1p24
#define RN_EPS_MIN_BWD 0x1p-40

static inline double rn_bound(td_fmt f, double b32) {
    if (f == TD_F16) return 65504.0;
    return b32;
}

/* v made a value of format f with |v| <= bound (truncated towards zero) */
static inline double rn_fmt(td_fmt f, double v, double bound) {
    if (!isfinite(v)) v = 0;
    if (v > bound) v = bound;
    if (v < -bound) v = -bound;
    td_profile pr = {f, TD_RTZ, TD_OVF_SAT, false};
    return td_decode(f, td_encode_f64(pr, v));
}

/* eps, a binary32 kernel scalar > 0, with both ends of its range:
 *   the usual 1e-6 / 1e-5, log-uniform in [2^-40, 1], the low end lo (2^-149, the
 *   smallest positive binary32, for the forward kernels; 2^-40 for the L2 backward),
 *   or large (1 .. 2^13: eps dominating the mean square). */
static inline double rn_gen_eps(td_producer *p, double lo) {
    static const unsigned w[] = {3, 3, 3, 2, 2};
    switch (td_prod_pick(p, w, 5)) {
    case 0: return (double)1e-6f;
    case 1: return (double)1e-5f;
    case 2: {
        double e = -40.0 * (double)td_prod_u32(p, 0, 1u << 16) / 65536.0;
        double v = (double)(float)exp2(e);
        return v < lo ? lo : v;
    }
    case 3: return td_prod_bool(p) ? lo : (double)(float)(lo * (1 + td_prod_u32(p, 1, 1000)));
    default: { /* mantissa, then exponent: sequenced */
        double m = 1.0 + (double)td_prod_u32(p, 0, 1023) / 1024.0;
        return (double)(float)ldexp(m, (int)td_prod_u32(p, 0, 12));
    }
    }
}

/* The row patterns, chosen per row by the case's value generator (no producer bytes),
 * for the n elements at off0 + k*step of region reg (values of its format, |x| <= bound):
 *   menu      the value menu as drawn (wide exponents, ties, subnormals, large ...);
 *   equal     an all-equal row (x / rms(x) = sign(x) up to eps);
 *   dominant  one element 10^2 .. 10^6 above the others (its output ~ sqrt(n));
 *   zero      an all-zero row (rstd = 1/sqrt(eps): the only place eps is all there is);
 *   eps       values ~ sqrt(eps): mean square comparable to eps (where eps is added
 *             matters: eps outside the sqrt, rsqrt without eps).
 * Returns the pattern. */
enum { RN_ROW_MENU, RN_ROW_EQUAL, RN_ROW_DOMINANT, RN_ROW_ZERO, RN_ROW_EPS, RN_ROW_COUNT };
static inline int rn_fill_row(td_vgen *g, td_case *c, int reg, uint64_t off0, int64_t step, int64_t n, double eps,
                              double bound) {
    td_rng *r = &g->rng;
    td_fmt f = c->r[reg].fmt;
    int pat = (int)td_rng_below(r, RN_ROW_COUNT + 3); /* the menu 4 times as often */
    if (pat >= RN_ROW_COUNT) pat = RN_ROW_MENU;
    double same = td_vgen_value(g, f);
    double scale = ldexp(1.0, (int)td_rng_below(r, 21) - 10);
    static const double big[] = {1e2, 1e4, 1e6};
    double dom = big[td_rng_below(r, 3)];
    int64_t kd = (int64_t)td_rng_below(r, (uint64_t)(n > 0 ? n : 1));
    double se = sqrt(eps);
    if (pat == RN_ROW_MENU) { /* in bulk: the same draws as one value at a time */
        double m[256];
        for (int64_t k0 = 0; k0 < n; k0 += 256) {
            size_t cnt = (size_t)(n - k0 < 256 ? n - k0 : 256);
            td_vgen_values(g, f, m, cnt);
            for (size_t i = 0; i < cnt; i++)
                td_set(c, reg, (size_t)((int64_t)off0 + (k0 + (int64_t)i) * step), rn_fmt(f, m[i], bound));
        }
    }
    for (int64_t k = 0; k < n && pat != RN_ROW_MENU; k++) {
        double v;
        switch (pat) {
        case RN_ROW_EQUAL: v = same; break;
        case RN_ROW_DOMINANT: v = scale * (2 * td_rng_unit(r) - 1) * (k == kd ? dom : 1.0); break;
        case RN_ROW_ZERO: v = (td_rng_next(r) & 1) ? -0.0 : 0.0; break;
        case RN_ROW_EPS: v = se * (4 * td_rng_unit(r) - 2); break;
        default: v = td_vgen_value(g, f); break;
        }
        td_set(c, reg, (size_t)((int64_t)off0 + k * step), rn_fmt(f, v, bound));
    }
    if (pat == RN_ROW_ZERO || pat == RN_ROW_EPS || pat == RN_ROW_EQUAL) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    if (pat == RN_ROW_DOMINANT) c->classes |= TD_BC(TD_BC_VALUES_LARGE);
    return pat;
}

/* Weights: the menu, all ones (the modules' initial weight), or one constant. */
static inline void rn_fill_weights(td_vgen *g, td_case *c, int reg, double bound) {
    td_rng *r = &g->rng;
    td_fmt f = c->r[reg].fmt;
    int mode = (int)td_rng_below(r, 4);
    double same = td_vgen_value(g, f);
    for (size_t e = 0; e < c->r[reg].len; e++) {
        double v = mode == 1 ? 1.0 : mode == 2 ? same : td_vgen_value(g, f);
        td_set(c, reg, e, rn_fmt(f, v, bound));
    }
}

/* The column count n of a row for block B: td_gen_count0's boundary sizes (1, kB - 1,
 * kB, kB + 1, B >= 4n, B, free), 0 when allow_zero, at most max_n, and at most B when
 * !allow_over (one tile: hNle).  Shape classes are marked by rn_mark_shape. */
static inline int64_t rn_gen_cols(td_producer *p, int64_t B, int64_t max_n, int allow_zero, int allow_over) {
    uint64_t scratch = 0;
    int64_t cap = (!allow_over && B < max_n) ? B : max_n;
    int64_t n = (int64_t)td_gen_count0(p, (uint64_t)B, (uint64_t)cap, &scratch, allow_zero);
    return n > cap ? cap : n;
}

/* Boundary classes of a row-per-program launch: n columns, block B, `programs` in the
 * grid, `lanes` active output lanes in total; streamed: the kernel loops over column
 * blocks (MULTI_TILE when n > B), else one tile (n > B: the tile covers a prefix). */
static inline void rn_mark_shape(td_case *c, int64_t n, int64_t B, uint64_t programs, uint64_t lanes, int streamed) {
    if (lanes == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (programs == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (n == 0) {
        c->classes |= TD_BC(TD_BC_FULLY_MASKED);
        return;
    }
    int64_t rem = n % B;
    if (rem == 0) c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
    else {
        c->classes |= TD_BC(TD_BC_TAIL);
        if (rem == B - 1) c->classes |= TD_BC(TD_BC_TAIL_BELOW);
        if (rem == 1 && n > 1) c->classes |= TD_BC(TD_BC_TAIL_ABOVE);
    }
    if (B >= 4 * n) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
    if (streamed && n > B) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}

static inline const char *rn_real_param_check(const td_case *c, int k, double lo) {
    double x = c->p[k].r;
    if ((double)(float)x != x || !isfinite(x)) return "eps is a binary32 kernel scalar";
    if (!(x >= lo))
        return "eps > 0 (the tested domain: at eps <= 0 a zero row gives 1/sqrt(0) = inf and 0 * inf = NaN in "
               "binary32, Lean's 0 * (sqrt 0)^-1 = 0)";
    return NULL;
}

/* every element of a region finite and |v| <= bound */
typedef struct rn_vcheck {
    const td_case *c;
    int reg;
    double bound;
    int bad;
} rn_vcheck;
/* the elements in bytes [lo, hi) of the region */
static inline void rn_values_span(void *u, size_t lo, size_t hi) {
    rn_vcheck *q = u;
    unsigned eb = td_fmt_get(q->c->r[q->reg].fmt)->bytes;
    for (size_t e = lo / eb; e < hi / eb && e < q->c->r[q->reg].len && !q->bad; e++) {
        double v = td_get(q->c, q->reg, e);
        q->bad = !isfinite(v) || fabs(v) > q->bound;
    }
}
/* Of a sparse region (offsets beyond 2^31) only the pages written can hold anything
 * but zeros, which are in the domain. */
static inline const char *rn_values_check(const td_case *c, int reg, double bound) {
    rn_vcheck q = {c, reg, bound, 0};
    size_t bytes = c->r[reg].len * td_fmt_get(c->r[reg].fmt)->bytes;
    if (c->r[reg].mapped) td_touched_pages(c->r[reg].data, bytes, rn_values_span, &q);
    else rn_values_span(&q, 0, bytes);
    return q.bad ? "inputs finite within the domain bound (no binary32 overflow)" : NULL;
}

/* the largest offset o0 + sum_i (ext_i - 1) * st_i, +1 (0 when an extent is 0) */
static inline size_t rn_extent(uint64_t o0, int nd, const int64_t *ext, const int64_t *st) {
    uint64_t m = o0;
    for (int i = 0; i < nd; i++) {
        if (ext[i] <= 0) return 0;
        m += (uint64_t)(ext[i] - 1) * (uint64_t)st[i];
    }
    return (size_t)m + 1;
}

/* The map (i_0, ..., i_{nd-1}) -> sum i_k st_k over the box ext is injective when, with
 * the axes of extent > 1 ordered by stride, each stride exceeds the largest offset the
 * smaller ones reach (a mixed-radix layout: row-major, padded, transposed).  The
 * generators build only such layouts; the checker verifies it. */
static inline int rn_injective(int nd, const int64_t *ext, const int64_t *st) {
    int idx[4], m = 0;
    for (int i = 0; i < nd; i++) {
        if (ext[i] <= 0) return 1; /* an empty box: nothing written */
        if (ext[i] > 1) idx[m++] = i;
    }
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && st[idx[b]] < st[idx[b - 1]]; b--) {
            int t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    int64_t reach = 0;
    for (int a = 0; a < m; a++) {
        if (st[idx[a]] <= reach) return 0;
        reach += (ext[idx[a]] - 1) * st[idx[a]];
    }
    return 1;
}

/* Strides (st[0], st[1], st[2]) for a [e0, e1, e2] box (e2 the columns), one of the
 * layouts a tensor view has: row-major, padded rows (STRIDE_GT_ROW), every other
 * column, column-major (transposed), and for inputs (allow_bcast) broadcast axes
 * (stride 0: every program reads the same row, or every column the same element). */
static inline void rn_gen_layout3(td_producer *p, const int64_t *e, int64_t *st, int allow_bcast, uint64_t *classes) {
    switch (td_prod_u32(p, 0, allow_bcast ? 6 : 4)) {
    case 0:
    case 1:
        st[2] = 1, st[1] = e[2], st[0] = e[1] * e[2];
        break;
    case 2:
        st[2] = 1, st[1] = e[2] + (int64_t)td_prod_u32(p, 1, 7), st[0] = e[1] * st[1] + (int64_t)td_prod_u32(p, 0, 5);
        *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
        break;
    case 3:
        st[2] = 2, st[1] = 2 * e[2] + 1, st[0] = e[1] * st[1];
        *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
        break;
    case 4:
        st[0] = 1, st[1] = e[0], st[2] = e[0] * e[1];
        break;
    case 5:
        st[2] = 1, st[1] = e[2], st[0] = 0; /* every batch reads the same rows */
        break;
    default:
        st[2] = 0, st[1] = 1, st[0] = e[1]; /* a row is one element repeated: an all-equal row */
        break;
    }
}

/* ---- the streamed 2-D-grid kernels (rmsnorm_triton, rmsnorm_implementation) ----
 * Grid (batch, M); program (p0, p1) normalises the row at p0*sxb + p1*sxm, columns
 * k < N at k*sxk, weights at k*srw, output at p0*sob + p1*som + k*sok, in
 * cdiv(N, B) column blocks, two passes (sum of squares, then normalise and store). */
typedef struct rn_stream_layout {
    int p_sxb, p_sxm, p_sxk, p_srw, p_sob, p_som, p_sok, p_n, p_block, p_eps;
    int r_x, r_w, r_o;
    int min_n; /* 1 for hNpos (the summary of rmsnorm_triton), else 0 */
} rn_stream_layout;

static inline void rn_stream_gen(td_producer *p, td_case *c, const rn_stream_layout *y) {
    int64_t B = td_gen_pow2(p, 0, td_prod_bool(p) ? 10 : 6);
    int64_t N = rn_gen_cols(p, B, 1024, y->min_n == 0, 1);
    int64_t batch = td_prod_u32(p, 1, 3), M = td_prod_u32(p, 1, 4);
    while (batch * M > 1 && batch * M * N > 2048) {
        if (M > 1) M--;
        else batch--;
    }
    c->p[y->p_n].i = N;
    c->p[y->p_block].i = B;
    c->p[y->p_eps].r = rn_gen_eps(p, 0x1p-149);
    c->grid[0] = (uint32_t)batch;
    c->grid[1] = (uint32_t)M;
    c->grid[2] = 1;
    int64_t e[3] = {batch, M, N}, sx[3], so[3];
    rn_gen_layout3(p, e, sx, 1, &c->classes);
    rn_gen_layout3(p, e, so, 0, &c->classes);
    int64_t srw = (int64_t)td_prod_u32(p, 0, 5);
    srw = srw >= 3 ? 1 : srw == 0 ? 0 : srw; /* 1 (three times in five), 2, or 0 (one weight for all) */
    c->p[y->p_sxb].i = sx[0], c->p[y->p_sxm].i = sx[1], c->p[y->p_sxk].i = sx[2];
    c->p[y->p_sob].i = so[0], c->p[y->p_som].i = so[1], c->p[y->p_sok].i = so[2];
    c->p[y->p_srw].i = srw;
    size_t slack = td_prod_bool(p) ? (size_t)td_prod_u32(p, 1, 8) : 0;
    size_t nx = rn_extent(0, 3, e, sx), nw = rn_extent(0, 1, &N, &srw), no = rn_extent(0, 3, e, so);
    td_case_alloc(c, y->r_x, (nx ? nx : 1) + slack);
    td_case_alloc(c, y->r_w, (nw ? nw : 1) + slack);
    td_case_alloc(c, y->r_o, (no ? no : 1) + slack);
    td_fmt fx = c->r[y->r_x].fmt;
    double bound = rn_bound(fx, RN_BOUND_F32), eps = c->p[y->p_eps].r;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, bound);
    td_vgen_fill(&g, c, y->r_x);
    for (int64_t b = 0; b < batch; b++)
        for (int64_t m = 0; m < M; m++)
            rn_fill_row(&g, c, y->r_x, (uint64_t)(b * sx[0] + m * sx[1]), sx[2], N, eps, bound);
    rn_fill_weights(&g, c, y->r_w, bound);
    rn_mark_shape(c, N, B, (uint64_t)(batch * M), (uint64_t)(batch * M * N), 1);
}

static inline const char *rn_stream_check(const td_case *c, const rn_stream_layout *y) {
    int64_t B = c->p[y->p_block].i, N = c->p[y->p_n].i;
    if (B <= 0) return "hB: 0 < B (BLOCK_N_SIZE)";
    if (y->min_n && N < 1) return "hNpos: 0 < N";
    if (N < 0 || N > (1 << 24)) return "N : Nat, N <= 2^24 (the kernel divides by N converted to binary32)";
    if (c->p[y->p_sok].i <= 0) return "hsok: 0 < stride_out_k";
    const char *e = rn_real_param_check(c, y->p_eps, 0x1p-149);
    if (e) return e;
    for (int k = y->p_sxb; k <= y->p_sok; k++)
        if (c->p[k].i < 0) return "strides : Nat";
    if (c->grid[2] != 1 || c->grid[0] < 1 || c->grid[1] < 1) return "grid = (batch, M)";
    int64_t ext[3] = {c->grid[0], c->grid[1], N};
    int64_t sx[3] = {c->p[y->p_sxb].i, c->p[y->p_sxm].i, c->p[y->p_sxk].i};
    int64_t so[3] = {c->p[y->p_sob].i, c->p[y->p_som].i, c->p[y->p_sok].i};
    int64_t srw = c->p[y->p_srw].i;
    if (c->r[y->r_x].len < rn_extent(0, 3, ext, sx) || c->r[y->r_w].len < rn_extent(0, 1, &N, &srw) ||
        c->r[y->r_o].len < rn_extent(0, 3, ext, so))
        return "x, w and out hold every cell the grid reads and writes";
    if (!rn_injective(3, ext, so))
        return "the output cells of different programs are distinct (outOff injective over the grid; hox, how: "
               "distinct regions by construction)";
    const char *v;
    if ((v = rn_values_check(c, y->r_x, rn_bound(c->r[y->r_x].fmt, RN_BOUND_F32))) ||
        (v = rn_values_check(c, y->r_w, rn_bound(c->r[y->r_w].fmt, RN_BOUND_F32))))
        return v;
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS batches of x at a batch stride
 * near 2^31 over a sparse region, as a kernel forming pid_batch * stride_x_batch in
 * int32 gets wrong (td_far_grid2: a case of one batch and M rows becomes M batches). */
static inline void rn_stream_far(td_producer *p, td_case *c, const rn_stream_layout *y) {
    int64_t N = c->p[y->p_n].i;
    if (N > 0) td_far_grid2(p, c, y->r_x, y->p_sxb, y->p_sxm, y->p_sob, y->p_som, (N - 1) * c->p[y->p_sxk].i + 1);
}

static inline void rn_stream_writes(const td_case *c, td_wset *ws, const rn_stream_layout *y) {
    int64_t N = c->p[y->p_n].i, B = c->p[y->p_block].i;
    int64_t sob = c->p[y->p_sob].i, som = c->p[y->p_som].i, sok = c->p[y->p_sok].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t k = 0; k < N; k++) { /* writeMask: t*B + j < N */
                td_olane l = {.o = 0,
                              .region = (uint32_t)y->r_o,
                              .off = (uint64_t)(p0 * sob + p1 * som + k * sok),
                              .pid = {p0, p1, 0},
                              .t = (uint32_t)(k / B),
                              .j = (uint64_t)(k % B),
                              .idx = {p0, p1, k}};
                td_wset_add(ws, &l);
            }
}

/* ---- one row per program, one tile (rmsnorm_fused[_llama], rms_norm_triton,
 * fast_rms_layernorm, the L2 norms) ----
 * Row strides: the output rows of different programs must not overlap (the theorems
 * are per program; the harness checks the whole grid), so an output row stride is at
 * least the row's written extent when there are several rows. */
static inline int64_t rn_gen_rows(td_producer *p, int64_t width) {
    int64_t cap = width > 0 ? 2048 / width : 16;
    if (cap < 1) cap = 1;
    if (cap > 16) cap = 16;
    return (int64_t)td_prod_u32(p, 1, (uint32_t)cap);
}

/* a row stride >= width (dense, or padded: STRIDE_GT_ROW) */
static inline int64_t rn_gen_row_stride(td_producer *p, int64_t width, uint64_t *classes) {
    switch (td_prod_u32(p, 0, 4)) {
    case 0:
    case 1:
    case 2: return width;
    case 3: *classes |= TD_BC(TD_BC_STRIDE_GT_ROW); return width + 1;
    default: *classes |= TD_BC(TD_BC_STRIDE_GT_ROW); return width + (int64_t)td_prod_u32(p, 2, 40);
    }
}

/* ---- rmsnorm_fused / rmsnorm_fused_llama (one tile: 0 < N <= BLOCK_SIZE) ----
 * Grid (M,); program `row` reads X and writes Y at row * stride + i (one stride for
 * both), weights W[i]. */
typedef struct rn_fused_layout {
    int p_stride, p_n, p_block, p_eps;
    int r_x, r_y, r_w;
    int max_log2_block; /* 13; the Llama wrapper launches BLOCK_SIZE = 16384 (2^14) */
} rn_fused_layout;

static inline void rn_fused_gen(td_producer *p, td_case *c, const rn_fused_layout *y) {
    int64_t B = td_gen_pow2(p, 0, y->max_log2_block);
    int64_t N = rn_gen_cols(p, B, B < 2048 ? B : 2048, 0, 0);
    int64_t rows = rn_gen_rows(p, N);
    int64_t stride = rn_gen_row_stride(p, N, &c->classes);
    c->p[y->p_stride].i = stride;
    c->p[y->p_n].i = N;
    c->p[y->p_block].i = B;
    c->p[y->p_eps].r = rn_gen_eps(p, 0x1p-149);
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = c->grid[2] = 1;
    size_t slack = td_prod_bool(p) ? (size_t)td_prod_u32(p, 1, 8) : 0;
    size_t len = (size_t)((rows - 1) * stride + N) + slack;
    td_case_alloc(c, y->r_x, len);
    td_case_alloc(c, y->r_y, len);
    td_case_alloc(c, y->r_w, (size_t)N + slack);
    double bound = rn_bound(c->r[y->r_x].fmt, RN_BOUND_F32), eps = c->p[y->p_eps].r;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, bound);
    td_vgen_fill(&g, c, y->r_x);
    for (int64_t r = 0; r < rows; r++) rn_fill_row(&g, c, y->r_x, (uint64_t)(r * stride), 1, N, eps, bound);
    rn_fill_weights(&g, c, y->r_w, bound);
    rn_mark_shape(c, N, B, (uint64_t)rows, (uint64_t)(rows * N), 0);
}

static inline const char *rn_fused_check(const td_case *c, const rn_fused_layout *y) {
    int64_t B = c->p[y->p_block].i, N = c->p[y->p_n].i, stride = c->p[y->p_stride].i, rows = c->grid[0];
    if (B <= 0) return "BLOCK_SIZE > 0 (tl.arange)";
    if (N < 1) return "hNpos: 0 < N";
    if (N > B) return "hNle: N <= BLOCK_SIZE";
    const char *e = rn_real_param_check(c, y->p_eps, 0x1p-149);
    if (e) return e;
    if (rows < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (M,)";
    if (stride < 0 || (rows > 1 && stride < N))
        return "the rows pid * stride + [0, N) of Y do not overlap (hOutInj per program; the grid's rows apart)";
    size_t len = (size_t)((rows - 1) * stride + N);
    if (c->r[y->r_x].len < len || c->r[y->r_y].len < len || c->r[y->r_w].len < (size_t)N)
        return "X and Y hold every row, W holds N weights";
    const char *v;
    if ((v = rn_values_check(c, y->r_x, rn_bound(c->r[y->r_x].fmt, RN_BOUND_F32))) ||
        (v = rn_values_check(c, y->r_w, rn_bound(c->r[y->r_w].fmt, RN_BOUND_F32))))
        return v;
    return NULL;
}

static inline void rn_fused_writes(const td_case *c, td_wset *ws, const rn_fused_layout *y) {
    int64_t N = c->p[y->p_n].i, stride = c->p[y->p_stride].i;
    for (uint32_t row = 0; row < c->grid[0]; row++)
        for (int64_t i = 0; i < N; i++) { /* writeIf i < N at yOffset s stride i */
            td_olane l = {.o = 0,
                          .region = (uint32_t)y->r_y,
                          .off = (uint64_t)(row * stride + i),
                          .pid = {row, 0, 0},
                          .j = (uint64_t)i,
                          .idx = {row, i}};
            td_wset_add(ws, &l);
        }
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows at a stride near 2^31, as
 * a kernel forming row * stride in int32 gets wrong; X and Y share the stride, so both
 * move (Y as a sparse output), W stays. */
static inline void rn_fused_far(td_producer *p, td_case *c, const rn_fused_layout *y) {
    int regs[2] = {y->r_x, y->r_y};
    td_far_rows(p, c, regs, 2, y->p_stride, c->p[y->p_n].i);
}

#define RN_CLASSES_ONE_TILE                                                                                     \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | \
     TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) |     \
     TD_BC(TD_BC_VALUES_LARGE))

/* ---- the L2 norms (l2_norm_triton1, l2_norm_triton2, l2_norm_bwd): one tile ----
 * Grid (M,); program `row` reads X (and DY) and writes Y (or DX) at row * stride_x_row
 * + j for the lanes j < BLOCK_N with j < N. */
typedef struct rn_l2_layout {
    int p_stride, p_n, p_block, p_eps;
    int r_x, r_dy, r_out; /* r_dy: -1 for the forward */
} rn_l2_layout;

static inline int64_t rn_l2_cols(const td_case *c, const rn_l2_layout *y) {
    int64_t N = c->p[y->p_n].i, B = c->p[y->p_block].i;
    return N < B ? N : B;
}

static inline void rn_l2_gen(td_producer *p, td_case *c, const rn_l2_layout *y) {
    int bwd = y->r_dy >= 0;
    int64_t B = td_gen_pow2(p, 0, 12);
    int over = td_prod_u32(p, 0, 5) == 0; /* N > BLOCK_N: the tile covers a prefix */
    int64_t N = rn_gen_cols(p, B, 2048, 1, over);
    int64_t L = N < B ? N : B;
    int64_t rows = rn_gen_rows(p, L);
    int64_t stride = rn_gen_row_stride(p, L, &c->classes);
    c->p[y->p_stride].i = stride;
    c->p[y->p_n].i = N;
    c->p[y->p_block].i = B;
    c->p[y->p_eps].r = rn_gen_eps(p, bwd ? RN_EPS_MIN_BWD : 0x1p-149);
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = c->grid[2] = 1;
    size_t slack = td_prod_bool(p) ? (size_t)td_prod_u32(p, 1, 8) : 0;
    size_t len = (size_t)((rows - 1) * stride + L) + slack;
    if (len == 0) len = 1;
    td_case_alloc(c, y->r_x, len);
    td_case_alloc(c, y->r_out, len);
    if (bwd) td_case_alloc(c, y->r_dy, len);
    double bound = bwd ? RN_BOUND_BWD : RN_BOUND_F32, eps = c->p[y->p_eps].r;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, bound);
    td_vgen_fill(&g, c, y->r_x);
    for (int64_t r = 0; r < rows; r++) rn_fill_row(&g, c, y->r_x, (uint64_t)(r * stride), 1, L, eps, bound);
    if (bwd) {
        /* dy: the menu, or per row a multiple 2^k * x of the row (dy parallel to x: the
         * two terms of dx cancel to ~ eps / (var + eps)), or another pattern */
        td_vgen_fill(&g, c, y->r_dy);
        for (int64_t r = 0; r < rows; r++) {
            uint64_t o = (uint64_t)(r * stride);
            if (td_rng_below(&g.rng, 3) == 0) {
                double k = ldexp(1.0, (int)td_rng_below(&g.rng, 9) - 4); /* then the sign: sequenced */
                k *= (td_rng_next(&g.rng) & 1) ? -1 : 1;
                for (int64_t j = 0; j < L; j++)
                    td_set(c, y->r_dy, o + (uint64_t)j, rn_fmt(TD_F32, k * td_get(c, y->r_x, o + (uint64_t)j), bound));
            } else
                rn_fill_row(&g, c, y->r_dy, o, 1, L, eps, bound);
        }
    }
    rn_mark_shape(c, N, B, (uint64_t)rows, (uint64_t)(rows * L), 0);
}

static inline const char *rn_l2_check(const td_case *c, const rn_l2_layout *y) {
    int bwd = y->r_dy >= 0;
    int64_t B = c->p[y->p_block].i, N = c->p[y->p_n].i, stride = c->p[y->p_stride].i, rows = c->grid[0];
    int64_t L = rn_l2_cols(c, y);
    if (B <= 0) return "BLOCK_N > 0 (tl.arange)";
    if (N < 0) return "N : Nat";
    const char *e = rn_real_param_check(c, y->p_eps, bwd ? RN_EPS_MIN_BWD : 0x1p-149);
    if (e) return bwd ? "eps >= 2^-40 (the tested domain: 1 / (var + eps) finite for a zero row, no overflow in "
                        "((sum dy*x) / (var + eps)) * rstd)"
                      : e;
    if (rows < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (M,)";
    if (stride < 0 || (rows > 1 && stride < L)) return "the output rows of different programs do not overlap";
    size_t len = (size_t)((rows - 1) * stride + L);
    if (c->r[y->r_x].len < len || c->r[y->r_out].len < len || (bwd && c->r[y->r_dy].len < len))
        return "the regions hold every row (one stride_x_row for all)";
    double bound = bwd ? RN_BOUND_BWD : RN_BOUND_F32;
    const char *v;
    if ((v = rn_values_check(c, y->r_x, bound)) || (bwd && (v = rn_values_check(c, y->r_dy, bound)))) return v;
    return NULL;
}

static inline void rn_l2_writes(const td_case *c, td_wset *ws, const rn_l2_layout *y) {
    int64_t L = rn_l2_cols(c, y), stride = c->p[y->p_stride].i;
    for (uint32_t row = 0; row < c->grid[0]; row++)
        for (int64_t j = 0; j < L; j++) { /* write = pid * stride_x_row, mask j < N */
            td_olane l = {.o = 0,
                          .region = (uint32_t)y->r_out,
                          .off = (uint64_t)(row * stride + j),
                          .pid = {row, 0, 0},
                          .j = (uint64_t)j,
                          .idx = {row, j}};
            td_wset_add(ws, &l);
        }
}

/* Offsets beyond 2^31 (gen_far.h): as rn_fused_far; X, DY and the output share
 * stride_x_row, all move. */
static inline void rn_l2_far(td_producer *p, td_case *c, const rn_l2_layout *y) {
    int regs[3] = {y->r_x, y->r_out, y->r_dy};
    td_far_rows(p, c, regs, y->r_dy >= 0 ? 3 : 2, y->p_stride, rn_l2_cols(c, y));
}

#define RN_CLASSES_L2 (RN_CLASSES_ONE_TILE | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_FULLY_MASKED))

#endif /* TD_RMSNORM_COMMON_H */
