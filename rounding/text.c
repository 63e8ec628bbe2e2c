/* rounding/text.c: exact parsing of decimal and hex-float tokens, and the shortest
 * decimal that rounds back to a value of a format. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rounding.h"

/* What the scanner learns about a numeric token (the value is D * base^k with D an
 * integer of n significant digits). */
typedef struct {
    bool hex;
    bool zero;     /* every digit is 0 */
    long long n;   /* significant digits, leading and trailing zeros excluded */
    long long k10; /* decimal: the power of ten of the last significant digit */
} scan_t;

static bool is_digit_in(int c, bool hex) { return hex ? isxdigit(c) : isdigit(c); }

/* Validates the whole token against  [+-] (digits [. [digits]] | . digits) [exp]
 * where digits are hex after 0x/0X and exp is [pP][+-]digits there, [eE][+-]digits
 * for decimals.  Returns 0 when it matches. */
static int scan_number(const char *s, scan_t *sc) {
    const char *p = s;
    memset(sc, 0, sizeof *sc);
    if (*p == '+' || *p == '-')
        p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        sc->hex = true;
        p += 2;
    }
    long long ndig = 0, int_digits = 0, first_nz = -1, last_nz = -1;
    bool seen_point = false;
    for (;; p++) {
        if (*p == '.' && !seen_point) {
            seen_point = true;
            continue;
        }
        if (!is_digit_in((unsigned char)*p, sc->hex))
            break;
        if (*p != '0') {
            if (first_nz < 0)
                first_nz = ndig;
            last_nz = ndig;
        }
        ndig++;
        if (!seen_point)
            int_digits++;
    }
    if (ndig == 0)
        return -1;
    long long e = 0;
    if ((sc->hex && (*p == 'p' || *p == 'P')) || (!sc->hex && (*p == 'e' || *p == 'E'))) {
        p++;
        bool eneg = false;
        if (*p == '+' || *p == '-')
            eneg = *p++ == '-';
        if (!isdigit((unsigned char)*p))
            return -1;
        for (; isdigit((unsigned char)*p); p++)
            if (e < 1000000000000000LL) /* beyond any exponent range; keeps the sum finite */
                e = e * 10 + (*p - '0');
        if (eneg)
            e = -e;
    }
    if (*p)
        return -1;
    sc->zero = first_nz < 0;
    if (!sc->zero) {
        sc->n = last_nz - first_nz + 1;
        sc->k10 = int_digits - (last_nz + 1) + e;
    }
    return 0;
}

/* Recognises inf/infinity/nan with an optional sign; returns 1 and sets x if so. */
static int parse_special(const char *s, mpfr_ptr x) {
    int sign = 1;
    if (*s == '+' || *s == '-')
        sign = *s++ == '-' ? -1 : 1;
    if (!strcasecmp(s, "inf") || !strcasecmp(s, "infinity")) {
        mpfr_set_inf(x, sign);
        return 1;
    }
    if (!strcasecmp(s, "nan")) {
        mpfr_set_nan(x);
        return 1;
    }
    return 0;
}

int td_parse_value_mpfr_t(const char *s, mpfr_ptr x, int *ternary) {
    int t = 0;
    if (ternary)
        *ternary = 0;
    if (!s)
        return -1;
    if (parse_special(s, x))
        return 0;
    scan_t sc;
    if (scan_number(s, &sc))
        return -1;
    /* Bits that hold the token exactly when it is dyadic: 4 per hex digit; for a
     * decimal D*10^k, D*5^k when k > 0 (the 2^k is exponent) and at most D's bits when
     * k < 0 (a dyadic D/10^-k has an odd part that divides D). */
    double need = 64;
    if (!sc.zero) {
        double b = sc.hex ? 4.0 * (double)sc.n + 4 : 3.33 * (double)sc.n + 2;
        if (!sc.hex && sc.k10 > 0 && sc.k10 <= 1200000)
            b += 2.33 * (double)sc.k10;
        if (b > need)
            need = b;
    }
    if (need > (double)MPFR_PREC_MAX)
        return -1; /* a token of more than 10^17 digits */
    mpfr_prec_t p = (mpfr_prec_t)need;
    if (p > mpfr_get_prec(x))
        mpfr_set_prec(x, p);
    char *end = NULL;
    t = mpfr_strtofr(x, s, &end, 0, MPFR_RNDN);
    if (!end || *end)
        return -1;
    /* Overflow and underflow of MPFR's exponent range: keep a finite nonzero stand-in
     * on the right side, so RTZ still gives max finite and the sign of a tiny value
     * survives, with the ternary telling where the true value is. */
    if (mpfr_inf_p(x)) {
        bool neg = mpfr_signbit(x);
        if (neg)
            mpfr_nextabove(x);
        else
            mpfr_nextbelow(x);
        t = neg ? 1 : -1;
    } else if (mpfr_zero_p(x) && !sc.zero) {
        bool neg = mpfr_signbit(x);
        if (neg)
            mpfr_nextbelow(x);
        else
            mpfr_nextabove(x);
        t = neg ? -1 : 1;
    }
    if (ternary)
        *ternary = t > 0 ? 1 : t < 0 ? -1 : 0;
    return 0;
}

int td_parse_value_mpfr(const char *s, mpfr_ptr x) { return td_parse_value_mpfr_t(s, x, NULL); }

/* ---- shortest round-trip decimal ---- */

/* "d.ddd" with exponent X (value = d.ddd * 10^X) in fixed notation for
 * 1e-4 <= |v| < 1e16 and scientific otherwise (Python's repr makes the same choice). */
