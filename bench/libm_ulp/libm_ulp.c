/* libm_ulp: the host C library's maximum ulp error of every binary32 math
 * function the host kernels use, measured against MPFR.
 *
 * Method (CORE-MATH / Zimmermann et al. style, exhaustive for binary32):
 *  1. Every binary32 input x (all 2^32 bit patterns; NaN, inf and inputs whose exact
 *     result is not finite in binary32 are skipped) is run through the float
 *     function, and its error is first measured against the binary64 function
 *     (error of the binary64 reference <= 2 ulp64, i.e. < 2^-27 ulp32, so this pass
 *     ranks inputs correctly to within 2^-27 ulp32).
 *  2. Every input whose binary64-measured error is within 1e-6 ulp of the running
 *     maximum is kept (a bounded list of candidates); each candidate is then
 *     measured exactly with MPFR (f evaluated at 128 bits, error |y - f(x)| / ulp(f(x))
 *     where ulp is the binary32 ulp of the exact result), and the reported maximum is
 *     the MPFR one.
 * Output: one line per function: name, max ulp (MPFR), worst input (hex float),
 * inputs tested, seconds; then a C table fragment for oracle/budget.c.
 *
 * Usage: libm_ulp [--sample N] [FUNC...]   (default: all functions, exhaustive)
 * With --sample N only every N-th bit pattern is tested (a quick smoke run).
 * Runs on 2 threads.  Not a test: it takes a few minutes; bench/README.md lists it.
 */
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    const char *name;
    float (*f32)(float);
    double (*f64)(double);
    int (*mp)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
} fn_t;

static float rsqrtf_host(float x) { return 1.0f / sqrtf(x); }
static double rsqrt_d(double x) { return 1.0 / sqrt(x); }
static int mpfr_rsqrt(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t r) { return mpfr_rec_sqrt(y, x, r); }
static float expf_w(float x) { return expf(x); }
static float exp2f_w(float x) { return exp2f(x); }
static float logf_w(float x) { return logf(x); }
static float log2f_w(float x) { return log2f(x); }
static float sinf_w(float x) { return sinf(x); }
static float cosf_w(float x) { return cosf(x); }
static float tanhf_w(float x) { return tanhf(x); }
static float erff_w(float x) { return erff(x); }
static float sqrtf_w(float x) { return sqrtf(x); }

static const fn_t fns[] = {
    {"exp", expf_w, exp, mpfr_exp},     {"exp2", exp2f_w, exp2, mpfr_exp2}, {"log", logf_w, log, mpfr_log},
    {"log2", log2f_w, log2, mpfr_log2}, {"sin", sinf_w, sin, mpfr_sin},     {"cos", cosf_w, cos, mpfr_cos},
    {"tanh", tanhf_w, tanh, mpfr_tanh}, {"erf", erff_w, erf, mpfr_erf},     {"sqrt", sqrtf_w, sqrt, mpfr_sqrt},
    {"rsqrt", rsqrtf_host, rsqrt_d, mpfr_rsqrt},
};

/* binary32 ulp of a real value r (binade of |r|, subnormal spacing below 2^-126). */
static double ulp32(double r) {
    r = fabs(r);
    if (r < 0x1p-126) return 0x1p-149;
    int e;
    frexp(r, &e); /* r = m 2^e, m in [0.5,1) */
    return ldexp(1.0, e - 24);
}

#define MAXCAND 4096
typedef struct {
    const fn_t *fn;
    uint64_t lo, hi, step;
    double max;
    uint32_t cand[MAXCAND];
    int ncand;
    uint64_t tested;
} work_t;

static void *worker(void *arg) {
    work_t *w = arg;
    for (uint64_t b = w->lo; b < w->hi; b += w->step) {
        uint32_t bits = (uint32_t)b;
        float x;
        memcpy(&x, &bits, 4);
        if (!isfinite(x)) continue;
        double ref = w->fn->f64((double)x);
        if (!isfinite(ref) || fabs(ref) > 0x1.fffffep127) continue;
        float y = w->fn->f32(x);
        double err = isfinite(y) ? fabs((double)y - ref) / ulp32(ref) : INFINITY;
        w->tested++;
        if (err > w->max - 1e-6) {
            if (err > w->max + 1e-6) w->ncand = 0; /* earlier candidates can no longer be the max */
            if (err > w->max) w->max = err;
            if (w->ncand < MAXCAND) w->cand[w->ncand++] = bits;
        }
    }
    return NULL;
}

static double mpfr_err(const fn_t *fn, uint32_t bits) {
    float x;
    memcpy(&x, &bits, 4);
    float y = fn->f32(x);
    mpfr_t mx, my, d;
    mpfr_inits2(128, mx, my, d, (mpfr_ptr)0);
    mpfr_set_flt(mx, x, MPFR_RNDN);
    fn->mp(my, mx, MPFR_RNDN);
    mpfr_set_flt(d, y, MPFR_RNDN);
    mpfr_sub(d, d, my, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    double u = ulp32(mpfr_get_d(my, MPFR_RNDN));
    mpfr_div_d(d, d, u, MPFR_RNDN);
    double e = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clears(mx, my, d, (mpfr_ptr)0);
    return e;
}

int main(int argc, char **argv) {
    uint64_t step = 1;
    const char *only[16];
    int nonly = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sample") && i + 1 < argc)
            step = strtoull(argv[++i], NULL, 0);
        else if (nonly < 16)
            only[nonly++] = argv[i];
    }
    if (step == 0) step = 1;
    printf("# host libm binary32 max ulp error vs MPFR, %s (every %llu-th input)\n",
           step == 1 ? "exhaustive" : "sampled", (unsigned long long)step);
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        const fn_t *fn = &fns[k];
        if (nonly) {
            int hit = 0;
            for (int i = 0; i < nonly; i++) hit |= !strcmp(only[i], fn->name);
            if (!hit) continue;
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        static work_t w[2];
        pthread_t th[2];
        for (int t = 0; t < 2; t++) {
            memset(&w[t], 0, sizeof w[t]);
            w[t].fn = fn;
            w[t].step = step;
            w[t].lo = (uint64_t)t * step;
            w[t].step = 2 * step;
            w[t].hi = 1ull << 32;
            pthread_create(&th[t], NULL, worker, &w[t]);
        }
        for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
        double best = 0;
        uint32_t worst = 0;
        uint64_t tested = w[0].tested + w[1].tested;
        for (int t = 0; t < 2; t++)
            for (int i = 0; i < w[t].ncand; i++) {
                double e = mpfr_err(fn, w[t].cand[i]);
                if (e > best) best = e, worst = w[t].cand[i];
            }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        float wx;
        memcpy(&wx, &worst, 4);
        printf("%-6s max %.6f ulp at x=%a (0x%08x)  tested %llu  %.1fs\n", fn->name, best, (double)wx, worst,
               (unsigned long long)tested, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
        fflush(stdout);
    }
    return 0;
}
