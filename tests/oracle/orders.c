/* The shadow's sum and dot-product bounds against every evaluation order the model
 * claims to cover (issue 12, section 1: "sums, dot products ... in any association
 * order and tree shape, including split-K ... with or without FMA contraction").
 *
 * For term vectors of more than 16 terms, drawn from distributions that stress the
 * bound (no cancellation, cancellation, wide exponent range, subnormal and underflowing
 * products, partial sums on rounding ties, and a vector on which sequential summation
 * rounds the same way at every step), a binary32 "kernel" sums the terms (sum) or the
 * products a_i b_i (dot) in many orders, each dot product with and without FMA
 * contraction.  MPFR gives the exact value (640 bits hold any sum of up to 2^13
 * products of binary32 values exactly: the products lie on the 2^-298 grid below
 * 2^256).  Claims checked, with exact comparisons:
 *   - every implementation is within the shadow's ek of the accumulation declared
 *     TD_ORDER_ANY (what a kernel that declares nothing gets), written as one sum and
 *     as a sum of 8 partial sums;
 *   - every implementation of a declared order (sequential, tree, blocked:B) is within
 *     the shadow's ek of the accumulation declared with that order;
 *   - a cast of the kernel's binary32 result to fp16 / bf16 / e4m3fn / e5m2 is within
 *     the cast's ek of the cast exact value (either neighbour where the admissible
 *     interval straddles a rounding boundary: that case must occur and be accepted);
 *   - the bounds are not vacuous: on each declared order some implementation reaches a
 *     large part of its bound (a bound loosened by a factor 2 fails, see TIGHT_MIN).
 * A lane whose bound is infinite (TD_LF_UNBOUNDED) is counted, never skipped, and must
 * stay rare. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_tests.h"
#include "producer.h"
#include "shadow.h"

#define NMAX 4097
static const long sizes[] = {17, 33, 100, 257, 1000, 4097};
static const long blocks[] = {16, 32, 64, 128};
#define NBLK 4
/* see test_sum_orders: the worst err/ek measured per declared order is 0.52 (tree) to
 * 1.0 (sequential, "growth" vectors) with this seed */
#define TIGHT_MIN 0.4

/* ---- term vectors ---- */
enum dist { D_UNIFORM, D_POSITIVE, D_CANCEL, D_WIDE, D_SUBNORMAL, D_TIES, D_GROWTH, D_MIXED, D_COUNT };
static const char *dist_names[D_COUNT] = {"uniform", "positive", "cancel", "wide", "subnormal", "ties", "growth",
                                          "mixed"};

typedef struct vec {
    float a[NMAX], b[NMAX]; /* terms a_i b_i; b_i = 1 for a plain sum */
    long n;
    int dot;
} vec;

static float sgn(td_rng *r) { return (td_rng_next(r) & 1) ? 1.0f : -1.0f; }
static float unit_f(td_rng *r) { return (float)td_rng_unit(r); }

/* One term (the value of a_i b_i the distribution asks for) */
static float draw_term(td_rng *r, enum dist d, long i) {
    switch (d) {
    case D_UNIFORM: return 2 * unit_f(r) - 1;
    case D_POSITIVE: return 1 + unit_f(r);
    case D_WIDE: return (float)ldexp(1 + td_rng_unit(r), (int)td_rng_below(r, 81) - 40) * sgn(r);
    case D_SUBNORMAL: /* subnormal terms, and normal ones just above the threshold */
        return (td_rng_below(r, 2) ? (float)ldexp((double)td_rng_below(r, 1u << 20), -149)
                                   : (float)ldexp(1 + td_rng_unit(r), -126 + (int)td_rng_below(r, 4))) *
               sgn(r);
    case D_TIES: /* one large term, then halves: every partial sum near 2^24 sits on a tie */
        return i == 0 ? 0x1p24f + 2 * (float)td_rng_below(r, 1u << 20) : 0.5f * (float)(1 + td_rng_below(r, 3)) * sgn(r);
    case D_GROWTH: /* 1, then terms just above half an ulp of the partial sums: sequential rounds up each time */
        return i == 0 ? 1.0f : 0x1.000008p-24f;
    default: return 0;
    }
}

