/* The spec's inline loads (contracts/spec.h td_spec_load) read binary32, binary16,
 * bfloat16 and the integer formats without td_get (issue 20: td_get was a third of an
 * attention oracle); each must give td_get's value, bit for bit, for every bit pattern
 * of the 16-bit formats and a sweep of binary32 (NaNs and infinities, which fall back to
 * td_get, included), and td_get (which reads those formats without the format table)
 * must give td_decode's value of the element's bits.  A wrong exponent bias or a lost
 * sign fails here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "spec.h"

static void same_double(double a, double b) {
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    assert_true(x == y || (isnan(a) && isnan(b)));
}

static void loads_of(td_fmt f, size_t n, void (*fill)(uint8_t *, size_t)) {
    td_case c;
    memset(&c, 0, sizeof c);
    c.r[0].fmt = f;
    fill(td_case_alloc(&c, 0, n), n);
    unsigned eb = td_fmt_get(f)->bytes;
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = 0; /* little-endian, as the regions hold them */
        memcpy(&bits, (const uint8_t *)c.r[0].data + i * eb, eb);
        same_double(td_get(&c, 0, i), td_decode(f, bits)); /* td_get's own fast paths */
        same_double(td_spec_load(&c, 0, i), td_get(&c, 0, i));
    }
    td_case_free(&c);
}

static void every_u16(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint16_t h = (uint16_t)i;
        memcpy(p + 2 * i, &h, sizeof h);
    }
}

static void spread_u32(uint8_t *p, size_t n) { /* every exponent and sign, varied significands */
    for (size_t i = 0; i < n; i++) {
        uint32_t b = (uint32_t)(i * 0x9e3779b1u) ^ (uint32_t)(i << 23);
        memcpy(p + 4 * i, &b, sizeof b);
    }
}

static void f16_every_pattern(void **st) {
    (void)st;
    loads_of(TD_F16, 65536, every_u16);
}

static void bf16_every_pattern(void **st) {
    (void)st;
    loads_of(TD_BF16, 65536, every_u16);
}

static void f32_and_i32_sweep(void **st) {
    (void)st;
    loads_of(TD_F32, 1 << 20, spread_u32);
    loads_of(TD_I32, 1 << 16, spread_u32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(f16_every_pattern),
        cmocka_unit_test(bf16_every_pattern),
        cmocka_unit_test(f32_and_i32_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
