/* Kernel libraries for tests/selftest_test.sh: the rules of `tilediff selftest` on a
 * library small enough to run in a second.  Built once per flavour:
 *   FLAVOUR_ST_GOOD         a correct port (add_example), a mutant that is really
 *                           wrong (x + y + 1), a correct alternative (add_value,
 *                           written value + x): selftest passes;
 *   FLAVOUR_ST_FALSE_ALARM  the same, but the "alternative" is one ulp off while it
 *                           claims to be correct: a false alarm, selftest must fail;
 *   FLAVOUR_ST_CRASH        the mutant dies of SIGSEGV inside its own launch: killed;
 *   FLAVOUR_ST_HANG         the mutant never returns from its launch: killed (hang);
 *   FLAVOUR_ST_WARN         (tests/strict_test.sh) a mean_reduction kernel whose error
 *                           lies between the probabilistic and the rigorous bound of
 *                           every long row: a WARN and never a FAIL, so `--strict`
 *                           decides the verdict. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "kernel_abi.h"

#ifdef FLAVOUR_ST_WARN
/* Mean[m] = (sum + delta) / N with delta between the two bounds the oracle gives the
 * contract's sum of exact terms (oracle/shadow.c, td_sh_acc_end; the spec sums BLOCK_N
 * lanes of T = N / BLOCK_N terms each, then the lanes): the rigorous bound is about
 * (gamma_{T-1} + gamma_{N-1}) sum|x|, the probabilistic one about (lambda_T sqrt(T-1) +
 * lambda_N sqrt(N-1)) u sum|x| with lambda_n = sqrt(2 ln(2 n 64 1e9)) (td_lambda, 64
 * sums a lane).  delta is their geometric mean where they are at least a factor 2.5
 * apart (long rows), else 0; a row of equal terms has both bounds rigorous (no WARN). */
static double lam(double n) { return sqrt(2 * log(2.0 * n * 64 * 1e9)); }
static int mean_warn(const td_abi_launch *L) {
    const int64_t M = L->params[0].i, N = L->params[1].i, BN = L->params[3].i;
    const float *x = (const float *)L->regions[0].base;
    float *mean = (float *)L->regions[1].base;
    double T = BN >= N ? 1.0 : ceil((double)N / (double)BN), n = (double)N;
    double rig = (T - 1) + (n - 1), prob = lam(T) * sqrt(T > 1 ? T - 1 : 0) + lam(n) * sqrt(n > 1 ? n - 1 : 0);
    for (int64_t m = 0; m < M; m++) {
        double s = 0, a = 0;
        for (int64_t k = 0; k < N; k++) s += (double)x[m * N + k], a += fabs((double)x[m * N + k]);
        double delta = rig > 2.5 * prob ? sqrt(rig * prob) * 0x1p-24 * a : 0.0;
        mean[m] = (float)((s + delta) / n);
    }
    return 0;
}
static const td_abi_kernel k_warn = {"mean_reduction.mean_dim_kernel_output_summary", "plugin_warn", TD_ABI_HOST,
                                     NULL, NULL, NULL, 4, 2, mean_warn, NULL};
static const td_abi_kernel *const kernels[] = {&k_warn};
static const td_abi_table table = {TD_KERNEL_ABI_VERSION, 1, kernels, "strict test plugin"};
#else

static int add_port(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base, *y = (const float *)L->regions[1].base;
    float *out = (float *)L->regions[2].base;
    for (int64_t i = 0; i < L->params[0].i; i++) out[i] = x[i] + y[i];
    return 0;
}

static int add_mutant(const td_abi_launch *L) {
#if defined(FLAVOUR_ST_CRASH)
    raise(SIGSEGV);
#elif defined(FLAVOUR_ST_HANG)
    for (;;) pause();
#endif
    const float *x = (const float *)L->regions[0].base, *y = (const float *)L->regions[1].base;
    float *out = (float *)L->regions[2].base;
    for (int64_t i = 0; i < L->params[0].i; i++) out[i] = x[i] + y[i] + 1.0f;
    return 0;
}

static int value_alternative(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base;
    float *out = (float *)L->regions[1].base;
    float value = (float)L->params[2].r;
    for (int64_t i = 0; i < L->params[0].i; i++) {
        out[i] = value + x[i];
#ifdef FLAVOUR_ST_FALSE_ALARM
        out[i] = nextafterf(out[i], INFINITY); /* one ulp too high: not a correct kernel */
#endif
    }
    return 0;
}

static const td_abi_kernel k_port = {"add_example.add_kernel_correctness", "plugin", TD_ABI_HOST, NULL, NULL, NULL,
                                     2, 3, add_port, NULL};
static const td_abi_kernel k_mutant = {"add_example.add_kernel_correctness", "mut_plus_one", TD_ABI_HOST, NULL, NULL,
                                       "adds 1 to every sum", 2, 3, add_mutant, NULL};
static const td_abi_kernel k_alt = {"add_value.puzzle1_kernel_correctness", "alt_plugin", TD_ABI_HOST, NULL, NULL,
                                    NULL, 3, 2, value_alternative, NULL};
static const td_abi_kernel *const kernels[] = {&k_port, &k_mutant, &k_alt};
static const td_abi_table table = {TD_KERNEL_ABI_VERSION, 3, kernels, "selftest test plugin"};
#endif

const td_abi_table *td_kernel_table(void) { return &table; }