static void make_vec(vec *v, td_rng *r, enum dist d, long n, int dot) {
    v->n = n;
    v->dot = dot;
    enum dist dd = d;
    for (long i = 0; i < n; i++) {
        if (d == D_MIXED) dd = (enum dist)td_rng_below(r, D_GROWTH);
        float t;
        if (d == D_CANCEL && (i & 1))
            t = -v->a[i - 1] * v->b[i - 1] * (1 + 0x1p-20f * (float)td_rng_below(r, 64)); /* near-cancelling pairs */
        else
            t = draw_term(r, dd == D_CANCEL ? D_WIDE : dd, i);
        if (!dot) {
            v->a[i] = t;
            v->b[i] = 1;
        } else if (dd == D_SUBNORMAL) {
            /* two normal factors whose product is subnormal or underflows to 0 */
            v->a[i] = (float)ldexp(1 + td_rng_unit(r), -70 - (int)td_rng_below(r, 10)) * sgn(r);
            v->b[i] = (float)ldexp(1 + td_rng_unit(r), -70 - (int)td_rng_below(r, 10));
        } else if (dd == D_GROWTH || dd == D_TIES) {
            v->a[i] = t; /* exact products keep the vector's structure */
            v->b[i] = td_rng_below(r, 2) ? 1.0f : -1.0f;
            v->a[i] *= v->b[i];
        } else {
            float b = 0.5f + 1.5f * unit_f(r); /* products are inexact in binary32 */
            v->b[i] = b;
            v->a[i] = t / b;
        }
    }
    if (d == D_CANCEL || d == D_MIXED) /* pairs apart, in random positions */
        for (long i = n - 1; i > 0; i--) {
            long j = (long)td_rng_below(r, (uint64_t)i + 1);
            float ta = v->a[i], tb = v->b[i];
            v->a[i] = v->a[j], v->b[i] = v->b[j];
            v->a[j] = ta, v->b[j] = tb;
        }
}

/* ---- the binary32 kernels ----
 * A partial value is a rounded binary32 number or, with FMA contraction, a product
 * a_i b_i not yet rounded (leaf >= 0): adding it to a partial is fmaf(a_i, b_i, s). */
typedef struct part {
    float v;
    long leaf;
} part;
typedef struct kctx {
    const vec *x;
    int fma;
    td_rng *r;
} kctx;

static float leafval(const kctx *k, long i) { return k->x->a[i] * k->x->b[i]; }
static part mkleaf(const kctx *k, long i) {
    part p = {leafval(k, i), k->fma ? i : -1};
    return p;
}
static float val(part p) { return p.v; }
static part combine(const kctx *k, part x, part y) {
    part r = {0, -1};
    if (x.leaf >= 0) r.v = fmaf(k->x->a[x.leaf], k->x->b[x.leaf], y.v);
    else if (y.leaf >= 0) r.v = fmaf(k->x->a[y.leaf], k->x->b[y.leaf], x.v);
    else r.v = x.v + y.v;
    return r;
}
/* s + term i, as a loop body writes it: "acc += a*b" or "acc = fma(a, b, acc)" */
static float accum(const kctx *k, float s, long i) { return val(combine(k, (part){s, -1}, mkleaf(k, i))); }

static float k_seq(const kctx *k, const long *idx, long lo, long hi) {
    float s = 0;
    for (long i = lo; i < hi; i++) s = accum(k, s, idx[i]);
    return s;
}
/* balanced tree over idx[lo, hi): split at the middle (pairwise) or at the largest
 * power of two below the length (tl.sum over a padded block); depth ceil(log2 n) */
