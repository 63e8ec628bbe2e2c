/* Shadow rules that are too long to inline.  Every rule's derivation is next to it;
 * notation as in shadow.h (A, B kernel errors of the operands, Ma upper and la
 * lower bounds of an operand's exact magnitude). */
#include "shadow.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "nocov.h"
#include "sh_castv.h"

/* the oracle: no fuzzing coverage instrumentation (nocov.h) */
TD_NOCOV_BEGIN

#define U64 0x1p-53
/* binary64 libm functions (shadow values): 4 ulp64 relative, see shadow.h. */
#define LIBM64 (4 * 0x1p-52)

void td_sh_trace_push(td_shcx *cx, const char *op, td_sh r, double prop, double local, int n, const char *note) {
    td_trace *t = cx->trace;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        td_trace_step *s = realloc(t->steps, (size_t)cap * sizeof *s);
        if (!s) return; /* an explanation loses steps, never the verdict */
        t->steps = s;
        t->cap = cap;
    }
    td_trace_step *s = &t->steps[t->n++];
    s->op = op;
    s->v = r.v;
    s->prop = prop;
    s->local = local;
    s->ek = r.ek;
    s->ep = r.ep;
    s->n = n;
    s->note = note;
}

double td_round_eval_other(const td_shcx *cx, double x) {
    td_profile p = {cx->efmt, TD_RNE, TD_OVF_INF, false};
    return td_decode(cx->efmt, td_encode_f64(p, x));
}

td_sh td_sh_lit(td_shcx *cx, double x, double esx) {
    /* The kernel holds RN_eval(c).  If x is farther than esx from every rounding
     * boundary of the evaluation format, RN_eval(c) = RN_eval(x) and the error is
     * known to within esx; otherwise it is at most half an ulp. */
    td_sh r;
    r.v = x;
    r.es = esx;
    r.leaves = 0;
    double k = td_round_eval(cx, x);
    double half = 0.5 * td_ulp(cx->efmt, x);
    double d = fabs(k - x);
    if (esx == 0) {
        r.ek = d;
        r.fl = d == 0 ? (TD_SH_EXACTK | TD_SH_CR) : TD_SH_CR;
    } else if (d + esx < half - esx) {
        r.ek = td_up(d + esx);
        r.fl = TD_SH_CR;
    } else {
        r.ek = td_up(half);
        r.fl = TD_SH_CR;
    }
    r.ep = r.ek;
    TD_SH_TRACE(cx, "literal", r, 0, r.ek, 0, "constant rounded to the evaluation format");
    return r;
}

/* Error charged for a math-function result: budget of the kernel's math model (see
 * budget.h for the formula and budget.c for the numbers).  m bounds |result| (of the
 * kernel's evaluation), x bounds |argument| from above and xlo from below.
 * ulp(y) <= 2u|y| + ulp_min for every y (binade spacing of a normal y is at most
 * 2u|y|, and subnormal spacing is ulp_min). */
/* b's budget with its ulps term at `ulps` ulps (not correctly rounded) */
__attribute__((always_inline)) static inline double budget_ulps(const td_shcx *cx, const td_fn_budget *b, double ulps,
                                                               double m, double x) {
    if (!(m < INFINITY) || !(x < INFINITY)) return INFINITY; /* not 0 * inf = NaN below */
    double ulp = 2 * cx->u * m + cx->ulp_min;
    double e = td_up(ulps * ulp + b->ulps_per_absx * x * ulp + b->rel * m + b->abs);
    if (b->trig_approx) e = fmax(e, td_trig_approx_abs(x));
    return e;
}

static double budget_of(const td_shcx *cx, const td_fn_budget *b, double m, double x) {
    if (!(m < INFINITY) || !(x < INFINITY)) return INFINITY;
    if (b->correctly_rounded) return cx->u * m + cx->eta;
    return budget_ulps(cx, b, b->ulps, m, x);
}

/* Flush to zero (ftz budgets): a subnormal result, or the result of a subnormal
 * argument, may come back as 0 (an error of the whole result).  sqrt flushes
 * arguments below 2^-126 (results below 2^-63); rsqrt of a flushed argument is inf;
 * the others flush results below 2^-126. */
static double ftz_charge(td_fn f, double m, double xlo) {
    if (f == TD_FN_RSQRT) return xlo < 0x1p-126 ? INFINITY : 0;
    if (f == TD_FN_SQRT) return fmin(m, 0x1p-63);
    return fmin(m, 0x1p-126);
}

static double fn_budget(const td_shcx *cx, td_fn f, double m, double x, double xlo) {
    const td_fn_budget *b = &cx->math->fn[f];
    double e = budget_of(cx, b, m, x);
    if (b->ftz) e = fmax(e, ftz_charge(f, m, xlo));
    return e;
}

/* A function result with its local error: exact value v (shadow error es),
 * propagated kernel error P / Pp, kernel result magnitude bound mk, local errors
 * loc / locp (worst-case / probabilistic tier). */
/* (inlined: it was a call with a td_sh returned through memory in every exp and div) */
__attribute__((always_inline)) static inline td_sh fn_result_loc(td_shcx *cx, const char *op, td_fn f, double v,
                                                                double es, double P, double Pp, double mk, double loc,
                                                                double locp, bool exact_arg) {
    td_sh r;
    r.v = v;
    r.es = td_nonan(es);
    r.leaves = 0;
    r.ek = td_nonan(td_up(P + loc));
    r.ep = td_nonan(td_up(Pp + locp));
    if (r.ep > r.ek) r.ep = r.ek;
    r.fl = (exact_arg && cx->math->fn[f].correctly_rounded) ? TD_SH_CR : 0;
    if (mk >= cx->ovf) {
        /* the function's binary32 result may be +-inf: no finite bound */
        cx->lane_flags |= TD_LF_MAYOVF;
        r.ek = r.ep = INFINITY;
    }
    if (!isfinite(r.ek)) cx->lane_flags |= TD_LF_UNBOUNDED;
    TD_SH_TRACE(cx, op, r, P, loc, 0, td_fn_name(f));
    return r;
}

/* The same, charging the math model's budget of f; x and xlo bound |argument| from
 * above and below. */
static td_sh fn_result(td_shcx *cx, const char *op, td_fn f, double v, double es, double P, double Pp, double mk,
                       double x, double xlo, bool exact_arg) {
    double loc = fn_budget(cx, f, mk, x, xlo), locp = fn_budget(cx, f, fabs(v) + es + Pp, x, xlo);
    return fn_result_loc(cx, op, f, v, es, P, Pp, mk, loc, locp, exact_arg);
}

/* (A Mb + Ma B) / ((lb - B) lb), the propagated error of a quotient (see td_sh_div) */
static double div_prop(double A, double B, double ma, double mb, double lb) {
    if (!(lb > B)) return INFINITY;
    double d = lb - B;
    return td_up(A / d * (mb / lb) + (ma / lb) * (B / d) + (ma / lb + mb / lb) * 0x1p-1074) + 0x1p-1074;
}

