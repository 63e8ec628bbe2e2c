/* The spec of contracts/layer_norm_liger.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "layernorm_common.spec.h"

static NUM SPEC(fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t row = l->pid[0], base = row * (uint64_t)c->p[P_XS].i;
    NUM mean, rstd;
    SPEC(ln_tile_stats)(cx, c, R_X, base, c->p[P_N].i, c->p[P_BLOCK].i, 1, 1, N(exact)(cx, c->p[P_EPS].r), c->p[P_EPS].r, row,
                        &mean, &rstd);
    if (l->o == 1) return mean;
    if (l->o == 2) return rstd;
    return SPEC(ln_affine)(cx, N(in)(cx, c, R_X, base + l->j), mean, rstd, N(in)(cx, c, R_W, l->j),
                           N(in)(cx, c, R_B, l->j));
}

/* The intent (layernorm_common.spec.h): layer norm of each row over its n_cols columns. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t row = l->pid[0], base = row * (uint64_t)c->p[P_XS].i;
    NUM mean, rstd;
    SPEC(ln_intent_stats)(cx, c, R_X, base, c->p[P_N].i, N(exact)(cx, c->p[P_EPS].r), c->p[P_EPS].r, row, &mean,
                          &rstd);
    if (l->o == 1) return mean;
    if (l->o == 2) return rstd;
    return SPEC(ln_affine)(cx, N(in)(cx, c, R_X, base + l->j), mean, rstd, N(in)(cx, c, R_W, l->j),
                           N(in)(cx, c, R_B, l->j));
}

static NUM SPEC(copy)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, l->o == 0 ? RS_MEANPRE : RS_RSTDPRE, l->off);
}
static NUM SPEC(copy_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(copy)(cx, c, l), C_STORE);
}