static part k_tree(const kctx *k, const long *idx, long lo, long hi, int pow2) {
    if (hi - lo == 1) return mkleaf(k, idx[lo]);
    long h = (hi - lo) / 2;
    if (pow2) {
        h = 1;
        while (2 * h < hi - lo) h *= 2;
    }
    return combine(k, k_tree(k, idx, lo, lo + h, pow2), k_tree(k, idx, lo + h, hi, pow2));
}
/* a random association tree: two random partials are added until one is left */
static part k_randtree_parts(const kctx *k, part *pool, long m) {
    while (m > 1) {
        long i = (long)td_rng_below(k->r, (uint64_t)m), j = (long)td_rng_below(k->r, (uint64_t)m - 1);
        if (j >= i) j++;
        pool[i] = combine(k, pool[i], pool[j]);
        pool[j] = pool[--m];
    }
    return pool[0];
}
static part pool_buf[NMAX];
static part k_randtree(const kctx *k, const long *idx, long lo, long hi) {
    for (long i = lo; i < hi; i++) pool_buf[i - lo] = mkleaf(k, idx[i]);
    return k_randtree_parts(k, pool_buf, hi - lo);
}
/* tiles of B terms, each summed in any order (a random tree: any shape of depth <= B-1),
 * then accumulated sequentially */
static float k_blocked(const kctx *k, const long *idx, long n, long B, int tile_tree) {
    float acc = 0;
    for (long t = 0; t < n; t += B) {
        long hi = t + B < n ? t + B : n;
        float tile = tile_tree ? val(k_tree(k, idx, t, hi, 1)) : val(k_randtree(k, idx, t, hi));
        acc = acc + tile;
    }
    return acc;
}
/* Triton's "acc = zeros(BLOCK); for each tile: acc += x (or fma); tl.sum(acc)" */
static float k_lanes(const kctx *k, const long *idx, long n, long B) {
    float acc[128] = {0};
    for (long t = 0; t < n; t += B)
        for (long l = 0; l < B && t + l < n; l++) acc[l] = accum(k, acc[l], idx[t + l]);
    long m = B < n ? B : n;
    for (long i = 0; i < m; i++) pool_buf[i] = (part){acc[i], -1};
    /* power-of-two tree over the lanes */
    while (m > 1) {
        long h = 1;
        while (2 * h < m) h *= 2;
        for (long i = 0; i + h < m; i++) pool_buf[i] = combine(k, pool_buf[i], pool_buf[i + h]);
        m = h;
    }
    return pool_buf[0].v;
}
/* split-K: kk partial sums (contiguous chunks or strided), each sequential, combined in any order */
static float k_splitk(const kctx *k, const long *idx, long n, long kk, int strided) {
    static part parts[64];
    for (long j = 0; j < kk; j++) {
        float s = 0;
        if (strided)
            for (long i = j; i < n; i += kk) s = accum(k, s, idx[i]);
        else
            s = k_seq(k, idx, j * n / kk, (j + 1) * n / kk);
        parts[j] = (part){s, -1};
    }
    return val(k_randtree_parts(k, parts, kk));
}

/* ---- implementations and what they may declare ---- */
enum impl { I_SEQ, I_SEQ_REV, I_SEQ_PERM, I_PAIRWISE, I_POW2TREE, I_RANDTREE, I_BLOCKED_TREE, I_BLOCKED_ANY,
            I_LANES, I_SPLITK, I_SPLITK_STRIDED, I_COUNT };
static const char *impl_names[I_COUNT] = {"sequential",        "sequential reversed", "sequential permuted",
                                          "pairwise tree",     "power-of-two tree",   "random tree",
                                          "blocked (tree tiles)", "blocked (any-order tiles)", "lane accumulators",
                                          "split-K contiguous", "split-K strided"};
/* the declaration each implementation satisfies besides TD_ORDER_ANY */
static td_order impl_decl(enum impl i) {
    switch (i) {
    case I_SEQ: case I_SEQ_REV: case I_SEQ_PERM: return TD_ORDER_SEQ;
    case I_PAIRWISE: case I_POW2TREE: return TD_ORDER_TREE;
    case I_BLOCKED_TREE: case I_BLOCKED_ANY: case I_LANES: return TD_ORDER_BLOCKED;
    default: return TD_ORDER_ANY;
    }
}

static long idx_id[NMAX], idx_perm[NMAX], idx_rev[NMAX];