/* The local error of a / b for a kernel that has not declared div=ieee: the math
 * model's division (div.full.f32 in compiled Triton: 2.5 ulp; a correctly rounded one
 * counts 0.5) or a * (1/b) (a reciprocal-multiply: |RN(a RN(1/b)) - a/b| <=
 * (2u + u^2)|a/b|, 1.001 ulp in the budget's units), whichever is larger: `ulps`, which
 * td_sh_div computes once for both tiers.  When |b| may exceed 2^126 the reciprocal is
 * subnormal and carries an absolute error of up to 2.5 ulp_min, times |a|; a model
 * whose division flushes there (div.approx.f32 returns 0 for |b| > 2^126) may lose
 * the whole quotient.  When |b| may be below 2^-128, 1/b overflows and a * (1/b) may be
 * infinite: no finite bound. */
__attribute__((always_inline)) static inline double div_local(td_shcx *cx, double ulps, double mk, double ma, double mb,
                                                             double lbk) {
    double e = budget_ulps(cx, &cx->math->fn[TD_FN_DIV], ulps, mk, ma);
    if (lbk < 0x1p-128) {
        /* 1/b overflows binary32 for |b| < 2^-128: a * (1/b) may be +-inf */
        cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED;
        return INFINITY;
    }
    if (mb >= 0x1p126) {
        e = td_up(e + ma * 2.5 * cx->ulp_min);
        if (cx->math->fn[TD_FN_DIV].ftz) e = fmax(e, mk);
    }
    return e;
}

/* td_sh_div after es, P and Pp: the flags, then the rounding or the model's budget */
__attribute__((always_inline)) static inline td_sh div_finish(td_shcx *cx, td_sh a, td_sh b, double v, double es,
                                                              double P, double Pp, double ma, double mb, double lb) {
    if (!isfinite(P) || !isfinite(es)) cx->lane_flags |= TD_LF_UNBOUNDED;
    bool exact = (a.fl & b.fl & TD_SH_EXACTK) != 0;
    uint32_t undef = td_sh_undef2(a, b, v); /* 0/0 (a division by an empty sum), inf/inf */
    if (cx->div_ieee) return td_sh_with_undef(td_sh_rounded(cx, "div", v, es, P, Pp, true, exact), undef);
    /* mk bounds the kernel's quotient; its operands are at most Ma + A and Mb + B */
    double mk = fabs(v) + es + P;
    double lbk = lb - b.ek; /* the kernel's divisor is at least this in magnitude */
    /* the model's division, at least a reciprocal-multiply's 1.001 ulp (div_local); once
     * for both tiers, not a copy of the budget per call */
    const td_fn_budget *d = &cx->math->fn[TD_FN_DIV];
    double ulps = td_max_of(d->correctly_rounded ? 0.5 : d->ulps, 1.001);
    double loc = div_local(cx, ulps, mk, ma + a.ek, mb + b.ek, lbk);
    double locp = div_local(cx, ulps, fabs(v) + es + Pp, ma, mb, lbk);
    return td_sh_with_undef(fn_result_loc(cx, "div", TD_FN_DIV, v, es, P, Pp, mk, loc, locp, false), undef);
}

/* The rule as derived, every quotient computed on each call: td_sh_div's reference
 * (test_sh_fast compares them). */
td_sh td_sh_div_generic(td_shcx *cx, td_sh a, td_sh b) {
    double v = a.v / b.v;
    double ma = td_mag(a), mb = td_mag(b), lb = td_low(b);
    /* |a/b - va/vb| = |(a-va) vb - va (b-vb)| / (|b| |vb|) <= esa / lb + (|va| / lb) (esb / |vb|),
     * written so that no intermediate underflows (esa |vb| does when both are tiny: a
     * binary64-subnormal numerator over a small divisor), each step rounded up, plus
     * the binary64 quotient's own rounding (absolute 2^-1075 where v is subnormal). */
    double es = lb > 0 ? td_up(td_up(a.es / lb) + td_up(td_up(fabs(a.v) / lb) * td_up(b.es / fabs(b.v))) +
                               U64 * fabs(v) + 0x1p-1074)
                       : INFINITY;
    if (a.es == 0 && b.es == 0 && isfinite(v) && fma(v, b.v, -a.v) == 0 && fabs(v) >= 0x1p-960) es = 0;
    /* |a^/b^ - a/b| = |(a^-a) b - a (b^-b)| / (|b^| |b|) <= (A Mb + Ma B) / ((lb - B) lb)
     *              = (A/(lb - B)) (Mb/lb) + (Ma/lb) (B/(lb - B)), quotients first as above */
    double P = div_prop(a.ek, b.ek, ma, mb, lb), Pp = div_prop(a.ep, b.ep, ma, mb, lb);
    return div_finish(cx, a, b, v, es, P, Pp, ma, mb, lb);
}

/* What td_sh_div_generic computes from the divisor alone: its bounds, esb / |vb| and,
 * for each tier's B, Mb / lb and B / (lb - B), the same expressions. */
typedef struct div_divisor {
    double lb, mb, rb, mblb, dk, bdk, dp, bdp;
} div_divisor;

static void div_divisor_of(td_sh b, div_divisor *p) {
    p->lb = td_low(b), p->mb = td_mag(b);
    p->rb = td_up(b.es / fabs(b.v));
    p->mblb = p->mb / p->lb;
    p->dk = p->lb - b.ek, p->bdk = b.ek / p->dk;
    p->dp = p->lb - b.ep, p->bdp = b.ep / p->dp;
}

/* div_prop with the divisor's quotients d = lb - B, mb / lb and B / d given */
static inline double div_prop_of(double A, double B, double ma, double lb, double d, double mblb, double bd) {
    if (!(lb > B)) return INFINITY;
    return td_up(A / d * mblb + (ma / lb) * bd + (ma / lb + mblb) * 0x1p-1074) + 0x1p-1074;
}

static inline uint64_t dbits(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* The last divisor's quantities, per thread, keyed by its four doubles bit for bit (a
 * pure function of them: any context may share it).  A softmax row's lanes all divide
 * by the row's memoised sum: 4 of td_sh_div's 10 divisions were the divisor's alone,
 * td_sh_div a sixth of softmax's time under the libFuzzer build. */
static _Thread_local struct {
    bool ok;
    uint64_t key[4];
    div_divisor p;
} divc;

