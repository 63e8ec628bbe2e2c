#include "consts.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "nocov.h"

/* the oracle: no fuzzing coverage instrumentation (nocov.h) */
TD_NOCOV_BEGIN

static const struct {
    const char *name;
    double f64; /* RN binary64 of the constant; tests/oracle checks each against MPFR */
} consts[TD_C_COUNT] = {
    [TD_C_PI] = {"pi", 0x1.921fb54442d18p+1},
    [TD_C_E] = {"e", 0x1.5bf0a8b145769p+1},
    [TD_C_LN2] = {"ln2", 0x1.62e42fefa39efp-1},
    [TD_C_LOG2E] = {"log2(e)", 0x1.71547652b82fep+0},
    [TD_C_SQRT2] = {"sqrt(2)", 0x1.6a09e667f3bcdp+0},
    [TD_C_INV_SQRT2] = {"1/sqrt(2)", 0x1.6a09e667f3bcdp-1},
    [TD_C_SQRT_2_OVER_PI] = {"sqrt(2/pi)", 0x1.9884533d43651p-1},
    [TD_C_2_OVER_SQRTPI] = {"2/sqrt(pi)", 0x1.20dd750429b6dp+0},
};

const char *td_const_name(td_const c) { return consts[c].name; }
double td_const_f64(td_const c) { return consts[c].f64; }

int td_const_mpfr(td_const c, mpfr_ptr x) {
    mpfr_prec_t p = mpfr_get_prec(x) + 32;
    mpfr_t t, u;
    mpfr_inits2(p, t, u, (mpfr_ptr)0);
    switch (c) {
    case TD_C_PI: mpfr_const_pi(t, MPFR_RNDN); break;
    case TD_C_E: mpfr_set_ui(t, 1, MPFR_RNDN); mpfr_exp(t, t, MPFR_RNDN); break;
    case TD_C_LN2: mpfr_const_log2(t, MPFR_RNDN); break;
    case TD_C_LOG2E: mpfr_const_log2(t, MPFR_RNDN); mpfr_ui_div(t, 1, t, MPFR_RNDN); break;
    case TD_C_SQRT2: mpfr_sqrt_ui(t, 2, MPFR_RNDN); break;
    case TD_C_INV_SQRT2: mpfr_set_ui(t, 2, MPFR_RNDN); mpfr_rec_sqrt(t, t, MPFR_RNDN); break;
    case TD_C_SQRT_2_OVER_PI:
        mpfr_const_pi(u, MPFR_RNDN);
        mpfr_ui_div(t, 2, u, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        break;
    case TD_C_2_OVER_SQRTPI:
        mpfr_const_pi(u, MPFR_RNDN);
        mpfr_rec_sqrt(t, u, MPFR_RNDN);
        mpfr_mul_ui(t, t, 2, MPFR_RNDN);
        break;
    default: abort();
    }
    int r = mpfr_set(x, t, MPFR_RNDN);
    mpfr_clears(t, u, (mpfr_ptr)0);
    return r ? r : 1; /* irrational: never exact */
}

td_sh td_sh_lit_c(td_shcx *cx, td_const c) {
    double x = consts[c].f64;
    return td_sh_lit(cx, x, 0.5 * td_ulp(TD_F64, x));
}

/* A decimal literal's binary64 value and whether it is exact.  strtod is correctly
 * rounded (glibc): exact when the decimal is a binary64 value. */
static void dec_parse(const char *decimal, double *x, int *exact) {
    *x = strtod(decimal, NULL);
    mpfr_t m;
    mpfr_init2(m, 256);
    mpfr_set_str(m, decimal, 10, MPFR_RNDN);
    *exact = mpfr_cmp_d(m, *x) == 0;
    mpfr_clear(m);
}

/* Parsed literals, by text: a spec names its literals on every lane (fifth-order
 * harmonics: 25 a lane), and strtod plus an MPFR parse each time made it the slowest
 * fuzz target (issue 20).  Hashed on the pointer, checked on the text (a caller
 * may pass a buffer it rewrites; then the text gets a slot of its own); linear probing
 * over 8 slots; per thread. */
#define DEC_SLOTS 256
#define DEC_TEXT 64
typedef struct dec_slot {
    char text[DEC_TEXT];
    double x;
    int exact;
    int sh_fmt; /* the evaluation format sh was made for, + 1 (0: none yet) */
    td_sh sh;   /* td_sh_lit of the literal: a function of x, exact and that format alone */
} dec_slot;
static _Thread_local dec_slot dec_cache[DEC_SLOTS];

/* The slot of `decimal`'s text: its own, or an empty one to fill (NULL: the probed
 * slots are taken by other texts, or the text is too long to keep). */
static dec_slot *dec_lookup(const char *decimal) {
    size_t h = (size_t)(((uint64_t)(uintptr_t)decimal * 0x9e3779b97f4a7c15ull) >> 56); /* 0..255 */
    for (int k = 0; k < 8; k++) {
        dec_slot *s = &dec_cache[(h + (size_t)k) % DEC_SLOTS];
        if (!s->text[0] || !strcmp(s->text, decimal)) return strlen(decimal) < DEC_TEXT ? s : NULL;
    }
    return NULL;
}

td_sh td_sh_lit_dec(td_shcx *cx, const char *decimal) {
    double x;
    int exact;
    dec_slot *s = dec_lookup(decimal);
    if (s && s->text[0]) {
        if (s->sh_fmt == (int)cx->efmt + 1 && !cx->trace) return s->sh; /* a trace records the step */
        x = s->x;
        exact = s->exact;
    } else {
        dec_parse(decimal, &x, &exact);
        if (s) {
            strcpy(s->text, decimal);
            s->x = x;
            s->exact = exact;
            s->sh_fmt = 0;
        }
    }
    td_sh r = td_sh_lit(cx, x, exact ? 0 : 0.5 * td_ulp(TD_F64, x));
    if (s) s->sh = r, s->sh_fmt = (int)cx->efmt + 1;
    return r;
}

td_mp td_mp_lit_c(td_mpcx *cx, td_const c) {
    td_mp r = td_mp_new(cx);
    td_const_mpfr(c, r->x);
    r->t = 2;
    return r;
}

td_mp td_mp_lit_dec(td_mpcx *cx, const char *decimal) {
    td_mp r = td_mp_new(cx);
    int t = mpfr_set_str(r->x, decimal, 10, MPFR_RNDN);
    (void)t;
    /* mpfr_set_str returns 0 on success; exactness: compare with a wider parse */
    mpfr_t w;
    mpfr_init2(w, mpfr_get_prec(r->x) * 2);
    mpfr_set_str(w, decimal, 10, MPFR_RNDN);
    r->t = mpfr_cmp(w, r->x) == 0 ? 0 : 2;
    mpfr_clear(w);
    return r;
}

TD_NOCOV_END
