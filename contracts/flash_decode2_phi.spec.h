/* The spec of contracts/flash_decode2_phi.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

static NUM SPEC(accstep)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], i = l->idx[2], k = c->p[A_K].i;
    size_t lo = (size_t)(b * c->p[A_LOGIC_B].i + h * c->p[A_LOGIC_H].i);
    NUM ml = N(in)(cx, c, AR_MAX, lo), nml = N(in)(cx, c, AR_NEWMAX, lo);
    NUM tl = N(in)(cx, c, AR_E, (size_t)(b * c->p[S_E_B].i + h * c->p[S_E_H].i + k));
    NUM old_scale = N(exp)(cx, N(sub)(cx, ml, nml));
    NUM exp_logic = N(exp)(cx, N(sub)(cx, tl, nml));
    if (l->o == 1) { /* sum_exp = sum_exp * old_scale + exp_logic */
        NUM sum = N(in)(cx, c, AR_SUMIN, (size_t)(b * c->p[A_SUM_B].i + h * c->p[A_SUM_H].i));
        return N(add)(cx, N(mul)(cx, sum, old_scale), exp_logic);
    }
    NUM acc = N(in)(cx, c, AR_ACCIN, (size_t)(b * c->p[A_ACC_B].i + h * c->p[A_ACC_H].i + i * c->p[A_ACC_D].i));
    NUM tv = N(in)(cx, c, AR_MID,
                   (size_t)(b * c->p[S_MID_OB].i + h * c->p[S_MID_OH].i + k * c->p[S_MID_OS].i + i * c->p[S_MID_OD].i));
    acc = N(mul)(cx, acc, old_scale);                   /* acc = acc * old_scale */
    return N(add)(cx, acc, N(mul)(cx, exp_logic, tv)); /* acc = acc + exp_logic * tv */
}
static NUM SPEC(fold)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], k = l->idx[2];
    NUM m = N(exact)(cx, -INFINITY); /* runningMaxAfter 0 = bot */
    for (int64_t j = 0; j < k; j++)
        m = N(max)(cx, N(in)(cx, c, XR_E, (size_t)(b * c->p[S_E_B].i + h * c->p[S_E_H].i + j)), m);
    return m;
}
static NUM SPEC(norm)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], i = l->idx[2];
    NUM acc = N(in)(cx, c, NR_ACC, (size_t)(b * c->p[N_ACC_B].i + h * c->p[N_ACC_H].i + i * c->p[N_ACC_D].i));
    NUM sum = N(in)(cx, c, NR_SUM, (size_t)(b * c->p[N_SUM_B].i + h * c->p[N_SUM_H].i));
    return N(div)(cx, acc, sum);
}
static NUM SPEC(copy)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], i = l->idx[2];
    return N(in)(cx, c, FR_FINAL, (size_t)(b * c->p[F_FB].i + h * c->p[F_FH].i + i * c->p[F_FD].i));
}
static NUM SPEC(copy_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(copy)(cx, c, l), C_STORE);
}

