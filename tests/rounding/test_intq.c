/* The quantization casts and int4 packing of numfmt.h (rounding/intq.c), quick part:
 * hand-checked cases at every tie and bound, agreement with the int8/uint8 profiles of
 * td_encode_f32 (RNE/RTZ, SAT/WRAP) and with the libm reference (intq_ref.h) on a
 * sample; every byte through pack/unpack in both nibble orders.  The exhaustive binary32
 * sweep of the same casts is test_sweep_int (label "sweep"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "intq_ref.h"
#include "test_util.h"

typedef struct {
    float x;
    td_qfmt f;
    td_qrnd r;
    td_qovf o;
    int want; /* the value */
} qcase;

#define E TD_Q_HALF_EVEN
#define A TD_Q_HALF_AWAY
#define T TD_Q_TRUNC
static const qcase cases[] = {
    /* ties: even vs away, both signs */
    {0.5f, TD_Q_I8, E, TD_Q_SAT, 0},     {0.5f, TD_Q_I8, A, TD_Q_SAT, 1},      {0.5f, TD_Q_I8, T, TD_Q_SAT, 0},
    {1.5f, TD_Q_I8, E, TD_Q_SAT, 2},     {2.5f, TD_Q_I8, E, TD_Q_SAT, 2},      {2.5f, TD_Q_I8, A, TD_Q_SAT, 3},
    {-0.5f, TD_Q_I8, E, TD_Q_SAT, 0},    {-0.5f, TD_Q_I8, A, TD_Q_SAT, -1},    {-2.5f, TD_Q_I8, E, TD_Q_SAT, -2},
    {-2.5f, TD_Q_I8, A, TD_Q_SAT, -3},   {-2.5f, TD_Q_I8, T, TD_Q_SAT, -2},    {-2.75f, TD_Q_I8, T, TD_Q_SAT, -2},
    /* just below a tie: 0.49999997 is 0 under both nearest modes */
    {0.49999997f, TD_Q_I8, A, TD_Q_SAT, 0}, {0.49999997f, TD_Q_I8, E, TD_Q_SAT, 0},
    {8388607.5f, TD_Q_I8, E, TD_Q_WRAP, 0}, /* 2^23 - 1/2: the last tie, to 2^23 = 0 mod 256 */
    {8388607.5f, TD_Q_I8, A, TD_Q_WRAP, 0},  {8388606.5f, TD_Q_I8, E, TD_Q_WRAP, -2},
    /* bounds: saturation vs wrap */
    {127.5f, TD_Q_I8, E, TD_Q_SAT, 127}, {127.5f, TD_Q_I8, E, TD_Q_WRAP, -128}, {127.5f, TD_Q_I8, T, TD_Q_WRAP, 127},
    {-128.5f, TD_Q_I8, E, TD_Q_SAT, -128}, {-128.5f, TD_Q_I8, A, TD_Q_SAT, -128}, {-128.5f, TD_Q_I8, A, TD_Q_WRAP, 127},
    {-129.f, TD_Q_I8, E, TD_Q_WRAP, 127}, {200.f, TD_Q_I8, E, TD_Q_WRAP, -56},   {255.5f, TD_Q_U8, E, TD_Q_SAT, 255},
    {255.5f, TD_Q_U8, E, TD_Q_WRAP, 0},  {-1.f, TD_Q_U8, E, TD_Q_SAT, 0},      {-1.f, TD_Q_U8, E, TD_Q_WRAP, 255},
    {-0.5f, TD_Q_U8, A, TD_Q_WRAP, 255}, {-0.5f, TD_Q_U8, E, TD_Q_WRAP, 0},    {7.5f, TD_Q_I4, E, TD_Q_SAT, 7},
    {7.5f, TD_Q_I4, E, TD_Q_WRAP, -8},   {6.5f, TD_Q_I4, A, TD_Q_SAT, 7},      {-8.5f, TD_Q_I4, E, TD_Q_SAT, -8},
    {-8.5f, TD_Q_I4, A, TD_Q_WRAP, 7},   {15.5f, TD_Q_U4, T, TD_Q_SAT, 15},    {16.f, TD_Q_U4, T, TD_Q_WRAP, 0},
    {-3.f, TD_Q_I4, T, TD_Q_WRAP, -3},   {-3.f, TD_Q_U4, T, TD_Q_WRAP, 13},
    /* large, tiny, special */
    {2147483648.f, TD_Q_I8, E, TD_Q_SAT, 127}, {2147483648.f, TD_Q_I8, E, TD_Q_WRAP, 0}, {-3e38f, TD_Q_I8, T, TD_Q_SAT, -128},
    {1e-45f, TD_Q_I8, A, TD_Q_SAT, 0},   {-1e-45f, TD_Q_I8, A, TD_Q_SAT, 0},   {INFINITY, TD_Q_I8, E, TD_Q_SAT, 127},
    {-INFINITY, TD_Q_U8, E, TD_Q_SAT, 0}, {-INFINITY, TD_Q_I4, E, TD_Q_SAT, -8}, {INFINITY, TD_Q_I8, E, TD_Q_WRAP, 0},
    {NAN, TD_Q_I8, A, TD_Q_SAT, 0},      {-NAN, TD_Q_U4, T, TD_Q_WRAP, 0},
};
#undef E
#undef A
#undef T

