/* The error-bound engine against the truth.
 *
 * Unit tests pin each rule on values whose exact errors are known; a property test
 * builds random expressions, evaluates each three ways (the shadow, MPFR, and the
 * kernel's own binary32 arithmetic with the host libm) and checks the two claims the
 * oracle rests on: |shadow value - exact| <= es, and |binary32 result - exact| <= ek
 * (the worst-case bound).  A rule that under-estimates fails here before it can let a
 * wrong lane through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "consts.h"
#include "mp.h"
#include "producer.h"
#include "shadow.h"

static td_profile f32p = {TD_F32, TD_RNE, TD_OVF_INF, false};

static void init_sh(td_shcx *s, const td_profile *casts, int ncasts) {
    memset(s, 0, sizeof *s);
    s->efmt = TD_F32;
    s->u = 0x1p-24;
    s->eta = 0x1p-150;
    s->ulp_min = 0x1p-149;
    s->ovf = 0x1.ffffffp127;
    s->lambda_n = 64;
    s->math = td_math_model_get("libm");
    s->casts = casts;
    s->ncasts = ncasts;
}

static void test_exact_sharpening(void **st) {
    (void)st;
    td_shcx s;
    init_sh(&s, &f32p, 1);
    /* 1 + 2^-30 rounds to 1 in binary32: the kernel's error is exactly 2^-30 */
    td_sh r = td_sh_add(&s, td_sh_exact(&s, 1.0), td_sh_exact(&s, 0x1p-30));
    assert_true(r.es == 0);
    assert_true(r.ek == 0x1p-30);
    assert_true(r.fl & TD_SH_CR);
    /* an exact binary32 sum costs nothing and stays exact */
    r = td_sh_add(&s, td_sh_exact(&s, 1.5), td_sh_exact(&s, 2.25));
    assert_true(r.ek == 0 && (r.fl & TD_SH_EXACTK));
    /* doubling is exact */
    r = td_sh_mul(&s, td_sh_exact(&s, 2.0), td_sh_exact(&s, 0x1.234568p-3));
    assert_true(r.ek == 0);
    /* a cast of a correctly rounded value by the same rounding costs nothing */
    r = td_sh_cast_to(&s, td_sh_add(&s, td_sh_exact(&s, 1.0), td_sh_exact(&s, 0x1p-30)), f32p, "store");
    assert_true(r.ek == 0);
    assert_true(r.v == 1.0);
}

static void test_cast_interval(void **st) {
    (void)st;
    td_shcx s;
    td_profile h = {TD_F16, TD_RNE, TD_OVF_INF, false};
    init_sh(&s, &h, 1);
    /* kernel value 1 +- 2^-20: inside one fp16 rounding interval around 1 -> exact */
    td_sh a = {1.0, 0, 0x1p-20, 0x1p-20, 0, 0};
    td_sh r = td_sh_cast_to(&s, a, h, "store");
    assert_true(r.v == 1.0 && r.ek == 0);
    /* straddles the tie 1 + 2^-11 between 1 and 1 + 2^-10: one fp16 ulp */
    a.v = 1.0 + 0x1p-11;
    a.v += 0x1p-30; /* exact value just above the tie: reference rounds up */
    r = td_sh_cast_to(&s, a, h, "store");
    assert_true(r.v == 1.0 + 0x1p-10);
    assert_true(r.ek == 0x1p-10);
    /* fp16 overflow under the saturating profile never reaches inf */
    td_profile hs = {TD_F16, TD_RNE, TD_OVF_SAT, false};
    td_sh big = {1e30, 0, 1e20, 1e20, 0, 0};
    r = td_sh_cast_to(&s, big, hs, "store");
    assert_true(r.v == 65504.0 && r.ek == 0);
}

static void test_sums_and_lambda(void **st) {
    (void)st;
    assert_int_equal(td_sum_neff(TD_ORDER_ANY, 100, 0), 99);
    assert_int_equal(td_sum_neff(TD_ORDER_TREE, 100, 0), 7);
    assert_int_equal(td_sum_neff(TD_ORDER_TREE, 128, 0), 7);
    assert_int_equal(td_sum_neff(TD_ORDER_BLOCKED, 100, 32), 31 + 4);
    assert_int_equal(td_sum_neff(TD_ORDER_ANY, 1, 0), 0);
    double u = 0x1p-24;
    assert_true(td_gamma(10, u) >= 10 * u / (1 - 10 * u));
    /* lambda: 2 n nsums 1e9 exp(-lambda^2 (1-u)^2 / 2) <= 1 */
    double lam = td_lambda(1024, 64);
    assert_true(2.0 * 1024 * 64 * 1e9 * exp(-lam * lam * (1 - u) * (1 - u) / 2) <= 1.0);
    assert_true(lam > 8.0 && lam < 8.1);
    assert_true(td_gamma_prob(10000, u, 8) < td_gamma(10000, u));
}

