/* Quantization casts binary32 -> int8/uint8/int4/uint4 and int4 packing (numfmt.h).
 * Bit-level: the magnitude is rounded on the significand, so the result does not rest
 * on the host's rounding mode or libm (the sweep compares it with libm's rintf /
 * roundf / truncf, an independent path). */
#include <string.h>

#include "numfmt.h"

static const struct {
    int lo, hi, bits;
} qf[TD_QFMT_COUNT] = {[TD_Q_I8] = {-128, 127, 8}, [TD_Q_U8] = {0, 255, 8}, [TD_Q_I4] = {-8, 7, 4}, [TD_Q_U4] = {0, 15, 4}};

int td_q_min(td_qfmt f) { return qf[f].lo; }
int td_q_max(td_qfmt f) { return qf[f].hi; }

/* |x| rounded to an integer under r, for a finite x given by its magnitude bits.
 * From 2^31 up the exact integer is a multiple of 2^8, beyond every range here: it is
 * returned as 2^40 (also a multiple of 2^8, so WRAP still gives 0 and SAT the bound). */
static uint64_t round_mag(uint32_t a, td_qrnd r) {
    int e = (int)(a >> 23) - 127; /* unbiased exponent; subnormals are below 1/2 anyway */
    if (e < -1)
        return 0; /* |x| < 1/2: 0 under every rounding */
    if (e >= 31)
        return UINT64_C(1) << 40;
    uint64_t sig = (a & 0x7fffffu) | 0x800000u;
    if (e >= 23)
        return sig << (e - 23);
    int k = 23 - e; /* fraction bits, 1..24 */
    uint64_t q = sig >> k, rem = sig & ((UINT64_C(1) << k) - 1), half = UINT64_C(1) << (k - 1);
    switch (r) {
    case TD_Q_HALF_EVEN:
        return q + (rem > half || (rem == half && (q & 1)));
    case TD_Q_HALF_AWAY:
        return q + (rem >= half);
    default:
        return q;
    }
}

uint8_t td_q_encode_f32(float x, td_qfmt f, td_qrnd r, td_qovf o) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint32_t a = u & 0x7fffffffu;
    bool neg = u >> 31;
    uint8_t mask = (uint8_t)((1u << qf[f].bits) - 1);
    if (a > 0x7f800000u) /* NaN */
        return 0;
    if (a == 0x7f800000u) /* inf */
        return o == TD_Q_WRAP ? 0 : (uint8_t)((neg ? qf[f].lo : qf[f].hi) & mask);
    uint64_t m = round_mag(a, r);
    int64_t v = neg ? -(int64_t)m : (int64_t)m;
    if (o == TD_Q_SAT)
        v = v < qf[f].lo ? qf[f].lo : v > qf[f].hi ? qf[f].hi : v;
    return (uint8_t)((uint64_t)v & mask); /* two's complement: WRAP is the low bits */
}

int td_q_decode(td_qfmt f, uint8_t bits) {
    int b = qf[f].bits;
    int v = (int)(bits & ((1u << b) - 1));
    return qf[f].lo < 0 && v >= (1 << (b - 1)) ? v - (1 << b) : v;
}

uint8_t td_int4_pack(uint8_t e0, uint8_t e1, td_nib order) {
    uint8_t lo = order == TD_NIB_LO_FIRST ? e0 : e1, hi = order == TD_NIB_LO_FIRST ? e1 : e0;
    return (uint8_t)((lo & 0xfu) | (unsigned)(hi & 0xfu) << 4);
}

uint8_t td_int4_nibble(uint8_t byte, int k, td_nib order) {
    int high = (k != 0) == (order == TD_NIB_LO_FIRST); /* element k sits in the high nibble */
    return (uint8_t)(high ? byte >> 4 : byte & 0xfu);
}

int td_int4_unpack(uint8_t byte, int k, td_nib order, bool is_signed) {
    return td_q_decode(is_signed ? TD_Q_I4 : TD_Q_U4, td_int4_nibble(byte, k, order));
}
