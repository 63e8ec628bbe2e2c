/* Named real constants that specs use (pi, ln 2, sqrt(2/pi), ...) and decimal
 * literals: the exact real value for the MPFR reference, a binary64 approximation
 * with its error for the shadow, and the kernel-side rounding (a literal in a
 * kernel is the constant rounded once to the evaluation format). */
#ifndef TD_CONSTS_H
#define TD_CONSTS_H

#include "mp.h"
#include "shadow.h"

typedef enum td_const {
    TD_C_PI,
    TD_C_E,
    TD_C_LN2,
    TD_C_LOG2E,         /* 1/ln 2 */
    TD_C_SQRT2,
    TD_C_INV_SQRT2,     /* 1/sqrt(2) */
    TD_C_SQRT_2_OVER_PI, /* sqrt(2/pi), tanh-GELU */
    TD_C_2_OVER_SQRTPI, /* 2/sqrt(pi), erf' */
    TD_C_COUNT
} td_const;

const char *td_const_name(td_const c);
/* binary64 round-to-nearest of the constant (error <= half an ulp64). */
double td_const_f64(td_const c);
/* the constant at the precision of x, RNDN; returns the ternary */
int td_const_mpfr(td_const c, mpfr_ptr x);

/* kernel literals: the kernel holds RN_eval(c) */
td_sh td_sh_lit(td_shcx *cx, double x, double esx);
td_sh td_sh_lit_c(td_shcx *cx, td_const c);
td_sh td_sh_lit_dec(td_shcx *cx, const char *decimal);
td_mp td_mp_lit_c(td_mpcx *cx, td_const c);
td_mp td_mp_lit_dec(td_mpcx *cx, const char *decimal);

#endif
