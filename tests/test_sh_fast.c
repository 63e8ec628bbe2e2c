/* The shadow's fast paths against the generic code they stand for:
 * - sh_castv.h's cast of a double to binary32/16, bfloat16 and E5M2 against
 *   td_decode(td_encode_f64(...)), bit for bit, over random doubles of every binade and
 *   over each format's rounding boundaries (ties, their neighbours, the subnormal
 *   range, the overflow threshold); NaN and inf and the other profiles must decline;
 * - td_sh_cast of an exact value through those casts: the value the generic encoder
 *   gives, es = ek = ep = 0, no lane flag, for the fast profiles and others;
 * - the memo's generations: a value put in an earlier case is never handed out, one of
 *   this case always is, across table growth and the generation counter's wrap;
 * - the exponential rule's skipped libm calls (td_sh_exp) against the same rule
 *   computing every call (td_sh_exp_generic): every double and flag identical;
 * - td_sh_kround_to's unit roundoff, built from bits, against ldexp's;
 * - td_max_of / td_min_of against libm's fmax / fmin, bit for bit, on every pair of
 *   edge values (signed zeros, infinities, NaNs, subnormals) and on random pairs,
 *   equal pairs and pairs one ulp apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sh_castv.h"
#include "shadow.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next64(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static double from_bits(uint64_t b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}
static uint64_t bits_of(double d) {
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static const td_fmt fast_fmts[] = {TD_F32, TD_F16, TD_BF16, TD_E5M2};

static void check_cast(td_profile p, double x) {
    double fast = 0;
    int ok = td_castv_fast(p, x, &fast);
    if (!isfinite(x)) {
        if (ok) fail_msg("fmt %d: the fast cast took a non-finite %a", (int)p.fmt, x);
        return;
    }
    if (!ok) fail_msg("fmt %d: the fast cast declined the finite %a", (int)p.fmt, x);
    double gen = td_decode(p.fmt, td_encode_f64(p, x));
    if (bits_of(fast) != bits_of(gen)) fail_msg("fmt %d: cast of %a: fast %a, generic %a", (int)p.fmt, x, fast, gen);
}

/* x and its binary64 neighbours, both signs */
static void check_around(td_profile p, double x) {
    double c[3] = {x, nextafter(x, INFINITY), nextafter(x, -INFINITY)};
    for (int i = 0; i < 3; i++) check_cast(p, c[i]), check_cast(p, -c[i]);
}

static void test_castv_fast(void **state) {
    (void)state;
    for (size_t f = 0; f < sizeof fast_fmts / sizeof *fast_fmts; f++) {
        td_profile p = {fast_fmts[f], TD_RNE, TD_OVF_INF, false};
        const td_fmt_info *fi = td_fmt_get(p.fmt);
        uint64_t nbits = fi->bits, mask = nbits == 64 ? ~0ull : (1ull << nbits) - 1;
        /* every binade of binary64, NaN and inf included */
        for (int i = 0; i < 200000; i++) check_cast(p, from_bits(next64()));
        /* doubles near the format's range: random significands, exponents -160..140 */
        for (int i = 0; i < 200000; i++) check_cast(p, ldexp((double)(next64() >> 11) * 0x1p-53, (int)(next64() % 300) - 160));
        /* each format value, the midpoint to the next (a tie) and their neighbours */
        for (int i = 0; i < 100000; i++) {
            uint64_t b = next64() & mask & ~(1ull << (nbits - 1)); /* positive */
            double y = td_decode(p.fmt, b), y2 = td_decode(p.fmt, b + 1);
            if (!isfinite(y)) continue;
            check_around(p, y);
            if (isfinite(y2)) check_around(p, y + (y2 - y) / 2);
        }
        /* the edges: zero, the subnormal spacing, the smallest normal, the largest
         * finite value and the overflow tie max + ulp/2 (rounds to inf, even) */
        double q = fi->min_subnormal, mn = fi->min_normal, mx = fi->max_finite;
        double ulp_max = ldexp(1.0, fi->emax - fi->prec + 1);
        double edges[] = {0.0, q, q / 2, 1.5 * q, 2.5 * q, mn, mn - q / 2, mn - q, mn + q / 2, mx, mx + ulp_max / 2,
                          mx + ulp_max / 4, mx + ulp_max, DBL_MAX, DBL_TRUE_MIN, DBL_MIN, 1.0, 0.1};
        for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) check_around(p, edges[i]);
        check_cast(p, NAN), check_cast(p, -NAN), check_cast(p, INFINITY), check_cast(p, -INFINITY);
    }
    /* the profiles it does not compute decline */
    double r;
    td_profile no[] = {{TD_F32, TD_RTZ, TD_OVF_INF, false}, {TD_F16, TD_RNE, TD_OVF_SAT, false},
                       {TD_BF16, TD_RNE, TD_OVF_INF, true}, {TD_E4M3FN, TD_RNE, TD_OVF_NAN, false},
                       {TD_F64, TD_RNE, TD_OVF_INF, false}};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) assert_int_equal(td_castv_fast(no[i], 1.25, &r), 0);
}