td_sh td_sh_div(td_shcx *cx, td_sh a, td_sh b) {
    uint64_t k0 = dbits(b.v), k1 = dbits(b.es), k2 = dbits(b.ek), k3 = dbits(b.ep);
    if (!divc.ok || ((k0 ^ divc.key[0]) | (k1 ^ divc.key[1]) | (k2 ^ divc.key[2]) | (k3 ^ divc.key[3])) != 0) {
        div_divisor_of(b, &divc.p);
        divc.key[0] = k0, divc.key[1] = k1, divc.key[2] = k2, divc.key[3] = k3;
        divc.ok = true;
    }
    const div_divisor *p = &divc.p;
    double v = a.v / b.v, ma = td_mag(a), lb = p->lb;
    /* td_sh_div_generic's es, P and Pp (the derivations are there) */
    double es = lb > 0 ? td_up(td_up(a.es / lb) + td_up(td_up(fabs(a.v) / lb) * p->rb) + U64 * fabs(v) + 0x1p-1074)
                       : INFINITY;
    if (a.es == 0 && b.es == 0 && isfinite(v) && fma(v, b.v, -a.v) == 0 && fabs(v) >= 0x1p-960) es = 0;
    double P = div_prop_of(a.ek, b.ek, ma, lb, p->dk, p->mblb, p->bdk);
    double Pp = div_prop_of(a.ep, b.ep, ma, lb, p->dp, p->mblb, p->bdp);
    return div_finish(cx, a, b, v, es, P, Pp, ma, p->mb, lb);
}

td_sh td_sh_sqrt(td_shcx *cx, td_sh a) {
    double v = sqrt(a.v > 0 ? a.v : 0);
    double la = td_low(a);
    /* any part of the exact or kernel interval below 0: sqrt may be NaN there */
    if (a.v - a.es - a.ek < 0) cx->lane_flags |= TD_LF_DOMAIN;
    /* |sqrt(x) - sqrt(y)| <= min(sqrt|x-y|, |x-y| / (sqrt(x)+sqrt(y))) */
    double es = td_up(fmin(sqrt(a.es), la > 0 ? a.es / (2 * sqrt(la)) : INFINITY) + U64 * v);
    if (a.es == 0 && fma(v, v, -a.v) == 0) es = 0; /* exact square root */
    double lk = la - a.ek;
    double P = td_up(fmin(sqrt(a.ek), lk > 0 ? a.ek / (sqrt(lk) + sqrt(la)) : INFINITY));
    double lkp = la - a.ep;
    double Pp = td_up(fmin(sqrt(a.ep), lkp > 0 ? a.ep / (sqrt(lkp) + sqrt(la)) : INFINITY));
    bool exact = (a.fl & TD_SH_EXACTK) != 0;
    uint32_t undef = a.fl & TD_SH_UNDEF; /* (a domain error is TD_LF_DOMAIN, not an undefined value) */
    if (cx->math->fn[TD_FN_SQRT].correctly_rounded)
        return td_sh_with_undef(td_sh_rounded(cx, "sqrt", v, es, P, Pp, true, exact), undef);
    return td_sh_with_undef(fn_result(cx, "sqrt", TD_FN_SQRT, v, es, P, Pp, v + es + P, td_magk(a), lk > 0 ? lk : 0, exact),
                            undef);
}

td_sh td_sh_rsqrt(td_shcx *cx, td_sh a) {
    double la = a.v - a.es; /* signed lower bound of x*: rsqrt needs x* > 0 */
    if (!(la - a.ek > 0)) cx->lane_flags |= TD_LF_DOMAIN;
    double v = 1.0 / sqrt(a.v);
    /* d/dx x^(-1/2) = -x^(-3/2)/2: |f(x) - f(y)| <= |x-y| / (2 min(x,y)^(3/2)) */
    double es = la > 0 ? td_up(a.es / (2 * la * sqrt(la)) + 2 * U64 * v) : INFINITY;
    double lk = la - a.ek, lkp = la - a.ep;
    double P = lk > 0 ? td_up(a.ek / (2 * lk * sqrt(lk))) : INFINITY;
    double Pp = lkp > 0 ? td_up(a.ep / (2 * lkp * sqrt(lkp))) : INFINITY;
    if (!(la > 0) || !isfinite(P)) cx->lane_flags |= TD_LF_UNBOUNDED;
    double mk = lk > 0 ? 1.0 / sqrt(lk) : INFINITY;
    return td_sh_with_undef(fn_result(cx, "rsqrt", TD_FN_RSQRT, v, es, P, Pp, td_up(mk), td_magk(a), lk > 0 ? lk : 0, false),
                            a.fl & TD_SH_UNDEF);
}

/* hi * f for the exponential rules (hi = base^arg_hi >= base^x*, f = expm1(t) or exp(t)
 * in the base's units): when hi underflows to 0 and f overflows, the product is NaN,
 * yet every value it bounds lies in [0, base^(arg_hi + t)]; that bound is used then
 * (its argument rounded upwards).  E.g. a log-sum-exp term exp(z - m) with z - m near
 * -1e12 carries a kernel error of u|z - m| ~ 6e4 in its argument. */
static double exp_times(double hi, double f, double arg_hi, double t, int base2) {
    double r = hi * f;
    if (!isnan(r)) return r;
    double s = nextafter(arg_hi + t, INFINITY);
    return base2 ? exp2(s) : exp(s);
}

/* e^-inf = 2^-inf = +0 exactly in every math library a kernel uses (C17 F.10.3.1 for
 * expf/exp2f; PTX ISA ex2.approx.f32: ex2(-Inf) = +0, also after the multiply by log2 e),
 * so a masked score the kernel holds exactly as -inf weighs exactly 0: no budget (the
 * budget's |x| term would be infinite). */
static int exp_of_exact_ninf(td_shcx *cx, td_sh a, const char *op, td_sh *r) {
    if (!(a.v == -INFINITY && a.es == 0 && a.ek == 0 && a.ep == 0)) return 0;
    *r = td_sh_exact(cx, 0.0);
    r->fl = TD_SH_EXACTK | TD_SH_CR;
    TD_SH_TRACE(cx, op, *r, 0, 0, 0, "of an exact -inf: exactly 0");
    return 1;
}

/* The exponential rule skips the libm calls whose results it knows (fast): with
 * es = 0 the upper end a.v + es is a.v itself, so exp(a.v + es) is the v already
 * computed (the same call on the same double), and expm1(0) = +0, exp(0) = 1 exactly
 * (C17 F.10.3.1, F.10.3.3, the same in every libm); with ep = ek the probabilistic
 * tier's propagated error is the worst-case tier's, the same expression.  Every double
 * is the one the full rule computes (test_sh_fast compares td_sh_exp_generic).
 * (td_sh_exp2 keeps every call: attention's scores carry es > 0 and ep < ek, where the
 * tests cost more than the few calls they skip, +6% on flash_attn's td_sh_exp2.) */