static void test_consts(void **st) {
    (void)st;
    mpfr_t x;
    mpfr_init2(x, 53);
    for (int c = 0; c < TD_C_COUNT; c++) {
        td_const_mpfr((td_const)c, x);
        assert_true(mpfr_get_d(x, MPFR_RNDN) == td_const_f64((td_const)c));
    }
    mpfr_clear(x);
}

/* ---- random expressions, evaluated three ways ---- */
enum op { LEAF, ADD, SUB, MUL, DIV, FMA, SQRT, RSQRT, EXP, EXP2, LOG, LOG2, SIN, COS, TANH, ERF, SIGMOID, MAX, MIN,
          ABS, NEG, SIGN, CASTH, CASTB, CAST8, SUM, NOPS };
typedef struct node {
    enum op op;
    int a, b, c;
    float leaf;
    int order;
} node;

#define MAXN 24
typedef struct expr {
    node n[MAXN];
    int cnt;
    float sumv[16];
    int nsum;
} expr;

static const td_profile castp[3] = {{TD_F16, TD_RNE, TD_OVF_INF, false},
                                    {TD_BF16, TD_RNE, TD_OVF_INF, false},
                                    {TD_E4M3FN, TD_RNE, TD_OVF_SAT, false}};

static float kernel_eval(const expr *e, int i) {
    const node *n = &e->n[i];
    float a = n->a >= 0 ? kernel_eval(e, n->a) : 0, b = n->b >= 0 ? kernel_eval(e, n->b) : 0;
    switch (n->op) {
    case LEAF: return n->leaf;
    case ADD: return a + b;
    case SUB: return a - b;
    case MUL: return a * b;
    case DIV: return a / b;
    case FMA: return fmaf(a, b, kernel_eval(e, n->c));
    case SQRT: return sqrtf(a);
    case RSQRT: return 1.0f / sqrtf(a);
    case EXP: return expf(a);
    case EXP2: return exp2f(a);
    case LOG: return logf(a);
    case LOG2: return log2f(a);
    case SIN: return sinf(a);
    case COS: return cosf(a);
    case TANH: return tanhf(a);
    case ERF: return erff(a);
    case SIGMOID: return 1.0f / (1.0f + expf(-a));
    case MAX: return a > b ? a : b;
    case MIN: return a < b ? a : b;
    case ABS: return fabsf(a);
    case NEG: return -a;
    case SIGN: return (float)((a > 0) - (a < 0));
    case CASTH: case CASTB: case CAST8: {
        td_profile p = castp[n->op - CASTH];
        return (float)td_decode(p.fmt, td_encode_f32(p, a));
    }
    case SUM: {
        float s = 0;
        if (n->order == TD_ORDER_SEQ) {
            for (int k = 0; k < e->nsum; k++) s += e->sumv[k];
        } else { /* reverse order: "any order" */
            for (int k = e->nsum - 1; k >= 0; k--) s += e->sumv[k];
        }
        return s + a * 0.0f;
    }
    default: return NAN;
    }
}

