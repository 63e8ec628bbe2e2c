/* The statistics of release comparisons (engine/accuracy.c): the paired Wilcoxon
 * signed-rank test against distributions counted by hand, its normal approximation,
 * ties and zero differences, the effect size, and the err/tol quantile sketch.  The
 * regression rule is "p < alpha and growth >= min_growth": each half has a case here
 * that fails when it is dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "accuracy.h"

static void pairs_from_d(const double *d, size_t n, double *old, double *nw) {
    for (size_t i = 0; i < n; i++) {
        old[i] = 10;
        nw[i] = 10 + d[i];
    }
}

/* d = {1, 2, -3, 4, 5}: W+ = 12; of the 32 sign patterns of ranks 1..5, sums 12..15
 * occur 2 + 1 + 1 + 1 times: p = 5/32 */
static void test_exact_by_hand(void **state) {
    (void)state;
    double d[] = {1, 2, -3, 4, 5}, o[5], n[5];
    pairs_from_d(d, 5, o, n);
    td_paired p;
    assert_int_equal(td_paired_test(o, n, 5, 1e-3, 1.25, &p), 0);
    assert_int_equal(p.used, 5);
    assert_int_equal(p.worse, 4);
    assert_int_equal(p.better, 1);
    assert_true(p.exact);
    assert_true(p.w_plus == 12);
    assert_true(fabs(p.p - 5.0 / 32) < 1e-15);
    assert_false(p.regression);
}

/* d = {1, 1, -1, 2}: ranks 2, 2, 2, 4 (a tie of three), W+ = 8; of 16 patterns, the
 * sums >= 8 are {2,2,4} three ways and {2,2,2,4}: p = 4/16.  Zero differences are
 * dropped (the Wilcoxon convention), and non-finite scores too. */
static void test_ties_and_zeros(void **state) {
    (void)state;
    double d[] = {1, 0, 1, -1, 2, 0}, o[7], n[7];
    pairs_from_d(d, 6, o, n);
    o[6] = NAN;
    n[6] = 1;
    td_paired p;
    td_paired_test(o, n, 7, 1e-3, 1.25, &p);
    assert_int_equal(p.pairs, 7);
    assert_int_equal(p.used, 4);
    assert_true(p.w_plus == 8);
    assert_true(fabs(p.p - 0.25) < 1e-15);
}

/* Ten cases, all worse: p = 2^-10 < 1e-3, and a growth of 2: a regression.  Nine are
 * not enough at alpha = 1e-3 (p = 2^-9); a growth below the threshold is not one
 * either, however significant. */
static void test_rule(void **state) {
    (void)state;
    double o[10], n[10];
    for (int i = 0; i < 10; i++) {
        o[i] = 1 + i;
        n[i] = 2 * (1 + i);
    }
    td_paired p;
    td_paired_test(o, n, 10, 1e-3, 1.25, &p);
    assert_true(p.p == ldexp(1, -10));
    assert_true(p.growth == 2);
    assert_true(p.regression);
    td_paired_test(o, n, 9, 1e-3, 1.25, &p);
    assert_true(p.p == ldexp(1, -9));
    assert_false(p.regression);
    for (int i = 0; i < 10; i++) n[i] = 1.2 * o[i];
    td_paired_test(o, n, 10, 1e-3, 1.25, &p);
    assert_true(p.p < 1e-3);
    assert_true(fabs(p.growth - 1.2) < 1e-12);
    assert_false(p.regression);
    double o2[14], n2[14]; /* the defaults: 14 cases all worse are enough, 13 are not */
    for (int i = 0; i < 14; i++) o2[i] = 1 + i, n2[i] = 2 * (1 + i);
    td_paired_test(o2, n2, 14, TD_REGRESS_ALPHA, TD_REGRESS_MIN_GROWTH, &p);
    assert_true(p.regression);
    td_paired_test(o2, n2, 13, TD_REGRESS_ALPHA, TD_REGRESS_MIN_GROWTH, &p);
    assert_false(p.regression);
    o[0] = 0; /* OLD exact on a case where NEW is not: unbounded growth there */
    td_paired_test(o, n, 1, 1e-3, 1.25, &p);
    assert_true(isinf(p.growth));
}

/* 100 pairs with d_i = (-1)^i i: W+ = 2550 (the even i), mean 2525, variance
 * 100 * 101 * 201 / 24; with the continuity correction z = 24.5 / sqrt(84587.5),
 * p = 0.5 erfc(z / sqrt 2) = 0.46640.  All positive: p below 1e-17. */
static void test_normal_approximation(void **state) {
    (void)state;
    double d[100], o[100], n[100];
    for (int i = 1; i <= 100; i++) d[i - 1] = (i % 2 ? -1 : 1) * (double)i;
    pairs_from_d(d, 100, o, n);
    td_paired p;
    td_paired_test(o, n, 100, 1e-3, 1.25, &p);
    assert_false(p.exact);
    assert_true(p.w_plus == 2550);
    assert_true(fabs(p.p - 0.5 * erfc(24.5 / sqrt(84587.5) / sqrt(2.0))) < 1e-12);
    assert_true(fabs(p.p - 0.46640) < 1e-4);
    for (int i = 0; i < 100; i++) d[i] = fabs(d[i]);
    pairs_from_d(d, 100, o, n);
    td_paired_test(o, n, 100, 1e-3, 1.25, &p);
    assert_true(p.p < 1e-17);
}

/* The sketch: zeros exact, the maximum exact, other quantiles within 2^(1/32). */
static void test_sketch(void **state) {
    (void)state;
    static td_qsketch q;
    memset(&q, 0, sizeof q);
    assert_true(isnan(td_qs_quantile(&q, 0.5)));
    td_qs_add(&q, 0);
    for (int i = 0; i < 98; i++) td_qs_add(&q, 1e-3);
    td_qs_add(&q, 0.75);
    td_qs_add(&q, NAN); /* ignored */
    assert_int_equal(q.n, 100);
    assert_true(td_qs_quantile(&q, 0) == 0);
    assert_true(td_qs_quantile(&q, 0.01) == 0);
    double med = td_qs_quantile(&q, 0.5), p99 = td_qs_quantile(&q, 0.99);
    assert_true(fabs(med / 1e-3 - 1) < exp2(1.0 / 32) - 1);
    assert_true(fabs(p99 / 1e-3 - 1) < exp2(1.0 / 32) - 1);
    assert_true(td_qs_quantile(&q, 1) == 0.75);
    static td_qsketch r;
    memset(&r, 0, sizeof r);
    td_qs_add(&r, INFINITY);
    td_qs_merge(&q, &r);
    assert_int_equal(q.n, 101);
    assert_true(isinf(td_qs_quantile(&q, 1)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_by_hand), cmocka_unit_test(test_ties_and_zeros), cmocka_unit_test(test_rule),
        cmocka_unit_test(test_normal_approximation), cmocka_unit_test(test_sketch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
