/* td_sh_acc_add_mul (oracle/sh_dot.h) against the composition it replaces,
 * td_sh_acc_add(acc, td_sh_mul(a, b)): every double of the accumulator, the lane flags
 * and the trace must be bit-identical after every term, for exact and inexact
 * operands, zeros, subnormals, huge values, infinities and NaN, in binary32, binary16
 * and binary64 evaluation formats.  A fast path that drops a term, skips a flag or
 * rounds differently fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sh_dot.h"
#include "spec_dot_in.h"

static void init_cx(td_shcx *s, td_fmt f) {
    memset(s, 0, sizeof *s);
    s->efmt = f;
    s->lambda_n = 64;
    s->math = td_math_model_get(TD_MATH_DEFAULT);
    if (f == TD_F32) s->u = 0x1p-24, s->eta = 0x1p-150, s->ulp_min = 0x1p-149, s->ovf = 0x1.ffffffp127;
    else if (f == TD_F16) s->u = 0x1p-11, s->eta = 0x1p-25, s->ulp_min = 0x1p-24, s->ovf = 65520.0;
    else s->u = 0x1p-53, s->eta = 0x1p-1074, s->ulp_min = 0x1p-1074, s->ovf = INFINITY; /* eta: 2^-1075 is not a double */
}

/* bitwise equality of two doubles (tells -0 from +0); any two NaNs are equal: IEEE 754
 * leaves the sign and payload of a NaN result unspecified, and the compiler may commute
 * acc->sv += v, so the composition itself gives either NaN depending on inlining */
static void same_d(double x, double y, const char *what, int step) {
    if (x != x && y != y) return;
    if (memcmp(&x, &y, sizeof x) != 0) fail_msg("step %d: %s differs: %a vs %a", step, what, x, y);
}

static void same_acc(const td_sh_acc *x, const td_sh_acc *y, int step) {
    same_d(x->sv, y->sv, "sv", step);
    same_d(x->sabs, y->sabs, "sabs", step);
    same_d(x->ses, y->ses, "ses", step);
    same_d(x->sek, y->sek, "sek", step);
    same_d(x->sep, y->sep, "sep", step);
    same_d(x->smagk, y->smagk, "smagk", step);
    same_d(x->sleaf, y->sleaf, "sleaf", step);
    same_d(x->v0, y->v0, "v0", step);
    assert_int_equal(x->n, y->n);
    assert_int_equal(x->leaves, y->leaves);
    assert_int_equal(x->order, y->order);
    assert_int_equal(x->block, y->block);
    assert_int_equal(x->exact, y->exact);
    assert_int_equal(x->same, y->same);
    assert_int_equal(x->undef, y->undef);
}

static void same_sh(td_sh x, td_sh y, int step) {
    same_d(x.v, y.v, "v", step);
    same_d(x.es, y.es, "es", step);
    same_d(x.ek, y.ek, "ek", step);
    same_d(x.ep, y.ep, "ep", step);
    assert_int_equal(x.fl, y.fl);
    assert_int_equal(x.leaves, y.leaves);
}

static double rnd01(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (double)(*st >> 8) / 16777216.0;
}