static td_sh sh_eval(td_shcx *s, const expr *e, int i) {
    const node *n = &e->n[i];
    td_sh a = n->a >= 0 ? sh_eval(s, e, n->a) : td_sh_exact(s, 0), b = n->b >= 0 ? sh_eval(s, e, n->b) : a;
    switch (n->op) {
    case LEAF: return td_sh_exact(s, n->leaf);
    case ADD: return td_sh_add(s, a, b);
    case SUB: return td_sh_sub(s, a, b);
    case MUL: return td_sh_mul(s, a, b);
    case DIV: return td_sh_div(s, a, b);
    case FMA: return td_sh_fma(s, a, b, sh_eval(s, e, n->c));
    case SQRT: return td_sh_sqrt(s, a);
    case RSQRT: return td_sh_rsqrt(s, a);
    case EXP: return td_sh_exp(s, a);
    case EXP2: return td_sh_exp2(s, a);
    case LOG: return td_sh_log(s, a);
    case LOG2: return td_sh_log2(s, a);
    case SIN: return td_sh_sin(s, a);
    case COS: return td_sh_cos(s, a);
    case TANH: return td_sh_tanh(s, a);
    case ERF: return td_sh_erf(s, a);
    case SIGMOID: return td_sh_sigmoid(s, a);
    case MAX: return td_sh_max(s, a, b);
    case MIN: return td_sh_min(s, a, b);
    case ABS: return td_sh_abs(s, a);
    case NEG: return td_sh_neg(s, a);
    case SIGN: return td_sh_sign(s, a);
    case CASTH: case CASTB: case CAST8: return td_sh_cast_to(s, a, castp[n->op - CASTH], "cast");
    case SUM: {
        td_sh_acc acc;
        td_sh_acc_init(s, &acc, (td_order)n->order, 0);
        for (int k = 0; k < e->nsum; k++) td_sh_acc_add(s, &acc, td_sh_exact(s, e->sumv[k]));
        td_sh r = td_sh_acc_end(s, &acc);
        return td_sh_add(s, r, td_sh_mul(s, a, td_sh_exact(s, 0.0)));
    }
    default: return a;
    }
}

static td_mp mp_eval(td_mpcx *m, const expr *e, int i) {
    const node *n = &e->n[i];
    td_mp a = n->a >= 0 ? mp_eval(m, e, n->a) : td_mp_exact(m, 0), b = n->b >= 0 ? mp_eval(m, e, n->b) : a;
    switch (n->op) {
    case LEAF: return td_mp_exact(m, n->leaf);
    case ADD: return td_mp_add(m, a, b);
    case SUB: return td_mp_sub(m, a, b);
    case MUL: return td_mp_mul(m, a, b);
    case DIV: return td_mp_div(m, a, b);
    case FMA: return td_mp_fma(m, a, b, mp_eval(m, e, n->c));
    case SQRT: return td_mp_sqrt(m, a);
    case RSQRT: return td_mp_rsqrt(m, a);
    case EXP: return td_mp_exp(m, a);
    case EXP2: return td_mp_exp2(m, a);
    case LOG: return td_mp_log(m, a);
    case LOG2: return td_mp_log2(m, a);
    case SIN: return td_mp_sin(m, a);
    case COS: return td_mp_cos(m, a);
    case TANH: return td_mp_tanh(m, a);
    case ERF: return td_mp_erf(m, a);
    case SIGMOID: return td_mp_sigmoid(m, a);
    case MAX: return td_mp_max(m, a, b);
    case MIN: return td_mp_min(m, a, b);
    case ABS: return td_mp_abs(m, a);
    case NEG: return td_mp_neg(m, a);
    case SIGN: return td_mp_sign(m, a);
    case CASTH: case CASTB: case CAST8: return td_mp_cast_to(m, a, castp[n->op - CASTH], "cast");
    case SUM: {
        td_mp_acc acc;
        td_mp_acc_init(m, &acc, (td_order)n->order, 0);
        for (int k = 0; k < e->nsum; k++) td_mp_acc_add(m, &acc, td_mp_exact(m, e->sumv[k]));
        return td_mp_acc_end(m, &acc); /* a * 0 adds exactly nothing */
    }
    default: return a;
    }
}

static float rand_leaf(td_rng *r) {
    switch (td_rng_below(r, 4)) {
    case 0: return (float)(4 * td_rng_unit(r) - 2);
    case 1: return (float)ldexp(td_rng_unit(r) + 0.5, (int)td_rng_below(r, 40) - 20) * ((td_rng_next(r) & 1) ? 1 : -1);
    case 2: return (float)(int)td_rng_below(r, 9) - 4;
    default: return (float)(td_rng_unit(r) * 20 - 10);
    }
}

static int build(expr *e, td_rng *r, int depth) {
    if (e->cnt >= MAXN - 3) depth = 0;
    int i = e->cnt++;
    node *n = &e->n[i];
    n->a = n->b = n->c = -1;
    if (depth == 0 || td_rng_below(r, 4) == 0) {
        n->op = LEAF;
        n->leaf = rand_leaf(r);
        return i;
    }
    n->op = (enum op)(1 + td_rng_below(r, NOPS - 1));
    n->a = build(e, r, depth - 1);
    if (n->op == ADD || n->op == SUB || n->op == MUL || n->op == DIV || n->op == FMA || n->op == MAX || n->op == MIN)
        n->b = build(e, r, depth - 1);
    if (n->op == FMA) n->c = build(e, r, depth - 1);
    if (n->op == SUM) {
        e->nsum = 1 + (int)td_rng_below(r, 16);
        for (int k = 0; k < e->nsum; k++) e->sumv[k] = rand_leaf(r);
        n->order = td_rng_below(r, 2) ? TD_ORDER_SEQ : TD_ORDER_ANY;
    }
    return i;
}

