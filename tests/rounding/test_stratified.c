/* MPFR path = fast path (scalar and array) on stratified binary32 and binary64 inputs,
 * for every valid profile: at least 10^7 inputs per profile (half binary32, half
 * binary64 sources), of which:
 *  - a fixed list per target: +-0, +-inf, NaNs with payloads, and for each boundary
 *    (max finite, overflow threshold, the next power of two and the point half-way to
 *    it, min normal, largest subnormal and the tie between them, min subnormal, half
 *    and 3/2 of it) the value and its source-format neighbours, both signs; for the
 *    8- and 16-bit targets every tie (and every value) with its neighbours; for the
 *    integer targets every k + 1/2 of int8/uint8 and the bounds and powers of two;
 *  - the rest drawn in strata: uniform bit patterns, values of the target, ties of the
 *    target, both moved by a few source ulps, and patterns with exponents where the
 *    target is sensitive (subnormal and overflow ranges).
 * TD_STRATIFIED_PER_PROFILE overrides the count (the test prints it when it is reduced;
 * the full count takes about 45 CPU-seconds, 95 under ASan+UBSan, so sanitizer builds
 * run it in full too).  Two threads take profiles in turn
 * (MPFR's exponent range is thread-local when MPFR has TLS; otherwise one thread). */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test_util.h"

#define CHUNK 4096

typedef struct {
    double *v;
    size_t n, cap;
} vec;

static void push(vec *a, double x) {
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 1024;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        assert_non_null(a->v);
    }
    a->v[a->n++] = x;
}

/* x and its neighbours k steps away in the source format, both signs. */
static void push_around(vec *a, double x, bool src32, int k) {
    for (int s = 0; s < 2; s++) {
        double y = s ? -x : x;
        if (src32) {
            float f = (float)y, up = f, dn = f;
            push(a, f);
            for (int i = 0; i < k; i++) {
                up = nextafterf(up, INFINITY);
                dn = nextafterf(dn, -INFINITY);
                push(a, up);
                push(a, dn);
            }
        } else {
            double up = y, dn = y;
            push(a, y);
            for (int i = 0; i < k; i++) {
                up = nextafter(up, INFINITY);
                dn = nextafter(dn, -INFINITY);
                push(a, up);
                push(a, dn);
            }
        }
    }
}

static void boundary_list(td_fmt f, bool src32, vec *a) {
    const td_fmt_info *fi = td_fmt_get(f);
    push(a, 0.0);
    push(a, -0.0);
    push(a, INFINITY);
    push(a, -INFINITY);
    if (src32) {
        const uint32_t nans[] = {0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0x7fa00000};
        for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
            push(a, tu_f32(nans[i]));
        push_around(a, 0x1p-149, true, 2);
        push_around(a, 0x1p-126, true, 2);
        push_around(a, 0x1.fffffep127, true, 2);
    } else {
        const uint64_t nans[] = {UINT64_C(0x7ff8000000000000), UINT64_C(0xfff8000000000000),
                                 UINT64_C(0x7ff0000000000001), UINT64_C(0x7fffffffffffffff)};
        for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
            push(a, tu_f64(nans[i]));
        push_around(a, 0x1p-1074, false, 2);
        push_around(a, 0x1p-1022, false, 2);
        push_around(a, 0x1.fffffffffffffp1023, false, 2);
    }
    if (fi->is_float) {
        double M = fi->max_finite, top = ldexp(1, fi->emax), ulp_top = ldexp(1, fi->emax - fi->prec + 1);
        double p2 = 2 * top, N = fi->min_normal, s = fi->min_subnormal;
        double keys[] = {M, M + ulp_top / 2, M + ulp_top, (M + p2) / 2, p2, top, N, N - s, N - s / 2, N + s, s,
                         s / 2, 3 * s / 2, 2 * s, s / 4, 3 * s / 4};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            push_around(a, keys[i], src32, 3);
        /* every value and every tie of the small formats */
        if (fi->bits <= 16) {
            for (uint64_t b = 1; b < (UINT64_C(1) << (fi->bits - 1)); b++) {
                td_class c = td_classify(f, b);
                if (c == TD_CLS_NAN || c == TD_CLS_INF)
                    continue;
                double v = td_decode(f, b);
                push_around(a, v, src32, 1);
                push_around(a, v + td_ulp(f, v) / 2, src32, 1);
            }
        }
    } else {
        double lo = (double)fi->imin, hi = (double)fi->imax;
        double keys[] = {lo, hi, lo - 1, hi + 1, lo - 0.5, hi + 0.5, lo + 0.5, hi - 0.5, 0.5, 1, 1.5,
                         0x1p31, 0x1p32, 0x1p52, 0x1p53, 0x1p63, 0x1p64, 0x1p100, 0x1.8p31, 0x1.8p32};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            push_around(a, keys[i], src32, 3);
        if (fi->bits == 8)
            for (double k = lo - 3; k <= hi + 3; k++) {
                push_around(a, k, src32, 1);
                push_around(a, k + 0.5, src32, 1);
            }
    }
}

