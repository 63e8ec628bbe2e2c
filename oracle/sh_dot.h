/* acc += a * b: the spec vocabulary's N(acc_add_mul)(acc, a, b), the inner step of every
 * dot product (matmul closed forms, attention scores, seed_sm86's dots), bit-identical
 * to the composition N(acc_add)(acc, N(mul)(a, b)) it replaces: every double of the
 * term and of the accumulator, the lane flags and the trace (tests/test_sh_dot.c
 * compares them field by field).
 *
 * The fast path takes the common case: two operands held exactly (loaded inputs:
 * es = ek = ep = 0, TD_SH_EXACTK, defined) whose binary64 product is exact: a zero
 * operand, or a product in [2^-960, DBL_MAX] that fma(a, b, -v) == 0 proves exact
 * (skipped where both significands have <= 24 bits: a product of <= 48 bits is
 * exact at that magnitude).  There td_sh_mul's es is 0, its P = Pp = td_up(0) =
 * 2^-1074, and td_sh_rounded takes its exact-operand branch: the kernel rounds v
 * once.  Everything else, and any traced lane (explain and repro print every "mul"
 * step), takes the composition itself, out of line. */
#ifndef TD_SH_DOT_H
#define TD_SH_DOT_H

#include "mp.h"
#include "shadow.h"

TD_NOCOV_BEGIN

static inline int td_f64_short(double x) { /* <= 24 significant bits: low 29 bits zero */
    union {
        double d;
        uint64_t u;
    } b = {x};
    return (b.u & 0x1fffffffu) == 0;
}

/* The second path: b held exactly (a loaded input), a any defined value with finite
 * fields (a rounded P or dS, a state): td_sh_mul with b.es = b.ek = b.ep = 0 and its
 * products by those zeros dropped -- ma * 0 and a.ek * 0 are +0 where ma = |a.v| + a.es
 * and a.ek are finite, and adding +0 to a bound >= 0 changes no bit -- so es, P and Pp
 * are the same doubles; b's flags add nothing to the result's (EXACTK is a's, no
 * UNDEF arises from finite operands).  Attention lanes (P16 V, dS16 K) and seed_sm86's
 * passes spend most of their oracle here. */
/* a's half of the second path's test: defined, with finite fields */
static inline int td_sh_dot_a_ok(td_sh a) {
    return !(a.fl & TD_SH_UNDEF) && isfinite(a.v) && isfinite(fabs(a.v) + a.es) && isfinite(a.ek) && isfinite(a.ep);
}

/* The second path's step, a with td_sh_dot_a_ok, b the exact finite input bv. */
static inline void td_sh_acc_add_mul_xb(td_shcx *cx, td_sh_acc *acc, td_sh a, double bv) {
    double v = a.v * bv, mb = fabs(bv);
    double es = (a.es == 0 && fabs(v) >= 0x1p-960 && fma(a.v, bv, -v) == 0)
                    ? 0
                    : td_up(mb * a.es + 0x1p-53 * fabs(v) + 0x1p-1074);
    if (v == 0 && (a.v == 0 || bv == 0) && a.es == 0) es = 0;
    td_sh r = td_sh_rounded(cx, "mul", v, es, td_up(mb * a.ek), td_up(mb * a.ep), true, (a.fl & TD_SH_EXACTK) != 0);
    td_sh_acc_add(cx, acc, r);
}

/* 1 where every product a * b with b an exact finite input (td_sh_in) takes the second
 * path, whatever b: a alone fails the first path's test (not held exactly) and passes
 * the second's.  A row operand (seed_sm86's dS16 and P16) is tested once for all the
 * lanes that multiply it, which then call td_sh_acc_add_mul_xb directly where
 * !cx->trace and b is finite -- the step td_sh_acc_add_mul takes there. */
static inline int td_sh_dot_second(td_sh a) {
    int first = (a.fl & TD_SH_EXACTK) && !(a.fl & TD_SH_UNDEF) && a.es == 0 && a.ek == 0 && a.ep == 0;
    return !first && td_sh_dot_a_ok(a);
}

/* 1 where td_sh_acc_add_mul_h may take the products a * b: a passes td_sh_dot_second
 * and is not held exactly (a rounded dS16 or P16 whose cast could not be decided
 * exactly), es = 0, a.v has <= 24 significant bits and is 0 or of magnitude in
 * [2^-900, 2^900] (every binary16 value is) */
static inline int td_sh_xh_ok(td_sh a) {
    double m = fabs(a.v);
    return td_sh_dot_second(a) && !(a.fl & TD_SH_EXACTK) && a.es == 0 && td_f64_short(a.v) &&
           (m == 0 || (m >= 0x1p-900 && m <= 0x1p900));
}

