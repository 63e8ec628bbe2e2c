/* Helpers shared by the reduction and loss contracts (mean/max/matrix reduction,
 * argmax, the cross-entropy files, fast_ce_loss, the kldiv files).
 *
 * A contract file includes this header at its top (generator helpers, checkers and
 * write sets, rc_*, plus the log-sum-exp written once per number type: rc_lse_sh and
 * rc_lse_mp, so that SPEC(rc_lse) names the right one in either instantiation); its
 * spec file includes reduce_common.spec.h first (the NUM-generic spec helpers,
 * compiled once per number type like the contract's own spec).
 *
 * The log-sum-exp model (rc_lse) is the kernels' own evaluation:
 *     z_k = x_k, or RN32(x_k * scale) when the kernel scales the logits;
 *     m   = max_k z_k                    (tl.max: exact, a value of the row);
 *     lse = RN32(RN32(log(S)) + m),  S = tl.sum_k RN32(exp(RN32(z_k - m)))
 * with S the pairwise tree of tl.sum over the BLOCK lanes.  Masked lanes hold
 * exp(-inf - m) = 0, and adding an exact 0 does not round, so a valid lane meets
 * ceil(log2 n) roundings for n valid lanes (the valid lanes are a prefix of the
 * tile: lane 0's ancestors at height h add a non-empty right half iff 2^(h-1) < n):
 * TD_ORDER_TREE over the n valid terms is the kernel's tree.  exp and log are
 * charged the backend's budget.
 *
 * Scaled logits: the kernel's z'_k = RN32(x_k * scale) differ from the exact
 * z*_k = x_k * scale (exact in binary64: a product of two binary32 values).  Pushing
 * those errors linearly through exp(z - m) is hopeless (errors of u|z| ~ 6e4 on
 * logits near 1e12 become e^(6e4)), yet log-sum-exp is 1-Lipschitz in the max norm
 * of its inputs and shift invariant.  So the kernel's error is split as
 *     |lse_kernel(z') - lse(z*)| <= |lse_kernel(z') - lse(z')| + max_k |z'_k - z*_k|,
 * the first term bounded by the model evaluated on the kernel's own (exact, binary32)
 * inputs z', the second computed exactly per row; the shadow's value and its own
 * error come from the evaluation on z* (rc_lse_sh).  The MPFR reference is
 * log-sum-exp of z* (rc_lse_mp).  Per-row quantities are memoised in the shadow by
 * rc_key(tag, row, block). */
#ifndef TD_REDUCE_COMMON_H
#define TD_REDUCE_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"
#include "gen_far.h"
#include "spec.h"

/* memo key of a per-row quantity: tag (what), row, column block */
static inline uint64_t rc_key(unsigned tag, uint64_t row, uint64_t blk) {
    return ((uint64_t)tag << 56) ^ (row << 24) ^ blk;
}

/* a binary32 value uniform in [lo, hi] (rounded once) */
static inline double rc_unif(td_rng *r, double lo, double hi) {
    return (double)(float)(lo + (hi - lo) * td_rng_unit(r));
}

static inline double rc_clamp(double x, double bound) {
    if (x > bound) return (double)(float)bound;
    if (x < -bound) return -(double)(float)bound;
    return x;
}

/* The hard rows of a log-sum-exp, chosen by the case's value generator (no
 * producer bytes), for the n elements at off0 + k*step of region reg (|x| <= bound):
 *   0  the value menu as drawn (wide exponents, ties, subnormals, huge values);
 *   1  a row far above 88.7: offset 2^7 .. 2^40 plus a small spread (a naive
 *      exp(x) overflows binary32; with the max subtracted every term is sound);
 *   2  an all-equal row (every exp(z - m) = 1, the sum is exactly n);
 *   3  one dominant element 16 .. 10^4 above the rest (the other terms are tiny,
 *      subnormal or underflow to 0 in exp(z - m));
 *   4  a row far below -88.7 (a naive exp(x) underflows to 0, log(0) = -inf).
 * Returns the pattern. */
