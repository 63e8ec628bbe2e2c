/* Spelled-out cases: where stacks disagree, the semantics of each profile field, the
 * ternary argument, chains, ulp / neighbours / ordinals, parsing and printing, and
 * MPFR's exponent range left as the caller had it. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_util.h"

static td_profile P(const char *s) {
    td_profile p;
    if (td_profile_parse(s, &p)) {
        print_error("bad profile %s\n", s);
        fail();
    }
    return p;
}

/* Every path that can take the value: binary64 and binary32 sources (fast scalar,
 * fast array, MPFR reference) and the MPFR source; all must give `want`. */
static void expect_all(const char *prof, double x, uint64_t want) {
    td_profile p = P(prof);
    uint64_t got[5];
    got[0] = td_encode_f64(p, x);
    got[1] = td_ref_encode_f64(p, x);
    td_encode_f64_array(p, &x, &got[2], 1);
    mpfr_t m;
    mpfr_init2(m, 53);
    mpfr_set_d(m, x, MPFR_RNDN);
    got[3] = isnan(x) ? td_nan_bits(p.fmt, signbit(x)) : td_encode_mpfr(p, m);
    mpfr_clear(m);
    got[4] = want;
    if ((double)(float)x == x || isnan(x)) {
        float xf = (float)x;
        got[4] = td_encode_f32(p, xf);
        uint64_t r = td_ref_encode_f32(p, xf), a;
        td_encode_f32_array(p, &xf, &a, 1);
        if (r != want || a != want) {
            print_error("%s(%a) binary32 source: ref 0x%llx array 0x%llx want 0x%llx\n", prof, x,
                        (unsigned long long)r, (unsigned long long)a, (unsigned long long)want);
            fail();
        }
    }
    for (int i = 0; i < 5; i++)
        if (got[i] != want) {
            print_error("%s(%a): path %d gave 0x%llx, want 0x%llx\n", prof, x, i, (unsigned long long)got[i],
                        (unsigned long long)want);
            fail();
        }
}

/* The cases of the issue where stacks disagree. */
static void test_disagreements(void **state) {
    (void)state;
    /* 464 is the tie between 448 (1.110b*2^8, even) and 480, which is not a value */
    expect_all("e4m3fn:rne:nan", 464, 0x7e);
    expect_all("e4m3fn:rne:sat", 464, 0x7e);
    expect_all("e4m3fn:rne:nan", -464, 0xfe);
    expect_all("e4m3fn:rne:nan", 465, 0x7f); /* PyTorch eager / OCP: NaN */
    expect_all("e4m3fn:rne:sat", 465, 0x7e); /* CUDA satfinite / Triton: 448 */
    expect_all("e4m3fn:rne:nan", -465, 0xff);
    expect_all("e4m3fn:rne:sat", -465, 0xfe);
    expect_all("fp16:rne:inf", 1e30, 0x7c00);
    expect_all("fp16:rne:sat", 1e30, 0x7bff);
    expect_all("fp16:rne:nan", 1e30, 0x7e00);
    expect_all("e5m2:rne:sat", INFINITY, 0x7b); /* 57344 */
    expect_all("e5m2:rne:sat", -INFINITY, 0xfb);
    expect_all("e5m2:rne:inf", INFINITY, 0x7c);
    expect_all("e5m2:rne:nan", INFINITY, 0x7e);
    assert_true(td_decode(TD_E5M2, 0x7b) == 57344);
    assert_true(td_decode(TD_E4M3FN, 0x7e) == 448);

    /* Double rounding for bf16: 1 + 2^-8 is the tie between 1 and 1 + 2^-7.  A binary64
     * just above it rounds up directly, but to binary32 it is the tie itself, which then
     * rounds to even (1.0). */
    double x = 1 + 0x1p-8 + 0x1p-30;
    expect_all("bf16:rne:inf", x, 0x3f81);
    td_cast_chain c;
    assert_int_equal(td_chain_parse("fp32:rne>bf16:rne", &c), 0);
    assert_int_equal(td_chain_f64(&c, x), 0x3f80);
    mpfr_t m;
    mpfr_init2(m, 53);
    mpfr_set_d(m, x, MPFR_RNDN);
    assert_int_equal(td_chain_mpfr(&c, m, 0), 0x3f80);
    assert_int_equal(td_encode_mpfr(P("bf16"), m), 0x3f81);
    mpfr_clear(m);
    /* the same below the tie: both give 1.0 */
    x = 1 + 0x1p-8 - 0x1p-30;
    expect_all("bf16:rne:inf", x, 0x3f80);
    assert_int_equal(td_chain_f64(&c, x), 0x3f80);
    /* and 1 + 2^-8 + 2^-7 + 2^-30: direct up to 0x3f82? no: the tie is between 0x3f81 and
     * 0x3f82; direct rounds up to 0x3f82, through fp32 the tie goes to even 0x3f82 too */
    x = 1 + 0x1p-7 + 0x1p-8 + 0x1p-30;
    expect_all("bf16:rne:inf", x, 0x3f82);
    assert_int_equal(td_chain_f64(&c, x), 0x3f82);
    x = 1 + 0x1p-7 + 0x1p-8 - 0x1p-30; /* below that tie: direct 0x3f81, via fp32 the tie -> 0x3f82 */
    expect_all("bf16:rne:inf", x, 0x3f81);
    assert_int_equal(td_chain_f64(&c, x), 0x3f82);
}