/* td_sh_acc_add_mul_xb(cx, acc, a, b) with the lane flags in *lf instead of
 * cx->lane_flags (left as it was): !cx->trace, td_sh_xh_ok(a), b a finite binary16
 * value (0 or 2^-24 <= |b| <= 65504, <= 11 significant bits).  There the term's es is
 * 0: where a.v or b is 0, v is a zero and the zero rule gives 0; otherwise
 * 2^-924 <= |v| <= 2^916 and v is exact (a product of <= 35 bits), which the fma test
 * finds (a.es = 0).  So td_sh_rounded(cx, "mul", v, 0, P, Pp, true, false) takes its
 * general branch (a not held exactly) with m = |v| + 0 = |v|, and P = td_up(|b| a.ek)
 * and Pp = td_up(|b| a.ep) are never NaN (finite operands: td_nonan changes nothing);
 * it is written out here, then td_sh_acc_add of the term.  seed_sm86's lanes take their
 * products here, a lane at a time with its accumulator in registers
 * (tests/test_sh_dot.c compares it with td_sh_acc_add_mul). */
static inline void td_sh_acc_add_mul_h(td_shcx *cx, td_sh_acc *acc, uint32_t *lf, td_sh a, double b) {
    double v = a.v * b, mb = fabs(b), m = fabs(v);
    double P = td_up(mb * a.ek), Pp = td_up(mb * a.ep);
    td_sh r;
    r.v = v, r.es = 0, r.leaves = 0, r.fl = 0;
    r.ek = td_up(P + cx->u * (m + P) + cx->eta);
    r.ep = td_up(Pp + cx->u * (m + Pp) + cx->eta);
    if (r.ep > r.ek) r.ep = r.ek;
    if (m + P >= cx->ovf) *lf |= TD_LF_MAYOVF;
    if (m + P >= cx->ovf || !(r.ek < INFINITY)) {
        r.ek = r.ep = INFINITY;
        *lf |= TD_LF_UNBOUNDED;
    }
    td_sh_acc_add(cx, acc, r);
}

__attribute__((noinline)) static void td_sh_acc_add_mul_slow(td_shcx *cx, td_sh_acc *acc, td_sh a, td_sh b) {
    if (!cx->trace && (b.fl & TD_SH_EXACTK) && !(b.fl & TD_SH_UNDEF) && b.es == 0 && b.ek == 0 && b.ep == 0 &&
        isfinite(b.v) && td_sh_dot_a_ok(a)) {
        td_sh_acc_add_mul_xb(cx, acc, a, b.v);
        return;
    }
    td_sh_acc_add(cx, acc, td_sh_mul(cx, a, b));
}

static inline void td_sh_acc_add_mul(td_shcx *cx, td_sh_acc *acc, td_sh a, td_sh b) {
    double v = a.v * b.v;
    if (!cx->trace && (a.fl & b.fl & TD_SH_EXACTK) && !((a.fl | b.fl) & TD_SH_UNDEF) && a.es == 0 && b.es == 0 &&
        a.ek == 0 && b.ek == 0 && a.ep == 0 && b.ep == 0 &&
        ((v == 0 && (a.v == 0 || b.v == 0)) ||
         (fabs(v) >= 0x1p-960 && fabs(v) <= 0x1.fffffffffffffp+1023 &&
          ((td_f64_short(a.v) && td_f64_short(b.v)) || fma(a.v, b.v, -v) == 0)))) {
        if (fabs(v) + 0x1p-1074 >= cx->ovf) cx->lane_flags |= TD_LF_MAYOVF; /* m + P, P = td_up(0) */
        double k = td_round_eval(cx, v);
        double d = k == v ? 0 : fabs(k - v);
        if (!isfinite(d)) cx->lane_flags |= TD_LF_MAYOVF | TD_LF_UNBOUNDED; /* RN_eval(v) overflows */
        double e = isfinite(d) ? d : INFINITY, m = fabs(v) + e;
        /* td_sh_acc_add of the term {v, 0, e, e, fl, leaves 0} */
        if (acc->n == 0) acc->v0 = v;
        else if (v != acc->v0) acc->same = 0;
        acc->sleaf += m;
        acc->leaves += 1;
        acc->sv += v;
        acc->sabs += fabs(v);
        acc->ses += 0.0;
        acc->sek += e;
        acc->sep += e;
        acc->smagk += m;
        acc->n++;
        acc->exact &= d == 0;
        return;
    }
    td_sh_acc_add_mul_slow(cx, acc, a, b);
}

/* the MPFR twin: exactly the composition */
static inline void td_mp_acc_add_mul(td_mpcx *cx, td_mp_acc *acc, td_mp a, td_mp b) {
    td_mp_acc_add(cx, acc, td_mp_mul(cx, a, b));
}

TD_NOCOV_END
#endif