/* An operand: exact values of every kind, and inexact ones (a sum with es, ek > 0). */
static td_sh operand(td_shcx *cx, unsigned *st) {
    static const double edge[] = {0.0,         -0.0,          1.0,           -3.0,         0x1p-1074, -0x1p-1060,
                                  0x1p-149,    0x1.8p-140,    0x1p-500,      0x1p-480,     0x1p500,   -0x1.fp511,
                                  0x1.fffffep127, 65504.0,    0x1p1023,      1e308,        INFINITY,  -INFINITY,
                                  NAN,         0x1.0000000000001p0, 0x1.2345678p-20};
    unsigned k = (unsigned)(rnd01(st) * 13);
    double x = (rnd01(st) - 0.5) * ldexp(1.0, (int)(rnd01(st) * 80) - 40);
    switch (k) {
    case 0: case 1: return td_sh_exact(cx, edge[(unsigned)(rnd01(st) * (sizeof edge / sizeof *edge))]);
    case 2: case 3: return td_sh_exact(cx, (double)(float)x);             /* binary32 input */
    case 4: return td_sh_exact(cx, ldexp(trunc(x * 2048), -11)); /* a few bits (trunc: x * 2048 may pass INT_MAX) */
    case 5: return td_sh_exact(cx, x + x * 0x1p-40);                      /* full binary64 */
    case 6: return td_sh_add(cx, td_sh_exact(cx, 1.0), td_sh_exact(cx, x)); /* inexact in the kernel */
    case 7: return td_sh_mul(cx, td_sh_exact(cx, x), td_sh_exact(cx, 0.1)); /* es > 0 */
    case 8: { td_sh t = td_sh_exact(cx, (double)(float)x); t.ek = 0x1p-30; return t; } /* EXACTK but ek > 0 */
    case 9: { td_sh t = td_sh_exact(cx, (double)(float)x); t.fl |= TD_SH_UNDEF; return t; }
    case 10: { td_sh t = td_sh_exact(cx, (double)(float)x); t.fl = TD_SH_CR; return t; } /* no errors, not EXACTK */
    /* the edges of the exact-b path of the slow step: |v| + es overflows (ma = inf), and
     * an unbounded kernel error (ek = ep = inf: a product by an exact 0 is NaN there) */
    case 11: { td_sh t = td_sh_exact(cx, 0x1.fp1023); t.es = 0x1.fp1023, t.ek = t.ep = 1.0, t.fl = 0; return t; }
    default: { td_sh t = td_sh_add(cx, td_sh_exact(cx, 1.0), td_sh_exact(cx, x)); t.ek = t.ep = INFINITY; return t; }
    }
}

static void run_fmt(td_fmt f, int traced) {
    unsigned st = 12345u + (unsigned)f * 7u + (unsigned)traced;
    td_shcx c0, c1, c2; /* c0 makes the operands: their flags and steps are not compared */
    init_cx(&c0, f);
    init_cx(&c1, f);
    init_cx(&c2, f);
    td_trace t1 = {0}, t2 = {0};
    if (traced) c1.trace = &t1, c2.trace = &t2;
    for (int lane = 0; lane < 400; lane++) {
        td_sh_acc a1, a2;
        c1.lane_flags = c2.lane_flags = 0;
        td_sh_acc_init(&c1, &a1, TD_ORDER_SEQ, 0);
        td_sh_acc_init(&c2, &a2, TD_ORDER_SEQ, 0);
        int n = 1 + (int)(rnd01(&st) * 40);
        int cst = rnd01(&st) < 0.1; /* a constant row: the `same` rule */
        td_sh ca = operand(&c0, &st), cb = operand(&c0, &st);
        for (int i = 0; i < n; i++) {
            td_sh a = cst ? ca : operand(&c0, &st), b = cst ? cb : operand(&c0, &st);
            td_sh_acc_add_mul(&c1, &a1, a, b);
            td_sh_acc_add(&c2, &a2, td_sh_mul(&c2, a, b));
            same_acc(&a1, &a2, lane * 100 + i);
            assert_int_equal(c1.lane_flags, c2.lane_flags);
            assert_int_equal(a1.n, i + 1); /* no term dropped */
        }
        same_sh(td_sh_acc_end(&c1, &a1), td_sh_acc_end(&c2, &a2), lane);
        assert_int_equal(c1.lane_flags, c2.lane_flags);
    }
    assert_int_equal(t1.n, t2.n);
    for (int i = 0; i < t1.n; i++) {
        assert_string_equal(t1.steps[i].op, t2.steps[i].op);
        same_d(t1.steps[i].v, t2.steps[i].v, "trace v", i);
        same_d(t1.steps[i].ek, t2.steps[i].ek, "trace ek", i);
    }
    free(t1.steps);
    free(t2.steps);
}

static void test_f32(void **st) { (void)st; run_fmt(TD_F32, 0); }
static void test_f16(void **st) { (void)st; run_fmt(TD_F16, 0); }
static void test_f64(void **st) { (void)st; run_fmt(TD_F64, 0); }
static void test_f32_traced(void **st) { (void)st; run_fmt(TD_F32, 1); }

/* A traced lane shows every product as its own "mul" step: the fast path must not hide
 * them (tilediff explain / repro print these terms). */
