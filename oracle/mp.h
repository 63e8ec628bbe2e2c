/* The MPFR number type: the reference instantiation of a contract's spec.
 *
 * Values live in a per-lane pool owned by the context (td_mpcx_reset between
 * lanes).  The working precision (default 640 bits) makes sums and products of
 * binary32 data exact: a product of two binary32 values needs 48 bits and the
 * exponents of such products span less than 600 binades.  Each value records
 * whether it is exact and, when it is the result of one inexact operation on exact
 * operands, the direction of its rounding (MPFR's ternary), so that a cast of a
 * value that sits exactly on a rounding tie of the target format is rounded the way
 * the true value would be (td_encode_mpfr_t).
 */
#ifndef TD_MP_H
#define TD_MP_H

#include <mpfr.h>
#include <stdint.h>

#include "rounding.h"
#include "shadow.h" /* td_order */
#include "nocov.h"

TD_NOCOV_BEGIN

typedef struct td_mpv {
    mpfr_t x;
    int t; /* 0 exact; -1 / +1 sign of (x - true value); 2 inexact, direction unknown */
} td_mpv;
typedef td_mpv *td_mp;
typedef int td_mpb;

/* One memoised per-case value (td_mp_memo_put). */
typedef struct td_mp_memo_ent {
    uint64_t key;
    td_mpv v;
    int undecided_tie; /* the computation met an undecided tie (restored on a hit) */
    int used, init;
} td_mp_memo_ent;

typedef struct td_mpcx {
    mpfr_prec_t prec;
    td_mpv **chunks;
    int nchunks, used; /* values handed out in this lane */
    td_mp_memo_ent *memo; /* per-case memo of per-row quantities, cleared by td_mpcx_memo_clear */
    size_t memo_cap, memo_n;
    const td_profile *casts;
    int ncasts;
    /* Reports show the output's "exact before the cast".  have_cast_in: the value the
     * lane's evaluation produced last (what a spec returns) is the result of a cast,
     * cast_out; last_cast_in is that cast's input.  An operation producing any other
     * value clears it, so a cast inside the computation (P to fp16 before P.V) is not
     * reported as the output's when the output itself is not cast. */
    td_mpv last_cast_in;
    td_mp cast_out;
    int have_cast_in;
    int undecided_tie; /* a cast met an inexact value exactly on a tie */
} td_mpcx;

void td_mpcx_init(td_mpcx *cx, mpfr_prec_t prec);
void td_mpcx_free(td_mpcx *cx);
void td_mpcx_reset(td_mpcx *cx);
/* Forgets the memoised values (at the start of every case). */
void td_mpcx_memo_clear(td_mpcx *cx);
/* Per-case memo of the reference values of per-row quantities (a row's max, sum ...):
 * the same computation for every lane of the row, done once per case.  A hit hands out
 * a fresh lane value holding an exact copy (value and ternary). */
int td_mp_memo_get(td_mpcx *cx, uint64_t key, td_mp *out);
void td_mp_memo_put(td_mpcx *cx, uint64_t key, td_mp v);
td_mp td_mp_new(td_mpcx *cx);
/* The exact value before the cast that produced out (a lane's value, e.g. what its spec
 * returned), or NULL when out is not a cast's result. */
static inline const td_mpv *td_mp_precast(const td_mpcx *cx, td_mp out) {
    return out && out == cx->cast_out ? &cx->last_cast_in : NULL;
}

td_mp td_mp_exact(td_mpcx *cx, double x);
td_mp td_mp_lit_mp(td_mpcx *cx, mpfr_srcptr exact); /* the exact real constant (the reference does not round it) */
td_mp td_mp_add(td_mpcx *cx, td_mp a, td_mp b);
td_mp td_mp_sub(td_mpcx *cx, td_mp a, td_mp b);
td_mp td_mp_mul(td_mpcx *cx, td_mp a, td_mp b);
td_mp td_mp_fma(td_mpcx *cx, td_mp a, td_mp b, td_mp c);
td_mp td_mp_div(td_mpcx *cx, td_mp a, td_mp b);
td_mp td_mp_neg(td_mpcx *cx, td_mp a);
td_mp td_mp_abs(td_mpcx *cx, td_mp a);
td_mp td_mp_sqrt(td_mpcx *cx, td_mp a);
td_mp td_mp_rsqrt(td_mpcx *cx, td_mp a);
td_mp td_mp_exp(td_mpcx *cx, td_mp a);
td_mp td_mp_exp2(td_mpcx *cx, td_mp a);
td_mp td_mp_log(td_mpcx *cx, td_mp a);
td_mp td_mp_log2(td_mpcx *cx, td_mp a);
td_mp td_mp_sin(td_mpcx *cx, td_mp a);
td_mp td_mp_cos(td_mpcx *cx, td_mp a);
td_mp td_mp_tanh(td_mpcx *cx, td_mp a);
td_mp td_mp_erf(td_mpcx *cx, td_mp a);
td_mp td_mp_sigmoid(td_mpcx *cx, td_mp a);
td_mp td_mp_max(td_mpcx *cx, td_mp a, td_mp b);
td_mp td_mp_min(td_mpcx *cx, td_mp a, td_mp b);
td_mp td_mp_sign(td_mpcx *cx, td_mp a);
td_mp td_mp_ldexp(td_mpcx *cx, td_mp a, int e);
td_mpb td_mp_cmp(td_mpcx *cx, td_mp a, td_mp b, char op);
td_mp td_mp_sel(td_mpcx *cx, td_mpb c, td_mp a, td_mp b);
static inline int td_mp_truth(td_mpb c) { return c & 1; }
td_mp td_mp_cast(td_mpcx *cx, td_mp a, int slot);
td_mp td_mp_cast_to(td_mpcx *cx, td_mp a, td_profile p, const char *what);

