/* The host libm's binary32 error in ulps against MPFR: the measurement shared by the
 * bench (bench/libm_ulp/libm_ulp.c, which measures the budgets of oracle/budget.c's
 * "libm" model) and the test that re-checks them (tests/oracle/test_budget.c).
 *
 * Error of a binary32 result y for input x: |y - f(x)| / ulp32(f(x)), ulp32 the binary32
 * ulp of the exact result (2^-149 below 2^-126).  Two measurements:
 *   td_lm_err64   against the binary64 function: a pre-screen.  glibc's binary64 functions
 *                 are within 2 ulp64 of f(x), which moves the measured error by less than
 *                 2 * 2^-52 * |f(x)| / ulp32(f(x)) <= 2^-27 ulp32 (< TD_LM_SCREEN).
 *   td_lm_err_mp  against MPFR at 128 bits, rounded upwards: the measurement. */
#ifndef TD_LIBM_MEASURE_H
#define TD_LIBM_MEASURE_H

#include <mpfr.h>
#include <stdint.h>

/* a safe upper bound on |err64 - err| (see above) */
#define TD_LM_SCREEN 1e-6

typedef struct td_lm_fn {
    const char *name; /* as in oracle/budget.c's td_fn_name() */
    float (*f32)(float);
    double (*f64)(double);
    int (*mp)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
} td_lm_fn;

extern const td_lm_fn td_lm_fns[];
extern const int td_lm_nfns;
const td_lm_fn *td_lm_find(const char *name);

double td_lm_ulp32(double r);
/* Screened error of fn at the binary32 input with these bits; a negative value when the
 * input is not measured (NaN or inf input, exact result not finite in binary32). */
double td_lm_err64(const td_lm_fn *fn, uint32_t bits);
double td_lm_err_mp(const td_lm_fn *fn, uint32_t bits);

/* A sweep of the bit patterns lo, lo + step, ... below hi on nthreads threads (<= 16):
 *   max_screened, and up to TD_LM_MAXCAND candidates within TD_LM_SCREEN of it (where
 *     the maximum is; the bench measures them with MPFR);
 *   every input whose screened error exceeds `above` (up to TD_LM_MAXCAND; over_count
 *     counts all of them), for the test to measure with MPFR. */
#define TD_LM_MAXCAND 4096
typedef struct td_lm_sweep {
    uint64_t tested;
    double max_screened;
    uint32_t near_max[TD_LM_MAXCAND];
    int n_near_max;
    uint32_t over[TD_LM_MAXCAND];
    long n_over; /* may exceed TD_LM_MAXCAND: only the first are kept */
} td_lm_sweep;
void td_lm_run(const td_lm_fn *fn, uint64_t lo, uint64_t hi, uint64_t step, int nthreads, double above,
               td_lm_sweep *out);

#endif