static void test_trace_keeps_terms(void **st) {
    (void)st;
    td_shcx cx;
    init_cx(&cx, TD_F32);
    td_trace tr = {0};
    cx.trace = &tr;
    td_sh_acc acc;
    td_sh_acc_init(&cx, &acc, TD_ORDER_SEQ, 0);
    for (int i = 0; i < 5; i++) td_sh_acc_add_mul(&cx, &acc, td_sh_exact(&cx, 1.5 + i), td_sh_exact(&cx, 0.25));
    assert_int_equal(tr.n, 5);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(tr.steps[i].op, "mul");
        assert_true(tr.steps[i].v == (1.5 + i) * 0.25);
    }
    free(tr.steps);
}

/* The fast path's own shortcut: products of short significands, the exactness test of
 * td_sh_mul (fma) otherwise, at the edges of its magnitude window (2^-960, overflow). */
static void test_window_edges(void **st) {
    (void)st;
    static const double xs[] = {0x1p-480, 0x1.fffffep-481, 0x1p-481, 0x1.0000000000001p-480, 0x1p512,
                                0x1.fffffffffffffp511, 0x1.8p511, 3.0, 0x1.0000000000001p0, 0x1.fffffffffffffp0};
    for (int f = 0; f < 3; f++) {
        td_fmt fm = f == 0 ? TD_F32 : f == 1 ? TD_F16 : TD_F64;
        for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
            for (size_t j = 0; j < sizeof xs / sizeof *xs; j++) {
                td_shcx c1, c2;
                init_cx(&c1, fm);
                init_cx(&c2, fm);
                td_sh_acc a1, a2;
                td_sh_acc_init(&c1, &a1, TD_ORDER_ANY, 0);
                td_sh_acc_init(&c2, &a2, TD_ORDER_ANY, 0);
                td_sh a = td_sh_exact(&c1, xs[i]), b = td_sh_exact(&c1, -xs[j]);
                td_sh_acc_add_mul(&c1, &a1, a, b);
                td_sh_acc_add(&c2, &a2, td_sh_mul(&c2, a, b));
                same_acc(&a1, &a2, (int)(i * 100 + j));
                assert_int_equal(c1.lane_flags, c2.lane_flags);
            }
    }
}

/* N(acc_add_dot_in) (contracts/spec_dot_in.h) against its definition, a loop of
 * td_sh_acc_add_mul(a[d], td_sh_in(reg, b0 + d)): a binary16 region of random bits
 * (every exponent: subnormals, 65504, infinities, NaN), rows a of exact binary16
 * values, zeros of both signs, values just outside binary16's set (12 significant bits,
 * 2^-25, 65536), binary32 and inexact operands; binary32, binary16 and binary64
 * evaluation formats, a low overflow threshold, a binary32 region, traced.  Every
 * double of the accumulator and the lane flags must match after each dot. */
static double f16_value(uint16_t h) {
    double v = td_spec_f16(h);
    return v == v ? v : (h & 0x3ff) ? NAN : (h & 0x8000) ? -INFINITY : INFINITY;
}

static td_sh dot_operand(td_shcx *cx, unsigned *st, int pure) {
    static const double odd[] = {0x1.002p0, 0x1p-25, 65536.0, 0x1.ffcp15, 0x1.8p-25, 1e-30, 3.0e5};
    unsigned k = (unsigned)(rnd01(st) * (pure ? 5 : 8)); /* pure: binary16 values and zeros only */
    if (k <= 3) return td_sh_exact(cx, f16_value((uint16_t)(rnd01(st) * 65536)));
    if (k == 4) return td_sh_exact(cx, rnd01(st) < 0.5 ? 0.0 : -0.0);
    if (k == 5) return td_sh_exact(cx, odd[(unsigned)(rnd01(st) * (sizeof odd / sizeof *odd))]);
    if (k == 6) return td_sh_exact(cx, (double)(float)(rnd01(st) - 0.5));
    return operand(cx, st);
}