typedef struct td_mp_acc {
    td_mp *terms;
    long n, cap;
} td_mp_acc;
void td_mp_acc_init(td_mpcx *cx, td_mp_acc *acc, td_order order, long block);
void td_mp_acc_add(td_mpcx *cx, td_mp_acc *acc, td_mp t);
td_mp td_mp_acc_end(td_mpcx *cx, td_mp_acc *acc);
/* sum / n, exactly (td_sh_mean) */
static inline td_mp td_mp_mean(td_mpcx *cx, td_mp sum, long n) { return td_mp_div(cx, sum, td_mp_exact(cx, (double)n)); }
/* Algebraically equal forms have one exact value (td_sh_either). */
static inline td_mp td_mp_either(td_mpcx *cx, td_mp a, td_mp b) {
    (void)b;
    cx->have_cast_in = a == cx->cast_out; /* hands out an operand, like max (mp.c) */
    return a;
}
/* The exact value does not depend on how a kernel rescales (td_sh_rescaled). */
static inline td_mp td_mp_rescaled(td_mpcx *cx, td_mp s, long n, td_mp spread, int base2, double wmax) {
    (void)n, (void)spread, (void)base2, (void)wmax;
    cx->have_cast_in = s == cx->cast_out;
    return s;
}
/* Roundings the contract does not make, widened bounds and other blockings leave the
 * exact value as it is (td_sh_kround, td_sh_widen, td_sh_reblock). */
static inline td_mp td_mp_kround(td_mpcx *cx, td_mp a, int slot) {
    (void)slot;
    cx->have_cast_in = a == cx->cast_out;
    return a;
}
static inline td_mp td_mp_kround_abs(td_mpcx *cx, td_mp a, int slot, double count, double relmag) {
    (void)slot, (void)count, (void)relmag;
    cx->have_cast_in = a == cx->cast_out;
    return a;
}
static inline td_mp td_mp_kround_to(td_mpcx *cx, td_mp a, td_profile p) {
    (void)p;
    cx->have_cast_in = a == cx->cast_out;
    return a;
}
static inline td_mp td_mp_kround_abs_to(td_mpcx *cx, td_mp a, td_profile p, double count, double relmag) {
    (void)p, (void)count, (void)relmag;
    cx->have_cast_in = a == cx->cast_out;
    return a;
}
static inline td_mp td_mp_widen(td_mpcx *cx, td_mp a, double e, const char *why) {
    (void)e, (void)why;
    cx->have_cast_in = a == cx->cast_out;
    return a;
}
static inline td_mp td_mp_reblock(td_mpcx *cx, td_mp s, long n, double smag, double wmax, int base2, int muls, int divs) {
    (void)n, (void)smag, (void)wmax, (void)base2, (void)muls, (void)divs;
    cx->have_cast_in = s == cx->cast_out;
    return s;
}
static inline double td_mp_reblock_loc(td_mpcx *cx, long n, double smag, double wmax, int base2, int muls, int divs,
                                       int args) {
    (void)cx, (void)n, (void)smag, (void)wmax, (void)base2, (void)muls, (void)divs, (void)args;
    return 0.0;
}
/* value bounds (td_sh_hi, td_sh_up, td_sh_down): the exact value, rounded outward */
double td_mp_hi(td_mpcx *cx, td_mp a);
double td_mp_up(td_mpcx *cx, td_mp a);
double td_mp_down(td_mpcx *cx, td_mp a);

TD_NOCOV_END
#endif
