/* Formats, profiles, decoding, and every 8- and 16-bit pattern of every format:
 * decode -> encode round trips, the MPFR path equal to the fast path on each pattern
 * as a source into every profile, and td_format_value round-tripping (and shortest). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_util.h"

static const td_fmt small_fmts[] = {TD_F16, TD_BF16, TD_E4M3FN, TD_E5M2, TD_I8, TD_U8};

/* The table against the format definitions, written out here independently. */
static void test_format_table(void **state) {
    (void)state;
    struct {
        td_fmt f;
        const char *name;
        unsigned bits;
        int prec, emin, emax, bias;
        bool inf;
        double max, minn, mins;
    } want[] = {
        {TD_F64, "fp64", 64, 53, -1022, 1023, 1023, true, 0x1.fffffffffffffp1023, 0x1p-1022, 0x1p-1074},
        {TD_F32, "fp32", 32, 24, -126, 127, 127, true, 0x1.fffffep127, 0x1p-126, 0x1p-149},
        {TD_F16, "fp16", 16, 11, -14, 15, 15, true, 65504, 0x1p-14, 0x1p-24},
        {TD_BF16, "bf16", 16, 8, -126, 127, 127, true, 0x1.fep127, 0x1p-126, 0x1p-133},
        {TD_E4M3FN, "e4m3fn", 8, 4, -6, 8, 7, false, 448, 0.015625, 0.001953125},
        {TD_E5M2, "e5m2", 8, 3, -14, 15, 15, true, 57344, 0x1p-14, 0x1p-16},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const td_fmt_info *fi = td_fmt_get(want[i].f);
        assert_non_null(fi);
        assert_string_equal(fi->name, want[i].name);
        assert_int_equal(fi->bits, want[i].bits);
        assert_int_equal(fi->bytes * 8, want[i].bits);
        assert_true(fi->is_float && fi->is_signed);
        assert_int_equal(fi->prec, want[i].prec);
        assert_int_equal(fi->emin, want[i].emin);
        assert_int_equal(fi->emax, want[i].emax);
        assert_int_equal(fi->bias, want[i].bias);
        assert_int_equal(fi->has_inf, want[i].inf);
        assert_true(fi->max_finite == want[i].max);
        assert_true(fi->min_normal == want[i].minn);
        assert_true(fi->min_subnormal == want[i].mins);
        assert_int_equal(fi->is_cast_target, want[i].f != TD_F64);
        /* the consequences the rest of the module relies on */
        assert_int_equal(fi->bias, 1 - fi->emin);
        assert_true(fi->min_subnormal == ldexp(1, fi->emin - fi->prec + 1));
        double top = fi->has_inf ? 2 - ldexp(1, 1 - fi->prec) : 2 - ldexp(1, 2 - fi->prec);
        assert_true(fi->max_finite == ldexp(top, fi->emax));
    }
    const td_fmt_info *i8 = td_fmt_get(TD_I8), *u8 = td_fmt_get(TD_U8), *i32 = td_fmt_get(TD_I32);
    assert_true(i8->imin == -128 && i8->imax == 127 && i8->is_signed && i8->is_cast_target && !i8->is_float);
    assert_true(u8->imin == 0 && u8->imax == 255 && !u8->is_signed && u8->is_cast_target);
    assert_true(i32->imin == INT32_MIN && i32->imax == INT32_MAX && i32->bits == 32);
    assert_false(td_fmt_get(TD_I64)->is_cast_target);
    assert_false(td_fmt_get(TD_BOOL)->is_cast_target);
    assert_string_equal(td_fmt_get(TD_BOOL)->name, "bool");
    assert_null(td_fmt_get(TD_FMT_COUNT));
}

