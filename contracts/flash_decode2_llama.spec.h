/* The spec of contracts/flash_decode2_llama.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

static NUM SPEC(norm)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], i = l->idx[2];
    NUM acc = N(in)(cx, c, NR_ACC, (size_t)(b * c->p[N_ACC_B].i + h * c->p[N_ACC_H].i + i * c->p[N_ACC_D].i));
    NUM sum = N(in)(cx, c, NR_SUM, (size_t)(b * c->p[N_SUM_B].i + h * c->p[N_SUM_H].i));
    return SPEC(k16)(cx, N(div)(cx, acc, sum)); /* acc / sum_exp, stored into the fp16 O */
}
static NUM SPEC(runmax)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1];
    NUM t = N(in)(cx, c, MR_E, (size_t)(b * c->p[M_E_B].i + h * c->p[M_E_H].i + c->p[M_K].i));
    NUM m = N(in)(cx, c, MR_MAX, (size_t)(b * c->p[M_LOGIC_B].i + h * c->p[M_LOGIC_H].i));
    return N(max)(cx, t, m);
}
static NUM SPEC(copy)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], i = l->idx[2];
    return N(in)(cx, c, FR_FINAL, (size_t)(b * c->p[F_FB].i + h * c->p[F_FH].i + i * c->p[F_FD].i));
}
static NUM SPEC(copy_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(copy)(cx, c, l), C_STORE);
}