static void test_overflow_rules(void **state) {
    (void)state;
    /* e4m3fn's top binade: 256 288 ... 448; 480 is the NaN pattern */
    expect_all("e4m3fn:rne:nan", 448, 0x7e);
    expect_all("e4m3fn:rne:nan", 463.99, 0x7e);
    expect_all("e4m3fn:rne:nan", 480, 0x7f);
    expect_all("e4m3fn:rne:sat", 480, 0x7e);
    expect_all("e4m3fn:rne:sat", 1e300, 0x7e);
    expect_all("e4m3fn:rne:nan", INFINITY, 0x7f);
    expect_all("e4m3fn:rne:nan", -INFINITY, 0xff);
    expect_all("e4m3fn:rne:sat", -INFINITY, 0xfe);
    expect_all("e4m3fn:rne:nan", 432, 0x7e);  /* tie 416|448 -> even 448 (1.110b) */
    expect_all("e4m3fn:rne:nan", 400, 0x7c);  /* tie 384|416 -> even 384 */
    expect_all("e4m3fn:rtz:nan", 470, 0x7e);  /* truncates to 448: no overflow */
    expect_all("e4m3fn:rtz:nan", 479.9, 0x7e);
    expect_all("e4m3fn:rtz:nan", 480, 0x7f);  /* rounds to 480 with unbounded exponent */
    expect_all("e4m3fn:rtz:sat", 480, 0x7e);
    /* IEEE formats */
    expect_all("fp16:rne:inf", 65504, 0x7bff);
    expect_all("fp16:rne:inf", 65519.99, 0x7bff);
    expect_all("fp16:rne:inf", 65520, 0x7c00); /* the tie 65504|65536 goes to even 2^16 */
    expect_all("fp16:rne:sat", 65520, 0x7bff);
    expect_all("fp16:rtz:inf", 65535.99, 0x7bff);
    expect_all("fp16:rtz:inf", 65536, 0x7bff);      /* IEEE: RTZ overflows to max finite */
    expect_all("fp16:rtz:inf", 1e300, 0x7bff);
    expect_all("fp16:rtz:inf", INFINITY, 0x7c00);   /* an inf stays inf */
    expect_all("fp16:rtz:nan", 65535.99, 0x7bff);
    expect_all("fp16:rtz:nan", 65536, 0x7e00);
    expect_all("fp16:rne:nan", -65520, 0xfe00);
    expect_all("e5m2:rne:inf", 61439.99, 0x7b);
    expect_all("e5m2:rne:inf", 61440, 0x7c);
    expect_all("e5m2:rne:sat", 61440, 0x7b);
    expect_all("bf16:rne:inf", 0x1.ff8p127, 0x7f80);
    expect_all("bf16:rne:inf", 0x1.feffffffp127, 0x7f7f);
    expect_all("bf16:rne:sat", 0x1.ff8p127, 0x7f7f);
    expect_all("fp32:rne:inf", 0x1.ffffffp127, 0x7f800000);
    expect_all("fp32:rne:sat", 0x1.ffffffp127, 0x7f7fffff);
    expect_all("fp32:rne:inf", 0x1.fffffefffffffp127, 0x7f7fffff);
    expect_all("fp32:rtz:nan", 0x1p128, 0x7fc00000);
    expect_all("fp32:rne:sat", -INFINITY, 0xff7fffff);
    /* NaN: canonical, with the source's sign */
    expect_all("fp16:rne:sat", NAN, 0x7e00);
    expect_all("fp16:rne:sat", -NAN, 0xfe00);
    expect_all("e4m3fn:rne:sat", -NAN, 0xff);
    expect_all("e5m2:rne:inf", NAN, 0x7e);
    expect_all("bf16:rtz:nan", -NAN, 0xffc0);
    expect_all("fp32:rne:inf", -NAN, 0xffc00000);
    /* payloads are not kept */
    assert_int_equal(td_encode_f32(P("fp32"), tu_f32(0x7f800001)), 0x7fc00000);
    assert_int_equal(td_ref_encode_f32(P("fp32"), tu_f32(0xff812345)), 0xffc00000);
    assert_true(td_encode_f64(P("fp16"), tu_f64(UINT64_C(0x7ff0000000000001))) == 0x7e00);
    mpfr_t m;
    mpfr_init2(m, 24);
    mpfr_set_nan(m);
    assert_int_equal(td_encode_mpfr(P("fp16"), m), 0x7e00); /* MPFR sources: positive NaN */
    mpfr_clear(m);
}

static void test_ftz(void **state) {
    (void)state;
    expect_all("fp16:rne:inf", 0x1p-20, 0x0010);
    expect_all("fp16:rne:inf:ftz", 0x1p-20, 0x0000);
    expect_all("fp16:rne:inf:ftz", -0x1p-20, 0x8000);
    /* a value that rounds up to the smallest normal is not flushed */
    expect_all("fp16:rne:inf:ftz", 0x1p-14 - 0x1p-26, 0x0400);
    expect_all("fp16:rtz:inf:ftz", 0x1p-14 - 0x1p-26, 0x0000);
    expect_all("fp16:rtz:inf", 0x1p-14 - 0x1p-26, 0x03ff);
    expect_all("e4m3fn:rne:sat:ftz", 0x1p-7, 0x00);
    expect_all("e4m3fn:rne:sat", 0x1p-7, 0x04);
    expect_all("e5m2:rne:inf:ftz", -0x1p-15, 0x80);
    /* binary64 -> binary32: normal in binary64, subnormal result in binary32 */
    expect_all("fp32:rne:inf", 0x1p-140, 0x00000200);
    expect_all("fp32:rne:inf:ftz", 0x1p-140, 0x00000000);
    /* source flush: a binary32 subnormal is a zero, also into fp32 and bf16 */
    float sub = tu_f32(0x00400000); /* 2^-127 */
    td_profile p = P("fp32:rne:inf:ftz");
    assert_int_equal(td_encode_f32(p, sub), 0);
    assert_int_equal(td_ref_encode_f32(p, -sub), 0x80000000);
    assert_int_equal(td_encode_f32(P("fp32"), sub), 0x00400000);
    assert_int_equal(td_encode_f32(P("bf16"), sub), 0x0040);
    assert_int_equal(td_encode_f32(P("bf16:ftz"), sub), 0x0000);
    assert_int_equal(td_ref_encode_f32(P("bf16:ftz"), sub), 0x0000);
    /* the largest binary32 subnormal rounds to bf16's smallest normal; FTZ flushes the
     * source first, so it is a zero there */
    float big_sub = tu_f32(0x007fffff);
    assert_int_equal(td_encode_f32(P("bf16"), big_sub), 0x0080);
    assert_int_equal(td_encode_f32(P("bf16:ftz"), -big_sub), 0x8000);
    /* binary64 subnormal source */
    td_profile p64 = P("fp32:rne:inf:ftz");
    assert_int_equal(td_encode_f64(p64, 0x1p-1070), 0);
    assert_int_equal(td_ref_encode_f64(p64, -0x1p-1070), 0x80000000);
    /* integers ignore FTZ */
    td_profile pi = {TD_I8, TD_RNE, TD_OVF_SAT, true};
    assert_int_equal(td_encode_f64(pi, 0.75), 1);
}

