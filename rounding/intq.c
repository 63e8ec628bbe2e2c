/* Quantization casts binary32 -> int8/uint8/int4/uint4 and int4 packing (numfmt.h).
 *
 * The rounding rests on two operations that are exact in every rounding mode: the
 * conversion of a binary32 below 2^31 to int32, which C defines as truncation (SSE's
 * cvttss2si / cvttps2dq, never the MXCSR mode), and the subtraction |x| - trunc(|x|)
 * (Sterbenz for |x| >= 1; |x| itself below 1).  The fraction then decides the carry
 * against 1/2.  No libm call and no host rounding mode: the sweep compares the result
 * with libm's rintf / roundf / truncf, an independent path.
 *
 * One core serves the scalar cast and the array cast: the array loop is instantiated per
 * (rounding, overflow) with constants, straight-line selects that GCC vectorises at -O3
 * (-fno-trapping-math) with baseline SSE2 (rounding/CMakeLists.txt), so the exhaustive sweep of all 2^32
 * inputs x 24 casts (tests/rounding/test_sweep_int.c) checks the very arithmetic the
 * scalar cast runs. */
#include <string.h>

#include "intq_array.h"

#define TD_AI static inline __attribute__((always_inline))

static const struct {
    int lo, hi, bits;
} qf[TD_QFMT_COUNT] = {[TD_Q_I8] = {-128, 127, 8}, [TD_Q_U8] = {0, 255, 8}, [TD_Q_I4] = {-8, 7, 4}, [TD_Q_U4] = {0, 15, 4}};

int td_q_min(td_qfmt f) { return qf[f].lo; }
int td_q_max(td_qfmt f) { return qf[f].hi; }

/* x (its bits u) cast under r and o to [lo, hi], the low bits under mask.
 * NaN is read as 0 (0 under both policies).  From 2^31 up (inf included) the exact integer
 * is a multiple of 2^8, beyond every range here: it is read as 2^30, also a multiple of
 * 2^8 and beyond every range, so WRAP still gives 0 and SAT the bound, and the truncating
 * conversion stays in int32. */
TD_AI uint8_t q_core(uint32_t u, int lo, int hi, uint32_t mask, td_qrnd r, td_qovf o) {
    uint32_t a = u & 0x7fffffffu;
    a = a > 0x7f800000u ? 0 : a;
    a = a >= 0x4f000000u ? 0x4e800000u : a; /* 2^31 -> 2^30 */
    float af;
    memcpy(&af, &a, sizeof af);
    int32_t t = (int32_t)af;   /* truncation toward zero, exact */
    float frac = af - (float)t; /* exact: t is a binary32 integer, t <= af < t + 1 */
    /* frac is in [0, 1): its bits order as its values, so it is compared with 1/2
     * (0x3f000000) as an integer.  Half-even carries above 1/2, and at 1/2 when t is odd:
     * fb + (t & 1) > 1/2's bits says both (fb < 0x3f800000: no overflow). */
    uint32_t fb;
    memcpy(&fb, &frac, sizeof fb);
    int32_t up = 0;
    if (r == TD_Q_HALF_EVEN)
        up = fb + ((uint32_t)t & 1u) > 0x3f000000u;
    else if (r == TD_Q_HALF_AWAY)
        up = fb >= 0x3f000000u;
    int32_t m = t + up; /* <= 2^30 */
    int32_t v = (u >> 31) ? -m : m;
    if (o == TD_Q_SAT)
        v = v < lo ? lo : v > hi ? hi : v;
    return (uint8_t)((uint32_t)v & mask); /* two's complement: WRAP is the low bits */
}

uint8_t td_q_encode_f32(float x, td_qfmt f, td_qrnd r, td_qovf o) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return q_core(u, qf[f].lo, qf[f].hi, (1u << qf[f].bits) - 1, r, o);
}

/* one loop per (rounding, overflow): r and o are constants in each instantiation */
TD_AI void q_loop(const float *x, uint8_t *out, size_t n, td_qfmt f, td_qrnd r, td_qovf o) {
    int lo = qf[f].lo, hi = qf[f].hi;
    uint32_t mask = (1u << qf[f].bits) - 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        out[i] = q_core(u, lo, hi, mask, r, o);
    }
}

#define Q_LOOP(R, O)                                                                                                   \
    static void q_loop_##R##_##O(const float *x, uint8_t *out, size_t n, td_qfmt f) {                                 \
        q_loop(x, out, n, f, R, O);                                                                                    \
    }
Q_LOOP(TD_Q_HALF_EVEN, TD_Q_SAT)
Q_LOOP(TD_Q_HALF_EVEN, TD_Q_WRAP)
Q_LOOP(TD_Q_HALF_AWAY, TD_Q_SAT)
Q_LOOP(TD_Q_HALF_AWAY, TD_Q_WRAP)
Q_LOOP(TD_Q_TRUNC, TD_Q_SAT)
Q_LOOP(TD_Q_TRUNC, TD_Q_WRAP)
#undef Q_LOOP

void td_q_encode_f32_array(td_qfmt f, td_qrnd r, td_qovf o, const float *x, uint8_t *out, size_t n) {
    static void (*const loops[TD_QRND_COUNT][TD_QOVF_COUNT])(const float *, uint8_t *, size_t, td_qfmt) = {
        {q_loop_TD_Q_HALF_EVEN_TD_Q_SAT, q_loop_TD_Q_HALF_EVEN_TD_Q_WRAP},
        {q_loop_TD_Q_HALF_AWAY_TD_Q_SAT, q_loop_TD_Q_HALF_AWAY_TD_Q_WRAP},
        {q_loop_TD_Q_TRUNC_TD_Q_SAT, q_loop_TD_Q_TRUNC_TD_Q_WRAP},
    };
    loops[r][o](x, out, n, f);
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