/* A random value of the target (or an integer in and around the integer range). */
static double target_value(td_fmt f, uint64_t *seed) {
    const td_fmt_info *fi = td_fmt_get(f);
    if (!fi->is_float) {
        double span = (double)fi->imax - (double)fi->imin + 10;
        double k = floor((double)fi->imin - 5 + (double)(tu_rand(seed) >> 11) * 0x1p-53 * span);
        return k;
    }
    int e = fi->emin - 2 + (int)(tu_rand(seed) % (uint64_t)(fi->emax - fi->emin + 4));
    double v;
    if (e < fi->emin) /* a subnormal: a multiple of the smallest one */
        v = (double)(tu_rand(seed) >> (64 - (fi->prec - 1))) * fi->min_subnormal;
    else /* a normal of binade e (or of the ones just beyond the format's range) */
        v = ldexp((double)((tu_rand(seed) >> (64 - (fi->prec - 1))) | (UINT64_C(1) << (fi->prec - 1))),
                  e - fi->prec + 1);
    return (tu_rand(seed) & 1) ? -v : v;
}

/* The tie above |v| (between it and the next value up), with v's sign. */
static double tie_of(td_fmt f, double v) {
    if (!td_fmt_get(f)->is_float)
        return v + 0.5;
    double a = fabs(v) + td_ulp(f, v) / 2;
    return v < 0 ? -a : a;
}

static double step_src(double x, bool src32, int k) {
    for (int i = 0; i < (k < 0 ? -k : k); i++)
        x = src32 ? nextafterf((float)x, k < 0 ? -INFINITY : INFINITY) : nextafter(x, k < 0 ? -INFINITY : INFINITY);
    return x;
}

static double draw(td_fmt f, bool src32, uint64_t *seed) {
    const td_fmt_info *fi = td_fmt_get(f);
    uint64_t r = tu_rand(seed);
    int k = (int)((r >> 8) % 7) - 3;
    switch (r % 6) {
    case 0: /* uniform patterns */
        return src32 ? (double)tu_f32((uint32_t)tu_rand(seed)) : tu_f64(tu_rand(seed));
    case 1: /* values of the target */
        return step_src(target_value(f, seed), src32, 0);
    case 2: /* ties of the target */
        return tie_of(f, target_value(f, seed));
    case 3: /* ties moved by a few source ulps */
        return step_src(tie_of(f, target_value(f, seed)), src32, k);
    case 4: /* values moved by a few source ulps */
        return step_src(target_value(f, seed), src32, k);
    default: { /* patterns whose exponent is where the target is sensitive */
        int lo = fi->is_float ? fi->emin - fi->prec - 3 : -3, hi = fi->is_float ? fi->emax + 3 : 66;
        int e = lo + (int)(tu_rand(seed) % (uint64_t)(hi - lo + 1));
        double m = 1 + (double)(tu_rand(seed) >> 11) * 0x1p-53;
        double v = ldexp(m, e);
        return (tu_rand(seed) & 1) ? -v : v;
    }
    }
}

typedef struct {
    td_profile p;
    long n32, n64, nlist, bad;
    double secs;
} result;

/* The inputs of one target: they depend on the target and the source only, so they are
 * drawn once and shared by the target's (up to 12) profiles. */
typedef struct {
    td_fmt fmt;
    long per_source;
    float *xf;
    double *xd;
    long nlist32, nlist64;
} inputs;

typedef struct {
    inputs *in;
    result *res; /* the profiles of in->fmt */
    int np;
    atomic_int next;
} job;

static void make_inputs(inputs *in, bool src32) {
    vec list = {0};
    boundary_list(in->fmt, src32, &list);
    uint64_t seed = (uint64_t)in->fmt * 1000003u + (src32 ? 17u : 0u);
    for (long i = 0; i < in->per_source; i++) {
        double x = (size_t)i < list.n ? list.v[i] : draw(in->fmt, src32, &seed);
        if (src32)
            in->xf[i] = (float)x;
        else
            in->xd[i] = x;
    }
    if (src32)
        in->nlist32 = (long)list.n;
    else
        in->nlist64 = (long)list.n;
    free(list.v);
}

static void *make_inputs_f64(void *arg) {
    make_inputs(arg, false);
    return NULL;
}

static void report_bad(td_profile p, bool src32, double x, uint64_t fast, uint64_t arr, uint64_t ref) {
    char s[64];
    print_error("%s, binary%d source %a: fast 0x%llx array 0x%llx MPFR 0x%llx\n", tu_pstr(p, s, sizeof s),
                src32 ? 32 : 64, x, (unsigned long long)fast, (unsigned long long)arr, (unsigned long long)ref);
}

