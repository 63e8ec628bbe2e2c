/* The shadow number type: the fast instantiation of a contract's spec.
 *
 * A td_sh carries, for one value of the spec:
 *   v   a binary64 approximation of the exact (real) spec value x*,
 *   es  a bound on the shadow's own error:            |v - x*| <= es,
 *   ek  a rigorous bound on the kernel's error:       |xk - x*| <= ek,
 *       where xk is what the kernel computes for this value in its own
 *       arithmetic (binary32 unless the spec says otherwise),
 *   ep  the probabilistic (Higham-Mary) counterpart of ek, ep <= ek; a lane whose
 *       error exceeds ep but not ek is a WARN, not a FAIL.
 *
 * Propagation rules (standard model, Higham ASNA ch. 2-3).  For an operation with
 * exact result r on exact operands a, b (|a| <= Ma, |b| <= Mb, Ma = |va| + esa)
 * whose kernel operands carry errors A, B, the kernel evaluates the operation on
 * its perturbed operands (propagated error P, a bound of |r(a^,b^) - r(a,b)|) and
 * rounds once in the evaluation format:
 *       ek = P + u * (Mr + P) + eta
 * with u the unit roundoff of the evaluation format, Mr = |vr| + esr >= |r|, and
 * eta = half the smallest subnormal for operations whose result can underflow
 * inexactly (not for + and -, whose subnormal results are exact).  P keeps its
 * second-order terms (A*B for products).  Math functions add their budget from the
 * backend's math model instead of u * (Mr + P).  Every bound is computed in binary64
 * and then inflated by td_up() (one factor (1 + 2^-50) covers the <= 8 roundings of
 * each rule), so the computed bound is never below the real one.
 *
 * Flags: TD_SH_EXACTK says the kernel's value is exactly x* (inputs, exact
 * constants, exact operations such as max/abs/neg on exact values); TD_SH_CR says
 * the kernel's value is RN_eval(x*) (one correctly rounded operation on exact
 * operands), which lets a following cast to the evaluation format cost nothing.
 *
 * The shadow's own error es is propagated the same way with u64 = 2^-53 for the
 * binary64 operations, and 4 ulp64 for binary64 libm functions (glibc documents
 * <= 2 ulp for the functions used; the factor 2 margin is cheap because es only
 * decides which lanes need MPFR).
 */
#ifndef TD_SHADOW_H
#define TD_SHADOW_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "budget.h"
#include "rounding.h"
#include "nocov.h"

TD_NOCOV_BEGIN

#define TD_SH_EXACTK 1u /* kernel value == exact value */
#define TD_SH_CR 2u     /* kernel value == RN_eval(exact value) */
/* The exact value is undefined: an operation whose exact result is undefined (an IEEE
 * invalid operation on operands the shadow holds exactly: -inf - -inf, 0/0, 0 * inf,
 * inf/inf; e.g. x_j - max over a row whose every score is -inf, or a division by the
 * empty sum of such a row), or any operation on such a value.  A per-VALUE flag: a
 * lane is undefined only when its output value carries it, never because some
 * intermediate of its evaluation had it and was discarded (a selection whose exact
 * branch is certain keeps only that branch's flag).  The harness's rule "undefined
 * lane" (engine/harness.c) judges such lanes. */
#define TD_SH_UNDEF 4u

typedef struct td_sh {
    double v, es, ek, ep;
    uint32_t fl;
    /* A sum's terms, when this value is a sum (td_sh_acc_end) or its negation; 0
     * otherwise.  A sum of sums is one sum of all their terms to a kernel that may
     * associate it in any order: the outer sum's bound is taken over all leaves. */
    uint32_t leaves;
} td_sh;

/* Lane-level conditions the shadow discovers while evaluating a spec. */
#define TD_LF_MAYOVF 1u     /* some kernel intermediate may overflow the evaluation format */
#define TD_LF_UNBOUNDED 2u  /* the model cannot bound the error (e.g. a divisor whose interval holds 0) */
#define TD_LF_DOMAIN 4u     /* an argument may leave a function's domain (log of <= 0, sqrt of < 0) */
#define TD_LF_TIE 8u        /* a comparison or cast whose outcome the shadow cannot decide */
#define TD_LF_CASTOVF 16u   /* only a final cast's overflow is unbounded: the kernel's value before it is bounded */