static void test_fmt_parse(void **state) {
    (void)state;
    struct {
        const char *s;
        td_fmt f;
    } ok[] = {{"fp64", TD_F64},      {"f64", TD_F64},      {"fp32", TD_F32},        {"f32", TD_F32},
              {"fp16", TD_F16},      {"f16", TD_F16},      {"bf16", TD_BF16},       {"e4m3fn", TD_E4M3FN},
              {"fp8e4m3fn", TD_E4M3FN}, {"e4m3", TD_E4M3FN}, {"e5m2", TD_E5M2},     {"fp8e5m2", TD_E5M2},
              {"int8", TD_I8},       {"i8", TD_I8},        {"uint8", TD_U8},        {"u8", TD_U8},
              {"int32", TD_I32},     {"i32", TD_I32},      {"int64", TD_I64},       {"i64", TD_I64},
              {"bool", TD_BOOL},     {"float8_e4m3fn", TD_E4M3FN}, {"fp8e4nv", TD_E4M3FN}, {"bfloat16", TD_BF16}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        td_fmt f = TD_FMT_COUNT;
        assert_int_equal(td_fmt_parse(ok[i].s, &f), 0);
        assert_int_equal(f, ok[i].f);
    }
    td_fmt f;
    const char *bad[] = {"", "fp8", "e4m3fnuz", "FP16", "int16", "fp16 ", NULL};
    for (int i = 0; bad[i]; i++)
        assert_int_equal(td_fmt_parse(bad[i], &f), -1);
    assert_int_equal(td_fmt_parse(NULL, &f), -1);
}

static void test_profiles(void **state) {
    (void)state;
    td_profile p = td_profile_default(TD_F16);
    assert_true(p.fmt == TD_F16 && p.rnd == TD_RNE && p.ovf == TD_OVF_INF && !p.ftz);
    p = td_profile_default(TD_E4M3FN);
    assert_true(p.rnd == TD_RNE && p.ovf == TD_OVF_NAN);
    p = td_profile_default(TD_E5M2);
    assert_true(p.rnd == TD_RNE && p.ovf == TD_OVF_INF);
    p = td_profile_default(TD_I8);
    assert_true(p.rnd == TD_RTZ && p.ovf == TD_OVF_SAT);
    for (int f = TD_F32; f <= TD_I32; f++) {
        char err[128] = "x";
        assert_int_equal(td_profile_check(td_profile_default((td_fmt)f), err, sizeof err), 0);
        assert_string_equal(err, "");
    }
    char err[128];
    td_profile bad = {TD_E4M3FN, TD_RNE, TD_OVF_INF, false};
    assert_int_equal(td_profile_check(bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "e4m3fn has no infinity"));
    bad = (td_profile){TD_F16, TD_RNE, TD_OVF_WRAP, false};
    assert_int_equal(td_profile_check(bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "wrap applies to integer targets only"));
    bad = (td_profile){TD_I8, TD_RNE, TD_OVF_NAN, false};
    assert_int_equal(td_profile_check(bad, err, sizeof err), -1);
    bad = (td_profile){TD_I32, TD_RTZ, TD_OVF_INF, false};
    assert_int_equal(td_profile_check(bad, err, sizeof err), -1);
    bad = (td_profile){TD_F64, TD_RNE, TD_OVF_INF, false};
    assert_int_equal(td_profile_check(bad, err, sizeof err), -1);
    bad = (td_profile){TD_I64, TD_RTZ, TD_OVF_SAT, false};
    assert_int_equal(td_profile_check(bad, err, sizeof err), -1);
    bad = (td_profile){TD_BOOL, TD_RTZ, TD_OVF_SAT, false};
    assert_int_equal(td_profile_check(bad, NULL, 0), -1);

    /* every valid profile prints and parses back to itself */
    td_profile all[TU_MAX_PROFILES];
    int n = tu_all_profiles(all);
    assert_int_equal(n, 4 * 12 + 8 + 3 * 4); /* fp32 fp16 bf16 e5m2; e4m3fn; int8 uint8 int32 */
    for (int i = 0; i < n; i++) {
        char s[64];
        td_profile q;
        td_profile_str(all[i], s, sizeof s);
        assert_int_equal(td_profile_parse(s, &q), 0);
        assert_true(q.fmt == all[i].fmt && q.rnd == all[i].rnd && q.ovf == all[i].ovf && q.ftz == all[i].ftz);
    }
    struct {
        const char *s;
        td_profile p;
    } ok[] = {
        {"fp16", {TD_F16, TD_RNE, TD_OVF_INF, false}},
        {"e4m3fn", {TD_E4M3FN, TD_RNE, TD_OVF_NAN, false}},
        {"e4m3fn:rne:sat", {TD_E4M3FN, TD_RNE, TD_OVF_SAT, false}},
        {"fp16:rne:inf:ftz", {TD_F16, TD_RNE, TD_OVF_INF, true}},
        {"bf16:ftz", {TD_BF16, TD_RNE, TD_OVF_INF, true}},
        {"int8", {TD_I8, TD_RTZ, TD_OVF_SAT, false}},
        {"int8:rne", {TD_I8, TD_RNE, TD_OVF_SAT, false}},
        {"uint8:rtz:wrap", {TD_U8, TD_RTZ, TD_OVF_WRAP, false}},
        {"fp32:rtz", {TD_F32, TD_RTZ, TD_OVF_INF, false}},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        td_profile q;
        assert_int_equal(td_profile_parse(ok[i].s, &q), 0);
        assert_true(q.fmt == ok[i].p.fmt && q.rnd == ok[i].p.rnd && q.ovf == ok[i].p.ovf && q.ftz == ok[i].p.ftz);
    }
    const char *nok[] = {"",        "fp16:",          "fp16:rnd",      "e4m3fn:rne:inf", "int8:rne:inf",
                         "fp16:rne:wrap", "fp64",     "int64",         "fp16:rne:inf:ftz:x", "fp16:inf:rne",
                         "fp16:rne:inf:nftz", "bool", "fp16::inf", NULL};
    for (int i = 0; nok[i]; i++) {
        td_profile q;
        assert_int_equal(td_profile_parse(nok[i], &q), -1);
    }
    char s[64];
    td_profile_str((td_profile){TD_E4M3FN, TD_RNE, TD_OVF_SAT, false}, s, sizeof s);
    assert_string_equal(s, "e4m3fn:rne:sat");
    td_profile_str((td_profile){TD_F16, TD_RNE, TD_OVF_INF, true}, s, sizeof s);
    assert_string_equal(s, "fp16:rne:inf:ftz");
}