static void test_cases(void **st) {
    (void)st;
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const qcase *c = &cases[i];
        int got = td_q_decode(c->f, td_q_encode_f32(c->x, c->f, c->r, c->o));
        int ref = td_q_decode(c->f, iq_ref(c->x, c->f, c->r, c->o));
        if ((got != c->want || ref != c->want) && bad++ < 10)
            print_error("case %zu: %a fmt %d rnd %d ovf %d: got %d, reference %d, want %d\n", i, (double)c->x, c->f,
                        c->r, c->o, got, ref, c->want);
    }
    assert_int_equal(bad, 0);
}

/* the sample: every 65537th binary32 pattern (all exponents, both signs) and every
 * multiple of 1/8 in [-300, 300] with its two neighbours (the ties and bounds) */
static int sample(uint64_t i, float *x) {
    if (i < 65537) {
        *x = tu_f32((uint32_t)(i * 65537u * 977u));
        return 1;
    }
    i -= 65537;
    if (i >= 3 * 4801)
        return 0;
    float v = (float)((double)((int64_t)(i / 3) - 2400) / 8.0);
    *x = i % 3 == 0 ? v : i % 3 == 1 ? nextafterf(v, INFINITY) : nextafterf(v, -INFINITY);
    return 1;
}

static void test_against_profiles_and_libm(void **st) {
    (void)st;
    long bad = 0, n = 0;
    float x;
    for (uint64_t i = 0; sample(i, &x); i++)
        for (int f = 0; f < TD_QFMT_COUNT; f++)
            for (int r = 0; r < TD_QRND_COUNT; r++)
                for (int o = 0; o < TD_QOVF_COUNT; o++) {
                    uint8_t got = td_q_encode_f32(x, (td_qfmt)f, (td_qrnd)r, (td_qovf)o);
                    uint8_t want = iq_ref(x, (td_qfmt)f, (td_qrnd)r, (td_qovf)o);
                    bool eight = f == TD_Q_I8 || f == TD_Q_U8;
                    if (eight && r != TD_Q_HALF_AWAY) { /* the td_encode_f32 profile of the same cast */
                        td_profile p = {f == TD_Q_I8 ? TD_I8 : TD_U8, r == TD_Q_TRUNC ? TD_RTZ : TD_RNE,
                                        o == TD_Q_SAT ? TD_OVF_SAT : TD_OVF_WRAP, false};
                        if ((uint8_t)td_encode_f32(p, x) != got && bad++ < 10)
                            print_error("%a fmt %d rnd %d ovf %d: 0x%x, profile 0x%x\n", (double)x, f, r, o, got,
                                        (unsigned)td_encode_f32(p, x));
                    }
                    if (got != want && bad++ < 10)
                        print_error("%a fmt %d rnd %d ovf %d: 0x%x, libm reference 0x%x\n", (double)x, f, r, o, got,
                                    want);
                    n++;
                }
    print_message("%ld casts compared\n", n);
    assert_int_equal(bad, 0);
}

/* td_q_encode_f32_array (the exhaustive sweep's entry point) gives the scalar cast's
 * bits element by element: the sample and the hand cases, at several start offsets and
 * lengths (a vectorised body and its scalar tail, misaligned starts), and writes nothing
 * past n. */