enum { RC_ROW_MENU, RC_ROW_HIGH, RC_ROW_EQUAL, RC_ROW_DOMINANT, RC_ROW_LOW, RC_ROW_COUNT };
static inline int rc_fill_row(td_vgen *g, td_case *c, int reg, size_t off0, size_t n, size_t step, double bound) {
    td_rng *r = &g->rng;
    int pat = (int)td_rng_below(r, RC_ROW_COUNT + 2); /* the menu twice as often */
    if (pat >= RC_ROW_COUNT) pat = RC_ROW_MENU;
    static const double spreads[] = {0.5, 4, 30, 200};
    static const double deltas[] = {16, 50, 120, 1e4};
    double spread = spreads[td_rng_below(r, 4)];
    double offset = 1.0 + td_rng_unit(r); /* mantissa, then exponent: sequenced */
    offset = rc_clamp(ldexp(offset, 7 + (int)td_rng_below(r, 34)), bound / 2);
    double same = td_vgen_value(g, TD_F32);
    size_t dom = (size_t)td_rng_below(r, n ? n : 1);
    double delta = deltas[td_rng_below(r, 4)];
    double mx = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        double v;
        switch (pat) {
        case RC_ROW_HIGH: v = offset + spread * (2 * td_rng_unit(r) - 1); break;
        case RC_ROW_LOW: v = -offset + spread * (2 * td_rng_unit(r) - 1); break;
        case RC_ROW_EQUAL: v = same; break;
        case RC_ROW_DOMINANT: v = 4 * (2 * td_rng_unit(r) - 1); break;
        default: v = td_vgen_value(g, TD_F32); break;
        }
        v = rc_clamp((double)(float)v, bound);
        if (v > mx) mx = v;
        td_set(c, reg, off0 + k * step, v);
    }
    if (pat == RC_ROW_DOMINANT && n > 1) td_set(c, reg, off0 + dom * step, rc_clamp((double)(float)(mx + delta), bound));
    if (pat == RC_ROW_HIGH || pat == RC_ROW_LOW) c->classes |= TD_BC(TD_BC_VALUES_LARGE);
    return pat;
}

/* A class label in [lo, hi) with its ends favoured, or the ignore index with
 * probability 1/6 (all of them when all_ignored). */
static inline int64_t rc_label(td_rng *r, int64_t lo, int64_t hi, int64_t ignore, int all_ignored) {
    if (all_ignored || hi <= lo || td_rng_below(r, 6) == 0) return ignore;
    switch (td_rng_below(r, 5)) {
    case 0: return lo;
    case 1: return hi - 1;
    default: return lo + (int64_t)td_rng_below(r, (uint64_t)(hi - lo));
    }
}

/* A row stride for an input matrix of n_cols columns: dense, padded, or (when
 * allow_zero, for inputs only) 0 so that every row reads the same data. */
static inline int64_t rc_row_stride(td_producer *p, int64_t n_cols, int allow_zero, uint64_t *classes) {
    switch (td_prod_u32(p, 0, 5)) {
    case 0:
    case 1:
    case 2: return n_cols;
    case 3: *classes |= TD_BC(TD_BC_STRIDE_GT_ROW); return n_cols + 1;
    case 4: *classes |= TD_BC(TD_BC_STRIDE_GT_ROW); return n_cols + 13;
    default: return allow_zero ? 0 : n_cols;
    }
}

/* elements a region needs for n_rows rows of n_cols at a row stride */
static inline size_t rc_rows_len(int64_t n_rows, int64_t n_cols, int64_t stride) {
    if (n_rows <= 0 || n_cols <= 0) return 0;
    return (size_t)((n_rows - 1) * stride + n_cols);
}

static inline const char *rc_real_param_check(const td_case *c, int k) {
    double x = c->p[k].r;
    if ((double)(float)x != x || !isfinite(x)) return "real parameters are binary32 kernel scalars";
    return NULL;
}


/* ---- log-sum-exp (see the header comment) ----
 * rc_lse_z_{sh,mp}: the kernel's evaluation on exact inputs z[0..n), n >= 1. */