static float run_impl(const kctx *k, enum impl im, long n, long B, long kk) {
    switch (im) {
    case I_SEQ: return k_seq(k, idx_id, 0, n);
    case I_SEQ_REV: return k_seq(k, idx_rev, 0, n);
    case I_SEQ_PERM: return k_seq(k, idx_perm, 0, n);
    case I_PAIRWISE: return val(k_tree(k, idx_id, 0, n, 0));
    case I_POW2TREE: return val(k_tree(k, idx_perm, 0, n, 1));
    case I_RANDTREE: return val(k_randtree(k, idx_id, 0, n));
    case I_BLOCKED_TREE: return k_blocked(k, idx_id, n, B, 1);
    case I_BLOCKED_ANY: return k_blocked(k, idx_id, n, B, 0);
    case I_LANES: return k_lanes(k, idx_id, n, B);
    case I_SPLITK: return k_splitk(k, idx_id, n, kk, 0);
    case I_SPLITK_STRIDED: return k_splitk(k, idx_perm, n, kk, 1);
    default: return NAN;
    }
}

/* ---- shadow and exact values ---- */
static void init_cx(td_shcx *s) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32;
    s->u = 0x1p-24;
    s->eta = 0x1p-150;
    s->ulp_min = 0x1p-149;
    s->ovf = 0x1.ffffffp127;
    s->lambda_n = 64;
    s->math = td_math_model_get(TD_MATH_DEFAULT); /* a kernel that declares nothing */
}

/* The accumulation as a contract writes it: sum_i a_i (or sum_i mul(a_i, b_i)), for a
 * kernel that declares `order` (TD_ORDER_ANY: declares nothing).  The declaration is
 * the kernel's (td_shcx), the spec's own order never narrows the bound. */
static td_sh shadow_sum(td_shcx *s, const vec *v, td_order order, long block) {
    td_sh_acc acc;
    s->order = order;
    s->block = block;
    td_sh_acc_init(s, &acc, TD_ORDER_SEQ, 0);
    for (long i = 0; i < v->n; i++) {
        td_sh t = v->dot ? td_sh_mul(s, td_sh_exact(s, v->a[i]), td_sh_exact(s, v->b[i])) : td_sh_exact(s, v->a[i]);
        td_sh_acc_add(s, &acc, t);
    }
    return td_sh_acc_end(s, &acc);
}

/* The same sum written by a spec as a sum of 8 partial sums (split-K in the source):
 * a kernel may still associate the leaves in any order, so the outer sum's bound is
 * taken over all of them (td_sh.leaves). */
static td_sh shadow_nested(td_shcx *s, const vec *v) {
    s->order = TD_ORDER_ANY;
    s->block = 0;
    td_sh_acc outer, inner;
    td_sh_acc_init(s, &outer, TD_ORDER_ANY, 0);
    for (long j = 0; j < 8; j++) {
        td_sh_acc_init(s, &inner, TD_ORDER_SEQ, 0);
        for (long i = j * v->n / 8; i < (j + 1) * v->n / 8; i++) {
            td_sh t = v->dot ? td_sh_mul(s, td_sh_exact(s, v->a[i]), td_sh_exact(s, v->b[i])) : td_sh_exact(s, v->a[i]);
            td_sh_acc_add(s, &inner, t);
        }
        td_sh_acc_add(s, &outer, td_sh_acc_end(s, &inner));
    }
    return td_sh_acc_end(s, &outer);
}

static void exact_sum(mpfr_t out, const vec *v) {
    static mpfr_t t[NMAX];
    static mpfr_ptr tp[NMAX];
    static int init;
    if (!init) {
        for (long i = 0; i < NMAX; i++) mpfr_init2(t[i], 64), tp[i] = t[i];
        init = 1;
    }
    for (long i = 0; i < v->n; i++) {
        mpfr_set_flt(t[i], v->a[i], MPFR_RNDN);
        mpfr_mul_d(t[i], t[i], (double)v->b[i], MPFR_RNDN); /* 48 bits: exact */
    }
    mpfr_sum(out, tp, (unsigned long)v->n, MPFR_RNDN); /* exact at 640 bits (see the top) */
}

/* ---- statistics and the check ---- */
typedef struct stats {
    long checks, unbounded, cast_checks, cast_straddles, cast_unbounded;
    double worst[4][2]; /* max err/ek per declared order (ANY, TREE, BLOCKED, SEQ) and sum/dot */
    char worst_what[4][2][160];
} stats;

