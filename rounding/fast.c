/* rounding/fast.c: the fast bit-level conversions from binary32 and binary64.
 *
 * One algorithm serves every floating target.  With the source's significand `sig`
 * (hidden bit included) and the target's biased exponent ET that the value would have
 * if it were normal there, the result is
 *     base + round(sig >> k)
 * where base = (ET-1) << mbits and k = (source mbits - target mbits) for a normal
 * result, and base = 0, k larger by 1-ET for a subnormal one.  The rounding carry runs
 * from the significand into the exponent (and from the largest subnormal into the
 * smallest normal) by itself, so there is no branch on the binade.  Overflow is then
 * one comparison against the largest finite encoding: that also gives e4m3fn's rule,
 * since its next encoding up (0x7f, "480") is the NaN, and 464 rounds to even 448.
 *
 * The constants are written here from the format definitions and not taken from the
 * td_fmt_info table the MPFR path uses, so that one wrong table entry cannot make
 * both paths agree on a wrong answer.
 *
 * The core is instantiated once per (target, rounding, overflow, FTZ), so that the
 * compiler sees constants and the core is straight-line code with selects; both the
 * scalar and the array entry points dispatch to those instantiations.  The array loops
 * are built three times (baseline, AVX2, AVX-512; chosen at run time, no -march) and
 * vectorise where the CPU has per-lane shifts. */
#include <string.h>

#include "rounding.h"

#define TD_AI static inline __attribute__((always_inline))

typedef struct {
    int mbits;     /* trailing significand bits */
    int emin;      /* exponent of the smallest normal */
    int bits;      /* storage width */
    uint64_t maxb; /* encoding of the largest finite value (positive) */
    uint64_t infb; /* encoding of +inf (formats without inf: unused) */
    uint64_t nanb; /* canonical positive NaN */
} ffmt;

static const ffmt FF[TD_FMT_COUNT] = {
    [TD_F64] = {52, -1022, 64, UINT64_C(0x7fefffffffffffff), UINT64_C(0x7ff0000000000000),
                UINT64_C(0x7ff8000000000000)},
    [TD_F32] = {23, -126, 32, 0x7f7fffff, 0x7f800000, 0x7fc00000},
    [TD_F16] = {10, -14, 16, 0x7bff, 0x7c00, 0x7e00},
    [TD_BF16] = {7, -126, 16, 0x7f7f, 0x7f80, 0x7fc0},
    [TD_E4M3FN] = {3, -6, 8, 0x7e, 0x7f, 0x7f}, /* no inf: overflow can only go to max or NaN */
    [TD_E5M2] = {2, -14, 8, 0x7b, 0x7c, 0x7e},
};

/* What an invalid profile (td_profile_check fails) does, identically in both paths:
 * a float target without inf treats INF as NAN (OCP's non-saturating mode), WRAP on a
 * float target is INF (or NAN), INF/NAN on an integer target is SAT. */
TD_AI int eff_ovf(td_fmt f, int ovf) {
    bool isint = f == TD_I8 || f == TD_U8 || f == TD_I32;
    if (isint)
        return ovf == TD_OVF_WRAP ? TD_OVF_WRAP : TD_OVF_SAT;
    if (ovf != TD_OVF_SAT && ovf != TD_OVF_NAN)
        ovf = TD_OVF_INF;
    if (f == TD_E4M3FN && ovf == TD_OVF_INF)
        ovf = TD_OVF_NAN;
    return ovf;
}

/* The encoding an overflowing finite value gets (positive; the sign is or-ed in). */
TD_AI uint64_t ovf_result(const ffmt *T, int rnd, int ovf) {
    if (ovf == TD_OVF_SAT)
        return T->maxb;
    if (ovf == TD_OVF_NAN)
        return T->nanb;
    return rnd == TD_RNE ? T->infb : T->maxb; /* IEEE: RTZ overflows to max finite */
}

/* The encoding an infinite source gets. */
TD_AI uint64_t inf_result(const ffmt *T, int ovf) {
    return ovf == TD_OVF_SAT ? T->maxb : ovf == TD_OVF_NAN ? T->nanb : T->infb;
}

/* max(v, 0) and min(v, hi) with a mask instead of a select: for two results that
 * depend on the same comparison (the shift and the exponent base of a subnormal result)
 * GCC emitted a branch in the scalar code, mispredicted on mixed magnitudes. */