static td_sh exp_rule(td_shcx *cx, td_sh a, bool fast) {
    td_sh z;
    if (exp_of_exact_ninf(cx, a, "exp", &z)) return z;
    double v = exp(a.v);
    bool es0 = fast && a.es == 0, ek0 = fast && a.ek == 0;
    double ah = a.v + a.es, hi = es0 ? v : exp(ah); /* >= exp(x*) */
    /* |e^x - e^y| <= e^max(x,y) (e^|x-y| - 1) */
    double es = td_up(exp_times(hi, es0 ? 0.0 : expm1(a.es), ah, a.es, 0) + LIBM64 * v + 0x1p-1074);
    if (a.es == 0 && a.v == 0) es = 0;
    double P = td_up(exp_times(hi, ek0 ? 0.0 : expm1(a.ek), ah, a.ek, 0));
    double Pp = fast && a.ep == a.ek ? P : td_up(exp_times(hi, expm1(a.ep), ah, a.ep, 0));
    double mk = td_up(exp_times(hi, ek0 ? 1.0 : exp(a.ek), ah, a.ek, 0));
    return td_sh_with_undef(fn_result(cx, "exp", TD_FN_EXP, v, es, P, Pp, mk, td_magk(a), 0, (a.fl & TD_SH_EXACTK) != 0),
                            a.fl & TD_SH_UNDEF);
}

td_sh td_sh_exp2(td_shcx *cx, td_sh a) {
    td_sh z;
    if (exp_of_exact_ninf(cx, a, "exp2", &z)) return z;
    const double ln2_up = 0x1.62e42fefa39fp-1;
    double v = exp2(a.v);
    double ah = a.v + a.es, hi = exp2(ah);
    double es = td_up(exp_times(hi, expm1(ln2_up * a.es), ah, a.es, 1) + LIBM64 * v + 0x1p-1074);
    if (a.es == 0 && a.v == rint(a.v) && fabs(a.v) <= 1000) es = 0; /* a power of two binary64 holds */
    double P = td_up(exp_times(hi, expm1(ln2_up * a.ek), ah, a.ek, 1));
    double Pp = td_up(exp_times(hi, expm1(ln2_up * a.ep), ah, a.ep, 1));
    double mk = td_up(exp_times(hi, exp2(a.ek), ah, a.ek, 1));
    return td_sh_with_undef(fn_result(cx, "exp2", TD_FN_EXP2, v, es, P, Pp, mk, td_magk(a), 0, (a.fl & TD_SH_EXACTK) != 0),
                            a.fl & TD_SH_UNDEF);
}

td_sh td_sh_exp(td_shcx *cx, td_sh a) { return exp_rule(cx, a, true); }
td_sh td_sh_exp_generic(td_shcx *cx, td_sh a) { return exp_rule(cx, a, false); }

/* |log x - log y| <= -log(1 - |x-y|/min(x,y)) */
static double log_prop(double la, double d) { return d == 0 ? 0 : (d < la ? td_up(-log1p(-d / la)) : INFINITY); }

td_sh td_sh_log(td_shcx *cx, td_sh a) {
    double la = a.v - a.es; /* lower bound of x* (must be > 0) */
    double v = log(a.v);
    if (!(la > 0) || !(la - a.ek > 0)) cx->lane_flags |= TD_LF_DOMAIN;
    double es = td_up(log_prop(la, a.es) + LIBM64 * fabs(v) + 0x1p-1074);
    if (a.es == 0 && a.v == 1) es = 0;
    double P = log_prop(la, a.ek), Pp = log_prop(la, a.ep);
    if (!isfinite(P)) cx->lane_flags |= TD_LF_UNBOUNDED;
    return td_sh_with_undef(
        fn_result(cx, "log", TD_FN_LOG, v, es, P, Pp, fabs(v) + es + P, td_magk(a), 0, (a.fl & TD_SH_EXACTK) != 0),
        a.fl & TD_SH_UNDEF);
}

td_sh td_sh_log2(td_shcx *cx, td_sh a) {
    const double inv_ln2_up = 0x1.71547652b82ffp+0;
    double la = a.v - a.es;
    double v = log2(a.v);
    if (!(la > 0) || !(la - a.ek > 0)) cx->lane_flags |= TD_LF_DOMAIN;
    double es = td_up(inv_ln2_up * log_prop(la, a.es) + LIBM64 * fabs(v) + 0x1p-1074);
    if (a.es == 0 && a.v > 0 && frexp(a.v, &(int){0}) == 0.5) es = 0;
    double P = td_up(inv_ln2_up * log_prop(la, a.ek)), Pp = td_up(inv_ln2_up * log_prop(la, a.ep));
    if (!isfinite(P)) cx->lane_flags |= TD_LF_UNBOUNDED;
    return td_sh_with_undef(
        fn_result(cx, "log2", TD_FN_LOG2, v, es, P, Pp, fabs(v) + es + P, td_magk(a), 0, (a.fl & TD_SH_EXACTK) != 0),
        a.fl & TD_SH_UNDEF);
}

/* 1-Lipschitz functions: sin, cos, tanh; erf has Lipschitz constant 2/sqrt(pi). */
static td_sh lipschitz(td_shcx *cx, const char *op, td_fn f, td_sh a, double v, double lip, double bound) {
    double es = td_up(lip * a.es + LIBM64 * fabs(v) + 0x1p-1074);
    if (a.es == 0 && a.v == 0 && (f == TD_FN_SIN || f == TD_FN_TANH || f == TD_FN_ERF)) es = 0;
    double P = td_up(lip * a.ek), Pp = td_up(lip * a.ep);
    double mk = fmin(fabs(v) + es + P, bound);
    return td_sh_with_undef(fn_result(cx, op, f, v, es, P, Pp, mk, td_magk(a), 0, (a.fl & TD_SH_EXACTK) != 0),
                            a.fl & TD_SH_UNDEF);
}
td_sh td_sh_sin(td_shcx *cx, td_sh a) { return lipschitz(cx, "sin", TD_FN_SIN, a, sin(a.v), 1.0, 1.0); }
td_sh td_sh_cos(td_shcx *cx, td_sh a) { return lipschitz(cx, "cos", TD_FN_COS, a, cos(a.v), 1.0, 1.0); }
td_sh td_sh_tanh(td_shcx *cx, td_sh a) { return lipschitz(cx, "tanh", TD_FN_TANH, a, tanh(a.v), 1.0, 1.0); }
td_sh td_sh_erf(td_shcx *cx, td_sh a) {
    return lipschitz(cx, "erf", TD_FN_ERF, a, erf(a.v), 0x1.20dd750429b6ep+0, 1.0);
}

td_sh td_sh_sigmoid(td_shcx *cx, td_sh a) {
    td_sh one = td_sh_exact(cx, 1.0);
    td_sh t = td_sh_exp(cx, td_sh_neg(cx, a));
    return td_sh_div(cx, one, td_sh_add(cx, one, t));
}

/* max and min are 1-Lipschitz in the sup norm and exact in any arithmetic; the max
 * of two correctly rounded values is the correctly rounded max (RN is monotone). */