static mpfr_t ex, d;

/* |kernel - exact| <= ek, exactly; on a violation, the counterexample in full */
static void check(stats *st, double kv, td_sh sh, td_order decl, long B, const char *what, const vec *v,
                  enum dist dist, uint64_t seed, uint32_t lane_flags) {
    st->checks++;
    if (!isfinite(sh.ek)) {
        /* an infinite bound accepts anything: counted (and bounded below), never silent */
        assert_true(lane_flags & TD_LF_UNBOUNDED);
        st->unbounded++;
        return;
    }
    if (!isfinite(kv) || mpfr_sub_d(d, ex, kv, MPFR_RNDN) != 0) {
        fprintf(stderr, "non-finite or inexact kernel value %a (%s)\n", kv, what);
        fail();
    }
    mpfr_abs(d, d, MPFR_RNDN);
    if (mpfr_cmp_d(d, sh.ek) > 0) {
        fprintf(stderr,
                "BOUND VIOLATED: %s, declared order %d block %ld, %s n=%ld dist=%s seed=%llu\n"
                "  kernel=%a exact~%a |err|~%a ek=%a (err/ek %.4g)\n",
                what, (int)decl, B, v->dot ? "dot" : "sum", v->n, dist_names[dist], (unsigned long long)seed, kv,
                mpfr_get_d(ex, MPFR_RNDN), mpfr_get_d(d, MPFR_RNDU), sh.ek, mpfr_get_d(d, MPFR_RNDU) / sh.ek);
        fail();
    }
    double ratio = sh.ek > 0 ? mpfr_get_d(d, MPFR_RNDU) / sh.ek : 0;
    if (ratio > st->worst[decl][v->dot]) {
        st->worst[decl][v->dot] = ratio;
        snprintf(st->worst_what[decl][v->dot], sizeof st->worst_what[0][0], "%s n=%ld %s", what, v->n,
                 dist_names[dist]);
    }
}

static const td_profile cast_profiles[4] = {{TD_F16, TD_RNE, TD_OVF_INF, false},
                                            {TD_BF16, TD_RNE, TD_OVF_INF, false},
                                            {TD_E4M3FN, TD_RNE, TD_OVF_SAT, false},
                                            {TD_E5M2, TD_RNE, TD_OVF_SAT, false}};

/* The kernel stores its binary32 result in a narrower format: judged against the cast
 * of the exact value with the cast's ek (the admissible interval before the cast). */
static void check_casts(stats *st, td_shcx *s, double kv, td_sh sh, const char *what) {
    for (int c = 0; c < 4; c++) {
        td_profile p = cast_profiles[c];
        td_sh r = td_sh_cast_to(s, sh, p, "store");
        double kc = td_decode(p.fmt, td_encode_f64(p, kv));
        double xc = td_decode(p.fmt, td_encode_mpfr(p, ex));
        st->cast_checks++;
        if (!isfinite(r.ek)) {
            /* only where the admissible interval reaches the format's overflow range */
            assert_true(fabs(sh.v) + sh.es + sh.ek > td_fmt_get(p.fmt)->max_finite);
            st->cast_unbounded++;
            continue;
        }
        if (kc == xc) continue; /* (also the same infinity) */
        st->cast_straddles++; /* the kernel took the other neighbour */
        if (!(fabs(kc - xc) <= r.ek)) {
            fprintf(stderr, "CAST BOUND VIOLATED: %s, format %d: kernel %a -> %a, exact -> %a, ek=%a (before: ek=%a)\n",
                    what, (int)p.fmt, kv, kc, xc, r.ek, sh.ek);
            fail();
        }
    }
}

