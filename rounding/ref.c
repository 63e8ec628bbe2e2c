/* rounding/ref.c: the MPFR reference rounding into every format.
 *
 * Floating targets, for a finite nonzero value:
 *  1. round to the target's precision with an unbounded exponent (in an exponent range
 *     wide enough that no bound acts), which also decides overflow: the value
 *     overflows when that rounded magnitude exceeds max finite.  This is where
 *     e4m3fn gets its rule: its binade [256, 512) would hold 480 = 1.111b * 2^8 in an
 *     IEEE-like format, but 480 is not a value (S.1111.111 is the NaN), so a value
 *     rounded to 480 overflows while 464, the tie between 448 and 480, rounds to even
 *     448;
 *  2. below the normal range: mpfr_set_emin/emax to the format's range and
 *     mpfr_check_range, then mpfr_subnormalize with the ternary of step 1, so that a
 *     subnormal result is rounded once from the true value and not from the step-1
 *     result;
 *  3. FTZ, then the encoding written from the exponent and the integral significand.
 *
 * An inexact source (ternary != 0) is first replaced by a value strictly between it and
 * its neighbour on the side of the true value, at a precision finer than anything the
 * target can resolve: every later decision (ties, truncation, overflow threshold) then
 * sees the side the true value is on.
 *
 * MPFR's exponent range is process state (thread-local when MPFR is built with TLS,
 * as on Debian: mpfr_buildopt_tls_p); every entry point here saves it, works in its
 * own range and restores it, so callers and other threads see no change. */
#include <math.h>

#include "rounding.h"

/* Same normalisation of invalid profiles as fast.c (see rounding.h). */
static int eff_ovf(const td_fmt_info *fi, td_ovf ovf) {
    if (!fi->is_float)
        return ovf == TD_OVF_WRAP ? TD_OVF_WRAP : TD_OVF_SAT;
    if (ovf != TD_OVF_SAT && ovf != TD_OVF_NAN)
        ovf = TD_OVF_INF;
    if (!fi->has_inf && ovf == TD_OVF_INF)
        ovf = TD_OVF_NAN;
    return (int)ovf;
}

typedef struct {
    mpfr_exp_t emin, emax;
} exp_range;

/* Each exponent-range call is a thread-local access (through __tls_get_addr in a
 * shared libmpfr), which dominated the cost of this path; so the range is widened only
 * when the caller's one might not hold the intermediate values (see float_ref). */
static void range_set(mpfr_exp_t emin, mpfr_exp_t emax) {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
}

static uint64_t sign_bit(const td_fmt_info *fi, bool neg) { return (uint64_t)neg << (fi->bits - 1); }

/* MPFR numbers of at most SMALL_PREC bits kept on the stack through MPFR's custom
 * interface, so that the reference path does not allocate for every value (it runs
 * 10^9 times in the tests).  Never mpfr_clear'ed, never resized. */
