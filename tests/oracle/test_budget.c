/* The "libm" math model's budgets (oracle/budget.c) re-checked against MPFR on the
 * machine that runs the tests, so that a host libm less accurate than the one the
 * budgets were measured on (glibc 2.36) is caught instead of trusted.
 *
 *   test_budget                     (label "unit") for every function of the model:
 *       a dense sample of binary32 inputs (every 1021st bit pattern, about 4 10^6 per
 *       function), the worst inputs of bench/libm_ulp/RESULTS.md and 2^17 inputs
 *       around each of them; x / y and 1 / x (budgeted as correctly rounded) on random
 *       pairs;
 *   test_budget --exhaustive FN...  (label "sweep") all 2^32 inputs of each FN.
 *
 * The measurement is bench/libm_ulp's (tests/oracle/libm_measure.c): every input is
 * screened against the binary64 function, and every input whose screened error exceeds
 * budget - TD_LM_SCREEN (a bound on the screen's own error) is measured with MPFR and
 * must be within the budget.  The budget of function f at input x, in ulps of the exact
 * result (the unit of budget.c's table): ulps + ulps_per_absx |x| + (rel |y| + abs) /
 * ulp(y), 1/2 for a function the model says is correctly rounded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "libm_measure.h"
#include "producer.h"

static const td_math_model *libm;

static double budget_ulps(const td_fn_budget *b, double x, double y) {
    if (b->correctly_rounded) return 0.5;
    return b->ulps + b->ulps_per_absx * fabs(x) + (b->rel * fabs(y) + b->abs) / td_lm_ulp32(y);
}

static float from_bits(uint32_t bits) {
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* 0 when every input the sweep flagged is within the budget (measured with MPFR) */
static int check_flagged(const td_lm_fn *fn, const td_fn_budget *b, const td_lm_sweep *sw, const char *what) {
    int bad = 0;
    if (sw->n_over > TD_LM_MAXCAND) {
        fprintf(stderr, "%s %s: %ld inputs within %g ulp of the budget, more than can be checked\n", fn->name, what,
                sw->n_over, TD_LM_SCREEN);
        return 1;
    }
    for (long i = 0; i < sw->n_over; i++) {
        float x = from_bits(sw->over[i]);
        double e = td_lm_err_mp(fn, sw->over[i]);
        double lim = budget_ulps(b, x, fn->f64(x));
        if (!(e <= lim)) {
            fprintf(stderr, "BUDGET EXCEEDED: %s(%a) (0x%08x) = %a: %.6f ulp > budget %.6f (%s)\n", fn->name,
                    (double)x, sw->over[i], (double)fn->f32(x), e, lim, what);
            bad = 1;
        }
    }
    return bad;
}

static double measured_max(const td_lm_fn *fn, const td_lm_sweep *sw) {
    double m = 0;
    for (int i = 0; i < sw->n_near_max; i++) m = fmax(m, td_lm_err_mp(fn, sw->near_max[i]));
    return m;
}

/* one function over [lo, hi) by step on nthreads threads */
static int sweep_fn(td_fn f, uint64_t lo, uint64_t hi, uint64_t step, int nthreads, const char *what) {
    static td_lm_sweep sw;
    const td_lm_fn *fn = td_lm_find(td_fn_name(f));
    if (!fn) {
        fprintf(stderr, "%s: the model budgets a function the measurement does not know\n", td_fn_name(f));
        return 1;
    }
    const td_fn_budget *b = &libm->fn[f];
    double above = (b->correctly_rounded ? 0.5 : b->ulps) - TD_LM_SCREEN;
    td_lm_run(fn, lo, hi, step, nthreads, above, &sw);
    int bad = check_flagged(fn, b, &sw, what);
    fprintf(stderr, "  %-5s %-10s %11llu inputs, max %.6f ulp, budget %.3f%s, %ld near the budget\n", fn->name, what,
            (unsigned long long)sw.tested, measured_max(fn, &sw), b->correctly_rounded ? 0.5 : b->ulps,
            b->ulps_per_absx > 0 || b->rel > 0 || b->abs > 0 ? " + terms" : "", sw.n_over);
    return bad || sw.tested == 0;
}

static int unary(td_fn f) { return f != TD_FN_DIV && f != TD_FN_RCP; }

static void test_dense_sample(void **state) {
    (void)state;
    int bad = 0;
    for (int f = 0; f < TD_FN_COUNT; f++)
        if (unary((td_fn)f)) bad |= sweep_fn((td_fn)f, 1234, 1ull << 32, 1021, 1, "sample");
    assert_int_equal(bad, 0);
}