TD_AI int32_t max0_32(int32_t v) { return v & -(int32_t)(v > 0); }
TD_AI int32_t min_32(int32_t v, int32_t hi) { return hi + ((v - hi) & -(int32_t)(v < hi)); }
TD_AI int64_t max0_64(int64_t v) { return v & -(int64_t)(v > 0); }
TD_AI int64_t min_64(int64_t v, int64_t hi) { return hi + ((v - hi) & -(int64_t)(v < hi)); }

/* The round-to-nearest-even increment of sig >> k for 1 <= k <= 63: the guard bit (the
 * first one shifted out), and-ed with the sticky bits below it or the result's lowest
 * bit.  Only sig itself is shifted: GCC 12 does not vectorise a constant shifted by a
 * per-lane amount in 64-bit lanes (1 << k), which the remainder mask needed. */
TD_AI uint64_t rne_inc64(uint64_t sig, uint64_t q, int64_t k) {
    uint64_t guard = (sig >> (k - 1)) & 1;
    uint64_t sticky = ((sig << (64 - k)) << 1) != 0; /* the k-1 bits below the guard */
    return guard & (sticky | (q & 1));
}

/* binary32 source, target narrower than binary32 (mbits < 23, so k >= 1). 32-bit
 * arithmetic throughout so that the loops vectorise in 32-bit lanes. */
TD_AI uint32_t cvt32(uint32_t u, const ffmt *T, int rnd, int ovf, bool ftz) {
    uint32_t s = u >> 31;
    uint32_t a = u & 0x7fffffffu;
    uint32_t ef = a >> 23;
    uint32_t mant = a & 0x7fffffu;
    uint32_t normal = 0u - (uint32_t)(ef != 0);
    uint32_t m2 = ftz ? mant & normal : mant; /* FTZ: a subnormal source is a zero */
    uint32_t sig = m2 | (0x800000u & normal);
    int32_t et = (int32_t)(ef | (ef == 0)) - 127 - T->emin + 1;
    /* sig < 2^24: beyond 25 the value is below half the smallest step, so k stops at 31 */
    int32_t k = min_32((23 - T->mbits) + max0_32(1 - et), 31);
    uint32_t base = (uint32_t)max0_32(et - 1) << T->mbits;
    uint32_t q = sig >> k;
    if (rnd == TD_RNE) /* +1 iff the remainder is above half, or exactly half and q odd */
        q += ((sig & ((1u << k) - 1)) + (1u << (k - 1)) - 1 + (q & 1)) >> k;
    uint32_t r = base + q;
    if (ftz) /* a subnormal result (after rounding) becomes a zero */
        r = r < (1u << T->mbits) ? 0 : r;
    r = r > (uint32_t)T->maxb ? (uint32_t)ovf_result(T, rnd, ovf) : r;
    uint32_t special = mant ? (uint32_t)T->nanb : (uint32_t)inf_result(T, ovf);
    r = ef == 255 ? special : r;
    return (s << (T->bits - 1)) | r;
}

/* binary64 source, target narrower than binary64 (mbits <= 23, so k >= 29). */
TD_AI uint64_t cvt64(uint64_t u, const ffmt *T, int rnd, int ovf, bool ftz) {
    uint64_t s = u >> 63;
    uint64_t a = u & UINT64_C(0x7fffffffffffffff);
    uint64_t ef = a >> 52;
    uint64_t mant = a & UINT64_C(0xfffffffffffff);
    uint64_t normal = 0 - (uint64_t)(ef != 0);
    uint64_t m2 = ftz ? mant & normal : mant;
    uint64_t sig = m2 | ((UINT64_C(1) << 52) & normal);
    int64_t et = (int64_t)(ef | (ef == 0)) - 1023 - T->emin + 1;
    int64_t k = min_64((52 - T->mbits) + max0_64(1 - et), 63);
    uint64_t base = (uint64_t)max0_64(et - 1) << T->mbits;
    uint64_t q = sig >> k;
    if (rnd == TD_RNE)
        q += rne_inc64(sig, q, k);
    uint64_t r = base + q;
    if (ftz)
        r = r < (UINT64_C(1) << T->mbits) ? 0 : r;
    r = r > T->maxb ? ovf_result(T, rnd, ovf) : r;
    uint64_t special = mant ? T->nanb : inf_result(T, ovf);
    r = ef == 2047 ? special : r;
    return (s << (T->bits - 1)) | r;
}