/* How a kernel's sums associate.  A kernel that declares nothing may use any order
 * and tree shape, split-K partials combined in any order included: TD_ORDER_ANY.  A
 * declared order (kernel ABI v2 `declares`: order=seq|tree|blocked:B) narrows it. */
typedef enum td_order { TD_ORDER_ANY = 0, TD_ORDER_TREE, TD_ORDER_BLOCKED, TD_ORDER_SEQ } td_order;

/* One recorded step of a trace (tilediff explain, finding reports). */
typedef struct td_trace_step {
    const char *op;  /* "add", "exp", "cast store", "sum" ... */
    double v;        /* shadow value after the step */
    double prop;     /* error propagated from the operands */
    double local;    /* error added by this step (rounding, function budget, cast) */
    double ek;       /* bound after the step */
    double ep;
    int n;           /* terms, for sums */
    const char *note;
} td_trace_step;

typedef struct td_trace {
    td_trace_step *steps;
    int n, cap;
} td_trace;

/* One memoised per-case value (td_sh_memo_put). */
typedef struct td_sh_memo_ent {
    uint64_t key;
    td_sh v;
    uint32_t flags; /* the lane flags met computing it (restored on a hit) */
    uint32_t gen;   /* live while it equals the context's memo_gen (0: never written) */
} td_sh_memo_ent;

typedef struct td_shcx {
    td_fmt efmt;       /* evaluation format of the kernel's arithmetic */
    double u;          /* its unit roundoff */
    double eta;        /* half its smallest subnormal */
    double ovf;        /* its overflow threshold (values >= this round to inf) */
    double ulp_min;    /* its smallest subnormal */
    double lambda_n;   /* probabilistic bound: the number of sums a lane may hold (see acc_end) */
    const td_math_model *math;
    td_order order;    /* the kernel's declared summation order (TD_ORDER_ANY: none) */
    long block;        /* its block, for TD_ORDER_BLOCKED */
    bool div_ieee;     /* declared: a/b is one correctly rounded division */
    const td_profile *casts; /* the kernel's profile for each cast slot */
    int ncasts;
    uint32_t lane_flags;
    td_trace *trace; /* NULL unless explaining */
    td_sh_memo_ent *memo; /* per-case memo of per-row quantities (sh_memo.c) */
    size_t memo_cap, memo_n;
    uint32_t memo_gen; /* the current case's generation (>= 1 once the table exists) */
} td_shcx;

/* Per-case memo of the shadow values of per-row quantities (a row's max, sum ...),
 * keyed by the contract: the same computation for every lane of a row, done once per
 * case.  A hit also restores the lane flags met computing the value.  While a lane is
 * traced the memo neither hands out nor stores values, so the trace shows every step.
 * The MPFR pass has its own (td_mp_memo_get in mp.h). */
int td_sh_memo_get(td_shcx *cx, uint64_t key, td_sh *out);
void td_sh_memo_put(td_shcx *cx, uint64_t key, td_sh v);
void td_shcx_memo_clear(td_shcx *cx); /* at the start of every case */
void td_shcx_memo_free(td_shcx *cx);

typedef int td_shb; /* comparison result: see td_sh_cmp */

/* An upper bound that is never NaN: a NaN (0 * inf: an exact 0 times an operand the
 * kernel may hold as inf, whose product is NaN; inf - inf) is no bound, and fmax would
 * silently drop it downstream. */
static inline double td_nonan(double x) { return x == x ? x : INFINITY; }

/* TD_SH_UNDEF of a result: an operand's, or the operation's own where its operands are
 * exact (es = 0: v is the exact value, so a NaN v is the exact result's) and defined
 * while the binary64 result v is NaN. */
static inline uint32_t td_sh_undef2(td_sh a, td_sh b, double v) {
    uint32_t in = (a.fl | b.fl) & TD_SH_UNDEF;
    return in | (v != v && a.es == 0 && b.es == 0 && a.v == a.v && b.v == b.v ? TD_SH_UNDEF : 0u);
}
static inline td_sh td_sh_with_undef(td_sh r, uint32_t undef) {
    r.fl |= undef;
    return r;
}

