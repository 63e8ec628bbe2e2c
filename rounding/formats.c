/* rounding/formats.c: the format table, cast profiles, decoding and classification.
 *
 * Decoding is written from the format definitions (sign, biased exponent, trailing
 * significand) with ldexp for binary64 and mpfr_set_ui_2exp for MPFR, so that it
 * shares no bit tricks with the fast encoders in fast.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rounding.h"

/* prec, emin, emax, bias: the OCP 8-bit spec (v1.0) for e4m3fn/e5m2, IEEE 754 for the rest. */
static const td_fmt_info fmt_table[TD_FMT_COUNT] = {
    [TD_F64] = {"fp64", 64, 8, true, true, false, 53, -1022, 1023, 1023, true, 0x1.fffffffffffffp1023,
                0x1p-1022, 0x1p-1074, 0, 0},
    [TD_F32] = {"fp32", 32, 4, true, true, true, 24, -126, 127, 127, true, 0x1.fffffep127, 0x1p-126, 0x1p-149,
                0, 0},
    [TD_F16] = {"fp16", 16, 2, true, true, true, 11, -14, 15, 15, true, 65504.0, 0x1p-14, 0x1p-24, 0, 0},
    [TD_BF16] = {"bf16", 16, 2, true, true, true, 8, -126, 127, 127, true, 0x1.fep127, 0x1p-126, 0x1p-133, 0,
                 0},
    [TD_E4M3FN] = {"e4m3fn", 8, 1, true, true, true, 4, -6, 8, 7, false, 448.0, 0x1p-6, 0x1p-9, 0, 0},
    [TD_E5M2] = {"e5m2", 8, 1, true, true, true, 3, -14, 15, 15, true, 57344.0, 0x1p-14, 0x1p-16, 0, 0},
    [TD_I8] = {"int8", 8, 1, false, true, true, 0, 0, 0, 0, false, 0, 0, 0, INT8_MIN, INT8_MAX},
    [TD_U8] = {"uint8", 8, 1, false, false, true, 0, 0, 0, 0, false, 0, 0, 0, 0, UINT8_MAX},
    [TD_I32] = {"int32", 32, 4, false, true, true, 0, 0, 0, 0, false, 0, 0, 0, INT32_MIN, INT32_MAX},
    [TD_I64] = {"int64", 64, 8, false, true, false, 0, 0, 0, 0, false, 0, 0, 0, INT64_MIN, INT64_MAX},
    [TD_BOOL] = {"bool", 8, 1, false, false, false, 0, 0, 0, 0, false, 0, 0, 0, 0, 1},
};

const td_fmt_info *td_fmt_get(td_fmt f) {
    if ((unsigned)f >= TD_FMT_COUNT)
        return NULL;
    return &fmt_table[f];
}

/* Aliases: the short names of the header, PyTorch's dtype names and Triton's fp8 names
 * (tl.float8e4nv is e4m3fn, tl.float8e5 is e5m2), so a kernel's own spelling works. */
static const struct {
    const char *name;
    td_fmt fmt;
} fmt_alias[] = {
    {"f64", TD_F64},        {"float64", TD_F64},     {"f32", TD_F32},           {"float32", TD_F32},
    {"f16", TD_F16},        {"float16", TD_F16},     {"half", TD_F16},          {"bfloat16", TD_BF16},
    {"fp8e4m3fn", TD_E4M3FN}, {"e4m3", TD_E4M3FN},   {"float8_e4m3fn", TD_E4M3FN}, {"fp8e4nv", TD_E4M3FN},
    {"float8e4nv", TD_E4M3FN}, {"fp8e5m2", TD_E5M2}, {"float8_e5m2", TD_E5M2},  {"fp8e5", TD_E5M2},
    {"float8e5", TD_E5M2},  {"i8", TD_I8},           {"u8", TD_U8},             {"i32", TD_I32},
    {"i64", TD_I64},
};

int td_fmt_parse(const char *s, td_fmt *out) {
    if (!s)
        return -1;
    for (int f = 0; f < TD_FMT_COUNT; f++)
        if (!strcmp(s, fmt_table[f].name)) {
            *out = (td_fmt)f;
            return 0;
        }
    for (size_t i = 0; i < sizeof fmt_alias / sizeof fmt_alias[0]; i++)
        if (!strcmp(s, fmt_alias[i].name)) {
            *out = fmt_alias[i].fmt;
            return 0;
        }
    return -1;
}

/* ---- profiles ---- */

td_profile td_profile_default(td_fmt f) {
    const td_fmt_info *fi = td_fmt_get(f);
    td_profile p = {f, TD_RNE, TD_OVF_INF, false};
    if (!fi)
        return p;
    if (!fi->is_float) {
        p.rnd = TD_RTZ;
        p.ovf = TD_OVF_SAT;
    } else if (!fi->has_inf) {
        p.ovf = TD_OVF_NAN;
    }
    return p;
}

