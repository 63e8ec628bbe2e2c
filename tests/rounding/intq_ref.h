/* The reference of the quantization casts (numfmt.h, td_q_encode_f32): libm's rintf
 * (round-to-nearest mode: ties to even), roundf (ties away) and truncf give the
 * rounded integer as a binary32 (exact: every such integer is one), the saturation is
 * a clamp and the wrap an exact fmod in binary64.  An independent path: rounding/intq.c
 * works on the significand bits and never calls libm. */
#ifndef TD_TEST_INTQ_REF_H
#define TD_TEST_INTQ_REF_H

#include <math.h>
#include <stdint.h>

#include "rounding.h"

static inline double iq_ref_round(float x, td_qrnd r) {
    return r == TD_Q_HALF_EVEN ? (double)rintf(x) : r == TD_Q_HALF_AWAY ? (double)roundf(x) : (double)truncf(x);
}

/* from the rounded value v (a binary64 integer, NaN or inf): the clamp, or the two's
 * complement low bits of the integer (|v| >= 2^62 is a binary32 integer, hence a
 * multiple of 2^39, whose low 8 bits are 0) */
static inline uint8_t iq_ref_finish(double v, td_qfmt f, td_qovf o) {
    double lo = td_q_min(f), hi = td_q_max(f);
    unsigned mask = (unsigned)(hi - lo); /* 2^bits - 1 */
    if (isnan(v) || (isinf(v) && o == TD_Q_WRAP))
        return 0;
    if (o == TD_Q_SAT)
        return (uint8_t)((unsigned)(int)(v < lo ? lo : v > hi ? hi : v) & mask);
    int64_t w = fabs(v) < 0x1p62 ? (int64_t)v : 0;
    return (uint8_t)((uint64_t)w & mask);
}

static inline uint8_t iq_ref(float x, td_qfmt f, td_qrnd r, td_qovf o) {
    return iq_ref_finish(iq_ref_round(x, r), f, o);
}

#endif
