/* The dense per-case memo (oracle/sh_dense.h) against the hashed memo it stands in
 * for (td_sh_memo_get / put, the value and, as lrec.h keeps them, two auxiliary
 * doubles under a second key): random cases of random lanes of random gets and puts,
 * with lane flags raised between them, traced lanes, cases cleared, indices out of
 * range and cases too large for the table.  Every get must agree on hit or miss, the value bit for bit, the
 * auxiliary doubles and the lane flags it leaves.  A dense memo that hands out an
 * earlier case's entry, stores the wrong flags or serves a traced lane fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sh_dense.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void init_cx(td_shcx *s) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32, s->u = 0x1p-24, s->eta = 0x1p-150, s->ulp_min = 0x1p-149, s->ovf = 0x1.ffffffp127;
}

/* the reference: the hashed memo, the auxiliary doubles as lrec.h kept them */
static int ref_get(td_shcx *cx, uint64_t key, td_sh *out, double aux[2]) {
    td_sh a, b;
    if (!td_sh_memo_get(cx, key, out) || !td_sh_memo_get(cx, key ^ (1ull << 63), &a) ||
        !td_sh_memo_get(cx, key ^ (1ull << 62), &b))
        return 0;
    aux[0] = a.v, aux[1] = b.v;
    return 1;
}
static void ref_put(td_shcx *cx, uint64_t key, td_sh v, const double aux[2]) {
    td_sh_memo_put(cx, key, v);
    td_sh_memo_put(cx, key ^ (1ull << 63), td_sh_exact(cx, aux[0]));
    td_sh_memo_put(cx, key ^ (1ull << 62), td_sh_exact(cx, aux[1]));
}

static td_sh random_sh(void) {
    td_sh r = {(double)(int64_t)next() * 0x1p-40, (double)(next() >> 11) * 0x1p-70, (double)(next() >> 11) * 0x1p-60,
               0, (uint32_t)(next() & 7), (uint32_t)(next() & 3)};
    r.ep = r.ek / 2;
    return r;
}

static void same(td_sh x, td_sh y, int step) {
    if (memcmp(&x.v, &y.v, 8) || memcmp(&x.es, &y.es, 8) || memcmp(&x.ek, &y.ek, 8) || memcmp(&x.ep, &y.ep, 8))
        fail_msg("step %d: values differ", step);
    assert_int_equal(x.fl, y.fl);
    assert_int_equal(x.leaves, y.leaves);
}

/* one case of `lanes` lanes over n indices (keys tag 5); big: n beyond the table */
static void run_case(td_shcx *ref, td_shcx *den, size_t n, int lanes, int *step) {
    td_shcx_memo_clear(ref);
    td_shcx_memo_clear(den);
    td_trace tr = {0};
    for (int l = 0; l < lanes; l++) {
        int traced = next() % 8 == 0;
        ref->trace = den->trace = traced ? &tr : NULL;
        ref->lane_flags = den->lane_flags = (uint32_t)(next() % 4 == 0 ? next() & 31 : 0);
        td_sh_dense_begin(den, n);
        for (int op = 0; op < 12; op++, (*step)++) {
            size_t i = (size_t)(next() % (n < 64 ? n : 64)) * (n / 64 + 1) % n;
            if (next() % 16 == 0) i = n + (size_t)(next() % 5); /* out of range: the hashed memo */
            uint64_t key = (5ull << 56) | i;
            if (next() % 3 == 0) { /* a step raises a lane flag */
                uint32_t f = 1u << (next() % 5);
                ref->lane_flags |= f, den->lane_flags |= f;
            }
            if (next() % 2) {
                td_sh a = {0}, b = {0};
                double xa[2] = {0, 0}, xb[2] = {0, 0};
                int ha = ref_get(ref, key, &a, xa), hb = td_sh_dense_get(den, key, i, &b, xb);
                assert_int_equal(ha, hb);
                if (ha) {
                    same(a, b, *step);
                    assert_memory_equal(xa, xb, sizeof xa);
                }
            } else {
                td_sh v = random_sh();
                double x[2] = {(double)(next() >> 20), (double)(next() >> 30)};
                ref_put(ref, key, v, x);
                td_sh_dense_put(den, key, i, v, x);
            }
            assert_int_equal(ref->lane_flags, den->lane_flags);
        }
    }
    ref->trace = den->trace = NULL;
    free(tr.steps);
}

static void test_dense_as_hashed(void **state) {
    (void)state;
    td_shcx ref, den;
    init_cx(&ref);
    init_cx(&den);
    int step = 0;
    for (int c = 0; c < 400; c++) {
        size_t n = c % 50 == 49 ? (size_t)TD_SH_DENSE_MAX + 1 + c : 1 + next() % 3000;
        run_case(&ref, &den, n, 1 + (int)(next() % 40), &step);
    }
    td_shcx_memo_free(&ref);
    td_shcx_memo_free(&den);
    td_sh_dense_free();
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_dense_as_hashed)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
