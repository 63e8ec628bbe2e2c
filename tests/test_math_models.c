/* The admissible-implementation rules of the shadow bound (issue 12), each checked
 * against an implementation that differs from tilediff's ports the way real kernels
 * do, with the exact value from MPFR, and each with a case that fails when the rule
 * is loosened:
 *  - "any" dominates every model it claims to cover, component by component;
 *  - exp computed as ex2(RN(x * RN32(log2 e))) (compiled Triton), with the
 *    instruction's documented 2 ulp, stays inside the "any" bound, and needs the
 *    |x|-proportional term;
 *  - a/b as a * (1/b) (and div.full's 2 ulp) stays inside the bound of a kernel that
 *    has not declared div=ieee, including |b| > 2^126; the declared bound is tighter
 *    and a reciprocal-multiply breaks it;
 *  - a sum of sums evaluated as one sequential sum stays inside the bound, although
 *    the nested bound alone would not hold;
 *  - an online (one-pass, running-maximum) softmax denominator with compiled Triton's
 *    exp stays inside the rescaled bound, and not inside the two-pass one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <mpfr.h>
#include <string.h>

#include "budget.h"
#include "shadow.h"

static void init_sh(td_shcx *s, const char *math) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32;
    s->u = 0x1p-24;
    s->eta = 0x1p-150;
    s->ulp_min = 0x1p-149;
    s->ovf = 0x1.ffffffp127;
    s->lambda_n = 64;
    s->math = td_math_model_get(math);
    assert_non_null(s->math);
}

/* a deterministic stream of doubles in [0, 1) */
static double rnd(uint64_t *st) {
    *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*st >> 11) * 0x1p-53;
}

static void test_union_dominates(void **st) {
    (void)st;
    const td_math_model *any = td_math_model_get(TD_MATH_DEFAULT);
    assert_non_null(any);
    const char *covered[] = {"libm", "cuda", "triton"};
    for (size_t m = 0; m < 3; m++) {
        const td_math_model *M = td_math_model_get(covered[m]);
        assert_non_null(M);
        for (int f = 0; f < TD_FN_COUNT; f++) {
            const td_fn_budget *a = &any->fn[f], *b = &M->fn[f];
            double bu = b->correctly_rounded ? 0.5 : b->ulps;
            assert_false(a->correctly_rounded && !b->correctly_rounded);
            if (!a->correctly_rounded) assert_true(a->ulps >= bu);
            assert_true(a->ulps_per_absx >= b->ulps_per_absx);
            assert_true(a->rel >= b->rel && a->abs >= b->abs);
            assert_true(a->ftz >= b->ftz && a->trig_approx >= b->trig_approx && a->div_approx >= b->div_approx);
        }
    }
    /* the models a kernel may name are the ones the loader knows */
    const char *names[] = {"any", "libm", "cuda", "triton", "cuda-approx"};
    assert_int_equal(td_math_model_count(), 5);
    for (size_t i = 0; i < 5; i++) assert_non_null(td_math_model_get(names[i]));
}

