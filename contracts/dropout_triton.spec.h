/* The spec of contracts/dropout_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(dropout)(NCX *cx, const td_case *c, const td_olane *l) {
    if (!td_geti(c, R_KEEP, l->off)) return N(exact)(cx, 0.0);
    NUM scale = N(sub)(cx, N(exact)(cx, 1.0), N(exact)(cx, c->p[P_P].r));
    return N(div)(cx, N(in)(cx, c, R_X, l->off), scale);
}