static const char *const rnd_names[] = {"rne", "rtz"};
static const char *const ovf_names[] = {"inf", "sat", "nan", "wrap"};

int td_profile_check(td_profile p, char *err, size_t errlen) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    char tmp[1];
    if (!err || errlen == 0) {
        err = tmp;
        errlen = sizeof tmp;
    }
    if (!fi) {
        snprintf(err, errlen, "unknown format");
        return -1;
    }
    if (!fi->is_cast_target) {
        snprintf(err, errlen, "%s is %s, not a cast target", fi->name,
                 p.fmt == TD_F64 ? "a source format" : "a storage format");
        return -1;
    }
    if ((unsigned)p.rnd > TD_RTZ) {
        snprintf(err, errlen, "unknown rounding mode");
        return -1;
    }
    if ((unsigned)p.ovf > TD_OVF_WRAP) {
        snprintf(err, errlen, "unknown overflow policy");
        return -1;
    }
    if (fi->is_float) {
        if (p.ovf == TD_OVF_WRAP) {
            snprintf(err, errlen, "wrap applies to integer targets only: use --overflow inf, sat or nan for %s",
                     fi->name);
            return -1;
        }
        if (p.ovf == TD_OVF_INF && !fi->has_inf) {
            snprintf(err, errlen, "%s has no infinity: use --overflow sat or nan", fi->name);
            return -1;
        }
    } else if (p.ovf == TD_OVF_INF || p.ovf == TD_OVF_NAN) {
        snprintf(err, errlen, "%s has no infinity or NaN: use --overflow sat or wrap", fi->name);
        return -1;
    }
    err[0] = '\0';
    return 0;
}

int td_profile_parse(const char *s, td_profile *out) {
    char buf[64];
    if (!s || strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *fields[5];
    int nf = 0;
    for (char *q = buf;;) {
        if (nf == 5)
            return -1;
        fields[nf++] = q;
        char *c = strchr(q, ':');
        if (!c)
            break;
        *c = '\0';
        q = c + 1;
    }
    td_fmt f;
    if (td_fmt_parse(fields[0], &f))
        return -1;
    td_profile p = td_profile_default(f);
    /* The fields after the format are positional (rnd, ovf, then the word "ftz"),
     * each optional from the right: "int8:rne" keeps int8's default overflow. */
    int i = 1;
    if (i < nf && strcmp(fields[i], "ftz")) {
        if (!strcmp(fields[i], "rne"))
            p.rnd = TD_RNE;
        else if (!strcmp(fields[i], "rtz"))
            p.rnd = TD_RTZ;
        else
            return -1;
        i++;
    }
    if (i < nf && strcmp(fields[i], "ftz")) {
        int o = -1;
        for (int k = 0; k < 4; k++)
            if (!strcmp(fields[i], ovf_names[k]))
                o = k;
        if (o < 0)
            return -1;
        p.ovf = (td_ovf)o;
        i++;
    }
    if (i < nf && !strcmp(fields[i], "ftz")) {
        p.ftz = true;
        i++;
    }
    if (i != nf)
        return -1;
    if (td_profile_check(p, NULL, 0))
        return -1;
    *out = p;
    return 0;
}

void td_profile_str(td_profile p, char *buf, size_t n) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    snprintf(buf, n, "%s:%s:%s%s", fi ? fi->name : "?", (unsigned)p.rnd <= TD_RTZ ? rnd_names[p.rnd] : "?",
             (unsigned)p.ovf <= TD_OVF_WRAP ? ovf_names[p.ovf] : "?", p.ftz ? ":ftz" : "");
}

/* ---- decoding ---- */

uint64_t td_bits_mask(td_fmt f) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi)
        return 0;
    return fi->bits >= 64 ? UINT64_MAX : (UINT64_C(1) << fi->bits) - 1;
}

/* The fields of a floating encoding. */
typedef struct {
    bool neg;
    uint64_t expf; /* biased exponent field */
    uint64_t mant; /* trailing significand field */
    td_class cls;
} fields_t;

static fields_t float_fields(const td_fmt_info *fi, uint64_t bits) {
    int tbits = fi->prec - 1;
    int ebits = (int)fi->bits - 1 - tbits;
    fields_t r;
    r.neg = (bits >> (fi->bits - 1)) & 1;
    r.expf = (bits >> tbits) & ((UINT64_C(1) << ebits) - 1);
    r.mant = bits & ((UINT64_C(1) << tbits) - 1);
    uint64_t emax_field = (UINT64_C(1) << ebits) - 1;
    if (r.expf == emax_field && fi->has_inf)
        r.cls = r.mant ? TD_CLS_NAN : TD_CLS_INF;
    else if (r.expf == emax_field && r.mant == (UINT64_C(1) << tbits) - 1)
        r.cls = TD_CLS_NAN; /* e4m3fn: only S.1111.111 is NaN; the rest of the top binade is finite */
    else if (r.expf == 0)
        r.cls = r.mant ? TD_CLS_SUBNORMAL : TD_CLS_ZERO;
    else
        r.cls = TD_CLS_NORMAL;
    return r;
}

