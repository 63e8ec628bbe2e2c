/* The spec of contracts/relu_strided_buffer.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(relu)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(max)(cx, N(exact)(cx, 0.0), N(in)(cx, c, R_IN, (size_t)(l->idx[0] * c->p[P_IN_STRIDE].i)));
}
static NUM SPEC(relu_store)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(relu)(cx, c, l), C_STORE);
}

