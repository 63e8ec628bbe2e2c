/* Kernel libraries for tests/selftest_test.sh: the rules of `tilediff selftest` on a
 * library small enough to run in a second.  Built once per flavour:
 *   FLAVOUR_ST_GOOD         a correct port (add_example), a mutant that is really
 *                           wrong (x + y + 1), a correct alternative (add_value,
 *                           written value + x): selftest passes;
 *   FLAVOUR_ST_FALSE_ALARM  the same, but the "alternative" is one ulp off while it
 *                           claims to be correct: a false alarm, selftest must fail;
 *   FLAVOUR_ST_CRASH        the mutant dies of SIGSEGV inside its own launch: killed;
 *   FLAVOUR_ST_HANG         the mutant never returns from its launch: killed (hang). */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#include "kernel_abi.h"

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

const td_abi_table *td_kernel_table(void) { return &table; }