/* |k - exp(x)| for a binary32 kernel value k, exactly (MPFR) */
static double exp_err(float k, float x) {
    mpfr_t e, d;
    mpfr_inits2(200, e, d, (mpfr_ptr)0);
    mpfr_set_flt(e, x, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_set_flt(d, k, MPFR_RNDN);
    mpfr_sub(d, d, e, MPFR_RNDN);
    double r = fabs(mpfr_get_d(d, MPFR_RNDU));
    mpfr_clears(e, d, (mpfr_ptr)0);
    return r;
}

/* compiled Triton's tl.exp: ex2.approx.f32(RN(x * RN32(log2 e))), the instruction
 * modelled as the correctly rounded exp2 moved by up to 2 ulp (PTX ISA: "2 ulp from
 * the correctly rounded result") in the direction that hurts */
static float triton_exp(float x, float dir) {
    volatile float t = x * 1.44269504f;
    float y = exp2f(t);
    for (int i = 0; i < 2; i++) y = nextafterf(y, dir > 0 ? INFINITY : 0);
    return y;
}

static void test_exp_via_exp2(void **st) {
    (void)st;
    td_shcx any, libm;
    init_sh(&any, "any");
    init_sh(&libm, "libm");
    uint64_t s = 1;
    int beyond_libm = 0;
    for (int i = 0; i < 20000; i++) {
        float x = (float)((rnd(&s) - 0.5) * 170); /* results from subnormal to 2^122 */
        for (int d = -1; d <= 1; d += 2) {
            float k = triton_exp(x, d);
            if (!isfinite(k)) continue;
            double err = exp_err(k, x);
            td_sh r = td_sh_exp(&any, td_sh_exact(&any, x));
            assert_true(err <= r.ek);
            td_sh rl = td_sh_exp(&libm, td_sh_exact(&libm, x));
            beyond_libm += err > rl.ek;
        }
    }
    /* the union is needed: a libm-only bound flags compiled Triton's exp */
    assert_true(beyond_libm > 1000);
    /* and its |x| term: without it, large |x| breaks the bound */
    td_math_model m = *td_math_model_get("any");
    m.fn[TD_FN_EXP].ulps_per_absx = 0;
    td_shcx loose = any;
    loose.math = &m;
    int broken = 0;
    s = 7;
    for (int i = 0; i < 20000; i++) {
        float x = (float)(60 + rnd(&s) * 28);
        float k = triton_exp(x, 1);
        td_sh r = td_sh_exp(&loose, td_sh_exact(&loose, x));
        broken += exp_err(k, x) > r.ek;
    }
    assert_true(broken > 0);
}

/* |k - a/b| exactly */
static double div_err(float k, float a, float b) {
    mpfr_t q, d;
    mpfr_inits2(200, q, d, (mpfr_ptr)0);
    mpfr_set_flt(q, a, MPFR_RNDN);
    mpfr_div_d(q, q, b, MPFR_RNDN);
    mpfr_set_flt(d, k, MPFR_RNDN);
    mpfr_sub(d, d, q, MPFR_RNDN);
    double r = fabs(mpfr_get_d(d, MPFR_RNDU));
    mpfr_clears(q, d, (mpfr_ptr)0);
    return r;
}

static void test_reciprocal_multiply(void **st) {
    (void)st;
    const char *models[] = {"any", "libm"};
    for (int m = 0; m < 2; m++) {
        td_shcx cx, ieee;
        init_sh(&cx, models[m]);
        init_sh(&ieee, models[m]);
        ieee.div_ieee = true;
        uint64_t s = 3 + (uint64_t)m;
        int flagged_ieee = 0;
        for (int i = 0; i < 50000; i++) {
            float a = (float)ldexp(rnd(&s) + 0.5, (int)(rnd(&s) * 60) - 30);
            /* every fourth divisor above 2^126: the reciprocal is subnormal */
            float b = i % 4 ? (float)ldexp(rnd(&s) + 0.5, (int)(rnd(&s) * 60) - 30)
                            : (float)ldexp(rnd(&s) + 1.0, 126);
            volatile float r = 1.0f / b;
            float k = a * r;
            td_sh q = td_sh_div(&cx, td_sh_exact(&cx, a), td_sh_exact(&cx, b));
            assert_true(div_err(k, a, b) <= q.ek);
            /* div.full.f32 (compiled Triton's a / b, so in "any" only): 2 ulp from the
             * correctly rounded quotient */
            float cr = a / b, kf = nextafterf(nextafterf(cr, INFINITY), INFINITY);
            if (m == 0) assert_true(div_err(kf, a, b) <= q.ek);
            td_sh qi = td_sh_div(&ieee, td_sh_exact(&ieee, a), td_sh_exact(&ieee, b));
            assert_true(div_err(cr, a, b) <= qi.ek);
            flagged_ieee += div_err(k, a, b) > qi.ek;
        }
        /* declaring div=ieee narrows the bound: a reciprocal-multiply no longer fits */
        assert_true(flagged_ieee > 1000);
    }
}

/* exact sum of binary32 values */
static double sum_err(float k, const float *x, int n) {
    mpfr_t s, d;
    mpfr_inits2(400, s, d, (mpfr_ptr)0);
    mpfr_set_ui(s, 0, MPFR_RNDN);
    for (int i = 0; i < n; i++) mpfr_add_d(s, s, x[i], MPFR_RNDN);
    mpfr_set_flt(d, k, MPFR_RNDN);
    mpfr_sub(d, d, s, MPFR_RNDN);
    double r = fabs(mpfr_get_d(d, MPFR_RNDU));
    mpfr_clears(s, d, (mpfr_ptr)0);
    return r;
}

/* The spec sums 64 tiles of 64 (a port's tile structure); a kernel adds all 4096
 * terms left to right.  The tile-then-outer bound alone is too small for it; with
 * the leaves of the inner sums counted, the outer sum's bound covers it. */
static void test_sum_of_sums(void **st) {
    (void)st;
    enum { T = 64, B = 64, N = T * B };
    static float x[N];
    td_shcx cx;
    init_sh(&cx, "any");
    uint64_t s = 11;
    int nested_only_fails = 0;
    for (int trial = 0; trial < 40; trial++) {
        /* one large term first, then many small ones of one sign: each addition of a
         * small term to the large running sum rounds */
        x[0] = 1.0f;
        for (int i = 1; i < N; i++) x[i] = (float)(ldexp(1.0 + rnd(&s), -26) * (1 + trial % 3));
        float k = 0;
        for (int i = 0; i < N; i++) k += x[i];
        td_sh_acc outer;
        td_sh_acc_init(&cx, &outer, TD_ORDER_TREE, 0);
        double nested = 0;
        for (int t = 0; t < T; t++) {
            td_sh_acc tile;
            td_sh_acc_init(&cx, &tile, TD_ORDER_TREE, 0);
            for (int j = 0; j < B; j++) td_sh_acc_add(&cx, &tile, td_sh_exact(&cx, x[t * B + j]));
            td_sh ts = td_sh_acc_end(&cx, &tile);
            nested += ts.ek;
            td_sh_acc_add(&cx, &outer, ts);
        }
        td_sh r = td_sh_acc_end(&cx, &outer);
        double err = sum_err(k, x, N);
        assert_true(err <= r.ek);
        /* what the bound would be without the leaves: the tiles' own bounds plus an
         * any-order sum of T terms */
        double no_leaves = nested + td_gamma(T - 1, cx.u) * (outer.smagk);
        nested_only_fails += err > no_leaves;
    }
    assert_true(nested_only_fails > 0);
}

/* l = sum_j e^(x_j - max x), exactly */
static double lse_sum_err(double k, const float *x, int n, float m) {
    mpfr_t s, t;
    mpfr_inits2(300, s, t, (mpfr_ptr)0);
    mpfr_set_ui(s, 0, MPFR_RNDN);
    for (int j = 0; j < n; j++) {
        mpfr_set_flt(t, x[j], MPFR_RNDN);
        mpfr_sub_d(t, t, m, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_add(s, s, t, MPFR_RNDN);
    }
    mpfr_sub_d(s, s, k, MPFR_RNDN);
    double r = fabs(mpfr_get_d(s, MPFR_RNDU));
    mpfr_clears(s, t, (mpfr_ptr)0);
    return r;
}

/* Online softmax's denominator, one element per block (the most rescales): every
 * new maximum rescales the running sum by exp(m_old - m_new), each exp compiled
 * Triton's, 2 ulp off in the direction that hurts. */
static void test_online_rescale(void **st) {
    (void)st;
    enum { N = 1024 };
    static float x[N];
    td_shcx cx;
    init_sh(&cx, "any");
    uint64_t s = 5;
    int two_pass_fails = 0;
    for (int trial = 0; trial < 20; trial++) {
        /* increasing scores: the maximum grows at every element, by tiny steps (the
         * whole sum is rescaled each time) or large ones */
        double acc = 0;
        for (int j = 0; j < N; j++) x[j] = (float)(acc += rnd(&s) * (trial % 2 ? 3e-6 : 0.3));
        float m = x[0], l = 1.0f;
        for (int j = 1; j < N; j++) {
            float mn = x[j] > m ? x[j] : m;
            l = l * triton_exp(m - mn, -1) + triton_exp(x[j] - mn, -1);
            m = mn;
        }
        td_sh_acc a;
        td_sh_acc_init(&cx, &a, TD_ORDER_ANY, 0);
        td_sh M = td_sh_exact(&cx, m), spread = td_sh_exact(&cx, 0);
        for (int j = 0; j < N; j++) {
            td_sh d = td_sh_sub(&cx, td_sh_exact(&cx, x[j]), M);
            td_sh_acc_add(&cx, &a, td_sh_exp(&cx, d));
            spread = td_sh_max(&cx, spread, td_sh_neg(&cx, d));
        }
        td_sh two = td_sh_acc_end(&cx, &a);
        td_sh online = td_sh_rescaled(&cx, two, N, spread, 0, 1.0);
        double err = lse_sum_err(l, x, N, m);
        assert_true(err <= online.ek);
        two_pass_fails += err > two.ek;
    }
    assert_true(two_pass_fails > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_union_dominates),
        cmocka_unit_test(test_exp_via_exp2),
        cmocka_unit_test(test_reciprocal_multiply),
        cmocka_unit_test(test_sum_of_sums),
        cmocka_unit_test(test_online_rescale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