#define RC_LSE_Z(P, T, CX, ACC)                                                                                \
    static inline T rc_lse_z_##P(CX *cx, const double *z, long n) {                                          \
        T m = td_##P##_exact(cx, z[0]);                                                                       \
        for (long k = 1; k < n; k++) m = td_##P##_max(cx, m, td_##P##_exact(cx, z[k]));                       \
        ACC acc;                                                                                              \
        T spread = td_##P##_exact(cx, 0);                                                                     \
        td_##P##_acc_init(cx, &acc, TD_ORDER_TREE, 0);                                                        \
        for (long k = 0; k < n; k++) {                                                                        \
            T d = td_##P##_sub(cx, td_##P##_exact(cx, z[k]), m);                                              \
            td_##P##_acc_add(cx, &acc, td_##P##_exp(cx, d));                                                  \
            spread = td_##P##_max(cx, spread, td_##P##_neg(cx, d));                                           \
        }                                                                                                     \
        /* one pass with a running maximum (online log-sum-exp) is admissible too */                          \
        T s = td_##P##_rescaled(cx, td_##P##_acc_end(cx, &acc), n, spread, 0, 1.0);                           \
        return td_##P##_add(cx, td_##P##_log(cx, s), m);                                                      \
    }
RC_LSE_Z(sh, td_sh, td_shcx, td_sh_acc)
RC_LSE_Z(mp, td_mp, td_mpcx, td_mp_acc)
#undef RC_LSE_Z

/* z*_k = x_k (* scale): exact in binary64 (binary32 operands); the kernel's z'_k is
 * its binary32 rounding */
static inline double *rc_lse_inputs(const td_case *c, int reg, uint64_t off0, long n, int scaled, double scale) {
    double *z = calloc((size_t)(n > 0 ? n : 1), sizeof *z);
    if (!z) {
        fputs("tilediff: out of memory in a log-sum-exp spec\n", stderr);
        abort();
    }
    for (long k = 0; k < n; k++) {
        double x = td_get(c, reg, off0 + (uint64_t)k);
        z[k] = scaled ? x * scale : x;
    }
    return z;
}

static inline td_sh rc_lse_sh(td_shcx *cx, const td_case *c, int reg, uint64_t off0, long n, int scaled,
                              double scale, uint64_t key) {
    td_sh r;
    if (td_sh_memo_get(cx, key, &r)) return r;
    double *z = rc_lse_inputs(c, reg, off0, n, scaled, scale);
    r = rc_lse_z_sh(cx, z, n); /* value and shadow error: the exact inputs z* */
    double lip = 0;
    for (long k = 0; k < n; k++) {
        double zk = (double)(float)z[k], d = fabs(zk - z[k]); /* exact: same binade or adjacent */
        if (d > lip) lip = d;
        z[k] = zk;
    }
    if (lip > 0) {
        td_sh a = rc_lse_z_sh(cx, z, n); /* the kernel's evaluation on its own inputs z' */
        r.ek = td_up(a.ek + lip);
        r.ep = td_up(a.ep + lip);
        r.fl = 0;
        TD_SH_TRACE(cx, "lse: inputs rounded (1-Lipschitz)", r, a.ek, lip, (int)n, "+ max |RN32(x*scale) - x*scale|");
    }
    free(z);
    td_sh_memo_put(cx, key, r);
    return r;
}

static inline td_mp rc_lse_mp(td_mpcx *cx, const td_case *c, int reg, uint64_t off0, long n, int scaled,
                              double scale, uint64_t key) {
    (void)key;
    double *z = rc_lse_inputs(c, reg, off0, n, scaled, scale);
    td_mp r = rc_lse_z_mp(cx, z, n);
    free(z);
    return r;
}

/* ---- cross_entropy_fwd_kernel (cross_entropy1, cross_entropy2, cross_entropy_ops) ----
 * One generic generator / checker / write set / spec over the parameter and region
 * indices of each file's declaration (p_logit_scale and r_zloss are -1 in
 * cross_entropy1, whose kernel neither scales nor stores a z-loss). */
typedef struct rc_ce_layout {
    int p_smoothing, p_logit_scale, p_lss, p_ignored, p_total, p_csi, p_ncols, p_nrows, p_stride, p_block,
        p_has_smoothing, p_split;
    int r_loss, r_lse, r_zloss, r_logits, r_labels;
} rc_ce_layout;

