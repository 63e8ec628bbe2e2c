/* Kernel libraries that are wrong in one way each, for tests/plugin_test.sh.  Built
 * once per flavour: -DFLAVOUR_BAD_VERSION, _NO_SYMBOL, _BAD_COUNTS, _LAUNCH_ERROR,
 * _CRASH, _HANG.  Each implements add_example.add_kernel_correctness (and, for the
 * crash and hang flavours, a correct add_value kernel; V1 is a correct library built for
 * kernel ABI v1, BAD_DECLARES one whose kernel declares an unknown summation order, so a report with one contract
 * dead and another alive shows the crash did not take the report with it). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "kernel_abi.h"

static int add_kernel(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base, *y = (const float *)L->regions[1].base;
    float *out = (float *)L->regions[2].base;
    int64_t n = L->params[0].i, block = L->params[1].i;
#if defined(FLAVOUR_LAUNCH_ERROR)
    snprintf(L->err, L->errlen, "device out of memory (simulated)");
    return 2;
#elif defined(FLAVOUR_NOT_COVERED)
    snprintf(L->err, L->errlen, "no tensor cores on this device (simulated)");
    return TD_ABI_NOT_COVERED;
#elif defined(FLAVOUR_CRASH)
    if (n > 100) raise(SIGSEGV); /* a kernel that crashes on larger inputs */
#elif defined(FLAVOUR_HANG)
    if (n > 100)
        for (;;) pause(); /* a kernel that never returns on larger inputs */
#endif
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < block; j++) {
            int64_t off = (int64_t)pid * block + j;
            if (off < n) out[off] = x[off] + y[off];
        }
    return 0;
}

static int value_kernel(const td_abi_launch *L) {
    const float *x = (const float *)L->regions[0].base;
    float *out = (float *)L->regions[1].base;
    int64_t n = L->params[0].i, block = L->params[1].i;
    float value = (float)L->params[2].r;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < block; j++) {
            int64_t off = (int64_t)pid * block + j;
            if (off < n) out[off] = x[off] + value;
        }
    return 0;
}

#ifdef FLAVOUR_BAD_COUNTS
#define NPARAMS 3 /* the contract declares 2 */
#else
#define NPARAMS 2
#endif
#if defined(FLAVOUR_BAD_DECLARES) || defined(FLAVOUR_V1)
/* (in the v1 flavour this stands where a v1 record has nothing: it must never be read) */
#define DECLARES "div=ieee;order=zigzag"
#else
#define DECLARES NULL
#endif
static const td_abi_kernel k_add = {"add_example.add_kernel_correctness", "plugin", TD_ABI_HOST, NULL, NULL, NULL,
                                    NPARAMS, 3, add_kernel, DECLARES};
static const td_abi_kernel k_value = {"add_value.puzzle1_kernel_correctness", "plugin", TD_ABI_HOST, NULL, NULL, NULL,
                                      3, 2, value_kernel, NULL};
static const td_abi_kernel *const kernels[] = {&k_add, &k_value};
#ifdef FLAVOUR_BAD_VERSION
static const td_abi_table table = {99, 2, kernels, "bad version"};
#elif defined(FLAVOUR_V1)
/* a v1 library: its kernel records end before `declares` (tilediff must not read it) */
static const td_abi_table table = {1, 2, kernels, "v1 plugin"};
#else
static const td_abi_table table = {TD_KERNEL_ABI_VERSION, 2, kernels, "test plugin"};
#endif

#ifdef FLAVOUR_NO_SYMBOL
const td_abi_table *td_kernel_table_misspelled(void) { return &table; }
#else
const td_abi_table *td_kernel_table(void) { return &table; }
#endif