/* binary64 bound arithmetic, inflated so that the result is an upper bound. */
static inline double td_up(double x) { return x * (1.0 + 0x1p-50) + 0x1p-1074; }
static inline double td_mag(td_sh a) { return fabs(a.v) + a.es; } /* >= |x*| */
static inline double td_magk(td_sh a) { return fabs(a.v) + a.es + a.ek; } /* >= |kernel value| */
static inline double td_low(td_sh a) { double m = fabs(a.v) - a.es; return m > 0 ? m : 0; } /* <= |x*| */
/* fmax / fmin without a libm call where the operands differ or are the same double:
 * C17 7.12.12.2 returns the larger (smaller) numeric value, which is then that operand
 * itself; +0 against -0 and a NaN still go to libm, whose choice there is its own.
 * Every result is libm's, bit for bit (test_sh_fast).  The calls were a fifth of a max
 * of shadows (softmax's spread: three bounds, mostly 0 against 0, per term). */
static inline double td_max_of(double x, double y) {
    return x > y ? x : y > x ? y : x == y && signbit(x) == signbit(y) ? x : fmax(x, y);
}
static inline double td_min_of(double x, double y) {
    return x < y ? x : y < x ? y : x == y && signbit(x) == signbit(y) ? x : fmin(x, y);
}

void td_sh_trace_push(td_shcx *cx, const char *op, td_sh r, double prop, double local, int n, const char *note);
#define TD_SH_TRACE(cx, op, r, prop, local, n, note)                                                           \
    do {                                                                                                        \
        if ((cx)->trace) td_sh_trace_push((cx), (op), (r), (prop), (local), (n), (note));                      \
    } while (0)

/* The rounding step of the standard model: the kernel's operation on perturbed
 * operands (propagated P for ek, Pp for ep) rounded once in the evaluation format. */
double td_round_eval_other(const td_shcx *cx, double x); /* td_round_eval for formats other than binary32/64 */
/* RN of x in the evaluation format; inline for binary32 (a conversion to float is RNE
 * with subnormals and IEEE overflow) and binary64: every rounded step calls it. */
static inline double td_round_eval(const td_shcx *cx, double x) {
    if (cx->efmt == TD_F32) return (double)(float)x;
    if (cx->efmt == TD_F64) return x;
    return td_round_eval_other(cx, x);
}
static inline td_sh td_sh_rounded(td_shcx *cx, const char *op, double v, double es, double P, double Pp,
                                  bool eta, bool exact_operands) {
    td_sh r;
    r.v = v;
    r.es = es = td_nonan(es);
    r.leaves = 0;
    double m = fabs(v) + es;
    if (m + P >= cx->ovf) cx->lane_flags |= TD_LF_MAYOVF;
    if (exact_operands && es == 0) {
        /* The kernel rounds the exact value v once: its error is known exactly. */
        double k = td_round_eval(cx, v);
        double d = k == v ? 0 : fabs(k - v); /* an exact infinity (a masked -inf score) is held exactly */
        r.ek = r.ep = isfinite(d) ? d : INFINITY;
        if (!isfinite(d)) cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED; /* RN_eval(v) overflows */
        r.fl = (d == 0) ? (TD_SH_EXACTK | TD_SH_CR) : TD_SH_CR;
        TD_SH_TRACE(cx, op, r, 0, r.ek, 0, d == 0 ? "exact in the evaluation format" : "one rounding of an exact value");
        return r;
    }
    double e = eta ? cx->eta : 0.0;
    P = td_nonan(P);
    Pp = td_nonan(Pp);
    r.ek = td_up(P + cx->u * (m + P) + e);
    r.ep = td_up(Pp + cx->u * (m + Pp) + e);
    if (r.ep > r.ek) r.ep = r.ek;
    r.fl = exact_operands ? TD_SH_CR : 0;
    if (m + P >= cx->ovf || !(r.ek < INFINITY)) {
        /* the kernel's value may be +-inf (or the shadow has no finite value): no finite
         * bound (what follows an inf, e.g. 1/(1+inf) = 0, can still be right; the lane
         * is then counted as unbounded) */
        r.ek = r.ep = INFINITY;
        cx->lane_flags |= TD_LF_UNBOUNDED;
    }
    TD_SH_TRACE(cx, op, r, P, r.ek - P, 0, NULL);
    return r;
}