static td_sh maxmin(td_shcx *cx, td_sh a, td_sh b, int want_max) {
    td_sh r;
    r.leaves = 0;
    r.v = want_max ? td_max_of(a.v, b.v) : td_min_of(a.v, b.v);
    /* fmax drops a NaN: a NaN shadow value or bound makes the result unknown */
    r.es = (a.v != a.v || b.v != b.v || a.es != a.es || b.es != b.es) ? INFINITY : td_max_of(a.es, b.es);
    r.ek = (a.ek != a.ek || b.ek != b.ek) ? INFINITY : td_max_of(a.ek, b.ek);
    r.ep = (a.ep != a.ep || b.ep != b.ep) ? INFINITY : td_max_of(a.ep, b.ep);
    if (!isfinite(r.ek)) cx->lane_flags |= TD_LF_UNBOUNDED;
    uint32_t fa = a.fl & TD_SH_EXACTK ? (TD_SH_EXACTK | TD_SH_CR) : a.fl;
    uint32_t fb = b.fl & TD_SH_EXACTK ? (TD_SH_EXACTK | TD_SH_CR) : b.fl;
    r.fl = (fa & fb & ~TD_SH_UNDEF) | ((a.fl | b.fl) & TD_SH_UNDEF); /* max(undefined, x) is undefined */
    TD_SH_TRACE(cx, want_max ? "max" : "min", r, r.ek, 0, 0, NULL);
    return r;
}
td_sh td_sh_max(td_shcx *cx, td_sh a, td_sh b) { return maxmin(cx, a, b, 1); }
td_sh td_sh_min(td_shcx *cx, td_sh a, td_sh b) { return maxmin(cx, a, b, 0); }

td_sh td_sh_sign(td_shcx *cx, td_sh a) {
    td_sh r;
    r.leaves = 0;
    r.v = (a.v > 0) - (a.v < 0);
    r.fl = 0;
    /* exact sign uncertain when |v| <= es; kernel sign may differ when |x*| <= ek */
    r.es = (a.es == 0 || fabs(a.v) > a.es) ? 0 : 2;
    double lo = td_low(a);
    r.ek = (a.ek == 0 || lo > a.ek) ? 0 : 2;
    r.ep = (a.ep == 0 || lo > a.ep) ? 0 : 2;
    if (r.ek == 0 && r.es == 0 && (a.fl & (TD_SH_EXACTK | TD_SH_CR))) r.fl = TD_SH_EXACTK | TD_SH_CR;
    r.fl |= a.fl & TD_SH_UNDEF;
    if (r.es) cx->lane_flags |= TD_LF_TIE;
    TD_SH_TRACE(cx, "sign", r, 0, r.ek, 0, r.ek ? "argument within its error of 0" : NULL);
    return r;
}

td_sh td_sh_ldexp(td_shcx *cx, td_sh a, int e) { return td_sh_mul(cx, a, td_sh_exact(cx, ldexp(1.0, e))); }

td_shb td_sh_cmp(td_shcx *cx, td_sh a, td_sh b, char op) {
    int guess = op == '>' ? a.v > b.v : a.v >= b.v;
    double d = fabs(a.v - b.v);
    double dlow = d * (1 - 0x1p-52) - (a.es + b.es) * (1 + 0x1p-50);
    int exact_sure = (a.es == 0 && b.es == 0) || dlow > 0;
    int kern_sure = (a.ek == 0 && b.ek == 0 && a.es == 0 && b.es == 0) || dlow > (a.ek + b.ek) * (1 + 0x1p-50);
    if (!exact_sure || !kern_sure) cx->lane_flags |= TD_LF_TIE;
    int undef = ((a.fl | b.fl) & TD_SH_UNDEF) != 0;
    return guess | (exact_sure << 1) | (kern_sure << 2) | (undef << 3);
}

td_sh td_sh_sel(td_shcx *cx, td_shb c, td_sh a, td_sh b) {
    td_sh x = (c & 1) ? a : b, y = (c & 1) ? b : a;
    /* the exact value is undefined when the comparison is, or when the branch it takes
     * is; the other branch only when the exact comparison itself is uncertain */
    uint32_t undef = (c & 8) ? TD_SH_UNDEF : (x.fl | (!(c & 2) ? y.fl : 0u)) & TD_SH_UNDEF;
    if ((c & 6) == 6) return td_sh_with_undef(x, undef);
    double gap = td_up(fabs(a.v - b.v) + a.es + b.es);
    td_sh r = x;
    if (!(c & 2)) { /* the exact branch itself is uncertain */
        r.es = fmax(x.es, td_up(fabs(x.v - y.v) + y.es));
        r.fl = 0;
    }
    /* the kernel may take the other branch */
    r.ek = fmax(x.ek, td_up(gap + y.ek));
    r.ep = fmax(x.ep, td_up(gap + y.ep));
    r.fl &= ~(uint32_t)(TD_SH_EXACTK | TD_SH_CR);
    r.fl |= undef;
    TD_SH_TRACE(cx, "select", r, 0, r.ek, 0, "comparison within the error bounds: both branches covered");
    return r;
}

/* x cast by p, as a binary64: sh_castv.h's bit arithmetic for the IEEE profiles of
 * binary32/16, bfloat16 and E5M2 (the same value), the generic encoder otherwise */
static double castv(td_profile p, double x) {
    double r;
    if (td_castv_fast(p, x, &r)) return r;
    return td_decode(p.fmt, td_encode_f64(p, x));
}

/* an upper bound of a - b (a >= b), exact when the binary64 subtraction is */
static double diff_up(double a, double b) {
    double d = a - b;
    return td_twosum_exact(a, -b, d) ? d : td_up(d);
}

