/* See libm_measure.h. */
#include "libm_measure.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static float rsqrtf_host(float x) { return 1.0f / sqrtf(x); } /* what the host kernels write */
static double rsqrt_d(double x) { return 1.0 / sqrt(x); }
static float expf_w(float x) { return expf(x); }
static float exp2f_w(float x) { return exp2f(x); }
static float logf_w(float x) { return logf(x); }
static float log2f_w(float x) { return log2f(x); }
static float sinf_w(float x) { return sinf(x); }
static float cosf_w(float x) { return cosf(x); }
static float tanhf_w(float x) { return tanhf(x); }
static float erff_w(float x) { return erff(x); }
static float sqrtf_w(float x) { return sqrtf(x); }

const td_lm_fn td_lm_fns[] = {
    {"exp", expf_w, exp, mpfr_exp},     {"exp2", exp2f_w, exp2, mpfr_exp2}, {"log", logf_w, log, mpfr_log},
    {"log2", log2f_w, log2, mpfr_log2}, {"sin", sinf_w, sin, mpfr_sin},     {"cos", cosf_w, cos, mpfr_cos},
    {"tanh", tanhf_w, tanh, mpfr_tanh}, {"erf", erff_w, erf, mpfr_erf},     {"sqrt", sqrtf_w, sqrt, mpfr_sqrt},
    {"rsqrt", rsqrtf_host, rsqrt_d, mpfr_rec_sqrt},
};
const int td_lm_nfns = (int)(sizeof td_lm_fns / sizeof td_lm_fns[0]);

const td_lm_fn *td_lm_find(const char *name) {
    for (int i = 0; i < td_lm_nfns; i++)
        if (!strcmp(td_lm_fns[i].name, name)) return &td_lm_fns[i];
    return NULL;
}

double td_lm_ulp32(double r) {
    r = fabs(r);
    if (r < 0x1p-126) return 0x1p-149;
    int e;
    frexp(r, &e); /* r = m 2^e, m in [0.5, 1) */
    return ldexp(1.0, e - 24);
}

static float from_bits(uint32_t bits) {
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

double td_lm_err64(const td_lm_fn *fn, uint32_t bits) {
    float x = from_bits(bits);
    if (!isfinite(x)) return -1;
    double ref = fn->f64((double)x);
    if (!isfinite(ref) || fabs(ref) > 0x1.fffffep127) return -1;
    float y = fn->f32(x);
    return isfinite(y) ? fabs((double)y - ref) / td_lm_ulp32(ref) : INFINITY;
}

double td_lm_err_mp(const td_lm_fn *fn, uint32_t bits) {
    float x = from_bits(bits);
    float y = fn->f32(x);
    mpfr_t mx, my, d;
    mpfr_inits2(128, mx, my, d, (mpfr_ptr)0);
    mpfr_set_flt(mx, x, MPFR_RNDN);
    fn->mp(my, mx, MPFR_RNDN);
    double e;
    if (!isfinite(y)) {
        e = INFINITY;
    } else {
        mpfr_set_flt(d, y, MPFR_RNDN);
        mpfr_sub(d, d, my, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDU);
        mpfr_div_d(d, d, td_lm_ulp32(mpfr_get_d(my, MPFR_RNDN)), MPFR_RNDU);
        e = mpfr_get_d(d, MPFR_RNDU);
    }
    mpfr_clears(mx, my, d, (mpfr_ptr)0);
    return e;
}

typedef struct work {
    const td_lm_fn *fn;
    uint64_t lo, hi, step;
    double above;
    td_lm_sweep s;
} work;

static void *worker(void *arg) {
    work *w = arg;
    td_lm_sweep *s = &w->s;
    for (uint64_t b = w->lo; b < w->hi; b += w->step) {
        double err = td_lm_err64(w->fn, (uint32_t)b);
        if (err < 0) continue;
        s->tested++;
        if (err > w->above) {
            if (s->n_over < TD_LM_MAXCAND) s->over[s->n_over] = (uint32_t)b;
            s->n_over++;
        }
        if (err > s->max_screened - TD_LM_SCREEN) {
            if (err > s->max_screened + TD_LM_SCREEN) s->n_near_max = 0; /* no longer near the maximum */
            if (err > s->max_screened) s->max_screened = err;
            if (s->n_near_max < TD_LM_MAXCAND) s->near_max[s->n_near_max++] = (uint32_t)b;
        }
    }
    return NULL;
}

void td_lm_run(const td_lm_fn *fn, uint64_t lo, uint64_t hi, uint64_t step, int nthreads, double above,
               td_lm_sweep *out) {
    if (nthreads < 1) nthreads = 1;
    if (nthreads > 16) nthreads = 16;
    work *w = calloc((size_t)nthreads, sizeof *w);
    pthread_t th[16];
    for (int t = 0; t < nthreads; t++) {
        w[t] = (work){fn, lo + (uint64_t)t * step, hi, step * (uint64_t)nthreads, above, {0}};
        w[t].s.max_screened = -1;
        pthread_create(&th[t], NULL, worker, &w[t]);
    }
    memset(out, 0, sizeof *out);
    out->max_screened = -1;
    long kept = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(th[t], NULL);
        out->tested += w[t].s.tested;
        out->n_over += w[t].s.n_over; /* all of them counted; the first TD_LM_MAXCAND kept */
        for (long i = 0; i < w[t].s.n_over && i < TD_LM_MAXCAND && kept < TD_LM_MAXCAND; i++)
            out->over[kept++] = w[t].s.over[i];
        if (w[t].s.max_screened > out->max_screened) out->max_screened = w[t].s.max_screened;
    }
    for (int t = 0; t < nthreads; t++) { /* the candidates near the overall maximum */
        if (w[t].s.max_screened < out->max_screened - TD_LM_SCREEN) continue;
        for (int i = 0; i < w[t].s.n_near_max && out->n_near_max < TD_LM_MAXCAND; i++)
            out->near_max[out->n_near_max++] = w[t].s.near_max[i];
    }
    free(w);
}