/* ---- values ---- */
/* An input value (loaded exactly from a region) or an exact constant. */
static inline td_sh td_sh_exact(td_shcx *cx, double x) {
    (void)cx;
    td_sh r = {x, 0, 0, 0, TD_SH_EXACTK, 0};
    return r;
}
/* A kernel literal: the real constant c (approximated by x with |x - c| <= esx) that
 * the kernel rounds once to its evaluation format. */
td_sh td_sh_lit(td_shcx *cx, double x, double esx);

/* ---- arithmetic in the kernel's evaluation format ---- */
/* Error-free check of a binary64 sum (TwoSum): 1 if va + vb == v exactly. */
static inline int td_twosum_exact(double a, double b, double s) {
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    return err == 0 && isfinite(s);
}
static inline td_sh td_sh_addop(td_shcx *cx, td_sh a, td_sh b, const char *name) {
    double v = a.v + b.v;
    double es = (a.es == 0 && b.es == 0 && td_twosum_exact(a.v, b.v, v)) ? 0
                                                                         : td_up(a.es + b.es + 0x1p-53 * fabs(v));
    /* an exact infinity plus an exact finite value (a masked -inf score minus a finite
     * max) is exactly that infinity */
    if (a.es == 0 && b.es == 0 && isinf(v) && (isinf(a.v) || isinf(b.v))) es = 0;
    td_sh r = td_sh_rounded(cx, name, v, es, a.ek + b.ek, a.ep + b.ep, false, (a.fl & b.fl & TD_SH_EXACTK) != 0);
    return td_sh_with_undef(r, td_sh_undef2(a, b, v));
}
static inline td_sh td_sh_add(td_shcx *cx, td_sh a, td_sh b) { return td_sh_addop(cx, a, b, "add"); }
static inline td_sh td_sh_neg(td_shcx *cx, td_sh a) {
    (void)cx;
    a.v = -a.v;
    return a;
}
static inline td_sh td_sh_sub(td_shcx *cx, td_sh a, td_sh b) { return td_sh_addop(cx, a, td_sh_neg(cx, b), "sub"); }
static inline td_sh td_sh_mul(td_shcx *cx, td_sh a, td_sh b) {
    double v = a.v * b.v;
    double ma = td_mag(a), mb = td_mag(b);
    double es = (a.es == 0 && b.es == 0 && fabs(v) >= 0x1p-960 && fma(a.v, b.v, -v) == 0)
                    ? 0 /* exact binary64 product */
                    : td_up(ma * b.es + mb * a.es + a.es * b.es + 0x1p-53 * fabs(v) + 0x1p-1074);
    if (v == 0 && (a.v == 0 || b.v == 0) && a.es == 0 && b.es == 0) es = 0;
    if (a.es == 0 && b.es == 0 && isinf(v) && (isinf(a.v) || isinf(b.v))) es = 0; /* inf times a nonzero: exact */
    double P = td_up(ma * b.ek + mb * a.ek + a.ek * b.ek);
    double Pp = td_up(ma * b.ep + mb * a.ep + a.ep * b.ep);
    td_sh r = td_sh_rounded(cx, "mul", v, es, P, Pp, true, (a.fl & b.fl & TD_SH_EXACTK) != 0);
    return td_sh_with_undef(r, td_sh_undef2(a, b, v));
}
/* fma(a, b, c) = a*b + c with one rounding. */
static inline td_sh td_sh_fma(td_shcx *cx, td_sh a, td_sh b, td_sh c) {
    double v = fma(a.v, b.v, c.v);
    double ma = td_mag(a), mb = td_mag(b);
    double es = td_up(ma * b.es + mb * a.es + a.es * b.es + c.es + 0x1p-53 * fabs(v) + 0x1p-1074);
    double P = td_up(ma * b.ek + mb * a.ek + a.ek * b.ek + c.ek);
    double Pp = td_up(ma * b.ep + mb * a.ep + a.ep * b.ep + c.ep);
    td_sh r = td_sh_rounded(cx, "fma", v, es, P, Pp, true, (a.fl & b.fl & c.fl & TD_SH_EXACTK) != 0);
    uint32_t in = (a.fl | b.fl | c.fl) & TD_SH_UNDEF;
    int origin = v != v && a.es == 0 && b.es == 0 && c.es == 0 && a.v == a.v && b.v == b.v && c.v == c.v;
    return td_sh_with_undef(r, in | (origin ? TD_SH_UNDEF : 0u));
}
td_sh td_sh_div(td_shcx *cx, td_sh a, td_sh b);
td_sh td_sh_div_generic(td_shcx *cx, td_sh a, td_sh b); /* its reference: every quotient on each call */
td_sh td_sh_sqrt(td_shcx *cx, td_sh a);
td_sh td_sh_rsqrt(td_shcx *cx, td_sh a);