static void test_integers(void **state) {
    (void)state;
    struct {
        const char *p;
        double x;
        uint64_t want;
    } k[] = {
        {"int8", NAN, 0},           {"int8:rtz:wrap", -NAN, 0},  {"int32", NAN, 0},
        {"int8", -3.7, 0xfd},       {"int8", 3.7, 3},            {"int8", -0.99, 0},
        {"int8:rne", 2.5, 2},       {"int8:rne", 3.5, 4},        {"int8:rne", -2.5, 0xfe},
        {"int8:rne", 0.5, 0},       {"int8:rne", -0.5, 0},       {"int8:rne", 1.5, 2},
        {"int8", 300, 0x7f},        {"int8", -300, 0x80},        {"int8", 127.99, 0x7f},
        {"int8", -128.99, 0x80},    {"int8:rne", 127.5, 0x7f},   {"int8:rne", -128.5, 0x80},
        {"int8:rtz:wrap", 300, 0x2c}, {"int8:rtz:wrap", -129, 0x7f}, {"int8:rne:wrap", 127.5, 0x80},
        {"int8", INFINITY, 0x7f},   {"int8", -INFINITY, 0x80},   {"int8:rtz:wrap", INFINITY, 0},
        {"uint8", -1, 0},           {"uint8", -0.5, 0},          {"uint8:rtz:wrap", -1, 0xff},
        {"uint8", 255.9, 0xff},     {"uint8", 256, 0xff},        {"uint8:rne", 255.5, 0xff},
        {"uint8:rne:wrap", 255.5, 0}, {"uint8", -INFINITY, 0},   {"uint8", INFINITY, 0xff},
        {"int32", 2147483647.9, 0x7fffffff}, {"int32", 2147483648.0, 0x7fffffff},
        {"int32", -2147483648.9, 0x80000000}, {"int32", -2147483649.0, 0x80000000},
        {"int32:rtz:wrap", 4294967301.0, 5}, {"int32:rtz:wrap", 1e30, 0}, {"int32:rtz:wrap", -1, 0xffffffff},
        {"int32:rne:wrap", 0x1p51 + 1.5, 2}, {"int32:rne:wrap", 0x1p51 + 0.5, 0}, {"int32:rtz:wrap", 0x1.8p63, 0}, {"int32", 1e300, 0x7fffffff},
        {"int32:rne", 0x1p-1074, 0}, {"int32", -0.0, 0},        {"int32:rtz:wrap", 0x1.0000000000001p52, 1},
        {"int32:rtz:wrap", 0x1.fffffffffffffp62, 0xfffffc00},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        expect_all(k[i].p, k[i].x, k[i].want);
}

/* The ternary: x stands for a true value on the given side of it. */
static uint64_t enc_t(const char *prof, double x, int t) {
    mpfr_t m;
    mpfr_init2(m, 53);
    mpfr_set_d(m, x, MPFR_RNDN);
    uint64_t r = td_encode_mpfr_t(P(prof), m, t);
    mpfr_clear(m);
    return r;
}

static void test_ternary(void **state) {
    (void)state;
    assert_int_equal(enc_t("e4m3fn:rne:nan", 464, 0), 0x7e);
    assert_int_equal(enc_t("e4m3fn:rne:nan", 464, 1), 0x7e);
    assert_int_equal(enc_t("e4m3fn:rne:nan", 464, -1), 0x7f);
    assert_int_equal(enc_t("e4m3fn:rne:sat", 464, -1), 0x7e);
    double tie = 1 + 0x1p-11; /* fp16 tie between 1 and 1 + 2^-10 */
    assert_int_equal(enc_t("fp16", tie, 0), 0x3c00);
    assert_int_equal(enc_t("fp16", tie, 1), 0x3c00);
    assert_int_equal(enc_t("fp16", tie, -1), 0x3c01);
    assert_int_equal(enc_t("fp16", -tie, 1), 0xbc01);
    assert_int_equal(enc_t("fp16", -tie, -1), 0xbc00);
    /* RTZ on a representable x: the true value toward zero truncates below */
    assert_int_equal(enc_t("fp16:rtz", 1.0, 1), 0x3bff);
    assert_int_equal(enc_t("fp16:rtz", 1.0, -1), 0x3c00);
    assert_int_equal(enc_t("fp16:rtz", -1.0, -1), 0xbbff);
    assert_int_equal(enc_t("fp16:rtz", -1.0, 1), 0xbc00);
    assert_int_equal(enc_t("fp16:rtz", 0x1p-24, 1), 0x0000);  /* below the smallest subnormal */
    assert_int_equal(enc_t("fp16:rne", 0x1p-25, 1), 0x0000);  /* half the smallest subnormal */
    assert_int_equal(enc_t("fp16:rne", 0x1p-25, -1), 0x0001);
    assert_int_equal(enc_t("fp16:rne", 0x1p-25, 0), 0x0000);
    assert_int_equal(enc_t("fp16:rtz:nan", 65536, 1), 0x7bff); /* just below 2^16: no overflow */
    assert_int_equal(enc_t("fp16:rtz:nan", 65536, -1), 0x7e00);
    /* a zero that stands for a tiny value of a sign */
    assert_int_equal(enc_t("fp16", 0.0, 1), 0x8000);
    assert_int_equal(enc_t("fp16", 0.0, -1), 0x0000);
    assert_int_equal(enc_t("int8", 0.0, 1), 0);
    /* integers */
    assert_int_equal(enc_t("int8", 3, 1), 2);
    assert_int_equal(enc_t("int8", 3, -1), 3);
    assert_int_equal(enc_t("int8", -3, -1), 0xfe);
    assert_int_equal(enc_t("int8", -3, 1), 0xfd);
    assert_int_equal(enc_t("int8:rne", 3, 1), 3);
    assert_int_equal(enc_t("int8:rne", 2.5, 1), 2);
    assert_int_equal(enc_t("int8:rne", 2.5, -1), 3);
    assert_int_equal(enc_t("int8:rne", -2.5, 1), 0xfd);
    assert_int_equal(enc_t("int8:rne", -2.5, -1), 0xfe);
    assert_int_equal(enc_t("int8", 2.5, -1), 2);
    assert_int_equal(enc_t("int8", 128, 1), 127);
    assert_int_equal(enc_t("int8", 128, -1), 127);
    assert_int_equal(enc_t("int8", -128, -1), 0x81);
    assert_int_equal(enc_t("uint8", 256, 1), 255);
    assert_int_equal(enc_t("uint8:rtz:wrap", 256, 1), 255);
    assert_int_equal(enc_t("uint8:rtz:wrap", 256, -1), 0);
    assert_int_equal(enc_t("int32:rtz:wrap", 0x1p100, 1), 0xffffffff);
    assert_int_equal(enc_t("int32:rtz:wrap", -0x1p100, -1), 1);
    assert_int_equal(enc_t("int32:rtz:wrap", 0x1p100, -1), 0);
}

/* The ternary against an independent construction: a random value v of 120 bits,
 * rounded to a few precisions with MPFR's own ternary, must encode like v itself in
 * every profile whose target the rounded precision can resolve. */
static void test_ternary_random(void **state) {
    (void)state;
    td_profile ps[TU_MAX_PROFILES];
    int np = tu_all_profiles(ps);
    uint64_t seed = 7;
    long checked = 0, bad = 0, inexact = 0;
    mpfr_t v, a;
    mpfr_init2(v, 120);
    mpfr_init2(a, 53);
    for (int it = 0; it < 20000; it++) {
        const td_fmt_info *fi = NULL;
        /* a value near a tie or grid point of a random target: k/2^j plus a tiny offset */
        td_profile p = ps[tu_rand(&seed) % (uint64_t)np];
        fi = td_fmt_get(p.fmt);
        int e = fi->is_float ? fi->emin - fi->prec - 2 + (int)(tu_rand(&seed) % (uint64_t)(fi->emax - fi->emin + fi->prec + 6))
                             : (int)(tu_rand(&seed) % 40) - 4;
        int prec = fi->is_float ? fi->prec : 0;
        mpfr_set_ui(v, (unsigned long)(tu_rand(&seed) % (1u << (prec + 1 > 12 ? 12 : prec + 1))) | 1, MPFR_RNDN);
        mpfr_mul_2si(v, v, e - (prec > 12 ? 12 : prec), MPFR_RNDN);
        long off = (long)(tu_rand(&seed) % 5) - 2; /* -2..2 units of 2^-100 relative */
        mpfr_t d;
        mpfr_init2(d, 120);
        mpfr_set(d, v, MPFR_RNDN);
        mpfr_mul_2si(d, d, -100, MPFR_RNDN);
        mpfr_mul_si(d, d, off, MPFR_RNDN);
        mpfr_add(v, v, d, MPFR_RNDN);
        mpfr_clear(d);
        if (tu_rand(&seed) & 1)
            mpfr_neg(v, v, MPFR_RNDN);
        uint64_t want = td_encode_mpfr(p, v);
        /* every precision from the target's + 1 (enough to hold its ties) to 53 */
        int pmin = fi->is_float ? fi->prec + 1 : 40;
        for (int pa = pmin; pa <= 53; pa += 7) {
            mpfr_set_prec(a, pa);
            int t = mpfr_set(a, v, MPFR_RNDN);
            inexact += t != 0;
            uint64_t got = td_encode_mpfr_t(p, a, t);
            checked++;
            if (got != want && bad++ < 10) {
                char s[64];
                mpfr_printf("%s: v=%.40Rg a(%d bits)=%Ra t=%d: 0x%llx want 0x%llx\n", tu_pstr(p, s, sizeof s), v, pa,
                            a, t, (unsigned long long)got, (unsigned long long)want);
            }
        }
    }
    mpfr_clear(v);
    mpfr_clear(a);
    print_message("ternary: %ld checks, %ld with an inexact stand-in\n", checked, inexact);
    assert_true(inexact > 10000);
    assert_int_equal(bad, 0);
}

static void test_chains(void **state) {
    (void)state;
    td_cast_chain c;
    char s[256];
    assert_int_equal(td_chain_parse("fp32:rne>bf16:rne", &c), 0);
    assert_int_equal(c.n, 2);
    td_chain_str(&c, s, sizeof s);
    assert_string_equal(s, "fp32:rne:inf>bf16:rne:inf");
    assert_int_equal(td_chain_parse("fp32>fp16:rtz:sat:ftz>e4m3fn:rne:sat>int8", &c), 0);
    assert_int_equal(c.n, 4);
    assert_int_equal(td_chain_parse("fp32>fp16>bf16>e5m2>e4m3fn", &c), -1); /* > TD_CHAIN_MAX */
    assert_int_equal(td_chain_parse("fp32>>bf16", &c), -1);
    assert_int_equal(td_chain_parse("fp32>e4m3fn:rne:inf", &c), -1);
    assert_int_equal(td_chain_parse("", &c), -1);
    td_cast_chain empty = {0};
    assert_int_equal(td_chain_f64(&empty, 1.0), 0);
    /* chains through every path agree, over a spread of values */
    const char *chains[] = {"fp32>bf16", "fp32>fp16:rtz", "fp16>e4m3fn:rne:sat", "bf16>fp16:rne:sat>int8:rne",
                            "fp32:rtz:inf:ftz>e5m2:rne:nan", "int32:rne:wrap>fp16", "e5m2>e4m3fn:rne:nan", NULL};
    uint64_t seed = 3;
    long checked = 0;
    mpfr_t m;
    mpfr_init2(m, 53);
    for (int i = 0; chains[i]; i++) {
        assert_int_equal(td_chain_parse(chains[i], &c), 0);
        for (int k = 0; k < 20000; k++) {
            uint64_t u = tu_rand(&seed);
            /* exponents around the small formats' ranges */
            u = (u & UINT64_C(0x800fffffffffffff)) | ((UINT64_C(1023) - 40 + (u >> 52) % 80) << 52);
            double x = tu_f64(u);
            uint64_t want = td_encode_f64(c.step[0], x);
            uint64_t wref = td_ref_encode_f64(c.step[0], x);
            for (int j = 1; j < c.n; j++) {
                want = td_encode_f64(c.step[j], td_decode(c.step[j - 1].fmt, want));
                wref = td_ref_encode_f64(c.step[j], td_decode(c.step[j - 1].fmt, wref));
            }
            mpfr_set_d(m, x, MPFR_RNDN);
            assert_int_equal(td_chain_f64(&c, x), want);
            assert_int_equal(wref, want);
            assert_int_equal(td_chain_mpfr(&c, m, 0), want);
            float xf = (float)x;
            uint64_t w32 = td_encode_f32(c.step[0], xf);
            for (int j = 1; j < c.n; j++)
                w32 = td_encode_f64(c.step[j], td_decode(c.step[j - 1].fmt, w32));
            assert_int_equal(td_chain_f32(&c, xf), w32);
            checked++;
        }
    }
    mpfr_clear(m);
    assert_true(checked > 0);
}

/* td_ulp reads exponents from the bits (issue 20's oracle cost): the same values as the
 * ilogb/ldexp formulation for every format, over binary64 values of every binade
 * (subnormal ones included), both signs, infinities. */
static double ulp_libm(td_fmt f, double x) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (isnan(x)) return NAN;
    if (!fi->is_float) return 1.0;
    if (x == 0) return fi->min_subnormal;
    int e = isinf(x) ? fi->emax : ilogb(x);
    e = e < fi->emin ? fi->emin : (e > fi->emax ? fi->emax : e);
    return ldexp(1.0, e - fi->prec + 1);
}