/* Same-format "conversion": only NaN canonicalisation, the infinity policy and FTZ act.
 * Selects only, so that the array loops vectorise. */
TD_AI uint64_t same32(uint32_t u, int ovf, bool ftz) {
    const ffmt *T = &FF[TD_F32];
    uint32_t s = u & 0x80000000u, ef = (u >> 23) & 0xff, mant = u & 0x7fffffu;
    uint32_t special = s | (uint32_t)(mant ? T->nanb : inf_result(T, ovf));
    uint32_t r = (ftz && ef == 0) ? s : u;
    return ef == 255 ? special : r;
}

TD_AI uint64_t same64(uint64_t u, int ovf, bool ftz) {
    const ffmt *T = &FF[TD_F64];
    uint64_t s = u & (UINT64_C(1) << 63), ef = (u >> 52) & 0x7ff, mant = u & UINT64_C(0xfffffffffffff);
    uint64_t special = s | (mant ? T->nanb : inf_result(T, ovf));
    uint64_t r = (ftz && ef == 0) ? s : u;
    return ef == 2047 ? special : r;
}

/* Integer targets from binary64 bits (a binary32 source is widened first: exact, and
 * FTZ does not apply to integer targets).  value = sig * 2^sh.  Written with selects
 * only: magnitudes and signs vary from value to value, and branches on them were
 * mispredicted about every other value. */
TD_AI uint64_t cvti(uint64_t u, int bits, int64_t imin, int64_t imax, int rnd, int ovf) {
    uint64_t s = u >> 63;
    uint64_t a = u & UINT64_C(0x7fffffffffffffff);
    uint64_t ef = a >> 52;
    uint64_t mant = a & UINT64_C(0xfffffffffffff);
    uint64_t mask = (UINT64_C(1) << bits) - 1; /* bits <= 32 */
    uint64_t sig = mant | ((uint64_t)(ef != 0) << 52);
    int64_t sh = (int64_t)(ef | (ef == 0)) - 1075;
    /* sh < 0: shift right by k (at most 63: beyond 54 the value is below 1/2 anyway) */
    int64_t k = min_64(max0_64(-sh), 63);
    uint64_t qr = sig >> k;
    if (rnd == TD_RNE) /* k == 0 only where qr is not used (sh >= 0) */
        qr += rne_inc64(sig, qr, k > 0 ? k : 1) & (uint64_t)(k > 0);
    /* sh >= 0: an integer already, kept modulo 2^64 (enough for WRAP at <= 32 bits) */
    int64_t l = max0_64(sh);
    uint64_t ql = (sig << (l & 63)) & (0 - (uint64_t)(l < 64));
    uint64_t q = sh < 0 ? qr : ql;
    uint64_t r;
    if (ovf == TD_OVF_WRAP) {
        r = (s ? (uint64_t)0 - q : q) & mask;
        r = ef == 2047 ? 0 : r; /* NaN and inf: 0 */
    } else {
        /* |value| >= 2^63 (sh >= 11) is beyond every target: q only holds it modulo
         * 2^64, so it compares as the largest magnitude instead */
        uint64_t qs = sh >= 11 ? UINT64_MAX : q;
        uint64_t lo = (uint64_t)imin & mask, hi = (uint64_t)imax & mask;
        uint64_t neg = qs > (uint64_t)0 - (uint64_t)imin ? lo : ((uint64_t)0 - q) & mask;
        uint64_t pos = qs > (uint64_t)imax ? hi : q & mask;
        r = s ? neg : pos;
        uint64_t special = mant ? 0 : (s ? lo : hi); /* NaN: 0; inf: the bound */
        r = ef == 2047 ? special : r;
    }
    return r;
}

