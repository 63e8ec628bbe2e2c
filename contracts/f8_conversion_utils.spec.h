/* The spec of contracts/f8_conversion_utils.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(convert)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, N(in)(cx, c, R_X, l->off), C_STORE);
}