static void test_decode_known(void **state) {
    (void)state;
    struct {
        td_fmt f;
        uint64_t b;
        double v;
    } k[] = {
        {TD_F16, 0x3c00, 1},          {TD_F16, 0x7bff, 65504},      {TD_F16, 0x0001, 0x1p-24},
        {TD_F16, 0x0400, 0x1p-14},    {TD_F16, 0x03ff, 0x3ffp-24},  {TD_F16, 0xc000, -2},
        {TD_F16, 0x8000, -0.0},       {TD_F16, 0x7c00, INFINITY},   {TD_F16, 0xfc00, -INFINITY},
        {TD_BF16, 0x3f80, 1},         {TD_BF16, 0x7f7f, 0x1.fep127}, {TD_BF16, 0x0001, 0x1p-133},
        {TD_BF16, 0x7f80, INFINITY},  {TD_E4M3FN, 0x7e, 448},       {TD_E4M3FN, 0x78, 256},
        {TD_E4M3FN, 0x7c, 384},       {TD_E4M3FN, 0x01, 0x1p-9},    {TD_E4M3FN, 0x08, 0x1p-6},
        {TD_E4M3FN, 0x07, 7 * 0x1p-9}, {TD_E4M3FN, 0xfe, -448},     {TD_E4M3FN, 0x38, 1},
        {TD_E5M2, 0x7b, 57344},       {TD_E5M2, 0x7c, INFINITY},    {TD_E5M2, 0x01, 0x1p-16},
        {TD_E5M2, 0x3c, 1},           {TD_E5M2, 0xfc, -INFINITY},   {TD_F32, 0x3f800000, 1},
        {TD_F32, 0x00000001, 0x1p-149}, {TD_F32, 0x7f7fffff, 0x1.fffffep127},
        {TD_F64, 0x3ff0000000000000, 1}, {TD_F64, 1, 0x1p-1074},    {TD_I8, 0x80, -128},
        {TD_I8, 0xff, -1},            {TD_I8, 0x7f, 127},           {TD_U8, 0xff, 255},
        {TD_I32, 0x80000000, -2147483648.0}, {TD_I32, 0xffffffff, -1}, {TD_I64, 0xffffffffffffffff, -1},
        {TD_BOOL, 0, 0},              {TD_BOOL, 1, 1},              {TD_BOOL, 2, 1},
    };
    mpfr_t m;
    mpfr_init2(m, 64);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        double v = td_decode(k[i].f, k[i].b);
        assert_true(v == k[i].v);
        assert_int_equal(signbit(v) != 0, signbit(k[i].v) != 0);
        td_decode_mpfr(k[i].f, k[i].b, m);
        assert_true(mpfr_cmp_d(m, k[i].v) == 0);
        assert_int_equal(mpfr_signbit(m) != 0, signbit(k[i].v) != 0);
    }
    mpfr_clear(m);
    assert_true(td_decode_i64(UINT64_C(0x8000000000000000)) == INT64_MIN);
    assert_true(isnan(td_decode(TD_E4M3FN, 0x7f)) && isnan(td_decode(TD_E4M3FN, 0xff)));
    assert_true(isnan(td_decode(TD_E5M2, 0x7d)) && isnan(td_decode(TD_F16, 0x7e00)));
    assert_true(signbit(td_decode(TD_F16, 0xfe00)));
}

