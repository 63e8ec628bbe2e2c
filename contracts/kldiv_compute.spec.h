/* The spec of contracts/kldiv_compute.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(kl)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM x = N(in)(cx, c, R_X, l->off), y = N(in)(cx, c, R_Y, l->off);
    return N(mul)(cx, x, N(log)(cx, N(div)(cx, x, y)));
}