/* ---- math functions (budget from the kernel's math model) ---- */
td_sh td_sh_exp(td_shcx *cx, td_sh a);
td_sh td_sh_exp2(td_shcx *cx, td_sh a);
/* td_sh_exp computing every libm call it skips (tests/test_sh_fast.c) */
td_sh td_sh_exp_generic(td_shcx *cx, td_sh a);
td_sh td_sh_log(td_shcx *cx, td_sh a);
td_sh td_sh_log2(td_shcx *cx, td_sh a);
td_sh td_sh_sin(td_shcx *cx, td_sh a);
td_sh td_sh_cos(td_shcx *cx, td_sh a);
td_sh td_sh_tanh(td_shcx *cx, td_sh a);
td_sh td_sh_erf(td_shcx *cx, td_sh a);
/* sigmoid(x) evaluated by the kernel as 1 / (1 + exp(-x)) */
td_sh td_sh_sigmoid(td_shcx *cx, td_sh a);

/* ---- exact operations (no rounding) ---- */
static inline td_sh td_sh_abs(td_shcx *cx, td_sh a) {
    (void)cx;
    a.v = fabs(a.v);
    return a;
}
td_sh td_sh_max(td_shcx *cx, td_sh a, td_sh b);
td_sh td_sh_min(td_shcx *cx, td_sh a, td_sh b);
/* sign(x) in {-1, 0, 1}: discontinuous at 0, so a kernel value within its error of 0
 * may have either sign. */
td_sh td_sh_sign(td_shcx *cx, td_sh a);
/* Multiplication by a power of two is exact (barring under/overflow). */
td_sh td_sh_ldexp(td_shcx *cx, td_sh a, int e);

/* ---- comparisons and selection ----
 * td_sh_cmp returns a tri-state for "a > b" (op '>') or "a >= b" (op 'g'):
 *   bit 0: the shadow's best guess of the exact comparison,
 *   bit 1: the exact comparison is certain (the shadow intervals do not overlap),
 *   bit 2: the kernel's comparison is certain to agree with the exact one,
 *   bit 3: the exact comparison is undefined (an operand carries TD_SH_UNDEF).
 * td_sh_sel(c, a, b) is "c ? a : b" and widens es / ek to cover the other branch
 * whenever the exact or the kernel's comparison is uncertain. */
td_shb td_sh_cmp(td_shcx *cx, td_sh a, td_sh b, char op);
td_sh td_sh_sel(td_shcx *cx, td_shb c, td_sh a, td_sh b);
static inline bool td_sh_truth(td_shb c) { return c & 1; }

/* The mean sum / n of n terms as any competent kernel may compute it: the sum then one
 * division, sum(x / n), or Welford's running mean (see shadow.c). */
td_sh td_sh_mean(td_shcx *cx, td_sh sum, long n);

/* Two evaluations of the same real value (algebraically equal forms, e.g. b*m +
 * (1-b)*g and (m-g)*b + g, or a lerp m + (1-b)*(g-m)): a competent kernel may
 * write either, so the bound is the larger of the two; the value is a's. */