static void test_ulp_bits_match_libm(void **state) {
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int f = 0; f < TD_FMT_COUNT; f++) {
        for (int e = -1080; e <= 1024; e++) {
            for (int k = 0; k < 8; k++) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                double x = ldexp(1.0 + (double)(s >> 11) * 0x1p-53, e);
                if (k & 1) x = -x;
                if (k == 2) x = ldexp(1.0, e); /* a power of two itself */
                assert_true(td_ulp((td_fmt)f, x) == ulp_libm((td_fmt)f, x));
            }
        }
        assert_true(td_ulp((td_fmt)f, INFINITY) == ulp_libm((td_fmt)f, INFINITY));
        assert_true(td_ulp((td_fmt)f, 0x1p-1074) == ulp_libm((td_fmt)f, 0x1p-1074));
        assert_true(td_ulp((td_fmt)f, 0.0) == ulp_libm((td_fmt)f, 0.0)); /* zeros: the smallest subnormal */
        assert_true(td_ulp((td_fmt)f, -0.0) == ulp_libm((td_fmt)f, -0.0));
        assert_true(td_ulp((td_fmt)f, -INFINITY) == ulp_libm((td_fmt)f, -INFINITY));
        assert_true(isnan(td_ulp((td_fmt)f, NAN)));
    }
}