static void init_cx(td_shcx *s, const td_math_model *m) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32;
    s->u = 0x1p-24, s->eta = 0x1p-150, s->ulp_min = 0x1p-149, s->ovf = 0x1.ffffffp127;
    s->lambda_n = 64;
    s->math = m;
}

/* an exact value cast (a loaded operand's cast): the encoder's value, no error */
static void test_cast_exact_interval(void **state) {
    (void)state;
    td_shcx cx;
    init_cx(&cx, td_math_model_get(TD_MATH_DEFAULT));
    for (size_t f = 0; f < sizeof fast_fmts / sizeof *fast_fmts; f++) {
        td_profile prof[2] = {{fast_fmts[f], TD_RNE, TD_OVF_INF, false}, {fast_fmts[f], TD_RTZ, TD_OVF_SAT, true}};
        for (int k = 0; k < 2; k++) {
            cx.casts = &prof[k], cx.ncasts = 1;
            for (int i = 0; i < 100000; i++) {
                double x = i % 5 == 0 ? from_bits(next64()) : ldexp((double)(next64() >> 11) * 0x1p-53, (int)(next64() % 300) - 160);
                if (i % 97 == 0) x = i % 2 ? 0.0 : -0.0;
                if (next64() % 2) x = -x;
                td_sh a = {x, 0.0, 0.0, 0.0, TD_SH_EXACTK | TD_SH_CR, 0};
                cx.lane_flags = 0;
                td_sh r = td_sh_cast(&cx, a, 0);
                double g = td_decode(prof[k].fmt, td_encode_f64(prof[k], x));
                if (x != x) {
                    assert_true(r.es == INFINITY); /* an unknown value: its own branch */
                    continue;
                }
                if (bits_of(r.v) != bits_of(g)) fail_msg("fmt %d: cast of %a gave %a, the encoder %a", (int)prof[k].fmt, x, r.v, g);
                assert_true(r.es == 0 && r.ek == 0 && r.ep == 0);
                assert_int_equal(cx.lane_flags, 0);
            }
        }
    }
}

/* key k's value in case c: distinct per case, so a stale hit shows */
static td_sh memo_val(uint64_t k, int c) { return (td_sh){(double)k + c * 0.5, 0, 0, 0, 0, 0}; }

