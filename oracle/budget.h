/* Math-function error budgets per backend ("math model").
 *
 * A kernel declares which math library its transcendental functions come from
 * (td_abi_kernel.math); the oracle charges each call of function f on an argument
 * x with result y = f(x) the error
 *
 *     ulps * ulp_fmt(y) + ulps_per_absx * |x| * ulp_fmt(y) + rel * |y| + abs
 *
 * where ulp_fmt is the ulp of the kernel's evaluation format at y (see
 * td_ulp()).  The numbers, and how each was obtained, are in budget.c. */
#ifndef TD_BUDGET_H
#define TD_BUDGET_H

#include <stdbool.h>

typedef enum td_fn {
    TD_FN_EXP,
    TD_FN_EXP2,
    TD_FN_LOG,
    TD_FN_LOG2,
    TD_FN_SIN,
    TD_FN_COS,
    TD_FN_TANH,
    TD_FN_ERF,
    TD_FN_SQRT,
    TD_FN_RSQRT,
    TD_FN_DIV,  /* x / y */
    TD_FN_RCP,  /* 1 / x */
    TD_FN_COUNT
} td_fn;

typedef struct td_fn_budget {
    double ulps;          /* constant ulp budget */
    double ulps_per_absx; /* argument-dependent ulp budget (CUDA __expf style) */
    double rel;           /* relative error bound */
    double abs;           /* absolute error bound */
    bool correctly_rounded; /* the function is correctly rounded (0.5 ulp): treated as one rounding */
} td_fn_budget;

typedef struct td_math_model {
    const char *name;   /* "libm", "cuda", "cuda-approx" */
    const char *source; /* where the numbers come from */
    td_fn_budget fn[TD_FN_COUNT];
} td_math_model;

const char *td_fn_name(td_fn f);
/* NULL if unknown. */
const td_math_model *td_math_model_get(const char *name);
/* Number of models and access by index (for tables in reports and docs). */
int td_math_model_count(void);
const td_math_model *td_math_model_at(int i);

#endif