static void test_ulp_next(void **state) {
    (void)state;
    assert_true(td_ulp(TD_F16, 1) == 0x1p-10);
    assert_true(td_ulp(TD_F16, -1) == 0x1p-10);
    assert_true(td_ulp(TD_F16, 1.999) == 0x1p-10);
    assert_true(td_ulp(TD_F16, 2) == 0x1p-9);
    assert_true(td_ulp(TD_F16, 0) == 0x1p-24);
    assert_true(td_ulp(TD_F16, 0x1p-20) == 0x1p-24);
    assert_true(td_ulp(TD_F16, 0x1p-14) == 0x1p-24);
    assert_true(td_ulp(TD_F16, 65504) == 32);
    assert_true(td_ulp(TD_F16, 1e6) == 32);
    assert_true(td_ulp(TD_F16, INFINITY) == 32);
    assert_true(isnan(td_ulp(TD_F16, NAN)));
    assert_true(td_ulp(TD_E4M3FN, 256) == 32);
    assert_true(td_ulp(TD_E4M3FN, 448) == 32);
    assert_true(td_ulp(TD_E4M3FN, 460) == 32);
    assert_true(td_ulp(TD_E4M3FN, 0) == 0x1p-9);
    assert_true(td_ulp(TD_E4M3FN, 1) == 0.125);
    assert_true(td_ulp(TD_E5M2, 57344) == 8192);
    assert_true(td_ulp(TD_BF16, 1) == 0x1p-7);
    assert_true(td_ulp(TD_F32, 1) == 0x1p-23);
    assert_true(td_ulp(TD_F64, 1) == 0x1p-52);
    assert_true(td_ulp(TD_F64, 0) == 0x1p-1074);
    assert_true(td_ulp(TD_I8, 5.5) == 1);

    assert_true(td_next_up(TD_E4M3FN, 416) == 448);
    assert_true(td_next_up(TD_E4M3FN, 447) == 448);
    assert_true(isnan(td_next_up(TD_E4M3FN, 448)));
    assert_true(td_next_down(TD_E4M3FN, 448) == 416);
    assert_true(td_next_down(TD_E4M3FN, 480) == 448); /* 480 is not a value */
    assert_true(td_next_down(TD_E4M3FN, 1e9) == 448);
    assert_true(td_next_down(TD_E4M3FN, INFINITY) == 448);
    assert_true(td_next_up(TD_E4M3FN, -448) == -416);
    assert_true(isnan(td_next_down(TD_E4M3FN, -448)));
    assert_true(td_next_up(TD_E4M3FN, -1e9) == -448);
    assert_true(td_next_up(TD_F16, 65504) == INFINITY);
    assert_true(td_next_down(TD_F16, -65504) == -INFINITY);
    assert_true(td_next_up(TD_F16, -INFINITY) == -65504);
    assert_true(td_next_up(TD_F16, 0) == 0x1p-24);
    assert_true(td_next_up(TD_F16, -0.0) == 0x1p-24);
    assert_true(td_next_down(TD_F16, 0) == -0x1p-24);
    assert_true(td_next_up(TD_F16, 1) == 1 + 0x1p-10);
    assert_true(td_next_down(TD_F16, 1) == 1 - 0x1p-11);
    assert_true(td_next_up(TD_F16, 1.0001) == 1 + 0x1p-10);
    assert_true(td_next_down(TD_F16, 1.0001) == 1);
    assert_true(td_next_up(TD_F16, -1) == -1 + 0x1p-11);
    assert_true(td_next_down(TD_F16, -1) == -1 - 0x1p-10);
    assert_true(td_next_down(TD_F16, 0x1p-14) == 0x1p-14 - 0x1p-24);
    assert_true(td_next_up(TD_F16, 0x1p-14 - 0x1p-24) == 0x1p-14);
    assert_true(td_next_down(TD_F16, 0x1p-30) == 0);
    assert_true(td_next_up(TD_F64, 1) == nextafter(1.0, 2.0));
    assert_true(td_next_up(TD_I8, 1.5) == 2 && td_next_up(TD_I8, 1) == 2);
    assert_true(isnan(td_next_up(TD_I8, 127)) && isnan(td_next_down(TD_I8, -128)));
    assert_true(td_next_down(TD_U8, 0.5) == 0 && td_next_up(TD_U8, -7) == 0);
    assert_true(isnan(td_next_up(TD_F16, NAN)));
    /* binary32 against the C library's nextafterf, also from points between values */
    assert_true(td_next_up(TD_F32, 0.1) == (double)0.1f); /* 0.1f is above 0.1 */
    assert_true(td_next_down(TD_F32, 0.1) == (double)nextafterf(0.1f, 0));
    assert_true(td_next_up(TD_F32, FLT_MAX) == INFINITY);
    uint64_t seed = 5;
    for (int i = 0; i < 200000; i++) {
        float f = tu_f32((uint32_t)tu_rand(&seed));
        if (!isfinite(f))
            continue;
        assert_true(td_next_up(TD_F32, f) == (double)nextafterf(f, INFINITY) || (f == FLT_MAX));
        assert_true(td_next_down(TD_F32, f) == (double)nextafterf(f, -INFINITY) || (f == -FLT_MAX));
        double mid = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
        if (isfinite(mid) && mid != f)
            assert_true(td_next_down(TD_F32, mid) == (double)f);
        if (f > 0 && f < FLT_MAX)
            assert_true(td_ulp(TD_F32, f) == (double)nextafterf(f, INFINITY) - (double)f);
    }
}

/* For every small format: sorting all finite values, consecutive ones have consecutive
 * ordinals, next_up/next_down step between them (also from points in between), and the
 * ulp is the step above each nonnegative value. */
