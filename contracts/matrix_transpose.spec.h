/* The spec of contracts/matrix_transpose.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(transpose)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t d = l->idx[0], m = l->idx[1]; /* matrixAddr: m * matrix_stridex + d * matrix_stridey */
    return N(in)(cx, c, R_M, (size_t)(m * c->p[P_MSX].i + d * c->p[P_MSY].i));
}