static void test_classify_counts(void **state) {
    (void)state;
    /* counts of each class over all patterns, from the format definitions */
    struct {
        td_fmt f;
        unsigned n, zero, sub, inf, nan;
    } want[] = {
        {TD_F16, 65536, 2, 2046, 2, 2046},
        {TD_BF16, 65536, 2, 254, 2, 254},
        {TD_E4M3FN, 256, 2, 14, 0, 2},
        {TD_E5M2, 256, 2, 6, 2, 6},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        unsigned c[5] = {0};
        for (uint64_t b = 0; b < want[i].n; b++) {
            td_class k = td_classify(want[i].f, b);
            c[k]++;
            assert_int_equal(td_is_nan(want[i].f, b), k == TD_CLS_NAN);
        }
        assert_int_equal(c[TD_CLS_ZERO], want[i].zero);
        assert_int_equal(c[TD_CLS_SUBNORMAL], want[i].sub);
        assert_int_equal(c[TD_CLS_INF], want[i].inf);
        assert_int_equal(c[TD_CLS_NAN], want[i].nan);
        assert_int_equal(c[TD_CLS_NORMAL], want[i].n - want[i].zero - want[i].sub - want[i].inf - want[i].nan);
    }
    /* canonical NaNs of the header */
    assert_int_equal(td_nan_bits(TD_F32, false), 0x7fc00000);
    assert_int_equal(td_nan_bits(TD_F32, true), 0xffc00000);
    assert_int_equal(td_nan_bits(TD_F16, false), 0x7e00);
    assert_int_equal(td_nan_bits(TD_BF16, false), 0x7fc0);
    assert_int_equal(td_nan_bits(TD_E5M2, false), 0x7e);
    assert_int_equal(td_nan_bits(TD_E5M2, true), 0xfe);
    assert_int_equal(td_nan_bits(TD_E4M3FN, false), 0x7f);
    assert_int_equal(td_nan_bits(TD_E4M3FN, true), 0xff);
    assert_true(td_nan_bits(TD_F64, false) == UINT64_C(0x7ff8000000000000));
    assert_int_equal(td_nan_bits(TD_I8, false), 0);
    assert_int_equal(td_classify(TD_I8, 0), TD_CLS_ZERO);
    assert_int_equal(td_classify(TD_I8, 0x80), TD_CLS_NORMAL);
    assert_true(td_bits_mask(TD_E4M3FN) == 0xff && td_bits_mask(TD_F16) == 0xffff);
    assert_true(td_bits_mask(TD_I32) == 0xffffffffu && td_bits_mask(TD_F64) == UINT64_MAX);
}