static void test_ordinals_exhaustive(void **state) {
    (void)state;
    const td_fmt fmts[] = {TD_F16, TD_BF16, TD_E4M3FN, TD_E5M2};
    long checked = 0;
    for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
        td_fmt f = fmts[k];
        const td_fmt_info *fi = td_fmt_get(f);
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint64_t n = UINT64_C(1) << fi->bits;
        static uint64_t by_ord[1 << 17];
        static bool seen[1 << 17];
        memset(seen, 0, sizeof seen);
        int64_t off = 1 << 16;
        for (uint64_t b = 0; b < n; b++) {
            td_class c = td_classify(f, b);
            if (c == TD_CLS_NAN || c == TD_CLS_INF)
                continue;
            int64_t o = td_ordinal(f, b);
            if (td_decode(f, b) == 0)
                assert_int_equal(o, 0);
            else {
                assert_false(seen[o + off]);
                seen[o + off] = true;
                by_ord[o + off] = b;
            }
            lo = o < lo ? o : lo;
            hi = o > hi ? o : hi;
        }
        by_ord[off] = 0;
        seen[off] = true;
        for (int64_t o = lo; o < hi; o++) {
            assert_true(seen[o + off] && seen[o + 1 + off]);
            double a = td_decode(f, by_ord[o + off]), b = td_decode(f, by_ord[o + 1 + off]);
            assert_true(a < b);
            assert_true(td_next_up(f, a) == b);
            assert_true(td_next_down(f, b) == a);
            double mid = a + (b - a) / 4;
            assert_true(td_next_up(f, mid) == b);
            assert_true(td_next_down(f, mid) == a);
            if (a >= 0)
                assert_true(td_ulp(f, a) == b - a);
            assert_int_equal(td_ulp_distance(f, by_ord[o + off], by_ord[o + 1 + off]), 1);
            assert_int_equal(td_ulp_distance(f, by_ord[lo + off], by_ord[o + off]), o - lo);
            checked++;
        }
        assert_true(td_decode(f, by_ord[hi + off]) == fi->max_finite);
        assert_true(hi == -lo);
    }
    /* e4m3fn in particular: 126 positive steps, 448 is the last, no pattern is 480 */
    assert_int_equal(td_ordinal(TD_E4M3FN, 0x7e), 126);
    assert_int_equal(td_ulp_distance(TD_E4M3FN, 0xfe, 0x7e), 252);
    assert_int_equal(td_ulp_distance(TD_E4M3FN, 0x7e, 0xfe), -252);
    for (uint64_t b = 0; b < 256; b++)
        assert_false(td_decode(TD_E4M3FN, b) == 480);
    assert_int_equal(td_ordinal(TD_E4M3FN, 0x80), 0);
    assert_true(td_ordinal(TD_E4M3FN, 0x7f) == INT64_MIN);
    assert_int_equal(td_ulp_distance(TD_F16, 0x3c00, 0x4000), 1024);
    assert_int_equal(td_ulp_distance(TD_F16, 0x8001, 0x0001), 2);
    assert_int_equal(td_ordinal(TD_I8, 0x80), -128);
    assert_int_equal(td_ulp_distance(TD_I8, 0x80, 0x7f), 255);
    assert_true(td_ulp_distance(TD_F64, tu_u64(-DBL_MAX), tu_u64(DBL_MAX)) == INT64_MAX);
    print_message("ordinal steps checked: %ld\n", checked);
    assert_true(checked > 100000);
}