td_sh td_sh_cast_to(td_shcx *cx, td_sh a, td_profile p, const char *what) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    td_sh r;
    r.fl = 0;
    r.leaves = 0;
    double rlo = castv(p, a.v - a.es), rhi = castv(p, a.v + a.es);
    if (a.v != a.v || !(a.es < INFINITY)) {
        /* no binary64 approximation (an overflowed or undefined intermediate): the
         * cast's exact value is unknown, never exactly NaN */
        r.v = a.v;
        r.es = INFINITY;
        cx->lane_flags |= TD_LF_TIE;
    } else if (a.es == 0 || rlo == rhi || (isnan(rlo) && isnan(rhi))) {
        r.v = castv(p, a.v);
        r.es = 0;
    } else {
        r.v = castv(p, a.v);
        r.es = fmax(diff_up(rhi, r.v), diff_up(r.v, rlo));
        cx->lane_flags |= TD_LF_TIE;
    }
    if (a.fl & TD_SH_EXACTK) {
        r.ek = r.ep = 0;
        r.fl = TD_SH_EXACTK | TD_SH_CR;
    } else if ((a.fl & TD_SH_CR) && p.fmt == cx->efmt && p.rnd == TD_RNE && !p.ftz && p.ovf == TD_OVF_INF) {
        /* RN_eval(x*) cast by the identical rounding is RN_eval(x*) = the reference */
        r.ek = r.ep = 0;
        r.fl = TD_SH_EXACTK | TD_SH_CR;
    } else {
        double klo = castv(p, a.v - a.es - a.ek), khi = castv(p, a.v + a.es + a.ek);
        double plo = castv(p, a.v - a.es - a.ep), phi = castv(p, a.v + a.es + a.ep);
        if (!isfinite(r.v)) {
            /* reference non-finite: the kernel must be too, unless its interval reaches finite values */
            if (klo == khi && klo == r.v) r.ek = r.ep = 0;
            else {
                r.ek = r.ep = INFINITY;
                cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED;
                /* a bounded value whose cast may or may not overflow: only +-inf or the
                 * format's largest finite value are admissible (harness rule) */
                if (a.ek < INFINITY && a.es < INFINITY) cx->lane_flags |= TD_LF_CASTOVF;
            }
        } else {
            if (!isfinite(klo) || !isfinite(khi)) {
                cx->lane_flags |= TD_LF_MAYOVF; /* the kernel may legitimately reach +-inf / NaN */
                if (!isfinite(khi)) khi = fi->max_finite;
                if (!isfinite(klo)) klo = -fi->max_finite;
                if (!isfinite(phi)) phi = fi->max_finite;
                if (!isfinite(plo)) plo = -fi->max_finite;
            }
            double lo = isfinite(rlo) ? rlo : r.v, hi = isfinite(rhi) ? rhi : r.v;
            /* differences of values of the format: 0 exactly when the casts agree */
            r.ek = fmax(diff_up(khi, lo), diff_up(hi, klo));
            r.ep = fmin(r.ek, fmax(diff_up(phi, lo), diff_up(hi, plo)));
        }
    }
    r.fl |= a.fl & TD_SH_UNDEF;
    TD_SH_TRACE(cx, what, r, a.ek, r.ek, 0, NULL);
    return r;
}

td_sh td_sh_cast(td_shcx *cx, td_sh a, int slot) {
    if (slot < 0 || slot >= cx->ncasts) abort(); /* a contract bug: a cast slot it did not declare */
    return td_sh_cast_to(cx, a, cx->casts[slot], "cast");
}

/* ---- sums ---- */
long td_sum_neff(td_order order, long n, long block) {
    if (n <= 1) return 0;
    switch (order) {
    case TD_ORDER_TREE: {
        long k = 0;
        while ((1L << k) < n) k++;
        return k;
    }
    case TD_ORDER_BLOCKED: {
        /* T steps of tiles of `block` lanes; each tile summed in any order (block-1
         * additions at most for one term), then accumulated sequentially (T-1, plus
         * one when the accumulator starts from an explicit zero: counted). */
        long b = block > 0 ? block : n;
        long T = (n + b - 1) / b;
        long inner = (b < n ? b : n) - 1;
        return inner + T;
    }
    case TD_ORDER_SEQ:
    case TD_ORDER_ANY:
    default:
        return n - 1;
    }
}

double td_gamma(long n, double u) {
    double nu = (double)n * u;
    if (nu >= 1) return INFINITY;
    return td_up(nu / (1 - nu));
}

/* Higham & Mary 2019, Thm 2.4: |theta_n| <= exp(lambda sqrt(n) u + n u^2/(1-u)) - 1. */
double td_gamma_prob(long n, double u, double lambda) {
    double g = expm1(lambda * sqrt((double)n) * u + (double)n * u * u / (1 - u));
    return td_up(g);
}

/* The probabilistic bound of an n-term sum fails with probability at most
 * n * 2 exp(-lambda^2 (1-u)^2 / 2) (Higham & Mary 2019, union bound over the n terms'
 * theta).  A lane holds at most nsums such sums, and we want fewer than one false
 * WARN expected over 10^9 lanes, i.e. a failure probability below 1e-9 per lane:
 *     nsums * n * 2 exp(-lambda^2 (1-u)^2 / 2) <= 1e-9
 *     lambda >= sqrt(2 ln(2 n nsums 1e9)) / (1 - u).
 * E.g. n = 1024, nsums = 64: lambda = sqrt(2 ln(1.31e14)) = 8.05; n = 10^6: 9.05. */
double td_lambda(long n, double nsums) {
    if (n < 1) n = 1;
    return sqrt(2 * log(2.0 * (double)n * nsums * 1e9)) / (1 - 0x1p-24) * (1 + 0x1p-40);
}

void td_sh_acc_init(td_shcx *cx, td_sh_acc *acc, td_order order, long block) {
    (void)order, (void)block; /* the spec's order: the kernel's declaration decides (shadow.h) */
    memset(acc, 0, sizeof *acc);
    acc->order = cx->order;
    acc->block = cx->block;
    acc->exact = 1;
    acc->same = 1;
}

/* The magnitude of the leaves of a sum t (t.leaves > 1): its local error was charged
 * as gamma_neff * (sum of |leaf| + errors) <= t.ek, so t.ek / gamma_neff bounds it;
 * at least |t| + es + ek. */
double td_sh_leaf_mag(const td_shcx *cx, td_sh t) {
    double g = td_gamma(td_sum_neff(cx->order, t.leaves, cx->block), cx->u);
    double m = fabs(t.v) + t.es + t.ek;
    return g > 0 ? fmax(m, td_up(t.ek / g)) : m;
}

/* Online rescaling (td_sh_rescaled).  One rescale multiplies the partial sum P by
 * a^ = EXP(RN(m_old - m_new)), a = e^(-d), d = m_new - m_old >= 0, and rounds:
 *   - the argument's rounding, relative u d, moves a by a factor e^(u d) (2^(u d) in
 *     base 2: ln2 u d); the function's |x| term (ulps_per_absx, e.g. tl.exp's multiply
 *     by log2 e) adds 2u ulps_per_absx d;
 *   - the function's own error: ulps ulp(a) + rel a + abs <= (2u ulps + rel) a +
 *     ulps ulp_min + abs, plus a flushed a <= 2^-126 under ftz;
 *   - the product P a^: u.
 * The constant relative parts compound over at most n - 1 rescales: a relative error
 * expm1((n-1)(2u ulps + rel + u)) on every leaf of the final sum.  The argument
 * parts: the d of all rescales add up to at most `spread`, a relative error
 * expm1((u + 2u ulps_per_absx) c spread) (c = 1, or ln 2 in base 2) on the leaves;
 * and since each one touches a partial sum already scaled by e^-d, whose size in its
 * own scale is at most n wmax, it is also at most (u + 2u ulps_per_absx) max(d e^-d)
 * n wmax = (u + 2u ulps_per_absx) n wmax / e per rescale (the same in base 2), which
 * bounds it when a masked -inf makes the spread infinite.  The absolute parts touch
 * such a partial sum once per rescale. */