static void test_array_agrees_with_scalar(void **st) {
    (void)st;
    size_t nc = sizeof cases / sizeof cases[0], cap = 65537 + 3 * 4801 + nc;
    float *x = malloc(cap * sizeof *x);
    uint8_t *out = malloc(cap + 1);
    assert_non_null(x);
    assert_non_null(out);
    size_t n = 0;
    for (uint64_t i = 0; sample(i, &x[n]); i++)
        n++;
    for (size_t i = 0; i < nc; i++)
        x[n++] = cases[i].x;
    static const size_t off[] = {0, 1, 3, 7}, cut[] = {0, 1, 5, 16};
    long bad = 0;
    for (int f = 0; f < TD_QFMT_COUNT; f++)
        for (int r = 0; r < TD_QRND_COUNT; r++)
            for (int o = 0; o < TD_QOVF_COUNT; o++)
                for (size_t k = 0; k < 4; k++) {
                    size_t m = n - off[k] - cut[k];
                    memset(out, 0xa5, cap + 1);
                    td_q_encode_f32_array((td_qfmt)f, (td_qrnd)r, (td_qovf)o, x + off[k], out, m);
                    for (size_t i = 0; i < m; i++) {
                        uint8_t want = td_q_encode_f32(x[off[k] + i], (td_qfmt)f, (td_qrnd)r, (td_qovf)o);
                        if (out[i] != want && bad++ < 10)
                            print_error("%a fmt %d rnd %d ovf %d: array 0x%x, scalar 0x%x\n", (double)x[off[k] + i],
                                        f, r, o, out[i], want);
                    }
                    if (out[m] != 0xa5 && bad++ < 10)
                        print_error("fmt %d rnd %d ovf %d: wrote past n = %zu\n", f, r, o, m);
                }
    free(x);
    free(out);
    assert_int_equal(bad, 0);
}

static void test_pack_unpack(void **st) {
    (void)st;
    for (int b = 0; b < 256; b++) {
        uint8_t lo = (uint8_t)(b & 15), hi = (uint8_t)(b >> 4);
        int slo = lo >= 8 ? lo - 16 : lo, shi = (int8_t)b >> 4; /* arithmetic shift: the high nibble's sign */
        /* LO_FIRST: element 0 low nibble, element 1 high nibble */
        assert_int_equal(td_int4_nibble((uint8_t)b, 0, TD_NIB_LO_FIRST), lo);
        assert_int_equal(td_int4_nibble((uint8_t)b, 1, TD_NIB_LO_FIRST), hi);
        assert_int_equal(td_int4_nibble((uint8_t)b, 0, TD_NIB_HI_FIRST), hi);
        assert_int_equal(td_int4_nibble((uint8_t)b, 1, TD_NIB_HI_FIRST), lo);
        assert_int_equal(td_int4_unpack((uint8_t)b, 0, TD_NIB_LO_FIRST, true), slo);
        assert_int_equal(td_int4_unpack((uint8_t)b, 1, TD_NIB_LO_FIRST, true), shi);
        assert_int_equal(td_int4_unpack((uint8_t)b, 0, TD_NIB_HI_FIRST, true), shi);
        assert_int_equal(td_int4_unpack((uint8_t)b, 1, TD_NIB_HI_FIRST, false), lo);
        assert_int_equal(td_int4_unpack((uint8_t)b, 0, TD_NIB_HI_FIRST, false), hi);
        assert_int_equal(td_int4_pack(lo, hi, TD_NIB_LO_FIRST), b);
        assert_int_equal(td_int4_pack(hi, lo, TD_NIB_HI_FIRST), b);
        /* upper bits of the elements are ignored: a signed -1 (0xff) packs as 0xf */
        assert_int_equal(td_int4_pack((uint8_t)(lo | 0xf0), (uint8_t)(hi | 0xf0), TD_NIB_LO_FIRST), b);
    }
    /* the high nibble of 0x8f is -8 signed, 8 unsigned; the low one -1 and 15 */
    assert_int_equal(td_int4_unpack(0x8f, 1, TD_NIB_LO_FIRST, true), -8);
    assert_int_equal(td_int4_unpack(0x8f, 1, TD_NIB_LO_FIRST, false), 8);
    assert_int_equal(td_int4_unpack(0x8f, 0, TD_NIB_LO_FIRST, true), -1);
    assert_int_equal(td_q_min(TD_Q_I4), -8);
    assert_int_equal(td_q_max(TD_Q_U4), 15);
    assert_int_equal(td_q_decode(TD_Q_I8, 0x80), -128);
    assert_int_equal(td_q_decode(TD_Q_U8, 0x80), 128);
    assert_int_equal(td_q_decode(TD_Q_I4, 0xf8), -8); /* upper bits ignored */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_against_profiles_and_libm),
        cmocka_unit_test(test_array_agrees_with_scalar),
        cmocka_unit_test(test_pack_unpack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