static void dot_in_fmt(td_fmt f, int traced, int low_ovf, td_fmt rfmt) {
    unsigned st = 777u + (unsigned)f * 13u + (unsigned)traced * 5u + (unsigned)low_ovf + (unsigned)rfmt * 3u;
    enum { LEN = 512 };
    uint8_t data[4 * LEN];
    uint16_t fin[LEN]; /* region 1: finite binary16 elements only (the whole-dot path) */
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(rnd01(&st) * 256);
    for (size_t i = 0; i < LEN; i++) {
        fin[i] = (uint16_t)(rnd01(&st) * 65536);
        if ((fin[i] & 0x7c00) == 0x7c00) fin[i] ^= 0x4000;
    }
    td_case c;
    memset(&c, 0, sizeof c);
    c.r[0].fmt = rfmt, c.r[0].len = LEN, c.r[0].data = data;
    c.r[1].fmt = rfmt, c.r[1].len = LEN, c.r[1].data = rfmt == TD_F16 ? (uint8_t *)fin : data;
    td_shcx c0, c1, c2;
    init_cx(&c0, f);
    init_cx(&c1, f);
    init_cx(&c2, f);
    if (low_ovf) c1.ovf = c2.ovf = 0x1p20; /* a format whose overflow the products can reach */
    td_trace t1 = {0}, t2 = {0};
    if (traced) c1.trace = &t1, c2.trace = &t2;
    for (int dot = 0; dot < 300; dot++) {
        td_sh a[64];
        int n = 1 + (int)(rnd01(&st) * 64);
        size_t b0 = (size_t)(rnd01(&st) * (LEN - 64));
        int reg = dot % 4 < 2 ? 0 : 1, pure = dot % 2; /* pure rows on region 1: mostly whole dots */
        for (int d = 0; d < n; d++) a[d] = dot_operand(&c0, &st, pure);
        td_sh_acc a1, a2;
        c1.lane_flags = c2.lane_flags = 0;
        td_sh_acc_init(&c1, &a1, TD_ORDER_SEQ, 0);
        td_sh_acc_init(&c2, &a2, TD_ORDER_SEQ, 0);
        for (int again = 0; again < 1 + (dot % 3 == 0); again++) { /* the second dot: a used accumulator */
            td_sh_acc_add_dot_in(&c1, &a1, a, &c, reg, b0, n);
            for (int d = 0; d < n; d++) td_sh_acc_add_mul(&c2, &a2, a[d], td_sh_in(&c2, &c, reg, b0 + (size_t)d));
            same_acc(&a1, &a2, dot);
        }
        assert_int_equal(c1.lane_flags, c2.lane_flags);
        same_sh(td_sh_acc_end(&c1, &a1), td_sh_acc_end(&c2, &a2), dot);
    }
    assert_int_equal(t1.n, t2.n);
    free(t1.steps);
    free(t2.steps);
}

static void test_dot_in(void **st) {
    (void)st;
    dot_in_fmt(TD_F32, 0, 0, TD_F16);
    dot_in_fmt(TD_F64, 0, 0, TD_F16);
    dot_in_fmt(TD_F16, 0, 0, TD_F16);
    dot_in_fmt(TD_F32, 0, 1, TD_F16);
    dot_in_fmt(TD_F32, 1, 0, TD_F16);
    dot_in_fmt(TD_F32, 0, 0, TD_F32);
}

/* td_sh_acc_add_mul_h against its definition, td_sh_acc_add_mul(acc, a, exact(b)) with
 * the lane's own flags: row operands a of every kind (operand(), es = 0 with short and
 * long significands, es > 0, ep > ek, zeros of both signs, 2^-900 and 2^900 and just
 * outside, huge values, error bounds near and past the overflow threshold, EXACTK and
 * not), of which the test takes those td_sh_xh_ok accepts (so that a wider filter fails
 * here too); b any finite binary16 value (random encodings, zeros, 2^-24, 65504);
 * runs of 1 to 40 steps on one accumulator (the v0 / same rule: runs of one repeated
 * term too); binary32, binary16 (overflow at 65520) and binary64 evaluation formats;
 * random starting lane flags.  Every double of the accumulator and the flags must
 * match after each step, and cx->lane_flags must be left as it was. */
static double h_b(unsigned *st) {
    static const double edge[] = {0.0, -0.0, 0x1p-24, -0x1p-24, 65504.0, -65504.0, 0x1.ffcp-15, 1.0};
    if (rnd01(st) < 0.25) return edge[(unsigned)(rnd01(st) * (sizeof edge / sizeof *edge))];
    uint16_t h = (uint16_t)(rnd01(st) * 65536);
    if ((h & 0x7c00) == 0x7c00) h &= 0xfbff; /* finite */
    return td_spec_f16(h);
}