/* bench/libm_ulp/RESULTS.md: "exp    max 0.501637 ulp at x=-0x1.ce651ep-8 (0xbbe7328f) ..." */
static void test_worst_inputs(void **state) {
    (void)state;
    FILE *fp = fopen(TD_SOURCE_DIR "/bench/libm_ulp/RESULTS.md", "r");
    assert_non_null(fp);
    char line[512], name[16];
    unsigned bits;
    double recorded;
    int seen[TD_FN_COUNT] = {0}, bad = 0;
    while (fgets(line, sizeof line, fp)) {
        if (sscanf(line, "%15s max %lf ulp at x=%*s (0x%x)", name, &recorded, &bits) != 3) continue;
        int f = 0;
        while (f < TD_FN_COUNT && strcmp(td_fn_name((td_fn)f), name)) f++;
        assert_true(f < TD_FN_COUNT); /* RESULTS.md names a function of the model */
        seen[f] = 1;
        /* the input itself, and 2^17 inputs around it */
        uint64_t lo = bits >= 65536 ? bits - 65536 : 0, hi = (uint64_t)bits + 65536;
        bad |= sweep_fn((td_fn)f, lo, hi > (1ull << 32) ? 1ull << 32 : hi, 1, 1, "near worst");
        const td_lm_fn *fn = td_lm_find(name);
        double e = td_lm_err_mp(fn, bits);
        float x = from_bits(bits);
        if (!(e <= budget_ulps(&libm->fn[f], x, fn->f64(x)))) {
            fprintf(stderr, "BUDGET EXCEEDED at the recorded worst input: %s(%a) %.6f ulp (recorded %.6f)\n", name,
                    (double)x, e, recorded);
            bad = 1;
        }
    }
    fclose(fp);
    for (int f = 0; f < TD_FN_COUNT; f++)
        if (unary((td_fn)f) && !seen[f]) {
            fprintf(stderr, "RESULTS.md has no measurement for %s\n", td_fn_name((td_fn)f));
            bad = 1;
        }
    assert_int_equal(bad, 0);
}

/* error of the binary32 quotient x / y in ulps of the exact quotient; < 0 when not measured */
static double quotient_err(float x, float y, mpfr_t q, mpfr_t d) {
    float r = x / y;
    mpfr_set_flt(q, x, MPFR_RNDN);
    mpfr_div_d(q, q, (double)y, MPFR_RNDN); /* 128 bits */
    double qd = mpfr_get_d(q, MPFR_RNDN);
    if (!isfinite(x) || !isfinite(y) || !isfinite(qd) || fabs(qd) > 0x1.fffffep127) return -1;
    if (!isfinite(r)) return INFINITY;
    mpfr_set_flt(d, r, MPFR_RNDN);
    mpfr_sub(d, d, q, MPFR_RNDU);
    mpfr_abs(d, d, MPFR_RNDU);
    mpfr_div_d(d, d, td_lm_ulp32(qd), MPFR_RNDU);
    return mpfr_get_d(d, MPFR_RNDU);
}

/* x / y and 1 / x, which the model charges as correctly rounded (one rounding) */
static void test_division(void **state) {
    (void)state;
    mpfr_t q, d;
    mpfr_inits2(128, q, d, (mpfr_ptr)0);
    td_rng r;
    td_rng_seed(&r, 20261201);
    long tested = 0;
    double worst[2] = {0, 0};
    for (int i = 0; i < 400000; i++) {
        int rcp = i & 1;
        float x = rcp ? 1.0f : from_bits((uint32_t)td_rng_next(&r));
        float y = from_bits((uint32_t)td_rng_next(&r));
        double e = quotient_err(x, y, q, d);
        if (e < 0) continue;
        tested++;
        double lim = budget_ulps(&libm->fn[rcp ? TD_FN_RCP : TD_FN_DIV], x, (double)x / y);
        if (!(e <= lim)) fprintf(stderr, "BUDGET EXCEEDED: %a / %a: %.6f ulp > %.6f\n", (double)x, (double)y, e, lim);
        assert_true(e <= lim);
        worst[rcp] = fmax(worst[rcp], e);
    }
    fprintf(stderr, "  div/rcp: %ld pairs, max %.6f / %.6f ulp\n", tested, worst[0], worst[1]);
    assert_true(tested > 200000);
    mpfr_clears(q, d, (mpfr_ptr)0);
}

static const char **sweep_names;
static int sweep_n;

/* all 2^32 inputs of each function named on the command line */
static void test_exhaustive(void **state) {
    (void)state;
    const char *env = getenv("TD_SWEEP_THREADS");
    int threads = env ? atoi(env) : 2, bad = 0;
    for (int i = 0; i < sweep_n; i++) {
        int f = 0;
        while (f < TD_FN_COUNT && strcmp(td_fn_name((td_fn)f), sweep_names[i])) f++;
        if (f == TD_FN_COUNT || !unary((td_fn)f)) {
            fprintf(stderr, "test_budget: '%s' is not a unary function of the libm model\n", sweep_names[i]);
            bad = 1;
            continue;
        }
        bad |= sweep_fn((td_fn)f, 0, 1ull << 32, 1, threads, "exhaustive");
    }
    assert_int_equal(bad, 0);
}

int main(int argc, char **argv) {
    libm = td_math_model_get("libm");
    if (!libm) return 3;
    if (argc > 1 && !strcmp(argv[1], "--exhaustive")) {
        sweep_names = (const char **)argv + 2;
        sweep_n = argc - 2;
        if (sweep_n == 0) {
            fprintf(stderr, "usage: test_budget [--exhaustive FUNC...]\n");
            return 2;
        }
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_exhaustive)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_worst_inputs), cmocka_unit_test(test_dense_sample),
                                       cmocka_unit_test(test_division)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