static inline td_sh td_sh_either(td_shcx *cx, td_sh a, td_sh b) {
    (void)cx;
    a.ek = fmax(a.ek, b.ek);
    a.ep = fmax(a.ep, b.ep);
    a.fl = (a.fl & b.fl) | ((a.fl | b.fl) & TD_SH_UNDEF);
    a.leaves = 0;
    return a;
}

/* ---- casts ----
 * Interval-aware: the kernel's value lies in [x* - ek, x* + ek] and x* in
 * [v - es, v + es]; the cast of any value in the union is monotone, so the cast
 * result's error relative to the reference's cast is bounded by the casts of the
 * interval ends.  A cast whose interval does not straddle a rounding boundary
 * costs nothing; a kernel value that is exactly x* costs nothing. */
td_sh td_sh_cast(td_shcx *cx, td_sh a, int slot);
td_sh td_sh_cast_to(td_shcx *cx, td_sh a, td_profile p, const char *what);
/* |value| bounds of a for magnitude estimates: hi >= max(|x*|, |kernel value|) */
static inline double td_sh_hi(td_shcx *cx, td_sh a) {
    (void)cx;
    return td_up(td_magk(a));
}
/* upper / lower bounds of the exact and the kernel's value (signed) */
static inline double td_sh_up(td_shcx *cx, td_sh a) {
    (void)cx;
    return td_up(a.v + a.es + a.ek);
}
static inline double td_sh_down(td_shcx *cx, td_sh a) {
    (void)cx;
    return -td_up(-a.v + a.es + a.ek);
}

/* ---- sums ----
 * A sum of n terms (a reduction, a dot product): each term's kernel error is carried,
 * and the accumulation adds gamma_neff(u) * sum(|terms| + errors), where neff is the
 * longest chain of additions any term goes through in the KERNEL's order: any order
 * (the default; split-K and every tree shape included): n-1; a declared tree:
 * ceil(log2 n); a declared blocked loop of T steps of B-lane tiles summed in any order
 * inside the tile: B-1+T (Higham ASNA, sec. 4.2).  The order a spec passes to
 * acc_init describes the contract's source and does not narrow the bound: only the
 * kernel's declaration does.  FMA contraction (s = fma(a, b, s)) is covered: it
 * removes the rounding of each product, whose error the terms already carry.  A
 * term that is itself a sum counts with all its leaves (see td_sh.leaves).  The
 * probabilistic bound uses gamma~(lambda) = exp(lambda sqrt(neff) u + neff u^2/(1-u))
 * - 1 (Higham & Mary 2019). */
typedef struct td_sh_acc {
    double sv, sabs, ses, sek, sep, smagk;
    double sleaf; /* sum over terms of the magnitude of their leaves (>= smagk) */
    long n, leaves;
    td_order order;
    long block;
    int exact;
    /* every term so far has the shadow value v0 (a constant row, a constant vector's dot
     * product): the rounding errors of its partial sums are then not independent (the
     * same operands at every step: Higham & Mary's model does not apply), so the
     * probabilistic bound falls back to the rigorous one (td_sh_acc_end) */
    int same;
    double v0;
    uint32_t undef; /* TD_SH_UNDEF of any term */
} td_sh_acc;
void td_sh_acc_init(td_shcx *cx, td_sh_acc *acc, td_order order, long block);
double td_sh_leaf_mag(const td_shcx *cx, td_sh t);
static inline void td_sh_acc_add(td_shcx *cx, td_sh_acc *acc, td_sh t) {
    if (acc->n == 0) acc->v0 = t.v;
    else if (t.v != acc->v0 || t.leaves > 1) acc->same = 0;
    acc->sleaf += t.leaves > 1 ? td_sh_leaf_mag(cx, t) : fabs(t.v) + t.es + t.ek;
    acc->leaves += t.leaves > 1 ? t.leaves : 1;
    acc->sv += t.v;
    acc->sabs += fabs(t.v);
    acc->ses += t.es;
    acc->sek += t.ek;
    acc->sep += t.ep;
    acc->smagk += fabs(t.v) + t.es + t.ek;
    acc->n++;
    acc->exact &= (t.fl & TD_SH_EXACTK) ? 1 : 0;
    acc->undef |= t.fl & TD_SH_UNDEF;
}
td_sh td_sh_acc_end(td_shcx *cx, td_sh_acc *acc);
/* A sum s of n terms w_j * e^(x_j - m) (base2: 2^(x_j - m)), |w_j| <= wmax, m the
 * terms' maximum argument and spread >= max_j (m - x_j).  An implementation may
 * accumulate it online (one pass, a running maximum, the partial sum rescaled by
 * e^(m_old - m_new) whenever the maximum grows: at most n-1 times, the maxima growing
 * by at most `spread` in all) or in several passes: the bound covers both. */