static void write_decimal(char *out, size_t n, bool neg, const char *digits, long x10) {
    char body[96];
    if (strlen(digits) > 60) /* not reached: 17 digits always suffice (binary64) */
        digits = "?";
    size_t len = strlen(digits);
    size_t o = 0;
    if (x10 >= -4 && x10 < 16) {
        if (x10 < 0) {
            o += (size_t)snprintf(body + o, sizeof body - o, "0.");
            for (long i = -1; i > x10; i--)
                body[o++] = '0';
            o += (size_t)snprintf(body + o, sizeof body - o, "%.60s", digits);
        } else {
            for (long i = 0; i <= x10; i++)
                body[o++] = (size_t)i < len ? digits[i] : '0';
            if ((size_t)x10 + 1 < len)
                o += (size_t)snprintf(body + o, sizeof body - o, ".%.60s", digits + x10 + 1);
        }
        body[o] = '\0';
    } else {
        snprintf(body, sizeof body, "%c%s%.60se%c%02ld", digits[0], len > 1 ? "." : "", digits + 1, x10 < 0 ? '-' : '+',
                 x10 < 0 ? -x10 : x10);
    }
    snprintf(out, n, "%s%.96s", neg ? "-" : "", body);
}

/* The n-digit decimal of v rounded with rnd, as text; true if it rounds back to `want`. */
static bool candidate(td_profile back, mpfr_srcptr v, int ndig, mpfr_rnd_t rnd, uint64_t want, char *text,
                      size_t tn) {
    mpfr_exp_t e;
    char *s = mpfr_get_str(NULL, &e, 10, (size_t)ndig, v, rnd);
    if (!s)
        return false;
    bool neg = s[0] == '-';
    char *d = s + neg;
    size_t len = strlen(d);
    while (len > 1 && d[len - 1] == '0')
        d[--len] = '\0';
    write_decimal(text, tn, neg, d, (long)e - 1);
    mpfr_free_str(s);
    mpfr_t y;
    mpfr_init2(y, 64);
    int t;
    bool ok = td_parse_value_mpfr_t(text, y, &t) == 0 && td_encode_mpfr_t(back, y, t) == want;
    mpfr_clear(y);
    return ok;
}

/* Writes the shortest decimal with ndig digits that works into text; false if none. */
static bool try_digits(td_profile back, mpfr_srcptr v, int ndig, uint64_t want, char *text, size_t tn) {
    /* If some ndig-digit decimal rounds back, one of the two nearest on either side of v
     * does; the nearest overall is tried first. */
    if (candidate(back, v, ndig, MPFR_RNDN, want, text, tn))
        return true;
    return candidate(back, v, ndig, MPFR_RNDD, want, text, tn) ||
           candidate(back, v, ndig, MPFR_RNDU, want, text, tn);
}

void td_format_value(td_fmt f, uint64_t bits, char *buf, size_t n) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!buf || n == 0)
        return;
    if (!fi) {
        snprintf(buf, n, "?");
        return;
    }
    if (!fi->is_float) {
        long long v = f == TD_I64 ? (long long)td_decode_i64(bits) : (long long)td_decode(f, bits);
        snprintf(buf, n, "%lld", v);
        return;
    }
    td_class c = td_classify(f, bits);
    bool neg = (bits >> (fi->bits - 1)) & 1;
    if (c == TD_CLS_NAN) {
        snprintf(buf, n, "nan");
        return;
    }
    if (c == TD_CLS_INF || c == TD_CLS_ZERO) {
        snprintf(buf, n, "%s%s", neg ? "-" : "", c == TD_CLS_INF ? "inf" : "0");
        return;
    }
    /* Round back with RNE and the overflow of the format's default profile: a decimal
     * beyond the overflow threshold must not count as max finite. */
    td_profile back = {f, TD_RNE, fi->has_inf ? TD_OVF_INF : TD_OVF_NAN, false};
    uint64_t want = bits & td_bits_mask(f);
    mpfr_t v;
    mpfr_init2(v, fi->prec);
    td_decode_mpfr(f, bits, v);
    char text[128];
    /* The exact value when it is short (every fp8, fp16 and bf16 value, and many
     * binary32 ones): 448 reads as 448, not as the shorter "450" that also rounds back.
     * An exact decimal with at most 17 digits is found by asking MPFR for 17 digits. */
    {
        mpfr_exp_t e;
        char *s = mpfr_get_str(NULL, &e, 10, 17, v, MPFR_RNDN);
        if (s) {
            bool sneg = s[0] == '-';
            char *d = s + sneg;
            size_t len = strlen(d);
            while (len > 1 && d[len - 1] == '0') d[--len] = '\0';
            write_decimal(text, sizeof text, sneg, d, (long)e - 1);
            mpfr_free_str(s);
            mpfr_t y;
            mpfr_init2(y, 256);
            int t = 1;
            bool exact = td_parse_value_mpfr_t(text, y, &t) == 0 && t == 0 && mpfr_cmp(y, v) == 0;
            mpfr_clear(y);
            if (exact) {
                mpfr_clear(v);
                snprintf(buf, n, "%s", text);
                return;
            }
        }
    }
    /* Otherwise the shortest decimal that rounds back: some decimal of 1 + ceil(prec*log10(2))
     * digits always does; the property is monotone in the number of digits, so bisect for
     * the least. */
    int lo = 1, hi = 2 + (fi->prec * 30103 + 99999) / 100000;
    while (!try_digits(back, v, hi, want, text, sizeof text))
        hi++; /* not expected; the exact decimal is reached eventually */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (try_digits(back, v, mid, want, text, sizeof text))
            hi = mid;
        else
            lo = mid + 1;
    }
    try_digits(back, v, lo, want, text, sizeof text);
    mpfr_clear(v);
    snprintf(buf, n, "%s", text);
}