static int64_t int_value(const td_fmt_info *fi, uint64_t bits) {
    if (fi->bits == 64)
        return (int64_t)bits;
    uint64_t m = (UINT64_C(1) << fi->bits) - 1;
    bits &= m;
    if (fi == &fmt_table[TD_BOOL])
        return bits != 0; /* a nonzero byte is true, as PyTorch and Triton read it */
    if (fi->is_signed && (bits >> (fi->bits - 1)))
        return (int64_t)bits - (int64_t)(m + 1);
    return (int64_t)bits;
}

int64_t td_decode_i64(uint64_t bits) { return (int64_t)bits; }

double td_decode(td_fmt f, uint64_t bits) {
    /* The formats whose values the oracle and the generators read by the million
     * decode without the general field logic and its ldexp (issue 20); the results
     * are the exact values (tests/rounding/test_formats.c: every pattern against
     * td_decode_mpfr); the inline decoders are in rounding.h. */
    if (f == TD_F32) return td_f32_value((uint32_t)bits);
    if (f == TD_BF16) return td_bf16_value((uint16_t)bits);
    if (f == TD_F16) return td_f16_value((uint16_t)bits);
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi)
        return NAN;
    if (!fi->is_float)
        return (double)int_value(fi, bits);
    fields_t r = float_fields(fi, bits);
    double v;
    switch (r.cls) {
    case TD_CLS_NAN:
        v = NAN;
        break;
    case TD_CLS_INF:
        v = INFINITY;
        break;
    case TD_CLS_ZERO:
        v = 0.0;
        break;
    case TD_CLS_SUBNORMAL:
        v = ldexp((double)r.mant, fi->emin - (fi->prec - 1));
        break;
    default:
        v = ldexp((double)(r.mant | (UINT64_C(1) << (fi->prec - 1))),
                  (int)r.expf - fi->bias - (fi->prec - 1));
        break;
    }
    return r.neg ? -v : v;
}

/* Sets out to M * 2^e exactly for M < 2^64, in steps that are exact for any width of
 * unsigned long (out's precision is at least the format's). */
static void set_u64_2exp(mpfr_ptr out, uint64_t m, long e) {
    mpfr_set_ui(out, (unsigned long)(m >> 32), MPFR_RNDN);
    mpfr_mul_2ui(out, out, 32, MPFR_RNDN);
    mpfr_add_ui(out, out, (unsigned long)(m & 0xffffffffu), MPFR_RNDN);
    mpfr_mul_2si(out, out, e, MPFR_RNDN);
}

void td_decode_mpfr(td_fmt f, uint64_t bits, mpfr_ptr out) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi) {
        mpfr_set_nan(out);
        return;
    }
    if (!fi->is_float) {
        int64_t v = int_value(fi, bits);
        set_u64_2exp(out, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, 0);
        if (v < 0)
            mpfr_neg(out, out, MPFR_RNDN);
        return;
    }
    fields_t r = float_fields(fi, bits);
    int tbits = fi->prec - 1;
    switch (r.cls) {
    case TD_CLS_NAN:
        mpfr_set_nan(out);
        return;
    case TD_CLS_INF:
        mpfr_set_inf(out, r.neg ? -1 : 1);
        return;
    case TD_CLS_ZERO:
        mpfr_set_zero(out, r.neg ? -1 : 1);
        return;
    case TD_CLS_SUBNORMAL:
        set_u64_2exp(out, r.mant, fi->emin - tbits);
        break;
    case TD_CLS_NORMAL:
        set_u64_2exp(out, r.mant | (UINT64_C(1) << tbits), (long)r.expf - fi->bias - tbits);
        break;
    }
    if (r.neg)
        mpfr_neg(out, out, MPFR_RNDN);
}

td_class td_classify(td_fmt f, uint64_t bits) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi)
        return TD_CLS_NAN;
    if (!fi->is_float)
        return int_value(fi, bits) ? TD_CLS_NORMAL : TD_CLS_ZERO;
    return float_fields(fi, bits).cls;
}

bool td_is_nan(td_fmt f, uint64_t bits) { return td_classify(f, bits) == TD_CLS_NAN; }

uint64_t td_nan_bits(td_fmt f, bool negative) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi || !fi->is_float)
        return 0;
    int tbits = fi->prec - 1;
    uint64_t expf = (UINT64_C(1) << (fi->bits - 1 - tbits)) - 1;
    /* Quiet bit only for the IEEE-like formats; e4m3fn's single NaN has all ones. */
    uint64_t mant = fi->has_inf ? UINT64_C(1) << (tbits - 1) : (UINT64_C(1) << tbits) - 1;
    return ((uint64_t)negative << (fi->bits - 1)) | (expf << tbits) | mant;
}
