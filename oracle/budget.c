/* Math-function ulp budgets per math model.
 *
 * "libm": the host C library (glibc 2.36, Debian 12, x86-64), binary32 functions as
 *   the host kernels call them.  Every number is the maximum error in ulps of the
 *   exact result, measured EXHAUSTIVELY over all 2^32 binary32 inputs by
 *   bench/libm_ulp (binary64 pre-screen, every candidate within 1e-6 ulp of the
 *   maximum re-measured with MPFR at 128 bits), then rounded up to the next 1/1000.
 *   Measured 2026-11-30 on this project's CI machine kind; the worst inputs are in
 *   bench/libm_ulp/RESULTS.md.  tests/oracle/test_budget.c (ctest test_budget, label
 *   "unit") re-checks a dense sample plus these worst inputs against the table on every
 *   CI run, and all 2^32 inputs of exp, exp2, log, log2 (test_budget_sweep, label
 *   "sweep"), so a different libm that is less accurate is caught instead of trusted.
 *   rsqrt is 1.0f / sqrtf(x) (two correctly rounded operations), measured the same way.
 *
 * "cuda": CUDA C++ Programming Guide, "Mathematical Functions: Standard Functions",
 *   table "Single-Precision Mathematical Standard Library Functions with Maximum ULP
 *   Error" (compute capability >= 5.2, no --use_fast_math): expf 2, exp2f 2, logf 1,
 *   log2f 1, sinf 2, cosf 2, tanhf 2, erff 2, sqrtf 0 (IEEE, --prec-sqrt=true),
 *   rsqrtf 2, x/y 0 (--prec-div=true).  NVIDIA states these as the distance in ulps
 *   from the correctly rounded result, so the error from the exact result is at most
 *   k + 0.5 ulp, which is what the table holds.  NVIDIA also says the bounds come
 *   from "extensive but not exhaustive tests" and are not guaranteed.
 *
 * The approximate PTX instructions Triton lowers tl.exp and friends to are not
 * modelled here yet: a kernel that declares such a math model is refused.
 */
#include "budget.h"

#include <string.h>

static const char *fn_names[TD_FN_COUNT] = {
    [TD_FN_EXP] = "exp",   [TD_FN_EXP2] = "exp2",   [TD_FN_LOG] = "log", [TD_FN_LOG2] = "log2",
    [TD_FN_SIN] = "sin",   [TD_FN_COS] = "cos",     [TD_FN_TANH] = "tanh", [TD_FN_ERF] = "erf",
    [TD_FN_SQRT] = "sqrt", [TD_FN_RSQRT] = "rsqrt", [TD_FN_DIV] = "div", [TD_FN_RCP] = "rcp",
};

const char *td_fn_name(td_fn f) { return (unsigned)f < TD_FN_COUNT ? fn_names[f] : "?"; }

#define CR {0, 0, 0, 0, true}
#define ULPS(k) {(k), 0, 0, 0, false}

static const td_math_model models[] = {
    {
        "libm",
        "glibc 2.36 binary32, exhaustive measurement against MPFR (bench/libm_ulp)",
        {
            [TD_FN_EXP] = ULPS(0.502),
            [TD_FN_EXP2] = ULPS(0.502),
            [TD_FN_LOG] = ULPS(0.818),
            [TD_FN_LOG2] = ULPS(0.752),
            [TD_FN_SIN] = ULPS(0.561),
            [TD_FN_COS] = ULPS(0.561),
            [TD_FN_TANH] = ULPS(2.189),
            [TD_FN_ERF] = ULPS(0.968),
            [TD_FN_SQRT] = CR,
            [TD_FN_RSQRT] = ULPS(1.491),
            [TD_FN_DIV] = CR,
            [TD_FN_RCP] = CR,
        },
    },
    {
        "cuda",
        "CUDA C++ Programming Guide, single-precision standard functions (k ulp from the correctly rounded "
        "result, so k + 0.5 from the exact one)",
        {
            [TD_FN_EXP] = ULPS(2.5),
            [TD_FN_EXP2] = ULPS(2.5),
            [TD_FN_LOG] = ULPS(1.5),
            [TD_FN_LOG2] = ULPS(1.5),
            [TD_FN_SIN] = ULPS(2.5),
            [TD_FN_COS] = ULPS(2.5),
            [TD_FN_TANH] = ULPS(2.5),
            [TD_FN_ERF] = ULPS(2.5),
            [TD_FN_SQRT] = CR,
            [TD_FN_RSQRT] = ULPS(2.5),
            [TD_FN_DIV] = CR,
            [TD_FN_RCP] = CR,
        },
    },
};

const td_math_model *td_math_model_get(const char *name) {
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(models[i].name, name)) return &models[i];
    return NULL;
}

int td_math_model_count(void) { return (int)(sizeof models / sizeof models[0]); }
const td_math_model *td_math_model_at(int i) { return &models[i]; }