/* What encoding a pattern's own value must get back under profile p. */
static uint64_t expected_back(td_profile p, uint64_t b) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    bool neg = fi->is_float && ((b >> (fi->bits - 1)) & 1);
    switch (td_classify(p.fmt, b)) {
    case TD_CLS_NAN:
        return td_nan_bits(p.fmt, neg);
    case TD_CLS_INF:
        if (p.ovf == TD_OVF_INF)
            return b;
        if (p.ovf == TD_OVF_NAN)
            return td_nan_bits(p.fmt, neg);
        return b - 1; /* max finite: the encoding below inf */
    case TD_CLS_SUBNORMAL:
        return p.ftz ? b & ((uint64_t)neg << (fi->bits - 1)) : b;
    default:
        return b;
    }
}

/* decode -> encode returns the pattern (canonical NaN, the inf policy and FTZ aside),
 * through binary64 and binary32 sources, fast and MPFR paths, and MPFR-exact decode. */
static void test_all_patterns_roundtrip(void **state) {
    (void)state;
    long checked = 0, bad = 0;
    mpfr_t m;
    mpfr_init2(m, 64);
    for (size_t fi_ = 0; fi_ < sizeof small_fmts / sizeof small_fmts[0]; fi_++) {
        td_fmt f = small_fmts[fi_];
        const td_fmt_info *fi = td_fmt_get(f);
        td_profile ps[32];
        int np = tu_profiles_of(f, ps);
        for (uint64_t b = 0; b < (UINT64_C(1) << fi->bits); b++) {
            double v = td_decode(f, b);
            td_decode_mpfr(f, b, m);
            bool same = isnan(v) ? mpfr_nan_p(m) : mpfr_cmp_d(m, v) == 0 && !mpfr_signbit(m) == !signbit(v);
            if (!same && bad++ < 10)
                print_error("decode_mpfr(%s, 0x%llx) differs from td_decode %a\n", fi->name, (unsigned long long)b, v);
            for (int i = 0; i < np; i++) {
                uint64_t want = expected_back(ps[i], b);
                uint64_t got[4] = {td_encode_f64(ps[i], v), td_encode_f32(ps[i], (float)v),
                                   td_ref_encode_f64(ps[i], v), td_ref_encode_f32(ps[i], (float)v)};
                for (int k = 0; k < 4; k++) {
                    checked++;
                    if (got[k] != want && bad++ < 10) {
                        char s[64];
                        print_error("%s: pattern 0x%llx (%a) -> 0x%llx, want 0x%llx (path %d)\n",
                                    tu_pstr(ps[i], s, sizeof s), (unsigned long long)b, v,
                                    (unsigned long long)got[k], (unsigned long long)want, k);
                    }
                }
                if (!isnan(v)) { /* MPFR source: NaN is positive there, else the same */
                    checked++;
                    uint64_t r = td_encode_mpfr(ps[i], m);
                    if (r != want && bad++ < 10)
                        print_error("mpfr source 0x%llx -> 0x%llx\n", (unsigned long long)b, (unsigned long long)r);
                }
            }
        }
    }
    mpfr_clear(m);
    print_message("round trips checked: %ld\n", checked);
    assert_true(checked > 4 * 65536 * 2);
    assert_int_equal(bad, 0);
}

/* Every pattern of every small format, as a binary64 and binary32 source, into every
 * profile: the fast path (scalar and array) equals the MPFR path. */
