/* A binary64 value rounded to a narrower IEEE format and read back as binary64, for
 * the shadow's casts (td_sh_cast_to calls it up to six times a lane): the value
 * td_decode(p.fmt, td_encode_f64(p, x)) returns, computed on the double's bits instead
 * of through the generic encoder and decoder (~200 instructions a call there).
 *
 * Only the profiles where that value is plain IEEE rounding: round to nearest even,
 * overflow to +-inf, no flush to zero, a format with an infinity (binary32, binary16,
 * bfloat16, E5M2), and a finite x.  Anything else (NaN, whose canonical NaN the decoder
 * chooses; inf; RTZ, SAT, FTZ, E4M3FN, integers) returns 0 and the caller takes the
 * generic path.  tests/test_sh_fast.c compares the two bit for bit over random
 * and edge inputs (ties, subnormals, the overflow threshold). */
#ifndef TD_SH_CASTV_H
#define TD_SH_CASTV_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "numfmt.h"

/* |x| (finite) rounded to 53 - s significant bits, ties to even, with the target's
 * smallest normal minn = 2^emin, subnormal spacing q = 2^(emin - 52 + s) (C = 1.5 * 2^52 q)
 * and largest finite value maxf; +inf past maxf.  (Constants, not ldexp: no libm call.) */
static inline double td_castv_mag(double ax, int s, double minn, double C, double maxf) {
    if (ax >= minn) {
        /* a target normal: round the binary64 significand to 53 - s bits (ties to even)
         * by integer arithmetic on its bits; a carry out of the significand steps the
         * exponent, which is the right result (the next binade's power of two) */
        uint64_t b;
        memcpy(&b, &ax, sizeof b);
        b += ((UINT64_C(1) << (s - 1)) - 1) + ((b >> s) & 1);
        b &= ~((UINT64_C(1) << s) - 1);
        double r;
        memcpy(&r, &b, sizeof r);
        /* a rounded magnitude above the largest finite value is 2^(emax+1): IEEE
         * overflow under round to nearest gives inf */
        return r > maxf ? INFINITY : r;
    }
    /* a target subnormal: a multiple of q.  ax < 2^emin = 2^(52-s) q, so ax + C lies in
     * [2^52 q, 2^53 q), a binade of spacing q: binary64's addition rounds it to a
     * multiple of q, ties to even (C / q = 3 * 2^51 is even), and subtracting C again
     * is exact.  (No -ffast-math in this project: the compiler keeps both operations.) */
    return (ax + C) - C;
}

/* 1 and *out = the cast's value when the fast path applies, else 0 */
static inline int td_castv_fast(td_profile p, double x, double *out) {
    if (p.rnd != TD_RNE || p.ovf != TD_OVF_INF || p.ftz || !isfinite(x)) return 0;
    double m, ax = fabs(x);
    switch (p.fmt) {
    case TD_F32: m = td_castv_mag(ax, 29, 0x1p-126, 0x1.8p-97, 0x1.fffffep127); break; /* q = 2^-149 */
    case TD_F16: m = td_castv_mag(ax, 42, 0x1p-14, 0x1.8p28, 65504.0); break;         /* q = 2^-24 */
    case TD_BF16: m = td_castv_mag(ax, 45, 0x1p-126, 0x1.8p-81, 0x1.fep127); break;   /* q = 2^-133 */
    case TD_E5M2: m = td_castv_mag(ax, 50, 0x1p-14, 0x1.8p36, 57344.0); break;        /* q = 2^-16 */
    default: return 0;
    }
    *out = copysign(m, x);
    return 1;
}

#endif