/* On a violation: the first node (in evaluation order) whose own claim fails. */
static void diagnose(td_shcx *s, td_mpcx *m, const expr *e) {
    static const char *names[NOPS] = {"leaf", "add", "sub", "mul", "div", "fma", "sqrt", "rsqrt", "exp", "exp2",
                                      "log", "log2", "sin", "cos", "tanh", "erf", "sigmoid", "max", "min", "abs",
                                      "neg", "sign", "cast16", "castb16", "cast8", "sum"};
    for (int i = e->cnt - 1; i >= 0; i--) {
        td_sh sh = sh_eval(s, e, i);
        td_mpcx_reset(m);
        td_mp x = mp_eval(m, e, i);
        float k = kernel_eval(e, i);
        double xd = mpfr_get_d(x->x, MPFR_RNDN);
        const node *n = &e->n[i];
        fprintf(stderr, "  node %d %s(a=%d b=%d c=%d leaf=%a): v=%a es=%a ek=%a exact~%a kernel=%a%s%s\n", i,
                names[n->op], n->a, n->b, n->c, (double)n->leaf, sh.v, sh.es, sh.ek, xd, (double)k,
                fabs(xd - sh.v) > sh.es ? "  <-- es violated" : "", fabs(xd - k) > sh.ek ? "  <-- ek violated" : "");
    }
}

static void test_random_expressions(void **st) {
    (void)st;
    td_shcx s;
    init_sh(&s, &f32p, 1);
    td_mpcx m;
    td_mpcx_init(&m, 640);
    td_rng r;
    td_rng_seed(&r, 20261130);
    long checked = 0, skipped = 0, tight = 0;
    for (int it = 0; it < 200000; it++) {
        expr e;
        memset(&e, 0, sizeof e);
        int root = build(&e, &r, 1 + (int)td_rng_below(&r, 4));
        s.lane_flags = 0;
        td_sh sh = sh_eval(&s, &e, root);
        float k = kernel_eval(&e, root);
        if ((s.lane_flags & (TD_LF_DOMAIN | TD_LF_UNBOUNDED | TD_LF_MAYOVF)) || !isfinite(sh.v) || !isfinite(sh.ek) ||
            !isfinite(k)) {
            skipped++;
            continue;
        }
        td_mpcx_reset(&m);
        td_mp x = mp_eval(&m, &e, root);
        if (!mpfr_number_p(x->x)) {
            skipped++;
            continue;
        }
        mpfr_t d;
        mpfr_init2(d, 700);
        /* shadow claim */
        mpfr_sub_d(d, x->x, sh.v, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        if (mpfr_cmp_d(d, sh.es) > 0) {
            fprintf(stderr, "shadow error bound violated at iteration %d (root op %d): v=%a es=%a\n", it,
                    e.n[root].op, sh.v, sh.es);
            diagnose(&s, &m, &e);
            fail();
        }
        /* kernel claim */
        mpfr_sub_d(d, x->x, (double)k, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        if (mpfr_cmp_d(d, sh.ek) > 0) {
            fprintf(stderr, "kernel error bound violated at iteration %d (root op %d): kernel=%a exact~%a ek=%a\n", it,
                    e.n[root].op, (double)k, mpfr_get_d(x->x, MPFR_RNDN), sh.ek);
            diagnose(&s, &m, &e);
            fail();
        }
        if (sh.ek > 0 && mpfr_get_d(d, MPFR_RNDN) > 0.25 * sh.ek) tight++;
        mpfr_clear(d);
        checked++;
    }
    td_mpcx_free(&m);
    fprintf(stderr, "random expressions: %ld checked, %ld skipped (domain/overflow), %ld with error > ek/4\n", checked,
            skipped, tight);
    assert_true(checked > 100000); /* the property test really ran */
    assert_true(tight > 1000);     /* and the bounds are not vacuous */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_sharpening), cmocka_unit_test(test_cast_interval),
        cmocka_unit_test(test_sums_and_lambda), cmocka_unit_test(test_consts),
        cmocka_unit_test(test_random_expressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