#define RC_CE_LOGIT_BOUND 0x1p40 /* |logits| <= 2^40: lse^2 * lse_square_scale and the sums stay finite */
#define RC_CE_MAX_ELEMS 4096     /* logits per case (the spec reads a row per output lane) */

static inline void rc_ce_gen(td_producer *p, td_case *c, const rc_ce_layout *y) {
    int64_t B = td_gen_pow2(p, 0, 10);
    int64_t n_cols = (int64_t)td_gen_count(p, (uint64_t)B, 2048, &c->classes);
    int64_t max_rows = RC_CE_MAX_ELEMS / n_cols < 6 ? RC_CE_MAX_ELEMS / n_cols : 6;
    int64_t n_rows = td_prod_u32(p, 1, (uint32_t)(max_rows < 1 ? 1 : max_rows));
    int64_t stride = rc_row_stride(p, n_cols, 1, &c->classes);
    int64_t n_splits = (n_cols + B - 1) / B;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, RC_CE_LOGIT_BOUND);
    td_rng *r = &g.rng;
    /* tensor parallel: world_size ranks of n_cols classes each (the host's total_classes
     * and class_start_idx) */
    int64_t world = (int64_t)1 << td_rng_below(r, 3), rank = (int64_t)td_rng_below(r, (uint64_t)world);
    int64_t total = world * n_cols, csi = rank * n_cols;
    int64_t ignored;
    switch (td_rng_below(r, 5)) {
    case 0: ignored = -1; break;
    case 1: ignored = csi + (int64_t)td_rng_below(r, (uint64_t)n_cols); break; /* a real class is ignored */
    default: ignored = -100; break;
    }
    int has_smoothing = (int)td_rng_below(r, 2);
    static const double smooth[] = {0.0, 0.1, 1.0, 0.25};
    unsigned ks = (unsigned)td_rng_below(r, 6);
    double smoothing = ks < 4 ? (double)(float)smooth[ks] : rc_unif(r, 0, 1);
    int split = td_rng_below(r, 3) ? (world > 1 || n_splits > 1) : (int)td_rng_below(r, 2);
    unsigned kl = (unsigned)td_rng_below(r, 4);
    double lss = kl == 0 ? 0.0 : kl == 1 ? (double)1e-4f : rc_unif(r, 0, 1);
    c->p[y->p_smoothing].r = smoothing;
    c->p[y->p_lss].r = lss;
    if (y->p_logit_scale >= 0) {
        unsigned kk = (unsigned)td_rng_below(r, 5);
        double m = kk > 1 ? 1.0 + td_rng_unit(r) : 0; /* mantissa, then exponent: sequenced */
        c->p[y->p_logit_scale].r = kk == 0 ? 1.0 : kk == 1 ? 0.5 : ldexp(m, (int)td_rng_below(r, 9) - 5);
        c->p[y->p_logit_scale].r = (double)(float)c->p[y->p_logit_scale].r;
    }
    c->p[y->p_ignored].i = ignored;
    c->p[y->p_total].i = total;
    c->p[y->p_csi].i = csi;
    c->p[y->p_ncols].i = n_cols;
    c->p[y->p_nrows].i = n_rows;
    c->p[y->p_stride].i = stride;
    c->p[y->p_block].i = B;
    c->p[y->p_has_smoothing].i = has_smoothing;
    c->p[y->p_split].i = split;
    size_t slack = td_rng_below(r, 2) ? 1 + td_rng_below(r, 8) : 0;
    size_t nout = (size_t)(n_splits * n_rows) + slack;
    td_case_alloc(c, y->r_loss, nout);
    td_case_alloc(c, y->r_lse, nout);
    if (y->r_zloss >= 0) td_case_alloc(c, y->r_zloss, nout);
    td_case_alloc(c, y->r_logits, rc_rows_len(n_rows, n_cols, stride) + slack);
    td_case_alloc(c, y->r_labels, (size_t)n_rows);
    for (int64_t i = 0; i < n_rows; i++)
        if (stride != 0 || i == 0) rc_fill_row(&g, c, y->r_logits, (size_t)(i * stride), (size_t)n_cols, 1, RC_CE_LOGIT_BOUND);
    int all_ignored = td_rng_below(r, 12) == 0;
    for (int64_t i = 0; i < n_rows; i++) {
        /* labels of every rank (only this rank's classes are in its blocks) */
        int64_t lab = rc_label(r, 0, total, ignored, all_ignored);
        td_seti(c, y->r_labels, (size_t)i, lab);
        if (lab == ignored || lab == csi || lab == csi + n_cols - 1) c->classes |= TD_BC(TD_BC_META_EXTREME);
    }
    c->grid[0] = (uint32_t)n_rows;
    c->grid[1] = (uint32_t)n_splits;
    c->grid[2] = 1;
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of logits at a
 * logits_row_stride near 2^31 over a sparse region, as a kernel that forms
 * row_idx * logits_row_stride in int32 gets wrong; the outputs (pid1 * n_rows + pid0)
 * and the labels follow n_rows. */