#define SMALL_PREC 128
typedef struct {
    mpfr_t m;
    mp_limb_t limbs[(SMALL_PREC + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS];
} small_fr;

static void small_init(small_fr *s, mpfr_prec_t p) {
    mpfr_custom_init(s->limbs, p);
    mpfr_custom_init_set(s->m, MPFR_NAN_KIND, 0, p, s->limbs);
}

/* A number on the stack when its precision allows, on the heap otherwise. */
typedef struct {
    small_fr s;
    mpfr_t h;
    bool heap;
} var_fr;

static mpfr_ptr var_init(var_fr *v, mpfr_prec_t p) {
    v->heap = p > SMALL_PREC;
    if (!v->heap) {
        small_init(&v->s, p);
        return v->s.m;
    }
    mpfr_init2(v->h, p);
    return v->h;
}

static void var_clear(var_fr *v) {
    if (v->heap)
        mpfr_clear(v->h);
}

/* The top 64 bits of the significand of a regular y whose precision is at most 64
 * (read through MPFR's custom interface: limbs least significant first, the most
 * significant bit of the top limb set). */
static uint64_t top64(mpfr_srcptr y) {
    const mp_limb_t *l = mpfr_custom_get_significand(y);
    size_t n = ((size_t)mpfr_get_prec(y) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS;
    uint64_t t = 0;
    for (size_t i = n; i-- > 0;)
        t = (GMP_NUMB_BITS >= 64 ? 0 : t << (GMP_NUMB_BITS % 64)) | (uint64_t)l[i];
    return t << (64 - n * GMP_NUMB_BITS); /* n * GMP_NUMB_BITS is 32 or 64 here */
}

/* Encoding of a finite value y of the format (prec bits, within its range). */
static uint64_t pack(const td_fmt_info *fi, mpfr_srcptr y) {
    uint64_t s = sign_bit(fi, mpfr_signbit(y));
    if (mpfr_zero_p(y))
        return s;
    long e = (long)mpfr_get_exp(y) - 1; /* |y| in [2^e, 2^(e+1)) */
    long ec = e < fi->emin ? fi->emin : e;
    /* |y| = full * 2^(e - prec + 1) with a prec-bit integer `full`; the field is
     * full * 2^(e - ec), shifted right for a subnormal (exactly: y was subnormalised). */
    uint64_t full = top64(y) >> (64 - fi->prec);
    uint64_t sig = full >> (ec - e);
    /* (ec - emin) << t plus a significand that carries the hidden bit gives the biased
     * exponent ec + bias = ec - emin + 1 for a normal; a subnormal has no hidden bit. */
    return s | (((uint64_t)(ec - fi->emin) << (fi->prec - 1)) + sig);
}

/* Sets m (SMALL_PREC storage) to the binary64 x exactly, through the custom interface:
 * mpfr_set_d saves and restores the exponent range around its work, which made it the
 * most expensive step of this path.  frexp gives x = fr * 2^e with fr in [0.5, 1),
 * which is MPFR's convention; fr * 2^64 is then the normalised 64-bit significand. */
static void load_double(small_fr *m, double x) {
    if (x == 0 || !isfinite(x) || GMP_NUMB_BITS < 32) {
        small_init(m, 64);
        mpfr_set_d(m->m, x, MPFR_RNDN);
        return;
    }
    int e;
    double fr = frexp(fabs(x), &e);
    uint64_t sig = (uint64_t)ldexp(fr, 64); /* exact: at most 53 significant bits */
    for (size_t i = 0; i * GMP_NUMB_BITS < 64; i++)
        m->limbs[i] = (mp_limb_t)(sig >> (i * GMP_NUMB_BITS));
    mpfr_custom_init_set(m->m, x < 0 ? -MPFR_REGULAR_KIND : MPFR_REGULAR_KIND, e, 64, m->limbs);
}

static uint64_t max_bits(const td_fmt_info *fi, bool neg) {
    small_fr m;
    small_init(&m, fi->prec);
    mpfr_set_d(m.m, neg ? -fi->max_finite : fi->max_finite, MPFR_RNDN);
    return pack(fi, m.m);
}

/* Whether y (nonzero, rounded to the format's precision with an unbounded exponent)
 * exceeds max finite.  Every prec-bit number with MPFR exponent <= emax+1 is at most
 * the top of binade emax, which is max finite for the IEEE-like formats; e4m3fn stops
 * below the top of its binade (448 < 480), so there the value decides. */
static bool above_max(const td_fmt_info *fi, mpfr_srcptr y) {
    mpfr_exp_t e = mpfr_get_exp(y);
    if (e != fi->emax + 1)
        return e > fi->emax + 1;
    return !fi->has_inf && fabs(mpfr_get_d(y, MPFR_RNDN)) > fi->max_finite;
}

static uint64_t inf_bits(const td_fmt_info *fi, bool neg) {
    /* All-ones exponent, zero significand. */
    unsigned t = (unsigned)fi->prec - 1;
    uint64_t ef = (UINT64_C(1) << (fi->bits - 1 - t)) - 1;
    return sign_bit(fi, neg) | (ef << t);
}

static uint64_t float_ref(td_fmt f, const td_fmt_info *fi, int rnd, int ovf, bool ftz, mpfr_srcptr x,
                          int ternary) {
    if (mpfr_nan_p(x))
        return td_nan_bits(f, false);
    bool neg = mpfr_signbit(x);
    if (mpfr_inf_p(x))
        return ovf == TD_OVF_INF ? inf_bits(fi, neg) : ovf == TD_OVF_SAT ? max_bits(fi, neg) : td_nan_bits(f, neg);
    if (mpfr_zero_p(x) && ternary == 0)
        return sign_bit(fi, neg);
    mpfr_rnd_t mr = rnd == TD_RTZ ? MPFR_RNDZ : MPFR_RNDN;
    /* Steps 1 and 3 run in the caller's range when it holds the format's range with a
     * margin and x is not at its edge (so neither the nudge nor the rounding of step 1
     * can leave it); MPFR's default range always does for binary32/64 sources.
     * Otherwise in the widest range MPFR has. */
    exp_range saved = {mpfr_get_emin(), mpfr_get_emax()};
    mpfr_exp_t ex = mpfr_zero_p(x) ? 0 : mpfr_get_exp(x);
    bool widen = saved.emin > fi->emin - fi->prec - 8 || saved.emax < fi->emax + 8 || ex <= saved.emin + 2 ||
                 ex >= saved.emax - 2;
    if (widen)
        range_set(mpfr_get_emin_min(), mpfr_get_emax_max());
    small_fr y;
    var_fr xe = {.heap = false};
    mpfr_srcptr src = x;
    if (ternary != 0) {
        mpfr_prec_t p = (mpfr_get_prec(x) > fi->prec ? mpfr_get_prec(x) : fi->prec) + 3;
        mpfr_ptr w = var_init(&xe, p);
        src = w;
        mpfr_set(w, x, MPFR_RNDN); /* exact */
        if (ternary > 0)           /* x is above the true value */
            mpfr_nextbelow(w);
        else
            mpfr_nextabove(w);
    }
    small_init(&y, fi->prec);
    int t = mpfr_set(y.m, src, mr); /* step 1: precision only, exponent unbounded */
    uint64_t out;
    if (!mpfr_zero_p(y.m) && above_max(fi, y.m)) {
        bool yn = mpfr_signbit(y.m);
        if (ovf == TD_OVF_NAN)
            out = td_nan_bits(f, yn);
        else if (ovf == TD_OVF_SAT || rnd == TD_RTZ)
            out = max_bits(fi, yn);
        else
            out = inf_bits(fi, yn);
    } else {
        /* step 2: the format's exponent range, for a y below the normal range (where
         * mpfr_check_range and mpfr_subnormalize can act; above it they are no-ops).
         * MPFR's exponent e means [2^(e-1), 2^e): the smallest subnormal
         * 2^(emin-prec+1) has e = emin-prec+2, and the top binade 2^emax has
         * e = emax+1.  (y is at most max finite here, so the emax bound cannot act; it
         * is set so that the range is exactly the format's.) */
        if (!mpfr_zero_p(y.m) && mpfr_get_exp(y.m) - 1 < fi->emin) {
            mpfr_exp_t e1 = mpfr_get_emin(), e2 = mpfr_get_emax();
            range_set(fi->emin - fi->prec + 2, fi->emax + 1);
            t = mpfr_check_range(y.m, t, mr);
            mpfr_subnormalize(y.m, t, mr);
            range_set(e1, e2);
        }
        /* step 3: FTZ on the rounded result, then the encoding */
        if (ftz && !mpfr_zero_p(y.m) && mpfr_get_exp(y.m) - 1 < fi->emin)
            out = sign_bit(fi, mpfr_signbit(y.m));
        else
            out = pack(fi, y.m);
    }
    var_clear(&xe);
    if (widen)
        range_set(saved.emin, saved.emax);
    return out;
}

/* Whether x is k + 1/2 for an integer k. */
static bool is_half_integer(mpfr_srcptr x) {
    var_fr hv;
    mpfr_ptr h = var_init(&hv, mpfr_get_prec(x) + 1);
    mpfr_mul_2ui(h, x, 1, MPFR_RNDN); /* exact; inf only for an x that is an integer anyway */
    bool r = mpfr_integer_p(h) && !mpfr_integer_p(x);
    var_clear(&hv);
    return r;
}

/* Integer targets.  The integer n the true value rounds to is n0 + d, with n0 an MPFR
 * integer and d in {-1, 0, 1} the correction the ternary asks for; keeping d apart
 * keeps n exact for any magnitude (n0 may be 10^400, and n0 - 1 needs 1300 bits). */
static uint64_t int_ref(const td_fmt_info *fi, int rnd, int ovf, mpfr_srcptr x, int ternary) {
    uint64_t mask = (UINT64_C(1) << fi->bits) - 1; /* bits <= 32 */
    if (mpfr_nan_p(x))
        return 0;
    bool neg = mpfr_signbit(x);
    if (mpfr_inf_p(x))
        return ovf == TD_OVF_WRAP ? 0 : (uint64_t)(neg ? fi->imin : fi->imax) & mask;
    if (mpfr_zero_p(x))
        return 0; /* whatever side the true value is on, it is below 1/2 in magnitude */
    /* No exponent range of our own: every intermediate is an integer no larger than
     * x in magnitude (or 2x, see is_half_integer). */
    var_fr n0v;
    mpfr_ptr n0 = var_init(&n0v, mpfr_get_prec(x) + 1); /* rint(x) needs at most prec(x) bits */
    long d = 0;
    if (ternary != 0 && mpfr_integer_p(x)) {
        mpfr_set(n0, x, MPFR_RNDN);
        /* The true value is x - ternary*eps: under RTZ it truncates to the integer below
         * x in magnitude when it lies between x and zero. */
        if (rnd == TD_RTZ && (ternary > 0) == !neg)
            d = neg ? 1 : -1;
    } else if (ternary != 0 && rnd == TD_RNE && is_half_integer(x)) {
        /* x is a tie k + 1/2: the true value lies on one side of it. */
        if (ternary > 0)
            mpfr_floor(n0, x);
        else
            mpfr_ceil(n0, x);
    } else {
        mpfr_rint(n0, x, rnd == TD_RTZ ? MPFR_RNDZ : MPFR_RNDN); /* RNDN: ties to even */
    }
    uint64_t out;
    if (ovf == TD_OVF_WRAP && (mpfr_zero_p(n0) || mpfr_get_exp(n0) <= 53)) {
        /* |n0| < 2^53: exact in binary64 and int64, reduce there */
        int64_t v = (int64_t)mpfr_get_d(n0, MPFR_RNDN) + d;
        out = (uint64_t)v & mask;
    } else if (ovf == TD_OVF_WRAP) {
        small_fr r, m;
        small_init(&r, 64);
        small_init(&m, 2);
        mpfr_set_ui_2exp(m.m, 1, fi->bits, MPFR_RNDN);
        mpfr_fmod(r.m, n0, m.m, MPFR_RNDN); /* exact: an integer below 2^bits in magnitude */
        int64_t v = (int64_t)mpfr_get_d(r.m, MPFR_RNDN) + d;
        out = (uint64_t)v & mask;
    } else {
        /* Exact below 2^53; beyond, RNDZ stops at +-DBL_MAX, which still saturates. */
        double v = mpfr_get_d(n0, MPFR_RNDZ) + (double)d;
        if (v > (double)fi->imax)
            out = (uint64_t)fi->imax & mask;
        else if (v < (double)fi->imin)
            out = (uint64_t)fi->imin & mask;
        else
            out = (uint64_t)(int64_t)v & mask;
    }
    var_clear(&n0v);
    return out;
}

uint64_t td_encode_mpfr_t(td_profile p, mpfr_srcptr x, int ternary) {
    const td_fmt_info *fi = td_fmt_get(p.fmt);
    if (!fi)
        return 0;
    int rnd = p.rnd == TD_RTZ ? TD_RTZ : TD_RNE;
    int ovf = eff_ovf(fi, p.ovf);
    if (fi->is_float)
        return float_ref(p.fmt, fi, rnd, ovf, p.ftz, x, ternary);
    if (fi->is_cast_target)
        return int_ref(fi, rnd, ovf, x, ternary);
    return 0; /* int64, bool: storage only */
}

uint64_t td_encode_mpfr(td_profile p, mpfr_srcptr x) { return td_encode_mpfr_t(p, x, 0); }

/* binary32 / binary64 sources: the FTZ flush of subnormal sources and the sign of a
 * NaN source (which MPFR does not keep) are handled here, the rest by the above. */
static bool int_fmt(td_fmt f) { return f == TD_I8 || f == TD_U8 || f == TD_I32; }

uint64_t td_ref_encode_f32(td_profile p, float x) {
    if (isnan(x))
        return td_nan_bits(p.fmt, signbit(x));
    if (p.ftz && !int_fmt(p.fmt) && fpclassify(x) == FP_SUBNORMAL)
        x = signbit(x) ? -0.0f : 0.0f;
    small_fr m;
    load_double(&m, (double)x); /* exact */
    return td_encode_mpfr(p, m.m);
}

uint64_t td_ref_encode_f64(td_profile p, double x) {
    if (isnan(x))
        return td_nan_bits(p.fmt, signbit(x));
    if (p.ftz && !int_fmt(p.fmt) && fpclassify(x) == FP_SUBNORMAL)
        x = signbit(x) ? -0.0 : 0.0;
    small_fr m;
    load_double(&m, x); /* exact */
    return td_encode_mpfr(p, m.m);
}