td_sh td_sh_rescaled(td_shcx *cx, td_sh s, long n, td_sh spread, int base2, double wmax) {
    if (n <= 1 || !isfinite(s.ek)) return s;
    const td_fn_budget *b = &cx->math->fn[base2 ? TD_FN_EXP2 : TD_FN_EXP];
    double u = cx->u, R = (double)(n - 1), N = (double)n;
    double fn_rel = b->correctly_rounded ? u : 2 * u * b->ulps + b->rel;
    double per_d = u + 2 * u * b->ulps_per_absx;
    double mag = s.leaves > 1 ? td_sh_leaf_mag(cx, s) : fabs(s.v) + s.es + s.ek;
    double relc = td_up(expm1(td_up(R * (fn_rel + u))));
    double sp = td_magk(spread), d_rel = td_up(expm1(td_up(per_d * (base2 ? 0.6931471805599454 : 1.0) * sp)));
    double d_abs = td_up(R * N * wmax * per_d * 0.3678794411714424);
    double dterm = td_up(fmin(isfinite(d_rel) ? d_rel * mag : INFINITY, d_abs) * (1 + relc));
    double fn_abs = b->correctly_rounded ? cx->eta : b->ulps * cx->ulp_min + b->abs;
    if (b->ftz) fn_abs += 0x1p-126;
    double loc = td_up(relc * mag + dterm + R * N * wmax * fn_abs);
    s.ek = td_up(s.ek + loc);
    s.ep = td_up(s.ep + loc);
    s.fl &= ~(uint32_t)(TD_SH_EXACTK | TD_SH_CR);
    TD_SH_TRACE(cx, "online rescale", s, s.ek - loc, loc, (int)(n > 2147483647L ? 2147483647L : n),
                "partial sums rescaled up to n-1 times");
    return s;
}

/* The unit roundoff of a kernel rounding to fi (2^-prec, one ulp 2^(1-prec) for a
 * directed rounding): ldexp(1.0, e)'s value for these e in [-53, 0], built from its bits
 * (a libm call per lane in attention's P casts otherwise). */
static double kround_u(const td_fmt_info *fi, td_profile p) {
    int e = p.rnd == TD_RNE ? -fi->prec : 1 - fi->prec;
    uint64_t b = (uint64_t)(1023 + e) << 52;
    double u;
    memcpy(&u, &b, sizeof u);
    return u;
}

td_sh td_sh_kround_to(td_shcx *cx, td_sh a, td_profile p) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    /* round to nearest: |fl_f(y) - y| <= 2^-prec |y| for y in the normal range, at most
     * half the smallest subnormal below it (charged by the caller); a directed or
     * stochastic rounding errs by up to one ulp: 2^(1-prec) */
    double uf = kround_u(fi, p);
    td_sh r = a;
    double m = td_magk(a);
    r.ek = td_up(a.ek + uf * m);
    r.ep = fmin(r.ek, td_up(a.ep + uf * m));
    r.fl = a.fl & TD_SH_UNDEF;
    r.leaves = 0;
    if (!(m < fi->max_finite)) {
        /* the value may reach the format's overflow threshold at some scale */
        r.ek = r.ep = INFINITY;
        cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED;
    }
    TD_SH_TRACE(cx, "kernel rounding (any scale)", r, a.ek, r.ek - a.ek, 0,
                "a cast the kernel makes and the real spec does not");
    return r;
}

td_sh td_sh_kround(td_shcx *cx, td_sh a, int slot) {
    if (slot < 0 || slot >= cx->ncasts) abort(); /* a contract bug: a cast slot it did not declare */
    return td_sh_kround_to(cx, a, cx->casts[slot]);
}

td_sh td_sh_kround_abs_to(td_shcx *cx, td_sh a, td_profile p, double count, double relmag) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    double eta_f = p.rnd == TD_RNE ? fi->min_subnormal / 2 : fi->min_subnormal;
    if (p.ftz) eta_f = fi->min_normal; /* a flushed subnormal */
    double uf = kround_u(fi, p);
    return td_sh_widen(cx, a, td_up(count * eta_f + uf * relmag), "the kernel's roundings at its own scales (td_sh_kround)");
}

td_sh td_sh_kround_abs(td_shcx *cx, td_sh a, int slot, double count, double relmag) {
    if (slot < 0 || slot >= cx->ncasts) abort();
    return td_sh_kround_abs_to(cx, a, cx->casts[slot], count, relmag);
}

td_sh td_sh_widen(td_shcx *cx, td_sh a, double e, const char *why) {
    e = td_nonan(e);
    a.ek = td_up(a.ek + e);
    a.ep = td_up(a.ep + e);
    if (e > 0) a.fl &= ~(uint32_t)(TD_SH_EXACTK | TD_SH_CR);
    if (!(a.ek < INFINITY)) cx->lane_flags |= TD_LF_UNBOUNDED;
    TD_SH_TRACE(cx, "widen", a, a.ek - e, e, 0, why);
    return a;
}

/* td_sh_reblock.  A kernel may split the n terms of an online softmax-weighted sum into
 * any blocks (one key each, up to all of them) in any order, and sum each block and
 * the partials in any order.  Against the spec's own blocking, which the caller's bound
 * already covers term by term (each term's score, its exp, the argument roundings), a
 * kernel's other blocking changes:
 *   - the order of the additions: at most n - 1 on any term's path, gamma_{n-1} smag
 *     (Higham ASNA sec. 4.2; the spec's blocked path is shorter);
 *   - the number of rescales a term goes through: up to n - 1, each one exp (relative
 *     fn_rel = 2u ulps + rel, as in td_sh_rescaled), `muls` roundings u and `divs`
 *     divisions (2u ulps + rel of the model's division), compounding:
 *     expm1((n-1)(fn_rel + step_rel)) smag;
 *   - the absolute errors at each rescale's scale: the exp's absolute budget fn_abs
 *     times a partial sum of at most n wmax, and one eta of the rescaled product, at
 *     most (n-1)(n wmax fn_abs + eta) at the final scale (the later factors are <= 1);
 *   - each term's own exp at the kernel's running max m' <= m, and its one product
 *     (a weight times a value, a p times a reciprocal): absolute budgets of at most
 *     (fn_abs + eta) wmax at the final scale (the spec charges them at its own, possibly
 *     smaller, scale): n wmax (fn_abs + eta).
 * The argument roundings do not depend on the blocking: the arguments a term's value
 * goes through (x_j - m', then the rescales m'_old - m'_new) telescope to m - x_j, so
 * their relative errors u |arg| (and the exp's |x| term) add up to the same in every
 * blocking, which the spec charges on its path.  A spec that subtracts no maximum at
 * all (a naive e^(x_j) / sum e^(x_k)) charges none of them: `args` adds them (see
 * td_sh_reblock_loc). */
