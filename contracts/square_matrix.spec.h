/* The spec of contracts/square_matrix.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(square)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM x = N(in)(cx, c, R_IN, (size_t)(l->idx[0] * c->p[P_IN_STRIDE].i + l->idx[1]));
    return N(mul)(cx, x, x);
}

