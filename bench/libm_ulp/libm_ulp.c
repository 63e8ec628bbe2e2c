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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libm_measure.h" /* the measurement, tests/oracle/libm_measure.h, shared with test_budget.c */

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
    static td_lm_sweep sw;
    for (int k = 0; k < td_lm_nfns; k++) {
        const td_lm_fn *fn = &td_lm_fns[k];
        if (nonly) {
            int hit = 0;
            for (int i = 0; i < nonly; i++) hit |= !strcmp(only[i], fn->name);
            if (!hit) continue;
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        td_lm_run(fn, 0, 1ull << 32, step, 2, INFINITY, &sw);
        double best = 0;
        uint32_t worst = 0;
        for (int i = 0; i < sw.n_near_max; i++) {
            double e = td_lm_err_mp(fn, sw.near_max[i]);
            if (e > best) best = e, worst = sw.near_max[i];
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        float wx;
        memcpy(&wx, &worst, 4);
        printf("%-6s max %.6f ulp at x=%a (0x%08x)  tested %llu  %.1fs\n", fn->name, best, (double)wx, worst,
               (unsigned long long)sw.tested, (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
        fflush(stdout);
    }
    return 0;
}