td_sh td_sh_rescaled(td_shcx *cx, td_sh s, long n, td_sh spread, int base2, double wmax);
/* A rounding the kernel makes and the contract does not (the catalogue's hfp16:
 * R.round .fp16 = id: the fp16 P operand of an attention's P.V dot, the fp16 result
 * of tl.dot(..., out_dtype=fp16)), to the format of cast slot `slot`, applied to a
 * value the kernel may hold at ANY scale c >= 1 of the spec's (an online softmax casts
 * p = e^(s - m') at its running max m' <= the final max m, then rescales by
 * e^(m' - m)).  Where the kernel casts depends on its blocking, so no rounding
 * boundary can be placed: the relative part u_f (|x| + ek) is always charged.  The
 * absolute part (subnormal results of the format: eta_f at the cast's scale, at most
 * eta_f at the final scale since c >= 1) is NOT charged here: the caller adds it at
 * the final scale (td_sh_widen), where it is largest.  The reference does not round
 * (td_mp_kround). */
td_sh td_sh_kround(td_shcx *cx, td_sh a, int slot);
td_sh td_sh_kround_to(td_shcx *cx, td_sh a, td_profile p); /* the same to a profile the contract names */
/* a widened by `count` times the absolute error of one such rounding in the range of
 * subnormals of slot's format (half its smallest subnormal; the smallest normal where
 * the slot flushes), plus the relative part of roundings of values of total magnitude
 * relmag (where the values a kernel rounds depend on its blocking: the partial P.V
 * products of its blocks, whose magnitudes add up to at most relmag) */
td_sh td_sh_kround_abs(td_shcx *cx, td_sh a, int slot, double count, double relmag);
td_sh td_sh_kround_abs_to(td_shcx *cx, td_sh a, td_profile p, double count, double relmag);
/* a's kernel error bound widened by e >= 0 (a term the caller derives; `why` names it
 * in traces); the reference is unchanged */
td_sh td_sh_widen(td_shcx *cx, td_sh a, double e, const char *why);
/* The output of an online softmax-weighted sum s = sum_{j<n} w_j e^(x_j - m) (base2:
 * 2^(x_j - m)), m = max_j x_j, evaluated by the spec in ONE blocking (its port's),
 * widened to cover every other blocking and order a kernel may choose (shadow.c):
 * smag >= sum_j |w_j| e^(x_j - m) (kernel magnitudes), |w_j| <= wmax; one rescale step
 * makes `muls` roundings (u each: acc * alpha, l * alpha ...) and `divs` divisions or
 * reciprocals (the math model's budget) besides its exp. */
td_sh td_sh_reblock(td_shcx *cx, td_sh s, long n, double smag, double wmax, int base2, int muls, int divs);
/* The widening td_sh_reblock adds, at the scale where the largest weight is 1; `args`:
 * also the argument roundings of the running maxima (for a spec that has none). */
double td_sh_reblock_loc(td_shcx *cx, long n, double smag, double wmax, int base2, int muls, int divs, int args);
/* neff of an accumulation scheme (exposed for tests and explain). */
long td_sum_neff(td_order order, long n, long block);
double td_gamma(long n, double u);
double td_gamma_prob(long n, double u, double lambda);
/* lambda such that n-term sums fail the probabilistic bound with probability
 * below 1e-9 / nsums per lane (see shadow.c). */
double td_lambda(long n, double nsums);

TD_NOCOV_END
#endif