TD_AI uint32_t f32_bits(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

TD_AI uint64_t f64_bits(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

TD_AI uint64_t int_target(td_fmt f, uint64_t u, int rnd, int ovf) {
    switch (f) {
    case TD_I8:
        return cvti(u, 8, INT8_MIN, INT8_MAX, rnd, ovf);
    case TD_U8:
        return cvti(u, 8, 0, UINT8_MAX, rnd, ovf);
    default:
        return cvti(u, 32, INT32_MIN, INT32_MAX, rnd, ovf);
    }
}

/* A binary32 source widened to binary64 for the targets that are handled there; FTZ
 * of a binary32 subnormal has to happen before, since it is normal in binary64. */
TD_AI uint64_t f32_widened(uint32_t u, bool ftz) {
    float x;
    if (ftz && !(u & 0x7f800000u))
        u &= 0x80000000u;
    memcpy(&x, &u, sizeof x);
    return f64_bits((double)x);
}

TD_AI uint64_t enc_f32(td_fmt f, int rnd, int ovf, bool ftz, uint32_t u) {
    switch (f) {
    case TD_F32:
        return same32(u, ovf, ftz);
    case TD_F64: {
        /* (double) of a NaN keeps its sign; same64 canonicalises the payload. */
        return same64(f32_widened(u, ftz), ovf, false);
    }
    case TD_F16:
    case TD_BF16:
    case TD_E4M3FN:
    case TD_E5M2:
        return cvt32(u, &FF[f], rnd, ovf, ftz);
    case TD_I8:
    case TD_U8:
    case TD_I32:
        return int_target(f, f32_widened(u, false), rnd, ovf);
    default:
        return 0; /* int64 and bool are storage formats, not cast targets */
    }
}

TD_AI uint64_t enc_f64(td_fmt f, int rnd, int ovf, bool ftz, uint64_t u) {
    switch (f) {
    case TD_F64:
        return same64(u, ovf, ftz);
    case TD_F32:
    case TD_F16:
    case TD_BF16:
    case TD_E4M3FN:
    case TD_E5M2:
        return cvt64(u, &FF[f], rnd, ovf, ftz);
    case TD_I8:
    case TD_U8:
    case TD_I32:
        return int_target(f, u, rnd, ovf);
    default:
        return 0;
    }
}

/* ---- one instantiation per profile ----
 * BY_FORMAT and BY_PROFILE branch on each run-time profile field and expand LEAF with
 * the literal values, so every innermost loop (or single conversion) is compiled with
 * constants. */

#define LEAF32(F, R, O, Z)                                                                        \
    do {                                                                                          \
        for (size_t i = 0; i < n; i++)                                                            \
            out[i] = enc_f32(F, R, O, Z, f32_bits(x[i]));                                         \
    } while (0)
#define LEAF64(F, R, O, Z)                                                                        \
    do {                                                                                          \
        for (size_t i = 0; i < n; i++)                                                            \
            out[i] = enc_f64(F, R, O, Z, f64_bits(x[i]));                                         \
    } while (0)

/* Expands LEAF for the literal values of rnd, ovf and ftz given fixed F. */
#define BY_PROFILE(LEAF, F)                                                                       \
    do {                                                                                          \
        if (rnd == TD_RNE) {                                                                      \
            if (ovf == TD_OVF_INF) {                                                              \
                if (ftz) LEAF(F, TD_RNE, TD_OVF_INF, true); else LEAF(F, TD_RNE, TD_OVF_INF, false); \
            } else if (ovf == TD_OVF_SAT) {                                                       \
                if (ftz) LEAF(F, TD_RNE, TD_OVF_SAT, true); else LEAF(F, TD_RNE, TD_OVF_SAT, false); \
            } else if (ovf == TD_OVF_NAN) {                                                       \
                if (ftz) LEAF(F, TD_RNE, TD_OVF_NAN, true); else LEAF(F, TD_RNE, TD_OVF_NAN, false); \
            } else {                                                                              \
                LEAF(F, TD_RNE, TD_OVF_WRAP, false);                                              \
            }                                                                                     \
        } else {                                                                                  \
            if (ovf == TD_OVF_INF) {                                                              \
                if (ftz) LEAF(F, TD_RTZ, TD_OVF_INF, true); else LEAF(F, TD_RTZ, TD_OVF_INF, false); \
            } else if (ovf == TD_OVF_SAT) {                                                       \
                if (ftz) LEAF(F, TD_RTZ, TD_OVF_SAT, true); else LEAF(F, TD_RTZ, TD_OVF_SAT, false); \
            } else if (ovf == TD_OVF_NAN) {                                                       \
                if (ftz) LEAF(F, TD_RTZ, TD_OVF_NAN, true); else LEAF(F, TD_RTZ, TD_OVF_NAN, false); \
            } else {                                                                              \
                LEAF(F, TD_RTZ, TD_OVF_WRAP, false);                                              \
            }                                                                                     \
        }                                                                                         \
    } while (0)

#define BY_FORMAT(LEAF, OTHER)                                                                    \
    do {                                                                                          \
        switch (f) {                                                                              \
        case TD_F64: BY_PROFILE(LEAF, TD_F64); break;                                             \
        case TD_F32: BY_PROFILE(LEAF, TD_F32); break;                                             \
        case TD_F16: BY_PROFILE(LEAF, TD_F16); break;                                             \
        case TD_BF16: BY_PROFILE(LEAF, TD_BF16); break;                                           \
        case TD_E4M3FN: BY_PROFILE(LEAF, TD_E4M3FN); break;                                       \
        case TD_E5M2: BY_PROFILE(LEAF, TD_E5M2); break;                                           \
        case TD_I8: BY_PROFILE(LEAF, TD_I8); break;                                               \
        case TD_U8: BY_PROFILE(LEAF, TD_U8); break;                                               \
        case TD_I32: BY_PROFILE(LEAF, TD_I32); break;                                             \
        default: OTHER; break;                                                                    \
        }                                                                                         \
    } while (0)

#define LOOP_BODIES(SUFFIX, ATTR)                                                                \
    ATTR static void f32_loop_##SUFFIX(const float *x, uint64_t *out, size_t n, td_fmt f, int rnd, \
                                       int ovf, bool ftz) {                                      \
        BY_FORMAT(LEAF32, memset(out, 0, n * sizeof *out));                                      \
    }                                                                                            \
    ATTR static void f64_loop_##SUFFIX(const double *x, uint64_t *out, size_t n, td_fmt f, int rnd, \
                                       int ovf, bool ftz) {                                      \
        BY_FORMAT(LEAF64, memset(out, 0, n * sizeof *out));                                      \
    }