static void test_parse(void **state) {
    (void)state;
    mpfr_t x;
    int t;
    mpfr_init2(x, 32);
    struct {
        const char *s;
        double v;
        int exact;
    } ok[] = {
        {"1.5", 1.5, 1},          {"0x1.8p1", 3, 1},       {"-0", -0.0, 1},         {"+2", 2, 1},
        {"464", 464, 1},          {"1.00390625", 1.00390625, 1}, {"0.000244140625", 0x1p-12, 1},
        {"1e3", 1000, 1},         {"1E-2", 0.01, 0},       {"0.1", 0.1, 0},          {".5", 0.5, 1},
        {"5.", 5, 1},             {"0x.8", 0.5, 1},        {"0X1P-3", 0.125, 1},     {"-0x1.fffffffffffffp1023", -DBL_MAX, 1},
        {"inf", INFINITY, 1},     {"-inf", -INFINITY, 1},  {"+Infinity", INFINITY, 1}, {"INF", INFINITY, 1},
        {"1e-400", 0.0, 0},       {"00012", 12, 1},        {"6.5e+01", 65, 1},       {"0e999", 0, 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        assert_int_equal(td_parse_value_mpfr_t(ok[i].s, x, &t), 0);
        /* an inexact token is held to 64 bits at least: compare it as a binary64 */
        assert_true(ok[i].exact ? mpfr_cmp_d(x, ok[i].v) == 0 : mpfr_get_d(x, MPFR_RNDN) == ok[i].v || ok[i].v == 0);
        assert_int_equal(!mpfr_signbit(x), !signbit(ok[i].v));
        assert_int_equal(t == 0, ok[i].exact);
    }
    assert_int_equal(td_parse_value_mpfr("nan", x), 0);
    assert_true(mpfr_nan_p(x));
    assert_int_equal(td_parse_value_mpfr("-NaN", x), 0);
    assert_true(mpfr_nan_p(x));
    /* exact big integers and powers of ten: the precision is raised to hold them */
    assert_int_equal(td_parse_value_mpfr_t("123456789012345678901234567890", x, &t), 0);
    assert_int_equal(t, 0);
    mpfr_t y;
    mpfr_init2(y, 200);
    mpfr_set_str(y, "123456789012345678901234567890", 10, MPFR_RNDN);
    assert_true(mpfr_equal_p(x, y));
    assert_int_equal(td_parse_value_mpfr_t("1e300", x, &t), 0);
    assert_int_equal(t, 0);
    mpfr_set_prec(y, 2000);
    mpfr_ui_pow_ui(y, 10, 300, MPFR_RNDN);
    assert_true(mpfr_equal_p(x, y));
    assert_int_equal(td_parse_value_mpfr_t("1e-300", x, &t), 0);
    assert_int_equal(t != 0, 1);
    /* the caller's precision is never lowered */
    mpfr_set_prec(x, 300);
    assert_int_equal(td_parse_value_mpfr("1", x), 0);
    assert_int_equal(mpfr_get_prec(x), 300);
    /* beyond MPFR's exponent range: finite stand-ins on the right side */
    assert_int_equal(td_parse_value_mpfr_t("1e999999999999", x, &t), 0);
    assert_true(mpfr_number_p(x) && mpfr_sgn(x) > 0 && t < 0);
    assert_int_equal(td_parse_value_mpfr_t("-1e-999999999999", x, &t), 0);
    assert_true(mpfr_number_p(x) && !mpfr_zero_p(x) && mpfr_sgn(x) < 0 && t < 0);
    assert_int_equal(td_encode_mpfr_t(P("fp16:rtz"), x, t), 0x8000);
    assert_int_equal(td_parse_value_mpfr_t("1e999999999999", x, &t), 0);
    assert_int_equal(td_encode_mpfr_t(P("fp16:rtz"), x, t), 0x7bff);
    assert_int_equal(td_encode_mpfr_t(P("fp16"), x, t), 0x7c00);
    const char *bad[] = {"",    "abc", "1.2.3", "0x", "1e",  "1e+", "--1", "0x1p", "1f",    "nan(1)", " 1",
                         "1 ",  "1_000", ".",  "e5", "0x.p1", "+",  "-",   "0b101", "1e5.0", "infinit", "0x1e3p", NULL};
    for (int i = 0; bad[i]; i++) {
        if (td_parse_value_mpfr(bad[i], x) != -1) {
            print_error("accepted \"%s\"\n", bad[i]);
            fail();
        }
    }
    assert_int_equal(td_parse_value_mpfr(NULL, x), -1);
    mpfr_clear(x);
    mpfr_clear(y);
}

/* Decimals rounded from their exact value, not from a binary64 on the way. */
static uint64_t parse_enc(const char *prof, const char *s) {
    mpfr_t x;
    int t;
    mpfr_init2(x, 64);
    assert_int_equal(td_parse_value_mpfr_t(s, x, &t), 0);
    uint64_t r = td_encode_mpfr_t(P(prof), x, t);
    mpfr_clear(x);
    return r;
}

static void test_parse_rounding(void **state) {
    (void)state;
    assert_int_equal(parse_enc("fp16", "65519.99999999999999999999999999999"), 0x7bff);
    assert_int_equal(parse_enc("fp16", "65520"), 0x7c00);
    assert_int_equal(parse_enc("fp16", "65520.0000000000000000000000000001"), 0x7c00);
    assert_int_equal(parse_enc("e4m3fn", "464.00000000000000000000000000001"), 0x7f);
    assert_int_equal(parse_enc("e4m3fn", "463.99999999999999999999999999999"), 0x7e);
    assert_int_equal(parse_enc("int8:rne", "2.50000000000000000000000000001"), 3);
    assert_int_equal(parse_enc("int8:rne", "2.49999999999999999999999999999"), 2);
    assert_int_equal(parse_enc("int8", "0.99999999999999999999999999999"), 0);
    assert_int_equal(parse_enc("int8", "-0.99999999999999999999999999999"), 0);
    assert_int_equal(parse_enc("int8", "2.99999999999999999999999999999"), 2);
    assert_int_equal(parse_enc("fp16:rtz", "0.99999999999999999999999999999"), 0x3bff);
    assert_int_equal(parse_enc("fp16:rtz", "1.00000000000000000000000000001"), 0x3c00);
    /* 1 + 2^-11 is fp16's tie; one part in 10^30 above it must round up */
    assert_int_equal(parse_enc("fp16", "1.00048828125"), 0x3c00);
    assert_int_equal(parse_enc("fp16", "1.000488281250000000000000000001"), 0x3c01);
    assert_int_equal(parse_enc("fp16", "1.000488281249999999999999999999"), 0x3c00);
    /* binary64's own: 2^-1075 is the tie between 0 and 2^-1074 */
    assert_true(parse_enc("fp32", "1e-46") == 0); /* below half of 2^-149 */
    assert_true(parse_enc("fp32", "1e-45") == 1);
    assert_true(parse_enc("int32:rtz:wrap", "1e400") == 0);      /* 10^400 is a multiple of 2^32 */
    /* 4294967301 * 10^10 exceeds uint64: the expected residue comes from MPFR */
    mpfr_t a, m;
    mpfr_init2(a, 200);
    mpfr_init2(m, 200);
    mpfr_set_str(a, "42949673010000000000", 10, MPFR_RNDN);
    mpfr_set_ui_2exp(m, 1, 32, MPFR_RNDN);
    mpfr_fmod(a, a, m, MPFR_RNDN);
    assert_true(parse_enc("int32:rtz:wrap", "4294967301e10") == (uint64_t)mpfr_get_d(a, MPFR_RNDN));
    mpfr_clear(a);
    mpfr_clear(m);
}

static void test_format_value(void **state) {
    (void)state;
    struct {
        td_fmt f;
        uint64_t b;
        const char *s;
    } k[] = {
        {TD_F16, 0x7bff, "65504"},    {TD_E4M3FN, 0x7e, "448"},    {TD_E4M3FN, 0x7f, "nan"},
        {TD_F32, 0x3f800000, "1"},    {TD_F32, 0x3dcccccd, "0.1"}, {TD_F32, 0x7f7fffff, "3.4028235e+38"},
        {TD_F32, 0x00000001, "1e-45"}, {TD_F32, 0x00800000, "1.1754944e-38"}, {TD_F32, 0x4b800000, "16777216"},
        {TD_F16, 0x8000, "-0"},       {TD_F16, 0x0000, "0"},       {TD_F16, 0xfc00, "-inf"},
        {TD_F16, 0x7c00, "inf"},      {TD_F16, 0xfe00, "nan"},     {TD_F16, 0x3c01, "1.0009765625"},
        {TD_F16, 0x0001, "5.9604644775390625e-08"},    {TD_BF16, 0x3f81, "1.0078125"},  {TD_E5M2, 0x7b, "57344"},
        {TD_I8, 0xff, "-1"},          {TD_U8, 0xff, "255"},        {TD_I32, 0x80000000, "-2147483648"},
        {TD_F64, 0x3fb999999999999a, "0.1"}, {TD_F64, 0x44b52d02c7e14af6, "1e+23"},
        {TD_F64, 0x0000000000000001, "5e-324"}, {TD_F64, 0x7fefffffffffffff, "1.7976931348623157e+308"},
        {TD_F32, 0x38d1b717, "0.0001"}, {TD_F32, 0x3727c5ac, "1e-05"}, {TD_F16, 0xc500, "-5"},
        {TD_BOOL, 1, "1"},            {TD_I64, 0x8000000000000000, "-9223372036854775808"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        char s[64];
        td_format_value(k[i].f, k[i].b, s, sizeof s);
        if (strcmp(s, k[i].s)) {
            print_error("%s 0x%llx: \"%s\", want \"%s\"\n", td_fmt_get(k[i].f)->name, (unsigned long long)k[i].b, s,
                        k[i].s);
            fail();
        }
    }
    char tiny[4];
    td_format_value(TD_F32, 0x7f7fffff, tiny, sizeof tiny); /* truncated, terminated */
    assert_int_equal(strlen(tiny), 3);
}

/* The exponent range of the caller is what it was, and a narrow one does not change
 * the results. */
static void test_mpfr_range_kept(void **state) {
    (void)state;
    mpfr_exp_t e1 = mpfr_get_emin(), e2 = mpfr_get_emax();
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_emin(-100);
    mpfr_set_emax(100);
    mpfr_set_ui_2exp(x, 1, 90, MPFR_RNDN);
    assert_int_equal(td_encode_mpfr(P("e4m3fn:rne:sat"), x), 0x7e);
    assert_int_equal(td_encode_mpfr(P("fp32"), x), 0x6c800000);
    assert_int_equal(td_encode_mpfr_t(P("fp16:rtz:nan"), x, 1), 0x7e00);
    mpfr_set_ui_2exp(x, 3, -90, MPFR_RNDN);
    assert_int_equal(td_encode_mpfr(P("fp32"), x), 0x13400000); /* 1.5 * 2^-89 */
    assert_int_equal(td_encode_mpfr(P("fp16"), x), 0x0000);
    assert_int_equal(td_encode_mpfr_t(P("fp16"), x, 1), 0x0000);
    assert_int_equal(td_encode_mpfr(P("int8"), x), 0);
    assert_int_equal(mpfr_get_emin(), -100);
    assert_int_equal(mpfr_get_emax(), 100);
    mpfr_set_emin(e1);
    mpfr_set_emax(e2);
    /* far outside every format, in the default range */
    mpfr_set_ui_2exp(x, 1, 1 << 29, MPFR_RNDN);
    assert_int_equal(td_encode_mpfr(P("fp16"), x), 0x7c00);
    assert_int_equal(td_encode_mpfr(P("fp16:rtz"), x), 0x7bff);
    assert_int_equal(td_encode_mpfr(P("fp32:rne:sat"), x), 0x7f7fffff);
    assert_int_equal(td_encode_mpfr(P("int32:rtz:wrap"), x), 0);
    assert_int_equal(td_encode_mpfr_t(P("int32:rtz:wrap"), x, 1), 0xffffffff);
    assert_int_equal(td_encode_mpfr(P("int32"), x), 0x7fffffff);
    mpfr_set_si_2exp(x, -1, -(1 << 29), MPFR_RNDN);
    assert_int_equal(td_encode_mpfr(P("fp16"), x), 0x8000);
    assert_int_equal(td_encode_mpfr(P("e4m3fn:rtz:sat"), x), 0x80);
    assert_int_equal(mpfr_get_emin(), e1);
    assert_int_equal(mpfr_get_emax(), e2);
    mpfr_clear(x);
}

/* Threads: MPFR's exponent range is per thread when MPFR is built with TLS; the
 * reference path must give the same answers from two threads at once. */
typedef struct {
    uint64_t seed;
    long bad;
    mpfr_exp_t emin_after;
} thr_arg;

static void *thr_main(void *p) {
    thr_arg *a = p;
    mpfr_set_emin(-5000);
    td_profile ps[TU_MAX_PROFILES];
    int np = tu_all_profiles(ps);
    for (int i = 0; i < 200000; i++) {
        td_profile pr = ps[tu_rand(&a->seed) % (uint64_t)np];
        double x = tu_f64((tu_rand(&a->seed) & UINT64_C(0x800fffffffffffff)) |
                          ((UINT64_C(1023) - 150 + tu_rand(&a->seed) % 300) << 52));
        if (td_ref_encode_f64(pr, x) != td_encode_f64(pr, x))
            a->bad++;
    }
    a->emin_after = mpfr_get_emin();
    mpfr_free_cache(); /* MPFR's per-thread caches and mpz pool */
    return NULL;
}

static void test_threads(void **state) {
    (void)state;
    if (!mpfr_buildopt_tls_p()) {
        print_message("MPFR built without thread-local storage: the reference path is not thread-safe here\n");
        skip();
    }
    pthread_t t[2];
    thr_arg a[2] = {{11, 0, 0}, {12, 0, 0}};
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, thr_main, &a[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(a[0].bad + a[1].bad, 0);
    assert_int_equal(a[0].emin_after, -5000);
    assert_int_equal(a[1].emin_after, -5000);
}

/* Invalid profiles behave as documented, alike in both paths. */
static void test_invalid_profiles(void **state) {
    (void)state;
    td_profile e4inf = {TD_E4M3FN, TD_RNE, TD_OVF_INF, false};
    assert_int_equal(td_encode_f64(e4inf, 1e9), 0x7f);
    assert_int_equal(td_ref_encode_f64(e4inf, 1e9), 0x7f);
    assert_int_equal(td_encode_f32(e4inf, INFINITY), 0x7f);
    td_profile f16wrap = {TD_F16, TD_RNE, TD_OVF_WRAP, false};
    assert_int_equal(td_encode_f64(f16wrap, 1e9), 0x7c00);
    assert_int_equal(td_ref_encode_f64(f16wrap, 1e9), 0x7c00);
    td_profile i8inf = {TD_I8, TD_RTZ, TD_OVF_INF, false};
    assert_int_equal(td_encode_f64(i8inf, 1e9), 0x7f);
    assert_int_equal(td_ref_encode_f64(i8inf, 1e9), 0x7f);
    td_profile i64 = {TD_I64, TD_RTZ, TD_OVF_SAT, false}, b = {TD_BOOL, TD_RTZ, TD_OVF_SAT, false};
    assert_int_equal(td_encode_f64(i64, 5), 0);
    assert_int_equal(td_ref_encode_f64(i64, 5), 0);
    assert_int_equal(td_encode_f32(b, 1), 0);
    assert_int_equal(td_ref_encode_f32(b, 1), 0);
    /* fp64 as an internal target */
    td_profile f64 = {TD_F64, TD_RNE, TD_OVF_SAT, true};
    assert_true(td_encode_f64(f64, INFINITY) == UINT64_C(0x7fefffffffffffff));
    assert_true(td_encode_f64(f64, 0x1p-1070) == 0);
    assert_true(td_ref_encode_f64(f64, -0x1p-1070) == UINT64_C(0x8000000000000000));
    assert_true(td_encode_f32(f64, 1.5f) == tu_u64(1.5));
    assert_true(td_ref_encode_f32(f64, -NAN) == UINT64_C(0xfff8000000000000));
    assert_true(td_encode_f32(f64, -NAN) == UINT64_C(0xfff8000000000000));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disagreements), cmocka_unit_test(test_overflow_rules),
        cmocka_unit_test(test_ftz),           cmocka_unit_test(test_integers),
        cmocka_unit_test(test_ternary),       cmocka_unit_test(test_ternary_random),
        cmocka_unit_test(test_chains),        cmocka_unit_test(test_ulp_next),
        cmocka_unit_test(test_ulp_bits_match_libm),
        cmocka_unit_test(test_ordinals_exhaustive), cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_rounding), cmocka_unit_test(test_format_value),
        cmocka_unit_test(test_mpfr_range_kept), cmocka_unit_test(test_threads),
        cmocka_unit_test(test_invalid_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