static void test_memo_generations(void **state) {
    (void)state;
    td_shcx cx;
    init_cx(&cx, td_math_model_get(TD_MATH_DEFAULT));
    td_sh out;
    for (int c = 0; c < 60; c++) {
        if (c == 40) cx.memo_gen = UINT32_MAX - 3; /* the wrap: generations ..., 2^32 - 1, 1 */
        td_shcx_memo_clear(&cx);
        /* cases of 0 .. ~5000 entries, keys overlapping the previous case's */
        int n = (int)(next64() % (c % 7 == 0 ? 5000 : 300));
        uint64_t base = (uint64_t)(c % 3) * 1000;
        for (int i = 0; i < n; i++) {
            cx.lane_flags = (uint32_t)(i & 3);
            td_sh_memo_put(&cx, base + 2 * (uint64_t)i, memo_val(base + 2 * (uint64_t)i, c));
        }
        for (uint64_t k = 0; k < 12000; k++) {
            cx.lane_flags = 0;
            int hit = td_sh_memo_get(&cx, k, &out);
            int want = k >= base && k < base + 2 * (uint64_t)n && (k - base) % 2 == 0;
            if (hit != want) fail_msg("case %d key %llu: hit %d, want %d", c, (unsigned long long)k, hit, want);
            if (hit) {
                assert_true(out.v == memo_val(k, c).v);
                assert_int_equal(cx.lane_flags, (uint32_t)(((k - base) / 2) & 3));
            }
        }
    }
    td_shcx_memo_free(&cx);
    /* the wrap itself: entries of generation 1 still in the table when the counter comes
     * round to 1 again must not come back */
    init_cx(&cx, td_math_model_get(TD_MATH_DEFAULT));
    for (uint64_t k = 0; k < 100; k++) td_sh_memo_put(&cx, k, memo_val(k, 0));
    assert_int_equal(cx.memo_gen, 1);
    cx.memo_gen = UINT32_MAX - 1; /* as after 2^32 - 3 more cases, the table not regrown */
    td_shcx_memo_clear(&cx);
    td_sh_memo_put(&cx, 1000, memo_val(1000, 1));
    td_shcx_memo_clear(&cx); /* UINT32_MAX -> 0: the wrap */
    assert_int_equal(cx.memo_gen, 1);
    td_sh_memo_put(&cx, 5000, memo_val(5000, 2)); /* a live entry: the table is searched */
    assert_true(td_sh_memo_get(&cx, 5000, &out));
    for (uint64_t k = 0; k < 100; k++) assert_false(td_sh_memo_get(&cx, k, &out));
    assert_false(td_sh_memo_get(&cx, 1000, &out));
    td_shcx_memo_free(&cx);
}

/* doubles equal bit for bit; any two NaNs are equal (IEEE 754 leaves their sign and
 * payload to the operations) */
static void same_d(double x, double y, const char *what, double arg) {
    if (x != x && y != y) return;
    if (bits_of(x) != bits_of(y)) fail_msg("argument %a: %s differs: %a vs %a", arg, what, x, y);
}

/* an error bound: 0 half the time (the skips' cases), else any size up to inf */
static double some_err(void) {
    switch (next64() % 8) {
    case 0: case 1: case 2: case 3: return 0.0;
    case 4: return INFINITY;
    case 5: return ldexp((double)(next64() >> 11) * 0x1p-53, -(int)(next64() % 1100));
    default: return ldexp((double)(next64() >> 11) * 0x1p-53, (int)(next64() % 80) - 60);
    }
}

static double some_arg(void) {
    static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 709.78, -745.2, 1024.0, -1075.0, 1e300};
    if (next64() % 4 == 0) return special[next64() % (sizeof special / sizeof *special)];
    return ((double)(next64() >> 11) * 0x1p-53 - 0.5) * ldexp(1.0, (int)(next64() % 14));
}

static void test_exp_skips(void **state) {
    (void)state;
    for (int m = 0; m < td_math_model_count(); m++) {
        td_shcx cx, gx;
        for (int i = 0; i < 40000; i++) {
            td_sh a = {some_arg(), some_err(), some_err(), 0, (uint32_t)(next64() % 8), 0};
            a.ep = next64() % 2 ? a.ek : fmin(a.ek, some_err());
            init_cx(&cx, td_math_model_at(m)), init_cx(&gx, td_math_model_at(m));
            td_sh r = td_sh_exp(&cx, a), g = td_sh_exp_generic(&gx, a);
            same_d(r.v, g.v, "v", a.v), same_d(r.es, g.es, "es", a.v);
            same_d(r.ek, g.ek, "ek", a.v), same_d(r.ep, g.ep, "ep", a.v);
            assert_int_equal(r.fl, g.fl);
            assert_int_equal(r.leaves, g.leaves);
            assert_int_equal(cx.lane_flags, gx.lane_flags);
        }
    }
}