LOOP_BODIES(base, )

/* The scalar entry points go through the same instantiations, one value each: the
 * dispatch branches are the same from call to call (well predicted), and the core then
 * runs with constants instead of a generic version whose data-dependent selects the
 * compiler turned into mispredicted branches. */
#define ONE32(F, R, O, Z) return enc_f32(F, R, O, Z, u)
#define ONE64(F, R, O, Z) return enc_f64(F, R, O, Z, u)

uint64_t td_encode_f32(td_profile p, float x) {
    td_fmt f = p.fmt;
    int rnd = p.rnd == TD_RTZ ? TD_RTZ : TD_RNE, ovf = eff_ovf(p.fmt, p.ovf);
    bool ftz = p.ftz;
    uint32_t u = f32_bits(x);
    BY_FORMAT(ONE32, return 0); /* int64 and bool are storage formats, not cast targets */
    return 0;
}

uint64_t td_encode_f64(td_profile p, double x) {
    td_fmt f = p.fmt;
    int rnd = p.rnd == TD_RTZ ? TD_RTZ : TD_RNE, ovf = eff_ovf(p.fmt, p.ovf);
    bool ftz = p.ftz;
    uint64_t u = f64_bits(x);
    BY_FORMAT(ONE64, return 0);
    return 0;
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TD_HAVE_AVX2_LOOPS 1
LOOP_BODIES(avx2, __attribute__((target("avx2"))))
LOOP_BODIES(avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
#endif

void td_encode_f32_array(td_profile p, const float *x, uint64_t *out, size_t n) {
    int rnd = p.rnd == TD_RTZ ? TD_RTZ : TD_RNE, ovf = eff_ovf(p.fmt, p.ovf);
#ifdef TD_HAVE_AVX2_LOOPS
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")) {
        f32_loop_avx512(x, out, n, p.fmt, rnd, ovf, p.ftz);
        return;
    }
    if (__builtin_cpu_supports("avx2")) {
        f32_loop_avx2(x, out, n, p.fmt, rnd, ovf, p.ftz);
        return;
    }
#endif
    f32_loop_base(x, out, n, p.fmt, rnd, ovf, p.ftz);
}

void td_encode_f64_array(td_profile p, const double *x, uint64_t *out, size_t n) {
    int rnd = p.rnd == TD_RTZ ? TD_RTZ : TD_RNE, ovf = eff_ovf(p.fmt, p.ovf);
#ifdef TD_HAVE_AVX2_LOOPS
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")) {
        f64_loop_avx512(x, out, n, p.fmt, rnd, ovf, p.ftz);
        return;
    }
    if (__builtin_cpu_supports("avx2")) {
        f64_loop_avx2(x, out, n, p.fmt, rnd, ovf, p.ftz);
        return;
    }
#endif
    f64_loop_base(x, out, n, p.fmt, rnd, ovf, p.ftz);
}
