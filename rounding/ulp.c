/* rounding/ulp.c: ulp, neighbours, ordinals and ulp distances.
 *
 * The neighbours are computed on the value grid (a multiple of the ulp of the binade),
 * not by bit increments, so they serve values that are not representable; e4m3fn needs
 * no case of its own beyond its max finite, 448, below the would-be 480. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rounding.h"

/* 2^k as a binary64, from its bits where it is normal (every format's ulp but binary64's
 * subnormal ones): ldexp was a visible part of the oracle's per-lane cost (issue 20). */
static inline double pow2i(int k) {
    if (k < -1022 || k > 1023) return ldexp(1.0, k);
    uint64_t b = (uint64_t)(k + 1023) << 52;
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* floor(log2|x|) of a finite nonzero x (ilogb), from its exponent field where x is a
 * normal binary64 (subnormal ones through ilogb). */
static inline int ilogb_fast(double x) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int biased = (int)(b >> 52 & 0x7ff);
    return biased ? biased - 1023 : ilogb(x);
}

double td_ulp(td_fmt f, double x) {
    if (f == TD_F32 && isfinite(x)) return td_ulp_f32(x); /* numfmt.h */
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi || isnan(x))
        return NAN;
    if (!fi->is_float)
        return 1.0; /* integer formats: consecutive values are 1 apart */
    if (x == 0)
        return fi->min_subnormal;
    int e = isinf(x) ? fi->emax : ilogb_fast(x); /* floor(log2|x|), exact for subnormal doubles too */
    if (e < fi->emin)
        e = fi->emin;
    if (e > fi->emax)
        e = fi->emax;
    return pow2i(e - fi->prec + 1);
}

/* Smallest value of the format above y, for 0 <= y < max finite. */
static double up_pos(td_fmt f, double y) {
    double u = td_ulp(f, y);
    return (floor(y / u) + 1) * u; /* y/u is exact: a power-of-two scaling */
}

/* Largest value of the format below y, for 0 < y <= max finite. */
static double down_pos(td_fmt f, const td_fmt_info *fi, double y) {
    double u = td_ulp(f, y);
    double m = y / u, fl = floor(m);
    if (fl != m)
        return fl * u;
    /* y is a value: step down, by half an ulp when y opens a normal binade above emin */
    if (m == ldexp(1.0, fi->prec - 1) && ilogb(y) > fi->emin)
        return y - u / 2;
    return y - u;
}

static double int_next(const td_fmt_info *fi, double x, bool up) {
    double lo = (double)fi->imin, hi = (double)fi->imax;
    if (up) {
        if (x < lo)
            return lo;
        double r = floor(x) + 1;
        return r > hi ? NAN : r;
    }
    if (x > hi)
        return hi;
    double r = ceil(x) - 1;
    return r < lo ? NAN : r;
}

double td_next_up(td_fmt f, double x) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi || isnan(x))
        return NAN;
    if (!fi->is_float)
        return int_next(fi, x, true);
    if (f == TD_F64)
        return nextafter(x, INFINITY);
    if (x >= fi->max_finite)
        return fi->has_inf ? INFINITY : NAN;
    if (x < -fi->max_finite)
        return -fi->max_finite;
    if (x >= 0)
        return up_pos(f, x);
    return -down_pos(f, fi, -x);
}

double td_next_down(td_fmt f, double x) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi || isnan(x))
        return NAN;
    if (!fi->is_float)
        return int_next(fi, x, false);
    if (f == TD_F64)
        return nextafter(x, -INFINITY);
    if (x <= -fi->max_finite)
        return fi->has_inf ? -INFINITY : NAN;
    if (x > fi->max_finite)
        return fi->max_finite;
    if (x <= 0)
        return -up_pos(f, -x);
    return down_pos(f, fi, x);
}

/* Floats: the bit pattern without its sign is monotone in the magnitude (subnormals
 * continue into normals), so the ordinal is that pattern, negated for negative values.
 * Infinities get the ordinal after max finite; NaN gets INT64_MIN. */
int64_t td_ordinal(td_fmt f, uint64_t bits) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi)
        return INT64_MIN;
    if (!fi->is_float) {
        if (f == TD_I64)
            return (int64_t)bits;
        return (int64_t)td_decode(f, bits);
    }
    if (td_is_nan(f, bits))
        return INT64_MIN;
    uint64_t sign = UINT64_C(1) << (fi->bits - 1);
    int64_t a = (int64_t)(bits & (sign - 1));
    return (bits & sign) ? -a : a;
}

/* fp64 and int64 distances can exceed int64: they saturate. */
int64_t td_ulp_distance(td_fmt f, uint64_t a, uint64_t b) {
    int64_t r;
    int64_t oa = td_ordinal(f, a), ob = td_ordinal(f, b);
    if (__builtin_sub_overflow(ob, oa, &r))
        return ob > oa ? INT64_MAX : INT64_MIN;
    return r;
}
