/* Math-function error budgets per math model.
 *
 * A kernel may declare which math library its transcendental functions come from
 * (td_abi_kernel.math); one that declares nothing is charged the union "any", which
 * covers every library a competent kernel author uses: the host C library, CUDA's
 * full-precision functions and the lowerings compiled Triton emits on NVIDIA GPUs
 * (approximate PTX instructions).  The oracle charges each call of function f on an
 * argument x (|x| <= X) with result y (|y| <= M) the error
 *
 *     ulps * ulp(M) + ulps_per_absx * X * ulp(M) + rel * M + abs(X)
 *
 * where ulp(M) <= 2u M + ulp_min bounds the ulp of the kernel's evaluation format at
 * y, and abs(X) is `abs`, or the range-dependent absolute error of the approximate
 * trigonometric instructions when `trig_approx` is set.  With `ftz`, a subnormal
 * argument or result may be flushed to zero, which costs at most |y| <= M.  The
 * numbers, and where each comes from, are in budget.c. */
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
    double ulps_per_absx; /* argument-dependent ulp budget (exp as exp2(x * log2 e), CUDA __expf) */
    double rel;           /* relative error bound */
    double abs;           /* absolute error bound */
    bool correctly_rounded; /* the function is correctly rounded (0.5 ulp): treated as one rounding */
    bool ftz;             /* subnormal arguments and results may be flushed to zero */
    bool trig_approx;     /* sin.approx / cos.approx: absolute error by argument range (budget.c) */
    bool div_approx;      /* a * rcp(b): the reciprocal of |b| > 2^126 is subnormal or 0 (budget.c) */
} td_fn_budget;

typedef struct td_math_model {
    const char *name;   /* "any", "libm", "cuda", "triton", "cuda-approx" */
    const char *source; /* where the numbers come from */
    td_fn_budget fn[TD_FN_COUNT];
} td_math_model;

const char *td_fn_name(td_fn f);
/* NULL if unknown. */
const td_math_model *td_math_model_get(const char *name);
/* The model of a kernel that declares nothing. */
#define TD_MATH_DEFAULT "any"
/* Number of models and access by index (for tables in reports and docs). */
int td_math_model_count(void);
const td_math_model *td_math_model_at(int i);
/* Absolute error of sin.approx.f32 / cos.approx.f32 for |argument| <= x (INFINITY
 * beyond the range NVIDIA documents). */
double td_trig_approx_abs(double x);

#endif
