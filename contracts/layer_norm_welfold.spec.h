/* The spec of contracts/layer_norm_welfold.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "layernorm_common.spec.h"

static NUM SPEC(summary)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t row = l->pid[0];
    int64_t rn = c->p[P_RNUMEL].i;
    NUM mean, rstd;
    SPEC(ln_tile_stats)(cx, c, R_IN0, row * (uint64_t)rn, rn, c->p[P_RBLOCK].i, 0, 1, N(lit_dec)(cx, "1e-05"), (double)1e-05f,
                        row, &mean, &rstd);
    if (l->o == 0) return mean;
    if (l->o == 1) return rstd;
    return SPEC(ln_affine)(cx, N(in)(cx, c, R_IN0, l->off), mean, rstd, N(in)(cx, c, R_IN1, l->j),
                           N(in)(cx, c, R_IN2, l->j));
}

static NUM SPEC(normalize)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t p0 = l->pid[0], col = (uint64_t)l->idx[1];
    return SPEC(ln_affine)(cx, N(in)(cx, c, R_IN0, l->off), N(in)(cx, c, R_IO0, p0), N(in)(cx, c, R_IO1, p0),
                           N(in)(cx, c, R_IN1, col), N(in)(cx, c, R_IN2, col));
}


/* Intent (layernorm_common.spec.h): layer norm of each row over its rnumel columns. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(ln_inductor_intent)(cx, c, l, R_IN0, R_IN1, R_IN2, c->p[P_RNUMEL].i);
}