double td_sh_reblock_loc(td_shcx *cx, long n, double smag, double wmax, int base2, int muls, int divs,
                         int args) {
    if (n <= 1) return 0.0;
    const td_fn_budget *b = &cx->math->fn[base2 ? TD_FN_EXP2 : TD_FN_EXP];
    double u = cx->u, R = (double)(n - 1), N = (double)n;
    double fn_rel = b->correctly_rounded ? u : 2 * u * b->ulps + b->rel;
    double fn_abs = b->correctly_rounded ? cx->eta : b->ulps * cx->ulp_min + b->abs;
    if (b->ftz) fn_abs += 0x1p-126;
    const td_fn_budget *dv = &cx->math->fn[TD_FN_DIV];
    double div_rel = (dv->correctly_rounded || cx->div_ieee) ? u : 2 * u * dv->ulps + dv->rel;
    double step_rel = muls * u + divs * div_rel;
    double relc = td_up(expm1(td_up(R * (fn_rel + step_rel))));
    double order = td_up(td_gamma(n - 1, u) * smag * (1 + relc));
    double abs = td_up(R * (N * wmax * fn_abs + cx->eta) + N * wmax * (fn_abs + cx->eta));
    /* the arguments m - x_j of a spec that has none (no max subtracted): relative
     * (u + 2u ulps_per_absx) d_j on a weight e^-d_j, at most 1/e of it per term */
    double per_d = u + 2 * u * b->ulps_per_absx;
    double argt = args ? td_up(N * wmax * per_d * 0.3678794411714424 * (1 + relc)) : 0.0;
    return td_up(relc * smag + order + abs + argt);
}

td_sh td_sh_reblock(td_shcx *cx, td_sh s, long n, double smag, double wmax, int base2, int muls, int divs) {
    if (n <= 1 || !isfinite(s.ek)) return s;
    double loc = td_sh_reblock_loc(cx, n, smag, wmax, base2, muls, divs, 0);
    s.ek = td_up(s.ek + loc);
    s.ep = td_up(s.ep + loc);
    s.fl &= ~(uint32_t)(TD_SH_EXACTK | TD_SH_CR);
    s.leaves = 0;
    TD_SH_TRACE(cx, "other blocking", s, s.ek - loc, loc, (int)(n > 2147483647L ? 2147483647L : n),
                "any KV block size and order: n-1 rescales, any-order sum");
    return s;
}

/* td_sh_mean: the division's own bound, plus what Welford's running mean
 *     mu_k = mu_{k-1} + (x_k - mu_{k-1}) / k
 * may add.  Step k rounds the difference (u |x_k - mu_{k-1}|), the quotient (u of it,
 * plus half the smallest subnormal eta) and the sum (u |mu_k|); the later steps shrink
 * that error by prod_{j>k} (1 - 1/j) = k/n.  With |mu_{k-1}| <= sum_{i<k} |x_i| / (k-1)
 * and sum_k k |mu_k| <= n sum|x|:
 *     |e_n| <= (2u/n)(1 + H_{n-1}) sum|x| + u sum|x| + eta (n+1)/2,
 * H_{n-1} <= 1 + ln n, sum|x| bounded by the sum's leaves.  sum(x / n) is covered
 * too (u sum|x| / n + n eta on top of the sum's bound). */
td_sh td_sh_mean(td_shcx *cx, td_sh sum, long n) {
    td_sh r = td_sh_div(cx, sum, td_sh_exact(cx, (double)n));
    if (n <= 1 || !isfinite(r.ek)) return r;
    double N = (double)n, mag = sum.leaves > 1 ? td_sh_leaf_mag(cx, sum) : fabs(sum.v) + sum.es + sum.ek;
    double w = td_up(cx->u * mag * (1 + 2 * (2 + log(N)) / N) + cx->eta * (N + 1) / 2);
    r.ek = td_up(r.ek + w);
    r.ep = td_up(r.ep + w);
    r.fl &= ~(uint32_t)(TD_SH_EXACTK | TD_SH_CR);
    TD_SH_TRACE(cx, "mean (any algorithm)", r, r.ek - w, w, (int)(n > 2147483647L ? 2147483647L : n),
                "Welford's running mean or sum(x/n)");
    return r;
}

/* min(gamma, gamma~) of a sum: the probabilistic gamma costs a log, an expm1 and two
 * square roots, and the sums of a case (every lane's dot product of length K, every
 * row's reduction) mostly share their sizes, so the last result is kept per thread.
 * A pure function of its arguments: the cached value is the value. */
static double sum_gamma_prob(const td_shcx *cx, long neff, long nl, double g) {
    static _Thread_local struct {
        long neff, nl;
        double u, lambda_n, g, gp;
        int valid;
    } last;
    if (last.valid && last.neff == neff && last.nl == nl && last.u == cx->u && last.lambda_n == cx->lambda_n &&
        last.g == g)
        return last.gp;
    double gp = fmin(g, td_gamma_prob(neff, cx->u, td_lambda(nl, cx->lambda_n)));
    last.neff = neff, last.nl = nl, last.u = cx->u, last.lambda_n = cx->lambda_n, last.g = g, last.gp = gp;
    last.valid = 1;
    return gp;
}

td_sh td_sh_acc_end(td_shcx *cx, td_sh_acc *acc) {
    td_sh r;
    long n = acc->n, nl = acc->leaves;
    r.v = acc->sv;
    r.leaves = nl > 1 ? (uint32_t)(nl < (long)UINT32_MAX ? nl : (long)UINT32_MAX) : 0;
    /* binary64 recursive summation of the shadow values: gamma_{n-1}(u64) sum|v| */
    r.es = td_up(acc->ses + td_gamma(n > 1 ? n - 1 : 0, U64) * (acc->sabs + acc->ses));
    /* every leaf of every term may be added in any order the kernel's declaration allows */
    long neff = td_sum_neff(acc->order, nl, acc->block);
    double g = td_gamma(neff, cx->u);
    /* equal terms (acc->same): their partial sums' roundings are correlated, the rigorous
     * bound is the only one that holds */
    double gp = acc->same && n > 1 ? g : sum_gamma_prob(cx, neff, nl, g);
    /* sum(|t^_k|) <= sum(|v_k| + es_k + ek_k) <= sleaf */
    double loc = td_up(g * acc->sleaf);
    r.ek = td_up(acc->sek + loc);
    r.ep = fmin(r.ek, td_up(acc->sep + gp * acc->sleaf));
    r.fl = ((acc->exact && neff == 0) ? TD_SH_EXACTK : 0) | acc->undef;
    /* a sum of exact zeros (every term of a fully masked row, or no term) is exactly 0 */
    if (acc->ses == 0 && acc->sabs == 0 && !acc->undef) r.es = 0;
    if (acc->smagk >= cx->ovf) {
        /* a partial sum may overflow to +-inf */
        cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED;
        r.ek = r.ep = INFINITY;
    }
    if (cx->trace) {
        static const char *names[] = {"sum (any order)", "sum (tree)", "sum (blocked)", "sum (sequential)"};
        td_sh_trace_push(cx, names[acc->order], r, acc->sek, loc, (int)(nl > 2147483647L ? 2147483647L : nl), NULL);
    }
    return r;
}

TD_NOCOV_END