static void test_all_patterns_as_sources(void **state) {
    (void)state;
    td_profile ps[TU_MAX_PROFILES];
    int np = tu_all_profiles(ps);
    long checked = 0, bad = 0;
    static double xs[65536];
    static float xf[65536];
    static uint64_t arr64[65536], arr32[65536];
    for (size_t fi_ = 0; fi_ < sizeof small_fmts / sizeof small_fmts[0]; fi_++) {
        td_fmt f = small_fmts[fi_];
        size_t n = (size_t)1 << td_fmt_get(f)->bits;
        for (size_t b = 0; b < n; b++) {
            xs[b] = td_decode(f, b);
            xf[b] = (float)xs[b];
        }
        for (int i = 0; i < np; i++) {
            td_encode_f64_array(ps[i], xs, arr64, n);
            td_encode_f32_array(ps[i], xf, arr32, n);
            for (size_t b = 0; b < n; b++) {
                uint64_t r64 = td_ref_encode_f64(ps[i], xs[b]), r32 = td_ref_encode_f32(ps[i], xf[b]);
                uint64_t got[4] = {td_encode_f64(ps[i], xs[b]), arr64[b], td_encode_f32(ps[i], xf[b]), arr32[b]};
                uint64_t want[4] = {r64, r64, r32, r32};
                for (int k = 0; k < 4; k++) {
                    checked++;
                    if (got[k] != want[k] && bad++ < 10) {
                        char s[64];
                        print_error("%s: %s pattern 0x%zx (%a): fast 0x%llx ref 0x%llx (path %d)\n",
                                    tu_pstr(ps[i], s, sizeof s), td_fmt_get(f)->name, b, xs[b],
                                    (unsigned long long)got[k], (unsigned long long)want[k], k);
                    }
                }
            }
        }
    }
    print_message("fast = MPFR on every small-format pattern into %d profiles: %ld checks\n", np, checked);
    assert_true(checked >= 4L * np * 2 * 65536);
    assert_int_equal(bad, 0);
}

/* The round trip of the decimal, and that no decimal with one digit fewer rounds back:
 * the candidates with fewer digits are found with printf on the (exact) binary64
 * value, independently of the MPFR digit generation of td_format_value. */
static bool decimal_rounds_to(td_fmt f, const char *s, uint64_t want) {
    const td_fmt_info *fi = td_fmt_get(f);
    td_profile back = {f, TD_RNE, fi->has_inf ? TD_OVF_INF : TD_OVF_NAN, false};
    mpfr_t y;
    int t;
    mpfr_init2(y, 64);
    bool ok = td_parse_value_mpfr_t(s, y, &t) == 0 && td_encode_mpfr_t(back, y, t) == want;
    mpfr_clear(y);
    return ok;
}

static int sig_digits(const char *s) {
    int n = 0, started = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s >= '1' && *s <= '9')
            started = 1;
        if (started && *s >= '0' && *s <= '9')
            n++;
    }
    /* trailing zeros of an integer written in fixed notation are not significant */
    return n;
}

/* s parses exactly (no rounding) to the value of bits b */
static int prints_exact(td_fmt f, const char *s, uint64_t b) {
    mpfr_t x, v;
    mpfr_inits2(256, x, v, (mpfr_ptr)0);
    int t = 1;
    td_decode_mpfr(f, b, v);
    int ok = td_parse_value_mpfr_t(s, x, &t) == 0 && t == 0 && mpfr_cmp(x, v) == 0;
    mpfr_clears(x, v, (mpfr_ptr)0);
    return ok;
}

/* the exact decimal of the value of b has at most 17 significant digits */
static int exact_fits_17(td_fmt f, uint64_t b) {
    mpfr_t v;
    mpfr_init2(v, 256);
    td_decode_mpfr(f, b, v);
    mpfr_exp_t e;
    char *d = mpfr_get_str(NULL, &e, 10, 17, v, MPFR_RNDN);
    char text[64];
    snprintf(text, sizeof text, "%s%c.%se%ld", d[0] == '-' ? "-" : "", d[d[0] == '-'], d + (d[0] == '-') + 1,
             (long)e - 1);
    mpfr_free_str(d);
    int ok = prints_exact(f, text, b);
    mpfr_clear(v);
    return ok;
}

static int sig_digits_of(const char *s) {
    char d[64];
    snprintf(d, sizeof d, "%s", s);
    return sig_digits(d);
}