static td_sh h_a(td_shcx *cx, unsigned *st) {
    static const double mag[] = {0.0, -0.0, 0x1p-900, -0x1p900, 0x1p-901, 0x1p901, 0x1.8p1010, 0x1p-1000,
                                 65504.0, 0x1p-24, 3.0, -0x1.ffcp-15};
    static const double err[] = {0.0, 0x1p-30, 0x1p-11, 1.0, 65536.0, 0x1p1000, 0x1.fffffffffffffp1023};
    unsigned k = (unsigned)(rnd01(st) * 6);
    if (k == 0) return operand(cx, st);
    td_sh t = td_sh_exact(cx, td_spec_f16((uint16_t)((uint16_t)(rnd01(st) * 65536) & 0xfbff)));
    if (k == 1) t.v = mag[(unsigned)(rnd01(st) * (sizeof mag / sizeof *mag))];
    if (k == 2) t.v = (rnd01(st) - 0.5) * ldexp(1.0, (int)(rnd01(st) * 60) - 30); /* long significand */
    t.ek = err[(unsigned)(rnd01(st) * (sizeof err / sizeof *err))];
    t.ep = rnd01(st) < 0.3 ? 2 * t.ek : rnd01(st) < 0.5 ? t.ek / 4 : 0x1p-40; /* ep > ek: the clamp */
    if (k == 3) t.es = 0x1p-40; /* es > 0 */
    t.fl = k == 4 ? TD_SH_EXACTK : rnd01(st) < 0.5 ? 0 : TD_SH_CR;
    return t;
}

static void xh_fmt(td_fmt f) {
    unsigned st = 977u + (unsigned)f * 31u;
    td_shcx c1, c2;
    init_cx(&c1, f);
    init_cx(&c2, f);
    int used = 0, flagged = 0;
    for (int run = 0; run < 3000; run++) {
        td_sh_acc a1, a2;
        td_sh_acc_init(&c1, &a1, TD_ORDER_SEQ, 0);
        td_sh_acc_init(&c2, &a2, TD_ORDER_SEQ, 0);
        uint32_t lf = rnd01(&st) < 0.2 ? TD_LF_TIE : 0;
        c2.lane_flags = lf;
        int steps = 1 + (int)(rnd01(&st) * 40), repeat = rnd01(&st) < 0.2;
        td_sh a = h_a(&c1, &st);
        double b = h_b(&st);
        for (int s = 0; s < steps; s++) {
            if (!repeat) a = h_a(&c1, &st), b = h_b(&st);
            if (!td_sh_xh_ok(a)) continue;
            used++;
            c1.lane_flags = 0x55u;
            td_sh_acc_add_mul_h(&c1, &a1, &lf, a, b);
            assert_int_equal(c1.lane_flags, 0x55u);
            td_sh_acc_add_mul(&c2, &a2, a, td_sh_exact(&c2, b));
            same_acc(&a1, &a2, run * 100 + s);
            assert_int_equal(lf, c2.lane_flags);
            flagged += (lf & (TD_LF_MAYOVF | TD_LF_UNBOUNDED)) != 0;
        }
    }
    assert_true(used > 10000);
    assert_true(flagged > 100);
}

static void test_xh(void **st) {
    (void)st;
    xh_fmt(TD_F32);
    xh_fmt(TD_F16);
    xh_fmt(TD_F64);
}

/* td_spec_f16 (contracts/spec.h) on all 65536 encodings against ldexp of the fields:
 * the same double, bit for bit (zeros' signs included), and NaN for an infinity or NaN */
static void test_f16_value(void **st) {
    (void)st;
    for (unsigned h = 0; h < 65536; h++) {
        unsigned e = h >> 10 & 0x1f, m = h & 0x3ff;
        double want = e == 0 ? ldexp((double)m, -24) : ldexp((double)(1024 + m), (int)e - 25);
        if (h & 0x8000) want = -want;
        double got = td_spec_f16((uint16_t)h);
        if (e == 0x1f) assert_true(got != got);
        else same_d(got, want, "td_spec_f16", (int)h);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32),          cmocka_unit_test(test_f16),         cmocka_unit_test(test_f64),
        cmocka_unit_test(test_f32_traced),   cmocka_unit_test(test_trace_keeps_terms),
        cmocka_unit_test(test_window_edges), cmocka_unit_test(test_dot_in),       cmocka_unit_test(test_xh),
        cmocka_unit_test(test_f16_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
