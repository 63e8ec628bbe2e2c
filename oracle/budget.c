/* Math-function error budgets per math model.
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
 *   Error" (no --use_fast_math): expf 2, exp2f 2, logf 1, log2f 1, sinf 2, cosf 2,
 *   tanhf 2, erff 2, sqrtf 0 (--prec-sqrt=true), rsqrtf 2, x/y 0 (--prec-div=true).
 *   NVIDIA states these as the distance in ulps from the correctly rounded result, so
 *   the error from the exact result is at most k + 0.5 ulp, which is what the table
 *   holds.  NVIDIA also says the bounds come from "extensive but not exhaustive tests".
 *
 * "triton": what compiled Triton emits for binary32 on NVIDIA GPUs, with the error of
 *   each instruction from NVIDIA's PTX ISA 9.1 (section 9.7.3, "Floating Point
 *   Instructions"); each row names the lowering:
 *   - tl.exp: RN(x * RN32(log2 e)) then ex2.approx.f32 (subnormals kept).  ex2.approx
 *     is within 2 ulp of the correctly rounded result (2.5 from the exact one).  The
 *     argument t = x log2 e carries the relative error of the constant (|RN32(log2 e) -
 *     log2 e| / log2 e = 1.335e-8 = 0.224 u) and of the product (u): 2^t^ = 2^t
 *     2^(t d), |d| <= 1.224 u, a relative error ln2 |t| |d| (1 + 2^-20) = 1.224 u |x| (1 +
 *     2^-20) for |t d| < 2^-10: ulps_per_absx = 1.224 u / (2u) (1 + 2^-20) = 0.6121, as
 *     the budget multiplies by ulp(M) <= 2u M.  (|t d| < 2^-10 holds: |t| <= 150
 *     wherever the result is neither 0 nor inf.)
 *   - tl.exp2 (math::Exp2Op): ex2.approx.ftz.f32: 2.5 ulp, subnormals flushed.
 *   - tl.log: lg2.approx.f32 times RN32(ln 2): lg2.approx has absolute error 2^-22 for
 *     x in (0.5, 2) and relative error 2^-22 elsewhere; times ln 2 (the constant's
 *     relative error 0.046 u, the product's u): abs = ln2 2^-22 (1 + 2^-20),
 *     rel = 2^-22 (1 + 2^-20) + 1.05 u.  tl.log2: abs = rel = 2^-22 (1 + 2^-20).
 *   - tl.sqrt: sqrt.approx.ftz.f32, relative error 2^-23; tl.rsqrt: rsqrt.approx.ftz.f32,
 *     relative error 2^-22.9; a / b and 1 / b: div.full.f32, 2 ulp from the correctly
 *     rounded result "across the full range of inputs" (2.5 from the exact one).
 *   - tl.sin / tl.cos: sin.approx.f32 / cos.approx.f32 (the union covers libdevice's
 *     __nv_sinf too): absolute error 2^-20.5 for |x| <= 2 pi, 2^-14.7 for |x| <= 100 pi,
 *     no documented bound beyond (td_trig_approx_abs).
 *   - tanh, erf through libdevice (__nv_tanhf, __nv_erff): the "cuda" numbers.
 *
 * "cuda-approx": nvcc --use_fast_math's function intrinsics (CUDA C++ Programming
 *   Guide, "Intrinsic Functions", single precision): __expf 2 + floor(|1.16 x|) ulp;
 *   __exp2f 2 ulp (ex2.approx.ftz); __logf absolute 2^-21.41 in [0.5, 2], 3 ulp
 *   elsewhere; __log2f absolute 2^-22 in [0.5, 2], 2 ulp elsewhere; __sinf / __cosf
 *   as sin/cos.approx; tanhf as tanh.approx.f32 (PTX ISA: relative error 2^-11; 2^-10.987
 *   in older guides, which we take); __fdividef as div.approx.f32: 2 ulp for |b| in
 *   [2^-126, 2^126], 0 for larger |b| (an error of the whole quotient); sqrt and rsqrt
 *   approximate and flushing.  Only the functions: arithmetic is modelled without FTZ,
 *   so fast-math code must be built with --ftz=false to be judged by it.
 *
 * "any": what a kernel that declares nothing is judged by: a bound that holds for every
 *   one of "libm", "cuda" and "triton".  Each component is the largest of the three
 *   (a correctly rounded function counts as 0.5 ulp), and the flags are or-ed, so each
 *   model's budget, a sum of non-negative components, is at most the union's;
 *   tests/test_math_models.c checks this dominance component by component, and each
 *   rule against an implementation written the other way.
 */
#include "budget.h"

#include <math.h>
#include <string.h>
#include "nocov.h"

/* the oracle: no fuzzing coverage instrumentation (nocov.h) */
TD_NOCOV_BEGIN

static const char *fn_names[TD_FN_COUNT] = {
    [TD_FN_EXP] = "exp",   [TD_FN_EXP2] = "exp2",   [TD_FN_LOG] = "log", [TD_FN_LOG2] = "log2",
    [TD_FN_SIN] = "sin",   [TD_FN_COS] = "cos",     [TD_FN_TANH] = "tanh", [TD_FN_ERF] = "erf",
    [TD_FN_SQRT] = "sqrt", [TD_FN_RSQRT] = "rsqrt", [TD_FN_DIV] = "div", [TD_FN_RCP] = "rcp",
};

const char *td_fn_name(td_fn f) { return (unsigned)f < TD_FN_COUNT ? fn_names[f] : "?"; }

#define U 0x1p-24
#define MARGIN (1 + 0x1p-20)
#define CR {0, 0, 0, 0, true, false, false, false}
#define ULPS(k) {(k), 0, 0, 0, false, false, false, false}
/* ulps, ulps_per_absx, rel, abs, correctly rounded, ftz, trig_approx, div_approx */
#define B(k, px, r, a, ftz, trig, div) {(k), (px), (r), (a), false, (ftz), (trig), (div)}

