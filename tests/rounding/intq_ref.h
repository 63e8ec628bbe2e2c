/* The reference of the quantization casts (numfmt.h, td_q_encode_f32): libm's rintf
 * (round-to-nearest mode: ties to even), roundf (ties away) and truncf give the
 * rounded integer as a binary32 (exact: every such integer is one), the saturation is
 * a clamp and the wrap an exact fmod in binary64.  An independent path: rounding/intq.c
 * works on the significand bits and never calls libm. */
#ifndef TD_TEST_INTQ_REF_H
#define TD_TEST_INTQ_REF_H

#include <math.h>
#include <stdint.h>

#include "intq_array.h"
#include "rounding.h"

static inline double iq_ref_round(float x, td_qrnd r) {
    return r == TD_Q_HALF_EVEN ? (double)rintf(x) : r == TD_Q_HALF_AWAY ? (double)roundf(x) : (double)truncf(x);
}

/* From the rounded value v (a binary64 integer, NaN or inf) the finish needs two things,
 * split out so that the exhaustive sweep computes them once per rounding and joins them
 * per format in loops without branches (test_sweep_int.c):
 *   iq_ref_sat:  v clamped to [-256, 256], NaN as 0: past every format's range on both
 *                sides, so clamping it to [lo, hi] is clamping v;
 *   iq_ref_wrap: the two's complement low 8 bits of the integer v (0 for NaN and +-inf;
 *                |v| >= 2^62 is a binary32 integer, hence a multiple of 2^39, whose low
 *                8 bits are 0). */
static inline int16_t iq_ref_sat(double v) {
    return (int16_t)(isnan(v) ? 0 : v < -256 ? -256 : v > 256 ? 256 : (int)v);
}
static inline uint8_t iq_ref_wrap(double v) {
    if (isnan(v) || isinf(v))
        return 0;
    int64_t w = fabs(v) < 0x1p62 ? (int64_t)v : 0;
    return (uint8_t)((uint64_t)w & 0xffu);
}
/* the cast's bits: the clamp to [lo, hi] (NaN gives 0 there too: in every range), or
 * the low bits (mask = hi - lo = 2^bits - 1) */
static inline uint8_t iq_ref_join(int16_t s, uint8_t w, int lo, int hi, td_qovf o) {
    unsigned mask = (unsigned)(hi - lo);
    int c = s < lo ? lo : s > hi ? hi : s;
    return (uint8_t)((o == TD_Q_SAT ? (unsigned)c : w) & mask);
}
static inline uint8_t iq_ref_finish(double v, td_qfmt f, td_qovf o) {
    return iq_ref_join(iq_ref_sat(v), iq_ref_wrap(v), td_q_min(f), td_q_max(f), o);
}

static inline uint8_t iq_ref(float x, td_qfmt f, td_qrnd r, td_qovf o) {
    return iq_ref_finish(iq_ref_round(x, r), f, o);
}

#endif