static void test_format_value_all(void **state) {
    (void)state;
    long checked = 0, bad = 0, shorter_checked = 0, exact_printed = 0;
    for (size_t fi_ = 0; fi_ < sizeof small_fmts / sizeof small_fmts[0]; fi_++) {
        td_fmt f = small_fmts[fi_];
        const td_fmt_info *fi = td_fmt_get(f);
        for (uint64_t b = 0; b < (UINT64_C(1) << fi->bits); b++) {
            char s[64];
            td_format_value(f, b, s, sizeof s);
            checked++;
            if (!fi->is_float) {
                char w[32];
                snprintf(w, sizeof w, "%lld", (long long)td_decode(f, b));
                if (strcmp(s, w) && bad++ < 10)
                    print_error("%s 0x%llx printed %s\n", fi->name, (unsigned long long)b, s);
                continue;
            }
            td_class c = td_classify(f, b);
            if (c == TD_CLS_NAN) {
                if (strcmp(s, "nan") && bad++ < 10)
                    print_error("NaN printed %s\n", s);
                continue;
            }
            if (!decimal_rounds_to(f, s, c == TD_CLS_ZERO ? b : b) && bad++ < 10)
                print_error("%s 0x%llx: \"%s\" does not round back\n", fi->name, (unsigned long long)b, s);
            if (c == TD_CLS_INF || c == TD_CLS_ZERO)
                continue;
            if (prints_exact(f, s, b)) {
                /* the exact value is printed only when it has at most 17 digits */
                if (sig_digits_of(s) > 17 && bad++ < 10)
                    print_error("%s 0x%llx printed exactly with more than 17 digits: %s\n", fi->name,
                                (unsigned long long)b, s);
                exact_printed++;
                continue;
            }
            if (exact_fits_17(f, b) && bad++ < 10)
                print_error("%s 0x%llx: \"%s\" is not the exact value, which has at most 17 digits\n", fi->name,
                            (unsigned long long)b, s);
            /* strip the integer's trailing zeros for the digit count */
            char digits[64];
            snprintf(digits, sizeof digits, "%s", s);
            int n = sig_digits(digits);
            char *dot = strchr(digits, '.'), *e = strchr(digits, 'e');
            if (!dot && !e) {
                size_t l = strlen(digits);
                while (l > 1 && digits[l - 1] == '0') {
                    digits[--l] = '\0';
                    n--;
                }
            }
            if (n < 2)
                continue;
            double v = td_decode(f, b);
            char near[64];
            snprintf(near, sizeof near, "%.*e", n - 2, v); /* nearest (n-1)-digit decimal */
            char *ep = strchr(near, 'e');
            long ex = strtol(ep + 1, NULL, 10);
            *ep = '\0';
            char mant[64];
            size_t o = 0;
            for (char *q = near; *q; q++)
                if (*q >= '0' && *q <= '9')
                    mant[o++] = *q;
            mant[o] = '\0';
            long long M = strtoll(mant, NULL, 10);
            long scale = ex - (n - 2); /* value = M * 10^scale */
            char cand[5][64];
            int nc = 0;
            for (int dlt = -1; dlt <= 1; dlt++)
                snprintf(cand[nc++], sizeof cand[0], "%s%llde%ld", v < 0 ? "-" : "", (M < 0 ? -M : M) + dlt, scale);
            /* just below a power of ten the (n-1)-digit grid is ten times finer */
            long long p10 = 1;
            for (int i = 0; i < n - 2; i++)
                p10 *= 10;
            if ((M < 0 ? -M : M) == p10)
                snprintf(cand[nc++], sizeof cand[0], "%s%llde%ld", v < 0 ? "-" : "", 10 * p10 - 1, scale - 1);
            for (int i = 0; i < nc; i++) {
                shorter_checked++;
                if (decimal_rounds_to(f, cand[i], b) && bad++ < 10)
                    print_error("%s 0x%llx printed \"%s\" but \"%s\" is shorter and rounds back\n", fi->name,
                                (unsigned long long)b, s, cand[i]);
            }
        }
    }
    print_message("format_value: %ld patterns, %ld printed exactly, %ld shorter candidates rejected\n", checked,
                  exact_printed, shorter_checked);
    assert_true(exact_printed > 70000); /* 73548 of the 8- and 16-bit patterns */
    assert_true(shorter_checked > 10000);
    assert_int_equal(bad, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_table),       cmocka_unit_test(test_fmt_parse),
        cmocka_unit_test(test_profiles),           cmocka_unit_test(test_decode_known),
        cmocka_unit_test(test_classify_counts),    cmocka_unit_test(test_all_patterns_roundtrip),
        cmocka_unit_test(test_all_patterns_as_sources), cmocka_unit_test(test_format_value_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