static void run_profile(const inputs *in, result *r) {
    td_profile p = r->p;
    static _Thread_local uint64_t arr[CHUNK];
    double t0 = tu_now();
    for (long i0 = 0; i0 < in->per_source; i0 += CHUNK) {
        size_t n = (size_t)(in->per_source - i0 < CHUNK ? in->per_source - i0 : CHUNK);
        const float *xf = in->xf + i0;
        td_encode_f32_array(p, xf, arr, n);
        for (size_t i = 0; i < n; i++) {
            uint64_t fast = td_encode_f32(p, xf[i]), ref = td_ref_encode_f32(p, xf[i]);
            if ((fast != ref || arr[i] != ref) && r->bad++ < 5)
                report_bad(p, true, xf[i], fast, arr[i], ref);
        }
        const double *xd = in->xd + i0;
        td_encode_f64_array(p, xd, arr, n);
        for (size_t i = 0; i < n; i++) {
            uint64_t fast = td_encode_f64(p, xd[i]), ref = td_ref_encode_f64(p, xd[i]);
            if ((fast != ref || arr[i] != ref) && r->bad++ < 5)
                report_bad(p, false, xd[i], fast, arr[i], ref);
        }
        r->n32 += (long)n;
        r->n64 += (long)n;
    }
    r->nlist = in->nlist32 + in->nlist64;
    r->secs = tu_now() - t0;
}

static void *worker(void *arg) {
    job *j = arg;
    for (;;) {
        int i = atomic_fetch_add(&j->next, 1);
        if (i >= j->np) {
            mpfr_free_cache(); /* MPFR's per-thread caches and mpz pool */
            return NULL;
        }
        run_profile(j->in, &j->res[i]);
    }
}

static void test_stratified(void **state) {
    (void)state;
    long per_profile = 10000000;
    const char *env = getenv("TD_STRATIFIED_PER_PROFILE");
    if (env && atol(env) > 0)
        per_profile = atol(env);
    if (per_profile < 10000000)
        print_message("NOTE: REDUCED count (TD_STRATIFIED_PER_PROFILE): %ld inputs per profile, the full run is "
                      "10^7\n",
                      per_profile);
    td_profile ps[TU_MAX_PROFILES];
    int np = tu_all_profiles(ps);
    result *res = calloc((size_t)np, sizeof *res);
    assert_non_null(res);
    for (int i = 0; i < np; i++)
        res[i].p = ps[i];
    int nthreads = mpfr_buildopt_tls_p() ? 2 : 1;
    if (nthreads == 1)
        print_message("MPFR has no thread-local storage: one thread\n");
    inputs in = {.per_source = per_profile / 2};
    in.xf = malloc((size_t)in.per_source * sizeof *in.xf);
    in.xd = malloc((size_t)in.per_source * sizeof *in.xd);
    assert_true(in.xf && in.xd);
    double t0 = tu_now();
    /* profiles are listed grouped by target */
    for (int first = 0; first < np;) {
        int last = first;
        while (last < np && ps[last].fmt == ps[first].fmt)
            last++;
        in.fmt = ps[first].fmt;
        pthread_t th[2];
        assert_int_equal(pthread_create(&th[0], NULL, make_inputs_f64, &in), 0);
        make_inputs(&in, true);
        pthread_join(th[0], NULL);
        job j = {&in, res + first, last - first, 0};
        for (int i = 0; i < nthreads; i++)
            assert_int_equal(pthread_create(&th[i], NULL, worker, &j), 0);
        for (int i = 0; i < nthreads; i++)
            pthread_join(th[i], NULL);
        first = last;
    }
    double secs = tu_now() - t0;
    free(in.xf);
    free(in.xd);
    long total = 0, bad = 0;
    print_message("%-22s %10s %10s %9s %8s %6s\n", "profile", "binary32", "binary64", "listed", "mismatch", "s");
    for (int i = 0; i < np; i++) {
        char s[64];
        print_message("%-22s %10ld %10ld %9ld %8ld %6.1f\n", tu_pstr(res[i].p, s, sizeof s), res[i].n32, res[i].n64,
                      res[i].nlist, res[i].bad, res[i].secs);
        total += res[i].n32 + res[i].n64;
        bad += res[i].bad;
        assert_true(res[i].n32 + res[i].n64 >= per_profile);
        assert_true(res[i].n32 > 0 && res[i].n64 > 0);
        /* the fixed list must fit in the count, or "every tie" would not hold */
        if (res[i].nlist > res[i].n32 + res[i].n64) {
            print_error("%ld inputs per profile do not hold the fixed list of %ld\n", per_profile, res[i].nlist);
            fail();
        }
    }
    print_message("%d profiles, %ld inputs, %ld mismatches, %.1f s on %d threads\n", np, total, bad, secs, nthreads);
    free(res);
    assert_int_equal(bad, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_stratified)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