static void run_vector(stats *st, vec *v, enum dist dist, uint64_t seed, td_rng *r) {
    long n = v->n;
    td_shcx s;
    init_cx(&s);
    td_sh any = shadow_sum(&s, v, TD_ORDER_ANY, 0), nested = shadow_nested(&s, v);
    uint32_t fl_any = s.lane_flags;
    s.lane_flags = 0;
    td_sh seq = shadow_sum(&s, v, TD_ORDER_SEQ, 0), tree = shadow_sum(&s, v, TD_ORDER_TREE, 0), blk[NBLK];
    for (int b = 0; b < NBLK; b++) blk[b] = shadow_sum(&s, v, TD_ORDER_BLOCKED, blocks[b]);
    uint32_t fl_decl = s.lane_flags;
    exact_sum(ex, v);
    for (long i = 0; i < n; i++) idx_id[i] = i, idx_rev[i] = n - 1 - i, idx_perm[i] = i;
    for (long i = n - 1; i > 0; i--) {
        long j = (long)td_rng_below(r, (uint64_t)i + 1), t = idx_perm[i];
        idx_perm[i] = idx_perm[j], idx_perm[j] = t;
    }
    for (int fma = 0; fma <= v->dot; fma++) {
        kctx k = {v, fma, r};
        for (int im = 0; im < I_COUNT; im++) {
            int blocked = impl_decl((enum impl)im) == TD_ORDER_BLOCKED;
            int split = im == I_SPLITK || im == I_SPLITK_STRIDED;
            for (int b = 0; b < (blocked ? NBLK : split ? 4 : 1); b++) {
                static const long ks[4] = {2, 3, 8, 61};
                long B = blocked ? blocks[b] : 0, kk = split ? (ks[b] < n ? ks[b] : n) : 0;
                double kv = (double)run_impl(&k, (enum impl)im, n, B, kk);
                char what[96];
                snprintf(what, sizeof what, "%s%s B=%ld k=%ld", impl_names[im], fma ? " + fma" : "", B, kk);
                check(st, kv, any, TD_ORDER_ANY, 0, what, v, dist, seed, fl_any);
                check(st, kv, nested, TD_ORDER_ANY, 0, what, v, dist, seed, fl_any);
                td_order dcl = impl_decl((enum impl)im);
                if (dcl != TD_ORDER_ANY) {
                    td_sh sd = dcl == TD_ORDER_SEQ ? seq : dcl == TD_ORDER_TREE ? tree : blk[b];
                    check(st, kv, sd, dcl, B, what, v, dist, seed, fl_decl);
                }
                check_casts(st, &s, kv, any, what);
            }
        }
    }
}

void test_sum_orders(void **state) {
    (void)state;
    mpfr_init2(ex, 640);
    mpfr_init2(d, 640);
    static vec v;
    stats st;
    memset(&st, 0, sizeof st);
    td_rng r;
    uint64_t seed = 20261201;
    for (int dot = 0; dot <= 1; dot++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int dist = 0; dist < D_COUNT; dist++) {
                int reps = sizes[si] >= 1000 ? 2 : 6;
                for (int rep = 0; rep < reps; rep++, seed++) {
                    td_rng_seed(&r, seed);
                    make_vec(&v, &r, (enum dist)dist, sizes[si], dot);
                    run_vector(&st, &v, (enum dist)dist, seed, &r);
                }
            }
    static const char *onames[4] = {"any", "tree", "blocked", "sequential"};
    fprintf(stderr,
            "sum/dot orders: %ld checks (%ld unbounded), %ld cast checks (%ld took the other neighbour, %ld unbounded: "
            "interval beyond the format's range)\n",
            st.checks, st.unbounded, st.cast_checks, st.cast_straddles, st.cast_unbounded);
    for (int o = 0; o < 4; o++)
        for (int dt = 0; dt < 2; dt++)
            fprintf(stderr, "  declared %-10s %s: worst err/ek %.3f (%s)\n", onames[o], dt ? "dot" : "sum",
                    st.worst[o][dt], st.worst_what[o][dt]);
    /* Not vacuous: on every declared order, sum and dot, some implementation uses more
     * than TIGHT_MIN of its bound, so a bound loosened by the factor 1/TIGHT_MIN fails. */
    for (int o = 0; o < 4; o++)
        for (int dt = 0; dt < 2; dt++) assert_true(st.worst[o][dt] > TIGHT_MIN);
    /* the straddling-cast path ran and accepted the other neighbour */
    assert_true(st.cast_straddles > 0);
    /* no term vector here can overflow: an unbounded lane would be a model defect */
    assert_int_equal(st.unbounded, 0);
    mpfr_clear(ex);
    mpfr_clear(d);
}