/* a kernel rounding to each format: the bound with ldexp's 2^-prec (2^(1-prec) directed) */
static void test_kround_unit(void **state) {
    (void)state;
    td_shcx cx;
    init_cx(&cx, td_math_model_get(TD_MATH_DEFAULT));
    for (int f = 0; f < TD_FMT_COUNT; f++) {
        const td_fmt_info *fi = td_fmt_get((td_fmt)f);
        if (!fi->is_float) continue;
        for (int rnd = 0; rnd < 2; rnd++) {
            td_profile p = {(td_fmt)f, rnd ? TD_RTZ : TD_RNE, TD_OVF_INF, false};
            double uf = ldexp(1.0, rnd ? 1 - fi->prec : -fi->prec);
            for (int i = 0; i < 2000; i++) {
                td_sh a = {some_arg() * 0x1p-4, some_err(), some_err(), 0, 0, 0};
                a.ep = fmin(a.ek, some_err());
                td_sh r = td_sh_kround_to(&cx, a, p);
                double m = td_magk(a);
                if (!(m < fi->max_finite)) continue; /* the overflow branch: infinite bounds */
                same_d(r.ek, td_up(a.ek + uf * m), "kround ek", a.v);
                same_d(r.ep, fmin(r.ek, td_up(a.ep + uf * m)), "kround ep", a.v);
            }
        }
    }
}

static void same_minmax(double x, double y) {
    same_d(td_max_of(x, y), fmax(x, y), "max", x);
    same_d(td_min_of(x, y), fmin(x, y), "min", x);
}

static void test_max_of(void **state) {
    (void)state;
    static const double edge[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0, 0x1p-1074, -0x1p-1074,
                                  0x1p-1022, DBL_MAX, -DBL_MAX, 0x1.fffffep127, 1.001, 0.5};
    const size_t ne = sizeof edge / sizeof edge[0];
    for (size_t i = 0; i < ne * ne; i++) same_minmax(edge[i / ne], edge[i % ne]);
    for (int i = 0; i < 200000; i++) {
        double x = from_bits(next64()), y = from_bits(next64());
        same_minmax(x, y);
        same_minmax(x, x);
        same_minmax(-x, x);
        same_minmax(x, nextafter(x, INFINITY));
        same_minmax(some_err(), some_err());
    }
}

/* a shadow operand: a value from some_arg (or a binade far out), bounds from some_err */
static td_sh some_operand(void) {
    td_sh a = {some_arg(), some_err(), some_err(), 0, (uint32_t)(next64() % 8), 0};
    if (next64() % 4 == 0) a.v = ldexp(a.v, (int)(next64() % 2100) - 1075);
    if (next64() % 8 == 0) a.es = fabs(a.v) * (double)(next64() % 3); /* the interval reaches 0 */
    a.ep = next64() % 2 ? a.ek : fmin(a.ek, some_err());
    return a;
}

static void same_sh(td_sh r, td_sh g, double arg) {
    same_d(r.v, g.v, "v", arg), same_d(r.es, g.es, "es", arg);
    same_d(r.ek, g.ek, "ek", arg), same_d(r.ep, g.ep, "ep", arg);
    assert_int_equal(r.fl, g.fl);
    assert_int_equal(r.leaves, g.leaves);
}

static void test_div_divisor(void **state) {
    (void)state;
    for (int m = 0; m < td_math_model_count(); m++) {
        td_shcx cx, gx;
        td_sh b = some_operand();
        for (int i = 0; i < 40000; i++) {
            switch (next64() % 6) { /* the same divisor, a new one, or one double changed */
            case 0: b = some_operand(); break;
            case 1: b.es = some_err(); break;
            case 2: b.ek = some_err(), b.ep = fmin(b.ek, b.ep); break;
            case 3: b.ep = fmin(b.ek, some_err()); break;
            default: break;
            }
            td_sh a = some_operand();
            init_cx(&cx, td_math_model_at(m)), init_cx(&gx, td_math_model_at(m));
            cx.div_ieee = gx.div_ieee = i % 5 == 0;
            td_sh r = td_sh_div(&cx, a, b), g = td_sh_div_generic(&gx, a, b);
            same_sh(r, g, b.v);
            assert_int_equal(cx.lane_flags, gx.lane_flags);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_castv_fast),
                                       cmocka_unit_test(test_cast_exact_interval),
                                       cmocka_unit_test(test_memo_generations),
                                       cmocka_unit_test(test_exp_skips),
                                       cmocka_unit_test(test_kround_unit),
                                       cmocka_unit_test(test_max_of),
                                       cmocka_unit_test(test_div_divisor)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