static inline void rc_ce_far(td_producer *p, td_case *c, const rc_ce_layout *y) {
    int64_t R = c->p[y->p_nrows].i, n = c->p[y->p_ncols].i;
    if (R < 2 || n <= 0) return;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, n);
    if (td_far_restride(c, y->r_logits, R, n, c->p[y->p_stride].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[y->p_nrows].i = R;
    c->p[y->p_stride].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static inline const char *rc_ce_check(const td_case *c, const rc_ce_layout *y) {
    int64_t B = c->p[y->p_block].i, n_cols = c->p[y->p_ncols].i, n_rows = c->p[y->p_nrows].i;
    int64_t stride = c->p[y->p_stride].i;
    if (B <= 0) return "hB: 0 < BLOCK_SIZE";
    const char *e;
    if ((e = rc_real_param_check(c, y->p_smoothing)) || (e = rc_real_param_check(c, y->p_lss))) return e;
    if (y->p_logit_scale >= 0) {
        if ((e = rc_real_param_check(c, y->p_logit_scale))) return e;
        if (!(c->p[y->p_logit_scale].r > 0))
            return "logit_scale > 0 (masked lanes load -inf * logit_scale, -inf only for a positive scale; Lean's "
                   "masked lanes are bottom for any scale)";
    }
    if (c->p[y->p_total].i < 1 || c->p[y->p_total].i > (1 << 24))
        return "1 <= total_classes <= 2^24 (the kernel divides by it in binary32: x/0 is not Lean's 0)";
    if (n_cols < 1 || n_rows < 1 || stride < 0) return "n_cols, n_rows >= 1, logits_row_stride : Nat";
    int64_t n_splits = (n_cols + B - 1) / B;
    if (c->grid[0] != (uint64_t)n_rows || c->grid[1] != (uint64_t)n_splits || c->grid[2] != 1)
        return "grid = (n_rows, cdiv(n_cols, BLOCK_SIZE)): every program has pid1 * BLOCK_SIZE < n_cols";
    if (c->r[y->r_logits].len < rc_rows_len(n_rows, n_cols, stride)) return "logits_ptr holds every row read";
    if (c->r[y->r_labels].len < (size_t)n_rows) return "labels_ptr holds a label per row";
    size_t nout = (size_t)(n_splits * n_rows);
    if (c->r[y->r_loss].len < nout || c->r[y->r_lse].len < nout || (y->r_zloss >= 0 && c->r[y->r_zloss].len < nout))
        return "the outputs hold n_splits * n_rows cells (write = pid1 * n_rows + pid0)";
    return NULL; /* hne, hneZ, hLL, hLZ: distinct regions by construction */
}

/* The intent's partial (engine/audit.c): cross_entropy_fwd_kernel is one step of a split
 * reduction.  With several blocks per row each program's lse is its block's log-sum-exp
 * and its loss a block's share, which the host combines; with several ranks
 * (total_classes != n_cols or class_start_idx != 0) a shard of the classes; under SPLIT
 * the loss omits lse for the host to add.  Only a case with one block, one rank and SPLIT
 * off states the operation's own values. */
static inline const char *rc_ce_partial(const td_case *c, const rc_ce_layout *y) {
    int64_t B = c->p[y->p_block].i, n_cols = c->p[y->p_ncols].i;
    if (n_cols > B) return "n_cols > BLOCK_SIZE: per-block partials (lse and loss of each block) the host combines";
    if (c->p[y->p_total].i != n_cols || c->p[y->p_csi].i != 0)
        return "total_classes != n_cols: a shard of the classes (tensor parallel) the host combines";
    if (c->p[y->p_split].i) return "SPLIT: the loss omits lse, which the host adds";
    return NULL;
}

static inline void rc_ce_writes(const td_case *c, td_wset *ws, const rc_ce_layout *y) {
    int64_t n_rows = c->p[y->p_nrows].i;
    int split = c->p[y->p_split].i != 0;
    for (uint32_t row = 0; row < c->grid[0]; row++)
        for (uint32_t blk = 0; blk < c->grid[1]; blk++) {
            uint64_t off = (uint64_t)blk * (uint64_t)n_rows + row;
            int outs[3] = {y->r_loss, y->r_lse, y->r_zloss};
            for (uint32_t o = 0; o < 3; o++) {
                if (outs[o] < 0 || (o == 2 && split)) continue; /* writeMask3: SPLIT = false */
                td_olane l = {.o = o, .region = (uint32_t)outs[o], .off = off, .pid = {row, blk, 0}, .idx = {row, blk}};
                td_wset_add(ws, &l);
            }
        }
}

/* ---- the Liger KL-divergence row kernels (kldiv_ops, kldiv_triton) ----
 * One program per row; the columns j < n_cols are processed in BLOCK_SIZE tiles
 * (for i in range(0, n_cols, BLOCK_SIZE)), each input row at pid * its stride, the
 * output at pid * out_stride + j.  Value roles of the inputs: */
enum {
    RC_KL_Y,       /* the prediction in log space: log-probabilities, |y| <= 1000 */
    RC_KL_GT_PROB, /* a probability target in [0, 1]: zeros, tiny, subnormal, 1 */
    RC_KL_GT_LOG,  /* a log-space target in [-120, 80]: exp(gt) * (gt - y) stays finite */
    RC_KL_T_ANY,   /* a backward target, any magnitude (|t| <= 2^100) */
    RC_KL_T_LOG    /* a log-space backward target <= 88.5: -exp(t) stays finite */
};
typedef struct rc_kl_layout {
    int nin;            /* input regions (1 backward, 2 forward) */
    int p_in_stride[2], r_in[2], role[2];
    int p_out_stride, r_out, p_ncols, p_block;
    int one_block;      /* n_cols <= BLOCK_SIZE required (hLen, or the one-block slice) */
    int min_cols;       /* 1 for hLenPos: 0 < n_cols */
} rc_kl_layout;

/* one value of a role, in the case's per-region mode */
static inline double rc_kl_value(td_vgen *g, int role, int mode) {
    td_rng *r = &g->rng;
    double m = td_vgen_value(g, TD_F32); /* the menu in [-1, 1] (the vgen's bound is 1) */
    switch (role) {
    case RC_KL_Y:
        if (mode == 0) return rc_unif(r, -30, 0);
        if (mode == 1) return (double)(float)(1000 * m);
        return rc_unif(r, -1000, 1000);
    case RC_KL_GT_PROB:
        switch (mode) {
        case 0: return rc_unif(r, 0, 1);
        case 1: return fabs(m); /* zeros, subnormals, powers of two, ties */
        case 2: return td_rng_below(r, 4) == 0 ? 0.0 : rc_unif(r, 0, 1);
        default: return ldexp(1.0, -(int)td_rng_below(r, 141)); /* 1 .. 2^-140 */
        }
    case RC_KL_GT_LOG:
        if (mode == 0) return rc_unif(r, -30, 0);
        if (mode == 1) return (double)(float)(80 * m);
        return rc_unif(r, -120, 80);
    case RC_KL_T_ANY: return mode == 0 ? m : ldexp(m, 100); /* exact scaling */
    default:                                                  /* RC_KL_T_LOG */
        if (mode == 0) return (double)(float)(88.5 * m);
        if (mode == 1) return rc_unif(r, -120, 0);
        return rc_unif(r, 80, 88.5); /* near exp's overflow threshold 88.72 */
    }
}

static inline void rc_kl_gen(td_producer *p, td_case *c, const rc_kl_layout *y) {
    int64_t B = td_gen_pow2(p, 0, 10);
    int64_t n_cols = (int64_t)td_gen_count0(p, (uint64_t)B, y->one_block ? (uint64_t)B : 4096, &c->classes,
                                            !y->min_cols);
    int64_t max_rows = n_cols ? 8192 / n_cols : 16;
    int64_t n_rows = td_prod_u32(p, 1, (uint32_t)(max_rows < 1 ? 1 : max_rows > 16 ? 16 : max_rows));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 1.0);
    c->p[y->p_ncols].i = n_cols;
    c->p[y->p_block].i = B;
    int64_t out_stride = rc_row_stride(p, n_cols, 0, &c->classes);
    c->p[y->p_out_stride].i = out_stride;
    size_t slack = td_rng_below(&g.rng, 2) ? 1 + td_rng_below(&g.rng, (uint64_t)B) : 0;
    td_case_alloc(c, y->r_out, rc_rows_len(n_rows, n_cols, out_stride) + slack);
    for (int k = 0; k < y->nin; k++) {
        int64_t st = rc_row_stride(p, n_cols, 1, &c->classes);
        c->p[y->p_in_stride[k]].i = st;
        size_t len = rc_rows_len(n_rows, n_cols, st) + slack;
        td_case_alloc(c, y->r_in[k], len);
        int mode = (int)td_rng_below(&g.rng, 4);
        for (size_t e = 0; e < len; e++) td_set(c, y->r_in[k], e, rc_kl_value(&g, y->role[k], mode));
    }
    if (n_cols > B) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    c->grid[0] = (uint32_t)n_rows;
    c->grid[1] = c->grid[2] = 1;
}

/* the domain of an input role over the elements in bytes [lo, hi) of its region (of a
 * sparse region only the pages written: the rest reads 0, inside every role's domain) */
typedef struct rc_kl_scan {
    const td_case *c;
    int reg, role;
    const char *bad;
} rc_kl_scan;
static inline void rc_kl_span(void *u, size_t lo, size_t hi) {
    rc_kl_scan *q = u;
    unsigned eb = td_fmt_get(q->c->r[q->reg].fmt)->bytes;
    for (size_t e = lo / eb; e < hi / eb && e < q->c->r[q->reg].len && !q->bad; e++) {
        double v = td_get(q->c, q->reg, e);
        if (!isfinite(v)) q->bad = "inputs are finite";
        else if (q->role == RC_KL_T_LOG && v > 88.5) q->bad = "log-space backward target <= 88.5 (-exp(t) finite)";
        else if (q->role == RC_KL_GT_LOG && !(v >= -120 && v <= 80)) q->bad = "log-space target in [-120, 80]";
        else if (q->role == RC_KL_Y && fabs(v) > 1000) q->bad = "|y| <= 1000 (the loss stays finite)";
    }
}

static inline const char *rc_kl_check(const td_case *c, const rc_kl_layout *y) {
    int64_t B = c->p[y->p_block].i, n_cols = c->p[y->p_ncols].i, n_rows = c->grid[0];
    if (B <= 0) return "hBS: 0 < BLOCK_SIZE";
    if (n_cols < y->min_cols) return "hLenPos: 0 < n_cols";
    if (y->one_block && n_cols > B)
        return "n_cols <= BLOCK_SIZE (hLen; for kldiv_ops the theorem's kernel is one iteration of the column loop, "
               "which is the Triton program exactly when the loop runs once)";
    if (c->grid[1] != 1 || c->grid[2] != 1 || n_rows < 1) return "grid = (n_rows,)";
    int64_t os = c->p[y->p_out_stride].i;
    if (os < 0 || (n_rows > 1 && os < n_cols))
        return "hOutInj: the output rows pid * out_stride + [0, n_cols) do not overlap";
    if (c->r[y->r_out].len < rc_rows_len(n_rows, n_cols, os)) return "the output region holds every row written";
    for (int k = 0; k < y->nin; k++) {
        int64_t st = c->p[y->p_in_stride[k]].i;
        if (st < 0 || c->r[y->r_in[k]].len < rc_rows_len(n_rows, n_cols, st)) return "the inputs hold every row read";
        rc_kl_scan q = {c, y->r_in[k], y->role[k], NULL};
        size_t bytes = c->r[q.reg].len * td_fmt_get(c->r[q.reg].fmt)->bytes;
        if (c->r[q.reg].mapped) td_touched_pages(c->r[q.reg].data, bytes, rc_kl_span, &q);
        else rc_kl_span(&q, 0, bytes);
        if (q.bad) return q.bad;
    }
    return NULL; /* hly, hlg: distinct regions */
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of every input at one
 * row stride near 2^31 over sparse regions, as a kernel forming pid * y_stride (or
 * gt_stride, target_stride) in int32 gets wrong: Liger's kernels cast pid to int64 for
 * exactly this.  The output keeps its stride (its cells stay dense and checked). */
static inline void rc_kl_far(td_producer *p, td_case *c, const rc_kl_layout *y) {
    int64_t n_cols = c->p[y->p_ncols].i, R = c->grid[0], moved = 0;
    if (R < 2 || n_cols <= 0) return; /* one row, or nothing read */
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, n_cols);
    for (int k = 0; k < y->nin; k++)
        if (!td_far_restride(c, y->r_in[k], R, n_cols, c->p[y->p_in_stride[k]].i, s)) {
            c->p[y->p_in_stride[k]].i = s;
            moved++;
        }
    if (!moved) return;
    c->grid[0] = (uint32_t)R; /* an input left in place still holds its first R rows */
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static inline void rc_kl_writes(const td_case *c, td_wset *ws, const rc_kl_layout *y) {
    int64_t B = c->p[y->p_block].i, n_cols = c->p[y->p_ncols].i, os = c->p[y->p_out_stride].i;
    for (uint32_t row = 0; row < c->grid[0]; row++)
        for (int64_t j = 0; j < n_cols; j++) {
            td_olane l = {.o = 0,
                          .region = (uint32_t)y->r_out,
                          .off = (uint64_t)(row * os + j),
                          .pid = {row, 0, 0},
                          .t = (uint32_t)(j / B),
                          .j = (uint64_t)(j % B),
                          .idx = {row, j}};
            td_wset_add(ws, &l);
        }
}

/* ---- max / argmax (max_reduction, triton_argmax, matrix_reduction) ----
 * The first maximum of the n elements at off0 + k*step (k < n): its position k, or -1
 * when n = 0.  Maxima are exact (tolerance 0): the spec returns that element itself,
 * and the index is exact too.  Ties keep the first (Triton's tie_break_left, and
 * Lean's argBestDrop which replaces only on strict improvement). */
static inline int64_t rc_first_max(const td_case *c, int reg, uint64_t off0, uint64_t step, int64_t n) {
    int64_t best = -1;
    double bv = -INFINITY;
    for (int64_t k = 0; k < n; k++) {
        double v = td_get(c, reg, off0 + (uint64_t)k * step);
        if (best < 0 || v > bv) {
            best = k;
            bv = v;
        }
    }
    return best;
}

/* Fills region reg with the value menu, and per case (from the rng) makes it harder
 * for a max: all values negative (a masked lane read as 0.0 instead of -inf wins),
 * repeated maxima (ties: the first must win), or both. */
static inline void rc_fill_max(td_vgen *g, td_case *c, int reg) {
    td_rng *r = &g->rng;
    int negative = td_rng_below(r, 3) == 0, ties = td_rng_below(r, 3) == 0;
    size_t len = c->r[reg].len;
    for (size_t e = 0; e < len; e++) {
        double v = td_vgen_value(g, c->r[reg].fmt);
        if (negative) v = -fabs(v);
        td_set(c, reg, e, v);
    }
    if (ties && len > 1) { /* copy a few values over later positions */
        for (int t = 0; t < 8; t++) {
            size_t a = (size_t)td_rng_below(r, len), b = (size_t)td_rng_below(r, len);
            td_set(c, reg, a > b ? a : b, td_get(c, reg, a < b ? a : b));
        }
    }
    if (negative || ties) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

#endif /* TD_REDUCE_COMMON_H */