#define LG2_ABS (0x1p-22 * MARGIN)
#define LOG_ABS (0.6931471805599453 * 0x1p-22 * MARGIN)
#define LOG_REL (0x1p-22 * MARGIN + 1.05 * U)
#define EXP_PER_ABSX 0.6121
#define SQRT_APPROX_REL (0x1p-23 * MARGIN)
#define RSQRT_APPROX_REL (0x1.125fbee25066ap-23 * MARGIN) /* 2^-22.9, rounded up */
#define TANH_APPROX_REL (0x1.0251353756992p-11 * MARGIN)  /* 2^-10.987, rounded up */

static const td_math_model models[] = {
    {"any",
     "the union of libm, cuda and triton: every component the largest of the three (see oracle/budget.c)",
     {
         [TD_FN_EXP] = B(2.5, EXP_PER_ABSX, 0, 0, false, false, false),
         [TD_FN_EXP2] = B(2.5, 0, 0, 0, true, false, false),
         [TD_FN_LOG] = B(1.5, 0, LOG_REL, LOG_ABS, false, false, false),
         [TD_FN_LOG2] = B(1.5, 0, LG2_ABS, LG2_ABS, false, false, false),
         [TD_FN_SIN] = B(2.5, 0, 0, 0, false, true, false),
         [TD_FN_COS] = B(2.5, 0, 0, 0, false, true, false),
         [TD_FN_TANH] = ULPS(2.5),
         [TD_FN_ERF] = ULPS(2.5),
         [TD_FN_SQRT] = B(0.5, 0, SQRT_APPROX_REL, 0, true, false, false),
         [TD_FN_RSQRT] = B(2.5, 0, RSQRT_APPROX_REL, 0, true, false, false),
         [TD_FN_DIV] = B(2.5, 0, 0, 0, false, false, true),
         [TD_FN_RCP] = ULPS(2.5),
     }},
    {"libm",
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
     }},
    {"cuda",
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
     }},
    {"triton",
     "compiled Triton on NVIDIA: ex2/lg2/sqrt/rsqrt/sin/cos.approx, div.full (PTX ISA 9.1, section 9.7.3)",
     {
         [TD_FN_EXP] = B(2.5, EXP_PER_ABSX, 0, 0, false, false, false),
         [TD_FN_EXP2] = B(2.5, 0, 0, 0, true, false, false),
         [TD_FN_LOG] = B(0, 0, LOG_REL, LOG_ABS, false, false, false),
         [TD_FN_LOG2] = B(0, 0, LG2_ABS, LG2_ABS, false, false, false),
         [TD_FN_SIN] = B(0, 0, 0, 0, false, true, false),
         [TD_FN_COS] = B(0, 0, 0, 0, false, true, false),
         [TD_FN_TANH] = ULPS(2.5),
         [TD_FN_ERF] = ULPS(2.5),
         [TD_FN_SQRT] = B(0, 0, SQRT_APPROX_REL, 0, true, false, false),
         [TD_FN_RSQRT] = B(0, 0, RSQRT_APPROX_REL, 0, true, false, false),
         [TD_FN_DIV] = B(2.5, 0, 0, 0, false, false, true),
         [TD_FN_RCP] = ULPS(2.5),
     }},
    {"cuda-approx",
     "nvcc --use_fast_math function intrinsics (CUDA C++ Programming Guide, Intrinsic Functions; PTX ISA 9.1)",
     {
         [TD_FN_EXP] = B(2.5, 1.16, 0, 0, true, false, false),
         [TD_FN_EXP2] = B(2.5, 0, 0, 0, true, false, false),
         [TD_FN_LOG] = B(3.5, 0, 0, 0x1.82p-22 * MARGIN /* 1.5078 2^-22 >= 2^-21.41 */, true, false, false),
         [TD_FN_LOG2] = B(2.5, 0, 0, LG2_ABS, true, false, false),
         [TD_FN_SIN] = B(0, 0, 0, 0, true, true, false),
         [TD_FN_COS] = B(0, 0, 0, 0, true, true, false),
         [TD_FN_TANH] = B(0, 0, TANH_APPROX_REL, 0, false, false, false),
         [TD_FN_ERF] = ULPS(2.5),
         [TD_FN_SQRT] = B(0, 0, SQRT_APPROX_REL, 0, true, false, false),
         [TD_FN_RSQRT] = B(0, 0, RSQRT_APPROX_REL, 0, true, false, false),
         [TD_FN_DIV] = B(2.5, 0, 0, 0, true, false, true),
         [TD_FN_RCP] = B(1.5, 0, 0, 0, true, false, false),
     }},
};

const td_math_model *td_math_model_get(const char *name) {
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(models[i].name, name)) return &models[i];
    return NULL;
}

int td_math_model_count(void) { return (int)(sizeof models / sizeof models[0]); }
const td_math_model *td_math_model_at(int i) { return &models[i]; }

/* PTX ISA 9.1, sin / cos: "maximum absolute error 2^-20.5 in [-2pi, 2pi], 2^-14.7 in
 * [-100pi, 100pi]; outside, only best effort".  The range ends are rounded outwards
 * so that a binary64 bound of |x| just above 2 pi does not get the smaller error. */
double td_trig_approx_abs(double x) {
    if (x <= 6.2831853071795862) return 0x1.6a09e667f3bcdp-21 * MARGIN; /* 2^-20.5 */
    if (x <= 314.15926535897933) return 0x1.3b2c47bff832dp-15 * MARGIN; /* 2^-14.7 */
    return INFINITY;
}

TD_NOCOV_END
