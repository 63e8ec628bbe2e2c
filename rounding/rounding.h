/* rounding: number formats, cast profiles, fast bit-level conversions, the MPFR
 * reference rounding, ulp and ulp distance.
 *
 * Everything the oracle says about a stored value rests on this module.  Two
 * independent paths exist for every conversion: a fast bit-level one
 * (td_encode_f32 / td_encode_f64) and an MPFR one (td_encode_mpfr*), and the
 * tests require them to agree bit for bit.
 *
 * Conventions
 *  - A value of a format is carried as its raw bits in the low bits of a
 *    uint64_t (two's complement for the integer formats).
 *  - Every format's values are exactly representable in binary64, except
 *    int64 beyond 2^53 (td_decode rounds those; use td_decode_i64).
 *  - NaN results are the format's canonical quiet NaN with the sign of the
 *    source NaN (or of the overflowing value under TD_OVF_NAN): fp32 0x7fc00000,
 *    fp16 0x7e00, bf16 0x7fc0, e5m2 0x7e, e4m3fn 0x7f (the only NaN), sign in
 *    the top bit.  MPFR sources give a positive NaN.
 *  - The module expects the default floating-point environment of the host (round to
 *    nearest, no flush-to-zero / denormals-are-zero in MXCSR): a few steps (binary32
 *    widened to binary64, libm's frexp/ldexp/floor) use the host's arithmetic.
 */
#ifndef TD_ROUNDING_H
#define TD_ROUNDING_H

#include <mpfr.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the formats, profiles and bit-level conversions: the installed public part */
#include "numfmt.h"

#ifdef __cplusplus
extern "C" {
#endif

#include <math.h>
#include <string.h>

/* ---- inline decoders of the formats read by the million ----
 * td_decode's values (td_decode calls them; tests/rounding/test_formats.c checks every
 * 16-bit pattern against the exact MPFR decode, tests/test_spec_load.c td_get): host
 * kernels' loads and the generators' forward passes decode binary16 operands millions
 * of times a second, where the call into td_decode was a sixth of seed_sm86's time. */

/* binary32 bits as a double; a NaN as the canonical NaN of its sign. */
static inline double td_f32_value(uint32_t b) {
    if ((b & 0x7fffffffu) > 0x7f800000u) return (b >> 31) ? -NAN : NAN;
    float y;
    memcpy(&y, &b, sizeof y);
    return y; /* exact, subnormals included */
}

/* bfloat16: the high half of a binary32 */
static inline double td_bf16_value(uint16_t b) { return td_f32_value((uint32_t)b << 16); }

/* binary16 by its fields, exactly (every product below is an integer times a power of
 * two that binary64 holds); a NaN as the canonical NaN of its sign. */
static inline double td_f16_value(uint16_t b) {
    uint32_t e = (uint32_t)(b >> 10) & 31, m = b & 1023u;
    double mag;
    if (e == 31) mag = m ? NAN : INFINITY;
    else if (e == 0) mag = (double)m * 0x1p-24;
    else mag = (double)(m | 1024) * ((double)(1u << e) * 0x1p-25);
    return (b & 0x8000u) ? -mag : mag;
}

/* exact; out's precision >= prec (64 for ints) */
void td_decode_mpfr(td_fmt f, uint64_t bits, mpfr_ptr out);

/* ---- MPFR reference path ----
 * Rounds with mpfr_set_emin/emax, mpfr_check_range and mpfr_subnormalize (passing
 * the ternary of the rounding step so subnormals are not double-rounded), then the
 * explicit overflow rule of the profile (e4m3fn: 480 is not a value; 464 is the tie
 * that rounds to 448).  `ternary` is the sign of (x - true value) when x is itself
 * an inexact approximation (0 when x is exact): a value that sits exactly on a
 * rounding tie is then rounded the way the true value would be. */
/* Thread safety: MPFR's exponent range is per thread when MPFR is built with TLS
 * (mpfr_buildopt_tls_p()); these functions save and restore it.  A thread that used
 * them should call mpfr_free_cache() before it exits (MPFR's per-thread pools). */
uint64_t td_encode_mpfr(td_profile p, mpfr_srcptr x);
uint64_t td_encode_mpfr_t(td_profile p, mpfr_srcptr x, int ternary);
/* Reference conversions of binary32/binary64 sources through MPFR (tests, CLI). */
uint64_t td_ref_encode_f32(td_profile p, float x);
uint64_t td_ref_encode_f64(td_profile p, double x);

uint64_t td_chain_mpfr(const td_cast_chain *c, mpfr_srcptr x, int ternary);

/* Parses decimal or C99 hex-float (also "inf", "-inf", "nan") exactly into x.
 * Returns 0, or -1 if the token is not a number. */
int td_parse_value_mpfr(const char *s, mpfr_ptr x);
/* The same, also giving the ternary (sign of x - the token's value), for the tokens no
 * precision holds exactly (0.1): pass it to td_encode_mpfr_t.  x's precision is raised
 * (never lowered) to what the token needs to be exact when its value is a dyadic
 * rational, which covers every hex-float and every decimal that is a value of some
 * format; otherwise to at least 64 bits, enough for td_encode_mpfr_t to round the
 * token correctly into every format.  Decimal exponents beyond about +-1.2 million
 * are not held exactly (integers of 10^1200000 digits); they are rounded with the
 * ternary reported. Values beyond MPFR's exponent range become the largest / smallest
 * magnitude MPFR holds, with the ternary, never inf or 0. */
int td_parse_value_mpfr_t(const char *s, mpfr_ptr x, int *ternary);

#ifdef __cplusplus
}
#endif
#endif
