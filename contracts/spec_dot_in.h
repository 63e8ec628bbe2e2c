/* N(acc_add_dot_in)(acc, a, c, reg, b0, n): acc += a[d] * in(reg, b0 + d) for d < n, in
 * d order -- exactly N(acc_add_mul)(acc, a[d], N(in)(reg, b0 + d)) for each d (the MPFR
 * twin is that loop).  The shadow's takes a short path for the dots of seed_sm86's
 * passes (a row of binary16 inputs times a binary16 region), bit for bit the inline
 * exact path of td_sh_acc_add_mul it replaces (tests/test_sh_dot.c compares them):
 *
 * a[d] held exactly (loaded: es = ek = ep = 0, TD_SH_EXACTK, defined) with at most 11
 * significant bits and 0 or 2^-24 <= |a| <= 65504 (every finite binary16 value), b a
 * finite binary16 element: then v = a b is 0 with a zero operand, else a product of
 * <= 22 significant bits in [2^-48, 2^32).  td_sh_acc_add_mul takes its exact path
 * there (short significands, |v| >= 2^-960), v is exact in binary32 and binary64, so
 * with those evaluation formats td_round_eval(v) = v: d = e = 0 and m = |v|; no
 * MAYOVF where the overflow threshold exceeds 2^33 (|v| + 2^-1074 < ovf); the
 * accumulator's updates are the path's with e = 0 (exact &= 1 dropped: exact is 0 or
 * 1).  A traced lane (every
 * product a "mul" step of its own), another evaluation format, and every other operand
 * take td_sh_acc_add_mul itself. */
#ifndef TD_SPEC_DOT_IN_H
#define TD_SPEC_DOT_IN_H

#include "sh_dot.h"
#include "spec.h"

TD_NOCOV_BEGIN

/* a held exactly, with <= 11 significant bits, 0 or in [2^-24, 65504] */
static inline int td_sh_f16_exact(td_sh a) {
    if (!(a.fl & TD_SH_EXACTK) || (a.fl & TD_SH_UNDEF) || a.es != 0 || a.ek != 0 || a.ep != 0) return 0;
    double x = fabs(a.v);
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return x == 0 || (x >= 0x1p-24 && x <= 65504.0 && (u & ((1ull << 42) - 1)) == 0);
}

/* 1 for an accumulator as td_sh_acc_init leaves it: no term, every sum +0 */
static inline int td_sh_acc_fresh(const td_sh_acc *acc) {
    const double z[7] = {acc->sv, acc->sabs, acc->ses, acc->sek, acc->sep, acc->smagk, acc->sleaf};
    uint64_t u[7], any = 0;
    memcpy(u, z, sizeof u);
    for (int k = 0; k < 7; k++) any |= u[k]; /* +0 only: a -0 has its sign bit */
    return acc->n == 0 && acc->leaves == 0 && any == 0;
}

/* 1 where every a[d], d < n, is td_sh_f16_exact: the row's half of the whole-dot path's
 * test (td_sh_acc_add_dot_row), taken once for every dot that shares the row */
static inline int td_sh_f16_row(td_shcx *cx, const td_sh *a, int64_t n) {
    (void)cx;
    for (int64_t d = 0; d < n; d++)
        if (!td_sh_f16_exact(a[d])) return 0;
    return 1;
}

/* The whole dot at once (seed_sm86's row dots: a fresh accumulator, a row with
 * td_sh_f16_row, every element finite): the short path's updates below, d by d in the
 * same order, with sleaf, sabs and smagk one sum (the same terms |v| added to the same
 * +0), ses, sek and sep left +0 (+0 + +0), v0 the first product and `same` cleared by
 * the first product that differs from it.  Returns 0, the accumulator untouched, at
 * the first infinite or NaN element: the caller then takes the loop d by d. */
static inline int td_sh_dot_in_block(td_sh_acc *acc, const td_sh *a, const uint8_t *p, size_t b0, int64_t n) {
    if (n <= 0 || !td_sh_acc_fresh(acc)) return 0;
    double sv = 0.0, sa = 0.0, v0 = 0.0;
    int same = 1;
    for (int64_t d = 0; d < n; d++) {
        uint16_t h;
        memcpy(&h, p + 2 * (b0 + (size_t)d), sizeof h);
        double bv = td_spec_f16(h);
        if (bv != bv) return 0;
        double v = a[d].v * bv;
        if (d == 0) v0 = v;
        same &= v == v0;
        sv += v;
        sa += fabs(v);
    }
    acc->v0 = v0;
    acc->same = acc->same && same;
    acc->sv = sv, acc->sabs = acc->smagk = acc->sleaf = sa;
    acc->leaves = n, acc->n = n;
    return 1;
}

/* N(acc_add_dot_in) with the row's test done by the caller: arow = td_sh_f16_row(a, n) */
static inline void td_sh_acc_add_dot_row(td_shcx *cx, td_sh_acc *acc, const td_sh *a, int arow, const td_case *c,
                                         int reg, size_t b0, int64_t n) {
    const td_region *R = &c->r[reg];
    int fast = !cx->trace && (cx->efmt == TD_F32 || cx->efmt == TD_F64) && cx->ovf > 0x1p33 && R->fmt == TD_F16 &&
               b0 <= R->len && (uint64_t)n <= R->len - b0;
    const uint8_t *p = R->data;
    if (fast && arow && td_sh_dot_in_block(acc, a, p, b0, n)) return;
    for (int64_t d = 0; d < n; d++) {
        size_t off = b0 + (size_t)d;
        double bv = NAN;
        if (fast) {
            uint16_t h;
            memcpy(&h, p + 2 * off, sizeof h);
            bv = td_spec_f16(h); /* NaN for an infinity or NaN element */
        }
        if (bv == bv && td_sh_f16_exact(a[d])) {
            double v = a[d].v * bv, av = fabs(v);
            if (acc->n == 0) acc->v0 = v;
            else if (v != acc->v0) acc->same = 0;
            acc->sleaf += av;
            acc->leaves += 1;
            acc->sv += v;
            acc->sabs += av;
            acc->ses += 0.0, acc->sek += 0.0, acc->sep += 0.0; /* kept: +0 turns a -0 sum into +0 */
            acc->smagk += av;
            acc->n++;
            continue;
        }
        td_sh_acc_add_mul(cx, acc, a[d], td_sh_in(cx, c, reg, off));
    }
}

static inline void td_sh_acc_add_dot_in(td_shcx *cx, td_sh_acc *acc, const td_sh *a, const td_case *c, int reg,
                                        size_t b0, int64_t n) {
    td_sh_acc_add_dot_row(cx, acc, a, td_sh_f16_row(cx, a, n), c, reg, b0, n);
}

/* the MPFR twins: the loop itself (no row test) */
static inline int td_mp_f16_row(td_mpcx *cx, const td_mp *a, int64_t n) {
    (void)cx, (void)a, (void)n;
    return 0;
}

static inline void td_mp_acc_add_dot_in(td_mpcx *cx, td_mp_acc *acc, const td_mp *a, const td_case *c, int reg,
                                        size_t b0, int64_t n) {
    for (int64_t d = 0; d < n; d++) td_mp_acc_add_mul(cx, acc, a[d], td_mp_in(cx, c, reg, b0 + (size_t)d));
}

static inline void td_mp_acc_add_dot_row(td_mpcx *cx, td_mp_acc *acc, const td_mp *a, int arow, const td_case *c,
                                         int reg, size_t b0, int64_t n) {
    (void)arow;
    td_mp_acc_add_dot_in(cx, acc, a, c, reg, b0, n);
}

TD_NOCOV_END
#endif
