/* The spec of contracts/triton_mul2.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(mul2)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, N(exact)(cx, 2.0), N(in)(cx, c, R_IN, l->off));
}
static NUM SPEC(mul2_inplace)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, N(exact)(cx, 2.0), N(in)(cx, c, R_PTR, l->off));
}


/* The intent (docs/intent.md): torch.mul(x, 2), exact, rounded once to the output. */
static NUM SPEC(mul2_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, N(in)(cx, c, R_IN, l->off), N(exact)(cx, 2.0));
}
static NUM SPEC(mul2_inplace_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, N(in)(cx, c, R_PTR, l->off), N(exact)(cx, 2.0));
}
